"""PostgreSQL plans the statements a connection repeats once (prepared statements)."""

import pytest
from django.db import connection


@pytest.mark.integration
@pytest.mark.django_db
def test_repeated_statements_are_prepared_on_postgresql(settings):
    assert settings.DATABASE_PREPARE_THRESHOLD == 5
    connection.ensure_connection()
    assert connection.connection.prepare_threshold == 5
    with connection.cursor() as cursor:
        for _ in range(6):
            cursor.execute("SELECT %s::int + 1 AS prepared_here", [41])
            assert cursor.fetchone() == (42,)
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        statements = [row[0] for row in cursor.fetchall()]
    assert any("prepared_here" in text for text in statements), statements


def test_every_row_lock_names_the_rows_it_locks():
    """A bare ``select_for_update()`` locks a row of every table its query joins (a related
    object, or a default ordering by a related field): the tournament's row among them, which
    every table's writes check their foreign keys against. Each lock says ``of=``."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    apps = ("analysis", "broadcast", "clubs", "config", "operations", "publishing")
    apps += ("scoring", "tournaments")
    bare = []
    for app in apps:
        for path in sorted((root / app).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "select_for_update"
                    and not any(keyword.arg == "of" for keyword in node.keywords)
                ):
                    bare.append(f"{path.relative_to(root)}:{node.lineno}")
    assert bare == []
