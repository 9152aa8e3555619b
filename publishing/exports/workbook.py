"""What an export holds and how its sheets are shaped (pandas), whatever the file format.

``WorkbookData`` is the tournament in columns: teams, the stored standings, one line per team
per match and board (``lines``), byes, the schedule, the deals, the rules and the places after
every round. The Django side fills it from the database (``publishing.selectors``); the
benchmark fills it directly. ``build_sheets`` turns it into the sheets the writers consume.

Teams are referred to by *code*: their row in ``teams`` (0, 1, ...); code -1 means "none".
Missing numbers are NaN in the frames and empty cells in the files.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext, gettext_noop

from engine.core.messages import words
from engine.core.seats import SEAT_LETTERS
from engine.core.seats import SEAT_NAMES as CORE_SEAT_NAMES
from engine.games import DEFAULT_GAME, Game, get_game
from publishing.exports.sheets import (
    SPREADSHEET_MAX_COLUMNS,
    ChartSpec,
    Column,
    SheetSpec,
    Stamp,
    Styled,
    chunked,
    column_width,
)

KIND_STANDINGS = "standings"
KIND_RESULTS = "results"
BLOCK_ROWS = 20_000  # rows converted to Python at a time
SIDE_ORDER = {"NS": 0, "EW": 1}
SEAT_NAMES = dict(CORE_SEAT_NAMES)


# The default of ``Game.deal_summary`` (in the Deals sheet's title), a message of the catalogue.
GAME_DEAL_NOTATION = gettext_noop("the game's deal notation")


def pgettext(context: str, message: str) -> str:
    """A message of a context (a word that means something else elsewhere: "Deal")."""
    return translation.pgettext(context, message) if settings.configured else message


def _(message: str) -> str:
    """The message in the active language (the export job writes a file in its tournament's
    language); as it is where Django is not set up (the benchmark's synthetic tournaments)."""
    return gettext(message) if settings.configured else message


def translated(text: Any) -> Any:
    """The engine's words (``engine.core.messages.Words``) in the active language."""
    if not settings.configured:
        return text
    from tournaments.templatetags.languages import translated as in_language

    return in_language(text)


# ``lines``: one row per team per match and board, ranked or not (any integer width will do).
LINE_COLUMNS = {
    "table": "int64",
    "board": "int64",
    "side": "object",
    "round": "int64",
    "team": "int64",
    "opponent": "int64",
    "score": "float64",
    "points": "float64",
    "ranked": "bool",
    "contract": "object",
    "note": "object",
}


@dataclass
class Places:
    """Each team's place after every round (NaN: no place, e.g. disqualified)."""

    rounds: list[int]
    entrants: list[int]  # team codes, one column each
    matrix: np.ndarray  # len(rounds) x len(teams)


@dataclass
class WorkbookData:
    stamp: Stamp
    entrants: pd.DataFrame  # number, name, players; row = team code
    standings: pd.DataFrame  # team, place, points, percentage, matches, status; stored order
    lines: pd.DataFrame  # LINE_COLUMNS
    byes: pd.DataFrame  # team, table, board, side, points
    schedule: pd.DataFrame  # round, table, ns, ew
    table_numbers: list[int]
    # table, board, opening, deal, analysis (the double-dummy table), beside (the results
    # against it)
    deals: pd.DataFrame
    rules: list[tuple[str, str, Any]]
    places: Places | None = None
    places_note: str = ""
    direction: str = "clockwise"
    chart_lines: int = 12
    provisional: bool = False  # results are missing: the places follow the percentage
    game: Game = field(default_factory=lambda: get_game(DEFAULT_GAME))
    # The room's withdrawals (docs/organiser.md): team number -> the last round it played,
    # and (team number, table) -> (round, words) for each table a withdrawal took out of a
    # team's route, its own or its opponent's.
    withdrawn_after: dict[int, int] = field(default_factory=dict)
    gaps: dict[tuple[int, int], tuple[int, str]] = field(default_factory=dict)


def empty_byes() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "team": pd.Series(dtype="int64"),
            "table": pd.Series(dtype="int64"),
            "board": pd.Series(dtype="int64"),
            "side": pd.Series(dtype="object"),
            "points": pd.Series(dtype="float64"),
        }
    )


# --- turning columns into rows -------------------------------------------------------------


def _numbers(values: np.ndarray) -> list:
    """Numbers as cell values: None for NaN, whole numbers as ints (2, not 2.0)."""
    floats = np.asarray(values, dtype=float).tolist()
    return [None if v != v else (int(v) if v.is_integer() else v) for v in floats]


def _with_none(values: np.ndarray) -> np.ndarray:
    """Object values with a trailing None, so that code -1 picks None."""
    return np.append(np.asarray(values, dtype=object), None)


def _texts(values) -> list:
    """Text cells: None for missing or empty."""
    return [v if isinstance(v, str) and v else None for v in values]


class _EntrantLookup:
    def __init__(self, entrants: pd.DataFrame):
        self.numbers = _with_none(entrants["number"].to_numpy())
        self.names = _with_none(entrants["name"].to_numpy())
        self.players = _with_none(entrants["players"].to_numpy())
        self.sort_numbers = entrants["number"].to_numpy(dtype=np.int64)

    def number(self, codes: np.ndarray) -> list:
        return self.numbers[codes].tolist()

    def name(self, codes: np.ndarray) -> list:
        return self.names[codes].tolist()

    def label(self, code: int) -> str:
        return f"{self.numbers[code]}. {self.names[code]}"


def _block_bounds(keys: list[np.ndarray], size: int) -> Iterator[tuple[int, int]]:
    """``(begin, end)`` of the runs of equal ``keys`` (arrays in row order), no run longer
    than BLOCK_ROWS (a longer one is cut), so Python holds one block of rows at a time."""
    if size == 0:
        return
    changed = np.zeros(size, dtype=bool)
    changed[0] = True
    for values in keys:
        changed[1:] |= values[1:] != values[:-1]
    starts = np.append(np.flatnonzero(changed), size)
    for begin, end in zip(starts[:-1].tolist(), starts[1:].tolist(), strict=True):
        for low in range(begin, end, BLOCK_ROWS):
            yield low, min(end, low + BLOCK_ROWS)


def _columns(frame: pd.DataFrame, names: list[str]) -> dict[str, np.ndarray]:
    """The frame's columns as arrays (no copy for numbers)."""
    return {name: frame[name].to_numpy() for name in names}


def _longest(values) -> int:
    return max((len(str(v)) for v in values if v is not None), default=0)


# --- the sheets ----------------------------------------------------------------------------


def standings_sheet(data: WorkbookData, entrants: _EntrantLookup) -> SheetSpec:
    frame = data.standings.copy()
    # Disqualified teams after the others, each group in the stored order.
    frame["_late"] = frame["status"] != "ok"
    frame = frame.sort_values("_late", kind="stable")

    def rows(part: pd.DataFrame) -> list[tuple]:
        codes = part["team"].to_numpy()
        return list(
            zip(
                _numbers(part["place"].to_numpy(dtype=float)),
                entrants.number(codes),
                entrants.name(codes),
                _texts(entrants.players[codes]),
                _numbers(part["points"].to_numpy(dtype=float)),
                _numbers(part["percentage"].to_numpy(dtype=float)),
                part["matches"].astype(int).tolist(),
                part["status"].tolist(),
                strict=True,
            )
        )

    columns = [
        Column(_("Place"), 7),
        Column(_("Team no."), 9),
        Column(_("Team"), column_width(_("Team"), _longest(entrants.names))),
        Column(_("Players"), column_width(_("Players"), _longest(entrants.players))),
        Column(_("Ranking points"), 15),
        Column(_("Percentage"), 11),
        Column(_("Matches"), 9),
        Column(_("Status"), 23),
    ]
    rule = (
        _("placed by percentage, highest first, while results are missing")
        if data.provisional
        else _("the least total of ranking points wins")
    )
    return SheetSpec(
        name=_("Standings"),
        slug="standings",
        title=_("%(tournament)s: standings (%(rule)s)")
        % {"tournament": data.stamp.tournament, "rule": rule},
        columns=columns,
        row_count=len(frame),
        blocks=lambda: chunked(rows(frame), BLOCK_ROWS) if len(frame) else iter(()),
    )


def _line_widths(data: WorkbookData, entrants: _EntrantLookup) -> dict[str, float]:
    name = _longest(entrants.names)
    contracts = data.lines["contract"].dropna().unique() if len(data.lines) else []
    notes = data.lines["note"].dropna().unique() if len(data.lines) else []
    return {
        "team": column_width(_("Team"), name),
        "opponent": column_width(_("Opponent"), name),
        "contract": column_width(_("Contract"), _longest(contracts)),
        "note": column_width(_("Note"), _longest(notes)),
    }


def tables_sheet(data: WorkbookData, entrants: _EntrantLookup) -> SheetSpec:
    """Per table and board, the NS block then the EW block, each ranked best first.

    The rows are put in order by sorting indexes, and gathered block by block when the
    writer asks: no sorted copy of the results is ever made.
    """
    lines = data.lines
    ranked = lines["ranked"].to_numpy(dtype=bool)

    def blocks() -> Iterator[list[tuple]]:
        at = np.flatnonzero(ranked)
        c = _columns(lines, ["table", "board", "side", "round", "team", "opponent"])
        c |= {"score": lines["score"].to_numpy(dtype=float)}
        c |= {"points": lines["points"].to_numpy(dtype=float), "note": lines["note"].to_numpy()}
        side_order = (c["side"][at] == "EW").astype(np.int8)
        numbers = entrants.sort_numbers[c["team"][at].astype(np.int64)]
        keys = (c["round"][at], numbers, c["points"][at], side_order, c["board"][at])
        order = at[np.lexsort((*keys, c["table"][at]))]
        keys = [c["table"][order], c["board"][order], c["side"][order]]
        for begin, end in _block_bounds(keys, len(order)):
            rows = order[begin:end]
            codes = c["team"][rows].astype(np.int64)
            opponents = c["opponent"][rows].astype(np.int64)
            yield list(
                zip(
                    c["table"][rows].tolist(),
                    c["board"][rows].tolist(),
                    c["side"][rows].tolist(),
                    _numbers(c["points"][rows]),
                    entrants.number(codes),
                    entrants.name(codes),
                    c["round"][rows].tolist(),
                    entrants.number(opponents),
                    entrants.name(opponents),
                    _numbers(c["score"][rows]),
                    _texts(c["note"][rows].tolist()),
                    strict=True,
                )
            )

    widths = _line_widths(data, entrants)
    columns = [
        Column(_("Table"), 7),
        Column(_("Board"), 7),
        Column(_("Side"), 6),
        Column(_("Ranking points"), 15),
        Column(_("Team no."), 9),
        Column(_("Team"), widths["team"]),
        Column(_("Round"), 7),
        Column(_("Opponent no."), 13),
        Column(_("Opponent"), widths["opponent"]),
        Column(_("Score"), 9),
        Column(_("Note"), widths["note"]),
    ]
    return SheetSpec(
        name=_("Tables"),
        slug="tables",
        title=_("%(tournament)s: results by table (each side ranked on its own)")
        % {"tournament": data.stamp.tournament},
        columns=columns,
        row_count=int(ranked.sum()),
        blocks=blocks,
        mark_blocks=True,
    )


def _by_entrant(numbers: np.ndarray, *keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Row order by team number then ``keys``, and the sorted team numbers."""
    order = np.lexsort((*reversed(keys), numbers)) if len(numbers) else np.zeros(0, np.int64)
    return order, numbers[order]


def entrants_sheet(data: WorkbookData, entrants: _EntrantLookup) -> SheetSpec:
    """Each team's route: its matches in round order, then its byes."""
    lines, byes = data.lines, data.byes

    def entrant_rows(c: dict[str, np.ndarray], rows: np.ndarray) -> list[tuple]:
        codes = c["team"][rows].astype(np.int64)
        opponents = c["opponent"][rows].astype(np.int64)
        return list(
            zip(
                entrants.number(codes),
                entrants.name(codes),
                c["round"][rows].tolist(),
                c["table"][rows].tolist(),
                c["board"][rows].tolist(),
                c["side"][rows].tolist(),
                entrants.number(opponents),
                entrants.name(opponents),
                _texts(c["contract"][rows].tolist()),
                _numbers(c["score"][rows]),
                _numbers(c["points"][rows]),
                _texts(c["note"][rows].tolist()),
                strict=True,
            )
        )

    def bye_rows(b: dict[str, np.ndarray], rows: np.ndarray) -> list[tuple]:
        codes = b["team"][rows].astype(np.int64)
        notes = [
            words("mean of both sides' ranking points here")
            if side == "both"
            else words("mean of the ranking points given here")
            for side in b["side"][rows].tolist()
        ]
        return [
            _bye_row(number, name, table, board, points, _gap(data, number, table, note))
            for number, name, table, board, points, note in zip(
                entrants.number(codes),
                entrants.name(codes),
                b["table"][rows].tolist(),
                b["board"][rows].tolist(),
                _numbers(b["points"][rows].astype(float)),
                notes,
                strict=True,
            )
        ]

    def blocks() -> Iterator[list[tuple]]:
        c = _columns(lines, ["table", "board", "side", "round", "team", "opponent"])
        c |= {name: lines[name].to_numpy() for name in ("contract", "note")}
        c |= {name: lines[name].to_numpy(dtype=float) for name in ("score", "points")}
        b = _columns(byes, ["team", "table", "board", "side", "points"])
        line_order, line_numbers = _by_entrant(
            entrants.sort_numbers[c["team"].astype(np.int64)], c["round"], c["table"], c["board"]
        )
        bye_order, bye_numbers = _by_entrant(
            entrants.sort_numbers[b["team"].astype(np.int64)], b["table"], b["board"]
        )
        for number in np.unique(np.concatenate([line_numbers, bye_numbers])).tolist():
            lo, hi = np.searchsorted(line_numbers, [number, number + 1]).tolist()
            block: list[tuple] = []
            for begin in range(lo, hi, BLOCK_ROWS):
                if block:
                    yield block
                block = entrant_rows(c, line_order[begin : min(hi, begin + BLOCK_ROWS)])
            lo, hi = np.searchsorted(bye_numbers, [number, number + 1]).tolist()
            yield block + bye_rows(b, bye_order[lo:hi])

    widths = _line_widths(data, entrants)
    columns = [
        Column(_("Team no."), 9),
        Column(_("Team"), widths["team"]),
        Column(_("Round"), 7),
        Column(_("Table"), 7),
        Column(_("Board"), 7),
        Column(_("Side"), 6),
        Column(_("Opponent no."), 13),
        Column(_("Opponent"), widths["opponent"]),
        Column(_("Contract"), widths["contract"]),
        Column(_("Score"), 9),
        Column(_("Ranking points"), 15),
        Column(_("Note"), widths["note"]),
    ]
    return SheetSpec(
        name=_("Teams"),
        slug="teams",
        title=_("%(tournament)s: every team's route") % {"tournament": data.stamp.tournament},
        columns=columns,
        row_count=len(lines) + len(byes),
        blocks=blocks,
        mark_blocks=True,
    )


def _gap(data: WorkbookData, number: int, table: int, reason: str) -> tuple[int | None, str, str]:
    """A bye row's round, side and note (``reason``: what the bye scores): a table a
    withdrawal took out names its round and why (the team's own withdrawal, or its
    opponent's), else a bye of the draw. The note is in the file's language."""
    found = data.gaps.get((number, table))
    if found is None:
        return None, "bye", translated(words("bye: %(reason)s", reason=reason))
    round_number, why = found
    if number in data.withdrawn_after and round_number > data.withdrawn_after[number]:
        note = words("%(why)s (counted as a bye: %(reason)s)", why=why, reason=reason)
        return round_number, "withdrawn", translated(note)
    return round_number, "bye", translated(words("%(why)s; %(reason)s", why=why, reason=reason))


def _bye_row(
    number: int, name: str, table: int, board: int, points: Any, gap: tuple[int | None, str, str]
) -> tuple:
    round_number, side, note = gap
    return (number, name, round_number, table, board, side, None, None, None, None, points, note)


def _byes_words(numbers: list[int], playing: set[int], data: WorkbookData, round_: int) -> str:
    """A round's byes, a withdrawn team marked as such."""
    return ", ".join(
        _("%(number)s (withdrew)") % {"number": n}
        if data.withdrawn_after.get(n, round_) < round_
        else str(n)
        for n in numbers
        if n not in playing
    )


def schedule_sheet(data: WorkbookData, entrants: _EntrantLookup) -> SheetSpec:
    """Rounds x tables: "NS v EW" team numbers in every cell, and each round's byes."""
    schedule = data.schedule
    tables = list(data.table_numbers)[: SPREADSHEET_MAX_COLUMNS - 2]
    column_of = {table: index for index, table in enumerate(tables)}
    rounds = sorted(int(r) for r in schedule["round"].unique()) if len(schedule) else []
    all_numbers = sorted(entrants.sort_numbers.tolist())

    def rows() -> Iterator[list[tuple]]:
        by_round = schedule.sort_values(["round", "table"]).groupby("round", sort=True)
        block: list[tuple] = []
        for round_number, matches in by_round:
            cells: list[Any] = [None] * len(tables)
            ns = entrants.numbers[matches["ns"].to_numpy()]
            ew = entrants.numbers[matches["ew"].to_numpy()]
            for table, home, away in zip(matches["table"].tolist(), ns, ew, strict=True):
                if table in column_of:
                    cells[column_of[table]] = f"{home} v {away}"
            playing = {int(n) for n in ns} | {int(n) for n in ew}
            byes = _byes_words(all_numbers, playing, data, int(round_number))
            block.append((int(round_number), *cells, byes or None))
            if len(block) >= 1000:
                yield block
                block = []
        if block:
            yield block

    biggest = max(all_numbers, default=0)
    cell_width = column_width(_("Table %(number)s") % {"number": 10}, len(f"{biggest} v {biggest}"))
    columns = [
        Column(_("Round"), 7),
        *(Column(_("Table %(number)s") % {"number": table}, cell_width) for table in tables),
        Column(_("Byes"), 20),
    ]
    return SheetSpec(
        name=_("Schedule"),
        slug="schedule",
        title=_("%(tournament)s: schedule (NS team v EW team at every table)")
        % {"tournament": data.stamp.tournament},
        columns=columns,
        row_count=len(rounds),
        blocks=rows,
    )


def hand_lines(game: Game, deal_text: str) -> dict[str, list[str]]:
    """For each seat letter, the hand's lines as the game groups it ("Fire 15 12 7", "—" for
    a void), or the hand in words on one line."""
    deal = game.parse_deal(deal_text)
    groups = game.hand_groups(deal)
    if groups is not None:
        return {
            seat: [f"{translated(name)} {translated(cards)}" for _key, name, cards in held]
            for seat, held in groups.items()
        }
    words = game.hands_in_words(deal)
    return {
        seat: [translated(text)] for seat, (_whose, text) in zip(SEAT_LETTERS, words, strict=False)
    }


def deals_sheet(data: WorkbookData) -> SheetSpec:
    frame = data.deals.sort_values(["table", "board"])
    # The double-dummy table of each board, where the game has one (analysis app).
    analyses = (
        list(frame["analysis"]) if "analysis" in frame.columns and any(frame["analysis"]) else None
    )
    # Each table's result against it ("Round 2: made 11, double dummy 12").
    besides = list(frame["beside"]) if analyses is not None and "beside" in frame.columns else None

    def rows() -> list[tuple]:
        out: list[tuple] = []
        for table, board, opening, deal in frame[["table", "board", "opening", "deal"]].itertuples(
            index=False, name=None
        ):
            hands = hand_lines(data.game, deal)
            out.append(
                (
                    int(table),
                    int(board),
                    _(SEAT_NAMES[opening]) if opening in SEAT_NAMES else "",
                    deal,
                    *("\n".join(hands[seat]) for seat in "NESW"),
                    *([analyses[len(out)]] if analyses is not None else []),
                    *([besides[len(out)]] if besides is not None else []),
                )
            )
        return out

    hand_width = 24
    columns = [
        Column(_("Table"), 7),
        Column(_("Board"), 7),
        Column(_("Opens"), 8),
        Column(pgettext("sheet column", "Deal"), 80),
        *(Column(_(SEAT_NAMES[seat]), hand_width, wrap=True) for seat in "NESW"),
        *([Column(_("Double dummy"), 48, wrap=True)] if analyses is not None else []),
        *([Column(_("Results against it"), 36, wrap=True)] if besides is not None else []),
    ]
    return SheetSpec(
        name=_("Deals"),
        slug="deals",
        title=_("%(tournament)s: deals (%(summary)s)")
        % {"tournament": data.stamp.tournament, "summary": _(data.game.deal_summary)},
        columns=columns,
        row_count=len(frame),
        blocks=lambda: chunked(rows(), 500),
        row_height=62,
    )


def diagrams_sheet(data: WorkbookData) -> SheetSpec:
    """Every deal as a hand diagram: North on top, West and East beside the table, South
    below."""
    frame = data.deals.sort_values(["table", "board"])
    direction = _("clockwise") if data.direction == "clockwise" else _("counter-clockwise")

    def rows() -> Iterator[list[tuple]]:
        for table, board, opening, deal in frame[["table", "board", "opening", "deal"]].itertuples(
            index=False, name=None
        ):
            hands = {
                seat: Styled("\n".join([_(SEAT_NAMES[seat]), *lines]), "hand")
                for seat, lines in hand_lines(data.game, deal).items()
            }
            where = {"table": table, "board": board}
            opens = (
                _("%(seat)s opens") % {"seat": _(SEAT_NAMES[opening])} + "\n"
                if opening in SEAT_NAMES
                else ""
            )
            square = Styled(
                _("Table %(table)s · board %(board)s") % where
                + f"\n{opens}"
                + _("play %(direction)s") % {"direction": direction},
                "square",
            )
            yield [
                (Styled(_("Table %(table)s, board %(board)s") % where, "caption"), None, None),
                (None, hands["N"], None),
                (hands["W"], square, hands["E"]),
                (None, hands["S"], None),
                (None, None, None),
            ]

    return SheetSpec(
        name=_("Hand diagrams"),
        slug="hand-diagrams",
        title=_("%(tournament)s: hand diagrams") % {"tournament": data.stamp.tournament},
        columns=[Column("", 26), Column("", 26), Column("", 26)],
        row_count=5 * len(frame),
        blocks=rows,
        tabular=False,
        in_csv=False,
    )


def places_sheets(data: WorkbookData, entrants: _EntrantLookup) -> list[SheetSpec]:
    """The places after every round (numbers), and a line chart of the leading teams."""
    places = data.places
    title = _("%(tournament)s: place after every round") % {"tournament": data.stamp.tournament}
    if places is None or not places.rounds:
        note = data.places_note or _("(no round has a result yet)")
        return [
            SheetSpec(
                name=_("Places"),
                slug="places",
                title=title,
                columns=[Column(_("Round"), 7)],
                row_count=0,
                blocks=lambda: iter(()),
                note=note,
            ),
            _chart_sheet(title, None, note),
        ]
    entrant_codes = places.entrants[: SPREADSHEET_MAX_COLUMNS - 1]
    matrix = places.matrix[:, : len(entrant_codes)]

    def rows() -> list[tuple]:
        return [
            (round_number, *_numbers(matrix[index]))
            for index, round_number in enumerate(places.rounds)
        ]

    labels = [entrants.label(code) for code in entrant_codes]
    columns = [Column(_("Round"), 7), *(Column(label, column_width(label, 3)) for label in labels)]
    data_sheet = SheetSpec(
        name=_("Places"),
        slug="places",
        title=title,
        columns=columns,
        row_count=len(places.rounds),
        blocks=lambda: chunked(rows(), 1000),
        note=data.places_note,
    )
    leaders = _chart_entrants(data, entrant_codes)
    if not leaders:
        return [data_sheet, _chart_sheet(title, None, _("(no team has a place to draw)"))]
    chart = _places_chart(leaders, entrant_codes, len(places.rounds))
    return [data_sheet, _chart_sheet(title, chart, "")]


def _places_chart(leaders: list[int], entrant_codes: list[int], rounds: int) -> ChartSpec:
    """The line chart of the ``leaders``' places, drawn from their columns of the places
    sheet (the round in the first)."""
    column_of = {code: index + 2 for index, code in enumerate(entrant_codes)}
    return ChartSpec(
        title=(
            _("Place after every round")
            if len(leaders) == len(entrant_codes)
            else _("Place after every round (the leading %(count)s teams)")
            % {"count": len(leaders)}
        ),
        data_sheet=_("Places"),
        category_column=1,
        series_columns=[column_of[code] for code in leaders],
        rows=rounds,
        x_title=_("Round"),
        y_title=_("Place"),
    )


def _chart_sheet(title: str, chart: ChartSpec | None, note: str) -> SheetSpec:
    return SheetSpec(
        name=_("Places chart"),
        slug="places-chart",
        title=title,
        columns=[Column("", 12)],
        row_count=0,
        blocks=lambda: iter(()),
        tabular=False,
        chart=chart,
        in_csv=False,
        note=note,
    )


def _chart_entrants(data: WorkbookData, entrant_codes: list[int]) -> list[int]:
    """The teams drawn in the chart: all when few, else the leaders of the standings."""
    present = set(entrant_codes)
    ordered = [
        int(code)
        for code, status in zip(data.standings["team"], data.standings["status"], strict=True)
        if status == "ok" and int(code) in present
    ]
    if len(entrant_codes) <= data.chart_lines:
        return [code for code in entrant_codes if code in set(ordered)] or list(entrant_codes)
    return ordered[: data.chart_lines]


def spread_sheet(data: WorkbookData) -> SheetSpec:
    frame = spread_table(data.lines)

    def rows() -> list[tuple]:
        return [
            (
                int(r.table),
                int(r.board),
                r.side,
                int(r.results),
                *(_numbers(np.array([r.low, r.q1, r.median, r.q3, r.high, r.mean]))),
            )
            for r in frame.itertuples(index=False)
        ]

    columns = [
        Column(_("Table"), 7),
        Column(_("Board"), 7),
        Column(_("Side"), 6),
        Column(_("Results"), 9),
        Column(_("Lowest"), 9),
        Column(_("Lower quartile"), 15),
        Column(_("Median"), 9),
        Column(_("Upper quartile"), 15),
        Column(_("Highest"), 9),
        Column(_("Mean"), 9),
    ]
    return SheetSpec(
        name=_("Spread"),
        slug="spread",
        title=_("%(tournament)s: spread of the table results at every table")
        % {"tournament": data.stamp.tournament},
        columns=columns,
        row_count=len(frame),
        blocks=lambda: chunked(rows(), BLOCK_ROWS),
    )


def spread_table(lines: pd.DataFrame) -> pd.DataFrame:
    """Per table, board and side: how many ranked results, and their five-number summary."""
    scored = lines[lines["ranked"] & lines["score"].notna()]
    names = ["table", "board", "side", "results", "low", "q1", "median", "q3", "high", "mean"]
    if scored.empty:
        return pd.DataFrame(columns=names)
    grouped = scored.groupby(["table", "board", "side"], sort=False)["score"]
    frame = pd.DataFrame(
        {
            "results": grouped.size(),
            "low": grouped.min(),
            "q1": grouped.quantile(0.25),
            "median": grouped.median(),
            "q3": grouped.quantile(0.75),
            "high": grouped.max(),
            "mean": grouped.mean().round(1),
        }
    ).reset_index()
    frame["side_order"] = frame["side"].map(SIDE_ORDER)
    frame = frame.sort_values(["table", "board", "side_order"]).drop(columns="side_order")
    return frame[names]


def rules_sheet(data: WorkbookData) -> SheetSpec:
    rules = list(data.rules)
    columns = [
        Column(_("Section"), 16),
        Column(
            _("Rule"), column_width(_("Rule"), _longest(rule for _section, rule, _value in rules))
        ),
        Column(
            _("Value"),
            column_width(_("Value"), min(60, _longest(v for _section, _rule, v in rules))),
        ),
    ]
    return SheetSpec(
        name=_("Rules"),
        slug="rules",
        title=_("%(tournament)s: the rules these results were computed with")
        % {"tournament": data.stamp.tournament},
        columns=columns,
        row_count=len(rules),
        blocks=lambda: chunked(rules, BLOCK_ROWS),
    )


def build_sheets(data: WorkbookData, kind: str = KIND_RESULTS) -> list[SheetSpec]:
    """The sheets of an export: the full results, or the standings alone."""
    entrants = _EntrantLookup(data.entrants)
    if kind == KIND_STANDINGS:
        return [standings_sheet(data, entrants), *places_sheets(data, entrants), rules_sheet(data)]
    if kind != KIND_RESULTS:
        raise ValueError(f"unknown export kind {kind!r} (standings or results)")
    return [
        standings_sheet(data, entrants),
        tables_sheet(data, entrants),
        entrants_sheet(data, entrants),
        schedule_sheet(data, entrants),
        deals_sheet(data),
        diagrams_sheet(data),
        *places_sheets(data, entrants),
        spread_sheet(data),
        rules_sheet(data),
    ]
