"""Pys'ngtaut behind the generic game interface (``engine.games.base.Game``)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.core.errors import SettingsError
from engine.core.messages import Words, joined, words
from engine.core.seats import DIRECTIONS, SEAT_LETTERS, SEAT_NAMES, table_seats
from engine.games.base import PLAYERS, Game, Setting, board_mismatch, play_in_words
from engine.games.pysngtaut import cards
from engine.games.pysngtaut.cards import (
    CARD_CODES,
    CARD_TEXT,
    COPIES,
    JOKER,
    NATURAL_RANK,
    RANK_CHARS,
    RANK_OF,
    RANK_VALUE,
    SUIT_CHARS,
    PysngtautDeal,
)
from engine.games.pysngtaut.play import board_record, play_board
from engine.games.pysngtaut.records import (
    PENALTY_KINDS,
    options_of_settings,
    score_record,
    value_setting,
)
from engine.games.pysngtaut.scoring import CARD_VALUE, describe
from engine.games.pysngtaut.sets import (
    CATEGORIES,
    CATEGORY_IDS,
    CATEGORY_ROWS,
    DEFAULT_VALUES,
    FLAGS,
)

DIRECTION_CHOICES = (
    ("counterclockwise", "Counter-clockwise (N → W → S → E), as the source plays"),
    ("clockwise", "Clockwise (N → E → S → W)"),
)
FLAG_CHOICES = (("off", "Off"), ("on", "On"))
FLAG_LABELS = {
    "same_colour_sets": (
        "Option 1: same-colour sets",
        "The natural cards of a number-rank set are all red or all black.",
    ),
    "same_colour_wilds": (
        "Option 2: same-colour wild sets",
        "A set with a wild card holds cards of one colour only.",
    ),
    "number_wilds_not_in_face_sets": (
        "Option 3: no number wilds in face sets",
        "When the wild rank is a number, a face-rank set holds no wild card.",
    ),
    "face_wild_triple": (
        "Option 4: face wilds triple",
        "When the wild rank is J, Q or K, every payment of the board is tripled.",
    ),
    "god_draws_seven": (
        "Option 5: the god card's holder takes seven",
        "He takes seven cards with the up card like everybody (play only).",
    ),
    "pickup_draws_seven": (
        "Option 6: always take seven",
        "The seven cards are taken even when the up card alone lets him go out (play only).",
    ),
    "own_sets_offset": (
        "Option 8: own sets offset",
        "A loser's own set value is taken off what he pays the winner, never below 0.",
    ),
}
FACES = "JQK"
#: The options that make a set invalid (3.10, options 1 to 3): the picker applies them too.
SET_RESTRICTIONS = ("same_colour_sets", "same_colour_wilds", "number_wilds_not_in_face_sets")
PENALTY_WORDS = {
    "improper_draw": words("improper draw"),
    "improper_meld": words("improper meld"),
    "out_of_turn": words("played out of turn"),
}


@dataclass(frozen=True)
class FlagSetting(Setting):
    """An option on or off: ``"on"``/``"off"`` (as a form gives it), or ``true``/``false``."""

    def check(self, value: Any) -> Any:
        if value is True or value is False:
            return "on" if value else "off"
        if value not in ("on", "off"):
            raise SettingsError(self.name, f"{value!r} is not on or off")
        return value


def _flag_setting(name: str) -> FlagSetting:
    label, help_text = FLAG_LABELS[name]
    return FlagSetting(name, label, "off", FLAG_CHOICES, help=help_text)


def _up_code(up: Any, deal: Any) -> int:
    """The turned-up card: the one entered (in any case), else the deal's."""
    if up is None:
        return (cards.parse_deal(deal) if isinstance(deal, str) else deal).up
    code = CARD_CODES.get(str(up).upper())
    if code is None:
        raise ValueError(f"{up!r} is not a card")
    return code


def _cards_rows(melds: Mapping[str, Any], held_cards: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Every seat's sets, then every seat's hand, in words; seats in table order, whatever
    order a stored record's keys came back in."""
    rows: list[tuple[str, str]] = [
        (
            words("Sets of %(seat)s", seat=SEAT_NAMES[seat]),
            joined([_cards_words(meld) for meld in melds[seat]], " · "),
        )
        for seat in SEAT_LETTERS
        if melds.get(seat)
    ]
    rows += [
        (words("%(seat)s's hand", seat=SEAT_NAMES[seat]), _cards_words(held_cards[seat]))
        for seat in SEAT_LETTERS
        if held_cards.get(seat)
    ]
    return rows


def _copies_left(code: int | None, players: int) -> dict[str, int]:
    """How often each card may appear in an entry: the turned-up card taken off with 2 or 4
    players, the joker gone when it was turned up."""
    copies = {CARD_TEXT[card]: COPIES[card] for card in range(len(CARD_TEXT))}
    if code is not None and players != 3:
        copies[CARD_TEXT[code]] -= 1
    if code == JOKER:
        copies.pop("JK")
    return copies


def _entry_multiplier(code: int, wild: str | None, options: Mapping[str, Any]) -> int:
    """Double when the joker is turned up; triple more for a face wild rank (option)."""
    multiplier = 2 if code == JOKER else 1
    if wild is not None and wild in FACES and options.get("face_wild_triple"):
        multiplier *= 3
    return multiplier


def _what_up_decides(
    code: int | None, copies: Mapping[str, int], options: Mapping[str, Any]
) -> tuple[str | None, str | None, dict[str, int] | None, int | None]:
    """``(up, wild rank, each card's hand value, multiplier)`` of a turned-up card; all None
    while it is unknown."""
    if code is None:
        return None, None, None, None
    wild = None if code == JOKER else RANK_CHARS[NATURAL_RANK[code]]
    values = CARD_VALUE[RANK_OF[code]]
    hand_values = {text: values[CARD_CODES[text]] for text in copies}
    return CARD_TEXT[code], wild, hand_values, _entry_multiplier(code, wild, options)


def _up_row(up: Any) -> list[tuple[str, str]]:
    """The turned-up card's row, when the record gives one (a record stored before North
    entered it shows nothing of its deal)."""
    if isinstance(up, str) and up.upper() in CARD_CODES:
        return [(words("Turned up"), _cards_words([up.upper()]))]
    return []


def _penalty_rows(raw: list[Any]) -> list[tuple[str, str]]:
    """The penalties' row, when the record has any."""
    penalties = [
        words(
            "%(seat)s: %(penalty)s",
            seat=SEAT_NAMES[str(p["seat"]).upper()],
            penalty=PENALTY_WORDS[str(p["kind"]).lower()],
        )
        for p in raw
    ]
    return [(words("Penalties"), joined(penalties, "; "))] if penalties else []


#: The pack as the phone counts it, each card's rank as a wild rank, and each rank's value.
PHONE_PACK = {CARD_TEXT[card]: COPIES[card] for card in range(len(CARD_TEXT))}
PHONE_WILD_OF = {text: None if text == "JK" else text[0] for text in CARD_TEXT}
PHONE_RANK_VALUES = dict(zip(RANK_CHARS, RANK_VALUE, strict=True))


def _set_rules(chosen: Mapping[str, Any]) -> dict[str, Any]:
    """What the phone needs to classify a set as it is built: the multipliers, the options
    that restrict sets, each category's row and value (option 7 included)."""
    values = {**DEFAULT_VALUES, **chosen.get("set_values", {})}
    return {
        "multipliers": {
            "joker_up": 2,
            "face_wild": 3 if chosen.get("face_wild_triple") else 1,
        },
        "restrictions": {name: bool(chosen.get(name)) for name in SET_RESTRICTIONS},
        "categories": [
            {"id": name, "row": CATEGORY_ROWS[name], "value": values[name]} for name in CATEGORY_IDS
        ],
    }


def _held_hands(hands: Mapping[str, Any]) -> dict[str, Any]:
    """The hands that hold cards."""
    return {seat: held for seat, held in hands.items() if held}


def _counted_sets(
    record: Mapping[str, Any], winner: str | None, penalties: list[Any]
) -> dict[str, Any]:
    """The sets the scorer enters: the winner's, or every seat's when they all count."""
    melds = record.get("melds") or {}
    all_sets = _all_sets_count(record.get("options") or {}, penalties)
    return {seat: sets for seat, sets in melds.items() if sets and (all_sets or seat == winner)}


def _all_sets_count(options: Mapping[str, Any], penalties: list[Any]) -> bool:
    """Whether every seat's sets count, not the winner's alone: option own_sets_offset, or a
    penalty for playing out of turn."""
    return options.get("own_sets_offset") is True or any(
        isinstance(p, dict) and str(p.get("kind", "")).lower() == "out_of_turn" for p in penalties
    )


def _direction(settings: Mapping[str, Any] | None) -> str:
    direction = (settings or {}).get("direction") or "counterclockwise"
    if direction not in DIRECTIONS:
        raise ValueError(f"unknown direction {direction!r} (clockwise or counterclockwise)")
    return direction


def _flags(settings: Mapping[str, Any] | None) -> dict[str, bool]:
    return {name: True for name in FLAGS if (settings or {}).get(name) in (True, "on")}


def _cards_words(texts: list[str]) -> str:
    return joined([cards.CARD_WORDS[CARD_CODES[text]] for text in texts], " ") if texts else "—"


class PysngtautGame(Game):
    id = "pysngtaut"
    title = "Pys'ngtaut"
    deal_help = (
        "Deal notation: the dealer's letter and a colon, then groups separated by spaces: the "
        "turned-up card, the hands (7 cards each) clockwise from the dealer's, pile 1 and "
        "pile 2 (top card first). Cards are rank then suit (A 2-9 T J Q K; S H D C), the "
        "joker JK, written one after another. With 3 players pile 2 ends with the turned-up "
        "card. Example: N:7D 8CJC9S3DTD7D3C 6S6C9HAS5C4H5S QC9C... AD3S..."
    )
    table_sizes = (2, 3, 4)
    entrants = PLAYERS
    setting_fields = (
        Setting(
            "direction",
            "Play direction",
            "counterclockwise",
            choices=DIRECTION_CHOICES,
            help="The first turn is the seat after the dealer in this direction.",
        ),
        # In the options' own order: 1 to 6, the values of option 7, then 8.
        *(_flag_setting(name) for name in FLAGS if name != "own_sets_offset"),
        *(
            Setting(
                value_setting(category),
                f"Option 7: value of {category}",
                value,
                minimum=0,
                help=f"The table's own value of a {category} set (the source's: {value:,}).",
            )
            for category, value in CATEGORIES
        ),
        _flag_setting("own_sets_offset"),
    )
    #: North enters the turned-up card (``up``) too: it lies face up through the whole hand,
    #: and the entry is scored without the deal, then checked against it.
    entry_fields = frozenset({"up", "winner", "dead", "melds", "hands", "god", "penalties"})
    #: The phone's entry (engine/games/pysngtaut/static/entry.js) reads ``entry_form``.
    entry_kind = "pysngtaut-entry"
    entry_script = "entry.js"
    entry_style = "entry.css"

    # -- deals ------------------------------------------------------------------------------

    def parse_deal(self, text: Any) -> PysngtautDeal:
        return cards.parse_deal(text)

    def format_deal(self, deal: PysngtautDeal) -> str:
        return cards.format_deal(deal)

    def deal_cards(self, rng: random.Random, *, players: int, dealer: str) -> PysngtautDeal:
        return cards.deal_cards(rng, players=players, dealer=dealer)

    def deal_problem(self, deal: PysngtautDeal, *, players: int, dealer: str) -> str | None:
        return board_mismatch(deal, players=players, dealer=dealer)

    def hands_in_words(self, deal: PysngtautDeal) -> list[tuple[str, str]]:
        return cards.hands_in_words(deal)

    def default_boards(self, players: int) -> int:
        """One board dealt by each seat (2.4)."""
        return players

    # The dealer of board b is the ((b - 1) mod n + 1)-th seat: the base class's rotation.

    # -- records and scores -----------------------------------------------------------------

    def score(self, record: Any, settings: Mapping[str, Any] | None = None) -> dict[str, Any]:
        return score_record(record, settings)

    def describe(self, score: Mapping[str, Any]) -> str:
        return describe(score)

    def outcome(self, score: Mapping[str, Any]) -> tuple[str, str] | None:
        return ("hand", "won") if score["winner"] is not None else ("dead hand", "")

    def totals_entry(self, score: Mapping[str, Any], seat: str) -> tuple[float, int]:
        """Totals: the sum of a player's table results, no tie-break of the game's own."""
        return score["seats"][seat], 0

    def rules_in_detail(self, settings: Mapping[str, Any]) -> list[tuple[str, str, Any]]:
        # The engine's words: the exports give them in the file's language (an option's label
        # is its setting's label, in the catalogue as the settings form shows it).
        direction = _direction(settings)
        rows: list[tuple[str, str, Any]] = [
            (
                "Pys'ngtaut",
                words("Pack"),
                words("93 cards: A-10 twice and J Q K once in four suits, a joker"),
            ),
            ("Pys'ngtaut", words("Cards per player"), 7),
            (
                "Pys'ngtaut",
                words("Wild rank"),
                words("the rank of the turned-up card (none for the joker)"),
            ),
            (
                "Pys'ngtaut",
                words("Play direction"),
                words("clockwise") if direction == "clockwise" else words("counterclockwise"),
            ),
            (
                "Pys'ngtaut",
                words("Hand values"),
                words("K Q J 50; 10-6 10; 5-A 5; wild cards and joker 0"),
            ),
            (
                "Pys'ngtaut",
                words("Pot of a dead hand"),
                words("lost (no pot carried to the next board)"),
            ),
        ]
        flag_words = {"off": words("off"), "on": words("on")}
        for name in FLAGS:
            value = settings.get(name, "off")
            rows.append(
                (words("Options"), Words(FLAG_LABELS[name][0]), flag_words.get(value, value))
            )
        for category, amount in CATEGORIES:
            rows.append(
                (words("Set values"), category, settings.get(value_setting(category), amount))
            )
        return rows

    def table_context(
        self, settings: Mapping[str, Any], table: int, players: int = 4
    ) -> dict[str, Any]:
        return {"facts": [(words("Play"), play_in_words(_direction(settings), players))]}

    # -- entry ------------------------------------------------------------------------------

    def entry_record(
        self,
        facts: Mapping[str, Any],
        *,
        settings: Mapping[str, Any],
        table: int,
        players: int,
        dealer: str,
        deal: str,
    ) -> dict[str, Any]:
        """The scorer's facts (the turned-up card among them) with what the tournament knows:
        players, the direction and the options of its settings, and the deal when it is given
        (the server scores an entry without it, then with it to check the entry against it:
        the deal must then turn up the card entered)."""
        record: dict[str, Any] = {"game": self.id, "players": players}
        if deal:
            record["deal"] = deal if isinstance(deal, str) else cards.format_deal(deal)
        record["direction"] = _direction(settings)
        options = options_of_settings(settings)
        if options:
            record["options"] = options
        record.update(facts)
        return record

    def scorer_facts(self, record: Mapping[str, Any], score: Mapping[str, Any]) -> dict[str, Any]:
        """What the scorer enters (5.1): the turned-up card, the winner or dead, the winner's
        sets (every seat's when option 8 or an out-of-turn penalty makes them count), the
        hands, the god card and the penalties."""
        facts: dict[str, Any] = {"up": CARD_TEXT[_up_code(record.get("up"), record.get("deal"))]}
        winner = score["winner"]
        if winner is None:
            facts["dead"] = True
        else:
            facts["winner"] = winner
        penalties = list(record.get("penalties") or [])
        entered = {
            "melds": _counted_sets(record, winner, penalties),
            "hands": _held_hands(record.get("hands") or {}),
            "god": score["god"],  # a seat, or None
            "penalties": penalties,
        }
        facts.update((name, value) for name, value in entered.items() if value)
        return facts

    def entry_in_words(
        self, record: Mapping[str, Any], score: Mapping[str, Any]
    ) -> list[tuple[str, str]]:
        winner = score["winner"]
        # Only the card entered: a record without one shows nothing of its deal here.
        rows = _up_row(record.get("up"))
        outcome = (
            words("dead hand")
            if winner is None
            else words("%(seat)s went out", seat=SEAT_NAMES[winner])
        )
        rows.append((words("Outcome"), outcome))
        rows += _cards_rows(record.get("melds") or {}, record.get("hands") or {})
        god = score["god"]
        rows.append(
            (
                words("God card"),
                words("in front of %(seat)s", seat=SEAT_NAMES[god])
                if god
                else words("not in front of anybody"),
            )
        )
        rows += _penalty_rows(record.get("penalties") or [])
        return rows

    def entry_options(
        self,
        *,
        players: int = 4,
        dealer: str = "N",
        up: Any = None,
        deal: Any = None,
        settings: Mapping[str, Any] | None = None,
        **_: Any,
    ) -> dict[str, Any]:
        """What the scorer may enter once the turned-up card is known (``up``, or the deal's):
        the outcomes; the wild rank; every card with how often it may appear (the turned-up
        card taken off with 2 or 4 players); each card's value in a hand; the board
        multiplier; the god card's places; the penalties; and whether losers' sets are asked
        for. Without a turned-up card, ``up``, ``wild``, ``hand_values`` and ``multiplier``
        are None and ``cards`` is the whole pack. The phone works the same out from the card
        North picks (``entry_form``)."""
        seats = list(table_seats(players))
        code = None if up is None and deal is None else _up_code(up, deal)
        copies = _copies_left(code, players)
        options = options_of_settings(settings)
        up_text, wild, hand_values, multiplier = _what_up_decides(code, copies, options)
        return {
            "players": players,
            "seats": seats,
            "dealer": dealer,
            "outcomes": [*seats, "dead"],
            "up": up_text,
            "wild": wild,
            "cards": copies,
            "hand_values": hand_values,
            "multiplier": multiplier,
            "god": [None] if code == JOKER else [None, *seats],
            "penalties": list(PENALTY_KINDS),
            "losers_sets": "always" if options.get("own_sets_offset") else "with out_of_turn",
            "set_categories": list(CATEGORY_IDS),
        }

    def entry_form(self, **context: Any) -> dict[str, Any]:
        """What the phone's entry needs for a board, and nothing of its deal (GAMES.md, "What
        the phone may learn"): the same for every deal, and the deal is never read, even when
        the context holds it. North picks the turned-up card (``up_cards``: every card and the
        joker), and the phone works out from it what ``entry_options`` gives with that card:
        its wild rank (``wild_of``), the copies left (``pack``, less the turned-up card when
        ``up_out_of_play``: 2 or 4 players), each card's hand value (``rank_values``; a card
        of the wild rank and the joker are worth 0), the multiplier (``multipliers``: the
        joker turned up, and a face wild rank, tripling only with option 4) and the god card's
        places (``god``; nobody only, with the joker turned up). Then what it takes to
        classify a set as it is built: the options that restrict sets, each category's row
        and value (option 7 included)."""
        context = {k: v for k, v in context.items() if k not in ("deal", "up")}
        options = self.entry_options(**context)
        chosen = options_of_settings(context.get("settings"))
        for derived in ("up", "wild", "cards", "hand_values", "multiplier"):
            options.pop(derived)
        return {
            **options,
            "fields": [],
            "note": None,
            "ranks": RANK_CHARS,
            "suits": SUIT_CHARS,
            "faces": FACES,
            "red_suits": "HD",
            "up_cards": list(CARD_TEXT),
            "pack": dict(PHONE_PACK),
            "up_out_of_play": options["players"] != 3,
            "wild_of": dict(PHONE_WILD_OF),
            "rank_values": dict(PHONE_RANK_VALUES),
            **_set_rules(chosen),
            "penalty_words": PENALTY_WORDS,
        }

    # -- simulation -------------------------------------------------------------------------

    def simulate_record(
        self,
        deal: PysngtautDeal | str,
        rng: random.Random,
        settings: Mapping[str, Any] | None = None,
        **_: Any,
    ) -> dict[str, Any]:
        """The board played by the simple player, with the tournament's direction and options."""
        if isinstance(deal, str):
            deal = cards.parse_deal(deal)
        direction = _direction(settings)
        board = play_board(deal, rng, direction=direction, flags=_flags(settings))
        record = board_record(board, cards.format_deal(deal))
        if direction != "counterclockwise":
            record["direction"] = direction
        options = options_of_settings(settings)
        if options:
            record["options"] = options
        return record


GAME = PysngtautGame()
