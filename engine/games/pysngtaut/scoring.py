"""Scoring one Pys'ngtaut board (rulebook section 4): hand values, set values, the settlement
of a won board, the pot of a dead one, the penalties, and every seat's table result."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.seats import SEAT_LETTERS, SEAT_NAMES
from engine.games.pysngtaut.cards import (
    CARD_CODES,
    CARD_TEXT,
    CARD_WORDS,
    FACE_RANKS,
    JOKER,
    NATURAL_RANK,
    RANK_CHARS,
    RANK_OF,
)
from engine.games.pysngtaut.cards import RANK_VALUE as _RANK_VALUE
from engine.games.pysngtaut.sets import CATEGORIES, CATEGORY_IDS, CATEGORY_ROWS

GAME_ID = "pysngtaut"
DEFAULT_VALUE_LIST = tuple(value for _name, value in CATEGORIES)
SEATS_OF = {players: SEAT_LETTERS[:players] for players in (2, 3, 4)}
#: A card's value in the hand by wild rank (None: the joker turned up): 0 for the wild rank
#: and the joker (4.2 and the ruling of 3.6).
CARD_VALUE: dict[int | None, tuple[int, ...]] = {
    wild: tuple(
        0 if card == JOKER or RANK_OF[card] == wild else _RANK_VALUE[NATURAL_RANK[card]]
        for card in range(53)
    )
    for wild in (*range(13), None)
}


def hand_value(cards: list[int], wild: int | None) -> int:
    values = CARD_VALUE[wild]
    return sum(values[card] for card in cards)


def settle(
    *,
    players: int,
    up: int,
    wild: int | None,
    winner: str | None,
    dead: bool,
    melds: Mapping[str, list[tuple[list[int], int]]],
    hands: Mapping[str, list[int]],
    god: str | None,
    penalties: list[tuple[str, str]],
    flags: Mapping[str, bool],
    set_values: Mapping[str, int],
) -> dict[str, Any]:
    """The board score (5.2) of a record already checked (section 6)."""
    seats = SEATS_OF[players]
    if set_values:
        values = tuple(
            set_values.get(name, default)
            for name, default in zip(CATEGORY_IDS, DEFAULT_VALUE_LIST, strict=True)
        )
    else:
        values = DEFAULT_VALUE_LIST
    multiplier = 2 if up == JOKER else 1
    if wild in FACE_RANKS and "face_wild_triple" in flags:
        multiplier *= 3

    value_of_card = CARD_VALUE[wild].__getitem__
    hand = {}
    set_value = {}
    for seat in seats:
        held = hands.get(seat)
        hand[seat] = sum(map(value_of_card, held)) if held else 0
        melded = melds.get(seat)
        set_value[seat] = sum([values[category] for _cards, category in melded]) if melded else 0
    if penalties:
        offenders: dict[str, set[str]] = {}
        for seat, kind in penalties:
            offenders.setdefault(kind, set()).add(seat)
        melders = offenders.get("improper_meld", ())
        drawers = offenders.get("improper_draw", ())
        out_of_turn = offenders.get("out_of_turn", ())
        for seat in drawers:
            hand[seat] = 0  # the hand was thrown out (it holds no cards anyway)
    else:
        melders = drawers = out_of_turn = ()

    payments: list[dict[str, Any]] = []
    result = dict.fromkeys(seats, 0)

    def pay(source: str, target: str, amount: int, why: str) -> None:
        if amount > 0:
            payments.append({"from": source, "to": target, "amount": amount, "for": why})
            result[source] -= amount
            if target != "pot":
                result[target] += amount

    if winner is not None:
        won = set_value[winner]
        offset = "own_sets_offset" in flags
        reverse = winner in out_of_turn
        for seat in seats:
            if seat == winner:
                continue
            base = hand[seat] + won
            if offset:
                base = max(0, base - set_value[seat])
            factor = 2 if god is not None and (god in (seat, winner)) else 1
            amount = base * factor * multiplier
            if reverse:  # the winner played out of turn: he pays the normal scoring value
                pay(winner, seat, amount, "settlement")
            else:
                pay(seat, winner, amount, "settlement")
            if seat in melders:
                pay(seat, winner, amount, "improper_meld")
            if seat in drawers:
                pay(seat, winner, 2 * amount, "improper_draw")
        for offender in seats:
            if offender in out_of_turn:
                for seat in seats:
                    if seat != offender:
                        factor = 2 if god is not None and (god in (seat, offender)) else 1
                        amount = (set_value[seat] + hand[offender]) * factor * multiplier
                        pay(offender, seat, amount, "out_of_turn")
        sets = [
            {
                "cards": [CARD_TEXT[card] for card in cards],
                "category": CATEGORY_IDS[category],
                "value": values[category],
            }
            for cards, category in melds[winner]
        ]
    else:
        for seat in seats:
            amount = hand[seat] * (2 if god == seat else 1) * multiplier
            pay(seat, "pot", amount, "pot")
            if seat in melders:
                pay(seat, "pot", amount, "improper_meld")
        for offender in seats:
            if offender in out_of_turn:
                for seat in seats:
                    if seat != offender:
                        factor = 2 if god is not None and (god in (seat, offender)) else 1
                        pay(offender, seat, hand[offender] * factor * multiplier, "out_of_turn")
        sets = []

    return {
        "game": GAME_ID,
        "players": players,
        "winner": winner,
        "dead": dead,
        "wild": None if wild is None else RANK_CHARS[wild],
        "multiplier": multiplier,
        "god": god,
        "sets": sets,
        "hand_values": hand,
        "payments": payments,
        "seats": result,
    }


def _points(value: int) -> str:
    return f"{value:+,}".replace("-", "−") if value else "0"


def describe(score: Mapping[str, Any]) -> str:
    """``East went out with 3 sets worth 7,500: N −16,680, E +22,625, S −5,945. Sets: Q♥ Q♦
    Q♠ Q♣ (4 Natural Face Cards, 2,000); ...``: each of the winner's sets with its row."""
    # Seats in table order, whatever order a stored score's keys came back in.
    seats = score["seats"]
    results = ", ".join(f"{seat} {_points(seats[seat])}" for seat in SEAT_LETTERS if seat in seats)
    extras = []
    if score.get("multiplier", 1) != 1:
        extras.append(f"×{score['multiplier']}")
    if score.get("god"):
        extras.append(f"god card {score['god']}")
    penalties = sorted({payment["for"] for payment in score["payments"]} - {"settlement", "pot"})
    extras += [kind.replace("_", " ") for kind in penalties]
    extra = f" ({', '.join(extras)})" if extras else ""
    if score["winner"] is None:
        pot = sum(p["amount"] for p in score["payments"] if p["to"] == "pot")
        return f"Dead hand, {pot:,} lost to the pot{extra}: {results}"
    sets = score["sets"]
    worth = sum(entry["value"] for entry in sets)
    count = f"{len(sets)} set{'' if len(sets) == 1 else 's'}"
    listed = "; ".join(
        f"{' '.join(CARD_WORDS[CARD_CODES[card]] for card in entry['cards'])} "
        f"({CATEGORY_ROWS.get(entry['category'], entry['category'])}, {entry['value']:,})"
        for entry in sets
    )
    return (
        f"{SEAT_NAMES[score['winner']]} went out with {count} worth {worth:,}{extra}: {results}"
        f". Sets: {listed}"
    )
