"""Reads of the scorer's side that the API and pages rely on."""

import pytest
from django.db.models.signals import post_save, pre_save
from django.forms.models import model_to_dict

from scoring.models import BoardProgress, Submission
from scoring.rows import RowInserter, RowReader, RowUpdater
from scoring.selectors import entrant_by_code
from tests.scoring.conftest import GAM_MADE, build_cup
from tournaments.models import Entrant, Tournament


def test_entrant_by_code_loads_the_entrant_and_its_tournament_as_stored(cup):
    stored = Entrant.objects.get(pk=cup.entrants[2].pk)
    code = stored.access_code
    typed = f" {code[:4].lower()}-{code[4:]} "
    found = entrant_by_code(cup.tournament.slug, typed)
    assert found is not None and found.pk == stored.pk
    assert model_to_dict(found) == model_to_dict(stored)
    assert found.tournament_id == cup.tournament.pk
    tournament = Tournament.objects.get(pk=cup.tournament.pk)
    for field in Tournament._meta.concrete_fields:
        assert getattr(found.tournament, field.attname) == getattr(tournament, field.attname), (
            field.name
        )
    assert not found._state.adding and not found.tournament._state.adding


def test_entrant_by_code_needs_the_right_tournament_and_a_code(cup):
    other = build_cup(slug="other-cup")
    code = cup.entrants[0].access_code
    assert entrant_by_code(other.tournament.slug, code) is None
    assert entrant_by_code("no-such-cup", code) is None
    assert entrant_by_code(cup.tournament.slug, "") is None
    assert entrant_by_code(cup.tournament.slug, "NOTACODE") is None


def test_a_row_reader_names_fields_its_model_lacks():
    with pytest.raises(ValueError, match="no fields"):
        RowReader(Entrant, ["id", "colour"])


def test_a_row_inserter_stores_what_create_stores(cup):
    match = cup.match(1, 1)
    board = match.table.boards.get()
    values = {
        "match": match,
        "board": board,
        "source": "north",
        "entrant": match.north_entrant,
        "seat": "N",
        "client_id": "phone-0001",
        "remote_addr": "192.0.2.7",
        "record": GAM_MADE,
        "score": {"ns": 21, "ew": -21, "words": ["Gâm", None]},
        "north_result": 21,
        "east_result": -21,
    }
    heard = []

    def listen(sender, **kwargs):
        heard.append(kwargs.get("created"))

    for signal in (pre_save, post_save):
        signal.connect(listen, sender=Submission)
    try:
        made = RowInserter(Submission).create(**values)
    finally:
        for signal in (pre_save, post_save):
            signal.disconnect(listen, sender=Submission)
    assert heard == [None, True]
    by_orm = Submission.objects.create(**{**values, "client_id": "phone-0002"})
    stored = Submission.objects.get(pk=made.pk)
    expected = model_to_dict(by_orm, exclude=["id", "client_id"])
    assert model_to_dict(stored, exclude=["id", "client_id"]) == expected
    assert model_to_dict(made, exclude=["id", "client_id"]) == expected
    assert stored.created_at == made.created_at and not made._state.adding


def test_a_row_updater_stores_what_the_orm_update_stores(cup):
    match, other = cup.match(1, 1), cup.match(1, 2)
    rows = [
        BoardProgress.objects.create(
            match=m, board=m.table.boards.get(), state="returned", last_reason="was"
        )
        for m in (match, other)
    ]
    values = {"state": "disputed", "rejections": 2, "last_reason": "twice"}
    updater = RowUpdater(BoardProgress, list(values))
    assert updater.update(rows[0].pk, **values) == 1
    BoardProgress.objects.filter(pk=rows[1].pk).update(**values)
    stored = [
        model_to_dict(BoardProgress.objects.get(pk=row.pk), exclude=["id", "match", "board"])
        for row in rows
    ]
    assert stored[0] == stored[1] and stored[0]["last_reason"] == "twice"
    assert updater.update(max(row.pk for row in rows) + 1, **values) == 0


def test_a_row_updater_wants_exactly_its_fields():
    with pytest.raises(ValueError, match="no fields"):
        RowUpdater(BoardProgress, ["state", "colour"])
    with pytest.raises(TypeError, match="exactly"):
        RowUpdater(BoardProgress, ["state", "rejections"]).update(1, state="returned")
