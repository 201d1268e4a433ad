"""The dealer's steps: what each command of the registry (commands.py) does.

Each step checks with the round first (the registry's `available` answers the same way),
changes it through `DealerSession.do` (saved to the ledger at once) and words the result. A
dealer's mistake is raised as the core's error and shown by the session, never further.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from app.core.cards import Card, CardError, cards_text, parse_cards
from app.core.round import DragonSetting, DragonWager, HandReturned, Phase, Round
from app.core.settlement import MoneyError, Role, Slip, money, parse_money
from app.core.table import CARDS_PER_HAND, DEALER, TableError, position_name
from drivers.action import dice, draw_rng

from . import entry, feed, words
from .checks import verify, verify_ledger_takes, verify_no_offer_open, why_no_bank_offer
from .events import PrintJob
from .wager_limits import asking_for, verify_wager

if TYPE_CHECKING:
    from .session import DealerSession

SET_EACH = "Set each hand: click the two front cards and F, or H for the House Way."


# --- the words of the offers ----------------------------------------------------------------

def bank_offer_words(seat: int) -> str:
    return (f"The bank is offered to seat {seat}: B and the chips on the table to take it "
            f"(they cover every wager against it), Q to pass.")


def dragon_offer_words(s: DealerSession, seat: int) -> str:
    rnd = s.round
    assert rnd is not None
    where = position_name(rnd.dragon_hands()[0])
    main = money(rnd.wagers[seat])
    if s.rules.dragon.wager is DragonWager.EQUAL:
        wager = f"its wager is the main wager, {main}"
    else:
        wager = f"a wager of {money(s.rules.limits.minimum)} up to the main {main}"
    return (f"The dragon ({where}'s unused hand) is offered to seat {seat}, {wager}: G and "
            f"Enter to take it, Q to pass.")


def dragon_suggestion(s: DealerSession) -> str:
    """The wager to put in the dragon field: the main wager of the seat offered."""
    rnd, seat = s.round, s.dragon_offered()
    if rnd is None or seat is None:
        return ""
    return f"{rnd.wagers[seat] / 100:.2f}"


# --- the round opened, seats, wagers ---------------------------------------------------------

def new_round(s: DealerSession) -> None:
    verify(s, "new")
    if s.round is not None and s.round.phase is Phase.SETTLED:
        s.last_wagers.update(s.round.wagers)  # each seat's last wager, for the jump rule
    rotation = s.round.next_rotation() if s.round is not None else s.rotation
    game = Round(s.rules, rotation)
    if s.ledger is not None:
        s.ledger.begin(game)
    s.open_round(game)
    s.log.append(f"--- round {rotation.round_no} opened ---")
    s.pass_over_bank()
    offered = s.bank_offered()
    s.select(offered or 1)
    opened = f"Round {rotation.round_no} is open"
    if offered is not None:
        s.say(f"{opened}. {bank_offer_words(offered)}", "ok")
    else:
        s.say(f"{opened} ({why_no_bank_offer(s, game)}): select a seat (1-6), press W, type "
              f"the wager and Enter.", "ok")


def select(s: DealerSession, text: str) -> None:
    """A seat chosen (by its key at the table, or a click on it). A click while a field is
    open moves a wager's field to that seat, else leaves the field (entry.move_to)."""
    position = int(text) if text.strip().isdigit() else -1
    position = DEALER if position == 7 else position
    s.table.verify_position(position)
    if s.entry is not None:
        field = s.entry.field
        entry.move_to(s, position)
        if s.entry is not None:
            s.select(position)
            entry.show(s)
            return
        s.select(position)
        s.say(f"Nothing set: the {field.what} field is left; {words.name(position)} is "
              f"selected.", "info")
        return
    s.select(position)


def select_step(s: DealerSession, by: int) -> None:
    start = s.selected if s.selected is not None else DEALER
    s.select(s.table.step(start, by))


def place_wager(s: DealerSession, text: str) -> None:
    """The selected seat's wager: refused over the maximum (or under the minimum); one far
    above the seat's previous wager is asked about first (wager_limits.py), and set when
    the same wager comes again or the dealer says yes (confirm_wager)."""
    s.need_round()
    seat = s.need_position()
    if not text.strip():
        raise MoneyError("type the wager in dollars (e.g. 25 or 25.50), then Enter")
    cents = parse_money(text)
    verify_ledger_takes(s, "wager")
    verify_wager(s, seat, cents)
    asking = asking_for(s, seat, cents)
    if asking is not None and asking != s.asking:
        s.asking = asking
        s.say(asking.words(), "warn")
        return
    set_wager(s, seat, cents)


def confirm_wager(s: DealerSession, text: str) -> None:
    """Enter (again) or Y: the wager asked about is set. With nothing asked, a second Enter
    does nothing at all (a double Enter is no mistake); Y says there is nothing to confirm."""
    asking = s.asking
    if asking is None:
        if text == "enter":
            return
        verify(s, "confirm")
        return
    if s.selected != asking.seat:
        s.select(asking.seat)
    set_wager(s, asking.seat, asking.cents)


def set_wager(s: DealerSession, seat: int, cents: int) -> None:
    rnd = s.need_round()
    verify_ledger_takes(s, "wager")
    s.asking = None
    s.do("place_wager", seat, cents)
    nxt = s.table.step(seat)
    while nxt in (DEALER, rnd.bank.player):
        nxt = s.table.step(nxt)
    s.select(nxt)
    s.say(f"{words.name(seat)} wagers {money(cents)}. Next seat selected; action with "
          f"{s.action_key(rnd)} when the wagers are in.", "ok")


def withdraw_wager(s: DealerSession) -> None:
    s.need_round()
    seat = s.need_position()
    record = s.do("withdraw_wager", seat)
    s.say(f"{words.name(seat)} takes back {money(record.wager)}.", "ok")


# --- the bank ----------------------------------------------------------------------------

def take_bank(s: DealerSession, text: str) -> None:
    """The seat offered the bank takes it with the chips typed (dollars)."""
    rnd = s.need_round()
    verify(s, "bank")
    seat = s.bank_offered()
    assert seat is not None
    if not text.strip():
        raise MoneyError(f"type the chips seat {seat} puts up as the bank, in dollars "
                         f"(e.g. 500), then Enter")
    record = s.do("take_bank", seat, parse_money(text), s.co_bank)
    co = " with the house co-banking half" if record.co_bank else ""
    dealer = (f"; the dealer plays a hand against it for {money(record.dealer_wager)}"
              if not record.co_bank else "")
    nxt = s.table.step(seat)
    while nxt in (DEALER, seat):
        nxt = s.table.step(nxt)
    s.select(nxt)
    s.say(f"Seat {seat} banks with {money(record.chips or 0)}{co}{dealer}. Wagers against the "
          f"bank: select a seat, W, the wager, Enter; then {s.action_key(rnd)} counts action "
          f"from seat {seat}.", "ok")


def toggle_co_bank(s: DealerSession) -> None:
    verify(s, "co_bank")
    s.co_bank = not s.co_bank
    s.say("Co-banking: the house covers half of the player's bank and shares its result."
          if s.co_bank else "Co-banking off: the player banks alone.", "info")


def pass_offer(s: DealerSession) -> None:
    """The seat offered the bank (before action) or the dragon (after the deal) passes."""
    rnd = s.need_round()
    verify(s, "pass")
    bank = s.bank_offered()
    if bank is not None:
        s.do("pass_bank", bank)
        s.pass_over_bank()
        nxt = s.bank_offered()
        if nxt is not None:
            s.select(nxt)
            s.say(f"Seat {bank} passes. {bank_offer_words(nxt)}", "ok")
        else:
            s.say(f"Seat {bank} passes: the bank has come round to the dealer, who banks this "
                  f"round. Wagers, then {s.action_key(rnd)}.", "ok")
        return
    seat = s.dragon_offered()
    assert seat is not None
    s.do("pass_dragon", seat)
    after_dragon(s, f"Seat {seat} passes the dragon.")


def pass_all(s: DealerSession) -> None:
    """Everyone still to be asked passes (the bank: the dealer banks; the dragon: the unused
    hands are mucked), each pass recorded seat by seat."""
    rnd = s.need_round()
    verify(s, "pass")
    passed: list[int] = []
    if s.bank_offered() is not None:
        while (seat := s.bank_offered()) is not None:
            s.do("pass_bank", seat)
            passed.append(seat)
            s.pass_over_bank()
        s.say(f"{words.seats_words(passed)} the bank: it has come round to the dealer, who "
              f"banks this round. Wagers, then {s.action_key(rnd)}.", "ok")
        return
    while (seat := s.dragon_offered()) is not None:
        s.do("pass_dragon", seat)
        passed.append(seat)
    after_dragon(s, f"{words.seats_words(passed)} the dragon.")


# --- action and the cards typed -------------------------------------------------------------

def rng_action(s: DealerSession, draw: int | None) -> None:
    """R: the action a device sent, or the station's RNG (a recorded draw is used again)."""
    s.need_round()
    verify_no_offer_open(s, "action")
    device = s.device_action
    if device is not None:
        try:
            feed.take_action(s, device)
        except TableError as e:
            s.device_action = None
            raise TableError(f"The {words.device_name(device)}'s action ({device.action}) "
                             f"cannot be used: {e}. It is dropped: take action again.") from None
        return
    if draw is None:
        inp = draw_rng(s.randbelow)
        s.drawn = inp.action.number
    else:
        inp = draw_rng(lambda _n: draw - 1)
    feed.take_action(s, inp)


def dice_action(s: DealerSession, text: str) -> None:
    s.need_round()
    verify(s, "dice")
    feed.take_action(s, dice(text))


def enter_cards(s: DealerSession, text: str) -> None:
    verify(s, "cards")
    position = s.need_position("position")
    cards = parse_cards(text)
    if not cards:
        raise CardError("type the cards, e.g. AS KD 10H 7C 7D 2S JK, then Enter")
    have = s.dealing()
    for c in cards:
        for p, held in have.items():
            if c in held:
                raise CardError(f"{c} is already dealt to {position_name(p)}: each card is in "
                                f"the deck once; check the card and type it again")
    mine = have.get(position, [])
    if len(mine) + len(cards) > CARDS_PER_HAND:
        raise CardError(f"{position_name(position)} has {len(mine)} card(s) and a hand is "
                        f"{CARDS_PER_HAND}: {cards_text(cards)} is {len(cards)} too many by "
                        f"{len(mine) + len(cards) - 7}")
    s.manual.setdefault(position, []).extend(cards)
    feed.keep_deal(s)  # typed cards come back after a restart too
    s.say(f"{words.name(position)}: {cards_text(cards)}", "ok")
    if len(mine) + len(cards) == CARDS_PER_HAND:
        have = s.dealing()
        for p in s.table.around(s.table.step(position)):
            if len(have.get(p, ())) < CARDS_PER_HAND:
                s.select(p)
                break
    feed.try_finish(s)


def deal_complete(s: DealerSession) -> None:
    """The shoe read the 49 cards dealt and will not read the 4 left over (no BURN): the
    deal is taken as it is and the leftovers are worked out as the cards not dealt."""
    verify(s, "deal_done")
    feed.try_finish(s, complete=True)


# --- the dragon and the hands ----------------------------------------------------------------

def take_dragon(s: DealerSession, text: str) -> None:
    s.need_round()
    verify(s, "dragon")
    seat = s.dragon_offered()
    assert seat is not None
    if not text.strip():
        raise MoneyError(f"type seat {seat}'s dragon wager in dollars, then Enter")
    record = s.do("take_dragon", seat, parse_money(text))
    how = ("it is set the House Way at settlement"
           if s.rules.dragon.setting is DragonSetting.HOUSE_WAY else "the player sets it")
    after_dragon(s, f"Seat {seat} takes {position_name(record.position)}'s hand as a dragon "
                    f"for {money(record.wager)}: {how}.")


def after_dragon(s: DealerSession, said: str) -> None:
    nxt = s.dragon_offered()
    if nxt is not None:
        s.select(nxt)
        s.say(f"{said} {dragon_offer_words(s, nxt)}", "ok")
        return
    after_set(s)
    s.say(f"{said} The dragon offer is over; the unused hands are mucked. {SET_EACH}", "ok")


def house_way(s: DealerSession) -> None:
    rnd = s.need_round()
    verify_no_offer_open(s, "the hands are set")
    position = s.need_position("position")
    if not rnd.can_set_hand(position) and rnd.can_ask_house_way(position):
        s.do("ask_house_way", position)
        s.say(f"{words.name(position)} asks for the House Way: leave the seven cards in one "
              f"pile; the dealer sets them the House Way after the bank hand is opened and "
              f"set.", "ok")
        after_set(s)
        return
    hand = s.do("house_way", position).hand
    s.say(f"{words.name(position)} set the House Way, rule {hand.rule}: {hand.rule_says}", "ok")
    after_set(s)


def show_house_way(s: DealerSession) -> None:
    """The player asks the house for help: show the House Way, set nothing."""
    s.need_round()
    verify(s, "show_house_way")
    position = s.need_position("position")
    shown = s.do("show_house_way", position)
    s.say(f"House Way for {words.name(position)}: {cards_text(shown.setting.low)} in front, "
          f"{cards_text(shown.setting.high)} behind (rule {shown.rule_id}: {shown.says}). Not "
          f"set: the player sets it (F), or H for the House Way.", "info")


def pick_card(s: DealerSession, position: int, card: Card) -> None:
    rnd = s.need_round()
    if rnd.phase is not Phase.SETTING:
        raise TableError(f"cards are picked for the front while hands are set; the round is "
                         f"{rnd.phase.value}")
    verify_no_offer_open(s, "the hands are set")
    if position != s.selected:
        s.select(position)
    rnd.verify_set_hand(position, [card])
    if card in s.picks:
        s.picks.remove(card)
    else:
        s.picks.append(card)
        if len(s.picks) > 2:
            s.picks.pop(0)
    s.front_text = cards_text(s.picks)
    update_preview(s, position)


def type_front(s: DealerSession, text: str) -> None:
    """The front field changed: pick the cards it names (and preview them)."""
    s.front_text = text
    rnd = s.round
    if rnd is None or s.selected is None or rnd.phase is not Phase.SETTING:
        return
    try:
        cards = list(parse_cards(text))
    except CardError as e:
        s.picks, s.preview, s.preview_error = [], None, str(e)
    else:
        s.picks = cards[:2]
        update_preview(s, s.selected)


def update_preview(s: DealerSession, position: int) -> None:
    from .session import DEALER_ERRORS
    s.preview, s.preview_error = None, None
    if len(s.picks) != 2:
        return
    try:
        s.preview = s.dry("set_hand", position, list(s.picks))
    except DEALER_ERRORS as e:
        s.preview_error = str(e)
    if s.preview is not None and s.preview.hand.foul:
        s.say(f"{words.name(position)}: if set, " + words.foul_words(s.preview.hand)
              + words.returned_words(s.preview), "warn")
    elif s.preview is not None:
        s.say(f"{words.name(position)}: {cards_text(s.picks)} in front is legal; press F to "
              f"set it.", "info")


def set_front(s: DealerSession, text: str) -> None:
    s.need_round()
    verify_no_offer_open(s, "the hands are set")
    position = s.need_position("position")
    front = list(parse_cards(text, count=2)) if text.strip() else list(s.picks)
    if len(front) != 2:
        raise CardError("click the two cards the player put in front (or press F and type "
                        "them, e.g. KS 9H), then F")
    record = s.do("set_hand", position, front)
    hand = record.hand
    if isinstance(record, HandReturned):
        s.picks, s.preview, s.preview_error = [], None, None
        s.front_text = ""
        s.say(f"{words.name(position)}: {words.foul_words(hand)}"
              f"{words.returned_words(record)}: the round waits for it.", "error")
        return
    if hand.foul:
        s.say(f"{words.name(position)}: {words.foul_words(hand)}", "error")
    else:
        s.say(f"{words.name(position)}: {cards_text(hand.setting.low)} in front, "
              f"{cards_text(hand.setting.high)} behind.", "ok")
    after_set(s)


def to_set(s: DealerSession) -> list[int]:
    """Positions whose hands the dealer may set now, in order from action; a dragon the
    House Way sets at settlement is not waited for."""
    rnd = s.round
    if rnd is None:
        return []
    house_way = s.rules.dragon.setting is DragonSetting.HOUSE_WAY
    return [p for p in rnd.pending() if rnd.can_set_hand(p)
            and not (house_way and rnd.hands[p].role is Role.DRAGON)]


def after_set(s: DealerSession) -> None:
    s.picks, s.preview, s.preview_error = [], None, None
    s.front_text = ""
    waiting = to_set(s)
    if waiting:
        s.select(waiting[0])


def escape(s: DealerSession) -> None:
    """Esc: the field open is left, the picked cards are dropped, a wager asked about is not
    set."""
    s.picks, s.preview, s.preview_error = [], None, None
    s.front_text = ""
    entry.close(s)
    asking, s.asking = s.asking, None
    if asking is not None:
        s.say(f"Not set: seat {asking.seat}'s wager stays "
              + (money(asking.previous) if s.round is not None and asking.seat
                 in s.round.wagers else "unplaced") + ".", "info")


# --- settling and the slip ------------------------------------------------------------------

def settle(s: DealerSession) -> None:
    s.need_round()
    verify_no_offer_open(s, "settling")
    slip: Slip = s.do("settle")
    s.selected = None
    entry.close(s)
    s.picks = []
    t, bank = slip.totals, slip.bank
    banker = ""
    if bank.player is not None:
        banker = (f" Banker seat {bank.player} nets {money(bank.net, sign=True)}"
                  + (" - the bank ran out." if bank.exhausted else "."))
    printer = s.printer is not None and s.printer.attached
    then = "P prints the slip; N opens the next round." if printer else "N opens the next round."
    s.say(f"Settled from {position_name(slip.action_position)}: players net "
          f"{money(t.players_net, sign=True)}, commission {money(t.commission)}, house net "
          f"{money(t.house_net, sign=True)}.{banker} {then}", "ok")
    s.settled(slip)


def print_slip(s: DealerSession) -> None:
    """P: print this round's slip (a slip kept by a printer failure: the kept slips)."""
    verify(s, "print")
    rnd = s.round
    assert rnd is not None and rnd.slip is not None
    slip = rnd.slip
    s.say(f"Printing round {slip.round}'s slip...", "info")
    if s.slip_printed == "kept":
        s.send_to_printer(None, PrintJob("kept"))
    else:
        s.send_to_printer(slip, PrintJob("slip", slip.table, slip.round))


def reprint(s: DealerSession) -> None:
    """Shift+P: the kept slips (oldest first); with none kept, this round's slip again,
    marked REPRINT."""
    verify(s, "reprint")
    assert s.printer is not None
    if s.printer.kept_count:
        s.say(f"Printing the {s.printer.kept_count} kept slip(s)...", "info")
        s.send_to_printer(None, PrintJob("kept"))
        return
    rnd = s.round
    assert rnd is not None and rnd.slip is not None
    s.say(f"Printing round {rnd.slip.round}'s slip again, marked REPRINT...", "info")
    s.send_to_printer(rnd.slip, PrintJob("duplicate", rnd.slip.table, rnd.slip.round))


# --- the devices, the shift, a void -----------------------------------------------------------

def toggle_shoe(s: DealerSession) -> None:
    verify(s, "shoe")
    going = not s.shoe_online
    s.shoe_online = going  # the demo shoe obeys at once; its status follows as an event
    if going:
        s.ask_shoe("online")
        s.say("The demo shoe is plugged back in: it deals the next deal.", "info")
    else:
        # The deal stops first: a shoe that stops by dropping what it was asked would
        # otherwise drop the unplugging too.
        s.ask_shoe("stop_deal")
        s.ask_shoe("offline")
        s.say("The demo shoe is unplugged: cards are entered by hand (C).", "warn")


def open_shift(s: DealerSession, dealer: str) -> None:
    """F3: the dealer at the table (a new shift in the ledger)."""
    if s.ledger is None:
        raise TableError("this station keeps no ledger: there is no shift to open")
    name = s.ledger.open_shift(dealer)
    s.note(f"Shift opened: dealer {name}")
    more = (" Press N to open a round." if s.round is None or s.round.phase is Phase.SETTLED
            else "")
    s.say(f"{name}'s shift is open: every round is recorded under it.{more}", "ok")


def void_round(s: DealerSession, reason: str, by: str) -> None:
    """The supervisor voids the round in play (after the PIN): it stays in the ledger as
    void, with who and why; the next round starts from the same rotation."""
    rnd = s.need_round()
    if rnd.phase is Phase.SETTLED:
        raise TableError(f"round {rnd.rotation.round_no} is settled: it cannot be voided; "
                         f"correct a settlement instead")
    reason, by = reason.strip(), by.strip()
    if not reason or not by:
        raise TableError("a void says why and who voids the round")
    if s.ledger is not None:
        s.ledger.void(rnd, reason, by)
    s.ask_shoe("stop_deal")
    s.clear_deal()
    s.rotation = s.opened_with
    s.round, s.selected = None, None
    s.entry, s.asking = None, None
    s.action_input, s.device_action, s.co_bank = None, None, False
    s.log.append(f"--- round {rnd.rotation.round_no} VOID by {by}: {reason} ---")
    s.say(f"Round {rnd.rotation.round_no} is void ({by}: {reason}). The wagers go back to "
          f"the players. N opens a new round.", "warn")


def ask_misdeal(s: DealerSession) -> None:
    """Shift+M: a misdeal is the supervisor's: the pit view asks for their name, their
    secret and why (then a SupervisorCommand("misdeal") ends the deal)."""
    verify(s, "misdeal")
    s.show("misdeal")
    s.say("A misdeal is called by a supervisor: their name, their own secret and why, in "
          "the pit view (F2). The deal ends and every wager goes back.", "warn")


def misdeal(s: DealerSession, reason: str, by: str, secret: str) -> None:
    """The supervisor ends the deal as a misdeal (a deal that cannot be completed: cards
    the shoe lost, a card exposed, the wrong number dealt): the round ends, every wager
    goes back, and the ledger keeps it marked misdeal with who and why; the next round
    starts from the same rotation."""
    rnd = s.need_round()
    verify(s, "misdeal")
    reason = reason.strip()
    if not reason:
        raise TableError("a misdeal says why: e.g. 'the shoe lost card 12; no one could say "
                         "which it was'")
    who = s.authorise(by, secret, "misdeal")
    if s.ledger is not None:
        s.ledger.misdeal(rnd, reason, who)
    no = rnd.rotation.round_no
    s.ask_shoe("stop_deal")
    s.clear_deal()
    s.rotation = s.opened_with
    s.round, s.selected = None, None
    s.action_input, s.device_action, s.co_bank = None, None, False
    s.typing_allowed = None
    s.log.append(f"--- round {no} MISDEAL called by {who.name}: {reason} ---")
    s.say(f"Round {no} is a misdeal ({who.name}: {reason}). Every wager goes back to its "
          f"player. N opens a new round.", "warn")


def allow_typing(s: DealerSession, reason: str, by: str, secret: str) -> None:
    """A supervisor lets the dealer type this deal's cards (C) though the shoe is online
    (a shoe that misreads, a card it cannot give back): for this round only, logged."""
    rnd = s.need_round()
    if rnd.phase is not Phase.DEALING:
        raise TableError(f"typing cards is allowed for a deal under way; the round is "
                         f"{rnd.phase.value}")
    who = s.authorise(by, secret, "override")
    s.typing_allowed = who.name
    s.note(f"Typing cards allowed by {who.name}" + (f": {reason.strip()}" if reason.strip()
                                                   else ""))
    s.say(f"{who.name} allows typing this deal's cards: select a position, C, type its "
          f"cards, Enter.", "ok")


def resume(s: DealerSession, game: Round, deal: Mapping[str, Any] | None = None) -> None:
    """The round a stopped station had in play, as the ledger rebuilt it: every wager, the
    bank, action, the cards and the settings are back; the dealer carries on."""
    from .commands import next_line
    from .feed import action_input_of
    s.open_round(game)
    s.action_input = action_input_of(game.action) if game.action is not None else None
    s.device_action = None
    s.log.append(f"--- round {game.rotation.round_no} taken back from the ledger ---")
    resumed = (f"Round {game.rotation.round_no} is taken back as it was when the station "
               f"stopped: every wager, card and setting is as recorded.")
    if game.phase is Phase.BETTING:
        s.pass_over_bank()
        s.select(s.bank_offered() or 1)
    elif game.phase is Phase.DEALING:
        assert game.action is not None
        s.select(game.action.position)
        kept = feed.restore(s, deal) if deal else 0
        if kept:
            _, last = feed.resume_point(deal)
            asked = (f"the shoe is asked for every card after its message {last}"
                     if last is not None else "the rest come as the shoe reads them")
            how = (f"the {kept} card(s) read before it stopped are back in their places; "
                   f"{asked} (while it is offline, type them: C).")
            feed.try_finish(s)
        elif s.shoe_online and s.shoe_demo:
            s.ask_shoe("start_deal")
            how = "the demo shoe deals again."
        elif s.shoe_online:
            how = ("no card of it was read before it stopped: the cards come as the shoe "
                   "reads them, or a supervisor calls a misdeal.")
        else:
            how = "type each position's seven cards (C)."
        if s.round is not None and s.round.phase is Phase.DEALING:
            s.say(f"{resumed} The deal was under way: {how}", "warn")
            return
    elif game.phase is Phase.SETTING:
        offered = s.dragon_offered()
        if offered is not None:
            s.select(offered)
        else:
            after_set(s)
    s.say(f"{resumed} {next_line(s).removeprefix('Next: ')}", "warn")
