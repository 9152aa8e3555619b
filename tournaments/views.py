"""The organiser pages. Every view is wrapped in ``organiser_required``; every change goes
through ``tournaments.services`` (which refuses what the tournament's status forbids), and
every read through ``tournaments.selectors``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext, gettext_noop, ngettext
from django.views.decorators.http import require_POST

from tournaments import selectors, services
from tournaments.forms import (
    DealBoardsForm,
    DealForm,
    DrawProposalForm,
    DrawScheduleForm,
    EntrantForm,
    EntrantImportForm,
    FinaliseForm,
    MatchForm,
    ReasonForm,
    StartForm,
    TableLabelsForm,
    TournamentCreateForm,
    TournamentSettingsForm,
)
from tournaments.imports import EntrantFile, EntrantRow, conflicts_with_existing, read_entrant_file
from tournaments.models import Board, Entrant, Match, Status, Table, Tournament, game_choices
from tournaments.permissions import organiser_required
from tournaments.progress import open_boards, round_progress
from tournaments.services import ServiceError

IMPORT_SESSION_KEY = "team-import:{pk}"
PREVIEW_ROWS = 50


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament, slug=slug)


def _entrant(tournament: Tournament, number: int) -> Entrant:
    return get_object_or_404(Entrant, tournament=tournament, number=number)


def _flash_errors(request: HttpRequest, exc: ServiceError) -> None:
    for message in exc.messages:
        messages.error(request, message)


def _attempt(request: HttpRequest, action: Callable[[], Any], success: Callable[[Any], str]):
    """Run a service call for a POST-and-redirect page: its refusals become error messages,
    its result the success message."""
    try:
        result = action()
    except ServiceError as exc:
        _flash_errors(request, exc)
    else:
        messages.success(request, success(result))


def _form_errors(form: Any, exc: ServiceError) -> None:
    for message in exc.messages:
        form.add_error(None, message)


def _allowed(tournament: Tournament) -> dict[str, bool]:
    """Which actions the pages offer; the services enforce the same rules."""
    status = tournament.status
    return {
        "edit_teams": status == Status.DRAFT,
        "rename_teams": status != Status.FINAL,
        "draw": status in (Status.DRAFT, Status.SCHEDULED),
        "clear_schedule": status == Status.SCHEDULED,
        "edit_matches": status in (Status.SCHEDULED, Status.RUNNING),
        "deal": status in (Status.DRAFT, Status.SCHEDULED),
        "disqualify": status != Status.DRAFT,
        "reinstate": status in (Status.SCHEDULED, Status.RUNNING),
        "start": status == Status.SCHEDULED,
        "finalise": status == Status.RUNNING,
        "reopen": status == Status.FINAL,
    }


def _render(request: HttpRequest, template: str, tournament: Tournament | None, **context: Any):
    if tournament is not None:
        context.update(tournament=tournament, allowed=_allowed(tournament))
    return render(request, template, context)


def _unconfirmed(
    request: HttpRequest,
    tournament: Tournament,
    *,
    title: str,
    consequence: str,
    button: str,
    back: str,
) -> HttpResponse | None:
    """None once the organiser has confirmed a destructive action; else the page that says
    what it does and asks, posting the same form again with ``confirmed`` (the server asks,
    so no page or script can skip the question)."""
    if request.POST.get("confirmed") == "yes":
        return None
    carried = [
        (name, value)
        for name, value in request.POST.items()
        if name not in ("csrfmiddlewaretoken", "confirmed")
    ]
    return _render(
        request,
        "tournaments/confirm.html",
        tournament,
        title=title,
        consequence=consequence,
        button=button,
        back=back,
        carried=carried,
    )


def _confirmed_attempt(
    request: HttpRequest,
    tournament: Tournament,
    page: str,
    *,
    title: str,
    consequence: str,
    button: str,
    action: Callable[[], Any],
    success: Callable[[Any], str],
) -> HttpResponse:
    """A destructive action of a tournament's ``page``: the question until the organiser
    confirms (``_unconfirmed``), then the service call (``_attempt``) and back to the page."""
    back = reverse(page, args=[tournament.slug])
    asking = _unconfirmed(
        request, tournament, title=title, consequence=consequence, button=button, back=back
    )
    if asking:
        return asking
    _attempt(request, action, success)
    return redirect(back)


def _after_schedule_change(request: HttpRequest, problems: list[str], done: str) -> None:
    if problems:
        broken = ngettext(
            "The schedule now breaks %(count)s rule: see the list.",
            "The schedule now breaks %(count)s rules: see the list.",
            len(problems),
        ) % {"count": len(problems)}
        messages.warning(request, f"{done} {broken}")
    else:
        messages.success(request, f"{done} {gettext('The validator finds no problem.')}")


def _entrant_words(tournament: Tournament, entrant_words: str, player_words: str) -> str:
    """One of two whole sentences, the pairs' or the players', in the page's language."""
    return gettext(player_words if tournament.of_players else entrant_words)


# --- tournaments --------------------------------------------------------------------------


@organiser_required
def tournament_list(request: HttpRequest) -> HttpResponse:
    return _render(
        request, "tournaments/list.html", None, tournaments=selectors.tournaments_overview()
    )


@organiser_required
def tournament_create(request: HttpRequest) -> HttpResponse:
    form = TournamentCreateForm(request.POST or None, initial={"game": request.GET.get("game")})
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        try:
            tournament = services.create_tournament(
                by=request.user,
                name=data.pop("name"),
                slug=data.pop("slug"),
                tables=data.pop("tables"),
                **data,
            )
        except ServiceError as exc:
            _form_errors(form, exc)
        else:
            messages.success(
                request, gettext("Tournament “%(name)s” created.") % {"name": tournament.name}
            )
            return redirect("tournaments:teams", slug=tournament.slug)
    return _render(
        request, "tournaments/create.html", None, form=form, game=form.game, games=game_choices()
    )


@organiser_required
def tournament_dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    return _render(
        request,
        "tournaments/dashboard.html",
        tournament,
        summary=selectors.dashboard(tournament),
        progress=round_progress(tournament) if tournament.status == Status.RUNNING else [],
        start_form=StartForm(),
    )


@organiser_required
def tournament_settings(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    form = TournamentSettingsForm(request.POST or None, instance=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            services.update_tournament(
                by=request.user, tournament=_tournament(slug), changes=form.changes()
            )
        except ServiceError as exc:
            _form_errors(form, exc)
        else:
            messages.success(request, gettext("Settings saved."))
            return redirect("tournaments:dashboard", slug=slug)
    return _render(request, "tournaments/settings.html", _tournament(slug), form=form)


@organiser_required
def table_labels(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    form = TableLabelsForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            services.update_table_labels(
                by=request.user, tournament=tournament, labels=form.labels()
            )
        except ServiceError as exc:
            _form_errors(form, exc)
        else:
            messages.success(request, gettext("Table names saved."))
            return redirect("tournaments:dashboard", slug=slug)
    return _render(request, "tournaments/tables.html", tournament, form=form)


@organiser_required
def action_log(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    entries = list(selectors.action_log(tournament))
    for entry in entries:
        entry.changes = selectors.log_changes(entry.before, entry.after)
    return _render(request, "tournaments/log.html", tournament, entries=entries)


# --- status -------------------------------------------------------------------------------


@organiser_required
@require_POST
def tournament_start(request: HttpRequest, slug: str) -> HttpResponse:
    form = StartForm(request.POST)
    form.is_valid()
    try:
        services.start_tournament(
            by=request.user,
            tournament=_tournament(slug),
            accept_problems=form.cleaned_data.get("accept_problems", False),
        )
    except ServiceError as exc:
        _flash_errors(request, exc)
    else:
        messages.success(request, gettext("The tournament is running."))
    return redirect("tournaments:dashboard", slug=slug)


@organiser_required
def tournament_finalise(request: HttpRequest, slug: str) -> HttpResponse:
    """A confirmation page that lists what is still open; finalising with anything open
    takes a tick and a reason (the service enforces the same)."""
    tournament = _tournament(slug)
    form = FinaliseForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            services.finalise_tournament(
                by=request.user,
                tournament=tournament,
                anyway=form.cleaned_data["anyway"],
                reason=form.cleaned_data["reason"],
            )
        except ServiceError as exc:
            _form_errors(form, exc)
        else:
            messages.success(request, gettext("The standings are final."))
            return redirect("tournaments:dashboard", slug=slug)
    missing, disputed = open_boards(tournament)
    return _render(
        request,
        "tournaments/finalise.html",
        tournament,
        form=form,
        missing=missing,
        missing_by_round=_by_round(missing),
        disputed=disputed,
    )


def _by_round(boards: list[Any]) -> list[tuple[int, list[Any]]]:
    """``[(round, boards of that round)]`` in round order."""
    rounds: dict[int, list[Any]] = {}
    for board in boards:
        rounds.setdefault(board.round, []).append(board)
    return list(rounds.items())


@organiser_required
def tournament_reopen(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    form = ReasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.reopen_tournament(
                by=request.user, tournament=tournament, reason=form.cleaned_data["reason"]
            )
        except ServiceError as exc:
            _form_errors(form, exc)
        else:
            messages.success(
                request, gettext("The tournament is running again; the reopening is logged.")
            )
            return redirect("tournaments:dashboard", slug=slug)
    return _render(request, "tournaments/reopen.html", tournament, form=form)


# --- teams --------------------------------------------------------------------------------


@organiser_required
def entrant_list(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    form = EntrantForm(request.POST or None, of_players=tournament.of_players)
    if request.method == "POST" and form.is_valid():
        try:
            entrant = services.add_entrant(
                by=request.user, tournament=tournament, **form.cleaned_data
            )
        except ServiceError as exc:
            _form_errors(form, exc)
        else:
            added = _entrant_words(
                tournament,
                gettext_noop("Team %(number)s “%(name)s” added."),
                gettext_noop("Player %(number)s “%(name)s” added."),
            )
            messages.success(request, added % {"number": entrant.number, "name": entrant.name})
            return redirect("tournaments:teams", slug=slug)
    entrants = selectors.entrants_with_status(tournament)
    return _render(
        request,
        "tournaments/teams.html",
        tournament,
        entrants=entrants,
        form=form,
        gaps=selectors.number_gaps(entrant.number for entrant in entrants),
    )


@organiser_required
def entrant_edit(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = _tournament(slug)
    entrant = _entrant(tournament, number)
    form = EntrantForm(
        request.POST or None,
        entrant=entrant,
        number_editable=tournament.status == Status.DRAFT,
        of_players=tournament.of_players,
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            entrant = services.update_entrant(
                by=request.user,
                entrant=Entrant.objects.get(pk=entrant.pk),
                name=data["name"],
                player1=data.get("player1", ""),
                player2=data.get("player2", ""),
                number=data["number"] if tournament.status == Status.DRAFT else None,
            )
        except ServiceError as exc:
            _form_errors(form, exc)
        else:
            saved = _entrant_words(
                tournament,
                gettext_noop("Team %(number)s saved."),
                gettext_noop("Player %(number)s saved."),
            )
            messages.success(request, saved % {"number": entrant.number})
            return redirect("tournaments:teams", slug=slug)
    return _render(request, "tournaments/team_form.html", tournament, form=form, entrant=entrant)


@organiser_required
@require_POST
def entrant_delete(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = _tournament(slug)
    entrant = _entrant(tournament, number)
    names = {"number": number, "name": entrant.name}
    return _confirmed_attempt(
        request,
        tournament,
        "tournaments:teams",
        title=_entrant_words(
            tournament,
            gettext_noop("Remove team %(number)s (%(name)s)?"),
            gettext_noop("Remove player %(number)s (%(name)s)?"),
        )
        % names,
        consequence=_entrant_words(
            tournament,
            gettext_noop("The team leaves the tournament; the others keep their numbers."),
            gettext_noop("The player leaves the tournament; the others keep their numbers."),
        ),
        button=_entrant_words(
            tournament,
            gettext_noop("Remove team %(number)s"),
            gettext_noop("Remove player %(number)s"),
        )
        % names,
        action=lambda: services.delete_entrant(by=request.user, entrant=entrant),
        success=lambda _: (
            _entrant_words(
                tournament,
                gettext_noop("Team %(number)s removed."),
                gettext_noop("Player %(number)s removed."),
            )
            % {"number": number}
        ),
    )


@organiser_required
@require_POST
def entrant_new_code(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = _tournament(slug)
    entrant = _entrant(tournament, number)
    asking = _unconfirmed(
        request,
        tournament,
        title=_entrant_words(
            tournament,
            gettext_noop("A new access code for team %(number)s (%(name)s)?"),
            gettext_noop("A new access code for player %(number)s (%(name)s)?"),
        )
        % {"number": number, "name": entrant.name},
        consequence=gettext(
            "The code and QR code on the printed route card stop working at once, and "
            "phones signed in with the old code are signed out. Print the route card again "
            "and hand it over."
        ),
        button=gettext("Make a new code"),
        back=reverse("tournaments:teams", args=[slug]),
    )
    if asking:
        return asking
    services.regenerate_access_code(by=request.user, entrant=entrant)
    renewed = _entrant_words(
        tournament,
        gettext_noop("Team %(number)s has a new access code; print its route card again."),
        gettext_noop("Player %(number)s has a new access code; print his route card again."),
    )
    messages.success(request, renewed % {"number": number})
    return redirect("tournaments:teams", slug=slug)


@organiser_required
@require_POST
def entrants_renumber(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    return _confirmed_attempt(
        request,
        tournament,
        "tournaments:teams",
        title=gettext("Renumber to close the gaps?"),
        consequence=gettext(
            "Numbers after each gap move down; lists printed before show the old ones."
        ),
        button=gettext("Renumber"),
        action=lambda: services.renumber_entrants(by=request.user, tournament=_tournament(slug)),
        success=lambda moves: (
            (
                ngettext(
                    "%(count)s player renumbered.", "%(count)s players renumbered.", len(moves)
                )
                if tournament.of_players
                else ngettext(
                    "%(count)s team renumbered.", "%(count)s teams renumbered.", len(moves)
                )
            )
            % {"count": len(moves)}
        ),
    )


@organiser_required
def entrant_disqualify(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = _tournament(slug)
    entrant = _entrant(tournament, number)
    form = ReasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.disqualify_entrant(
                by=request.user, entrant=entrant, reason=form.cleaned_data["reason"]
            )
        except ServiceError as exc:
            _form_errors(form, exc)
        else:
            done = _entrant_words(
                tournament,
                gettext_noop("Team %(number)s is disqualified."),
                gettext_noop("Player %(number)s is disqualified."),
            )
            messages.success(request, done % {"number": number})
            return redirect("tournaments:teams", slug=slug)
    return _render(request, "tournaments/disqualify.html", tournament, form=form, entrant=entrant)


@organiser_required
@require_POST
def entrant_reinstate(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = _tournament(slug)
    entrant = _entrant(tournament, number)
    _attempt(
        request,
        lambda: services.reinstate_entrant(by=request.user, entrant=entrant),
        lambda _: (
            _entrant_words(
                tournament,
                gettext_noop("Team %(number)s is no longer disqualified."),
                gettext_noop("Player %(number)s is no longer disqualified."),
            )
            % {"number": number}
        ),
    )
    return redirect("tournaments:teams", slug=slug)


@organiser_required
def entrants_import(request: HttpRequest, slug: str) -> HttpResponse:
    """Upload a team list: the page shows a preview, or every bad row; nothing is saved yet."""
    tournament = _tournament(slug)
    form = EntrantImportForm(
        request.POST or None, request.FILES or None, of_players=tournament.of_players
    )
    context: dict[str, Any] = {"form": form}
    posted = request.method == "POST"
    if posted:
        # Whatever this upload holds, an earlier preview no longer stands: "confirm" imports
        # only the file the page shows.
        request.session.pop(IMPORT_SESSION_KEY.format(pk=tournament.pk), None)
    if posted and form.is_valid():
        context.update(_checked_upload(request, tournament, form.cleaned_data))
    response = _render(request, "tournaments/team_import.html", tournament, **context)
    status = _refused_upload_status(context.get("result"), posted and not form.is_valid())
    if status is not None:
        response.status_code = status
    return response


def _checked_upload(
    request: HttpRequest, tournament: Tournament, data: dict[str, Any]
) -> dict[str, Any]:
    """An uploaded team list read and checked (against the numbers already taken, unless it
    replaces them): its problems, or its preview; a list without problems waits in the
    session for "confirm"."""
    upload, replace = data["file"], data["replace"]
    result = read_entrant_file(upload, upload.name, upload.size)
    if not replace:
        taken = dict(tournament.entrants.values_list("number", "name"))
        result.problems = sorted(
            result.problems + conflicts_with_existing(result.rows, taken),
            key=lambda problem: problem.line,
        )
    context = {"result": result, "filename": upload.name, "replace": replace}
    if result.ok:
        request.session[IMPORT_SESSION_KEY.format(pk=tournament.pk)] = {
            "rows": [asdict(row) for row in result.rows],
            "replace": replace,
            "filename": upload.name,
        }
        context.update(preview=result.rows[:PREVIEW_ROWS], more=len(result.rows) - PREVIEW_ROWS)
    return context


def _refused_upload_status(result: EntrantFile | None, form_refused: bool) -> int | None:
    """A refused upload is a client error: a file too large (413) or not a team list we can
    take (422), a form not filled in right (400); None: nothing refused."""
    if result is not None and not result.ok:
        return 413 if result.too_large else 422
    return 400 if form_refused else None


@organiser_required
@require_POST
def entrants_import_confirm(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    pending = request.session.get(IMPORT_SESSION_KEY.format(pk=tournament.pk))
    if not pending:
        messages.error(request, gettext("There is no checked file to import; upload it again."))
        return redirect("tournaments:teams_import", slug=slug)
    rows = [EntrantRow(**row) for row in pending["rows"]]
    try:
        entrants = services.import_teams(
            by=request.user, tournament=tournament, rows=rows, replace=pending["replace"]
        )
    except ServiceError as exc:
        _flash_errors(request, exc)
        return redirect("tournaments:teams_import", slug=slug)
    del request.session[IMPORT_SESSION_KEY.format(pk=tournament.pk)]
    messages.success(
        request,
        (
            ngettext(
                "%(count)s player imported from %(file)s.",
                "%(count)s players imported from %(file)s.",
                len(entrants),
            )
            if tournament.of_players
            else ngettext(
                "%(count)s team imported from %(file)s.",
                "%(count)s teams imported from %(file)s.",
                len(entrants),
            )
        )
        % {"count": len(entrants), "file": pending["filename"]},
    )
    return redirect("tournaments:teams", slug=slug)


# --- schedule -----------------------------------------------------------------------------


@organiser_required
def schedule(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    drawable = tournament.status in (Status.DRAFT, Status.SCHEDULED)
    return _render(
        request,
        "tournaments/schedule.html",
        tournament,
        grid=selectors.schedule_grid(tournament),
        problems=selectors.schedule_problems(tournament),
        meetings=selectors.schedule_meetings(tournament),
        proposals=selectors.proposals(tournament) if drawable else None,
        draw_form=DrawScheduleForm(
            initial={"side_mode": tournament.side_mode}, of_players=tournament.of_players
        ),
    )


@organiser_required
@require_POST
def schedule_draw(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    if "proposal" in request.POST:
        return _draw_proposal(request, tournament)
    form = DrawScheduleForm(request.POST, of_players=tournament.of_players)
    if not form.is_valid():
        messages.error(
            request,
            gettext("Give a number of rounds of at least 1, or none.")
            if tournament.of_players
            else gettext("Choose fixed or balanced sides."),
        )
        return redirect("tournaments:schedule", slug=slug)
    return _drawn(request, tournament, **form.cleaned_data)


def _draw_proposal(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Draw the proposal the organiser chose from the schedule page's list."""
    form = DrawProposalForm(request.POST)
    if not form.is_valid():
        messages.error(request, render_to_string("tournaments/messages/choose_proposal.txt"))
        return redirect("tournaments:schedule", slug=tournament.slug)
    return _drawn(request, tournament, proposal=form.cleaned_data["proposal"])


def _drawn(request: HttpRequest, tournament: Tournament, **choice: Any) -> HttpResponse:
    """Draw the schedule as ``choice`` says (the form's numbers or a proposal), then back to
    the schedule page saying what was drawn, or why not."""
    try:
        data, problems = services.draw_schedule(by=request.user, tournament=tournament, **choice)
    except ServiceError as exc:
        _flash_errors(request, exc)
    else:
        tournament.refresh_from_db()
        done = render_to_string(
            "tournaments/messages/schedule_drawn.txt",
            {
                "tournament": tournament,
                "data": data,
                "meetings": selectors.schedule_meetings(tournament),
            },
        )
        _after_schedule_change(request, problems, " ".join(done.split()))
    return redirect("tournaments:schedule", slug=tournament.slug)


@organiser_required
@require_POST
def schedule_clear(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    return _confirmed_attempt(
        request,
        tournament,
        "tournaments:schedule",
        title=gettext("Clear the whole schedule?"),
        consequence=gettext(
            "Every match is removed and the tournament is a draft again; printed route and "
            "table cards no longer match. The deals are kept."
        ),
        button=gettext("Clear the schedule"),
        action=lambda: services.clear_schedule(by=request.user, tournament=_tournament(slug)),
        success=lambda _: gettext("Schedule cleared; the tournament is a draft again."),
    )


def _match_form_view(request: HttpRequest, slug: str, match: Match | None) -> HttpResponse:
    tournament = _tournament(slug)
    initial = None
    if match is None:
        initial = {
            key: int(request.GET[name])
            for key, name in (("round_number", "round"), ("table_number", "table"))
            if request.GET.get(name, "").isdigit()
        }
    form = MatchForm(request.POST or None, tournament=tournament, match=match, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            _match, problems = services.save_match(
                by=request.user, tournament=tournament, match=match, **form.cleaned_data
            )
        except ServiceError as exc:
            _form_errors(form, exc)
        else:
            _after_schedule_change(request, problems, gettext("Match saved."))
            return redirect("tournaments:schedule", slug=slug)
    return _render(
        request,
        "tournaments/match_form.html",
        tournament,
        form=form,
        match=match,
        problems=selectors.schedule_problems(tournament),
    )


@organiser_required
def match_add(request: HttpRequest, slug: str) -> HttpResponse:
    return _match_form_view(request, slug, None)


@organiser_required
def match_edit(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    match = get_object_or_404(
        Match.objects.select_related("table", "north_entrant", "east_entrant"),
        pk=pk,
        table__tournament__slug=slug,
    )
    return _match_form_view(request, slug, match)


@organiser_required
@require_POST
def match_delete(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    match = get_object_or_404(
        Match.objects.select_related("table__tournament", "north_entrant", "east_entrant"),
        pk=pk,
        table__tournament__slug=slug,
    )
    asking = _unconfirmed(
        request,
        match.table.tournament,
        title=gettext("Remove the match of round %(round)s at table %(table)s?")
        % {"round": match.round, "table": match.table.number},
        consequence=gettext(
            "The match and any result entered for it are removed from the schedule."
        ),
        button=gettext("Remove the match"),
        back=reverse("tournaments:match_edit", args=[slug, match.pk]),
    )
    if asking:
        return asking
    try:
        problems = services.delete_match(by=request.user, match=match)
    except ServiceError as exc:
        _flash_errors(request, exc)
    else:
        _after_schedule_change(request, problems, gettext("Match removed."))
    return redirect("tournaments:schedule", slug=slug)


# --- deals --------------------------------------------------------------------------------


@organiser_required
def deals(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    return _render(
        request,
        "tournaments/deals.html",
        tournament,
        cards=selectors.table_cards(tournament),
        missing=selectors.missing_boards(tournament),
        form=DealBoardsForm(),
    )


@organiser_required
@require_POST
def deals_generate(request: HttpRequest, slug: str) -> HttpResponse:
    form = DealBoardsForm(request.POST)
    if not form.is_valid():
        messages.error(request, gettext("The seed is too long."))
        return redirect("tournaments:deals", slug=slug)
    tournament = _tournament(slug)
    if form.cleaned_data["replace"]:
        asking = _unconfirmed(
            request,
            tournament,
            title=gettext("Deal every board again?"),
            consequence=gettext(
                "Every deal is replaced by a new one: boards already made up and printed "
                "table cards no longer match."
            ),
            button=gettext("Deal them again"),
            back=reverse("tournaments:deals", args=[slug]),
        )
        if asking:
            return asking
    try:
        count = services.deal_boards(
            by=request.user,
            tournament=tournament,
            seed=form.cleaned_data["seed"] or None,
            replace=form.cleaned_data["replace"],
        )
    except ServiceError as exc:
        _flash_errors(request, exc)
    else:
        messages.success(
            request,
            ngettext("%(count)s board dealt.", "%(count)s boards dealt.", count) % {"count": count},
        )
    return redirect("tournaments:deals", slug=slug)


@organiser_required
def deal_edit(request: HttpRequest, slug: str, table: int, board: int) -> HttpResponse:
    tournament = _tournament(slug)
    table_obj = get_object_or_404(Table, tournament=tournament, number=table)
    if not 1 <= board <= tournament.boards_per_table:
        raise Http404("No such board.")
    current_board = Board.objects.filter(table=table_obj, number=board).first()
    form = DealForm(
        request.POST or None,
        initial={"deal": current_board.deal if current_board else ""},
        game=tournament.game_rules,
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.set_deal(
                by=request.user,
                tournament=tournament,
                table_number=table,
                board_number=board,
                deal_text=form.cleaned_data["deal"],
            )
        except ServiceError as exc:
            _form_errors(form, exc)
        else:
            messages.success(
                request,
                gettext("Deal of table %(table)s, board %(board)s saved.")
                % {"table": table, "board": board},
            )
            return redirect("tournaments:deals", slug=slug)
    return _render(
        request,
        "tournaments/deal_form.html",
        tournament,
        form=form,
        table_number=table,
        board_number=board,
        table_obj=table_obj,
        opening=tournament.opening_letter(table),
        diagram=selectors.board_diagram(tournament, current_board) if current_board else None,
    )


# --- printing -----------------------------------------------------------------------------


def _optional_number(request: HttpRequest, name: str) -> int | None:
    value = request.GET.get(name, "")
    if not value:
        return None
    if not value.isdigit():
        raise Http404(f"{name} must be a number")
    return int(value)


@organiser_required
def print_table_cards(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    return _render(
        request,
        "tournaments/print/table_cards.html",
        tournament,
        cards=selectors.table_cards(tournament, _optional_number(request, "table")),
    )


@organiser_required
def print_schedule(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    return _render(
        request,
        "tournaments/print/schedule.html",
        tournament,
        grid=selectors.schedule_grid(tournament),
    )
