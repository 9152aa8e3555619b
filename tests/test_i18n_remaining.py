"""The last English words of a French tournament, now French: the schedule validator's
findings, a late arrival's offer, an undo, an unreadable import, the broadcast's play words and
the rules sheet of Twenty and Pys'ngtaut."""

import copy
import html
import io
import random
import re

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from engine.games import GAME_IDS, get_game
from engine.games.pysngtaut.sets import CATEGORY_IDS
from engine.schedule import check_individual_schedule, check_schedule
from tests.broadcast.helpers import act, choose, featured_event, recorder_client, state
from tests.engine.test_individual_movement import TEN_PLAYERS, bare, seats_of
from tests.engine.test_schedule_check import FIVE_TEAMS, SIX_TEAMS
from tests.test_i18n import english_left
from tests.tournaments.factories import OrganiserFactory
from tests.tournaments.test_room import _event, _played
from tournaments import room
from tournaments.imports import read_entrant_file
from tournaments.models import ActionLog
from tournaments.services import ServiceError
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
        page = render_to_string("tournaments/includes/problems.html", {"problems": problems})
        french = [translated(problem) for problem in problems]
    assert english_left(page, set()) == []
    assert "l'équipe 4 joue à la table 2 deux fois (rencontres #1, #8)" in french
    assert all(text != problem for text, problem in zip(french, problems, strict=True))


# --- the room: a late arrival's offer, an undo; the import's unreadable files ----------------


@pytest.fixture
def organiser(db):
    return OrganiserFactory()


@pytest.fixture
def organiser_client(client, organiser):
    client.force_login(organiser)
    return client


@pytest.mark.django_db
def test_a_full_rooms_offer_and_an_undo_are_french_and_the_log_english(organiser):
    tournament = _played(organiser, _event(organiser, entrants=8, tables=4, slug="complet"))
    names = {entrant.name for entrant in tournament.entrants.all()} | {"Dupont"}
    with translation.override("fr"), pytest.raises(ServiceError) as refused:
        room.late_arrival(by=organiser, tournament=tournament, name="Dupont")
    offer = str(refused.value)
    assert offer.startswith("pas de place de fantôme (tours 2-4) : aucun tour n'a une table")
    assert "cochez « Prendre une place dans une rencontre » pour la placer à chacun des 3" in offer
    assert re.search(r"tour 2 : \d+ Team \d+; tour 3 : \d+ Team \d+; tour 4 : \d+ Team", offer)
    assert english_left(f"<p>{offer}</p>", names) == []
    with translation.override("fr"):
        change = room.late_arrival(
            by=organiser, tournament=tournament, name="Dupont", displace=True
        )
        number = change.entrant.number
        done = room.undo(by=organiser, change=change)
        said = translated(done)
    assert done == f"the late arrival of {number} Dupont"
    assert said == f"l'arrivée tardive de {number} Dupont"
    log = ActionLog.objects.filter(tournament=tournament, action="undo_arrival").get()
    assert log.summary == f"Undone: the late arrival of {number} Dupont"


@pytest.mark.django_db
def test_a_room_pages_undo_message_is_french(organiser_client, organiser):
    tournament = _played(organiser, _event(organiser, entrants=8, tables=4, slug="annule"))
    leaving = tournament.entrants.order_by("number").first()
    change = room.withdraw(by=organiser, entrant=leaving, after_round=1)
    organiser_client.cookies["language"] = "fr"
    page = organiser_client.post(
        f"/tournaments/{tournament.slug}/room/{change.pk}/undo/", follow=True
    )
    text = html.unescape(page.content.decode())
    assert f"Annulé : l'abandon de {leaving.number} {leaving.name}." in text
    assert "the withdrawal of" not in text


@pytest.mark.parametrize(
    ("data", "filename", "french"),
    [
        (b"PK not a zip", "liste.xlsx", "ce n'est pas un classeur .xlsx (le fichier est endommagé"),
        (b"PK not a zip", "liste.ods", "ce n'est pas un classeur .ods (le fichier est endommagé"),
        (b"a,b\n\x00\x01", "liste.csv", "ce n'est pas un fichier CSV (il contient des données"),
        (b"\xff\xfe\xfa,b\n", "liste.csv", "le fichier CSV n'est pas du texte UTF-8"),
        (
            b"a,b\n",
            "liste.txt",
            "'liste.txt' : le fichier doit finir par .csv, .xlsx ou .ods, pas .txt",
        ),
        (b"a,b\n", "liste", "le fichier doit finir par .csv, .xlsx ou .ods, pas rien"),
    ],
)
def test_a_file_the_import_cannot_read_is_refused_in_french(data, filename, french):
    with translation.override("fr"):
        read = read_entrant_file(io.BytesIO(data), filename)
    assert not read.ok and french in read.all_messages()[0]
    assert english_left(f"<p>{read.all_messages()[0]}</p>", set()) == []
    english = read_entrant_file(io.BytesIO(data), filename).all_messages()[0]
    assert english != read.all_messages()[0] and "file" in english


# --- the broadcast: the play's prompts, calls, contract and result -----------------------------

PLAY_SEED = 20261127
PLAYING = [game_id for game_id in GAME_IDS if get_game(game_id).offers_table_play()]


def _play_words(board) -> list[str]:
    view = board["view"]
    shown = [view["prompt"], view.get("contract") or "", view.get("result") or ""]
    shown += [call["text"] for calls in view["bidding"] for call in calls]
    shown += list(view["seat_names"].values())
    shown += [option["label"] for option in board.get("options", []) if option["group"] != "card"]
    return [text for text in shown if text]


@pytest.mark.django_db
@pytest.mark.parametrize("game_id", PLAYING)
def test_the_broadcasts_play_words_are_french(game_id):
    tournament, featured = featured_event(game_id, f"fr-play-{game_id}")
    names = {entrant.name for entrant in tournament.entrants.all()}
    client = recorder_client(tournament, featured)
    client.cookies["language"] = "fr"
    rng = random.Random(f"{PLAY_SEED}:{game_id}")
    print("seed", PLAY_SEED, game_id)
    board, taken, seen = state(client, tournament), 0, []
    while True:
        seen += _play_words(board)
        if board["over"]:
            break
        answer = act(client, tournament, board, choose(board, rng, taken))
        assert answer.status_code == 200, answer.content
        board, taken = answer.json()["board"], taken + 1
    assert taken > 10 and board["view"]["result"]
    page = "".join(f"<p>{text}</p>" for text in dict.fromkeys(seen))
    assert english_left(page, names) == []
    # The play's own English words the detector's list does not hold.
    play_english = {"tricks", "declares", "won", "trump", "Pass", "Spades", "over", "double"}
    assert [text for text in seen if play_english & set(re.findall(r"\w+", text))] == []
    assert any(text.startswith("À ") and text.endswith(" de jouer") for text in seen)
    assert "Nord" in board["view"]["seat_names"].values()


# --- the rules sheet: Twenty's and Pys'ngtaut's rules spelt out -------------------------------


@pytest.mark.parametrize(
    ("game_id", "given", "french"),
    [
        ("twenty", {}, "Appel 1 (premier seulement), Sans-atout 2, Solo 4"),
        ("pysngtaut", {}, "Rang joker"),
        ("pysngtaut", {"direction": "clockwise", "own_sets_offset": "on"}, "oui"),
    ],
)
def test_the_rules_sheets_rows_of_twenty_and_pysngtaut_are_french(game_id, given, french):
    game = get_game(game_id)
    rows = game.rules_in_detail(game.settings(given))
    with translation.override("fr"):
        shown = [translated(part) for row in rows for part in row]
    texts = [text for text in shown if isinstance(text, str)]
    assert french in texts
    # The game's name (its section) and a set's category id are names, not sentences.
    names = {"Twenty", "Pys'ngtaut", *CATEGORY_IDS}
    sentences = [text for text in texts if text not in names]
    assert len(sentences) >= 8
    assert english_left("".join(f"<p>{text}</p>" for text in sentences), set()) == []
    english = [part for row in rows for part in row if isinstance(part, str)]
    assert len(english) == len(texts) and english != texts


def _broken_movements():
    """Movements of individuals breaking each rule the validator words."""
    twice = bare()
    seats_of(twice, 3)["S"] = 3
    listed = bare()
    listed["seatings"][4]["table"] = 1
    short = bare()
    short["seatings"] = short["seatings"][:6]
    sits = bare()
    seats_of(sits, 7)["S"] = 9
    sits["byes"][2]["player"] = 2
    sits["byes"].append({"round": 1, "player": 1})
    figures = copy.deepcopy(TEN_PLAYERS)
    figures["max_meetings"], figures["repeated_pairs"] = 1, 1
    none = copy.deepcopy(TEN_PLAYERS)
    none["seatings"] = none["seatings"][:3]
    none["repeated_pairs"] = 2
    return [twice, listed, short, sits, figures, none]


def test_a_movements_findings_are_french_and_their_english_unchanged():
    problems = [
        problem for data in _broken_movements() for problem in check_individual_schedule(data)
    ]
    assert "round 2: player 3 plays at tables 1 and 2" in problems
    assert "round 2: players 3, 8, 10 neither play nor are listed as sitting out" in problems
    assert len(problems) >= 10
    with translation.override("fr"):
        page = render_to_string("tournaments/includes/problems.html", {"problems": problems})
        french = [translated(problem) for problem in problems]
    assert english_left(page, set()) == [], english_left(page, set())
    assert "tour 2 : le joueur 3 joue aux tables 1 et 2" in french
    assert all(text != problem for text, problem in zip(french, problems, strict=True))


@pytest.mark.django_db
def test_the_standings_say_a_withdrawal_a_substitute_and_a_disqualification_in_french(
    organiser, client
):
    from scoring import standings
    from tournaments import services

    tournament = _played(
        organiser, _event(organiser, entrants=8, tables=2, slug="retraits", game="twenty")
    )
    first, second, *_, last = tournament.entrants.order_by("number")
    room.withdraw(by=organiser, entrant=last, after_round=1)
    room.substitute(by=organiser, entrant=second, name="Cyrille", from_round=2)
    services.disqualify_entrant(by=organiser, entrant=first, reason="signaux")
    standings.recompute(tournament.pk)
    client.cookies["language"] = "fr"
    page = html.unescape(client.get(f"/t/{tournament.slug}/standings/").content.decode())
    assert "retiré après le tour 1" in page and "disqualifié" in page
    assert f"Cyrille à la place de {second.name}, à partir du tour 2" in page
    assert "withdrew after" not in page and ">disqualified<" not in page
    client.cookies["language"] = "en"
    page = html.unescape(client.get(f"/t/{tournament.slug}/standings/").content.decode())
    assert "withdrew after round 1" in page and ">disqualified<" in page
    assert f"Cyrille for {second.name}, from round 2" in page


@pytest.mark.django_db
def test_the_rarer_refusals_of_the_room_and_the_deals_are_french(organiser):
    from tournaments import services

    tournament = _played(organiser, _event(organiser, entrants=8, tables=4, slug="refus"))
    first = tournament.entrants.order_by("number").first()
    services.disqualify_entrant(by=organiser, entrant=first, reason="signaux")
    with translation.override("fr"):
        with pytest.raises(ServiceError) as twice:
            services.disqualify_entrant(by=organiser, entrant=first, reason="encore")
        with pytest.raises(ServiceError) as replaced:
            room.substitute(by=organiser, entrant=first, name="Cy", from_round=2, member=3)
        with pytest.raises(ServiceError) as unknown:
            room.cards_printed(by=organiser, tournament=tournament, digests={99: "0" * 16})
    assert str(twice.value) == f"{first.number} {first.name} est déjà disqualifié"
    assert str(replaced.value) == "le joueur remplacé est le 1 ou 2"
    assert str(unknown.value) == "aucun inscrit ne porte le numéro 99"
