"""Pymtheg behind the generic game interface (``engine.games.base.Game``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.messages import words
from engine.games.base import PAIRS, Game, Setting, TablePlay
from engine.games.pymtheg.analysis import DoubleDummyTables
from engine.games.pymtheg.auction import BID_WORDS, legal_next_calls
from engine.games.pymtheg.cards import (
    Deal,
    Seat,
    Suit,
    deal_cards,
    format_deal,
    parse_deal,
    seat_order,
)
from engine.games.pymtheg.rulesets import DEFAULT_RULESET, OPTION_NAMES, RULESETS, get_ruleset
from engine.games.pymtheg.scoring import score_record
from engine.games.pymtheg.simulate import mistaken_entries, play_board
from engine.games.pymtheg.table_play import PymthegTablePlay
from engine.games.pymtheg.words import (
    TRUMP_WORDS,
    auctions_in_words,
    contract_in_words,
    entry_facts_in_words,
    tricks_in_words,
)

DIRECTION_CHOICES = (
    ("clockwise", "Clockwise (N → E → S → W)"),
    ("counterclockwise", "Counter-clockwise (N → W → S → E)"),
)
OPENING_RULES = (
    ("fixed", "The same seat opens at every table"),
    ("rotate", "Rotate: table 1 North, each next table the next seat in play direction"),
)
SEAT_CHOICES = (("N", "North"), ("E", "East"), ("S", "South"), ("W", "West"))
HOUSE_RULES = (
    ("all_tricks_bonus", "All-tricks bonus (0 = off)"),
    ("heavy_failure_penalty", "Heavy-failure penalty (0 = off)"),
    ("illegal_trump_penalty", "Illegal-trump penalty (0 = off)"),
)
HOUSE_RULE_HELP = {
    "all_tricks_bonus": "House rule, points; 0 = off.",
    "heavy_failure_penalty": "House rule, points; 0 = off.",
    "illegal_trump_penalty": "House rule, points (500 when on); 0 = off.",
}
assert tuple(name for name, _label in HOUSE_RULES) == OPTION_NAMES


class PymthegGame(DoubleDummyTables, Game):
    id = "pymtheg"
    title = "Pymtheg"
    deal_help = (
        "Deal notation: the first seat's letter and a colon, then the four hands in clockwise "
        "order separated by spaces; each hand is Fire.Earth.Water.Wind, ranks highest first, "
        "1-9 then A=10 … F=15, an empty group for a void."
    )
    deal_summary = "Fire.Earth.Water.Wind, ranks A=10 ... F=15"
    solver_module = "engine.games.pymtheg.solver"
    table_sizes = (4,)
    entrants = PAIRS
    score_settings = ("ruleset",)
    setting_fields = (
        Setting(
            "ruleset",
            "Ruleset",
            DEFAULT_RULESET,
            choices=tuple((name, rules.title) for name, rules in sorted(RULESETS.items())),
        ),
        Setting("direction", "Play direction", "clockwise", choices=DIRECTION_CHOICES),
        Setting("opening_rule", "Who opens", "fixed", choices=OPENING_RULES),
        Setting(
            "opening_seat",
            "Seat that opens",
            "N",
            choices=SEAT_CHOICES,
            help="When the same seat opens at every table: which one.",
        ),
        *(
            Setting(name, label, 0, minimum=0, help=HOUSE_RULE_HELP[name])
            for name, label in HOUSE_RULES
        ),
    )

    # ``opening: N`` for a fixed opening seat, ``opening: rotate`` for the rotating rule.
    shorthand_keys = ("opening",)

    def shorthand(self, key: str, value: Any) -> dict[str, Any]:
        if key != "opening":
            return super().shorthand(key, value)
        if str(value).lower() == "rotate":
            return {"opening_rule": "rotate"}
        if str(value).upper() in ("N", "E", "S", "W"):
            return {"opening_rule": "fixed", "opening_seat": str(value).upper()}
        raise ValueError(f"opening: {value!r} is not a seat (N, E, S, W) or 'rotate'")

    def dealer(self, board: int, players: int) -> str:
        # Pymtheg has no dealer: its notation starts with North's hand (FORMATS.md section 1).
        self.seats(players)
        return "N"

    def parse_deal(self, text: Any) -> Deal:
        return parse_deal(text)

    def format_deal(self, deal: Deal) -> str:
        return format_deal(deal)

    def hands_in_words(self, deal: Deal) -> list[tuple[str, str]]:
        """Each seat's hand suit by suit, highest first: ``("North", "Fire 15 12 3 · Earth —
        · ...")``."""
        hands = []
        for seat in Seat:
            held = sorted(deal.hand(seat), key=lambda card: (card.suit, -card.rank))
            suits = []
            for suit in Suit:
                ranks = [str(card.rank) for card in held if card.suit == suit]
                suits.append(f"{suit.title} {' '.join(ranks) or '—'}")
            hands.append((seat.full_name, " · ".join(suits)))
        return hands

    def hand_groups(self, deal: Deal) -> dict[str, list[tuple[str, str, str]]]:
        """Each hand by suit, Fire, Earth, Water, Wind, ranks highest first."""
        groups: dict[str, list[tuple[str, str, str]]] = {}
        for seat in Seat:
            hand = deal.hand(seat)
            groups[seat.name] = [
                (
                    suit.label,
                    TRUMP_WORDS[suit.label],  # the suit's name, translated by the pages
                    " ".join(
                        str(rank)
                        for rank in sorted((c.rank for c in hand if c.suit is suit), reverse=True)
                    )
                    or "—",
                )
                for suit in Suit
            ]
        return groups

    def deal_cards(self, rng: random.Random, *, players: int, dealer: str) -> Deal:
        return deal_cards(rng)

    def score(self, record: Any, settings: Mapping[str, Any] | None = None) -> dict[str, Any]:
        ruleset = (settings or {}).get("ruleset")
        return score_record(record, default_ruleset=ruleset).as_dict()

    def calls_in_words(self, record: Mapping[str, Any]) -> list[tuple[str, list[tuple[str, str]]]]:
        return auctions_in_words(record)

    def entry_in_words(
        self, record: Mapping[str, Any], score: Mapping[str, Any]
    ) -> list[tuple[str, str]]:
        return entry_facts_in_words(record, score)

    def describe(self, score: Mapping[str, Any]) -> str:
        return contract_in_words(dict(score))

    def tricks_in_words(self, record: Mapping[str, Any]) -> str:
        return tricks_in_words(record)

    def rules_in_detail(self, settings: Mapping[str, Any]) -> list[tuple[str, str, Any]]:
        """Every value of the ruleset, one rule a row (the engine's words: the exports give
        them in the file's language)."""
        ruleset = get_ruleset(settings["ruleset"]).describe()
        yes_no = {True: words("yes"), False: words("no")}
        section = words("Ruleset")
        rows: list[tuple[str, str, Any]] = [
            (section, words("Name"), ruleset["name"]),
            (section, words("Title"), ruleset["title"]),
        ]
        kinds = {"trump": words("a trump"), "nt": words("no trump")}
        named = {"after": words("named after the auction"), "during": words("named in the bid")}
        for kind, by_when in ruleset["gam_base"].items():
            for when, values in by_when.items():
                for level, value in enumerate(values):
                    bid = BID_WORDS["G" if level == 0 else f"G+{level}"]
                    rule = words(
                        "%(bid)s, %(kind)s %(named)s: base",
                        bid=bid,
                        kind=kinds[kind],
                        named=named[when],
                    )
                    rows.append((section, rule, value))
        for kind, unit in ruleset["gam_trick_unit"].items():
            rule = words("Gâm, %(kind)s: each trick over or under", kind=kinds[kind])
            rows.append((section, rule, unit))
        for code, values in ruleset["ry"].items():
            rows.append((section, words("%(bid)s: value", bid=BID_WORDS[code]), values["value"]))
            if values["partner_trick"]:
                partner = words("%(bid)s: each trick of the partner", bid=BID_WORDS[code])
                rows.append((section, partner, values["partner_trick"]))
        for kind, values in ruleset["lon"].items():
            rows += [
                (section, words("Lon, %(kind)s: value", kind=kinds[kind]), values["value"]),
                (
                    section,
                    words("Lon, %(kind)s: bonus when named in the bid", kind=kinds[kind]),
                    values["announced_during_bonus"],
                ),
                (
                    section,
                    words("Lon, %(kind)s: lost, each trick of the opponents", kind=kinds[kind]),
                    values["per_opponent_trick"],
                ),
            ]
        rows += [
            (
                section,
                words("Second auction after a passed-out one"),
                yes_no[ruleset["second_auction"]],
            ),
            (
                section,
                words("Charge after a first passed-out auction"),
                ruleset["first_passed_out_charge"],
            ),
            (
                section,
                words("Result after two passed-out auctions"),
                ruleset["second_passed_out_result"],
            ),
            (
                section,
                words("Revoke in a Ry by its party: times"),
                ruleset["revoke_ry_offender_factor"],
            ),
            (section, words("Revoke: extra points"), ruleset["revoke_extra"]),
            (section, words("Undertrumping allowed"), yes_no[ruleset["undertrump_allowed"]]),
        ]
        return rows

    def opening_seat(self, settings: Mapping[str, Any], table: int) -> Seat:
        """The seat that makes the first call and leads at ``table``."""
        if settings["opening_rule"] == "rotate":
            return seat_order(Seat.N, settings["direction"])[(table - 1) % 4]
        return Seat[settings["opening_seat"]]

    entry_kind = "auction"
    offers_legal_calls = True
    entry_script = "entry.js"
    entry_style = "entry.css"
    entry_fields = frozenset({"auctions", "trump", "double", "tricks", "revoke", "illegal_trump"})

    def table_context(
        self, settings: Mapping[str, Any], table: int, players: int = 4
    ) -> dict[str, Any]:
        """The opening seat and the turn order of the bidding box at ``table``."""
        opening = self.opening_seat(settings, table)
        return {
            "opening": opening.full_name,
            "opening_seat": opening.name,
            "seats": ",".join(seat.name for seat in seat_order(opening, settings["direction"])),
            "facts": [
                (
                    words("Opening seat"),
                    words("%(seat)s makes the first call and leads", seat=words(opening.full_name)),
                )
            ],
        }

    def scorer_config(self, settings: Mapping[str, Any]) -> dict[str, Any]:
        """The bidding box: a second auction after a passed-out one, the illegal-trump rule."""
        return {
            "entry": self.entry_kind,
            "secondAuction": get_ruleset(settings["ruleset"]).second_auction,
            "illegalTrumpRule": settings["illegal_trump_penalty"] > 0,
        }

    def table_scorer_config(self, settings: Mapping[str, Any], table: int) -> dict[str, Any]:
        """The bidding box works out the legal calls on the phone: the table's opening seat
        and the direction of play."""
        settings = self.settings(settings)
        return {
            "opening": self.opening_seat(settings, table).name,
            "direction": settings["direction"],
        }

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
        return {
            "ruleset": settings["ruleset"],
            "options": {name: settings[name] for name in OPTION_NAMES},
            "opening": self.opening_seat(settings, table).name,
            "direction": settings["direction"],
            **facts,
        }

    def entry_options(
        self,
        *,
        calls: Sequence[str] = (),
        opening: str = "N",
        direction: str = "clockwise",
        **_: Any,
    ) -> dict[str, Any]:
        """The bidding box: the legal next calls after ``calls`` (``AuctionError`` if illegal)."""
        nxt = legal_next_calls(list(calls), Seat[opening], direction)
        return {
            "seat": nxt.seat.name if nxt.seat is not None else None,
            "calls": nxt.calls,
            "ended": nxt.ended,
            "passed_out": nxt.passed_out,
        }

    def table_play(
        self,
        deal: Deal,
        *,
        settings: Mapping[str, Any],
        table: int,
        players: int,
        dealer: str,
        **context: Any,
    ) -> TablePlay:
        """The auction from the table's opening seat, then the cards (``table_play``)."""
        settings = self.settings(settings)
        return PymthegTablePlay(
            deal,
            opening=self.opening_seat(settings, table),
            direction=settings["direction"],
            ruleset=settings["ruleset"],
        )

    def simulate_record(
        self,
        deal: Deal,
        rng: random.Random,
        settings: Mapping[str, Any],
        *,
        table: int = 1,
        **_: Any,
    ) -> dict[str, Any]:
        settings = self.settings(settings)
        played = play_board(
            deal,
            opening=self.opening_seat(settings, table),
            direction=settings["direction"],
            ruleset=settings["ruleset"],
            rng=rng,
        )
        return {
            "game": self.id,
            "ruleset": settings["ruleset"],
            "opening": self.opening_seat(settings, table).name,
            "direction": settings["direction"],
            **played.facts,
        }

    def mistaken_entries(
        self, facts: Mapping[str, Any], score: Mapping[str, Any]
    ) -> list[dict[str, Any]]:
        """A Gâm-family board's double misremembered, then a trick counted on the wrong side."""
        return mistaken_entries(dict(facts), score.get("contract"))


GAME = PymthegGame()
