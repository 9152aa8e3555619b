"""Output helpers of the long management commands (simulate, demo, import_tournament).

``ProgressBar``: a one-line progress bar on stderr. On a terminal the line is redrawn in place;
elsewhere (a log file, a test) only the final line is written, so logs are not filled with
carriage returns.
"""

from __future__ import annotations

import logging
import sys
from typing import TextIO

from django.conf import settings

WIDTH = 30


class ProgressBar:
    def __init__(self, title: str, stream: TextIO | None = None, enabled: bool = True):
        self.title = title
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self.live = enabled and getattr(self.stream, "isatty", lambda: False)()
        self._last = ""

    def line(self, done: int, total: int, label: str = "") -> str:
        filled = WIDTH if total == 0 else WIDTH * done // total
        bar = "#" * filled + "." * (WIDTH - filled)
        text = f"{self.title} [{bar}] {done}/{total}"
        return f"{text} {label}" if label else text

    def update(self, done: int, total: int, label: str = "") -> None:
        self._last = self.line(done, total, label)
        if self.live:
            self.stream.write("\r\x1b[2K" + self._last)
            self.stream.flush()

    def finish(self) -> None:
        if not self.enabled or not self._last:
            return
        if self.live:
            self.stream.write("\n")
        else:
            self.stream.write(self._last + "\n")
        self.stream.flush()


def quiet_eager_broker_warning() -> None:
    """Without a broker, tasks run in-process, yet kombu still warns once that no broker host
    was given; that warning only confuses readers of the commands' output."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        logging.getLogger("kombu.connection").setLevel(logging.ERROR)
