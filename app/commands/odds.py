"""`paigow odds`: how often seven cards make each best five-card hand, as a table and, with
`--out PATH`, a bar chart (PNG) written there."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from app.core.analysis.odds import Odds, exact_odds, simulate_odds
from app.settings import ConfigError

from .table_options import (
    OptionError,
    add_table_arguments,
    positive_int,
    report_error,
    table_choice,
)

NAME = "odds"
HELP = ("the frequency of each best five-card hand over seven cards (exact, or simulated "
        "with --hands), as a table and a bar chart PNG")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hands", type=positive_int, default=None, metavar="N",
                        help="simulate N random hands (default: count every hand exactly)")
    parser.add_argument("--seed", type=int, default=0, help="the simulation's seed")
    parser.add_argument("--no-joker", action="store_true",
                        help="a 52-card deck without the joker")
    parser.add_argument("--out", "--chart", dest="chart", type=Path, default=None,
                        metavar="PATH", help="write the bar chart (PNG) to PATH; without it "
                                             "no file is written")
    parser.add_argument("--json", action="store_true", help="print the table as JSON")
    add_table_arguments(parser, ways=False, money=False)


def run(args: argparse.Namespace) -> int:
    try:
        rules = table_choice(args).rules
    except (ConfigError, OptionError) as err:
        return report_error(NAME, err)
    joker = not args.no_joker
    odds = (exact_odds(rules, joker) if args.hands is None
            else simulate_odds(args.hands, args.seed, rules, joker))
    chart = None
    if args.chart is not None:
        try:
            chart = write_chart(odds, args.chart)
        except ImportError:
            return report_error(NAME, OptionError(
                "the chart needs matplotlib: install the station extra "
                "(pip install '.[station]') or leave out --out"))
        except OSError as err:
            return report_error(NAME, OSError(f"cannot write the chart {args.chart}: "
                                              f"{err.strerror or err}"))
    if args.json:
        print(json.dumps({**odds.to_dict(), "chart": str(chart) if chart else None}, indent=2))
    else:
        print(odds.text())
        if chart:
            print(f"chart written to {chart.resolve()}")
    return 0


def write_chart(odds: Odds, path: Path) -> Path:
    """A horizontal bar chart of the probabilities (log scale, so five aces shows), PNG."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    rows = [r for r in odds.rows if r.count]
    fig = Figure(figsize=(8, 5), dpi=100, layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    names = [r.hand for r in rows][::-1]
    values = [r.probability * 100 for r in rows][::-1]
    bars = ax.barh(names, values, color="#2e7d32")
    ax.set_xscale("log")
    ax.set_xlim(min(values) / 3, 400)
    for bar, value in zip(bars, values, strict=True):
        ax.text(bar.get_width() * 1.1, bar.get_y() + bar.get_height() / 2,
                f"{value:.4g}%", va="center", fontsize=8)
    how = "exact count" if odds.exact else f"simulation of {odds.total:,} hands"
    joker = f"joker: {odds.rules.joker}" if odds.deck == 53 else "no joker"
    ax.set_title(f"Best five-card hand of seven cards ({odds.deck}-card deck, {joker}; {how})",
                 fontsize=10)
    ax.set_xlabel("probability (%, log scale)")
    if path.is_dir():
        raise IsADirectoryError(21, "that is a folder: give the chart's file name", str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png")
    return path
