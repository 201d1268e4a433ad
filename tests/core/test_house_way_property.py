"""Every House Way card sets every hand: seven cards in, 2 + 5 of the same cards out, never a
foul, and the row that fired is a row of that card."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.cards import DECK, Card, cards_text
from app.core.hands import foul_reason
from app.core.house_way import WAYS, hand_rules_for, house_way

SEVEN_CARDS = st.lists(st.integers(0, len(DECK) - 1), min_size=7, max_size=7, unique=True).map(
    lambda indexes: tuple(DECK[i] for i in indexes))


# 600 random hands a card (3,000 took 10 s of CPU a card): every card is also set on every
# one of the 154,143,080 hands, never a foul, in `make proof` (test_house_way_reach.py).
@pytest.mark.parametrize("way", sorted(WAYS))
@settings(max_examples=600, deadline=None)
@given(hand=SEVEN_CARDS)
def test_house_way_setting_is_legal_and_names_a_rule_of_the_card(
        way: str, hand: tuple[Card, ...]) -> None:
    card = house_way(way)

    result = card.set(hand)

    shown = f"{way}: {cards_text(hand)} -> {result.setting} by {result.rule.id}"
    assert len(result.low) == 2 and len(result.high) == 5, shown
    assert sorted(c.index for c in result.setting.cards) == sorted(c.index for c in hand), shown
    rules = hand_rules_for(way)  # the joker the card plays: the fully wild card's is any card
    assert foul_reason(result.setting, hand, rules) is None, \
        f"{shown}: {foul_reason(result.setting, hand, rules)}"
    assert result.way == way, shown
    assert any(result.rule is r for r in card.rules), f"{shown}: not a row of the card"
    if result.rule.steps:
        assert result.step is not None and any(result.step is s for s in result.rule.steps), \
            f"{shown}: a row that follows steps must name one of them"
    else:
        assert result.step is None, shown
