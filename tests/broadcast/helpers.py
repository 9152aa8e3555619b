"""A tournament with a featured table, a recorder signed in, and a board played through the
recorder's endpoint with a seeded choice of actions."""

from __future__ import annotations

import json
import random
import uuid
from typing import Any

from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from broadcast import services
from broadcast.models import FeaturedTable
from scoring.visibility import PRESS_GROUP
from tests.contract.events import build_event, organiser
from tournaments.models import Tournament


def featured_event(game_id: str, slug: str) -> tuple[Tournament, FeaturedTable]:
    tournament = build_event(game_id, slug)
    _client, user = organiser()
    return tournament, services.feature_table(by=user, tournament=tournament, number=1)


def recorder_client(tournament: Tournament, featured: FeaturedTable) -> Client:
    client = Client()
    client.get(
        reverse("broadcast:recorder", args=[tournament.slug]), {"code": featured.recorder_code}
    )
    return client


def press_client() -> Client:
    from django.contrib.auth.models import Group

    user = User.objects.create_user(f"press-{uuid.uuid4().hex[:6]}", password="x")
    user.groups.add(Group.objects.get_or_create(name=PRESS_GROUP)[0])
    client = Client()
    client.force_login(user)
    return client


def state(client: Client, tournament: Tournament, **query: Any) -> dict[str, Any]:
    answer = client.get(reverse("broadcast:recorder-state", args=[tournament.slug]), query)
    assert answer.status_code == 200, answer.content
    return answer.json()["board"]


def act(
    client: Client,
    tournament: Tournament,
    board: dict[str, Any],
    action: str,
    client_id: str | None = None,
):
    body = {
        "match": board["match"],
        "board": board["board"],
        "action": action,
        "client_id": client_id or uuid.uuid4().hex,
    }
    return client.post(
        reverse("broadcast:recorder-action", args=[tournament.slug]),
        json.dumps(body),
        content_type="application/json",
    )


def choose(board: dict[str, Any], rng: random.Random, taken: int) -> str:
    """A bid first in an auction, then passes; any legal choice otherwise."""
    options = [option["action"] for option in board["options"]]
    if options and options[0].startswith("call:"):
        bids = [action for action in options if action != "call:P"]
        return rng.choice(bids) if taken == 0 and bids else "call:P"
    return rng.choice(options)


def play_out(client: Client, tournament: Tournament, rng: random.Random, **where: Any):
    board = state(client, tournament, **where)
    taken = 0
    while not board["over"]:
        answer = act(client, tournament, board, choose(board, rng, taken))
        assert answer.status_code == 200, answer.content
        board = answer.json()["board"]
        taken += 1
    return board
