"""Scoring one Pys'ngtaut board (rulebook section 4): hand values, set values, the settlement
of a won board, the pot of a dead one, the penalties, and every seat's table result."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.messages import Words, grouped, joined, words
from engine.core.seats import SEAT_LETTERS, SEAT_NAMES, seat_mark
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


class _Ledger:
    """The payments of a board and every seat's result, as they are made."""

    def __init__(self, seats: tuple[str, ...]):
        self.payments: list[dict[str, Any]] = []
        self.result = dict.fromkeys(seats, 0)

    def pay(self, source: str, target: str, amount: int, why: str) -> None:
        if amount > 0:
            self.payments.append({"from": source, "to": target, "amount": amount, "for": why})
            self.result[source] -= amount
            if target != "pot":
                self.result[target] += amount


def _category_values(set_values: Mapping[str, int]) -> tuple[int, ...]:
    """Each set category's value, the record's options over the defaults."""
    if not set_values:
        return DEFAULT_VALUE_LIST
    return tuple(
        set_values.get(name, default)
        for name, default in zip(CATEGORY_IDS, DEFAULT_VALUE_LIST, strict=True)
    )


def _multiplier(up: int, wild: int | None, flags: Mapping[str, bool]) -> int:
    """Double when the joker was turned up; triple more for a face wild rank (option)."""
    multiplier = 2 if up == JOKER else 1
    if wild in FACE_RANKS and "face_wild_triple" in flags:
        multiplier *= 3
    return multiplier


def _god_factor(god: str | None, one: str, other: str) -> int:
    """Double between the god card's player and anyone he pays or is paid by."""
    return 2 if god is not None and (god in (one, other)) else 1


def _offenders(penalties: list[tuple[str, str]]) -> dict[str, set[str]]:
    """The seats with each kind of penalty."""
    offenders: dict[str, set[str]] = {}
    for seat, kind in penalties:
        offenders.setdefault(kind, set()).add(seat)
    return offenders


def _pay_out_of_turn(
    ledger: _Ledger,
    seats: tuple[str, ...],
    out_of_turn: set[str],
    owed: Mapping[str, int],
    hand: Mapping[str, int],
    god: str | None,
    multiplier: int,
) -> None:
    """Who played out of turn pays every other seat its ``owed`` and his hand's value."""
    for offender in seats:
        if offender not in out_of_turn:
            continue
        for seat in seats:
            if seat != offender:
                factor = _god_factor(god, seat, offender)
                amount = (owed[seat] + hand[offender]) * factor * multiplier
                ledger.pay(offender, seat, amount, "out_of_turn")


def _settle_won(
    ledger: _Ledger,
    seats: tuple[str, ...],
    winner: str,
    hand: Mapping[str, int],
    set_value: Mapping[str, int],
    offenders: dict[str, set[str]],
    god: str | None,
    multiplier: int,
    offset: bool,
) -> None:
    """Everybody pays the winner his hand and the winner's sets (less his own with the
    option), more for penalties; the winner pays instead when he played out of turn."""
    won = set_value[winner]
    reverse = winner in offenders.get("out_of_turn", ())
    melders = offenders.get("improper_meld", ())
    drawers = offenders.get("improper_draw", ())
    for seat in seats:
        if seat == winner:
            continue
        base = hand[seat] + won
        if offset:
            base = max(0, base - set_value[seat])
        amount = base * _god_factor(god, seat, winner) * multiplier
        if reverse:  # the winner played out of turn: he pays the normal scoring value
            ledger.pay(winner, seat, amount, "settlement")
        else:
            ledger.pay(seat, winner, amount, "settlement")
        if seat in melders:
            ledger.pay(seat, winner, amount, "improper_meld")
        if seat in drawers:
            ledger.pay(seat, winner, 2 * amount, "improper_draw")
    _pay_out_of_turn(
        ledger, seats, offenders.get("out_of_turn", set()), set_value, hand, god, multiplier
    )


def _settle_dead(
    ledger: _Ledger,
    seats: tuple[str, ...],
    hand: Mapping[str, int],
    offenders: dict[str, set[str]],
    god: str | None,
    multiplier: int,
) -> None:
    """A dead hand: everybody pays his hand to the pot, more for an improper meld."""
    melders = offenders.get("improper_meld", ())
    for seat in seats:
        amount = hand[seat] * (2 if god == seat else 1) * multiplier
        ledger.pay(seat, "pot", amount, "pot")
        if seat in melders:
            ledger.pay(seat, "pot", amount, "improper_meld")
    nothing = dict.fromkeys(seats, 0)
    _pay_out_of_turn(
        ledger, seats, offenders.get("out_of_turn", set()), nothing, hand, god, multiplier
    )


def _seat_values(
    seats: tuple[str, ...],
    hands: Mapping[str, list[int]],
    melds: Mapping[str, list[tuple[list[int], int]]],
    wild: int | None,
    values: tuple[int, ...],
) -> tuple[dict[str, int], dict[str, int]]:
    """``(hand value, value of the sets)`` of every seat."""
    value_of_card = CARD_VALUE[wild].__getitem__
    hand = {}
    set_value = {}
    for seat in seats:
        held = hands.get(seat)
        hand[seat] = sum(map(value_of_card, held)) if held else 0
        melded = melds.get(seat)
        set_value[seat] = sum([values[category] for _cards, category in melded]) if melded else 0
    return hand, set_value


def _sets_of(melded: list[tuple[list[int], int]], values: tuple[int, ...]) -> list[dict[str, Any]]:
    """The winner's sets as the score lists them: cards, category and value."""
    return [
        {
            "cards": [CARD_TEXT[card] for card in cards],
            "category": CATEGORY_IDS[category],
            "value": values[category],
        }
        for cards, category in melded
    ]


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
    values = _category_values(set_values)
    multiplier = _multiplier(up, wild, flags)
    hand, set_value = _seat_values(seats, hands, melds, wild, values)
    offenders = _offenders(penalties)
    for seat in offenders.get("improper_draw", ()):
        hand[seat] = 0  # the hand was thrown out (it holds no cards anyway)
    ledger = _Ledger(seats)
    sets = []
    if winner is not None:
        offset = "own_sets_offset" in flags
        _settle_won(ledger, seats, winner, hand, set_value, offenders, god, multiplier, offset)
        sets = _sets_of(melds[winner], values)
    else:
        _settle_dead(ledger, seats, hand, offenders, god, multiplier)
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
        "payments": ledger.payments,
        "seats": ledger.result,
    }


def _points(value: int) -> str:
    """``+22,625``, ``−5,945`` (a minus sign), ``0``; grouped as the reader writes numbers."""
    if not value:
        return "0"
    return Words(
        "%(sign)s%(number)s", {"sign": "+" if value > 0 else "−", "number": grouped(abs(value))}
    )


#: The penalties a board's payments may name (4.4), in words.
PENALTY_NAMES = {
    "out_of_turn": words("out of turn"),
    "improper_meld": words("improper meld"),
    "improper_draw": words("improper draw"),
}


def _extras(score: Mapping[str, Any]) -> list[Any]:
    """What else marked the board: the multiplier, the god card, the penalties."""
    extras: list[Any] = []
    if score.get("multiplier", 1) != 1:
        extras.append(f"×{score['multiplier']}")
    if score.get("god"):
        extras.append(words("god card %(seat)s", seat=seat_mark(score["god"])))
    penalties = sorted({payment["for"] for payment in score["payments"]} - {"settlement", "pot"})
    extras += [PENALTY_NAMES.get(kind, kind.replace("_", " ")) for kind in penalties]
    return extras


def _set_words(entry: Mapping[str, Any]) -> Words:
    """A set's cards, its row and its value: ``Q♥ Q♦ Q♠ Q♣ (4 Natural Face Cards, 2,000)``."""
    cards = joined([CARD_WORDS[CARD_CODES[card]] for card in entry["cards"]], " ")
    row = CATEGORY_ROWS.get(entry["category"], entry["category"])
    return Words(
        "%(cards)s (%(row)s, %(value)s)",
        {"cards": cards, "row": row, "value": grouped(entry["value"])},
    )


def _results(seats: Mapping[str, int]) -> str:
    """``N −16,680, E +22,625, S −5,945``: the seats in table order, whatever order a stored
    score's keys came back in."""
    return joined(
        [
            Words("%(seat)s %(points)s", {"seat": seat_mark(seat), "points": _points(seats[seat])})
            for seat in SEAT_LETTERS
            if seat in seats
        ],
        ", ",
    )


def _dead_hand(payments: list[Mapping[str, Any]], extra: str, results: str) -> str:
    """A dead hand in words: what the pot took, and every seat's result."""
    pot = sum(p["amount"] for p in payments if p["to"] == "pot")
    return words(
        "Dead hand, %(pot)s lost to the pot%(extra)s: %(results)s",
        pot=grouped(pot),
        extra=extra,
        results=results,
    )


def describe(score: Mapping[str, Any]) -> str:
    """``East went out with 3 sets worth 7,500: N −16,680, E +22,625, S −5,945. Sets: Q♥ Q♦
    Q♠ Q♣ (4 Natural Face Cards, 2,000); ...``: each of the winner's sets with its row. Made
    of the engine's words (engine.core.messages), translated by the pages."""
    results = _results(score["seats"])
    extras = _extras(score)
    extra = Words(" (%(extras)s)", {"extras": joined(extras, ", ")}) if extras else ""
    if score["winner"] is None:
        return _dead_hand(score["payments"], extra, results)
    sets = score["sets"]
    worth = sum(entry["value"] for entry in sets)
    values = {
        "seat": SEAT_NAMES[score["winner"]],
        "count": len(sets),
        "worth": grouped(worth),
        "extra": extra,
        "results": results,
        "sets": joined([_set_words(entry) for entry in sets], "; "),
    }
    if len(sets) == 1:
        return words(
            "%(seat)s went out with 1 set worth %(worth)s%(extra)s: %(results)s. Sets: %(sets)s",
            **values,
        )
    return words(
        "%(seat)s went out with %(count)s sets worth %(worth)s%(extra)s: %(results)s. "
        "Sets: %(sets)s",
        **values,
    )
