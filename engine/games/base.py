"""The surface every game offers (GAMES.md), so the generic code never asks which game it is.

A game is one package under ``engine.games`` with a module ``game`` holding ``GAME``, an
instance of a ``Game`` subclass; ``engine.games.get_game`` finds it by id, as python-chess
finds its variants by name.
"""

from __future__ import annotations

import random
import secrets
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from engine.core.errors import SettingsError
from engine.core.seats import table_seats

PAIRS = "pairs"
PLAYERS = "players"


class Game(ABC):
    """One card game: its notation, records, scores, entry and simulation."""

    id: ClassVar[str]
    title: ClassVar[str]
    #: How many players a table of this game may seat.
    table_sizes: ClassVar[tuple[int, ...]]
    #: ``pairs`` (two players share a result, one entrant per side) or ``players``.
    entrants: ClassVar[str]
    #: Settings a tournament may choose, with their defaults (validated by ``settings``).
    default_settings: ClassVar[Mapping[str, Any]] = {}

    # -- seats and boards ------------------------------------------------------------------

    def seats(self, players: int) -> tuple[str, ...]:
        if players not in self.table_sizes:
            sizes = ", ".join(map(str, self.table_sizes))
            raise ValueError(f"{self.title} is played by {sizes} players, not {players}")
        return table_seats(players)

    def dealer(self, board: int, players: int) -> str:
        """The fixed dealer of ``board`` at a table of ``players``: N, E, S, W in turn."""
        return self.seats(players)[(board - 1) % players]

    # -- deals ------------------------------------------------------------------------------

    @abstractmethod
    def parse_deal(self, text: Any) -> Any:
        """A deal in the game's notation; ``DealError`` names the hand and the card."""

    @abstractmethod
    def format_deal(self, deal: Any) -> str:
        """The canonical notation of a deal."""

    @abstractmethod
    def deal_cards(self, rng: random.Random, *, players: int, dealer: str) -> Any:
        """A uniformly shuffled deal for a table of ``players``, dealt by ``dealer``."""

    def seeded_deal(self, seed: str | int, table: int, board: int, players: int) -> Any:
        """The same seed, table and board always give the same deal, on every machine."""
        rng = random.Random(f"{self.id}:{seed}:{table}:{board}")
        return self.deal_cards(rng, players=players, dealer=self.dealer(board, players))

    def random_deal(self, board: int, players: int) -> Any:
        """A deal from the system's secure random source."""
        rng = secrets.SystemRandom()
        return self.deal_cards(rng, players=players, dealer=self.dealer(board, players))

    def generate_deals(
        self, tables: int, boards: int, players: int, seed: str | int | None = None
    ) -> Iterator[tuple[int, int, Any]]:
        """``(table, board, deal)`` for every table and board, seeded or from secure random."""
        if tables < 1 or boards < 1:
            raise ValueError("tables and boards must be at least 1")
        self.seats(players)
        for table in range(1, tables + 1):
            for board in range(1, boards + 1):
                if seed is None:
                    yield table, board, self.random_deal(board, players)
                else:
                    yield table, board, self.seeded_deal(seed, table, board, players)

    def default_boards(self, players: int) -> int:
        """Boards per table the ``deal`` command makes when not told."""
        return 1

    # -- records and scores -----------------------------------------------------------------

    @abstractmethod
    def score(self, record: Any, settings: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The board score of a record (with ``seats``); ``RecordError`` names the field."""

    @abstractmethod
    def describe(self, score: Mapping[str, Any]) -> str:
        """The result of a board score in words, for pages and exports."""

    def totals_entry(self, score: Mapping[str, Any], seat: str) -> tuple[float, int]:
        """What a seat's board adds to its totals standings and to their tie-break.

        By default the seat's table result and no tie-break (GAMES.md, "Totals").
        """
        return score["seats"][seat], 0

    # -- settings ---------------------------------------------------------------------------

    def settings(self, data: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The defaults overlaid with ``data``, checked; ``SettingsError`` names the setting."""
        data = dict(data or {})
        unknown = sorted(set(data) - set(self.default_settings))
        if unknown:
            raise SettingsError(unknown[0], f"not a setting of {self.title}")
        merged = {**self.default_settings, **data}
        for name, value in merged.items():
            merged[name] = self.check_setting(name, value)
        return merged

    def check_setting(self, name: str, value: Any) -> Any:
        """One setting's value, checked and normalised; ``SettingsError`` if unusable."""
        return value

    # -- entry and simulation ---------------------------------------------------------------

    @abstractmethod
    def entry_options(self, **context: Any) -> dict[str, Any]:
        """What the scorer may enter next, given the game's context (JSON-ready)."""

    @abstractmethod
    def simulate_record(
        self, deal: Any, rng: random.Random, settings: Mapping[str, Any], **context: Any
    ) -> dict[str, Any]:
        """A board record of the deal played by a simple legal player."""
