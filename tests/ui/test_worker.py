"""The window's worker (app/ui/worker.py): "Jobs run one at a time, in the order they were
given: a round's records are journalled in the order the session made them." Woken by a
job it gathers before it starts, then runs every job queued by then."""

from __future__ import annotations

import threading

from app.ui.worker import Worker


def test_jobs_given_while_the_worker_gathers_or_works_run_in_the_order_given(qtbot):
    worker = Worker()
    ran: list[int] = []
    answers: list[tuple[object, object]] = []
    hold = threading.Event()
    worker.submit(hold.wait)  # busy: what follows queues up behind it
    for i in range(20):
        worker.submit(lambda i=i: ran.append(i) or i,
                      lambda result, error: answers.append((result, error)))
    hold.set()
    worker.wait()
    assert ran == list(range(20))
    qtbot.waitUntil(lambda: len(answers) == 20, timeout=60_000)
    assert answers == [(i, None) for i in range(20)]
    worker.close()


def test_closing_runs_every_job_given_before_it_even_mid_gathering(qtbot):  # noqa: ARG001
    """The close comes in the same gathered batch as the jobs before it: they run, then the
    thread stops."""
    worker = Worker()
    ran: list[int] = []
    for i in range(5):
        worker.submit(lambda i=i: ran.append(i))
    worker.close()
    assert ran == [0, 1, 2, 3, 4]
    assert worker.closed


def test_a_job_that_fails_hands_its_error_back_and_the_next_runs(qtbot):
    worker = Worker()
    answers: list[tuple[object, object]] = []

    def fails() -> None:
        raise OSError("disk full")

    worker.submit(fails, lambda result, error: answers.append((result, error)))
    worker.submit(lambda: "written", lambda result, error: answers.append((result, error)))
    worker.wait()
    qtbot.waitUntil(lambda: len(answers) == 2, timeout=60_000)
    (none, error), second = answers
    assert none is None and isinstance(error, OSError) and str(error) == "disk full"
    assert second == ("written", None)
    worker.close()
