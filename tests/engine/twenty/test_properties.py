"""Property tests: random deals, auctions, play and records, each checked against the small
independent reading of the rulebook in ``reference.py``."""

import contextlib
import functools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.errors import DealError, RecordError
from engine.games import get_game
from engine.games.twenty.auction import CallError, next_calls, read_auction
from engine.games.twenty.cards import CARD_TEXT, TwentyDeal
from engine.games.twenty.game import simulate_board
from engine.games.twenty.play import check_play, legal_mask

from . import reference as ref

GAME = get_game("twenty")
SEATS = "NESW"
CALLS = [
    bid + suffix
    for bid in ("P", "PART", "NT", "SOLO")
    for suffix in ("", "+SPARROW", "+SLAM", "+SPARROW+SLAM")
]
NAMES = {
    "P": ["P", "PASS", "pass", "p"],
    "PART": ["PART", "Partnership", "part"],
    "NT": ["NT", "nt", "NoTrumps", "no trumps"],
    "SOLO": ["SOLO", "solo", "So lo"],
}


# -- strategies ---------------------------------------------------------------------------


@st.composite
def deals(draw, dealer=None):
    dealer = dealer or draw(st.sampled_from(SEATS))
    order = draw(st.permutations(range(40)))
    hands = tuple(sum(1 << c for c in order[10 * i : 10 * i + 10]) for i in range(4))
    return TwentyDeal(dealer, hands)


def ref_hands(deal):
    return {seat: [CARD_TEXT[c] for c in range(40) if deal.hand(seat) >> c & 1] for seat in SEATS}


def accepted(calls, dealer):
    return _accepted(tuple(calls), dealer)


# The reference is a pure function of the calls: the strategies below ask it about the same
# auctions thousands of times, so each answer is kept. Strategies are built once too; a
# strategy built again draws exactly what the first one would.
@functools.cache
def _accepted(calls, dealer):
    try:
        ref.run_auction(calls, dealer)
    except ref.Bad:
        return False
    return True


@functools.cache
def _turn(calls, dealer):
    return ref.run_auction(calls, dealer)["turn"]


BOOLEANS = st.booleans()
GAPS = st.sampled_from(["", " "])
CALL_NAMES = {bid: st.sampled_from(names) for bid, names in NAMES.items()}


@functools.cache
def _permutations(items):
    return st.permutations(items)


@functools.cache
def _weighted_calls(options):
    """Pass more often than not, so auctions end; bonuses now and then."""
    weights = [(6 if c == "P" else 1) * (1 if "+" not in c else 0.3) for c in options]
    return st.sampled_from(
        [c for c, w in zip(options, weights, strict=True) for _ in range(int(w * 10))]
    )


def loose_call(seat, call, draw):
    """A call written any legal way: any case, long names, spaces, bonuses in either order."""
    bid, *bonuses = call.split("+")
    name = draw(CALL_NAMES[bid])
    bonuses = draw(_permutations(tuple(bonuses)))
    bonuses = [b.lower() if draw(BOOLEANS) else b.capitalize() for b in bonuses]
    seat = seat.lower() if draw(BOOLEANS) else seat
    gap = draw(GAPS)
    return f"{seat}{gap}:{gap}{name}" + "".join(f"{gap}+{gap}{b}" for b in bonuses)


@st.composite
def auctions(draw, dealer, finish=True, loose=False):
    """A legal auction chosen with the reference's rules: finished, or cut anywhere."""
    calls = []
    canonical = []
    limit = 12 if finish else draw(st.integers(0, 10))
    while len(calls) < limit:
        seat = _turn(tuple(canonical), dealer)
        if seat is None:
            break
        options = tuple(c for c in CALLS if accepted([*canonical, f"{seat}:{c}"], dealer))
        call = draw(_weighted_calls(options))
        canonical.append(f"{seat}:{call}")
        calls.append(loose_call(seat, call, draw) if loose else f"{seat}:{call}")
    return calls


SEAT_OR_JUNK = st.sampled_from([*SEATS, "n", "e", "X", 1])
LEVEL = st.sampled_from(["none", "contra", "re", "sub", "Contra", "RE", "double"])


@st.composite
def records(draw):
    """Random records, mostly valid, often with one thing wrong."""
    record = {}
    with_deal = draw(st.booleans())
    if with_deal:
        deal = draw(deals())
        dealer = deal.dealer
        record["deal"] = GAME.format_deal(deal)
        if draw(st.integers(0, 4)) == 0:
            record["dealer"] = draw(st.sampled_from(SEATS))
    else:
        dealer = draw(st.sampled_from(SEATS))
        record["dealer"] = dealer
    record["auction"] = draw(auctions(dealer, finish=draw(st.integers(0, 12)) > 0, loose=True))
    state = ref.run_auction([], dealer)
    with contextlib.suppress(ref.Bad):
        state = ref.run_auction(record["auction"], dealer)
    high = state["high"]
    eldest = ref.left(dealer)
    if not with_deal and draw(st.integers(0, 5)) > 0 and high is not None:
        if state["psparrow"] and draw(st.booleans()):
            pass
        else:
            others = [s for s in SEATS if s != eldest]
            record["partner"] = draw(st.sampled_from(others if draw(st.integers(0, 8)) else SEATS))
    elif with_deal and draw(st.integers(0, 6)) == 0:
        record["partner"] = draw(SEAT_OR_JUNK)
    if draw(st.integers(0, 5)) == 0:
        record["called"] = draw(st.sampled_from(["T20", "T18", "T4", "t19", "T21", "T3", "SK"]))
    if draw(st.booleans()):
        items = ["bid", "sparrow", "slam"] if draw(st.integers(0, 5)) == 0 else ["bid"]
        if high is not None and ("SPARROW" in high[2] or state["psparrow"]):
            items.append("sparrow")
        if high is not None and "SLAM" in high[2]:
            items.append("slam")
        chosen = draw(st.sets(st.sampled_from(items)))
        record["contras"] = {item: draw(LEVEL) for item in sorted(chosen)}
    # Points and tricks: usually possible side totals, sometimes per seat or out of range.
    tricks = draw(st.integers(0, 10))
    low, high_points = ref.bounds(tricks)
    kind = draw(st.integers(0, 9))
    if kind < 7:
        record["tricks"] = tricks
        record["points"] = draw(st.integers(low, high_points))
        if kind == 0:
            record["points"] = draw(st.integers(-1, 103))
    else:
        cuts = sorted(draw(st.lists(st.integers(0, 10), min_size=3, max_size=3)))
        per = [b - a for a, b in zip([0, *cuts], [*cuts, 10], strict=True)]
        record["tricks"] = dict(zip(SEATS, per, strict=True))
        if kind == 9:
            record["tricks"] = draw(st.sampled_from([tricks, record["tricks"]]))
        points = [draw(st.integers(*ref.bounds(t))) for t in per]
        points[3] = 102 - sum(points[:3])
        record["points"] = dict(zip(SEATS, points, strict=True))
    if draw(st.integers(0, 3)) > 0:
        seat = draw(st.sampled_from(SEATS))
        card = draw(st.sampled_from(["T1", "t1", "F", "T21", "SK", "T12", "HT"]))
        if high is not None:
            announcer = high[0] if "SPARROW" in high[2] else state["psparrow"]
            if announcer and draw(st.booleans()):
                seat, card = announcer, "T1"
        record["last"] = {"seat": seat, "card": card}
        if draw(st.integers(0, 30)) == 0:
            record["last"] = {"seat": seat}
    if draw(st.integers(0, 3)) == 0:
        record["held"] = draw(SEAT_OR_JUNK)
    if draw(st.integers(0, 30)) == 0:
        record["game"] = draw(st.sampled_from(["twenty", "Twenty", "pyramid"]))
    return record


# -- deals ----------------------------------------------------------------------------------


def loosened(text, draw):
    """The same deal written loosely: any case, any order within a group."""
    head, rest = text.split(":")
    hands = []
    for hand in rest.split(" "):
        trumps, *suits = hand.split(".")
        tokens = draw(st.permutations(trumps.split(","))) if trumps else []
        tokens = [t.lower() if draw(st.booleans()) else t for t in tokens]
        groups = [",".join(tokens)]
        for group in suits:
            chars = draw(st.permutations(list(group)))
            groups.append("".join(c.lower() if draw(st.booleans()) else c for c in chars))
        hands.append(".".join(groups))
    return (head.lower() if draw(st.booleans()) else head) + ":" + " ".join(hands)


@settings(max_examples=300, deadline=None)
@given(deal=deals(), data=st.data())
def test_deals_round_trip(deal, data):
    text = GAME.format_deal(deal)
    assert GAME.parse_deal(text) == deal
    assert GAME.parse_deal(loosened(text, data.draw)) == deal
    dealer, hands = ref.parse_deal(text)
    assert dealer == deal.dealer and hands == ref_hands(deal)
    assert ref.format_deal(dealer, hands) == text
    assert all(len(hand) == 10 for hand in hands.values())


@settings(max_examples=300, deadline=None)
@given(deal=deals(), data=st.data())
def test_a_damaged_deal_is_refused_like_the_reference(deal, data):
    text = GAME.format_deal(deal)
    position = data.draw(st.integers(2, len(text) - 1))
    damage = data.draw(st.sampled_from(["", "3", "0", "X", ",", ".", " ", "K", "F", "1", "22"]))
    bad = text[:position] + damage + text[position + data.draw(st.integers(0, 2)) :]
    try:
        ref.parse_deal(bad)
        expected = True
    except ref.Bad:
        expected = False
    try:
        GAME.parse_deal(bad)
        got = True
    except DealError as exc:
        assert str(exc).startswith("deal: ")
        got = False
    assert got == expected, bad


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32), dealer=st.sampled_from(SEATS))
def test_dealt_cards_are_a_full_pack(seed, dealer):
    deal = GAME.deal_cards(random.Random(seed), players=4, dealer=dealer)
    assert deal.dealer == dealer
    assert sum(bin(h).count("1") for h in deal.hands) == 40
    assert sum(deal.hands) == (1 << 40) - 1
    assert GAME.parse_deal(GAME.format_deal(deal)) == deal


# -- the auction ----------------------------------------------------------------------------


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), dealer=st.sampled_from(SEATS))
def test_legal_next_calls_are_exactly_what_the_validator_accepts(data, dealer):
    prefix = data.draw(auctions(dealer, finish=False))
    options = next_calls(prefix, dealer)
    offered = {f"{options['seat']}:{call}" for call in options["calls"]}
    for seat in SEATS:
        for call in CALLS:
            text = f"{seat}:{call}"
            try:
                read_auction([*prefix, text], dealer)
                engine_ok = True
            except CallError:
                engine_ok = False
            assert engine_ok == (text in offered), (prefix, text)
            assert engine_ok == accepted([*prefix, text], dealer), (prefix, text)
    assert options["complete"] == (options["seat"] is None)
    assert options["complete"] == (not options["calls"])
    # The game's bidding box says the same.
    assert GAME.entry_options(dealer=dealer, auction=prefix)["calls"] == options["calls"]


@settings(max_examples=300, deadline=None)
@given(data=st.data(), deal=deals())
def test_the_box_never_reads_the_deal(data, deal):
    """The bidding box with a deal in its context is the box without one: no partner is
    derived, and every seat that may announce the Sparrow without a bid is offered it."""
    prefix = data.draw(auctions(deal.dealer, finish=False))
    with_deal = GAME.entry_options(deal=GAME.format_deal(deal), dealer=deal.dealer, auction=prefix)
    assert with_deal == GAME.entry_options(dealer=deal.dealer, auction=prefix)
    assert with_deal["calls"] == next_calls(prefix, deal.dealer)["calls"]
    state = ref.run_auction(prefix, deal.dealer)
    if state["turn"] is not None:
        sparrow = f"{state['turn']}:P+SPARROW"
        assert ("P+SPARROW" in with_deal["calls"]) == accepted([*prefix, sparrow], deal.dealer)


@settings(max_examples=300, deadline=None)
@given(data=st.data(), dealer=st.sampled_from(SEATS))
def test_loosely_written_auctions_read_as_their_canonical_calls(data, dealer):
    calls = data.draw(auctions(dealer, loose=True))
    canonical = next_calls(calls, dealer)["auction"]
    assert next_calls(canonical, dealer)["auction"] == canonical
    assert accepted(canonical, dealer) and accepted(calls, dealer)
    assert len(canonical) == len(calls)


# -- play -----------------------------------------------------------------------------------


def replay(deal, record, tricks):
    """Tricks, points and the last trick of a simulated board, every card checked by the
    reference's rules."""
    hands = ref_hands(deal)
    score = ref.score(record)
    game = score["contract"]
    leader = score["declarer"]
    taken = dict.fromkeys(SEATS, 0)
    points = dict.fromkeys(SEATS, 0)
    last = None
    for trick in tricks:
        cards = [CARD_TEXT[c] for c in trick]
        order = [ref.left(leader, k) for k in range(4)]
        for position, (seat, card) in enumerate(zip(order, cards, strict=True)):
            led = ref.suit_of(cards[0]) if position else None
            assert card in ref.legal(hands[seat], led)
            hands[seat].remove(card)
        index = ref.winner(cards, game)
        leader = order[index]
        taken[leader] += 1
        points[leader] += 1 + sum(ref.VALUE[c] for c in cards)
        last = (leader, cards[index])
    assert all(not hand for hand in hands.values())
    return taken, points, last, score


@settings(max_examples=300, deadline=None)
@given(deal=deals(), seed=st.integers(0, 2**32))
def test_simulated_boards_are_legal_and_score(deal, seed):
    record, tricks = simulate_board(deal, random.Random(seed))
    assert len(tricks) == 10 and all(len(trick) == 4 for trick in tricks)
    assert len({card for trick in tricks for card in trick}) == 40
    taken, points, last, expected = replay(deal, record, tricks)
    assert sum(taken.values()) == 10 and sum(points.values()) == 102
    score = GAME.score(record)
    assert score["seats"] == expected["seats"] and sum(score["seats"].values()) == 0
    side = [score["declarer"]] + ([score["partner"]] if score["partner"] else [])
    assert score["tricks"] == sum(taken[s] for s in side)
    assert score["points"] == sum(points[s] for s in side)
    if "last" in record:
        assert (record["last"]["seat"], record["last"]["card"]) == last
    # The engine's own check of the play agrees.
    checked = check_play(deal, score["declarer"], score["contract"] == "NT", [
        [CARD_TEXT[c] for c in trick] for trick in tricks
    ])  # fmt: skip
    assert checked == (taken, points, (last[0], CARD_TEXT.index(last[1])))
    # A scorer's entry of the board gives the same score, with the deal and without it: a
    # simulated board never goes to the director.
    facts = GAME.scorer_facts(record, score)
    for on_file in (record["deal"], ""):
        again = GAME.entry_record(
            facts, settings={}, table=1, players=4, dealer=deal.dealer, deal=on_file
        )
        assert GAME.score(again) == score
        assert GAME.entry_problem(again, score) is None


@settings(max_examples=200, deadline=None)
@given(deal=deals(), seed=st.integers(0, 2**32), data=st.data())
def test_an_illegal_card_is_refused_naming_trick_and_seat(deal, seed, data):
    record, tricks = simulate_board(deal, random.Random(seed))
    score = GAME.score(record)
    number = data.draw(st.integers(0, 9))
    position = data.draw(st.integers(1, 3))
    hands = dict(zip(SEATS, deal.hands, strict=True))
    leader = score["declarer"]
    from engine.games.twenty.cards import CLOCKWISE_FROM, GROUP_OF
    from engine.games.twenty.play import trick_winner

    for index, trick in enumerate(tricks):
        order = CLOCKWISE_FROM[leader]
        if index == number:
            seat = order[position]
            allowed = legal_mask(hands[seat], GROUP_OF[trick[0]])
            break
        for seat, card in zip(order, trick, strict=True):
            hands[seat] &= ~(1 << card)
        leader = order[trick_winner(trick, score["contract"] == "NT")]
    wrong = [c for c in range(40) if hands[seat] >> c & 1 and not allowed >> c & 1]
    if not wrong:
        return
    play = [[CARD_TEXT[c] for c in trick] for trick in tricks]
    bad = data.draw(st.sampled_from(wrong))
    play[number][position] = CARD_TEXT[bad]
    with pytest.raises(RecordError) as error:
        check_play(deal, score["declarer"], score["contract"] == "NT", play)
    assert str(error.value).startswith(f"play: trick {number + 1}: {seat} ")


# -- records --------------------------------------------------------------------------------


@settings(max_examples=2500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(record=records())
def test_records_score_as_the_reference_says(record):
    try:
        expected = ref.score(record)
    except ref.Bad as bad:
        with pytest.raises(RecordError) as error:
            GAME.score(record)
        assert error.value.field == bad.field, (record, str(error.value))
        return
    score = GAME.score(record)
    assert score["seats"] == expected["seats"]
    assert sum(score["seats"].values()) == 0
    for key in ("declarer", "contract", "partner", "called", "points", "tricks", "made"):
        assert score[key] == expected[key], key
    held = [i["by"] for i in score["items"] if i["item"] in ("kings", "honours")]
    assert held == ([expected["held"]] if expected["held"] else [])
    assert next(i["item"] for i in score["items"]) == "bid"
    assert all(i["value"] == i["base"] * {"none": 1, "contra": 2, "re": 4, "sub": 8}[i["contra"]]
               for i in score["items"])  # fmt: skip
    assert GAME.describe(score)
    # The scorer's facts, entered again at the same board, give the same score.
    facts = GAME.scorer_facts(record, score)
    again = GAME.entry_record(
        facts, settings={}, table=1, players=4, dealer=score["dealer"], deal=record.get("deal")
    )
    assert GAME.score(again) == score
    assert GAME.totals_entry(score, "N") == (score["seats"]["N"], 0)
