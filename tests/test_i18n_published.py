"""What a French tournament publishes and broadcasts is in French: the hand records (the
results' words, the double-dummy tables and the par), the charts (their drawings' labels and
the tables beside them), the downloads, the broadcast pages, the route cards and table cards,
and the workbook (sheet names and column headers). For every registered game: an event of two
tables, every board played through the scorers' services from the fixed seed ``SEED``."""

from __future__ import annotations

import csv
import io
import itertools
import re
import zipfile
from pathlib import Path

import openpyxl
import pytest
from django.test import Client
from django.urls import reverse

from analysis.models import BoardAnalysis
from broadcast.models import FeaturedTable
from broadcast.services import feature_table, featuring_problem
from engine.games import game_ids
from publishing.models import Export, HandRecords, PublishingSettings
from publishing.services import refresh_chart_data, request_export, run_export
from publishing.storage import export_storage
from scoring import services as scoring
from scoring.models import Result
from scoring.selectors import standings_bookkeeping
from scoring.standings import recompute
from tests.contract.events import board_facts, build_event
from tests.scoring.conftest import new_id
from tests.test_i18n import english_left
from tests.tournaments.factories import OrganiserFactory
from tournaments import services
from tournaments.models import Board, Match, Tournament

SEED = "i18n-published"
ROOT = Path(__file__).resolve().parent.parent


def _played_french_event(game_id: str) -> int:
    """A French tournament of the game, every board of every match entered and accepted,
    its standings and charts computed, its hand records public once a table is played."""
    tournament = build_event(game_id, f"frpub-{game_id}")
    tournament.name = f"Coupe d’hiver {game_id}"
    tournament.language = "fr"
    tournament.save()
    for entrant in tournament.entrants.all():
        entrant.name = f"Les As {entrant.number}"
        entrant.save()
    tournament = services.start_tournament(by=None, tournament=tournament)
    matches = Match.objects.filter(table__tournament=tournament).select_related(
        "table__tournament", "north_entrant", "east_entrant"
    )
    for match in sorted(matches, key=lambda m: (m.round, m.table.number)):
        for board in match.table.boards.order_by("number"):
            entry = scoring.submit_entry(
                match_id=match.pk,
                board_number=board.number,
                entrant=match.north_entrant,
                facts=board_facts(match, board.number, SEED),
                client_id=new_id(),
            )
            scoring.accept_entry(
                match_id=match.pk,
                board_number=board.number,
                entrant=match.east_entrant,
                submission_id=entry.pk,
                client_id=new_id(),
            )
    recompute(tournament.pk)
    tournament.refresh_from_db()
    refresh_chart_data(tournament, standings_bookkeeping(tournament))
    PublishingSettings.objects.update_or_create(
        tournament=tournament, defaults={"hand_records": HandRecords.AFTER_PLAY}
    )
    if featuring_problem(tournament) is None:
        feature_table(by=None, tournament=tournament, number=1)
    _analyse(tournament)
    return tournament.pk


# Pymtheg's solver takes seconds a deal: its boards get a table of fixed tricks (North-South's
# per strain), as the analysis job stores one; the other games' tables are solved here.
PYMTHEG_PARTS = {
    **{strain: {"ns": n, "lon": []} for strain, n in (("fire", 12), ("earth", 13), ("water", 4))},
    **{strain: {"ns": n, "lon": []} for strain, n in (("wind", 11), ("nt", 14))},
    "ry": {"ry": {"N": None, "E": None, "S": 3, "W": None}},
}


def _analyse(tournament: Tournament) -> None:
    """A done double-dummy table on every board, where the game offers one."""
    game = tournament.game_rules
    if not game.offers_analysis(tournament.rules):
        return
    for board in Board.objects.filter(table__tournament=tournament).select_related("table"):
        inputs = game.analysis_inputs(
            tournament.rules,
            table=board.table.number,
            players=tournament.table_size,
            dealer=board.dealer,
        )
        if game.id == "pymtheg":
            parts = PYMTHEG_PARTS
        else:
            deal = board.parsed()
            parts = {
                part: game.analyse_deal(deal, inputs, part=part)
                for part in game.analysis_parts(inputs)
            }
        BoardAnalysis.objects.update_or_create(
            board=board,
            defaults={
                "deal": board.deal,
                "inputs": inputs,
                "status": BoardAnalysis.Status.DONE,
                "parts": parts,
                "table": game.combine_analysis(inputs, parts),
            },
        )


@pytest.fixture(scope="module")
def played_events(django_db_blocker):
    from tests.conftest import rows_for_the_scope

    print(f"seed {SEED!r}")
    yield from rows_for_the_scope(
        django_db_blocker, lambda: {game: _played_french_event(game) for game in game_ids()}
    )


def _data_of(tournament: Tournament) -> set[str]:
    """What the check leaves out: the fixture's names and, for a game the tests register as
    a stand-in (``tests/games``), the English its own code writes (hands, results)."""
    data = {tournament.name, tournament.slug}
    for entrant in tournament.entrants.all():
        data |= {entrant.name, entrant.player1, entrant.player2} - {""}
    game = tournament.game_rules
    if type(game).__module__.startswith("tests."):
        for board in Board.objects.filter(table__tournament=tournament):
            data |= {whose for whose, _cards in game.hands_in_words(board.parsed())}
        for result in Result.objects.filter(match__table__tournament=tournament, current=True):
            if result.submission is not None and result.submission.score:
                data.add(game.describe(result.submission.score))
    return data


def _organiser() -> Client:
    client = Client()
    client.force_login(OrganiserFactory())
    return client


def _published_pages(tournament: Tournament):
    slug = tournament.slug
    reader = Client()
    yield "hand records", reader.get(reverse("publishing:hand-records", args=[slug]))
    yield "charts", reader.get(reverse("publishing:charts", args=[slug]))
    yield "downloads", reader.get(reverse("publishing:downloads", args=[slug]))
    yield "broadcast list", reader.get(reverse("broadcast:list", args=[slug]))
    yield "recorder's code", reader.get(reverse("broadcast:recorder", args=[slug]))
    featured = FeaturedTable.objects.filter(table__tournament=tournament).first()
    if featured is not None:
        yield "broadcast table", reader.get(reverse("broadcast:table", args=[slug, 1]))
        recorder = Client()
        page = reverse("broadcast:recorder", args=[slug])
        recorder.get(page, {"code": featured.recorder_code})
        yield "recorder", recorder.get(page)
    organiser = _organiser()
    yield "route cards", organiser.get(reverse("tournaments:print_routes", args=[slug]))
    yield "table cards", organiser.get(reverse("tournaments:print_tables", args=[slug]))
    yield "publishing", organiser.get(reverse("publishing:organiser", args=[slug]))
    yield "featured tables", organiser.get(reverse("broadcast:featured", args=[slug]))


@pytest.mark.parametrize("game_id", list(game_ids()))
def test_what_a_french_tournament_publishes_shows_no_english(db, played_events, game_id):
    tournament = Tournament.objects.get(pk=played_events[game_id])
    data = _data_of(tournament)
    found = {}
    for name, response in _published_pages(tournament):
        assert response.status_code == 200, name
        assert response["Content-Language"] == "fr", name
        left = english_left(response.content.decode(), data)
        if left:
            found[name] = left
    assert not found, f"{game_id}: English left: {found}"


# --- the files: sheet names, column headers and the words in them ---------------------------

ENGLISH_SHEETS = {"Standings", "Teams", "Schedule", "Deals", "Hand diagrams", "Spread", "Rules"}
ENGLISH_SHEETS |= {"Places", "Places chart", "Boards", "Routes", "Sheets"}
ENGLISH_HEADERS = {"Team", "Player", "Board", "Round", "Side", "Opponent", "Rule"}
ENGLISH_HEADERS |= {"Value", "Section", "Status", "Percentage", "Ranking points", "Note"}


def _exported(tournament: Tournament, kind: str, fmt: str) -> bytes:
    export, _started = request_export(tournament=tournament, kind=kind, fmt=fmt, force=True)
    export = run_export(export.pk)
    assert export.state == Export.State.DONE, export.error
    with export_storage().open(export.file_path) as stream:
        return stream.read()


@pytest.mark.parametrize("game_id", list(game_ids()))
def test_a_french_tournament_s_workbook_is_in_french(
    db, played_events, game_id, settings, tmp_path
):
    settings.PUBLISHING_EXPORT_ROOT = tmp_path
    tournament = Tournament.objects.get(pk=played_events[game_id])
    book = openpyxl.load_workbook(io.BytesIO(_exported(tournament, "results", "xlsx")))
    names = book.sheetnames
    assert "Classement" in names and "Règlement" in names, names
    assert not set(names) & ENGLISH_SHEETS, names
    assert len(set(names)) == len(names) and not any(name[-1].isdigit() for name in names), names
    data = _data_of(tournament)
    for sheet in book.worksheets:
        headers = [cell.value for cell in sheet[3] if isinstance(cell.value, str)]
        assert not set(headers) & ENGLISH_HEADERS, (sheet.title, headers)
        # The title, the stamp and the headers: no English sentence of the product.
        top = [sheet.cell(1, 1).value or "", sheet.cell(2, 1).value or "", *headers]
        html = "".join(f"<p>{text}</p>" for text in top)
        assert not english_left(html, data), (sheet.title, english_left(html, data))
    # The cells too: the notes, the results' words, the hands, the double-dummy tables and the
    # rules sheet's own rows, the game's settings and every game's rules in detail.
    for sheet in book.worksheets:
        cells = [
            value
            for row in sheet.iter_rows(min_row=4, values_only=True)
            for value in row
            if isinstance(value, str)
        ]
        html = "".join(f"<p>{text}</p>" for text in cells)
        assert not english_left(html, data), (sheet.title, english_left(html, data)[:10])
    sections = {row[0] for row in book["Règlement"].iter_rows(min_row=4, values_only=True)}
    assert {"Tournoi", "Classement", "Jeu"} <= sections, sections
    standings = book["Classement"]
    assert [c.value for c in standings[3]][:3] in (
        ["Rang", "N° paire", "Paire"],  # games of pairs
        ["Rang", "N°", "Joueur"],  # games of individuals
    )
    assert "Résultats :" in standings["A2"].value and "Calculé le " in standings["A2"].value
    # The date in French order: day/month/year.
    assert re.search(r"Calculé le \d\d/\d\d/\d{4} \d\d:\d\d", standings["A2"].value)


def test_a_french_tournament_s_csv_headers_are_french_and_its_file_names_stay(
    db, played_events, settings, tmp_path
):
    """The CSV files keep their English names (what a script looks for); their headers
    follow the tournament's language, as the workbook's do."""
    settings.PUBLISHING_EXPORT_ROOT = tmp_path
    tournament = Tournament.objects.get(pk=played_events["pymtheg"])
    with zipfile.ZipFile(io.BytesIO(_exported(tournament, "standings", "csv"))) as archive:
        names = archive.namelist()
        assert "about.csv" in names and "01-standings.csv" in names, names
        text = archive.read("01-standings.csv").decode("utf-8-sig")
        about = archive.read("about.csv").decode("utf-8-sig")
    header = next(csv.reader([text.splitlines()[0]]))
    assert header[:3] == ["Rang", "N° paire", "Paire"] and "Points de classement" in header
    assert about.splitlines()[0] == "key,value"  # the stamp's keys are machine words


def test_an_english_tournament_s_workbook_stays_english(db, played_events, settings, tmp_path):
    settings.PUBLISHING_EXPORT_ROOT = tmp_path
    tournament = Tournament.objects.get(pk=played_events["pymtheg"])
    tournament.language = "en"
    tournament.save()
    book = openpyxl.load_workbook(io.BytesIO(_exported(tournament, "standings", "xlsx")))
    assert book.sheetnames[0] == "Standings" and "Rules" in book.sheetnames
    assert [c.value for c in book["Standings"][3]][:3] == ["Place", "Team no.", "Team"]


# --- the charts: drawn in the tournament's language, their labels big enough to read ---------


def test_the_charts_are_drawn_in_the_tournament_s_language(db, played_events):
    from publishing.models import ChartData

    tournament = Tournament.objects.get(pk=played_events["pymtheg"])
    chart = ChartData.objects.get(tournament=tournament)
    assert 'aria-label="Place de chaque paire après chaque tour"' in chart.places_svg
    assert ">Tour</text>" in chart.places_svg
    assert "Dispersion des résultats à chaque table" in chart.spread_svg
    assert "<title>Table 1, donne 1, NS : 2 résultats, plus bas " in chart.spread_svg
    assert " EO</text>" in chart.spread_svg and " EW</text>" not in chart.spread_svg
    for svg in (chart.places_svg, chart.spread_svg):
        assert not english_left(svg, _data_of(tournament)), english_left(svg, set())


def test_the_charts_label_text_is_at_least_14px():
    """The drawings' text is set by the stylesheet: at least 14 px (0.875 rem) in the
    drawing's own units, which the page shows at their size or larger on a wide screen."""
    css = (ROOT / "static/publishing/publishing.css").read_text()
    rule = re.search(r"\.chart svg \{[^}]*\}", css)
    assert rule, "the charts' text rule"
    size = re.search(r"font:\s*(\d+(?:\.\d+)?)px", rule.group(0))
    assert size and float(size.group(1)) >= 14, rule.group(0)


def test_the_charts_room_for_their_labels_follows_the_text_size():
    """At 14 px the rows of the spread and the places' labels do not overlap: each strip is
    taller than the text, and the team names at the lines' ends are at least 16 apart."""
    from publishing.charts import places_svg, spread_svg

    groups = [
        {"table": t, "board": b, "side": side, "results": 2, "low": -10, "q1": -5}
        | {"median": 0, "q3": 5, "high": 10, "mean": 0, "scores": [-10, 10]}
        for t in (1, 2)
        for b in (1, 2)
        for side in ("NS", "EW")
    ]
    ys = [float(y) for y in re.findall(r'y="([\d.]+)" text-anchor="end">T', spread_svg(groups))]
    assert len(ys) == len(groups)
    assert min(b - a for a, b in itertools.pairwise(ys)) >= 18
    places = {str(entrant): [entrant, entrant] for entrant in range(1, 9)}
    labels = {str(entrant): f"{entrant}. Les As {entrant}" for entrant in range(1, 9)}
    drawn = places_svg([1, 2], places, labels, list(places))
    ends = sorted(float(y) for y in re.findall(r'class="team-label"[^>]* y="([\d.]+)"', drawn))
    assert min(b - a for a, b in itertools.pairwise(ends)) >= 16


def test_the_broadcast_loads_its_words_before_its_scripts(db, played_events, client):
    """The broadcast's and the recorder's scripts draw their words from the page's catalogue,
    loaded before them."""
    tournament = Tournament.objects.get(pk=played_events["pymtheg"])
    html = _organiser().get(reverse("broadcast:table", args=[tournament.slug, 1])).content.decode()
    catalogue = html.index(f'<script src="{reverse("javascript-catalog", args=["fr"])}" defer>')
    assert catalogue < html.index("broadcast/board.js") < html.index("broadcast/broadcast.js")
    words = client.get(reverse("javascript-catalog", args=["fr"])).content.decode()
    assert "Rien d\\u2019enregistr\\u00e9 \\u00e0 cette table" in words or (
        "Rien d’enregistré à cette table" in words
    )


def test_a_changed_language_gives_a_new_file_and_new_drawings(
    db, played_events, settings, tmp_path
):
    """The same standings in another language are another file (the export's key holds the
    language) and the charts are drawn again in it."""
    from publishing.models import ChartData

    settings.PUBLISHING_EXPORT_ROOT = tmp_path
    tournament = Tournament.objects.get(pk=played_events["pymtheg"])
    french, _started = request_export(tournament=tournament, kind="standings", fmt="xlsx")
    run_export(french.pk)
    again, started = request_export(tournament=tournament, kind="standings", fmt="xlsx")
    assert again.pk == french.pk and not started  # same state, same language: the same file
    tournament.language = "en"
    tournament.save()
    english, started = request_export(tournament=tournament, kind="standings", fmt="xlsx")
    assert started and english.pk != french.pk and english.language == "en"
    english = run_export(english.pk)
    with export_storage().open(english.file_path) as stream:
        book = openpyxl.load_workbook(io.BytesIO(stream.read()))
    assert book.sheetnames[0] == "Standings"
    chart = refresh_chart_data(tournament, standings_bookkeeping(tournament))
    assert chart.language == "en" and "Place of each team after every round" in chart.places_svg
    assert ChartData.objects.get(pk=chart.pk).language == "en"


@pytest.mark.parametrize("game_id", list(game_ids()))
def test_the_downloads_of_a_french_tournament_are_listed_in_french(
    db, played_events, game_id, settings, tmp_path
):
    """A published file's line: its kind, format, what it holds (written in the tournament's
    language with the file) and the link, in French; the organiser's list too."""
    from publishing.services import publish_export

    settings.PUBLISHING_EXPORT_ROOT = tmp_path
    tournament = Tournament.objects.get(pk=played_events[game_id])
    export, _started = request_export(tournament=tournament, kind="standings", fmt="xlsx")
    publish_export(export=run_export(export.pk), by=None)
    # The latest file's address is printed as it is: an address, not words.
    address = reverse("publishing:latest-download", args=[tournament.slug, "standings", "xlsx"])
    data = _data_of(tournament) | {address}
    public = Client().get(reverse("publishing:downloads", args=[tournament.slug]))
    html = public.content.decode()
    assert "Classeur du classement" in html and "Télécharger" in html, html
    assert not english_left(html, data), english_left(html, data)
    organiser = _organiser().get(reverse("publishing:organiser", args=[tournament.slug]))
    html = organiser.content.decode()
    assert "Prêt" in html and "Retirer" in html
    assert not english_left(html, data), english_left(html, data)
