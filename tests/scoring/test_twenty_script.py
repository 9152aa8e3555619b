"""The phone's Twenty entry script (static/scoring/entry-twenty-auction.js) run under Node:
its bidding box, which works without the network, must offer exactly the engine's legal
calls and refuse exactly what the engine refuses; its points-and-tricks check is the
rulebook's table; its payments in words add up to the score's table results.

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
from engine.games.twenty.game import GAME
from tests.conftest import run_node

SCRIPT = Path(__file__).resolve().parents[2] / "static" / "scoring" / "entry-twenty-auction.js"
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
  const answers = job.cases.map(({ prefix, dealer, partner, candidates }) => ({
    next: outcome(() => A.next(prefix, dealer, partner)),
    candidates: candidates.map((call) =>
      outcome(() => A.read([...prefix, call], dealer).calls.length)),
  }));
  const problems = job.pairs.map(([p, t]) => A.pointsProblem(p, t, job.fewest, job.most));
  const words = job.scores.map((score) =>
    ({ items: A.itemLines(score), seats: A.seatLines(score) }));
  process.stdout.write(JSON.stringify({ answers, problems, words }));
});
"""


def run_script(job: dict) -> dict:
    return run_node(SCRIPT, HARNESS, job)


def engine_outcome(calls: list[str], dealer: str, partner: str | None = None) -> dict:
    try:
        return {"ok": next_calls(calls, dealer, partner)}
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
    for number in range(CASES):
        dealer = rng.choice(SEAT_LETTERS)
        eldest = cards.NEXT_SEAT[dealer]
        # Half the boards have their deal on file: the partner is known (never Eldest).
        partner = rng.choice([s for s in SEAT_LETTERS if s != eldest]) if number % 2 else None
        prefix = random_prefix(rng, dealer, partner)
        if rng.random() < 0.05 and prefix:  # a damaged auction: one call replaced
            position = rng.randrange(len(prefix))
            prefix[position] = f"{rng.choice(SEAT_LETTERS)}:{rng.choice(CALLS)}"
        seats = rng.sample(SEAT_LETTERS, 2)
        candidates = [f"{seat}:{call}" for seat in SEAT_LETTERS for call in CALLS]
        candidates += [rng.choice(ODD).format(seat=seat) for seat in seats]
        found.append(
            {"prefix": prefix, "dealer": dealer, "partner": partner, "candidates": candidates}
        )
    return found


def scores(seed: int, count: int) -> list[dict]:
    rng = random.Random(seed)
    made = []
    for _ in range(count):
        deal = cards.deal_cards(rng, dealer=rng.choice(SEAT_LETTERS))
        made.append(GAME.score(GAME.simulate_record(deal, rng, {})))
    return made


@pytest.fixture(scope="module")
def run():
    cases = make_cases(seed=15)
    pairs = [(p, t) for p in range(0, 103) for t in range(0, 11)]
    made = scores(seed=20, count=300)
    job = {
        "cases": cases,
        "pairs": pairs,
        "fewest": list(cards.FEWEST_POINTS),
        "most": list(cards.MOST_POINTS),
        "scores": made,
    }
    return job, run_script(job)


def test_the_box_offers_the_engines_legal_calls(run):
    job, answers = run
    complete = known = 0
    for case, answer in zip(job["cases"], answers["answers"], strict=True):
        expected = engine_outcome(case["prefix"], case["dealer"], case["partner"])
        assert answer["next"] == expected, case
        if "ok" in expected:
            complete += expected["ok"]["complete"]
            known += case["partner"] is not None and "P+SPARROW" in expected["ok"]["calls"]
    # The cases reach every situation: ended auctions, and partners offered their Sparrow.
    assert complete > CASES // 10 and known > 50


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
