"""Counts in words for messages and pages: "1 board", "7 boards", never "board(s)"."""

from __future__ import annotations


def plural(count: int, word: str, many: str | None = None) -> str:
    """``count`` and ``word``, made plural unless the count is one (``many`` where the
    plural is not the word with an "s")."""
    if count == 1:
        return f"1 {word}"
    return f"{count} {many or word + 's'}"
