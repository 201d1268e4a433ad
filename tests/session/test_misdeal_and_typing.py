"""A supervisor's misdeal (issue 17: "When a deal cannot be completed, a supervisor's misdeal
command (with who and why) ends it: today there is no misdeal key"), and typing a
position's cards while the shoe is online: for a card the shoe lost (a hole), or when a
supervisor allows it ("typing is refused while the shoe is online")."""

from __future__ import annotations

from app.core.cards import DECK
from app.core.round import Phase
from app.session import (
    CardRead,
    DealerCommand,
    DealerSession,
    KeyPressed,
    MemoryLedger,
    MemorySupervisors,
    ShoeStatus,
    SupervisorCommand,
    event_to_dict,
    keymap,
)
from app.session.commands import COMMANDS_BY_ID, help_rows

SUPERVISORS = MemorySupervisors({"Pat Lee": "tiger-lily-42"})


def _dealing(ledger: MemoryLedger, supervisors: MemorySupervisors | None = SUPERVISORS
             ) -> DealerSession:
    s = DealerSession(ledger=ledger, supervisors=supervisors, randbelow=lambda n: 0)
    ledger.open_shift("Ann")
    s.handle(ShoeStatus(True, "online", "online"))
    s.handle(DealerCommand("new"))
    for seat, dollars in ((1, "25"), (4, "40")):
        s.handle(DealerCommand("select", str(seat)))
        s.handle(DealerCommand("wager", dollars))
    s.handle(DealerCommand("rng"))
    assert s.round is not None and s.round.phase is Phase.DEALING
    return s


def test_the_misdeal_is_a_registry_command_with_a_key_words_and_why_not_now() -> None:
    command, _ = keymap()["Shift+M"]
    assert command is COMMANDS_BY_ID["misdeal"]
    s = DealerSession(ledger=MemoryLedger())
    row = next(r for r in help_rows(s) if r.key == "Shift+M")
    assert "misdeal" in row.words and row.why_not is not None and "no round" in row.why_not
    s.play.ledger.open_shift("Ann")  # type: ignore[union-attr]
    s.handle(DealerCommand("new"))
    assert "before action" in (COMMANDS_BY_ID["misdeal"].available(s) or "")


def test_the_misdeal_key_sends_the_dealer_to_the_supervisor() -> None:
    s = _dealing(MemoryLedger())
    changes = s.handle(KeyPressed("Shift+M"))
    assert changes.show == "misdeal" and "supervisor" in changes.message
    assert s.round is not None  # the key alone ends nothing


def test_a_supervisor_s_misdeal_ends_the_deal_returns_the_wagers_and_is_recorded() -> None:
    ledger = MemoryLedger()
    s = _dealing(ledger)
    for i, c in enumerate(DECK[:12]):
        s.handle(CardRead(c, 4 + i, 4))
    no = s.round.rotation.round_no  # type: ignore[union-attr]
    changes = s.handle(SupervisorCommand("misdeal", "Pat Lee", "card 12 shown face up",
                                         secret="tiger-lily-42"))
    assert changes.done, changes.message
    assert s.round is None and s.deal.stream == []
    assert "misdeal" in changes.message and "Every wager goes back" in changes.message
    assert ledger.voids == [(no, "misdeal: card 12 shown face up", "Pat Lee")]
    assert any("MISDEAL called by Pat Lee" in line for line in changes.log)
    assert changes.shoe == ("stop_deal",)


def test_a_misdeal_with_a_wrong_secret_does_nothing_and_says_so() -> None:
    ledger = MemoryLedger()
    s = _dealing(ledger)
    changes = s.handle(SupervisorCommand("misdeal", "Pat Lee", "why", secret="guess"))
    assert not changes.done and "not a supervisor with that secret" in changes.message
    assert s.round is not None and ledger.voids == []


def test_a_misdeal_says_why() -> None:
    s = _dealing(MemoryLedger())
    changes = s.handle(SupervisorCommand("misdeal", "Pat Lee", " ", secret="tiger-lily-42"))
    assert not changes.done and "a misdeal says why" in changes.message


def test_the_supervisor_s_secret_is_never_in_a_recorded_event() -> None:
    event = SupervisorCommand("misdeal", "Pat Lee", "why", secret="tiger-lily-42")
    assert "tiger-lily-42" not in str(event_to_dict(event))
    assert "tiger-lily-42" not in repr(event)


def test_typing_is_refused_while_the_shoe_is_online_unless_a_supervisor_allows_it() -> None:
    s = _dealing(MemoryLedger())
    s.handle(DealerCommand("select", "1"))
    refused = s.handle(DealerCommand("cards", "AS KD QH JC TS 9D 8C"))
    assert not refused.done and "a supervisor allows it" in refused.message
    wrong = s.handle(SupervisorCommand("allow_typing", "Pat Lee", "misreads", secret="x"))
    assert not wrong.done
    allowed = s.handle(SupervisorCommand("allow_typing", "Pat Lee", "the shoe misreads",
                                         secret="tiger-lily-42"))
    assert allowed.done and s.play.typing_allowed == "Pat Lee"
    assert any("Typing cards allowed by Pat Lee" in line for line in allowed.log)
    s.handle(DealerCommand("select", "1"))
    typed = s.handle(DealerCommand("cards", "AS KD QH JC TS 9D 8C"))
    assert typed.done, typed.message
    assert len(s.dealing()[1]) == 7


def test_a_card_the_shoe_lost_is_typed_for_its_position_while_the_shoe_is_online() -> None:
    s = _dealing(MemoryLedger())
    action = s.round.action.position  # type: ignore[union-attr]
    table = s.table
    lost = 3  # the 4th card of the deal never comes; the 5th does
    for i, c in enumerate(DECK[:6]):
        if i != lost:
            s.handle(CardRead(c, 4 + i, 4))
    owner = table.position_of_card(action, lost)
    assert owner is not None
    s.handle(DealerCommand("select", str(owner) if owner != 0 else "7"))
    typed = s.handle(DealerCommand("cards", str(DECK[lost])))
    assert typed.done, typed.message
    other = next(p for p in table.positions if p != owner)
    s.handle(DealerCommand("select", str(other) if other != 0 else "7"))
    refused = s.handle(DealerCommand("cards", str(DECK[40])))
    assert not refused.done  # no hole there: the shoe reads that hand
