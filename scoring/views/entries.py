"""What was entered, in words: East's check on the scorer page and the director's board
page show an entry this way, as its game words it."""

from __future__ import annotations

from typing import Any

from engine.games import Game


def describe_entry(record: dict[str, Any], score: dict[str, Any], game: Game) -> dict[str, Any]:
    """Every fact of an entry and its score, ready for East's check and the director: its
    calls (``Game.calls_in_words``), its other facts (``Game.entry_in_words``), the score in
    words, and the table results: each side's where the partners of a side share one (None:
    ranked worst at the table), else each seat's."""
    described: dict[str, Any] = {
        "auctions": game.calls_in_words(record),
        "facts": game.entry_in_words(record, score),
        "words": game.describe(score),
    }
    if game.of_pairs:
        results = game.side_results(score)
        labels = ["".join(side) for side in game.sides]
        ranked = all(value is not None for value in results)
        described["sides"] = list(zip(labels, results, strict=True)) if ranked else None
    else:
        # Table order: a score stored in PostgreSQL (jsonb) comes back with its keys sorted.
        described["seats"] = [
            (seat, score["seats"][seat]) for seat in "NESW" if seat in score["seats"]
        ]
    return described


def entry_facts(record: dict[str, Any], game: Game) -> dict[str, Any]:
    """What North entered, without the fields the tournament adds."""
    return {key: value for key, value in record.items() if key in game.entry_fields}
