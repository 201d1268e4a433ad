"""A card lost on the serial line leaves a hole at its own place in the deal; every later
card stays where it was dealt (issue "Faults at the table, part two": before, all seven
positions after the lost card were one card off)."""

from __future__ import annotations

from app.core.table import (
    DealMode,
    Table,
    deal_one_at_a_time,
    holes_in,
    place_of_seq,
)
from drivers.shoe.deal_order import WRAP, DealStart
from drivers.shoe.protocol import ActionRead, Fault, FaultKind, ShoeEvent

from .helpers import replay, shuffled_deck
from .recordings import HERE, SIMULATED, make

TABLE = Table(deal_mode=DealMode.ONE_AT_A_TIME)
LOST_AT = 12            # the recording's shoe lost the 12th card dealt (SIMULATED["lost-card"])


def placed(events: list[ShoeEvent], action: int) -> dict[int, tuple[int | None, str]]:
    """Each card read, by its place in the dealing order: (position, card)."""
    start = DealStart()
    out = {}
    for event in events:
        for n in start.see(event):
            assert n.seq is not None and start.first_seq is not None
            place = place_of_seq(TABLE, action, start.first_seq, n.seq, WRAP)
            out[place.index] = (place.position, str(n.card))
    return out


def test_the_recording_is_the_simulators_lost_card_round() -> None:
    assert SIMULATED["lost-card"]["inject"][0].at == LOST_AT
    assert make("lost-card") == (HERE / "lost-card.bin").read_bytes()


def test_a_card_lost_mid_deal_leaves_one_hole_and_every_later_card_is_at_its_own_place() -> None:
    events = replay((HERE / "lost-card.bin").read_bytes())
    lost = [e for e in events if isinstance(e, Fault) and e.kind is FaultKind.LOST]
    assert len(lost) == 1                          # asked again, never came: reported lost
    (number,) = [e.values[0] for e in events if isinstance(e, ActionRead)]
    action = TABLE.count(number)
    deck = shuffled_deck(SIMULATED["lost-card"]["seed"])
    whole = deal_one_at_a_time(TABLE, action, deck).by_position()
    got = placed(events, action)
    assert holes_in(got) == (LOST_AT - 1,)         # exactly one hole, at the lost card's place
    hole_position = TABLE.position_of_card(action, LOST_AT - 1)
    assert str(deck[LOST_AT - 1]) in map(str, whole[hole_position])
    assert sorted(got) == [i for i in range(49) if i != LOST_AT - 1]   # 48 read, BURN apart
    for index, (position, text) in got.items():
        assert position is not None and text in map(str, whole[position]), (index, text)
        assert text == str(deck[index])
    # The positions after the hole: each of the seven has its cards, none shifted on.
    after = [got[i][0] for i in range(LOST_AT, LOST_AT + 7)]
    assert after == [TABLE.position_of_card(action, i) for i in range(LOST_AT, LOST_AT + 7)]
    assert sorted(after) == list(range(7))
