"""The organiser's pages in French: an organiser whose stored language is French reads every
page of a French tournament (create, dashboard, entrants, schedule, deals, settings, room,
printing, finalising) for every registered game, and the sign-in pages, with no English word
of the product left (``english_left`` of tests/test_i18n.py)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from engine.core.messages import words
from engine.games import GAME_IDS, game_ids
from tests.test_i18n import _data_of, english_left, french_events  # noqa: F401 (a fixture)
from tests.tournaments.factories import OrganiserFactory
from tournaments.models import ActionLog, LanguageChoice, Tournament


def french_organiser() -> Client:
    """A browser signed in as an organiser whose stored choice is French, without a cookie."""
    user = OrganiserFactory()
    LanguageChoice.objects.create(user=user, language="fr")
    client = Client()
    client.force_login(user)
    return client


def _routes(tournament: Tournament) -> list[tuple[str, str]]:
    slug = tournament.slug
    entrant = tournament.entrants.order_by("number").first()
    match = tournament.tables.get(number=1).matches.order_by("round").first()
    pages = [
        ("list", reverse("tournaments:list")),
        ("create", reverse("tournaments:create") + f"?game={tournament.game}"),
        ("dashboard", reverse("tournaments:dashboard", args=[slug])),
        ("settings", reverse("tournaments:settings", args=[slug])),
        ("tables", reverse("tournaments:tables", args=[slug])),
        ("log", reverse("tournaments:log", args=[slug])),
        ("entrants", reverse("tournaments:teams", args=[slug])),
        ("import", reverse("tournaments:teams_import", args=[slug])),
        ("entrant", reverse("tournaments:team_edit", args=[slug, entrant.number])),
        ("disqualify", reverse("tournaments:team_disqualify", args=[slug, entrant.number])),
        ("schedule", reverse("tournaments:schedule", args=[slug])),
        ("deals", reverse("tournaments:deals", args=[slug])),
        ("deal", reverse("tournaments:deal_edit", args=[slug, 1, 1])),
        ("route cards", reverse("tournaments:print_routes", args=[slug])),
        ("schedule sheet", reverse("tournaments:print_schedule", args=[slug])),
        ("table cards", reverse("tournaments:print_tables", args=[slug])),
        ("finalise", reverse("tournaments:finalise", args=[slug])),
        ("room", reverse("tournaments:room", args=[slug])),
    ]
    if not tournament.of_players:
        pages += [
            ("new match", reverse("tournaments:match_add", args=[slug])),
            ("match", reverse("tournaments:match_edit", args=[slug, match.pk])),
        ]
    return pages


# The names of a spreadsheet's columns, which the import page shows as they are to be typed.
FILE_COLUMNS = {"player1", "player2"}


def _data(tournament: Tournament) -> set[str]:
    """The fixture's names, and the action log's entries: a log line (its summary, the keys and
    values it changed) is written once, in English, when the action is made
    (docs/languages.md), and shown as it was written."""
    from tournaments.selectors import log_changes

    logged = {"command line"}
    for entry in ActionLog.objects.filter(tournament=tournament):
        logged.add(entry.summary)
        for change in log_changes(entry.before, entry.after):
            logged |= {change.label, change.old, change.new}
    return _data_of(tournament) | FILE_COLUMNS | logged | _test_game_words(tournament)


def _test_game_words(tournament: Tournament) -> set[str]:
    """A game the tests register (not one of the product's) speaks English of its own: its
    deal notation's help and the seat names of its hands are its data here."""
    if tournament.game in GAME_IDS:
        return set()
    return {tournament.game_rules.deal_help, "North", "East", "South", "West"}


def _english_of(client: Client, pages: list[tuple[str, str]], data: set[str]) -> dict[str, list]:
    found = {}
    for name, address in pages:
        response = client.get(address)
        assert response.status_code == 200, (name, address, response.status_code)
        assert response["Content-Language"] == "fr", name
        left = english_left(response.content.decode(), data)
        if left:
            found[name] = left
    return found


@pytest.mark.parametrize("game_id", list(game_ids()))
def test_every_organiser_page_of_a_french_tournament_is_in_french(db, french_events, game_id):  # noqa: F811
    tournament = Tournament.objects.get(pk=french_events[game_id])
    found = _english_of(french_organiser(), _routes(tournament), _data(tournament))
    assert not found, f"{game_id}: English left: {found}"


@pytest.mark.parametrize("game_id", list(game_ids()))
def test_a_running_and_a_final_tournament_s_pages_are_in_french(db, french_events, game_id):  # noqa: F811
    from tournaments import services

    tournament = Tournament.objects.get(pk=french_events[game_id])
    services.start_tournament(by=None, tournament=tournament)
    client = french_organiser()
    slug = tournament.slug
    running = [
        ("dashboard", reverse("tournaments:dashboard", args=[slug])),
        ("finalise", reverse("tournaments:finalise", args=[slug])),
        ("room", reverse("tournaments:room", args=[slug])),
        ("entrants", reverse("tournaments:teams", args=[slug])),
        ("log", reverse("tournaments:log", args=[slug])),
    ]
    data = _data(tournament)
    found = _english_of(client, running, data)
    assert not found, f"{game_id}, running: English left: {found}"
    services.finalise_tournament(by=None, tournament=tournament, anyway=True, reason="Fin")
    final = [
        ("dashboard", reverse("tournaments:dashboard", args=[slug])),
        ("reopen", reverse("tournaments:reopen", args=[slug])),
        ("settings", reverse("tournaments:settings", args=[slug])),
    ]
    found = _english_of(client, final, _data(tournament))
    assert not found, f"{game_id}, final: English left: {found}"


def test_the_sign_in_pages_are_in_french(db):
    reader = Client()
    reader.cookies["language"] = "fr"
    found = _english_of(reader, [("sign in", reverse("login"))], set())
    assert not found, f"English left: {found}"
    found = _english_of(
        french_organiser(),
        [("two-step", reverse("two-step")), ("sign-in waits", reverse("sign-in-waits"))],
        set(),
    )
    assert not found, f"English left: {found}"


def test_a_french_page_leaves_the_thread_in_its_own_language(db):
    """The middleware gives the thread back its language after the answer: what runs next in it
    (a test, a task run in place) is not left in the reader's language."""
    from django.utils import translation

    from config.sign_in import wait_in_words

    with translation.override("en"):
        response = french_organiser().get(reverse("tournaments:list"))
        assert response["Content-Language"] == "fr"
        assert translation.get_language() == "en" and wait_in_words(4) == "4 seconds"
    with translation.override("fr"):
        assert wait_in_words(4) == "4 secondes"


def test_a_plural_s_second_form_is_listed_by_its_entry():
    """Python's ngettext marks both forms; the catalogue lists them as one entry, which the
    check of missing messages reads as listing both."""
    from tests.test_i18n import catalogues

    absent = catalogues.missing("fr")["django"]
    assert "%(count)s seconds" not in absent and "%(count)s minutes" not in absent
    marked = catalogues.python_messages((catalogues.ROOT / "config/sign_in.py").read_text())
    assert {"%(count)s second", "%(count)s seconds"} <= marked


def _status_actions_called() -> set[str]:
    """The words every ``_require_status`` call of the product gives for what it refuses."""
    import ast

    from tests.test_i18n import ROOT

    found = set()
    for path in (ROOT / "tournaments").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "_require_status":
                doing = node.args[2] if len(node.args) > 2 else None
                assert isinstance(doing, ast.Constant), f"{path}: the words must be a literal"
                found.add(doing.value)
    return found


def test_a_refusal_by_status_is_in_the_page_s_language(db, french_events):  # noqa: F811
    from django.utils import translation

    from tournaments import services
    from tournaments.services import STATUS_ACTIONS, ServiceError

    called = _status_actions_called()
    assert len(called) >= 15 and called <= set(STATUS_ACTIONS)
    tournament = Tournament.objects.get(pk=french_events["pymtheg"])
    with translation.override("fr"), pytest.raises(ServiceError) as refused:
        services.add_entrant(by=None, tournament=tournament, name="Les Rois")
    assert refused.value.messages == [
        "Vous ne pouvez pas inscrire des paires tant que le tournoi est à l’état "
        "« mouvement tiré » (seulement à l’état brouillon)."
    ]
    with translation.override("en"), pytest.raises(ServiceError) as refused:
        services.add_entrant(by=None, tournament=tournament, name="Les Rois")
    assert refused.value.messages == [
        "You cannot add teams while the tournament is scheduled (only when draft)."
    ]


@pytest.mark.parametrize("game_id", ["pymtheg", "twenty"])
def test_what_the_organiser_is_told_after_an_action_is_french(db, french_events, game_id):  # noqa: F811
    tournament = Tournament.objects.get(pk=french_events[game_id])
    client = french_organiser()
    slug = tournament.slug
    entrant = tournament.entrants.order_by("number").first()
    data = _data(tournament) | {"Les Rois"}
    renamed = client.post(
        reverse("tournaments:team_edit", args=[slug, entrant.number]),
        {"name": "Les Rois", "player1": entrant.player1, "player2": entrant.player2},
        follow=True,
    )
    started = client.post(reverse("tournaments:start", args=[slug]), follow=True)
    refused = client.post(reverse("tournaments:deals_generate", args=[slug]), follow=True)
    pages = {"renamed": renamed, "started": started, "refused": refused}
    said = {name: response.content.decode() for name, response in pages.items()}
    word = "Joueur" if tournament.of_players else "Paire"
    assert f"{word} {entrant.number} enregistr" in said["renamed"]
    assert "Le tournoi est en cours." in said["started"]
    assert "Vous ne pouvez pas distribuer les donnes" in said["refused"]
    left = {name: english_left(html, data | _data(tournament)) for name, html in said.items()}
    assert not any(left.values()), left


@pytest.mark.parametrize("game_id", ["pymtheg", "twenty"])
def test_the_room_s_changes_are_listed_in_french(db, french_events, game_id):  # noqa: F811
    from tournaments import room, selectors

    tournament = Tournament.objects.get(pk=french_events[game_id])
    first, last = tournament.entrants.order_by("number")[:2]
    room.substitute(by=None, entrant=first, name="Cyrille", from_round=2)
    room.withdraw(by=None, entrant=last, after_round=1)
    # The schedule validator's findings are the engine's English (docs/languages.md).
    findings = set(
        selectors.room_change_effects(tournament) + selectors.schedule_problems(tournament)
    )
    data = _data(tournament) | {"Cyrille"} | findings
    html = french_organiser().get(reverse("tournaments:room", args=[tournament.slug]))
    page = html.content.decode()
    assert f"{last.number} {last.name} : abandon après le tour 1" in page
    assert "Cyrille joue à la place de" in page
    left = english_left(page, data)
    assert not left, f"English left: {left}"


@pytest.mark.parametrize("game_id", ["pymtheg", "pyramid"])
def test_the_confirmation_pages_ask_in_french(db, french_events, game_id):  # noqa: F811
    tournament = Tournament.objects.get(pk=french_events[game_id])
    client = french_organiser()
    slug, number = tournament.slug, tournament.entrants.order_by("number").first().number
    asked = {
        "remove": client.post(reverse("tournaments:team_delete", args=[slug, number])),
        "new code": client.post(reverse("tournaments:team_new_code", args=[slug, number])),
        "renumber": client.post(reverse("tournaments:teams_renumber", args=[slug])),
        "clear": client.post(reverse("tournaments:schedule_clear", args=[slug])),
    }
    word = "le joueur" if tournament.of_players else "la paire"
    assert f"Retirer {word} {number}" in asked["remove"].content.decode()
    found = {}
    for name, response in asked.items():
        assert response.status_code == 200 and 'name="confirmed"' in response.content.decode()
        left = english_left(response.content.decode(), _data(tournament))
        if left:
            found[name] = left
    assert not found, f"English left: {found}"


@pytest.mark.parametrize("game_id", list(game_ids()))
def test_a_draft_made_in_french_reads_in_french(db, game_id):
    """A tournament created from the French page, its entrants added one by one, read while
    it is a draft: the create page's answer, the entrants with a gap in their numbers, the
    schedule's proposals, the deals not dealt, the dashboard getting ready."""
    from engine.games import get_game
    from tests.contract.events import table_size

    game = get_game(game_id)
    client = french_organiser()
    form = client.get(reverse("tournaments:create") + f"?game={game_id}").context["form"]
    posted = {
        name: field.initial for name, field in form.fields.items() if field.initial is not None
    }
    posted |= {"game": game_id, "name": "Soirée du lundi", "slug": f"lundi-{game_id}", "tables": 2}
    if "table_size" in form.fields:
        posted["table_size"] = table_size(game_id)
    created = client.post(reverse("tournaments:create"), posted, follow=True)
    assert created.status_code == 200, created.context and created.context["form"].errors
    tournament = Tournament.objects.get(slug=f"lundi-{game_id}")
    slug = tournament.slug
    entrants = 2 * 2 if not tournament.of_players else table_size(game_id) * 2
    for number in [*range(1, entrants), entrants + 1]:  # a gap before the last number
        fields = {"number": number, "name": f"Les As {number}"}
        if not tournament.of_players:
            fields |= {"player1": f"Joueur {number}a", "player2": f"Joueur {number}b"}
        added = client.post(reverse("tournaments:teams", args=[slug]), fields, follow=True)
        assert added.status_code == 200
    pages = [
        ("created", created),
        ("added", added),
        *(
            (name, client.get(reverse(f"tournaments:{name}", args=[slug])))
            for name in ("dashboard", "teams", "schedule", "deals", "settings", "teams_import")
        ),
    ]
    data = _data(tournament) | {"Soirée du lundi"}
    found = {}
    for name, response in pages:
        assert response.status_code == 200, name
        left = english_left(response.content.decode(), data)
        if left:
            found[name] = left
    assert not found, f"{game.title}: English left: {found}"
    assert "manquent" in pages[3][1].content.decode()  # the gap in the numbers


def test_a_room_change_refused_is_told_in_french(db, french_events):  # noqa: F811
    tournament = Tournament.objects.get(pk=french_events["pymtheg"])
    entrant = tournament.entrants.order_by("number").first()
    refused = french_organiser().post(
        reverse("tournaments:room", args=[tournament.slug]),
        {"kind": "withdrawal", "withdrawal-entrant": entrant.number, "withdrawal-after_round": 9},
    )
    page = refused.content.decode()
    assert refused.status_code == 400
    assert "les tours vont de 1 à 2 : un abandon se place après le tour 0 à 1" in page
    assert not english_left(page, _data(tournament) | _findings(tournament))


def _findings(tournament: Tournament) -> set[str]:
    """The schedule validator's findings: the engine's English (docs/languages.md)."""
    from tournaments import selectors

    return set(selectors.room_change_effects(tournament) + selectors.schedule_problems(tournament))


def test_a_match_refused_by_hand_is_told_in_french(db, french_events):  # noqa: F811
    tournament = Tournament.objects.get(pk=french_events["pymtheg"])
    refused = french_organiser().post(
        reverse("tournaments:match_add", args=[tournament.slug]),
        {"round_number": 1, "table_number": 1, "ns_number": 1, "ew_number": 1},
    )
    page = refused.content.decode()
    assert "une paire ne peut pas jouer contre elle-même" in page
    assert "la table 1 accueille déjà une rencontre au tour 1" in page
    assert not english_left(page, _data(tournament) | _findings(tournament))


def test_a_file_the_import_refuses_is_told_in_french(db):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from tournaments import services

    tournament = services.create_tournament(
        by=None, name="Soirée", slug="soiree", tables=2, game="pymtheg", language="fr"
    )
    upload = SimpleUploadedFile("paires.csv", b"number,name\n1,\nx,Les Rois\n", "text/csv")
    response = french_organiser().post(
        reverse("tournaments:teams_import", args=[tournament.slug]), {"file": upload}
    )
    page = response.content.decode()
    assert "ligne 2 : le nom manque" in page
    assert "ligne 3 : le numéro « x » n’est pas un nombre entier" in page
    assert not english_left(page, _data(tournament) | FILE_COLUMNS | {"paires.csv", "Soirée"})


def test_a_withdrawal_s_words_follow_the_reader_s_language():
    from types import SimpleNamespace

    from publishing.exports.workbook import _gap
    from tournaments.room_selectors import sitting_out_words
    from tournaments.templatetags.languages import translated

    text = sitting_out_words("bye", 4, 2)
    assert text == "withdrew after round 2: no match"
    assert sitting_out_words("bye", 2, 2) == "bye"
    with translation.override("fr"):
        assert translated(text) == "retiré après le tour 2 : pas de rencontre"
    data = SimpleNamespace(gaps={(7, 3): (4, text)}, withdrawn_after={7: 2})
    reason = words("mean of the ranking points given here")
    with translation.override("en"):
        assert _gap(data, 7, 3, reason) == (
            4,
            "withdrawn",
            "withdrew after round 2: no match (counted as a bye: mean of the ranking points"
            " given here)",
        )
        assert _gap(data, 8, 3, reason) == (
            None,
            "bye",
            "bye: mean of the ranking points given here",
        )
    with translation.override("fr"):
        assert _gap(data, 7, 3, reason)[2] == (
            "retiré après le tour 2 : pas de rencontre (compté comme exempt : moyenne des points"
            " de classement donnés ici)"
        )
