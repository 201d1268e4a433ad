"""Card text as a dealer types it, and the errors that name the bad token."""

import pytest

from app.core.cards import DECK, JOKER, CardError, Rank, Suit, card, cards_text, parse_cards


def test_deck_has_52_cards_and_one_joker():
    assert len(DECK) == 53
    assert len(set(DECK)) == 53
    assert [c for c in DECK if c.is_joker] == [JOKER]


@pytest.mark.parametrize("text, rank, suit", [
    ("AS", Rank.ACE, Suit.SPADES), ("as", Rank.ACE, Suit.SPADES), ("10H", Rank.TEN, Suit.HEARTS),
    ("th", Rank.TEN, Suit.HEARTS), ("K♣", Rank.KING, Suit.CLUBS), ("2♦", Rank.TWO, Suit.DIAMONDS),
    ("q♥", Rank.QUEEN, Suit.HEARTS), ("J♠", Rank.JACK, Suit.SPADES),
])
def test_card_text_is_case_insensitive_and_takes_10_and_glyphs(text, rank, suit):
    c = card(text)
    assert (c.rank, c.suit) == (rank, suit)


def test_joker_is_written_jk_and_prints_jk():
    assert card("jk") is JOKER and card("Joker") is JOKER
    assert str(JOKER) == "JK"


def test_cards_print_back_as_dealer_text():
    assert cards_text(parse_cards("as 10h kd jk")) == "AS TH KD JK"


def test_cards_are_interned_so_the_same_card_is_the_same_object():
    assert card("AS") is card("as") is parse_cards("A♠")[0]


@pytest.mark.parametrize("text, named", [
    ("AS XX", "'XX'"), ("AS 1H", "'1H'"), ("AS KZ", "'KZ'"), ("11S", "'11S'"),
])
def test_bad_token_is_an_error_naming_the_token(text, named):
    with pytest.raises(CardError, match=named):
        parse_cards(text)


def test_duplicate_card_is_an_error_naming_both_tokens():
    with pytest.raises(CardError, match=r"'th' is a duplicate of '10H'"):
        parse_cards("10H KD th")


def test_second_joker_is_an_error():
    with pytest.raises(CardError, match="second joker"):
        parse_cards("JK AS joker")


def test_wrong_count_is_an_error_saying_how_many():
    with pytest.raises(CardError, match="expected 7 cards, got 3"):
        parse_cards("AS KS QS", count=7)
    assert len(parse_cards("AS KS", count=(2, 5))) == 2
