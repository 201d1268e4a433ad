"""The dealer's steps: what each command of the registry (commands.py) does.

Each step checks with the round first (the command's check in checks.py answers the same
way), changes it through `Play.change` (saved to the ledger at once) and words the result.
A dealer's mistake is raised as the core's error and shown by the session, never further.
"""

from __future__ import annotations

from collections.abc import Mapping

from app.core.cards import Card, CardError, cards_text, parse_cards
from app.core.round import DragonSetting, HandReturned, Phase, Round
from app.core.settlement import MoneyError, Slip, money, parse_money
from app.core.table import CARDS_PER_HAND, DEALER, TableError, position_name
from drivers.action import dice, draw_rng

from . import checks, feed, progressive, words
from .deal import resume_point
from .events import PrintJob
from .guide import next_line
from .keyboard import CARDS_FIELD
from .parts import Parts
from .procedure import (
    SET_EACH,
    after_set,
    bank_offer_words,
    clear_deal,
    dragon_offer_words,
    open_field,
    open_round,
    show_field,
    update_preview,
)
from .wager_limits import asking_for, verify_wager

# --- the round opened, seats, wagers ---------------------------------------------------------


def new_round(p: Parts) -> None:
    checks.new(p)
    play = p.play
    play.keep_last_wagers()  # each seat's last wager, for the jump rule
    rotation = play.next_rotation()
    game = Round(p.rules, rotation)
    if play.ledger is not None:
        play.ledger.begin(game)
    open_round(p, game)
    play.add_log(f"--- round {rotation.round_no} opened ---")
    play.pass_over_bank()
    offered = p.bank_offered()
    p.keyboard.select(offered or 1)
    opened = f"Round {rotation.round_no} is open"
    if offered is not None:
        p.say(f"{opened}. {bank_offer_words(offered)}", "ok")
    else:
        p.say(f"{opened} ({checks.why_no_bank_offer(p, game)}): select a seat (1-6), press "
              f"W, type the wager and Enter.", "ok")


def select(p: Parts, text: str) -> None:
    """A seat chosen (by its key at the table, or a click on it). A click while a field is
    open moves a wager's field to that seat, else leaves the field."""
    position = int(text) if text.strip().isdigit() else -1
    position = DEALER if position == 7 else position
    p.table.verify_position(position)
    keyboard = p.keyboard
    e = keyboard.entry
    if e is None:
        keyboard.select(position)
        return
    if e.field.moves and position != DEALER:
        e.move(position)
        keyboard.select(position)
        show_field(p)
        return
    keyboard.close()
    keyboard.select(position)
    p.say(f"Nothing set: the {e.field.what} field is left; {words.name(position)} is "
          f"selected.", "info")


def select_step(p: Parts, by: int) -> None:
    selected = p.keyboard.selected
    start = selected if selected is not None else DEALER
    p.keyboard.select(p.table.step(start, by))


def place_wager(p: Parts, text: str) -> None:
    """The selected seat's wager: refused over the maximum (or under the minimum); one far
    above the seat's previous wager is asked about first (wager_limits.py), and set when
    the same wager comes again or the dealer says yes (confirm_wager)."""
    rnd = p.play.need_round()
    seat = p.need_position()
    if not text.strip():
        raise MoneyError("type the wager in dollars (e.g. 25 or 25.50), then Enter")
    cents = parse_money(text)
    checks.verify_ledger_takes(p, "wager")
    verify_wager(rnd, seat, cents)
    asking = asking_for(rnd, p.play.last_wagers, seat, cents)
    if asking is not None and asking != p.keyboard.asking:
        p.keyboard.ask(asking)
        p.say(asking.words(), "warn")
        return
    set_wager(p, seat, cents)


def confirm_wager(p: Parts, text: str) -> None:
    """Enter (again) or Y: the wager asked about is set. With nothing asked, a second Enter
    does nothing at all (a double Enter is no mistake); Y says there is nothing to confirm."""
    asking = p.keyboard.asking
    if asking is None:
        if text == "enter":
            return
        checks.confirm(p)
        return
    if p.keyboard.selected != asking.seat:
        p.keyboard.select(asking.seat)
    set_wager(p, asking.seat, asking.cents)


def set_wager(p: Parts, seat: int, cents: int) -> None:
    rnd = p.play.need_round()
    checks.verify_ledger_takes(p, "wager")
    p.keyboard.answered()
    p.play.change(Round.place_wager, seat, cents)
    nxt = p.table.step(seat)
    while nxt in (DEALER, rnd.bank.player):
        nxt = p.table.step(nxt)
    p.keyboard.select(nxt)
    p.say(f"{words.name(seat)} wagers {money(cents)}. Next seat selected; action with "
          f"{p.deal.action_key(rnd)} when the wagers are in.", "ok")


def withdraw_wager(p: Parts) -> None:
    p.play.need_round()
    seat = p.need_position()
    record = p.play.change(Round.withdraw_wager, seat)
    p.say(f"{words.name(seat)} takes back {money(record.wager)}.", "ok")


# --- the bonus wager (issue 26) -------------------------------------------------------------

def place_bonus(p: Parts, text: str) -> None:
    """U: the selected seat's bonus wager, within the bonus's own limits (a player-banker's
    is on the banking hand); on a dragon hand taken this round, its taker's bonus on it,
    where the house allows it."""
    rnd = p.play.need_round()
    seat = p.need_position()
    if not text.strip():
        raise MoneyError("type the bonus wager in dollars (e.g. 5), then Enter")
    cents = parse_money(text)
    checks.verify_ledger_takes(p, "bonus wager")
    if checks.is_dragon_bonus(p, seat):
        record = p.play.change(Round.place_dragon_bonus, seat, cents)
        p.keyboard.close()
        said = (f"{words.name(record.seat)} bonus {money(cents)} on the dragon hand at "
                f"{position_name(seat)}.")
        nxt = p.dragon_offered()
        if nxt is not None:  # back to the seat the dragon is offered to
            p.keyboard.select(nxt)
        p.say(f"{said} {dragon_offer_words(p, nxt) if nxt is not None else SET_EACH}", "ok")
        return
    p.play.change(Round.place_bonus, seat, cents)
    p.keyboard.close()
    p.say(f"{words.name(seat)} bonus {money(cents)}. Select the next seat with a bonus, or "
          f"action with {p.deal.action_key(rnd)} when the wagers are in.", "ok")


def withdraw_bonus(p: Parts) -> None:
    """Shift+U: the selected seat takes back its bonus while the bets are open; on a dragon
    hand taken this round, its taker takes back the bonus on it before any hand is set."""
    p.play.need_round()
    seat = p.need_position()
    if checks.is_dragon_bonus(p, seat):
        taken = p.play.change(Round.withdraw_dragon_bonus, seat)
        p.say(f"{words.name(taken.seat)} takes back the bonus {money(taken.wager)} on the "
              f"dragon hand at {position_name(seat)}.", "ok")
        return
    record = p.play.change(Round.withdraw_bonus, seat)
    p.say(f"{words.name(seat)} takes back the bonus {money(record.wager)}.", "ok")


# --- the bank ----------------------------------------------------------------------------

def take_bank(p: Parts, text: str) -> None:
    """The seat offered the bank takes it with the chips typed (dollars)."""
    rnd = p.play.need_round()
    checks.bank(p)
    seat = p.bank_offered()
    assert seat is not None
    if not text.strip():
        raise MoneyError(f"type the chips seat {seat} puts up as the bank, in dollars "
                         f"(e.g. 500), then Enter")
    chips, co_bank = parse_money(text), p.play.co_bank
    record = p.play.change(Round.take_bank, seat, chips, co_bank)
    co = " with the house co-banking half" if record.co_bank else ""
    dealer = (f"; the dealer plays a hand against it for {money(record.dealer_wager)}"
              if not record.co_bank else "")
    nxt = p.table.step(seat)
    while nxt in (DEALER, seat):
        nxt = p.table.step(nxt)
    p.keyboard.select(nxt)
    p.say(f"Seat {seat} banks with {money(record.chips or 0)}{co}{dealer}. Wagers against the "
          f"bank: select a seat, W, the wager, Enter; then {p.deal.action_key(rnd)} counts "
          f"action from seat {seat}.", "ok")


def toggle_co_bank(p: Parts) -> None:
    checks.co_bank(p)
    on = p.play.toggle_co_bank()
    p.say("Co-banking: the house covers half of the player's bank and shares its result."
          if on else "Co-banking off: the player banks alone.", "info")


def pass_offer(p: Parts) -> None:
    """The seat offered the bank (before action) or the dragon (after the deal) passes."""
    rnd = p.play.need_round()
    checks.pass_offer(p)
    bank = p.bank_offered()
    if bank is not None:
        p.play.change(Round.pass_bank, bank)
        p.play.pass_over_bank()
        nxt = p.bank_offered()
        if nxt is not None:
            p.keyboard.select(nxt)
            p.say(f"Seat {bank} passes. {bank_offer_words(nxt)}", "ok")
        else:
            p.say(f"Seat {bank} passes: the bank has come round to the dealer, who banks this "
                  f"round. Wagers, then {p.deal.action_key(rnd)}.", "ok")
        return
    seat = p.dragon_offered()
    assert seat is not None
    p.play.change(Round.pass_dragon, seat)
    after_dragon(p, f"Seat {seat} passes the dragon.")


def pass_all(p: Parts) -> None:
    """Everyone still to be asked passes (the bank: the dealer banks; the dragon: the unused
    hands are mucked), each pass recorded seat by seat."""
    rnd = p.play.need_round()
    checks.pass_offer(p)
    passed: list[int] = []
    if p.bank_offered() is not None:
        while (seat := p.bank_offered()) is not None:
            p.play.change(Round.pass_bank, seat)
            passed.append(seat)
            p.play.pass_over_bank()
        p.say(f"{words.seats_words(passed)} the bank: it has come round to the dealer, who "
              f"banks this round. Wagers, then {p.deal.action_key(rnd)}.", "ok")
        return
    while (seat := p.dragon_offered()) is not None:
        p.play.change(Round.pass_dragon, seat)
        passed.append(seat)
    after_dragon(p, f"{words.seats_words(passed)} the dragon.")


# --- action and the cards typed -------------------------------------------------------------

def rng_action(p: Parts, draw: int | None) -> None:
    """R: the action a device sent, or the station's RNG (a recorded draw is used again)."""
    p.play.need_round()
    checks.verify_no_offer_open(p, "action")
    device = p.deal.device_action
    if device is not None:
        try:
            feed.take_action(p, device)
        except TableError as e:
            p.deal.device_sent(None)
            raise TableError(f"The {words.device_name(device)}'s action ({device.action}) "
                             f"cannot be used: {e}. It is dropped: take action again.") from None
        return
    checks.verify_rng_table(p.play.need_round())
    if draw is None:
        inp = draw_rng(p.deal.randbelow)
        p.out.drew(inp.action.number)
    else:
        inp = draw_rng(lambda _n: draw - 1)
    feed.take_action(p, inp)


def dice_action(p: Parts, text: str) -> None:
    p.play.need_round()
    checks.dice(p)
    feed.take_action(p, dice(text))


def enter_cards(p: Parts, text: str) -> None:
    """C: the selected position's cards. A card that is no card, or one dealt already, is
    refused alone: the field opens again with the rest of the line, the dealer types that
    card again and Enter."""
    checks.cards(p)
    position = p.need_position("position")
    tokens = text.replace(",", " ").split()
    if not tokens:
        raise CardError("type the cards, e.g. AS KD 10H 7C 7D 2S JK, then Enter")
    have = p.dealing()
    cards: list[Card] = []
    for token in tokens:
        try:
            c = parse_cards(token)[0]
            if c in cards:
                raise CardError(f"{token} is typed twice: each card is in the deck once")
            for q, held in have.items():
                if c in held:
                    raise CardError(f"{c} is already dealt to {position_name(q)}: each card "
                                    f"is in the deck once")
        except CardError as e:
            rest = [t for t in tokens if t != token]
            _reopen_cards(p, " ".join(rest))
            raise CardError(f"{e}. Only {token} is refused: the other {len(rest)} card(s) "
                            f"stay in the line; type the right card and Enter "
                            f"(Esc leaves the line).") from None
        cards.append(c)
    mine = have.get(position, [])
    if len(mine) + len(cards) > CARDS_PER_HAND:
        raise CardError(f"{position_name(position)} has {len(mine)} card(s) and a hand is "
                        f"{CARDS_PER_HAND}: {cards_text(cards)} is {len(cards)} too many by "
                        f"{len(mine) + len(cards) - 7}")
    full = len(mine) + len(cards) == CARDS_PER_HAND
    p.deal.typed(position, tuple(cards))
    feed.keep_deal(p)  # typed cards come back after a restart too
    p.say(f"{words.name(position)}: {cards_text(cards)}", "ok")
    if full:
        have = p.dealing()
        for q in p.table.around(p.table.step(position)):
            if len(have.get(q, ())) < CARDS_PER_HAND:
                p.keyboard.select(q)
                break
    feed.try_finish(p)


def _reopen_cards(p: Parts, text: str) -> None:
    """The cards' field opened again with `text`, typing going on after it."""
    open_field(p, "cards", CARDS_FIELD, text)
    entry = p.keyboard.entry
    assert entry is not None
    entry.fresh = False
    if text:
        entry.text = text + " "


def deal_complete(p: Parts) -> None:
    """The shoe read the 49 cards dealt and will not read the 4 left over (no BURN): the
    deal is taken as it is and the leftovers are worked out as the cards not dealt."""
    checks.deal_done(p)
    feed.try_finish(p, complete=True)


# --- the dragon and the hands ----------------------------------------------------------------

def take_dragon(p: Parts, text: str) -> None:
    p.play.need_round()
    checks.dragon(p)
    seat = p.dragon_offered()
    assert seat is not None
    if not text.strip():
        raise MoneyError(f"type seat {seat}'s dragon wager in dollars, then Enter")
    wager = parse_money(text)
    record = p.play.change(Round.take_dragon, seat, wager)
    how = ("it is set the House Way at settlement"
           if p.rules.dragon.setting is DragonSetting.HOUSE_WAY else "the player sets it")
    after_dragon(p, f"Seat {seat} takes {position_name(record.position)}'s hand as a dragon "
                    f"for {money(record.wager)}: {how}.")


def after_dragon(p: Parts, said: str) -> None:
    nxt = p.dragon_offered()
    if nxt is not None:
        p.keyboard.select(nxt)
        p.say(f"{said} {dragon_offer_words(p, nxt)}", "ok")
        return
    after_set(p)
    p.say(f"{said} The dragon offer is over; the unused hands are mucked. {SET_EACH}", "ok")


def house_way(p: Parts) -> None:
    rnd = p.play.need_round()
    checks.verify_no_offer_open(p, "the hands are set")
    position = p.need_position("position")
    if not rnd.can_set_hand(position) and rnd.can_ask_house_way(position):
        p.play.change(Round.ask_house_way, position)
        p.say(f"{words.name(position)} asks for the House Way: leave the seven cards in one "
              f"pile; the dealer sets them the House Way after the bank hand is opened and "
              f"set.", "ok")
        after_set(p)
        return
    hand = p.play.change(Round.house_way, position).hand
    p.say(f"{words.name(position)} set the House Way, rule {hand.rule}: {hand.rule_says}", "ok")
    after_set(p)


def show_house_way(p: Parts) -> None:
    """The player asks the house for help: show the House Way, set nothing."""
    p.play.need_round()
    checks.show_house_way(p)
    position = p.need_position("position")
    shown = p.play.change(Round.show_house_way, position)
    p.say(f"House Way for {words.name(position)}: {cards_text(shown.setting.low)} in front, "
          f"{cards_text(shown.setting.high)} behind (rule {shown.rule_id}: {shown.says}). Not "
          f"set: the player sets it (F), or H for the House Way.", "info")


def pick_card(p: Parts, position: int, card: Card) -> None:
    rnd = p.play.need_round()
    if rnd.phase is not Phase.SETTING:
        raise TableError(f"cards are picked for the front while hands are set; now "
                         f"{rnd.phase.now}")
    checks.verify_no_offer_open(p, "the hands are set")
    if position != p.keyboard.selected:
        p.keyboard.select(position)
    rnd.verify_set_hand(position, [card])
    p.keyboard.pick(card)
    update_preview(p, position)


def set_front(p: Parts, text: str) -> None:
    p.play.need_round()
    checks.verify_no_offer_open(p, "the hands are set")
    position = p.need_position("position")
    front = list(parse_cards(text, count=2)) if text.strip() else list(p.keyboard.picks)
    if len(front) != 2:
        raise CardError("click the two cards the player put in front (or press F and type "
                        "them, e.g. KS 9H), then F")
    record = p.play.change(Round.set_hand, position, front)
    hand = record.hand
    if isinstance(record, HandReturned):
        p.keyboard.clear_picks()
        p.say(f"{words.name(position)}: {words.foul_words(hand)}"
              f"{words.returned_words(record)}: the round waits for it.", "error")
        return
    if hand.foul:
        p.say(f"{words.name(position)}: {words.foul_words(hand)}", "error")
    else:
        assert hand.setting is not None  # a hand set, not returned, has its setting
        p.say(f"{words.name(position)}: {cards_text(hand.setting.low)} in front, "
              f"{cards_text(hand.setting.high)} behind.", "ok")
    after_set(p)


def escape(p: Parts) -> None:
    """Esc: the field open is left, the picked cards are dropped, a wager asked about is not
    set."""
    keyboard = p.keyboard
    keyboard.clear_picks()
    keyboard.close()
    asking = keyboard.answered()
    if asking is not None:
        p.say(f"Not set: seat {asking.seat}'s wager stays "
              + (money(asking.previous) if p.round is not None and asking.seat
                 in p.round.wagers else "unplaced") + ".", "info")


# --- settling and the slip ------------------------------------------------------------------

def settle(p: Parts) -> None:
    rnd = p.play.need_round()
    checks.verify_no_offer_open(p, "settling")
    if rnd.bonus_held is None and rnd.bonus_waiting():
        held = p.play.change(Round.hold_bonus)
        p.say("Waiting for a supervisor: " + "; ".join(x.text for x in held.lines)
              + ". A supervisor approves the payout (F2, Approve bonus: their name and own "
              "secret) before the round is settled and the slip printed; the floor is told.",
              "warn")
        p.out.show("approve_bonus")
        return
    slip: Slip = p.play.change(Round.settle)
    p.keyboard.deselect()
    p.keyboard.close()
    p.keyboard.picked([])
    t, bank = slip.totals, slip.bank
    banker = ""
    if bank.player is not None:
        banker = (f" Banker seat {bank.player} nets {money(bank.net, sign=True)}"
                  + (" - the bank ran out." if bank.exhausted else "."))
    then = ("P prints the slip; N opens the next round." if p.devices.printer_attached
            else "N opens the next round.")
    bonus = ""
    if slip.bonus is not None:
        bonus = (f" Bonus {money(slip.bonus.net, sign=True)}"
                 + (f", approved by {slip.bonus.approved_by}" if slip.bonus.approved_by
                    else "") + ".")
    hit = progressive.after_settle(p, rnd)
    p.say(f"Settled from {position_name(slip.action_position)}: players net "
          f"{money(t.players_net, sign=True)}, commission {money(t.commission)}, house net "
          f"{money(t.house_net, sign=True)}.{banker}{bonus}{hit or ' ' + then}",
          "warn" if hit else "ok")
    p.out.settled(slip)


def print_slip(p: Parts) -> None:
    """P: print this round's slip (a slip kept by a printer failure: the kept slips). P on
    a slip printed already is no mistake: it is said as information, with how to reprint."""
    rnd = p.round
    if rnd is not None and rnd.slip is not None and p.devices.slip_printed == "printed":
        p.say(f"Round {rnd.slip.round}'s slip is already printed: nothing is printed again. "
              f"Shift+P prints a copy marked REPRINT.", "info")
        return
    checks.print_slip(p)
    rnd = p.round
    assert rnd is not None and rnd.slip is not None
    slip = rnd.slip
    p.say(f"Printing round {slip.round}'s slip...", "info")
    if p.devices.slip_printed == "kept":
        p.devices.send_to_printer(None, PrintJob("kept"))
    else:
        p.devices.send_to_printer(slip, PrintJob("slip", slip.table, slip.round))


def reprint(p: Parts) -> None:
    """Shift+P: the kept slips (oldest first); with none kept, this round's slip again,
    marked REPRINT."""
    checks.reprint(p)
    kept = p.devices.kept_count
    if kept:
        p.say(f"Printing the {kept} kept slip(s)...", "info")
        p.devices.send_to_printer(None, PrintJob("kept"))
        return
    rnd = p.round
    assert rnd is not None and rnd.slip is not None
    p.say(f"Printing round {rnd.slip.round}'s slip again, marked REPRINT...", "info")
    p.devices.send_to_printer(rnd.slip, PrintJob("duplicate", rnd.slip.table, rnd.slip.round))


# --- the devices, the shift, a void -----------------------------------------------------------

def toggle_shoe(p: Parts) -> None:
    checks.shoe(p)
    going = not p.devices.shoe_online
    p.devices.plug_demo_shoe(going)  # its status follows as an event
    if going:
        p.out.ask_shoe("online")
        p.say("The demo shoe is plugged back in: it deals the next deal.", "info")
    else:
        # The deal stops first: a shoe that stops by dropping what it was asked would
        # otherwise drop the unplugging too.
        p.out.ask_shoe("stop_deal")
        p.out.ask_shoe("offline")
        p.say("The demo shoe is unplugged: cards are entered by hand (C).", "warn")


def open_shift(p: Parts, dealer: str) -> None:
    """F3: the dealer at the table (a new shift in the ledger)."""
    ledger = p.play.ledger
    if ledger is None:
        raise TableError("this station keeps no ledger: there is no shift to open")
    name = ledger.open_shift(dealer)
    p.out.note(f"Shift opened: dealer {name}")
    rnd = p.round
    more = " Press N to open a round." if rnd is None or rnd.phase is Phase.SETTLED else ""
    p.say(f"{name}'s shift is open: every round is recorded under it.{more}", "ok")


def shift(p: Parts, text: str) -> None:
    """F3 with the dealer's name: a new shift; with none, the window asks the name."""
    if text.strip():
        open_shift(p, text)
    else:
        p.out.show("dealer")


def _round_ends(p: Parts, *, typing_too: bool) -> None:
    """A void or a misdeal: the deal stops, no round is in play."""
    p.out.ask_shoe("stop_deal")
    clear_deal(p)
    p.play.end(typing_too=typing_too)
    p.keyboard.deselect()
    p.deal.forget_action()


def void_round(p: Parts, reason: str, by: str) -> None:
    """The supervisor voids the round in play (after the PIN): it stays in the ledger as
    void, with who and why; the next round starts from the same rotation."""
    rnd = p.play.need_round()
    if rnd.phase is Phase.SETTLED:
        raise TableError(f"round {rnd.rotation.round_no} is settled: it cannot be voided; "
                         f"correct a settlement instead")
    reason, by = reason.strip(), by.strip()
    if not reason or not by:
        raise TableError("a void says why and who voids the round")
    if p.play.ledger is not None:
        p.play.ledger.void(rnd, reason, by)
    _round_ends(p, typing_too=False)
    p.keyboard.reset()
    p.play.add_log(f"--- round {rnd.rotation.round_no} VOID by {by}: {reason} ---")
    p.say(f"Round {rnd.rotation.round_no} is void ({by}: {reason}). The wagers go back to "
          f"the players. N opens a new round.", "warn")


def ask_misdeal(p: Parts) -> None:
    """Shift+M: a misdeal is the supervisor's: the pit view asks for their name, their
    secret and why (then a SupervisorCommand("misdeal") ends the deal)."""
    checks.misdeal(p)
    p.out.show("misdeal")
    p.say("A misdeal is called by a supervisor: their name, their own secret and why, in "
          "the pit view (F2). The deal ends and every wager goes back.", "warn")


def misdeal(p: Parts, reason: str, by: str, secret: str) -> None:
    """The supervisor ends the deal as a misdeal (a deal that cannot be completed: cards
    the shoe lost, a card exposed, the wrong number dealt): the round ends, every wager
    goes back, and the ledger keeps it marked misdeal with who and why; the next round
    starts from the same rotation."""
    rnd = p.play.need_round()
    checks.misdeal(p)
    reason = reason.strip()
    if not reason:
        raise TableError("a misdeal says why: e.g. 'the shoe lost card 12; no one could say "
                         "which it was'")
    who = p.play.authorise(by, secret, "misdeal")
    if p.play.ledger is not None:
        p.play.ledger.misdeal(rnd, reason, who)
    no = rnd.rotation.round_no
    _round_ends(p, typing_too=True)
    p.play.add_log(f"--- round {no} MISDEAL called by {who.name}: {reason} ---")
    p.say(f"Round {no} is a misdeal ({who.name}: {reason}). Every wager goes back to its "
          f"player. N opens a new round.", "warn")


def approve_bonus(p: Parts, by: str, secret: str) -> None:
    """A supervisor approves the bonus payouts that wait (their own secret, checked by
    the supervisor port); the round is then settled at once, as the dealer asked."""
    checks.approve_bonus(p)
    who = p.play.authorise(by, secret, "bonus")
    p.play.approve_bonus(who)
    settle(p)  # its words name who approved


def allow_typing(p: Parts, reason: str, by: str, secret: str) -> None:
    """A supervisor lets the dealer type this deal's cards (C) though the shoe is online
    (a shoe that misreads, a card it cannot give back): for this round only, logged."""
    rnd = p.play.need_round()
    if rnd.phase is not Phase.DEALING:
        raise TableError(f"typing cards is allowed for a deal under way; now "
                         f"{rnd.phase.now}")
    who = p.play.authorise(by, secret, "override")
    p.play.allow_typing(who.name)
    p.out.note(f"Typing cards allowed by {who.name}" + (f": {reason.strip()}" if reason.strip()
                                                       else ""))
    p.say(f"{who.name} allows typing this deal's cards: select a position, C, type its "
          f"cards, Enter.", "ok")


def resume(p: Parts, game: Round, deal: Mapping[str, object] | None = None) -> None:
    """The round a stopped station had in play, as the ledger rebuilt it: every wager, the
    bank, action, the cards and the settings are back; the dealer carries on."""
    open_round(p, game)
    p.deal.taken_back(game.action)
    p.play.add_log(f"--- round {game.rotation.round_no} taken back from the ledger ---")
    resumed = (f"Round {game.rotation.round_no} is taken back as it was when the station "
               f"stopped: every wager, card and setting is as recorded.")
    if game.phase is Phase.BETTING:
        p.play.pass_over_bank()
        p.keyboard.select(p.bank_offered() or 1)
    elif game.phase is Phase.DEALING:
        assert game.action is not None
        p.keyboard.select(game.action.position)
        kept = p.deal.restore(deal) if deal else 0
        if kept:
            _, last = resume_point(deal)
            asked = (f"the shoe is asked for every card after its message {last}"
                     if last is not None else "the rest come as the shoe reads them")
            how = (f"the {kept} card(s) read before it stopped are back in their places; "
                   f"{asked} (while it is offline, type them: C).")
            feed.try_finish(p)
        elif p.devices.shoe_online and p.devices.shoe_demo:
            p.out.ask_shoe("start_deal")
            how = "the demo shoe deals again."
        elif p.devices.shoe_online:
            how = ("no card of it was read before it stopped: the cards come as the shoe "
                   "reads them, or a supervisor calls a misdeal.")
        else:
            how = "type each position's seven cards (C)."
        if p.round is not None and p.round.phase is Phase.DEALING:
            p.say(f"{resumed} The deal was under way: {how}", "warn")
            return
    elif game.phase is Phase.SETTING:
        offered = p.dragon_offered()
        if offered is not None:
            p.keyboard.select(offered)
        else:
            after_set(p)
    p.say(f"{resumed} {next_line(p).removeprefix('Next: ')}", "warn")
