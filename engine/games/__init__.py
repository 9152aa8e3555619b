"""The games the engine knows, found by id (GAMES.md).

Each game is a package ``engine.games.<id>`` whose module ``game`` holds ``GAME``. Games are
imported on first use, so a command that needs one game loads only that one.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from functools import cache
from pathlib import Path

from engine.games.base import PAIRS, PLAYERS, Game

__all__ = [
    "DEFAULT_GAME",
    "GAME_IDS",
    "PAIRS",
    "PLAYERS",
    "Game",
    "UnknownGame",
    "game_ids",
    "game_static_folders",
    "get_game",
    "register_game",
]

DEFAULT_GAME = "pymtheg"


def _game_packages() -> tuple[str, ...]:
    """Every package of this folder with a ``game`` module; the default game first."""
    found = [
        module.name
        for module in pkgutil.iter_modules(__path__)
        if module.ispkg and importlib.util.find_spec(f"{__name__}.{module.name}.game") is not None
    ]
    return tuple(sorted(found, key=lambda game_id: (game_id != DEFAULT_GAME, game_id)))


GAME_IDS = _game_packages()


def game_static_folders() -> list[tuple[str, Path]]:
    """``(prefix, folder)`` of each game's static files (its entry script and style), served
    under ``games/<id>/``: a game's web files live in its own package."""
    here = Path(__file__).resolve().parent
    return [
        (f"games/{game_id}", here / game_id / "static")
        for game_id in GAME_IDS
        if (here / game_id / "static").is_dir()
    ]


class UnknownGame(KeyError):
    def __str__(self) -> str:
        return str(self.args[0])


#: Games from outside this folder, registered by the program that runs them (the test suite
#: registers a game of its own this way; the product ships only the packages above).
_REGISTERED: dict[str, Game] = {}


def register_game(game: Game) -> None:
    """Make a game that lives outside ``engine.games`` known by its id, after the shipped
    ones. An id may be registered once."""
    if game.id in GAME_IDS or game.id in _REGISTERED:
        raise ValueError(f"a game {game.id!r} is known already")
    _REGISTERED[game.id] = game


def game_ids() -> tuple[str, ...]:
    """Every game known now: the shipped packages (the default first), then registered ones."""
    return GAME_IDS + tuple(_REGISTERED)


@cache
def _shipped_game(game_id: str) -> Game:
    game: Game = importlib.import_module(f"engine.games.{game_id}.game").GAME
    return game


def get_game(game_id: str) -> Game:
    """The game with this id; ``UnknownGame`` lists the known ones."""
    if game_id in _REGISTERED:
        return _REGISTERED[game_id]
    if game_id not in GAME_IDS:
        raise UnknownGame(f"unknown game {game_id!r} (known: {', '.join(game_ids())})")
    return _shipped_game(game_id)
