"""One word list: what the table's options, a round's state and a House Way row are called
where people read them (the window, the slip, the pit's recall, the floor), and the words
that must never reach them.

The core's values print as the config's words ("at-most", "house-way", "rng"): right in a
TOML file, wrong on a screen. Everything a dealer, a pit boss or a player reads names these
through this module, so a thing has one name everywhere; `internal_words` finds what slipped
through: the program's words and the developer's (the window's screen check, the floor's in
the browser, tests/ui/test_plain_words.py and the refusals' tests all read this one list).
"""

from __future__ import annotations

import re
from datetime import datetime
from functools import cache

from app.core.round_rules import (
    DragonSetting,
    DragonWager,
    FoulPenalty,
    Phase,
    RoundRules,
)
from app.core.table import ActionSource, DealMode, Direction

DRAGON_WAGER = {
    DragonWager.EQUAL: "the main wager",
    DragonWager.AT_MOST: "up to the main wager",
}
DRAGON_SETTING = {
    DragonSetting.HOUSE_WAY: "set by the House Way",
    DragonSetting.PLAYER: "set by the player who takes it",
}
FOUL = {
    FoulPenalty.FORFEIT: "a fouled hand forfeits",
    FoulPenalty.HOUSE_WAY: "a fouled hand is set again by the House Way",
    FoulPenalty.RESPLIT: "a fouled hand goes back to the player",
}
FOUL_SHORT = {  # the status bar's room
    FoulPenalty.FORFEIT: "fouls forfeit",
    FoulPenalty.HOUSE_WAY: "fouls set by the House Way",
    FoulPenalty.RESPLIT: "fouls go back to the player",
}
ACTION_SHORT = {ActionSource.RNG: "RNG", ActionSource.DICE: "dice"}
ACTION = {ActionSource.RNG: "action by RNG", ActionSource.DICE: "action by dice"}
DEAL_SHORT = {DealMode.STACKS: "stacks", DealMode.ONE_AT_A_TIME: "card by card"}
DEAL = {DealMode.STACKS: "dealt in stacks", DealMode.ONE_AT_A_TIME: "dealt one card at a time"}
DIRECTION = {Direction.CLOCKWISE: "clockwise", Direction.COUNTERCLOCKWISE: "counterclockwise"}
PHASE = {Phase.BETTING: "taking wagers", Phase.DEALING: "dealing", Phase.SETTING: "setting hands",
         Phase.SETTLED: "settled", Phase.MISDEAL: "a misdeal"}


def dragon_words(rules: RoundRules) -> str:
    """The table's dragon as a sentence: "Dragon: up to the main wager, set by the House
    Way"."""
    d = rules.dragon
    if not d.enabled:
        return "No dragon hands"
    return f"Dragon: {DRAGON_WAGER[d.wager]}, {DRAGON_SETTING[d.setting]}"


def dragon_short(rules: RoundRules) -> str:
    """The dragon in the status bar's room: "dragon up to the main wager" (set by the
    House Way unless the player sets it)."""
    d = rules.dragon
    if not d.enabled:
        return "no dragon"
    who = "" if d.setting is DragonSetting.HOUSE_WAY else ", the player sets it"
    return f"dragon {DRAGON_WAGER[d.wager]}{who}"


def house_way_kind(rule_says: str | None) -> str:
    """The kind of hand a House Way row is for, in the card's words ("A straight with no
    pair"): the row's title before its colon. The row's own steps ("Follow the steps
    described for ...", "1st highest [Joker|A]...") are the card's shorthand, for the pit."""
    kind = (rule_says or "").split(":")[0].strip()
    return kind


def house_way_words(rule_says: str | None) -> str:
    """A hand set the House Way, as the dealer and the player read it."""
    kind = house_way_kind(rule_says)
    return f"House Way: {kind[0].lower()}{kind[1:]}" if kind else "House Way"


def round_name(table: str, round_no: int, when: datetime | None) -> str:
    """A round as the pit names it: table, date and round number."""
    day = f", {when:%d %b %Y}" if when is not None else ""
    return f"Table {table}{day}, round {round_no}"


# --- the words that must never reach a person ------------------------------------------------

FORBIDDEN: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.I),
     "a UUID"),
    (re.compile(r"\bcore\b", re.I), "the program's 'core'"),
    (re.compile(r"\bvm\b", re.I), "a machine's name 'vm'"),
    (re.compile(r"\bat-most\b", re.I), "the config's 'at-most'"),
    (re.compile(r"\bhouse-way\b", re.I), "the config's 'house-way'"),
    (re.compile(r"(?<![\w/.\-])(?:[a-z][a-z0-9]*_)+[a-z0-9]+\b"), "a snake_case name"),
    (re.compile(r"\b[a-z][\w.]* = [\"'\d\[]"), "a line of the config file"),
    # (not a file: "ledger.sqlite" in the database's path, "station.py")
    (re.compile(r"(?<![\w/.-])(?:table|dragon|bonus|limits|banking|commission|ledger|station|"
                r"floor|shoe|printer|hands)\.(?!(?:py|md|toml|json|jsonl|txt|html|j2|sqlite|"
                r"db|pdf|png|csv|log|zip)\b)[a-z]\w*\b"),
     "a key of the config file"),
    (re.compile(r"\[(?:table|dragon|bonus|limits|banking|commission|ledger|station|floor|"
                r"shoe|printer|hands|house_way|rules)\]"), "a section of the config file"),
    (re.compile(r"\b(?:Phase|DragonWager|DragonSetting|FoulPenalty|ActionSource|DealMode|"
                r"SetBy|Direction)\.[A-Z_]+\b"), "an enum's name"),
)


# What a developer writes and a dealer should not read: the screen check's words since the
# first screenshot walk (app/ui/screencheck.py), here so the floor's check (no Qt) reads them
# too.
FOR_DEVELOPERS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"DESIGN\.md", re.I), "names the design document"),
    (re.compile(r"\bseeds?\s*0\d\d\b", re.I), "names a rule seed by number"),
    (re.compile(r"`"), "holds backticks"),
    (re.compile(r"(?<![\w/])[\w./-]+\.(?:py|md|toml|json|txt|html|j2)\b"), "names a file"),
    (re.compile(r"\bTraceback\b"), "shows a traceback"),
)


@cache
def rule_ids() -> frozenset[str]:
    """Every rule id of every House Way card shipped (PR-2, ST-X, FW-5K-J, ...)."""
    from app.core.house_way import card_names, house_way

    ids: set[str] = set()
    for name in card_names():
        card = house_way(name)
        for section in card.sections:
            ids.update(rule.id for rule in section.rules)
    return frozenset(ids)


@cache
def _rule_id_pattern() -> re.Pattern[str]:
    ids = sorted(rule_ids(), key=len, reverse=True)  # the longest first: FW-5K-J, not 5K
    return re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, ids)) + r")(?![\w-])")


def internal_words(text: str) -> tuple[str, ...]:
    """What in `text` is the program's, not the casino's: empty when it is plain words. A
    rule's id is fine followed by its words ("PR-2: Two pairs ...", the pit's and F1's
    detail) and not bare."""
    found = [f"{why} ({m.group(0)!r})" for pattern, why in (*FORBIDDEN, *FOR_DEVELOPERS)
             for m in pattern.finditer(text)]
    for m in _rule_id_pattern().finditer(text):
        if not text[m.end():].lstrip().startswith(":"):
            found.append(f"a rule's id without its words ({m.group(1)!r})")
    return tuple(found)
