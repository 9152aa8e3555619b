"""Who organises a club: an organiser (``tournaments.permissions.is_organiser``) on the club's
list of organisers, or a superuser. Other organisers never see the club's members: its pages
and its API answer them 404, as if the club did not exist."""

from __future__ import annotations

from typing import Any

from clubs.models import Club
from tournaments.permissions import is_organiser


def organises(user: Any, club: Club) -> bool:
    if not is_organiser(user):
        return False
    return bool(user.is_superuser) or club.organisers.filter(pk=user.pk).exists()
