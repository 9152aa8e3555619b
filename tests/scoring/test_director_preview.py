"""The director's board page starts from North's entry and shows the score as it stands: its
preview address scores the director's entry without storing it, as North's phone is shown it
(the board score and its words), with every fact in words (a revoke among them) and, for the
director alone, whether it agrees with the deal on file."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from engine.games import get_game
from scoring import services
from scoring.models import Result, Submission
from tests.scoring.conftest import GAM_MADE, new_id
from tests.scoring.test_twenty_web import first_match, twenty_event, wrong_facts

pytestmark = pytest.mark.django_db

# North's Gâm in Fire, ended by East's revoke: the tricks before it need not be given.
REVOKED = {
    "auctions": [["N:G", "E:P", "S:P", "W:P"]],
    "trump": "fire",
    "double": "none",
    "revoke": "E",
}


@pytest.fixture
def td(client, director):
    client.force_login(director)
    return client


def preview_url(tournament, match, board=1):
    return reverse("scoring:director-preview", args=[tournament.slug, match.pk, board])


def preview(td, tournament, match, facts, board=1):
    return td.post(
        preview_url(tournament, match, board),
        data=json.dumps({"record": facts}),
        content_type="application/json",
    )


def test_the_preview_scores_a_revoke_in_words_and_stores_nothing(td, cup):
    match = cup.match(1, 1)
    answer = preview(td, cup.tournament, match, REVOKED)
    assert answer.status_code == 200, answer.content
    shown = answer.json()
    _record, score = services.score_entry(match, services.board_of(match, 1), REVOKED)
    game = get_game("pymtheg")
    assert shown["words"] == game.describe(score)
    assert (shown["ns"], shown["ew"]) == (score["ns"], score["ew"])
    assert ["Revoke", "by East: the round ended there"] in shown["facts"]
    assert ["Trump", "Fire (named after the auction)"] in shown["facts"]
    assert shown["disagreement"] == ""  # no deal on file
    assert not Submission.objects.exists() and not Result.objects.exists()
    # Saving the same entry stores the score the preview showed.
    saved = td.post(
        reverse("scoring:director-enter", args=[cup.tournament.slug, match.pk, 1]),
        {"client_id": new_id(), "record_json": json.dumps(REVOKED)},
    )
    assert saved.status_code == 302
    result = Result.objects.get(current=True)
    assert (result.north_result, result.east_result) == (shown["ns"], shown["ew"])


def test_a_wrong_entry_is_a_400_naming_the_field(td, cup):
    match = cup.match(1, 1)
    wrong = preview(td, cup.tournament, match, {**GAM_MADE, "tricks": {"NS": 10, "EW": 9}})
    assert wrong.status_code == 400
    assert wrong.json()["field"] and wrong.json()["detail"]
    illegal = preview(td, cup.tournament, match, {"auctions": [["N:G", "E:G+2"]]})
    assert illegal.status_code == 400 and "must be G+1" in illegal.json()["detail"]
    garbled = td.post(preview_url(cup.tournament, match), "{", content_type="application/json")
    assert garbled.status_code == 400 and garbled.json()["field"] == "record"
    assert td.get(preview_url(cup.tournament, match)).status_code == 405
    assert not Submission.objects.exists()


def test_the_board_page_names_its_preview_and_the_entry_it_starts_from(td, cup):
    match = cup.match(1, 1)
    url = reverse("scoring:director-board", args=[cup.tournament.slug, match.pk, 1])
    empty = td.get(url).content.decode()
    assert f'data-preview="{preview_url(cup.tournament, match)}"' in empty
    assert 'data-draft-of=""' in empty
    entry = services.submit_entry(
        match_id=match.pk,
        board_number=1,
        entrant=match.north_entrant,
        facts=REVOKED,
        client_id=new_id(),
    )
    page = td.get(url).content.decode()
    assert f'data-draft-of="{entry.pk}"' in page
    draft = page.split('id="draft-director-entry" type="application/json">')[1].split("<")[0]
    assert json.loads(draft)["revoke"] == "E"  # North's calls and his revoke


def test_only_the_director_hears_that_an_entry_disagrees_with_the_deal(td):
    tournament = twenty_event(slug="twenty-preview")
    match = first_match(tournament)
    facts = wrong_facts([match])
    shown = preview(td, tournament, match, facts).json()
    assert shown["disagreement"], shown
    assert shown["words"] and set(shown["seats"]) == set("NESW")
    assert not Submission.objects.exists()
