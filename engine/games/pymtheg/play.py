"""Card play: legal cards, trick winners, play records and a simple simulated player.

A round is fifteen tricks. The opening seat (in tournaments the seat that made the first call)
leads the first trick, turns follow the play direction, and each trick's winner leads the
next. A player must follow the suit led; one who cannot may play any card. The highest trump
in a trick wins it, otherwise the highest card of the suit led. Ry contracts and no-trump have
no trump suit (``trump`` is ``None``).

Under-trumping: in a ruleset whose ``undertrump_allowed`` is false (``rules-1709``), a player
who cannot follow suit may not play a trump lower than the highest trump already in the trick
while holding another card that would be legal (a higher trump or a card of another suit). It
is allowed only when the hand holds nothing but lower trumps. A trump led is followed like any
suit, so the rule only concerns players who are void in the suit led.

Rulings where the rules are silent (see ``docs/play.md``):

- Under-trumping is forbidden whoever is winning the trick, partner included.
- In a play record an under-trump is not a revoke: the card stands, play goes on (an
  under-trump never changes who wins the trick), and the first offender is reported as the
  board record's ``illegal_trump`` fact, which only the ``illegal_trump_penalty`` house rule
  scores.
- A revoke (not following suit while holding the suit led) ends the round at that card. The
  tricks completed before the revoke's trick are kept; the rest of the record is not read.
- Play stops at the trick that loses a Ry contract: the declarer's first trick (Ry, Ry 2) or
  either partner's first trick (Ry 3). Gâm and Lon contracts are always played to 15 tricks.

A play record is a list of tricks, each the cards in play order from its leader written as
card codes (``F`` fire, ``E`` earth, ``W`` water, ``I`` wind, then the rank ``1``-``9``,
``A``-``F``), e.g. ``[["FF", "F3", "IA", "F9"], ...]``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.games.pymtheg.auction import BIDS, TRUMP_ALIASES, Bid
from engine.games.pymtheg.cards import (
    CARDS_PER_HAND,
    FULL_DECK,
    SEATS,
    Card,
    Deal,
    Seat,
    Suit,
    seat_order,
)
from engine.games.pymtheg.rulesets import DEFAULT_RULESET, Ruleset, get_ruleset

TRICKS_PER_DEAL = CARDS_PER_HAND

# Why a card may not be played (IllegalPlay.fault, Offence.fault).
NOT_IN_HAND = "not in hand"
MUST_FOLLOW_SUIT = "must follow suit"
UNDERTRUMP = "under-trump"
PLAY_OVER = "play is over"

STRATEGIES = ("random", "greedy")

_TRUMP_NAMES = {suit.label: suit for suit in Suit}


def trump_suit(trump: Suit | str | None) -> Suit | None:
    """The trump suit from a Suit, a record's trump name (``fire`` … ``nt``, ``stone``) or None."""
    if trump is None or isinstance(trump, Suit):
        return trump
    if isinstance(trump, str):
        name = trump.strip().lower()
        name = TRUMP_ALIASES.get(name, name)
        if name == "nt":
            return None
        if name in _TRUMP_NAMES:
            return _TRUMP_NAMES[name]
    raise ValueError(f"unknown trump {trump!r} (fire, earth, water, wind or nt)")


def _as_ruleset(ruleset: Ruleset | str) -> Ruleset:
    return ruleset if isinstance(ruleset, Ruleset) else get_ruleset(ruleset)


def _as_bid(contract: Bid | str | None) -> Bid | None:
    if contract is None or isinstance(contract, Bid):
        return contract
    code = contract.strip().upper()
    if code not in BIDS:
        raise ValueError(f"unknown contract {contract!r} (G, G+1 … G+6, R, R2, R3 or L)")
    return BIDS[code]


# ---------------------------------------------------------------------------------------------
# One trick


def winning_index(cards: Sequence[Card], trump: Suit | None) -> int:
    """Position in ``cards`` (play order) of the card that wins, or is winning, the trick."""
    if not cards:
        raise ValueError("a trick without cards has no winner")
    led = cards[0].suit
    best = 0
    for index in range(1, len(cards)):
        if _beats(cards[index], cards[best], led, trump):
            best = index
    return best


def _beats(card: Card, best: Card, led: Suit, trump: Suit | None) -> bool:
    if card.suit == best.suit:
        return card.rank > best.rank
    # Only a trump beats a card of another suit (the best so far is then of the suit led).
    return trump is not None and card.suit == trump


def trick_winner(
    cards: Sequence[Card],
    leader: Seat,
    trump: Suit | str | None,
    direction: str = "clockwise",
) -> Seat:
    """The seat that wins a trick of ``cards`` in play order, led by ``leader``."""
    order = seat_order(leader, direction)
    if len(cards) > len(order):
        raise ValueError(f"a trick holds at most 4 cards, not {len(cards)}")
    return order[winning_index(cards, trump_suit(trump))]


def _top_trump(trick: Sequence[Card], trump: Suit | None) -> int | None:
    ranks = [card.rank for card in trick if card.suit == trump]
    return max(ranks) if ranks else None


def _undertrump_alternative(hand: Iterable[Card], trump: Suit, top: int) -> bool:
    """Whether a void player holds a card other than a trump below ``top``."""
    return any(card.suit != trump or card.rank > top for card in hand)


def play_fault(
    card: Card,
    hand: Iterable[Card],
    trick: Sequence[Card],
    trump: Suit | None,
    undertrump_allowed: bool = True,
) -> str | None:
    """Why ``card`` may not be played from ``hand`` to ``trick`` (cards so far), or None.

    The answer is one of ``NOT_IN_HAND``, ``MUST_FOLLOW_SUIT`` or ``UNDERTRUMP``.
    """
    hand = hand if isinstance(hand, set | frozenset) else frozenset(hand)
    if card not in hand:
        return NOT_IN_HAND
    if not trick:
        return None
    led = trick[0].suit
    if card.suit == led:
        return None
    if any(held.suit == led for held in hand):
        return MUST_FOLLOW_SUIT
    if _forbidden_undertrump(card, hand, trick, trump, undertrump_allowed):
        return UNDERTRUMP
    return None


def _forbidden_undertrump(
    card: Card,
    hand: Iterable[Card],
    trick: Sequence[Card],
    trump: Suit | None,
    undertrump_allowed: bool,
) -> bool:
    """Whether a void player's card is a trump below the trick's top trump, the ruleset
    forbidding it, while he holds anything else."""
    if undertrump_allowed or trump is None or card.suit != trump:
        return False
    top = _top_trump(trick, trump)
    return top is not None and card.rank < top and _undertrump_alternative(hand, trump, top)


def legal_plays(
    hand: Iterable[Card],
    trick: Sequence[Card],
    trump: Suit | None,
    undertrump_allowed: bool = True,
) -> list[Card]:
    """Every card of ``hand`` that may be played to ``trick`` (cards so far), sorted."""
    cards = sorted(hand)
    if not trick:
        return cards
    led = trick[0].suit
    following = [card for card in cards if card.suit == led]
    if following:
        return following
    if undertrump_allowed or trump is None:
        return cards
    return _without_undertrumps(cards, trick, trump)


def _without_undertrumps(cards: list[Card], trick: Sequence[Card], trump: Suit) -> list[Card]:
    """The cards of a void player but the trumps below the trick's top trump; all of them
    when only such trumps are left (under-trumping is then the only play)."""
    top = _top_trump(trick, trump)
    if top is None:
        return cards
    allowed = [card for card in cards if card.suit != trump or card.rank > top]
    return allowed or cards


@dataclass(frozen=True)
class Trick:
    """A completed trick: who played which card, in play order from the leader."""

    number: int  # 1-based
    seats: tuple[Seat, ...]
    cards: tuple[Card, ...]
    winner: Seat

    @property
    def leader(self) -> Seat:
        return self.seats[0]

    @property
    def codes(self) -> list[str]:
        return [card.code for card in self.cards]

    def card_of(self, seat: Seat) -> Card:
        return self.cards[self.seats.index(seat)]


class IllegalPlay(ValueError):
    """A card that may not be played now; names the seat, the card and the fault."""

    def __init__(self, seat: Seat | None, card: Card, fault: str, detail: str = ""):
        who = seat.full_name if seat is not None else "Nobody"
        message = f"{who} may not play {card}: {fault}"
        super().__init__(f"{message} ({detail})" if detail else message)
        self.seat = seat
        self.card = card
        self.fault = fault


# ---------------------------------------------------------------------------------------------
# When play stops


def ry_losing_seats(contract: Bid | str | None, declarer: Seat | None) -> frozenset[Seat]:
    """The seats whose first trick loses the contract and stops play (empty unless Ry)."""
    bid = _as_bid(contract)
    if bid is None or bid.family != "ry":
        return frozenset()
    if declarer is None:
        raise ValueError("a Ry contract needs its declarer to know when play stops")
    if bid.code == "R3":
        return frozenset((declarer, declarer.partner))
    return frozenset((declarer,))


def play_stops(
    contract: Bid | str | None, declarer: Seat | None, tricks_per_seat: Mapping[Seat, int]
) -> bool:
    """Whether play is over after these tricks: all 15 taken, or a Ry contract lost."""
    if sum(tricks_per_seat.values()) >= TRICKS_PER_DEAL:
        return True
    return ry_lost(contract, declarer, tricks_per_seat)


def ry_lost(
    contract: Bid | str | None, declarer: Seat | None, tricks_per_seat: Mapping[Seat, int]
) -> bool:
    """Whether a Ry-family contract has already been lost (always False for Gâm and Lon)."""
    return any(tricks_per_seat.get(seat, 0) for seat in ry_losing_seats(contract, declarer))


# ---------------------------------------------------------------------------------------------
# A round being played


class PlayState:
    """A round of play, card by card. Knows the contract only to stop play at a lost Ry."""

    def __init__(
        self,
        deal: Deal,
        trump: Suit | str | None = None,
        leader: Seat = Seat.N,
        direction: str = "clockwise",
        ruleset: Ruleset | str = DEFAULT_RULESET,
        *,
        contract: Bid | str | None = None,
        declarer: Seat | None = None,
    ):
        seat_order(leader, direction)  # rejects an unknown direction
        self.deal = deal
        self.trump = trump_suit(trump)
        self.direction = direction
        self.ruleset = _as_ruleset(ruleset)
        self.contract = _as_bid(contract)
        self.declarer = declarer
        if self.contract is not None:
            if declarer is None:
                raise ValueError("a contract needs its declarer")
            if self.contract.family == "ry" and self.trump is not None:
                raise ValueError("a Ry contract is played without trump")
        self._stoppers = ry_losing_seats(self.contract, declarer)
        self._hands: list[set[Card]] = [set(deal.hand(seat)) for seat in SEATS]
        self._leader = leader
        self._order = seat_order(leader, direction)
        self._trick: list[Card] = []
        self.tricks: list[Trick] = []
        self._won = dict.fromkeys(SEATS, 0)
        self._ry_lost = False

    @property
    def undertrump_allowed(self) -> bool:
        return self.ruleset.undertrump_allowed

    @property
    def leader(self) -> Seat:
        """The seat that led, or is to lead, the current trick."""
        return self._leader

    @property
    def current_trick(self) -> tuple[tuple[Seat, Card], ...]:
        return tuple(zip(self._order, self._trick, strict=False))

    @property
    def finished(self) -> bool:
        return len(self.tricks) == TRICKS_PER_DEAL or self._ry_lost

    @property
    def ry_lost(self) -> bool:
        """Whether play stopped early because the Ry contract was lost."""
        return self._ry_lost

    @property
    def to_play(self) -> Seat | None:
        """The seat whose turn it is; None once play is over."""
        return None if self.finished else self._order[len(self._trick)]

    @property
    def tricks_per_seat(self) -> dict[Seat, int]:
        return dict(self._won)

    def hand(self, seat: Seat) -> frozenset[Card]:
        """The cards ``seat`` still holds."""
        return frozenset(self._hands[seat])

    def legal_cards(self) -> list[Card]:
        """The cards the seat to play may play, sorted; empty once play is over."""
        seat = self.to_play
        if seat is None:
            return []
        return legal_plays(self._hands[seat], self._trick, self.trump, self.undertrump_allowed)

    def fault(self, card: Card) -> str | None:
        """Why ``card`` may not be played now, or None if it may."""
        seat = self.to_play
        if seat is None:
            return PLAY_OVER
        return play_fault(card, self._hands[seat], self._trick, self.trump, self.undertrump_allowed)

    def check(self, card: Card) -> IllegalPlay | None:
        """The error playing ``card`` now would raise (not raised), or None if it is legal."""
        fault = self.fault(card)
        if fault is None:
            return None
        return IllegalPlay(self.to_play, card, fault, self._explain(card, fault))

    def play(self, card: Card) -> Trick | None:
        """Play ``card`` for the seat to play; returns the trick when this card completes it."""
        error = self.check(card)
        if error is not None:
            raise error
        return self._place(card)

    def play_anyway(self, card: Card) -> Trick | None:
        """Play a card the seat holds even if the rules forbid it (to replay a record)."""
        seat = self.to_play
        if seat is None or card not in self._hands[seat]:
            fault = PLAY_OVER if seat is None else NOT_IN_HAND
            raise IllegalPlay(seat, card, fault, self._explain(card, fault))
        return self._place(card)

    def _place(self, card: Card) -> Trick | None:
        seat = self._order[len(self._trick)]
        self._hands[seat].discard(card)
        self._trick.append(card)
        if len(self._trick) < 4:
            return None
        winner = self._order[winning_index(self._trick, self.trump)]
        trick = Trick(len(self.tricks) + 1, self._order, tuple(self._trick), winner)
        self.tricks.append(trick)
        self._won[winner] += 1
        self._ry_lost = winner in self._stoppers
        self._leader = winner
        self._order = seat_order(winner, self.direction)
        self._trick = []
        return trick

    def _where_card_is(self, card: Card) -> str:
        """Where a card the seat does not hold is: played, in this trick, in another hand."""
        played = next((t.number for t in self.tricks if card in t.cards), None)
        if played is not None:
            return f"it was played in trick {played}"
        if card in self._trick:
            return "it is already in this trick"
        if card not in FULL_DECK:
            return "there is no such card"
        return f"{self.deal.holder(card).full_name} was dealt it"

    def _explain(self, card: Card, fault: str) -> str:
        if fault == PLAY_OVER:
            return "all tricks are played" if not self._ry_lost else "the Ry contract is lost"
        if fault == NOT_IN_HAND:
            return self._where_card_is(card)
        led = self._trick[0].suit
        if fault == MUST_FOLLOW_SUIT:
            return f"{led.title} was led and the hand holds {led.title}"
        assert self.trump is not None  # only a trump can be an under-trump
        top = Card(self.trump, _top_trump(self._trick, self.trump) or 0)
        return f"{top} is already in the trick and the hand holds another legal card"

    def play_record(self) -> list[list[str]]:
        """The completed tricks as a play record (card codes from each trick's leader)."""
        return [trick.codes for trick in self.tricks]


def tricks_field(tricks_per_seat: Mapping[Seat, int]) -> dict[str, int]:
    """Tricks per seat as the board record's ``tricks`` field: ``{"N": 3, "E": 2, ...}``."""
    return {seat.name: tricks_per_seat.get(seat, 0) for seat in SEATS}


# ---------------------------------------------------------------------------------------------
# Checking a play record


class PlayRecordError(ValueError):
    """A play record that cannot be read; ``trick`` and ``position`` are 1-based (0: none)."""

    def __init__(self, message: str, trick: int = 0, position: int = 0):
        where = f"trick {trick}, card {position}: " if position else ""
        where = where or (f"trick {trick}: " if trick else "")
        super().__init__(where + message)
        self.trick = trick
        self.position = position


@dataclass(frozen=True)
class Offence:
    """A card played against the rules: who, where, which card and why."""

    seat: Seat
    trick: int  # 1-based
    card: Card
    fault: str


@dataclass(frozen=True)
class PlayCheck:
    """What a checked play record says happened."""

    tricks: tuple[Trick, ...]  # completed tricks, before the revoke's trick if there was one
    tricks_per_seat: dict[Seat, int]
    revoke: Offence | None = None  # the first failure to follow suit; the round ended there
    illegal_trumps: tuple[Offence, ...] = ()  # under-trumps where the ruleset forbids them
    ry_lost: bool = False  # play stopped early at the trick that lost a Ry contract

    @property
    def complete(self) -> bool:
        """All 15 tricks were played, with no revoke."""
        return self.revoke is None and len(self.tricks) == TRICKS_PER_DEAL

    def board_fields(self) -> dict[str, Any]:
        """The board record fields this play gives: ``tricks``, ``revoke``, ``illegal_trump``."""
        fields: dict[str, Any] = {"tricks": tricks_field(self.tricks_per_seat)}
        if self.revoke is not None:
            fields["revoke"] = self.revoke.seat.name
        if self.illegal_trumps:
            fields["illegal_trump"] = self.illegal_trumps[0].seat.name
        return fields


def _parse_trick(raw: Any, number: int) -> list[Card]:
    if isinstance(raw, str) or not isinstance(raw, Sequence):
        raise PlayRecordError('must be a list of card codes like ["F9", "FC", ...]', number)
    if not 1 <= len(raw) <= 4:
        raise PlayRecordError(f"has {len(raw)} cards, not 4", number)
    cards = []
    for position, item in enumerate(raw, 1):
        if isinstance(item, Card):
            cards.append(item)
            continue
        try:
            cards.append(Card.parse(item))
        except (ValueError, AttributeError):
            raise PlayRecordError(
                f"{item!r} is not a card code (F fire, E earth, W water, I wind, then 1-9, A-F)",
                number,
                position,
            ) from None
    return cards


def _replay_trick(
    state: PlayState, raw: Any, number: int, illegal_trumps: list[Offence]
) -> Offence | None:
    """Play trick ``number`` of a record card by card: its revoke, which ends the record, or
    None; an under-trump the ruleset forbids goes to ``illegal_trumps``."""
    for position, card in enumerate(_parse_trick(raw, number), 1):
        seat = state.to_play
        assert seat is not None
        error = state.check(card)
        fault = error.fault if error is not None else None
        if fault == NOT_IN_HAND:
            raise PlayRecordError(str(error), number, position)
        if fault == MUST_FOLLOW_SUIT:
            return Offence(seat, number, card, fault)
        if fault == UNDERTRUMP:
            illegal_trumps.append(Offence(seat, number, card, fault))
        state.play_anyway(card)
    return None


def check_play_record(
    deal: Deal,
    trump: Suit | str | None,
    opening: Seat,
    direction: str,
    ruleset: Ruleset | str,
    tricks: Sequence[Sequence[str | Card]],
    *,
    contract: Bid | str | None = None,
    declarer: Seat | None = None,
) -> PlayCheck:
    """Replay a play record card by card and say what happened.

    Returns the tricks per seat of a legal round, or the first revoke with the tricks per seat
    completed before its trick. Under-trumps forbidden by the ruleset are listed, not fatal.
    Pass the ``contract`` and ``declarer`` to accept a record that stops at a lost Ry.
    Raises ``PlayRecordError`` (naming the trick and card) for a record that cannot have been
    played: an unreadable card, a card the seat does not hold or already played, a trick of
    the wrong size, too many tricks, or a record that stops early for no reason.
    """
    if isinstance(tricks, str) or not isinstance(tricks, Sequence):
        raise PlayRecordError("a play record is a list of tricks, each a list of card codes")
    if len(tricks) > TRICKS_PER_DEAL:
        raise PlayRecordError(f"{len(tricks)} tricks, more than {TRICKS_PER_DEAL}")
    state = PlayState(
        deal, trump, opening, direction, ruleset, contract=contract, declarer=declarer
    )
    illegal_trumps: list[Offence] = []
    for number, raw in enumerate(tricks, 1):
        if state.finished:
            raise PlayRecordError(
                f"play stopped after trick {number - 1}, which lost the Ry contract", number
            )
        completed = tuple(state.tricks)
        revoke = _replay_trick(state, raw, number, illegal_trumps)
        if revoke is not None:
            return PlayCheck(completed, _count(completed), revoke, tuple(illegal_trumps))
        if len(raw) < 4:
            raise PlayRecordError(f"has {len(raw)} cards, not 4", number)
    if not state.finished:
        raise PlayRecordError(
            f"the record stops after {len(state.tricks)} tricks: a round goes on to "
            f"{TRICKS_PER_DEAL} tricks unless a revoke or a lost Ry contract ends it"
        )
    return PlayCheck(
        tuple(state.tricks),
        state.tricks_per_seat,
        None,
        tuple(illegal_trumps),
        state.ry_lost,
    )


def _count(tricks: Iterable[Trick]) -> dict[Seat, int]:
    counts = dict.fromkeys(SEATS, 0)
    for trick in tricks:
        counts[trick.winner] += 1
    return counts


# ---------------------------------------------------------------------------------------------
# A simple player


def _cheapness(card: Card, trump: Suit | None) -> tuple[bool, int]:
    """Order for giving a card away: plain cards before trumps, then low before high."""
    return (card.suit == trump, card.rank)


def _would_win(state: PlayState, card: Card) -> bool:
    trick = [c for _, c in state.current_trick]
    return winning_index([*trick, card], state.trump) == len(trick)


def choose_card(
    state: PlayState,
    rng: random.Random,
    strategy: str = "random",
    *,
    avoid_tricks: bool = False,
) -> Card:
    """A legal card for the seat to play.

    ``random``: any legal card. ``greedy``: lead the highest card; when following, let a
    partner who is winning keep the trick, else win it with the cheapest winning card, else
    throw the cheapest card. With ``avoid_tricks`` (a Ry player) ``greedy`` leads its lowest
    card and throws the highest card that does not take the lead.
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r} (expected random or greedy)")
    legal = state.legal_cards()
    if not legal:
        raise ValueError("play is over: there is no card to choose")
    if strategy == "random" or len(legal) == 1:
        return rng.choice(legal)
    if avoid_tricks:
        return _dodging_card(state, legal)
    return _greedy_card(state, legal)


def _greedy_card(state: PlayState, legal: list[Card]) -> Card:
    trump = state.trump
    trick = state.current_trick
    if not trick:
        return max(legal, key=lambda card: (card.rank, card.suit != trump))
    cheapest = min(legal, key=lambda card: _cheapness(card, trump))
    winning_seat = trick[winning_index([c for _, c in trick], trump)][0]
    if winning_seat == state.to_play.partner:  # type: ignore[union-attr]
        return cheapest
    winners = [card for card in legal if _would_win(state, card)]
    if winners:
        return min(winners, key=lambda card: _cheapness(card, trump))
    return cheapest


def _dodging_card(state: PlayState, legal: list[Card]) -> Card:
    if not state.current_trick:
        return min(legal, key=lambda card: (card.rank, card.suit))
    losers = [card for card in legal if not _would_win(state, card)]
    if losers:
        return max(losers, key=lambda card: (card.rank, card.suit))
    return min(legal, key=lambda card: (card.rank, card.suit))


@dataclass(frozen=True)
class PlayResult:
    """A simulated round: its tricks, who took them, and whether a lost Ry stopped it."""

    tricks: tuple[Trick, ...]
    tricks_per_seat: dict[Seat, int]
    ry_lost: bool = False

    @property
    def record(self) -> list[list[str]]:
        """The play record: each trick's card codes from its leader."""
        return [trick.codes for trick in self.tricks]

    def tricks_field(self) -> dict[str, int]:
        """The board record's ``tricks`` field."""
        return tricks_field(self.tricks_per_seat)


def simulate_play(
    deal: Deal,
    contract: Bid | str,
    declarer: Seat,
    trump: Suit | str | None,
    opening: Seat = Seat.N,
    direction: str = "clockwise",
    ruleset: Ruleset | str = DEFAULT_RULESET,
    rng: random.Random | None = None,
    strategy: str = "greedy",
) -> PlayResult:
    """Play a whole round with ``choose_card``, stopping early when a Ry contract is lost.

    With ``greedy`` the seats whose tricks would lose a Ry contract try to take none.
    """
    rng = rng if rng is not None else random.Random()
    state = PlayState(
        deal, trump, opening, direction, ruleset, contract=contract, declarer=declarer
    )
    dodgers = ry_losing_seats(contract, declarer)
    while not state.finished:
        seat = state.to_play
        card = choose_card(state, rng, strategy, avoid_tricks=seat in dodgers)
        state.play(card)
    return PlayResult(tuple(state.tricks), state.tricks_per_seat, state.ry_lost)
