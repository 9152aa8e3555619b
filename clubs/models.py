"""A club, its members, the club's events and which members played in which entrant.

The tournaments app knows nothing of clubs: an event becomes a club's by a ``ClubEvent`` row,
and an entrant is linked to its players by ``EntrantMember`` rows (a pair to two members, a
player to one). An entrant with no row is a guest.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models import Entrant, Tournament


class Club(models.Model):
    name = models.CharField(max_length=200)
    slug = models.SlugField(unique=True, help_text="Used in addresses; cannot change.")
    # Who may see and change the member list: each of them, and nobody else.
    organisers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="clubs", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("name",)
        constraints = (
            models.CheckConstraint(condition=~Q(name=""), name="club_name_not_empty"),
            models.CheckConstraint(condition=~Q(slug=""), name="club_slug_not_empty"),
        )

    def __str__(self) -> str:
        return self.name


class Member(models.Model):
    """One person on a club's list. ``contact`` is never shown outside the club's organisers;
    ``public`` False means the member opted out of public pages."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="members")
    number = models.CharField("member number", max_length=20)
    name = models.CharField(max_length=100)
    contact = models.CharField(max_length=200, blank=True, help_text="Kept private.")
    active = models.BooleanField(default=True)
    public = models.BooleanField(
        "shown on public pages",
        default=True,
        help_text="Untick when the member opts out of public pages.",
    )
    # Set when an organiser merged this member into another (the same person): the links
    # moved to that member; undoing the merge moves them back.
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="merged_from"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("club", "name", "number")
        constraints = (
            models.UniqueConstraint(fields=["club", "number"], name="member_number_unique_in_club"),
            models.CheckConstraint(condition=~Q(name=""), name="member_name_not_empty"),
            models.CheckConstraint(condition=~Q(number=""), name="member_number_not_empty"),
        )

    def __str__(self) -> str:
        return f"{self.name} ({self.number})"


class ClubEvent(models.Model):
    """A tournament held by a club: it belongs to one club at most. ``date`` is the day it
    was played, as the organiser gives it (at first the day its tournament was created): the
    player's page and the seasons go by it."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="events")
    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="club_event"
    )
    date = models.DateField("played on")

    def __str__(self) -> str:
        return f"{self.club}: {self.tournament}"


class EntrantMember(models.Model):
    """A member playing in an entrant: ``seat`` 1 (the first player, or the player of a game
    of individuals) or 2 (his partner). A member plays at most once in one event."""

    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="member_links")
    # The entrant's tournament, kept beside it so that the database refuses a member twice
    # in one event.
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="links")
    seat = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ("entrant", "seat")
        constraints = (
            models.UniqueConstraint(fields=["entrant", "seat"], name="entrant_member_one_a_seat"),
            models.UniqueConstraint(
                fields=["tournament", "member"], name="entrant_member_once_an_event"
            ),
            models.CheckConstraint(condition=Q(seat__in=(1, 2)), name="entrant_member_seat_1_or_2"),
        )


class MemberMerge(models.Model):
    """An organiser's merge of ``merged`` into ``kept`` (the same person): the links it moved,
    so that it can be undone."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="merges")
    kept = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="+")
    merged = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="+")
    moved_links = models.JSONField(default=list)  # ids of the EntrantMember rows moved
    merged_was_active = models.BooleanField(default=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at", "-id")


class Season(models.Model):
    """A club's events of some games between two dates, and the rule of its ladder
    (``clubs.ladder``: best N percentages, average with a minimum of events, points per
    place). Only final events enter the ladder."""

    class Kind(models.TextChoices):
        BEST = "best", _("Best N percentages")
        AVERAGE = "average", _("Average, with a minimum of events")
        POINTS = "points", _("Points per place")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=100)
    slug = models.SlugField()
    starts = models.DateField()
    ends = models.DateField()
    # Game ids (engine.games); empty: every game.
    games = models.JSONField(default=list, blank=True)
    kind = models.CharField("ladder", max_length=10, choices=Kind.choices, default=Kind.BEST)
    best_n = models.PositiveSmallIntegerField("best N", default=10)
    min_events = models.PositiveSmallIntegerField("minimum of events", default=1)
    # Points of place 1, 2, ... (a place beyond the list scores 0).
    points = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("club", "-starts", "name")
        constraints = (
            models.UniqueConstraint(fields=["club", "slug"], name="season_slug_unique_in_club"),
            models.CheckConstraint(
                condition=Q(ends__gte=models.F("starts")), name="season_ends_after_it_starts"
            ),
            models.CheckConstraint(condition=~Q(name=""), name="season_name_not_empty"),
        )

    def __str__(self) -> str:
        return self.name


class LadderState(models.Model):
    """A season's ladder as the ladder job last computed it."""

    season = models.OneToOneField(Season, on_delete=models.CASCADE, related_name="ladder")
    # [{"member": id, "place": n | null, "score": x, "events": n, "counted": [tournament ids]}]
    rungs = models.JSONField(default=list)
    events = models.JSONField(default=list)  # the final events it was computed from
    computed_at = models.DateTimeField()
