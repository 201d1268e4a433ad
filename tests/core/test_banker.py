"""Player banker (seed 003): eligibility with its reasons, and the rotation of the bank."""

from __future__ import annotations

import pytest

from app.core.banker import BankError, BankingRules, BankRotation, bank_offer_order
from app.core.table import DEALER, Direction, Table

RULES = BankingRules()
TABLE = Table()
# Seat 2 wagered $25 against the dealer in the last round with no player banker.
AFTER_A_HOUSE_ROUND = BankRotation.resume(house_bets={2: 2500, 4: 1000})


def test_a_player_who_bet_against_the_dealer_and_covers_every_wager_may_bank() -> None:
    verdict = AFTER_A_HOUSE_ROUND.eligibility(2, 10000, {1: 2500, 4: 5000}, RULES)
    assert verdict.eligible
    assert verdict.cover == 7500
    assert "wagered $25.00 against the dealer" in verdict.reason
    assert "has $100.00 in chips to cover $75.00" in verdict.reason


def test_a_player_with_no_wager_in_the_last_house_round_may_not_bank() -> None:
    verdict = AFTER_A_HOUSE_ROUND.eligibility(3, 10000, {1: 2500}, RULES)
    assert not verdict.eligible
    assert "placed no wager against the dealer in the last round with no player banker" \
        in verdict.reason


def test_a_player_whose_chips_do_not_cover_every_wager_may_not_bank() -> None:
    verdict = AFTER_A_HOUSE_ROUND.eligibility(2, 7499, {1: 2500, 4: 5000}, RULES)
    assert not verdict.eligible
    assert "short of the $75.00 needed to cover the other wagers" in verdict.reason


def test_the_cover_counts_every_other_wager_but_not_the_players_own() -> None:
    verdict = AFTER_A_HOUSE_ROUND.eligibility(2, 7500, {1: 2500, 2: 99999, 4: 5000}, RULES)
    assert verdict.eligible and verdict.cover == 7500


def test_co_banking_halves_the_cover_rounded_up() -> None:
    rules = BankingRules(co_banking=True)
    verdict = AFTER_A_HOUSE_ROUND.eligibility(2, 3751, {1: 2501, 4: 5000}, rules, co_bank=True)
    assert verdict.eligible and verdict.cover == 3751
    assert not AFTER_A_HOUSE_ROUND.eligibility(2, 3750, {1: 2501, 4: 5000}, rules,
                                               co_bank=True).eligible


def test_co_banking_needs_the_table_to_allow_it() -> None:
    verdict = AFTER_A_HOUSE_ROUND.eligibility(2, 99999, {1: 2500}, RULES, co_bank=True)
    assert not verdict.eligible and "does not co-bank" in verdict.reason


def test_the_dealer_banks_the_first_round() -> None:
    first = BankRotation()
    assert first.offer_order(TABLE, RULES) == (DEALER,)
    verdict = first.eligibility(2, 99999, {1: 500}, RULES)
    assert not verdict.eligible and "the dealer banks the first round" in verdict.reason


def test_no_player_banks_two_rounds_in_a_row_unless_allowed() -> None:
    rotation = BankRotation.resume(house_bets={2: 2500}, last_banker=2)
    assert not rotation.eligibility(2, 99999, {1: 500}, RULES).eligible
    assert "no player banks two rounds in a row" in \
        rotation.eligibility(2, 99999, {1: 500}, RULES).reason
    assert rotation.eligibility(2, 99999, {1: 500}, BankingRules(consecutive=True)).eligible


def test_a_table_without_player_banking_always_has_the_dealer_bank() -> None:
    off = BankingRules(enabled=False)
    assert AFTER_A_HOUSE_ROUND.offer_order(TABLE, off) == (DEALER,)
    verdict = AFTER_A_HOUSE_ROUND.eligibility(2, 99999, {}, off)
    assert not verdict.eligible and "does not allow player banking" in verdict.reason


def test_every_reason_is_given_at_once_for_the_supervisor() -> None:
    rotation = BankRotation.resume(house_bets={}, last_banker=5)
    verdict = rotation.eligibility(5, 100, {1: 2500}, RULES)
    assert len(verdict.reasons) == 3 and not verdict.eligible
    assert str(verdict).startswith("seat 5 may not bank: ")


def test_the_dealer_is_not_a_player_who_banks() -> None:
    with pytest.raises(BankError, match="not a seat"):
        AFTER_A_HOUSE_ROUND.eligibility(DEALER, 100, {}, RULES)


def test_the_bank_is_offered_in_rotation_ending_with_the_dealer() -> None:
    rotation = BankRotation.resume(house_bets={2: 2500}, offer_from=4)
    assert rotation.offer_order(TABLE, RULES) == (4, 5, 6, DEALER)
    ccw = Table(direction=Direction.COUNTERCLOCKWISE)
    assert rotation.offer_order(ccw, RULES) == (4, 3, 2, 1, DEALER)


def test_after_the_dealer_banks_the_offer_starts_again_next_to_the_dealer() -> None:
    after = AFTER_A_HOUSE_ROUND.after(TABLE, banker=None, main_wagers={1: 500, 6: 2000})
    assert after.offer_order(TABLE, RULES)[0] == 1 and after.last_banker is None
    assert after.house_bet(6) == 2000 and after.house_bet(2) is None
    assert after.round_no == AFTER_A_HOUSE_ROUND.round_no + 1 and not after.first_round


def test_after_a_player_banks_the_offer_moves_on_and_the_house_bets_are_kept() -> None:
    after = AFTER_A_HOUSE_ROUND.after(TABLE, banker=2, main_wagers={1: 500},
                                      dragon_takers=[4])
    assert after.offer_order(TABLE, RULES)[0] == 3
    assert after.last_banker == 2 and after.last_dragon == 4
    # The last round with no player banker is still the one before.
    assert after.house_bet(2) == 2500 and after.house_bet(1) is None


def test_the_first_round_is_followed_by_offers_from_the_seat_after_the_dealer() -> None:
    after = BankRotation().after(TABLE, banker=None, main_wagers={3: 1000})
    assert after.offer_order(TABLE, RULES) == (1, 2, 3, 4, 5, 6, DEALER)
    assert after.eligibility(3, 100000, {1: 500}, RULES).eligible


# Seed 003: "The bank is offered to each Player and each Player may accept or pass, in which
# case the bank is offered to the next Player. The Dealer will always take the bank in turn."
# The next player is the next one in the table's direction: a counterclockwise table turns
# its bank counterclockwise (DESIGN.md: counterclockwise by config).
CCW = Table(direction=Direction.COUNTERCLOCKWISE)


def test_after_the_dealer_banks_a_counterclockwise_table_offers_the_bank_to_seat_6_first(
        ) -> None:
    resumed = BankRotation.resume(house_bets={1: 2500, 6: 2000}, last_banker=None)
    assert resumed.offer_order(CCW, RULES) == (6, 5, 4, 3, 2, 1, DEALER)
    played = AFTER_A_HOUSE_ROUND.after(CCW, banker=None, main_wagers={1: 2500, 6: 2000})
    assert played.offer_order(CCW, RULES) == (6, 5, 4, 3, 2, 1, DEALER)


def test_after_a_player_banks_the_offer_goes_on_in_the_tables_direction() -> None:
    after = AFTER_A_HOUSE_ROUND.after(CCW, banker=6, main_wagers={1: 500})
    assert after.offer_order(CCW, RULES) == (5, 4, 3, 2, 1, DEALER)
    assert bank_offer_order(CCW, 6) == (5, 4, 3, 2, 1, DEALER)
    assert bank_offer_order(TABLE, 6) == (DEALER,)
    assert bank_offer_order(CCW, 1) == (DEALER,)


def test_a_refusal_names_only_what_failed_never_a_condition_that_was_met() -> None:
    """Issue 25: "may not bank: wagered $25..." read like a pass. Seat 2 wagered against
    the dealer (met) but its chips are short (failed): the refusal says the chips only."""
    verdict = AFTER_A_HOUSE_ROUND.eligibility(2, 2500, {1: 2500, 4: 5000}, RULES)
    assert not verdict.eligible
    assert str(verdict) == ("seat 2 may not bank: has $25.00 in chips, short of the $75.00 "
                            "needed to cover the other wagers")
    assert verdict.failed == (verdict.reason,)
    assert any(r.startswith("wagered $25.00") for r in verdict.met)  # kept for the ledger
    assert len(verdict.reasons) == 2


def test_a_seat_that_may_bank_is_told_what_it_met() -> None:
    verdict = AFTER_A_HOUSE_ROUND.eligibility(2, 10000, {1: 2500, 4: 5000}, RULES)
    assert verdict.failed == ()
    assert str(verdict).startswith("seat 2 may bank: wagered $25.00 against the dealer")
