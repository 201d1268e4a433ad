"""`paigow simulate`, `paigow advise` and `paigow odds` as other tools use them: the JSON
shapes, the table's config, no progress bar off a terminal, errors without a traceback."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

CORDOVA = Path(__file__).resolve().parents[1] / "config" / "cordova.toml"


def test_simulate_json_has_the_rates_the_edge_its_interval_and_copies(paigow):
    proc = paigow("simulate", "--hands", "20000", "--seed", "3", "--workers", "2", "--json",
                  "--way", "trump-plaza")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)

    assert out["schema"] == "paigow.simulation/1"
    assert (out["rounds"], out["seed"], out["workers"]) == (20000, 3, 2)
    assert out["way"] == out["dealer_way"] == "trump-plaza"
    counts = out["counts"]
    assert counts["win"] + counts["push"] + counts["lose"] == 20000
    assert set(out["rates"]) == {"win", "push", "lose", "copy", "front_copy", "back_copy"}
    assert set(out["standard_errors"]) == {"win", "push", "lose", "house_edge"}
    low, high = out["house_edge_95"]
    assert low < out["house_edge"] < high
    assert out["commission"] == {"policy": "5% rounded up to $0.25", "on_a_win_cents": 25}
    assert out["wager_cents"] == 500  # the table minimum of config/default.toml


def test_simulate_is_reproducible_for_a_seed_and_worker_count(paigow):
    def figures():
        out = json.loads(paigow("simulate", "--hands", "8000", "--seed", "5", "--workers", "2",
                                "--json").stdout)
        return out["counts"], out["house_edge"]

    assert figures() == figures()


def test_simulate_shows_no_progress_bar_when_not_on_a_terminal(paigow):
    proc = paigow("simulate", "--hands", "30000", "--workers", "1")
    assert proc.returncode == 0
    assert proc.stderr == ""
    assert "house edge" in proc.stdout and "95% interval" in proc.stdout


def test_simulate_plays_the_bank_by_its_own_card_and_the_configs_commission(tmp_path, paigow):
    site = tmp_path / "site.toml"
    site.write_text('[commission]\nrate = "4%"\n[wagers]\nminimum = "10.00"\n')
    out = json.loads(paigow("simulate", "--hands", "5000", "--json", "--workers", "1",
                            "--way", "delaware-park", "--dealer-way", "standard",
                            "--config", str(site)).stdout)
    assert (out["way"], out["dealer_way"]) == ("delaware-park", "standard")
    assert out["wager_cents"] == 1000
    assert out["commission"]["on_a_win_cents"] == 50  # 4% of $10 is 40c, up to $0.50


def test_simulate_at_a_fully_wild_table_plays_the_fully_wild_card(paigow):
    # config/cordova.toml: seed 004's joker "is FULLY WILD", and its House Way is the card
    # written for that joker.
    out = json.loads(paigow("simulate", "--hands", "2000", "--json", "--workers", "1",
                            "--config", str(CORDOVA)).stdout)
    assert (out["way"], out["dealer_way"]) == ("fully-wild", "fully-wild")


@pytest.mark.parametrize("args,message", [
    (["--workers", "0"], "is not 1 or more"),
    (["--way", "atlantic"], "no House Way called 'atlantic'; the cards are: standard"),
    (["--wager", "five"], "--wager: 'five' is not an amount of money"),
    (["--way", "fully-wild"], 'joker = "fully-wild"'),  # the card of a wild joker, at a bug's table
])
def test_simulate_refuses_bad_options_with_exit_2_and_no_traceback(args, message, paigow):
    proc = paigow("simulate", "--hands", "100", *args)
    assert proc.returncode == 2
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr


def test_simulate_refuses_a_bad_config_naming_the_key(tmp_path, paigow):
    site = tmp_path / "site.toml"
    site.write_text('[commission]\nrate = "lots"\n')
    proc = paigow("simulate", "--hands", "100", "--config", str(site))
    assert proc.returncode == 2
    assert "commission.rate" in proc.stderr and "Traceback" not in proc.stderr


def test_advise_json_lists_legal_settings_with_the_house_ways_marked(paigow):
    proc = paigow("advise", "--json", "--way", "trump-plaza", "6S 6D 5H 5C KD 9S 8H")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)

    assert out["schema"] == "paigow.advice/1"
    assert out["cards"] == ["6S", "6D", "5H", "5C", "KD", "9S", "8H"]
    assert out["way"] == out["dealer_way"] == "trump-plaza"
    assert out["error"] <= 0.01 and out["samples"] >= 2000
    settings = out["settings"]
    assert len(settings) == 20  # of the 21 fronts, the 6s would foul (the 5s stay behind)
    assert [s["house_way"] for s in settings].count(True) == 1
    assert settings[0]["best"] and settings[0]["ev"] == max(s["ev"] for s in settings)
    hw = out["house_way"]
    assert hw["rule"] == "TP-2P-LL" and sorted(hw["low"]) == ["9S", "KD"]
    assert hw["gives_up"] > 0
    marked = next(s for s in settings if s["house_way"])
    assert marked["low"] == hw["low"] and marked["ev"] == hw["ev"]
    assert set(settings[0]) == {"low", "high", "ev", "se", "win", "push", "lose",
                                "versus_house_way", "versus_house_way_se", "house_way",
                                "best"}


def test_advise_text_marks_the_house_way_and_says_what_it_gives_up(paigow):
    proc = paigow("advise", "--samples", "3000", "AS", "KD", "9H", "7C", "5D", "3S", "2H")
    assert proc.returncode == 0
    assert "HW" in proc.stdout and "The House Way's setting" in proc.stdout


def test_advise_reads_one_hand_a_line_and_reports_a_bad_one(paigow):
    proc = paigow("advise", "--json", "--samples", "500",
                  stdin="AS KD 9H 7C 5D 3S 2H\nAS KD 9H\nQS QD AH 9C 7D 4S 2H\n")
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert proc.returncode == 2
    assert out[0]["cards"][0] == "AS" and out[2]["cards"][0] == "QS"
    assert "expected 7 cards, got 3" in out[1]["error"]
    assert "Traceback" not in proc.stderr


def test_odds_json_by_simulation_writes_the_chart(tmp_path, paigow):
    chart = tmp_path / "charts" / "odds.png"
    proc = paigow("odds", "--hands", "20000", "--json", "--out", str(chart))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)

    assert out["schema"] == "paigow.odds/1" and out["method"] == "simulation"
    assert out["hands"] == 20000 and out["deck"] == 53 and out["chart"] == str(chart)
    assert [r["hand"] for r in out["rows"]][:2] == ["five aces", "royal flush"]
    assert sum(r["count"] for r in out["rows"]) == 20000
    assert sum(r["probability"] for r in out["rows"]) == pytest.approx(1)
    assert all(r["se"] is not None for r in out["rows"])
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_odds_by_default_counts_every_hand_exactly_and_writes_no_file(tmp_path, paigow):
    out = json.loads(paigow("odds", "--json", cwd=tmp_path).stdout)
    assert out["method"] == "exact" and out["hands"] == 154_143_080 and out["chart"] is None
    assert list(tmp_path.iterdir()) == []
    rows = {r["hand"]: r for r in out["rows"]}
    assert rows["five aces"]["count"] == 1128 and rows["five aces"]["se"] is None


def test_odds_says_where_it_wrote_the_chart(tmp_path, paigow):
    proc = paigow("odds", "--hands", "2000", "--out", "odds.png", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert f"chart written to {tmp_path / 'odds.png'}" in proc.stdout
    assert (tmp_path / "odds.png").read_bytes()[:4] == b"\x89PNG"


def test_odds_refuses_a_folder_as_the_chart_file(tmp_path, paigow):
    proc = paigow("odds", "--hands", "2000", "--out", str(tmp_path))
    assert proc.returncode == 2
    assert "that is a folder" in proc.stderr and "Traceback" not in proc.stderr


def test_simulate_shows_a_progress_bar_on_a_terminal():
    import fcntl
    import os
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    # A terminal 100 columns wide (a new pseudo-terminal has no size: the bar would be empty).
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "simulate", "--hands", "30000",
                             "--workers", "1"], stdout=slave, stderr=slave,
                            stdin=subprocess.DEVNULL)
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the terminal closed: the command ended
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    assert proc.wait(timeout=120) == 0
    text = seen.decode(errors="replace")
    assert "simulate:" in text and "round" in text  # tqdm's bar: "simulate: 33%|...| 10.0k/30.0k"
    assert "house edge" in text


@pytest.mark.parametrize("samples", ["1e12", "0", "-5", "lots"])
def test_advise_refuses_a_sample_count_past_its_stated_limit(samples, paigow):
    proc = paigow("advise", "--samples", samples, "AS", "KS", "QS", "JS", "TS", "2D", "3C")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "--samples" in proc.stderr


def test_output_into_a_closed_pipe_stops_quietly():
    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "odds", "--hands", "2000"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # like `| head` that has read what it wanted
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 141
    assert "Traceback" not in err and "BrokenPipe" not in err
