"""The accessibility checks of the browser tests: axe-core on every page a test visits.

axe-core comes with the ``axe-playwright-python`` package (a dev dependency; its
``axe.min.js`` is read from the installed package, never fetched). Running it while a test
drives a page would hold the page's main thread for seconds (axe checks every element's
contrast) and race the test's own waits, so the audits come when the test is over:

- every page still open is checked as the test left it (an entry half filled, a form sent
  back with its errors, East's check);
- every other address a page of the test showed (each main-frame navigation, recorded as it
  happens) is opened again in the same browser context, with the same cookies and storage,
  and checked once loaded, unless the same kind of page (the same view, query fields, screen
  width and signed-in or not) was already loaded and checked earlier in this test process:
  another tournament's copy of a page already checked adds time, not findings.

A serious or critical violation fails the test, with the address, the rule and the elements;
so does an ``aria-describedby``, ``aria-labelledby`` or ``aria-controls`` naming an id the
page does not have (axe passes a list of ids where one exists).
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass, field
from importlib import resources
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from django.urls import Resolver404, resolve

try:
    from playwright.sync_api import Error as PlaywrightError
except ImportError:  # the browser fixture skips the tests (or fails them under CI)
    PlaywrightError = Exception

# The impacts that fail a test; "moderate" and "minor" ones are best practice, not failures.
FAILING_IMPACTS = ["serious", "critical"]
# Another project's widget, checked by its makers: the interactive API page's Swagger UI (the
# page around it is checked).
NOT_OURS = [["#swagger-ui"]]
REVISIT_TIMEOUT_MS = 20_000

AUDIT = """async ([failing, notOurs]) => {
  const LOAD_WAIT_MS = 10000;
  if (!location.protocol.startsWith("http") || document.contentType !== "text/html") return null;
  // A page that reloaded itself just now (a scorer's page after a poll) is checked once its
  // style sheets are in, not half drawn (waiting at most LOAD_WAIT_MS).
  if (document.readyState !== "complete") {
    await new Promise((done) => {
      window.addEventListener("load", done, { once: true });
      setTimeout(done, LOAD_WAIT_MS);
    });
  }
  const context = { include: [["html"]], exclude: notOurs };
  const result = await window.axe.run(context, { resultTypes: ["violations"] });
  const found = result.violations.filter((v) => failing.includes(v.impact)).map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    targets: v.nodes.slice(0, 6).map((n) => n.target.join(" ")),
  }));
  const missing = [];
  for (const attr of ["aria-describedby", "aria-labelledby", "aria-controls"]) {
    for (const el of document.querySelectorAll(`[${attr}]`)) {
      const ids = el.getAttribute(attr).trim().split(/ +/).filter(Boolean);
      const gone = ids.filter((id) => !document.getElementById(id));
      const what = `${el.tagName.toLowerCase()}#${el.id}`;
      if (gone.length) missing.push(`${what} ${attr}=${gone.join(" ")}`);
    }
  }
  if (missing.length) {
    found.push({ id: "idref-missing", impact: "serious",
      help: "Every id an ARIA attribute names must exist", targets: missing.slice(0, 6) });
  }
  return found;
}"""


def axe_source() -> str:
    return resources.files("axe_playwright_python").joinpath("axe.min.js").read_text("utf-8")


def page_key(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.path}?{parts.query}" if parts.query else parts.path


# The kinds of page loaded again and checked so far in this test process (see page_kind).
CHECKED_KINDS: set[tuple[Any, ...]] = set()


def page_kind(context: Any, url: str) -> tuple[Any, ...]:
    """What makes two addresses the same page to axe: the view, the names of the query's
    fields, the screen's width, and whether the reader is signed in."""
    parts = urlsplit(url)
    try:
        view = resolve(parts.path).view_name
    except Resolver404:
        view = parts.path
    fields = tuple(sorted({name for name, _ in parse_qsl(parts.query)}))
    signed_in = any(cookie["name"] == "sessionid" for cookie in context.cookies())
    width = (context.pages[0].viewport_size or {}).get("width") if context.pages else None
    return (view, fields, width, signed_in)


@dataclass
class AxeAudits:
    """The addresses the pages of one test showed, what axe found on them, and how."""

    source: str
    visited: dict[Any, list[str]] = field(default_factory=dict)  # context -> addresses
    audited: list[str] = field(default_factory=list)
    checked_earlier: list[str] = field(default_factory=list)  # of a kind checked before
    violations: list[dict[str, Any]] = field(default_factory=list)

    def watch(self, page: Any) -> None:
        """Records every address the page's main frame shows."""
        shown = self.visited.setdefault(page.context, [])

        def note(frame: Any) -> None:
            if frame == page.main_frame and frame.url.startswith("http") and frame.url not in shown:
                shown.append(frame.url)

        page.on("framenavigated", note)

    def audit(self, page: Any, when: str) -> None:
        """Checks the page as it is now."""
        page.evaluate(self.source)
        found = page.evaluate(AUDIT, [FAILING_IMPACTS, NOT_OURS])
        if found is None:
            return
        self.audited.append(page_key(page.url))
        for violation in found:
            self.violations.append({"url": page.url, "when": when, **violation})

    def audit_all(self, pages: list[Any]) -> None:
        """The pages still open as they are, then every other address shown, loaded again."""
        for page in pages:
            if page.is_closed() or not page.url.startswith("http"):
                continue
            # A page navigating at this very moment is checked below, loaded again.
            with suppress(PlaywrightError):
                self.audit(page, "as the test left it")
        for context, urls in self.visited.items():
            for url in urls:
                if page_key(url) in self.audited:
                    continue
                kind = page_kind(context, url)
                if kind in CHECKED_KINDS:
                    self.checked_earlier.append(page_key(url))
                    continue
                CHECKED_KINDS.add(kind)
                page = context.new_page()
                try:
                    page.goto(url, wait_until="load", timeout=REVISIT_TIMEOUT_MS)
                    self.audit(page, "visited again")
                finally:
                    page.close()

    def failures(self) -> str:
        seen: set[tuple[str, str]] = set()
        lines = []
        for v in self.violations:
            key = (page_key(v["url"]), v["id"])
            if key in seen:
                continue
            seen.add(key)
            lines.append(
                f"{v['impact']} {v['id']} ({v['help']}) on {v['url']} [{v['when']}]: {v['targets']}"
            )
        return "\n".join(lines)
