"""Who may organise: users holding the ``tournaments.organise`` permission (directly, through
the "organisers" group that ``manage.py create_organiser`` fills, or as superusers).

Every organiser view is wrapped in ``organiser_required``: anonymous visitors are sent to the
sign-in page, signed-in users without the permission get 403.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.models import Group, Permission
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from rest_framework.permissions import BasePermission

ORGANISE_PERMISSION = "tournaments.organise"
ORGANISERS_GROUP = "organisers"


def is_organiser(user: Any) -> bool:
    return bool(
        user and user.is_authenticated and user.is_active and user.has_perm(ORGANISE_PERMISSION)
    )


class IsOrganiser(BasePermission):
    """The API's check (organiser token or session): 403 to anyone else."""

    message = "only organisers may do this"

    def has_permission(self, request: Any, view: Any) -> bool:
        return is_organiser(request.user)


def organiser_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_organiser(request.user):
            raise PermissionDenied("Only organisers may use this page.")
        return view(request, *args, **kwargs)

    return wrapped


def organisers_group() -> Group:
    """The "organisers" group, created with the organise permission on first use."""
    group, _ = Group.objects.get_or_create(name=ORGANISERS_GROUP)
    app_label, codename = ORGANISE_PERMISSION.split(".")
    permission = Permission.objects.get(content_type__app_label=app_label, codename=codename)
    group.permissions.add(permission)
    return group
