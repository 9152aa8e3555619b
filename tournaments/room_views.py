"""The organiser's page of the room's changes after the draw: a late arrival, a withdrawal, a
substitute, and the list of changes made, each with its undo (``tournaments.room``). Reached
from the dashboard; behind ``organiser_required`` like every organiser page."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from tournaments import room, room_selectors, selectors
from tournaments.models import Entrant, RoomChange, Tournament
from tournaments.permissions import organiser_required
from tournaments.printing import qr_svg, scorer_url
from tournaments.services import ServiceError
from tournaments.templatetags.languages import translated
from tournaments.views import _optional_number, _render, _tournament


class ArrivalForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100)
    player1 = forms.CharField(label=_("First player"), max_length=100, required=False)
    player2 = forms.CharField(label=_("Second player"), max_length=100, required=False)
    displace = forms.BooleanField(
        label=_("Take a place in a match"),
        required=False,
        help_text=_(
            "Only where no table is free: in each round left the newcomer takes one "
            "entrant's place, a different one each round, who sits out that round instead."
        ),
    )


class WithdrawalForm(forms.Form):
    entrant = forms.TypedChoiceField(label=_("Entrant"), coerce=int)
    after_round = forms.IntegerField(label=_("Withdrew after round"), min_value=0)
    reason = forms.CharField(label=_("Reason"), max_length=300, required=False)


class SubstituteForm(forms.Form):
    entrant = forms.TypedChoiceField(label=_("Entrant"), coerce=int)
    member = forms.TypedChoiceField(
        label=_("Plays for"),
        coerce=int,
        choices=[(1, _("First player")), (2, _("Second player"))],
    )
    name = forms.CharField(label=_("Substitute's name"), max_length=100)
    from_round = forms.IntegerField(label=_("From round"), min_value=1)
    to_round = forms.IntegerField(
        label=_("To round"), min_value=1, required=False, help_text=_("Empty: to the end.")
    )


FORMS = {"arrival": ArrivalForm, "withdrawal": WithdrawalForm, "substitute": SubstituteForm}


def _forms(tournament: Tournament, data: Any, posted: str | None) -> dict[str, forms.Form]:
    """The three forms; the one posted is bound to the request's data."""
    entrants = [(e.number, f"{e.number} {e.name}") for e in tournament.entrants.all()]
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
            form.fields["member"].choices = [(1, _("The player"))]
        built[kind] = form
    return built


def _run(kind: str, tournament: Tournament, user: Any, data: dict[str, Any]) -> str:
    """The service for the posted form; returns the success message."""
    if kind == "arrival":
        change = room.late_arrival(by=user, tournament=tournament, **data)
        return _("%(name)s is seated from round %(round)s.") % {
            "name": change.entrant.name,
            "round": change.from_round,
        }
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
        done = _carried_out(form, posted or "", tournament, request.user)
        if done is not None:
            messages.success(request, done)
            return redirect("tournaments:room", slug=slug)
    status = 200 if form is None or not form.errors else 400
    response = _render(
        request, "tournaments/room.html", tournament, forms=built, **_room_context(tournament)
    )
    response.status_code = status
    return response


def _carried_out(form: forms.Form, kind: str, tournament: Tournament, user: Any) -> str | None:
    """The change a valid form asks for, made: its words; or None, the service's refusal
    put on the form."""
    try:
        return _run(kind, tournament, user, dict(form.cleaned_data))
    except ServiceError as exc:
        for message in exc.messages:
            form.add_error(None, message)
        return None


def _room_context(tournament: Tournament) -> dict[str, Any]:
    """What the room page shows beside its forms: the changes made and what they leave, the
    rounds, and the route cards to print again."""
    return {
        "changes": RoomChange.objects.filter(tournament=tournament).select_related("entrant"),
        "first_open": room_selectors.first_open_round(tournament),
        "effects": selectors.room_change_effects(tournament),
        "last_round": room_selectors.last_round(tournament),
        "reprints": sorted(
            room_selectors.reprint_flags(
                selectors.route_cards(tournament), room_selectors.printed_digests(tournament)
            )
        ),
    }


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
    messages.success(request, _("Undone: %(change)s.") % {"change": translated(done)})
    return redirect("tournaments:room", slug=slug)


# --- route cards, and the cards to print again --------------------------------------------------


@organiser_required
def print_route_cards(request: HttpRequest, slug: str) -> HttpResponse:
    """The route cards to print (``?team=N``: one; ``?reprint=1``: those flagged). Each card
    changed since it was printed (a room change, a new access code) is flagged "reprint" on
    screen, never on paper; the first opening of all the cards of a drawn schedule counts as
    their first printing."""
    tournament = _tournament(slug)
    entrant = _optional_number(request, "team")
    cards = selectors.route_cards(tournament, entrant)
    whole_set = entrant is None and not request.GET.get("reprint")
    printed = _printed_so_far(request, tournament, cards, whole_set)
    all_flags = room_selectors.reprint_flags(
        cards if entrant is None else selectors.route_cards(tournament), printed
    )
    if request.GET.get("reprint"):
        cards = [card for card in cards if card.entrant.number in all_flags]
    for card in cards:
        _ready_to_print(card, request, tournament, all_flags.get(card.entrant.number, ""))
    return _render(
        request,
        "tournaments/print/route_cards.html",
        tournament,
        cards=cards,
        flagged=sorted(all_flags),
        flagged_here=[card for card in cards if card.flag],
        only_flagged=bool(request.GET.get("reprint")),
    )


def _ready_to_print(
    card: selectors.RouteCard, request: HttpRequest, tournament: Tournament, flag: str
) -> None:
    """A route card with its scorer link and the link's QR code, its reprint flag and the
    digest of what it prints."""
    card.url = scorer_url(card.entrant, request)
    label = (
        gettext("Scorer link of player %(number)s")
        if tournament.of_players
        else gettext("Scorer link of team %(number)s")
    )
    card.qr = qr_svg(card.url, label=label % {"number": card.entrant.number})
    card.flag = flag
    card.digest = room_selectors.card_digest(card)


def _printed_so_far(
    request: HttpRequest, tournament: Tournament, cards: list[Any], whole_set: bool
) -> dict[int, str]:
    """The digests of the cards as last printed; the first opening of every card of a
    drawn schedule records them (their first printing)."""
    printed = room_selectors.printed_digests(tournament)
    if printed or not whole_set or not any(card.stops for card in cards):
        return printed
    room.cards_printed(
        by=request.user,
        tournament=tournament,
        digests={card.entrant.number: room_selectors.card_digest(card) for card in cards},
        first=True,
    )
    return room_selectors.printed_digests(tournament)


@organiser_required
@require_POST
def route_cards_printed(request: HttpRequest, slug: str) -> HttpResponse:
    """The organiser says the cards on the page are printed: ``card-<number>`` holds each
    card's digest as the page showed it (a card changed since stays flagged)."""
    tournament = _tournament(slug)
    digests: dict[int, str] = {}
    for key, value in request.POST.items():
        number = key.removeprefix("card-")
        if key.startswith("card-") and number.isdigit():
            digests[int(number)] = value
    back = request.POST.get("back", "")
    try:
        done = room.cards_printed(by=request.user, tournament=tournament, digests=digests)
    except ServiceError as exc:
        for message in exc.messages:
            messages.error(request, message)
    else:
        if done is not None:
            messages.success(request, f"{len(digests)} route cards marked as printed.")
    target = reverse("tournaments:print_routes", args=[slug])
    return redirect(target + ("?reprint=1" if back == "reprint" else ""))
