"""The scorer pages: phone first, reached with a team's access code (the printed QR codes
point at ``scorer_entry``), and driven by ``static/scoring/scorer.js`` through the REST API."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from rest_framework.exceptions import Throttled

from engine.games import Game
from scoring import selectors, states, visibility
from scoring.api.access import code_entrant_or_none
from scoring.models import Result, Submission
from scoring.selectors import EntrantMatch
from scoring.views.entries import describe_entry, entry_facts
from tournaments import room_selectors
from tournaments.models import Entrant, Match, Status, Tournament, entry_script
from tournaments.templatetags.languages import translated_tree

SESSION_KEY = "scorer-code:{pk}"
OPEN_STATUSES = (Status.SCHEDULED, Status.RUNNING)


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament, slug=slug)


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
    entrant: Entrant
    overview: list[EntrantMatch]
    current: EntrantMatch | None
    shown: EntrantMatch | None
    panels: list[BoardPanel] = field(default_factory=list)
    # The list of matches: ``(round, match, "")``, or ``(round, None, what a bye scores)``
    # for a round the entrant sits out.
    rows: list[tuple[int, EntrantMatch | None, str]] = field(default_factory=list)
    # Who plays for whom at the shown match (substitutes), in words.
    substitutes: list[str] = field(default_factory=list)

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
        return _("player") if self.tournament.of_players else _("team")


def _session_entrant(request: HttpRequest, tournament: Tournament) -> Entrant | None:
    code = request.session.get(SESSION_KEY.format(pk=tournament.pk), "")
    entrant = selectors.entrant_by_code(tournament.slug, code) if code else None
    if code and entrant is None:  # the organiser gave the team a new code
        del request.session[SESSION_KEY.format(pk=tournament.pk)]
    return entrant


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
        entrant = code_entrant_or_none(request, tournament, code)
    except Throttled as exc:
        seconds = round(exc.wait or 60)
        minutes = round(seconds / 60)
        wait = (
            ngettext("%(count)s second", "%(count)s seconds", seconds) % {"count": seconds}
            if seconds < 90
            else ngettext("%(count)s minute", "%(count)s minutes", minutes) % {"count": minutes}
        )
        message = _(
            "Too many wrong access codes from this address. Check the code on your route "
            "card and try again in %(wait)s, or ask the director."
        ) % {"wait": wait}
        return _code_page(request, tournament, message, status=429, typed=code)
    if entrant is None:
        message = (
            _("Type the access code printed on your route card.")
            if not code.strip()
            else _("That access code is not one of this tournament's. Check it on your route card.")
        )
        return _code_page(
            request, tournament, message, status=403 if code.strip() else 200, typed=code
        )
    request.session[SESSION_KEY.format(pk=tournament.pk)] = entrant.access_code
    # Redirect so the code leaves the address bar (and the phone's history).
    return redirect("scorer-entry", slug=tournament.slug)


def _active_match(overview: list[EntrantMatch], current: Match | None) -> EntrantMatch | None:
    """The match to show first: the current one (the first with a board still open), else
    the last."""
    if current is not None:
        return next(tm for tm in overview if tm.match.pk == current.pk)
    return overview[-1] if overview else None


def _signature(overview: list[EntrantMatch]) -> str:
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
        _describe_entries(panel, game)
        _allow_actions(panel, open_now)
        panel.form = translated_tree(forms.get(number))
        panel.hands = seen.get((shown.match.pk, number))
        panels.append(panel)
    return panels


def _describe_entries(panel: BoardPanel, game: Game) -> None:
    """The entries a board's panel shows: the one awaiting East's check, the one behind the
    result, and North's last entry as the draft of a board still without a result."""
    state = panel.state
    if state.pending is not None:
        panel.pending = describe_entry(state.pending.record, state.pending.score, game)
    entered = panel.result.submission if panel.result is not None else None
    if entered is not None:
        panel.entered = describe_entry(entered.record, entered.score, game)
    last = _last_north_entry(state)
    if panel.role == "north" and last is not None and not state.has_result:
        panel.draft = entry_facts(last.record, game)


def _allow_actions(panel: BoardPanel, open_now: bool) -> None:
    """What the phone may do on a board while the match is open: North enters until East
    has checked, East checks what awaits him, either calls the director unless a dispute is
    already called."""
    state = panel.state.state
    active = state in (states.EMPTY, states.RETURNED, states.AWAITING_EAST)
    panel.can_enter = open_now and panel.role == "north" and active
    panel.can_check = open_now and panel.role == "east" and state == states.AWAITING_EAST
    panel.can_call = open_now and state != states.DISPUTED


def _scorer_config(page: ScorerPage) -> dict[str, Any]:
    """What scorer.js needs: the API's address, the team's code, what the game's entry needs
    to know of the tournament and of the table shown, and the states the page was drawn from."""
    tournament = page.tournament
    game = tournament.game_rules
    config = {
        "slug": tournament.slug,
        "code": page.entrant.access_code,
        "team": page.entrant.number,
        "api": reverse("api:tournament", kwargs={"slug": tournament.slug}),
        "signature": _signature(page.overview),
        "poll_ms": settings.SCORER_POLL_SECONDS * 1000,
        **game.scorer_config(tournament.rules),
    }
    if page.shown is not None:
        config.update(game.table_scorer_config(tournament.rules, page.shown.match.table.number))
    return config


def _substitutes_at(tournament: Tournament, match: Match, word: str) -> list[str]:
    found = room_selectors.substitutes_of_matches(tournament, [match]).get(match.pk, [])
    return [f"{s['name']} plays for {s['player']} ({word} {s['entrant']})" for s in found]


def _shown_match(
    overview: list[EntrantMatch], current: Match | None, shown_id: int | None
) -> EntrantMatch | None:
    """The match the page shows: the one asked for, which must be the team's (404), else the
    current one (``_active_match``)."""
    if shown_id is None:
        return _active_match(overview, current)
    shown = next((tm for tm in overview if tm.match.pk == shown_id), None)
    if shown is None:
        raise Http404(_("That is not one of your matches."))
    return shown


def _overview_rows(
    tournament: Tournament, entrant: Entrant, overview: list[EntrantMatch]
) -> list[tuple[int, EntrantMatch | None, str]]:
    """The team's rounds in order: each match, and each round it sits out with the reason."""
    byes = selectors.bye_rounds(tournament, [tm.match for tm in overview])
    words = selectors.bye_words(tournament)
    gone = room_selectors.withdrawn_after(tournament).get(entrant.pk)
    return sorted(
        [(tm.match.round, tm, "") for tm in overview]
        + [(n, None, room_selectors.sitting_out_words(words, n, gone)) for n in byes],
        key=lambda row: row[0],
    )


def _render_scorer(
    request: HttpRequest, tournament: Tournament, entrant: Entrant, shown_id: int | None = None
) -> HttpResponse:
    overview, current = selectors.entrant_overview(entrant)
    current_tm = next((tm for tm in overview if current and tm.match.pk == current.pk), None)
    shown = _shown_match(overview, current, shown_id)
    page = ScorerPage(tournament, entrant, overview, current_tm, shown)
    page.panels = _panels(page)
    page.rows = _overview_rows(tournament, entrant, overview)
    context: dict[str, Any] = {
        "tournament_public": tournament,
        "page": page,
        "config": _scorer_config(page),
        "entry_script": entry_script(tournament.game_rules),
    }
    if shown is not None:
        page.substitutes = _substitutes_at(tournament, shown.match, page.entrant_word)
        table = shown.match.table.number
        context.update(
            tournament.game_rules.table_context(tournament.rules, table, shown.match.table.size)
        )
    return render(request, "scoring/scorer.html", context)


@never_cache
def scorer_entry(request: HttpRequest, slug: str) -> HttpResponse:
    """Where the QR code on a route card points (``?code=`` signs the phone in)."""
    tournament = _tournament(slug)
    if "code" in request.GET:
        return _sign_in_with_code(request, tournament, request.GET.get("code", ""))
    entrant = _session_entrant(request, tournament)
    if entrant is None:
        return _code_page(request, tournament)
    return _render_scorer(request, tournament, entrant)


@never_cache
def scorer_match(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    tournament = _tournament(slug)
    entrant = _session_entrant(request, tournament)
    if entrant is None:
        return redirect("scorer-entry", slug=slug)
    return _render_scorer(request, tournament, entrant, shown_id=match_id)


@require_POST
def scorer_leave(request: HttpRequest, slug: str) -> HttpResponse:
    """Forget the team's code on this phone (to hand it to the other team, say)."""
    tournament = _tournament(slug)
    request.session.pop(SESSION_KEY.format(pk=tournament.pk), None)
    return redirect("scorer-entry", slug=slug)
