"""Every stored round with its full rules as structured data, and no secret in its config.

Rounds recorded by earlier stations keep their rules (paigow.rules/1) without the keys added
since (the NO PLAY spot, when an asked House Way is set, dragons per player): they were
played by the defaults of those keys, which are now written out, so every reader finds the
same complete rules. A round's rules recorded only inside its table config snapshot (no
"rules" key) are rebuilt from that snapshot. The snapshot itself loses where the ledger is
and the supervisor's PIN: no secret belongs in the ledger's rows (DESIGN.md, "Trust"). The
round's first event (`round_begun`), which carries the same snapshot, is converted alike.

The append-only triggers of 0002 refuse any UPDATE of a settled round and of an event, so
this migration lifts exactly those two (`rounds.final`, `events.append_only`), converts,
and puts them back as 0002 made them, all in the migration's one transaction: no other
connection ever sees the ledger without them (PostgreSQL's DROP TRIGGER holds the table's
lock until the commit; SQLite's writer holds the file's). The rows are rewritten in place
rather than copied to a side table because what changes is only the form of the same rules
and a secret that must not stay anywhere in the ledger; a second place for a round's rules
would be one more thing every reader has to know.

Offline (`paigow ledger migrate --sql`) there are no rows to read, so the SQL a DBA gets
only records the revision; a ledger that holds rounds is brought here by `paigow ledger
migrate` (or a station's start), which runs this with the data.

Revision ID: 0003_round_rules
Revises: 0002_append_only
Create Date: 2026-11-27
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from importlib.util import module_from_spec, spec_from_file_location
from pathlib import Path
from types import ModuleType
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0003_round_rules"
down_revision: str | None = "0002_append_only"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

log = logging.getLogger("alembic.runtime.migration")

RULES_SCHEMA = "paigow.rules/1"
# Sections of the table config a round's snapshot never keeps: where the ledger is (and
# its password), and the supervisor's PIN. (app.settings.NOT_IN_SNAPSHOT, as of this
# revision: a migration keeps its own copy so that it always does what it did.)
NOT_IN_SNAPSHOT = ("ledger", "supervisor")
# The rules added after the first ledger, with the value every round before them was
# played by.
ADDED_DEFAULTS: tuple[tuple[tuple[str, ...], object], ...] = (
    (("table", "no_play"), False),
    (("asked_house_way",), "at-once"),
    (("dragon", "max_per_player"), 1),
)
LIFTED = (("rounds", "final"), ("events", "append_only"))

rounds = sa.table("rounds", sa.column("id", sa.Uuid()), sa.column("config", sa.Text()),
                  sa.column("house_way", sa.String(40)))
events = sa.table("events", sa.column("id", sa.Uuid()), sa.column("seq", sa.Integer()),
                  sa.column("kind", sa.String(24)), sa.column("payload", sa.Text()))


class Unreadable(ValueError):
    """A stored round whose rules cannot be known from what it holds."""


# --- the conversion (pure: the migration test calls these too) -----------------------------

def complete_rules(rules: dict[str, Any]) -> dict[str, Any]:
    """paigow.rules/1 with every key, the ones added later at the value played by then."""
    if rules.get("schema") != RULES_SCHEMA:
        raise Unreadable(f"rules of schema {rules.get('schema')!r}")
    out = json.loads(json.dumps(rules))
    for path, value in ADDED_DEFAULTS:
        at = out
        for key in path[:-1]:
            at = at.setdefault(key, {})
        at.setdefault(path[-1], value)
    return dict(out)


_STEP = re.compile(r"^\s*(?:(\d+)\s*/\s*(\d+)\s+)?chip\s*$")
_MONEY = re.compile(r"^\s*\$?\s*(\d{1,3}(?:,\d{3})+|\d{1,9})(?:\.(\d{1,2}))?\s*$")


def _step_cents(step: str, lowest_chip: int) -> int:
    m = _STEP.match(step)
    if m is None:
        money = _MONEY.match(step)
        if money is None:
            raise Unreadable(f"a commission step {step!r}")
        return int(money.group(1).replace(",", "")) * 100 + int((money.group(2) or "0")
                                                                 .ljust(2, "0"))
    if m.group(1) is None:
        return lowest_chip
    return lowest_chip * int(m.group(1)) // int(m.group(2))


def rules_from_snapshot(config: dict[str, Any]) -> dict[str, Any]:
    """The rules of a round from the table config it was played at (as the station's
    settings built them: the same keys, the same defaults)."""
    try:
        t, w, c, r = config["table"], config["wagers"], config["commission"], config["rules"]
        d, b = config["dragon"], config["player_banking"]
        return complete_rules({
            "schema": RULES_SCHEMA,
            "table": {"name": t["name"], "seats": t["seats"], "direction": t["direction"],
                      "deal_mode": t["deal"], "action_source": t["action"],
                      "no_play": t.get("no_play", False)},
            "hands": {"joker": r["joker"], "wheel": r["wheel"]},
            "house_way": r["house_way"],
            "foul_penalty": r["foul_penalty"],
            "asked_house_way": r.get("asked_house_way", "at-once"),
            "limits": {"minimum_cents": w["minimum"], "maximum_cents": w["maximum"]},
            "commission": {"rate_bp": c["rate"],
                           "step_cents": _step_cents(c["step"], c["lowest_chip"]),
                           "rounding": c["rounding"]},
            "dragon": {"enabled": d["enabled"], "wager": d["wager"], "setting": d["setting"],
                       "offer": d["offer"], "per_round": d["per_round"],
                       "max_per_player": d.get("max_per_player", 1)},
            "banking": {"enabled": b["enabled"], "consecutive": b["consecutive"],
                        "dealer_wager": b["dealer_wager"], "co_banking": b["co_banking"]},
        })
    except (KeyError, TypeError) as e:
        raise Unreadable(f"a table config without {e}") from None


def convert_snapshot(stored: object) -> dict[str, Any]:
    """A round's stored {"rules", "config"}: complete rules, and the config without the
    ledger's place or any secret."""
    if not isinstance(stored, dict):
        raise Unreadable("no rules and no table config")
    config = stored.get("config")
    if isinstance(config, dict):
        config = {k: v for k, v in config.items() if k not in NOT_IN_SNAPSHOT}
    rules = stored.get("rules")
    if isinstance(rules, dict):
        rules = complete_rules(rules)
    elif isinstance(config, dict):
        rules = rules_from_snapshot(config)
    else:
        raise Unreadable("no rules and no table config")
    return {**stored, "rules": rules, "config": config}


# --- the migration -------------------------------------------------------------------------

def _append_only() -> ModuleType:
    """Migration 0002, whose triggers this one lifts and puts back exactly as it made them.
    Loaded from its file beside this one, as Alembic loads it (the bundle ships the
    migrations as files, not as an importable package)."""
    path = Path(__file__).with_name("0002_append_only.py")
    spec = spec_from_file_location("paigow_ledger_0002_append_only", path)
    assert spec is not None and spec.loader is not None
    module = module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def upgrade() -> None:
    context = op.get_context()
    if context.as_sql:  # offline: no rows to read (see the module's docstring)
        return
    dialect = context.dialect.name
    by_name = {(rule[0], rule[1]): rule for rule in _append_only().RULES}
    lifted = [by_name[key] for key in LIFTED]
    for table, name, operations, _, _ in lifted:
        _append_only().drop_trigger(dialect, table, name, operations)
    bind = op.get_bind()
    skipped = []
    for rid, text in bind.execute(sa.select(rounds.c.id, rounds.c.config)).all():
        try:
            new = convert_snapshot(json.loads(text))
        except (ValueError, Unreadable) as e:
            skipped.append(f"round {rid}: {e}")
            continue
        bind.execute(rounds.update().where(rounds.c.id == rid).values(
            config=json.dumps(new, separators=(",", ":")),
            house_way=str(new["rules"]["house_way"])[:40]))
    begun = sa.select(events.c.id, events.c.payload).where(events.c.seq == 0,
                                                           events.c.kind == "round_begun")
    for eid, text in bind.execute(begun).all():
        try:
            payload = json.loads(text)
            payload["config"] = convert_snapshot(payload.get("config"))
        except (ValueError, TypeError, AttributeError, Unreadable) as e:
            skipped.append(f"event {eid}: {e}")
            continue
        bind.execute(events.update().where(events.c.id == eid).values(
            payload=json.dumps(payload, separators=(",", ":"))))
    for rule in lifted:
        _append_only().create_trigger(dialect, *rule)
    for line in skipped:  # left as they were: nothing in them says what their rules were
        log.warning("paigow ledger: left unconverted (its rules cannot be known): %s", line)


def downgrade() -> None:
    """Nothing to undo: 0002's readers read the completed rules as they are, and a secret
    removed is not put back."""
