"""Twenty: a reduced tarot for four (docs/games/twenty.md)."""

from __future__ import annotations
