"""Property tests: random deals, random legal play, scores, sheets and illegal plays, each
checked against a small independent reading of the rulebook written here."""

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import RecordError
from engine.games import get_game
from engine.games.pyramid.cards import PyramidDeal
from engine.games.pyramid.sheet import QUOTA, SHEET_SIZE, legal_declarations, sheet_output

GAME = get_game("pyramid")
SEATS = "NESW"
SUITS = "SHDC"
RANKS = "AKQJT9"
PACK = [suit + rank for suit in SUITS for rank in RANKS]
TRUMP_LETTER = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C", "nt": None}


# -- an independent reading of the rules -------------------------------------------------------


def play_order(first, players, direction):
    seats = SEATS[:players]
    step = 1 if direction == "clockwise" else -1
    start = seats.index(first)
    return [seats[(start + step * k) % players] for k in range(players)]


def declarer_of(dealer, players, direction):
    return play_order(dealer, players, direction)[1]


def written_hands(text):
    """``{seat: [cards]}`` and the undealt cards of a canonical deal."""
    dealer, rest = text.split(":")
    groups = rest.split()
    undealt = groups.pop()[1:] if groups[-1].startswith("-") else ""
    players = len(groups)
    seats = SEATS[:players]
    clockwise = [seats[(seats.index(dealer) + k) % players] for k in range(players)]

    def cards(hand):
        return [SUITS[i] + rank for i, group in enumerate(hand.split(".")) for rank in group]

    hands = {seat: cards(hand) for seat, hand in zip(clockwise, groups, strict=True)}
    return dealer, hands, cards(undealt) if undealt else []


def winner_of(trick, trump):
    """Index of the winning card: highest trump, else highest of the suit led."""
    led = trick[0][0]
    best = 0
    for i, card in enumerate(trick):
        top = trick[best]
        if card[0] == top[0]:
            if RANKS.index(card[1]) < RANKS.index(top[1]):
                best = i
        elif card[0] == trump:
            best = i
    assert trick[best][0] in (led, trump)
    return best


def legal_cards(hand, led, trump):
    if led is None:
        return list(hand)
    follow = [c for c in hand if c[0] == led]
    if follow:
        return follow
    ruff = [c for c in hand if c[0] == trump]
    return ruff or list(hand)


def replay(record, players, direction):
    """Tricks per seat of a simulated record, each card checked by the independent rules."""
    dealer, hands, _undealt = written_hands(record["deal"])
    trump = TRUMP_LETTER[record["trump"]]
    leader = declarer_of(dealer, players, direction)
    taken = dict.fromkeys(SEATS[:players], 0)
    for trick in record["play"]:
        order = play_order(leader, players, direction)
        for position, (seat, card) in enumerate(zip(order, trick, strict=True)):
            led = trick[0][0] if position else None
            assert card in legal_cards(hands[seat], led, trump)
            hands[seat].remove(card)
        leader = order[winner_of(trick, trump)]
        taken[leader] += 1
    assert all(not hand for hand in hands.values())
    return taken


# -- strategies ---------------------------------------------------------------------------------

tables = st.sampled_from((2, 3, 4)).flatmap(
    lambda n: st.tuples(st.just(n), st.sampled_from(SEATS[:n]))
)
directions = st.sampled_from(("clockwise", "counterclockwise"))


@st.composite
def deals(draw):
    players, dealer = draw(tables)
    order = draw(st.permutations(range(24)))
    hands = tuple(sum(1 << c for c in order[6 * i : 6 * i + 6]) for i in range(players))
    undealt = sum(1 << c for c in order[6 * players :])
    return PyramidDeal(dealer, players, hands, undealt)


def loosened(text, draw):
    """The same deal written loosely: any case, ``10`` for ``T``, ranks in any order, several
    spaces between hands."""
    head, rest = text.split(":")
    parts = []
    for token in rest.split():
        minus = "-" if token.startswith("-") else ""
        groups = []
        for group in token.lstrip("-").split("."):
            ranks = list(draw(st.permutations(list(group))))
            ranks = [("10" if r == "T" and draw(st.booleans()) else r) for r in ranks]
            ranks = [r.lower() if draw(st.booleans()) else r for r in ranks]
            groups.append("".join(ranks))
        parts.append(minus + ".".join(groups))
    gap = " " * draw(st.integers(1, 3))
    return (head.lower() if draw(st.booleans()) else head) + ":" + gap.join(parts)


# -- deals ---------------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(deal=deals(), data=st.data())
def test_random_deals_round_trip(deal, data):
    text = GAME.format_deal(deal)
    assert GAME.parse_deal(text) == deal
    assert GAME.parse_deal(loosened(text, data.draw)) == deal
    dealer, hands, undealt = written_hands(text)
    assert dealer == deal.dealer and len(hands) == deal.players
    assert sorted([card for hand in hands.values() for card in hand] + undealt) == sorted(PACK)
    assert all(len(hand) == 6 for hand in hands.values())
    assert text.startswith(f"{deal.dealer}:") and ("-" in text) == (deal.players < 4)


@settings(max_examples=100, deadline=None)
@given(table=tables, seed=st.integers(0, 2**32))
def test_dealt_cards_are_a_full_pack(table, seed):
    players, dealer = table
    deal = GAME.deal_cards(random.Random(seed), players=players, dealer=dealer)
    assert deal.dealer == dealer and deal.players == players
    assert GAME.parse_deal(GAME.format_deal(deal)) == deal


# -- play ----------------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(deal=deals(), direction=directions, seed=st.integers(0, 2**32))
def test_simulated_play_is_legal_and_scores(deal, direction, seed):
    record = GAME.simulate_record(deal, random.Random(seed), {"direction": direction})
    assert list(record)[:5] == ["game", "deal", "declared", "trump", "play"]
    assert ("direction" in record) == (direction == "counterclockwise")
    players = deal.players
    assert len(record["play"]) == 6 and all(len(trick) == players for trick in record["play"])
    played = [card for trick in record["play"] for card in trick]
    assert len(set(played)) == 6 * players
    taken = replay(record, players, direction)
    assert sum(taken.values()) == 6
    score = GAME.score(record)
    declarer = declarer_of(deal.dealer, players, direction)
    assert score["tricks"] == taken and score["declarer"] == declarer
    assert score["won"] == taken[declarer]
    # Given the same facts as won or as tricks, the score is the same but for tricks.
    facts = {"players": players, "dealer": deal.dealer, "direction": direction}
    facts.update(declared=record["declared"], trump=record["trump"])
    by_won = GAME.score({**facts, "won": taken[declarer]})
    assert {**by_won, "tricks": taken} == score
    assert GAME.score({**facts, "tricks": taken}) == score


@settings(max_examples=100, deadline=None)
@given(
    deal=deals(),
    direction=directions,
    seed=st.integers(0, 2**32),
    allowed=st.sets(st.integers(0, 6), min_size=1),
)
def test_the_simulated_declarer_calls_only_what_is_allowed(deal, direction, seed, allowed):
    record = GAME.simulate_record(
        deal, random.Random(seed), {"direction": direction}, declarations=sorted(allowed)
    )
    assert record["declared"] in allowed


@settings(max_examples=300, deadline=None)
@given(
    deal=deals(),
    direction=directions,
    seed=st.integers(0, 2**32),
    trick=st.integers(0, 5),
    data=st.data(),
)
def test_an_illegal_card_is_refused_naming_play(deal, direction, seed, trick, data):
    record = GAME.simulate_record(deal, random.Random(seed), {"direction": direction})
    players = deal.players
    position = data.draw(st.integers(0, players - 1))
    # The hands as they stand when that card is played.
    dealer, hands, _undealt = written_hands(record["deal"])
    trump = TRUMP_LETTER[record["trump"]]
    leader = declarer_of(dealer, players, direction)
    for number, cards in enumerate(record["play"]):
        order = play_order(leader, players, direction)
        if number == trick:
            seat = order[position]
            led = cards[0][0] if position else None
            legal = legal_cards(hands[seat], led, trump)
            break
        for seat, card in zip(order, cards, strict=True):
            hands[seat].remove(card)
        leader = order[winner_of(cards, trump)]
    illegal = [card for card in PACK if card not in legal]
    bad = copy.deepcopy(record)
    bad["play"][trick][position] = data.draw(st.sampled_from(illegal))
    with pytest.raises(RecordError) as error:
        GAME.score(bad)
    assert error.value.field == "play"
    assert str(error.value).startswith(f"play: trick {trick + 1}: ")


# -- scores --------------------------------------------------------------------------------------


@settings(max_examples=500, deadline=None)
@given(
    table=tables,
    direction=directions,
    declared=st.integers(0, 6),
    won=st.integers(0, 6),
    trump=st.sampled_from(["spades", "hearts", "diamonds", "clubs", "nt", "S", "h", "NT"]),
)
def test_scores_follow_the_table(table, direction, declared, won, trump):
    players, dealer = table
    record = {
        "players": players,
        "dealer": dealer,
        "direction": direction,
        "declared": declared,
        "trump": trump,
        "won": won,
    }
    score = GAME.score(record)
    d = won - declared
    points = {0: 10, 1: 8, 2: 6, 3: 4, 4: 2, 5: 0, 6: -2}[abs(d)]
    declarer = declarer_of(dealer, players, direction)
    assert list(score) == [
        "game",
        "players",
        "dealer",
        "declarer",
        "declared",
        "trump",
        "won",
        "difference",
        "points",
        "exact",
        "tricks",
        "seats",
    ]
    assert score["declarer"] == declarer and score["difference"] == d
    assert score["points"] == points and score["exact"] == (d == 0)
    assert score["trump"] in ("spades", "hearts", "diamonds", "clubs", "nt")
    assert list(score["seats"]) == list(SEATS[:players])
    for seat, result in score["seats"].items():
        assert result == (points if seat == declarer else -points)
    assert GAME.declaration(score) == (declarer, declared)
    assert GAME.describe(score).startswith(
        f"{['North', 'East', 'South', 'West'][SEATS.index(declarer)]} declared {declared} in "
    )


# -- sheets --------------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_calls_honouring_legal_declarations_fill_the_pyramid(data):
    calls = []
    for _ in range(SHEET_SIZE):
        legal = legal_declarations([call["declared"] for call in calls])
        counts = [sum(call["declared"] == v for call in calls) for v in range(7)]
        assert legal == [v for v in range(7) if counts[v] < QUOTA[v]]
        declared = data.draw(st.sampled_from(legal))
        calls.append({"declared": declared, "won": data.draw(st.integers(0, 6))})
        assert all(c <= q for c, q in zip(counts, QUOTA, strict=True))
    assert legal_declarations([call["declared"] for call in calls]) == []
    cut = data.draw(st.integers(0, SHEET_SIZE))
    out = sheet_output({"calls": calls[:cut]})
    # The independent count.
    made = calls[:cut]
    counts = [sum(call["declared"] == v for call in made) for v in range(7)]
    assert out["declarations"] == cut and out["counts"] == counts
    assert out["remaining"] == [q - c for q, c in zip(QUOTA, counts, strict=True)]
    assert out["legal"] == [v for v in range(7) if counts[v] < QUOTA[v]]
    assert out["won"] == [[c["won"] for c in made if c["declared"] == v] for v in range(7)]
    points = [10 - 2 * abs(c["won"] - c["declared"]) for c in made]
    assert out["total"] == sum(points)
    assert out["points"] == [
        [10 - 2 * abs(c["won"] - v) for c in made if c["declared"] == v] for v in range(7)
    ]
    assert out["tens"] == sum(c["won"] == c["declared"] for c in made)
    assert out["complete"] == (cut == SHEET_SIZE)
    # One more call is always over quota on a complete sheet.
    if cut == SHEET_SIZE:
        extra = {"declared": data.draw(st.integers(0, 6)), "won": 0}
        with pytest.raises(RecordError, match=r"^quota: call 17: "):
            sheet_output({"calls": [*calls, extra]})
