"""The phone's Twenty entry script (engine/games/twenty/static/entry.js) run under Node:
its bidding box, which works without the network and never knows the partner, must offer
exactly the engine's legal calls (no partner) and refuse exactly what the engine refuses;
after the auction it offers what the engine's entry_options offers, and the facts it sends
for a draft are exactly those a draft of offered values makes, which the server scores
without the deal and checks against it (the box and the server agree); its
points-and-tricks check is the rulebook's table; its payments in words add up to the score's
table results.

Node must be on the machine: without it the tests skip, and fail under CI=true."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from engine.core.errors import RecordError
from engine.core.seats import SEAT_LETTERS
from engine.games.twenty import cards
from engine.games.twenty.auction import (
    CallError,
    apply_call,
    legal_calls,
    new_state,
    next_calls,
    parse_call,
    read_auction,
)
from engine.games.twenty.cards import CARD_TEXT
from engine.games.twenty.game import GAME
from tests.conftest import run_node
from tests.engine.twenty.test_entry_agreement import judge, make_deal, rng_chooser, truth

SCRIPT = Path(__file__).resolve().parents[2] / "engine" / "games" / "twenty" / "static" / "entry.js"
CASES = 4000
#: Every call a bidding box could send, and some written loosely or wrongly.
CALLS = [
    bid + suffix
    for bid in ("P", "PART", "NT", "SOLO")
    for suffix in ("", "+SPARROW", "+SLAM", "+SPARROW+SLAM")
]
ODD = [
    "{seat}: Partnership + Sparrow",
    "{seat}:pass",
    "{seat}:notrumps+slam",
    "{seat}:P+SPARROW+SPARROW",
    "{seat}:SOLO+SLAM+SLAM",
    "{seat}:DOUBLE",
    "{seat}:NT+BONUS",
    "{seat}PART",
    "X:P",
    "{seat}:SLAM+SOLO",
]

HARNESS = r"""
const A = require(process.argv[1]);
let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const job = JSON.parse(input);
  const outcome = (f) => { try { return { ok: f() }; } catch (e) { return { error: e.message }; } };
  const answers = job.cases.map(({ prefix, dealer, candidates }) => ({
    next: outcome(() => A.next(prefix, dealer)),
    candidates: candidates.map((call) =>
      outcome(() => A.read([...prefix, call], dealer).calls.length)),
  }));
  const entries = job.drafts.map(({ draft, form }) => {
    const box = A.next(draft.calls, form.dealer);
    const choices = box.complete ? A.choices(box, draft, form) : null;
    return { choices, entry: A.entry(draft, form) };
  });
  const problems = job.pairs.map(([p, t]) => A.pointsProblem(p, t, job.fewest, job.most));
  const words = job.scores.map((score) =>
    ({ items: A.itemLines(score), seats: A.seatLines(score) }));
  process.stdout.write(JSON.stringify({ answers, entries, problems, words }));
});
"""


def run_script(job: dict) -> dict:
    return run_node(SCRIPT, HARNESS, job)


def engine_outcome(calls: list[str], dealer: str) -> dict:
    try:
        return {"ok": next_calls(calls, dealer)}
    except CallError as exc:
        return {"error": str(exc)}


def random_prefix(rng: random.Random, dealer: str, partner: str | None) -> list[str]:
    """Legal calls as the box offers them, stopped anywhere (an ended auction included)."""
    state = new_state(dealer)
    while state.turn is not None and rng.random() > 0.15:
        call = rng.choice(legal_calls(state, partner))
        apply_call(state, parse_call(f"{state.turn}:{call}"))
    return [
        f"{seat}:{bid}" + ("+SPARROW" if sp else "") + ("+SLAM" if sl else "")
        for seat, bid, sp, sl in state.calls
    ]


def make_cases(seed: int) -> list[dict]:
    rng = random.Random(seed)
    found = []
    for _ in range(CASES):
        dealer = rng.choice(SEAT_LETTERS)
        prefix = random_prefix(rng, dealer, None)
        if rng.random() < 0.05 and prefix:  # a damaged auction: one call replaced
            position = rng.randrange(len(prefix))
            prefix[position] = f"{rng.choice(SEAT_LETTERS)}:{rng.choice(CALLS)}"
        seats = rng.sample(SEAT_LETTERS, 2)
        candidates = [f"{seat}:{call}" for seat in SEAT_LETTERS for call in CALLS]
        candidates += [rng.choice(ODD).format(seat=seat) for seat in seats]
        found.append({"prefix": prefix, "dealer": dealer, "candidates": candidates})
    return found


def scores(seed: int, count: int) -> list[dict]:
    rng = random.Random(seed)
    made = []
    for _ in range(count):
        deal = cards.deal_cards(rng, dealer=rng.choice(SEAT_LETTERS))
        made.append(GAME.score(GAME.simulate_record(deal, rng, {})))
    return made


JUNK_CARDS = ["T21", "T1", "SK", "T3", "x"]


def random_draft(rng: random.Random) -> tuple[dict, object]:
    """A board's deal and North's draft on the phone: an auction the box allows (now and then
    unfinished), then each later value mostly one the box offers, often the deal's own, now
    and then one it never offers (a draft kept from another auction, or damaged)."""
    deal = make_deal(rng_chooser(rng), rng.sample(range(cards.PACK_SIZE), cards.PACK_SIZE))
    calls = random_prefix(rng, deal.dealer, None)
    if rng.random() < 0.85:
        state = next_calls(calls, deal.dealer)
        while not state["complete"]:
            call = (
                "P" if "P" in state["calls"] and rng.random() < 0.7 else rng.choice(state["calls"])
            )
            calls.append(f"{state['seat']}:{call}")
            state = next_calls(calls, deal.dealer)
    box = next_calls(calls, deal.dealer)
    known = truth(deal, box["contract"] or "PART")
    draft: dict = {"calls": calls, "contras": {}, "last": {"seat": None, "card": None}}
    for item in ("bid", "sparrow", "slam"):
        if rng.random() < 0.5:
            draft["contras"][item] = rng.choice(
                ["none", "contra", "re", "sub", "double"][: 4 + (rng.random() < 0.05)]
            )
    draft["partner"] = known["partner"] if rng.random() < 0.5 else rng.choice([None, *SEAT_LETTERS])
    form = GAME.entry_form(dealer=deal.dealer)
    called = form["called_cards"] + (JUNK_CARDS if rng.random() < 0.1 else [])
    draft["called"] = known["called"] if rng.random() < 0.5 else rng.choice([None, *called])
    tricks = rng.randrange(11)
    fewest, most = cards.FEWEST_POINTS[tricks], cards.MOST_POINTS[tricks]
    draft["tricks"] = tricks if rng.random() < 0.95 else None
    draft["points"] = (
        rng.randint(fewest, most) if rng.random() < 0.85 else rng.choice([None, 0, 51, 102])
    )
    seat = rng.choice([None, *SEAT_LETTERS]) if rng.random() < 0.2 else rng.choice(SEAT_LETTERS)
    hand = [CARD_TEXT[c] for c in range(cards.PACK_SIZE) if seat and deal.hand(seat) >> c & 1]
    codes = [code for code, _name, _group in form["cards"]]
    card = rng.choice(hand) if hand and rng.random() < 0.6 else rng.choice([None, *codes, "T2"])
    draft["last"] = {"seat": seat, "card": card}
    draft["held"] = known["held"] if rng.random() < 0.5 else rng.choice([None, *SEAT_LETTERS])
    return {"draft": draft, "form": form}, deal


def offered_facts(draft: dict, form: dict) -> dict | None:
    """The facts a draft makes when every value in it is one the engine's box offers (None
    when one is missing or not offered): what the phone must send."""
    try:
        box = GAME.entry_options(dealer=form["dealer"], auction=draft["calls"])
    except RecordError:
        return None
    if not box["complete"]:
        return None
    facts: dict = {"auction": box["auction"]}
    partners = box["partners"]
    partner = partners[0] if len(partners) == 1 else draft["partner"]
    if box["contract"] == "PART":
        if partner not in partners or draft["called"] not in box["called_cards"]:
            return None
        facts["partner"] = partner
        facts["called"] = draft["called"]
    contras = {}
    for item in box["contras"]["items"]:
        level = draft["contras"].get(item, "none")
        if level not in box["contras"]["levels"]:
            return None
        if level != "none":
            contras[item] = level
    if contras:
        facts["contras"] = contras
    points, tricks = draft["points"], draft["tricks"]
    if points is None or tricks is None:
        return None
    if not cards.FEWEST_POINTS[tricks] <= points <= cards.MOST_POINTS[tricks]:
        return None
    facts["points"], facts["tricks"] = points, tricks
    if box["needs_last"]:
        last_seats = GAME.entry_options(
            dealer=form["dealer"], auction=draft["calls"], partner=partner, tricks=tricks
        )["last_seats"]
        codes = [code for code, _name, _group in form["cards"]]
        last = draft["last"]
        if last["seat"] not in last_seats or last["card"] not in codes:
            return None
        facts["last"] = dict(last)
    if draft["held"] is not None:
        if draft["held"] not in box["held_seats"]:
            return None
        facts["held"] = draft["held"]
    return facts


DRAFTS = 1500


@pytest.fixture(scope="module")
def run():
    cases = make_cases(seed=15)
    seed = 2718
    print(f"drafts: seed {seed}")
    rng = random.Random(seed)
    drafts, deals = zip(*(random_draft(rng) for _ in range(DRAFTS)), strict=True)
    pairs = [(p, t) for p in range(0, 103) for t in range(0, 11)]
    made = scores(seed=20, count=300)
    job = {
        "cases": cases,
        "drafts": list(drafts),
        "pairs": pairs,
        "fewest": list(cards.FEWEST_POINTS),
        "most": list(cards.MOST_POINTS),
        "scores": made,
    }
    job["deals"] = deals
    return job, run_script({key: value for key, value in job.items() if key != "deals"})


def test_the_box_offers_the_engines_legal_calls(run):
    job, answers = run
    complete = offered = 0
    for case, answer in zip(job["cases"], answers["answers"], strict=True):
        expected = engine_outcome(case["prefix"], case["dealer"])
        assert answer["next"] == expected, case
        if "ok" in expected:
            complete += expected["ok"]["complete"]
            offered += "P+SPARROW" in expected["ok"]["calls"]
    # The cases reach every situation: ended auctions, and the Sparrow without a bid offered.
    assert complete > CASES // 10 and offered > 200


def test_after_the_auction_the_box_offers_what_the_engine_offers(run):
    job, answers = run
    compared = 0
    for case, answer in zip(job["drafts"], answers["entries"], strict=True):
        draft, form = case["draft"], case["form"]
        box = next_calls(draft["calls"], form["dealer"])
        if not box["complete"]:
            assert answer["choices"] is None
            continue
        got = answer["choices"]
        engine = GAME.entry_options(
            dealer=form["dealer"],
            auction=draft["calls"],
            partner=got["partner"],
            tricks=draft["tricks"],
        )
        assert got["partners"] == engine["partners"], draft
        assert got["partner"] in (None, *engine["partners"])
        if len(engine["partners"]) == 1:
            assert got["partner"] == engine["partners"][0]
        elif draft["partner"] in engine["partners"]:
            assert got["partner"] == draft["partner"]
        assert got["called"] == engine["called_cards"]
        assert got["lastSeats"] == engine["last_seats"], draft
        assert got["held"] == engine["held"] and got["heldSeats"] == engine["held_seats"]
        compared += 1
    assert compared > DRAFTS // 2


def test_the_script_sends_exactly_the_facts_of_offered_values(run):
    """What the phone sends is what a draft of offered values makes, and nothing when a value
    is missing or not offered; the server scores it without the deal, never finds it
    incomplete, and checked against the board's deal it gives the same score or goes to
    the director for a fact only the table could enter (the deal's own facts: the same)."""
    job, answers = run
    outcomes: dict[str, int] = {}
    for case, deal, answer in zip(job["drafts"], job["deals"], answers["entries"], strict=True):
        expected = offered_facts(case["draft"], case["form"])
        got = answer["entry"]
        if expected is None:
            assert got.get("missing"), (case, got)
            continue
        assert got == {"facts": expected}, (case, got)
        facts = expected
        box = next_calls(facts["auction"], deal.dealer)
        known = truth(deal, box["contract"])
        true = box["partner_sparrow"] in (None, known["partner"])
        if box["contract"] == "PART":
            true = true and facts["partner"] == known["partner"]
            true = true and facts["called"] == known["called"]
        if "last" in facts:
            card = cards.parse_card(facts["last"]["card"])
            true = true and bool(deal.hand(facts["last"]["seat"]) >> card & 1)
        true = true and facts.get("held") == known["held"]
        outcome = judge(deal, facts, true)
        assert (outcome == "same") == true, (facts, outcome)
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    # Both sides of the check are reached: entries the deal confirms, and each kind of
    # disagreement the director settles.
    assert outcomes.get("same", 0) > 50, outcomes
    for field in ("partner", "called", "last", "held"):
        assert outcomes.get(f"field:{field}", 0) > 5, outcomes


def test_the_script_refuses_what_the_engine_refuses(run):
    job, answers = run
    refused = accepted = 0
    for case, answer in zip(job["cases"], answers["answers"], strict=True):
        for call, got in zip(case["candidates"], answer["candidates"], strict=True):
            try:
                read_auction([*case["prefix"], call], case["dealer"])
            except CallError as exc:
                refused += 1
                assert got == {"error": str(exc)}, (case["prefix"], call)
            else:
                accepted += 1
                assert "ok" in got, (case["prefix"], call, got)
    assert refused > 10 * accepted > 0


def test_points_and_tricks_follow_the_rulebooks_table(run):
    job, answers = run
    for (points, tricks), problem in zip(job["pairs"], answers["problems"], strict=True):
        record = {
            "game": "twenty",
            "dealer": "N",
            "auction": ["E:PART", "S:NT", "W:P", "N:P", "E:P"],
            "points": points,
            "tricks": tricks,
        }
        try:
            GAME.score(record)
            fits = True
        except RecordError as exc:
            assert "points" in str(exc)
            fits = False
        assert (problem is None) == fits, (points, tricks, problem)
        if problem:
            assert f"{points} points cannot go with {tricks} trick" in problem
    assert answers["problems"].count(None) > 300


PAYMENT = re.compile(
    r"(?P<who>(?:North|East|South|West)(?:(?:, | and )(?:North|East|South|West))*) "
    r"(?P<verb>pays?|receives?) (?P<amount>\d+)(?P<each> each)?"
)
SEAT_OF = {"North": "N", "East": "E", "South": "S", "West": "W"}


def test_the_payments_in_words_add_up_to_the_table_results(run):
    job, answers = run
    for score, words in zip(job["scores"], answers["words"], strict=True):
        assert len(words["items"]) == len(score["items"])
        totals = dict.fromkeys(SEAT_LETTERS, 0)
        for line, item in zip(words["items"], score["items"], strict=True):
            paid = dict.fromkeys(SEAT_LETTERS, 0)
            for found in PAYMENT.finditer(line):
                named = re.findall(r"North|East|South|West", found["who"])
                seats = [SEAT_OF[name] for name in named]
                amount = int(found["amount"]) * (1 if found["verb"].startswith("p") else -1)
                for seat in seats:
                    paid[seat] -= amount
            assert sum(paid.values()) == 0, line
            assert any(value for value in paid.values()), line
            if item["item"] in ("bid", "sparrow", "slam"):
                assert ("won" if item["won"] else "lost") in line
            for seat in SEAT_LETTERS:
                totals[seat] += paid[seat]
        assert totals == score["seats"], (words, score)
        for seat, line in zip(SEAT_LETTERS, words["seats"], strict=True):
            value = score["seats"][seat]
            name = {"N": "North", "E": "East", "S": "South", "W": "West"}[seat]
            expected = (
                f"{name} receives {value}"
                if value > 0
                else f"{name} pays {-value}"
                if value < 0
                else f"{name}: nothing"
            )
            assert line == expected
