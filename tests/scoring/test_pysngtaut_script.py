"""The phone's set classifier (static/scoring/entry-pysngtaut-entry.js, run under Node) against
the engine's (engine/games/pysngtaut/sets.py): the same row and value, or the same fault in
the same words, on thousands of random sets with random options; and the copies it refuses.

Without ``node`` the test is skipped, except under ``CI=true``, where it fails."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from engine.games.pysngtaut.cards import CARD_CODES, CARD_TEXT, RANK_CHARS
from engine.games.pysngtaut.game import CATEGORY_ROWS, GAME, SET_RESTRICTIONS
from engine.games.pysngtaut.sets import CATEGORY_IDS, SetFault, read_set
from tests.conftest import run_node

SCRIPT = Path(__file__).resolve().parents[2] / "static" / "scoring" / "entry-pysngtaut-entry.js"
RUNNER = """
const logic = require(process.argv[1]);
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
const out = cases.map((c) => {
  if (!c.refuse) return logic.describeSet(c.cards, c.wild, c.restrictions, c.categories);
  const counts = logic.countCards(c.lists, c.god);
  return logic.refusal(c.card, c.copies, counts, c.up, c.players);
});
process.stdout.write(JSON.stringify(out));
"""


def random_set(rng: random.Random, wild: str | None) -> list[str]:
    """Mostly one rank with some wild cards, sometimes a stray card or the joker."""
    rank = rng.choice(RANK_CHARS)
    cards = []
    for _ in range(rng.choice((1, 2, 3, 3, 3, 4, 4, 4, 4, 5, 6, 7))):
        roll = rng.random()
        if roll < 0.6:
            chosen = rank
        elif roll < 0.85 and wild is not None:
            chosen = wild
        elif roll < 0.97:
            chosen = rng.choice(RANK_CHARS)
        else:
            cards.append("JK")
            continue
        cards.append(chosen + rng.choice("SHDC"))
    return cards


def test_the_scripts_classifier_agrees_with_the_engines():
    rng = random.Random(20261126)
    cases, expected = [], []
    for _ in range(6000):
        up = rng.choice([*CARD_TEXT])
        settings = {name: rng.random() < 0.3 for name in SET_RESTRICTIONS}
        if rng.random() < 0.3:
            settings["face_wild_triple"] = True
        for category in CATEGORY_IDS:
            if rng.random() < 0.2:
                settings["value_" + category.replace("-", "_")] = rng.randrange(0, 30000)
        deal = replace(GAME.deal_cards(rng, players=4, dealer="N"), up=CARD_CODES[up])
        form = GAME.entry_form(players=4, dealer="N", settings=settings, deal=deal)
        wild = form["wild"]
        cards = random_set(rng, wild)
        cases.append(
            {
                "cards": cards,
                "wild": wild,
                "restrictions": form["restrictions"],
                "categories": form["categories"],
            }
        )
        wild_code = None if wild is None else RANK_CHARS.index(wild)
        try:
            rank, index, wilds = read_set(
                [CARD_CODES[c] for c in cards],
                wild_code,
                **{name: bool(settings[name]) for name in SET_RESTRICTIONS},
            )
        except SetFault as fault:
            expected.append({"fault": str(fault)})
            continue
        category = CATEGORY_IDS[index]
        values = {c["id"]: c["value"] for c in form["categories"]}
        expected.append(
            {
                "rank": RANK_CHARS[rank],
                "category": category,
                "wilds": wilds,
                "row": CATEGORY_ROWS[category],
                "value": values[category],
            }
        )
    got = run_node(SCRIPT, RUNNER, cases)
    assert len(got) == len(expected)
    for case, mine, theirs in zip(cases, got, expected, strict=True):
        assert mine == theirs, case["cards"]
    kinds = {e.get("category", "fault") for e in expected}
    assert kinds == {*CATEGORY_IDS, "fault"}, "every row and faults were tried"


def test_the_script_refuses_a_card_beyond_the_packs_copies():
    up_deal = GAME.format_deal(GAME.seeded_deal("copies", 1, 1, 4))
    form = GAME.entry_form(players=4, dealer="N", deal=up_deal)
    up = form["up"]
    copies = form["cards"]
    cases = [
        # one copy of a number card left beside the turned-up one, with 2 or 4 players
        {"refuse": True, "card": up, "copies": copies, "lists": [[]], "god": None, "up": up,
         "players": 4},
        {"refuse": True, "card": up, "copies": copies, "lists": [[up]], "god": None, "up": up,
         "players": 4},
        {"refuse": True, "card": "KS" if up != "KS" else "KH", "copies": copies,
         "lists": [["KS", "KH"], []], "god": None, "up": up, "players": 4},
        {"refuse": True, "card": "JK", "copies": copies, "lists": [[]], "god": "E", "up": up,
         "players": 4},
        {"refuse": True, "card": "9C" if up[0] != "9" else "8C", "copies": copies,
         "lists": [["9C", "8C"], ["9C", "8C"]], "god": None, "up": up, "players": 4},
    ]  # fmt: skip
    got = run_node(SCRIPT, RUNNER, cases)
    if copies[up] == 1:
        assert got[0] is None and "refused" in got[1]
    else:  # the joker or a face card turned up: none left
        assert "out of play" in got[0]
    assert "once" in got[2] and "entered once already" in got[2]
    assert got[3] is not None and got[4] is not None and "twice" in got[4]
