"""Pyramid's double-dummy table behind the game interface (``Game.analyse_deal`` and the
rest): for each player and trump, the tricks he can be sure of against all the others, the
board's declarer leading (``engine.games.pyramid.solver``). A table is solved in one part, in
well under a second."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.messages import Words, words
from engine.core.seats import SEAT_NAMES
from engine.games.pyramid.solver import TRUMPS, declarer_of, sure_tricks
from engine.solver import Solver

# The trumps as the columns name them (the engine's words, translated by the pages).
TRUMP_COLUMNS = {
    "spades": words("♠ Spades"),
    "hearts": words("♥ Hearts"),
    "diamonds": words("♦ Diamonds"),
    "clubs": words("♣ Clubs"),
    "nt": words("No trumps"),
}


def _trump_words(trump: str) -> Words:
    return TRUMP_COLUMNS[trump]


class DoubleDummyTables:
    analysis_memory_mib = 8

    def analysis_inputs(
        self, settings: Mapping[str, Any], *, table: int, players: int, dealer: str
    ) -> dict[str, Any] | None:
        return {"direction": settings.get("direction", "clockwise")}

    def analyse_deal(
        self, deal: Any, inputs: Mapping[str, Any], *, part: str, solver: Any = None
    ) -> dict[str, Any]:
        direction = inputs["direction"]
        return {
            "declarer": declarer_of(deal, direction),
            "direction": direction,
            "tricks": sure_tricks(
                deal, direction=direction, solver=solver or Solver(self.analysis_memory_mib)
            ),
        }

    def analysis_view(self, table: Mapping[str, Any]) -> dict[str, Any]:
        """Players down, trumps across: the tricks each is sure of."""
        tricks = table["tricks"]
        return {
            "caption": words(
                "Tricks each player is sure of against all the others, %(seat)s (the declarer) "
                "leading",
                seat=SEAT_NAMES[table["declarer"]],
            ),
            "columns": [_trump_words(trump) for trump in TRUMPS],
            "rows": [
                [SEAT_NAMES[seat], *(tricks[seat][trump] for trump in TRUMPS)] for seat in tricks
            ],
            "notes": [],
        }

    def analysis_beside(
        self, table: Mapping[str, Any], record: Mapping[str, Any], score: Mapping[str, Any]
    ) -> str | None:
        """ "took 3, double dummy 4": the declarer's tricks against the tricks he was sure of
        in his trump."""
        declarer, trump = score.get("declarer"), score.get("trump")
        if declarer not in table["tricks"] or trump not in table["tricks"][declarer]:
            return None
        return words(
            "took %(won)s, double dummy %(sure)s",
            won=score.get("won"),
            sure=table["tricks"][declarer][trump],
        )
