"""The accessibility checks of the browser tests: axe-core on every page a test opens.

axe-core comes with the ``axe-playwright-python`` package (a dev dependency; its
``axe.min.js`` is read from the installed package, never fetched). Every browser context
the tests open gets it as an init script with a small runner: on each HTML document, once
its deferred scripts have run (the scorer's entry is drawn by then), axe checks the page and
reports its serious and critical violations to the test through an exposed binding, with
every ARIA reference (aria-describedby, aria-labelledby, aria-controls) naming an id the page
does not have. When a test ends, each page still open is checked once more in the state the
test left it (an entry half filled, a form sent back with its errors), and the test fails on
any violation found on the way.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

# The impacts that fail a test; "moderate" and "minor" ones are best practice, not failures.
FAILING_IMPACTS = ("serious", "critical")

RUNNER = """
(() => {
  if (window.top !== window || window.__a11yAudit) return;
  let chain = Promise.resolve();
  // axe passes an aria-describedby that names one real id among missing ones: every id it
  // names must exist (a form's help text, its errors).
  const missingReferences = () => {
    const missing = [];
    for (const attr of ["aria-describedby", "aria-labelledby", "aria-controls"]) {
      for (const el of document.querySelectorAll(`[${attr}]`)) {
        const ids = el.getAttribute(attr).trim().split(/ +/).filter(Boolean);
        const gone = ids.filter((id) => !document.getElementById(id));
        const what = `${el.tagName.toLowerCase()}#${el.id}`;
        if (gone.length) missing.push(`${what} ${attr}=${gone.join(" ")}`);
      }
    }
    return missing.length ? [{ id: "idref-missing", impact: "serious",
      help: "Every id an ARIA attribute names must exist", targets: missing.slice(0, 6) }] : [];
  };
  const failing = %(failing)s;
  // Each run waits for the one before: axe refuses to run twice at once.
  window.__a11yAudit = (when) => {
    chain = chain.then(() => {
      const page = location.protocol.startsWith("http") && document.contentType === "text/html";
      if (!window.axe || !page) return null;
      return window.axe.run(document, { resultTypes: ["violations"] }).then((result) => {
        const found = result.violations.filter((v) => failing.includes(v.impact)).map((v) => ({
          id: v.id, impact: v.impact, help: v.help,
          targets: v.nodes.slice(0, 6).map((n) => n.target.join(" ")),
        }));
        found.push(...missingReferences());
        return window.__a11yReport({ url: location.href, when, violations: found });
      });
    }).catch(() => null);
    return chain;
  };
  const onLoad = () => setTimeout(() => window.__a11yAudit("loaded"), 0);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", onLoad);
  else onLoad();
})();
"""


def axe_source() -> str:
    return resources.files("axe_playwright_python").joinpath("axe.min.js").read_text("utf-8")


@dataclass
class AxeAudits:
    """What axe found on the pages of one test: every audit, and the failing violations."""

    source: str
    audited: list[str] = field(default_factory=list)
    violations: list[dict[str, Any]] = field(default_factory=list)

    def install(self, context: Any) -> None:
        context.expose_binding("__a11yReport", self._report)
        runner = RUNNER % {"failing": json.dumps(FAILING_IMPACTS)}
        context.add_init_script(self.source + "\n" + runner)

    def _report(self, _source: Any, report: dict[str, Any]) -> None:
        self.audited.append(report["url"])
        for violation in report["violations"]:
            self.violations.append({"url": report["url"], "when": report["when"], **violation})

    def audit(self, page: Any, when: str = "now") -> None:
        """Checks the page as it is now (and waits for any run under way)."""
        page.evaluate("(when) => window.__a11yAudit && window.__a11yAudit(when)", when)

    def failures(self) -> str:
        seen: set[tuple[str, str]] = set()
        lines = []
        for v in self.violations:
            key = (v["url"].split("?")[0], v["id"])
            if key in seen:
                continue
            seen.add(key)
            lines.append(
                f"{v['impact']} {v['id']} ({v['help']}) on {v['url']} [{v['when']}]: {v['targets']}"
            )
        return "\n".join(lines)
