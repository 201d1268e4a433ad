"""The `paigow` command as other tools use it: arguments or stdin, --json, exit codes."""

import json
import subprocess
import sys

import pytest


def json_lines(out):
    return [json.loads(line) for line in out.splitlines()]


def test_rank_five_cards_gives_category_and_strength(paigow):
    out = json_lines(paigow("rank", "--json", "AS", "KS", "QS", "JS", "TS").stdout)
    assert out[0]["category"] == "straight flush"
    assert out[0]["description"] == "royal flush"


def test_rank_strength_orders_hands_and_equal_strength_is_a_copy(paigow):
    out = json_lines(paigow("rank", "--json", stdin="AH 2D 3C 4S 5H\nKS QD JH TC 9S\n"
                            "AD 2C 3S 4H 5D\n").stdout)
    assert out[0]["strength"] > out[1]["strength"]
    assert out[0]["strength"] == out[2]["strength"]


def test_rank_seven_cards_ranks_the_best_five_and_shows_it(paigow):
    out = json_lines(paigow("rank", "--json", "AS KD 9C 7H 5S 3D JK").stdout)[0]
    assert out["category"] == "one pair"
    assert out["best"] == ["JK", "AS", "KD", "9C", "7H"]


def test_rank_two_cards_with_the_joker_is_an_ace(paigow):
    out = json_lines(paigow("rank", "--json", "JK AD").stdout)[0]
    assert out["description"] == "pair of Aces"


def test_stdin_answers_one_json_line_per_input_line_in_order(paigow):
    proc = paigow("rank", "--json", stdin="AS KD\nXX 2C\n2S 2D\n")
    out = json_lines(proc.stdout)
    assert [o.get("input") for o in out] == [None, "XX 2C", None]
    assert out[0]["description"] == "high card, A-K"
    assert "'XX' is not a card" in out[1]["error"]
    assert out[2]["description"] == "pair of 2s"
    assert proc.returncode == 2


@pytest.mark.parametrize("cards, message", [
    (["AS", "XX"], "'XX' is not a card"),
    (["AS", "AS"], "duplicate"),
    (["JK", "AS", "JK"], "second joker"),
    (["AS", "KS", "QS"], "expected 2 or 5 or 7 cards, got 3"),
])
def test_bad_cards_exit_2_with_the_message_and_no_traceback(cards, message, paigow):
    proc = paigow("rank", *cards)
    assert proc.returncode == 2
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr


def test_check_reports_a_foul_with_its_reason(paigow):
    out = json_lines(paigow("check", "--json", "AS AD | KS QH 7C 5D 2H").stdout)[0]
    assert out["foul"] is True
    assert "pair of Aces" in out["reason"]


def test_check_legal_split_is_not_a_foul(paigow):
    out = json_lines(paigow("check", "--json", "KS QD | AS AH 7C 5D 2H").stdout)[0]
    assert out == {"low": ["KS", "QD"], "high": ["AH", "AS", "7C", "5D", "2H"],
                   "foul": False, "reason": None}


def test_check_split_that_is_not_two_and_five_is_a_foul_with_that_reason(paigow):
    out = json_lines(paigow("check", "--json", "KS QD 2C | AS AH 7C 5D").stdout)[0]
    assert out["foul"] is True and "2 + 5" in out["reason"]


def test_check_line_without_a_bar_is_an_error(paigow):
    proc = paigow("check", "AS AD KS QH 7C 5D 2H")
    assert proc.returncode == 2 and "'|'" in proc.stderr and "Traceback" not in proc.stderr


def test_house_way_names_the_rule_and_the_card_wording(paigow):
    out = json_lines(paigow("house-way", "--json", "AS", "AD", "AH", "AC", "JK", "KS",
                            "KD").stdout)[0]
    assert out["low"] == ["KS", "KD"] or sorted(out["low"]) == ["KD", "KS"]
    assert out["rule"] == "5K-1"
    assert out["says"] == "Hand contains two Kings: The two cards will be the two Kings"


def test_house_way_wants_seven_cards(paigow):
    proc = paigow("house-way", "AS", "KD")
    assert proc.returncode == 2 and "expected 7 cards, got 2" in proc.stderr


def test_house_way_list_prints_the_whole_card(paigow):
    text = paigow("house-way", "--list").stdout
    for heading in ("FIVE OF A KIND", "ROYAL FLUSH", "STRAIGHT FLUSH", "FOUR OF A KIND",
                    "FULL HOUSE", "FLUSH", "STRAIGHT", "THREE OF A KIND", "PAIRS", "HIGH CARD"):
        assert heading in text
    assert "HC-1" in text and "1st highest [Joker|A]" in text


def test_house_way_fully_wild_card_keeps_three_nines_behind_on_issue_12s_hand(paigow):
    # Issue 12: the standard card gives "`9S 9H JK KC 7H 4S 2D` -> `KC 9S` high card, which no
    # casino would"; the fully wild card's joker completes three nines. It plays the joker
    # fully wild without --joker: the card is written for no other joker.
    for extra in ((), ("--joker", "fully-wild")):
        out = json_lines(paigow("house-way", "--json", "--way", "fully-wild", *extra,
                                "9S 9H JK KC 7H 4S 2D").stdout)[0]
        assert sorted(out["low"]) == ["7H", "KC"]
        assert sorted(out["high"]) == sorted(["9S", "9H", "JK", "4S", "2D"])
        assert out["rule"] == "FW-3K" and out["section"] == "Three of a kind"


def test_house_way_list_prints_the_fully_wild_card_and_help_names_it(paigow):
    text = paigow("house-way", "--list", "--way", "fully-wild").stdout
    for heading in ("FIVE OF A KIND", "STRAIGHT FLUSH", "FOUR OF A KIND", "FULL HOUSE",
                    "FLUSH", "STRAIGHT", "THREE OF A KIND", "TWO PAIR", "ONE PAIR", "NO PAIR"):
        assert heading in text
    assert "FW-5K-KK" in text and "FULLY WILD" in text
    assert "fully-wild" in paigow("house-way", "--help").stdout


def test_house_way_list_prints_a_card_file_like_the_built_in_card(paigow):
    built_in = paigow("house-way", "--list", "--way", "trump-plaza").stdout.splitlines()
    file = paigow("house-way", "--list", "--way", "config/house-ways/trump-plaza.toml")

    assert file.returncode == 0
    # Title and source name the file; every section, row, step and note is the same.
    assert file.stdout.splitlines()[2:] == built_in[2:]
    assert "card file config/house-ways/trump-plaza.toml" in file.stdout.splitlines()[1]


def test_house_way_with_a_card_file_names_its_row(paigow):
    out = json_lines(paigow("house-way", "--json", "--way", "trump-plaza.toml",
                            "KS KD 4H 4C AD 9S 7H").stdout)[0]
    assert sorted(out["low"]) == ["9S", "AD"] and out["rule"] == "TP-2P-LH"


def test_house_way_an_unknown_card_lists_every_card(paigow):
    proc = paigow("house-way", "--list", "--way", "caesars")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "standard, delaware-park, trump-plaza, fully-wild, trump-plaza.toml" in proc.stderr


def test_house_way_check_refuses_a_broken_card_file_naming_the_row(tmp_path, paigow):
    path = tmp_path / "ours.toml"
    path.write_text('title = "Ours"\n[[section]]\ntitle = "All"\n[[section.row]]\n'
                    'id = "ALL"\nsays = "Everything"\nplay = "the-best-two"\n')
    proc = paigow("house-way", "--check", str(path))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "ours.toml line 7 (row ALL): 'the-best-two' is not a play" in proc.stderr


def test_rank_at_a_terminal_without_cards_says_it_reads_the_keyboard():
    import os
    import subprocess
    import sys

    main, child = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "rank"], stdin=child,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    os.close(child)
    try:
        os.write(main, b"AS KS QS JS TS\n\x04")
        out, err = proc.communicate(timeout=60)
    finally:
        os.close(main)
    assert "reading hands from the keyboard, one per line" in err and "Ctrl-D" in err
    assert "royal flush" in out.lower() and proc.returncode == 0


def test_a_subcommand_imports_only_what_it_runs() -> None:
    """`paigow rank` answers from a cold process: the ledger, the analysis, pydantic and Qt
    are the other commands' (issue: every subcommand was imported for any command)."""
    code = ("import sys\nfrom app.cli import main\nmain(['rank', 'AS', 'KS', 'QS', 'JS', 'TS'])\n"
            "heavy = ('sqlalchemy', 'alembic', 'pydantic', 'PySide6', 'app.ledger',\n"
            "         'app.core.analysis', 'app.session', 'drivers.printer', 'serial')\n"
            "print(sorted({m.split('.')[0] if not m.startswith('app') else m\n"
            "              for m in sys.modules if m.startswith(heavy)}))\n")
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert ran.stdout.splitlines()[-1] == "[]"
    assert "royal flush" in ran.stdout.splitlines()[0]


def test_help_still_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    from app.cli import COMMANDS, main

    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for name in COMMANDS:
        assert name.replace("_", "-") in out
