"""The recorder's page's copy of the card play (static/broadcast/board.js, run under Node)
against the engine's, on seeded random boards of every game that offers play rules: the same
legal cards at every position, and after each card the same hands, trick, tricks won and seat
to play. It is what the tablet offers while its connection is down.

Without ``node`` the test is skipped, except under ``CI=true``, where it fails."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.games import GAME_IDS, get_game
from tests.conftest import run_node

SCRIPT = Path(__file__).resolve().parents[2] / "static" / "broadcast" / "board.js"
RUNNER = """
const board = require(process.argv[1]);
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
const out = cases.map((c) => {
  const next = board.playLocally(c.view, c.card);
  return {
    legal: board.legalCards(c.view).map((card) => card.code).sort(),
    hands: next.hands, current: next.current, tricks: next.tricks, won: next.won,
    to_act: next.to_act,
  };
});
process.stdout.write(JSON.stringify(out));
"""
SEED = 20261127
PLAYING = [game_id for game_id in GAME_IDS if get_game(game_id).offers_table_play()]
SETTINGS = [{}, {"ruleset": "rules-1709"}, {"direction": "counterclockwise"}]


def _cases(game_id: str, rng: random.Random) -> list[dict]:
    game = get_game(game_id)
    cases = []
    for settings in SETTINGS:
        if any(name not in {field.name for field in game.setting_fields} for name in settings):
            continue
        for players in game.table_sizes:
            for board in range(1, 7):
                dealer = game.dealer(board, players)
                deal = game.seeded_deal(SEED, 2, board, players)
                play = game.table_play(
                    deal, settings=game.settings(settings), table=1, players=players, dealer=dealer
                )
                while not play.over:
                    options = [option["action"] for option in play.options()]
                    if options[0].startswith("call:"):
                        # A Gâm or Lon (a Ry stops early: fewer cards to compare).
                        bids = [a for a in options if a.startswith(("call:G", "call:L"))]
                        first = not any(play.view()["bidding"][-1])
                        action = rng.choice(bids) if first and bids else "call:P"
                    else:
                        action = rng.choice(options)
                    if action.startswith("card:"):
                        view = play.view()
                        legal = sorted(a[5:] for a in options)
                        play.apply(action)
                        cases.append(
                            {"view": view, "card": action[5:], "legal": legal, "next": play.view()}
                        )
                    else:
                        play.apply(action)
    return cases


@pytest.mark.parametrize("game_id", PLAYING)
def test_the_page_s_card_play_is_the_engine_s(game_id):
    rng = random.Random(f"{SEED}:{game_id}")
    print("seed", SEED)
    cases = _cases(game_id, rng)
    assert len(cases) > 100
    answers = run_node(SCRIPT, RUNNER, [{"view": c["view"], "card": c["card"]} for c in cases])
    for case, answer in zip(cases, answers, strict=True):
        assert answer["legal"] == case["legal"]
        expected = case["next"]
        assert answer["hands"] == expected["hands"]
        assert answer["won"] == expected["won"]
        assert answer["tricks"] == expected["tricks"]
        if expected["phase"] != "over":
            assert answer["to_act"] == expected["to_act"]
            assert answer["current"] == expected["current"]
