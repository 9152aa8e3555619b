"""The head of a deal in notation, as every game with a dealer writes it: the dealer's seat
letter and a colon (``N:``), then groups separated by spaces. A fault is a ``DealError``
(``deal: ...``)."""

from __future__ import annotations

from engine.core.errors import DealError, in_deal
from engine.core.messages import words
from engine.core.seats import SEAT_LETTERS


def dealer_and_groups(text: str) -> tuple[str, list[str]]:
    """``(dealer's letter, groups)`` of a deal's text."""
    text = text.strip()
    if len(text) < 2 or text[1] != ":":
        raise DealError(
            in_deal(words("must start with the dealer's seat letter and a colon, like 'N:'"))
        )
    dealer = text[0].upper()
    if dealer not in SEAT_LETTERS:
        raise DealError(
            in_deal(words("%(seat)s is not a dealer's seat (N, E, S or W)", seat=repr(text[0])))
        )
    return dealer, text[2:].split()


def check_dealer_seated(dealer: str, players: int) -> None:
    """The dealer sits at a table of ``players`` (the first of N, E, S, W)."""
    if dealer not in SEAT_LETTERS[:players]:
        raise DealError(
            in_deal(
                words(
                    "the dealer %(dealer)s is not at a table of %(players)s players",
                    dealer=dealer,
                    players=players,
                )
            )
        )
