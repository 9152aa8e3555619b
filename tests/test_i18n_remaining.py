"""The last English words of a French tournament, now French: the schedule validator's
findings, a late arrival's offer, an undo, an unreadable import, the broadcast's play words and
the rules sheet of Twenty and Pys'ngtaut."""

import copy

from django.template.loader import render_to_string
from django.utils import translation

from engine.schedule import check_schedule
from tests.engine.test_schedule_check import FIVE_TEAMS, SIX_TEAMS
from tests.test_i18n import english_left
from tournaments.templatetags.languages import translated


def _broken_schedules():
    """Schedules breaking every rule the validator words (rounds, tables, sides, byes,
    meetings), and a long list cut short."""
    bad = copy.deepcopy(SIX_TEAMS)
    bad["matches"][0]["table"] = 2
    bad["matches"][4]["ns"] = 6
    bad["max_meetings"] = 3
    balanced = copy.deepcopy(SIX_TEAMS)
    balanced["sides"] = "balanced"
    balanced["teams"] = 40  # teams 7-40 appear nowhere, tables 4-30 host nothing
    balanced["tables"] = 30
    odd = copy.deepcopy(FIVE_TEAMS)
    odd["byes"] = [*odd["byes"], *odd["byes"], {"round": 1, "team": 1}]
    odd["max_meetings"] = 0
    twice = copy.deepcopy(SIX_TEAMS)
    twice["matches"][1]["ns"] = 1
    nobody = copy.deepcopy(SIX_TEAMS)
    nobody["matches"] = []
    return [bad, balanced, odd, twice, nobody]


def test_the_validators_findings_are_french_and_their_english_unchanged():
    problems = [problem for data in _broken_schedules() for problem in check_schedule(data)]
    assert "team 4 plays table 2 twice (matches #1, #8)" in problems
    assert "team 6 sits NS once and EW 3 times; under fixed sides a team keeps its side" in (
        problems
    )
    assert len(problems) >= 12
    with translation.override("fr"):
        html = render_to_string("tournaments/includes/problems.html", {"problems": problems})
        french = [translated(problem) for problem in problems]
    assert english_left(html, set()) == []
    assert "l'équipe 4 joue à la table 2 deux fois (rencontres #1, #8)" in french
    assert all(text != problem for text, problem in zip(french, problems, strict=True))
