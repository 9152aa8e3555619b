"""The broadcast of a featured table and who may see it (``scoring.visibility.
table_play_seen_by``): organisers, the director and press live; the table's recorder; the
public and every seated entrant only once the table is complete. Probed for every game that
offers play rules."""

from __future__ import annotations

import itertools
import random

import pytest
from django.test import Client
from django.urls import reverse

from broadcast import analysis
from engine.games import GAME_IDS, get_game
from operations.simulation import simulate_tournament
from scoring import visibility
from tests.broadcast.helpers import (
    act,
    featured_event,
    play_out,
    press_client,
    recorder_client,
    state,
)
from tests.contract.events import organiser, page_as, round_one, seated_entrants

SEED = 20261127
PLAYING = [game_id for game_id in GAME_IDS if get_game(game_id).offers_table_play()]


def _addresses(tournament) -> list[str]:
    return [
        reverse("broadcast:table", args=[tournament.slug, 1]),
        reverse("broadcast:state", args=[tournament.slug, 1]),
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("game_id", PLAYING)
def test_before_the_table_is_complete_only_organisers_press_and_its_recorder_see_it(game_id):
    tournament, featured = featured_event(game_id, f"gate-{game_id}")
    recorder = recorder_client(tournament, featured)
    rng = random.Random(f"{SEED}:{game_id}")
    print("seed", SEED)
    board = state(recorder, tournament)
    for _ in range(3):  # a few actions: something to leak
        board = act(recorder, tournament, board, rng.choice(board["options"])["action"]).json()[
            "board"
        ]
    first, other = round_one(tournament)[:2]
    readers = {
        "public": Client(),
        "North of another table": page_as(seated_entrants(other)["N"]),
        "a seat of the featured table": page_as(seated_entrants(first)["N"]),
    }
    for who, client in readers.items():
        for address in _addresses(tournament):
            answer = client.get(address)
            assert answer.status_code in (403, 404), f"{who} at {address}"
            assert b'"hands"' not in answer.content
    director, _user = organiser()
    for who, client in {
        "organiser": director,
        "press": press_client(),
        "recorder": recorder,
    }.items():
        page = client.get(_addresses(tournament)[0])
        assert page.status_code == 200, who
        live = client.get(_addresses(tournament)[1]).json()
        assert live["board"]["view"]["hands"], who
        assert live["board"]["step"] == 3
    assert 1 not in visibility.complete_tables(tournament)


@pytest.mark.django_db
@pytest.mark.parametrize("game_id", PLAYING)
def test_once_the_table_is_complete_the_public_replays_every_recorded_board(game_id):
    tournament, featured = featured_event(game_id, f"done-{game_id}")
    recorder = recorder_client(tournament, featured)
    rng = random.Random(f"{SEED}:{game_id}:done")
    board = play_out(recorder, tournament, rng)
    simulate_tournament(tournament, rounds=None, seed="broadcast")
    assert 1 in visibility.complete_tables(tournament)
    public = Client()
    assert public.get(_addresses(tournament)[0]).status_code == 200
    where = {"match": board["match"], "board": board["board"]}
    final = public.get(_addresses(tournament)[1], where).json()["board"]
    assert final["over"] and final["view"]["result"]
    # Card by card: each step shows the play after that many actions.
    halfway = public.get(_addresses(tournament)[1], {**where, "step": final["actions"] // 2})
    shown = halfway.json()["board"]
    assert shown["step"] == final["actions"] // 2
    assert not shown["over"]
    cards = sum(len(trick["cards"]) for trick in shown["view"]["tricks"])
    cards += len((shown["view"]["current"] or {}).get("cards", []))
    total = sum(len(trick["cards"]) for trick in final["view"]["tricks"])
    assert cards < total


@pytest.mark.django_db
def test_the_broadcast_answers_304_while_nothing_changed_and_200_after_a_card():
    tournament, featured = featured_event("pymtheg", "etag")
    recorder = recorder_client(tournament, featured)
    director, _user = organiser()
    address = _addresses(tournament)[1]
    board = state(recorder, tournament)
    act(recorder, tournament, board, board["options"][1]["action"])
    first = director.get(address)
    etag = first["ETag"]
    assert director.get(address, HTTP_IF_NONE_MATCH=etag).status_code == 304
    board = state(recorder, tournament)
    act(recorder, tournament, board, board["options"][0]["action"])
    changed = director.get(address, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert changed.json()["board"]["step"] == 2


@pytest.mark.django_db
def test_pages_render_and_a_table_not_featured_is_not_found():
    tournament, featured = featured_event("pyramid", "pages")
    director, _user = organiser()
    assert director.get(reverse("broadcast:list", args=[tournament.slug])).status_code == 200
    assert Client().get(reverse("broadcast:list", args=[tournament.slug])).status_code == 200
    assert director.get(reverse("broadcast:table", args=[tournament.slug, 2])).status_code == 404
    assert director.get(reverse("broadcast:state", args=[tournament.slug, 2])).status_code == 404
    featured_page = director.get(reverse("broadcast:featured", args=[tournament.slug]))
    assert featured.recorder_code.encode() in featured_page.content
    # Only organisers manage featured tables.
    assert (
        press_client().get(reverse("broadcast:featured", args=[tournament.slug])).status_code == 403
    )


@pytest.mark.django_db
def test_an_organiser_accredits_and_withdraws_press():
    from django.contrib.auth.models import User

    director, _user = organiser()
    journalist = User.objects.create_user("journalist", password="x")
    tournament, _featured = featured_event("pymtheg", "press")
    url = reverse("broadcast:featured", args=[tournament.slug])
    director.post(url, {"action": "grant-press", "username": "journalist"})
    assert visibility.is_press(journalist)
    director.post(url, {"action": "revoke-press", "username": "journalist"})
    assert not visibility.is_press(User.objects.get(pk=journalist.pk))
    answer = director.post(url, {"action": "grant-press", "username": "nobody"}, follow=True)
    assert b"no account" in answer.content


@pytest.mark.django_db
def test_without_analysis_the_page_says_it_is_not_available_yet():
    tournament, featured = featured_event("pymtheg", "no-dd")
    recorder = recorder_client(tournament, featured)
    board = state(recorder, tournament)
    assert board["analysis"] == {
        "available": False,
        "note": analysis.NOT_AVAILABLE,
        "counts": {},
        "cost": [],
        "pending": 0,
    }


@pytest.mark.django_db
@pytest.mark.skipif(not analysis.solver_available(), reason="the solver is not built")
def test_the_analysis_counts_every_card_and_marks_those_that_cost_a_trick(settings):
    settings.BROADCAST_ANALYSIS = "inline"
    tournament, featured = featured_event("pyramid", "dd")
    recorder = recorder_client(tournament, featured)
    rng = random.Random(f"{SEED}:dd")
    board = play_out(recorder, tournament, rng)
    director, _user = organiser()
    where = {"match": board["match"], "board": board["board"]}
    shown = director.get(_addresses(tournament)[1], where).json()["board"]
    result = shown["analysis"]
    assert result["available"] and not result["pending"]
    counts = {int(step): count for step, count in result["counts"].items()}
    cards = 6 * tournament.table_size
    assert len(counts) == cards + 1  # before the lead and after every card
    # The count at the end is what the declarer took.
    assert counts[shown["actions"]] == shown["view"]["side_won"]
    steps = sorted(counts)
    declarer = shown["view"]["declarer"]
    seats = [card["seat"] for trick in shown["view"]["tricks"] for card in trick["cards"]]
    for index, (before, after) in enumerate(itertools.pairwise(steps)):
        mine = seats[index] == declarer
        worse = counts[after] < counts[before] if mine else counts[after] > counts[before]
        assert (after in result["cost"]) == worse
        # Best play never lets the count move towards the side that played the card.
        better = counts[after] > counts[before] if mine else counts[after] < counts[before]
        assert not better


@pytest.mark.django_db
@pytest.mark.skipif(not analysis.solver_available(), reason="the solver is not built")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_count_before_the_lead_is_the_engine_s_sure_tricks_of_the_declarer(players):
    from engine.games.pyramid.solver import sure_tricks

    game = get_game("pyramid")
    for board in range(1, 4):
        dealer = game.dealer(board, players)
        deal = game.seeded_deal(SEED, 1, board, players)
        play = game.table_play(deal, settings={}, table=1, players=players, dealer=dealer)
        trump = ("spades", "hearts", "diamonds", "clubs", "nt")[board % 5]
        actions = [play.options()[0]["action"], f"trump:{trump}"]

        def start(deal=deal, dealer=dealer):
            return game.table_play(deal, settings={}, table=1, players=players, dealer=dealer)

        count = analysis.value(start, actions)
        declarer = play.view()["declarer"]
        assert count == sure_tricks(deal)[declarer][trump]


def _minimax(play) -> int:
    """The declarer's side's final tricks with best play, by trying every legal card."""
    import copy

    if play.over:
        return play.view()["side_won"]
    view = play.view()
    results = []
    for option in play.options():
        child = copy.deepcopy(play)
        child.apply(option["action"])
        results.append(_minimax(child))
    return max(results) if view["to_act"] in view["declarer_side"] else min(results)


@pytest.mark.django_db
@pytest.mark.skipif(not analysis.solver_available(), reason="the solver is not built")
@pytest.mark.parametrize("game_id", PLAYING)
def test_the_count_near_the_end_is_what_trying_every_card_gives(game_id):
    """The last two tricks, counted by the solver from the game's position and within a
    trick by trying the cards, against trying every card to the end (both rulesets'
    under-trump rules for Pymtheg)."""
    import copy

    game = get_game(game_id)
    rng = random.Random(f"{SEED}:{game_id}:end")
    print("seed", SEED)
    checked = 0
    for settings in ({}, {"ruleset": "rules-1709"}) if game_id == "pymtheg" else ({},):
        for board in range(1, 7):
            players = max(game.table_sizes)
            dealer = game.dealer(board, players)
            deal = game.seeded_deal(SEED, 3, board, players)
            rules = game.settings(settings)
            base = game.table_play(deal, settings=rules, table=1, players=players, dealer=dealer)
            play = copy.deepcopy(base)
            actions: list[str] = []
            total = play.view()["rules"]["tricks"]
            while not play.over and len(play.view()["tricks"]) < total - 2:
                options = [option["action"] for option in play.options()]
                if options[0].startswith("call:"):
                    bids = [a for a in options if a.startswith(("call:G", "call:L"))]
                    action = rng.choice(bids) if not actions and bids else "call:P"
                else:
                    action = rng.choice(options)
                play.apply(action)
                actions.append(action)
            if play.over:
                continue
            for _card in range(players):  # at the trick's start, then within it
                expected = _minimax(copy.deepcopy(play))
                assert analysis.value(lambda base=base: copy.deepcopy(base), actions) == expected
                action = rng.choice(play.options())["action"]
                play.apply(action)
                actions.append(action)
                checked += 1
    assert checked >= 12
