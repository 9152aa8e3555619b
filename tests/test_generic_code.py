"""No game is named in generic code: not in its code, nor in a comment, a docstring or a
command's help. Generic code is every module, template and shared static file of the product
outside a game's own package (``engine/games/<id>/``); a game's name or id there is a sign that
the code knows a game instead of asking it. The default game is named once, where a default
must exist (``engine.games.DEFAULT_GAME``).

The product's older technical names (an environment variable, the backup format, a database's
and the worker's name, the demo's seeds) hold ``pymtheg`` in lower case as a product's name, not
a game's; they are listed in ``PRODUCT_NAMES``.
"""

from __future__ import annotations

import re
from pathlib import Path

from engine.games import GAME_IDS, get_game

ROOT = Path(__file__).resolve().parent.parent

#: The product's packages and scripts (bench/ and tests/ are not the product).
PACKAGES = (
    "analysis",
    "broadcast",
    "clubs",
    "config",
    "engine",
    "operations",
    "publishing",
    "scoring",
    "scripts",
    "tournaments",
)
SUFFIXES = {".py", ".html", ".js", ".css", ".txt"}

#: The one place the default game is named.
DEFAULT_GAME_LINE = ("engine/games/__init__.py", 'DEFAULT_GAME = "pymtheg"')

#: Technical names that hold the product's former name in lower case.
PRODUCT_NAMES = (
    "pymtheg-tournament-backup",
    "PYMTHEG_VAR_DIR",
    "pymtheg-demo",
    "pymtheg-demo-play",
    "pymtheg-demo-club",
    "127.0.0.1:5432/pymtheg",
    "host:5432/pymtheg",
    "dev-only-key-pymtheg-not-for-production-use",
    'Celery("pymtheg")',
    '"CACHE_KEY_PREFIX", "pymtheg"',
)


def game_words() -> re.Pattern[str]:
    """A game's title as it writes itself, or its id as code names it (quoted, a module, a
    folder)."""
    titles = {get_game(game_id).title for game_id in GAME_IDS}
    words = [rf"\b{re.escape(title)}\b" for title in sorted(titles)]
    for game_id in GAME_IDS:
        words.append(rf"""["']{game_id}["']""")
        words.append(rf"\bgames[./]{game_id}\b")
        words.append(rf"--game {game_id}\b")
        words.append(rf"\(default {game_id}\)")
    return re.compile("|".join(words))


def generic_files() -> list[Path]:
    games = {ROOT / "engine" / "games" / game_id for game_id in GAME_IDS}
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*")):
            if path.suffix not in SUFFIXES or not path.is_file():
                continue
            if "migrations" in path.parts or "__pycache__" in path.parts:
                continue
            if any(game in path.parents for game in games):
                continue
            found.append(path)
    found += sorted((ROOT / "templates").rglob("*.html")) + sorted(
        path for path in (ROOT / "static").rglob("*") if path.suffix in SUFFIXES
    )
    found.append(ROOT / "manage.py")
    return found


def lines_naming_a_game(path: Path) -> list[str]:
    pattern = game_words()
    relative = path.relative_to(ROOT).as_posix()
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if (relative, line.strip()) == DEFAULT_GAME_LINE:
            continue
        cleaned = line
        for name in PRODUCT_NAMES:
            cleaned = cleaned.replace(name, "")
        if pattern.search(cleaned):
            found.append(f"{relative}:{number}: {line.strip()}")
    return found


def test_the_search_finds_a_game_where_one_is_named():
    pattern = game_words()
    for game_id in GAME_IDS:
        title = get_game(game_id).title
        assert pattern.search(f"# e.g. {title}'s rules")
        assert pattern.search(f'game = "{game_id}"')
        assert pattern.search(f"from engine.games.{game_id} import cards")
    assert not pattern.search("PYMTHEG_VAR_DIR") and not pattern.search("twenty tables")
    assert len(generic_files()) > 100


def test_no_generic_file_names_a_game():
    named = {}
    for path in generic_files():
        lines = lines_naming_a_game(path)
        relative = path.relative_to(ROOT).as_posix()
        if lines:
            named[relative] = lines
    assert not named, "\n".join(line for lines in named.values() for line in lines)


def test_the_sheet_command_defaults_to_a_game_that_keeps_one():
    from engine.__main__ import _first_game_with_a_sheet, build_parser

    assert build_parser().parse_args(["sheet"]).game is None
    assert get_game(_first_game_with_a_sheet()).sheet_size > 0
