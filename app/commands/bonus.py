"""`paigow bonus`: a bonus pay table's exact odds over all 154,143,080 hands, and its house
edge for a seat when other players' hands are dealt (the envy).

    paigow bonus --exact fortune-8000 [--json]
    paigow bonus fortune-8000 --players 5 [--simulate 100000]
    paigow bonus                          # the pay and envy tables there are
"""

from __future__ import annotations

import argparse
import json
import time

from app.core.bonus import (
    BonusCardError,
    EnvyCard,
    PayCard,
    envy_card,
    envy_card_names,
    load_envy_card,
    load_pay_card,
    pay_card,
    pay_card_names,
)
from app.core.bonus.exact import BonusOdds, bonus_odds
from app.core.bonus.simulate import simulate_seat
from app.core.settlement import MoneyError, money, parse_money
from app.core.table import SEATS

from .table_options import OptionError, positive_int, report_error

NAME = "bonus"
HELP = ("a bonus pay table's exact odds over every seven-card hand (--exact), and its house "
        "edge with the envy when other players bet (--players N)")
MOST_OTHERS = SEATS - 1  # the other seats of the table (a dragon hand sits in an empty one)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", nargs="?", metavar="NAME",
                        help="the pay table: a name (see `paigow bonus`) or a .toml file")
    parser.add_argument("--exact", action="store_true",
                        help="count every hand: per category the count, probability, pay and "
                             "share of the return, then the house edge and the envy's value")
    parser.add_argument("--players", type=_others, default=None, metavar="N",
                        help=f"the house edge for a seat when N other players' hands are dealt "
                             f"(0-{MOST_OTHERS})")
    parser.add_argument("--envy", default="envy-5000", metavar="NAME",
                        help="the envy table: a name or a .toml file (default: envy-5000)")
    parser.add_argument("--wager", default="$5", metavar="DOLLARS",
                        help="the seat's bonus wager, for the envy's fixed amounts "
                             "(default: $5)")
    parser.add_argument("--joker", choices=("bug", "fully-wild"), default="bug",
                        help="how the joker plays (default: bug)")
    parser.add_argument("--simulate", type=positive_int, default=None, metavar="ROUNDS",
                        help="with --players, also deal ROUNDS rounds for a round's spread, "
                             "which only dealing gives")
    parser.add_argument("--seed", type=int, default=0, help="the simulation's seed")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")


def _others(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= n <= MOST_OTHERS:
        raise argparse.ArgumentTypeError(
            f"{n} other players: a seat has 0 to {MOST_OTHERS} others at a table of {SEATS}")
    return n


def _card(name: str) -> PayCard:
    return load_pay_card(name) if name.endswith(".toml") else pay_card(name)


def _envy(name: str) -> EnvyCard:
    return load_envy_card(name) if name.endswith(".toml") else envy_card(name)


def run(args: argparse.Namespace) -> int:
    if args.name is None and (args.exact or args.players is not None):
        return report_error(NAME, OptionError("name the pay table: paigow bonus --exact NAME "
                                              "(the tables: paigow bonus)"))
    if args.name is None:
        print("bonus pay tables: " + ", ".join(pay_card_names()))
        print("envy tables: " + ", ".join(envy_card_names()))
        print("paigow bonus --exact NAME, or paigow bonus NAME --players N")
        return 0
    try:
        card, envy = _card(args.name), _envy(args.envy)
        wager = parse_money(args.wager)
        if wager <= 0:
            raise OptionError(f"--wager: {args.wager!r} is not above zero")
        if not args.exact and args.players is None:
            raise OptionError("say what to work out: --exact, or --players N")
        if args.simulate and args.players is None:
            raise OptionError("--simulate deals rounds with other players: give --players N")
    except (BonusCardError, OptionError) as err:
        return report_error(NAME, err)
    except MoneyError as err:
        return report_error(NAME, OptionError(f"--wager: {err}"))
    start = time.perf_counter()
    odds = bonus_odds(card, envy, args.joker)
    seconds = time.perf_counter() - start
    out = figures(odds, wager, args.players, args.exact)
    out["seconds"] = round(seconds, 2)
    if args.simulate:
        dealt = simulate_seat(card, envy, args.players, args.simulate, wager, args.seed,
                              args.joker)
        out["simulated"] = {"rounds": dealt.rounds, "house_edge": dealt.house_edge,
                            "standard_error": dealt.se, "sd_per_round": dealt.sd}
    print(json.dumps(out, indent=2) if args.json else text(odds, out, args.exact))
    return 0


def key(category: object) -> str:
    return str(getattr(category, "value", category))


def figures(odds: BonusOdds, wager: int, players: int | None, exact: bool) -> dict[str, object]:
    card = odds.card
    out: dict[str, object] = {
        "card": card.name, "title": card.title, "source": card.source, "joker": odds.joker,
        "method": "exact", "hands": odds.hands,
        "counts": {key(r.category): r.count for r in odds.rows},
        "pays": {key(r.category): r.pays for r in odds.rows},
        "probability": {key(r.category): float(r.probability) for r in odds.rows},
        "share_of_return": {key(r.category): float(r.share) for r in odds.rows},
        "return": float(odds.player_return), "house_edge": float(odds.house_edge),
    }
    if odds.envy is not None:
        qualifies = wager >= odds.envy.qualifying
        out["envy"] = {
            "card": odds.envy.name, "qualifying_wager_cents": odds.envy.qualifying,
            "wager_cents": wager, "qualifies": qualifies,
            "value_per_other_player_cents": float(odds.envy_value) if qualifies else 0.0,
            "edge_per_other_player": float(odds.envy_value / wager) if qualifies else 0.0,
        }
    if players is not None:
        out["players"] = players
        out["house_edge_with_players"] = float(odds.edge_with(players, wager))
        out["house_edge_by_players"] = {n: float(odds.edge_with(n, wager))
                                        for n in range(MOST_OTHERS + 1)}
    return out


def text(odds: BonusOdds, out: dict[str, object], exact: bool) -> str:
    card = odds.card
    lines = [f"{card.title} ({card.name}), joker: {odds.joker}",
             f"source: {card.source}"]
    if exact:
        lines += [f"exact, over all {odds.hands:,} seven-card hands ({out['seconds']} s)", "",
                  f"{'category':<38} {'count':>13} {'probability':>12} {'pays':>12} "
                  f"{'return':>10}"]
        for r in odds.rows:
            lines.append(f"{r.category.label:<38} {r.count:>13,} {float(r.probability):>12.8f} "
                         f"{r.pays:>12} {float(r.share):>+10.6f}")
        lines += [f"{'total':<38} {sum(odds.counts.values()):>13,}", ""]
    lines.append(f"return {float(odds.player_return):+.6f} a unit wagered: house edge "
                 f"{float(odds.house_edge) * 100:.4f}% (exact)")
    envy = out.get("envy")
    if isinstance(envy, dict):
        wager = money(int(envy["wager_cents"]))
        if envy["qualifies"]:
            lines.append(f"envy ({envy['card']}) on a {wager} bonus: "
                         f"${envy['value_per_other_player_cents'] / 100:.4f} per "
                         f"other player, {envy['edge_per_other_player'] * 100:.4f}% of the "
                         f"wager (exact)")
        else:
            lines.append(f"envy ({envy['card']}): a {wager} bonus is under the "
                         f"{money(int(envy['qualifying_wager_cents']))} that wins envy")
    with_players = out.get("house_edge_with_players")
    if isinstance(with_players, float):
        lines.append(f"house edge for a seat with {out['players']} other players: "
                     f"{with_players * 100:.4f}% (exact: each other hand's envy adds the same "
                     f"average, whatever this seat holds)")
        by = out["house_edge_by_players"]
        assert isinstance(by, dict)
        lines.append("  by players: " + ", ".join(f"{n}: {v * 100:.3f}%" for n, v in by.items()))
    dealt = out.get("simulated")
    if isinstance(dealt, dict):
        lines.append(f"simulated over {dealt['rounds']:,} rounds: house edge "
                     f"{dealt['house_edge'] * 100:.3f}% +- {dealt['standard_error'] * 196:.3f}% "
                     f"(95%); a round's standard deviation {dealt['sd_per_round']:.3f} wagers "
                     f"(simulated: the hands share one deck)")
    return "\n".join(lines)
