"""Reads of the scorer's side that the API and pages rely on."""

import pytest
from django.forms.models import model_to_dict

from scoring.rows import RowReader
from scoring.selectors import team_by_code
from tests.scoring.conftest import build_cup
from tournaments.models import Team, Tournament


def test_team_by_code_loads_the_team_and_its_tournament_as_stored(cup):
    stored = Team.objects.get(pk=cup.teams[2].pk)
    code = stored.access_code
    typed = f" {code[:4].lower()}-{code[4:]} "
    found = team_by_code(cup.tournament.slug, typed)
    assert found is not None and found.pk == stored.pk
    assert model_to_dict(found) == model_to_dict(stored)
    assert found.tournament_id == cup.tournament.pk
    tournament = Tournament.objects.get(pk=cup.tournament.pk)
    for field in Tournament._meta.concrete_fields:
        assert getattr(found.tournament, field.attname) == getattr(tournament, field.attname), (
            field.name
        )
    assert not found._state.adding and not found.tournament._state.adding


def test_team_by_code_needs_the_right_tournament_and_a_code(cup):
    other = build_cup(slug="other-cup")
    code = cup.teams[0].access_code
    assert team_by_code(other.tournament.slug, code) is None
    assert team_by_code("no-such-cup", code) is None
    assert team_by_code(cup.tournament.slug, "") is None
    assert team_by_code(cup.tournament.slug, "NOTACODE") is None


def test_a_row_reader_names_fields_its_model_lacks():
    with pytest.raises(ValueError, match="no fields"):
        RowReader(Team, ["id", "colour"])
