"""The engine's command line: ``python -m engine COMMAND``. No Django, database or server.

Every command takes ``--game`` (GAMES.md); it defaults to the default game
(``engine.games.DEFAULT_GAME``), so the commands written before games had ids work as they
always have.

| command | reads | writes |
|---|---|---|
| score [--game G] [FILE] | board records, one JSON object a line | one board score a line |
| deal [--game G] --tables K [--boards B] [--players N] [--seed S] | | one deal a line |
| solve --game G [--opening SEAT] [FILE] | deals, one a line | each deal's double-dummy table |
| solve --bridge [FILE] | bridge deals in PBN, one a line | DDS's 20 numbers a line |
| sheet [--game G] [FILE] | a player's declarations, one JSON object a line | his sheet |
| rank [FILE] | tournament results (pairs, or players with a ``game``) | standings |
| schedule --teams T --tables K [--sides fixed|balanced] | | a schedule of pairs |
| schedule --game G --players P [--per-table n] [--rounds R] | | a movement of players |
| check-schedule [FILE] | a schedule or movement | every broken rule, one a line |
| propose --game G --entrants N [--tables K] [--draw KEY] | | the ways to seat N, or one drawn |
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

from engine.core.errors import RecordError
from engine.games import DEFAULT_GAME, GAME_IDS, PLAYERS, Game, UnknownGame, get_game


def _open_input(path: str | None) -> IO[str]:
    """UTF-8 text; undecodable bytes become U+FFFD so a bad line is reported, not fatal."""
    if path is None or path == "-":
        return io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    return open(path, encoding="utf-8", errors="replace")


def _json_line(line: str) -> tuple[Any, dict[str, str] | None]:
    """``(decoded, None)`` or ``(None, error object)`` for one input line."""
    try:
        return json.loads(line), None
    except json.JSONDecodeError as exc:
        return None, {"error": f"not JSON: {exc.msg} at column {exc.colno}"}
    except RecursionError:
        return None, {"error": "not JSON: nested too deeply"}
    except ValueError as exc:  # e.g. an integer with thousands of digits
        return None, {"error": f"not JSON this command reads: {exc}"}


def record_game(record: Any, chosen: str | None) -> Game:
    """The game that reads ``record``: ``--game`` when given (the record's own ``game`` must
    then match, which the game's reader checks), else the record's ``game``, else the default
    game."""
    if chosen is not None:
        return get_game(chosen)
    named = record.get("game") if isinstance(record, dict) else None
    if named is None:
        return get_game(DEFAULT_GAME)
    if not isinstance(named, str):
        raise RecordError("game", f"{named!r} is not a game id ({', '.join(GAME_IDS)})")
    try:
        return get_game(named)
    except UnknownGame as exc:
        raise RecordError("game", str(exc)) from None


def score_line(line: str, game: str | None = None) -> tuple[dict[str, Any], bool]:
    """Score one JSON line: ``(output object, ok)``. Never raises for bad input."""
    record, error = _json_line(line)
    if error is not None:
        return error, False
    try:
        return record_game(record, game).score(record), True
    except RecordError as exc:
        return {"error": str(exc)}, False


def score_lines(lines: Iterable[str], game: str | None = None) -> Iterator[tuple[dict, bool]]:
    for line in lines:
        if line.strip():
            yield score_line(line, game)


def _each_line(path: str | None, handle: Callable[[str], tuple[dict[str, Any], bool]]) -> int:
    bad = False
    with _open_input(path) as stream:
        out = sys.stdout
        for line in stream:
            if not line.strip():
                continue
            result, ok = handle(line)
            bad = bad or not ok
            out.write(json.dumps(result, ensure_ascii=False) + "\n")
    return 1 if bad else 0


def cmd_score(args: argparse.Namespace) -> int:
    return _each_line(args.file, lambda line: score_line(line, args.game))


def sheet_line(line: str, game: Game) -> tuple[dict[str, Any], bool]:
    data, error = _json_line(line)
    if error is not None:
        return error, False
    try:
        return game.sheet(data), True
    except RecordError as exc:
        return {"error": str(exc)}, False


def _first_game_with_a_sheet() -> str:
    """The ``sheet`` command's default: the first game that keeps a score sheet per player."""
    return next((game_id for game_id in GAME_IDS if get_game(game_id).sheet_size), DEFAULT_GAME)


def cmd_sheet(args: argparse.Namespace) -> int:
    game = get_game(args.game or _first_game_with_a_sheet())
    if not game.sheet_size:
        return _usage_error(f"{game.title} keeps no score sheet")
    return _each_line(args.file, lambda line: sheet_line(line, game))


def _usage_error(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def cmd_deal(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    players = args.players if args.players is not None else max(game.table_sizes)
    if players not in game.table_sizes:
        sizes = ", ".join(map(str, game.table_sizes))
        return _usage_error(f"--players: {game.title} is played by {sizes} players")
    boards = args.boards if args.boards is not None else game.default_boards(players)
    if args.tables < 1 or boards < 1:
        return _usage_error("--tables and --boards must be at least 1")
    for _table, _board, deal in game.generate_deals(args.tables, boards, players, args.seed):
        sys.stdout.write(game.format_deal(deal) + "\n")
    return 0


def cmd_solve(args: argparse.Namespace) -> int:
    from engine.core.errors import DealError
    from engine.solver import Solver

    solver = Solver()
    if args.bridge:
        from engine.solver.bridge import dd_table, parse_pbn

        def table(text: str) -> Any:
            return dd_table(parse_pbn(text), solver)

    else:
        module = get_game(args.game).solver_module
        if module is None:
            solved = ", ".join(g for g in GAME_IDS if get_game(g).solver_module)
            return _usage_error(f"no double-dummy analysis for {args.game} ({solved})")
        import importlib

        game_solver = importlib.import_module(module)
        analyse_text = game_solver.analyse_text
        try:
            options = game_solver.solve_options(
                opening=args.opening, direction=args.direction, ruleset=args.ruleset
            )
        except ValueError as exc:
            return _usage_error(str(exc))

        def table(text: str) -> Any:
            return analyse_text(text, solver=solver, **options)

    def solve_line(line: str) -> tuple[Any, bool]:
        try:
            return table(line.strip()), True
        except DealError as exc:
            return {"error": str(exc)}, False

    return _each_line(args.file, solve_line)


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


def _ranks_players(data: Any) -> bool:
    """Tournament results of a game whose entrants are single players."""
    if not isinstance(data, dict) or not isinstance(data.get("game"), str):
        return False
    try:
        return get_game(data["game"]).entrants == PLAYERS
    except UnknownGame:
        return False


def cmd_rank(args: argparse.Namespace) -> int:
    from engine.ranking import RankingInputError, rank_individuals, rank_results

    try:
        data = _read_json(args.file)
        standings = rank_individuals(data) if _ranks_players(data) else rank_results(data)
    except (InputError, RankingInputError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    _write_json(standings)
    return 0


def cmd_schedule(args: argparse.Namespace) -> int:
    from engine.schedule import ScheduleError

    game = get_game(args.game)
    draw_up = _movement if game.entrants == PLAYERS else _pairs_schedule
    try:
        schedule = draw_up(game, args)
    except ScheduleError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if isinstance(schedule, str):
        return _usage_error(schedule)
    _write_json(schedule)
    return 0


def _movement(game: Game, args: argparse.Namespace) -> dict[str, Any] | str:
    """A movement of ``--players``, or what is wrong with the options given."""
    from engine.schedule import generate_individual_schedule

    if args.players is None or args.teams is not None or args.tables is not None:
        return f"{game.title} seats players: give --players (not --teams)"
    per_table = args.per_table if args.per_table is not None else max(game.table_sizes)
    if per_table not in game.table_sizes:
        sizes = ", ".join(map(str, game.table_sizes))
        return f"--per-table: {game.title} is played by {sizes} players"
    return generate_individual_schedule(args.players, per_table, args.rounds)


def _pairs_schedule(game: Game, args: argparse.Namespace) -> dict[str, Any] | str:
    """A schedule of ``--teams`` pairs at ``--tables``, or what is wrong with the options."""
    from engine.schedule import generate_schedule

    if args.teams is None or args.tables is None:
        return f"{game.title} seats pairs: give --teams and --tables"
    if args.players is not None or args.per_table is not None or args.rounds is not None:
        return f"{game.title} seats pairs: --teams and --tables only"
    return generate_schedule(args.teams, args.tables, sides=args.sides)


def cmd_check_schedule(args: argparse.Namespace) -> int:
    from engine.schedule import check_individual_schedule, check_schedule

    try:
        data = _read_json(args.file)
    except InputError as exc:
        print(exc)
        return 1
    individual = isinstance(data, dict) and ("seatings" in data or "per_table" in data)
    problems = check_individual_schedule(data) if individual else check_schedule(data)
    for problem in problems:
        print(problem)
    return 1 if problems else 0


def cmd_propose(args: argparse.Namespace) -> int:
    from engine.schedule import ScheduleError
    from engine.schedule.proposals import draw, propose

    ranking = args.ranking or "duplicate"
    found = propose(args.game, args.entrants, args.tables, ranking)
    if args.draw is None:
        _write_json(found)
        return 1 if found["problem"] else 0
    if found["problem"]:
        return _usage_error(found["problem"])
    try:
        _write_json(draw(args.game, args.entrants, args.draw))
    except ScheduleError as exc:
        keys = ", ".join(p["key"] for p in found["proposals"])
        return _usage_error(f"{exc}; the proposals are {keys}")
    return 0


def _game_option(parser: argparse.ArgumentParser, default: str | None = DEFAULT_GAME) -> None:
    parser.add_argument(
        "--game", choices=GAME_IDS, default=default, help=f"the game (default: {default})"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)

    score = commands.add_parser("score", help="score board records (JSON lines)")
    score.add_argument(
        "--game",
        choices=GAME_IDS,
        help=f"the game of every record (default: each record's own game, else {DEFAULT_GAME})",
    )
    score.add_argument("file", nargs="?", help="JSON lines file (default: standard input)")
    score.set_defaults(func=cmd_score)

    sheet = commands.add_parser("sheet", help="a player's declarations -> his score sheet")
    sheet.add_argument(
        "--game", choices=GAME_IDS, help="the game (default: the first that keeps a sheet)"
    )
    sheet.add_argument("file", nargs="?", help="JSON lines file (default: standard input)")
    sheet.set_defaults(func=cmd_sheet)

    rank = commands.add_parser("rank", help="rank tournament results")
    rank.add_argument("file", nargs="?", help="tournament results JSON (default: standard input)")
    rank.set_defaults(func=cmd_rank)

    schedule = commands.add_parser("schedule", help="draw up a schedule or a movement")
    _game_option(schedule)
    schedule.add_argument("--teams", type=int, help="pairs (a game of pairs)")
    schedule.add_argument("--tables", type=int, help="tables (a game of pairs)")
    schedule.add_argument("--sides", choices=("fixed", "balanced"), default="fixed")
    schedule.add_argument("--players", type=int, help="players (games of individuals)")
    schedule.add_argument("--per-table", type=int, help="players at a table (default: the most)")
    schedule.add_argument("--rounds", type=int, help="rounds (default: see docs/movement.md)")
    schedule.set_defaults(func=cmd_schedule)

    check = commands.add_parser("check-schedule", help="list every broken rule of a schedule")
    check.add_argument("file", nargs="?", help="schedule JSON (default: standard input)")
    check.set_defaults(func=cmd_check_schedule)

    propose = commands.add_parser("propose", help="the ways to seat a field, best first")
    _game_option(propose)
    propose.add_argument("--entrants", type=int, required=True, help="pairs or players")
    propose.add_argument("--tables", type=int, help="the most tables the room has")
    propose.add_argument("--ranking", choices=("duplicate", "totals"), help="default duplicate")
    propose.add_argument("--draw", metavar="KEY", help="print the proposal KEY drawn up")
    propose.set_defaults(func=cmd_propose)

    deal = commands.add_parser("deal", help="deal the cards for every table and board")
    _game_option(deal)
    deal.add_argument("--tables", type=int, required=True)
    deal.add_argument("--boards", type=int, help="boards per table (default: the game's)")
    deal.add_argument("--players", type=int, help="players at a table (default: the most)")
    deal.add_argument("--seed", help="reproducible deals; without it, secure random")
    deal.set_defaults(func=cmd_deal)

    solve = commands.add_parser("solve", help="double-dummy tables of deals, one a line")
    which = solve.add_mutually_exclusive_group()
    which.add_argument("--game", choices=GAME_IDS, default=DEFAULT_GAME, help="the deals' game")
    which.add_argument("--bridge", action="store_true", help="bridge deals in PBN: DDS's table")
    solve.add_argument(
        "--opening",
        help="the seat that leads the first trick, for a game whose deal leaves it open (N)",
    )
    solve.add_argument("--direction", choices=("clockwise", "counterclockwise"))
    solve.add_argument(
        "--ruleset", help="the rules of play, for a game that has several (default: the game's own)"
    )
    solve.add_argument("file", nargs="?", help="deals, one a line (default: standard input)")
    solve.set_defaults(func=cmd_solve)
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
