"""The engine's command line: ``python -m engine COMMAND``. No Django, database or server.

| command | reads | writes |
|---|---|---|
| score [FILE] | board records, one JSON object a line | one board score a line |
| rank [FILE] | tournament results | standings |
| schedule --teams T --tables K [--sides fixed|balanced] | | schedule |
| check-schedule [FILE] | schedule | every broken rule, one a line |
| deal --tables K [--boards B] [--seed S] | | one deal a line per table and board |
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections.abc import Iterable, Iterator
from typing import IO, Any

from engine.cards import format_deal, generate_deals
from engine.records import RecordError
from engine.scoring import score_record


def _open_input(path: str | None) -> IO[str]:
    """UTF-8 text; undecodable bytes become U+FFFD so a bad line is reported, not fatal."""
    if path is None or path == "-":
        return io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    return open(path, encoding="utf-8", errors="replace")


def score_line(line: str) -> tuple[dict[str, Any], bool]:
    """Score one JSON line: ``(output object, ok)``. Never raises for bad input."""
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"error": f"not JSON: {exc.msg} at column {exc.colno}"}, False
    except RecursionError:
        return {"error": "not JSON: nested too deeply"}, False
    try:
        return score_record(record).as_dict(), True
    except RecordError as exc:
        return {"error": str(exc)}, False


def score_lines(lines: Iterable[str]) -> Iterator[tuple[dict[str, Any], bool]]:
    for line in lines:
        if line.strip():
            yield score_line(line)


def cmd_score(args: argparse.Namespace) -> int:
    bad = False
    with _open_input(args.file) as stream:
        out = sys.stdout
        for result, ok in score_lines(stream):
            bad = bad or not ok
            out.write(json.dumps(result, ensure_ascii=False) + "\n")
    return 1 if bad else 0


def cmd_deal(args: argparse.Namespace) -> int:
    if args.tables < 1 or args.boards < 1:
        print("error: --tables and --boards must be at least 1", file=sys.stderr)
        return 2
    for _table, _board, deal in generate_deals(args.tables, args.boards, args.seed):
        sys.stdout.write(format_deal(deal) + "\n")
    return 0


class InputError(ValueError):
    """A file that is not JSON the command can read."""


def _read_json(path: str | None) -> Any:
    with _open_input(path) as stream:
        text = stream.read()
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"not JSON: {exc.msg} at line {exc.lineno}") from None
    except RecursionError:
        raise InputError("not JSON this command reads: nested too deeply") from None
    except ValueError as exc:  # e.g. an integer with thousands of digits
        raise InputError(f"not JSON this command reads: {exc}") from None


def _write_json(data: Any) -> None:
    # One write of the whole text: json.dump's many small writes are slow on big schedules.
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")


def cmd_rank(args: argparse.Namespace) -> int:
    from engine.ranking import RankingInputError, rank_results

    try:
        standings = rank_results(_read_json(args.file))
    except (InputError, RankingInputError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    _write_json(standings)
    return 0


def cmd_schedule(args: argparse.Namespace) -> int:
    from engine.schedule import ScheduleError, generate_schedule

    try:
        schedule = generate_schedule(args.teams, args.tables, sides=args.sides)
    except ScheduleError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    _write_json(schedule)
    return 0


def cmd_check_schedule(args: argparse.Namespace) -> int:
    from engine.schedule import check_schedule

    try:
        data = _read_json(args.file)
    except InputError as exc:
        print(exc)
        return 1
    problems = check_schedule(data)
    for problem in problems:
        print(problem)
    return 1 if problems else 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)

    score = commands.add_parser("score", help="score board records (JSON lines)")
    score.add_argument("file", nargs="?", help="JSON lines file (default: standard input)")
    score.set_defaults(func=cmd_score)

    rank = commands.add_parser("rank", help="rank tournament results")
    rank.add_argument("file", nargs="?", help="tournament results JSON (default: standard input)")
    rank.set_defaults(func=cmd_rank)

    schedule = commands.add_parser("schedule", help="draw up a match schedule")
    schedule.add_argument("--teams", type=int, required=True)
    schedule.add_argument("--tables", type=int, required=True)
    schedule.add_argument("--sides", choices=("fixed", "balanced"), default="fixed")
    schedule.set_defaults(func=cmd_schedule)

    check = commands.add_parser("check-schedule", help="list every broken rule of a schedule")
    check.add_argument("file", nargs="?", help="schedule JSON (default: standard input)")
    check.set_defaults(func=cmd_check_schedule)

    deal = commands.add_parser("deal", help="deal the cards for every table and board")
    deal.add_argument("--tables", type=int, required=True)
    deal.add_argument("--boards", type=int, default=1)
    deal.add_argument("--seed", help="reproducible deals; without it, secure random")
    deal.set_defaults(func=cmd_deal)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:
        return 0
    except OSError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
