"""What the browser tests share: step screenshots, a running tournament made through the
organiser's services, and the moves of a scorer on the phone (the bidding box, the trump,
the tricks, sending).

The page helpers find things the way a person does, by role, label and visible text; the
only markup hooks used are the scorer page's ``data-board-panel`` and ``data-preview``.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openpyxl import Workbook

from tournaments import services
from tournaments.imports import EntrantRow
from tournaments.models import Entrant, Match, Tournament

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips the tests (or fails them under CI)
    expect = None

TEAM_NAMES = ["Fire Ants", "Water Rats", "Wind Hawks", "Earth Moles"]
PHONE_POLL_MS = 20_000  # the scorer page asks every 6 s; the public pages every second


class Screenshots:
    """Numbered screenshots of a test's steps: ``<folder>/01-<step>.png``, ..."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.count = 0

    def take(self, page: Any, step: str) -> Path:
        self.count += 1
        slug = re.sub(r"[^a-z0-9]+", "-", step.lower()).strip("-")
        path = self.folder / f"{self.count:02d}-{slug}.png"
        self.folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=path, full_page=True)
        return path


def entrant_list_xlsx(names: list[str]) -> bytes:
    """A team list as an organiser would type it: number, name and the two players."""
    workbook = Workbook()
    sheet = workbook.active
    sheet.append(["Number", "Team name", "Player 1", "Player 2"])
    for number, name in enumerate(names, 1):
        first = name.split()[0]
        sheet.append([number, name, f"{first} Ann", f"{first} Bo"])
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


# --- a tournament ready for the scorers ----------------------------------------------------


@dataclass
class RunningCup:
    """A running tournament: 4 teams at 2 tables, every board dealt; ``match`` is round 1 at
    table 1, played by ``north`` (its NS team) and ``east`` (its EW team)."""

    tournament: Tournament
    match: Match
    north: Entrant
    east: Entrant

    @property
    def slug(self) -> str:
        return self.tournament.slug


def running_cup(slug: str) -> RunningCup:
    """Made through the same services as the organiser's pages (fixed sides, North opens
    at every table, clockwise, one board a table, manual-2016)."""
    tournament = services.create_tournament(by=None, name=f"Cup {slug}", slug=slug, tables=2)
    rows = [
        EntrantRow(line, line, name, f"{name.split()[0]} Ann", f"{name.split()[0]} Bo")
        for line, name in enumerate(TEAM_NAMES, 1)
    ]
    services.import_teams(by=None, tournament=tournament, rows=rows)
    services.draw_schedule(by=None, tournament=tournament)
    services.deal_boards(by=None, tournament=tournament, seed=slug)
    tournament = services.start_tournament(by=None, tournament=tournament)
    match = Match.objects.select_related("north_entrant", "east_entrant").get(
        table__tournament=tournament, round=1, table__number=1
    )
    return RunningCup(tournament, match, match.north_entrant, match.east_entrant)


# --- the scorer page -----------------------------------------------------------------------


def board_panel(page: Any) -> Any:
    return page.locator("[data-board-panel]")


def bidding_box(panel: Any) -> Any:
    return panel.get_by_role("group", name="Bidding box")


def offered_calls(panel: Any) -> list[str]:
    """The accessible names of the calls the bidding box offers now (its enabled buttons;
    the rows stay in place with the calls not allowed now disabled)."""
    return (
        bidding_box(panel)
        .get_by_role("button")
        .evaluate_all(
            "buttons => buttons.filter(b => !b.disabled)"
            ".map(b => b.getAttribute('aria-label') || b.textContent.trim())"
        )
    )


def make_call(panel: Any, seat: str, call: str) -> None:
    """``seat`` makes ``call`` (a button's accessible name, e.g. "Gâm" or "Pass"), after
    checking the box says it is that seat's turn."""
    expect(panel.get_by_text(f"{seat} to call", exact=True)).to_be_visible()
    bidding_box(panel).get_by_role("button", name=call, exact=True).click()


def name_trump(panel: Any, trump: str) -> None:
    panel.get_by_role("group", name="Trump named after the auction").get_by_role(
        "button", name=trump, exact=True
    ).click()


def set_team_tricks(panel: Any, ns: int) -> None:
    """North–South's tricks; the page fills in East–West's (15 in all for a Gâm)."""
    panel.get_by_label("North–South", exact=True).select_option(str(ns))


def score_preview(panel: Any) -> Any:
    return panel.locator("[data-preview]")


def send_button(panel: Any) -> Any:
    return panel.get_by_role("button", name="Send to East for checking")


def bid_plain_gam_and_pass_out(panel: Any) -> None:
    """North bids Gâm without naming the trump; East, South and West pass."""
    make_call(panel, "North", "Gâm")
    for seat in ("East", "South", "West"):
        make_call(panel, seat, "Pass")


def enter_plain_gam(panel: Any, *, trump: str, ns_tricks: int) -> None:
    """The whole of North's entry for a plain Gâm by North, trump named after the auction."""
    bid_plain_gam_and_pass_out(panel)
    name_trump(panel, trump)
    set_team_tricks(panel, ns_tricks)


def my_match_link(page: Any, round_number: int, table: int) -> Any:
    """The match in the page's "Your matches" list; its name carries the boards' states."""
    return page.get_by_role("link", name=re.compile(rf"^Round {round_number} · Table {table} · "))
