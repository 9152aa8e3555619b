"""Card play: legal cards, trick winners, under-trumping, play records and simulated rounds."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.games.pymtheg.auction import BIDS, GAM_BIDS
from engine.games.pymtheg.cards import (
    FULL_DECK,
    SEATS,
    Card,
    Seat,
    Suit,
    parse_deal,
    seat_order,
    seeded_deal,
)
from engine.games.pymtheg.play import (
    MUST_FOLLOW_SUIT,
    NOT_IN_HAND,
    PLAY_OVER,
    UNDERTRUMP,
    IllegalPlay,
    PlayRecordError,
    PlayState,
    check_play_record,
    choose_card,
    legal_plays,
    play_fault,
    play_stops,
    ry_losing_seats,
    ry_lost,
    simulate_play,
    trick_winner,
    trump_suit,
)
from engine.games.pymtheg.scoring import score_record

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
FIRE, EARTH, WATER, WIND = Suit.FIRE, Suit.EARTH, Suit.WATER, Suit.WIND


def cards(*codes):
    return [Card.parse(code) for code in codes]


# Every seat holds every suit, so nobody can discard until a suit runs out.
# North holds the tops (F, E, D, C), East the next ranks, South the middle, West the bottom.
SPREAD_DEAL = parse_deal(
    "N:FEDC.FEDC.FEDC.FED BA98.BA98.BA98.CBA 7654.7654.7654.987 321.321.321.654321"
)
# East and West are void in Fire, so a Fire lead can be trumped and under-trumped.
VOID_DEAL = parse_deal(
    "N:FEDCBA98.FED.FED.F .98765.98765.CBA98 7654321.CBA.CBA.ED .4321.4321.7654321"
)


# --- trick winners --------------------------------------------------------------------------


def test_highest_card_of_the_suit_led_wins():
    assert trick_winner(cards("F5", "F9", "F2", "F7"), N, None) == E


def test_a_discard_never_wins_however_high():
    assert trick_winner(cards("F5", "EF", "IF", "F6"), N, "water") == W


def test_a_trump_beats_the_suit_led():
    assert trick_winner(cards("FF", "F2", "I1", "F3"), N, "wind") == S


def test_the_highest_trump_wins():
    assert trick_winner(cards("FF", "I4", "I9", "I2"), N, WIND) == S


def test_a_trump_led_is_followed_like_any_suit():
    assert trick_winner(cards("I3", "I9", "FF", "I4"), E, WIND) == S


def test_no_trump_the_suit_led_wins():
    assert trick_winner(cards("F2", "IF", "EF", "WF"), W, "nt") == W
    assert trick_winner(cards("F2", "IF", "EF", "WF"), W, None) == W


def test_counterclockwise_winner_seat():
    # North leads, then West, South, East: the second card is West's.
    assert seat_order(N, "counterclockwise") == (N, W, S, E)
    assert trick_winner(cards("F5", "F9", "F2", "F7"), N, None, "counterclockwise") == W
    assert trick_winner(cards("F5", "F9", "F2", "FA"), N, None, "counterclockwise") == E


def test_trump_names_and_bad_trump():
    assert trump_suit("stone") == EARTH
    assert trump_suit("Fire") == FIRE
    assert trump_suit("nt") is None
    with pytest.raises(ValueError, match="unknown trump 'hearts'"):
        trump_suit("hearts")


# --- legal cards ----------------------------------------------------------------------------


def test_leader_may_play_anything():
    hand = cards("F1", "E2", "I3")
    assert legal_plays(hand, [], WIND) == sorted(hand)


def test_must_follow_suit():
    hand = cards("F1", "FC", "E2", "I3")
    assert legal_plays(hand, cards("F9"), WIND) == cards("F1", "FC")
    assert play_fault(Card.parse("I3"), hand, cards("F9"), WIND) == MUST_FOLLOW_SUIT
    assert play_fault(Card.parse("F1"), hand, cards("F9"), WIND) is None


def test_void_player_may_discard_or_trump():
    hand = cards("E2", "I3", "W5")
    assert legal_plays(hand, cards("F9", "FA"), WIND) == sorted(hand)


def test_card_not_in_hand():
    assert play_fault(Card.parse("F2"), cards("F1"), cards("F9"), None) == NOT_IN_HAND


UNDERTRUMP_TRICK = cards("FF", "I9")  # Fire led, Wind 9 already trumps it


@pytest.mark.parametrize(
    ("hand", "legal"),
    [
        (("I3", "IB", "E2"), ("E2", "IB")),  # another suit and a higher trump
        (("I3", "I5", "E2"), ("E2",)),  # only another suit
        (("I3", "I5", "IC"), ("IC",)),  # only a higher trump
        (("I3", "I5"), ("I3", "I5")),  # nothing else: under-trumping allowed
    ],
)
def test_no_undertrump_in_rules_1709(hand, legal):
    assert legal_plays(cards(*hand), UNDERTRUMP_TRICK, WIND, False) == sorted(cards(*legal))


def test_undertrump_fault_only_while_something_else_is_legal():
    trick = UNDERTRUMP_TRICK
    assert play_fault(Card.parse("I3"), cards("I3", "E2"), trick, WIND, False) == UNDERTRUMP
    assert play_fault(Card.parse("I3"), cards("I3", "I5"), trick, WIND, False) is None
    assert play_fault(Card.parse("IA"), cards("I3", "IA"), trick, WIND, False) is None


def test_undertrump_allowed_in_manual_2016():
    hand = cards("I3", "IB", "E2")
    assert legal_plays(hand, UNDERTRUMP_TRICK, WIND, True) == sorted(hand)


def test_a_low_trump_is_no_undertrump_before_anyone_trumps():
    hand = cards("I3", "E2")
    assert legal_plays(hand, cards("FF", "F2"), WIND, False) == sorted(hand)


def test_following_a_trump_lead_with_a_lower_trump_is_legal():
    hand = cards("I3", "E2")
    assert legal_plays(hand, cards("I9"), WIND, False) == cards("I3")


# --- a round card by card -------------------------------------------------------------------


def test_turns_go_clockwise_and_the_winner_leads():
    state = PlayState(SPREAD_DEAL, None, N, "clockwise", "manual-2016")
    seen = []
    for code in ("FF", "FB", "F7", "F3"):
        seen.append(state.to_play)
        trick = state.play(Card.parse(code))
    assert seen == [N, E, S, W]
    assert trick is not None and trick.winner == N and trick.leader == N
    assert state.to_play == N
    assert state.tricks_per_seat == {N: 1, E: 0, S: 0, W: 0}


def test_turns_go_counterclockwise():
    state = PlayState(SPREAD_DEAL, None, E, "counterclockwise", "manual-2016")
    seen = []
    for code in ("FB", "FF", "F3", "F7"):
        seen.append(state.to_play)
        state.play(Card.parse(code))
    assert seen == [E, N, W, S]
    assert state.leader == N and state.tricks[0].seats == (E, N, W, S)


def test_illegal_plays_name_seat_card_and_reason():
    state = PlayState(SPREAD_DEAL, "wind", N, "clockwise", "manual-2016")
    with pytest.raises(IllegalPlay, match="North may not play Fire 11: not in hand") as caught:
        state.play(Card.parse("FB"))
    assert caught.value.seat == N and caught.value.fault == NOT_IN_HAND
    assert "East was dealt it" in str(caught.value)
    state.play(Card.parse("FF"))
    with pytest.raises(IllegalPlay, match="East may not play Earth 11: must follow suit"):
        state.play(Card.parse("EB"))
    assert state.to_play == E  # the refused card changed nothing
    assert Card.parse("EB") in state.hand(E)


def test_a_card_played_before_is_not_in_hand():
    state = PlayState(SPREAD_DEAL, None, N, "clockwise", "manual-2016")
    for code in ("FF", "FB", "F7", "F3"):
        state.play(Card.parse(code))
    with pytest.raises(IllegalPlay, match="was played in trick 1"):
        state.play(Card.parse("FF"))


def test_undertrump_refused_in_rules_1709_with_reason():
    state = PlayState(VOID_DEAL, "wind", N, "clockwise", "rules-1709")
    for code in ("FF", "IC", "F7"):
        state.play(Card.parse(code))
    assert state.to_play == W
    assert all(card.suit in (EARTH, WATER) for card in state.legal_cards())
    with pytest.raises(IllegalPlay, match="West may not play Wind 7: under-trump") as caught:
        state.play(Card.parse("I7"))
    assert caught.value.fault == UNDERTRUMP


def test_undertrump_accepted_in_manual_2016():
    state = PlayState(VOID_DEAL, "wind", N, "clockwise", "manual-2016")
    for code in ("FF", "IC", "F7", "I7"):
        trick = state.play(Card.parse(code))
    assert trick is not None and trick.winner == E


def test_play_ends_after_fifteen_tricks():
    state = PlayState(SPREAD_DEAL, "fire", N, "clockwise", "rules-1709")
    rng = random.Random(5)
    while not state.finished:
        state.play(choose_card(state, rng))
    assert len(state.tricks) == 15
    assert sum(state.tricks_per_seat.values()) == 15
    assert state.to_play is None and state.legal_cards() == []
    assert all(not state.hand(seat) for seat in SEATS)
    assert state.fault(Card.parse("F1")) == PLAY_OVER


def test_ry_contract_needs_no_trump_and_a_declarer():
    with pytest.raises(ValueError, match="without trump"):
        PlayState(SPREAD_DEAL, "fire", contract="R", declarer=N)
    with pytest.raises(ValueError, match="declarer"):
        PlayState(SPREAD_DEAL, None, contract="R")


def test_bad_direction_is_refused():
    with pytest.raises(ValueError, match="unknown direction"):
        PlayState(SPREAD_DEAL, None, N, "widdershins")


# --- when play stops ------------------------------------------------------------------------


def test_ry_losing_seats():
    assert ry_losing_seats("R", S) == {S}
    assert ry_losing_seats("R2", S) == {S}
    assert ry_losing_seats("R3", S) == {S, N}
    assert ry_losing_seats("G+4", S) == set()
    assert ry_losing_seats("L", S) == set()


def test_play_stops_at_a_lost_ry_only():
    partner_trick = {N: 1, E: 2, S: 0, W: 0}
    assert not ry_lost("R2", S, partner_trick)
    assert ry_lost("R3", S, partner_trick)
    assert play_stops("R3", S, partner_trick)
    assert not play_stops("G", S, {N: 0, E: 14, S: 0, W: 0})
    assert play_stops("G", S, {N: 0, E: 15, S: 0, W: 0})
    assert not play_stops("L", S, {N: 0, E: 3, S: 0, W: 0})


# --- play records ---------------------------------------------------------------------------

FIRE_TRICKS = [  # North wins four Fire tricks; West discards a Wind on the fourth
    ["FF", "FB", "F7", "F3"],
    ["FE", "FA", "F6", "F2"],
    ["FD", "F9", "F5", "F1"],
    ["FC", "F8", "F4", "I1"],
]


def check(tricks, trump=None, ruleset="manual-2016", deal=SPREAD_DEAL, **contract):
    return check_play_record(deal, trump, N, "clockwise", ruleset, tricks, **contract)


def test_a_legal_record_gives_the_tricks_per_seat():
    deal = seeded_deal("record")
    played = simulate_play(deal, "G", S, "water", N, "clockwise", "rules-1709", random.Random(2))
    result = check_play_record(deal, "water", N, "clockwise", "rules-1709", played.record)
    assert result.complete and result.revoke is None and not result.illegal_trumps
    assert result.tricks_per_seat == played.tricks_per_seat
    assert result.board_fields() == {"tricks": played.tricks_field()}


def test_revoke_names_the_seat_and_keeps_the_tricks_before_it():
    revoke_trick = ["EF", "EB", "E7", "W3"]  # West holds Earth 3, 2, 1
    after = [["junk"], ["more", "junk"]]  # the rest of the record is not read
    result = check([*FIRE_TRICKS, revoke_trick, *after])
    assert result.revoke is not None
    assert (result.revoke.seat, result.revoke.trick, result.revoke.card.code) == (W, 5, "W3")
    assert result.revoke.fault == MUST_FOLLOW_SUIT
    assert result.tricks_per_seat == {N: 4, E: 0, S: 0, W: 0}
    assert len(result.tricks) == 4 and not result.complete
    assert result.board_fields() == {"tricks": {"N": 4, "E": 0, "S": 0, "W": 0}, "revoke": "W"}


def test_revoke_on_the_first_trick():
    result = check([["FF", "EB"]])
    assert result.revoke is not None and result.revoke.seat == E
    assert result.tricks_per_seat == {N: 0, E: 0, S: 0, W: 0}


def test_card_not_in_hand_is_an_error():
    with pytest.raises(PlayRecordError, match="trick 1, card 2: East may not play Fire 3") as err:
        check([["FF", "F3", "F7", "FB"]])
    assert "West was dealt it" in str(err.value)
    assert (err.value.trick, err.value.position) == (1, 2)


def test_card_played_twice_is_an_error():
    with pytest.raises(PlayRecordError, match=r"trick 2, card 1: .*played in trick 1"):
        check([FIRE_TRICKS[0], ["FF", "FA", "F6", "F2"]])


@pytest.mark.parametrize(
    ("tricks", "message"),
    [
        ([["FF", "FB", "F7"]], "trick 1: has 3 cards, not 4"),
        ([["FF", "FB", "F7", "F3", "F2"]], "trick 1: has 5 cards, not 4"),
        ([[]], "trick 1: has 0 cards"),
        ([["FF", "ZZ", "F7", "F3"]], "trick 1, card 2: 'ZZ' is not a card code"),
        (["FF FB F7 F3"], "trick 1: must be a list of card codes"),
        ("FF FB F7 F3", "a play record is a list of tricks"),
        ([["FF", "FB", "F7", "F3"]] * 16, "16 tricks, more than 15"),
        (FIRE_TRICKS, "the record stops after 4 tricks"),
    ],
)
def test_malformed_records_are_errors(tricks, message):
    with pytest.raises(PlayRecordError, match=message):
        check(tricks)


def test_lost_ry_record_stops_at_the_losing_trick():
    result = check(FIRE_TRICKS[:1], contract="R", declarer=N)
    assert result.ry_lost and result.tricks_per_seat[N] == 1
    with pytest.raises(PlayRecordError, match="trick 2: play stopped after trick 1"):
        check(FIRE_TRICKS[:2], contract="R", declarer=N)
    with pytest.raises(PlayRecordError, match="stops after 1 tricks"):
        check(FIRE_TRICKS[:1])  # without the contract nothing explains the early stop


def test_ry3_is_lost_by_the_partner_ry2_is_not():
    assert check(FIRE_TRICKS[:1], contract="R3", declarer=S).ry_lost
    with pytest.raises(PlayRecordError, match="stops after 1 tricks"):
        check(FIRE_TRICKS[:1], contract="R2", declarer=S)


UNDERTRUMP_THEN_REVOKE = [
    ["FF", "IC", "F7", "I7"],  # West under-trumps while holding Earth and Water
    ["E9", "WC", "E4", "ED"],  # East won and leads Earth; South revokes
]


def test_undertrump_is_an_illegal_trump_fact_in_rules_1709():
    result = check(UNDERTRUMP_THEN_REVOKE, "wind", "rules-1709", VOID_DEAL)
    assert [(o.seat, o.trick, o.card.code, o.fault) for o in result.illegal_trumps] == [
        (W, 1, "I7", UNDERTRUMP)
    ]
    assert result.revoke is not None and result.revoke.seat == S
    assert result.tricks_per_seat == {N: 0, E: 1, S: 0, W: 0}
    assert result.board_fields() == {
        "tricks": {"N": 0, "E": 1, "S": 0, "W": 0},
        "revoke": "S",
        "illegal_trump": "W",
    }


def test_undertrump_is_legal_in_manual_2016():
    result = check(UNDERTRUMP_THEN_REVOKE, "wind", "manual-2016", VOID_DEAL)
    assert result.illegal_trumps == ()
    assert result.revoke is not None and result.revoke.seat == S


def test_checked_facts_make_a_board_record_that_scores():
    result = check(UNDERTRUMP_THEN_REVOKE, "wind", "rules-1709", VOID_DEAL)
    record = {
        "ruleset": "rules-1709",
        "options": {"illegal_trump_penalty": 500},
        "auctions": [["N:G", "E:P", "S:P", "W:P"]],
        "trump": "wind",
        **result.board_fields(),
    }
    score = score_record(record).as_dict()
    # South revoked for the playing party: Gâm lost with all 15 tricks to the opponents
    # (-(20 + 9)), 100 more; West's under-trump gives the playing party 500.
    assert score["declarer_score"] == -29 - 100 + 500


# --- the simple player ----------------------------------------------------------------------


def test_greedy_wins_cheaply_and_lets_partner_win():
    state = PlayState(SPREAD_DEAL, None, N, "clockwise", "manual-2016")
    rng = random.Random(0)
    assert choose_card(state, rng, "greedy") == Card.parse("FF")  # leads its highest card
    state.play(Card.parse("FF"))
    assert choose_card(state, rng, "greedy") == Card.parse("F8")  # cannot win: lowest
    state.play(Card.parse("F8"))
    assert choose_card(state, rng, "greedy") == Card.parse("F4")  # partner is winning


def test_greedy_wins_with_the_cheapest_winner():
    state = PlayState(VOID_DEAL, "wind", S, "clockwise", "manual-2016")
    rng = random.Random(0)
    state.play(Card.parse("F7"))  # South leads low; West is void in Fire
    assert choose_card(state, rng, "greedy") == Card.parse("I1")


def test_ry_player_dodges_with_its_highest_loser():
    state = PlayState(SPREAD_DEAL, None, N, "clockwise", "manual-2016")
    rng = random.Random(0)
    state.play(Card.parse("FF"))
    assert choose_card(state, rng, "greedy", avoid_tricks=True) == Card.parse("FB")


def test_unknown_strategy_is_refused():
    state = PlayState(SPREAD_DEAL)
    with pytest.raises(ValueError, match="unknown strategy 'clever'"):
        choose_card(state, random.Random(0), "clever")


def _auction_for(contract, declarer, direction):
    """Calls by consecutive seats that reach ``contract`` for ``declarer``, then passes."""
    bid = BIDS[contract]
    chain = [b.code for b in GAM_BIDS[: bid.level + 1]] if bid.family == "gam" else [contract]
    backwards = "counterclockwise" if direction == "clockwise" else "clockwise"
    opening = seat_order(declarer, backwards)[(len(chain) - 1) % 4]
    turns = seat_order(opening, direction)
    calls = [f"{turns[i % 4].name}:{code}" for i, code in enumerate(chain)]
    after = seat_order(declarer, direction)[1:]
    return opening, [*calls, *(f"{seat.name}:P" for seat in after)]


@pytest.mark.parametrize("ruleset", ["manual-2016", "rules-1709"])
@pytest.mark.parametrize("direction", ["clockwise", "counterclockwise"])
@pytest.mark.parametrize(
    ("contract", "trump"),
    [
        ("G", "fire"),
        ("G+2", "nt"),
        ("G+4", "wind"),
        ("G+6", "earth"),
        ("R", None),
        ("R2", None),
        ("R3", None),
        ("L", "water"),
        ("L", "nt"),
    ],
)
def test_simulated_plays_make_board_records_that_score(ruleset, direction, contract, trump):
    for seed in range(4):
        declarer = SEATS[seed]
        opening, calls = _auction_for(contract, declarer, direction)
        deal = seeded_deal("boards", seed, 1)
        played = simulate_play(
            deal, contract, declarer, trump, opening, direction, ruleset, random.Random(seed)
        )
        record = {
            "ruleset": ruleset,
            "opening": opening.name,
            "direction": direction,
            "auctions": [calls],
            "tricks": played.tricks_field(),
        }
        if trump is not None:
            record["trump"] = trump
        score = score_record(record).as_dict()
        assert score["contract"] == contract and score["declarer"] == declarer.name
        team = played.tricks_per_seat[declarer] + played.tricks_per_seat[declarer.partner]
        if BIDS[contract].family == "gam":
            assert score["made"] == (team >= BIDS[contract].required_tricks)
        elif BIDS[contract].family == "ry":
            assert score["made"] == (not played.ry_lost)
        else:
            assert score["made"] == (played.tricks_per_seat[declarer] == 15)


# --- property: a simulated round is always a legal, complete round --------------------------

CONTRACTS = sorted(BIDS)


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    contract=st.sampled_from(CONTRACTS),
    declarer=st.sampled_from(SEATS),
    opening=st.sampled_from(SEATS),
    trump=st.sampled_from(["fire", "earth", "water", "wind", "nt"]),
    direction=st.sampled_from(["clockwise", "counterclockwise"]),
    ruleset=st.sampled_from(["manual-2016", "rules-1709"]),
    strategy=st.sampled_from(["random", "greedy"]),
)
def test_simulated_round_is_legal_and_complete(
    seed, contract, declarer, opening, trump, direction, ruleset, strategy
):
    trump = None if BIDS[contract].family == "ry" else trump
    deal = seeded_deal(seed)
    played = simulate_play(
        deal, contract, declarer, trump, opening, direction, ruleset, random.Random(seed), strategy
    )
    tricks = played.tricks
    if len(tricks) < 15:
        assert played.ry_lost and ry_lost(contract, declarer, played.tricks_per_seat)
        assert tricks[-1].winner in ry_losing_seats(contract, declarer)
        assert all(t.winner not in ry_losing_seats(contract, declarer) for t in tricks[:-1])
    else:
        assert len(tricks) == 15
    assert sum(played.tricks_per_seat.values()) == len(tricks)
    all_cards = [card for trick in tricks for card in trick.cards]
    assert len(all_cards) == len(set(all_cards)) == 4 * len(tricks)
    assert set(all_cards) <= set(FULL_DECK)
    leader = opening
    for trick in tricks:
        assert trick.seats == seat_order(leader, direction)
        assert all(
            card in deal.hand(seat) for seat, card in zip(trick.seats, trick.cards, strict=True)
        )
        leader = trick.winner
    # Replaying the record agrees, and finds no revoke and no forbidden under-trump.
    checked = check_play_record(
        deal,
        trump,
        opening,
        direction,
        ruleset,
        played.record,
        contract=contract,
        declarer=declarer,
    )
    assert checked.revoke is None and checked.illegal_trumps == ()
    assert checked.tricks_per_seat == played.tricks_per_seat
    assert checked.ry_lost == played.ry_lost
