"""Pymtheg behind the generic game interface (``engine.games.base.Game``)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.core.errors import SettingsError
from engine.games.base import PAIRS, Game
from engine.games.pymtheg.auction import legal_next_calls
from engine.games.pymtheg.cards import (
    DIRECTIONS,
    Deal,
    Seat,
    deal_cards,
    format_deal,
    parse_deal,
    seat_order,
)
from engine.games.pymtheg.rulesets import DEFAULT_RULESET, OPTION_NAMES, RULESETS
from engine.games.pymtheg.scoring import score_record
from engine.games.pymtheg.simulate import play_board
from engine.games.pymtheg.words import contract_in_words

OPENING_RULES = ("fixed", "rotate")


class PymthegGame(Game):
    id = "pymtheg"
    title = "Pymtheg"
    table_sizes = (4,)
    entrants = PAIRS
    default_settings = {
        "ruleset": DEFAULT_RULESET,
        "all_tricks_bonus": 0,
        "heavy_failure_penalty": 0,
        "illegal_trump_penalty": 0,
        "direction": "clockwise",
        "opening_rule": "fixed",
        "opening_seat": "N",
    }

    def dealer(self, board: int, players: int) -> str:
        # Pymtheg has no dealer: its notation starts with North's hand (FORMATS.md section 1).
        self.seats(players)
        return "N"

    def parse_deal(self, text: Any) -> Deal:
        return parse_deal(text)

    def format_deal(self, deal: Deal) -> str:
        return format_deal(deal)

    def deal_cards(self, rng: random.Random, *, players: int, dealer: str) -> Deal:
        return deal_cards(rng)

    def score(self, record: Any, settings: Mapping[str, Any] | None = None) -> dict[str, Any]:
        ruleset = (settings or {}).get("ruleset")
        return score_record(record, default_ruleset=ruleset).as_dict()

    def describe(self, score: Mapping[str, Any]) -> str:
        return contract_in_words(dict(score))

    def check_setting(self, name: str, value: Any) -> Any:
        if name == "ruleset":
            if value not in RULESETS:
                raise SettingsError(name, f"{value!r} is not one of {', '.join(sorted(RULESETS))}")
        elif name in OPTION_NAMES:
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise SettingsError(name, f"{value!r} is not a whole number of points ≥ 0")
        elif name == "direction":
            if value not in DIRECTIONS:
                raise SettingsError(name, f"{value!r} is not clockwise or counterclockwise")
        elif name == "opening_rule":
            if value not in OPENING_RULES:
                raise SettingsError(name, f"{value!r} is not fixed or rotate")
        elif name == "opening_seat" and value not in ("N", "E", "S", "W"):
            raise SettingsError(name, f"{value!r} is not N, E, S or W")
        return value

    def opening_seat(self, settings: Mapping[str, Any], table: int) -> Seat:
        """The seat that makes the first call and leads at ``table``."""
        if settings["opening_rule"] == "rotate":
            return seat_order(Seat.N, settings["direction"])[(table - 1) % 4]
        return Seat[settings["opening_seat"]]

    def entry_options(
        self, *, calls: list[str] = (), opening: str = "N", direction: str = "clockwise", **_: Any
    ) -> dict[str, Any]:
        """The bidding box: the legal next calls after ``calls`` (``AuctionError`` if illegal)."""
        nxt = legal_next_calls(list(calls), Seat[opening], direction)
        return {
            "seat": nxt.seat.name if nxt.seat is not None else None,
            "calls": nxt.calls,
            "ended": nxt.ended,
            "passed_out": nxt.passed_out,
        }

    def simulate_record(
        self,
        deal: Deal,
        rng: random.Random,
        settings: Mapping[str, Any],
        *,
        table: int = 1,
        **_: Any,
    ) -> dict[str, Any]:
        settings = self.settings(settings)
        played = play_board(
            deal,
            opening=self.opening_seat(settings, table),
            direction=settings["direction"],
            ruleset=settings["ruleset"],
            rng=rng,
        )
        return {
            "game": self.id,
            "ruleset": settings["ruleset"],
            "opening": self.opening_seat(settings, table).name,
            "direction": settings["direction"],
            **played.facts,
        }


GAME = PymthegGame()
