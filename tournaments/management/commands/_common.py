"""Shared by the management commands: finding the tournament and the acting user."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError, CommandParser

from tournaments.models import Tournament
from tournaments.services import ServiceError


def add_by_argument(parser: CommandParser) -> None:
    parser.add_argument(
        "--by",
        metavar="USERNAME",
        help="the organiser to name in the action log (default: 'command line')",
    )


def acting_user(username: str | None):
    if not username:
        return None
    try:
        return get_user_model().objects.get_by_natural_key(username)
    except get_user_model().DoesNotExist:
        raise CommandError(f"there is no user {username!r}") from None


def tournament_by_slug(slug: str) -> Tournament:
    try:
        return Tournament.objects.get(slug=slug)
    except Tournament.DoesNotExist:
        known = ", ".join(Tournament.objects.values_list("slug", flat=True)[:20]) or "none"
        raise CommandError(f"there is no tournament {slug!r} (known: {known})") from None


def service_failure(exc: ServiceError) -> CommandError:
    return CommandError("\n".join(exc.messages))
