"""The organiser's page of the room's changes after the draw: a late arrival, a withdrawal, a
substitute, and the list of changes made, each with its undo (``tournaments.room``). Reached
from the dashboard; behind ``organiser_required`` like every organiser page."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from tournaments import room, room_selectors, selectors
from tournaments.models import Entrant, RoomChange, Tournament
from tournaments.permissions import organiser_required
from tournaments.services import ServiceError
from tournaments.views import _render, _tournament


class ArrivalForm(forms.Form):
    name = forms.CharField(max_length=100)
    player1 = forms.CharField(label="First player", max_length=100, required=False)
    player2 = forms.CharField(label="Second player", max_length=100, required=False)


class WithdrawalForm(forms.Form):
    entrant = forms.TypedChoiceField(coerce=int)
    after_round = forms.IntegerField(label="Withdrew after round", min_value=0)
    reason = forms.CharField(max_length=300, required=False)


class SubstituteForm(forms.Form):
    entrant = forms.TypedChoiceField(coerce=int)
    member = forms.TypedChoiceField(
        label="Plays for", coerce=int, choices=[(1, "First player"), (2, "Second player")]
    )
    name = forms.CharField(label="Substitute's name", max_length=100)
    from_round = forms.IntegerField(label="From round", min_value=1)
    to_round = forms.IntegerField(
        label="To round", min_value=1, required=False, help_text="Empty: to the end."
    )


FORMS = {"arrival": ArrivalForm, "withdrawal": WithdrawalForm, "substitute": SubstituteForm}


def _forms(tournament: Tournament, data: Any, posted: str | None) -> dict[str, forms.Form]:
    """The three forms; the one posted is bound to the request's data."""
    entrants = [(e.number, f"{e.number} {e.name}") for e in tournament.teams.all()]
    first = room_selectors.first_open_round(tournament)
    built: dict[str, forms.Form] = {}
    for kind, form_class in FORMS.items():
        form = form_class(
            data if kind == posted else None,
            prefix=kind,
            initial={"after_round": first - 1, "from_round": first},
        )
        if "entrant" in form.fields:
            form.fields["entrant"].choices = entrants
        if kind == "arrival" and tournament.of_players:
            del form.fields["player1"], form.fields["player2"]
        if kind == "substitute" and tournament.of_players:
            form.fields["member"].choices = [(1, "The player")]
        built[kind] = form
    return built


def _run(kind: str, tournament: Tournament, user: Any, data: dict[str, Any]) -> str:
    """The service for the posted form; returns the success message."""
    if kind == "arrival":
        change = room.late_arrival(by=user, tournament=tournament, **data)
        return f"{change.entrant.name} is seated from round {change.from_round}."
    entrant = get_object_or_404(Entrant, tournament=tournament, number=data.pop("entrant"))
    if kind == "withdrawal":
        change = room.withdraw(by=user, entrant=entrant, **data)
    else:
        change = room.substitute(by=user, entrant=entrant, **data)
    return change.in_words() + "."


@organiser_required
def room_changes(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    posted = request.POST.get("kind") if request.method == "POST" else None
    built = _forms(tournament, request.POST or None, posted)
    form = built.get(posted or "")
    if form is not None and form.is_valid():
        try:
            done = _run(posted or "", tournament, request.user, dict(form.cleaned_data))
        except ServiceError as exc:
            for message in exc.messages:
                form.add_error(None, message)
        else:
            messages.success(request, done)
            return redirect("tournaments:room", slug=slug)
    status = 200 if form is None or not form.errors else 400
    response = _render(
        request,
        "tournaments/room.html",
        tournament,
        forms=built,
        changes=RoomChange.objects.filter(tournament=tournament).select_related("entrant"),
        first_open=room_selectors.first_open_round(tournament),
        effects=selectors.room_change_effects(tournament),
        last_round=room_selectors.last_round(tournament),
    )
    response.status_code = status
    return response


@organiser_required
@require_POST
def room_undo(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = _tournament(slug)
    change = get_object_or_404(RoomChange, tournament=tournament, pk=pk)
    try:
        done = room.undo(by=request.user, change=change)
    except ServiceError as exc:
        for message in exc.messages:
            messages.error(request, message)
        return redirect("tournaments:room", slug=slug)
    messages.success(request, f"Undone: {done}.")
    return redirect("tournaments:room", slug=slug)
