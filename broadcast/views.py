"""Pages of featured tables: the organiser's (which tables, their recorders' codes, the press
accounts), the recorder's tablet page and its endpoints, and the broadcast.

Who may see a table's play is asked of ``scoring.visibility.table_play_seen_by``; nothing here
decides it.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_GET, require_POST
from rest_framework.exceptions import Throttled

from broadcast import selectors, services
from broadcast.models import FeaturedTable
from scoring.visibility import PRESS_GROUP, is_press, table_play_seen_by
from tournaments.models import Tournament
from tournaments.permissions import is_organiser, organiser_required

RECORDER_SESSION_KEY = "broadcast-recorder-{pk}"


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament, slug=slug)


# --- the organiser's page -------------------------------------------------------------------


@organiser_required
def featured(request: HttpRequest, slug: str) -> HttpResponse:
    """Which tables are featured, their recorders' codes, and the press accounts."""
    tournament = _tournament(slug)
    if request.method == "POST":
        _featured_action(request, tournament)
        return redirect("broadcast:featured", slug=slug)
    by_number = {
        f.table.number: f
        for f in FeaturedTable.objects.filter(table__tournament=tournament).select_related("table")
    }
    rows = [
        {"table": table, "featured": by_number.get(table.number)}
        for table in tournament.tables.all()
    ]
    press = get_user_model().objects.filter(groups__name=PRESS_GROUP).order_by("username")
    context = {
        "tournament": tournament,
        "rows": rows,
        "problem": services.featuring_problem(tournament),
        "press": press,
        "recorder_url": request.build_absolute_uri(
            reverse("broadcast:recorder", kwargs={"slug": slug})
        ),
    }
    return render(request, "broadcast/featured.html", context)


def _featured_action(request: HttpRequest, tournament: Tournament) -> None:
    action = request.POST.get("action", "")
    number = request.POST.get("table", "")
    try:
        if action in ("feature", "unfeature", "new-code"):
            _table_action(request, tournament, action, number)
        elif action == "grant-press":
            user = services.grant_press(by=request.user, username=request.POST.get("username", ""))
            messages.success(request, f"{user.username} is accredited as press.")
        elif action == "revoke-press":
            services.revoke_press(by=request.user, username=request.POST.get("username", ""))
            messages.success(request, "Press accreditation withdrawn.")
        else:
            raise services.BroadcastError("unknown action")
    except services.BroadcastError as exc:
        messages.error(request, str(exc).capitalize())


def _table_action(request: HttpRequest, tournament: Tournament, action: str, number: str) -> None:
    """Feature a table, stop featuring it, or give its recorder a new code."""
    if not number.isdigit():
        raise services.BroadcastError("choose a table")
    if action == "feature":
        services.feature_table(by=request.user, tournament=tournament, number=int(number))
        messages.success(request, f"Table {number} is featured.")
        return
    found = selectors.featured_table(tournament, int(number))
    if found is None:
        raise services.BroadcastError(f"table {number} is not featured")
    if action == "unfeature":
        services.unfeature_table(by=request.user, featured=found)
        messages.success(request, f"Table {number} is no longer featured.")
    else:
        services.regenerate_recorder_code(by=request.user, featured=found)
        messages.success(request, f"Table {number} has a new recorder's code.")


# --- the recorder ---------------------------------------------------------------------------


def _recorder_table(request: HttpRequest, tournament: Tournament) -> FeaturedTable | None:
    code = request.session.get(RECORDER_SESSION_KEY.format(pk=tournament.pk), "")
    found = selectors.featured_by_code(tournament, code) if code else None
    if code and found is None:  # a new code was given, or the table is no longer featured
        del request.session[RECORDER_SESSION_KEY.format(pk=tournament.pk)]
    return found


def _refuse_guess(request: HttpRequest, code: str) -> None:
    """Wrong codes are counted with the scorers' (``Throttled`` once they come too often)."""
    from scoring.api.access import refuse_guess

    refuse_guess(request, code)


def _code_page(
    request: HttpRequest, tournament: Tournament, error: str = "", status: int = 200
) -> HttpResponse:
    context = {"tournament_public": tournament, "error": error}
    return render(request, "broadcast/recorder_code.html", context, status=status)


def recorder(request: HttpRequest, slug: str) -> HttpResponse:
    """The recorder's tablet page: signs in with the recorder's code, then takes down the
    table's boards."""
    tournament = _tournament(slug)
    code = request.GET.get("code")
    if code is not None:
        found = selectors.featured_by_code(tournament, code)
        if found is None:
            if not code.strip():
                return _code_page(request, tournament, gettext_noop("Type the recorder's code."))
            try:
                _refuse_guess(request, code)
            except Throttled:
                return _code_page(
                    request,
                    tournament,
                    gettext_noop("Too many wrong codes: wait a minute."),
                    status=429,
                )
            return _code_page(
                request,
                tournament,
                gettext_noop("That is not a recorder's code of this tournament."),
                403,
            )
        request.session[RECORDER_SESSION_KEY.format(pk=tournament.pk)] = found.recorder_code
        return redirect("broadcast:recorder", slug=slug)
    found = _recorder_table(request, tournament)
    if found is None:
        return _code_page(request, tournament)
    slots = selectors.board_slots(found)
    slot = selectors.next_slot(slots)
    payload = selectors.board_payload(found, slot, with_options=True) if slot else None
    config = {
        "state": reverse("broadcast:recorder-state", kwargs={"slug": slug}),
        "action": reverse("broadcast:recorder-action", kwargs={"slug": slug}),
        "slug": slug,
        "table": found.table.number,
        "csrf": get_token(request),
    }
    context = {
        "tournament_public": tournament,
        "featured": found,
        "slots": slots,
        "payload": payload,
        "config": config,
    }
    return render(request, "broadcast/recorder.html", context)


def _board_arguments(data: Any) -> tuple[int, int] | None:
    try:
        return int(data.get("match")), int(data.get("board"))
    except (TypeError, ValueError):
        return None


@require_GET
def recorder_state(request: HttpRequest, slug: str) -> HttpResponse:
    """A board as the recorder sees it: the hands, the play and the actions allowed now."""
    tournament = _tournament(slug)
    found = _recorder_table(request, tournament)
    if found is None:
        return JsonResponse({"error": "sign in with the recorder's code"}, status=403)
    slots = selectors.board_slots(found)
    chosen = _board_arguments(request.GET)
    slot = selectors.slot_of(slots, *chosen) if chosen else selectors.next_slot(slots)
    if slot is None:
        return JsonResponse({"error": "no such board at this table"}, status=404)
    return JsonResponse(
        {
            "board": selectors.board_payload(found, slot, with_options=True),
            "slots": [
                {"match": s.match.pk, "board": s.board, "state": s.state, "round": s.match.round}
                for s in slots
            ],
        }
    )


@require_POST
def recorder_action(request: HttpRequest, slug: str) -> HttpResponse:
    """Take one action: ``{"match", "board", "action", "client_id"}``; an action sent again
    with the same client id is answered as the first time."""
    tournament = _tournament(slug)
    found = _recorder_table(request, tournament)
    if found is None:
        return JsonResponse({"error": "sign in with the recorder's code"}, status=403)
    try:
        data = json.loads(request.body or b"{}")
    except ValueError:
        return JsonResponse({"error": "the body is not JSON"}, status=400)
    chosen = _board_arguments(data) if isinstance(data, dict) else None
    if chosen is None:
        return JsonResponse({"error": "match and board are whole numbers"}, status=400)
    try:
        taken = services.take_action(
            featured=found,
            match_id=chosen[0],
            board=chosen[1],
            action=str(data.get("action", "")),
            client_id=str(data.get("client_id", "")),
        )
    except services.BroadcastError as exc:
        return JsonResponse({"error": str(exc)}, status=400)
    slot = selectors.slot_of(selectors.board_slots(found), *chosen)
    assert slot is not None
    return JsonResponse(
        {
            "repeated": taken.repeated,
            "board": selectors.board_payload(found, slot, with_options=True),
        }
    )


# --- the broadcast --------------------------------------------------------------------------


def _watched(request: HttpRequest, slug: str, table: int) -> tuple[Tournament, FeaturedTable]:
    tournament = _tournament(slug)
    found = selectors.featured_table(tournament, table)
    if found is None:
        raise Http404("This table is not featured.")
    return tournament, found


def _may_watch(request: HttpRequest, tournament: Tournament, table: int) -> bool:
    mine = _recorder_table(request, tournament)
    return table_play_seen_by(
        request.user,
        tournament,
        table,
        recorder_of=mine.table.number if mine is not None else None,
    )


def _reader(request: HttpRequest) -> str:
    if is_organiser(request.user):
        return "organiser"
    return "press" if is_press(request.user) else "public"


def broadcast_list(request: HttpRequest, slug: str) -> HttpResponse:
    """The featured tables of a tournament, each with a link to its broadcast."""
    tournament = _tournament(slug)
    context = {
        "tournament_public": tournament,
        "tables": selectors.featured_numbers(tournament),
        "reader": _reader(request),
    }
    return render(request, "broadcast/list.html", context)


def broadcast_table(request: HttpRequest, slug: str, table: int) -> HttpResponse:
    """A featured table's play, live for organisers and press, to everyone once complete."""
    tournament, found = _watched(request, slug, table)
    context: dict[str, Any] = {"tournament_public": tournament, "table": table}
    if not _may_watch(request, tournament, table):
        return render(request, "broadcast/not_yet.html", context, status=403)
    slots = selectors.board_slots(found)
    context.update(
        slots=[s for s in slots if s.recording is not None],
        config={
            "state": reverse("broadcast:state", kwargs={"slug": slug, "table": table}),
            "table": table,
        },
        reader=_reader(request),
    )
    return render(request, "broadcast/table.html", context)


def broadcast_state(request: HttpRequest, slug: str, table: int) -> HttpResponse:
    """The board being broadcast (or ``?match=&board=``, ``&step=`` for a replay), as JSON;
    answers 304 when nothing changed since the ``ETag`` the page holds."""
    tournament, found = _watched(request, slug, table)
    if not _may_watch(request, tournament, table):
        return JsonResponse({"error": "shown once the table is complete"}, status=403)
    query = request.GET.urlencode()
    analysis_wait = request.GET.get("pending") == "1"
    etag = f'"{found.version}-{_reader(request)}-{zlib.crc32(query.encode())}"'
    if not analysis_wait and etag in request.headers.get("If-None-Match", ""):
        response = HttpResponse(status=304)
        response["ETag"] = etag
        return response
    response = JsonResponse(_state_body(request.GET, found))
    response["ETag"] = etag
    patch_cache_control(response, private=True, no_cache=True)
    return response


def _state_body(query: Any, found: FeaturedTable) -> dict[str, Any]:
    """The table's recorded boards and the one shown: the one asked for (``match``, ``board``),
    else the live one; up to ``step`` actions for a replay."""
    slots = selectors.board_slots(found)
    chosen = _board_arguments(query)
    recorded = [s for s in slots if s.recording is not None]
    slot = selectors.slot_of(slots, *chosen) if chosen else _live_slot(recorded)
    body: dict[str, Any] = {
        "version": found.version,
        "boards": [
            {"match": s.match.pk, "board": s.board, "round": s.match.round, "state": s.state}
            for s in recorded
        ],
        "board": None,
    }
    if slot is not None and slot.recording is not None:
        step = query.get("step")
        upto = int(step) if step and step.isdigit() else None
        body["board"] = selectors.board_payload(found, slot, upto=upto)
    return body


def _live_slot(recorded: list[selectors.BoardSlot]) -> selectors.BoardSlot | None:
    """The board being played now: the last recording touched."""
    if not recorded:
        return None
    return max(recorded, key=lambda s: s.recording.updated_at if s.recording else 0)
