"""The director's pages (organisers only): the dashboard of every board's state, and a
board's page with its history and the forms that enter, adjust or erase its result through
``scoring.services``."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from engine.core.errors import RecordError
from engine.core.seats import SEAT_NAMES
from scoring import selectors, services, states
from scoring.errors import ScoringError
from scoring.forms import AdjustForm, ChoicesEntryForm, EraseForm, ScriptEntryForm, SeatsAdjustForm
from scoring.models import Result, Review, Submission
from scoring.views.entries import describe_entry, entry_facts
from tournaments import selectors as tselectors
from tournaments.models import Board, Entrant, Match, Status, Tournament, entry_script
from tournaments.permissions import organiser_required
from tournaments.templatetags.languages import translated, translated_tree


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament, slug=slug)


STATE_ORDER = [
    states.DISPUTED,
    states.RETURNED,
    states.AWAITING_EAST,
    states.EMPTY,
    states.CONFIRMED,
    states.ADJUSTED,
]


def _director_rows(tournament: Tournament, wanted_state: str, wanted_round: int | None):
    rows = selectors.director_overview(tournament)
    counts = Counter(row["state"].state for row in rows)
    rounds = sorted({row["match"].round for row in rows})
    if wanted_state in STATE_ORDER:
        rows = [row for row in rows if row["state"].state == wanted_state]
    if wanted_round is not None:
        rows = [row for row in rows if row["match"].round == wanted_round]
    # Disputed boards first: they are what the director is there for.
    rows.sort(
        key=lambda row: (
            row["state"].state != states.DISPUTED,
            row["match"].round,
            row["match"].table.number,
            row["board"],
        )
    )
    filters = [
        {"state": s, "label": _(states.STATE_LABELS[s]), "count": counts.get(s, 0)}
        for s in STATE_ORDER
    ]
    return rows, filters, rounds, sum(counts.values())


def _director_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    """The overview as the filters in the address choose it, the rounds' progress and the
    open director calls."""
    wanted_state = request.GET.get("state", "")
    round_text = request.GET.get("round", "")
    wanted_round = int(round_text) if round_text.isdigit() else None
    rows, filters, rounds, total = _director_rows(tournament, wanted_state, wanted_round)
    query = {"state": wanted_state, "round": wanted_round}
    return {
        "tournament": tournament,
        "rows": rows,
        "filters": filters,
        "rounds": rounds,
        "total": total,
        "wanted_state": wanted_state,
        "wanted_round": wanted_round,
        "progress": selectors.round_progress(tournament),
        "open_calls": next(f["count"] for f in filters if f["state"] == states.DISPUTED),
        "query": urlencode({key: value for key, value in query.items() if value}),
    }


@organiser_required
def director(request: HttpRequest, slug: str) -> HttpResponse:
    """The director's overview; director.js asks its fragment again every few seconds and
    raises an alert (a banner, a sound, the count in the title) for a new director call."""
    tournament = _tournament(slug)
    context = _director_context(request, tournament)
    context["version"] = selectors.director_version(tournament)
    return render(request, "scoring/director.html", context)


@organiser_required
def director_fragment(request: HttpRequest, slug: str) -> HttpResponse:
    """The overview's live part: 204 while no board changed since version ``v``."""
    tournament = _tournament(slug)
    version = selectors.director_version(tournament)
    if request.GET.get("v") == version:
        return HttpResponse(status=204)
    html = render_to_string(
        "scoring/director_fragment.html", _director_context(request, tournament), request
    )
    response = HttpResponse(html)
    response["X-Fragment-Version"] = version
    response["Cache-Control"] = "no-store"
    return response


def _director_match(tournament: Tournament, match_id: int, board: int) -> tuple[Match, Board]:
    match = get_object_or_404(
        Match.objects.select_related("table", "north_entrant", "east_entrant"),
        pk=match_id,
        table__tournament=tournament,
    )
    return match, get_object_or_404(Board, table=match.table, number=board)


def _history(match: Match, board: Board) -> dict[str, Any]:
    """The board's state and every row behind it, oldest first, with who, when and where."""
    game = match.table.tournament.game_rules
    state = states.fold(
        list(Submission.objects.filter(match=match, board=board).select_related("entrant", "user")),
        list(Review.objects.filter(match=match, board=board).select_related("entrant", "user")),
    )
    events = []
    for row in state.history:
        is_entry = isinstance(row, Submission)
        events.append(
            {
                "kind": "submission" if is_entry else "review",
                "row": row,
                "entry": describe_entry(row.record, row.score, game) if is_entry else None,
            }
        )
    return {
        "state": state,
        "events": events,
        "results": list(
            Result.objects.filter(match=match, board=board).select_related("review__user")
        ),
    }


def _render_board(
    request: HttpRequest,
    tournament: Tournament,
    match: Match,
    board: Board,
    status: int = 200,
    **forms: Any,
) -> HttpResponse:
    history = _history(match, board)
    for result in history["results"]:
        result.seat_values = [(result.seats or {}).get(seat) for seat in match.table.seats]
    return render(
        request,
        "scoring/director_board.html",
        {
            "tournament": tournament,
            "match": match,
            "board": board,
            **history,
            "current": next((r for r in history["results"] if r.current), None),
            **_board_forms(tournament, match, board, history, forms),
            "entry_script": entry_script(tournament.game_rules),
            "director_config": _director_config(tournament, match),
            "is_final": tournament.status == Status.FINAL,
            **_who_sits(tournament, match, board),
            "diagram": tselectors.board_diagram(tournament, board) if board.deal else None,
            "disagreements": [
                _with_disagreement_words(tournament, match, board, event["row"])
                for event in history["events"]
                if event["kind"] == "submission" and event["row"].deal_disagreement
            ],
        },
        status=status,
    )


def _with_disagreement_words(
    tournament: Tournament, match: Match, board: Board, row: Submission
) -> Submission:
    """The entry with ``disagreement_words``: why it disagrees with the deal on file, worked
    out again from the entry in the reader's language (the stored text is the engine's
    English), else the stored text."""
    row.disagreement_words = row.deal_disagreement
    facts = entry_facts(row.record or {}, tournament.game_rules)
    try:
        again = services.deal_disagreement(match, board, facts, row.score or {})
    except (ScoringError, RecordError, ValueError):
        return row
    if again:
        row.disagreement_words = translated(again)
    return row


def _board_forms(
    tournament: Tournament,
    match: Match,
    board: Board,
    history: dict[str, Any],
    forms: dict[str, Any],
) -> dict[str, Any]:
    """The director's forms of a board: the forms as posted, else new ones; the entry starts
    from what is to be corrected, the pending entry, else the latest one."""
    entries = [e["row"] for e in history["events"] if e["kind"] == "submission"]
    latest = history["state"].pending or (entries[-1] if entries else None)
    entry_form = forms.get("entry_form") or _director_entry_form(
        tournament, match, board, initial=_director_initial(tournament, latest)
    )
    return {
        "entry_form": entry_form,
        "choices_entry": isinstance(entry_form, ChoicesEntryForm),
        "script_entry": isinstance(entry_form, ScriptEntryForm),
        # The entry the form starts from: the script keeps the director's draft per entry.
        "draft_of": latest.pk if latest else "",
        "adjust_form": forms.get("adjust_form") or _director_adjust_form(tournament, match),
        "erase_form": forms.get("erase_form") or EraseForm(),
    }


def _who_sits(tournament: Tournament, match: Match, board: Board) -> dict[str, Any]:
    """Who sits where: the players in their seats and the dealer, or the two pairs and the
    seat that opens at the table, where the game has one."""
    if tournament.of_players:
        return {
            "opening": None,
            "seated": _seated(match),
            "seats": list(match.table.seats),  # its own table's (tables may differ)
            "dealer": SEAT_NAMES.get(board.dealer, ""),
        }
    return {"opening": _opening_seat(tournament, match), "seated": [], "seats": [], "dealer": ""}


def _director_config(tournament: Tournament, match: Match) -> dict[str, Any]:
    """What a game's entry script needs on the director's board page (see scorer.js)."""
    config = {
        "director": True,
        "slug": tournament.slug,
        "api": reverse("api:tournament", kwargs={"slug": tournament.slug}),
        **tournament.game_rules.scorer_config(tournament.rules),
    }
    config.update(tournament.game_rules.table_scorer_config(tournament.rules, match.table.number))
    return config


def _opening_seat(tournament: Tournament, match: Match) -> str:
    """The name of the seat that opens at the match's table, where the game has one."""
    letter = tournament.opening_letter(match.table.number)
    return SEAT_NAMES[letter] if letter else ""


def _seated(match: Match) -> list[tuple[str, Entrant]]:
    """``(seat name, player)`` of a match of individuals, in seat order."""
    return [(SEAT_NAMES[seat], player) for seat, player in _seat_players(match)]


def _director_entry_form(
    tournament: Tournament, match: Match, board: Board, data: Any = None, initial: Any = None
) -> ChoicesEntryForm | ScriptEntryForm:
    """The director's entry: the game's own choices for this board where its entry is a list
    of choices (the declarer's sheet as it stands, this board's result aside), else the same
    entry script as North's phone (bidding box, set picker). The page shows the deal beside
    it; the server checks the entry against the deal when he saves."""
    game = tournament.game_rules
    spec = selectors.entry_forms(tournament, match).get(board.number) or {}
    if game.entry_kind == "fields":
        return ChoicesEntryForm(data, spec=spec, initial=initial)
    return ScriptEntryForm(data, spec=spec, initial=initial)


def _director_adjust_form(
    tournament: Tournament, match: Match, data: Any = None
) -> AdjustForm | SeatsAdjustForm:
    if tournament.of_players:
        seats = {
            seat: f"{translated(SEAT_NAMES[seat])} ({player.name})"
            for seat, player in _seat_players(match)
        }
        return SeatsAdjustForm(data, seats=seats)
    return AdjustForm(data)


def _seat_players(match: Match) -> list[tuple[str, Entrant]]:
    order = {seat: i for i, seat in enumerate("NESW")}
    seats = sorted(match.seats.select_related("entrant"), key=lambda seat: order[seat.seat])
    return [(seat.seat, seat.entrant) for seat in seats]


def _director_initial(tournament: Tournament, latest: Submission | None) -> dict[str, Any] | None:
    """The director's form filled with North's latest entry, ready to correct."""
    if latest is None:
        return None
    game = tournament.game_rules
    facts = game.scorer_facts(latest.record, latest.score)
    if game.entry_kind == "fields":
        return {name: str(value) for name, value in facts.items()}
    return {"record_json": json.dumps(facts)}


@organiser_required
def director_board(request: HttpRequest, slug: str, match_id: int, board: int) -> HttpResponse:
    tournament = _tournament(slug)
    match, board_obj = _director_match(tournament, match_id, board)
    return _render_board(request, tournament, match, board_obj)


def _board_url(slug: str, match: Match, board: Board) -> str:
    return reverse("scoring:director-board", args=[slug, match.pk, board.number])


def _director_action(
    request: HttpRequest,
    slug: str,
    match_id: int,
    board: int,
    *,
    make_form: Callable[[Tournament, Match, Board, Any], Any],
    form_name: str,
    act: Callable[..., str],
    failed: str,
) -> HttpResponse:
    """Validate the form, run the service; on success say what was done and show the board,
    otherwise show the board again with the form's errors (nothing was stored)."""
    tournament = _tournament(slug)
    match, board_obj = _director_match(tournament, match_id, board)
    form = make_form(tournament, match, board_obj, request.POST)
    if form.is_valid():
        try:
            done = act(form.cleaned_data, match, board_obj, form)
        except ScoringError as exc:
            form.add_service_error(exc)
        else:
            messages.success(request, done)
            return redirect(_board_url(slug, match, board_obj))
    messages.error(request, failed)
    return _render_board(request, tournament, match, board_obj, status=400, **{form_name: form})


def _result_words(result: Result) -> str:
    if result.seats:
        return ", ".join(f"{seat} {value:+d}" for seat, value in result.seat_results)
    return _("NS %(ns)s, EW %(ew)s") % {"ns": result.north_result, "ew": result.east_result}


@organiser_required
@require_POST
def director_enter(request: HttpRequest, slug: str, match_id: int, board: int) -> HttpResponse:
    def act(data: dict[str, Any], match: Match, board_obj: Board, form: Any) -> str:
        if Submission.objects.filter(match=match, client_id=data["client_id"]).exists():
            return _("That entry was already saved (the form was sent twice).")
        result = services.director_enter_result(
            match_id=match.pk,
            board_number=board_obj.number,
            user=request.user,
            facts=form.facts,
            reason=data["reason"],
            client_id=data["client_id"],
        )
        return _("Result entered: %(result)s.") % {"result": _result_words(result)}

    return _director_action(
        request,
        slug,
        match_id,
        board,
        make_form=lambda tournament, match, board_obj, data: _director_entry_form(
            tournament, match, board_obj, data
        ),
        form_name="entry_form",
        act=act,
        failed=_("The result was not saved: see the form below."),
    )


@organiser_required
@require_POST
def director_preview(request: HttpRequest, slug: str, match_id: int, board: int) -> JsonResponse:
    """The score of the director's entry as it stands, never stored: what North's phone shows
    (the board score and its words: ``{"record": facts}`` in, the score with ``words`` out),
    with every fact in words (the revoke among them) and, for the director alone, whether it
    agrees with the deal on file. 400 ``{"detail", "field"}`` for an entry that cannot be
    scored."""
    tournament = _tournament(slug)
    match, board_obj = _director_match(tournament, match_id, board)
    try:
        body = json.loads(request.body or b"{}")
    except ValueError:
        body = None
    facts = body.get("record") if isinstance(body, dict) else None
    if not isinstance(facts, dict):
        detail = gettext("The entry did not arrive whole: reload the page and enter it again.")
        return JsonResponse({"detail": detail, "field": "record"}, status=400)
    try:
        record, score = services.score_entry(match, board_obj, facts)
    except ScoringError as exc:
        return JsonResponse(
            {"detail": translated(exc.message), "field": exc.field}, status=exc.status
        )
    game = tournament.game_rules
    return JsonResponse(
        translated_tree(
            {
                **score,
                "words": game.describe(score),
                "facts": game.entry_in_words(record, score),
                "disagreement": services.deal_disagreement(match, board_obj, facts, score),
            }
        )
    )


@organiser_required
@require_POST
def director_adjust(request: HttpRequest, slug: str, match_id: int, board: int) -> HttpResponse:
    def act(data: dict[str, Any], match: Match, board_obj: Board, form: Any) -> str:
        by_seat = isinstance(form, SeatsAdjustForm)
        services.director_adjust(
            match_id=match.pk,
            board_number=board_obj.number,
            user=request.user,
            ns=None if by_seat else data["ns"],
            ew=None if by_seat else data["ew"],
            seats=form.results() if by_seat else None,
            reason=data["reason"],
        )
        return _("Adjusted result stored.")

    return _director_action(
        request,
        slug,
        match_id,
        board,
        make_form=lambda tournament, match, _board, data: _director_adjust_form(
            tournament, match, data
        ),
        form_name="adjust_form",
        act=act,
        failed=_("The adjusted result was not saved: see the form below."),
    )


@organiser_required
@require_POST
def director_erase(request: HttpRequest, slug: str, match_id: int, board: int) -> HttpResponse:
    def act(data: dict[str, Any], match: Match, board_obj: Board, _form: EraseForm) -> str:
        services.director_erase(
            match_id=match.pk,
            board_number=board_obj.number,
            user=request.user,
            reason=data["reason"],
        )
        return _("Result erased; the board has no result now.")

    return _director_action(
        request,
        slug,
        match_id,
        board,
        make_form=lambda _tournament, _match, _board, data: EraseForm(data),
        form_name="erase_form",
        act=act,
        failed=_("Nothing was erased: see the form below."),
    )
