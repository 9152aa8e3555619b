"""Every change to a club goes through these functions.

Each is keyword-only, runs in one transaction, checks that the user organises the club, and
writes an entry of the product's action log (``tournaments.action_log.write_log``, without a
tournament unless the change is about one). A refused change raises ``ClubError`` (the app's
one error root) carrying every reason, and stores nothing.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubs.imports import LinkRow, MemberRow, at_line, normalise_number
from clubs.models import Club, ClubEvent, EntrantMember, Member, MemberMerge
from clubs.permissions import organises
from engine.core.words import plural
from tournaments import services as tournament_services
from tournaments.action_log import write_log
from tournaments.models import Entrant, Tournament
from tournaments.permissions import is_organiser


class ClubError(Exception):
    """A refused change; ``messages`` lists every reason."""

    def __init__(self, messages: str | Iterable[str]):
        self.messages = [messages] if isinstance(messages, str) else list(messages)
        super().__init__("; ".join(self.messages))


class NotAllowed(ClubError):
    """The user does not organise this club."""


def require_organiser(by: Any, club: Club) -> None:
    if not organises(by, club):
        raise NotAllowed(_("Only the club's organisers may change its list."))


def log_change(*, by: Any, club: Club, action: str, summary: str, **data: Any) -> None:
    write_log(
        tournament=data.pop("tournament", None),
        tournament_slug="",
        by=by,
        action=action,
        summary=f"{club.name}: {summary}",
        before=data.get("before"),
        after=data.get("after"),
    )


def _ladders_follow(club: Club) -> None:
    """The club's ladders are computed again once the change commits (who played changed)."""
    from clubs.tasks import compute_ladders_task

    club_id = club.pk
    transaction.on_commit(lambda: compute_ladders_task.delay(club_id))


def _member_data(member: Member) -> dict[str, Any]:
    # The contact is private: never written to the log, which other organisers read.
    return {
        "club": member.club.slug,
        "number": member.number,
        "name": member.name,
        "active": member.active,
        "public": member.public,
    }


def _check_member(member: Member) -> None:
    try:
        member.full_clean(exclude=["club", "merged_into"], validate_unique=False)
    except ValidationError as exc:
        raise ClubError(
            [
                f"{name}: {message}"
                for name, errors in exc.message_dict.items()
                for message in errors
            ]
        ) from None


# --- clubs -----------------------------------------------------------------------------------


@transaction.atomic
def create_club(*, by: Any, name: str, slug: str = "") -> Club:
    """A new club; ``by`` becomes its first organiser."""
    name = name.strip()
    slug = slug.strip() or slugify(name)[:50]
    if not name or not slug:
        raise ClubError(_("A club needs a name."))
    if Club.objects.filter(slug=slug).exists():
        raise ClubError(_("The address %(slug)s is taken by another club.") % {"slug": repr(slug)})
    club = Club.objects.create(name=name, slug=slug)
    if by is not None and getattr(by, "is_authenticated", False):
        club.organisers.add(by)
    log_change(by=by, club=club, action="create_club", summary="club created")
    return club


@transaction.atomic
def add_organiser(*, by: Any, club: Club, username: str) -> None:
    """Another organiser shares the club's list: he must hold the organise permission."""
    require_organiser(by, club)
    user = get_user_model().objects.filter(username=username.strip()).first()
    if user is None or not is_organiser(user):
        raise ClubError(
            _("%(user)s is not an organiser of this site.") % {"user": repr(username.strip())}
        )
    club.organisers.add(user)
    log_change(
        by=by, club=club, action="add_club_organiser", summary=f"{user.get_username()} added"
    )


@transaction.atomic
def delete_club(*, by: Any, club: Club) -> None:
    """Remove a club with its members, their links, its seasons and ladders. Its events'
    tournaments stay, no longer any club's; the log entry keeps the club's name and size."""
    club = Club.objects.select_for_update(of=("self",)).get(pk=club.pk)
    require_organiser(by, club)
    after = {
        "slug": club.slug,
        "members": club.members.count(),
        "events": club.events.count(),
        "seasons": club.seasons.count(),
    }
    club.delete()
    log_change(by=by, club=club, action="delete_club", summary="club deleted", after=after)


# --- members ---------------------------------------------------------------------------------


def _number_holder(club: Club, number: str, exclude: Member | None = None) -> Member | None:
    found = Member.objects.filter(club=club, number__iexact=number)
    if exclude is not None:
        found = found.exclude(pk=exclude.pk)
    return found.first()


@transaction.atomic
def add_member(
    *,
    by: Any,
    club: Club,
    number: str,
    name: str,
    contact: str = "",
    active: bool = True,
    public: bool = True,
) -> Member:
    require_organiser(by, club)
    member = Member(
        club=club,
        number=normalise_number(number),
        name=name.strip(),
        contact=contact.strip(),
        active=active,
        public=public,
    )
    _check_member(member)
    holder = _number_holder(club, member.number)
    if holder is not None:
        raise ClubError(_number_taken(member.number, holder.name))
    member.save()
    log_change(
        by=by, club=club, action="add_member", summary=f"added {member}", after=_member_data(member)
    )
    return member


@transaction.atomic
def update_member(*, by: Any, member: Member, **changes: Any) -> Member:
    """Change a member's number, name, contact, active or public."""
    member = Member.objects.select_for_update(of=("self",)).select_related("club").get(pk=member.pk)
    require_organiser(by, member.club)
    before = _member_data(member)
    unknown = set(changes) - {"number", "name", "contact", "active", "public"}
    if unknown:
        raise ClubError(_("A member has no %(fields)s.") % {"fields": ", ".join(sorted(unknown))})
    for name, value in changes.items():
        if name == "number":
            value = normalise_number(value)
        setattr(member, name, value.strip() if isinstance(value, str) else value)
    _check_member(member)
    holder = _number_holder(member.club, member.number, exclude=member)
    if holder is not None:
        raise ClubError(_number_taken(member.number, holder.name))
    member.save()
    after = _member_data(member)
    if after != before:
        log_change(
            by=by,
            club=member.club,
            action="update_member",
            summary=f"changed {member}",
            before=before,
            after=after,
        )
    return member


@transaction.atomic
def import_members(*, by: Any, club: Club, rows: Sequence[MemberRow]) -> list[Member]:
    """Add every row as a member, or none: a number already on the list, or twice in the
    rows, refuses the whole import with every line named."""
    require_organiser(by, club)
    if not rows:
        raise ClubError(_("there are no members to import"))
    taken = {
        number.lower(): name
        for number, name in Member.objects.filter(club=club).values_list("number", "name")
    }
    errors, seen = [], {}
    for row in rows:
        key = row.number.lower()
        if key in taken:
            errors.append(at_line(row.line, _number_taken(row.number, taken[key])))
        elif key in seen:
            errors.append(
                at_line(
                    row.line,
                    _("member number %(number)s is also on line %(first)s")
                    % {"number": row.number, "first": seen[key]},
                )
            )
        seen.setdefault(key, row.line)
    if errors:
        raise ClubError(errors)
    members = [
        Member(
            club=club,
            number=row.number,
            name=row.name,
            contact=row.contact,
            active=row.active,
            public=row.public,
        )
        for row in rows
    ]
    for member in members:
        _check_member(member)
    Member.objects.bulk_create(members)
    log_change(
        by=by,
        club=club,
        action="import_members",
        summary=f"imported {plural(len(members), 'member')}",
        after={"numbers": [member.number for member in members]},
    )
    return members


# --- events and entrants ---------------------------------------------------------------------


def _club_event(by: Any, club: Club, tournament: Tournament) -> ClubEvent:
    """The tournament as the club's event: made so on the first link; a tournament another
    club holds is refused."""
    event = ClubEvent.objects.filter(tournament=tournament).select_related("club").first()
    if event is None:
        day = timezone.localdate(tournament.created_at)
        event = ClubEvent.objects.create(club=club, tournament=tournament, date=day)
        log_change(
            by=by,
            club=club,
            action="club_event",
            summary=f"{tournament.name} is the club's event",
            tournament=tournament,
        )
    elif event.club_id != club.pk:
        raise ClubError(_("%(event)s is an event of another club.") % {"event": tournament.name})
    return event


def _members_by_number(club: Club, numbers: Iterable[str]) -> dict[str, Member]:
    """The club's members holding ``numbers`` (compared without case), in one query, by
    their number in lower case."""
    keys = {normalise_number(number or "").lower() for number in numbers} - {""}
    if not keys:
        return {}
    found = Member.objects.annotate(key=Lower("number")).filter(club=club, key__in=keys)
    return {member.key: member for member in found}


@transaction.atomic
def set_event_date(*, by: Any, club: Club, tournament: Tournament, date: dt.date) -> ClubEvent:
    """The day the event was played (the player's pages and the seasons go by it); the
    tournament becomes the club's event if it is not yet. The ladders follow."""
    require_organiser(by, club)
    event = _club_event(by, club, tournament)
    if event.date != date:
        before = event.date.isoformat()
        event.date = date
        event.save(update_fields=["date"])
        _ladders_follow(club)
        log_change(
            by=by,
            club=club,
            action="club_event_date",
            summary=f"{tournament.name} played on {date:%d/%m/%Y}",
            tournament=tournament,
            before={"date": before},
            after={"date": date.isoformat()},
        )
    return event


def _seat_members(
    club: Club,
    tournament: Tournament,
    numbers: Sequence[str],
    known: dict[str, Member] | None = None,
) -> dict[int, Member]:
    """The members named for each seat (blank: a guest), checked against the tournament's
    entrants; ``known`` (``_members_by_number``) saves a query per member."""
    seats = 1 if tournament.of_players else 2
    if len(numbers) > seats:
        raise ClubError(
            _("A player's entrant has 1 player.") if seats == 1 else _("A team has 2 players.")
        )
    if known is None:
        known = _members_by_number(club, numbers)
    chosen: dict[int, Member] = {}
    errors = []
    for seat, number in enumerate(numbers, start=1):
        number = normalise_number(number or "")
        if not number:
            continue
        member = known.get(number.lower())
        if member is None:
            errors.append(
                _("player %(seat)s: no member numbered %(number)s in %(club)s")
                % {"seat": seat, "number": number, "club": club.name}
            )
        elif member.merged_into_id is not None:
            errors.append(
                _("player %(seat)s: %(member)s was merged into another member")
                % {"seat": seat, "member": member}
            )
        elif any(other.pk == member.pk for other in chosen.values()):
            errors.append(
                _("player %(seat)s: %(member)s is already player 1 of this pair")
                % {"seat": seat, "member": member}
            )
        else:
            chosen[seat] = member
    if errors:
        raise ClubError(errors)
    return chosen


def _number_taken(number: str, name: str) -> str:
    return _("member number %(number)s is already %(name)s's") % {
        "number": number,
        "name": repr(name),
    }


def _plays_already(link: EntrantMember, tournament: Tournament) -> str:
    """A member linked to another entrant of the event, in words (one sentence a kind)."""
    values = {"member": link.member, "number": link.entrant.number, "name": repr(link.entrant.name)}
    if tournament.of_players:
        return _("%(member)s already plays as player %(number)s %(name)s of this event") % values
    return _("%(member)s already plays in team %(number)s %(name)s of this event") % values


def _already_linked(entrant: Entrant, chosen: dict[int, Member]) -> list[str]:
    taken = (
        EntrantMember.objects.filter(
            tournament=entrant.tournament_id, member__in=[m.pk for m in chosen.values()]
        )
        .exclude(entrant=entrant)
        .select_related("entrant", "member")
    )
    return [_plays_already(link, entrant.tournament) for link in taken]


@transaction.atomic
def link_entrant(
    *, by: Any, club: Club, entrant: Entrant, numbers: Sequence[str]
) -> list[EntrantMember]:
    """Link an entrant to members by member number: ``numbers`` gives player 1 and player 2
    (a player's entrant: one); a blank one leaves that player a guest. The entrant's
    previous links are replaced. A member already in another entrant of the event is
    refused, with nothing stored."""
    require_organiser(by, club)
    entrant = Entrant.objects.select_related("tournament").get(pk=entrant.pk)
    _club_event(by, club, entrant.tournament)
    chosen = _seat_members(club, entrant.tournament, numbers)
    errors = _already_linked(entrant, chosen)
    if errors:
        raise ClubError(errors)
    before = list(entrant.member_links.values_list("seat", "member__number"))
    entrant.member_links.all().delete()
    try:
        with transaction.atomic():
            links = [
                EntrantMember.objects.create(
                    entrant=entrant, tournament=entrant.tournament, member=member, seat=seat
                )
                for seat, member in sorted(chosen.items())
            ]
    except IntegrityError:  # a link made meanwhile by another organiser
        raise ClubError(_("A member was linked to this event meanwhile; try again.")) from None
    after = [(seat, member.number) for seat, member in sorted(chosen.items())]
    _ladders_follow(club)
    if after != before:
        log_change(
            by=by,
            club=club,
            action="link_entrant",
            summary=f"{entrant} linked to {', '.join(str(m) for m in chosen.values()) or 'guests'}",
            tournament=entrant.tournament,
            before=before,
            after=after,
        )
    return links


def _plan_links(
    club: Club, entrants: dict[int, Entrant], rows: Sequence[LinkRow], known: dict[str, Member]
) -> tuple[dict[int, dict[int, Member]], dict[int, int], list[tuple[int, str]]]:
    """The members of each entrant of ``rows`` (entrant id → seat → member), the line of each
    member, and every problem of the rows by line (within the rows only)."""
    plan: dict[int, dict[int, Member]] = {}
    entrant_line: dict[int, int] = {}
    member_line: dict[int, int] = {}
    errors: list[tuple[int, str]] = []
    for row in rows:
        entrant = entrants.get(row.entrant or 0)
        if entrant is None:
            errors.append((row.line, _("no entrant numbered %(number)s") % {"number": row.entrant}))
            continue
        if entrant.pk in entrant_line:
            errors.append(
                (
                    row.line,
                    _("entrant %(number)s is also on line %(first)s")
                    % {"number": row.entrant, "first": entrant_line[entrant.pk]},
                )
            )
            continue
        entrant_line[entrant.pk] = row.line
        try:
            chosen = _seat_members(club, entrant.tournament, row.numbers, known)
        except ClubError as exc:
            errors += [(row.line, message) for message in exc.messages]
            continue
        for member in chosen.values():
            if member.pk in member_line:
                errors.append(
                    (
                        row.line,
                        _("%(member)s is also on line %(first)s")
                        % {"member": member, "first": member_line[member.pk]},
                    )
                )
            else:
                member_line[member.pk] = row.line
        plan[entrant.pk] = chosen
    return plan, member_line, errors


@transaction.atomic
def link_entrants(*, by: Any, club: Club, tournament: Tournament, rows: Sequence[LinkRow]) -> int:
    """Link many entrants at once (``clubs.imports.parse_link_lines``), all or none: an
    unknown entrant or member, a member twice in the rows or already in another entrant of
    the event refuses every row, each problem named by its line. Returns the entrants linked."""
    require_organiser(by, club)
    _club_event(by, club, tournament)
    return _link_rows(by, club, tournament, rows, known=None)


def _link_rows(
    by: Any,
    club: Club,
    tournament: Tournament,
    rows: Sequence[LinkRow],
    known: dict[str, Member] | None,
) -> int:
    if not rows:
        raise ClubError(_("there is nothing to link"))
    if known is None:
        known = _members_by_number(club, [number for row in rows for number in row.numbers])
    entrants = {
        e.number: e
        for e in Entrant.objects.filter(tournament=tournament).select_related("tournament")
    }
    plan, member_line, errors = _plan_links(club, entrants, rows, known)
    taken = (
        EntrantMember.objects.filter(tournament=tournament, member__in=list(member_line))
        .exclude(entrant__in=list(plan))
        .select_related("entrant", "member")
    )
    for link in taken:
        errors.append((member_line[link.member_id], _plays_already(link, tournament)))
    if errors:
        raise ClubError(
            [at_line(line, message) for line, message in sorted(errors, key=lambda e: e[0])]
        )
    EntrantMember.objects.filter(entrant__in=list(plan)).delete()
    try:
        with transaction.atomic():
            EntrantMember.objects.bulk_create(
                EntrantMember(entrant_id=entrant, tournament=tournament, member=member, seat=seat)
                for entrant, chosen in plan.items()
                for seat, member in chosen.items()
            )
    except IntegrityError:  # a link made meanwhile by another organiser
        raise ClubError(_("A member was linked to this event meanwhile; try again.")) from None
    _ladders_follow(club)
    log_change(
        by=by,
        club=club,
        action="link_entrants",
        summary=f"linked {plural(len(plan), tournament.entrant_word)} to members",
        tournament=tournament,
        after={
            str(entrant): {seat: m.number for seat, m in chosen.items()}
            for entrant, chosen in plan.items()
        },
    )
    return len(plan)


def _entrant_name(members: list[Member]) -> str:
    return " & ".join(member.name for member in members)[:100]


@transaction.atomic
def register_from_members(
    *, by: Any, club: Club, tournament: Tournament, rows: Sequence[LinkRow]
) -> list[Entrant]:
    """A new entrant for each row of member numbers (a pair: two, a player: one), named after
    its members and linked to them; all rows or none (the tournament's own rules apply: a
    draft only)."""
    require_organiser(by, club)
    _club_event(by, club, tournament)
    seats = 1 if tournament.of_players else 2
    needs = (
        _("a player needs 1 member number") if seats == 1 else _("a team needs 2 member numbers")
    )
    errors = [at_line(row.line, needs) for row in rows if len(row.numbers) != seats]
    if errors:
        raise ClubError(errors)
    # Every member of every row in one query; the rows' members checked before any entrant
    # is made.
    known = _members_by_number(club, [number for row in rows for number in row.numbers])
    chosen = []
    for row in rows:
        try:
            chosen.append(_seat_members(club, tournament, row.numbers, known))
        except ClubError as exc:
            errors += [at_line(row.line, message) for message in exc.messages]
    if errors:
        raise ClubError(errors)
    created = []
    try:
        for members in chosen:
            names = [members[seat].name for seat in sorted(members)]
            created.append(
                tournament_services.add_entrant(
                    by=by,
                    tournament=tournament,
                    name=_entrant_name([members[seat] for seat in sorted(members)]),
                    player1=names[0] if seats == 2 else "",
                    player2=names[1] if seats == 2 else "",
                )
            )
    except tournament_services.ServiceError as exc:
        raise ClubError(exc.messages) from None
    numbered = [
        LinkRow(row.line, entrant.number, row.numbers)
        for row, entrant in zip(rows, created, strict=True)
    ]
    _link_rows(by, club, tournament, numbered, known=known)
    return created


# --- merging ---------------------------------------------------------------------------------


@transaction.atomic
def merge_members(*, by: Any, kept: Member, merged: Member) -> MemberMerge:
    """``merged`` is the same person as ``kept``: his links move to ``kept`` and he leaves the
    list (inactive, marked merged). Refused when both played in one event (that would link
    one person twice), with nothing changed. Undone by ``undo_merge``."""
    members = {
        m.pk: m
        for m in Member.objects.select_for_update(of=("self",))
        .select_related("club")
        .filter(pk__in=[kept.pk, merged.pk])
    }
    kept, merged = members[kept.pk], members[merged.pk]
    require_organiser(by, kept.club)
    if kept.pk == merged.pk or kept.club_id != merged.club_id:
        raise ClubError(_("Merge two different members of the same club."))
    if kept.merged_into_id or merged.merged_into_id:
        raise ClubError(_("A member already merged into another cannot be merged again."))
    both = EntrantMember.objects.filter(member=kept).values_list("tournament", flat=True)
    shared = EntrantMember.objects.filter(member=merged, tournament__in=both).select_related(
        "tournament"
    )
    if shared:
        names = ", ".join(link.tournament.name for link in shared)
        raise ClubError(
            _("%(kept)s and %(merged)s both played in %(events)s: they are two people.")
            % {"kept": kept, "merged": merged, "events": names}
        )
    moved = list(EntrantMember.objects.filter(member=merged).values_list("pk", flat=True))
    EntrantMember.objects.filter(pk__in=moved).update(member=kept)
    merge = MemberMerge.objects.create(
        club=kept.club,
        kept=kept,
        merged=merged,
        moved_links=moved,
        merged_was_active=merged.active,
        by=by if getattr(by, "is_authenticated", False) else None,
    )
    merged.merged_into, merged.active = kept, False
    merged.save(update_fields=["merged_into", "active"])
    _ladders_follow(kept.club)
    log_change(
        by=by,
        club=kept.club,
        action="merge_members",
        summary=f"merged {merged} into {kept} ({plural(len(moved), 'event link')} moved)",
        before=_member_data(merged),
        after={"kept": kept.number, "links": moved},
    )
    return merge


@transaction.atomic
def undo_merge(*, by: Any, merge: MemberMerge) -> None:
    """Give the merged member back his links and his place on the list."""
    merge = (
        MemberMerge.objects.select_for_update(of=("self",))
        .select_related("club", "kept", "merged")
        .get(pk=merge.pk)
    )
    require_organiser(by, merge.club)
    if merge.undone_at is not None:
        raise ClubError(_("This merge was already undone."))
    if merge.kept.merged_into_id is not None:
        raise ClubError(
            _("%(member)s was merged into another member since: undo that merge first.")
            % {"member": merge.kept}
        )
    EntrantMember.objects.filter(pk__in=merge.moved_links, member=merge.kept).update(
        member=merge.merged
    )
    merged = merge.merged
    merged.merged_into, merged.active = None, merge.merged_was_active
    merged.save(update_fields=["merged_into", "active"])
    merge.undone_at = timezone.now()
    merge.save(update_fields=["undone_at"])
    _ladders_follow(merge.club)
    log_change(
        by=by,
        club=merge.club,
        action="undo_merge",
        summary=f"undid the merge of {merged} into {merge.kept}",
        after={"links": merge.moved_links},
    )
