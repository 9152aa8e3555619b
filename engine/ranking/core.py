"""The vectorised ranking core: plain numpy arrays in, ranking points and totals out.

Ranking points are kept in **half points** (whole numbers: 2 × points) because the only
fractions the ranking itself makes are halves (``ties: average``); sums of them are exact
in any order. Byes are means and so true fractions: they are summed in one fixed order
(team by team, table and board ascending) by the same function on every path, so the full
ranking and the incremental one agree to the last bit. Totals are rounded to
``POINT_DECIMALS`` before they are compared or shown.

Groups are numbered ``2 × tb + side``: ``tb`` is the canonical number of a (table, board)
pair (ascending), ``side`` 0 for NS and 1 for EW.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

SIDES = ("NS", "EW")
POINT_DECIMALS = 6
PERCENT_DECIMALS = 2  # percentages are shown rounded to this; compared exactly
# How a team's bye is valued: the mean of the side it plays, or of both sides' means.
BYE_NS, BYE_EW, BYE_BOTH = 0, 1, 2
DISQUALIFIED_SCORE = -1000.0
OPPONENT_OF_DISQUALIFIED_SCORE = 0.0


def _by_group_then_key(groups: np.ndarray, key: np.ndarray) -> np.ndarray:
    """Order by group, then key. Two plain sorts on whole numbers beat one ``lexsort``."""
    by_key = np.argsort(key)
    sorted_key = key[by_key]
    new_value = np.empty(key.size, dtype=bool)
    new_value[0] = True
    np.not_equal(sorted_key[1:], sorted_key[:-1], out=new_value[1:])
    dense = np.empty(key.size, dtype=np.int64)  # equal keys, equal codes
    dense[by_key] = np.cumsum(new_value) - 1
    distinct = int(dense[by_key[-1]]) + 1
    if int(groups.max()) >= (2**62) // distinct or int(groups.min()) < 0:
        return np.lexsort((key, groups))
    return np.argsort(groups * distinct + dense)


def ranking_half_points(groups: np.ndarray, scores: np.ndarray, ties: str) -> np.ndarray:
    """Twice the ranking points of each result among the results of its group.

    Highest score first (1 point); ``ties`` is ``min``, ``average`` or ``max``. A NaN score
    is a ``rules-1709`` passed-out result: below every other result of its group, and every
    passed-out result of the group gets the group's size whatever the tie policy.
    """
    groups = np.asarray(groups, dtype=np.int64)
    scores = np.asarray(scores, dtype=np.float64)
    count = scores.size
    if count == 0:
        return np.zeros(0, dtype=np.int64)
    passed_out = np.isnan(scores)
    key = np.where(passed_out, np.inf, -scores)  # ascending key = best first; passed out last
    order = _by_group_then_key(groups, key)
    sorted_groups, sorted_keys = groups[order], key[order]
    starts_group = np.empty(count, dtype=bool)
    starts_group[0] = True
    np.not_equal(sorted_groups[1:], sorted_groups[:-1], out=starts_group[1:])
    starts_run = starts_group.copy()  # a run: equal results in one group
    starts_run[1:] |= sorted_keys[1:] != sorted_keys[:-1]
    positions = np.arange(count)
    group_start = np.maximum.accumulate(np.where(starts_group, positions, 0))
    run_starts = np.flatnonzero(starts_run)
    run_ends = np.append(run_starts[1:], count)
    run_of = np.cumsum(starts_run) - 1
    best = run_starts[run_of] - group_start + 1  # the best place the tie spans
    worst = run_ends[run_of] - group_start  # the worst; for passed out, the group's size
    if ties == "min":
        half = 2 * best
    elif ties == "max":
        half = 2 * worst
    elif ties == "average":
        half = best + worst
    else:
        raise ValueError(f"unknown ties policy {ties!r} (min, average or max)")
    half = np.where(passed_out[order], 2 * worst, half)
    result = np.empty(count, dtype=np.int64)
    result[order] = half
    return result


def rank_groups(groups: np.ndarray, scores: np.ndarray, ties: str = "min") -> np.ndarray:
    """Ranking points (floats) of each result among its group; see ``ranking_half_points``."""
    return ranking_half_points(groups, scores, ties) / 2.0


def effective_scores(
    ns_score: np.ndarray,
    ew_score: np.ndarray,
    played: np.ndarray,
    ns_disqualified: np.ndarray,
    ew_disqualified: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Table results after disqualifications: ``(ns, ew, ranked, pending)`` per match.

    A disqualified team scores -1000 and its opponent 0 in every match, played or not; a
    match between two disqualified teams is left out and is not waiting for a result.
    """
    only_one = ns_disqualified ^ ew_disqualified
    both = ns_disqualified & ew_disqualified
    ns = np.where(only_one, np.where(ns_disqualified, DISQUALIFIED_SCORE, 0.0), ns_score)
    ew = np.where(only_one, np.where(ew_disqualified, DISQUALIFIED_SCORE, 0.0), ew_score)
    ranked = (played | only_one) & ~both
    pending = ~played & ~only_one & ~both
    return ns, ew, ranked, pending


def group_means(half_sums: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Mean ranking points given in each group; NaN where a group gave none."""
    means = np.full(np.shape(counts), np.nan)
    np.divide(half_sums, 2.0 * np.asarray(counts), out=means, where=np.asarray(counts) > 0)
    return means


def bye_modes(side_counts: np.ndarray) -> np.ndarray:
    """Per team (rows of NS and EW match counts): which side's mean its byes receive."""
    plays_ns, plays_ew = side_counts[:, 0] > 0, side_counts[:, 1] > 0
    return np.where(plays_ns & ~plays_ew, BYE_NS, np.where(plays_ew & ~plays_ns, BYE_EW, BYE_BOTH))


def bye_values(means: np.ndarray, modes: np.ndarray) -> np.ndarray:
    """The value of a bye for teams of these modes (rows) at every table and board (columns).

    NaN where no ranking points were given there yet. ``BYE_BOTH`` takes the mean of the two
    sides' means (or the one side that has results).
    """
    return bye_value_table(means)[modes]


def bye_value_table(means: np.ndarray) -> np.ndarray:
    """Rows ``BYE_NS``, ``BYE_EW``, ``BYE_BOTH``: a bye's value at every table and board."""
    ns, ew = means[0::2], means[1::2]
    either = np.where(np.isnan(ns), ew, np.where(np.isnan(ew), ns, (ns + ew) / 2.0))
    return np.stack([ns, ew, either])


def bye_totals(values: np.ndarray, is_bye: np.ndarray) -> np.ndarray:
    """Row sums of the byes' values, added left to right (``cumsum``) so every path agrees."""
    if values.shape[1] == 0:
        return np.zeros(values.shape[0])
    counted = np.where(is_bye & ~np.isnan(values), values, 0.0)
    return np.cumsum(counted, axis=1)[:, -1]


def team_points(played_half: np.ndarray, bye_total: np.ndarray) -> np.ndarray:
    """Totals as shown and compared: played points plus byes, rounded."""
    return np.round(played_half / 2.0 + bye_total, POINT_DECIMALS)


def places(points: np.ndarray, has_place: np.ndarray) -> np.ndarray:
    """Shared places (1, 1, 3): one more than the number of placed teams with fewer points.

    0 for teams without a place.
    """
    placed = np.sort(points[has_place])
    return np.where(has_place, np.searchsorted(placed, points, side="left") + 1, 0)


def percentage_terms(half: np.ndarray, sizes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each ranked result's percentage as a whole numerator over a whole denominator.

    ``half``: twice the result's ranking points; ``sizes``: how many results its group
    ranks. ``(n - rank) / (n - 1) × 100`` is ``(2n - half) × 50 / (n - 1)``; a group of one
    result is worth 50 (``50 / 1``).
    """
    half = np.asarray(half, dtype=np.int64)
    sizes = np.asarray(sizes, dtype=np.int64)
    alone = sizes <= 1
    numerators = np.where(alone, 50, (2 * sizes - half) * 50)
    denominators = np.where(alone, 1, sizes - 1)
    return numerators, denominators


def team_percentages(
    teams: np.ndarray, numerators: np.ndarray, denominators: np.ndarray, n_teams: int
) -> list[Fraction | None]:
    """Each team's percentage: the exact mean of its results' percentages (``percentage_terms``
    of the results it has, ``teams`` naming whose each is); None for a team without one.

    The results are summed per distinct denominator (a tournament has few group sizes), in
    whole numbers, so equal means come out as equal fractions whatever their order.
    """
    teams = np.asarray(teams, dtype=np.int64)
    counts = np.bincount(teams, minlength=n_teams).tolist()
    distinct = np.unique(denominators).tolist()
    common = math.lcm(*distinct) if distinct else 1
    totals = [0] * n_teams
    for denominator in distinct:
        chosen = denominators == denominator
        # float64 sums of whole numbers are exact far beyond what a tournament reaches
        sums = np.bincount(teams[chosen], weights=numerators[chosen], minlength=n_teams)
        scale = common // denominator
        for team, value in enumerate(np.rint(sums).astype(np.int64).tolist()):
            if value:
                totals[team] += value * scale
    return [
        Fraction(total, common * count) if count else None
        for total, count in zip(totals, counts, strict=True)
    ]


def percentage_out(value: Fraction | None) -> float | None:
    """A percentage as shown: rounded to ``PERCENT_DECIMALS``; None stays None."""
    return None if value is None else round(float(value), PERCENT_DECIMALS)


def percentage_places(percentages: list[Fraction | None], has_place: np.ndarray) -> np.ndarray:
    """Provisional places: highest percentage first, equal (exact) percentages sharing a place
    (1, 1, 3); the teams with a place but no percentage yet share the next place after every
    team with one. 0 for teams without a place.

    The percentages are compared as whole numbers over their common denominator (exact, and
    many times cheaper than comparing the fractions themselves)."""
    placed = has_place.tolist()
    rated = [
        value for value, here in zip(percentages, placed, strict=True) if here and value is not None
    ]
    common = math.lcm(*{value.denominator for value in rated})  # 1 when none is rated
    place_of = _shared_places(value.numerator * (common // value.denominator) for value in rated)
    out = np.zeros(len(percentages), dtype=np.int64)
    for team, (value, here) in enumerate(zip(percentages, placed, strict=True)):
        if not here:
            continue
        if value is None:
            out[team] = len(rated) + 1
        else:
            out[team] = place_of[value.numerator * (common // value.denominator)]
    return out


def _shared_places(keys: Iterable[int]) -> dict[int, int]:
    """Each key's place, highest first, equal keys sharing a place (1, 1, 3)."""
    place_of: dict[int, int] = {}
    for index, key in enumerate(sorted(keys, reverse=True)):
        place_of.setdefault(key, index + 1)  # one more than the number of keys above
    return place_of


@dataclass(frozen=True)
class RankedArrays:
    """Everything ``rank_arrays`` works out, indexed by result, group or team."""

    half: np.ndarray  # per result: twice its ranking points, 0 when not ranked
    group_half_sums: np.ndarray
    group_counts: np.ndarray
    played_half: np.ndarray  # per team
    matches: np.ndarray
    bye_total: np.ndarray
    points: np.ndarray


def rank_arrays(
    teams: np.ndarray,
    groups: np.ndarray,
    scores: np.ndarray,
    ranked: np.ndarray,
    appearances: np.ndarray,
    side_counts: np.ndarray,
    ties: str,
) -> RankedArrays:
    """Rank a whole tournament held in arrays.

    ``teams``, ``groups``, ``scores``, ``ranked``: one entry per table result (team number,
    group number, table result with NaN for passed out, whether it is ranked).
    ``appearances``: teams × (table, board) count of scheduled matches (zero = a bye there).
    ``side_counts``: teams × 2 count of scheduled matches as NS and as EW.
    """
    n_teams, n_tables = appearances.shape
    n_groups = 2 * n_tables
    ranked_at = np.flatnonzero(ranked)
    half = np.zeros(scores.size, dtype=np.int64)
    half[ranked_at] = ranking_half_points(groups[ranked_at], scores[ranked_at], ties)
    ranked_groups, ranked_teams = groups[ranked_at], teams[ranked_at]
    group_half_sums = np.bincount(ranked_groups, half[ranked_at], n_groups).astype(np.int64)
    group_counts = np.bincount(ranked_groups, minlength=n_groups)
    played_half = np.bincount(ranked_teams, half[ranked_at], n_teams).astype(np.int64)
    matches = np.bincount(ranked_teams, minlength=n_teams)
    values = bye_values(group_means(group_half_sums, group_counts), bye_modes(side_counts))
    bye_total = bye_totals(values, appearances == 0)
    return RankedArrays(
        half=half,
        group_half_sums=group_half_sums,
        group_counts=group_counts,
        played_half=played_half,
        matches=matches,
        bye_total=bye_total,
        points=team_points(played_half, bye_total),
    )
