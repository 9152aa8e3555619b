"""The standings object kept as PostgreSQL's ``json`` (its text as written), not ``jsonb``
(scoring.models.StoredStandingsField), compressed with lz4 where the server has it. Other
databases keep it as they did (text)."""

from django.db import migrations

TABLE = "scoring_standingsstate"


def to_json(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(
        f'ALTER TABLE "{TABLE}" ALTER COLUMN "standings" TYPE json USING "standings"::json'
    )
    # lz4 (PostgreSQL 14 and later, when built with it) compresses the 0.6 MB of a
    # 1,000-table round in a fraction of pglz's time; without it the default stays.
    schema_editor.execute(
        "DO $$ BEGIN IF current_setting('server_version_num')::int >= 140000 THEN "
        f'ALTER TABLE "{TABLE}" ALTER COLUMN "standings" SET COMPRESSION lz4; END IF; '
        "EXCEPTION WHEN OTHERS THEN NULL; END $$"
    )


def to_jsonb(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(
        f'ALTER TABLE "{TABLE}" ALTER COLUMN "standings" TYPE jsonb USING "standings"::jsonb'
    )


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0008_standings_stored_compact"),
    ]

    operations = [migrations.RunPython(to_json, to_jsonb, elidable=False)]
