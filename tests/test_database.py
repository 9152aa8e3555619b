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
