"""Writes of publishing: settings, export jobs and their files, publication, chart data and
the clean-up of old files.

Exports are keyed by the standings' ``computed_version`` and ``results_version``, the
tournament's status, the kind and the format: the same key gives the same bytes (the writers
fix every timestamp to the standings' computation time), so a finished export with the key
is handed out again instead of being written twice. Files are named by their content hash
and kept in the ``exports`` storage (``publishing/storage.py``: a folder of this host, or the
database that every host reaches).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import tempfile
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.core.cache import cache
from django.core.files import File
from django.db import connection, transaction
from django.utils import timezone, translation
from django.utils.formats import number_format
from django.utils.translation import gettext, gettext_noop

from engine.ranking import team_sort_key
from publishing import conf, selectors
from publishing.charts import per_round, places_by_round, places_svg, spread_groups, spread_svg
from publishing.exports.csvzip import write_csv_zip
from publishing.exports.ods import write_ods
from publishing.exports.sheets import Progress
from publishing.exports.workbook import build_sheets
from publishing.exports.xlsx import write_xlsx
from publishing.models import ChartData, Export, HandRecords, PublishingSettings
from publishing.players import build_player_sheets
from publishing.storage import export_storage
from scoring import standings as scoring_standings
from scoring import visibility
from scoring.models import StandingsState
from scoring.selectors import (
    placed_with_groups,
    ranking_input,
    standings_bookkeeping,
    stored_standings,
)
from tournaments.action_log import write_task_log
from tournaments.models import Status, Tournament

log = logging.getLogger(__name__)

PENDING_KEY = "publishing-after-standings:{database}:{tournament}"
PENDING_TTL = 30  # seconds beyond the countdown; a lost message blocks new ones no longer
STARTED_KEY = "publishing-after-standings-started:{database}:{tournament}"
CHART_WAIT_STEP = 0.5  # seconds between looks while the standings are behind (_give_way)
PROGRESS_EVERY = 0.5  # seconds between progress writes
ORPHAN_AGE = timedelta(hours=1)  # files nobody refers to are removed after this


class PublishingError(ValueError):
    """A publishing request that cannot be done; the message says why."""


# --- settings ------------------------------------------------------------------------------


def _settings_data(found: PublishingSettings) -> dict[str, Any]:
    return {
        "auto_publish_standings": found.auto_publish_standings,
        "hand_records": found.hand_records,
    }


@transaction.atomic
def update_settings(
    *, by: Any, tournament: Tournament, auto_publish_standings: bool, hand_records: str
) -> PublishingSettings:
    if hand_records not in HandRecords.values:
        raise PublishingError(
            f"hand records must be one of {', '.join(HandRecords.values)}, not {hand_records!r}"
        )
    found, _ = PublishingSettings.objects.select_for_update(of=("self",)).get_or_create(
        tournament=tournament
    )
    before = _settings_data(found)
    found.auto_publish_standings = bool(auto_publish_standings)
    found.hand_records = hand_records
    found.save()
    after = _settings_data(found)
    if after != before:
        write_task_log(
            tournament, by, "publishing_settings", "Changed the publishing settings", before, after
        )
    if found.auto_publish_standings:
        tournament_id = tournament.pk
        transaction.on_commit(lambda: enqueue_after_standings(tournament_id))
    return found


# --- export jobs ---------------------------------------------------------------------------


def _check_choice(kind: str, fmt: str) -> None:
    if kind not in Export.Kind.values:
        choices = ", ".join(Export.Kind.values)
        raise PublishingError(f"unknown export kind {kind!r} (choose {choices})")
    if fmt not in Export.Format.values:
        raise PublishingError(
            f"unknown export format {fmt!r} (choose {', '.join(Export.Format.values)})"
        )


def _file_exists(export: Export) -> bool:
    return bool(export.file_path) and export_storage().exists(export.file_path)


def _same_export(tournament: Tournament, kind: str, fmt: str, key: dict[str, Any], states):
    for export in tournament.exports.filter(kind=kind, format=fmt, state__in=states, **key):
        if export.state != Export.State.DONE or _file_exists(export):
            return export
    return None


def request_export(
    *,
    tournament: Tournament,
    kind: str,
    fmt: str,
    by: Any = None,
    force: bool = False,
    enqueue: bool = True,
) -> tuple[Export, bool]:
    """An export of the tournament as it is now: ``(export, started)``.

    Unless ``force``, a finished export of the same state, kind and format (or one already
    queued or running) is returned and nothing new is started. A new export is queued once
    the caller's transaction commits.
    """
    _check_choice(kind, fmt)
    state = standings_bookkeeping(tournament)
    key = selectors.export_key(tournament, state)
    if not force:
        live = [Export.State.DONE, Export.State.QUEUED, Export.State.RUNNING]
        existing = _same_export(tournament, kind, fmt, key, live)
        if existing is not None:
            return existing, False
    export = Export.objects.create(
        tournament=tournament,
        kind=kind,
        format=fmt,
        requested_by=by if by is not None and getattr(by, "is_authenticated", False) else None,
        step=gettext_noop("Waiting for the worker"),
        **key,
    )
    if enqueue:
        export_id = export.pk
        transaction.on_commit(lambda: enqueue_export(export_id))
    return export, True


def enqueue_export(export_id: int) -> None:
    from publishing.tasks import run_export_task

    try:
        run_export_task.apply_async(args=[export_id], retry=True, retry_policy={"max_retries": 1})
    except Exception as exc:  # the broker's errors vary by transport
        log.exception("export %s could not be queued", export_id)
        Export.objects.filter(pk=export_id, state=Export.State.QUEUED).update(
            state=Export.State.FAILED,
            error=f"The export could not be handed to the worker: {exc}",
            finished_at=timezone.now(),
        )


class _Reporter:
    """Writes an export's progress to its row now and then (the page polls it)."""

    def __init__(self, export_id: int, low: int, high: int):
        self.export_id, self.low, self.high = export_id, low, high
        self._last = 0.0

    def __call__(self, fraction: float, step: str) -> None:
        now = time.monotonic()
        if now - self._last < PROGRESS_EVERY and fraction < 1:
            return
        self._last = now
        percent = self.low + round((self.high - self.low) * fraction)
        report_progress(self.export_id, percent, step)


def report_progress(export_id: int, percent: int, step: str) -> None:
    Export.objects.filter(pk=export_id).update(progress=min(100, percent), step=step[:200])


def _current_state(tournament: Tournament) -> StandingsState:
    """The stored standings, brought up to date first when results changed since."""
    state = standings_bookkeeping(tournament)
    if state.pk is None or state.computed_at is None or state.stale:
        scoring_standings.recompute(tournament.pk)
        state = stored_standings(tournament)
    return state


WRITERS: dict[str, Callable[..., int]] = {
    Export.Format.XLSX: lambda sheets, path, stamp, progress: write_xlsx(
        sheets, path, stamp, max_sheet_rows=conf.max_sheet_rows(), progress=progress
    ),
    Export.Format.ODS: lambda sheets, path, stamp, progress: write_ods(
        sheets, path, stamp, max_sheet_rows=conf.max_sheet_rows(), progress=progress
    ),
    Export.Format.CSV: lambda sheets, path, stamp, progress: write_csv_zip(
        sheets, path, stamp, progress=progress
    ),
}


def run_export(export_id: int) -> Export:
    """Write the export's file (the task's body). Never raises for a failed export: the row
    says ``failed`` with the reason."""
    export = Export.objects.select_related("tournament").get(pk=export_id)
    if export.state == Export.State.DONE:
        return export  # a re-delivered task
    Export.objects.filter(pk=export_id).update(
        state=Export.State.RUNNING, started_at=timezone.now(), error=""
    )
    try:
        # The file's sheets, headers and words are in the tournament's language.
        with translation.override(export.tournament.language):
            _write_export(export)
    except Exception as exc:
        log.exception("export %s failed", export_id)
        Export.objects.filter(pk=export_id).update(
            state=Export.State.FAILED,
            error=f"{type(exc).__name__}: {exc}"[:2000],
            finished_at=timezone.now(),
        )
    else:
        cleanup_exports(export.tournament)
    export.refresh_from_db()
    return export


def _write_export(export: Export) -> None:
    tournament = export.tournament
    report_progress(export.pk, 2, gettext_noop("Bringing the standings up to date"))
    state = _current_state(tournament)
    report_progress(export.pk, 5, gettext_noop("Computing the places after every round"))
    chart = refresh_chart_data(tournament, state)
    key = selectors.export_key(tournament, state)
    # Read with the results: the label of the file says what it holds.
    holds = selectors.results_held(selectors.round_progress(tournament))
    twin = _same_export(tournament, export.kind, export.format, key, [Export.State.DONE])
    if twin is not None and twin.pk != export.pk:
        _finish(export, key, twin.file_path, twin.content_hash, twin.size, twin.rows, holds)
        return
    report_progress(export.pk, 8, gettext_noop("Reading the results"))
    if tournament.of_players:
        sheets, stamp = (
            build_player_sheets(tournament, state, export.kind),
            selectors.stamp(tournament, state),
        )
    else:
        data = selectors.workbook_data(tournament, state, chart, conf.chart_lines())
        sheets, stamp = build_sheets(data, export.kind), data.stamp
    total = sum(sheet.row_count for sheet in sheets)
    progress = Progress(total, _Reporter(export.pk, 10, 95))
    with tempfile.TemporaryDirectory(prefix="pym-export-") as work:
        partial = Path(work) / f"export.{export.extension}"
        rows = WRITERS[export.format](sheets, partial, stamp, progress)
        report_progress(export.pk, 97, gettext_noop("Storing the file"))
        digest = _sha256(partial)
        name = (
            f"{tournament.pk}/{export.kind}-v{key['computed_version']}-"
            f"r{key['results_version']}-{digest[:16]}.{export.extension}"
        )
        size = partial.stat().st_size
        storage = export_storage()
        if not storage.exists(name):  # the same name holds the same bytes
            with open(partial, "rb") as written:
                name = storage.save(name, File(written))
    _finish(export, key, name, digest, size, rows, holds)


def _finish(export: Export, key, file_path: str, digest: str, size, rows, holds: str) -> None:
    Export.objects.filter(pk=export.pk).update(
        holds=holds[:200],
        state=Export.State.DONE,
        progress=100,
        step=gettext_noop("Ready"),
        file_path=file_path,
        content_hash=digest,
        size=size,
        rows=rows,
        finished_at=timezone.now(),
        **key,
    )


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as source:
        for chunk in iter(lambda: source.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def open_export(export: Export) -> File | None:
    """The export's file, open for reading from the storage, if it is finished and still
    there."""
    if export.state != Export.State.DONE or not export.file_path:
        return None
    try:
        return export_storage().open(export.file_path, "rb")
    except FileNotFoundError:
        return None


def export_path(export: Export) -> Path | None:
    """The export's file on this host's disk, if it is finished and still there: only for a
    storage that keeps files in a folder (``open_export`` reads from any storage)."""
    if export.state != Export.State.DONE or not _file_exists(export):
        return None
    return Path(export_storage().path(export.file_path))


# --- publication ---------------------------------------------------------------------------


@transaction.atomic
def publish_export(*, export: Export, by: Any, published: bool = True) -> Export:
    """Offer a finished export on the public downloads page (or withdraw it)."""
    export = (
        Export.objects.select_for_update(of=("self",))
        .select_related("tournament")
        .get(pk=export.pk)
    )
    if published and export.state != Export.State.DONE:
        raise PublishingError(gettext("only a finished export can be published"))
    tournament = export.tournament
    if published and export.kind == Export.Kind.RESULTS:
        release = selectors.hand_record_release(
            tournament, selectors.publishing_settings(tournament)
        )
        if not release.everything:
            raise PublishingError(
                "the full results workbook holds every deal: publish it once every hand record "
                "is public (see the hand records setting), or publish the standings workbook"
            )
    if export.published == published:
        return export
    export.published = published
    export.published_at = timezone.now() if published else None
    export.save(update_fields=["published", "published_at"])
    verb = "Published" if published else "Withdrew"
    write_task_log(
        tournament,
        by,
        "publish_export",
        f"{verb} the {export.get_kind_display().lower()} ({export.format})",
        None,
        {"export": export.pk, "published": published},
    )
    return export


def auto_publish_standings(tournament: Tournament) -> str:
    """After a round is complete (or the standings are final), write the standings workbook
    and publish it, once per round. Returns what it did."""
    found = selectors.publishing_settings(tournament)
    if not found.auto_publish_standings:
        return "off"
    state = standings_bookkeeping(tournament)
    if state.computed_at is None or state.stale:
        return "standings not current"
    final = tournament.status == Status.FINAL
    round_number = selectors.round_progress(tournament).last_complete_round
    if round_number == 0 and not final:
        return "no complete round"
    done = tournament.exports.filter(
        kind=Export.Kind.STANDINGS,
        published=True,
        after_round=round_number,
        tournament_status=tournament.status,
    )
    if done.exists():
        return "already published"
    return _publish_standings_workbook(tournament, round_number, final)


def _publish_standings_workbook(tournament: Tournament, round_number: int, final: bool) -> str:
    """Write the standings workbook now and publish it after ``round_number``, logged;
    "published", or "failed" when the export did not finish."""
    export, _started = request_export(
        tournament=tournament, kind=Export.Kind.STANDINGS, fmt=Export.Format.XLSX, enqueue=False
    )
    if export.state != Export.State.DONE:
        export = run_export(export.pk)
    if export.state != Export.State.DONE:
        return "failed"
    Export.objects.filter(pk=export.pk).update(
        published=True, published_at=timezone.now(), after_round=round_number
    )
    export.refresh_from_db()
    what = "final standings" if final else f"standings ({export.holds})"
    write_task_log(
        tournament,
        None,
        "auto_publish",
        f"Published the {what} workbook",
        None,
        {"export": export.pk, "round": round_number},
    )
    return "published"


# --- charts --------------------------------------------------------------------------------


def _chart_standings(
    tournament: Tournament, state: StandingsState
) -> tuple[list[str], list[dict[str, Any]]] | None:
    """What the charts take from the stored standings ``state`` stands for: the placed teams
    in standings order, and the groups. None if newer standings were stored since.

    A state loaded without its standings (the chart task) does not load them: in a big
    tournament they are megabytes, nearly all the teams' tables. The groups are read alone,
    and the order from the standings rows (the engine's: points, then the natural order of
    the team ids), checked to be of the same computation."""
    if "standings" not in state.get_deferred_fields():
        standings = state.standings or {}
        rows = standings.get("standings", [])
        leaders = [
            str(row["team"] if "team" in row else row["player"])
            for row in rows
            if row.get("status") == "ok"
        ]
        return leaders, standings.get("groups", [])
    placed = placed_with_groups(tournament, state)
    if placed is None:  # newer standings were stored since
        return None
    rows, groups = placed
    rows.sort(key=lambda row: (row[1], team_sort_key(str(row[0]))))
    return [str(entrant) for entrant, _points in rows], groups


def refresh_chart_data(tournament: Tournament, state: StandingsState) -> ChartData:
    """The chart series for these standings, recomputed only where results changed. Charts
    are drawn from complete tables only (``scoring.visibility.complete_tables``); the places
    after every round are charted for games of pairs. ``ChartData.tables`` keeps the complete
    tables the charts were drawn from: the page checks them against the tables complete now."""
    chart, _ = ChartData.objects.get_or_create(tournament=tournament)
    complete = sorted(visibility.complete_tables(tournament))
    with translation.override(tournament.language):
        # Drawn once and stored: the drawings' words are in the tournament's language.
        return _refresh_chart_data(tournament, state, chart, complete)


def _refresh_chart_data(
    tournament: Tournament, state: StandingsState, chart: ChartData, complete: list[int]
) -> ChartData:
    if _chart_current(tournament, state, chart, complete):
        return chart
    found = _chart_standings(tournament, state)
    if found is None:
        return chart  # the newer standings queued a refresh of their own
    leaders, groups = found
    if tournament.of_players:
        chart.rounds, chart.places, chart.round_digests, chart.note = [], {}, {}, ""
    else:
        _refresh_places(tournament, chart, complete)
    labels = {
        str(entrant.pk): f"{entrant.number}. {selectors.clean_text(entrant.name)}"
        for entrant in tournament.entrants.all()
    }
    lines = conf.chart_lines()
    shown = leaders if len(leaders) <= lines else leaders[:lines]
    chart.places_svg = places_svg(chart.rounds, chart.places, labels, shown, gettext)
    chart.spread = spread_groups({"groups": groups}, complete)
    chart.spread_svg = spread_svg(chart.spread, gettext)
    chart.tables = complete
    chart.language = tournament.language
    chart.computed_version = state.computed_version
    chart.results_version = state.results_version
    chart.computed_at = timezone.now()
    chart.save()
    return chart


def _chart_current(
    tournament: Tournament, state: StandingsState, chart: ChartData, complete: list[int]
) -> bool:
    """Whether the stored charts were drawn from these standings and results, for these
    complete tables, in the tournament's language."""
    return (
        chart.computed_at is not None
        and chart.computed_version == state.computed_version
        and chart.results_version == state.results_version
        and chart.tables == complete
        and chart.language == tournament.language
    )


def _refresh_places(tournament: Tournament, chart: ChartData, complete: list[int]) -> None:
    """The places after every round (a game of pairs), the rounds unchanged reused; too many
    match entries to rank once per round: none, and a note that says why."""
    data = ranking_input(tournament)
    if len(data["matches"]) > conf.places_max_matches():
        chart.rounds, chart.places, chart.round_digests = [], {}, {}
        chart.note = gettext(
            "(not computed: %(entries)s match entries is more than the %(most)s ranked "
            "once per round)"
        ) % {
            "entries": number_format(len(data["matches"]), force_grouping=True),
            "most": number_format(conf.places_max_matches(), force_grouping=True),
        }
        return
    series = places_by_round(
        data, chart.round_digests, per_round(chart.rounds, chart.places), complete=complete
    )
    chart.rounds, chart.places, chart.round_digests = series.rounds, series.places, series.digests
    chart.note = series.note_in(gettext)


# --- after the standings change ------------------------------------------------------------


def _pending_key(tournament_id: int) -> str:
    return PENDING_KEY.format(database=connection.settings_dict["NAME"], tournament=tournament_id)


def _started_key(tournament_id: int) -> str:
    return STARTED_KEY.format(database=connection.settings_dict["NAME"], tournament=tournament_id)


def enqueue_after_standings(tournament_id: int) -> None:
    """Queue the chart refresh and the automatic publication, once for a burst of changes:
    at once after a quiet spell, else when ``PUBLISHING_CHART_DEBOUNCE_SECONDS`` have passed
    since the last one started; standings stored until it starts queue nothing more (it
    reads the latest). So under a stream of confirmations it runs every few seconds, not
    after every standings update. A task waits for its countdown in the worker, unacked, and
    a broker outage then can stop the worker (kombu's Redis transport fails to restore it):
    only a stream's tasks wait, not the one after a quiet spell. Errors are logged, never
    raised: they must not undo the caller's work."""
    from publishing.tasks import after_standings_task

    countdown = 0.0
    try:
        started = cache.get(_started_key(tournament_id))
        if started is not None:
            countdown = max(0.0, started + conf.chart_debounce_seconds() - time.time())
        if not cache.add(_pending_key(tournament_id), 1, PENDING_TTL + countdown):
            return
    except Exception:  # the cache only saves work; queue anyway
        pass
    try:
        after_standings_task.apply_async(
            args=[tournament_id],
            countdown=countdown,
            retry=True,
            retry_policy={"max_retries": 1},
        )
    except Exception:
        with contextlib.suppress(Exception):
            cache.delete(_pending_key(tournament_id))
        log.exception("publishing update of tournament %s failed or was not queued", tournament_id)


def after_standings_stored(tournament_id: int, *, waiting_since: float | None = None) -> str:
    if _give_way(tournament_id, waiting_since):
        return "deferred"
    with contextlib.suppress(Exception):
        cache.delete(_pending_key(tournament_id))
    interval = conf.chart_debounce_seconds()
    if interval > 0:
        with contextlib.suppress(Exception):
            cache.set(_started_key(tournament_id), time.time(), interval + 1)
    with scoring_standings.collector_paused():  # see there: the same many small objects
        return _after_standings_stored(tournament_id)


def _give_way(tournament_id: int, waiting_since: float | None) -> bool:
    """Whether the task gives way to the standings task, to look again ``CHART_WAIT_STEP``
    later. While the standings are behind their results a recompute is due, and the chart
    would be of standings about to be replaced, while it competes with that recompute for
    the worker's processes and the cores (1-2 s against a recompute of 0.3-0.7 s, at 1,000
    tables). It keeps the pending mark meanwhile (standings stored meanwhile queue nothing
    more: it reads the latest), and waits ``chart_debounce_seconds`` at most in all: under a
    stream of results the standings are nearly always behind, and the chart still follows
    them. Never with eager tasks (no worker, nothing to give way to)."""
    from publishing.tasks import after_standings_task

    if after_standings_task.app.conf.task_always_eager:
        return False
    since = time.time() if waiting_since is None else waiting_since
    wait_left = since + conf.chart_debounce_seconds() - time.time()
    if wait_left <= 0 or not scoring_standings.is_stale(tournament_id):
        return False
    with contextlib.suppress(Exception):
        cache.set(_pending_key(tournament_id), 1, PENDING_TTL + CHART_WAIT_STEP)
    try:
        after_standings_task.apply_async(
            args=[tournament_id],
            kwargs={"waiting_since": since},
            countdown=min(CHART_WAIT_STEP, wait_left),
            retry=True,
            retry_policy={"max_retries": 1},
        )
    except Exception:  # not queued again: run now rather than not at all
        return False
    return True


def _after_standings_stored(tournament_id: int) -> str:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return "gone"
    state = standings_bookkeeping(tournament)
    if state.computed_at is None:
        return "no standings"
    refresh_chart_data(tournament, state)
    return auto_publish_standings(tournament)


# --- clean-up ------------------------------------------------------------------------------


def _kept_ids(tournament: Tournament) -> set[int]:
    """The newest finished exports, the latest published one of each kind and format, and
    jobs still under way."""
    keep = conf.exports_kept()
    kept: set[int] = set()
    done = list(tournament.exports.filter(state=Export.State.DONE).values_list("pk", flat=True))
    kept.update(done[:keep])
    kept.update(export.pk for export in selectors.published_exports(tournament))
    recent_failures = tournament.exports.filter(state=Export.State.FAILED).values_list(
        "pk", flat=True
    )[:keep]
    kept.update(recent_failures)
    kept.update(
        tournament.exports.filter(
            state__in=[Export.State.QUEUED, Export.State.RUNNING]
        ).values_list("pk", flat=True)
    )
    return kept


def _expire_lost_jobs(tournament: Tournament) -> None:
    cutoff = timezone.now() - timedelta(seconds=conf.export_timeout_seconds())
    tournament.exports.filter(
        state__in=[Export.State.QUEUED, Export.State.RUNNING], created_at__lt=cutoff
    ).update(
        state=Export.State.FAILED,
        error="The worker did not finish this export in time; start it again.",
        finished_at=timezone.now(),
    )


def cleanup_exports(tournament: Tournament) -> int:
    """Remove the tournament's old exports and their files (a file two exports share stays
    while one of them is kept); returns how many files were removed."""
    _expire_lost_jobs(tournament)
    old = tournament.exports.exclude(pk__in=_kept_ids(tournament))
    old_files = set(old.exclude(file_path="").values_list("file_path", flat=True))
    old.delete()
    still = set(tournament.exports.exclude(file_path="").values_list("file_path", flat=True))
    storage = export_storage()
    for name in old_files - still:
        storage.delete(name)
    return len(old_files - still)


def _sweep_folder(storage, folder: str, referenced: set[str]) -> int:
    """Remove files of the folder no export refers to, once they are old enough not to be
    one a worker has just written and not yet recorded."""
    removed = 0
    cutoff = timezone.now() - ORPHAN_AGE
    for name in storage.listdir(folder)[1]:
        path = f"{folder}/{name}"
        if name not in referenced and storage.get_modified_time(path) < cutoff:
            storage.delete(path)
            removed += 1
    return removed


def cleanup_all() -> int:
    """Every tournament's clean-up, then files and folders that no export refers to (left by
    a crash, or by a deleted tournament); returns how many files were removed."""
    removed = 0
    for tournament in Tournament.objects.filter(exports__isnull=False).distinct():
        removed += cleanup_exports(tournament)
    storage = export_storage()
    try:
        folders = storage.listdir("")[0]
    except FileNotFoundError:  # no export was ever written to this folder
        return removed
    referenced: dict[str, set[str]] = {}
    for path in Export.objects.exclude(file_path="").values_list("file_path", flat=True):
        folder, _, name = path.partition("/")
        referenced.setdefault(folder, set()).add(name)
    existing = {str(pk) for pk in Tournament.objects.values_list("pk", flat=True)}
    for folder in folders:
        removed += _sweep_folder(storage, folder, referenced.get(folder, set()))
        if folder not in existing and hasattr(storage, "remove_folder"):
            storage.remove_folder(folder)
    return removed
