"""The box and the server agree: an entry built only from what the bidding box offers (with
no deal: the partner unknown during the auction, every value the box lets the scorer pick)
always scores without the deal and is never refused as incomplete; scored again with the
board's deal it gives the same score, or the deal disagrees with a fact the table entered
(the partner, the called card, the held bonus, the last trick: the director's to judge);
and when those facts are the deal's own, it gives the same score."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import RecordError
from engine.core.seats import SEAT_LETTERS
from engine.games.twenty import cards
from engine.games.twenty.auction import next_calls
from engine.games.twenty.cards import CARD_TEXT, HONOURS, KINGS, TwentyDeal, called_card
from engine.games.twenty.game import GAME

#: The fields whose value the deal decides: a disagreement there goes to the director.
DEAL_FIELDS = {"partner", "called", "held", "last"}
FORM = GAME.entry_form(dealer="N")


class Chooser:
    """The choices behind one entry: ``pick`` one of a list, ``chance`` of a yes."""

    def __init__(self, pick: Callable[[Sequence[Any]], Any], chance: Callable[[float], bool]):
        self.pick = pick
        self.chance = chance


def rng_chooser(rng: random.Random) -> Chooser:
    return Chooser(rng.choice, lambda p: rng.random() < p)


def data_chooser(data: Any) -> Chooser:
    return Chooser(
        lambda seq: data.draw(st.sampled_from(list(seq))),
        lambda p: data.draw(st.integers(0, 999)) < int(p * 1000),
    )


def make_deal(choose: Chooser, shuffle: Sequence[int]) -> TwentyDeal:
    """A deal from a shuffled pack; now and then one seat is given all four Kings or all
    three Honours (by swapping cards), so that held bonuses are common enough to test."""
    dealer = choose.pick(SEAT_LETTERS)
    order = list(shuffle)
    if choose.chance(0.35):
        wanted = KINGS if choose.chance(0.5) else HONOURS
        target = choose.pick(range(4))
        for card in range(cards.PACK_SIZE):
            if wanted >> card & 1 and order.index(card) // 10 != target:
                here = order.index(card)
                slot = next(
                    k for k in range(10 * target, 10 * target + 10) if not wanted >> order[k] & 1
                )
                order[here], order[slot] = order[slot], order[here]
    hands = tuple(sum(1 << c for c in order[10 * i : 10 * i + 10]) for i in range(4))
    return TwentyDeal(dealer, hands)


def truth(deal: TwentyDeal, contract: str) -> dict[str, Any]:
    """The deal's own facts: the called card and its holder, and who holds the set that
    scores in ``contract``."""
    called = called_card(deal.hand(deal.eldest))
    return {
        "called": CARD_TEXT[called],
        "partner": deal.holder(called),
        "held": deal.set_holder(KINGS if contract == "NT" else HONOURS),
    }


def box_entry(deal: TwentyDeal, choose: Chooser) -> tuple[dict[str, Any], bool]:
    """``(facts, true)``: a complete entry made only of what the box offers, some of its
    deal-dependent facts the deal's own (``true``: all of them are)."""
    dealer = deal.dealer
    calls: list[str] = []
    box = GAME.entry_options(dealer=dealer, auction=calls)
    while not box["complete"]:
        offered = box["calls"]
        passes = [call for call in offered if call == "P"]
        call = passes[0] if passes and choose.chance(0.6) else choose.pick(offered)
        calls.append(f"{box['seat']}:{call}")
        box = GAME.entry_options(dealer=dealer, auction=calls)
    contract = box["contract"]
    known = truth(deal, contract)
    facts: dict[str, Any] = {"auction": box["auction"]}
    contras = {}
    for item in box["contras"]["items"]:
        level = choose.pick(box["contras"]["levels"])
        if level != "none":
            contras[item] = level
    if contras:
        facts["contras"] = contras
    tricks = choose.pick(range(box["tricks"][0], box["tricks"][1] + 1))
    fewest, most = FORM["fewest_points"][tricks], FORM["most_points"][tricks]
    facts["points"] = choose.pick(range(fewest, most + 1))
    facts["tricks"] = tricks
    # A Sparrow without a bid by another than the deal's partner, even a void one, disagrees.
    true = box["partner_sparrow"] in (None, known["partner"])
    if contract == "PART":
        partners = box["partners"]
        honest = known["partner"] in partners and choose.chance(0.6)
        facts["partner"] = known["partner"] if honest else choose.pick(partners)
        honest = choose.chance(0.6)
        facts["called"] = known["called"] if honest else choose.pick(box["called_cards"])
        true = true and facts["partner"] == known["partner"] and facts["called"] == known["called"]
    if box["needs_last"]:
        seats = GAME.entry_options(
            dealer=dealer, auction=calls, partner=facts.get("partner"), tricks=tricks
        )["last_seats"]
        seat = choose.pick(seats)
        dealt = [
            code
            for code, _name, _group in FORM["cards"]
            if deal.hand(seat) >> cards.parse_card(code) & 1
        ]
        card = choose.pick(dealt) if choose.chance(0.6) else choose.pick(FORM["cards"])[0]
        facts["last"] = {"seat": seat, "card": card}
        true = true and card in dealt
    if choose.chance(0.6):
        held = known["held"]
    else:
        held = choose.pick([None, *box["held_seats"]])
    if held is not None:
        facts["held"] = held
    true = true and held == known["held"]
    return facts, true


def judge(deal: TwentyDeal, facts: dict[str, Any], true: bool) -> str:
    """Check one entry; the outcome: ``same``, ``field:<name>`` or ``unclaimed``."""
    plain = GAME.entry_record(facts, settings={}, table=1, players=4, dealer=deal.dealer, deal="")
    assert "deal" not in plain
    # (a) What the box offers, the server takes without the deal.
    score = GAME.score(plain)
    assert GAME.entry_problem(plain, score) is None, facts
    dealt = GAME.entry_record(
        facts,
        settings={},
        table=1,
        players=4,
        dealer=deal.dealer,
        deal=GAME.format_deal(deal),
    )
    why = GAME.deal_disagreement(dealt, score)
    try:
        checked = GAME.score(dealt)
    except RecordError as exc:
        # (b) The deal disagrees with a fact only the table could enter.
        assert exc.field in DEAL_FIELDS, (facts, str(exc))
        assert not true, (facts, str(exc))
        assert why == str(exc) and why.startswith(f"{exc.field}: ")
        return f"field:{exc.field}"
    if checked == score:
        assert why is None
        return "same"
    assert why.startswith("held: entered as claimed by nobody, but the deal gives the ")
    # (b) The only other difference: a set the deal shows, entered as claimed by nobody.
    assert not true and "held" not in facts, (facts, checked, score)
    held = [item for item in checked["items"] if item["item"] in ("kings", "honours")]
    assert len(held) == 1 and held[0]["by"] == truth(deal, checked["contract"])["held"]
    assert why.endswith(f"{held[0]['item'].capitalize()} to {held[0]['by']}")
    assert [item for item in checked["items"] if item not in held] == score["items"]
    for seat in SEAT_LETTERS:
        assert checked["seats"][seat] - score["seats"][seat] == (3 if seat == held[0]["by"] else -1)
    assert {k: v for k, v in checked.items() if k not in ("items", "seats")} == {
        k: v for k, v in score.items() if k not in ("items", "seats")
    }
    return "unclaimed"


@settings(max_examples=600)
@given(data=st.data(), shuffle=st.permutations(range(cards.PACK_SIZE)))
def test_the_box_and_the_server_agree(data, shuffle):
    choose = data_chooser(data)
    deal = make_deal(choose, shuffle)
    facts, true = box_entry(deal, choose)
    outcome = judge(deal, facts, true)
    # (c) The deal's own facts give the deal-less score, and only they do.
    assert (outcome == "same") == true, (facts, outcome)


def test_every_outcome_is_reached():
    """The same check on seeded random entries: each way an entry can meet the deal occurs,
    so the property above is not vacuous."""
    seed = 20240611
    print(f"seed {seed}")
    rng = random.Random(seed)
    outcomes: Counter[str] = Counter()
    true_ones = 0
    for _ in range(1500):
        deal = make_deal(rng_chooser(rng), rng.sample(range(cards.PACK_SIZE), cards.PACK_SIZE))
        facts, true = box_entry(deal, rng_chooser(rng))
        outcome = judge(deal, facts, true)
        outcomes[outcome] += 1
        assert (outcome == "same") == true, (facts, outcome)
        true_ones += true
    for found in ("same", "unclaimed", *(f"field:{name}" for name in DEAL_FIELDS)):
        assert outcomes[found] >= 5, (found, outcomes)
    assert true_ones >= 100, outcomes


def test_a_partnership_without_the_called_card_is_refused():
    facts = {"auction": ["E:PART", "S:P", "W:P", "N:P"], "partner": "W", "points": 57, "tricks": 6}
    record = GAME.entry_record(facts, settings={}, table=1, players=4, dealer="N", deal="")
    score = GAME.score(record)
    problem = GAME.entry_problem(record, score)
    assert isinstance(problem, RecordError) and problem.field == "called"
    assert "called card" in str(problem)
    called = {**facts, "called": "T18"}
    record = GAME.entry_record(called, settings={}, table=1, players=4, dealer="N", deal="")
    assert GAME.entry_problem(record, GAME.score(record)) is None
    # Another game has no called card to give.
    solo = {"auction": ["E:PART", "S:NT", "W:SOLO", "N:P", "E:P", "S:P"], "points": 57, "tricks": 6}
    record = GAME.entry_record(solo, settings={}, table=1, players=4, dealer="N", deal="")
    assert GAME.entry_problem(record, GAME.score(record)) is None


def test_the_box_offers_the_sparrow_without_a_bid_to_every_seat_that_may_make_it():
    """No partner is ever derived: after Eldest's Partnership each following seat may pass
    with the Sparrow until one does, whatever deal the context carries."""
    deal = (
        "N:11,10,9,8,7,6,5,4...T.Q F,21,20,19,1.KT.K.Q.C 18,16,15.QC.QC.K.JT 17,14,13,12.J.JT.CJ.K"
    )
    for prefix in (["E:PART"], ["E:PART", "S:P"], ["E:PART", "S:P", "W:P"]):
        for context in ({}, {"deal": deal}):
            calls = GAME.entry_options(dealer="N", auction=prefix, **context)["calls"]
            assert "P+SPARROW" in calls and calls == next_calls(prefix, "N")["calls"]
    taken = GAME.entry_options(dealer="N", auction=["E:PART", "S:P+SPARROW"])["calls"]
    assert "P+SPARROW" not in taken
