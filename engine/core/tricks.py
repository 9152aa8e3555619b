"""The tricks of a board record's ``play``: a list of tricks, each a list of card codes, read
into card numbers with the game's codes; ``RecordError`` names ``play`` and the trick."""

from __future__ import annotations

from collections.abc import Mapping

from engine.core.errors import RecordError


def read_tricks(
    play: object, codes: Mapping[str, int], tricks: int, players: int, trick_words: str
) -> list[list[int]]:
    """The ``tricks`` tricks of ``play``, a card each of ``players`` players, as card numbers;
    ``trick_words`` says what a trick holds in the message ("4 cards")."""
    if type(play) is not list or len(play) != tricks:
        what = f"{len(play)} tricks" if type(play) is list else repr(play)
        raise RecordError("play", f"must be a list of {tricks} tricks of {trick_words}, not {what}")
    return [read_trick(number, trick, codes, players) for number, trick in enumerate(play, 1)]


def read_trick(number: int, trick: object, codes: Mapping[str, int], players: int) -> list[int]:
    """Trick ``number`` of ``play``: a card each player."""
    if type(trick) is not list or len(trick) != players:
        what = f"{len(trick)} cards" if type(trick) is list else repr(trick)
        raise RecordError("play", f"trick {number}: must be a list of {players} cards, not {what}")
    cards = []
    for text in trick:
        card = codes.get(text) if type(text) is str else None
        if card is None:
            raise RecordError("play", f"trick {number}: {text!r} is not a card")
        cards.append(card)
    return cards
