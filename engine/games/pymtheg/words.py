"""The contract and its outcome in words, for the scorer's and the director's screens."""

from __future__ import annotations

from typing import Any

from engine.games.pymtheg.auction import BID_WORDS

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
