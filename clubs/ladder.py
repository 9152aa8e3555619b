"""A season's ladder, computed from the members' results in the season's final events.

Pure Python: no Django here. The caller gives the results (``Result``) and the rule
(``Rule``); ``ladder`` ranks the members.

The rules (``Rule.kind``):

- ``best``: the sum of a member's best ``best_n`` percentages, divided by ``best_n`` (an
  event he did not play counts 0, so coming back every week pays);
- ``average``: the mean of all his percentages; a member with fewer than ``min_events``
  counted events is listed below the ranked ones, without a place;
- ``points``: the points of each place he took (``points`` lists the points of place 1, 2,
  ...; a place beyond the list scores 0), summed.

What counts: a result of an entrant disqualified never counts. A withdrawn entrant's result
counts by its percentage (the boards he played stand) but scores no points for a place, as it
has none. A result without a percentage (a game ranked by totals) counts only for points.

Ties: members with the same score share the place (1, 2, 2, 4); the one above breaks no tie.
Scores are compared rounded to 2 decimals, as they are shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

KINDS = ("best", "average", "points")
DISQUALIFIED = "disqualified"
WITHDRAWN = "withdrawn"


@dataclass(frozen=True)
class Rule:
    kind: str
    best_n: int = 10
    min_events: int = 1
    points: tuple[float, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"a ladder's rule is one of {', '.join(KINDS)}, not {self.kind!r}")
        if self.best_n < 1 or self.min_events < 1:
            raise ValueError("the best N and the minimum of events are whole numbers from 1 up")
        if self.kind == "points" and not self.points:
            raise ValueError("a ladder by points needs the points of place 1 at least")
        if any(value < 0 for value in self.points):
            raise ValueError("the points of a place are never negative")


@dataclass(frozen=True)
class Result:
    member: int
    event: int
    place: int | None
    percentage: float | None
    status: str = "ok"


@dataclass
class Rung:
    member: int
    score: float
    events: int  # events that counted
    place: int | None  # None: not ranked (fewer events than the minimum)
    counted: list[int] = field(default_factory=list)  # the events that made the score


def _counts(result: Result, rule: Rule) -> bool:
    if result.status == DISQUALIFIED:
        return False
    if rule.kind == "points":
        return result.place is not None and result.status != WITHDRAWN
    return result.percentage is not None


def _score(results: list[Result], rule: Rule) -> tuple[float, list[int]]:
    if rule.kind == "points":
        table = rule.points
        total = sum(table[r.place - 1] if r.place and r.place <= len(table) else 0 for r in results)
        return float(total), [r.event for r in results]
    ordered = sorted(results, key=lambda r: (-(r.percentage or 0.0), r.event))
    if rule.kind == "best":
        best = ordered[: rule.best_n]
        return sum(r.percentage or 0.0 for r in best) / rule.best_n, [r.event for r in best]
    return sum(r.percentage or 0.0 for r in ordered) / len(ordered), [r.event for r in ordered]


def ladder(results: Iterable[Result], rule: Rule) -> list[Rung]:
    """Every member with a counted result, best first: the ranked ones with their places
    (ties shared), then those below the minimum of events (``average``), best score first."""
    by_member: dict[int, list[Result]] = {}
    for result in results:
        if _counts(result, rule):
            by_member.setdefault(result.member, []).append(result)
    rungs = []
    for member, own in by_member.items():
        score, counted = _score(own, rule)
        rungs.append(Rung(member, round(score, 2), len(own), None, counted))
    rungs.sort(key=lambda rung: (-rung.score, rung.member))
    short = rule.kind == "average"
    ranked = [r for r in rungs if not short or r.events >= rule.min_events]
    _place(ranked)
    return ranked + [r for r in rungs if short and r.events < rule.min_events]


def _place(rungs: Sequence[Rung]) -> None:
    for index, rung in enumerate(rungs):
        tied = index and rungs[index - 1].score == rung.score
        rung.place = rungs[index - 1].place if tied else index + 1
