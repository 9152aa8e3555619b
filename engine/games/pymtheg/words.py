"""The contract and its outcome in words, for the scorer's and the director's screens.

Every sentence is made with ``words`` (engine.core.messages): the English text, kept
translatable by the web layer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.messages import Words, words
from engine.games.pymtheg.auction import BID_WORDS, CallError, parse_call

SEAT_NAMES = {"N": words("North"), "E": words("East"), "S": words("South"), "W": words("West")}
TRUMP_WORDS = {
    "fire": words("Fire"),
    "earth": words("Earth"),
    "water": words("Water"),
    "wind": words("Wind"),
    "nt": words("no trump"),
}
DOUBLE_WORDS = {"none": "", "x": words(", doubled"), "xx": words(", redoubled")}


def _named(trump: str, announced: Any) -> Words:
    if announced == "during":
        return words(", %(trump)s named in the bid", trump=TRUMP_WORDS[trump])
    return words(", %(trump)s named after the auction", trump=TRUMP_WORDS[trump])


def _passed_out_words(ns: Any) -> Words:
    """A passed-out board: ranked worst, or, passed out twice, the score of each team."""
    if ns is None:
        return words("Passed out: ranked worst at this table")
    return words("Passed out twice: %(score)s for each team", score=ns)


def contract_in_words(score: dict[str, Any]) -> str:
    """E.g. "South plays Gâm +4, no trump named after the auction, doubled: lost, -276"."""
    if score.get("contract") is None:
        return _passed_out_words(score.get("ns"))
    trump = score.get("trump")
    contract = words(
        "%(seat)s plays %(bid)s%(trump)s%(double)s",
        seat=SEAT_NAMES[score["declarer"]],
        bid=BID_WORDS[score["contract"]],
        trump=_named(trump, score.get("announced")) if trump else "",
        double=DOUBLE_WORDS[score.get("double", "none")],
    )
    values = {
        "contract": contract,
        "score": f"{score['declarer_score']:+d}",
        "playing": score["playing"],
    }
    if score.get("made"):
        return words("%(contract)s: made, %(score)s to %(playing)s", **values)
    if score.get("liability"):
        return words(
            "%(contract)s: lost, %(score)s to %(playing)s "
            "(includes %(liability)s for overbidding a Ry)",
            liability=score["liability"],
            **values,
        )
    return words("%(contract)s: lost, %(score)s to %(playing)s", **values)


TEAM_WORDS = {"NS": words("North–South"), "EW": words("East–West")}
DOUBLE_FACTS = {"none": words("Not doubled"), "x": words("Doubled"), "xx": words("Redoubled")}


def call_in_words(text: str) -> tuple[str, str]:
    """``("South", "Gâm +4, no trump")`` for ``"S:G+4/nt"``; a call that cannot be read is
    shown as it was written."""
    try:
        call = parse_call(text)
    except CallError:
        return "", str(text)
    if call.bid is None:
        return SEAT_NAMES[call.seat.name], words("Pass")
    bid = BID_WORDS[call.bid.code]
    if call.trump:
        return SEAT_NAMES[call.seat.name], words(
            "%(bid)s, %(trump)s", bid=bid, trump=TRUMP_WORDS[call.trump]
        )
    return SEAT_NAMES[call.seat.name], bid


def auctions_in_words(record: Mapping[str, Any]) -> list[tuple[str, list[tuple[str, str]]]]:
    """Each auction of an entry with its title: a passed-out first auction says so."""
    auctions = record.get("auctions") or []
    titles = (
        [words("First auction: passed out"), words("Second auction")]
        if len(auctions) > 1
        else [words("Auction")]
    )
    return [
        (title, [call_in_words(call) for call in calls])
        for title, calls in zip(titles, auctions, strict=False)
    ]


def _counts(tricks: Mapping[str, Any], keys: tuple[str, ...], between: str) -> Words:
    """``North–South 10, East–West 5``: each side's or seat's tricks, every name translatable."""
    names = {**SEAT_NAMES, **TEAM_WORDS}
    places = [key for key in keys if key in tricks]
    pattern = between.join(f"%({key})s %({key}_tricks)s" for key in places)
    values: dict[str, Any] = {key: names[key] for key in places}
    values.update({f"{key}_tricks": tricks[key] for key in places})
    # A pattern of places only: its words are the seats' names, translated each.
    return Words(pattern, values)


def tricks_in_words(record: Mapping[str, Any]) -> str:
    """``Tricks: North–South 10, East–West 5`` (or each seat's, after a Ry or a Lon); empty
    when the record has none (passed out)."""
    tricks = record.get("tricks")
    if not isinstance(tricks, dict) or not tricks:
        return ""
    counts = _counts(tricks, ("NS", "EW", "N", "E", "S", "W"), ", ")
    return words("Tricks: %(counts)s", counts=counts)


def _trump_fact(trump: str, announced: Any) -> Words:
    """The trump, and when it was named."""
    capital = words("No trump") if trump == "nt" else TRUMP_WORDS[trump]
    if announced == "during":
        return words("%(trump)s (named in the bid)", trump=capital)
    return words("%(trump)s (named after the auction)", trump=capital)


def entry_facts_in_words(
    record: Mapping[str, Any], score: Mapping[str, Any]
) -> list[tuple[str, str]]:
    """The facts of an entry besides its calls, as East checks them."""
    facts: list[tuple[str, str]] = []
    trump = score.get("trump")
    if trump:
        facts.append((words("Trump"), _trump_fact(trump, score.get("announced"))))
    if score.get("contract") is not None:
        double = record.get("double", "none")
        facts.append((words("Double"), DOUBLE_FACTS.get(double, str(double))))
    tricks = record.get("tricks")
    if isinstance(tricks, dict):
        facts.append((words("Tricks"), _counts(tricks, ("N", "E", "S", "W", "NS", "EW"), " · ")))
    if record.get("revoke") in SEAT_NAMES:
        facts.append(
            (
                words("Revoke"),
                words("by %(seat)s: the round ended there", seat=SEAT_NAMES[record["revoke"]]),
            )
        )
    if record.get("illegal_trump") in SEAT_NAMES:
        facts.append(
            (
                words("Illegal trump"),
                words("by %(seat)s", seat=SEAT_NAMES[record["illegal_trump"]]),
            )
        )
    return facts
