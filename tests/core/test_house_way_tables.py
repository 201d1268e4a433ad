"""The House Way by table (app/core/house_way/tables.py) is the card itself: every
flush-free rank pattern is set by the card, and the table answers any hand of that pattern,
whatever its suits and whatever order it is typed in, with the card's setting, row and
step. Every hand that can make a flush has a flush entry: its shape (the ranks place by
place and the places the flush suit holds) is set once by the card, and every hand of that
shape is set alike."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from app.core.cards import DECK, Card, cards_text
from app.core.hands import DEFAULT_RULES, HandRules
from app.core.house_way import WAYS, house_way
from app.core.house_way.tables import (
    PATTERNS,
    PLACE,
    SHAPES,
    TableWay,
    build,
    encode,
    flush_entries,
    flush_possible,
    flush_shapes,
    load,
    save,
    setting_table,
    shape_hand,
    shape_key,
)
from app.core.house_way.tables import SUIT as SUIT_COUNT

from .test_house_way_golden import CASES

CARD_FILE = Path(__file__).resolve().parents[2] / "config" / "house-ways" / "trump-plaza.toml"


def random_hands(rng: random.Random, count: int) -> list[tuple[Card, ...]]:
    """Random hands, most of them from few ranks (pairs, trips, quads: where a card chooses
    among cards of one rank) and some from two suits and the joker (flushes)."""
    out = []
    for n in range(count):
        if n % 3 == 0:
            pool = list(DECK)
        elif n % 3 == 1:
            ranks = rng.sample(range(13), 4)
            pool = [DECK[s * 13 + r] for r in ranks for s in range(4)] + [DECK[52]]
        else:
            pool = [*DECK[:26], DECK[52]]
        out.append(tuple(rng.sample(pool, 7)))
    return out


def same(card_result: object, table_result: object, hand: tuple[Card, ...]) -> None:
    assert table_result == card_result, f"{cards_text(hand)}: table {table_result}, card " \
                                        f"{card_result}"


@pytest.mark.parametrize("way", sorted(WAYS))
def test_table_sets_every_hand_as_the_card_does_with_the_row_and_the_step(way: str) -> None:
    card = house_way(way)
    fast = TableWay(way, DEFAULT_RULES)
    rng = random.Random(f"tables/{way}")
    for hand in random_hands(rng, 3000):
        same(card.set(hand), fast.set(hand), hand)
        shuffled = tuple(rng.sample(hand, 7))
        same(card.set(hand), fast.set(shuffled), shuffled)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_table_sets_the_golden_hand_as_the_card_in_any_order_typed(case: object) -> None:
    hand: tuple[Card, ...] = case.hand  # type: ignore[attr-defined]
    way: str = case.way  # type: ignore[attr-defined]
    card = house_way(way)
    fast = TableWay(way)
    expected = card.set(hand)
    rng = random.Random(cards_text(hand))
    for _ in range(5):
        shuffled = tuple(rng.sample(hand, 7))
        same(expected, fast.set(shuffled), shuffled)


def test_table_follows_the_tables_hand_rules() -> None:
    rules = HandRules(wheel="lowest")
    card = house_way("standard")
    fast = TableWay("standard", rules)
    for hand in random_hands(random.Random(str(rules)), 1000):
        same(card.set(hand, rules), fast.set(hand), hand)


def test_every_flush_free_rank_pattern_is_in_the_table() -> None:
    table = setting_table("standard")
    assert len(table.entries) == PATTERNS == 67_600


def test_a_hand_that_can_make_a_flush_is_not_in_the_rank_pattern_table() -> None:
    table = setting_table("standard")
    flush = [DECK[i] for i in (0, 2, 4, 6, 8, 20, 30)]  # five spades
    four_and_joker = [DECK[i] for i in (0, 2, 4, 6, 20, 30, 52)]
    for hand in (flush, four_and_joker):
        assert flush_possible(sum(SUIT_COUNT[c.index] for c in hand))
        assert table.entry([c.index for c in hand]) is None


def test_a_kept_table_reads_back_entry_for_entry(tmp_path: Path) -> None:
    table = setting_table("delaware-park")
    save(table, tmp_path / "t.tbl")
    again = load(tmp_path / "t.tbl")
    assert again is not None
    assert again.entries == table.entries
    assert again.strengths == table.strengths
    assert again.rows == table.rows


def test_a_damaged_table_file_is_not_read(tmp_path: Path) -> None:
    table = setting_table("standard")
    save(table, tmp_path / "t.tbl")
    data = (tmp_path / "t.tbl").read_bytes()
    (tmp_path / "t.tbl").write_bytes(data[:-10])
    assert load(tmp_path / "t.tbl") is None


@pytest.mark.slow
@pytest.mark.parametrize("way", sorted(WAYS))
def test_kept_table_agrees_with_the_card_rebuilt_on_every_entry(way: str) -> None:
    """The cached table (named by a digest of the card and the code) against the card
    itself, entry by entry: a stale or damaged table fails here."""
    kept = setting_table(way)
    fresh = build(house_way(way), DEFAULT_RULES)
    wrong = [k for k, e in fresh.entries.items() if kept.entries.get(k) != e]
    assert not wrong, f"{way}: {len(wrong)} entries differ from the card"
    assert kept.strengths == fresh.strengths
    assert kept.rows == fresh.rows


def test_a_card_file_gets_a_table_keyed_by_its_content(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from app.core.house_way import tables
    from app.core.house_way.card_file import load_card

    monkeypatch.setenv("PAIGOW_CACHE_DIR", str(tmp_path))
    card = load_card(CARD_FILE, "ours")
    table = setting_table(card)
    assert table.path is not None and table.path.parent == tmp_path
    changed = tmp_path / "ours.toml"
    changed.write_text(CARD_FILE.read_text(encoding="utf-8") + "\n# changed\n",
                       encoding="utf-8")
    other = tables.table_path("ours", DEFAULT_RULES, tables.card_source("ours",
                                                                        load_card(changed)) or b"")
    assert other != table.path
    fast = TableWay(card)
    for hand in random_hands(random.Random("card file"), 600):
        same(card.set(hand), fast.set(hand), hand)


def test_a_new_table_replaces_only_the_same_cards_older_table_of_its_kind(
        tmp_path: Path) -> None:
    from app.core.house_way.tables import _write

    older = tmp_path / f"standard-bug-second-flush-{'a' * 20}.tbl"
    other_kind = tmp_path / f"standard-bug-second-flush-entries-{'b' * 20}.tbl"
    other_card = tmp_path / f"standard-bug-lowest-flush-{'c' * 20}.tbl"
    for path in (older, other_kind, other_card):
        path.write_bytes(b"x")
    newer = tmp_path / f"standard-bug-second-flush-{'d' * 20}.tbl"
    _write(newer, [b"table"])
    assert newer.read_bytes() == b"table"
    assert not older.exists()
    assert other_kind.exists() and other_card.exists()


# --- the flush entries ---------------------------------------------------------------------

def flush_hands(rng: random.Random, count: int) -> list[tuple[Card, ...]]:
    """Random hands that can make a flush, typed in random order: most with off-suit cards
    that share the flush cards' ranks (where a card's choice among cards of one rank
    depends on where the flush card stands among them in deck order), many with the
    joker."""
    out: list[tuple[Card, ...]] = []
    while len(out) < count:
        suit = rng.randrange(4)
        hand = rng.sample(range(13 * suit, 13 * suit + 13), rng.choice((4, 5, 5, 6, 7)))
        if len(hand) == 4 or rng.random() < 0.3:
            hand.append(52)
        ranks = {i % 13 for i in hand if i != 52}
        sharing = [i for i in range(52) if i % 13 in ranks and i // 13 != suit]
        while len(hand) < 7:
            pick = rng.choice(sharing if rng.random() < 0.7 else range(53))
            if pick not in hand:
                hand.append(pick)
        cards = tuple(DECK[i] for i in rng.sample(hand[:7], 7))
        if len(set(cards)) == 7 and flush_possible(sum(SUIT_COUNT[c.index] for c in cards)):
            out.append(cards)
    return out


def key_of(hand: tuple[Card, ...]) -> int:
    idx = [c.index for c in hand]
    return shape_key(sorted(idx, key=PLACE.__getitem__), sum(SUIT_COUNT[i] for i in idx))


@pytest.mark.parametrize("way", sorted(WAYS))
def test_every_hand_of_a_flush_shape_is_set_as_the_hand_its_entry_keeps(way: str) -> None:
    """A flush entry is the card's setting of one hand of the shape (`shape_hand`); the
    card must set every hand of that shape alike, place by place, row and step."""
    card = house_way(way)
    rng = random.Random(f"shapes/{way}")
    for hand in flush_hands(rng, 2500):
        kept = shape_hand(hand)
        assert key_of(kept) == key_of(hand)
        assert encode(card, hand, card.set(hand)) == encode(card, kept, card.set(kept)), \
            f"{cards_text(hand)} is set unlike {cards_text(kept)}, the hand of its shape"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_a_golden_flush_hand_is_set_as_the_hand_of_its_shape(case: object) -> None:
    hand: tuple[Card, ...] = case.hand  # type: ignore[attr-defined]
    if not flush_possible(sum(SUIT_COUNT[c.index] for c in hand)):
        return  # a flush-free hand: the rank-pattern table's tests above
    card = house_way(case.way)  # type: ignore[attr-defined]
    kept = shape_hand(hand)
    assert encode(card, hand, card.set(hand)) == encode(card, kept, card.set(kept))


@pytest.mark.slow
def test_every_flush_shape_is_made_once_by_a_real_hand_of_it() -> None:
    keys = set()
    for key, hand in flush_shapes():
        assert len(set(hand)) == 7
        assert flush_possible(sum(SUIT_COUNT[c.index] for c in hand))
        assert key_of(hand) == key
        keys.add(key)
    assert len(keys) == SHAPES == 388_674


@pytest.mark.slow
@pytest.mark.parametrize("way", sorted(WAYS))
def test_flush_entries_set_every_flush_hand_as_the_card_in_any_order_typed(way: str) -> None:
    """The kept flush entries (built by the card, about a minute a card, once) leave no
    flush hand to the card and answer each as the card does."""
    entries = flush_entries(way, build=True)
    assert entries is not None and len(entries) == SHAPES
    card = house_way(way)
    fast = TableWay(way, flushes=entries)
    rng = random.Random(f"flush entries/{way}")
    for hand in flush_hands(rng, 3000):
        same(card.set(hand), fast.set(hand), hand)
    for case in (c for c in CASES if c.way == way):
        expected = card.set(case.hand)
        for _ in range(5):
            shuffled = tuple(rng.sample(case.hand, 7))
            same(expected, fast.set(shuffled), shuffled)
