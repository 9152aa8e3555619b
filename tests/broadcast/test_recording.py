"""Featured tables: featuring asks the game for its play rules; the recorder's code; legal and
illegal actions, undo and re-sent actions through the recorder's endpoint; the facts recorded
become North's draft and score as the engine scores them."""

from __future__ import annotations

import json
import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from broadcast import services
from broadcast.models import RecordedAction, Recording
from engine.games import GAME_IDS, get_game
from tests.broadcast.helpers import act, featured_event, play_out, recorder_client, state
from tests.contract.events import build_event, organiser, page_as, seated_entrants
from tournaments.models import Match
from tournaments.services import start_tournament

SEED = 20261127
PLAYING = [game_id for game_id in GAME_IDS if get_game(game_id).offers_table_play()]
NOT_PLAYING = [game_id for game_id in GAME_IDS if not get_game(game_id).offers_table_play()]


@pytest.mark.django_db
@pytest.mark.parametrize("game_id", NOT_PLAYING)
def test_a_game_without_play_rules_cannot_be_featured_and_the_page_says_why(game_id):
    tournament = build_event(game_id, f"np-{game_id}")
    client, user = organiser()
    with pytest.raises(services.BroadcastError, match="play rules"):
        services.feature_table(by=user, tournament=tournament, number=1)
    page = client.get(reverse("broadcast:featured", args=[tournament.slug]))
    assert page.status_code == 200
    assert b"data-featuring-problem" in page.content
    assert b"play rules" in page.content


@pytest.mark.django_db
@pytest.mark.parametrize("game_id", PLAYING)
def test_the_organiser_features_a_table_and_gives_it_a_new_code(game_id):
    tournament = build_event(game_id, f"ft-{game_id}")
    client, _user = organiser()
    url = reverse("broadcast:featured", args=[tournament.slug])
    answer = client.post(url, {"action": "feature", "table": "1"}, follow=True)
    assert b"data-recorder-code" in answer.content
    featured = tournament.tables.get(number=1).featured
    old = featured.recorder_code
    recorder = recorder_client(tournament, featured)
    assert (
        recorder.get(reverse("broadcast:recorder-state", args=[tournament.slug])).status_code == 200
    )
    client.post(url, {"action": "new-code", "table": "1"})
    featured.refresh_from_db()
    assert featured.recorder_code != old
    # The old code no longer works, on a tablet signed in with it either.
    assert (
        recorder.get(reverse("broadcast:recorder-state", args=[tournament.slug])).status_code == 403
    )
    # Dashboard links to the page.
    dashboard = client.get(reverse("tournaments:dashboard", args=[tournament.slug]))
    assert url.encode() in dashboard.content


@pytest.mark.django_db
def test_a_wrong_recorder_code_is_refused_and_signs_nobody_in():
    tournament, featured = featured_event("pymtheg", "rc-wrong")
    client = Client()
    answer = client.get(
        reverse("broadcast:recorder", args=[tournament.slug]), {"code": "WRONGCODE2"}
    )
    assert answer.status_code == 403
    assert b"data-code-error" in answer.content
    assert (
        client.get(reverse("broadcast:recorder-state", args=[tournament.slug])).status_code == 403
    )
    # A team's access code is not a recorder's code.
    entrant_code = (
        Match.objects.filter(table__tournament=tournament).first().north_entrant.access_code
    )
    answer = client.get(
        reverse("broadcast:recorder", args=[tournament.slug]), {"code": entrant_code}
    )
    assert answer.status_code == 403
    # The right one, typed in lower case with spaces, signs in.
    typed = " ".join(featured.recorder_code.lower())
    client.get(reverse("broadcast:recorder", args=[tournament.slug]), {"code": typed})
    page = client.get(reverse("broadcast:recorder", args=[tournament.slug]))
    assert page.status_code == 200 and b"recorder-config" in page.content


@pytest.mark.django_db
@pytest.mark.parametrize("game_id", PLAYING)
def test_the_recorder_sees_the_four_hands_of_the_deal_on_file(game_id):
    tournament, featured = featured_event(game_id, f"hands-{game_id}")
    client = recorder_client(tournament, featured)
    board = state(client, tournament)
    game = tournament.game_rules
    deal = featured.table.boards.get(number=board["board"]).parsed()
    held = {card["code"] for cards in board["view"]["hands"].values() for card in cards}
    assert len(held) == sum(len(cards) for cards in board["view"]["hands"].values())
    assert len(board["view"]["hands"]) == tournament.table_size
    assert board["options"], "the first action is offered"
    assert game.format_deal(deal)  # the deal on file is what the hands come from
    page = client.get(reverse("broadcast:recorder", args=[tournament.slug]))
    assert page.status_code == 200


def _to_play(client, tournament):
    """The first board of table 1 up to its first card."""
    board = state(client, tournament)
    taken = 0
    while board["view"]["phase"] != "play":
        options = [option["action"] for option in board["options"]]
        bids = [action for action in options if action != "call:P"]
        choice = bids[0] if taken == 0 or not options[0].startswith("call:") else "call:P"
        board = act(client, tournament, board, choice).json()["board"]
        taken += 1
    return board


@pytest.mark.django_db
@pytest.mark.parametrize("game_id", PLAYING)
def test_an_illegal_card_is_refused_before_it_is_stored(game_id):
    tournament, featured = featured_event(game_id, f"ill-{game_id}")
    client = recorder_client(tournament, featured)
    board = _to_play(client, tournament)
    lead = board["options"][0]["action"]
    board = act(client, tournament, board, lead).json()["board"]
    seat = board["view"]["to_act"]
    legal = {option["action"] for option in board["options"]}
    held = {f"card:{card['code']}" for card in board["view"]["hands"][seat]}
    other = next(s for s in board["view"]["hands"] if s != seat)
    refused = sorted(held - legal) or [f"card:{board['view']['hands'][other][0]['code']}"]
    stored = RecordedAction.objects.count()
    answer = act(client, tournament, board, refused[0])
    assert answer.status_code == 400
    assert answer.json()["error"]
    assert RecordedAction.objects.count() == stored
    assert state(client, tournament)["step"] == board["step"]
    # Nonsense is refused alike.
    assert act(client, tournament, board, "card:ZZ").status_code == 400
    assert act(client, tournament, board, "call:P").status_code == 400
    assert RecordedAction.objects.count() == stored


@pytest.mark.django_db
def test_undo_takes_back_the_last_action_and_a_resent_action_is_taken_once():
    tournament, featured = featured_event("pymtheg", "undo")
    client = recorder_client(tournament, featured)
    board = _to_play(client, tournament)
    before = board["view"]
    card = board["options"][0]["action"]
    first = act(client, tournament, board, card, client_id="tablet-card-0001")
    assert first.status_code == 200 and not first.json()["repeated"]
    # The answer was lost: the tablet sends it again with the same client id.
    again = act(client, tournament, board, card, client_id="tablet-card-0001")
    assert again.status_code == 200 and again.json()["repeated"]
    assert again.json()["board"]["step"] == first.json()["board"]["step"]
    assert RecordedAction.objects.filter(client_id="tablet-card-0001").count() == 1
    after = first.json()["board"]
    undone = act(client, tournament, after, "undo", client_id="tablet-undo-0001")
    assert undone.status_code == 200
    assert undone.json()["board"]["view"] == before
    # The undo re-sent does not take back a second action.
    assert act(client, tournament, after, "undo", client_id="tablet-undo-0001").json()["repeated"]
    assert state(client, tournament)["view"] == before
    # A client id too short is refused.
    assert act(client, tournament, after, card, client_id="x").status_code == 400


@pytest.mark.django_db
@pytest.mark.parametrize("game_id", PLAYING)
def test_the_recorded_board_is_north_s_draft_and_scores_as_the_engine_does(game_id):
    tournament, featured = featured_event(game_id, f"draft-{game_id}")
    _client, user = organiser()
    start_tournament(by=user, tournament=tournament, accept_problems=True)
    client = recorder_client(tournament, featured)
    rng = random.Random(f"{SEED}:{game_id}")
    print("seed", SEED)
    board = play_out(client, tournament, rng)
    recording = Recording.objects.get(match_id=board["match"], board=board["board"])
    assert recording.over and recording.facts
    match = recording.match
    north = seated_entrants(match)["N"]
    page = page_as(north).get(reverse("scorer-entry", args=[tournament.slug]))
    draft_id = f"draft-m{match.pk}-b{recording.board}"
    found = re.search(
        rf'<script id="{draft_id}" type="application/json">(.*?)</script>', page.content.decode()
    )
    assert found, "North's page carries the recorded board as his draft"
    assert json.loads(found.group(1)) == recording.facts
    # North sends it, East accepts: the result is the engine's score of the recorded play.
    sent = Client(HTTP_X_TEAM_CODE=match.north_entrant.access_code).post(
        reverse("api:submit", args=[tournament.slug, match.pk, recording.board]),
        {"record": recording.facts, "client_id": f"recorded-{match.pk}-{recording.board}"},
        content_type="application/json",
    )
    assert sent.status_code in (200, 201), sent.content
    game = tournament.game_rules
    board_row = featured.table.boards.get(number=recording.board)
    record = game.entry_record(
        recording.facts,
        settings=tournament.rules,
        table=1,
        players=tournament.table_size,
        dealer=board_row.dealer,
        deal="",
    )
    expected = game.score(record, tournament.rules)
    submission = match.submissions.order_by("-pk").first()
    assert submission.score == expected
    # The facts are what the play gave: replaying the stored actions gives the same.
    replayed = services.table_play(recording)
    assert replayed.facts() == recording.facts
