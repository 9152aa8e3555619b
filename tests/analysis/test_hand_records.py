"""The analysis on the hand records: as secret as the deal (never on the public page, in the
workbook or anywhere public before the hand record itself may be seen), then the table beside
the diagram and each table's result against it ("made 10, double dummy 12")."""

from __future__ import annotations

import pytest
from django.urls import reverse

from analysis.models import BoardAnalysis
from engine.games import GAME_IDS, get_game
from publishing import services as publishing_services
from publishing.models import Export, HandRecords, PublishingSettings
from tests.publishing.conftest import workbook
from tests.scoring.conftest import RY_LOST

# NS's tricks per strain: numbers no other part of the page prints together.
NS_TRICKS = {"fire": 12, "earth": 13, "water": 4, "wind": 11, "nt": 14}
MARKER = "Double dummy: Tricks of the declarer"


def store_tables(cup) -> None:
    """A done analysis on every board of the cup, as the job leaves it."""
    game = cup.tournament.game_rules
    for table in cup.tournament.tables.all():
        for board in table.boards.all():
            inputs = game.analysis_inputs(
                cup.tournament.rules, table=table.number, players=4, dealer=board.dealer
            )
            parts = {strain: {"ns": n, "lon": []} for strain, n in NS_TRICKS.items()}
            parts["ry"] = {"ry": {"N": None, "E": None, "S": 3, "W": None}}
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


def page(client, cup) -> str:
    response = client.get(reverse("publishing:hand-records", args=[cup.tournament.slug]))
    return response.content.decode()


def allow(cup, mode: str) -> None:
    PublishingSettings.objects.update_or_create(
        tournament=cup.tournament, defaults={"hand_records": mode}
    )


def test_every_game_with_a_table_says_so():
    games = [get_game(game_id) for game_id in GAME_IDS]
    offering = [game.id for game in games if game.offers_analysis(game.settings())]
    assert "pymtheg" in offering and "pyramid" in offering


def test_no_table_before_the_hand_record_may_be_seen(client, cup, confirm):
    store_tables(cup)
    assert MARKER not in page(client, cup)  # hidden
    allow(cup, HandRecords.AFTER_FINAL)
    confirm(cup, 1, 1)
    confirm(cup, 1, 2, RY_LOST)
    confirm(cup, 2, 2, RY_LOST)
    assert MARKER not in page(client, cup)  # not final yet
    allow(cup, HandRecords.AFTER_PLAY)
    text = page(client, cup)
    # table 2 is complete, table 1 still has a match to play
    assert 'id="table-2-board-1"' in text and 'id="table-1-board-1"' not in text
    assert text.count(MARKER) == 1
    assert text.index(MARKER) > text.index('id="table-2-board-1"')


def test_the_record_shows_the_table_and_each_result_beside_it(client, cup, play_all):
    store_tables(cup)
    allow(cup, HandRecords.AFTER_PLAY)
    play_all(cup)
    text = page(client, cup)
    assert text.count(MARKER) == 2
    table1 = text[text.index('id="table-1-board-1"') : text.index('id="table-2-board-1"')]
    # North's Gâm in fire took 10 tricks; double dummy his team takes 12
    assert "made 10, double dummy 12" in table1
    assert "Ry made by South (Ry 2: his partner takes 3)" in table1
    table2 = text[text.index('id="table-2-board-1"') :]
    # East's Ry lost; double dummy East cannot make it either
    assert "lost, double dummy lost" in table2
    # The par under each table. North-South's best, Gâm +5 in no-trump (260), would meet
    # East-West's Gâm +6 in Water, 11 tricks of 15, doubled: 2 x (80 + 4) = 168, cheaper.
    par = "Par: North–South +168: Gâm +6 by East or West, Water named after the auction, doubled"
    assert f"{par}, lost" in table1 and f"{par}, lost" in table2


def test_a_board_without_its_table_says_not_analysed(client, cup, play_all):
    store_tables(cup)
    BoardAnalysis.objects.filter(board__table__number=2).update(
        status=BoardAnalysis.Status.TIMED_OUT, parts={}, table=None, error="time ran out"
    )
    allow(cup, HandRecords.AFTER_PLAY)
    play_all(cup)
    text = page(client, cup)
    table2 = text[text.index('id="table-2-board-1"') :]
    assert "Double dummy: not analysed." in table2 and MARKER not in table2
    assert "double dummy" not in table2.split("Double dummy: not analysed")[1].lower()


def test_a_partly_analysed_board_shows_what_is_known_and_no_more(client, cup, play_all):
    # Table 2's Ry part and its Water ran out of time; the other strains were solved.
    store_tables(cup)
    for analysis in BoardAnalysis.objects.filter(board__table__number=2):
        analysis.parts = {k: v for k, v in analysis.parts.items() if k not in ("ry", "water")}
        analysis.status, analysis.table = BoardAnalysis.Status.TIMED_OUT, None
        analysis.error = "the solver's time ran out on ry"
        analysis.save()
    allow(cup, HandRecords.AFTER_PLAY)
    play_all(cup)
    text = page(client, cup)
    table2 = text[text.index('id="table-2-board-1"') :]
    assert "Double dummy: not analysed in full" in table2
    north = table2[
        table2.index("<th>North</th>") : table2.index("</tr>", table2.index("<th>North</th>"))
    ]
    cells = [cell.split("</td>")[0] for cell in north.split('<td class="num">')[1:]]
    assert cells == ["12", "13", "not analysed", "11", "14"]
    assert "Ry: not analysed" in table2 and "Par: not analysed" in table2
    assert "Lon made by no one (not analysed in Water)" in table2
    # Nothing is set beside the results without the whole table: East's Ry is not known.
    assert "double dummy lost" not in table2 and "double dummy made" not in table2
    table1 = text[: text.index('id="table-2-board-1"')]
    assert "Par: " in table1 and "Par: not analysed" not in table1


def test_a_table_of_another_deal_is_never_shown(client, cup, play_all):
    store_tables(cup)
    BoardAnalysis.objects.update(deal="N:a deal replaced since")
    allow(cup, HandRecords.AFTER_PLAY)
    play_all(cup)
    assert MARKER not in page(client, cup)


def test_the_workbook_carries_the_tables(cup, play_all, organiser):
    store_tables(cup)
    play_all(cup)
    export, _ = publishing_services.request_export(
        tournament=cup.tournament, kind=Export.Kind.RESULTS, fmt=Export.Format.XLSX, enqueue=False
    )
    publishing_services.run_export(export.pk)
    export.refresh_from_db()
    path = publishing_services.export_path(export)
    book = workbook(path.read_bytes())
    sheet = book["Deals"]
    headers = [cell.value for cell in sheet[3]]
    assert "Double dummy" in headers
    column = headers.index("Double dummy")
    cells = [row[column].value for row in sheet.iter_rows(min_row=4) if row[0].value]
    assert len(cells) == 2
    assert all("North: 12 13 4 11 14" in cell for cell in cells)
    assert all("Par: North–South +168: Gâm +6 by East or West" in cell for cell in cells)
    # Each table's results against the table, as on the hand records.
    column = headers.index("Results against it")
    rows = [row for row in sheet.iter_rows(min_row=4) if row[0].value]
    beside = {row[0].value: row[column].value.splitlines() for row in rows}
    assert beside[1] == ["Round 1: made 10, double dummy 12", "Round 2: made 10, double dummy 12"]
    assert beside[2] == ["Round 1: lost, double dummy lost", "Round 2: lost, double dummy lost"]


def test_the_organisers_deal_pages_show_the_table(organiser_client, cup):
    store_tables(cup)
    slug = cup.tournament.slug
    deals = organiser_client.get(reverse("tournaments:deals", args=[slug])).content.decode()
    assert "analysed 2 of 2 boards" in deals and deals.count(MARKER) == 2
    cards = organiser_client.get(reverse("tournaments:print_tables", args=[slug]))
    assert cards.content.decode().count(MARKER) == 2


@pytest.mark.parametrize("mode", [HandRecords.HIDDEN, HandRecords.AFTER_FINAL])
def test_the_full_workbook_is_not_published_before_the_hand_records(cup, play_all, mode):
    """The results workbook carries the tables beside the deals: it is published only once
    every hand record is public (the publishing service refuses it before)."""
    store_tables(cup)
    allow(cup, mode)
    play_all(cup)
    export, _ = publishing_services.request_export(
        tournament=cup.tournament, kind=Export.Kind.RESULTS, fmt=Export.Format.XLSX, enqueue=False
    )
    publishing_services.run_export(export.pk)
    export.refresh_from_db()
    with pytest.raises(publishing_services.PublishingError):
        publishing_services.publish_export(export=export, by=None)


def test_a_table_solved_after_the_page_was_cached_shows_at_once(client, cup, play_all):
    allow(cup, HandRecords.AFTER_PLAY)
    play_all(cup)
    store_tables(cup)
    BoardAnalysis.objects.all().delete()
    assert MARKER not in page(client, cup)  # cached without a table
    store_tables(cup)
    assert page(client, cup).count(MARKER) == 2
