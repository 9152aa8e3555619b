"""Property tests: random valid records (built here from a pack) scored against a small
independent reading of the rulebook; random simulated boards; deal round trips; and random
corruptions of valid records, which must be refused naming a field."""

import copy
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.__main__ import score_line
from engine.core.errors import DealError, RecordError
from engine.games import get_game

GAME = get_game("pysngtaut")
SEATS = "NESW"
RANKS = "A23456789TJQK"
FACES = "JQK"
RED_SUITS = "HD"
PACK = [r + s for r in RANKS for s in "SHDC" for _ in range(1 if r in FACES else 2)] + ["JK"]
VALUES = {
    "3-natural-face": 20000,
    "3-face-wild": 10000,
    "3-natural-number": 10000,
    "3-number-wild": 5000,
    "4-natural-face": 2000,
    "4-natural-red": 1500,
    "4-natural-black": 1100,
    "4-face-wild": 1000,
    "4-natural": 1000,
    "4-number-wild": 500,
}
FLAGS = [
    "same_colour_sets",
    "same_colour_wilds",
    "number_wilds_not_in_face_sets",
    "face_wild_triple",
    "god_draws_seven",
    "pickup_draws_seven",
    "own_sets_offset",
]


# -- an independent reading of the rulebook -----------------------------------------------------


def red(card):
    return card[1] in RED_SUITS


def set_ok(cards, wild, options):
    """Section 3.4 and the options 1-3 as the rulebook words them."""
    if len(cards) < 3 or "JK" in cards:
        return False
    naturals = [c for c in cards if c[0] != wild]
    wilds = [c for c in cards if c[0] == wild]
    if not naturals or len({c[0] for c in naturals}) > 1:
        return False
    face = naturals[0][0] in FACES
    if options.get("same_colour_sets") and not face and len({red(c) for c in naturals}) > 1:
        return False
    if options.get("same_colour_wilds") and wilds and len({red(c) for c in cards}) > 1:
        return False
    number_wild = wild is not None and wild not in FACES
    return not (options.get("number_wilds_not_in_face_sets") and number_wild and face and wilds)


def category(cards, wild):
    wilds = [c for c in cards if c[0] == wild]
    face = next(c for c in cards if c[0] != wild)[0] in FACES
    if len(cards) == 3:
        if face:
            return "3-face-wild" if wilds else "3-natural-face"
        return "3-number-wild" if wilds else "3-natural-number"
    if wilds:
        return "4-face-wild" if face else "4-number-wild"
    if face:
        return "4-natural-face"
    if all(red(c) for c in cards):
        return "4-natural-red"
    if not any(red(c) for c in cards):
        return "4-natural-black"
    return "4-natural"


def card_value(card, wild):
    if card == "JK" or card[0] == wild:
        return 0
    if card[0] in FACES:
        return 50
    return 10 if card[0] in "6789T" else 5


def reference_score(record):
    """Seats and payments of a valid record, straight from section 4."""
    players = record["players"]
    seats = SEATS[:players]
    up = record["up"]
    wild = None if up == "JK" else up[0]
    options = record.get("options", {})
    values = {**VALUES, **options.get("set_values", {})}
    m = 2 if up == "JK" else 1
    if options.get("face_wild_triple") and wild is not None and wild in FACES:
        m *= 3
    melds = record.get("melds", {})
    V = {s: sum(values[category(c, wild)] for c in melds.get(s, [])) for s in seats}
    H = {s: sum(card_value(c, wild) for c in record.get("hands", {}).get(s, [])) for s in seats}
    god = record.get("god")
    pens = [(p["seat"], p["kind"]) for p in record.get("penalties", [])]
    winner = record.get("winner")
    pays = []

    def g(a, b):
        return 2 if god in (a, b) else 1

    if winner:
        for x in seats:
            if x == winner:
                continue
            base = H[x] + V[winner]
            if options.get("own_sets_offset"):
                base = max(0, base - V[x])
            a = base * g(x, winner) * m
            if (winner, "out_of_turn") in pens:
                pays.append((winner, x, a, "settlement"))
            else:
                pays.append((x, winner, a, "settlement"))
            if (x, "improper_meld") in pens:
                pays.append((x, winner, a, "improper_meld"))
            if (x, "improper_draw") in pens:
                pays.append((x, winner, 2 * a, "improper_draw"))
        for o in seats:
            if (o, "out_of_turn") in pens:
                for y in seats:
                    if y != o:
                        pays.append((o, y, (V[y] + H[o]) * g(o, y) * m, "out_of_turn"))
    else:
        for x in seats:
            d = H[x] * (2 if god == x else 1) * m
            pays.append((x, "pot", d, "pot"))
            if (x, "improper_meld") in pens:
                pays.append((x, "pot", d, "improper_meld"))
        for o in seats:
            if (o, "out_of_turn") in pens:
                for y in seats:
                    if y != o:
                        pays.append((o, y, H[o] * g(o, y) * m, "out_of_turn"))
    pays = [p for p in pays if p[2] > 0]
    result = dict.fromkeys(seats, 0)
    for source, target, amount, _why in pays:
        result[source] -= amount
        if target != "pot":
            result[target] += amount
    return result, pays, V, H


# -- random valid records ---------------------------------------------------------------------


def random_record(rng):
    players = rng.choice((2, 3, 4))
    seats = SEATS[:players]
    pack = PACK[:]
    rng.shuffle(pack)
    up = pack.pop()
    if players == 3 and up != "JK":
        pack.append(up)  # at the bottom of pile 2: still in the game
        rng.shuffle(pack)
    wild = None if up == "JK" else up[0]
    options = {name: True for name in FLAGS if rng.random() < 0.15}
    if rng.random() < 0.15:
        options["set_values"] = {
            name: rng.choice((0, 1, 250, 3000)) for name in rng.sample(sorted(VALUES), 3)
        }
    dead = rng.random() < 0.25
    winner = None if dead else rng.choice(seats)
    penalties = []
    for seat in seats:
        for kind in ("improper_draw", "improper_meld", "out_of_turn"):
            if rng.random() < 0.08 and not (seat == winner and kind != "out_of_turn"):
                penalties.append({"seat": seat, "kind": kind})
    thrown = {p["seat"] for p in penalties if p["kind"] == "improper_draw"}

    def take(predicate, count):
        found = [c for c in pack if predicate(c)][:count]
        for c in found:
            pack.remove(c)
        return found

    melds = {}
    for seat in seats:
        wanted = rng.randint(2, 4) if seat == winner else rng.choice((0, 0, 1, 2, 3))
        sets, used, fours, tries = [], set(), 0, 0
        while len(sets) < wanted and tries < 30:
            tries += 1
            rank = rng.choice([r for r in RANKS if r != wild and r not in used])
            size = rng.choice((3, 4, 4, 5)) if fours >= 2 else rng.choice((4, 4, 5))
            naturals = take(lambda c, r=rank: c[0] == r, rng.randint(1, size))
            wilds = take(lambda c: wild is not None and c[0] == wild, size - len(naturals))
            cards = naturals + wilds
            rng.shuffle(cards)
            if naturals and len(cards) >= (3 if fours >= 2 else 4) and set_ok(cards, wild, options):
                sets.append(cards)
                used.add(rank)
                fours += len(cards) >= 4
            else:
                pack.extend(cards)
        if seat == winner and fours < 2:
            return None
        if sets:
            melds[seat] = sets
    god = None
    if up != "JK" and "JK" in pack and rng.random() < 0.4:
        god = rng.choice(seats)
        pack.remove("JK")
    hands = {}
    for seat in seats:
        if seat != winner and seat not in thrown:
            hands[seat] = [pack.pop() for _ in range(rng.randint(1, 9))]
    record = {"game": "pysngtaut", "players": players, "up": up}
    if dead:
        record["dead"] = True
    else:
        record["winner"] = winner
    for name, value in (
        ("options", options),
        ("melds", melds),
        ("hands", hands),
        ("god", god),
        ("penalties", penalties),
    ):
        if value:
            record[name] = value
    return record


def records(count, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        record = random_record(rng)
        if record is not None:
            out.append(record)
    return out


def test_random_records_match_the_reference_reading():
    for record in records(3000, 11):
        score = GAME.score(record)
        seats, pays, _V, H = reference_score(record)
        assert score["seats"] == seats, record
        assert [(p["from"], p["to"], p["amount"], p["for"]) for p in score["payments"]] == pays
        assert score["hand_values"] == H
        winner = record.get("winner")
        if winner:
            assert [s["category"] for s in score["sets"]] == [
                category(cards, None if record["up"] == "JK" else record["up"][0])
                for cards in record["melds"][winner]
            ]
        else:
            assert score["sets"] == []


def test_won_boards_sum_to_zero_and_dead_boards_to_minus_the_pot():
    for record in records(2000, 12):
        score = GAME.score(record)
        total = sum(score["seats"].values())
        pot = sum(p["amount"] for p in score["payments"] if p["to"] == "pot")
        if score["winner"] is None:
            assert total == -pot and all(v <= 0 or True for v in score["seats"].values())
        else:
            assert total == 0 and pot == 0
        assert all(type(v) is int for v in score["seats"].values())
        assert all(p["amount"] > 0 for p in score["payments"])
        assert set(score["seats"]) == set(SEATS[: record["players"]])


def test_dead_boards_without_out_of_turn_never_gain():
    for record in records(2000, 13):
        score = GAME.score(record)
        if score["winner"] is None and "out_of_turn" not in json.dumps(record):
            assert all(v <= 0 for v in score["seats"].values())


def test_records_survive_json_and_the_command_line_reader():
    for record in records(300, 14):
        out, ok = score_line(json.dumps(record), "pysngtaut")
        assert ok and out == json.loads(json.dumps(GAME.score(record)))


def test_the_god_card_doubles_a_won_board_between_its_holder_and_the_winner():
    for record in records(1500, 15):
        if not record.get("winner") or record.get("penalties") or record.get("god"):
            continue
        if "JK" in json.dumps(record) or record["up"] == "JK":
            continue  # the joker is elsewhere: nobody may hold the god card
        plain = GAME.score(record)
        for seat in SEATS[: record["players"]]:
            doubled = GAME.score({**record, "god": seat})
            for p, q in zip(plain["payments"], doubled["payments"], strict=True):
                involved = seat in (p["from"], p["to"])
                assert q["amount"] == p["amount"] * (2 if involved else 1)


def test_face_wild_triple_and_the_joker_multiply():
    for record in records(800, 16):
        base = GAME.score(record)
        tripled = GAME.score(
            {**record, "options": {**record.get("options", {}), "face_wild_triple": True}}
        )
        factor = 3 if base["wild"] in ("J", "Q", "K") and base["multiplier"] in (1, 2) else 1
        if record.get("options", {}).get("face_wild_triple"):
            factor = 1
        assert [p["amount"] * factor for p in base["payments"]] == [
            p["amount"] for p in tripled["payments"]
        ]


def _corrupt(record, rng):
    """One change that makes a valid record bad, and the field it must name (prefix)."""
    record = copy.deepcopy(record)
    seats = SEATS[: record["players"]]
    choice = rng.randrange(9)
    if choice == 0:
        record["players"] = rng.choice((1, 5, "3", 3.0, True))
        return record, "players"
    if choice == 1:
        record["up"] = rng.choice(("10H", "XX", "", 7))
        return record, "up"
    if choice == 2:
        record["zap"] = 1
        return record, "zap"
    if choice == 3:
        hand_seats = [s for s in seats if record.get("hands", {}).get(s)]
        if not hand_seats:
            record["winner"] = "W" if record["players"] < 4 else "X"
            record.pop("dead", None)
            return record, "winner"
        seat = rng.choice(hand_seats)
        record["hands"][seat][0] = "10S"
        return record, f"hands.{seat}[0]"
    if choice == 4:
        seat = rng.choice(list(record.get("melds", {})) or ["N"])
        record.setdefault("melds", {})[seat] = [
            *record.get("melds", {}).get(seat, []),
            ["JK", "5H", "5D"],
        ]
        return record, f"melds.{seat}"
    if choice == 5:
        record["god"] = "X"
        return record, "god"
    if choice == 6:
        record["penalties"] = [*record.get("penalties", []), {"seat": "N", "kind": "dance"}]
        return record, "penalties"
    if choice == 7:
        record["options"] = {"more_wilds": True}
        return record, "options"
    record["dead"] = "maybe"
    return record, "dead"


def test_corrupted_records_are_refused_naming_a_field():
    rng = random.Random(17)
    for record in records(1500, 17):
        bad, field = _corrupt(record, rng)
        out, ok = score_line(json.dumps(bad), "pysngtaut")
        assert not ok, bad
        assert out["error"].startswith(field), (out, field, bad)


def test_a_stream_of_valid_and_corrupted_records_scores_as_the_reference_and_refuses():
    """Valid records and their corruptions interleaved, as a file of records arrives: nothing
    carried from one record to the next, no record changed by its scoring."""
    rng = random.Random(19)
    scored = refused = 0
    for record in records(2500, 19):
        bad, field = _corrupt(record, rng)
        for candidate, expected in ((record, None), (bad, field)):
            before = copy.deepcopy(candidate)
            try:
                score = GAME.score(candidate)
            except RecordError as exc:
                assert expected is not None, (exc, candidate)
                assert str(exc).startswith(expected), (str(exc), expected, candidate)
                refused += 1
            else:
                assert expected is None, candidate
                seats, pays, _V, H = reference_score(candidate)
                assert score["seats"] == seats, candidate
                assert [
                    (p["from"], p["to"], p["amount"], p["for"]) for p in score["payments"]
                ] == pays
                assert score["hand_values"] == H
                scored += 1
            assert candidate == before
    assert scored == refused == 2500


# -- simulated boards ---------------------------------------------------------------------------

SIM_SETTINGS = st.fixed_dictionaries(
    {
        "direction": st.sampled_from(("clockwise", "counterclockwise")),
        **{name: st.sampled_from(("off", "on")) for name in FLAGS},
    }
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.sampled_from((2, 3, 4)),
    board=st.integers(1, 8),
    chosen=SIM_SETTINGS,
)
def test_simulated_boards_always_score(seed, players, board, chosen):
    deal = GAME.seeded_deal(seed, 1, board, players)
    record = GAME.simulate_record(deal, random.Random(seed), GAME.settings(chosen))
    score = GAME.score(record)
    total = sum(score["seats"].values())
    if score["winner"] is None:
        assert total <= 0
    else:
        assert total == 0
        assert not record["hands"].get(score["winner"])
    # Every card the record shows came from the deal.
    text = json.dumps(record)
    assert record["deal"] == GAME.format_deal(deal)
    # The reference reading agrees on simulated boards too.
    full = {**record, "players": players, "up": record["deal"].split()[0][2:]}
    full.pop("deal")
    full.pop("direction", None)
    assert reference_score(full)[0] == score["seats"], text
    # What the scorer enters, completed by the tournament, scores the same.
    facts = GAME.scorer_facts(record, score)
    again = GAME.entry_record(
        facts,
        settings=GAME.settings(chosen),
        table=1,
        players=players,
        dealer=deal.dealer,
        deal=record["deal"],
    )
    assert GAME.score(again) == score


def simulated_records(count, seed):
    """Boards played by the simple player, as the speed bench scores them: 2 to 4 players,
    both directions, some options, some penalties; each with its deal and without it."""
    rng = random.Random(seed)
    for _ in range(count):
        players = rng.choice((2, 3, 4))
        chosen = {"direction": rng.choice(("clockwise", "counterclockwise"))}
        chosen.update({name: "on" for name in FLAGS if rng.random() < 0.1})
        deal = GAME.deal_cards(rng, players=players, dealer=rng.choice(SEATS[:players]))
        record = GAME.simulate_record(deal, rng, GAME.settings(chosen))
        seat = rng.choice(SEATS[:players])
        kind = rng.choice(("improper_meld", "out_of_turn"))
        if rng.random() < 0.2 and (kind == "out_of_turn" or seat != record.get("winner")):
            record["penalties"] = [{"seat": seat, "kind": kind}]
        without_deal = {**record, "players": players, "up": record["deal"].split()[0][2:]}
        without_deal.pop("deal")
        yield record, without_deal


def test_simulated_records_match_the_reference_reading():
    for record, without_deal in simulated_records(2000, 21):
        score = GAME.score(record)
        assert GAME.score(without_deal) == score
        seats, pays, _V, H = reference_score(without_deal)
        assert score["seats"] == seats, record
        assert [(p["from"], p["to"], p["amount"], p["for"]) for p in score["payments"]] == pays
        assert score["hand_values"] == H


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from((2, 3, 4)), board=st.integers(1, 4))
def test_deals_round_trip_and_hold_the_pack(seed, players, board):
    deal = GAME.seeded_deal(seed, 1, board, players)
    text = GAME.format_deal(deal)
    assert GAME.parse_deal(text) == deal
    assert GAME.parse_deal(text.lower()) == deal
    assert GAME.parse_deal("  " + text.replace(" ", "   ") + " ") == deal
    groups = text[2:].split()
    assert len(groups) == players + 3
    cards = [g[i : i + 2] for g in groups for i in range(0, len(g), 2)]
    if players == 3:
        assert groups[-1][-2:] == groups[0]
        cards = cards[1:]
    assert sorted(cards) == sorted(PACK)
    assert text[0] == SEATS[(board - 1) % players]


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.sampled_from((2, 3, 4)),
    where=st.integers(0, 200),
    swap=st.sampled_from(("2H", "KS", "JK", "XX", "10")),
)
def test_a_changed_card_makes_a_bad_deal(seed, players, where, swap):
    text = GAME.format_deal(GAME.seeded_deal(seed, 1, 1, players))
    positions = [i for i in range(2, len(text) - 1) if text[i] != " " and text[i + 1] != " "]
    # Card starts: count two characters a card inside each group.
    starts = []
    for index, group in enumerate(text[2:].split(" ")):
        offset = 2 + sum(len(g) + 1 for g in text[2:].split(" ")[:index])
        starts += [offset + i for i in range(0, len(group), 2)]
    at = starts[where % len(starts)]
    old = text[at : at + 2]
    if old == swap or positions is None:
        return
    bad = text[:at] + swap + text[at + 2 :]
    try:
        GAME.parse_deal(bad)
    except DealError as exc:
        assert str(exc).startswith("deal: ")
        return
    raise AssertionError(f"{bad} was accepted")


def test_record_errors_always_name_a_field():
    with_deals = records(200, 18)
    rng = random.Random(18)
    for record in with_deals:
        bad, _field = _corrupt(record, rng)
        try:
            GAME.score(bad)
        except RecordError as exc:
            assert str(exc) == f"{exc.field}: {exc.reason}"
