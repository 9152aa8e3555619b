"""Chart series and their SVG drawings, from the ranking input and the stored standings.

Charts are summaries of results, and follow the rule of who may see what (RULES.md, "Who may
see what, and when"): they are drawn from complete tables only. Which tables are complete is
the caller's to say (``scoring.visibility.complete_tables``); nothing here decides it.

- ``places_by_round``: each team's place after every round r such that every table played in
  rounds 1..r is complete, ranking (``RankingState``) the tournament's results restricted to
  the rounds up to that one. *Ruling: the places after round r are drawn only once every
  table played in rounds 1..r is complete.* They are ranked from every result of those
  rounds, and a team's move from one round to the next is its result at the table it played
  in that round: drawn while that table still has a match to play, they would tell the teams
  still to come there how its deal lies. (Ranking only the complete tables' results instead
  would place teams on different sets of matches, which are not the places after a round.)
  Every result of those rounds is then in, so no round is placed by percentage (provisional
  standings) beside rounds placed by points. Each round's input is fingerprinted; a round
  whose fingerprint is unchanged since the last run keeps its places, so a new result
  re-ranks only its own round and the later ones.
- ``spread_groups``: per complete table, board and side (or seat, in a game of
  individuals), the five-number summary of the table results (and the results themselves
  where few enough to draw as dots).
- ``places_svg``, ``spread_svg``: inline SVG for the public charts page, drawn once by the
  chart task and stored; the page only prints it.
- ``tables_out_words``: the tables still being played, in words, for the page.

Pure Python: no Django here. The words of a drawing (its titles, labels and notes) are English
messages handed to ``tr`` (the caller's ``gettext`` in the language wanted; English by default)
before their values are put in.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any
from xml.sax.saxutils import escape, quoteattr

import numpy as np

from engine.ranking import RankingState, read_tournament
from engine.ranking.inputs import Tournament

Translate = Callable[[str], str]


def english(message: str) -> str:
    """The default ``tr``: the message as it is."""
    return message


# Distinct, colour-blind-friendly line colours (Okabe-Ito, then Tol's muted set).
PALETTE = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#332288", "#882255",
    "#117733", "#999933", "#AA4499", "#44AA99", "#661100", "#6699CC", "#888888", "#000000",
]  # fmt: skip
SPREAD_DOTS_MAX = 120  # results per group drawn as dots; beyond that only the box
SPREAD_MAX_ROWS = 400  # groups drawn on the page
SIDES = ("NS", "EW")
# The order of a board's groups: the sides of a game of pairs, the seats of a game of
# individuals.
PLACE_ORDER = (*SIDES, "N", "E", "S", "W")


@dataclass
class RoundSeries:
    rounds: list[int]
    places: dict[str, list[int | None]]  # team id -> place after each round
    digests: dict[str, str]  # str(round) -> fingerprint of the results up to it
    ranked_rounds: list[int] = field(default_factory=list)  # rounds actually re-ranked
    # The first round left out (with every round after it) while a table played up to it
    # is still being played; None when every round up to the last with a result is drawn.
    incomplete: int | None = None
    last_played: int | None = None  # the last round with a result
    # The tables played up to ``incomplete`` that are not complete yet.
    waiting_tables: list[int] = field(default_factory=list)

    @property
    def note(self) -> str:
        return self.note_in(english)

    def note_in(self, tr: Translate) -> str:
        """What the series leaves out, in words; empty when nothing."""
        if self.incomplete is None:
            return ""
        if self.incomplete != self.last_played:
            message = (
                "(round %(round)s is not drawn until every table played up to it is complete, "
                "nor the rounds after it)"
            )
        else:
            message = "(round %(round)s is not drawn until every table played up to it is complete)"
        return tr(message) % {"round": self.incomplete}


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str).encode()


def _has_result(match: dict[str, Any]) -> bool:
    return "scores" in match or "record" in match


def _waiting(match: dict[str, Any], disqualified: set[str]) -> bool:
    """Whether the match still waits for its result: none entered, and no team of it
    disqualified before finalisation (its result is then set, or it is left out)."""
    if _has_result(match):
        return False
    return str(match["ns"]) not in disqualified and str(match["ew"]) not in disqualified


def _rounds_ready(
    matches: list[dict[str, Any]], disqualified: set[str], complete: set[int], last: int
) -> tuple[list[int], int | None, list[int]]:
    """``(rounds, first round left out or None, its tables still out)``: the rounds up to
    ``last`` whose tables, and those of every round before, are complete with every result in."""
    tables_of: dict[int, set[int]] = {}
    waiting: set[int] = set()  # rounds with a result still to come
    for m in matches:
        tables_of.setdefault(m["round"], set()).add(m["table"])
        if _waiting(m, disqualified):
            waiting.add(m["round"])
    rounds: list[int] = []
    played_tables: set[int] = set()
    held: list[int] = []
    for round_number in sorted(r for r in tables_of if r <= last):
        played_tables |= tables_of[round_number]
        held = sorted(played_tables - complete)
        if held or round_number in waiting:
            return rounds, round_number, held
        rounds.append(round_number)
    return rounds, None, held


def _places_of_rounds(
    data: dict[str, Any],
    matches: list[dict[str, Any]],
    rounds: list[int],
    head: dict[str, Any],
    previous_digests: dict[str, str],
    previous: dict[str, dict[str, int | None]],
) -> tuple[dict[str, str], dict[int, dict[str, int | None]], list[int]]:
    """``(digests, places by round, rounds ranked again)``: each round's places, reused from
    ``previous`` when the digest of the input up to that round is unchanged."""
    digest = hashlib.sha256(_canonical(head))
    digests: dict[str, str] = {}
    by_round: dict[int, dict[str, int | None]] = {}
    ranked: list[int] = []
    checked: Tournament | None = None  # every match read and checked once, for all rounds
    index = 0
    for round_number in rounds:
        start = index
        while index < len(matches) and matches[index]["round"] <= round_number:
            index += 1
        digest.update(_canonical(matches[start:index]))  # a round at once: one call to encode
        key = str(round_number)
        digests[key] = digest.hexdigest()
        old = previous.get(key)
        if old is not None and previous_digests.get(key) == digests[key]:
            by_round[round_number] = old
            continue
        if checked is None:
            checked = read_tournament({**data, "matches": matches})
        # The matches of rounds 1..r, as ranking that part of the input would read them.
        found = RankingState(replace(checked, matches=checked.matches[:index])).places()
        by_round[round_number] = {str(entrant): place for entrant, place in found.items()}
        ranked.append(round_number)
    return digests, by_round, ranked


def places_by_round(
    data: dict[str, Any],
    previous_digests: dict[str, str] | None = None,
    previous: dict[str, dict[str, int | None]] | None = None,
    *,
    complete: Iterable[int],
) -> RoundSeries:
    """Places after every round up to the last round with a result, as long as every table
    played in it and in the rounds before it is one of the ``complete`` tables, and every
    result of those rounds is in (``RoundSeries.incomplete``: the first round left out).

    ``previous``: {str(round): {team id: place}} from the last run, reused for every round
    whose digest is in ``previous_digests`` unchanged.
    """
    matches = sorted(data["matches"], key=lambda m: (m["round"], m["table"], m.get("board", 1)))
    played_rounds = [m["round"] for m in matches if _has_result(m)]
    entrant_ids = [str(entrant["id"]) for entrant in data["teams"]]
    if not played_rounds:
        return RoundSeries([], {entrant: [] for entrant in entrant_ids}, {})
    last = max(played_rounds)
    disqualified = _disqualified_before_final(data)
    rounds, incomplete, held = _rounds_ready(matches, disqualified, set(complete), last)
    head = {key: value for key, value in data.items() if key not in ("teams", "matches")}
    head["teams"] = entrant_ids
    digests, by_round, ranked = _places_of_rounds(
        data, matches, rounds, head, previous_digests or {}, previous or {}
    )
    places = {entrant: [by_round[r].get(entrant) for r in rounds] for entrant in entrant_ids}
    return RoundSeries(rounds, places, digests, ranked, incomplete, last, held)


def _disqualified_before_final(data: dict[str, Any]) -> set[str]:
    """The teams of a ranking input disqualified before finalisation (their results are
    replaced)."""
    return {str(d["team"]) for d in data.get("disqualified", []) if not d.get("after_final")}


def per_round(rounds: list[int], places: dict[str, list]) -> dict[str, dict[str, Any]]:
    """{str(round): {team: place}} from the stored series (for ``places_by_round``)."""
    return {
        str(round_number): {entrant: series[i] for entrant, series in places.items()}
        for i, round_number in enumerate(rounds)
    }


def spread_groups(standings: dict[str, Any], complete: Iterable[int]) -> list[dict[str, Any]]:
    """Five-number summary of every table, board and side (or seat) of the stored standings,
    for the ``complete`` tables only: a table still being played gives nothing away."""
    complete = set(complete)
    out = []
    for group in standings.get("groups", []):
        if group["table"] not in complete:
            continue
        scores = [r["score"] for r in group["results"] if r.get("score") is not None]
        if not scores:
            continue
        low, q1, median, q3, high = five_numbers(scores)
        out.append(
            {
                "table": group["table"],
                "board": group["board"],
                "side": group["side"] if "side" in group else group["seat"],
                "results": len(scores),
                "low": _tidy(low),
                "q1": _tidy(q1),
                "median": _tidy(median),
                "q3": _tidy(q3),
                "high": _tidy(high),
                "mean": _tidy(round(_mean(scores), 1)),
                "scores": sorted(scores) if len(scores) <= SPREAD_DOTS_MAX else [],
            }
        )
    out.sort(key=lambda g: (g["table"], g["board"], _place_index(g["side"])))
    return out


QUARTERS = (0.0, 0.25, 0.5, 0.75, 1.0)


def five_numbers(scores: list) -> tuple[float, ...]:
    """``np.percentile(scores, [0, 25, 50, 75, 100])`` (its default, linear interpolation),
    the same floats, computed in plain Python: a 1,000-table round has 2,000 groups of a
    result or two, and numpy's call cost some 150 microseconds each (0.3 s a chart)."""
    values = sorted(float(score) for score in scores)
    last = len(values) - 1
    found = []
    for quarter in QUARTERS:
        # numpy's virtual index n*q + (1 - q) - 1 and its interpolation (_lerp), step by step
        index = len(values) * quarter + (1 - quarter) - 1
        below = math.floor(index)
        weight = index - below
        low = values[min(below, last)]
        high = values[min(below + 1, last)]
        difference = high - low
        found.append(
            low + difference * weight if weight < 0.5 else high - difference * (1 - weight)
        )
    return tuple(found)


def _mean(scores: list) -> float:
    """``np.mean`` of the scores as floats: under 8 values numpy adds them in order, as here;
    from 8 on it adds them pairwise, so numpy does it."""
    if len(scores) >= 8:
        return float(np.asarray(scores, dtype=float).mean())
    total = 0.0
    for score in scores:
        total += float(score)
    return total / len(scores)


def _place_index(side: str) -> int:
    return PLACE_ORDER.index(side) if side in PLACE_ORDER else len(PLACE_ORDER)


def tables_out_words(tables: Iterable[int], tr: Translate = english) -> str:
    """ "Tables 3 and 5 are still being played: their results are not shown yet." (runs of
    three or more as ranges: "Tables 1-4, 7 and 9 ..."); empty when none."""
    numbers = sorted(set(tables))
    if not numbers:
        return ""
    parts = _table_runs(numbers)
    if len(numbers) == 1:
        return tr("Table %(table)s is still being played: its results are not shown yet.") % {
            "table": parts[0]
        }
    if len(parts) == 1:
        listed = parts[0]
    else:
        listed = tr("%(tables)s and %(last)s") % {
            "tables": ", ".join(parts[:-1]),
            "last": parts[-1],
        }
    return tr("Tables %(tables)s are still being played: their results are not shown yet.") % {
        "tables": listed
    }


def _table_runs(numbers: list[int]) -> list[str]:
    """Sorted table numbers as the list names them: a run of three or more as a range
    ("1-4"), the others one by one."""
    runs: list[list[int]] = []
    for number in numbers:
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    parts: list[str] = []
    for run in runs:
        if len(run) >= 3:
            parts.append(f"{run[0]}-{run[-1]}")
        else:
            parts.extend(str(number) for number in run)
    return parts


def _tidy(value: float) -> int | float:
    value = float(value)
    return int(value) if value.is_integer() else round(value, 2)


# --- SVG ----------------------------------------------------------------------------------


def _number(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def places_svg(
    rounds: list[int],
    places: dict[str, list[int | None]],
    labels: dict[str, str],
    entrants: Iterable[str],
    tr: Translate = english,
) -> str:
    """A line per team (``teams``, in legend order): its place after every round, place 1 at
    the top. Each line is a ``<g class="team">`` the stylesheet highlights on hover."""
    entrants = [
        entrant for entrant in entrants if any(p is not None for p in places.get(entrant, []))
    ]
    if not rounds or not entrants:
        return ""
    worst = _worst_place(places, entrants)
    left, right, top, bottom = 48, 240, 18, 46
    width = max(480, min(1100, 60 * len(rounds) + left + right))
    height = max(240, min(720, 24 * worst + top + bottom))
    plot_w, plot_h = width - left - right, height - top - bottom

    def x(i: int) -> float:
        return left + (plot_w * i / (len(rounds) - 1) if len(rounds) > 1 else plot_w / 2)

    def y(place: float) -> float:
        return top + plot_h * (place - 1) / (worst - 1)

    parts = [
        f'<svg class="places-chart" viewBox="0 0 {width} {height}" role="img" '
        f"aria-label={quoteattr(tr('Place of each team after every round'))} "
        'xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(tr('Place after every round'))}</title>",
    ]
    parts += _place_axes(rounds, worst, x, y, left, width - right, height - bottom, tr)
    end_labels: list[tuple[float, str, str, str]] = []
    for index, entrant in enumerate(entrants):
        colour = PALETTE[index % len(PALETTE)]
        label = labels.get(entrant, entrant)
        parts += _entrant_places(entrant, label, colour, places[entrant], x, y)
        final = [place for place in places[entrant] if place is not None][-1]
        end_labels.append((y(final), label, colour, entrant))
    parts += _end_labels(end_labels, width - right + 8, top, height - bottom)
    parts.append("</svg>")
    return "".join(parts)


def _worst_place(places: dict[str, list[int | None]], entrants: list[str]) -> int:
    """The chart's last row: the lowest place a team held, 2 at least (the scale divides by
    the rows between the first and the last)."""
    worst = max(p for entrant in entrants for p in places[entrant] if p is not None)
    return max(worst, 2)


def _entrant_places(
    entrant: str,
    label: str,
    colour: str,
    series: list[int | None],
    x: Callable[[int], float],
    y: Callable[[float], float],
) -> list[str]:
    """A team's ``<g class="team">``: a line through its places, a dot at each, broken
    where a round has none."""
    parts = [f'<g class="team" data-team={quoteattr(entrant)}><title>{escape(label)}</title>']
    for segment in _segments(series):
        points = " ".join(f"{_number(x(i))},{_number(y(p))}" for i, p in segment)
        parts.append(f'<polyline points="{points}" stroke="{colour}"/>')
        for i, p in segment:
            parts.append(
                f'<circle cx="{_number(x(i))}" cy="{_number(y(p))}" r="3" fill="{colour}"/>'
            )
    parts.append("</g>")
    return parts


def _segments(series: list[int | None]) -> list[list[tuple[int, int]]]:
    segments: list[list[tuple[int, int]]] = [[]]
    for i, place in enumerate(series):
        if place is None:
            if segments[-1]:
                segments.append([])
        else:
            segments[-1].append((i, place))
    return [s for s in segments if s]


def _place_axes(rounds, worst, x, y, x0, x1, y1, tr: Translate = english) -> list[str]:
    parts = ['<g class="axes">']
    step = max(1, math.ceil(worst / 12))
    for place in sorted({1, *range(step, worst + 1, step), worst}):
        parts.append(
            f'<line class="grid" x1="{x0}" x2="{x1}" y1="{_number(y(place))}" '
            f'y2="{_number(y(place))}"/>'
            f'<text x="{x0 - 6}" y="{_number(y(place) + 5)}" text-anchor="end">{place}</text>'
        )
    round_step = max(1, math.ceil(len(rounds) / 20))
    for i, round_number in enumerate(rounds):
        if i % round_step == 0 or i == len(rounds) - 1:
            at = _number(x(i))
            parts.append(f'<text x="{at}" y="{y1 + 18}" text-anchor="middle">{round_number}</text>')
    parts.append(
        f'<text class="axis-title" x="{(x0 + x1) / 2:.0f}" y="{y1 + 38}" '
        f'text-anchor="middle">{escape(tr("Round"))}</text></g>'
    )
    return parts


def _end_labels(labels, x, top, bottom) -> list[str]:
    """Team names at the ends of the lines, nudged apart so they do not overlap."""
    labels.sort()
    placed: list[float] = []
    parts = []
    for wanted, text, colour, entrant in labels:
        at = max(wanted, (placed[-1] + 16) if placed else top)
        placed.append(at)
        parts.append(
            f'<text class="team-label" data-team={quoteattr(entrant)} x="{x}" '
            f'y="{_number(at + 4)}" fill="{colour}">{escape(text[:28])}</text>'
        )
    return parts


def symlog(value: float) -> float:
    """A scale that keeps small scores apart and big ones on the page: sign · log10(1+|v|/10)."""
    return math.copysign(math.log10(1 + abs(value) / 10), value)


def spread_svg(groups: list[dict[str, Any]], tr: Translate = english) -> str:
    """A strip per table, board and side: the box of the middle half of the results, the
    median, the whiskers to the lowest and highest, and the results as dots."""
    shown = groups[:SPREAD_MAX_ROWS]
    if not shown:
        return ""
    lowest = min(g["low"] for g in shown)
    highest = max(g["high"] for g in shown)
    lo, hi = symlog(min(lowest, 0)), symlog(max(highest, 0))
    if hi - lo < 1e-9:
        lo, hi = lo - 1, hi + 1
    left, right, top, row = 116, 16, 32, 22
    width = 760
    height = top + row * len(shown) + 12
    plot_w = width - left - right

    def x(value: float) -> float:
        return left + plot_w * (symlog(value) - lo) / (hi - lo)

    parts = [
        f'<svg class="spread-chart" viewBox="0 0 {width} {height}" role="img" '
        f"aria-label={quoteattr(tr('Spread of the table results at every table'))} "
        'xmlns="http://www.w3.org/2000/svg">'
        f"<title>{escape(tr('Spread of the results at every table'))}</title>",
    ]
    parts += _spread_axis(lowest, highest, x, top, height)
    for index, group in enumerate(shown):
        parts += _spread_strip(group, top + row * index + row / 2, left, x, tr)
    parts.append("</svg>")
    return "".join(parts)


def _spread_axis(
    lowest: float, highest: float, x: Callable[[float], float], top: int, height: int
) -> list[str]:
    """The grid lines at the powers of ten within the results' range, and at 0."""
    parts = ['<g class="axes">']
    for tick in (-10000, -1000, -100, -10, 0, 10, 100, 1000, 10000):
        if lowest <= tick <= highest or tick == 0:
            at = _number(x(tick))
            parts.append(
                f'<line class="grid" x1="{at}" x2="{at}" y1="{top - 6}" y2="{height - 8}"/>'
                f'<text x="{at}" y="{top - 12}" text-anchor="middle">{tick}</text>'
            )
    parts.append("</g>")
    return parts


def _spread_strip(
    group: dict[str, Any], mid: float, left: int, x: Callable[[float], float], tr: Translate
) -> list[str]:
    """One strip at height ``mid``: its label (the table, the board unless it is the first,
    the side), the whiskers, the box, the median and the results as dots."""
    label = tr("T%(table)s") % {"table": group["table"]}
    if group["board"] != 1:
        label += " " + tr("B%(board)s") % {"board": group["board"]}
    side = group["side"]
    parts = [
        f'<g class="strip side-{side}"><title>{escape(_strip_title(group, tr))}</title>'
        f'<text x="{left - 8}" y="{_number(mid + 5)}" text-anchor="end">'
        f"{escape(label)} {escape(tr(side))}</text>"
        f'<line class="whisker" x1="{_number(x(group["low"]))}" '
        f'x2="{_number(x(group["high"]))}" y1="{_number(mid)}" y2="{_number(mid)}"/>'
        f'<rect x="{_number(x(group["q1"]))}" y="{_number(mid - 5)}" '
        f'width="{_number(max(1, x(group["q3"]) - x(group["q1"])))}" height="10"/>'
        f'<line class="median" x1="{_number(x(group["median"]))}" '
        f'x2="{_number(x(group["median"]))}" y1="{_number(mid - 6)}" y2="{_number(mid + 6)}"/>'
    ]
    for number, score in enumerate(group.get("scores") or []):
        jitter = ((number * 7) % 5 - 2) * 1.2
        parts.append(f'<circle cx="{_number(x(score))}" cy="{_number(mid + jitter)}" r="1.8"/>')
    parts.append("</g>")
    return parts


def _strip_title(group: dict[str, Any], tr: Translate = english) -> str:
    return tr(
        "Table %(table)s, board %(board)s, %(side)s: %(results)s results, lowest %(low)s, "
        "median %(median)s, highest %(high)s"
    ) % {**group, "side": tr(group["side"])}
