"""Floods: the per-team and per-board write limits, one open call for the director per board,
re-opening a board that has a result, re-sent actions whose row no longer stands, and the
request limits of the shipped nginx configuration."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from scoring import services
from scoring.errors import InvalidEntry, NoLongerStands, WrongState
from scoring.models import Result, Review, Submission
from tests.conftest import in_ci
from tests.scoring.conftest import GAM_MADE, RY_LOST, new_id
from tournaments.models import ActionLog

ROOT = Path(__file__).resolve().parents[2]
NGINX_FILES = [ROOT / "deploy" / "nginx.conf", ROOT / "deploy" / "systemd" / "pymtheg-nginx.conf"]


# --- the board's writes, through the services ---------------------------------------------


def enter(match, facts=GAM_MADE, client_id=None):
    return services.submit_entry(
        match_id=match.pk,
        board_number=1,
        entrant=match.north_entrant,
        facts=facts,
        client_id=client_id or new_id(),
    )


def accept(match, entry, client_id=None):
    return services.accept_entry(
        match_id=match.pk,
        board_number=1,
        entrant=match.east_entrant,
        submission_id=entry.pk,
        client_id=client_id or new_id(),
    )


def reject(match, entry, client_id=None, reason="wrong trumps"):
    return services.reject_entry(
        match_id=match.pk,
        board_number=1,
        entrant=match.east_entrant,
        submission_id=entry.pk,
        reason=reason,
        client_id=client_id or new_id(),
    )


def call(match, entrant=None, reason="", client_id=None):
    return services.call_director(
        match_id=match.pk,
        board_number=1,
        entrant=entrant or match.north_entrant,
        reason=reason,
        client_id=client_id or new_id(),
    )


def erase(match, director, reason="entered at the wrong table"):
    return services.director_erase(match_id=match.pk, board_number=1, user=director, reason=reason)


def test_a_second_call_while_one_is_open_answers_with_the_open_call(cup):
    match = cup.match(1, 1)
    first = call(match, reason="revoke at trick 3")
    again = call(match, entrant=match.east_entrant, reason="and again")
    assert again.pk == first.pk and again.already_open
    assert Review.objects.filter(action=Review.Action.CALL_DIRECTOR).count() == 1


def test_a_call_on_a_board_rejected_twice_answers_with_the_second_rejection(cup):
    match = cup.match(1, 1)
    reject(match, enter(match))
    second = reject(match, enter(match, facts=RY_LOST), reason="still wrong")
    answer = call(match, reason="please come")
    assert answer.pk == second.pk
    assert not Review.objects.filter(action=Review.Action.CALL_DIRECTOR).exists()


def test_a_board_with_a_result_is_reopened_only_with_a_reason_and_logged(cup):
    match = cup.match(1, 1)
    accept(match, enter(match))
    with pytest.raises(InvalidEntry) as refused:
        call(match, entrant=match.east_entrant)
    assert refused.value.field == "reason"
    assert not Review.objects.filter(action=Review.Action.CALL_DIRECTOR).exists()
    review = call(match, entrant=match.east_entrant, reason="North claimed a trick too many")
    assert review.action == Review.Action.CALL_DIRECTOR
    entry = ActionLog.objects.get(action=services.REDISPUTE)
    assert entry.actor == f"team {match.east_entrant.number}"
    assert "North claimed a trick too many" in entry.summary
    assert entry.after == {"match": match.pk, "board": 1, "review": review.pk}
    assert entry.before["ns"] == Result.objects.get(current=True).north_result


def test_a_board_is_reopened_at_most_a_few_times(cup, director):
    match = cup.match(1, 1)
    accept(match, enter(match))
    for _ in range(services.REDISPUTES_PER_BOARD):
        call(match, entrant=match.east_entrant, reason="look again")
        services.director_enter_result(
            match_id=match.pk, board_number=1, user=director, facts=GAM_MADE, client_id=new_id()
        )
    calls = Review.objects.filter(action=Review.Action.CALL_DIRECTOR).count()
    with pytest.raises(WrongState, match="questioned 3 times"):
        call(match, entrant=match.east_entrant, reason="once more")
    assert Review.objects.filter(action=Review.Action.CALL_DIRECTOR).count() == calls == 3
    assert ActionLog.objects.filter(action=services.REDISPUTE).count() == 3
    # Another board's allowance is its own.
    other = cup.match(1, 2)
    accept(other, enter(other))
    assert call(other, reason="look here too").action == Review.Action.CALL_DIRECTOR


def test_a_call_on_a_board_without_a_result_needs_no_reason(cup):
    match = cup.match(1, 1)
    enter(match)
    assert call(match, entrant=match.east_entrant).reason == "director called"
    assert not ActionLog.objects.filter(action=services.REDISPUTE).exists()


# --- re-sent actions (the same client_id) --------------------------------------------------


def test_a_resent_entry_answers_with_it_while_it_awaits_east_or_counts(cup):
    match = cup.match(1, 1)
    first = enter(match, client_id="entry-0001")
    assert enter(match, client_id="entry-0001").pk == first.pk
    accept(match, first)
    again = enter(match, client_id="entry-0001")
    assert again.pk == first.pk and again.resent
    assert Submission.objects.count() == 1


def test_a_resent_entry_that_east_rejected_is_gone(cup):
    match = cup.match(1, 1)
    first = enter(match, client_id="entry-0001")
    reject(match, first)
    with pytest.raises(NoLongerStands, match="East has rejected the entry since"):
        enter(match, client_id="entry-0001")
    assert Submission.objects.count() == 1


def test_a_resent_entry_replaced_by_a_newer_one_is_gone(cup):
    match = cup.match(1, 1)
    enter(match, client_id="entry-0001")
    enter(match, facts=RY_LOST, client_id="entry-0002")
    with pytest.raises(NoLongerStands, match="North has entered the board again since"):
        enter(match, client_id="entry-0001")


def test_a_resent_entry_whose_result_was_erased_is_gone(cup, director):
    match = cup.match(1, 1)
    accept(match, enter(match, client_id="entry-0001"))
    erase(match, director)
    with pytest.raises(NoLongerStands, match="erased"):
        enter(match, client_id="entry-0001")


def test_a_resent_accept_answers_with_its_result_while_it_stands(cup):
    match = cup.match(1, 1)
    entry = enter(match)
    result = accept(match, entry, client_id="accept-0001")
    assert accept(match, entry, client_id="accept-0001").pk == result.pk
    assert Result.objects.count() == 1


def test_a_resent_accept_after_the_director_erased_the_result_is_409(cup, director):
    match = cup.match(1, 1)
    entry = enter(match)
    accept(match, entry, client_id="accept-0001")
    erase(match, director)
    with pytest.raises(NoLongerStands) as gone:
        accept(match, entry, client_id="accept-0001")
    assert gone.value.status == 409 and "erased" in gone.value.message
    assert not Result.objects.filter(current=True).exists()


def test_a_resent_accept_after_an_adjusted_result_is_409(cup, director):
    match = cup.match(1, 1)
    entry = enter(match)
    accept(match, entry, client_id="accept-0001")
    services.director_adjust(
        match_id=match.pk, board_number=1, user=director, reason="r", ns=3, ew=-3
    )
    with pytest.raises(NoLongerStands, match="adjusted"):
        accept(match, entry, client_id="accept-0001")


def test_a_resent_rejection_stands_until_the_board_moves_on(cup):
    match = cup.match(1, 1)
    entry = enter(match)
    first = reject(match, entry, client_id="reject-0001")
    assert reject(match, entry, client_id="reject-0001").pk == first.pk
    enter(match, facts=RY_LOST)
    with pytest.raises(NoLongerStands, match="North has entered the board again since"):
        reject(match, entry, client_id="reject-0001")
    assert Review.objects.filter(action=Review.Action.REJECT).count() == 1


def test_a_resent_call_stands_until_the_director_rules(cup, director):
    match = cup.match(1, 1)
    first = call(match, client_id="call-00001", reason="revoke")
    assert call(match, client_id="call-00001").pk == first.pk
    services.director_enter_result(
        match_id=match.pk, board_number=1, user=director, facts=GAM_MADE, client_id=new_id()
    )
    with pytest.raises(NoLongerStands, match="the director has entered another result since"):
        call(match, client_id="call-00001")
    assert Review.objects.filter(action=Review.Action.CALL_DIRECTOR).count() == 1


def test_a_client_id_is_answered_only_for_the_action_it_was_sent_for(cup):
    match = cup.match(1, 1)
    entry = enter(match)
    reject(match, entry, client_id="action-0001")
    entry = enter(match, facts=RY_LOST)
    with pytest.raises(WrongState, match="another action"):
        accept(match, entry, client_id="action-0001")
    with pytest.raises(WrongState, match="another action"):
        call(match, entrant=match.east_entrant, client_id="action-0001")


# --- the API: limits and answers -----------------------------------------------------------


def board_url(cup, match, tail=""):
    return f"/api/v1/tournaments/{cup.tournament.slug}/matches/{match.pk}/boards/1/{tail}"


def as_entrant(entrant, address="10.0.0.1"):
    client = APIClient(REMOTE_ADDR=address)
    client.credentials(HTTP_X_TEAM_CODE=entrant.access_code)
    return client


def post(client, url, body):
    return client.post(url, body, format="json")


def test_a_table_at_its_worst_never_meets_the_default_limits(cup, settings):
    """Entries rejected and sent again, every write re-sent once over a bad connection, a
    call for the director: well under the defaults."""
    assert settings.SCORER_PHONE_WRITE_RATE == "60/minute"
    assert settings.SCORER_BOARD_WRITE_RATE == "20/hour"
    match = cup.match(1, 1)
    north, east = as_entrant(match.north_entrant), as_entrant(match.east_entrant)
    statuses = []

    def twice(client, url, body):
        for _ in range(2):
            statuses.append(post(client, url, body).status_code)

    for _ in range(2):
        body = {"client_id": new_id(), "record": GAM_MADE}
        twice(north, board_url(cup, match, "entries/"), body)
        entry = Submission.objects.last()
        twice(
            east,
            board_url(cup, match, f"entries/{entry.pk}/reject/"),
            {"client_id": new_id(), "reason": "wrong tricks"},
        )
    twice(north, board_url(cup, match, "call-director/"), {"client_id": new_id()})
    assert 429 not in statuses and len(statuses) == 10
    assert Review.objects.count() == 2  # the second rejection called the director


def test_one_phone_beyond_its_rate_waits_and_is_told_why(cup, settings):
    settings.SCORER_PHONE_WRITE_RATE = "3/minute"
    match = cup.match(1, 1)
    north = as_entrant(match.north_entrant)
    url = board_url(cup, match, "entries/")
    answers = [post(north, url, {"client_id": new_id(), "record": GAM_MADE}) for _ in range(4)]
    assert [a.status_code for a in answers] == [201, 201, 201, 429]
    refused = answers[-1]
    assert refused["Content-Type"] == "application/problem+json"
    assert 0 < int(refused["Retry-After"]) <= 60
    body = refused.json()
    assert body["status"] == 429 and body["retry_after"] == int(refused["Retry-After"])
    assert body["detail"].startswith("Your team has sent more than 3 results and checks")
    assert "Expected available" not in body["detail"]
    assert Submission.objects.count() == 3
    # The other team of the table, behind the same address, is not held up.
    east = as_entrant(match.east_entrant)
    pending = Submission.objects.last()
    accepted = post(
        east, board_url(cup, match, f"entries/{pending.pk}/accept/"), {"client_id": new_id()}
    )
    assert accepted.status_code == 200


def test_one_board_beyond_its_rate_waits_and_the_other_side_goes_on(cup, settings):
    settings.SCORER_BOARD_WRITE_RATE = "4/hour"
    match = cup.match(1, 1)
    north = as_entrant(match.north_entrant)
    url = board_url(cup, match, "entries/")
    statuses = [
        post(north, url, {"client_id": new_id(), "record": GAM_MADE}).status_code for _ in range(6)
    ]
    assert statuses == [201, 201, 201, 201, 429, 429]
    refused = post(north, url, {"client_id": new_id(), "record": GAM_MADE})
    assert "board 1 more than 4 times" in refused.json()["detail"]
    assert "ask the director" in refused.json()["detail"]
    assert 60 < int(refused["Retry-After"]) <= 3600
    assert Submission.objects.count() == 4
    # Another board of the same team is its own count.
    other = cup.match(2, 2)  # team 1 is North there too
    assert (
        post(north, board_url(cup, other, "call-director/"), {"client_id": new_id()}).status_code
        == 200
    )
    east = as_entrant(match.east_entrant)
    called = post(
        east, board_url(cup, match, "call-director/"), {"client_id": new_id(), "reason": "x"}
    )
    assert called.status_code == 200


def test_accepts_rejects_and_calls_count_on_the_board(cup, settings):
    settings.SCORER_BOARD_WRITE_RATE = "2/hour"
    match = cup.match(1, 1)
    entry = enter(match)
    east = as_entrant(match.east_entrant)
    reject_url = board_url(cup, match, f"entries/{entry.pk}/reject/")
    assert post(east, reject_url, {"client_id": "reject-0001", "reason": "no"}).status_code == 200
    # A re-send counts too: it costs the server as much.
    assert post(east, reject_url, {"client_id": "reject-0001", "reason": "no"}).status_code == 200
    called = post(east, board_url(cup, match, "call-director/"), {"client_id": new_id()})
    assert called.status_code == 429
    assert not Review.objects.filter(action=Review.Action.CALL_DIRECTOR).exists()


def test_an_address_beyond_its_rate_is_told_in_words(cup, settings):
    settings.SCORER_WRITE_RATE = "1/minute"
    match = cup.match(1, 1)
    north = as_entrant(match.north_entrant)
    url = board_url(cup, match, "entries/")
    assert post(north, url, {"client_id": new_id(), "record": GAM_MADE}).status_code == 201
    refused = post(north, url, {"client_id": new_id(), "record": GAM_MADE})
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert refused.json()["detail"].startswith("Too many results and checks from your network")
    assert "Expected available" not in refused.json()["detail"]


def test_writes_with_a_wrong_code_use_up_no_table_allowance(cup, settings):
    settings.SCORER_BOARD_WRITE_RATE = "2/hour"
    settings.SCORER_PHONE_WRITE_RATE = "2/minute"
    match = cup.match(1, 1)
    prankster = APIClient(REMOTE_ADDR="10.9.9.9")
    prankster.credentials(HTTP_X_TEAM_CODE="WRONG-CODE")
    url = board_url(cup, match, "entries/")
    for _ in range(5):
        assert post(prankster, url, {"client_id": new_id(), "record": GAM_MADE}).status_code in (
            401,
            403,
            429,
        )
    north = as_entrant(match.north_entrant)
    assert post(north, url, {"client_id": new_id(), "record": GAM_MADE}).status_code == 201


def test_the_api_answers_a_second_call_with_the_open_one(cup):
    match = cup.match(1, 1)
    url = board_url(cup, match, "call-director/")
    first = post(as_entrant(match.north_entrant), url, {"client_id": new_id(), "reason": "revoke"})
    second = post(as_entrant(match.east_entrant), url, {"client_id": new_id()})
    assert first.status_code == second.status_code == 200
    assert second.json()["id"] == first.json()["id"]
    assert Review.objects.count() == 1


def test_the_api_reopens_a_board_with_a_result_only_with_a_reason(cup):
    match = cup.match(1, 1)
    accept(match, enter(match))
    url = board_url(cup, match, "call-director/")
    bare = post(as_entrant(match.east_entrant), url, {"client_id": new_id()})
    assert bare.status_code == 400 and bare.json()["field"] == "reason"
    given = post(
        as_entrant(match.east_entrant), url, {"client_id": new_id(), "reason": "wrong tricks"}
    )
    assert given.status_code == 200 and given.json()["reason"] == "wrong tricks"
    assert ActionLog.objects.filter(action=services.REDISPUTE).count() == 1


def test_the_api_answers_a_replayed_accept_after_an_erase_with_409(cup, director):
    match = cup.match(1, 1)
    entry = enter(match)
    east = as_entrant(match.east_entrant)
    url = board_url(cup, match, f"entries/{entry.pk}/accept/")
    first = post(east, url, {"client_id": "accept-0001"})
    assert first.status_code == 200
    assert post(east, url, {"client_id": "accept-0001"}).json() == first.json()
    erase(match, director)
    replay = post(east, url, {"client_id": "accept-0001"})
    assert replay.status_code == 409
    assert replay["Content-Type"] == "application/problem+json"
    body = replay.json()
    assert body["title"] == "no longer stands" and body["field"] == "client_id"
    assert "erased" in body["detail"] and "Reload" in body["detail"]
    assert "ns" not in body and "kind" not in body  # never the erased result


def test_the_api_answers_a_replayed_entry_after_a_rejection_with_409(cup):
    match = cup.match(1, 1)
    north = as_entrant(match.north_entrant)
    url = board_url(cup, match, "entries/")
    first = post(north, url, {"client_id": "entry-0001", "record": GAM_MADE})
    again = post(north, url, {"client_id": "entry-0001", "record": GAM_MADE})
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json() == first.json()
    reject(match, Submission.objects.get())
    replay = post(north, url, {"client_id": "entry-0001", "record": GAM_MADE})
    assert replay.status_code == 409 and replay.json()["title"] == "no longer stands"


# --- nginx ---------------------------------------------------------------------------------


def directives(text: str, name: str) -> list[str]:
    return re.findall(rf"^\s*{name}\s+([^;]+);", text, flags=re.MULTILINE)


@pytest.mark.parametrize("path", NGINX_FILES, ids=lambda p: p.name)
def test_the_shipped_nginx_limits_every_group_of_endpoints(path):
    text = path.read_text()
    zones = {
        re.search(r"zone=(\w+)", zone).group(1): zone for zone in directives(text, "limit_req_zone")
    }
    assert set(zones) == {"pymtheg_writes", "pymtheg_sign_in", "pymtheg_reads"}
    assert "$pymtheg_write_key" in zones["pymtheg_writes"]
    assert "$pymtheg_sign_in_key" in zones["pymtheg_sign_in"]
    assert "$pymtheg_read_key" in zones["pymtheg_reads"]
    used = {re.search(r"zone=(\w+)", line).group(1): line for line in directives(text, "limit_req")}
    assert set(used) == set(zones)
    for line in used.values():
        burst = int(re.search(r"burst=(\d+)", line).group(1))
        assert burst >= 40 and "nodelay" in line  # a room behind one address is not held up
    assert directives(text, "limit_conn_zone") and directives(text, "limit_conn")
    assert directives(text, "limit_req_status") == ["429"]
    assert directives(text, "limit_conn_status") == ["429"]
    assert "Retry-After" in text


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None
    )


@pytest.mark.parametrize("path", NGINX_FILES, ids=lambda p: p.name)
def test_the_shipped_nginx_configuration_loads(path, tmp_path):
    nginx = nginx_binary()
    openssl = shutil.which("openssl")
    if nginx is None or openssl is None:
        reason = "nginx -t needs nginx and openssl (apt-get install nginx-light openssl)"
        if in_ci():
            pytest.fail(f"{reason}; CI=true must have them")
        pytest.skip(reason)
    subprocess.run(
        [
            openssl,
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=localhost",
            "-keyout",
            str(tmp_path / "key.pem"),
            "-out",
            str(tmp_path / "cert.pem"),
        ],
        check=True,
        capture_output=True,
    )
    site = path.read_text()
    site = site.replace("server web:8000", "server 127.0.0.1:8000")
    site = re.sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {tmp_path / 'cert.pem'};", site)
    site = re.sub(
        r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {tmp_path / 'key.pem'};", site
    )
    version = subprocess.run([nginx, "-v"], capture_output=True, text=True).stderr
    found = re.search(r"nginx/(\d+)\.(\d+)", version)
    if found and (int(found.group(1)), int(found.group(2))) < (1, 25):
        site = site.replace("http2 on;", "")  # "http2 on" came with nginx 1.25.1
    (tmp_path / "site.conf").write_text(site)
    temp = " ".join(
        f"{name}_temp_path {tmp_path / name};"
        for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path / 'nginx.pid'};\nerror_log {tmp_path / 'error.log'};\n"
        f"events {{ worker_connections 64; }}\n"
        f"http {{ access_log off; {temp} include {tmp_path / 'site.conf'}; }}\n"
    )
    checked = subprocess.run(
        [nginx, "-t", "-c", str(tmp_path / "nginx.conf"), "-e", str(tmp_path / "error.log")],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stderr
    assert "test is successful" in checked.stderr
