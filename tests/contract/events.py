"""Small tournaments of any registered game, built through the organiser's services, and the
readers that probe them: the public, every seat of a match by its access code, the organiser.

Nothing here names a game: what differs (pairs or players, table sizes, boards a table) is
asked of the game itself, so a game added to the registry is covered as it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from rest_framework.test import APIClient

from engine.games import PAIRS, get_game
from operations.simulation import north_facts
from tests.tournaments.factories import OrganiserFactory
from tournaments import services
from tournaments.imports import EntrantRow
from tournaments.models import Entrant, Match, Tournament

TABLES = 2
BOARDS = 2


def table_size(game_id: str) -> int:
    """Four where the game allows it (every seat N, E, S, W is probed), else its largest."""
    sizes = get_game(game_id).table_sizes
    return 4 if 4 in sizes else max(sizes)


def build_event(game_id: str, slug: str, seed: str = "contract-a") -> Tournament:
    """A scheduled tournament of ``game_id``: 2 tables, entrants for two rounds, dealt from
    ``seed``; nothing played."""
    game = get_game(game_id)
    size = table_size(game_id)
    # Two boards a table where the organiser chooses; a game that fixes the number keeps it.
    settings: dict[str, Any] = {"boards_per_table": BOARDS}
    if game.entrants != PAIRS:
        settings["table_size"] = size
    tournament = services.create_tournament(
        by=None, name=f"Contract {game.title}", slug=slug, tables=TABLES, game=game_id, **settings
    )
    entrants = 2 * TABLES if game.entrants == PAIRS else size * TABLES
    rows = [
        EntrantRow(n, n, f"Entrant {n}", *((f"P{n}a", f"P{n}b") if game.entrants == PAIRS else ()))
        for n in range(1, entrants + 1)
    ]
    services.import_teams(by=None, tournament=tournament, rows=rows)
    services.draw_schedule(by=None, tournament=tournament)
    services.deal_boards(by=None, tournament=tournament, seed=seed)
    tournament.refresh_from_db()
    return tournament


def deal_again(tournament: Tournament, seed: str) -> None:
    services.deal_boards(by=None, tournament=tournament, seed=seed, replace=True)


def board_facts(match: Match, number: int, seed: str = "contract") -> dict[str, Any]:
    """What North enters for a board as a simple legal player plays its deal on file."""
    return north_facts(match, match.table.boards.get(number=number), seed)


def seated_entrants(match: Match) -> dict[str, Entrant]:
    """The entrants at a match by seat (a pair at both of its seats' letters N and E)."""
    found = {seat.seat: seat.entrant for seat in match.seats.select_related("entrant")}
    return found or {"N": match.north_entrant, "E": match.east_entrant}


def round_one(tournament: Tournament) -> list[Match]:
    return list(
        Match.objects.filter(table__tournament=tournament, round=1)
        .select_related("table", "north_entrant", "east_entrant")
        .order_by("table__number")
    )


def later_match_at(match: Match) -> Match | None:
    """A match of a later round at the same table: its entrants are still to play the deals."""
    return (
        Match.objects.filter(table=match.table, round__gt=match.round)
        .select_related("table", "north_entrant", "east_entrant")
        .order_by("round")
        .first()
    )


def api_as(entrant: Entrant) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_X_TEAM_CODE=entrant.access_code)
    return client


def page_as(entrant: Entrant) -> Client:
    """A browser signed in as ``entrant`` on the scorer's pages (its route card's QR code)."""
    client = Client()
    client.get(
        reverse("scorer-entry", args=[entrant.tournament.slug]), {"code": entrant.access_code}
    )
    return client


def organiser() -> tuple[Client, Any]:
    """A browser signed in as an organiser (the director), and the user."""
    user = OrganiserFactory()
    client = Client()
    client.force_login(user)
    return client, user


# -- every route a reader may ask ------------------------------------------------------------


@dataclass(frozen=True)
class Route:
    name: str  # namespaced, for reverse()
    keys: frozenset[str]


def _walk(patterns: list[Any], namespace: str = "") -> list[Route]:
    found = []
    for entry in patterns:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            found.extend(_walk(entry.url_patterns, inner))
        elif isinstance(entry, URLPattern) and entry.name:
            keys = frozenset(re.findall(r"\(\?P<(\w+)>", entry.pattern.regex.pattern))
            found.append(Route(f"{namespace}{entry.name}", keys))
    return found


def tournament_routes() -> list[Route]:
    """Every named route of the product that takes a tournament's slug, whatever app it
    lives in: a page or endpoint added later is probed without being listed here."""
    return [route for route in _walk(get_resolver().url_patterns) if "slug" in route.keys]


def fill(route: Route, values: dict[str, Any]) -> str | None:
    """The route's address with ``values`` for its parameters; None when one is missing."""
    if not route.keys <= set(values):
        return None
    return reverse(route.name, kwargs={key: values[key] for key in route.keys})
