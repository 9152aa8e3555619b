"""Reading a Pys'ngtaut board record (rulebook section 5.1) and refusing bad ones (section 6).

``score_record`` checks the record in this order, the first fault raising ``RecordError``
naming the field: the object, ``game``, unknown fields, ``players``, ``direction``,
``options``, ``up``, ``deal``, the outcome (``dead``, ``winner``), ``penalties``, ``melds``
(seat by seat in seat order, set by set), ``hands``, ``god``, then the card totals. A field
set to ``null`` is absent. The reader is written for speed: plain look-ups, no regular
expressions; field paths are built only for an error.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping
from functools import lru_cache
from operator import eq
from typing import Any, NoReturn

from engine.core.errors import RecordError
from engine.core.messages import words
from engine.core.records import (
    SEAT_NAMES_OF,
    SEATS_OF,
    deal_fits,
    missing_unless_dealt,
    read_deal,
    read_direction,
    read_players,
    read_seat,
    record_object,
    seat_list,
)
from engine.core.seats import seat_mark
from engine.games.pysngtaut.cards import (
    CARD_CODES,
    CARD_TEXT,
    CARDS,
    COPIES,
    FACE_RANKS,
    JOKER,
    RANK_CHARS,
    RANK_OF,
    PysngtautDeal,
    parse_deal,
)
from engine.games.pysngtaut.scoring import settle
from engine.games.pysngtaut.sets import (
    CATEGORY_IDS,
    DEFAULT_VALUES,
    FLAGS,
    OPTION_NAMES,
    SetFault,
    read_set,
)

GAME_ID = "pysngtaut"
RECORD_FIELDS = frozenset(
    {
        "game",
        "players",
        "deal",
        "up",
        "direction",
        "options",
        "winner",
        "dead",
        "melds",
        "hands",
        "god",
        "penalties",
    }
)
PENALTY_FIELDS = frozenset({"seat", "kind"})
PENALTY_KINDS = ("improper_draw", "improper_meld", "out_of_turn")
PENALTY_NAMES = {kind: kind for kind in PENALTY_KINDS}
OPTION_SET = frozenset(OPTION_NAMES)
CATEGORY_SET = frozenset(CATEGORY_IDS)
NO_OPTIONS: dict[str, Any] = {}
#: The face cards (J Q K) are the numbers from this one to the joker's, excluded.
FIRST_FACE_CARD = min(FACE_RANKS) * 4


@lru_cache(maxsize=4096)
def _cached_deal(text: str) -> PysngtautDeal:
    return parse_deal(text)


def _parse_deal(raw: Any) -> PysngtautDeal:
    """A board's deal is scored at every visit: its parse (a frozen object) is kept."""
    return _cached_deal(raw) if type(raw) is str else parse_deal(raw)


def _read_set_values(value: Any) -> dict[str, int]:
    """Option ``set_values``: a value, a whole number, for some set categories."""
    if type(value) is not dict:
        raise RecordError(
            "options.set_values",
            words("must be an object of set categories, not %(value)s", value=repr(value)),
        )
    for category, number in value.items():
        if category not in CATEGORY_SET:
            raise RecordError(
                f"options.set_values.{category}",
                words("unknown set category (known: %(known)s)", known=", ".join(CATEGORY_IDS)),
            )
        if type(number) is not int or number < 0:
            raise RecordError(
                f"options.set_values.{category}",
                words("%(value)s is not a whole number ≥ 0", value=repr(number)),
            )
    return value


def _read_options(raw: Any) -> tuple[dict[str, bool], dict[str, int]]:
    """``(flags that are on, set values given)``, checked (section 6, kind 6)."""
    if type(raw) is not dict:
        raise RecordError(
            "options", words("must be an object of options, not %(value)s", value=repr(raw))
        )
    flags: dict[str, bool] = {}
    values: dict[str, int] = {}
    for name, value in raw.items():
        if name not in OPTION_SET:
            raise RecordError(
                f"options.{name}",
                words("unknown option (known: %(known)s)", known=", ".join(OPTION_NAMES)),
            )
        if value is None:
            continue
        if name == "set_values":
            values.update(_read_set_values(value))
        elif value is True:
            flags[name] = True
        elif value is not False:
            raise RecordError(
                f"options.{name}", words("%(value)s is not true or false", value=repr(value))
            )
    return flags, values


def options_of_settings(settings: Mapping[str, Any] | None) -> dict[str, Any]:
    """The ``options`` object a tournament's settings give (flags on, values changed)."""
    if not settings:
        return {}
    options: dict[str, Any] = {name: True for name in FLAGS if settings.get(name) in (True, "on")}
    values = _changed_values(settings)
    if values:
        options["set_values"] = values
    return options


def _changed_values(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The set values (option 7) the settings change from the table's."""
    values = {}
    for category in CATEGORY_IDS:
        value = settings.get(value_setting(category))
        if value is not None and value != DEFAULT_VALUES[category]:
            values[category] = value
    return values


def value_setting(category: str) -> str:
    """The setting that holds a category's value: ``value_4_natural_red``."""
    return "value_" + category.replace("-", "_")


def _seat_map(raw: Any, field: str, players: int, what: str) -> dict[str, Any]:
    """An object of seated seats to values: its keys checked (exact letters)."""
    if type(raw) is not dict:
        raise RecordError(
            field,
            words(
                "must be an object of seats to %(what)s, not %(value)s", what=what, value=repr(raw)
            ),
        )
    seats = SEATS_OF[players]
    for key in raw:
        if key not in seats:
            raise RecordError(
                f"{field}.{key}",
                words(
                    "not a seat at a table of %(players)s (%(seats)s)",
                    players=players,
                    seats=seat_list(players),
                ),
            )
    return raw


def _read_options_or_settings(
    raw: Any, settings: Mapping[str, Any] | None
) -> tuple[dict[str, bool], dict[str, int]]:
    """``options``, or those of the tournament's settings when the record gives none."""
    if raw is None and settings:
        raw = options_of_settings(settings)
    if raw is None:
        return NO_OPTIONS, NO_OPTIONS
    return _read_options(raw)


def _given_up(raw: Any) -> int:
    up = CARD_CODES.get(raw) if type(raw) is str else None
    if up is None:
        raise RecordError("up", words("%(value)s is not a card", value=repr(raw)))
    return up


def _read_up(
    raw: Any, raw_deal: Any, deal: PysngtautDeal | None, deal_error: str | None, players: int
) -> int:
    """``up``, or the deal's; then the deal, which must fit the table and turn up that card."""
    missing_unless_dealt("up", raw, raw_deal, "the turned-up card")
    up = None if raw is None else _given_up(raw)
    if deal_error is not None:
        raise RecordError("deal", deal_error)
    if deal is None:
        assert up is not None  # given when there is no deal
        return up
    deal_fits(deal, players=players)
    if up is not None:
        _check_deal_turns_up(deal, up)
    return deal.up


def _check_deal_turns_up(deal: PysngtautDeal, up: int) -> None:
    if deal.up != up:
        raise RecordError(
            "deal",
            words(
                "turns up %(dealt)s, but up is %(up)s", dealt=CARD_TEXT[deal.up], up=CARD_TEXT[up]
            ),
        )


def _read_outcome(raw_dead: Any, raw_winner: Any, players: int) -> tuple[bool, str | None]:
    """``(dead, winner)``: a seat went out, or the hand was dead (kind 10)."""
    if raw_dead is not None and type(raw_dead) is not bool:
        raise RecordError("dead", words("%(value)s is not true or false", value=repr(raw_dead)))
    dead = bool(raw_dead)
    if raw_winner is None:
        if not dead:
            raise RecordError("winner", words("missing (the seat that went out; or dead: true)"))
        return dead, None
    winner = read_seat("winner", raw_winner, players, f" at a table of {players}")
    if dead:
        raise RecordError(
            "winner", words("%(seat)s went out, but dead is true", seat=seat_mark(winner))
        )
    return dead, winner


def _read_penalties(raw: Any, players: int, winner: str | None) -> list[tuple[str, str]]:
    """``penalties``: ``(seat, kind)`` each, checked (kinds 30, 31)."""
    penalties: list[tuple[str, str]] = []
    if raw is None:
        return penalties
    if type(raw) is not list:
        raise RecordError(
            "penalties",
            words("must be a list of {seat, kind} objects, not %(value)s", value=repr(raw)),
        )
    seat_names = SEAT_NAMES_OF[players]
    for index, entry in enumerate(raw):
        penalties.append(_read_penalty(entry, index, players, seat_names, penalties, winner))
    return penalties


def _read_all_melds(
    raw: Any,
    players: int,
    wild: int | None,
    flags: Mapping[str, bool],
    in_sight: list[int],
    winner: str | None,
) -> dict[str, list[tuple[list[int], int]]]:
    """``melds`` (kinds 9, 11 to 21), the winner's with two sets of four or more."""
    set_flags = (
        "same_colour_sets" in flags,
        "same_colour_wilds" in flags,
        "number_wilds_not_in_face_sets" in flags,
    )
    melds = {} if raw is None else _read_melds(raw, players, wild, set_flags, in_sight)
    if winner is not None:
        _check_winner_fours(melds.get(winner, []), winner)
    return melds


def _check_winner_fours(sets: list[tuple[list[int], int]], winner: str) -> None:
    """Going out takes two sets of four or more."""
    fours = sum(1 for cards, _category in sets if len(cards) >= 4)
    if fours < 2:
        raise RecordError(
            f"melds.{winner}",
            words(
                "the winner %(seat)s has 1 set of four or more; going out needs two",
                seat=winner,
            )
            if fours == 1
            else words(
                "the winner %(seat)s has %(count)s sets of four or more; going out needs two",
                seat=winner,
                count=fours,
            ),
        )


def _read_god(raw: Any, players: int, up: int) -> str | None:
    """``god``: who played the god card (kinds 26 to 28); never when the joker was turned up."""
    if raw is None:
        return None
    god = read_seat("god", raw, players, f" at a table of {players}")
    if up == JOKER:
        raise RecordError("god", words("the joker was turned up: it is not in play"))
    return god


def score_record(record: Any, settings: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The board score of a record (section 5.2), or ``RecordError`` naming the field.

    ``settings`` (a tournament's) gives ``direction`` and ``options`` when the record does not.
    """
    record = record_object(record, GAME_ID, RECORD_FIELDS)
    get = record.get
    # The deal may supply players and up; its own fault is reported in its turn.
    raw_deal = get("deal")
    deal, deal_error = read_deal(raw_deal, _parse_deal)
    players = read_players(get("players"), deal.players if deal is not None else 4)
    assert players is not None  # given, dealt or 4
    read_direction(get("direction"), "counterclockwise", "counterclockwise or clockwise")
    flags, set_values = _read_options_or_settings(get("options"), settings)
    up = _read_up(get("up"), raw_deal, deal, deal_error, players)
    seats = SEATS_OF[players]
    dead, winner = _read_outcome(get("dead"), get("winner"), players)
    penalties = _read_penalties(get("penalties"), players, winner)
    wild = RANK_OF[up]
    # Every card in sight, gathered while reading, for the count of kind 29 at the end.
    in_sight = [up] if players != 3 else []
    melds = _read_all_melds(get("melds"), players, wild, flags, in_sight, winner)
    raw_hands = get("hands")
    hands = {} if raw_hands is None else _read_hands(raw_hands, players, in_sight)
    _check_who_holds_cards(hands, seats, winner, dead, penalties)
    god = _read_god(get("god"), players, up)
    _check_jokers_in_hands(hands, seats, up, god)
    if _too_many(in_sight):
        _find_too_many(seats, melds, hands, up, players)
    return settle(
        players=players,
        up=up,
        wild=wild,
        winner=winner,
        dead=dead,
        melds=melds,
        hands=hands,
        god=god,
        penalties=penalties,
        flags=flags,
        set_values=set_values,
    )


def _refuse_cards(raw: Any, path: str, what: str) -> NoReturn:
    """``RecordError`` for cards that are not a list of card texts: say which is wrong."""
    if type(raw) is not list:
        raise RecordError(
            path,
            words("must be a list of cards (%(what)s), not %(value)s", what=what, value=repr(raw)),
        )
    for index, text in enumerate(raw):
        if type(text) is not str or text not in CARD_CODES:
            raise RecordError(
                f"{path}[{index}]",
                words(
                    "%(value)s is not a card (rank A 2-9 T J Q K and suit S H D C, or JK)",
                    value=repr(text),
                ),
            )
    raise AssertionError("unreachable")  # pragma: no cover


def _read_melds(
    raw_melds: Any,
    players: int,
    wild: int | None,
    set_flags: tuple[bool, bool, bool],
    in_sight: list[int],
) -> dict[str, list[tuple[list[int], int]]]:
    """Every seat's sets as ``(cards, category index)``, seat by seat in seat order; their
    cards are added to ``in_sight``."""
    _seat_map(raw_melds, "melds", players, words("lists of sets"))
    melds = {}
    for seat in SEATS_OF[players]:
        raw_sets = raw_melds.get(seat)
        if raw_sets is None:
            if seat in raw_melds:
                raise RecordError(f"melds.{seat}", words("must be a list of sets, not None"))
            continue
        if type(raw_sets) is not list:
            raise RecordError(
                f"melds.{seat}",
                words("must be a list of sets, not %(value)s", value=repr(raw_sets)),
            )
        melds[seat] = _read_sets(raw_sets, seat, wild, set_flags, in_sight)
    return melds


def _read_one_set(
    raw_set: Any, seat: str, index: int, wild: int | None, set_flags: tuple[bool, bool, bool]
) -> tuple[list[int], int, int]:
    """``(cards, natural rank, category index)`` of one set, a list of card texts (3.4); the
    path is written only for a fault."""
    if type(raw_set) is not list:
        raise RecordError(
            f"melds.{seat}[{index}]",
            words("must be a list of cards, not %(value)s", value=repr(raw_set)),
        )
    try:
        cards = [CARD_CODES[text] for text in raw_set]
    except (KeyError, TypeError):  # not a card, or not even hashable
        _refuse_cards(raw_set, f"melds.{seat}[{index}]", words("a set"))
    try:
        rank, category, _wilds = read_set(cards, wild, *set_flags)
    except SetFault as fault:
        # The fault's reason as the engine's words, for the pages to translate.
        raise RecordError(f"melds.{seat}[{index}]", fault.args[0]) from None
    return cards, rank, category


def _read_sets(
    raw_sets: list,
    seat: str,
    wild: int | None,
    set_flags: tuple[bool, bool, bool],
    in_sight: list[int],
) -> list[tuple[list[int], int]]:
    """One seat's sets, each checked (3.4), one set of a rank, three-card sets only after
    two of four. Paths are written only for a fault."""
    sets = []
    ranks = set()
    fours = 0
    first_three = -1
    for index, raw_set in enumerate(raw_sets):
        cards, rank, category = _read_one_set(raw_set, seat, index, wild, set_flags)
        if rank in ranks:
            raise RecordError(
                f"melds.{seat}[{index}]",
                words(
                    "a second set of %(rank)ss; a player has one set of each rank",
                    rank=RANK_CHARS[rank],
                ),
            )
        ranks.add(rank)
        if len(cards) >= 4:
            fours += 1
        elif first_three < 0:
            first_three = index
        sets.append((cards, category))
        in_sight += cards
    if first_three >= 0:
        _check_three_after_fours(seat, first_three, fours)
    return sets


def _check_three_after_fours(seat: str, first_three: int, fours: int) -> None:
    """A three-card set only with two sets of four or more."""
    if fours < 2:
        raise RecordError(
            f"melds.{seat}[{first_three}]",
            words(
                "a three-card set, but %(seat)s has 1 set of four or more (two needed)", seat=seat
            )
            if fours == 1
            else words(
                "a three-card set, but %(seat)s has %(count)s sets of four or more (two needed)",
                seat=seat,
                count=fours,
            ),
        )


def _read_hands(raw_hands: Any, players: int, in_sight: list[int]) -> dict[str, list[int]]:
    """The cards each seat holds, for the seats the record names (a ``null`` hand is refused);
    they are added to ``in_sight``."""
    _seat_map(raw_hands, "hands", players, words("lists of cards"))
    hands = {}
    for seat in SEATS_OF[players]:
        if seat in raw_hands:
            cards = _read_hand(raw_hands[seat], seat)
            hands[seat] = cards
            in_sight += cards
    return hands


def _read_hand(raw: Any, seat: str) -> list[int]:
    """One seat's hand, a list of card texts."""
    if type(raw) is not list:
        _refuse_cards(raw, f"hands.{seat}", words("the hand"))
    try:
        return [CARD_CODES[text] for text in raw]
    except (KeyError, TypeError):  # not a card, or not even hashable
        _refuse_cards(raw, f"hands.{seat}", words("the hand"))


def _check_who_holds_cards(
    hands: dict[str, list[int]],
    seats: tuple[str, ...],
    winner: str | None,
    dead: bool,
    penalties: list[tuple[str, str]],
) -> None:
    """The winner and whoever threw his hand out hold nothing; everybody else holds cards."""
    thrown = [seat for seat, kind in penalties if kind == "improper_draw"]
    for seat in seats:
        fault = _holding_fault(seat, bool(hands.get(seat)), seat == winner, seat in thrown, dead)
        if fault is not None:
            raise RecordError(f"hands.{seat}", fault)


def _holding_fault(seat: str, held: bool, winner: bool, thrown: bool, dead: bool) -> str | None:
    """Why a seat should, or should not, hold cards; None when it is right."""
    mark = seat_mark(seat)
    if winner:
        return words("the winner %(seat)s went out: no cards", seat=mark) if held else None
    if thrown:
        out = words("%(seat)s threw his hand out (improper_draw): no cards", seat=mark)
        return out if held else None
    if held:
        return None
    if dead:
        return words("%(seat)s holds no cards, but the hand was dead", seat=mark)
    return words("%(seat)s holds no cards, but he did not go out", seat=mark)


def _check_jokers_in_hands(
    hands: dict[str, list[int]], seats: tuple[str, ...], up: int, god: str | None
) -> None:
    """The joker is in a hand at most once, and not at all when it was turned up or played."""
    joker_at = "god" if god is not None else None
    for path in _joker_paths(hands, seats):
        if up == JOKER:
            raise RecordError(path, words("the joker was turned up: it is not in play"))
        if joker_at is not None:
            raise RecordError(
                path, words("the joker is there twice (also %(place)s)", place=joker_at)
            )
        joker_at = path


def _joker_paths(hands: dict[str, list[int]], seats: tuple[str, ...]) -> list[str]:
    """Where the joker is in the hands, in reading order."""
    return [
        f"hands.{seat}[{index}]"
        for seat in seats
        if JOKER in hands.get(seat, ())
        for index, card in enumerate(hands[seat])
        if card == JOKER
    ]


def _too_many(cards: list[int]) -> bool:
    """Whether some card is there more often than the packs hold it (kind 29), the joker
    aside (its places are checked with the god card). Sorted, a number card there three times
    sits next-but-one to itself and a face card twice next to itself: both looked for in C."""
    cards.sort()
    faces = cards[bisect_left(cards, FIRST_FACE_CARD) : bisect_left(cards, JOKER)]
    return any(map(eq, cards, cards[2:])) or any(map(eq, faces, faces[1:]))


def _places(
    seats: tuple[str, ...],
    melds: dict[str, list[tuple[list[int], int]]],
    hands: dict[str, list[int]],
) -> list[tuple[str, int]]:
    """``(path, card)`` of every card in sight in reading order: the sets seat by seat, then
    the hands seat by seat."""
    places = []
    for seat in seats:
        for index, (cards, _category) in enumerate(melds.get(seat, ())):
            places += [(f"melds.{seat}[{index}][{k}]", card) for k, card in enumerate(cards)]
    for seat in seats:
        places += [(f"hands.{seat}[{k}]", card) for k, card in enumerate(hands.get(seat, ()))]
    return places


def _find_too_many(
    seats: tuple[str, ...],
    melds: dict[str, list[tuple[list[int], int]]],
    hands: dict[str, list[int]],
    up: int,
    players: int,
) -> None:
    """``RecordError`` at the first card, in reading order (the turned-up card, the sets seat
    by seat, the hands seat by seat), that goes over the packs' count."""
    counts = [0] * CARDS
    if players != 3:
        counts[up] = 1  # out of play, in sight
    for path, card in _places(seats, melds, hands):
        if card == JOKER:
            continue  # the joker's places are checked with the god card
        counts[card] += 1
        if counts[card] > COPIES[card]:
            raise RecordError(path, _too_often(card, players != 3 and card == up))


def _too_often(card: int, counted: bool) -> str:
    """Why a card is there too often: the packs' count (and the turned-up card's, counted)."""
    text = CARD_TEXT[card]
    if COPIES[card] == 1:
        if counted:
            return words(
                "%(card)s appears too often: the packs hold it once (counting the turned-up "
                "card, out of play)",
                card=text,
            )
        return words("%(card)s appears too often: the packs hold it once", card=text)
    if counted:
        return words(
            "%(card)s appears too often: the packs hold it twice (counting the turned-up "
            "card, out of play)",
            card=text,
        )
    return words("%(card)s appears too often: the packs hold it twice", card=text)


def _penalty_seat(raw: Any, index: int, players: int, seat_names: dict[str, str]) -> str:
    seat = seat_names.get(raw) if type(raw) is str else None
    if seat is None:
        raise RecordError(
            f"penalties[{index}].seat",
            words(
                "missing (at a table of %(players)s: %(seats)s)",
                players=players,
                seats=seat_list(players),
            )
            if raw is None
            else words(
                "%(value)s is not a seat (at a table of %(players)s: %(seats)s)",
                value=repr(raw),
                players=players,
                seats=seat_list(players),
            ),
        )
    return seat


def _penalty_kind(raw: Any, index: int) -> str:
    kind = PENALTY_NAMES.get(raw.lower()) if type(raw) is str else None
    if kind is None:
        kinds = ", ".join(PENALTY_KINDS)
        raise RecordError(
            f"penalties[{index}].kind",
            words("missing (%(kinds)s)", kinds=kinds)
            if raw is None
            else words("%(value)s is not a penalty (%(kinds)s)", value=repr(raw), kinds=kinds),
        )
    return kind


def _check_penalty_fields(entry: dict[str, Any], index: int) -> None:
    """A penalty has a seat and a kind, nothing else (a null unknown field is absent)."""
    if not PENALTY_FIELDS.issuperset(entry):
        for key, value in entry.items():
            if key not in PENALTY_FIELDS and value is not None:
                raise RecordError(f"penalties[{index}].{key}", words("unknown field"))


def _read_penalty(
    entry: Any,
    index: int,
    players: int,
    seat_names: dict[str, str],
    seen: list[tuple[str, str]],
    winner: str | None,
) -> tuple[str, str]:
    """One penalty ``(seat, kind)``, checked (kinds 30, 31); the path is written for a fault."""
    if type(entry) is not dict:
        raise RecordError(
            f"penalties[{index}]",
            words("must be an object {seat, kind}, not %(value)s", value=repr(entry)),
        )
    _check_penalty_fields(entry, index)
    seat = _penalty_seat(entry.get("seat"), index, players, seat_names)
    kind = _penalty_kind(entry.get("kind"), index)
    if (seat, kind) in seen:
        raise RecordError(
            f"penalties[{index}]",
            words("%(seat)s has %(kind)s twice", seat=seat_mark(seat), kind=kind),
        )
    if seat == winner and kind != "out_of_turn":
        raise RecordError(
            f"penalties[{index}]",
            words(
                "the winner %(seat)s cannot have %(kind)s: the offender cannot win",
                seat=seat,
                kind=kind,
            ),
        )
    return seat, kind
