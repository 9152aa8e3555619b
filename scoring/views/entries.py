"""What was entered, in words: East's check on the scorer page and the director's board
page show an entry this way."""

from __future__ import annotations

from typing import Any

from engine.games import Game
from engine.games.pymtheg.auction import BID_WORDS, CallError, parse_call
from engine.games.pymtheg.words import SEAT_NAMES, TRUMP_WORDS, contract_in_words

TEAM_WORDS = {"NS": "North–South", "EW": "East–West"}
DOUBLE_NAMES = {"none": "Not doubled", "x": "Doubled", "xx": "Redoubled"}


def call_in_words(text: str) -> dict[str, str]:
    """``{"seat": "South", "call": "Gâm +4, no trump"}`` for ``"S:G+4/nt"``."""
    try:
        call = parse_call(text)
    except CallError:
        return {"seat": "", "call": str(text)}
    if call.bid is None:
        words = "Pass"
    else:
        words = BID_WORDS[call.bid.code]
        if call.trump:
            words += f", {TRUMP_WORDS[call.trump]}"
    return {"seat": SEAT_NAMES[call.seat.name], "call": words}


def _tricks_in_words(tricks: Any) -> list[tuple[str, Any]]:
    if not isinstance(tricks, dict):
        return []
    names = {**SEAT_NAMES, **TEAM_WORDS}
    order = ["N", "E", "S", "W", "NS", "EW"]
    return [(names[key], tricks[key]) for key in order if key in tricks]


def describe_entry(record: dict[str, Any], score: dict[str, Any], game: Game) -> dict[str, Any]:
    """Every fact of an entry and its score, ready for East's check and the director."""
    if game.entry_kind != "auction":
        return {
            "facts": game.entry_in_words(record, score),
            "words": game.describe(score),
            # Table order: a score stored in PostgreSQL (jsonb) comes back with its keys sorted.
            "seats": [(seat, score["seats"][seat]) for seat in "NESW" if seat in score["seats"]],
        }
    trump = None
    if score.get("trump"):
        when = "in the bid" if score.get("announced") == "during" else "after the auction"
        trump = f"{TRUMP_WORDS[score['trump']].capitalize()} (named {when})"
    return {
        "auctions": [
            [call_in_words(call) for call in auction] for auction in record.get("auctions", [])
        ],
        "trump": trump,
        "double": DOUBLE_NAMES.get(record.get("double", "none"), record.get("double")),
        "tricks": _tricks_in_words(record.get("tricks")),
        "revoke": SEAT_NAMES.get(record.get("revoke") or "", ""),
        "illegal_trump": SEAT_NAMES.get(record.get("illegal_trump") or "", ""),
        "passed_out": score.get("contract") is None,
        "words": contract_in_words(score),
        "ns": score.get("ns"),
        "ew": score.get("ew"),
    }


def entry_facts(record: dict[str, Any], game: Game) -> dict[str, Any]:
    """What North entered, without the fields the tournament adds."""
    return {key: value for key, value in record.items() if key in game.entry_fields}
