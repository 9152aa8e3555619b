"""Results as they come in from the tables, and the standings computed from them.

History is append-only: every entry (``Submission``) and every verdict on it (``Review``) is a
new row that is never changed. ``Result`` holds the table results that count; a result that is
erased or replaced is kept, marked ``current=False``, and the database allows at most one
current result per match and board (a partial unique constraint).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from engine.core.seats import SEAT_LETTERS
from engine.ranking.stored import expand_standings
from scoring import states
from tournaments.models import Board, Entrant, Match, Tournament


class Submission(models.Model):
    """What a scorer (North) or the director entered for one board of a match."""

    class Source(models.TextChoices):
        NORTH = "north", _("North")
        DIRECTOR = "director", _("Director")

    # Found by match through the (match, client_id) unique index: no index of its own.
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="submissions", db_index=False
    )
    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="submissions")
    source = models.CharField(max_length=10, choices=Source.choices)
    entrant = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    seat = models.CharField(max_length=1, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Made by the phone before sending: a re-send after a dropped connection is the same row.
    client_id = models.CharField(max_length=64)
    remote_addr = models.GenericIPAddressField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    record = models.JSONField(help_text="The board record as entered (interchange format).")
    score = models.JSONField(help_text="The board score the engine computed.")
    north_result = models.IntegerField(null=True, blank=True)
    east_result = models.IntegerField(null=True, blank=True)
    # Why North's entry disagrees with the board's deal on file, for the director's eyes only
    # (GAMES.md, "What the phone may learn"); empty when it agrees or no deal is on file.
    deal_disagreement = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "client_id"], name="submission_client_id_unique_in_match"
            ),
            models.CheckConstraint(
                condition=Q(source__in=["north", "director"]), name="submission_source_valid"
            ),
            models.CheckConstraint(
                condition=Q(source="director") | Q(entrant__isnull=False),
                name="submission_from_north_names_its_entrant",
            ),
        ]

    def __str__(self) -> str:
        return f"Entry {self.pk} for {self.match}, board {self.board.number}"


REVIEW_ACTIONS = ["accept", "reject", "call_director", "director_entry", "adjust", "erase"]


class Review(models.Model):
    """A verdict on the state of a board of a match: East's check, a call for the director,
    or a director's action. Never changed once written."""

    class Action(models.TextChoices):
        ACCEPT = "accept", _("Accepted by East")
        REJECT = "reject", _("Rejected by East")
        CALL_DIRECTOR = "call_director", _("Director called")
        DIRECTOR_ENTRY = "director_entry", _("Result entered by the director")
        ADJUST = "adjust", _("Adjusted result")
        ERASE = "erase", _("Result erased")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="reviews")
    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="reviews")
    submission = models.ForeignKey(
        Submission, null=True, blank=True, on_delete=models.CASCADE, related_name="reviews"
    )
    action = models.CharField(max_length=20, choices=Action.choices)
    entrant = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    client_id = models.CharField(max_length=64, blank=True)
    remote_addr = models.GenericIPAddressField(null=True, blank=True)
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(action__in=REVIEW_ACTIONS), name="review_action_valid"
            ),
            models.CheckConstraint(
                condition=~Q(action__in=["reject", "adjust"]) | ~Q(reason=""),
                name="review_reject_and_adjust_give_a_reason",
            ),
            models.UniqueConstraint(
                fields=["match", "client_id"],
                condition=~Q(client_id=""),
                name="review_client_id_unique_in_match",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_action_display()} ({self.match}, board {self.board.number})"


class Result(models.Model):
    """The table results of a board of a match that count in the standings."""

    class Kind(models.TextChoices):
        CONFIRMED = "confirmed", _("Confirmed by East")
        DIRECTOR = "director", _("Entered by the director")
        ADJUSTED = "adjusted", _("Adjusted by the director")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="results")
    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="results")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    submission = models.ForeignKey(
        Submission, null=True, blank=True, on_delete=models.CASCADE, related_name="results"
    )
    review = models.OneToOneField(Review, on_delete=models.CASCADE, related_name="result")
    # Null only for a rules-1709 passed-out board, which ranks worst in its group.
    north_result = models.IntegerField(null=True, blank=True)
    east_result = models.IntegerField(null=True, blank=True)
    passed_out = models.BooleanField(default=False)
    # Games of individuals: every seat's table result ({"N": 8, "E": -8, ...}); ``north_result``
    # and ``east_result`` then hold North's and East's.
    seats = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)
    current = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "board"],
                condition=Q(current=True),
                name="result_one_current_per_match_board",
            ),
            models.CheckConstraint(
                condition=Q(kind__in=["confirmed", "director", "adjusted"]),
                name="result_kind_valid",
            ),
            models.CheckConstraint(
                condition=Q(kind="adjusted") | Q(submission__isnull=False),
                name="result_entry_has_a_submission",
            ),
            models.CheckConstraint(
                condition=Q(passed_out=True)
                | (Q(north_result__isnull=False) & Q(east_result__isnull=False)),
                name="result_has_table_results_unless_passed_out",
            ),
        ]

    @property
    def seat_results(self) -> list[tuple[str, int]]:
        """``(seat, table result)`` in table order N, E, S, W (a JSON object's keys come back
        from PostgreSQL in its own order)."""
        seats = self.seats or {}
        return [(seat, seats[seat]) for seat in SEAT_LETTERS if seat in seats]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.north_result} / {self.east_result}"


class BoardProgress(models.Model):
    """Where a board of a match stands: the fold of its history (``states.fold``), kept by
    every write in the transaction that appends to that history, with the match row locked.
    The scorers' writes check this one row instead of reading the whole history. A row
    exists once the board has any history."""

    STATES = [(key, label) for key, label in states.STATE_LABELS.items()]

    # Found by match through the (match, board) unique index: no index of its own.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+", db_index=False)
    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="+")
    state = models.CharField(max_length=20, choices=STATES)
    # North's entry awaiting East (kept under a call for the director, as in the fold).
    pending = models.ForeignKey(
        Submission, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    rejections = models.PositiveSmallIntegerField(default=0)
    last_reason = models.TextField(blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "board"], name="board_progress_one_per_board"),
            models.CheckConstraint(
                condition=Q(state__in=list(states.STATE_LABELS)), name="board_progress_state_valid"
            ),
            models.CheckConstraint(
                condition=~Q(state=states.AWAITING_EAST) | Q(pending__isnull=False),
                name="board_progress_awaiting_east_has_an_entry",
            ),
        ]

    def as_state(self) -> states.BoardState:
        return states.BoardState(
            state=self.state,
            pending=self.pending,
            rejections=self.rejections,
            last_reason=self.last_reason,
        )

    def __str__(self) -> str:
        return f"{self.match}, board {self.board_id}: {self.state}"


class StoredStandingsField(models.JSONField):
    """The standings object, kept in the compact form of engine/ranking/stored.py (a bye's
    entry once per table and board, not once per team) and read back whole. A part read
    alone (``standings__groups``), or standings stored whole, are read as they are.

    PostgreSQL keeps it as ``json``, the text as written, not ``jsonb``: the object is
    written whole after every recompute and only ever read whole or by one key, and
    building jsonb's binary form cost PostgreSQL three quarters of the write (one round of
    1,000 tables: 0.6 MB, some 55 of 75 ms). The key operators read ``json`` too; the
    containment and key-existence lookups, which only jsonb has, are not used on it."""

    def db_type(self, connection):
        if connection.vendor == "postgresql":
            return "json"
        return super().db_type(connection)

    def from_db_value(self, value, expression, connection):
        if value is not None and not isinstance(value, str):
            # PostgreSQL's json, decoded by the driver (Django reads only jsonb as text)
            return expand_standings(value)
        return expand_standings(super().from_db_value(value, expression, connection))


class StandingsState(models.Model):
    """Bookkeeping of a tournament's stored standings: which change of results they reflect.

    ``results_version`` goes up in the same transaction as every change of results; the
    standings task stores the version it computed from. Standings are stale while the two
    differ, and a periodic reconcile catches up any that a lost task left behind.
    """

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="standings_state"
    )
    results_version = models.PositiveIntegerField(default=0)
    computed_version = models.PositiveIntegerField(default=0)
    computed_at = models.DateTimeField(null=True, blank=True)
    provisional = models.BooleanField(default=True)
    final = models.BooleanField(default=False)
    # The full standings object of the interchange formats, as the pages and API serve it
    # (stored compact: StoredStandingsField).
    standings = StoredStandingsField(default=dict)

    @property
    def stale(self) -> bool:
        return self.computed_version < self.results_version

    def __str__(self) -> str:
        return f"Standings of {self.tournament} (v{self.computed_version}/{self.results_version})"


class Standing(models.Model):
    """One team's line in the stored standings."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="standings")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="standings")
    place = models.PositiveIntegerField(null=True, blank=True)
    points = models.FloatField()
    # The mean percentage of its ranked results, rounded to 2 decimals; null without one
    # (and in a game ranked by totals).
    percentage = models.FloatField(null=True, blank=True)
    matches = models.PositiveIntegerField()
    status = models.CharField(max_length=20)

    class Meta:
        ordering = [
            "tournament",
            models.F("place").asc(nulls_last=True),
            "points",
            "entrant__number",
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "entrant"], name="standing_one_per_entrant"
            ),
        ]


class RankingPoints(models.Model):
    """A team's ranking points for one board of one match, from the stored standings."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="ranking_points")
    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="+")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="ranking_points")
    side = models.CharField(max_length=2)
    score = models.IntegerField(null=True, blank=True)
    points = models.FloatField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["match", "board", "entrant"], name="ranking_points_one_per_entrant_board"
            ),
        ]
