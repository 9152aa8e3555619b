"""Featured tables, the recording of their boards and every action taken at them.

A **featured table** has a recorder, who signs in with an access code of its own and takes
down each board of the table's matches as it is played: the calls, then every card. A
**recording** is one board of one match; its **actions** are kept in the order they were
taken, each with the client id the recorder's tablet gave it, so a re-sent action is taken
once. An undo is an action too: it marks the latest action still standing as undone.
"""

from __future__ import annotations

from django.db import models

from tournaments.models import Match, Table, new_access_code


class FeaturedTable(models.Model):
    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="featured")
    recorder_code = models.CharField(max_length=10, default=new_access_code, editable=False)
    #: Bumped by every action taken at the table: the broadcast's pages poll it.
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("table__number",)

    def __str__(self) -> str:
        return f"{self.table} (featured)"


class Recording(models.Model):
    """One board of one match at a featured table, as the recorder took it down."""

    featured = models.ForeignKey(FeaturedTable, on_delete=models.CASCADE, related_name="recordings")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="recordings")
    board = models.PositiveSmallIntegerField()
    over = models.BooleanField(default=False)
    #: What North enters for the board, once play is over (the game's entry fields).
    facts = models.JSONField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("match__round", "board")
        constraints = (
            models.UniqueConstraint(fields=["match", "board"], name="recording_one_per_board"),
        )

    def __str__(self) -> str:
        return f"{self.match}, board {self.board} (recorded)"


class RecordedAction(models.Model):
    """A call, a card or an undo, in the order taken."""

    UNDO = "undo"

    recording = models.ForeignKey(Recording, on_delete=models.CASCADE, related_name="actions")
    position = models.PositiveIntegerField()
    action = models.CharField(max_length=40)
    client_id = models.CharField(max_length=64)
    undone = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("recording", "position")
        constraints = (
            models.UniqueConstraint(
                fields=["recording", "client_id"], name="recorded_action_client_id_once"
            ),
            models.UniqueConstraint(
                fields=["recording", "position"], name="recorded_action_position_once"
            ),
        )

    def __str__(self) -> str:
        return f"{self.recording}: {self.position}. {self.action}"
