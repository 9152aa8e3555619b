"""The contract and its outcome in words, for the scorer's and the director's screens."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.games.pymtheg.auction import BID_WORDS, CallError, parse_call

SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
TRUMP_WORDS = {
    "fire": "Fire",
    "earth": "Earth",
    "water": "Water",
    "wind": "Wind",
    "nt": "no trump",
}
DOUBLE_WORDS = {"none": "", "x": ", doubled", "xx": ", redoubled"}


def contract_in_words(score: dict[str, Any]) -> str:
    """E.g. "South plays Gâm +4, no trump named after the auction, doubled: lost, -276"."""
    if score.get("contract") is None:
        if score.get("ns") is None:
            return "Passed out: ranked worst at this table"
        return f"Passed out twice: {score['ns']} for each team"
    parts = [f"{SEAT_NAMES[score['declarer']]} plays {BID_WORDS[score['contract']]}"]
    trump = score.get("trump")
    if trump:
        when = "in the bid" if score.get("announced") == "during" else "after the auction"
        parts.append(f", {TRUMP_WORDS[trump]} named {when}")
    parts.append(DOUBLE_WORDS[score.get("double", "none")])
    outcome = "made" if score.get("made") else "lost"
    text = "".join(parts) + f": {outcome}, {score['declarer_score']:+d} to {score['playing']}"
    if score.get("liability") and not score.get("made"):
        text += f" (includes {score['liability']} for overbidding a Ry)"
    return text


TEAM_WORDS = {"NS": "North–South", "EW": "East–West"}
DOUBLE_FACTS = {"none": "Not doubled", "x": "Doubled", "xx": "Redoubled"}


def call_in_words(text: str) -> tuple[str, str]:
    """``("South", "Gâm +4, no trump")`` for ``"S:G+4/nt"``; a call that cannot be read is
    shown as it was written."""
    try:
        call = parse_call(text)
    except CallError:
        return "", str(text)
    if call.bid is None:
        return SEAT_NAMES[call.seat.name], "Pass"
    words = BID_WORDS[call.bid.code]
    if call.trump:
        words += f", {TRUMP_WORDS[call.trump]}"
    return SEAT_NAMES[call.seat.name], words


def auctions_in_words(record: Mapping[str, Any]) -> list[tuple[str, list[tuple[str, str]]]]:
    """Each auction of an entry with its title: a passed-out first auction says so."""
    auctions = record.get("auctions") or []
    titles = ["First auction: passed out", "Second auction"] if len(auctions) > 1 else ["Auction"]
    return [
        (title, [call_in_words(call) for call in calls])
        for title, calls in zip(titles, auctions, strict=False)
    ]


def tricks_in_words(record: Mapping[str, Any]) -> str:
    """``Tricks: North–South 10, East–West 5`` (or each seat's, after a Ry or a Lon); empty
    when the record has none (passed out)."""
    tricks = record.get("tricks")
    if not isinstance(tricks, dict) or not tricks:
        return ""
    names = {**SEAT_NAMES, **TEAM_WORDS}
    counts = [
        f"{names[key]} {tricks[key]}" for key in ("NS", "EW", "N", "E", "S", "W") if key in tricks
    ]
    return "Tricks: " + ", ".join(counts)


def entry_facts_in_words(
    record: Mapping[str, Any], score: Mapping[str, Any]
) -> list[tuple[str, str]]:
    """The facts of an entry besides its calls, as East checks them."""
    facts: list[tuple[str, str]] = []
    if score.get("trump"):
        when = "in the bid" if score.get("announced") == "during" else "after the auction"
        facts.append(("Trump", f"{TRUMP_WORDS[score['trump']].capitalize()} (named {when})"))
    if score.get("contract") is not None:
        double = record.get("double", "none")
        facts.append(("Double", DOUBLE_FACTS.get(double, str(double))))
    tricks = record.get("tricks")
    if isinstance(tricks, dict):
        names = {**SEAT_NAMES, **TEAM_WORDS}
        counts = [
            f"{names[key]} {tricks[key]}"
            for key in ("N", "E", "S", "W", "NS", "EW")
            if key in tricks
        ]
        facts.append(("Tricks", " · ".join(counts)))
    if record.get("revoke") in SEAT_NAMES:
        facts.append(("Revoke", f"by {SEAT_NAMES[record['revoke']]}: the round ended there"))
    if record.get("illegal_trump") in SEAT_NAMES:
        facts.append(("Illegal trump", f"by {SEAT_NAMES[record['illegal_trump']]}"))
    return facts
