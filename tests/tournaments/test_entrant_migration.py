"""The migration that names the entrant model and a match's entrants and results by seat keeps
every stored tournament: its entrants, matches, entries and results, with their constraints."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

BEFORE = [
    ("tournaments", "0004_longer_deal_notation"),
    ("scoring", "0006_submission_deal_disagreement"),
]
AFTER = [
    ("tournaments", "0005_entrant_and_match_seats_named"),
    ("scoring", "0007_results_named_by_seat"),
]


def targets(executor, nodes):
    """``nodes``, and for every other app its latest migration that needs nothing of the pinned
    apps beyond ``nodes`` (an app built on later migrations goes back as far as it must)."""
    graph = executor.loader.graph
    pinned = {app for app, _name in nodes}
    allowed = {needed for node in nodes for needed in graph.forwards_plan(node)}

    def fits(node):
        return all(need[0] not in pinned or need in allowed for need in graph.forwards_plan(node))

    def latest_fitting(leaf):
        node = leaf
        while node is not None and not fits(node):
            earlier = [p.key for p in graph.node_map[node].parents if p.key[0] == node[0]]
            node = earlier[0] if earlier else None
        return node or (leaf[0], None)

    return [*nodes, *(latest_fitting(leaf) for leaf in graph.leaf_nodes() if leaf[0] not in pinned)]


def migrated_across(before, after, store):
    """The apps at ``after`` once ``store`` has written its rows through the apps at ``before``
    (each a list of app and migration, every other app taken as far as ``targets`` says)."""
    executor = MigrationExecutor(connection)
    nodes = targets(executor, before)
    executor.migrate(nodes)
    store(executor.loader.project_state([node for node in nodes if node[1]]).apps)

    executor = MigrationExecutor(connection)
    nodes = targets(executor, after)
    executor.migrate(nodes)
    return executor.loader.project_state([node for node in nodes if node[1]]).apps


@pytest.fixture
def latest_afterwards():
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def stored_before(apps):
    """A tournament of two pairs, one match and one confirmed board, in the old names."""
    Tournament = apps.get_model("tournaments", "Tournament")
    Team = apps.get_model("tournaments", "Team")
    Table = apps.get_model("tournaments", "Table")
    Board = apps.get_model("tournaments", "Board")
    Match = apps.get_model("tournaments", "Match")
    Submission = apps.get_model("scoring", "Submission")
    Review = apps.get_model("scoring", "Review")
    Result = apps.get_model("scoring", "Result")
    tournament = Tournament.objects.create(name="Old", slug="old", status="running")
    ns, ew = (
        Team.objects.create(tournament=tournament, number=n, name=f"Pair {n}", access_code=code)
        for n, code in ((1, "AAAAAAAA"), (2, "BBBBBBBB"))
    )
    table = Table.objects.create(tournament=tournament, number=1)
    board = Board.objects.create(table=table, number=1, deal="x")
    match = Match.objects.create(round=1, table=table, ns_team=ns, ew_team=ew)
    entry = Submission.objects.create(
        match=match, board=board, source="north", team=ns, client_id="c1", record={}, score={},
        ns_result=420, ew_result=-420,
    )  # fmt: skip
    review = Review.objects.create(
        match=match, board=board, submission=entry, action="accept", team=ew
    )
    Result.objects.create(
        match=match, board=board, kind="confirmed", submission=entry, review=review,
        ns_result=420, ew_result=-420,
    )  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_stored_tournaments_keep_their_rows_under_the_new_names(latest_afterwards):
    apps = migrated_across(BEFORE, AFTER, stored_before)
    Entrant = apps.get_model("tournaments", "Entrant")
    Match = apps.get_model("tournaments", "Match")
    Result = apps.get_model("scoring", "Result")
    Submission = apps.get_model("scoring", "Submission")
    assert list(Entrant.objects.values_list("number", "name", "access_code")) == [
        (1, "Pair 1", "AAAAAAAA"),
        (2, "Pair 2", "BBBBBBBB"),
    ]
    match = Match.objects.get()
    assert (match.north_entrant.number, match.east_entrant.number) == (1, 2)
    assert list(Result.objects.values_list("north_result", "east_result")) == [(420, -420)]
    assert list(Submission.objects.values_list("north_result", "east_result")) == [(420, -420)]
    # The constraints hold under their new names.
    with pytest.raises(IntegrityError, match="match_entrants_differ"), transaction.atomic():
        Match.objects.create(round=2, table=match.table, north_entrant=match.north_entrant,
                             east_entrant=match.north_entrant)  # fmt: skip
    with pytest.raises(IntegrityError), transaction.atomic():
        Entrant.objects.create(tournament=match.table.tournament, number=1, name="Again")
    Review = apps.get_model("scoring", "Review")
    board = Result.objects.get().board
    adjusting = Review.objects.create(match=match, board=board, action="adjust", reason="x")
    with (
        pytest.raises(IntegrityError, match="result_has_table_results_unless_passed_out"),
        transaction.atomic(),
    ):
        Result.objects.create(match=match, board=board, kind="adjusted", review=adjusting)
