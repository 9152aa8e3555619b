"""Reads of the room's changes after the draw (``tournaments.room`` writes them): which
rounds have started, each entrant's substitutes and withdrawal, in words for the pages, cards,
API and workbook that name an entrant's players."""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db.models import Max
from django.utils.translation import gettext

from engine.core.messages import words
from tournaments import progress
from tournaments.models import ActionLog, Entrant, Match, MatchSeat, RoomChange, Tournament


def member_name(entrant: Entrant, member: int) -> str:
    """The player a substitute replaces: a pair's first or second player, or the player."""
    own = entrant.player1 if member == 1 else entrant.player2
    if own:
        return own
    return entrant.name if entrant.tournament.of_players else _player_words(member)


def _player_words(member: int) -> str:
    return gettext("player %(member)s") % {"member": member}


# --- reads ------------------------------------------------------------------------------------


def first_open_round(tournament: Tournament) -> int:
    """The first round not yet started: one after the last round with any board history."""
    return progress.last_started_round(tournament) + 1


def last_round(tournament: Tournament) -> int:
    found = Match.objects.filter(table__tournament=tournament).aggregate(top=Max("round"))
    return found["top"] or 0


def rounds_words(first: int, last: int | None) -> str:
    """``round 3``, ``rounds 3-5``, ``from round 3``, in the reader's language."""
    if last is None:
        return gettext("from round %(round)s") % {"round": first}
    if first == last:
        return gettext("round %(round)s") % {"round": first}
    return gettext("rounds %(first)s-%(last)s") % {"first": first, "last": last}


def substitutes_by_round(tournament: Tournament) -> dict[tuple[int, int], dict[int, str]]:
    """``{(entrant id, round): {member: substitute's name}}`` over the drawn rounds."""
    top = last_round(tournament)
    out: dict[tuple[int, int], dict[int, str]] = defaultdict(dict)
    for change in RoomChange.objects.filter(tournament=tournament, kind=RoomChange.Kind.SUBSTITUTE):
        for round_ in range(change.from_round, (change.to_round or top) + 1):
            out[(change.entrant_id, round_)][change.member] = change.name
    return out


def players_in_round(entrant: Entrant, subs: dict[int, str]) -> str:
    """The entrant's players as they sit in a round: each substitute in place of the player
    he stands in for, marked as such."""
    single = entrant.tournament.of_players
    own = [entrant.player1 or (entrant.name if single else ""), entrant.player2]
    names = [
        gettext("%(substitute)s (for %(player)s)")
        % {"substitute": subs[member], "player": name or _player_words(member)}
        if member in subs
        else name
        for member, name in enumerate(own, start=1)
    ]
    return " + ".join(name for name in names if name)


def substitutes(tournament: Tournament) -> list[RoomChange]:
    return list(
        RoomChange.objects.filter(
            tournament=tournament, kind=RoomChange.Kind.SUBSTITUTE
        ).select_related("entrant__tournament")
    )


def substitute_words(change: RoomChange) -> str:
    """``Cy for Bo, rounds 2-3``, in the reader's language."""
    return gettext("%(name)s for %(player)s, %(rounds)s") % {
        "name": change.name,
        "player": member_name(change.entrant, change.member or 1),
        "rounds": rounds_words(change.from_round, change.to_round),
    }


def substitutes_of_entrants(tournament: Tournament) -> dict[int, list[str]]:
    """Each entrant's substitutes in words, for the pages and files that name its players."""
    out: dict[int, list[str]] = defaultdict(list)
    for change in substitutes(tournament):
        out[change.entrant_id].append(substitute_words(change))
    return dict(out)


def substitutes_of_matches(
    tournament: Tournament, matches: list[Match]
) -> dict[int, list[dict[str, Any]]]:
    """Each match's substitutes: ``{entrant, player, name}``, who plays for whom there."""
    found = substitutes(tournament)
    if not found or not matches:
        return {}
    seated = _seated_entrants(matches)
    out: dict[int, list[dict[str, Any]]] = {}
    for match in matches:
        at_table = seated[match.pk] | {match.north_entrant_id, match.east_entrant_id}
        here = [
            {
                "entrant": change.entrant.number,
                "player": member_name(change.entrant, change.member or 1),
                "name": change.name,
            }
            for change in found
            if _plays_at(change, at_table, match.round)
        ]
        if here:
            out[match.pk] = here
    return out


def _seated_entrants(matches: list[Match]) -> dict[int, set[int]]:
    """The entrants seated at each match (games of individuals), by match id."""
    seated: dict[int, set[int]] = defaultdict(set)
    for match_id, pk in MatchSeat.objects.filter(match__in=matches).values_list(
        "match_id", "entrant_id"
    ):
        seated[match_id].add(pk)
    return seated


def _plays_at(change: RoomChange, at_table: set[int], round_number: int) -> bool:
    """Whether a substitute plays for one of the entrants ``at_table`` in the round."""
    last = change.to_round or round_number
    return change.entrant_id in at_table and change.from_round <= round_number <= last


def substitutes_data(tournament: Tournament) -> dict[int, list[dict[str, Any]]]:
    """Each entrant's substitutes for the API: ``{player, name, from_round, to_round}``."""
    out: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for change in substitutes(tournament):
        out[change.entrant_id].append(
            {
                "player": member_name(change.entrant, change.member or 1),
                "name": change.name,
                "from_round": change.from_round,
                "to_round": change.to_round,
            }
        )
    return dict(out)


def sitting_out_words(bye: str, round_: int, withdrew_after: int | None) -> str:
    """What a round without a match says: the bye's words, or for an entrant that withdrew
    before it, that it no longer plays."""
    if withdrew_after is not None and round_ > withdrew_after:
        return words("withdrew after round %(round)s: no match", round=withdrew_after)
    return bye


def withdrawn_after(tournament: Tournament) -> dict[int, int]:
    """``{entrant id: the last round it played}`` of the withdrawn entrants."""
    return {
        pk: first - 1
        for pk, first in RoomChange.objects.filter(
            tournament=tournament, kind=RoomChange.Kind.WITHDRAWAL
        ).values_list("entrant_id", "from_round")
    }


@dataclass(frozen=True)
class Gap:
    """A round a withdrawal took out of an entrant's route: the table it was to play and why
    it has no match there."""

    round: int
    table: int
    words: str  # the engine's marker: English, translated where it is shown
    withdrawn: bool  # the entrant withdrew (else it was to play one who did: a bye)


def withdrawal_gaps(tournament: Tournament) -> dict[tuple[int, int], Gap]:
    """``{(entrant number, round): Gap}`` over the matches the withdrawals took out: the
    withdrawn entrant's own ("withdrew after round r: no match") and, for every entrant who
    was to play it there, a bye naming who withdrew; and each place a late arrival took in
    a match, a bye for its owner naming the newcomer. A round that a late arrival has filled
    since is a match again: the pages ask only of the rounds without one."""
    out: dict[tuple[int, int], Gap] = {}
    for change in RoomChange.objects.filter(
        tournament=tournament, kind=RoomChange.Kind.WITHDRAWAL
    ).select_related("entrant"):
        leaver = change.entrant
        for kept in change.matches:
            round_, table = kept["round"], kept["table"]
            numbers = {kept["north"], kept["east"], *kept.get("seats", {}).values()}
            for number in numbers:
                if number == leaver.number:
                    why = words(
                        "withdrew after round %(round)s: no match", round=change.after_round
                    )
                else:
                    why = words(
                        "bye: %(number)s %(name)s withdrew", number=leaver.number, name=leaver.name
                    )
                out[(number, round_)] = Gap(round_, table, why, number == leaver.number)
    for change in RoomChange.objects.filter(
        tournament=tournament, kind=RoomChange.Kind.ARRIVAL
    ).select_related("entrant"):
        newcomer = change.entrant
        for kept in change.matches:
            if "replaced" in kept:  # a place taken in a match: its owner sits out instead
                why = words(
                    "bye: its place went to the late arrival %(number)s %(name)s",
                    number=newcomer.number,
                    name=newcomer.name,
                )
                out[(kept["replaced"], kept["round"])] = Gap(
                    kept["round"], kept["table"], why, False
                )
    return out


# --- route cards to print again ---------------------------------------------------------------

# The log's action for route cards printed: ``after["cards"]`` is ``{number: digest}``.
CARDS_PRINTED = "route_cards_printed"
DIGEST_LENGTH = 16


def card_digest(card: Any) -> str:
    """What a printed route card says (``selectors.RouteCard``), as a short hash: the entrant,
    its players and substitutes, its access code, and every round's table, seat, opponents
    or bye. Two cards with one digest print alike."""
    entrant = card.entrant
    stops = [
        (
            stop.round,
            stop.table.number if stop.table else None,
            stop.table.label if stop.table else "",
            stop.side,
            (stop.opponent.number, stop.opponent.name) if stop.opponent else None,
            getattr(stop.opening, "full_name", None),
            [(seat, player.number, player.name) for seat, player in stop.others],
            stop.note,
        )
        for stop in card.stops
    ]
    facts = [
        entrant.number,
        entrant.name,
        entrant.players,
        entrant.access_code,
        card.substitutes,
        card.withdrew_after,
        entrant.is_disqualified,
        stops,
    ]
    text = json.dumps(facts, ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:DIGEST_LENGTH]


def printed_digests(tournament: Tournament) -> dict[int, str]:
    """``{entrant number: the digest of its card as last printed}``, from the log."""
    out: dict[int, str] = {}
    for after in (
        ActionLog.objects.filter(tournament=tournament, action=CARDS_PRINTED)
        .order_by("created_at", "id")
        .values_list("after", flat=True)
    ):
        for number, digest in ((after or {}).get("cards") or {}).items():
            out[int(number)] = digest
    return out


def reprint_flags(cards: list[Any], printed: dict[int, str]) -> dict[int, str]:
    """``{entrant number: "reprint" | "new"}``: a card printed before that no longer prints
    alike (a room change, a new access code), or, once any card has been printed, a card
    never printed (a late arrival's). Nothing before the first printing, nor for an entrant
    that has withdrawn or is disqualified: it plays no more, nobody reads its card."""
    if not printed:
        return {}
    flags = {}
    for card in cards:
        number = card.entrant.number
        if card.withdrew_after is not None or card.entrant.is_disqualified:
            continue
        if number not in printed:
            flags[number] = "new"
        elif printed[number] != card_digest(card):
            flags[number] = "reprint"
    return flags
