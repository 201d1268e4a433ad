"""Cards as a dealer reads them: `AS KD 10H TH JK`.

The 53 cards are interned: `card("AS") is card("as")`, so cards compare by identity
and hash fast. Each card carries `bits`, the integer the hand evaluator works on.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum, IntEnum


class CardError(ValueError):
    """Card text a dealer typed or a device sent that is not a legal set of cards."""


class Rank(IntEnum):
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def char(self) -> str:
        return RANK_CHARS[self - 2]

    @property
    def plural(self) -> str:
        return RANK_PLURALS[self - 2]


class Suit(Enum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"


RANK_CHARS = "23456789TJQKA"
RANK_PLURALS = ("2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "10s",
                "Jacks", "Queens", "Kings", "Aces")
SUIT_BITS = {Suit.SPADES: 1, Suit.HEARTS: 2, Suit.DIAMONDS: 4, Suit.CLUBS: 8}
_GLYPHS = {"♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C"}
# One prime per rank (2..A) and one for the joker: a product of primes names a multiset.
PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
JOKER_PRIME = 43
JOKER_RANKBIT = 1 << 13


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One of the 53 cards. `rank` and `suit` are None for the joker."""

    rank: Rank | None
    suit: Suit | None
    index: int = field(compare=False)
    # rankbit << 16 | suitbits << 12 | prime: the joker carries every suit bit so that
    # AND-ing suits still detects four suited cards plus the joker as a flush.
    bits: int = field(compare=False)

    @property
    def is_joker(self) -> bool:
        return self.rank is None

    def __str__(self) -> str:
        if self.rank is None or self.suit is None:
            return "JK"
        return self.rank.char + self.suit.value

    def __repr__(self) -> str:
        return f"card({str(self)!r})"


def _make_deck() -> tuple[Card, ...]:
    deck: list[Card] = []
    for suit in Suit:
        for rank in Rank:
            bits = (1 << (rank - 2)) << 16 | SUIT_BITS[suit] << 12 | PRIMES[rank - 2]
            deck.append(Card(rank, suit, len(deck), bits))
    deck.append(Card(None, None, len(deck), JOKER_RANKBIT << 16 | 0xF << 12 | JOKER_PRIME))
    return tuple(deck)


DECK: tuple[Card, ...] = _make_deck()
JOKER: Card = DECK[52]
_BY_TEXT: dict[str, Card] = {str(c): c for c in DECK}


def card(token: str) -> Card:
    """One card from dealer text: `AS`, `10h`, `Td`, `K♣`, `JK` (or `joker`)."""
    text = token.strip().upper()
    for glyph, letter in _GLYPHS.items():
        text = text.replace(glyph, letter)
    if text in ("JK", "JOKER", "JKR"):
        return JOKER
    if text.startswith("10"):
        text = "T" + text[2:]
    found = _BY_TEXT.get(text)
    if found is None:
        raise CardError(
            f"{token!r} is not a card: write a rank 2-9, T (or 10), J, Q, K, A and a suit "
            f"S, H, D, C (e.g. AS, 10H), or JK for the joker"
        )
    return found


def parse_cards(text: str | Iterable[str], count: int | tuple[int, ...] | None = None
                ) -> tuple[Card, ...]:
    """Cards from text like `"AS KD 10H JK"` (spaces or commas), checked for duplicates.

    `count` demands exactly that many cards (or one of several counts).
    """
    if isinstance(text, str):
        tokens = text.replace(",", " ").split()
    else:
        tokens = [t for item in text for t in str(item).replace(",", " ").split()]
    cards = tuple(card(t) for t in tokens)
    _check_distinct(tokens, cards)
    if count is not None:
        allowed = (count,) if isinstance(count, int) else count
        if len(cards) not in allowed:
            want = " or ".join(str(n) for n in allowed)
            shown = " ".join(tokens) or "(none)"
            raise CardError(f"expected {want} cards, got {len(cards)}: {shown}")
    return cards


def _check_distinct(tokens: list[str], cards: tuple[Card, ...]) -> None:
    seen: dict[Card, str] = {}
    for token, c in zip(tokens, cards, strict=True):
        if c in seen:
            if c.is_joker:
                raise CardError(f"{token!r} is a second joker: the deck has only one")
            raise CardError(
                f"{token!r} is a duplicate of {seen[c]!r}: each card is in the deck once")
        seen[c] = token


def cards_text(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Highest first, the joker before the aces: the order a dealer fans a hand."""
    return sorted(cards, key=lambda c: (15 if c.rank is None else int(c.rank), c.index),
                  reverse=True)
