"""Sets (3.4), the options that restrict them (3.10) and the set value table (4.3).

One function, ``read_set``, decides whether cards make a valid set and which row of the value
table it falls in; the record reader and the simple player both use it, so a simulated board
never lays down what a record would refuse.
"""

from __future__ import annotations

from engine.core.messages import words
from engine.games.pysngtaut.cards import FACE_RANKS, JOKER, NATURAL_RANK, RANK_CHARS, RED

#: The value table in table order (4.3): the first row that fits a set is its category.
CATEGORIES = (
    ("3-natural-face", 20_000),
    ("3-face-wild", 10_000),
    ("3-natural-number", 10_000),
    ("3-number-wild", 5_000),
    ("4-natural-face", 2_000),
    ("4-natural-red", 1_500),
    ("4-natural-black", 1_100),
    ("4-face-wild", 1_000),
    ("4-natural", 1_000),
    ("4-number-wild", 500),
)
CATEGORY_IDS = tuple(name for name, _value in CATEGORIES)
#: The source's row of each category (4.3).
CATEGORY_ROWS = {
    "3-natural-face": words("3 Natural Face Cards"),
    "3-face-wild": words("3 Face Cards with Wilds"),
    "3-natural-number": words("3 Natural Number Cards"),
    "3-number-wild": words("3 Number Cards with Wilds"),
    "4-natural-face": words("4 Natural Face Cards"),
    "4-natural-red": words("4 Natural Red Cards"),
    "4-natural-black": words("4 Natural Black Cards"),
    "4-face-wild": words("4 Face Cards with Wilds"),
    "4-natural": words("4 Natural Cards"),
    "4-number-wild": words("4 Number Cards with Wilds"),
}
DEFAULT_VALUES = dict(CATEGORIES)
(
    NATURAL_FACE_3,
    FACE_WILD_3,
    NATURAL_NUMBER_3,
    NUMBER_WILD_3,
    NATURAL_FACE_4,
    NATURAL_RED_4,
    NATURAL_BLACK_4,
    FACE_WILD_4,
    NATURAL_4,
    NUMBER_WILD_4,
) = range(len(CATEGORIES))

#: The flags of 3.10, in the table's order (option 7, ``set_values``, is not a flag).
FLAGS = (
    "same_colour_sets",
    "same_colour_wilds",
    "number_wilds_not_in_face_sets",
    "face_wild_triple",
    "god_draws_seven",
    "pickup_draws_seven",
    "own_sets_offset",
)
OPTION_NAMES = (*FLAGS[:6], "set_values", FLAGS[6])


class SetFault(ValueError):
    """Why cards are not a valid set; the reader adds the field."""


def _naturals(cards: list[int] | tuple[int, ...], wild: int | None) -> tuple[int, int, bool, bool]:
    """``(rank, wild cards, a red natural, a black natural)``: the natural cards are all of
    one rank, the joker is none of them."""
    rank: int | None = None
    wilds = 0
    colours: set[bool] = set()  # of the natural cards: True for red
    for card in cards:
        if card == JOKER:
            raise SetFault(words("holds the joker, which is never part of a set"))
        card_rank = NATURAL_RANK[card]
        if card_rank == wild:
            wilds += 1
            continue
        if rank is None:
            rank = card_rank
        elif card_rank != rank:
            raise SetFault(_mixed(rank, card_rank, wild))
        colours.add(RED[card])
    if rank is None:
        raise SetFault(words("has no natural card (a set of the wild rank is all wild)"))
    return rank, wilds, True in colours, False in colours


#: The row of the value table (4.3) of a set of three, or of four or more, by whether its rank
#: is a face and whether it holds a wild card; a natural number set of four or more is not here.
SIZE_ROWS = {
    (3, True, False): NATURAL_FACE_3,
    (3, True, True): FACE_WILD_3,
    (3, False, False): NATURAL_NUMBER_3,
    (3, False, True): NUMBER_WILD_3,
    (4, True, False): NATURAL_FACE_4,
    (4, True, True): FACE_WILD_4,
    (4, False, True): NUMBER_WILD_4,
}
#: The row of a natural number set of four or more by (a red natural, a black natural).
COLOUR_ROWS = {
    (True, False): NATURAL_RED_4,
    (False, True): NATURAL_BLACK_4,
    (True, True): NATURAL_4,
}


def _category(count: int, face: bool, wilds: int, red: bool, black: bool) -> int:
    """The set's row of the table of set values (4.3)."""
    row = SIZE_ROWS.get((min(count, 4), face, wilds > 0))
    return COLOUR_ROWS[red, black] if row is None else row


def _check_wilds(
    cards: list[int] | tuple[int, ...],
    wild: int | None,
    face: bool,
    same_colour_wilds: bool,
    number_wilds_not_in_face_sets: bool,
) -> None:
    """The options that restrict a set with a wild card: same_colour_wilds (all its cards of
    one colour) and number_wilds_not_in_face_sets."""
    if same_colour_wilds and len({RED[card] for card in cards}) == 2:
        raise SetFault(words("a wild card and cards of both colours (option same_colour_wilds)"))
    if number_wilds_not_in_face_sets and face and wild not in FACE_RANKS:
        raise SetFault(
            words("a face-rank set with a wild card (option number_wilds_not_in_face_sets)")
        )


def _too_few(count: int) -> str:
    if count == 1:
        return words("1 card; a set has at least 3")
    return words("%(count)s cards; a set has at least 3", count=count)


def read_set(
    cards: list[int] | tuple[int, ...],
    wild: int | None,
    same_colour_sets: bool = False,
    same_colour_wilds: bool = False,
    number_wilds_not_in_face_sets: bool = False,
) -> tuple[int, int, bool]:
    """``(natural rank, category index, has a wild card)`` of a set (3.4, 4.3), or ``SetFault``
    with the reason (section 6, kinds 12 to 15 and 19 to 21)."""
    count = len(cards)
    if count < 3:
        raise SetFault(_too_few(count))
    rank, wilds, red, black = _naturals(cards, wild)
    face = rank in FACE_RANKS
    if same_colour_sets and not face and red and black:
        raise SetFault(words("natural cards of both colours (option same_colour_sets)"))
    if wilds:
        _check_wilds(cards, wild, face, same_colour_wilds, number_wilds_not_in_face_sets)
    return rank, _category(count, face, wilds, red, black), wilds > 0


def _mixed(rank: int, other: int, wild: int | None) -> str:
    first, second = RANK_CHARS[rank], RANK_CHARS[other]
    if wild is None:
        return words(
            "cards of two ranks, %(first)s and %(second)s; nothing is wild (the joker is turned "
            "up)",
            first=first,
            second=second,
        )
    return words(
        "cards of two ranks, %(first)s and %(second)s; only %(wild)s is wild",
        first=first,
        second=second,
        wild=RANK_CHARS[wild],
    )
