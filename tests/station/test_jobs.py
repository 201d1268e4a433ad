"""The station's pool (app/station/jobs.py): a closing station waits for its jobs, but not
for ever: a job stuck on a device or a database that stopped answering is left running
after the deadline and counted, so the station still closes."""

from __future__ import annotations

import threading

from app.station.jobs import Jobs


def test_closing_waits_for_jobs_that_end_and_counts_none_left() -> None:
    jobs = Jobs(2, "test-jobs")
    done: list[int] = []
    for n in range(5):
        jobs.submit(lambda n=n: done.append(n))
    assert jobs.close(deadline=60) == 0
    assert sorted(done) == [0, 1, 2, 3, 4]


def test_closing_stops_waiting_at_the_deadline_and_counts_the_job_still_running() -> None:
    jobs = Jobs(2, "test-jobs")
    release = threading.Event()
    started = threading.Event()

    def stuck() -> None:
        started.set()
        release.wait(60)  # a printer that never answers, until the test lets it go

    jobs.submit(stuck)
    assert started.wait(60), "the stuck job never started on the pool"
    try:
        assert jobs.close(deadline=0.2) == 1
    finally:
        release.set()


def test_a_second_close_does_nothing() -> None:
    jobs = Jobs(1, "test-jobs")
    assert jobs.close() == 0
    assert jobs.close() == 0
