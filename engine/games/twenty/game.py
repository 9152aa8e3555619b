"""Twenty behind the generic game interface (``engine.games.base.Game``)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, cast

from engine.core.errors import RecordError
from engine.core.messages import Words, joined, words
from engine.core.seats import SEAT_LETTERS, SEAT_NAMES
from engine.games.base import PLAYERS, Game, Setting, board_mismatch, play_in_words
from engine.games.twenty import cards
from engine.games.twenty.auction import (
    BID_WORDS,
    NT,
    PART,
    PASS,
    SLAM,
    SOLO,
    SPARROW,
    AuctionState,
    Call,
    CallError,
    apply_call,
    call_text,
    legal_calls,
    new_state,
    next_calls,
    parse_call,
)
from engine.games.twenty.cards import (
    CARD_POINTS,
    CARD_TEXT,
    FEWEST_POINTS,
    HONOURS,
    KINGS,
    MAGICIAN,
    MOST_POINTS,
    SUITS,
    TRUMP_MASK,
    TwentyDeal,
    called_card,
)
from engine.games.twenty.play import play_board, trick_winner
from engine.games.twenty.records import score_record
from engine.games.twenty.scoring import CONTRACT_WORDS, LEVEL_WORDS, describe

BOARDS_PER_TABLE = 4
LEVELS = ("none", "contra", "re", "sub")
LEVEL_NAMES = {"none": "No contra", "contra": "Contra", "re": "Re-contra", "sub": "Sub-contra"}
#: The items that may be contra'd.
ITEMS = (("bid", "Bid"), ("sparrow", "Sparrow"), ("slam", "Slam"))
RANK_NAMES = (words("King"), words("Queen"), words("Cavalier"), words("Jack"), "10")
#: The trumps named apart: the engine's words (the Fool is the Excuse in French).
TRUMP_NAMES = {
    "F": words("Fool"),
    "T21": words("21 (The World)"),
    "T1": words("1 (The Magician)"),
}


def card_name(card: int) -> str:
    """``Fool``, ``21 (The World)``, ``7``, ``1 (The Magician)``, ``King of spades``...: the
    engine's words, in the reader's language on the pages (``Excuse``, ``Roi de pique``)."""
    text = CARD_TEXT[card]
    if card < 20:
        return TRUMP_NAMES.get(text, text[1:])
    return words(
        "%(rank)s of %(suit)s",
        rank=RANK_NAMES[(card - 20) % 5],
        suit=words(SUITS[(card - 20) // 5]),
    )


def _call_words(text: str) -> Words:
    """``E:PART+SPARROW`` as ``East: Partnership + Sparrow``."""
    seat, _colon, call = text.partition(":")
    bid, *bonuses = call.split("+")
    named = [words(BID_WORDS[bid]), *(words(bonus.capitalize()) for bonus in bonuses)]
    return words("%(seat)s: %(call)s", seat=words(SEAT_NAMES[seat]), call=joined(named, " + "))


_CONTRA_LABELS = {
    "bid": words("Contra on the bid"),
    "sparrow": words("Contra on the sparrow"),
    "slam": words("Contra on the slam"),
}
_HELD_LABELS = {"kings": words("Held kings"), "honours": words("Held honours")}


#: Every card of the pack as ``[code, name, group]`` (group: trumps or a suit), highest
#: first; the Magician is the card a Sparrow is won with.
CARD_CHOICES = [
    [CARD_TEXT[card], card_name(card), "trumps" if card < 20 else SUITS[(card - 20) // 5]]
    for card in range(cards.PACK_SIZE)
]


#: The cards a Partnership may call, highest first: T20 down to T4.
CALLED_CARDS = tuple(CARD_TEXT[card] for card in range(2, 19))


def partner_seats(declarer: str, contract: str, announcer: str | None) -> list[str]:
    """The seats a scorer may name as the partner, clockwise from Eldest's left: in a
    Partnership the announcer of the Sparrow without a bid alone, else every seat but Eldest
    (the declarer); none in another game."""
    if contract != PART:
        return []
    if announcer is not None:
        return [announcer]
    return [seat for seat in cards.CLOCKWISE_FROM[declarer] if seat != declarer]


def last_seats(declarer: str, contract: str, partner: str | None, tricks: Any) -> list[str]:
    """The seats that may have won the last trick, given the declarer's side's ``tricks``
    (None: not entered yet, any seat): a side with no trick did not win it. In a Partnership
    with the partner not yet named, a seat other than the declarer may be on either side."""
    if type(tricks) is not int or not 0 <= tricks <= cards.TRICKS:
        return list(SEAT_LETTERS)
    return [
        seat for seat in SEAT_LETTERS if _may_win_last(seat, declarer, contract, partner, tricks)
    ]


def _may_win_last(
    seat: str, declarer: str, contract: str, partner: str | None, tricks: int
) -> bool:
    """Whether ``seat`` may have won the last trick: his side took a trick, either side did
    when his side is not known yet."""
    if seat == declarer or (contract == PART and seat == partner):
        return tricks > 0
    if contract == PART and partner is None:
        return True
    return tricks < cards.TRICKS


def _deal(deal: Any) -> TwentyDeal:
    return cards.parse_deal(deal) if isinstance(deal, str) else deal


def _strength(hand: int) -> float:
    """A rough worth of a hand for playing alone: trumps, Honours, Kings."""
    trumps = (hand & TRUMP_MASK).bit_count()
    return trumps + 1.5 * (hand & HONOURS).bit_count() + 0.7 * (hand & KINGS).bit_count()


def _wants_bid(
    state: AuctionState, bid: str, hand: int, trumps: int, strength: float, rng: random.Random
) -> bool:
    """Whether the simple player makes ``bid``, the lowest he may: Eldest must open; No Trumps
    with Kings and few trumps (or a strong hand), Solo with a strong hand."""
    if bid == NT:
        wants = (hand & KINGS).bit_count() >= 2 and trumps <= 4 and rng.random() < 0.6
        return wants or strength > 11.5
    if bid == SOLO:
        return strength > 10.5
    return state.highest is None


def _bonuses(magician: bool, trumps: int, strength: float, rng: random.Random) -> str:
    """The bonuses a bid carries: the Sparrow with the Magician and many trumps, a Slam very
    rarely."""
    bonus = ""
    if magician and trumps >= 5 and rng.random() < 0.5:
        bonus += "+" + SPARROW
    if (strength > 13 and rng.random() < 0.3) or rng.random() < 0.02:
        bonus += "+" + SLAM
    return bonus


def _choose_call(
    state: AuctionState, seat: str, deal: TwentyDeal, partner: str, rng: random.Random
) -> str:
    """The simple player's call: Eldest opens Partnership; a strong hand bids on (No Trumps
    with Kings and few trumps, Solo with trumps); the partner holding the Magician sometimes
    announces his Sparrow; a bid carries the Sparrow with the Magician and many trumps, and a
    Slam very rarely."""
    hand = deal.hand(seat)
    options = legal_calls(state, partner)
    trumps = (hand & TRUMP_MASK).bit_count()
    magician = bool(hand >> MAGICIAN & 1)
    strength = _strength(hand) + rng.uniform(-2.0, 2.0)
    bids = [call for call in options if call.split("+")[0] != PASS]
    if bids and _wants_bid(state, bids[0], hand, trumps, strength, rng):
        return bids[0] + _bonuses(magician, trumps, strength, rng)
    if PASS + "+" + SPARROW in options and magician and rng.random() < 0.5:
        return PASS + "+" + SPARROW
    return PASS


def _tricks_taken(
    tricks: list[list[int]], declarer: str, no_trumps: bool
) -> tuple[dict[str, int], dict[str, int], dict[str, str]]:
    """``(tricks by seat, card points by seat, the last trick's winner and his card)``."""
    taken = dict.fromkeys(SEAT_LETTERS, 0)
    points = dict.fromkeys(SEAT_LETTERS, 0)
    leader = declarer
    index = 0
    for trick in tricks:
        order = cards.CLOCKWISE_FROM[leader]
        index = trick_winner(trick, no_trumps)
        leader = order[index]
        taken[leader] += 1
        points[leader] += 1 + sum(CARD_POINTS[card] for card in trick)
    return taken, points, {"seat": leader, "card": CARD_TEXT[tricks[-1][index]]}


def _contras(rng: random.Random, sparrow: bool, slam: bool) -> dict[str, str]:
    """A level drawn for each item that stands (bid, sparrow, slam); the contras not none."""
    contras = {}
    for name, stands in (("bid", True), ("sparrow", sparrow), ("slam", slam)):
        if stands:
            level = rng.choices(LEVELS, weights=(70, 18, 8, 4))[0]
            if level != "none":
                contras[name] = level
    return contras


def simulate_board(deal: TwentyDeal, rng: random.Random) -> tuple[dict[str, Any], list[list[int]]]:
    """``(record, tricks played)``: the board as the simple player bids and plays it."""
    eldest = deal.eldest
    called = called_card(deal.hand(eldest))
    partner = deal.holder(called)
    state = _bid(deal, partner, rng)
    # Eldest opens with Partnership: an ended auction always has a highest bid.
    declarer, contract, _sparrow, slam = cast(Call, state.highest)
    side = frozenset((declarer, partner) if contract == PART else (declarer,))
    sparrow_by = state.sparrow_by
    tricks = play_board(
        deal, rng, leader=declarer, side=side, no_trumps=contract == NT, sparrow=sparrow_by
    )
    taken, points, last = _tricks_taken(tricks, declarer, contract == NT)
    record: dict[str, Any] = {
        "game": "twenty",
        "deal": cards.format_deal(deal),
        "auction": [call_text(call) for call in state.calls],
    }
    contras = _contras(rng, sparrow_by is not None, slam)
    if contras:
        record["contras"] = contras
    record.update(_entered_play(rng, points, taken, side, last, sparrow_by is not None))
    return record, tricks


def _bid(deal: TwentyDeal, partner: str, rng: random.Random) -> AuctionState:
    """The auction as the simple player bids it, to its end."""
    state = new_state(deal.dealer)
    while (seat := state.turn) is not None:
        call = _choose_call(state, seat, deal, partner, rng)
        apply_call(state, parse_call(f"{seat}:{call}"))
    return state


def _entered_play(
    rng: random.Random,
    points: dict[str, int],
    taken: dict[str, int],
    side: frozenset[str],
    last: dict[str, Any],
    sparrow: bool,
) -> dict[str, Any]:
    """What the scorer enters of the play: points and tricks, per seat now and then, else the
    side's; the last trick always with a Sparrow, else half the time."""
    per_seat = rng.random() < 0.3
    entered: dict[str, Any] = {
        "points": points if per_seat else sum(points[seat] for seat in side),
        "tricks": taken if per_seat else sum(taken[seat] for seat in side),
    }
    if sparrow or rng.random() < 0.5:
        entered["last"] = last
    return entered


def _contras_entered(score: Mapping[str, Any]) -> dict[str, str]:
    """The items of a score that were contra'd, each with its level."""
    return {
        entry["item"]: entry["contra"]
        for entry in score["items"]
        if entry["item"] in ("bid", "sparrow", "slam") and entry["contra"] != "none"
    }


def _held(score: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The held bonuses of a score (the Kings or the Honours), each with who claimed it."""
    return [(e["item"], e["by"]) for e in score["items"] if e["item"] in ("kings", "honours")]


def _card_words(text: str) -> str:
    """A card of a result in words: a trump by its number ("the 18 of trumps"), the Fool, the
    World and the Magician by name, a suit card by rank and suit ("King of spades")."""
    card = cards.parse_card(text)
    if card is None:
        return text
    if card < 20 and CARD_TEXT[card] not in TRUMP_NAMES:
        return words("the %(number)s of trumps", number=CARD_TEXT[card][1:])
    return card_name(card)


def _partner_words(score: Mapping[str, Any]) -> Words:
    """The declarer's partner, and the card that called him."""
    partner = words(SEAT_NAMES[score["partner"]])
    if score["called"]:
        called = _card_words(score["called"])
        return words("%(seat)s (called %(card)s)", seat=partner, card=called)
    return partner


def _last_trick_words(last: Mapping[str, Any]) -> Words:
    seat = words(SEAT_NAMES[last["seat"].upper()])
    return words("%(seat)s with %(card)s", seat=seat, card=_card_words(last["card"]))


def _standing_items(sparrow: bool, slam: bool) -> list[str]:
    """The items that stand and may be contra'd: the bid, the Sparrow, the Slam."""
    items = ["bid"]
    if sparrow:
        items.append("sparrow")
    if slam:
        items.append("slam")
    return items


def _entries_after_the_auction(
    options: Mapping[str, Any], partner: Any, tricks: Any
) -> dict[str, Any]:
    """What the scorer enters once the auction is complete, and the values each may take
    (``TwentyGame.entry_options``)."""
    contract = options["contract"]
    declarer = options["declarer"]
    announcer = options["sparrow"]
    items = _standing_items(announcer is not None, options["slam"])
    partners = partner_seats(declarer, contract, options["partner_sparrow"])
    chosen = partners[0] if len(partners) == 1 else partner
    return {
        "contras": {"items": items, "levels": list(LEVELS)},
        "points": [0, cards.POINTS_TOTAL],
        "tricks": [0, cards.TRICKS],
        "needs_partner": contract == PART and options["partner_sparrow"] is None,
        "partners": partners,
        "needs_called": contract == PART,
        "called_cards": list(CALLED_CARDS) if contract == PART else [],
        "needs_last": announcer is not None,
        "last_seats": last_seats(
            declarer, contract, chosen if chosen in partners else None, tricks
        ),
        "needs_held": True,
        "held": "kings" if contract == NT else "honours",
        "held_seats": list(SEAT_LETTERS),
    }


class TwentyGame(Game):
    id = "twenty"
    title = "Twenty"
    deal_help = (
        "Deal notation: the dealer's letter and a colon, then the four hands clockwise from "
        "the dealer's, separated by spaces; each hand is trumps.spades.hearts.diamonds.clubs, "
        "the trumps as numbers separated by commas (F for the Fool, 21 down to 4, 1), a suit as "
        "rank letters K Q C J T (an empty group for a void). Example: "
        "N:11,10,9,8,7,6,5,4...T.Q F,21,20,19,1.KT.K.Q.C 18,16,15.QC.QC.K.JT "
        "17,14,13,12.J.JT.CJ.K"
    )
    table_sizes = (4,)
    entrants = PLAYERS
    setting_fields = (
        Setting(
            "boards_per_table",
            "Boards per table",
            BOARDS_PER_TABLE,
            minimum=1,
            maximum=64,
            help="Boards a table plays in a round; they are dealt by N, E, S, W in turn, so "
            "4 (the source's game of four hands) makes every seat Eldest once.",
            structural=True,
        ),
    )

    entry_fields = frozenset(
        {"auction", "contras", "points", "tricks", "last", "called", "partner", "held"}
    )
    #: The web application has no phone entry for Twenty yet: not ``fields``, not ``auction``.
    entry_kind = "twenty-auction"
    entry_script = "entry.js"
    entry_style = "entry.css"

    # -- seats and boards -------------------------------------------------------------------

    def dealer(self, board: int, players: int) -> str:
        """Board b is dealt by the seat b − 1 places clockwise from N."""
        self.seats(players)
        return SEAT_LETTERS[(board - 1) % 4]

    def default_boards(self, players: int) -> int:
        return BOARDS_PER_TABLE

    def boards_per_table(self, settings: Mapping[str, Any], players: int) -> int | None:
        return settings.get("boards_per_table", BOARDS_PER_TABLE)

    # -- deals ------------------------------------------------------------------------------

    def parse_deal(self, text: Any) -> TwentyDeal:
        return cards.parse_deal(text)

    def format_deal(self, deal: TwentyDeal) -> str:
        return cards.format_deal(deal)

    def deal_cards(self, rng: random.Random, *, players: int, dealer: str) -> TwentyDeal:
        self.seats(players)
        return cards.deal_cards(rng, dealer=dealer)

    def deal_problem(self, deal: TwentyDeal, *, players: int, dealer: str) -> str | None:
        if players != 4:
            return f"Twenty is played by 4 players; the table seats {players}"
        return board_mismatch(deal, players=players, dealer=dealer)

    def hands_in_words(self, deal: TwentyDeal) -> list[tuple[str, str]]:
        return cards.hands_in_words(deal)

    # -- records and scores -----------------------------------------------------------------

    def score(self, record: Any, settings: Mapping[str, Any] | None = None) -> dict[str, Any]:
        return score_record(record)

    def describe(self, score: Mapping[str, Any]) -> str:
        return describe(score)

    def outcome(self, score: Mapping[str, Any]) -> tuple[str, str] | None:
        return ("contract", "won" if score["made"] else "lost")

    def totals_entry(self, score: Mapping[str, Any], seat: str) -> tuple[float, int]:
        """Totals: what the others paid the player less what he paid; no tie-break."""
        return score["seats"][seat], 0

    def rules_in_detail(self, settings: Mapping[str, Any]) -> list[tuple[str, str, Any]]:
        # The engine's words: the exports give them in the file's language.
        return [
            (
                "Twenty",
                words("Pack"),
                words("40 cards: 20 trumps (Fool, 21-4, 1) and K Q C J 10 in 4 suits"),
            ),
            ("Twenty", words("Cards per player"), 10),
            ("Twenty", words("Bids"), words("Partnership 1 (Eldest only), No Trumps 2, Solo 4")),
            ("Twenty", words("Bonuses"), words("Sparrow 4, Slam 12; contra ×2, re ×4, sub ×8")),
            ("Twenty", words("The bid is won with"), words("52 of 102 points")),
            (
                "Twenty",
                words("Held bonus"),
                words("all four Kings (No Trumps) or all three Honours: 1 each"),
            ),
            (
                "Twenty",
                words("Boards per table"),
                settings.get("boards_per_table", BOARDS_PER_TABLE),
            ),
        ]

    def table_context(
        self, settings: Mapping[str, Any], table: int, players: int = 4
    ) -> dict[str, Any]:
        return {"facts": [(words("Play"), play_in_words("clockwise", players))]}

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
        record: dict[str, Any] = {"game": self.id, "dealer": dealer}
        if deal:
            record["deal"] = deal if isinstance(deal, str) else cards.format_deal(deal)
        record.update(facts)
        return record

    def scorer_facts(self, record: Mapping[str, Any], score: Mapping[str, Any]) -> dict[str, Any]:
        """What North enters for a board played as ``record``: what happened at the table,
        taken from the record and its score. The auction, the contras, the side's points and
        tricks, the last trick while a Sparrow stands; in a Partnership the partner and the
        called card; whoever claimed the held bonus (absent: nobody). For a record with its
        deal these are the deal's own facts, the ones the table knows once the board is
        played, so the server finds the entry agrees with the deal on file."""
        state = next_calls(record["auction"], score["dealer"])
        facts: dict[str, Any] = {"auction": state["auction"]}
        contras = _contras_entered(score)
        if contras:
            facts["contras"] = contras
        facts["points"] = score["points"]
        facts["tricks"] = score["tricks"]
        if state["sparrow"] is not None:
            last = record["last"]
            facts["last"] = {
                "seat": last["seat"].upper(),
                "card": cards.card_text(last["card"]),
            }
        if score["contract"] == PART:
            facts["partner"] = score["partner"]
            if score["called"] is not None:
                facts["called"] = score["called"]
        held = _held(score)
        if held:
            facts["held"] = held[0][1]
        return facts

    def entry_in_words(
        self, record: Mapping[str, Any], score: Mapping[str, Any]
    ) -> list[tuple[str, str]]:
        state = next_calls(record["auction"], score["dealer"])
        # Every label and sentence is the engine's words (engine.core.messages): English here,
        # in the reader's language on the pages.
        seat_name = lambda seat: words(SEAT_NAMES[seat])  # noqa: E731
        rows: list[tuple[str, str]] = [
            (words("Auction"), joined([_call_words(c) for c in state["auction"]], ", ")),
            (
                words("Contract"),
                words(
                    "%(contract)s by %(seat)s",
                    contract=words(CONTRACT_WORDS[score["contract"]]),
                    seat=seat_name(score["declarer"]),
                ),
            ),
        ]
        if score["partner"]:
            rows.append((words("Partner"), _partner_words(score)))
        for item, contra in _contras_entered(score).items():
            rows.append((_CONTRA_LABELS[item], words(LEVEL_WORDS[contra])))
        side = [score["declarer"]] + ([score["partner"]] if score["partner"] else [])
        rows.append((words("Declarer's side"), joined([seat_name(s) for s in side], " and ")))
        rows.append((words("Its points"), str(score["points"])))
        rows.append((words("Its tricks"), str(score["tricks"])))
        last = record.get("last")
        if last:
            rows.append((words("Last trick"), _last_trick_words(last)))
        for item, seat in _held(score):
            rows.append((_HELD_LABELS[item], seat_name(seat)))
        return rows

    def entry_options(
        self,
        *,
        dealer: str = "N",
        auction: Any = None,
        calls: Any = None,
        partner: Any = None,
        tricks: Any = None,
        **_: Any,
    ) -> dict[str, Any]:
        """The bidding box: whose call it is and the legal next calls after ``auction`` (the
        calls so far), with the partner unknown: every seat that may announce the Sparrow
        without a bid is offered it. A deal in the context is never read.

        Once the auction is complete, what the scorer enters and the values each may take:
        the items that may be contra'd and the levels; the points and tricks; in a
        Partnership the partner (``partners``: the announcer of the Sparrow without a bid
        alone, else every seat but Eldest) and the called card (``called_cards``, T20 down
        to T4); the seats that may have won the last trick (``last_seats``; given the
        ``partner`` and the side's ``tricks`` entered so far, a side without a trick did not
        win it), asked while a Sparrow stands; who claimed the held bonus (``held``: the
        Kings in No Trumps, the Honours otherwise): any of ``held_seats``, or nobody."""
        made = list(auction if auction is not None else calls or ())
        try:
            options = next_calls(made, dealer)
        except CallError as exc:
            raise RecordError("auction", exc.args[0]) from None
        options["dealer"] = dealer
        options["eldest"] = cards.NEXT_SEAT[dealer]
        if options["complete"]:
            options.update(_entries_after_the_auction(options, partner, tricks))
        return options

    def entry_form(self, *, dealer: str = "N", **_: Any) -> dict[str, Any]:
        """What the phone's bidding box needs for a board, so that it works without asking
        the server after each call (``engine/games/twenty/static/entry.js``): only what
        the table may see before the board is played, the same whatever the deal. A deal in
        the context is never read.

        The dealer and Eldest; that the scorer enters, as the auction decides, the partner
        and the called card of a Partnership (``needs_partner``, ``needs_called``; the cards
        a Partnership may call are ``called_cards``) and in every game who claimed the held
        bonus (``needs_held``); the pack (for the last trick), the points and tricks a side
        can have together (the rulebook's table) and the contra levels."""
        eldest = cards.NEXT_SEAT[dealer]
        return {
            "dealer": dealer,
            "eldest": eldest,
            "needs_partner": True,
            "needs_called": True,
            "needs_held": True,
            "bids": [[bid, BID_WORDS[bid]] for bid in (PART, NT, SOLO)],
            "items": [list(item) for item in ITEMS],
            "levels": [[level, LEVEL_NAMES[level]] for level in LEVELS],
            "points": [0, cards.POINTS_TOTAL],
            "tricks": [0, cards.TRICKS],
            "target": 52,
            "fewest_points": list(FEWEST_POINTS),
            "most_points": list(MOST_POINTS),
            "cards": CARD_CHOICES,
            "called_cards": list(CALLED_CARDS),
            "note": words(
                "%(dealer)s deals; %(eldest)s (Eldest) opens Partnership.",
                dealer=SEAT_NAMES[dealer],
                eldest=SEAT_NAMES[eldest],
            ),
        }

    def entry_problem(
        self, record: Mapping[str, Any], score: Mapping[str, Any]
    ) -> RecordError | None:
        """What a tournament entry must give beyond what scores: the called card of a
        Partnership, without which it could not be checked against the deal on file."""
        if score["contract"] == PART and score["called"] is None:
            return RecordError(
                "called",
                "missing: a Partnership needs the called card (the trump, T20 down to T4, "
                "that Eldest called)",
            )
        return None

    def score_differences(self, dealt: Mapping[str, Any], entered: Mapping[str, Any]) -> str:
        """A set the deal shows that the entry says nobody claimed, in words; otherwise the
        scores field by field (a partner, called card, last trick or claimed set the deal
        does not support is the record's own error, ``deal_disagreement``)."""

        def holder(score: Mapping[str, Any]) -> tuple[str, str] | None:
            found = [e for e in score["items"] if e["item"] in ("kings", "honours")]
            return (found[0]["item"], found[0]["by"]) if found else None

        shown, claimed = holder(dealt), holder(entered)
        if shown is not None and claimed is None:
            item, seat = shown
            return (
                f"held: entered as claimed by nobody, but the deal gives the "
                f"{item.capitalize()} to {seat}"
            )
        return super().score_differences(dealt, entered)

    # -- simulation -------------------------------------------------------------------------

    def simulate_record(
        self,
        deal: Any,
        rng: random.Random,
        settings: Mapping[str, Any] | None = None,
        **_: Any,
    ) -> dict[str, Any]:
        """The board bid and played by the simple player; the record carries the deal, so the
        partner, the called card and the held bonus are derived from it."""
        record, _tricks = simulate_board(_deal(deal), rng)
        return record


GAME = TwentyGame()
