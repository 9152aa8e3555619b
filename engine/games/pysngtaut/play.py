"""A simple legal player of Pys'ngtaut (rulebook section 3), for simulations.

It plays a prepared deal to its end: draws or takes the up card, melds what it can, plays the
god card, discards its least useful card, and goes out as soon as it may. Every set it lays
down is checked by ``read_set``, the record reader's own rule, so a simulated board always
gives a record that scores. It never commits an irregularity.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine.core.seats import turn_order
from engine.games.pysngtaut.cards import (
    CARD_TEXT,
    JOKER,
    NATURAL_RANK,
    RANK_OF,
    RANK_VALUE,
    RED,
    PysngtautDeal,
)
from engine.games.pysngtaut.sets import SetFault, read_set

#: A board that has not ended after this many turns is a bug of the player, not a dead hand.
MAX_TURNS = 5000


class Board:
    """The state of one hand as the simple player plays it."""

    def __init__(
        self,
        deal: PysngtautDeal,
        rng: random.Random,
        direction: str,
        flags: Mapping[str, bool],
    ):
        self.deal = deal
        self.rng = rng
        self.players = deal.players
        self.wild = deal.wild
        self.flags = flags
        self.set_flags = (
            bool(flags.get("same_colour_sets")),
            bool(flags.get("same_colour_wilds")),
            bool(flags.get("number_wilds_not_in_face_sets")),
        )
        # Piles as lists whose last element is the top card.
        self.draw = {1: list(reversed(deal.pile1)), 2: list(reversed(deal.pile2))}
        self.discard = self.first_discards()
        self.hands = {seat: list(deal.hand(seat)) for seat in deal.seats}
        self.melds: dict[str, dict[int, list[int]]] = {seat: {} for seat in deal.seats}
        self.god: str | None = None
        first = turn_order(deal.dealer, self.players, direction)[1]
        self.order = turn_order(first, self.players, direction)
        self.home = _home_piles(deal)
        self.winner: str | None = None
        self.dead = False

    def first_discards(self) -> dict[int, list[int]]:
        """Each discard pile started with the top card of its draw pile: a wild card or the
        joker turned up this way leaves play (3.3)."""
        discard: dict[int, list[int]] = {1: [], 2: []}
        for pile in (1, 2):
            card = self.draw[pile].pop()
            if not self.is_wild(card) and card != JOKER:
                discard[pile].append(card)
        return discard

    # -- small facts ------------------------------------------------------------------------

    def is_wild(self, card: int) -> bool:
        return card != JOKER and RANK_OF[card] == self.wild

    def valid(self, cards: list[int]) -> bool:
        try:
            read_set(cards, self.wild, *self.set_flags)
        except SetFault:
            return False
        return True

    def fours(self, seat: str) -> int:
        return sum(1 for cards in self.melds[seat].values() if len(cards) >= 4)

    def piles_of(self, seat: str) -> tuple[int, ...]:
        """The draw and discard piles ``seat`` uses: the god card's holder uses both."""
        return (1, 2) if self.god == seat else (self.home[seat],)

    def min_size(self, seat: str) -> int:
        return 3 if self.fours(seat) >= 2 else 4

    # -- a turn -----------------------------------------------------------------------------

    def play(self) -> None:
        for turn in range(MAX_TURNS):
            seat = self.order[turn % self.players]
            if not self.take_up_card(seat) and not self.draw_card(seat):
                self.dead = True
                return
            self.meld(seat)
            if self.go_out_or_discard(seat):
                self.winner = seat
                return
        raise RuntimeError("the simple player did not finish the hand")

    def draw_card(self, seat: str) -> bool:
        piles = [pile for pile in self.piles_of(seat) if self.draw[pile]]
        if not piles:
            return False
        self.hands[seat].append(self.draw[self.rng.choice(piles)].pop())
        return True

    def new_set_with(self, seat: str, up: int) -> list[int] | None:
        """Cards of ``seat``'s hand that make a new set with ``up``: at least one natural of
        its rank, wild cards to make up the size; None when there are none."""
        if up == JOKER:
            return None
        hand = self.hands[seat]
        naturals = self.naturals_for(hand, up)
        if not naturals:
            return None
        size = self.min_size(seat)
        chosen = naturals[:]
        if len(chosen) + 1 < size:
            same_colour_wilds = self.set_flags[1]
            chosen = self.make_up_with_wilds(hand, up, chosen, size, same_colour_wilds)
        if not chosen or len(chosen) + 1 < size or not self.valid([up, *chosen]):
            return None
        return chosen if self.still_a_set(seat, up, chosen) else None

    def still_a_set(self, seat: str, up: int, chosen: list[int]) -> bool:
        """Joined to his set of the up card's rank, when he has one, the new set must still be
        a set."""
        old = self.melds[seat].get(NATURAL_RANK[up])
        return old is None or self.valid([*old, up, *chosen])

    def naturals_for(self, hand: list[int], up: int) -> list[int]:
        """The natural cards of the hand of ``up``'s rank (of its colour too with option
        same_colour_sets)."""
        rank = NATURAL_RANK[up]
        naturals = [card for card in hand if RANK_OF[card] == rank]  # the joker's rank is None
        same_colour_sets = self.set_flags[0]
        return _of_colour(naturals, RED[up]) if same_colour_sets else naturals

    def make_up_with_wilds(
        self, hand: list[int], up: int, chosen: list[int], size: int, same_colour: bool
    ) -> list[int]:
        """``chosen`` and wild cards of the hand up to ``size`` with the up card (all of the up
        card's colour with option same_colour_wilds)."""
        wilds = [card for card in hand if self.is_wild(card)]
        if same_colour:
            chosen = _of_colour(chosen, RED[up])
            wilds = _of_colour(wilds, RED[up])
        return chosen + wilds[: size - 1 - len(chosen)]

    def take_up_card(self, seat: str) -> bool:
        """Take an up card when it makes a new set, with the seven cards below it (3.3)."""
        for pile in self.piles_of(seat):
            discard = self.discard[pile]
            taking = self.up_card_taking(seat, discard)
            if taking is not None:
                self.take_up(seat, discard, *taking)
                return True
        return False

    def up_card_taking(self, seat: str, discard: list[int]) -> tuple[list[int], int, int] | None:
        """``(cards of his hand, cards taken from below, cards made up)`` with which he takes
        the top card of ``discard``; None when he does not take it."""
        if not discard:
            return None
        chosen = self.new_set_with(seat, discard[-1])
        if chosen is None:
            return None
        counts = self.pickup_counts(seat, len(discard) - 1, chosen)
        return None if counts is None else (chosen, *counts)

    def take_up(
        self, seat: str, discard: list[int], chosen: list[int], count: int, make_up: int
    ) -> None:
        """The up card laid down with ``chosen``, then the cards below it and those made up,
        unless he goes out with the up card alone (and ``pickup_draws_seven`` is off)."""
        up = discard.pop()
        self.lay_up_set(seat, up, chosen)
        if self.flags.get("pickup_draws_seven") or not self.can_go_out(seat):
            self.take_below(seat, discard, count, make_up)

    def pickup_counts(self, seat: str, below: int, chosen: list[int]) -> tuple[int, int] | None:
        """``(cards taken from below the up card, cards made up from the draw pile)`` when he
        takes the up card with ``chosen``; None when he may not (he would keep too few)."""
        left = len(self.hands[seat]) - len(chosen)
        fours_after = self.fours(seat) + (len(chosen) + 1 >= 4)
        if self.god == seat and not self.flags.get("god_draws_seven"):
            return self.holder_pickup_counts(below, left, fours_after)
        count = min(7, below)
        make_up = min(7 - count, sum(len(self.draw[p]) for p in self.piles_of(seat)))
        if fours_after < 2 and left + count + make_up < 2:
            return None
        return count, make_up

    def holder_pickup_counts(
        self, below: int, left: int, fours_after: int
    ) -> tuple[int, int] | None:
        """The god card's holder takes 0 to 7 cards, at random, and makes up nothing; None
        when he would keep too few."""
        least = 0 if fours_after >= 2 else max(0, 2 - left)
        most = min(7, below)
        if least > most:
            return None
        return self.rng.randint(least, most), 0

    def lay_up_set(self, seat: str, up: int, chosen: list[int]) -> None:
        """The up card and ``chosen`` from his hand: a new set, or joined to his of that rank."""
        hand = self.hands[seat]
        for card in chosen:
            hand.remove(card)
        rank = NATURAL_RANK[up]
        sets = self.melds[seat]
        if rank in sets:
            sets[rank].extend([up, *chosen])  # the new set joins the old one
        else:
            sets[rank] = [up, *chosen]

    def take_below(self, seat: str, discard: list[int], count: int, make_up: int) -> None:
        """The ``count`` cards below the up card, then ``make_up`` from the draw pile."""
        if count:
            self.hands[seat].extend(discard[-count:][::-1])
            del discard[-count:]
        if self.god != seat or self.flags.get("god_draws_seven"):
            self.make_up_from_draw(seat, make_up)

    def make_up_from_draw(self, seat: str, make_up: int) -> None:
        """``make_up`` cards from the first of his draw piles that has any; when they run out
        he stops there (ruling of 3.3)."""
        hand = self.hands[seat]
        for _ in range(make_up):
            piles = [p for p in self.piles_of(seat) if self.draw[p]]
            if not piles:
                break
            hand.append(self.draw[piles[0]].pop())

    def can_go_out(self, seat: str) -> bool:
        """Whether melding what he can now leaves at most one card, with two sets of four."""
        saved_hand = self.hands[seat][:]
        saved_sets = {rank: cards[:] for rank, cards in self.melds[seat].items()}
        saved_god, saved_draw = self.god, {p: pile[:] for p, pile in self.draw.items()}
        state = self.rng.getstate()
        self.meld(seat)
        result = len(self.hands[seat]) <= 1 and self.fours(seat) >= 2
        self.hands[seat] = saved_hand
        self.melds[seat] = saved_sets
        self.god, self.draw = saved_god, saved_draw
        self.rng.setstate(state)
        return result

    def may_leave(self, seat: str, left: int, fours_after: int) -> bool:
        """A player who may not go out keeps two cards after melding: one to discard, one to
        keep (ruling of 3.7)."""
        return left >= 2 or fours_after >= 2

    def meld(self, seat: str) -> None:
        self.play_god_card(seat)
        changed = True
        while changed:
            joined = self.join_naturals(seat)
            made = self.make_new_set(seat)
            placed = self.place_wilds(seat)
            changed = joined or made or placed

    def play_god_card(self, seat: str) -> None:
        """The god card: played at once (now and then kept, to be discarded or held)."""
        hand = self.hands[seat]
        if JOKER in hand and self.rng.random() < 0.85:
            piles = [pile for pile in (1, 2) if self.draw[pile]]
            if piles:
                hand.remove(JOKER)
                self.god = seat
                hand.append(self.draw[self.rng.choice(piles)].pop())

    def join_naturals(self, seat: str) -> bool:
        """Naturals of a rank he has melded join that set; True when one did."""
        hand = self.hands[seat]
        sets = self.melds[seat]
        changed = False
        for card in list(hand):
            if self.is_wild(card) or RANK_OF[card] not in sets:  # the joker's rank is None
                continue
            cards = sets[NATURAL_RANK[card]]
            if not self.may_leave(seat, len(hand) - 1, self.fours(seat) + (len(cards) == 3)):
                continue
            if self.valid([*cards, card]):
                cards.append(card)
                hand.remove(card)
                changed = True
        return changed

    def make_new_set(self, seat: str) -> bool:
        """One new set, naturals first, then with wild cards; True when he made one."""
        hand = self.hands[seat]
        by_rank = self.unmelded_naturals(seat)
        wilds = [card for card in hand if self.is_wild(card)]
        size = self.min_size(seat)
        for rank, naturals in sorted(by_rank.items(), key=lambda item: -len(item[1])):
            chosen = self.best_set(naturals, wilds, size)
            if chosen is None:
                continue
            fours_after = self.fours(seat) + (len(chosen) >= 4)
            if self.may_leave(seat, len(hand) - len(chosen), fours_after):
                for card in chosen:
                    hand.remove(card)
                self.melds[seat][rank] = chosen
                return True
        return False

    def unmelded_naturals(self, seat: str) -> dict[int, list[int]]:
        """The natural cards of his hand by rank, for the ranks he has no set of."""
        sets = self.melds[seat]
        by_rank: dict[int, list[int]] = {}
        for card in self.hands[seat]:
            if card != JOKER and not self.is_wild(card) and RANK_OF[card] not in sets:
                by_rank.setdefault(NATURAL_RANK[card], []).append(card)
        return by_rank

    def place_wilds(self, seat: str) -> bool:
        """With two sets of four he may go out: wild cards join any set that takes them; True
        when one did."""
        if self.fours(seat) < 2:
            return False
        hand = self.hands[seat]
        changed = False
        for card in [c for c in hand if self.is_wild(c)]:
            if len(hand) <= 1:
                break
            changed |= self.place_wild(seat, card)
        return changed

    def place_wild(self, seat: str, card: int) -> bool:
        """The wild card joins the first of his sets that takes it; True when one did."""
        for cards in self.melds[seat].values():
            if self.valid([*cards, card]):
                cards.append(card)
                self.hands[seat].remove(card)
                return True
        return False

    def best_set(self, naturals: list[int], wilds: list[int], size: int) -> list[int] | None:
        """A valid new set of ``naturals`` (all or one colour of them) and as few wild
        cards as make up ``size``; None when there is none."""
        for group in _colour_groups(naturals):
            found = self.set_of_group(group, wilds, size)
            if found is not None:
                return found
        return None

    def set_of_group(self, group: list[int], wilds: list[int], size: int) -> list[int] | None:
        """The naturals of ``group`` as a set on their own when they are enough, else with
        the wild cards that make up ``size``; None when they make none."""
        if len(group) >= size and self.valid(group):
            return group[:]
        need = size - len(group)
        if len(group) >= 2 and 0 < need <= len(wilds):
            return self.with_wilds(group, wilds, need)
        return None

    def with_wilds(self, group: list[int], wilds: list[int], need: int) -> list[int] | None:
        """``group`` and ``need`` wild cards, of any colour or else of the group's, as a valid
        set; None when neither is one."""
        for colour in (None, RED[group[0]]):
            pick = (wilds if colour is None else _of_colour(wilds, colour))[:need]
            if len(pick) == need and self.valid([*group, *pick]):
                return [*group, *pick]
        return None

    def go_out_or_discard(self, seat: str) -> bool:
        """Discard (unless the hand is empty); True when he has gone out."""
        hand = self.hands[seat]
        if not hand:
            return True
        card = self.choose_discard(hand)
        hand.remove(card)
        pile = self.rng.choice(self.piles_of(seat))
        if card == JOKER or self.is_wild(card):
            # A discarded wild card (or joker) sets the pile out of play; he captures the god
            # card from whoever has it in play.
            self.discard[pile] = []
            if self.god is not None:
                self.god = seat
        else:
            self.discard[pile].append(card)
        return not hand

    def choose_discard(self, hand: list[int]) -> int:
        """The least useful card: of the rank he holds fewest of, the costliest; wild cards
        and the joker last."""
        plain = [card for card in hand if card != JOKER and not self.is_wild(card)]
        return self.rng.choice(_least_useful(plain) if plain else hand)


def _least_useful(plain: list[int]) -> list[int]:
    """The cards of the rank held fewest times, and of those the costliest."""
    count = Counter(NATURAL_RANK[card] for card in plain)
    keys = [(count[NATURAL_RANK[card]], -RANK_VALUE[NATURAL_RANK[card]]) for card in plain]
    low = min(keys)
    return [card for card, key in zip(plain, keys, strict=True) if key == low]


#: The seat across the table from each.
ACROSS = {"N": "S", "S": "N", "E": "W", "W": "E"}


def _home_piles(deal: PysngtautDeal) -> dict[str, int]:
    """The piles each seat draws from and discards to: with four players the dealer's side
    uses pile 1 and the other side pile 2; with fewer everybody uses pile 1."""
    return {
        seat: 1 if deal.players < 4 or seat in (deal.dealer, ACROSS[deal.dealer]) else 2
        for seat in deal.seats
    }


def _colour_groups(naturals: list[int]) -> list[list[int]]:
    """The naturals, then, when they are of both colours, the red ones and the black ones."""
    groups = [naturals]
    if len({RED[card] for card in naturals}) == 2:
        groups += [_of_colour(naturals, True), _of_colour(naturals, False)]
    return groups


def _of_colour(cards: list[int], red: bool) -> list[int]:
    """The red cards, or the black ones, in their order."""
    return [card for card in cards if RED[card] == red]


def play_board(
    deal: PysngtautDeal,
    rng: random.Random,
    *,
    direction: str = "counterclockwise",
    flags: Mapping[str, bool] | None = None,
) -> Board:
    """The hand played to its end by the simple player."""
    board = Board(deal, rng, direction, flags or {})
    board.play()
    return board


def _melds_text(melds: dict[str, dict[int, list[int]]]) -> dict[str, list[list[str]]]:
    """Every seat's sets as card texts, for the seats that melded."""
    return {
        seat: [[CARD_TEXT[card] for card in cards] for cards in sets.values()]
        for seat, sets in melds.items()
        if sets
    }


def board_record(board: Board, deal_text: str) -> dict[str, Any]:
    """The record of a played board: the outcome, every seat's sets and hand, the god card."""
    record: dict[str, Any] = {"game": "pysngtaut", "deal": deal_text}
    if board.winner is None:
        record["dead"] = True
    else:
        record["winner"] = board.winner
    melds = _melds_text(board.melds)
    if melds:
        record["melds"] = melds
    record["hands"] = {
        seat: [CARD_TEXT[card] for card in cards] for seat, cards in board.hands.items() if cards
    }
    if board.god is not None:
        record["god"] = board.god
    return record
