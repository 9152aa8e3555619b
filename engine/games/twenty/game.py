"""Twenty behind the generic game interface (``engine.games.base.Game``)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.core.errors import RecordError
from engine.core.seats import SEAT_LETTERS, SEAT_NAMES
from engine.games.base import PLAYERS, Game, Setting, board_mismatch
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
RANK_NAMES = ("King", "Queen", "Cavalier", "Jack", "10")


def card_name(card: int) -> str:
    """``Fool``, ``21 (The World)``, ``7``, ``1 (The Magician)``, ``K of spades``..."""
    text = CARD_TEXT[card]
    if card < 20:
        names = {"F": "Fool", "T21": "21 (The World)", "T1": "1 (The Magician)"}
        return names.get(text, text[1:])
    return f"{RANK_NAMES[(card - 20) % 5]} of {SUITS[(card - 20) // 5]}"


def _call_words(text: str) -> str:
    """``E:PART+SPARROW`` as ``East: Partnership + Sparrow``."""
    seat, _colon, call = text.partition(":")
    bid, *bonuses = call.split("+")
    words = [BID_WORDS[bid], *(bonus.capitalize() for bonus in bonuses)]
    return f"{SEAT_NAMES[seat]}: {' + '.join(words)}"


#: Every card of the pack as ``[code, name, group]`` (group: trumps or a suit), highest
#: first; the Magician is the card a Sparrow is won with.
CARD_CHOICES = [
    [CARD_TEXT[card], card_name(card), "trumps" if card < 20 else SUITS[(card - 20) // 5]]
    for card in range(cards.PACK_SIZE)
]


def _deal(deal: Any) -> TwentyDeal:
    return cards.parse_deal(deal) if isinstance(deal, str) else deal


def _strength(hand: int) -> float:
    """A rough worth of a hand for playing alone: trumps, Honours, Kings."""
    trumps = (hand & TRUMP_MASK).bit_count()
    return trumps + 1.5 * (hand & HONOURS).bit_count() + 0.7 * (hand & KINGS).bit_count()


def _choose_call(state: AuctionState, deal: TwentyDeal, partner: str, rng: random.Random) -> str:
    """The simple player's call: Eldest opens Partnership; a strong hand bids on (No Trumps
    with Kings and few trumps, Solo with trumps); the partner holding the Magician sometimes
    announces his Sparrow; a bid carries the Sparrow with the Magician and many trumps, and a
    Slam very rarely."""
    seat = state.turn
    hand = deal.hand(seat)
    options = legal_calls(state, partner)
    trumps = (hand & TRUMP_MASK).bit_count()
    magician = bool(hand >> MAGICIAN & 1)
    strength = _strength(hand) + rng.uniform(-2.0, 2.0)
    bids = [call for call in options if call.split("+")[0] != PASS]
    if bids:
        bid = bids[0]
        wants = state.highest is None  # Eldest must open
        if bid == NT:
            wants = (hand & KINGS).bit_count() >= 2 and trumps <= 4 and rng.random() < 0.6
            wants = wants or strength > 11.5
        elif bid == SOLO:
            wants = strength > 10.5
        if wants:
            bonus = ""
            if magician and trumps >= 5 and rng.random() < 0.5:
                bonus += "+" + SPARROW
            if (strength > 13 and rng.random() < 0.3) or rng.random() < 0.02:
                bonus += "+" + SLAM
            return bid + bonus
    if PASS + "+" + SPARROW in options and magician and rng.random() < 0.5:
        return PASS + "+" + SPARROW
    return PASS


def simulate_board(deal: TwentyDeal, rng: random.Random) -> tuple[dict[str, Any], list[list[int]]]:
    """``(record, tricks played)``: the board as the simple player bids and plays it."""
    eldest = deal.eldest
    called = called_card(deal.hand(eldest))
    partner = deal.holder(called)
    state = new_state(deal.dealer)
    while state.turn is not None:
        call = _choose_call(state, deal, partner, rng)
        apply_call(state, parse_call(f"{state.turn}:{call}"))
    declarer, contract, _sparrow, slam = state.highest
    side = frozenset((declarer, partner) if contract == PART else (declarer,))
    sparrow_by = state.sparrow_by
    tricks = play_board(
        deal, rng, leader=declarer, side=side, no_trumps=contract == NT, sparrow=sparrow_by
    )
    taken = dict.fromkeys(SEAT_LETTERS, 0)
    points = dict.fromkeys(SEAT_LETTERS, 0)
    leader = declarer
    for trick in tricks:
        order = cards.CLOCKWISE_FROM[leader]
        index = trick_winner(trick, contract == NT)
        leader = order[index]
        taken[leader] += 1
        points[leader] += 1 + sum(CARD_POINTS[card] for card in trick)
    last = {"seat": leader, "card": CARD_TEXT[tricks[-1][index]]}

    record: dict[str, Any] = {
        "game": "twenty",
        "deal": cards.format_deal(deal),
        "auction": [call_text(call) for call in state.calls],
    }
    contras = {}
    for name, stands in (("bid", True), ("sparrow", sparrow_by is not None), ("slam", slam)):
        if stands:
            level = rng.choices(LEVELS, weights=(70, 18, 8, 4))[0]
            if level != "none":
                contras[name] = level
    if contras:
        record["contras"] = contras
    per_seat = rng.random() < 0.3
    record["points"] = points if per_seat else sum(points[seat] for seat in side)
    record["tricks"] = taken if per_seat else sum(taken[seat] for seat in side)
    if sparrow_by is not None or rng.random() < 0.5:
        record["last"] = last
    return record, tricks


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
        return [
            ("Twenty", "Pack", "40 cards: 20 trumps (Fool, 21-4, 1) and K Q C J 10 in 4 suits"),
            ("Twenty", "Cards per player", 10),
            ("Twenty", "Bids", "Partnership 1 (Eldest only), No Trumps 2, Solo 4"),
            ("Twenty", "Bonuses", "Sparrow 4, Slam 12; contra ×2, re ×4, sub ×8"),
            ("Twenty", "The bid is won with", "52 of 102 points"),
            ("Twenty", "Held bonus", "all four Kings (No Trumps) or all three Honours: 1 each"),
            ("Twenty", "Boards per table", settings.get("boards_per_table", BOARDS_PER_TABLE)),
        ]

    def table_context(self, settings: Mapping[str, Any], table: int) -> dict[str, Any]:
        return {"facts": [("Play", "clockwise (N → E → S → W)")]}

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
        """The auction, the contras, the side's points and tricks, the last trick while a
        Sparrow stands; without a deal also the partner, the called card and the holder."""
        state = next_calls(record["auction"], score["dealer"])
        facts: dict[str, Any] = {"auction": state["auction"]}
        contras = {
            entry["item"]: entry["contra"]
            for entry in score["items"]
            if entry["item"] in ("bid", "sparrow", "slam") and entry["contra"] != "none"
        }
        if contras:
            facts["contras"] = contras
        facts["points"] = score["points"]
        facts["tricks"] = score["tricks"]
        if state["sparrow"] is not None:
            last = record["last"]
            facts["last"] = {
                "seat": last["seat"].upper(),
                "card": CARD_TEXT[cards.parse_card(last["card"])],
            }
        if record.get("deal") is None:
            if score["contract"] == PART:
                facts["partner"] = score["partner"]
                if score["called"] is not None:
                    facts["called"] = score["called"]
            held = [e["by"] for e in score["items"] if e["item"] in ("kings", "honours")]
            if held:
                facts["held"] = held[0]
        return facts

    def entry_in_words(
        self, record: Mapping[str, Any], score: Mapping[str, Any]
    ) -> list[tuple[str, str]]:
        state = next_calls(record["auction"], score["dealer"])
        rows = [
            ("Auction", ", ".join(_call_words(call) for call in state["auction"])),
            ("Contract", f"{CONTRACT_WORDS[score['contract']]} by {SEAT_NAMES[score['declarer']]}"),
        ]
        if score["partner"]:
            called = f" (called {score['called']})" if score["called"] else ""
            rows.append(("Partner", SEAT_NAMES[score["partner"]] + called))
        for entry in score["items"]:
            if entry["item"] in ("bid", "sparrow", "slam") and entry["contra"] != "none":
                rows.append((f"Contra on the {entry['item']}", LEVEL_WORDS[entry["contra"]]))
        side = [score["declarer"]] + ([score["partner"]] if score["partner"] else [])
        rows.append(("Declarer's side", " and ".join(SEAT_NAMES[seat] for seat in side)))
        rows.append(("Its points", str(score["points"])))
        rows.append(("Its tricks", str(score["tricks"])))
        last = record.get("last")
        if last:
            card = CARD_TEXT[cards.parse_card(last["card"])]
            rows.append(("Last trick", f"{SEAT_NAMES[last['seat'].upper()]} with {card}"))
        for entry in score["items"]:
            if entry["item"] in ("kings", "honours"):
                rows.append((f"Held {entry['item']}", SEAT_NAMES[entry["by"]]))
        return rows

    def entry_options(
        self,
        *,
        dealer: str = "N",
        auction: Any = None,
        calls: Any = None,
        deal: Any = None,
        **_: Any,
    ) -> dict[str, Any]:
        """The bidding box: whose call it is and the legal next calls after ``auction`` (the
        calls so far). Once the auction is complete: the items that may be contra'd, the
        levels, and whether the last trick, the partner and the held bonus are to be entered.
        With the deal known, the partner comes from ``entry_secrets``: only he is offered the
        Sparrow without a bid."""
        made = list(auction if auction is not None else calls or ())
        parsed = _deal(deal) if deal else None
        if parsed is not None:
            dealer = parsed.dealer
        secrets = self.entry_secrets(deal=parsed)
        partner = secrets["partner"] if secrets else None
        try:
            options = next_calls(made, dealer, partner)
        except CallError as exc:
            raise RecordError("auction", str(exc)) from None
        options["dealer"] = dealer
        options["eldest"] = cards.NEXT_SEAT[dealer]
        if options["complete"]:
            contract = options["contract"]
            state_announcer = options["sparrow"]
            items = ["bid"]
            if state_announcer is not None:
                items.append("sparrow")
            if options["slam"]:
                items.append("slam")
            options["contras"] = {"items": items, "levels": list(LEVELS)}
            options["points"] = [0, cards.POINTS_TOTAL]
            options["tricks"] = [0, cards.TRICKS]
            options["needs_last"] = state_announcer is not None
            options["needs_partner"] = (
                parsed is None and contract == PART and options["partner_sparrow"] is None
            )
            options["needs_held"] = parsed is None
            options["held"] = "kings" if contract == NT else "honours"
        return options

    def entry_form(
        self,
        *,
        dealer: str = "N",
        deal: Any = None,
        **_: Any,
    ) -> dict[str, Any]:
        """What the phone's bidding box needs for a board, so that it works without asking
        the server after each call (``static/scoring/entry-twenty-auction.js``): only what
        the table may see before the board is played.

        With the board's deal on file, ``secrets`` says the partner and the held bonuses
        come from the deal: ``entry_secrets``, which the phone fetches once North starts
        entering (until then the box offers the Sparrow without a bid to every seat that
        may make it, and the server judges). Without it, ``needs_partner`` and
        ``needs_held`` say the scorer enters them, as ``entry_options`` does at the end of
        the auction. Then the pack (for the last trick), the points and tricks a side can
        have together (the rulebook's table) and the contra levels."""
        parsed = _deal(deal) if deal else None
        if parsed is not None:
            dealer = parsed.dealer
        eldest = cards.NEXT_SEAT[dealer]
        return {
            "dealer": dealer,
            "eldest": eldest,
            "deal_known": parsed is not None,
            "secrets": parsed is not None,
            "needs_partner": parsed is None,
            "needs_held": parsed is None,
            "bids": [[bid, BID_WORDS[bid]] for bid in (PART, NT, SOLO)],
            "items": [list(item) for item in ITEMS],
            "levels": [[level, LEVEL_NAMES[level]] for level in LEVELS],
            "points": [0, cards.POINTS_TOTAL],
            "tricks": [0, cards.TRICKS],
            "target": 52,
            "fewest_points": list(FEWEST_POINTS),
            "most_points": list(MOST_POINTS),
            "cards": CARD_CHOICES,
            "called_cards": [CARD_TEXT[card] for card in range(2, 19)],
            "note": f"{SEAT_NAMES[dealer]} deals; {SEAT_NAMES[eldest]} (Eldest) opens Partnership.",
        }

    def entry_secrets(self, *, deal: Any = None, **_: Any) -> dict[str, Any] | None:
        """From the board's deal on file: the called card (from Eldest's hand), the partner
        who holds it (the box offers the Sparrow without a bid to him alone) and who was
        dealt all four Kings and all three Honours (entered by nobody); None without a deal."""
        if not deal:
            return None
        parsed = _deal(deal)
        called = called_card(parsed.hand(parsed.eldest))
        return {
            "called": CARD_TEXT[called],
            "partner": parsed.holder(called),
            "held": {"kings": parsed.set_holder(KINGS), "honours": parsed.set_holder(HONOURS)},
        }

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
