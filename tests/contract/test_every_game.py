"""The contract every registered game keeps, run for each game the registry finds.

No game is named here: a fifth game added to ``engine.games`` is covered without a test of
its own. Per game: its deal notation round-trips; a simple legal player's boards score from
what a scorer would enter, read without the deal, and agree with the deal; and the promise of
duplicate play holds over HTTP (docs/rulebook.md §10, docs/games.md "What the phone may
learn"):

- before anything is played, no answer to any reader (the public, every seat of a match,
  North of another table) over any page or endpoint of the tournament depends on the deals:
  dealing every board again changes nothing any of them is shown;
- North's entry is answered with what he entered and nothing of the deal, and no reader learns
  a hand, before or after it;
- once East accepts, the match's players see the deal they played; the entrants still to
  play it, the public and other tables do not;
- an entry that disagrees with the deal is stored as entered and goes to the director, and the
  table is told only that the director has been called.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from engine.games import game_ids, get_game
from scoring import services as scoring
from scoring import states
from scoring.errors import InvalidEntry
from scoring.models import Review, Submission
from tests.contract.events import (
    BOARDS,
    board_facts,
    build_event,
    deal_again,
    fill,
    later_match_at,
    organiser,
    round_one,
    seated_entrants,
    tournament_routes,
)
from tournaments.models import Board, Match, Tournament

SEED = 20261127  # every random choice below follows from it
GAMES = pytest.mark.parametrize("game_id", game_ids())


def _rng(*parts: Any) -> random.Random:
    return random.Random(":".join(map(str, (SEED, *parts))))


# -- the engine's side ----------------------------------------------------------------------


@GAMES
def test_deal_notation_round_trips(game_id):
    game = get_game(game_id)
    for players in game.table_sizes:
        for board in range(1, 9):
            deal = game.seeded_deal(SEED, 1, board, players)
            text = game.format_deal(deal)
            assert game.format_deal(game.parse_deal(text)) == text
            assert (
                game.deal_problem(
                    game.parse_deal(text), players=players, dealer=game.dealer(board, players)
                )
                is None
            )
            assert text[0] in "NESW" and text[1] == ":"


@GAMES
def test_each_setting_has_a_label_of_its_own(game_id):
    """One label per idea on the organiser's forms: no two settings share a label, and no
    label only adds an article to another ("Opening seat", "The opening seat")."""
    labels = [field.label for field in get_game(game_id).setting_fields]
    bare = [re.sub(r"^(the|a|an) ", "", label.lower()) for label in labels]
    assert len(set(bare)) == len(bare), labels


@GAMES
def test_what_a_scorer_enters_scores_without_the_deal_and_agrees_with_it(game_id):
    """The simulation's North enters what happened (``scorer_facts``); read without the deal
    it is a valid entry, and the deal on file gives the same score."""
    game = get_game(game_id)
    settings = game.settings({})
    checked = 0
    for players in game.table_sizes:
        for board in range(1, 13):
            dealer = game.dealer(board, players)
            deal = game.seeded_deal(SEED, 2, board, players)
            record = game.simulate_record(
                deal, _rng(game_id, players, board), settings, players=players, dealer=dealer
            )
            facts = game.scorer_facts(record, game.score(record))
            context = {"settings": settings, "table": 1, "players": players, "dealer": dealer}
            entered = game.entry_record(facts, deal="", **context)
            assert "deal" not in entered
            score = game.score(entered)
            assert game.entry_problem(entered, score) is None
            with_deal = game.entry_record(facts, deal=game.format_deal(deal), **context)
            assert game.deal_disagreement(with_deal, score) is None, (players, board, facts)
            checked += 1
    assert checked == 12 * len(game.table_sizes)


# -- readers and what they are shown ---------------------------------------------------------


def _secrets(tournament: Tournament) -> list[str]:
    """Every deal of the tournament as written and each of its hands in words."""
    game = tournament.game_rules
    found = []
    for board in Board.objects.filter(table__tournament=tournament).exclude(deal=""):
        found.append(board.deal)
        found.extend(
            cards for _whose, cards in game.hands_in_words(board.parsed()) if len(cards) > 8
        )
    return found


_VOLATILE = [
    re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"'),
    re.compile(r'nonce="[^"]*"'),
]


def _normal(body: bytes) -> str:
    text = body.decode("utf-8", "replace")
    for pattern in _VOLATILE:
        text = pattern.sub("", text)
    return text


class Readers:
    """The public, each seat of table 1's first match, North of table 2, each with a phone
    that carries its access code (API) and is signed in (pages)."""

    def __init__(self, tournament: Tournament):
        first, other = round_one(tournament)[:2]
        self.match, self.other = first, other
        self.clients: dict[str, Client] = {"public": Client()}
        for seat, entrant in seated_entrants(first).items():
            self.clients[f"seat {seat}"] = self._phone(entrant)
        self.clients["North of table 2"] = self._phone(seated_entrants(other)["N"])

    @staticmethod
    def _phone(entrant) -> Client:
        client = Client(HTTP_X_TEAM_CODE=entrant.access_code)
        client.get(
            reverse("scorer-entry", args=[entrant.tournament.slug]), {"code": entrant.access_code}
        )
        return client


def _addresses(tournament: Tournament, readers: Readers) -> list[str]:
    """Every page and endpoint of the tournament, filled with real matches, boards, tables and
    entrants (a route with a parameter this cannot fill is left out and counted)."""
    values: list[dict[str, Any]] = []
    base = {"slug": tournament.slug, "pk": 1, "submission_id": 1}
    for match in (readers.match, readers.other):
        for board in range(1, BOARDS + 1):
            values.append({**base, "match_id": match.pk, "board": board, "table": 1})
    for number in (1, 2):
        values.append({**base, "number": number})
    addresses = []
    for route in tournament_routes():
        for filled in {fill(route, chosen) for chosen in values} - {None}:
            addresses.append(filled)
    addresses.append(reverse("api:legal-calls", args=[tournament.slug]) + "?table=1")
    return sorted(set(addresses))


def _shown(tournament: Tournament, readers: Readers) -> dict[tuple[str, str], str]:
    shown = {}
    for who, client in readers.clients.items():
        for address in _addresses(tournament, readers):
            shown[(who, address)] = _normal(client.get(address).content)
    return shown


def _leaks(shown: dict[tuple[str, str], str], secrets: list[str]) -> list[str]:
    return [
        f"{who} at {address}"
        for (who, address), text in shown.items()
        if any(secret in text for secret in secrets)
    ]


@GAMES
@pytest.mark.django_db
def test_before_play_nothing_any_reader_is_shown_depends_on_the_deals(game_id):
    tournament = build_event(game_id, f"probe-{game_id}", seed="contract-a")
    readers = Readers(tournament)
    first = readers.match
    facts = board_facts(first, 1)
    preview = reverse("api:preview", args=[tournament.slug, first.pk, 1])
    north = readers.clients["seat N"]

    before, secrets = _shown(tournament, readers), _secrets(tournament)
    previewed = north.post(preview, {"record": facts}, content_type="application/json")
    deal_again(tournament, "contract-b")
    after, secrets_b = _shown(tournament, readers), _secrets(tournament)
    previewed_b = north.post(preview, {"record": facts}, content_type="application/json")

    assert len({address for _who, address in before}) >= 30
    assert not _leaks(before, secrets) and not _leaks(after, secrets_b)
    changed = [key for key in before if before[key] != after[key]]
    assert not changed, f"dealing again changed what is shown: {changed[:5]}"
    assert previewed.status_code == 200, previewed.content
    assert previewed.content == previewed_b.content


def _enter(tournament: Tournament, match: Match, number: int, facts: dict[str, Any]):
    north = Client(HTTP_X_TEAM_CODE=match.north_entrant.access_code)
    return north.post(
        reverse("api:submit", args=[tournament.slug, match.pk, number]),
        {"record": facts, "client_id": f"contract-{match.pk}-{number}"},
        content_type="application/json",
    )


def _accept(tournament: Tournament, match: Match, number: int, submission_id: int):
    east = Client(HTTP_X_TEAM_CODE=match.east_entrant.access_code)
    return east.post(
        reverse("api:accept", args=[tournament.slug, match.pk, number, submission_id]),
        {"client_id": f"contract-accept-{match.pk}-{number}"},
        content_type="application/json",
    )


def _me(tournament: Tournament, entrant) -> dict[str, Any]:
    client = Client(HTTP_X_TEAM_CODE=entrant.access_code)
    answer = client.get(reverse("api:me", args=[tournament.slug]))
    assert answer.status_code == 200
    return answer.json()


def _hands_shown(me: dict[str, Any]) -> dict[tuple[int, int], Any]:
    return {
        (match["id"], board["board"]): board["hands"]
        for match in me["matches"]
        for board in match["boards"]
    }


@GAMES
@pytest.mark.django_db
def test_north_is_answered_with_what_he_entered_and_the_deal_waits_for_east(game_id):
    tournament = build_event(game_id, f"entry-{game_id}")
    readers = Readers(tournament)
    first = readers.match
    board = first.table.boards.get(number=1)
    facts = board_facts(first, 1)
    secrets = _secrets(tournament)

    answer = _enter(tournament, first, 1, facts)
    assert answer.status_code == 201, answer.content
    entered = scoring.board_record(first, board, facts)
    assert answer.json()["record"] == entered
    scored = tournament.game_rules.score(entered)
    assert answer.json()["score"] == {key: scored[key] for key in answer.json()["score"]}
    assert "deal" not in answer.json()["record"]
    assert not any(secret in answer.content.decode() for secret in secrets)
    assert not _leaks(_shown(tournament, readers), secrets)

    accepted = _accept(tournament, first, 1, answer.json()["id"])
    assert accepted.status_code == 200, accepted.content
    hands = tournament.game_rules.hands_in_words(board.parsed())
    for entrant in seated_entrants(first).values():
        shown = _hands_shown(_me(tournament, entrant))
        assert shown[(first.pk, 1)] == [list(pair) for pair in hands]
        assert shown[(first.pk, 2)] is None  # not played yet
    later = later_match_at(first)
    assert later is not None
    for entrant in seated_entrants(later).values():
        shown = _hands_shown(_me(tournament, entrant))
        assert all(shown[(later.pk, number)] is None for number in range(1, BOARDS + 1))
    # Table 1 still has matches to play: nothing of its deals or results is public.
    public = {k: v for k, v in _shown(tournament, readers).items() if k[0] == "public"}
    assert not _leaks(public, secrets)
    words = tournament.game_rules.describe(answer.json()["score"])
    assert not [key for key, text in public.items() if words in text and "/t/" in key[1]]


def _disagreeing_facts(tournament: Tournament, match: Match, number: int):
    """Facts of this board as played from other deals of the same size and dealer: the first
    that is a valid entry read without the deal and that the deal on file contradicts."""
    game = tournament.game_rules
    board = match.table.boards.get(number=number)
    settings, players = tournament.rules, tournament.table_size
    for attempt in range(200):
        other = game.seeded_deal(f"other-{attempt}", 1, number, players)
        record = game.simulate_record(
            other, _rng("other", attempt), settings, players=players, dealer=board.dealer
        )
        facts = game.scorer_facts(record, game.score(record))
        try:
            _record, score = scoring.score_entry(match, board, facts)
        except InvalidEntry:
            continue
        if scoring.deal_disagreement(match, board, facts, score):
            return facts
    return None


@GAMES
@pytest.mark.django_db
def test_an_entry_the_deal_contradicts_goes_to_the_director_and_the_table_learns_nothing(
    game_id, client
):
    tournament = build_event(game_id, f"disagree-{game_id}")
    first = round_one(tournament)[0]
    facts = _disagreeing_facts(tournament, first, 1)
    if facts is None:
        # A game whose entry takes nothing from the deal cannot disagree with it: every
        # valid entry is then North's to send and East's to check.
        answer = _enter(tournament, first, 1, board_facts(first, 1))
        assert answer.status_code == 201
        assert not Submission.objects.exclude(deal_disagreement="").exists()
        return
    secrets = _secrets(tournament)
    answer = _enter(tournament, first, 1, facts)
    assert answer.status_code == 201, answer.content
    text = answer.content.decode()
    stored = Submission.objects.get(pk=answer.json()["id"])
    assert stored.deal_disagreement and stored.deal_disagreement not in text
    assert not any(secret in text for secret in secrets)
    assert scoring.board_state(first, first.table.boards.get(number=1)).state == states.DISPUTED
    call = Review.objects.get(match=first, action=Review.Action.CALL_DIRECTOR)
    assert call.reason == scoring.DEAL_CHECK_REASON and call.submission_id == stored.pk
    for entrant in seated_entrants(first).values():
        me = json.dumps(_me(tournament, entrant))
        assert stored.deal_disagreement not in me
        assert not any(secret in me for secret in secrets)

    # The director sees entry and deal side by side, and settles it with the entry tools.
    director, user = organiser()
    page = director.get(reverse("scoring:director-board", args=[tournament.slug, first.pk, 1]))
    assert stored.deal_disagreement in page.content.decode()
    assert "the server (the entry disagrees with the deal)" in page.content.decode()
    result = scoring.director_enter_result(
        match_id=first.pk,
        board_number=1,
        user=user,
        facts=board_facts(first, 1),
        reason="established at the table",
        client_id="contract-director-1",
    )
    assert result.current and result.kind == "director"
    with pytest.raises(InvalidEntry):
        scoring.director_enter_result(
            match_id=first.pk,
            board_number=1,
            user=user,
            facts=facts,
            client_id="contract-director-2",
        )


@GAMES
def test_every_choice_a_form_offers_is_an_entry_the_server_takes(game_id):
    """For a game whose entry is a list of choices (``entry_kind == "fields"``), every
    combination of the choices its form offers on a fresh board is a valid entry, read
    without the deal: the phone never offers what the server refuses. Games with an entry of
    their own prove the same of their script in their own property tests."""
    game = get_game(game_id)
    settings = game.settings({})
    combinations = 0
    for players in game.table_sizes:
        for board in range(1, players + 1):
            dealer = game.dealer(board, players)
            context = {"settings": settings, "table": 1, "players": players, "dealer": dealer}
            form = game.entry_form(**context) if game.entry_kind == "fields" else None
            if form is None:
                continue
            fields = [field for field in form["fields"] if field["choices"]]
            names = [field["name"] for field in fields]
            for values in itertools.product(*(field["choices"] for field in fields)):
                facts = dict(zip(names, (value for value, _words in values), strict=True))
                record = game.entry_record(facts, deal="", **context)
                score = game.score(record)
                assert game.entry_problem(record, score) is None
                combinations += 1
    assert (combinations > 0) == (game.entry_kind == "fields")


@pytest.mark.parametrize(
    "game_id",
    [g for g in game_ids() if not get_game(g).offers_analysis(get_game(g).default_settings)],
)
def test_a_game_without_analysis_refuses_to_analyse(game_id):
    from engine.games.base import AnalysisRefused

    game = get_game(game_id)
    deal = game.seeded_deal(SEED, 1, 1, max(game.table_sizes))
    with pytest.raises(AnalysisRefused, match="offers no double-dummy analysis"):
        game.analyse_deal(deal, {}, part="table")
