"""Pages of the scorer's side: the scorer pages (phone first, reached with a team's access
code), the director's dashboard (organisers only), and the public standings, table and team
pages.

The scorer pages are rendered here and driven by ``static/scoring/scorer.js``, which talks to
the REST API (``/api/v1/``) with the team's code; the director's actions are Django forms
posting to views that call ``scoring.services``; the public pages only read stored standings
and serve their fragments from the cache, keyed by the standings' and results' versions.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.core.cache import cache
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from rest_framework.exceptions import Throttled

from engine.games import Game
from engine.games.pymtheg.auction import BID_WORDS, CallError, parse_call
from engine.games.pymtheg.words import SEAT_NAMES, TRUMP_WORDS, contract_in_words
from scoring import selectors, services, sheets, states, visibility
from scoring.api.access import code_team_or_none
from scoring.errors import ScoringError
from scoring.forms import (
    AdjustForm,
    ChoicesEntryForm,
    EraseForm,
    ScriptEntryForm,
    SeatsAdjustForm,
)
from scoring.models import RankingPoints, Result, Review, Standing, StandingsState, Submission
from scoring.public import NotPublished
from scoring.selectors import TeamMatch
from tournaments import selectors as tselectors
from tournaments.models import (
    Board,
    Match,
    MatchSeat,
    Status,
    Table,
    Team,
    Tournament,
    entry_script,
)
from tournaments.permissions import organiser_required
from tournaments.selectors import SEATED, is_public

SESSION_KEY = "scorer-code:{pk}"
OPEN_STATUSES = (Status.SCHEDULED, Status.RUNNING)
TEAM_WORDS = {"NS": "North–South", "EW": "East–West"}
DOUBLE_NAMES = {"none": "Not doubled", "x": "Doubled", "xx": "Redoubled"}
# Bump when a fragment template changes shape, so no process serves the old markup.
FRAGMENT_SCHEMA = 2
FRAGMENT_TTL = 60  # seconds; bounds how long a renamed team keeps its old name on the pages


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament, slug=slug)


# --- what was entered, in words ------------------------------------------------------------


def call_in_words(text: str) -> dict[str, str]:
    """``{"seat": "South", "call": "Gâm +4, no trump"}`` for ``"S:G+4/nt"``."""
    try:
        call = parse_call(text)
    except CallError:
        return {"seat": "", "call": str(text)}
    if call.bid is None:
        words = "Pass"
    else:
        words = BID_WORDS[call.bid.code]
        if call.trump:
            words += f", {TRUMP_WORDS[call.trump]}"
    return {"seat": SEAT_NAMES[call.seat.name], "call": words}


def _tricks_in_words(tricks: Any) -> list[tuple[str, Any]]:
    if not isinstance(tricks, dict):
        return []
    names = {**SEAT_NAMES, **TEAM_WORDS}
    order = ["N", "E", "S", "W", "NS", "EW"]
    return [(names[key], tricks[key]) for key in order if key in tricks]


def describe_entry(record: dict[str, Any], score: dict[str, Any], game: Game) -> dict[str, Any]:
    """Every fact of an entry and its score, ready for East's check and the director."""
    if game.entry_kind != "auction":
        return {
            "facts": game.entry_in_words(record, score),
            "words": game.describe(score),
            # Table order: a score stored in PostgreSQL (jsonb) comes back with its keys sorted.
            "seats": [(seat, score["seats"][seat]) for seat in "NESW" if seat in score["seats"]],
        }
    trump = None
    if score.get("trump"):
        when = "in the bid" if score.get("announced") == "during" else "after the auction"
        trump = f"{TRUMP_WORDS[score['trump']].capitalize()} (named {when})"
    return {
        "auctions": [
            [call_in_words(call) for call in auction] for auction in record.get("auctions", [])
        ],
        "trump": trump,
        "double": DOUBLE_NAMES.get(record.get("double", "none"), record.get("double")),
        "tricks": _tricks_in_words(record.get("tricks")),
        "revoke": SEAT_NAMES.get(record.get("revoke") or "", ""),
        "illegal_trump": SEAT_NAMES.get(record.get("illegal_trump") or "", ""),
        "passed_out": score.get("contract") is None,
        "words": contract_in_words(score),
        "ns": score.get("ns"),
        "ew": score.get("ew"),
    }


def entry_facts(record: dict[str, Any], game: Game) -> dict[str, Any]:
    """What North entered, without the fields the tournament adds."""
    return {key: value for key, value in record.items() if key in game.entry_fields}


# --- scorer pages --------------------------------------------------------------------------


@dataclass
class BoardPanel:
    """One board of the match on the scorer's screen, and what this team may do with it."""

    number: int
    state: states.BoardState
    role: str  # "north" enters, "east" checks
    result: Result | None = None
    pending: dict[str, Any] | None = None
    # What was entered for the board's result, in words (none for a director's adjustment).
    entered: dict[str, Any] | None = None
    draft: dict[str, Any] | None = None
    can_enter: bool = False
    can_check: bool = False
    can_call: bool = False
    dom_id: str = ""
    # Games whose scorer picks each fact from a list: what may be entered on this board.
    form: dict[str, Any] | None = None
    # The deal as ``(whose, cards)``, once the board's result here stands (``visibility``).
    hands: list[tuple[str, str]] | None = None

    @property
    def draft_id(self) -> str:
        return f"draft-{self.dom_id}"

    @property
    def form_id(self) -> str:
        return f"form-{self.dom_id}"


@dataclass
class ScorerPage:
    tournament: Tournament
    team: Team
    overview: list[TeamMatch]
    current: TeamMatch | None
    shown: TeamMatch | None
    panels: list[BoardPanel] = field(default_factory=list)

    @property
    def is_open(self) -> bool:
        return self.tournament.status in OPEN_STATUSES

    @property
    def later(self) -> bool:
        """The shown match is in a round after the team's current one."""
        if self.shown is None or self.current is None:
            return False
        return self.shown.match.round > self.current.match.round

    @property
    def several_boards(self) -> bool:
        return len(self.panels) > 1

    @property
    def entrant_word(self) -> str:
        return "player" if self.tournament.of_players else "team"


def _session_team(request: HttpRequest, tournament: Tournament) -> Team | None:
    code = request.session.get(SESSION_KEY.format(pk=tournament.pk), "")
    team = selectors.team_by_code(tournament.slug, code) if code else None
    if code and team is None:  # the organiser gave the team a new code
        del request.session[SESSION_KEY.format(pk=tournament.pk)]
    return team


def _code_page(
    request: HttpRequest,
    tournament: Tournament,
    error: str = "",
    status: int = 200,
    typed: str = "",
) -> HttpResponse:
    """The page that asks for the access code; a mistyped code stays in the field to mend."""
    context = {"tournament_public": tournament, "error": error, "typed": typed[:40]}
    return render(request, "scoring/scorer_code.html", context, status=status)


def _sign_in_with_code(request: HttpRequest, tournament: Tournament, code: str) -> HttpResponse:
    try:
        team = code_team_or_none(request, tournament, code)
    except Throttled as exc:
        seconds = round(exc.wait or 60)
        wait = f"{seconds} seconds" if seconds < 90 else f"{round(seconds / 60)} minutes"
        message = (
            f"Too many wrong access codes from this address. Check the code on your route "
            f"card and try again in {wait}, or ask the director."
        )
        return _code_page(request, tournament, message, status=429, typed=code)
    if team is None:
        message = (
            "Type the access code printed on your route card."
            if not code.strip()
            else ("That access code is not one of this tournament's. Check it on your route card.")
        )
        return _code_page(
            request, tournament, message, status=403 if code.strip() else 200, typed=code
        )
    request.session[SESSION_KEY.format(pk=tournament.pk)] = team.access_code
    # Redirect so the code leaves the address bar (and the phone's history).
    return redirect("scorer-entry", slug=tournament.slug)


def _active_match(overview: list[TeamMatch], current: Match | None) -> TeamMatch | None:
    """The match to show first: the current one (the first with a board still open), else
    the last."""
    if current is not None:
        return next(tm for tm in overview if tm.match.pk == current.pk)
    return overview[-1] if overview else None


def _signature(overview: list[TeamMatch]) -> str:
    """The states the page was drawn from; scorer.js builds the same string from the API's
    ``me`` answer and reloads the page when it differs."""
    return "|".join(
        f"{tm.match.pk}.{number}.{state.state}.{state.pending.pk if state.pending else ''}"
        for tm in overview
        for number, state in tm.boards
    )


def _last_north_entry(state: states.BoardState) -> Submission | None:
    entries = [
        row for row in state.history if isinstance(row, Submission) and row.source == "north"
    ]
    return entries[-1] if entries else None


def _panels(page: ScorerPage) -> list[BoardPanel]:
    shown = page.shown
    if shown is None:
        return []
    results = {
        r.board.number: r
        for r in Result.objects.filter(match=shown.match, current=True).select_related(
            "board", "submission"
        )
    }
    role = shown.role
    game = page.tournament.game_rules
    open_now = page.is_open and not page.later
    forms = selectors.entry_forms(page.tournament, shown.match) if role == "north" else {}
    seen = visibility.deals_seen_by(
        page.tournament, [(shown.match, number, state.has_result) for number, state in shown.boards]
    )
    panels = []
    for number, state in shown.boards:
        panel = BoardPanel(
            number=number,
            state=state,
            role=role,
            result=results.get(number),
            dom_id=f"m{shown.match.pk}-b{number}",
        )
        if state.pending is not None:
            panel.pending = describe_entry(state.pending.record, state.pending.score, game)
        entered = panel.result.submission if panel.result is not None else None
        if entered is not None:
            panel.entered = describe_entry(entered.record, entered.score, game)
        last = _last_north_entry(state)
        if role == "north" and last is not None and not state.has_result:
            panel.draft = entry_facts(last.record, game)
        active = state.state in (states.EMPTY, states.RETURNED, states.AWAITING_EAST)
        panel.can_enter = open_now and role == "north" and active
        panel.form = forms.get(number)
        panel.hands = seen.get((shown.match.pk, number))
        panel.can_check = open_now and role == "east" and state.state == states.AWAITING_EAST
        panel.can_call = open_now and state.state != states.DISPUTED
        panels.append(panel)
    return panels


def _scorer_config(page: ScorerPage) -> dict[str, Any]:
    """What scorer.js needs: the API's address, the team's code, the rules that shape the
    bidding box, and the states the page was drawn from."""
    tournament = page.tournament
    config = {
        "slug": tournament.slug,
        "code": page.team.access_code,
        "team": page.team.number,
        "api": reverse("api:tournament", kwargs={"slug": tournament.slug}),
        "signature": _signature(page.overview),
        **tournament.game_rules.scorer_config(tournament.rules),
    }
    if page.shown is not None and not tournament.of_players:
        # The bidding box works out the legal calls on the phone (entry-auction.js).
        config["opening"] = tournament.opening_seat_for(page.shown.match.table.number).name
        config["direction"] = tournament.direction
    return config


def _render_scorer(
    request: HttpRequest, tournament: Tournament, team: Team, shown_id: int | None = None
) -> HttpResponse:
    overview, current = selectors.team_overview(team)
    current_tm = next((tm for tm in overview if current and tm.match.pk == current.pk), None)
    if shown_id is None:
        shown = _active_match(overview, current)
    else:
        shown = next((tm for tm in overview if tm.match.pk == shown_id), None)
        if shown is None:
            raise Http404("That is not one of your matches.")
    page = ScorerPage(tournament, team, overview, current_tm, shown)
    page.panels = _panels(page)
    context: dict[str, Any] = {
        "tournament_public": tournament,
        "page": page,
        "config": _scorer_config(page),
        "entry_script": entry_script(tournament.game_rules),
    }
    if shown is not None:
        table = shown.match.table.number
        context.update(tournament.game_rules.table_context(tournament.rules, table))
    return render(request, "scoring/scorer.html", context)


@never_cache
def scorer_entry(request: HttpRequest, slug: str) -> HttpResponse:
    """Where the QR code on a route card points (``?code=`` signs the phone in)."""
    tournament = _tournament(slug)
    if "code" in request.GET:
        return _sign_in_with_code(request, tournament, request.GET.get("code", ""))
    team = _session_team(request, tournament)
    if team is None:
        return _code_page(request, tournament)
    return _render_scorer(request, tournament, team)


@never_cache
def scorer_match(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    tournament = _tournament(slug)
    team = _session_team(request, tournament)
    if team is None:
        return redirect("scorer-entry", slug=slug)
    return _render_scorer(request, tournament, team, shown_id=match_id)


@require_POST
def scorer_leave(request: HttpRequest, slug: str) -> HttpResponse:
    """Forget the team's code on this phone (to hand it to the other team, say)."""
    tournament = _tournament(slug)
    request.session.pop(SESSION_KEY.format(pk=tournament.pk), None)
    return redirect("scorer-entry", slug=slug)


# --- director ------------------------------------------------------------------------------

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
        {"state": s, "label": states.STATE_LABELS[s], "count": counts.get(s, 0)}
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
        Match.objects.select_related("table", "ns_team", "ew_team"),
        pk=match_id,
        table__tournament=tournament,
    )
    return match, get_object_or_404(Board, table=match.table, number=board)


def _history(match: Match, board: Board) -> dict[str, Any]:
    """The board's state and every row behind it, oldest first, with who, when and where."""
    game = match.table.tournament.game_rules
    state = states.fold(
        list(Submission.objects.filter(match=match, board=board).select_related("team", "user")),
        list(Review.objects.filter(match=match, board=board).select_related("team", "user")),
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
    # Start from what is to be corrected: the pending entry, else the latest one.
    entries = [e["row"] for e in history["events"] if e["kind"] == "submission"]
    latest = history["state"].pending or (entries[-1] if entries else None)
    entry_form = forms.get("entry_form") or _director_entry_form(
        tournament, match, board, initial=_director_initial(tournament, latest)
    )
    of_players = tournament.of_players
    for result in history["results"]:
        result.seat_values = [(result.seats or {}).get(seat) for seat in tournament.seats]
    if board.deal:
        diagram = (
            tselectors.board_hands(tournament, board)
            if of_players
            else tselectors.board_diagram(board)
        )
    else:
        diagram = None
    return render(
        request,
        "scoring/director_board.html",
        {
            "tournament": tournament,
            "match": match,
            "board": board,
            **history,
            "current": next((r for r in history["results"] if r.current), None),
            "entry_form": entry_form,
            "choices_entry": isinstance(entry_form, ChoicesEntryForm),
            "script_entry": isinstance(entry_form, ScriptEntryForm),
            "entry_script": entry_script(tournament.game_rules),
            "director_config": _director_config(tournament, match),
            "adjust_form": forms.get("adjust_form") or _director_adjust_form(tournament, match),
            "erase_form": forms.get("erase_form") or EraseForm(),
            "is_final": tournament.status == Status.FINAL,
            "opening": None if of_players else _opening_seat(tournament, match),
            "seated": _seated(match) if of_players else [],
            "seats": list(tournament.seats) if of_players else [],
            "dealer": SEAT_NAMES.get(board.dealer, "") if of_players else "",
            "diagram": diagram,
            "disagreements": [
                event["row"]
                for event in history["events"]
                if event["kind"] == "submission" and event["row"].deal_disagreement
            ],
        },
        status=status,
    )


def _director_config(tournament: Tournament, match: Match) -> dict[str, Any]:
    """What a game's entry script needs on the director's board page (see scorer.js)."""
    config = {
        "director": True,
        "slug": tournament.slug,
        "api": reverse("api:tournament", kwargs={"slug": tournament.slug}),
        **tournament.game_rules.scorer_config(tournament.rules),
    }
    if not tournament.of_players:
        config["opening"] = tournament.opening_seat_for(match.table.number).name
        config["direction"] = tournament.direction
    return config


def _opening_seat(tournament: Tournament, match: Match) -> str:
    return SEAT_NAMES[tournament.opening_seat_for(match.table.number).name]


def _seated(match: Match) -> list[tuple[str, Team]]:
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
            seat: f"{SEAT_NAMES[seat]} ({player.name})" for seat, player in _seat_players(match)
        }
        return SeatsAdjustForm(data, seats=seats)
    return AdjustForm(data)


def _seat_players(match: Match) -> list[tuple[str, Team]]:
    order = {seat: i for i, seat in enumerate("NESW")}
    seats = sorted(match.seats.select_related("team"), key=lambda seat: order[seat.seat])
    return [(seat.seat, seat.team) for seat in seats]


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
    return f"NS {result.ns_result}, EW {result.ew_result}"


@organiser_required
@require_POST
def director_enter(request: HttpRequest, slug: str, match_id: int, board: int) -> HttpResponse:
    def act(data: dict[str, Any], match: Match, board_obj: Board, form: Any) -> str:
        if Submission.objects.filter(match=match, client_id=data["client_id"]).exists():
            return "That entry was already saved (the form was sent twice)."
        result = services.director_enter_result(
            match_id=match.pk,
            board_number=board_obj.number,
            user=request.user,
            facts=form.facts,
            reason=data["reason"],
            client_id=data["client_id"],
        )
        return f"Result entered: {_result_words(result)}."

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
        failed="The result was not saved: see the form below.",
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
        return "Adjusted result stored."

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
        failed="The adjusted result was not saved: see the form below.",
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
        return "Result erased; the board has no result now."

    return _director_action(
        request,
        slug,
        match_id,
        board,
        make_form=lambda _tournament, _match, _board, data: EraseForm(data),
        form_name="erase_form",
        act=act,
        failed="Nothing was erased: see the form below.",
    )


# --- public pages --------------------------------------------------------------------------


def _public_tournament(request: HttpRequest, slug: str) -> tuple[Tournament, StandingsState]:
    """The tournament and its standings bookkeeping in one query (no row is written), without
    the stored standings object: megabytes in a big tournament, and no fragment needs it.
    404 for a draft, but to its organisers."""
    tournament = get_object_or_404(
        Tournament.objects.select_related("standings_state").defer("standings_state__standings"),
        slug=slug,
    )
    if not is_public(tournament, request.user):
        raise NotPublished(tournament)
    try:
        state = tournament.standings_state
    except StandingsState.DoesNotExist:
        state = StandingsState(tournament=tournament)
    return tournament, state


STANDINGS_WORDS = {
    "stale": (
        "Stale",
        "Updating: new results are being counted. Until then these are the standings from "
        "before them.",
    ),
    "final": ("Final", "Final standings, approved by the organiser."),
    "provisional": ("Provisional", "Not every result is in yet: places can still change."),
    "complete": (
        "Complete",
        "Every result is in; the organiser has not approved them as final yet.",
    ),
}


def standings_status(tournament: Tournament, state: StandingsState) -> dict[str, str]:
    """Which standings these are, in a word and a sentence."""
    key = selectors.standings_kind(tournament, state)
    word, text = STANDINGS_WORDS[key]
    if state.computed_at is None and not state.stale:
        text = "No results yet."
    return {"key": key, "word": word, "text": text}


def cached_fragment(
    kind: str, key: Any, tournament: Tournament, state: StandingsState, build
) -> str:
    """The rendered fragment from the cache, building it on a miss."""
    cache_key = (
        f"pym:fragment:{FRAGMENT_SCHEMA}:{tournament.pk}:{kind}:{key}:"
        f"{selectors.published_version(tournament, state)}"
    )
    html = cache.get(cache_key)
    if html is None:
        html = build()
        cache.set(cache_key, html, FRAGMENT_TTL)
    return html


def points_text(points: float | None) -> str:
    """Ranking points as people write them: 2, 2.5, 2.33 (never 2.50)."""
    return "" if points is None else f"{round(points, 2):g}"


def percentage_text(percentage: float | None) -> str:
    """A percentage as stored (2 decimals) written without trailing zeros: 50, 66.67."""
    return "" if percentage is None else f"{percentage:.2f}".rstrip("0").rstrip(".")


def _stored_entries(tournament: Tournament) -> dict[int, dict[str, Any]]:
    """Each player's entry of the stored standings object (percentages, totals, tie-breaks)."""
    stored = StandingsState.objects.filter(tournament=tournament).values_list(
        "standings", flat=True
    )
    standings = (stored.first() or {}).get("standings", [])
    return {int(entry["player"]): entry for entry in standings if "player" in entry}


def _standings_html(tournament: Tournament, state: StandingsState) -> str:
    rows = list(Standing.objects.filter(tournament=tournament).select_related("team"))
    if tournament.of_players:
        entries = _stored_entries(tournament)
        for row in rows:
            row.entry = entries.get(row.team_id, {})
    for row in rows:
        row.points_text = points_text(row.points)
        row.percentage_text = percentage_text(row.percentage)
    teams = [] if rows else list(tournament.teams.order_by("number"))
    status = standings_status(tournament, state)
    totals = tournament.of_players and tournament.ranking == "totals"
    results_in = Result.objects.filter(match__table__tournament=tournament, current=True).count()
    boards_needed = sum(len(boards) for boards in _boards_of_matches(tournament).values())
    return render_to_string(
        "scoring/public/standings_fragment.html",
        {
            "tournament": tournament,
            "totals": totals,
            "tiebreak": tournament.game_rules.totals_tiebreak,
            # Provisional standings are placed by percentage (and stale ones were, if the
            # stored standings were provisional).
            "by_percentage": not totals and (state.provisional or state.computed_at is None),
            "rows": rows,
            "teams": teams,
            "status": status,
            "computed_at": state.computed_at,
            "results_in": results_in,
            "boards_needed": boards_needed,
            "tables": list(tournament.tables.order_by("number")),
        },
    )


def _boards_of_matches(tournament: Tournament) -> dict[int, list[int]]:
    boards: dict[int, list[int]] = {}
    numbers: dict[int, list[int]] = {}
    for table_id, number in Board.objects.filter(table__tournament=tournament).values_list(
        "table_id", "number"
    ):
        numbers.setdefault(table_id, []).append(number)
    for match_id, table_id in Match.objects.filter(table__tournament=tournament).values_list(
        "pk", "table_id"
    ):
        boards[match_id] = sorted(numbers.get(table_id, []))
    return boards


@dataclass
class SideRow:
    round: int
    team: Team
    opponent: Team | None
    score: int | None
    passed_out: bool
    points: float | None

    @property
    def points_text(self) -> str:
        return points_text(self.points)


def _board_sides(board: Board, matches: list[Match], results: dict, points: dict):
    """The board's results at its table, each side ranked best first, and the matches
    still without a result."""
    sides: dict[str, list[SideRow]] = {"NS": [], "EW": []}
    waiting = []
    for match in matches:
        result = results.get((match.pk, board.pk))
        if result is None:
            waiting.append(match)
            continue
        for side, team, opponent, score in (
            ("NS", match.ns_team, match.ew_team, result.ns_result),
            ("EW", match.ew_team, match.ns_team, result.ew_result),
        ):
            team_points = points.get((match.pk, board.pk, team.pk))
            sides[side].append(
                SideRow(match.round, team, opponent, score, result.passed_out, team_points)
            )
    for rows in sides.values():
        rows.sort(key=lambda r: (r.points is None, r.points or 0, -(r.score or 0), r.round))
    return {"number": board.number, "sides": sides, "waiting": waiting}


def _board_seats(tournament: Tournament, board: Board, matches, results: dict, points: dict):
    """A board of a game of individuals: each seat's results ranked best first, each
    visit's result in words, and the matches still without a result."""
    game = tournament.game_rules
    seats: dict[str, list[SideRow]] = {seat: [] for seat in tournament.seats}
    words, waiting = [], []
    for match in matches:
        result = results.get((match.pk, board.pk))
        if result is None:
            waiting.append(match)
            continue
        if result.submission is not None:
            words.append((match.round, game.describe(result.submission.score)))
        for seat in match.seats.all():
            score = (result.seats or {}).get(seat.seat)
            team_points = points.get((match.pk, board.pk, seat.team_id))
            seats[seat.seat].append(
                SideRow(match.round, seat.team, None, score, False, team_points)
            )
    for rows in seats.values():
        rows.sort(key=lambda r: (r.points is None, r.points or 0, -(r.score or 0), r.round))
    return {"number": board.number, "sides": seats, "words": words, "waiting": waiting}


def _table_html(tournament: Tournament, state: StandingsState, number: int) -> str:
    table = get_object_or_404(Table, tournament=tournament, number=number)
    if number not in visibility.complete_tables(tournament):
        return _table_in_play_html(tournament, state, table)
    matches = list(table.matches.select_related("ns_team", "ew_team").order_by("round"))
    if tournament.of_players:
        return _players_table_html(tournament, state, table)
    results = {
        (r.match_id, r.board_id): r for r in Result.objects.filter(match__table=table, current=True)
    }
    points = {
        (p.match_id, p.board_id, p.team_id): p.points
        for p in RankingPoints.objects.filter(match__table=table)
    }
    boards = [
        _board_sides(board, matches, results, points) for board in table.boards.order_by("number")
    ]
    return render_to_string(
        "scoring/public/table_fragment.html",
        {
            "tournament": tournament,
            "table": table,
            "boards": boards,
            "status": standings_status(tournament, state),
            "opening": SEAT_NAMES[tournament.opening_seat_for(table.number).name],
        },
    )


def _table_in_play_html(tournament: Tournament, state: StandingsState, table: Table) -> str:
    """A table with a match still to play: who has played there and who is to come, nothing
    of what happened (a result would tell the teams still to come how the deals lie)."""
    boards = table.boards.count()
    done = dict(
        table.matches.annotate(n=Count("results", filter=Q(results__current=True))).values_list(
            "pk", "n"
        )
    )
    visits = []
    for match in table.matches.select_related("ns_team", "ew_team").prefetch_related(SEATED):
        seated = [seat.team for seat in match.seats.all()] or [match.ns_team, match.ew_team]
        visits.append(
            {"round": match.round, "entrants": seated, "played": done[match.pk] >= boards}
        )
    visits.sort(key=lambda visit: visit["round"])
    return render_to_string(
        "scoring/public/table_in_play.html",
        {
            "tournament": tournament,
            "table": table,
            "visits": visits,
            "played": sum(visit["played"] for visit in visits),
            "status": standings_status(tournament, state),
        },
    )


def _players_table_html(tournament: Tournament, state: StandingsState, table: Table) -> str:
    matches = list(table.matches.prefetch_related(SEATED).order_by("round"))
    results = {
        (r.match_id, r.board_id): r
        for r in Result.objects.filter(match__table=table, current=True).select_related(
            "submission"
        )
    }
    points = {
        (p.match_id, p.board_id, p.team_id): p.points
        for p in RankingPoints.objects.filter(match__table=table)
    }
    boards = [
        _board_seats(tournament, board, matches, results, points)
        for board in table.boards.order_by("number")
    ]
    return render_to_string(
        "scoring/public/table_fragment.html",
        {
            "tournament": tournament,
            "table": table,
            "boards": boards,
            "status": standings_status(tournament, state),
            "seat_names": SEAT_NAMES,
        },
    )


def _team_lines(tournament: Tournament, team: Team) -> list[dict[str, Any]]:
    """One line per match and board of the team: its own table result and ranking points."""
    matches = selectors.matches_of(team)
    results = {
        (r.match_id, r.board.number): r
        for r in Result.objects.filter(match__in=matches, current=True).select_related("board")
    }
    points = {
        (p.match_id, p.board.number): p.points
        for p in RankingPoints.objects.filter(team=team).select_related("board")
    }
    boards = _boards_of_matches(tournament)
    if tournament.of_players:
        lines = _player_lines(team, matches, results, points, boards)
    else:
        lines = _pair_lines(tournament, team, matches, results, points, boards)
    # A table's results are public once the table is complete (RULES: who may see what).
    complete = visibility.complete_tables(tournament)
    for line in lines:
        line["hidden"] = line["match"].table.number not in complete
    return lines


def _pair_lines(tournament: Tournament, team: Team, matches, results, points, boards):
    """One line per match and board of a pair: its side, opponents, table result, points."""
    forfeited = visibility.forfeiting_teams(tournament)
    lines = []
    for match in matches:
        side = "NS" if match.ns_team_id == team.pk else "EW"
        opponent = match.ew_team if side == "NS" else match.ns_team
        for board_number in boards.get(match.pk, []):
            result = results.get((match.pk, board_number))
            lines.append(
                {
                    "match": match,
                    "side": side,
                    "board": board_number,
                    "result": result,
                    "score": None
                    if result is None
                    else (result.ns_result if side == "NS" else result.ew_result),
                    "points": points_text(points.get((match.pk, board_number))),
                    "opponent": opponent,
                    "forfeit": _forfeit_words(team.pk in forfeited, opponent.pk in forfeited),
                }
            )
    return lines


def _forfeit_words(own: bool, opponent: bool) -> str:
    """What a disqualification makes of a match on a team's card."""
    if own and opponent:
        return "not played (both disqualified)"
    if own:
        return "forfeit −1000"
    return "0 (the opponents forfeit)" if opponent else ""


def _player_lines(team: Team, matches, results, points, boards) -> list[dict[str, Any]]:
    """One line per round and board of a player: his seat, his table result, his points."""
    seats = dict(MatchSeat.objects.filter(team=team).values_list("match_id", "seat"))
    lines = []
    for match in matches:
        seat = seats.get(match.pk)
        for board_number in boards.get(match.pk, []):
            result = results.get((match.pk, board_number))
            lines.append(
                {
                    "match": match,
                    "side": seat,
                    "board": board_number,
                    "result": result,
                    "score": None if result is None else (result.seats or {}).get(seat),
                    "points": points_text(points.get((match.pk, board_number))),
                    "opponent": None,
                }
            )
    return lines


def _team_html(tournament: Tournament, state: StandingsState, number: int) -> str:
    team = get_object_or_404(
        Team.objects.select_related("disqualification"), tournament=tournament, number=number
    )
    standing = Standing.objects.filter(tournament=tournament, team=team).first()
    return render_to_string(
        "scoring/public/team_fragment.html",
        {
            "tournament": tournament,
            "team": team,
            "lines": _team_lines(tournament, team),
            "standing": standing,
            "standing_points": points_text(standing.points) if standing else "",
            "standing_percentage": percentage_text(standing.percentage) if standing else "",
            "entry": _stored_entries(tournament).get(team.pk, {}) if tournament.of_players else {},
            "sheets": _drawn_sheets(tournament, team),
            "status": standings_status(tournament, state),
            "several_boards": tournament.boards_per_table > 1,
            "tiebreak": tournament.game_rules.totals_tiebreak,
        },
    )


def _drawn_sheets(tournament: Tournament, team: Team) -> list[dict[str, Any]]:
    """A player's score sheets as rows of places, for games that keep one (the pyramid:
    1, 2, 3, 4, 3, 2, 1 places), each place its tricks won and points once filled."""
    if not tournament.game_rules.sheet_size:
        return []
    drawn = []
    for sheet in sheets.player_sheets(tournament, team):
        rows = [
            {
                "declared": declared,
                "places": [
                    {"won": won, "points": points}
                    for won, points in zip(
                        sheet["won"][declared], sheet["points"][declared], strict=True
                    )
                ]
                + [None] * sheet["remaining"][declared],
            }
            for declared in range(len(sheet["quota"]))
        ]
        drawn.append({**sheet, "rows": rows})
    return drawn


PUBLIC_FRAGMENTS = {
    "standings": (lambda t, s, _n: _standings_html(t, s), "Standings"),
    "table": (_table_html, "Table {number}"),
    "team": (_team_html, "Team {number}"),
}


def _fragment_html(kind: str, tournament: Tournament, state: StandingsState, number: int | None):
    build, _title = PUBLIC_FRAGMENTS[kind]
    return cached_fragment(
        kind, number, tournament, state, lambda: build(tournament, state, number)
    )


def _public_page(request: HttpRequest, slug: str, kind: str, number: int | None = None):
    tournament, state = _public_tournament(request, slug)
    html = _fragment_html(kind, tournament, state, number)
    fragment_url = reverse(f"scoring:{kind}-fragment", args=[slug, number] if number else [slug])
    return render(
        request,
        "scoring/public/page.html",
        {
            "tournament_public": tournament,
            "kind": kind,
            "number": number,
            "title": PUBLIC_FRAGMENTS[kind][1].format(number=number),
            "fragment": html,
            "fragment_url": fragment_url,
            "version": selectors.published_version(tournament, state),
        },
    )


def _public_fragment(request: HttpRequest, slug: str, kind: str, number: int | None = None):
    """The fragment alone, for the page's refresh; 204 when the client has this version."""
    tournament, state = _public_tournament(request, slug)
    version = selectors.published_version(tournament, state)
    if request.GET.get("v") == version:
        response = HttpResponse(status=204)
    else:
        response = HttpResponse(_fragment_html(kind, tournament, state, number))
    response["X-Fragment-Version"] = version
    response["Cache-Control"] = "no-cache"
    return response


def public_home(request: HttpRequest, slug: str) -> HttpResponse:
    return redirect("scoring:standings", slug=slug)


def standings_page(request: HttpRequest, slug: str) -> HttpResponse:
    return _public_page(request, slug, "standings")


def standings_fragment(request: HttpRequest, slug: str) -> HttpResponse:
    return _public_fragment(request, slug, "standings")


def table_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return _public_page(request, slug, "table", number)


def table_fragment(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return _public_fragment(request, slug, "table", number)


def team_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return _public_page(request, slug, "team", number)


def team_fragment(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return _public_fragment(request, slug, "team", number)
