"""What every setting of a seven-card hand is worth against the dealer's House Way.

For a player's seven cards: every legal setting (each of the 21 two-card fronts that is not
a foul), its expected value per unit wagered against the banker's hand set the House Way,
over banker hands drawn at random from the other 46 cards (Monte Carlo, the same banker
hands for every setting, so the settings' differences are measured more closely than
their values), with the table's commission on a win and copies to the banker. The House
Way's own setting is marked, with what it gives up against the best one.

`advise()` is pure and reproducible: the same cards, seed and error give the same figures.
The station calls it for any hand of any round (the pit supervisor's window).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

from ..cards import DECK, Card, CardError, cards_text, sort_cards
from ..hands import DEFAULT_RULES, HandRules, Setting, foul_reason, ranker
from ..house_way import HouseWay, HouseWaySetting, house_way
from ..house_way.table import SHIFT, Table, hand_key, house_way_setting, table_of
from ..round_rules import RoundRules
from ..settlement import CommissionPolicy, money

Way = HouseWay | str  # a rule card, or its name (found as the config finds it)

# The commission of the table as shipped (config/default.toml): 5% rounded up to $0.25.
DEFAULT_COMMISSION = CommissionPolicy()
MASK = (1 << SHIFT) - 1
SCHEMA = "paigow.advice/1"
BATCH = 500  # banker hands between checks of the error
MIN_SAMPLES = 2_000
MAX_SAMPLES = 2_000_000
WIN, PUSH, LOSE = 0, 1, 2


class AdviceError(ValueError):
    """A hand or an option `advise` cannot take: what and why."""


@dataclass(frozen=True, slots=True)
class SettingValue:
    """One legal setting and what it is worth (per unit wagered) against the dealer."""

    setting: Setting
    front: int  # two-card strength
    back: int  # five-card strength
    ev: float
    se: float  # standard error of `ev`
    win: float
    push: float
    lose: float
    versus_house_way: float  # ev minus the House Way setting's ev (same banker hands)
    versus_house_way_se: float
    house_way: bool = False
    best: bool = False

    def to_dict(self) -> dict[str, object]:
        return {
            "low": [str(c) for c in self.setting.low],
            "high": [str(c) for c in self.setting.high],
            "ev": self.ev, "se": self.se,
            "win": self.win, "push": self.push, "lose": self.lose,
            "versus_house_way": self.versus_house_way,
            "versus_house_way_se": self.versus_house_way_se,
            "house_way": self.house_way, "best": self.best,
        }


@dataclass(frozen=True, slots=True)
class Advice:
    """Every legal setting of `cards`, best first, and the House Way's among them."""

    cards: tuple[Card, ...]
    way: str
    dealer_way: str
    house_way: HouseWaySetting
    settings: tuple[SettingValue, ...]
    samples: int  # banker hands drawn
    wager: int  # cents
    commission: int  # cents on a win of `wager`
    policy: CommissionPolicy
    rules: HandRules
    seed: int
    seconds: float = field(default=0.0, compare=False)

    @property
    def error(self) -> float:
        """The largest standard error of a setting's value."""
        return max(s.se for s in self.settings)

    @property
    def best(self) -> SettingValue:
        return self.settings[0]

    @property
    def house_way_value(self) -> SettingValue:
        return next(s for s in self.settings if s.house_way)

    @property
    def gives_up(self) -> float:
        """What the House Way's setting gives up against the best one, per unit wagered."""
        return self.best.versus_house_way if not self.best.house_way else 0.0

    @property
    def gives_up_se(self) -> float:
        return self.best.versus_house_way_se if not self.best.house_way else 0.0

    def to_dict(self) -> dict[str, object]:
        hw = self.house_way_value
        return {
            "schema": SCHEMA,
            "cards": [str(c) for c in self.cards],
            "way": self.way,
            "dealer_way": self.dealer_way,
            "rules": {"joker": self.rules.joker, "wheel": self.rules.wheel},
            "wager_cents": self.wager,
            "commission": {"policy": str(self.policy), "on_a_win_cents": self.commission},
            "samples": self.samples,
            "error": self.error,
            "seed": self.seed,
            "house_way": {
                "low": [str(c) for c in hw.setting.low],
                "high": [str(c) for c in hw.setting.high],
                "rule": self.house_way.rule.id,
                "step": self.house_way.step.id if self.house_way.step else None,
                "says": self.house_way.says,
                "ev": hw.ev, "se": hw.se,
                "gives_up": self.gives_up, "gives_up_se": self.gives_up_se,
            },
            "settings": [s.to_dict() for s in self.settings],
            "seconds": round(self.seconds, 3),
        }

    def text(self) -> str:
        rule = self.house_way.rule.id + (f" -> {self.house_way.step.id}"
                                         if self.house_way.step else "")
        out = [f"{cards_text(self.cards)}: every legal setting against the dealer's House Way "
               f"({self.dealer_way}), {self.samples:,} dealer hands from the other 46 cards",
               f"wager {money(self.wager)}, commission {self.policy}; EV per unit wagered "
               f"± its standard error; HW = the House Way ({self.way}, {rule})",
               f"     {'front':<6} | {'back':<15}  {'EV':>8} {'±':>6}  {'win':>6} "
               f"{'push':>6} {'lose':>6}  {'vs HW':>8} {'±':>6}"]
        for s in self.settings:
            mark = "HW" if s.house_way else ""
            mark += "*" if s.best else ""
            out.append(f"{mark:<4} {cards_text(s.setting.low):<6} | "
                       f"{cards_text(s.setting.high):<15}  {s.ev:>+8.2%} {s.se:>6.2%}  "
                       f"{s.win:>6.1%} {s.push:>6.1%} {s.lose:>6.1%}  "
                       f"{s.versus_house_way:>+8.2%} {s.versus_house_way_se:>6.2%}")
        hw = self.house_way_value
        if self.best.house_way:
            out.append(f"The House Way's setting ({hw.setting}) is the best: it gives up "
                       f"nothing (EV {hw.ev:+.2%} ± {hw.se:.2%}).")
        else:
            out.append(f"The House Way's setting ({hw.setting}, EV {hw.ev:+.2%}) gives up "
                       f"{self.gives_up:.2%} ± {self.gives_up_se:.2%} of the wager against "
                       f"the best ({self.best.setting}, EV {self.best.ev:+.2%}).")
        return "\n".join(out)


def legal_settings(cards: Sequence[Card], rules: HandRules = DEFAULT_RULES) -> list[Setting]:
    """Every setting of seven cards that is not a foul, fronts in the order a dealer fans."""
    seven = tuple(cards)
    out = []
    for front in combinations(sort_cards(seven), 2):
        setting = Setting.from_front(seven, front)
        if foul_reason(setting, seven, rules) is None:
            out.append(setting)
    return out


def _card(way: Way) -> HouseWay:
    try:
        return way if isinstance(way, HouseWay) else house_way(way)
    except KeyError as e:
        raise AdviceError(str(e.args[0])) from None


def advise(cards: Sequence[Card], *, way: Way = "standard", dealer_way: Way | None = None,
           rules: HandRules = DEFAULT_RULES, policy: CommissionPolicy = DEFAULT_COMMISSION,
           wager: int = 500, error: float = 0.01, samples: int | None = None, seed: int = 0,
           dealer_table: Table | None = None) -> Advice:
    """Every legal setting of seven cards with its value against the dealer's House Way.

    Banker hands are drawn until every setting's standard error is at most `error` (per
    unit wagered; at least 2,000 hands, at most 2,000,000), or exactly `samples` of them.
    `dealer_table`: the dealer's card's table (default: the kept one, built when missing).
    """
    seven = tuple(cards)
    if len(seven) != 7 or len(set(seven)) != 7:
        raise CardError(f"advice is for 7 different cards, not {len(set(seven))}")
    card = _card(way)
    dealer = card if dealer_way is None else _card(dealer_way)
    if samples is None and not error > 0:
        raise AdviceError(f"the error must be above 0, not {error}")
    if samples is not None and samples < 2:
        raise AdviceError(f"draw at least 2 dealer hands, not {samples}")
    if wager <= 0:
        raise AdviceError(f"the wager must be above $0.00, not {money(wager)}")
    start = time.perf_counter()
    ours = house_way_setting(card, seven, rules)
    settings = legal_settings(seven, rules)
    r = ranker(rules)
    strengths = [(r.rank2(s.low), r.rank5(s.high)) for s in settings]
    distinct = sorted(set(strengths))
    hw = distinct.index((r.rank2(ours.low), r.rank5(ours.high)))
    bank = dealer_table if dealer_table is not None else table_of(dealer, rules)
    if bank.card is not dealer or bank.rules != rules:
        raise AdviceError(f"the dealer's table is {bank.card.name}'s, not {dealer.name}'s")
    rng = random.Random(f"paigow.advise/{seed}/{sorted(c.index for c in seven)}")
    paid = (wager - policy.on(wager)) / wager
    counts = _draw(seven, distinct, hw, bank, rng, paid, error, samples)
    n = sum(counts[0])
    values = [_value(row, n, paid) for row in counts]
    table = []
    for s, key in zip(settings, strengths, strict=True):
        u = distinct.index(key)
        ev, se, win, push, lose, diff, diff_se = values[u]
        table.append(SettingValue(s, key[0], key[1], ev, se, win, push, lose, diff, diff_se,
                                  house_way=(set(s.low) == set(ours.low))))
    table.sort(key=lambda v: (-v.ev, not v.house_way, str(v.setting)))
    table[0] = _replace_best(table[0])
    return Advice(seven, card.name, dealer.name, ours, tuple(table), n, wager,
                  policy.on(wager), policy, rules, seed, time.perf_counter() - start)


def advise_under(rules: RoundRules, cards: Sequence[Card], *, wager: int | None = None,
                 error: float = 0.01, samples: int | None = None, seed: int = 0) -> Advice:
    """Advice on a hand under one round's rules: its House Way card, its joker and wheel,
    its commission; the wager, unless given, its table minimum. The pit asks about a past
    round with the rules that round was played by, never today's."""
    return advise(cards, way=rules.house_way, rules=rules.hands, policy=rules.commission,
                  wager=rules.limits.minimum if wager is None else wager, error=error,
                  samples=samples, seed=seed)


def _replace_best(v: SettingValue) -> SettingValue:
    return SettingValue(v.setting, v.front, v.back, v.ev, v.se, v.win, v.push, v.lose,
                        v.versus_house_way, v.versus_house_way_se, v.house_way, best=True)


def _draw(seven: Sequence[Card], distinct: Sequence[tuple[int, int]], hw: int,
          bank: Table, rng: random.Random, paid: float, error: float,
          samples: int | None) -> list[list[int]]:
    """Counts per distinct setting of (its outcome, the House Way setting's outcome) over
    banker hands drawn from the other cards; 9 counts a setting, outcome * 3 + House Way's."""
    dealt = set(seven)
    others = [i for i in range(len(DECK)) if DECK[i] not in dealt]
    sample = rng.sample
    key, find, strengths = hand_key, bank.at, bank.strengths
    fronts = [f for f, _ in distinct]
    backs = [b for _, b in distinct]
    hw_front, hw_back = distinct[hw]
    flat = [0] * (9 * len(distinct))
    offsets = range(0, 9 * len(distinct), 9)
    pairs = list(zip(offsets, fronts, backs, strict=True))
    n = 0
    limit = samples if samples is not None else MAX_SAMPLES
    while n < limit:
        batch = min(BATCH, limit - n)
        for _ in range(batch):
            hand = sample(others, 7)
            packed = strengths[find(key(hand))]
            df, db = packed >> SHIFT, packed & MASK
            if hw_front > df:
                h = WIN if hw_back > db else PUSH
            else:
                h = PUSH if hw_back > db else LOSE
            for at, f, b in pairs:
                if f > df:
                    flat[at + (0 if b > db else 3) + h] += 1
                else:
                    flat[at + (3 if b > db else 6) + h] += 1
        n += batch
        if samples is None and n >= MIN_SAMPLES:
            worst = max(_value(flat[at:at + 9], n, paid)[1] for at in offsets)
            if worst <= error:
                break
    return [flat[at:at + 9] for at in offsets]


def _value(row: Sequence[int], n: int,
           paid: float) -> tuple[float, float, float, float, float, float, float]:
    """(ev, se, win, push, lose, ev minus the House Way's, its se) from a setting's 9
    joint counts over n banker hands."""
    pay = (paid, 0.0, -1.0)
    ev = mean_sq = diff = diff_sq = 0.0
    for o in range(3):
        for h in range(3):
            c = row[o * 3 + h]
            if not c:
                continue
            x, d = pay[o], pay[o] - pay[h]
            ev += c * x
            mean_sq += c * x * x
            diff += c * d
            diff_sq += c * d * d
    ev, mean_sq, diff, diff_sq = ev / n, mean_sq / n, diff / n, diff_sq / n
    scale = n / (n - 1) if n > 1 else 0.0
    se = math.sqrt(max(mean_sq - ev * ev, 0.0) * scale / n)
    diff_se = math.sqrt(max(diff_sq - diff * diff, 0.0) * scale / n)
    win = sum(row[0:3]) / n
    push = sum(row[3:6]) / n
    lose = sum(row[6:9]) / n
    return ev, se, win, push, lose, diff, diff_se
