"""The room as it really is: late arrivals, withdrawals and substitutes (GAMES.md, "Real
rooms"; docs/organiser.md). Each is a ``RoomChange`` row, logged, and can be undone while
none of its rounds has started.

A round has started once any board of it has a history (an entry, a check, a director's
action). Every change here takes the results lock first (``services._locked``): a scorer's
write under way commits before the change reads which rounds have started, and the next
waits for it, so a round cannot start halfway through a change. A refused change stores
nothing (each service is one transaction).

- **Late arrival**: a new entrant, registered and seated in one action in a phantom's place
  in the rounds not yet started (``engine.schedule.arrival``); the rounds it misses are byes.
- **Withdrawal** after round r: its matches of later rounds are taken out (kept in the row,
  to be put back by an undo); its opponents there have a bye. It keeps its results and is
  listed without a place, "withdrew after round r".
- **Substitute**: a name in place of one of the entrant's players (a pair's first or second
  player, or the single player) for a span of rounds; results count for the entrant.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext

from engine.core.messages import Words, words
from engine.schedule.arrival import (
    NEWCOMER,
    ArrivalError,
    Placement,
    displace_pair,
    displace_player,
    seat_pair,
    seat_player,
)
from tournaments import room_selectors
from tournaments.models import (
    ActionLog,
    Entrant,
    Match,
    MatchSeat,
    RoomChange,
    Status,
    Table,
    Tournament,
)
from tournaments.room_selectors import first_open_round, last_round, member_name, rounds_words
from tournaments.services import (
    ServiceError,
    _check_entrant_fields,
    _free_access_codes,
    _locked,
    _log,
    _next_entrant_number,
    _ranking_inputs_changed,
    _require_status,
)
from tournaments.templatetags.languages import translated

PLAYING = (Status.SCHEDULED, Status.RUNNING)


# --- late arrival -----------------------------------------------------------------------------


@transaction.atomic
def late_arrival(
    *,
    by: Any,
    tournament: Tournament,
    name: str,
    player1: str = "",
    player2: str = "",
    displace: bool = False,
) -> RoomChange:
    """Register an entrant after the draw and seat it in a phantom's place from the first
    round not yet started. Where there is none, ``displace`` seats it in matches already
    drawn, one entrant a round sitting out instead (``engine.schedule.arrival``); without
    it, ``ServiceError`` says who would sit out, or what else can be done."""
    tournament = _locked(tournament)
    _require_status(tournament, PLAYING, "seat a late arrival (in draft, add it instead)")
    first, top = first_open_round(tournament), last_round(tournament)
    entrant = Entrant(
        tournament=tournament,
        number=_next_entrant_number(tournament),
        name=name.strip(),
        player1=player1.strip(),
        player2="" if tournament.of_players else player2.strip(),
        access_code=_free_access_codes(tournament, 1)[0],
    )
    _check_entrant_fields(entrant)
    placements = _placements_or_displacements(tournament, list(range(first, top + 1)), displace)
    entrant.save()
    matches = _seat(tournament, entrant, placements)
    change = RoomChange.objects.create(
        tournament=tournament,
        entrant=entrant,
        kind=RoomChange.Kind.ARRIVAL,
        from_round=first,
        matches=[
            _seated_record(m, placement) for m, placement in zip(matches, placements, strict=True)
        ],
        by=by if getattr(by, "is_authenticated", False) else None,
    )
    seated = ", ".join(str(p.round) for p in placements)
    _log(
        by=by,
        tournament=tournament,
        action="late_arrival",
        summary=f"Late arrival: {entrant.number} {entrant.name!r} seated in rounds {seated}",
        after={"entrant": entrant.number, "name": entrant.name, "rounds": _rounds(placements)},
    )
    _ranking_inputs_changed(tournament)
    return change


def _rounds(placements: list[Placement]) -> list[dict[str, Any]]:
    return [{"round": p.round, "table": p.table, "seat": p.own} for p in placements]


def _seated_record(match: Match, placement: Placement) -> dict[str, Any]:
    """An arrival's match as its row keeps it; a displacement names the entrant (by
    number) whose place it took, and the seat, to be put back on undo."""
    record: dict[str, Any] = {"round": match.round, "table": placement.table}
    if placement.replaces is not None:
        record |= {"replaced": _number_of(placement.replaces), "seat": placement.own}
    return record


def _number_of(pk: int) -> int:
    return Entrant.objects.values_list("number", flat=True).get(pk=pk)


def _placements_or_displacements(
    tournament: Tournament, rounds: list[int], displace: bool
) -> list[Placement]:
    """A phantom's place in every round it can have one; else, asked, a place taken from
    one entrant a round; else a ``ServiceError`` saying what can be done."""
    try:
        return _placements(tournament, rounds)
    except ArrivalError as exc:
        no_place = exc.args[0]  # the engine's words
    if not rounds:
        raise ServiceError(translated(no_place))
    try:
        taken = _displacements(tournament, rounds)
    except ArrivalError as exc:
        raise ServiceError(
            gettext("%(no_place)s Nor can it take a place in a match: %(why)s")
            % {"no_place": translated(no_place), "why": translated(exc.args[0])}
        ) from None
    if displace:
        return taken
    raise ServiceError(_displacement_offer(tournament, taken, no_place, len(rounds)))


def _displacement_offer(
    tournament: Tournament, taken: list[Placement], no_place: str, left: int
) -> str:
    span = (
        gettext("each of the %(left)s rounds left") % {"left": left}
        if len(taken) == left
        else gettext("%(taken)s of the %(left)s rounds left") % {"taken": len(taken), "left": left}
    )
    numbers = Entrant.objects.in_bulk([p.replaces for p in taken])
    who = "; ".join(
        gettext("round %(round)s: %(number)s %(name)s")
        % {
            "round": p.round,
            "number": numbers[p.replaces].number,
            "name": numbers[p.replaces].name,
        }
        for p in taken
    )
    # The engine's first sentence: why no phantom's place is left.
    reason = no_place.values.get("reason", no_place) if isinstance(no_place, Words) else no_place
    if tournament.of_players:
        offer = gettext(
            '%(reason)s. It can still be seated now: tick "Take a place in a match" to seat '
            "it in %(span)s, taking one player's place a round, that player sitting out the "
            "round instead (a bye, scored as every bye): %(who)s. Their route cards and their "
            "opponents' are to be printed again."
        )
    else:
        offer = gettext(
            '%(reason)s. It can still be seated now: tick "Take a place in a match" to seat '
            "it in %(span)s, taking one team's place a round, that team sitting out the "
            "round instead (a bye, scored as every bye): %(who)s. Their route cards and their "
            "opponents' are to be printed again."
        )
    return offer % {"reason": translated(reason), "span": span, "who": who}


def _displacements(tournament: Tournament, rounds: list[int]) -> list[Placement]:
    matches = list(
        Match.objects.filter(table__tournament=tournament, round__in=rounds).select_related("table")
    )
    out = _out_of_play(tournament)
    pool = [pk for pk in tournament.entrants.values_list("pk", flat=True) if pk not in out]
    if not tournament.of_players:
        rows = [(m.round, m.table.number, m.north_entrant_id, m.east_entrant_id) for m in matches]
        return displace_pair(rows, pool, rounds, tournament.side_mode)
    seats: dict[int, dict[str, int]] = defaultdict(dict)
    for seat in MatchSeat.objects.filter(match__in=matches):
        seats[seat.match_id][seat.seat] = seat.entrant_id
    return displace_player([(m.round, m.table.number, seats[m.pk]) for m in matches], pool, rounds)


def _out_of_play(tournament: Tournament) -> set[int]:
    """Entrants who cannot be met: withdrawn or disqualified."""
    withdrawn = RoomChange.objects.filter(
        tournament=tournament, kind=RoomChange.Kind.WITHDRAWAL
    ).values_list("entrant_id", flat=True)
    disqualified = Entrant.objects.filter(
        tournament=tournament, disqualification__isnull=False
    ).values_list("pk", flat=True)
    return set(withdrawn) | set(disqualified)


def _placements(tournament: Tournament, rounds: list[int]) -> list[Placement]:
    matches = list(Match.objects.filter(table__tournament=tournament).select_related("table"))
    out = _out_of_play(tournament)
    pool = [pk for pk in tournament.entrants.values_list("pk", flat=True) if pk not in out]
    hosts = _host_tables(tournament)
    if not tournament.of_players:
        rows = [(m.round, m.table.number, m.north_entrant_id, m.east_entrant_id) for m in matches]
        return seat_pair(rows, pool, hosts, rounds, tournament.side_mode)
    seats: dict[int, dict[str, int]] = defaultdict(dict)
    for seat in MatchSeat.objects.filter(match__in=matches):
        seats[seat.match_id][seat.seat] = seat.entrant_id
    seatings = [(m.round, m.table.number, seats[m.pk]) for m in matches]
    sizes = {m.table.number: len(seats[m.pk]) for m in matches}
    tables = {number: sizes.get(number, tournament.table_size) for number in hosts}
    return seat_player(seatings, pool, tables, rounds)


def _host_tables(tournament: Tournament) -> list[int]:
    """The tables that can host a match: those with their boards dealt (all of them before
    any deal)."""
    tables = Table.objects.filter(tournament=tournament)
    dealt = tables.filter(boards__isnull=False).distinct()
    return sorted((dealt if dealt.exists() else tables).values_list("number", flat=True))


def _seat(tournament: Tournament, entrant: Entrant, placements: list[Placement]) -> list[Match]:
    tables = {table.number: table for table in tournament.tables.all()}
    matches = []
    for placement in placements:
        if placement.replaces is not None:
            matches.append(_take_place(tournament, entrant.pk, placement))
            continue
        who = {place: entrant.pk if pk == NEWCOMER else pk for place, pk in placement.seats.items()}
        first, second = (who["ns"], who["ew"]) if "ns" in who else (who["N"], who["E"])
        match = Match.objects.create(
            round=placement.round,
            table=tables[placement.table],
            north_entrant_id=first,
            east_entrant_id=second,
        )
        if tournament.of_players:
            MatchSeat.objects.bulk_create(
                MatchSeat(match=match, seat=seat, entrant_id=pk, round=match.round)
                for seat, pk in who.items()
            )
        matches.append(match)
    return matches


def _take_place(tournament: Tournament, newcomer: int, placement: Placement) -> Match:
    """The newcomer in the seat (or on the side) of ``placement.replaces``, in the match
    already drawn at that round and table."""
    match = Match.objects.get(
        table__tournament=tournament, round=placement.round, table__number=placement.table
    )
    _put(match, placement.own, placement.replaces, newcomer)
    return match


def _put(match: Match, place: str, before: int, after: int) -> None:
    """``after`` in place of ``before`` at ``place`` (``ns``/``ew``, or a seat letter)."""
    if place in ("ns", "ew"):
        field = "north_entrant_id" if place == "ns" else "east_entrant_id"
        setattr(match, field, after)
        match.save(update_fields=[field.removesuffix("_id")])
        return
    MatchSeat.objects.filter(match=match, seat=place, entrant_id=before).update(entrant_id=after)
    if match.north_entrant_id == before:
        match.north_entrant_id = after
        match.save(update_fields=["north_entrant"])
    if match.east_entrant_id == before:
        match.east_entrant_id = after
        match.save(update_fields=["east_entrant"])


# --- withdrawal -------------------------------------------------------------------------------


def _matches_of(entrant: Entrant) -> Q:
    seated = MatchSeat.objects.filter(entrant=entrant).values("match_id")
    return Q(north_entrant=entrant) | Q(east_entrant=entrant) | Q(pk__in=seated)


@transaction.atomic
def withdraw(*, by: Any, entrant: Entrant, after_round: int, reason: str = "") -> RoomChange:
    """The entrant leaves for good after ``after_round``: its later matches are taken out,
    its opponents there have a bye, its results stand."""
    tournament = _locked(entrant.tournament)
    _require_status(tournament, PLAYING, "record a withdrawal")
    _refuse_if_out(entrant)
    first, top = first_open_round(tournament), last_round(tournament)
    if not 0 <= after_round < top:
        raise ServiceError(
            gettext("the rounds are 1 to %(top)s: a withdrawal is after round 0 to %(last)s")
            % {"top": top, "last": top - 1}
        )
    if after_round + 1 < first:
        raise ServiceError(
            gettext(
                "round %(round)s has started: a withdrawal can take out only rounds not yet "
                "started (after round %(earliest)s at the earliest)"
            )
            % {"round": after_round + 1, "earliest": first - 1}
        )
    taken = list(
        Match.objects.filter(_matches_of(entrant), table__tournament=tournament)
        .filter(round__gt=after_round)
        .select_related("table", "north_entrant", "east_entrant")
    )
    kept = [_match_record(match) for match in taken]
    Match.objects.filter(pk__in=[m.pk for m in taken]).delete()
    change = RoomChange.objects.create(
        tournament=tournament,
        entrant=entrant,
        kind=RoomChange.Kind.WITHDRAWAL,
        from_round=after_round + 1,
        matches=kept,
        reason=reason.strip(),
        by=by if getattr(by, "is_authenticated", False) else None,
    )
    _log(
        by=by,
        tournament=tournament,
        action="withdraw",
        summary=f"{entrant.number} {entrant.name!r} withdrew after round {after_round}"
        f" ({len(kept)} matches not played)",
        after={"entrant": entrant.number, "after_round": after_round, "matches": kept},
    )
    _ranking_inputs_changed(tournament)
    return change


def _refuse_if_out(entrant: Entrant) -> None:
    if entrant.is_disqualified:
        raise ServiceError(
            gettext("%(number)s %(name)s is disqualified")
            % {"number": entrant.number, "name": entrant.name}
        )
    if RoomChange.objects.filter(entrant=entrant, kind=RoomChange.Kind.WITHDRAWAL).exists():
        raise ServiceError(
            gettext("%(number)s %(name)s has withdrawn already")
            % {"number": entrant.number, "name": entrant.name}
        )


def _match_record(match: Match) -> dict[str, Any]:
    """A match as kept for an undo: by round, table and the entrants' numbers (never ids, so
    that a backup restores it anywhere)."""
    return {
        "round": match.round,
        "table": match.table.number,
        "north": match.north_entrant.number,
        "east": match.east_entrant.number,
        "seats": dict(match.seats.values_list("seat", "entrant__number")),
    }


# --- substitute -------------------------------------------------------------------------------


@transaction.atomic
def substitute(
    *,
    by: Any,
    entrant: Entrant,
    name: str,
    from_round: int,
    to_round: int | None = None,
    member: int = 1,
) -> RoomChange:
    """``name`` plays for the entrant's player ``member`` (1 or 2; 1 for a single player)
    from ``from_round`` to ``to_round`` (None: to the end)."""
    tournament = _locked(entrant.tournament)
    _require_status(tournament, PLAYING, "seat a substitute")
    name = name.strip()
    if not name:
        raise ServiceError(gettext("give the substitute's name"))
    _check_substitute_rounds(tournament, entrant, member, from_round, to_round)
    change = RoomChange.objects.create(
        tournament=tournament,
        entrant=entrant,
        kind=RoomChange.Kind.SUBSTITUTE,
        member=member,
        name=name,
        from_round=from_round,
        to_round=to_round,
        by=by if getattr(by, "is_authenticated", False) else None,
    )
    with translation.override("en"):  # the action log is kept in English
        whom, rounds = member_name(entrant, member), rounds_words(from_round, to_round)
    _log(
        by=by,
        tournament=tournament,
        action="substitute",
        summary=f"{name} plays for {whom} ({entrant.number} {entrant.name}), {rounds}",
        after={
            "entrant": entrant.number,
            "member": member,
            "name": name,
            "from_round": from_round,
            "to_round": to_round,
        },
    )
    # The pages that name the entrant's players are drawn again (the standings' version).
    _ranking_inputs_changed(tournament)
    return change


def _check_substitute_rounds(
    tournament: Tournament, entrant: Entrant, member: int, first: int, last: int | None
) -> None:
    """A substitute for ``member`` of ``entrant`` from round ``first`` to ``last`` (None: to
    the end) replaces a player the entrant has, in rounds still to play, before any withdrawal
    and beside no other substitute for the same player."""
    members = (1,) if tournament.of_players else (1, 2)
    if member not in members:
        raise ServiceError(
            gettext("the player replaced is %(choices)s")
            % {"choices": gettext(" or ").join(map(str, members))}
        )
    top = last_round(tournament)
    _check_rounds_to_play(tournament, first, last, top)
    _check_before_withdrawal(entrant, last or top)
    _check_no_other_substitute(entrant, member, first, last or top, top)


def _check_rounds_to_play(tournament: Tournament, first: int, last: int | None, top: int) -> None:
    """The rounds lie within the tournament's, first to last, and none has started."""
    open_ = first_open_round(tournament)
    if not 1 <= first <= top or (last is not None and not first <= last <= top):
        raise ServiceError(
            gettext("the rounds of a substitute lie within 1 to %(top)s, first to last")
            % {"top": top}
        )
    if first < open_:
        raise ServiceError(
            gettext("round %(round)s has started: a substitute can be named from round %(open)s on")
            % {"round": first, "open": open_}
        )


def _check_before_withdrawal(entrant: Entrant, last: int) -> None:
    """The substitute's last round comes before the entrant's withdrawal, if it withdrew."""
    withdrawal = entrant.room_changes.filter(kind=RoomChange.Kind.WITHDRAWAL).first()
    if withdrawal is not None and last >= withdrawal.from_round:
        raise ServiceError(
            gettext("%(name)s withdrew after round %(round)s")
            % {"name": entrant.name, "round": withdrawal.from_round - 1}
        )


def _check_no_other_substitute(
    entrant: Entrant, member: int, first: int, last: int, top: int
) -> None:
    """No other substitute plays for the same player in any of the rounds."""
    for other in entrant.room_changes.filter(kind=RoomChange.Kind.SUBSTITUTE, member=member):
        if first <= (other.to_round or top) and other.from_round <= last:
            raise ServiceError(
                gettext("%(name)s already plays for %(player)s %(rounds)s")
                % {
                    "name": other.name,
                    "player": member_name(entrant, member),
                    "rounds": rounds_words(other.from_round, other.to_round),
                }
            )


# --- route cards printed ----------------------------------------------------------------------


def cards_printed(
    *, by: Any, tournament: Tournament, digests: Mapping[int, str], first: bool = False
) -> ActionLog | None:
    """Record route cards as printed, each with the digest of what it printed
    (``room_selectors.card_digest``): their reprint flags clear while they still print alike.
    ``first``: the first printing of a drawn schedule, recorded when the print page is first
    opened. Bad input (an unknown entrant, a digest that is not one) stores nothing."""
    known = set(tournament.entrants.values_list("number", flat=True))
    unknown = sorted(set(digests) - known)
    if unknown:
        raise ServiceError(
            gettext("no entrant numbered %(numbers)s") % {"numbers": ", ".join(map(str, unknown))}
        )
    if any(not _is_digest(digest) for digest in digests.values()):
        raise ServiceError(gettext("a card's digest is 16 hexadecimal digits"))
    if not digests:
        return None
    numbers = ", ".join(str(number) for number in sorted(digests))
    how = "printed (first printing)" if first else "printed again"
    return _log(
        by=by,
        tournament=tournament,
        action=room_selectors.CARDS_PRINTED,
        summary=f"Route cards {how}: {numbers}"[:300],
        after={"cards": {str(number): digest for number, digest in sorted(digests.items())}},
    )


def _is_digest(text: Any) -> bool:
    return (
        isinstance(text, str)
        and len(text) == room_selectors.DIGEST_LENGTH
        and all(c in "0123456789abcdef" for c in text)
    )


# --- undo -------------------------------------------------------------------------------------


@transaction.atomic
def undo(*, by: Any, change: RoomChange) -> str:
    """Take back a change none of whose rounds has started (a substitute already playing is
    ended after the last round started instead). Returns what was done, in words."""
    tournament = _locked(change.tournament)
    _require_status(tournament, PLAYING, "undo a change of the room")
    change = RoomChange.objects.select_for_update(of=("self",)).get(pk=change.pk)
    first = first_open_round(tournament)
    if change.kind == RoomChange.Kind.SUBSTITUTE and change.from_round < first:
        return _end_substitute(by, tournament, change, first)
    if change.from_round < first:
        raise ServiceError(
            gettext(
                "round %(round)s has started: only a change of rounds not yet started can be undone"
            )
            % {"round": change.from_round}
        )
    before, kind = change.as_data(), change.kind
    change.delete()  # the object keeps its fields: the undo below reads them
    done = _UNDO[kind](tournament, change)
    _log(
        by=by,
        tournament=tournament,
        action=f"undo_{kind}",
        summary=f"Undone: {done}",
        before=before,
    )
    _ranking_inputs_changed(tournament)
    return done


def _end_substitute(by: Any, tournament: Tournament, change: RoomChange, first: int) -> str:
    if change.to_round is not None and change.to_round < first:
        raise ServiceError(
            gettext("%(name)s has played every round named: nothing left to undo")
            % {"name": change.name}
        )
    before = change.as_data()
    change.to_round = first - 1
    change.save(update_fields=["to_round"])
    done = words(
        "%(name)s plays for %(entrant)s up to round %(round)s only",
        name=change.name,
        entrant=change.entrant.name,
        round=first - 1,
    )
    _log(by=by, tournament=tournament, action="undo_substitute", summary=done, before=before)
    _ranking_inputs_changed(tournament)
    return done


def _undo_arrival(tournament: Tournament, change: RoomChange) -> str:
    entrant = change.entrant
    mine = Match.objects.filter(_matches_of(entrant), table__tournament=tournament)
    seated = {(kept["round"], kept["table"]) for kept in change.matches}
    if any((m.round, m.table.number) not in seated for m in mine.select_related("table")):
        raise ServiceError(
            gettext("%(name)s plays in matches added since: remove them first")
            % {"name": entrant.name}
        )
    for kept in change.matches:
        if "replaced" in kept:  # a place taken in a match: its owner sits there again
            _give_back(tournament, entrant, kept)
    mine.delete()  # the matches it was seated in at free tables (read again: lazy)
    done = words(
        "the late arrival of %(number)s %(name)s", number=entrant.number, name=entrant.name
    )
    entrant.delete()
    return done


def _give_back(tournament: Tournament, entrant: Entrant, kept: dict[str, Any]) -> None:
    """A displacement undone: the entrant whose place the newcomer took sits there again,
    refused if it plays elsewhere in that round since."""
    match = Match.objects.get(
        table__tournament=tournament, round=kept["round"], table__number=kept["table"]
    )
    owner = Entrant.objects.get(tournament=tournament, number=kept["replaced"])
    elsewhere = Match.objects.filter(_matches_of(owner), round=kept["round"]).exclude(pk=match.pk)
    if elsewhere.exists():
        raise ServiceError(
            gettext(
                "%(number)s %(name)s plays elsewhere in round %(round)s since the "
                "late arrival took its place: undo that first"
            )
            % {"number": owner.number, "name": owner.name, "round": kept["round"]}
        )
    _put(match, kept["seat"], entrant.pk, owner.pk)


def _undo_withdrawal(tournament: Tournament, change: RoomChange) -> str:
    tables = {table.number: table for table in tournament.tables.all()}
    entrants = {entrant.number: entrant for entrant in tournament.entrants.all()}
    for kept in change.matches:
        _refuse_clash(tournament, kept, entrants)
        match = Match.objects.create(
            round=kept["round"],
            table=tables[kept["table"]],
            north_entrant=entrants[kept["north"]],
            east_entrant=entrants[kept["east"]],
        )
        MatchSeat.objects.bulk_create(
            MatchSeat(match=match, seat=seat, entrant=entrants[number], round=match.round)
            for seat, number in kept["seats"].items()
        )
    return words(
        "the withdrawal of %(number)s %(name)s",
        number=change.entrant.number,
        name=change.entrant.name,
    )


def _refuse_clash(
    tournament: Tournament, kept: dict[str, Any], by_number: dict[int, Entrant]
) -> None:
    """A match put back must find its table and its entrants free in its round (a late
    arrival may have taken the place since)."""
    numbers = {kept["north"], kept["east"], *kept["seats"].values()}
    entrants = [by_number[number] for number in numbers]
    in_round = Match.objects.filter(table__tournament=tournament, round=kept["round"])
    busy = in_round.filter(
        Q(table__number=kept["table"])
        | Q(north_entrant__in=entrants)
        | Q(east_entrant__in=entrants)
        | Q(seats__entrant__in=entrants)
    )
    if busy.exists():
        raise ServiceError(
            gettext(
                "round %(round)s, table %(table)s has been used since the withdrawal "
                "(a late arrival?): undo that first"
            )
            % {"round": kept["round"], "table": kept["table"]}
        )


def _undo_substitute(tournament: Tournament, change: RoomChange) -> str:
    return words("%(name)s playing for %(entrant)s", name=change.name, entrant=change.entrant.name)


_UNDO = {
    RoomChange.Kind.ARRIVAL: _undo_arrival,
    RoomChange.Kind.WITHDRAWAL: _undo_withdrawal,
    RoomChange.Kind.SUBSTITUTE: _undo_substitute,
}
