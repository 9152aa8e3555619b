"""Fixtures of the browser tests: the app on pytest-django's live server, the system's
Chromium driven by Playwright, phone and desktop contexts, and step screenshots.

- **The browser** is the system's Chromium (``/usr/bin/chromium``, or ``CHROMIUM_PATH``),
  launched headless once per test with a fresh profile; Playwright never downloads one. When
  Playwright or Chromium is missing the tests are skipped, except under ``CI=true``, where
  they fail.
- **The network** is loopback only: Chromium resolves no other host name, and every
  context aborts (and reports) any request that leaves the machine.
- **The server** is ``live_server`` with the test database (``transactional_db``). With
  SQLite that database lives in memory, on one connection the server's request threads and
  the test share; Django copes with that only if they take turns, so requests are served one
  at a time.
- **Accessibility**: when a test has passed, axe-core checks every page still open, then every
  other address its pages showed, loaded again in the same context; a serious or critical
  violation fails the test (``tests/browser/a11y.py``).
- **ORM work while a browser is open** goes inside ``live.exclusive()``. Playwright's sync
  API keeps an asyncio loop running in the test's thread, and Django then treats the test as
  async code: it refuses ORM calls, and would give them a second database connection that
  nothing closes. ``exclusive()`` hides the loop for the block (which must not drive the
  browser) and waits for the request being served.
"""

from __future__ import annotations

import asyncio
import copy
import os
import shutil
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.browser.a11y import AxeAudits, axe_source
from tests.browser.helpers import RunningCup, Screenshots, running_cup
from tests.conftest import skip_or_fail

try:
    from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright
except ImportError:  # the dev extras are not installed: every browser test skips (or fails)
    sync_playwright = None
else:
    # The pages poll every few seconds; an assertion waits for what a poll brings.
    expect.set_options(timeout=10_000)

DEFAULT_CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # Host names other than localhost resolve to nothing: no request can leave the machine.
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost",
]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
ACTION_TIMEOUT_MS = 15_000
LOOPBACK_HOSTS = {"localhost", "127.0.0.1", "::1", "[::1]"}
SCREENSHOT_ROOT = Path(__file__).resolve().parents[2] / "var" / "screenshots"


def chromium_path() -> str:
    path = os.environ.get("CHROMIUM_PATH", DEFAULT_CHROMIUM)
    if not os.access(path, os.X_OK):
        skip_or_fail(
            f"no Chromium at {path} (apt-get install chromium, or set CHROMIUM_PATH)",
            "the browser tests must run",
        )
    return path


def is_loopback(url: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https", "ws", "wss"):
        return True  # data:, blob:, about: never touch the network
    return (parts.hostname or "") in LOOPBACK_HOSTS


# --- the report of each phase, so teardown knows whether the test failed ------------------


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Any:
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


# --- the server ---------------------------------------------------------------------------


class OneRequestAtATime:
    """WSGI middleware: serve a request, body and all, while holding the lock."""

    def __init__(self, app: Callable, lock: threading.Lock) -> None:
        self.app = app
        self.lock = lock

    def __call__(self, environ: dict, start_response: Callable) -> list[bytes]:
        with self.lock:
            response = self.app(environ, start_response)
            try:
                body = b"".join(response)
            finally:
                if hasattr(response, "close"):
                    response.close()
        return [body]


@dataclass
class LiveApp:
    url: str
    lock: threading.Lock

    @contextmanager
    def exclusive(self) -> Iterator[None]:
        """Run the block (the test's ORM work, no browser calls) while no request is being
        served, as plain synchronous code on the test's own database connection."""
        loop = asyncio._get_running_loop()
        asyncio._set_running_loop(None)
        try:
            with self.lock:
                yield
        finally:
            asyncio._set_running_loop(loop)

    def scorer_link(self, slug: str, code: str) -> str:
        """The link a route card's QR code holds."""
        return f"{self.url}/score/{slug}/?code={code}"


@pytest.fixture
def live(live_server, settings) -> Iterator[LiveApp]:
    # A cache of its own: cached page fragments and pending-update marks are keyed by
    # tournament id, which another test database (another xdist worker) may reuse.
    caches = copy.deepcopy(settings.CACHES)
    caches["default"]["KEY_PREFIX"] = f"browser-test-{uuid.uuid4().hex}"
    settings.CACHES = caches
    lock = threading.Lock()
    server = live_server.thread.httpd
    app = server.get_app()
    server.set_app(OneRequestAtATime(app, lock))
    yield LiveApp(live_server.url, lock)
    with lock:  # a request still being served ends before the database is flushed
        server.set_app(app)


@pytest.fixture
def cup(live: LiveApp) -> RunningCup:
    """A running tournament, made before any page is open."""
    return running_cup("cup")


# --- the browser --------------------------------------------------------------------------


@dataclass
class Contexts:
    """Every context a test opened, and every request they tried to send off the machine."""

    browser: Any
    base_url: str
    axe: AxeAudits | None = None
    opened: list = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    refused_by_policy: list[str] = field(default_factory=list)

    def new_page(self, device: dict[str, Any]) -> Page:
        context: BrowserContext = self.browser.new_context(base_url=self.base_url, **device)
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        context.route(lambda url: not is_loopback(url), self._block)
        self.opened.append(context)
        page = context.new_page()
        page.on("console", self._note_policy_violation)
        if self.axe is not None:
            self.axe.watch(page)
        return page

    def _note_policy_violation(self, message: Any) -> None:
        if "Content Security Policy" in message.text:
            self.refused_by_policy.append(message.text)

    def _block(self, route: Any) -> None:
        self.blocked.append(route.request.url)
        route.abort("blockedbyclient")

    def pages(self) -> list[Page]:
        return [page for context in self.opened for page in context.pages]

    def audit_pages(self) -> None:
        """axe on every page still open, then on every other address the pages showed."""
        if self.axe is not None:
            self.axe.audit_all(self.pages())


@pytest.fixture
def browser(live: LiveApp) -> Iterator[Browser]:
    """The system's Chromium, headless, with a fresh profile (Playwright makes a temporary
    user data directory for every launch and removes it afterwards)."""
    if sync_playwright is None:
        skip_or_fail(
            "Playwright is not installed (pip install -e '.[dev]')", "the browser tests must run"
        )
    path = chromium_path()
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=path, args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def shots(request: pytest.FixtureRequest) -> Screenshots:
    folder = SCREENSHOT_ROOT / request.node.name.replace("/", "_")
    shutil.rmtree(folder, ignore_errors=True)
    return Screenshots(folder)


def axe_audits() -> AxeAudits:
    try:
        return AxeAudits(axe_source())
    except ModuleNotFoundError:
        skip_or_fail(
            "axe-playwright-python is not installed (pip install -e '.[dev]')",
            "the browser tests must check accessibility",
        )
        raise


@pytest.fixture
def contexts(
    browser: Browser, live: LiveApp, shots: Screenshots, request: pytest.FixtureRequest
) -> Iterator[Contexts]:
    opened = Contexts(browser, live.url, axe=axe_audits())
    yield opened
    report = getattr(request.node, "report_call", None)
    if report is not None and report.passed:
        opened.audit_pages()
    if report is not None and report.failed:
        for page in opened.pages():
            # Best effort: a crashed page must not hide the failure it illustrates.
            with suppress(Exception):
                shots.take(page, "failure")
    for context in opened.opened:
        context.close()
    assert not opened.blocked, f"the pages tried to leave the machine: {opened.blocked}"
    assert not opened.refused_by_policy, (
        f"the pages broke their Content-Security-Policy: {opened.refused_by_policy}"
    )
    if opened.axe is not None and any(opened.axe.visited.values()):
        assert opened.axe.audited or opened.axe.checked_earlier, (
            "axe checked none of the pages the test showed"
        )
    failures = opened.axe.failures() if opened.axe is not None else ""
    assert not failures, f"axe found serious or critical violations:\n{failures}"


@pytest.fixture
def open_phone(contexts: Contexts) -> Callable[[], Page]:
    """Each call is another phone: its own context, cookies and local storage."""
    return lambda: contexts.new_page(PHONE)


@pytest.fixture
def desktop(contexts: Contexts) -> Page:
    return contexts.new_page(DESKTOP)
