"""The club pages: organisers' (list, add, import, edit, merge members; link a club event's
entrants to members; a suggestion fragment) and the public player page.

Organiser pages are behind ``organiser_required`` and answer 404 for a club the user does not
organise (``selectors.club_for``), as if it did not exist.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from functools import partial
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from clubs import selectors, services
from clubs.charts import percentages_svg
from clubs.forms import (
    ClubForm,
    EventDateForm,
    LinkForm,
    ManyLinksForm,
    MemberForm,
    MemberImportForm,
    MergeForm,
    OrganiserForm,
    RegisterForm,
)
from clubs.imports import MemberRow, parse_link_lines, read_member_file
from clubs.models import Club, Member, MemberMerge
from clubs.seasons import seasons_of
from clubs.services import ClubError
from tournaments.models import Entrant, Tournament
from tournaments.permissions import organiser_required

IMPORT_SESSION_KEY = "clubs-import"
PREVIEW_ROWS = 50


def club_or_404(request: HttpRequest, club_slug: str) -> Club:
    club = selectors.club_for(request.user, club_slug)
    if club is None:
        raise Http404(_("No such club."))
    return club


def form_errors(form: Any, exc: ClubError) -> None:
    for message in exc.messages:
        form.add_error(None, message)


def saved(
    request: HttpRequest,
    form: Any,
    change: Callable[..., Any],
    done: str | Callable[[Any], str],
    to: str | Callable[[Any], str],
    **address: Any,
) -> HttpResponse | None:
    """The pattern of every club form: on a valid POST, ``change(**cleaned_data)`` (a
    service); a refusal puts its reasons on the form (None: render the page again), else
    ``done`` (a message, or a function of what ``change`` returned) and a redirect to
    ``to`` (a page's name with ``address``, or a function of what ``change`` returned)."""
    if request.method != "POST" or not form.is_valid():
        return None
    try:
        result = change(**form.cleaned_data)
    except ClubError as exc:
        form_errors(form, exc)
        return None
    messages.success(request, done(result) if callable(done) else done)
    return redirect(to(result) if callable(to) else to, **address)


@organiser_required
def club_list(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    done = saved(
        request,
        form,
        partial(services.create_club, by=request.user),
        lambda club: _("Club %(name)s created.") % {"name": club.name},
        lambda club: reverse("clubs:members", args=[club.slug]),
    )
    if done:
        return done
    return render(
        request, "clubs/list.html", {"clubs": selectors.clubs_of(request.user), "form": form}
    )


@organiser_required
def members(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = club_or_404(request, club_slug)
    form = MemberForm(request.POST or None)
    add = partial(services.add_member, by=request.user, club=club)
    done = saved(
        request,
        form,
        add,
        lambda member: _("%(member)s added.") % {"member": member},
        "clubs:members",
        club_slug=club_slug,
    )
    if done:
        return done
    context = {
        "club": club,
        "members": selectors.members_of(club),
        "form": form,
        "merge_form": MergeForm(),
        "merges": selectors.merges_of(club),
        "organiser_form": OrganiserForm(),
        "organisers": club.organisers.order_by("username"),
    }
    return render(request, "clubs/members.html", context)


@organiser_required
@require_POST
def add_organiser(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = club_or_404(request, club_slug)
    form = OrganiserForm(request.POST)
    try:
        if not form.is_valid():
            raise ClubError(_("Give an organiser's user name."))
        services.add_organiser(by=request.user, club=club, username=form.cleaned_data["username"])
    except ClubError as exc:
        messages.error(request, "; ".join(exc.messages))
    else:
        messages.success(
            request,
            _("%(user)s now organises %(club)s.")
            % {"user": form.cleaned_data["username"], "club": club.name},
        )
    return redirect("clubs:members", club_slug=club_slug)


@organiser_required
def events(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = club_or_404(request, club_slug)
    own, free = selectors.events_for(club)
    return render(request, "clubs/events.html", {"club": club, "own": own, "free": free})


@organiser_required
def member_edit(request: HttpRequest, club_slug: str, pk: int) -> HttpResponse:
    club = club_or_404(request, club_slug)
    member = get_object_or_404(Member, club=club, pk=pk)
    form = MemberForm(request.POST or None, instance=Member.objects.get(pk=pk))
    update = partial(services.update_member, by=request.user, member=member)
    done = saved(request, form, update, _("Saved."), "clubs:members", club_slug=club_slug)
    if done:
        return done
    return render(request, "clubs/member_form.html", {"club": club, "member": member, "form": form})


@organiser_required
def members_import(request: HttpRequest, club_slug: str) -> HttpResponse:
    """Upload → preview (the rows kept in the session) → ``members_import_confirm``."""
    club = club_or_404(request, club_slug)
    form = MemberImportForm(request.POST or None, request.FILES or None)
    context: dict[str, Any] = {"club": club, "form": form}
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        result = read_member_file(upload, upload.name, upload.size)
        context.update(result=result, filename=upload.name, preview=result.rows[:PREVIEW_ROWS])
        context["more"] = len(result.rows) - PREVIEW_ROWS
        if result.ok:
            request.session[IMPORT_SESSION_KEY] = {
                "club": club.slug,
                "rows": [asdict(row) for row in result.rows],
            }
    return render(request, "clubs/import.html", context)


@organiser_required
@require_POST
def members_import_confirm(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = club_or_404(request, club_slug)
    pending = request.session.get(IMPORT_SESSION_KEY) or {}
    if pending.get("club") != club.slug:
        messages.error(request, _("Nothing to import: upload the file again."))
        return redirect("clubs:members_import", club_slug=club_slug)
    rows = [MemberRow(**row) for row in pending["rows"]]
    try:
        imported = services.import_members(by=request.user, club=club, rows=rows)
    except ClubError as exc:
        form = MemberImportForm()
        context = {"club": club, "form": form, "refused": exc.messages}
        return render(request, "clubs/import.html", context, status=400)
    finally:
        request.session.pop(IMPORT_SESSION_KEY, None)
    count = len(imported)
    messages.success(
        request,
        (_("Imported %(count)s member.") if count == 1 else _("Imported %(count)s members."))
        % {"count": count},
    )
    return redirect("clubs:members", club_slug=club_slug)


@organiser_required
@require_POST
def merge(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = club_or_404(request, club_slug)
    form = MergeForm(request.POST)
    kept = merged = None
    if form.is_valid():
        kept = selectors.member_by_number(club, form.cleaned_data["kept"])
        merged = selectors.member_by_number(club, form.cleaned_data["merged"])
    if kept is None or merged is None:
        messages.error(request, _("Not merged: give two member numbers of the list."))
        return redirect("clubs:members", club_slug=club_slug)
    try:
        services.merge_members(by=request.user, kept=kept, merged=merged)
    except ClubError as exc:
        messages.error(request, _("Not merged: %(reasons)s") % {"reasons": "; ".join(exc.messages)})
    else:
        messages.success(
            request,
            _("%(merged)s merged into %(kept)s; the merge can be undone below.")
            % {"merged": merged, "kept": kept},
        )
    return redirect("clubs:members", club_slug=club_slug)


@organiser_required
@require_POST
def merge_undo(request: HttpRequest, club_slug: str, pk: int) -> HttpResponse:
    club = club_or_404(request, club_slug)
    found = get_object_or_404(MemberMerge, club=club, pk=pk)
    try:
        services.undo_merge(by=request.user, merge=found)
    except ClubError as exc:
        messages.error(request, "; ".join(exc.messages))
    else:
        messages.success(request, _("The merge was undone."))
    return redirect("clubs:members", club_slug=club_slug)


@organiser_required
@require_GET
def suggest(request: HttpRequest, club_slug: str) -> HttpResponse:
    """A page fragment: the members matching ``q`` (by number or name), for the link page's
    fields to offer while the organiser types."""
    club = club_or_404(request, club_slug)
    found = selectors.suggestions(club, request.GET.get("q", "")[:100])
    return render(request, "clubs/includes/suggestions.html", {"club": club, "found": found})


def _link_one(request: HttpRequest, club: Club, tournament: Tournament, form: Any) -> bool:
    data = form.cleaned_data
    entrant = get_object_or_404(Entrant, tournament=tournament, number=data["entrant"])
    numbers = [data["player1"]] if tournament.of_players else [data["player1"], data["player2"]]
    try:
        services.link_entrant(by=request.user, club=club, entrant=entrant, numbers=numbers)
    except ClubError as exc:
        form_errors(form, exc)
        return False
    if tournament.of_players:
        done = _("Player %(number)s linked.") % {"number": entrant.number}
    else:
        done = _("Team %(number)s linked.") % {"number": entrant.number}
    messages.success(request, done)
    return True


def _many_done(tournament: Tournament, done: int, *, register: bool) -> str:
    """What the many-lines forms say they did: one sentence a kind of entrant and an act."""
    one = done == 1
    if register and tournament.of_players:
        text = _("%(count)s player registered.") if one else _("%(count)s players registered.")
    elif register:
        text = _("%(count)s team registered.") if one else _("%(count)s teams registered.")
    elif tournament.of_players:
        text = _("%(count)s player linked.") if one else _("%(count)s players linked.")
    else:
        text = _("%(count)s team linked.") if one else _("%(count)s teams linked.")
    return text % {"count": done}


def _link_many(request: HttpRequest, club: Club, tournament: Tournament, form: Any) -> bool:
    """The many-lines forms: link entrants, or register new ones from the list."""
    register = isinstance(form, RegisterForm)
    rows, problems = parse_link_lines(form.cleaned_data["lines"], numbered=not register)
    try:
        if problems:
            raise ClubError(problems)
        if register:
            done = len(
                services.register_from_members(
                    by=request.user, club=club, tournament=tournament, rows=rows
                )
            )
        else:
            done = services.link_entrants(
                by=request.user, club=club, tournament=tournament, rows=rows
            )
    except ClubError as exc:
        form_errors(form, exc)
        return False
    messages.success(request, _many_done(tournament, done, register=register))
    return True


FORMS = {
    "one": (LinkForm, _link_one),
    "many": (ManyLinksForm, _link_many),
    "register": (RegisterForm, _link_many),
}


@organiser_required
def event_links(request: HttpRequest, club_slug: str, event: str) -> HttpResponse:
    """Every entrant of a tournament with its members, and three forms: link one entrant,
    link many (a line each), register new entrants from the list."""
    club = club_or_404(request, club_slug)
    tournament = get_object_or_404(Tournament, slug=event)
    owner = selectors.club_of_event(tournament)
    if owner is not None and owner.pk != club.pk:
        raise Http404(_("This event is another club's."))
    chosen = request.POST.get("form", "one") if request.method == "POST" else None
    played_on = owner.events.get(tournament=tournament).date if owner else None
    date_form = EventDateForm(
        request.POST if chosen == "date" else None,
        prefix="date",
        initial={"date": played_on or timezone.localdate(tournament.created_at)},
    )
    if chosen == "date":
        done = saved(
            request,
            date_form,
            partial(services.set_event_date, by=request.user, club=club, tournament=tournament),
            _("The event's date is saved; the ladders follow it."),
            "clubs:event_links",
            club_slug=club_slug,
            event=event,
        )
        if done:
            return done
    forms = {
        name: form_class(
            request.POST if name == chosen else None, prefix=None if name == "one" else name
        )
        for name, (form_class, _) in FORMS.items()
    }
    valid = chosen in FORMS and forms[chosen].is_valid()
    if valid and FORMS[chosen][1](request, club, tournament, forms[chosen]):
        return redirect("clubs:event_links", club_slug=club_slug, event=event)
    failed = chosen is not None
    context = {
        "club": club,
        "event": tournament,
        "rows": selectors.entrant_links(tournament),
        "form": forms["one"],
        "many_form": forms["many"],
        "register_form": forms["register"],
        "date_form": date_form,
        "played_on": played_on,
    }
    return render(request, "clubs/event_links.html", context, status=400 if failed else 200)


def _history_context(member: Member, *, public: bool) -> dict[str, Any]:
    evenings = selectors.player_history(member, public=public)
    return {
        "member": member,
        "club": member.club,
        "evenings": evenings,
        "chart": percentages_svg(selectors.chart_points(evenings), tr=_),
        "public": public,
        "seasons": seasons_of(member.club),
    }


@organiser_required
def member_history(request: HttpRequest, club_slug: str, pk: int) -> HttpResponse:
    """The organiser's view of a player's page: every event, published or not."""
    club = club_or_404(request, club_slug)
    member = get_object_or_404(Member, club=club, pk=pk)
    return render(request, "clubs/player.html", _history_context(member, public=False))


def player_page(request: HttpRequest, club: str, number: str) -> HttpResponse:
    """The public player page: published events only; 404 for a member who opted out."""
    member = selectors.public_member(club, number)
    if member is None:
        raise Http404(_("No such player page."))
    return render(request, "clubs/player.html", _history_context(member, public=True))
