"""The state of one board of a match, folded from its append-only history.

States: ``empty`` (nothing entered), ``returned`` (East rejected; back to North),
``awaiting_east`` (North entered, East to check), ``confirmed`` (East accepted, or the director
entered the result), ``disputed`` (rejected twice, or the director was called), ``adjusted``
(the director gave an adjusted result).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext, gettext_noop

EMPTY = "empty"
RETURNED = "returned"
AWAITING_EAST = "awaiting_east"
CONFIRMED = "confirmed"
DISPUTED = "disputed"
ADJUSTED = "adjusted"

# Marked for the catalogue; ``BoardState.label`` gives them in the page's language.
STATE_LABELS = {
    EMPTY: gettext_noop("No result yet"),
    RETURNED: gettext_noop("Returned to North"),
    AWAITING_EAST: gettext_noop("Awaiting East"),
    CONFIRMED: gettext_noop("Confirmed"),
    DISPUTED: gettext_noop("Disputed: director called"),
    ADJUSTED: gettext_noop("Adjusted by the director"),
}
# A second rejection of the same board calls the director.
REJECTIONS_BEFORE_DISPUTE = 2


@dataclass
class BoardState:
    state: str = EMPTY
    pending: Any = None  # the Submission awaiting East
    rejections: int = 0
    last_reason: str = ""
    history: list[Any] = field(default_factory=list)

    @property
    def label(self) -> str:
        return gettext(STATE_LABELS[self.state])

    @property
    def has_result(self) -> bool:
        return self.state in (CONFIRMED, ADJUSTED)


def progress_fields(board: BoardState) -> dict[str, Any]:
    """The columns of the board's stored progress row (``BoardProgress``) for this state."""
    return {
        "state": board.state,
        "pending_id": board.pending.pk if board.pending is not None else None,
        "rejections": board.rejections,
        "last_reason": board.last_reason,
    }


def apply_entry(board: BoardState, submission: Any) -> None:
    """North's entry awaits East; the director's own entries count through their review."""
    if submission.source == "north":
        board.pending, board.state = submission, AWAITING_EAST


def apply_review(board: BoardState, action: str, reason: str) -> None:
    if action == "accept":
        board.state, board.pending = CONFIRMED, None
    elif action == "reject":
        board.rejections += 1
        board.pending, board.last_reason = None, reason
        board.state = DISPUTED if board.rejections >= REJECTIONS_BEFORE_DISPUTE else RETURNED
    elif action == "call_director":
        board.state, board.last_reason = DISPUTED, reason
    elif action in ("director_entry", "adjust", "erase"):
        board.state = {"director_entry": CONFIRMED, "adjust": ADJUSTED, "erase": EMPTY}[action]
        board.pending, board.rejections = None, 0


def fold(submissions: list[Any], reviews: list[Any]) -> BoardState:
    """The state after these rows (all of one match and board), in the order they were made.
    The writes keep the same state row by row (``BoardProgress``) with the same two steps."""
    board = BoardState()
    events = sorted(
        [(s.created_at, 0, s.pk, s) for s in submissions]
        + [(r.created_at, 1, r.pk, r) for r in reviews],
        key=lambda e: (e[0], e[1], e[2]),
    )
    for _when, is_review, _pk, row in events:
        board.history.append(row)
        if is_review:
            apply_review(board, row.action, row.reason)
        else:
            apply_entry(board, row)
    return board
