"""Pyramid behind the generic game interface (``engine.games.base.Game``)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.core.messages import words
from engine.core.seats import DIRECTIONS, SEAT_NAMES, table_seats
from engine.games.base import PLAYERS, Game, Setting, TablePlay, board_mismatch
from engine.games.pyramid import cards
from engine.games.pyramid.analysis import DoubleDummyTables
from engine.games.pyramid.cards import PyramidDeal
from engine.games.pyramid.play import choose_call, play_board, play_text
from engine.games.pyramid.records import TRUMP_SUIT, declarer_of, score_record
from engine.games.pyramid.scoring import describe
from engine.games.pyramid.sheet import (
    DECLARATIONS,
    QUOTA,
    SHEET_SIZE,
    legal_declarations,
    quota_error,
    sheet_output,
)
from engine.games.pyramid.table_play import PyramidTablePlay

TRUMPS = ("spades", "hearts", "diamonds", "clubs", "nt")
TRUMP_WORDS = {
    "spades": words("♠ Spades"),
    "hearts": words("♥ Hearts"),
    "diamonds": words("♦ Diamonds"),
    "clubs": words("♣ Clubs"),
    "nt": words("No trumps"),
}
DECLARATION_WORDS = (
    words("zero"),
    words("one"),
    words("two"),
    words("three"),
    words("four"),
    words("five"),
    words("six"),
)
DIRECTION_CHOICES = (
    ("clockwise", "Clockwise (N → E → S → W)"),
    ("counterclockwise", "Counter-clockwise (N → W → S → E)"),
)


def _direction(settings: Mapping[str, Any] | None) -> str:
    direction = (settings or {}).get("direction") or "clockwise"
    if direction not in DIRECTIONS:
        raise ValueError(f"unknown direction {direction!r} (clockwise or counterclockwise)")
    return direction


def _entry_fields(options: Mapping[str, Any], name: str) -> list[dict[str, Any]]:
    """The entry's fields: the number declared (those the sheet has room for), the trump and
    the declarer's tricks."""
    return [
        {
            "name": "declared",
            "label": words("Declared"),
            "choices": [
                [
                    value,
                    words("%(value)s (%(words)s)", value=value, words=DECLARATION_WORDS[value]),
                ]
                for value in options["declarations"]
            ],
            "empty": words("%(seat)s's sheet has no declaration left.", seat=name),
        },
        {
            "name": "trump",
            "label": words("Trump"),
            "choices": [[trump, TRUMP_WORDS[trump]] for trump in TRUMPS],
        },
        {
            "name": "won",
            "label": words("Tricks won by %(seat)s", seat=name),
            "choices": [[value, str(value)] for value in options["won"]],
        },
    ]


def _entry_note(context: Mapping[str, Any], name: str, dealer: str) -> str:
    """``North (Ann) declares, sheet 2. East deals.``"""
    who = (
        words("%(seat)s (%(player)s)", seat=name, player=context["player"])
        if context.get("player")
        else name
    )
    sheet = words(", sheet %(number)s", number=context["sheet"]) if context.get("sheet") else ""
    return words(
        "%(who)s declares%(sheet)s. %(dealer)s deals.",
        who=who,
        sheet=sheet,
        dealer=words(SEAT_NAMES[dealer]),
    )


class PyramidGame(DoubleDummyTables, Game):
    id = "pyramid"
    title = "Pyramid"
    deal_help = (
        "Deal notation: the dealer's letter and a colon, then the hands clockwise from the "
        "dealer's, separated by spaces; each hand is spades.hearts.diamonds.clubs with ranks "
        "A K Q J T 9 (an empty group for a void). With 2 or 3 players the undealt cards come "
        "last, after a '-'. Example: S:T.KQ.JT.Q AK.9.AQ.9 QJ.A.K.AK -9.JT.9.JT"
    )
    solver_module = "engine.games.pyramid.solver"
    table_sizes = (2, 3, 4)
    entrants = PLAYERS
    setting_fields = (
        Setting(
            "direction",
            "Play direction",
            "clockwise",
            choices=DIRECTION_CHOICES,
            help="Clockwise: the player on the dealer's left declares. Counter-clockwise: the "
            "player on his right.",
        ),
        Setting(
            "declarations_per_round",
            "Declarations per round",
            16,
            minimum=1,
            maximum=64,
            help="How many times every player declares in a round; a table has this many "
            "boards for each of its players. 16 is one full pyramid sheet a round.",
            structural=True,
        ),
    )

    #: Declarations a pyramid sheet holds (1 + 2 + 3 + 4 + 3 + 2 + 1).
    sheet_size = SHEET_SIZE
    entry_fields = frozenset({"declared", "trump", "won"})

    def check_setting(self, name: str, value: Any) -> Any:
        """One setting's value, checked; ``SettingsError`` names it."""
        return self.setting_field(name).check(value)

    # -- deals ------------------------------------------------------------------------------

    def parse_deal(self, text: Any) -> PyramidDeal:
        return cards.parse_deal(text)

    def format_deal(self, deal: PyramidDeal) -> str:
        return cards.format_deal(deal)

    def deal_cards(self, rng: random.Random, *, players: int, dealer: str) -> PyramidDeal:
        return cards.deal_cards(rng, players=players, dealer=dealer)

    def deal_problem(self, deal: PyramidDeal, *, players: int, dealer: str) -> str | None:
        return board_mismatch(deal, players=players, dealer=dealer)

    def hands_in_words(self, deal: PyramidDeal) -> list[tuple[str, str]]:
        return cards.hands_in_words(deal)

    def default_boards(self, players: int) -> int:
        """One full game: every player declares 16 times."""
        return SHEET_SIZE * players

    def boards_per_table(self, settings: Mapping[str, Any], players: int) -> int | None:
        return settings.get("declarations_per_round", 16) * players

    # -- records and scores -----------------------------------------------------------------

    def score(self, record: Any, settings: Mapping[str, Any] | None = None) -> dict[str, Any]:
        direction = settings.get("direction") if settings else None
        return score_record(record, direction)

    def describe(self, score: Mapping[str, Any]) -> str:
        return describe(score)

    totals_tiebreak = "exact calls"
    totals_note = (
        "Only a player's own declarations count: the points he scores as declarer, "
        "not those his opponents' declarations give or cost him."
    )

    def totals_entry(self, score: Mapping[str, Any], seat: str) -> tuple[float, int]:
        """Totals rank a player's own sheet: his points as declarer, ties by exact calls."""
        if score.get("declarer") != seat:
            return 0, 0
        return score["points"], 1 if score["exact"] else 0

    def rules_in_detail(self, settings: Mapping[str, Any]) -> list[tuple[str, str, Any]]:
        quota = ", ".join(f"{value}: {places}" for value, places in enumerate(QUOTA))
        # The engine's words: the exports give them in the file's language.
        direction = settings.get("direction", "clockwise")
        return [
            ("Pyramid", words("Pack"), words("24 cards: A K Q J 10 9 in four suits")),
            ("Pyramid", words("Cards per player"), 6),
            (
                "Pyramid",
                words("Declarer"),
                words("the first player after the dealer in play direction"),
            ),
            (
                "Pyramid",
                words("Play direction"),
                words("clockwise") if direction == "clockwise" else direction,
            ),
            ("Pyramid", words("Points of the declarer"), words("10 - 2 × |tricks won - declared|")),
            (
                "Pyramid",
                words("Table result of each defender"),
                words("minus the declarer's points"),
            ),
            ("Pyramid", words("Places on a sheet per declaration"), quota),
            (
                "Pyramid",
                words("Declarations per round"),
                settings.get("declarations_per_round", 16),
            ),
        ]

    # -- the sheet --------------------------------------------------------------------------

    def sheet(self, data: Any) -> dict[str, Any]:
        """The ``sheet`` command: one player's calls on one sheet to his pyramid sheet."""
        return sheet_output(data)

    def outcome(self, score: Mapping[str, Any]) -> tuple[str, str] | None:
        return ("declaration", "exact") if score.get("exact") else None

    def declaration(self, score: Mapping[str, Any]) -> tuple[str, int] | None:
        if "declarer" not in score or "declared" not in score:
            return None
        return score["declarer"], score["declared"]

    def sheet_problem(self, player: str, sheet: int, used: list[int], value: int) -> str | None:
        return quota_error(player, sheet, used, value)

    def declarer_seat(self, dealer: str, players: int, settings: Mapping[str, Any]) -> str | None:
        return declarer_of(dealer, players, _direction(settings))

    # -- entry ------------------------------------------------------------------------------

    def entry_record(
        self,
        facts: Mapping[str, Any],
        *,
        settings: Mapping[str, Any],
        table: int,
        players: int,
        dealer: str,
        deal: str,
    ) -> dict[str, Any]:
        record: dict[str, Any] = {"game": self.id, "players": players, "dealer": dealer}
        if deal:
            record["deal"] = deal
        record["direction"] = _direction(settings)
        record.update(facts)
        return record

    def scorer_facts(self, record: Mapping[str, Any], score: Mapping[str, Any]) -> dict[str, Any]:
        return {"declared": score["declared"], "trump": score["trump"], "won": score["won"]}

    def entry_in_words(
        self, record: Mapping[str, Any], score: Mapping[str, Any]
    ) -> list[tuple[str, str]]:
        trump = score["trump"]
        return [
            (words("Declarer"), SEAT_NAMES[score["declarer"]]),
            (words("Declared"), str(score["declared"])),
            (words("Trump"), TRUMP_WORDS.get(trump, trump)),
            (words("Tricks won"), str(score["won"])),
        ]

    def entry_options(
        self,
        *,
        calls: Any = (),
        players: int = 4,
        dealer: str = "N",
        direction: str = "clockwise",
        **_: Any,
    ) -> dict[str, Any]:
        """The declarer, the numbers left on his current sheet (``calls``: the numbers he has
        declared on it), the trumps and the possible tricks won."""
        table_seats(players)
        return {
            "declarer": declarer_of(dealer, players, direction),
            "declarations": legal_declarations(calls),
            "trumps": list(TRUMPS),
            "won": list(range(7)),
        }

    def entry_form(self, **context: Any) -> dict[str, Any]:
        """Declared (only what his sheet has room for), trump and tricks won."""
        settings = context.get("settings") or {}
        direction = context.get("direction") or _direction(settings)
        players = context.get("players", 4)
        dealer = context.get("dealer", "N")
        options = self.entry_options(
            calls=context.get("calls") or (), players=players, dealer=dealer, direction=direction
        )
        declarer = context.get("declarer") or options["declarer"]
        name = words(SEAT_NAMES[declarer])
        return {
            "fields": _entry_fields(options, name),
            "note": _entry_note(context, name, dealer),
        }

    def table_play(
        self,
        deal: PyramidDeal,
        *,
        settings: Mapping[str, Any],
        table: int,
        players: int,
        dealer: str,
        **context: Any,
    ) -> TablePlay:
        """The declaration (``context["calls"]``: the numbers already on the declarer's
        sheet), the trump, then six tricks (``table_play``)."""
        calls = context.get("calls")
        return PyramidTablePlay(
            deal, direction=_direction(settings), calls=None if calls is None else list(calls)
        )

    # -- simulation -------------------------------------------------------------------------

    def simulate_record(
        self,
        deal: PyramidDeal,
        rng: random.Random,
        settings: Mapping[str, Any] | None = None,
        *,
        declarations: Any = None,
        **_: Any,
    ) -> dict[str, Any]:
        """The board played by the simple player: the declarer calls from his hand among
        ``declarations`` (default 0..6), then all six tricks are played."""
        if isinstance(deal, str):
            deal = cards.parse_deal(deal)
        direction = _direction(settings)
        declarer = declarer_of(deal.dealer, deal.players, direction)
        allowed = list(DECLARATIONS) if declarations is None else list(declarations)
        declared, trump_suit = choose_call(deal.hand(declarer), deal.players, rng, allowed)
        trump = next(name for name, suit in TRUMP_SUIT.items() if suit == trump_suit)
        tricks, _taken = play_board(
            deal,
            rng,
            declarer=declarer,
            declared=declared,
            trump=trump_suit,
            direction=direction,
        )
        record: dict[str, Any] = {
            "game": self.id,
            "deal": cards.format_deal(deal),
            "declared": declared,
            "trump": trump,
            "play": play_text(tricks),
        }
        if direction == "counterclockwise":
            record["direction"] = direction
        return record


GAME = PyramidGame()
