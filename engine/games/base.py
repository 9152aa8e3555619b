"""The surface every game offers (GAMES.md), so the generic code never asks which game it is.

A game is one package under ``engine.games`` with a module ``game`` holding ``GAME``, an
instance of a ``Game`` subclass; ``engine.games.get_game`` finds it by id, as python-chess
finds its variants by name.
"""

from __future__ import annotations

import random
import secrets
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.core.errors import RecordError, SettingsError
from engine.core.messages import joined, words
from engine.core.seats import seat_mark, table_seats, turn_order

PAIRS = "pairs"
PLAYERS = "players"


@dataclass(frozen=True)
class Setting:
    """One setting a tournament of a game may choose: a choice of words or a whole number."""

    name: str
    label: str
    default: Any
    choices: tuple[tuple[str, str], ...] = ()  # (value, label)
    minimum: int | None = None
    maximum: int | None = None
    help: str = ""
    #: Decides how many boards a table has: may change only before anything is dealt.
    structural: bool = False

    def check(self, value: Any) -> Any:
        """The value, checked; ``SettingsError`` names the setting and the reason."""
        if self.choices:
            allowed = [choice for choice, _label in self.choices]
            if value not in allowed:
                raise SettingsError(self.name, f"{value!r} is not one of {', '.join(allowed)}")
            return value
        if not isinstance(value, int) or isinstance(value, bool):
            raise SettingsError(self.name, f"{value!r} is not a whole number")
        if self.minimum is not None and value < self.minimum:
            raise SettingsError(self.name, f"{value} is less than {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise SettingsError(self.name, f"{value} is more than {self.maximum}")
        return value

    def words(self, value: Any) -> Any:
        """The value as an organiser reads it: a choice's label, a number as it is."""
        return dict(self.choices).get(value, value) if self.choices else value


def board_mismatch(deal: Any, *, players: int, dealer: str) -> str | None:
    """Why a deal with its own ``players`` and ``dealer`` does not fit a board of ``players``
    dealt by ``dealer`` (for games whose notation names both)."""
    if deal.players != players:
        return words(
            "the deal has %(hands)s hands; the table seats %(players)s players",
            hands=deal.players,
            players=players,
        )
    if deal.dealer != dealer:
        return words(
            "the deal is dealt by %(dealt)s; this board's dealer is %(dealer)s",
            dealt=deal.dealer,
            dealer=dealer,
        )
    return None


class AnalysisRefused(ValueError):
    """A double-dummy analysis asked of a game that offers none (``Game.offers_analysis``)."""


class PlayRefused(ValueError):
    """An action a table's play rules do not allow now (a call out of turn, a card the seat
    does not hold or may not play): the words say why, for the person recording."""


class TablePlay(ABC):
    """One board as it is played at a table, action by action: the calls or the declaration,
    then every card, for a recorder who takes it down as it happens.

    An action is a short text ``kind:value`` (``call:P``, ``card:F9``); ``options`` lists the
    actions the rules allow now with their words, ``apply`` takes one or raises
    ``PlayRefused`` and changes nothing, ``view`` says where play stands (JSON-ready) and
    ``facts`` is what North enters for the board once play is over.
    """

    @abstractmethod
    def options(self) -> list[dict[str, str]]:
        """``{"action", "label", "group"}`` of every action allowed now; empty once over."""

    @abstractmethod
    def apply(self, action: str) -> None:
        """Take one action; ``PlayRefused`` says why it may not be taken now."""

    @property
    @abstractmethod
    def over(self) -> bool:
        """Whether the board is played out (or passed out)."""

    @abstractmethod
    def view(self) -> dict[str, Any]:
        """Where play stands, JSON-ready: ``phase``, ``to_act``, ``prompt``, ``seats`` (in
        play direction), ``hands`` (cards still held, each ``{"code", "label", "suit",
        "strength"}``), ``bidding``, ``contract``, ``declarer_side``, ``tricks`` (each
        ``{"number", "leader", "cards": [{"seat", "code", "label"}], "winner"}``), ``won``
        (tricks per seat), ``result`` (words, once over) and ``rules`` (what a page needs to
        mirror the card play: ``trump``, ``must_trump``, ``undertrump``, ``tricks``)."""

    @abstractmethod
    def facts(self) -> dict[str, Any] | None:
        """What North enters for the board (the game's entry fields), once play is over;
        None before."""

    def solver_position(self) -> dict[str, Any] | None:
        """The position for a double-dummy count of the declarer's side's tricks still to
        come, after any card: ``hands`` (bit masks of the cards still held, per player in
        play order from the trick's leader, suit ``s`` and rank index ``r`` at bit
        ``16*s + r``), ``played`` (the ``(s, r)`` cards already in the trick, in play order
        from its leader; none at a trick's start), ``side`` (the declarer's side's indexes),
        ``alone`` (whether the declarer plays against all the others), ``trump``,
        ``must_trump``, ``undertrump`` and ``taken`` (the side's tricks so far, the current
        trick not counted). None before play or after it, or for a game that offers no
        analysis."""
        return None


def apply_all(play: TablePlay, actions: Iterable[str]) -> TablePlay:
    """``play`` after every action in turn; ``PlayRefused`` names the first refused one."""
    for position, action in enumerate(actions, 1):
        try:
            play.apply(action)
        except PlayRefused as exc:
            raise PlayRefused(f"action {position} ({action}): {exc}") from None
    return play


def play_in_words(direction: str, players: int = 4) -> str:
    """The play direction and the order of a table's seats: "clockwise (N → E → S)"."""
    order = joined([seat_mark(seat) for seat in turn_order("N", players, direction)], " → ")
    way = words("counter-clockwise") if direction == "counterclockwise" else words(direction)
    return words("%(direction)s (%(order)s)", direction=way, order=order)


class Game(ABC):
    """One card game: its notation, records, scores, entry and simulation."""

    id: ClassVar[str]
    title: ClassVar[str]
    #: How many players a table of this game may seat.
    table_sizes: ClassVar[tuple[int, ...]]
    #: ``pairs`` (two players share a result, one entrant per side) or ``players``.
    entrants: ClassVar[str]
    #: For a game of pairs, the seats of each side, whose players share the side's result;
    #: the side with North is the match's first entrant.
    sides: ClassVar[tuple[tuple[str, ...], ...]] = (("N", "S"), ("E", "W"))
    #: The settings a board score reads (given to ``score``), which a results object of the
    #: interchange formats may carry at its top level.
    score_settings: ClassVar[tuple[str, ...]] = ()
    #: How a deal is written, for the page where an organiser types one.
    deal_help: ClassVar[str] = "The game's deal notation."
    #: The notation in a few words, for the title of a sheet of deals.
    deal_summary: ClassVar[str] = "the game's deal notation"
    #: Settings a tournament may choose (validated by ``settings``).
    setting_fields: ClassVar[tuple[Setting, ...]] = ()

    @property
    def default_settings(self) -> dict[str, Any]:
        return {field.name: field.default for field in self.setting_fields}

    def setting_field(self, name: str) -> Setting:
        for field in self.setting_fields:
            if field.name == name:
                return field
        raise SettingsError(name, f"not a setting of {self.title}")

    #: Keys a tournament description may use for several settings at once (``shorthand``).
    shorthand_keys: ClassVar[tuple[str, ...]] = ()

    def shorthand(self, key: str, value: Any) -> dict[str, Any]:
        """The settings a description's shorthand ``key`` stands for; ValueError saying why
        for a value it cannot take."""
        raise ValueError(f"{key}: not a shorthand of {self.title}")

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

    def deal_problem(self, deal: Any, *, players: int, dealer: str) -> str | None:
        """Why a well-formed deal does not fit a board of ``players`` dealt by ``dealer``."""
        return None

    def hands_in_words(self, deal: Any) -> list[tuple[str, str]]:
        """``(whose, cards)`` for every hand of a deal (and any cards left undealt), for
        printed cards and hand records."""
        return [("Deal", self.format_deal(deal))]

    def hand_groups(self, deal: Any) -> dict[str, list[tuple[str, str, str]]] | None:
        """How a diagram prints the deal around the table: for each seat (N, E, S, W), its
        hand in groups ``(symbol, name, cards in words)``, e.g. one a suit with the symbol
        ``tournaments/includes/suit.html`` draws. None (the default): each hand is printed in
        words (``hands_in_words``)."""
        return None

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

    def boards_per_table(self, settings: Mapping[str, Any], players: int) -> int | None:
        """Boards every table of a tournament has, when the game fixes it; None: the
        organiser chooses."""
        return None

    # -- records and scores -----------------------------------------------------------------

    @abstractmethod
    def score(self, record: Any, settings: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The board score of a record (with ``seats``); ``RecordError`` names the field."""

    @abstractmethod
    def describe(self, score: Mapping[str, Any]) -> str:
        """The result of a board score in words, for pages and exports."""

    def tricks_in_words(self, record: Mapping[str, Any]) -> str:
        """The tricks taken on a board, in words, for hand records, when ``describe`` does not
        say them already ("Tricks: North–South 10, East–West 5"); empty by default (a game
        whose words give the tricks, or that has none)."""
        return ""

    #: What the tie-break of totals standings counts ("exact calls"), for pages and exports;
    #: empty for a game whose totals have none.
    totals_tiebreak: ClassVar[str] = ""

    #: One line the totals standings show under their heading, for a game whose totals count
    #: something a reader would not guess (e.g. that only a player's own declarations count);
    #: empty for none.
    totals_note: ClassVar[str] = ""

    def totals_entry(self, score: Mapping[str, Any], seat: str) -> tuple[float, int]:
        """What a seat's board adds to its totals standings and to their tie-break.

        By default the seat's table result and no tie-break (GAMES.md, "Totals").
        """
        return score["seats"][seat], 0

    @property
    def of_pairs(self) -> bool:
        """Two players share each side's result (a pair is one entrant)."""
        return self.entrants == PAIRS

    def side_results(self, score: Mapping[str, Any]) -> tuple[Any, ...]:
        """Each side's table result in a board score (``sides`` order), None for a side that
        is ranked worst at the table: the result of the side's first seat."""
        seats = score["seats"]
        return tuple(seats.get(side[0]) for side in self.sides)

    # -- settings ---------------------------------------------------------------------------

    def settings(self, data: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The defaults overlaid with ``data``, checked; ``SettingsError`` names the setting."""
        if data is not None and not isinstance(data, Mapping):
            raise SettingsError("settings", "must be an object")
        data = dict(data or {})
        merged = {}
        for field in self.setting_fields:
            merged[field.name] = field.check(data.pop(field.name, field.default))
        if data:
            raise SettingsError(sorted(data, key=str)[0], f"not a setting of {self.title}")
        return merged

    def describe_settings(self, settings: Mapping[str, Any]) -> list[tuple[str, Any]]:
        """``(label, value in words)`` for every setting, for pages and exports."""
        return [(field.label, field.words(settings[field.name])) for field in self.setting_fields]

    def rules_in_detail(self, settings: Mapping[str, Any]) -> list[tuple[str, str, Any]]:
        """``(section, rule, value)`` rows that spell out what the settings mean (exports)."""
        return []

    # -- entry and simulation ---------------------------------------------------------------

    def opening_seat(self, settings: Mapping[str, Any], table: int) -> Any:
        """The seat that opens every board at ``table`` (makes the first call and leads),
        for a game whose settings fix one for the whole table; None for a game where each
        board's dealer decides who opens (the default)."""
        return None

    #: The board record's fields the scorer enters; the rest comes from the tournament.
    entry_fields: ClassVar[frozenset[str]] = frozenset()

    #: ``fields``: the scorer picks each fact from the list ``entry_form`` gives; a game with
    #: an entry of its own names it, and its ``entry_script`` registers the entry under that
    #: name (``window.ScorerEntries[kind]``, static/scoring/scorer.js).
    entry_kind: ClassVar[str] = "fields"
    #: The files of the game's own entry, in the folder ``static`` of its package (served as
    #: ``games/<id>/<file>``): the script loaded before the scorer's page script, and its
    #: style sheet. None for an entry of fields, which needs neither.
    entry_script: ClassVar[str | None] = None
    entry_style: ClassVar[str | None] = None
    #: The API answers the legal next calls of an auction (``entry_options(calls=...)``, at
    #: a table as ``table_scorer_config`` says), for a game whose entry is a bidding box.
    offers_legal_calls: ClassVar[bool] = False

    def scorer_config(self, settings: Mapping[str, Any]) -> dict[str, Any]:
        """What the scorer's page needs to know of the game."""
        return {"entry": self.entry_kind}

    def table_scorer_config(self, settings: Mapping[str, Any], table: int) -> dict[str, Any]:
        """What the game's entry needs to know of one table (JSON-ready), e.g. who calls first
        there; nothing by default."""
        return {}

    def entry_in_words(
        self, record: Mapping[str, Any], score: Mapping[str, Any]
    ) -> list[tuple[str, str]]:
        """``(label, text)`` of each fact the scorer entered, for the check and the director."""
        return [(name, str(record[name])) for name in sorted(self.entry_fields) if name in record]

    def calls_in_words(self, record: Mapping[str, Any]) -> list[tuple[str, list[tuple[str, str]]]]:
        """The calls of an entry, shown as a row of calls apart from its other facts: for each
        auction, ``(title, [(seat name, call in words), ...])``. None by default."""
        return []

    def table_context(
        self, settings: Mapping[str, Any], table: int, players: int = 4
    ) -> dict[str, Any]:
        """What a table's scorer page says of how play goes there: ``facts``, a list of
        ``(label, text)``; a table of ``players`` names only its own seats."""
        direction = settings.get("direction", "clockwise")
        return {"facts": [(words("Play"), play_in_words(direction, players))]}

    def entry_form(self, **context: Any) -> dict[str, Any] | None:
        """``{"fields": [{"name", "label", "choices": [[value, text], ...]}], "note"}``: what
        the scorer picks for a board (``entry_options``' context); None for a game that has
        an entry of its own."""
        return None

    @abstractmethod
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
        """The full board record of what the scorer entered at a board of a tournament."""

    def entry_problem(
        self, record: Mapping[str, Any], score: Mapping[str, Any]
    ) -> RecordError | None:
        """Why a valid record (read without the deal) still cannot stand as a scorer's entry in
        a tournament, where the deal is on file: a fact of what happened that the entry must
        give so that it can be checked against the deal. None by default."""
        return None

    def deal_disagreement(
        self, record_with_deal: Mapping[str, Any], entered: Mapping[str, Any]
    ) -> str | None:
        """Why an entry disagrees with the board's deal, in words for the director: ``entered``
        is its score read without the deal, ``record_with_deal`` the same entry with the deal.
        None when the deal gives the same score (GAMES.md, "What the phone may learn": a
        disagreement goes to the director, never back to the table)."""
        try:
            dealt = self.score(record_with_deal)
        except RecordError as exc:
            return exc.words
        if dealt == entered:
            return None
        return self.score_differences(dealt, entered)

    def score_differences(self, dealt: Mapping[str, Any], entered: Mapping[str, Any]) -> str:
        """How the score the deal gives differs from the entry's, in words for the director:
        by default field by field."""
        keys = set(dealt) | set(entered)
        differ = sorted(key for key in keys if dealt.get(key) != entered.get(key))
        return joined(
            [
                words(
                    "%(field)s: entered %(entered)s, from the deal %(dealt)s",
                    field=key,
                    entered=repr(entered.get(key)),
                    dealt=repr(dealt.get(key)),
                )
                for key in differ
            ],
            "; ",
        )

    def scorer_facts(self, record: Mapping[str, Any], score: Mapping[str, Any]) -> dict[str, Any]:
        """What a scorer would enter for a board played as ``record`` (for simulations)."""
        return {name: record[name] for name in self.entry_fields if name in record}

    def outcome(self, score: Mapping[str, Any]) -> tuple[str, str] | None:
        """How a board ended, as ``(noun, words after it)`` a summary counts and puts in the
        plural ("declaration", "exact": "7 declarations exact"); None: nothing to count."""
        return None

    def declaration(self, score: Mapping[str, Any]) -> tuple[str, int] | None:
        """``(seat, value)`` when the board used a place of that seat's score sheet."""
        return None

    def sheet_problem(self, player: str, sheet: int, used: list[int], value: int) -> str | None:
        """Why a player's sheet has no room for ``value`` (``used``: values on it already)."""
        return None

    #: Declarations a score sheet holds, for games that keep one per player; 0: no sheet.
    sheet_size: ClassVar[int] = 0

    def sheet(self, data: Any) -> dict[str, Any]:
        """One player's declarations on one sheet (``{"calls": [...]}``, board scores) as his
        score sheet, for pages and the ``sheet`` command. A game whose ``sheet_size`` is 0
        keeps no sheet: ``RecordError``."""
        raise RecordError("sheet", f"{self.title} keeps no score sheet")

    def declarer_seat(self, dealer: str, players: int, settings: Mapping[str, Any]) -> str | None:
        """The seat that uses its sheet on a board dealt by ``dealer``; None: no sheet."""
        return None

    @abstractmethod
    def entry_options(self, **context: Any) -> dict[str, Any]:
        """What the scorer may enter next, given the game's context (JSON-ready)."""

    def mistaken_entries(
        self, facts: Mapping[str, Any], score: Mapping[str, Any]
    ) -> list[dict[str, Any]]:
        """Two entries a North might send by mistake for a board whose right entry is
        ``facts`` (each a valid entry that scores otherwise), for a simulated dispute; an
        empty list when the game makes up none."""
        return []

    @abstractmethod
    def simulate_record(
        self, deal: Any, rng: random.Random, settings: Mapping[str, Any], **context: Any
    ) -> dict[str, Any]:
        """A board record of the deal played by a simple legal player."""

    # -- play at a table ----------------------------------------------------------------------

    def table_play(
        self,
        deal: Any,
        *,
        settings: Mapping[str, Any],
        table: int,
        players: int,
        dealer: str,
        **context: Any,
    ) -> TablePlay:
        """A board of ``deal`` to be played card by card at ``table`` under the tournament's
        ``settings`` (``context``: the entry's, e.g. a declarer's sheet), for a game whose
        play rules the engine knows; ``PlayRefused`` otherwise (``offers_table_play``)."""
        raise PlayRefused(f"the engine does not know {self.title}'s play rules")

    def offers_table_play(self) -> bool:
        """Whether the game can be played card by card (``table_play``): a table of it can be
        recorded and broadcast."""
        return type(self).table_play is not Game.table_play

    # -- double-dummy analysis ------------------------------------------------------------------

    #: The module of the game's command-line solver, if it has one: its ``solve_options``
    #: checks the options of ``python -m engine solve`` and its ``analyse_text`` solves a deal.
    solver_module: ClassVar[str | None] = None

    #: The solver's table (MiB) for one part of an analysis (``engine.solver.Solver``).
    analysis_memory_mib: ClassVar[int] = 64

    def analysis_inputs(
        self, settings: Mapping[str, Any], *, table: int, players: int, dealer: str
    ) -> dict[str, Any] | None:
        """What the double-dummy table of a board at ``table`` depends on beside its deal
        (JSON-ready: the opening seat, the direction, the rules of play); None for a game that
        offers no analysis (the default). The same inputs and deal always give the same
        table."""
        return None

    def offers_analysis(self, settings: Mapping[str, Any]) -> bool:
        """Whether a board of this game under ``settings`` gets a double-dummy table."""
        return (
            self.analysis_inputs(settings, table=1, players=max(self.table_sizes), dealer="N")
            is not None
        )

    def analysis_parts(self, inputs: Mapping[str, Any]) -> tuple[str, ...]:
        """The parts of a table that are solved apart, each within its own time (a job runs
        one task a part); one part by default."""
        return ("table",)

    def analyse_deal(
        self, deal: Any, inputs: Mapping[str, Any], *, part: str, solver: Any = None
    ) -> dict[str, Any]:
        """One part of ``deal``'s double-dummy table (JSON-ready), solved with ``solver`` (an
        ``engine.solver.Solver``, a new one if None)."""
        raise AnalysisRefused(f"{self.title} offers no double-dummy analysis")

    def combine_analysis(
        self, inputs: Mapping[str, Any], parts: Mapping[str, Mapping[str, Any]]
    ) -> dict[str, Any]:
        """The whole table from its parts (``analysis_parts``, each ``analyse_deal``'s)."""
        return dict(parts["table"])

    def analysis_view(self, table: Mapping[str, Any]) -> dict[str, Any]:
        """A table as pages and sheets show it: ``caption``, ``columns`` (the headings after
        the first), ``rows`` (``[label, value, ...]``) and ``notes`` (lines of words)."""
        return {"caption": "", "columns": [], "rows": [], "notes": []}

    def analysis_partial_view(
        self, inputs: Mapping[str, Any], parts: Mapping[str, Mapping[str, Any]]
    ) -> dict[str, Any] | None:
        """The parts solved so far laid out as ``analysis_view`` lays out a table, what is
        still missing marked "not analysed"; None when nothing can be shown (the default: a
        table of one part is all or nothing)."""
        return None

    def analysis_par(
        self, table: Mapping[str, Any], settings: Mapping[str, Any]
    ) -> dict[str, Any] | None:
        """The par of a whole table under the tournament's ``settings`` (the contract(s) and
        score neither side can improve on by bidding on): ``words`` ("Par: North–South +90:
        …") and the game's own figures; None for a game without one (the default)."""
        return None

    def analysis_beside(
        self, table: Mapping[str, Any], record: Mapping[str, Any], score: Mapping[str, Any]
    ) -> str | None:
        """What a table's result was against the double-dummy table, in words ("made 11,
        double dummy 12"); None when there is nothing to set beside it (passed out)."""
        return None
