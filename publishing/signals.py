"""Follow the standings without touching the scoring code: when the standings task stores new
standings (or a tournament becomes final), queue the chart refresh and the automatic
publication once the transaction commits."""

from __future__ import annotations

from django.db import transaction
from django.db.models.signals import post_save

from scoring.signals import standings_stored
from tournaments.models import Status, Tournament


def _after_commit(tournament_id: int) -> None:
    from publishing.services import enqueue_after_standings

    transaction.on_commit(lambda: enqueue_after_standings(tournament_id))


def standings_saved(sender, tournament_id: int, **kwargs) -> None:
    _after_commit(tournament_id)


def tournament_saved(sender, instance: Tournament, created: bool = False, **kwargs) -> None:
    if not created and instance.status == Status.FINAL:
        _after_commit(instance.pk)


def connect() -> None:
    standings_stored.connect(standings_saved, dispatch_uid="publishing-standings")
    post_save.connect(tournament_saved, sender=Tournament, dispatch_uid="publishing-tournament")
