"""A board played at a table action by action (``Game.table_play``): every game that offers it
takes only what its rules allow, refuses the rest without changing anything, and gives North's
facts that score as the engine scores the same play."""

from __future__ import annotations

import random

import pytest

from engine.games import GAME_IDS, get_game
from engine.games.base import PlayRefused, apply_all
from engine.games.pymtheg.play import check_play_record

SEED = 20261127
PLAYING = [game_id for game_id in GAME_IDS if get_game(game_id).offers_table_play()]


def _start(game_id: str, board: int = 1, players: int | None = None):
    game = get_game(game_id)
    players = players or max(game.table_sizes)
    dealer = game.dealer(board, players)
    deal = game.seeded_deal(SEED, 1, board, players)
    play = game.table_play(
        deal, settings=game.settings({}), table=1, players=players, dealer=dealer
    )
    return game, deal, play, players, dealer


def _play_out(play, rng: random.Random, bid_first: bool = True) -> list[str]:
    """Random legal actions to the end; in an auction a bid first, then passes."""
    actions: list[str] = []
    while not play.over:
        options = [option["action"] for option in play.options()]
        calls = [action for action in options if action.startswith("call:")]
        if calls:
            bids = [action for action in calls if action != "call:P"]
            action = rng.choice(bids) if bid_first and not actions else "call:P"
        else:
            action = rng.choice(options)
        play.apply(action)
        actions.append(action)
    return actions


def test_the_games_that_offer_play_rules_are_pymtheg_and_pyramid():
    assert set(PLAYING) >= {"pymtheg", "pyramid"}
    for game_id in GAME_IDS:
        game = get_game(game_id)
        if not game.offers_table_play():
            with pytest.raises(PlayRefused, match="play rules"):
                game.table_play(None, settings={}, table=1, players=4, dealer="N")


@pytest.mark.parametrize("game_id", PLAYING)
def test_facts_of_a_recorded_play_score_like_the_engine(game_id):
    rng = random.Random(f"{SEED}:{game_id}")
    print("seed", SEED)
    game = get_game(game_id)
    for board in range(1, 9):
        game, _deal, play, players, dealer = _start(game_id, board)
        _play_out(play, rng)
        facts = play.facts()
        assert facts is not None
        assert set(facts) <= game.entry_fields
        record = game.entry_record(
            facts,
            settings=game.settings({}),
            table=1,
            players=players,
            dealer=dealer,
            deal="",
        )
        score = game.score(record)
        # What North would enter from the recording is what the engine says the play gave.
        assert game.scorer_facts(record, score) == {
            name: value for name, value in facts.items() if name in game.entry_fields
        }
        view = play.view()
        assert view["phase"] == "over" and view["result"]
        assert sum(view["won"].values()) == len(view["tricks"])


def test_pymtheg_tricks_are_those_the_play_record_checker_counts():
    rng = random.Random(SEED)
    for board in range(1, 6):
        _game, deal, play, _players, _dealer = _start("pymtheg", board)
        _play_out(play, rng)
        view = play.view()
        if play.passed_out:
            continue
        codes = [[card["code"] for card in trick["cards"]] for trick in view["tricks"]]
        checked = check_play_record(
            deal,
            play.trump,
            play.opening,
            play.direction,
            play.ruleset,
            codes,
            contract=play.contract,
            declarer=play.declarer,
        )
        assert {seat.name: n for seat, n in checked.tricks_per_seat.items()} == view["won"]


@pytest.mark.parametrize("game_id", PLAYING)
def test_only_legal_cards_are_offered_and_an_illegal_one_changes_nothing(game_id):
    rng = random.Random(f"{SEED}:{game_id}:illegal")
    _game, _deal, play, _players, _dealer = _start(game_id, 2)
    # To the first card of the play, then one card of the first trick.
    while play.view()["phase"] != "play":
        options = [option["action"] for option in play.options()]
        bids = [action for action in options if action not in ("call:P",)]
        first_call = not any(play.view()["bidding"][0])
        play.apply(bids[0] if first_call or not options[0].startswith("call:") else "call:P")
    play.apply(rng.choice(play.options())["action"])
    view = play.view()
    seat = view["to_act"]
    legal = {option["action"] for option in play.options()}
    held = {f"card:{card['code']}" for card in view["hands"][seat]}
    assert legal <= held
    illegal = sorted(held - legal)
    if not illegal:  # nothing to follow with: every card is legal; take another seat's card
        other = next(s for s in view["hands"] if s != seat and view["hands"][s])
        illegal = [f"card:{view['hands'][other][0]['code']}"]
    before = play.view()
    with pytest.raises(PlayRefused):
        play.apply(illegal[0])
    assert play.view() == before
    with pytest.raises(PlayRefused):
        play.apply("call:P")


def test_apply_all_names_the_refused_action():
    _game, _deal, play, _players, _dealer = _start("pymtheg")
    with pytest.raises(PlayRefused, match=r"action 2 \(call:G\)"):
        apply_all(play, ["call:G", "call:G"])
