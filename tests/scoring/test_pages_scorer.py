"""The scorer pages: signing in with a team's code, the role each side sees, guessing."""

from __future__ import annotations

import json

from django.urls import resolve, reverse

from scoring import services
from scoring.api.access import BAD_CODES_ALLOWED
from scoring.views import scorer
from tests.scoring.conftest import GAM_MADE, new_id
from tests.tournaments.factories import BoardFactory
from tournaments.models import Status
from tournaments.printing import scorer_path


def entry_url(cup) -> str:
    return reverse("scorer-entry", kwargs={"slug": cup.tournament.slug})


def sign_in(client, cup, entrant):
    response = client.get(entry_url(cup), {"code": entrant.access_code})
    assert response.status_code == 302 and response.url == entry_url(cup)
    return client.get(entry_url(cup))


def page_config(response) -> dict:
    html = response.content.decode()
    start = html.index('<script id="scorer-config" type="application/json">')
    start = html.index(">", start) + 1
    return json.loads(html[start : html.index("</script>", start)])


def submit(cup, round_=1, table=1, facts=GAM_MADE, board=1):
    match = cup.match(round_, table)
    return services.submit_entry(
        match_id=match.pk,
        board_number=board,
        entrant=match.north_entrant,
        facts=facts,
        client_id=new_id(),
    )


def test_the_qr_code_link_reaches_these_pages(cup):
    path = scorer_path(cup.entrants[0])
    assert path.startswith(entry_url(cup) + "?code=")
    assert resolve(entry_url(cup)).func is scorer.scorer_entry


def test_north_sees_its_match_and_the_bidding_box(client, cup):
    north = cup.match(1, 1).north_entrant
    response = sign_in(client, cup, north)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Round 1 · Table 1" in html and "Your current match" in html
    assert "North–South" in html and "North enters the result" in html
    assert f"Team {cup.match(1, 1).east_entrant.number} {cup.match(1, 1).east_entrant.name}" in html
    assert "North makes the first call" in html
    assert 'data-role="north"' in html and "data-entry" in html
    assert "<noscript>" in html
    config = page_config(response)
    assert config["code"] == north.access_code and config["secondAuction"] is True
    assert config["api"] == f"/api/v1/tournaments/{cup.tournament.slug}/"
    assert response["Cache-Control"].startswith("max-age=0")


def test_east_waits_then_verifies_north_entry(client, cup):
    east = cup.match(1, 1).east_entrant
    html = sign_in(client, cup, east).content.decode()
    assert "East–West" in html and "East checks North" in html
    assert 'data-role="east"' in html and "data-entry" not in html
    assert "Waiting for North" in html and "data-accept" not in html
    entry = submit(cup)
    html = client.get(entry_url(cup)).content.decode()
    assert "Verification by East" in html
    assert "North plays Gâm, Fire named after the auction: made, +21 to NS" in html
    assert f'data-pending="{entry.pk}"' in html and "data-accept" in html and "data-reject" in html
    assert "North–South 10 · East–West 5" in html


def test_a_rejection_goes_back_to_north_with_the_reason_and_the_entry(client, cup):
    entry = submit(cup)
    match = cup.match(1, 1)
    services.reject_entry(
        match_id=match.pk,
        board_number=1,
        entrant=match.east_entrant,
        submission_id=entry.pk,
        reason="we took six",
        client_id=new_id(),
    )
    html = sign_in(client, cup, match.north_entrant).content.decode()
    assert "Returned to North" in html and "we took six" in html and "data-entry" in html
    draft = f'<script id="draft-m{match.pk}-b1" type="application/json">'
    start = html.index(">", html.index(draft)) + 1
    assert json.loads(html[start : html.index("</script>", start)]) == GAM_MADE


def test_codes_are_read_like_paper(client, cup):
    entrant = cup.entrants[2]
    typed = "-".join([entrant.access_code[:5].lower(), entrant.access_code[5:]])
    assert client.get(entry_url(cup), {"code": f" {typed} "}).status_code == 302
    assert "Team 3" in client.get(entry_url(cup)).content.decode()


def test_a_wrong_code_is_refused_and_guessing_is_throttled(client, cup):
    response = client.get(entry_url(cup), {"code": "WRONGCODE1"})
    assert response.status_code == 403
    assert "not one of this tournament" in response.content.decode()
    assert 'value="WRONGCODE1"' in response.content.decode(), "the typed code stays to mend"
    assert "scorer-config" not in response.content.decode()
    assert not [key for key, _code in client.session.items() if key.startswith("scorer-code")]
    for n in range(2, BAD_CODES_ALLOWED + 1):
        assert client.get(entry_url(cup), {"code": f"WRONGCODE{n}"}).status_code == 403
    blocked = client.get(entry_url(cup), {"code": "WRONGCODE99"})
    assert blocked.status_code == 429 and "Too many wrong access codes" in blocked.content.decode()
    assert "try again in 2 seconds" in blocked.content.decode()
    again = client.get(entry_url(cup), {"code": "WRONGCODE100"})
    assert "try again in 4 seconds" in again.content.decode()  # the wait doubles
    # A right code from the same address (another table of the venue) always passes.
    right = client.get(entry_url(cup), {"code": cup.entrants[0].access_code})
    assert right.status_code == 302


def test_an_empty_code_asks_for_one_without_counting_a_guess(client, cup):
    for _ in range(BAD_CODES_ALLOWED + 2):
        response = client.get(entry_url(cup), {"code": ""})
        assert response.status_code == 200 and "Type the access code" in response.content.decode()
    assert client.get(entry_url(cup), {"code": cup.entrants[0].access_code}).status_code == 302


def test_without_a_code_the_page_asks_for_one(client, cup):
    response = client.get(entry_url(cup))
    assert response.status_code == 200 and 'name="code"' in response.content.decode()
    assert client.get(reverse("scorer-entry", kwargs={"slug": "nope"})).status_code == 404


def test_a_new_code_signs_old_phones_out(client, cup):
    entrant = cup.entrants[0]
    sign_in(client, cup, entrant)
    entrant.access_code = "NEWCODE234"
    entrant.save()
    response = client.get(entry_url(cup))
    assert 'name="code"' in response.content.decode() and "scorer-config" not in (
        response.content.decode()
    )


def test_leaving_forgets_the_code(client, cup):
    sign_in(client, cup, cup.entrants[0])
    response = client.post(reverse("scoring:scorer-leave", args=[cup.tournament.slug]))
    assert response.status_code == 302
    assert 'name="code"' in client.get(entry_url(cup)).content.decode()


def test_match_pages_show_only_the_entrant_own_matches(client, cup):
    entrant = cup.entrants[0]
    url = reverse("scoring:scorer-match", args=[cup.tournament.slug, cup.match(2, 2).pk])
    assert client.get(url).status_code == 302  # not signed in yet
    sign_in(client, cup, entrant)
    later = client.get(url).content.decode()
    assert "Round 2 · Table 2" in later and "later round" in later and "data-entry" not in later
    other = reverse("scoring:scorer-match", args=[cup.tournament.slug, cup.match(1, 2).pk])
    assert client.get(other).status_code == 404


def test_the_director_call_is_offered_until_the_director_is_called(client, cup):
    match = cup.match(1, 1)
    html = sign_in(client, cup, match.north_entrant).content.decode()
    assert "data-call-director" in html
    services.call_director(
        match_id=match.pk,
        board_number=1,
        entrant=match.east_entrant,
        reason="revoke?",
        client_id=new_id(),
    )
    assert "Round 2" in client.get(entry_url(cup)).content.decode()  # the next match comes up
    url = reverse("scoring:scorer-match", args=[cup.tournament.slug, match.pk])
    html = client.get(url).content.decode()
    assert "The director has been called" in html and "revoke?" in html
    assert "data-call-director" not in html and "data-entry" not in html


def test_each_board_is_entered_and_checked_on_its_own(client, cup):
    cup.tournament.boards_per_table = 2
    cup.tournament.save()
    for table in cup.tournament.tables.all():
        BoardFactory(table=table, number=2)
    submit(cup, board=1)
    match = cup.match(1, 1)
    north = sign_in(client, cup, match.north_entrant).content.decode()
    assert "Board 1" in north and "Board 2" in north
    assert north.count("data-board-panel") == 2
    board2 = north[north.index('data-board="2"') :]
    assert "data-entry" in board2 and "Awaiting East" in north
    client.post(reverse("scoring:scorer-leave", args=[cup.tournament.slug]))
    east = sign_in(client, cup, match.east_entrant).content.decode()
    assert east.count("data-accept") == 1  # only board 1 waits for East


def test_entry_is_closed_before_the_schedule_and_after_the_final(client, cup):
    cup.tournament.status = Status.DRAFT
    cup.tournament.save()
    html = sign_in(client, cup, cup.entrants[0]).content.decode()
    assert "not open yet" in html and "data-entry" not in html
    cup.tournament.status = Status.FINAL
    cup.tournament.save()
    html = client.get(entry_url(cup)).content.decode()
    assert "final" in html and "data-entry" not in html and "data-call-director" not in html


def test_the_page_signature_matches_the_api(client, cup):
    """scorer.js reloads when the API's states differ from the page's; both must agree."""
    from rest_framework.test import APIClient

    submit(cup)
    entrant = cup.match(1, 1).east_entrant
    config = page_config(sign_in(client, cup, entrant))
    api = APIClient()
    api.credentials(HTTP_X_TEAM_CODE=entrant.access_code)
    me = api.get(f"/api/v1/tournaments/{cup.tournament.slug}/me/").json()
    built = "|".join(
        f"{m['id']}.{b['board']}.{b['state']}.{b['pending']['id'] if b['pending'] else ''}"
        for m in me["matches"]
        for b in m["boards"]
    )
    assert built == config["signature"] and "awaiting_east" in built


def test_the_page_asks_as_often_as_the_settings_say(client, cup, settings):
    entrant = cup.match(1, 1).north_entrant
    assert page_config(sign_in(client, cup, entrant))["poll_ms"] == 6000
    settings.SCORER_POLL_SECONDS = 3
    assert page_config(client.get(entry_url(cup)))["poll_ms"] == 3000


def test_north_stays_with_the_board_until_east_has_checked_it(client, cup):
    match = cup.match(1, 1)
    north, east = match.north_entrant, match.east_entrant
    entry = submit(cup)
    html = sign_in(client, cup, north).content.decode()
    assert "Round 1 · Table 1" in html and "Your current match" in html
    assert "Sent. East is checking it now" in html
    assert "your turn</span>" not in html  # nothing for North to do while East checks
    services.reject_entry(
        match_id=match.pk,
        board_number=1,
        submission_id=entry.pk,
        entrant=east,
        reason="it was 10 tricks",
        client_id=new_id(),
    )
    html = client.get(entry_url(cup)).content.decode()
    assert "Round 1 · Table 1" in html and "it was 10 tricks" in html
    assert html.count("your turn</span>") == 1  # on the current match only
    again = submit(cup)
    services.accept_entry(
        match_id=match.pk,
        board_number=1,
        submission_id=again.pk,
        entrant=east,
        client_id=new_id(),
    )
    html = client.get(entry_url(cup)).content.decode()
    assert "Round 2 · Table" in html, "North moves on once East has accepted"


def test_a_past_result_shows_what_was_entered_in_words(client, cup):
    match = cup.match(1, 1)
    entry = submit(cup)
    services.accept_entry(
        match_id=match.pk,
        board_number=1,
        submission_id=entry.pk,
        entrant=match.east_entrant,
        client_id=new_id(),
    )
    sign_in(client, cup, match.north_entrant)
    html = client.get(reverse("scoring:scorer-match", args=[cup.tournament.slug, match.pk]))
    html = html.content.decode()
    assert "What was entered" in html
    assert '<ol class="calls">' in html and "Gâm" in html
