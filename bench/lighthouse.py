"""Lighthouse (Google's audit of a page: performance, accessibility, best practices) on the
pages the demo prints, for each game: the scorer's phones (North, East) as a phone sees them,
the public pages, and the organiser's and director's pages (signed in) as a desktop sees them.
Prints each page's scores, its cumulative layout shift (the scorer pages' aim: < 0.1) and the
accessibility audits that fail. Figures only.

Run: .venv/bin/python bench/lighthouse.py [--game G ...] [--json FILE]

Lighthouse comes from the npm registry into bench/.lighthouse/ on first use (version pinned
below: 12.x is the last line that runs on Node.js 20); it drives Debian's Chromium
(/usr/bin/chromium, or CHROME_PATH). Each game's demo is built in a throw-away SQLite database
and served by the development server on a free port, so var/ is left alone.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOME = ROOT / "bench" / ".lighthouse"
LIGHTHOUSE = HOME / "node_modules" / ".bin" / "lighthouse"
VERSION = "12.8.2"
SCORES = ("performance", "accessibility", "best-practices")
CATEGORIES = ",".join(SCORES)
# The demo's printed labels: which are phones (mobile emulation) and which need signing in.
PHONE_PAGES = (
    "North scorer",
    "East scorer",
    "Public standings",
    "Season's ladder",
    "Player's page",
)
SIGNED_IN_PAGES = ("Director's dashboard", "Exports and publishing", "Club's members")
SIGN_IN = "Organiser sign-in"
ADDRESS = re.compile(r"^\s+(?P<label>[^:]+?)(?: \([^)]*\))?:\s+(?P<url>http://\S+)$")
PASSWORD = re.compile(r"with the password (\S+)")


@dataclass
class Demo:
    process: subprocess.Popen
    base: str
    addresses: dict[str, str]
    password: str


def ensure_lighthouse() -> Path:
    if not LIGHTHOUSE.exists():
        npm = shutil.which("npm")
        if npm is None:
            sys.exit("npm is needed to install Lighthouse (Debian's nodejs and npm)")
        HOME.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                npm,
                "install",
                "--silent",
                "--no-audit",
                "--no-fund",
                "--prefix",
                str(HOME),
                f"lighthouse@{VERSION}",
            ],
            check=True,
        )
    return LIGHTHOUSE


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_demo(game: str, folder: Path) -> Demo:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("CELERY_BROKER_URL", "REDIS_CACHE_URL")}
    env["DATABASE_URL"] = f"sqlite:///{folder / f'{game}.sqlite3'}"
    command = [sys.executable, "manage.py", "demo", "--game", game, "--port", str(port), "--quiet"]
    if game != "pymtheg":
        command.append("--no-club")
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    addresses: dict[str, str] = {}
    password = ""
    assert process.stdout is not None
    for line in process.stdout:
        if found := PASSWORD.search(line):
            password = found.group(1)
        elif found := ADDRESS.match(line.rstrip("\n")):
            addresses[found.group("label")] = found.group("url")
        if "Quit the server" in line:
            break
    else:
        sys.exit(f"the {game} demo stopped before serving")
    # The server goes on writing its log: keep its pipe drained or it blocks.
    threading.Thread(target=process.stdout.read, daemon=True).start()
    return Demo(process, f"http://127.0.0.1:{port}", addresses, password)


def session_cookie(demo: Demo) -> str:
    """Signs the organiser in as a browser does and returns the Cookie header it then sends."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    login = f"{demo.base}/accounts/login/"
    page = opener.open(login).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token, "no CSRF token on the sign-in page"
    form = {
        "username": "organiser",
        "password": demo.password,
        "csrfmiddlewaretoken": token.group(1),
    }
    request = urllib.request.Request(
        login, data=urllib.parse.urlencode(form).encode(), headers={"Referer": login}
    )
    opener.open(request).read()
    cookies = {cookie.name: cookie.value for cookie in jar}
    assert "sessionid" in cookies, "the organiser could not sign in"
    return "; ".join(f"{name}={value}" for name, value in cookies.items())


def audit(url: str, *, phone: bool, cookie: str | None, folder: Path) -> dict:
    report = folder / "report.json"
    command = [
        str(LIGHTHOUSE),
        url,
        "--quiet",
        f"--only-categories={CATEGORIES}",
        "--output=json",
        f"--output-path={report}",
        "--chrome-flags=--headless=new --no-sandbox",
    ]
    if not phone:
        command.append("--preset=desktop")
    if cookie:
        command.append("--extra-headers=" + json.dumps({"Cookie": cookie}))
    env = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium")}
    # Lighthouse now and then loses the page load's trace (NO_NAVSTART) on a busy machine:
    # a run that fails is made again, twice at most, before the page is reported unmeasured.
    for _attempt in range(3):
        done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if done.returncode == 0:
            break
    else:
        return {
            "url": url,
            "final_url": url,
            "scores": dict.fromkeys(SCORES),
            "layout_shift": 0.0,
            "accessibility_failed": [],
            "error": " ".join(done.stderr.decode(errors="replace").strip().splitlines()[-1:]),
        }
    data = json.loads(report.read_text())
    failed = [
        key
        for key, result in data["audits"].items()
        if key in _accessibility_audits(data) and result.get("score") == 0
    ]
    return {
        "url": url,
        "final_url": data["finalDisplayedUrl"],
        "scores": {key: value["score"] for key, value in data["categories"].items()},
        "layout_shift": data["audits"]["cumulative-layout-shift"]["numericValue"],
        "accessibility_failed": failed,
        # A page that did not load (an error answer, a crash) has no scores: say why.
        "error": data.get("runtimeError", {}).get("message"),
    }


def _accessibility_audits(data: dict) -> set[str]:
    return {ref["id"] for ref in data["categories"]["accessibility"]["auditRefs"]}


def audit_game(game: str, folder: Path) -> list[dict]:
    demo = start_demo(game, folder)
    try:
        cookie = session_cookie(demo)
        rows = []
        addresses = dict(demo.addresses)
        if SIGN_IN in addresses:  # the page signed in to, and the sign-in page itself
            after = urllib.parse.parse_qs(urllib.parse.urlsplit(addresses[SIGN_IN]).query)
            addresses["Organiser's dashboard"] = demo.base + after["next"][0]
        for label, url in addresses.items():
            phone = label in PHONE_PAGES
            signed_in = label in SIGNED_IN_PAGES or label == "Organiser's dashboard"
            if not (phone or signed_in or label == SIGN_IN):
                continue
            result = audit(url, phone=phone, cookie=cookie if signed_in else None, folder=folder)
            rows.append(
                {"game": game, "page": label, "device": "phone" if phone else "desktop", **result}
            )
            print(_line(rows[-1]), flush=True)
        return rows
    finally:
        demo.process.terminate()
        demo.process.wait(timeout=30)


def _line(row: dict) -> str:
    scores = {
        key: "n/a" if value is None else f"{value:.2f}" for key, value in row["scores"].items()
    }
    failed = ", ".join(row["accessibility_failed"]) or "none"
    line = (
        f"{row['game']:<10} {row['page']:<28} {row['device']:<8}"
        f" perf {scores['performance']}  a11y {scores['accessibility']}"
        f"  practices {scores['best-practices']}  CLS {row['layout_shift']:.3f}"
        f"  a11y failed: {failed}"
    )
    return line + (f"  ({row['error']})" if row["error"] else "")


def main() -> int:
    sys.path.insert(0, str(ROOT))
    from engine.games import game_ids

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=game_ids())
    parser.add_argument("--json", type=Path, help="also write every row to this file")
    options = parser.parse_args()
    ensure_lighthouse()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for game in options.game or game_ids():
            rows += audit_game(game, Path(folder))
    worst = max(row["layout_shift"] for row in rows if row["device"] == "phone")
    accessibility = [row["scores"]["accessibility"] for row in rows]
    print(
        f"pages {len(rows)}; not loaded {accessibility.count(None)}; lowest accessibility"
        f" {min(score for score in accessibility if score is not None):.2f};"
        f" largest layout shift on a phone page {worst:.3f} (aim < 0.1)"
    )
    if options.json:
        options.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
