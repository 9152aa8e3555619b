"""Twenty's scoring of one board (docs/games/twenty.md, "Scoring"): the items, their
payments between the sides, the held bonuses, and the result in words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.seats import SEAT_LETTERS, SEAT_NAMES

#: A contra level to its multiplier.
MULTIPLIER = {"none": 1, "contra": 2, "re": 4, "sub": 8}
#: Points the declarer's side needs to win the bid.
TARGET = 52
SPARROW_BASE = 4
SLAM_BASE = 12
CONTRACT_WORDS = {"PART": "Partnership", "NT": "No Trumps", "SOLO": "Solo"}
LEVEL_WORDS = {"contra": "contra'd", "re": "re-contra'd", "sub": "sub-contra'd"}


def item(name: str, by: str, base: int, contra: str, won: bool) -> dict[str, Any]:
    return {
        "item": name,
        "by": by,
        "base": base,
        "contra": contra,
        "value": base * MULTIPLIER[contra],
        "won": won,
    }


def pay(seats: dict[str, int], side: tuple[str, ...], value: int) -> None:
    """One item of ``value`` (negative when lost) paid between the sides: each defender pays
    it once, to the declarer alone or one each to the declarer and the partner."""
    defenders = 4 - len(side)
    for seat in SEAT_LETTERS:
        if seat in side:
            # A lone declarer is paid by three; each of a pair, by one defender.
            seats[seat] += value * (defenders if len(side) == 1 else 1)
        else:
            seats[seat] -= value


def held_bonus(seats: dict[str, int], holder: str) -> None:
    """The Kings or Honours: 1 from each other player, outside the sides' payments."""
    for seat in SEAT_LETTERS:
        seats[seat] += 3 if seat == holder else -1


def table_results(items: list[dict[str, Any]], side: tuple[str, ...]) -> dict[str, int]:
    """Each seat's table result: the sum of its amounts over every item (adds up to 0)."""
    seats = dict.fromkeys(SEAT_LETTERS, 0)
    for entry in items:
        if entry["item"] in ("kings", "honours"):
            held_bonus(seats, entry["by"])
        else:
            pay(seats, side, entry["value"] if entry["won"] else -entry["value"])
    return seats


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value).replace("-", "−")


def describe(score: Mapping[str, Any]) -> str:
    """Every item with its value, then the table results: ``East's Partnership with West: 58
    points, 6 tricks, won (contra'd, worth 2); West's Sparrow (re-contra'd, worth 16) won;
    West held the Honours (1 from each). Result: N −19, E +17, S −19, W +21``."""
    contract = CONTRACT_WORDS[score["contract"]]
    who = f"{SEAT_NAMES[score['declarer']]}'s {contract}"
    if score["partner"]:
        who += f" with {SEAT_NAMES[score['partner']]}"
    tricks = score["tricks"]
    parts = [
        f"{who}: {score['points']} points, {tricks} trick{'' if tricks == 1 else 's'}, "
        f"{'won' if score['made'] else 'lost'}"
    ]
    for entry in score["items"]:
        level = LEVEL_WORDS.get(entry["contra"])
        worth = f"{level + ', ' if level else ''}worth {entry['value']}"
        name = entry["item"]
        if name == "bid":
            parts[0] += f" ({worth})"
            continue
        if name in ("kings", "honours"):
            held = f"{SEAT_NAMES[entry['by']]} held the {name.capitalize()}"
            parts.append(f"{held} ({entry['value']} from each)")
            continue
        words = f"{SEAT_NAMES[entry['by']]}'s {name.capitalize()} ({worth})"
        parts.append(f"{words} {'won' if entry['won'] else 'lost'}")
    # Seats in table order, whatever order a stored score's keys came back in.
    seats = score["seats"]
    results = ", ".join(f"{seat} {_signed(seats[seat])}" for seat in SEAT_LETTERS if seat in seats)
    return "; ".join(parts) + f". Result: {results}"
