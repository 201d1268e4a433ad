"""The demo floor's tables are on the linked progressive (`paigow-floor --demo`): each
table's headless dealer takes progressive wagers beside the main wagers, and a hit is paid
after the table's supervisor signs in, so the demo's progressive page has a meter that
moves, contributions per table and hits. Checked by the ledger's own audit."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.orm import Session

from app.core.cards import DECK, Card, parse_cards
from app.core.progressive import progressive_card
from app.floor.main import DEMO_PROGRESSIVE
from app.floor.stations import HeadlessStation
from app.ledger import progressive

from .conftest import PASSWORD

CARD = progressive_card(DEMO_PROGRESSIVE)  # four of a kind pays $75, from the house


def every_hand_four_of_a_kind() -> tuple[Card, ...]:
    """A deck whose seven stacks of seven each hold four of a kind (aces down to eights,
    each with three of the low cards), whichever position the action gives each stack."""
    low = iter(parse_cards("2S 3H 4D 5C 6S 7H 2H 3D 4C 5S 6H 7D 2D 3C 4S 5H 6D 7C 2C 3S 4H"))
    stacks = [list(parse_cards(" ".join(f"{rank}{suit}" for suit in "SHDC")))
              + [next(low) for _ in range(3)] for rank in "AKQJT98"]
    dealt = [c for stack in stacks for c in stack]
    return tuple(dealt + [c for c in DECK if c not in set(dealt)])


def test_a_demo_table_feeds_the_meter_with_every_wager_and_pays_a_hit_after_a_sign_in(
        url: str, tmp_path: Path) -> None:
    st = HeadlessStation(url, "PG-1", tmp_path / "st1", seed=11, void_chance=0.0,
                         foul_chance=0.0, supervisor=("Pat", PASSWORD),
                         progressive=CARD, progressive_chance=1.0,
                         decks=[every_hand_four_of_a_kind()])
    try:
        played = []
        for _ in range(3):  # the stacked deck, then two shuffled ones
            assert st.play_round()
            rnd = st.session.round
            assert rnd is not None and rnd.slip is not None and rnd.slip.progressive
            played.append(rnd.slip.progressive.lines)
        first = played[0]
        assert first and all(x.hit for x in first)  # every seat that bet it holds quads
        assert not st.session.play.progressive.due()  # paid after the sign-in: none waits
        with Session(st.store.engine) as s:
            audit = progressive.audit(s, CARD.name, CARD)
        assert audit.exact, audit.problems
        # every wager taken reached the meter, once; each hit paid $75 by the house
        assert audit.sums.wagers == sum(len(lines) for lines in played)
        assert audit.sums.fixed_paid == 7500 * len(first) and not audit.owed
        assert audit.reading is not None and audit.reading.amount == \
            CARD.seed + audit.sums.contributions
    finally:
        st.close()
