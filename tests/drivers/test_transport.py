"""The shoe reader on real pyserial ports: pseudo-terminals and loop://, the simulator on
the other end, faults injected, the shoe unplugged and plugged back in mid-round."""

from __future__ import annotations

import os
import random
import threading
import time
from pathlib import Path

import pytest
import serial

from app.core.cards import DECK
from drivers.shoe.protocol import (
    FAULT_BUDGET,
    ActionRead,
    Burn,
    CardRead,
    Fault,
    FaultKind,
    HandDealt,
    Heartbeat,
    Hello,
    NoisyLine,
    Recovered,
    ShoeEvent,
    ShuffleEnd,
    ShuffleStart,
    encode_line,
)
from drivers.shoe.simulator import FAULTS, Injection, PtyLink, SerialLink, Simulator
from drivers.shoe.transport import (
    ShoeConfig,
    ShoeConfigError,
    ShoeLinkError,
    ShoeOffline,
    ShoeOnline,
    ShoeReader,
    open_port,
    resolve_port,
)

from .helpers import (
    WAIT,
    Collector,
    cards_of,
    fast_config,
    fault_kinds,
    reading,
    running,
    shuffled_deck,
)


@pytest.fixture
def pty_link(tmp_path: Path):
    link = PtyLink(str(tmp_path / "shoe"))      # a stable name, like /dev/serial/by-id
    yield link
    link.close()


def message_types(events: list[ShoeEvent]) -> list[type]:
    return [type(e) for e in events]


def test_a_whole_round_is_read_card_by_card_over_a_pty(pty_link: PtyLink) -> None:
    deck = shuffled_deck(1)
    pty_link.open()
    sim = Simulator(pty_link, deck=deck, heartbeat=0.2, linger=WAIT)
    with reading(fast_config(str(pty_link.link))) as (_, got):
        got.wait_for_event(ShoeOnline)
        with running(sim):
            got.wait_for_event(Burn)
    events = got.snapshot()
    assert cards_of(events) == list(deck)
    assert fault_kinds(events) == []
    firsts = [t for t in message_types(events) if t not in (CardRead, Heartbeat)][:5]
    assert firsts == [ShoeOnline, Hello, ShuffleStart, ShuffleEnd, ActionRead]
    assert [e.seq for e in events if isinstance(e, CardRead)] == list(range(4, 53))


def test_a_whole_round_of_hand_stacks_is_read_over_pyserial_loop_url() -> None:
    deck = shuffled_deck(2)
    port = serial.serial_for_url("loop://", timeout=0.01)
    sim = Simulator(SerialLink("loop://", opened=port), mode="hand", deck=deck, action="dice",
                    heartbeat=0)
    with reading(fast_config("loop://"), opener=lambda cfg: port) as (_, got):
        got.wait_for_event(ShoeOnline)
        sim.run()
        got.wait_for_event(Burn)
    events = got.snapshot()
    stacks = [e for e in events if isinstance(e, HandDealt)]
    assert [s.stack for s in stacks] == list(range(1, 8))
    assert all(len(s.cards) == 7 for s in stacks)
    assert cards_of(events) == list(deck)
    assert fault_kinds(events) == []


# What each injected fault must lead to; every one of them loses and doubles no card.
EXPECTED = {
    "checksum": [FaultKind.CHECKSUM, FaultKind.GAP],
    "drop": [FaultKind.GAP],
    "duplicate": [FaultKind.DUPLICATE],
    "garbage": [FaultKind.NOISE],
    "split": [],
    "swap": [FaultKind.OUT_OF_ORDER],
    "unknown": [FaultKind.UNKNOWN],
    "long": [FaultKind.TOO_LONG],
    "truncate": [FaultKind.MALFORMED, FaultKind.GAP],
}
RECOVERS = {"checksum", "drop", "truncate"}


def test_every_injected_fault_but_disconnect_and_lose_has_an_expected_event() -> None:
    # disconnect: its own test below; lose (a card the shoe cannot resend): test_holes.py.
    assert set(EXPECTED) | {"disconnect", "lose"} == set(FAULTS)


@pytest.mark.parametrize("fault", sorted(EXPECTED))
def test_an_injected_fault_gives_its_event_and_no_card_is_lost_or_doubled(
        pty_link: PtyLink, fault: str) -> None:
    deck = shuffled_deck(3)
    pty_link.open()
    sim = Simulator(pty_link, deck=deck, card_delay=0.002, heartbeat=0.1, linger=WAIT,
                    inject=[Injection(fault, 10)])
    with reading(fast_config(str(pty_link.link), resend_delay=0.25)) as (_, got):
        got.wait_for_event(ShoeOnline)
        with running(sim):
            got.wait_for_event(Burn)
    events = got.snapshot()
    assert cards_of(events) == list(deck)
    assert fault_kinds(events) == EXPECTED[fault]
    assert (Recovered in message_types(events)) == (fault in RECOVERS)


def test_unplug_and_reconnect_mid_round_loses_and_doubles_no_card(pty_link: PtyLink) -> None:
    deck = shuffled_deck(4)
    pty_link.open()
    sim = Simulator(pty_link, deck=deck, card_delay=0.01, heartbeat=0.05, linger=WAIT,
                    unplug_seconds=0.3, inject=[Injection("disconnect", 20)])
    with reading(fast_config(str(pty_link.link))) as (_, got):
        got.wait_for_event(ShoeOnline)
        with running(sim):
            got.wait_for_event(Burn)
    events = got.snapshot()
    assert cards_of(events) == list(deck)
    types = message_types(events)
    offline = types.index(ShoeOffline)
    assert types.count(ShoeOnline) >= 2 and types.index(ShoeOnline, offline) > offline
    cards_before = sum(t is CardRead for t in types[:offline])
    assert 15 <= cards_before <= 20                 # it went away mid-round...
    assert Recovered in types[offline:]             # ...and what was dealt meanwhile came back
    assert set(fault_kinds(events)) <= {FaultKind.GAP, FaultKind.MALFORMED}
    assert FaultKind.GAP in fault_kinds(events)
    offline_event = events[offline]
    assert isinstance(offline_event, ShoeOffline) and "unplugged" in offline_event.reason


def test_a_restarted_station_resumes_after_its_last_card_without_losing_one(
        pty_link: PtyLink) -> None:
    deck = shuffled_deck(5)
    pty_link.open()
    sim = Simulator(pty_link, deck=deck, heartbeat=0.05, linger=WAIT)
    with running(sim):
        deadline = time.monotonic() + WAIT
        while sim.device.seq < 53 and time.monotonic() < deadline:   # dealt, nobody read
            time.sleep(0.01)
        # The ledger says the station had every message up to 20 (card 17 of the deal).
        with reading(fast_config(str(pty_link.link)), resume_after=20) as (reader, got):
            got.wait_for_event(Burn)
        assert reader.last_seq is not None and reader.last_seq >= 53
    events = got.snapshot()
    assert cards_of(events) == list(deck[17:])
    assert Recovered in message_types(events)


def test_unanswered_requests_end_in_lost_and_the_held_cards_are_delivered(
        pty_link: PtyLink) -> None:
    pty_link.open()
    config = fast_config(str(pty_link.link), resend_delay=0.02, resend_timeout=0.05,
                         resend_tries=2)
    with reading(config) as (_, got):
        got.wait_for_event(ShoeOnline)
        pty_link.write(encode_line("CARD", 1, "AS") + encode_line("CARD", 3, "QS"))
        got.wait_for(lambda evs: FaultKind.LOST in fault_kinds(evs))
        requests = b""
        while (data := pty_link.read(0.05)):
            requests += data
    events = got.snapshot()
    assert fault_kinds(events) == [FaultKind.GAP, FaultKind.LOST]
    assert [str(c) for c in cards_of(events)] == ["AS", "QS"]
    assert requests == encode_line("RESEND", 2, "2") * 2   # asked, asked again, gave up


def test_a_shoe_plugged_in_after_the_station_started_is_found(pty_link: PtyLink) -> None:
    with reading(fast_config(str(pty_link.link))) as (reader, got):
        got.wait_for_event(ShoeOffline)
        assert not reader.online
        pty_link.open()
        got.wait_for_event(ShoeOnline)
        assert reader.online
    first = got.snapshot()[0]
    assert isinstance(first, ShoeOffline) and "No shoe at" in first.reason
    assert "Traceback" not in first.reason


def test_offline_is_said_once_however_many_times_the_reader_retries(tmp_path: Path) -> None:
    with reading(fast_config(str(tmp_path / "nothing"), reconnect_max=0.02)) as (_, got):
        got.wait_for_event(ShoeOffline)
        time.sleep(0.3)
    assert message_types(got.snapshot()) == [ShoeOffline]


def test_silence_longer_than_the_heartbeat_timeout_is_offline_until_bytes_come(
        pty_link: PtyLink) -> None:
    pty_link.open()
    with reading(fast_config(str(pty_link.link), heartbeat_timeout=0.2)) as (reader, got):
        got.wait_for_event(ShoeOnline)
        got.wait_for_event(ShoeOffline)
        assert not reader.online
        pty_link.write(encode_line("BEAT", 0))
        got.wait_for_event(ShoeOnline, count=2)
        assert reader.online
    events = got.snapshot()
    silent = next(e for e in events if isinstance(e, ShoeOffline))
    assert "No word from the shoe" in silent.reason
    assert message_types(events)[:4] == [ShoeOnline, ShoeOffline, ShoeOnline, Heartbeat]


def test_a_listener_that_fails_does_not_stop_the_shoe() -> None:
    port = serial.serial_for_url("loop://", timeout=0.01)
    got = Collector()
    calls = 0

    def listener(event: ShoeEvent) -> None:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise RuntimeError("a bug in the screen")
        got(event)

    reader = ShoeReader(fast_config("loop://"), on_event=listener, opener=lambda cfg: port)
    reader.start()
    try:
        port.write(encode_line("CARD", 1, "AS") + encode_line("CARD", 2, "KS"))
        got.wait_for_event(CardRead)
    finally:
        reader.stop()
    assert [str(c) for c in cards_of(got.snapshot())] == ["KS"]


def test_events_go_to_a_queue_when_no_listener_is_given() -> None:
    port = serial.serial_for_url("loop://", timeout=0.01)
    reader = ShoeReader(fast_config("loop://"), opener=lambda cfg: port)
    reader.start()
    try:
        port.write(encode_line("CARD", 1, "AS"))
        assert isinstance(reader.events.get(timeout=WAIT), ShoeOnline)
        assert isinstance(reader.events.get(timeout=WAIT), CardRead)
    finally:
        reader.stop()


def test_stop_cuts_a_blocking_read_short_and_closes_the_port(pty_link: PtyLink) -> None:
    pty_link.open()
    # A read that would block for an hour: the reader's thread ends within stop's wait
    # only if stop cuts the read short (the time stop takes is `make bench`'s business).
    config = fast_config(str(pty_link.link), read_timeout=3600.0)
    got = Collector()
    reader = ShoeReader(config, on_event=got)
    reader.start()
    got.wait_for_event(ShoeOnline)
    reader.stop(timeout=WAIT)
    assert reader._thread is not None and not reader._thread.is_alive(), \
        f"the reader still reads after stop; it saw: {got.snapshot()}"
    assert not reader.online


def test_the_reader_runs_on_any_thread_through_run_and_stop() -> None:
    """What a QThread does: call run() on its own thread, stop() from the GUI thread."""
    port = serial.serial_for_url("loop://", timeout=0.01)
    got = Collector()
    reader = ShoeReader(fast_config("loop://"), on_event=got, opener=lambda cfg: port)
    thread = threading.Thread(target=reader.run)
    thread.start()
    port.write(encode_line("CARD", 1, "AS"))
    got.wait_for_event(CardRead)
    reader.stop()
    thread.join(WAIT)
    assert not thread.is_alive()


# ---------------------------------------------------------------- config, port


def test_shoe_config_reads_the_table_config_keys_with_defaults() -> None:
    cfg = ShoeConfig.from_mapping({"port": "/dev/ttyUSB0", "baud": 19200,
                                   "heartbeat_timeout": 5, "resend-tries": 4})
    assert cfg.port == "/dev/ttyUSB0" and cfg.baudrate == 19200
    assert cfg.heartbeat_timeout == 5 and cfg.resend_tries == 4
    assert ShoeConfig("/dev/ttyUSB0").baudrate == 9600


@pytest.mark.parametrize("table, says", [
    ({"port": "/dev/ttyUSB0", "baud": 9601}, "shoe.baud: 9601 is not a serial speed"),
    ({"port": "/dev/ttyUSB0", "speed": 9600}, "shoe.speed: not a shoe setting"),
    ({"baud": 9600}, "shoe.port is missing"),
    ({"port": " "}, "shoe.port: name the shoe's serial port"),
    ({"port": "x", "read_timeout": -1}, "shoe.read_timeout: -1 must be a number of seconds"),
    ({"port": "x", "resend_tries": 0}, "shoe.resend_tries: 0 must be a whole number"),
    ({"port": "x", "reconnect_min": 2, "reconnect_max": 1}, "reconnect_max must be at least"),
])
def test_a_shoe_setting_that_cannot_work_is_refused_with_the_key_and_why(
        table: dict, says: str) -> None:
    with pytest.raises(ShoeConfigError) as err:
        ShoeConfig.from_mapping(table)
    assert says in str(err.value)


def test_heartbeat_timeout_zero_turns_silence_detection_off() -> None:
    assert ShoeConfig("x", heartbeat_timeout=0).heartbeat_timeout == 0


def test_a_port_is_found_by_part_of_its_serial_by_id_name(tmp_path: Path) -> None:
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    (by_id / "usb-ACME_Shoe_7_A1B2-if00-port0").symlink_to("/dev/null")
    (by_id / "usb-FTDI_Printer_X9-if00-port0").symlink_to("/dev/null")
    assert resolve_port("acme_shoe", str(by_id)) == str(by_id / "usb-ACME_Shoe_7_A1B2-if00-port0")
    assert resolve_port("/dev/ttyUSB3", str(by_id)) == "/dev/ttyUSB3"
    assert resolve_port("loop://", str(by_id)) == "loop://"
    with pytest.raises(ShoeLinkError, match="matches several devices"):
        resolve_port("usb-", str(by_id))
    with pytest.raises(ShoeLinkError, match="connected now: usb-ACME"):
        resolve_port("Shufflemaster", str(by_id))


def test_a_missing_port_is_explained_for_the_dealer(tmp_path: Path) -> None:
    with pytest.raises(ShoeLinkError) as err:
        open_port(ShoeConfig(str(tmp_path / "ttyUSB9")))
    assert "No shoe at" in str(err.value.strerror) and "by hand" in str(err.value.strerror)


def test_the_port_is_opened_8n1_at_the_configured_speed(pty_link: PtyLink) -> None:
    pty_link.open()
    port = open_port(ShoeConfig(str(pty_link.link), baudrate=19200, read_timeout=0.1))
    try:
        assert isinstance(port, serial.Serial)
        assert (port.baudrate, port.bytesize, port.parity, port.stopbits) == (19200, 8, "N", 1)
        assert port.timeout == 0.1
    finally:
        port.close()
    assert os.path.islink(str(pty_link.link))


def test_a_real_serial_line_carrying_noise_then_cards_delivers_the_cards_in_few_batches(
        pty_link: PtyLink) -> None:
    # 256 KB of random bytes on a pseudo-terminal, then three cards: the listener gets a
    # handful of faults and one batch per read, never one call per damaged message.
    pty_link.open()
    batches: list[list[ShoeEvent]] = []
    got = Collector()

    def on_batch(events: list[ShoeEvent]) -> None:
        batches.append(list(events))
        for e in events:
            got(e)

    reader = ShoeReader(fast_config(str(pty_link.link)), on_batch=on_batch)
    reader.start()
    try:
        got.wait_for_event(ShoeOnline)
        noise = random.Random(6).randbytes(1 << 18)
        for i in range(0, len(noise), 4096):
            pty_link.write(noise[i:i + 4096])
        deck = DECK[:3]
        pty_link.write(b"\r\n" + b"".join(encode_line("CARD", i, str(c))
                                          for i, c in enumerate(deck, 1)))
        got.wait_for(lambda evs: len(cards_of(evs)) == 3)
    finally:
        reader.stop()
    events = got.snapshot()
    assert cards_of(events) == list(deck)
    told = [e for e in events if isinstance(e, Fault | NoisyLine)]
    # the budget per interval, and at most one summary per interval, however slow the run
    assert len(told) <= (FAULT_BUDGET + 1) * (1 + sum(isinstance(e, NoisyLine) for e in told))
    assert len(told) < 100
    assert len(batches) < 1000 and sum(map(len, batches)) == len(events)
