"""Reads for clubs: the clubs a user organises, member lists, suggestions while entrants are
registered, and a player's history.

Who may see what: a club's list (and every contact) only by its organisers
(``clubs.permissions.organises``). A player's public history holds only the events whose
standings the organiser published (``publishing.selectors.published_exports``: a published
standings or results file), and only for a member who has not opted out; the places and
percentages are the stored standings (``scoring.models.Standing``), which RULES.md §10 makes
public at any time.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext

from clubs.models import Club, ClubEvent, EntrantMember, Member, MemberMerge
from clubs.permissions import organises
from publishing.selectors import published_exports
from scoring.models import Standing
from tournaments.models import Entrant, Tournament

SUGGESTIONS = 8


def clubs_of(user: Any) -> list[Club]:
    if not getattr(user, "is_authenticated", False):
        return []
    clubs = Club.objects.all() if user.is_superuser else Club.objects.filter(organisers=user)
    return [club for club in clubs if organises(user, club)]


def club_for(user: Any, slug: str) -> Club | None:
    """The club, if ``user`` organises it; None otherwise (as if it did not exist)."""
    club = Club.objects.filter(slug=slug).first()
    return club if club is not None and organises(user, club) else None


def members_of(club: Club, *, merged: bool = False) -> QuerySet[Member]:
    found = Member.objects.filter(club=club)
    return found if merged else found.filter(merged_into__isnull=True)


def member_by_number(club: Club, number: str) -> Member | None:
    return Member.objects.filter(club=club, number__iexact=number.strip()).first()


def suggestions(club: Club, query: str, limit: int = SUGGESTIONS) -> list[Member]:
    """Active members whose number starts with ``query`` or whose name holds each of its
    words, numbers first; at most ``limit``."""
    query = query.strip()
    if not query:
        return []
    words = Q()
    for word in query.split()[:4]:
        words &= Q(name__icontains=word)
    found = members_of(club).filter(active=True).filter(Q(number__istartswith=query) | words)
    exact = [m for m in found.filter(number__iexact=query)]
    rest = [m for m in found.exclude(number__iexact=query).order_by("name")[:limit]]
    return (exact + rest)[:limit]


def merges_of(club: Club, limit: int = 20) -> list[MemberMerge]:
    return list(MemberMerge.objects.filter(club=club).select_related("kept", "merged")[:limit])


def club_of_event(tournament: Tournament) -> Club | None:
    event = ClubEvent.objects.filter(tournament=tournament).select_related("club").first()
    return event.club if event else None


def events_for(club: Club, limit: int = 50) -> tuple[list[Tournament], list[Tournament]]:
    """The club's events, and the latest tournaments no club holds yet (to link)."""
    own = list(
        Tournament.objects.filter(club_event__club=club)
        .select_related("club_event")
        .order_by("-club_event__date", "-created_at")
    )
    free = list(Tournament.objects.filter(club_event__isnull=True).order_by("-created_at")[:limit])
    return own, free


@dataclass
class EntrantLinks:
    entrant: Entrant
    members: dict[int, Member]  # seat -> member; a seat missing is a guest


def entrant_links(tournament: Tournament) -> list[EntrantLinks]:
    links: dict[int, dict[int, Member]] = {}
    for link in EntrantMember.objects.filter(tournament=tournament).select_related("member"):
        links.setdefault(link.entrant_id, {})[link.seat] = link.member
    return [
        EntrantLinks(entrant, links.get(entrant.pk, {}))
        for entrant in Entrant.objects.filter(tournament=tournament).order_by("number")
    ]


def public_member(club_slug: str, number: str) -> Member | None:
    """A member whose page the public may open: on the list (not merged away) and not opted
    out."""
    return (
        Member.objects.filter(
            club__slug=club_slug, number__iexact=number, public=True, merged_into__isnull=True
        )
        .select_related("club")
        .first()
    )


@dataclass
class Evening:
    """One event a member played."""

    tournament: Tournament
    day: date
    game: str
    entrant: Entrant
    place: int | None
    percentage: float | None
    status: str
    partner: str  # "" in a game of individuals
    partner_member: Member | None
    published: bool


def _partner(link: EntrantMember, others: dict[tuple[int, int], Member]) -> tuple[str, Any]:
    if link.tournament.of_players:
        return "", None
    seat = 3 - link.seat
    member = others.get((link.entrant_id, seat))
    if member is not None:
        return member.name, member
    text = link.entrant.player2 if seat == 2 else link.entrant.player1
    return (text or gettext("a guest")), None


def is_published(tournament: Tournament) -> bool:
    """The organiser published the event's standings (a standings or results file)."""
    return bool(published_exports(tournament))


def player_history(member: Member, *, public: bool) -> list[Evening]:
    """Every event ``member`` played, oldest first. ``public``: only the published ones."""
    links = list(
        EntrantMember.objects.filter(member=member).select_related(
            "entrant", "tournament", "tournament__club_event"
        )
    )
    entrants = [link.entrant_id for link in links]
    partners = {
        (other.entrant_id, other.seat): other.member
        for other in EntrantMember.objects.filter(entrant__in=entrants)
        .exclude(member=member)
        .select_related("member")
    }
    standings = {s.entrant_id: s for s in Standing.objects.filter(entrant__in=entrants)}
    evenings = []
    for link in links:
        published = is_published(link.tournament)
        if public and not published:
            continue
        standing = standings.get(link.entrant_id)
        partner, partner_member = _partner(link, partners)
        evenings.append(
            Evening(
                tournament=link.tournament,
                day=link.tournament.club_event.date,
                game=link.tournament.game_rules.title,
                entrant=link.entrant,
                place=standing.place if standing else None,
                percentage=standing.percentage if standing else None,
                status=standing.status if standing else "",
                partner=partner,
                partner_member=partner_member,
                published=published,
            )
        )
    evenings.sort(key=lambda e: (e.day, e.tournament.created_at, e.tournament.pk))
    return evenings


def chart_points(evenings: list[Evening]) -> list[tuple[date, str, float]]:
    return [(e.day, e.tournament.name, e.percentage) for e in evenings if e.percentage is not None]
