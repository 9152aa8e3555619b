"""Errors of the scoring services. Each maps to one HTTP status, so pages and the API give the
same answer for the same mistake."""

from __future__ import annotations


class ScoringError(Exception):
    status = 400
    kind = "invalid"

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


class InvalidEntry(ScoringError):
    """What was entered cannot be scored (illegal call, impossible tricks, ...)."""


class NotAllowed(ScoringError):
    """The team or user may not do this (wrong side, not their match, a later match)."""

    status = 403
    kind = "forbidden"


class NotFound(ScoringError):
    status = 404
    kind = "not_found"


class WrongState(ScoringError):
    """The match is not in a state where this can happen (already confirmed, finalised, ...)."""

    status = 409
    kind = "conflict"


class NoLongerStands(WrongState):
    """A re-sent action (the same client id) whose row no longer stands: the entry was
    replaced or rejected, the result erased or changed, the board moved on since."""

    kind = "no_longer_stands"
