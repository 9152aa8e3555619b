"""The translation catalogues (locale/<language>/LC_MESSAGES/*.po) without GNU gettext.

The product's compiled catalogues (.mo) are committed beside their .po files, so a fresh clone
runs in every language with nothing to install; this script, Python's standard library only,
writes them and checks them:

    python scripts/catalogues.py            # compile every .po of locale/ to its .mo
    python scripts/catalogues.py --check    # fail if a .mo is not its .po compiled
    python scripts/catalogues.py --missing  # list the marked messages the catalogues lack

It reads what Django's ``makemessages`` would find (which needs GNU gettext): ``{% translate
"…" %}`` and ``{% blocktranslate trimmed %}…{% endblocktranslate %}`` in the templates,
``gettext("…")`` and the scripts' own ``tr("…")``/``trf("…", values)`` (domain
``djangojs``), ``_("…")``/``gettext("…")`` and
their lazy and plural forms in Python. Entries are compiled as ``msgfmt`` does: fuzzy and
untranslated ones are left out, the header kept.
"""

from __future__ import annotations

import ast
import re
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
TEMPLATE_DIRS = ("templates",)
SCRIPT_DIRS = ("static", "engine/games")
PYTHON_DIRS = (
    "config",
    "tournaments",
    "scoring",
    "analysis",
    "publishing",
    "broadcast",
    "engine",
    "clubs",
)
# ``words``: the engine's marker (engine/core/messages.py), translated by the web layer.
PYTHON_MARKERS = {
    "_",
    "gettext",
    "gettext_lazy",
    "ngettext",
    "ngettext_lazy",
    "gettext_noop",
    "words",
    # ``tr``: the translate function handed to the pure drawing code (publishing/charts.py).
    "tr",
}


@dataclass
class Entry:
    """One message of a .po file."""

    msgid: str
    msgstr: list[str] = field(default_factory=list)
    msgid_plural: str | None = None
    msgctxt: str | None = None
    flags: set[str] = field(default_factory=set)

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags

    @property
    def translated(self) -> bool:
        return bool(self.msgstr) and all(self.msgstr)

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.msgctxt, self.msgid)


def _unquote(text: str) -> str:
    return ast.literal_eval(text)


def read_po(path: Path) -> list[Entry]:
    """The entries of a .po file (the header is the one whose msgid is empty)."""
    entries: list[Entry] = []
    current: Entry | None = None
    flags: set[str] = set()
    target: tuple[str, int] | None = None
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line.startswith("#,"):
            flags |= {flag.strip() for flag in line[2:].split(",")}
        elif not line or line.startswith("#"):
            continue
        elif line.startswith("msgctxt "):
            current = Entry("", msgctxt=_unquote(line[8:]), flags=flags)
            entries.append(current)
            flags, target = set(), ("msgctxt", 0)
        elif line.startswith("msgid "):
            if current is None or current.msgid or target != ("msgctxt", 0):
                current = Entry("", flags=flags)
                entries.append(current)
                flags = set()
            current.msgid, target = _unquote(line[6:]), ("msgid", 0)
        elif line.startswith("msgid_plural "):
            assert current is not None, path
            current.msgid_plural, target = _unquote(line[13:]), ("msgid_plural", 0)
        elif line.startswith("msgstr"):
            assert current is not None, path
            match = re.match(r"msgstr(?:\[(\d+)\])?\s+(.*)", line)
            assert match, (path, line)
            index = int(match.group(1) or 0)
            current.msgstr.append(_unquote(match.group(2)))
            target = ("msgstr", index)
        elif line.startswith('"'):
            assert current is not None and target is not None, (path, line)
            _continue(current, target, _unquote(line))
    return entries


def _continue(entry: Entry, target: tuple[str, int], text: str) -> None:
    name, index = target
    if name == "msgstr":
        entry.msgstr[index] += text
    elif name == "msgid_plural":
        entry.msgid_plural = (entry.msgid_plural or "") + text
    elif name == "msgctxt":
        entry.msgctxt = (entry.msgctxt or "") + text
    else:
        entry.msgid += text


def compile_mo(entries: list[Entry]) -> bytes:
    """The .mo file of ``entries``, as ``msgfmt`` writes it (no hash table): the header and
    every translated entry that is not fuzzy, sorted by key."""
    pairs: dict[bytes, bytes] = {}
    for entry in entries:
        if entry.msgid and (entry.fuzzy or not entry.translated):
            continue
        original = entry.msgid
        if entry.msgid_plural is not None:
            original += "\0" + entry.msgid_plural
        if entry.msgctxt is not None:
            original = entry.msgctxt + "\x04" + original
        pairs[original.encode()] = "\0".join(entry.msgstr).encode()
    keys = sorted(pairs)
    count = len(keys)
    originals_at = 7 * 4
    translations_at = originals_at + count * 8
    data_at = translations_at + count * 8
    tables: list[int] = []
    data = b""
    for text in keys:
        tables += [len(text), data_at + len(data)]
        data += text + b"\0"
    for text in keys:
        tables += [len(pairs[text]), data_at + len(data)]
        data += pairs[text] + b"\0"
    header = struct.pack("<7I", 0x950412DE, 0, count, originals_at, translations_at, 0, 0)
    return header + struct.pack(f"<{len(tables)}I", *tables) + data


def catalogues() -> list[Path]:
    """Every .po file of locale/."""
    return sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))


def compile_all(check: bool = False) -> list[Path]:
    """Writes every .mo (or, with ``check``, lists those that differ from their .po)."""
    differing = []
    for po in catalogues():
        mo = po.with_suffix(".mo")
        compiled = compile_mo(read_po(po))
        if mo.exists() and mo.read_bytes() == compiled:
            continue
        differing.append(mo)
        if not check:
            mo.write_bytes(compiled)
    return differing


# --- the marked messages of the product's files --------------------------------------------

_TRANSLATE = re.compile(r"""{%\s*(?:translate|trans)\s+(?:"([^"]*)"|'([^']*)')""")
_BLOCK = re.compile(
    r"{%\s*blocktrans(?:late)?(?P<options>[^%]*)%}(?P<body>.*?){%\s*endblocktrans", re.S
)
_PLURAL = re.compile(r"{%\s*plural\s*%}")
_VARIABLE = re.compile(r"{{\s*(\w+)\s*}}")
_JS_CALL = re.compile(
    r"""\b(?:gettext|ngettext|tr|trf|N_)\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')"""
    r"""(?:\s*,\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'))?"""
)


def _block_text(text: str, trimmed: bool) -> str:
    text = _VARIABLE.sub(lambda m: f"%({m.group(1)})s", text)
    if trimmed:
        text = " ".join(line.strip() for line in text.strip().splitlines() if line.strip())
    return text


def template_messages(text: str) -> set[str]:
    """The msgids of one template. A literal ``%`` of ``{% translate %}`` is looked up doubled,
    as Django's template engine looks it up (``%%``, given back as ``%``)."""
    found = {(a or b).replace("%", "%%") for a, b in _TRANSLATE.findall(text)}
    for match in _BLOCK.finditer(text):
        trimmed = "trimmed" in match.group("options")
        # A plural block is one message, listed by its singular (its plural is msgid_plural).
        found.add(_block_text(_PLURAL.split(match.group("body"))[0], trimmed))
    return found


def script_messages(text: str) -> set[str]:
    """The msgids of one script (plural forms by their singular and plural)."""
    found = set()
    for groups in _JS_CALL.findall(text):
        singular, plural = groups[0] or groups[1], groups[2] or groups[3]
        for message in (singular, plural):
            if message:
                found.add(message.encode().decode("unicode_escape") if "\\" in message else message)
    return found


def python_messages(text: str) -> set[str]:
    """The msgids of one Python module."""
    found = set()
    for node in ast.walk(ast.parse(text)):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        if name not in PYTHON_MARKERS:
            continue
        for argument in node.args[: 2 if name.startswith("ngettext") else 1]:
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                found.add(argument.value)
    return found


def marked_messages() -> dict[str, set[str]]:
    """Every marked message of the product, by catalogue domain (django, djangojs)."""
    django: set[str] = set()
    javascript: set[str] = set()
    for folder in TEMPLATE_DIRS:
        for path in (ROOT / folder).rglob("*.html"):
            django |= template_messages(path.read_text(encoding="utf-8"))
    for folder in SCRIPT_DIRS:
        for path in (ROOT / folder).rglob("*.js"):
            javascript |= script_messages(path.read_text(encoding="utf-8"))
    for folder in PYTHON_DIRS:
        for path in (ROOT / folder).rglob("*.py"):
            if "migrations" not in path.parts:
                django |= python_messages(path.read_text(encoding="utf-8"))
    return {"django": django, "djangojs": javascript}


def missing(language: str = "fr") -> dict[str, list[str]]:
    """The marked messages that the language's catalogues do not list."""
    result = {}
    for domain, messages in marked_messages().items():
        po = LOCALE / language / "LC_MESSAGES" / f"{domain}.po"
        entries = read_po(po) if po.exists() else []
        # A plural's two forms (ngettext's two arguments) are one entry.
        listed = {entry.msgid for entry in entries} | {
            entry.msgid_plural for entry in entries if entry.msgid_plural
        }
        result[domain] = sorted(messages - listed)
    return result


def main(argv: list[str]) -> int:
    if "--missing" in argv:
        absent = missing()
        for domain, messages in absent.items():
            for message in messages:
                print(f"{domain}: {message!r}")
        return 1 if any(absent.values()) else 0
    differing = compile_all(check="--check" in argv)
    for mo in differing:
        print(f"{'differs from its .po' if '--check' in argv else 'written'}: {mo}")
    return 1 if differing and "--check" in argv else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
