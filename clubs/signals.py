"""Follow the club events without touching the tournaments or scoring code: when an event's
standings are stored or its tournament is saved (finalised, reopened), the club's ladders are
computed again once the transaction commits; and when a club event is deleted."""

from __future__ import annotations

from django.db import transaction
from django.db.models.signals import post_delete, post_save

from scoring.signals import standings_stored
from tournaments.models import Tournament


def _after_commit(tournament_id: int) -> None:
    from clubs.seasons import club_of_tournament, enqueue_ladders

    club_id = club_of_tournament(tournament_id)
    if club_id is not None:
        transaction.on_commit(lambda: enqueue_ladders(club_id))


def standings_saved(sender, tournament_id: int, **kwargs) -> None:
    _after_commit(tournament_id)


def tournament_saved(sender, instance: Tournament, created: bool = False, **kwargs) -> None:
    if not created:
        _after_commit(instance.pk)


def club_event_deleted(sender, instance, **kwargs) -> None:
    """A club event deleted (with its tournament): the club's ladders without it."""
    from clubs.seasons import enqueue_ladders

    club_id = instance.club_id
    transaction.on_commit(lambda: enqueue_ladders(club_id))


def connect() -> None:
    from clubs.models import ClubEvent

    post_delete.connect(club_event_deleted, sender=ClubEvent, dispatch_uid="clubs-event-gone")
    standings_stored.connect(standings_saved, dispatch_uid="clubs-standings")
    post_save.connect(tournament_saved, sender=Tournament, dispatch_uid="clubs-tournament")
