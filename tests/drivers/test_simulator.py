"""The simulated shoe and `paigow shoe-sim`: what it deals, how it answers, its options."""

from __future__ import annotations

import os
import random
import threading
import time
import tty
from pathlib import Path

import pytest

from app.cli import main as paigow
from app.core.cards import DECK, cards_text
from drivers.shoe.protocol import (
    ActionRead,
    Burn,
    CardRead,
    Check,
    HandDealt,
    Heartbeat,
    Hello,
    ShoeParser,
    ShuffleEnd,
    ShuffleStart,
    checksum,
    encode_line,
    encode_resend,
)
from drivers.shoe.simulator import (
    Injection,
    ShoeDevice,
    Simulator,
    SimulatorError,
    fixed_deck,
)
from drivers.shoe.transport import ShoeOnline

from .helpers import WAIT, StationLink, cards_of, fast_config, fault_kinds, reading, shuffled_deck


def deal(**options: object) -> list:
    link = StationLink()
    Simulator(link, heartbeat=3600, **options).run()  # type: ignore[arg-type]
    return link.events


def test_a_round_card_by_card_is_shuffle_action_49_cards_then_4_burned() -> None:
    events = deal(seed=1)
    types = [type(e) for e in events]
    assert types == [Hello, ShuffleStart, ShuffleEnd, ActionRead] + [CardRead] * 49 + \
        [Burn, Heartbeat]
    assert events[2].count == 53 and len(events[-2].cards) == 4
    assert sorted(cards_of(events), key=lambda c: c.index) == list(DECK)   # each card once


def test_a_round_of_hand_stacks_is_seven_numbered_stacks_of_seven() -> None:
    events = deal(seed=1, mode="hand", action="dice")
    stacks = [e for e in events if isinstance(e, HandDealt)]
    assert [s.stack for s in stacks] == list(range(1, 8))
    assert all(len(s.cards) == 7 for s in stacks)
    action = next(e for e in events if isinstance(e, ActionRead))
    assert action.method == "DICE" and all(1 <= d <= 6 for d in action.values)
    assert sorted(cards_of(events), key=lambda c: c.index) == list(DECK)


def test_action_none_sends_no_action_message() -> None:
    assert not any(isinstance(e, ActionRead) for e in deal(seed=1, action="none"))


def test_a_seed_deals_the_same_rounds_every_run_and_each_round_is_new() -> None:
    first, again = deal(seed=42, rounds=2), deal(seed=42, rounds=2)
    assert cards_of(first) == cards_of(again)
    cards = cards_of(first)
    assert cards[:53] != cards[53:]
    assert cards_of(deal(seed=43)) != cards[:53]


def test_without_a_seed_or_deck_the_shuffle_uses_secrets() -> None:
    import secrets

    sim = Simulator(StationLink())
    assert isinstance(sim._rng, secrets.SystemRandom)
    assert cards_of(deal()) != cards_of(deal())


def test_a_fixed_deck_is_dealt_in_its_order_every_round() -> None:
    deck = shuffled_deck(9)
    assert cards_of(deal(deck=deck, rounds=2)) == list(deck) * 2
    assert fixed_deck(cards_text(deck)) == deck


@pytest.mark.parametrize("text, says", [
    ("AS KS", "expected 53 cards, got 2"),
    ("AS AS " + " ".join(str(c) for c in DECK[1:52]), "duplicate"),
    ("ZZ", "'ZZ' is not a card"),
])
def test_a_fixed_deck_that_is_not_one_whole_deck_is_refused(text: str, says: str) -> None:
    with pytest.raises(SimulatorError) as err:
        fixed_deck(text)
    assert says in str(err.value) and "all 53 cards" in str(err.value)


def test_the_shoe_answers_resend_from_what_it_sent_and_only_that() -> None:
    device = ShoeDevice(history=5)
    lines = [device.message("CARD", str(c)) for c in DECK[:8]]        # seq 1..8, keeps 4..8
    assert device.answer(encode_resend(6, 7)) == lines[5:7]
    assert device.answer(encode_resend(1, 4)) == [lines[3]]           # 1-3 are forgotten
    request = encode_resend(6, 6)
    assert device.answer(request[:5]) == []                            # a partial request waits
    assert device.answer(request[5:]) == [lines[5]]
    assert device.answer(b"$RESEND,6,6*00\r\n") == []                  # damaged: ignored
    assert device.answer(b"garbage\r\n") == []


def test_hello_and_heartbeat_carry_the_last_sequence_number_without_taking_one() -> None:
    device = ShoeDevice("ACME", "2.0")
    assert device.hello() == encode_line("HELLO", 0, "ACME", "2.0")
    device.message("CARD", "AS")
    assert device.beat() == encode_line("BEAT", 1)
    assert device.message("CARD", "KS").startswith(b"$CARD,2,")


@pytest.mark.parametrize("text, want", [
    ("checksum@5", Injection("checksum", 5)),
    ("DISCONNECT@49", Injection("disconnect", 49)),
    ("garbage", Injection("garbage", None)),
])
def test_fault_injections_are_written_kind_at_card(text: str, want: Injection) -> None:
    assert Injection.parse(text) == want


@pytest.mark.parametrize("text, says", [
    ("lightning@3", "faults are checksum, drop, lose"),
    ("drop@0", "a number 1-49"),
    ("drop@x", "a number 1-49"),
])
def test_a_fault_that_does_not_exist_is_refused_with_the_list(text: str, says: str) -> None:
    with pytest.raises(SimulatorError, match=says):
        Injection.parse(text)


def test_a_fault_without_a_card_number_lands_somewhere_in_every_round() -> None:
    events = deal(seed=3, rounds=3, inject=[Injection("duplicate")])
    assert len(fault_kinds(events)) == 3


# ----------------------------------------------------------------- the command


@pytest.fixture
def pty_pair():
    master, slave = os.openpty()
    tty.setraw(slave)
    path = os.ttyname(slave)
    yield master, path
    os.close(master)
    os.close(slave)


def read_all(fd: int, quiet: float = 0.3) -> bytes:
    import select

    data = b""
    while select.select([fd], [], [], quiet)[0]:
        chunk = os.read(fd, 4096)
        if not chunk:
            break
        data += chunk
    return data


def test_shoe_sim_writes_a_round_to_a_given_port(pty_pair, capsys) -> None:
    master, path = pty_pair
    code = paigow(["shoe-sim", "--port", path, "--rounds", "1", "--seed", "11",
                   "--card-delay", "0", "--round-pause", "0", "--linger", "0",
                   "--heartbeat", "0"])
    assert code == 0
    events = ShoeParser().feed(read_all(master))
    cards = cards_of(events)
    assert len(cards) == 53 and len(set(cards)) == 53
    assert fault_kinds(events) == []
    assert "round 1 dealt" in capsys.readouterr().out


def test_shoe_sim_with_a_seed_deals_what_the_simulator_deals(pty_pair) -> None:
    master, path = pty_pair
    paigow(["shoe-sim", "--port", path, "--rounds", "1", "--seed", "12", "--card-delay", "0",
            "--round-pause", "0", "--linger", "0", "--heartbeat", "0"])
    expected = deal(seed=12)
    assert cards_of(ShoeParser().feed(read_all(master))) == cards_of(expected)


def test_shoe_sim_on_a_pseudo_terminal_says_where_and_keeps_a_stable_link(
        tmp_path: Path, capsys) -> None:
    link = tmp_path / "shoe"
    args = ["shoe-sim", "--link", str(link), "--rounds", "1", "--card-delay", "0.01",
            "--round-pause", "0", "--linger", "0.5", "--heartbeat", "0.1", "--seed", "5",
            "--inject", "disconnect@30", "--unplug-seconds", "0.3"]
    result: list[int] = []
    with reading(fast_config(str(link))) as (_, got):
        thread = threading.Thread(target=lambda: result.append(paigow(args)))
        thread.start()
        got.wait_for_event(Burn)
        thread.join(WAIT)
    assert result == [0]
    out = capsys.readouterr().out
    assert f"set the station's shoe port to {link}" in out
    assert "unplugged for 0.3 s" in out
    assert not os.path.lexists(link)                     # removed when the shoe-sim ends
    events = got.snapshot()
    assert sum(isinstance(e, ShoeOnline) for e in events) >= 2


@pytest.mark.parametrize("args, says", [
    (["--deck", "AS KS"], "--deck: expected 53 cards"),
    (["--port", "/nonexistent/ttyUSB7"], "Cannot open /nonexistent/ttyUSB7"),
])
def test_shoe_sim_refuses_bad_options_with_a_message_and_no_traceback(
        args: list[str], says: str, capsys) -> None:
    assert paigow(["shoe-sim", "--rounds", "1", "--linger", "0", *args]) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err


def test_shoe_sim_refuses_an_unknown_fault_before_starting(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        paigow(["shoe-sim", "--inject", "lightning"])
    assert exit_.value.code == 2
    assert "faults are checksum" in capsys.readouterr().err


def test_shoe_sim_refuses_a_link_path_that_is_a_real_file(tmp_path: Path, capsys) -> None:
    real = tmp_path / "file"
    real.write_text("keep me")
    assert paigow(["shoe-sim", "--link", str(real), "--rounds", "1"]) == 2
    assert "is not a symlink" in capsys.readouterr().err
    assert real.read_text() == "keep me"


def test_shoe_sim_can_record_what_it_sends(pty_pair, tmp_path: Path) -> None:
    master, path = pty_pair
    record = tmp_path / "sent.bin"
    paigow(["shoe-sim", "--port", path, "--rounds", "1", "--seed", "2", "--card-delay", "0",
            "--round-pause", "0", "--linger", "0", "--heartbeat", "0", "--record", str(record)])
    assert record.read_bytes() == read_all(master)
    assert all(line.startswith(b"$") for line in record.read_bytes().splitlines())


def test_checksum_of_every_line_the_simulator_sends_is_right() -> None:
    link = StationLink()
    sent: list[bytes] = []
    original = link.write

    def spy(data: bytes) -> None:
        sent.append(data)
        original(data)

    link.write = spy  # type: ignore[method-assign]
    Simulator(link, seed=random.Random(1).randint(0, 99), heartbeat=3600).run()
    for line in sent:
        body, _, tail = line.rstrip(b"\r\n").partition(b"*")
        assert len(tail) == 4 and int(tail, 16) == checksum(body[1:])
    time.sleep(0)


def test_an_older_shoe_sends_two_digit_xor_checks_and_answers_an_xor_resend() -> None:
    device = ShoeDevice(check=Check.XOR)
    line = device.message("CARD", "AS")
    assert line == encode_line("CARD", 1, "AS", check=Check.XOR)
    body, _, tail = line.rstrip(b"\r\n").partition(b"*")
    assert int(tail, 16) == checksum(body[1:], Check.XOR) and len(tail) == 2
    assert device.answer(encode_line("RESEND", 1, "1", check=Check.XOR)) == [line]
    assert device.answer(encode_line("RESEND", 1, "1")) == []       # a CRC request: not ours
