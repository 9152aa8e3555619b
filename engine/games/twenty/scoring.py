"""Twenty's scoring of one board (docs/games/twenty.md, "Scoring"): the items, their
payments between the sides, the held bonuses, and the result in words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.messages import Words, joined, words
from engine.core.seats import SEAT_LETTERS, SEAT_NAMES, seat_mark

#: A contra level to its multiplier.
MULTIPLIER = {"none": 1, "contra": 2, "re": 4, "sub": 8}
#: Points the declarer's side needs to win the bid.
TARGET = 52
SPARROW_BASE = 4
SLAM_BASE = 12
CONTRACT_WORDS = {"PART": "Partnership", "NT": "No Trumps", "SOLO": "Solo"}
LEVEL_WORDS = {"contra": "contra'd", "re": "re-contra'd", "sub": "sub-contra'd"}
ITEM_WORDS = {"sparrow": words("Sparrow"), "slam": words("Slam")}


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


def _worth(entry: Mapping[str, Any]) -> Words:
    """`` (contra'd, worth 2)`` or `` (worth 1)``."""
    level = LEVEL_WORDS.get(entry["contra"])
    if level:
        return words(" (%(level)s, worth %(value)s)", level=words(level), value=entry["value"])
    return words(" (worth %(value)s)", value=entry["value"])


def _item_words(entry: Mapping[str, Any]) -> Words:
    """A held bonus, or a Sparrow or a Slam won or lost, with its value."""
    seat = words(SEAT_NAMES[entry["by"]])
    if entry["item"] == "kings":
        return words(
            "%(seat)s held the Kings (%(value)s from each)", seat=seat, value=entry["value"]
        )
    if entry["item"] == "honours":
        return words(
            "%(seat)s held the Honours (%(value)s from each)", seat=seat, value=entry["value"]
        )
    name = ITEM_WORDS.get(entry["item"], entry["item"].capitalize())
    if entry["won"]:
        return words("%(seat)s's %(item)s%(worth)s won", seat=seat, item=name, worth=_worth(entry))
    return words("%(seat)s's %(item)s%(worth)s lost", seat=seat, item=name, worth=_worth(entry))


def describe(score: Mapping[str, Any]) -> str:
    """Every item with its value, then the table results: ``East's Partnership with West: 58
    points, 6 tricks, won (contra'd, worth 2); West's Sparrow (re-contra'd, worth 16) won;
    West held the Honours (1 from each). Result: N −19, E +17, S −19, W +21``. Made of the
    engine's words (engine.core.messages), translated by the pages."""
    parts: list[Any] = [_bid_words(score)]
    parts += [_item_words(entry) for entry in score["items"] if entry["item"] != "bid"]
    results = _results(score["seats"])
    return words("%(items)s. Result: %(results)s", items=joined(parts, "; "), results=results)


def _who(score: Mapping[str, Any]) -> str:
    """``East's Partnership with West``, or ``East's Solo``."""
    contract = words(CONTRACT_WORDS[score["contract"]])
    declarer = words(SEAT_NAMES[score["declarer"]])
    if score["partner"]:
        return words(
            "%(seat)s's %(contract)s with %(partner)s",
            seat=declarer,
            contract=contract,
            partner=words(SEAT_NAMES[score["partner"]]),
        )
    return words("%(seat)s's %(contract)s", seat=declarer, contract=contract)


def _bid_words(score: Mapping[str, Any]) -> str:
    """The bid: who played what, his side's points and tricks, won or lost, and its worth."""
    count = score["tricks"]
    tricks = words("1 trick") if count == 1 else words("%(count)s tricks", count=count)
    bid = next((entry for entry in score["items"] if entry["item"] == "bid"), None)
    head = {
        "who": _who(score),
        "points": score["points"],
        "tricks": tricks,
        "worth": _worth(bid) if bid else "",
    }
    if score["made"]:
        return words("%(who)s: %(points)s points, %(tricks)s, won%(worth)s", **head)
    return words("%(who)s: %(points)s points, %(tricks)s, lost%(worth)s", **head)


def _results(seats: Mapping[str, int]) -> str:
    """``N −19, E +17, S −19, W +21``: seats in table order, whatever order a stored score's
    keys came back in."""
    return joined(
        [
            Words("%(seat)s %(value)s", {"seat": seat_mark(seat), "value": _signed(seats[seat])})
            for seat in SEAT_LETTERS
            if seat in seats
        ],
        ", ",
    )
