"""Ranking points, standings, disqualification and finalisation (rulebook sections 5-7).

``rank_results(data)`` reads the tournament results object of the interchange formats
(section 4) and returns the standings object. Table results are ranked per table, board and
side; the least total of ranking points wins.

Rulings where the rulebook leaves a point open (also in ``docs/ranking.md``):

- **Byes.** The tables and boards of a tournament are those its matches use. A team with no
  match at a table and board (played or not) has a bye there and receives the mean of the
  ranking points given there to the side it plays: its side if all its matches are on one
  side, else the mean of the NS and EW means (``side: null`` in its tables). A team with no
  match at all gets byes everywhere the same way. While nothing has been ranked at a table and
  board, a bye there is worth nothing yet (``rank: null``). Byes count in points, not in
  ``matches``.
- **Provisional** means some scheduled match still has no result. A match between two teams
  disqualified before finalisation never gets one and does not count as waiting.
- **Percentage.** Every standings row has ``percentage``: the mean over the team's ranked
  results of ``(n - rank) / (n - 1) × 100`` (n results in the group; one result: 50), byes
  not being results; rounded to 2 decimals, None for a team without a ranked result.
- **Places.** While the standings are provisional, by percentage, highest first, compared
  exactly (fractions); teams without a ranked result share the place after them. Otherwise
  by points, least first.
- **Order.** Teams with a place first, by place, then points, then team id in natural order
  ("T2" before "T10"); disqualified teams after them by points, then id. The order never
  depends on the order of teams or matches in the input.
- **Points** are rounded to 6 decimals (byes make thirds, sevenths, ...) before they are
  compared or shown; whole numbers are shown as integers.
- **matches** counts a team's ranked results: one per match entry (one board of a match),
  including results replaced after a disqualification.
- **Disqualified teams** keep their points (ranked like everyone's) but get no place.
- **Disqualification after finalisation** in ``rank_results``: the tournament is ranked as if
  it had not happened, the standings are frozen (``finalise``), then each such team is taken
  off (``FinalStandings.disqualify_after_final``): the teams with more points than it move up
  one place; nobody's points change.
- Games of individuals: ``rank_individuals(data)`` (``engine.ranking.individual``) ranks each
  table, board and seat, or the game's own totals.
- A team plays once per round: several boards of one match share the round, table, opponents
  and sides. A table hosts one match per round and board.
"""

from __future__ import annotations

from typing import Any

from engine.ranking.core import rank_arrays, rank_groups, ranking_half_points
from engine.ranking.final import FinalStandings, finalise
from engine.ranking.individual import rank_individuals
from engine.ranking.inputs import TIE_POLICIES, RankingInputError, read_tournament, team_sort_key
from engine.ranking.state import RankingState

__all__ = [
    "TIE_POLICIES",
    "FinalStandings",
    "RankingInputError",
    "RankingState",
    "finalise",
    "rank_arrays",
    "rank_groups",
    "rank_individuals",
    "rank_results",
    "ranking_half_points",
    "read_tournament",
    "team_sort_key",
]


def rank_results(data: Any) -> dict[str, Any]:
    """Standings (interchange formats, section 4) of a tournament results object.

    Each standings row also lists ``tables``: the team's ranking points per table and board
    (``table, board, side, round, rank, score, bye``). Raises ``RankingInputError`` naming the
    item for input that cannot be ranked.
    """
    return RankingState.build(data).to_standings()
