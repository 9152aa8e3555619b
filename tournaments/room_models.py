"""A change of the room after the draw (GAMES.md, "Real rooms"): a late arrival, a withdrawal
or a substitute, written and undone by ``tournaments.room`` only. Imported by
``tournaments.models``, whose model it is.

The database keeps what one row can say: the kinds, rounds from 1, a substitute's span in
order with a name and a player replaced, nothing of the kind on the others, and one arrival
and one withdrawal per entrant. What spans rows (a withdrawn entrant has no later match, two
substitutes of one player do not overlap, nothing changes in a round already started) is
kept by ``tournaments.room`` under the tournament's results lock.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext


class RoomChange(models.Model):
    class Kind(models.TextChoices):
        ARRIVAL = "arrival", "Late arrival"
        WITHDRAWAL = "withdrawal", "Withdrawal"
        SUBSTITUTE = "substitute", "Substitute"

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="room_changes"
    )
    entrant = models.ForeignKey(
        "tournaments.Entrant", on_delete=models.CASCADE, related_name="room_changes"
    )
    kind = models.CharField(max_length=12, choices=Kind.choices)
    # Arrival: its first round seated; withdrawal: the first round it no longer plays (it
    # withdrew after the round before); substitute: his first round.
    from_round = models.PositiveIntegerField()
    to_round = models.PositiveIntegerField(null=True, blank=True, help_text="Substitute: last.")
    member = models.PositiveSmallIntegerField(null=True, blank=True)
    name = models.CharField("substitute's name", max_length=100, blank=True)
    reason = models.TextField(blank=True)
    # Arrival: the matches it was seated in, as {round, table}; withdrawal: the matches taken
    # out, as {round, table, north, east, seats} with entrants by number, to put back on undo.
    matches = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ("created_at", "id")
        constraints = (
            models.CheckConstraint(
                condition=Q(kind__in=["arrival", "withdrawal", "substitute"]),
                name="room_change_kind_valid",
            ),
            models.CheckConstraint(
                condition=Q(from_round__gte=1), name="room_change_from_round_at_least_1"
            ),
            models.CheckConstraint(
                condition=(
                    Q(kind="substitute", member__in=[1, 2])
                    & ~Q(name="")
                    & (Q(to_round__isnull=True) | Q(to_round__gte=models.F("from_round")))
                )
                | (~Q(kind="substitute") & Q(member__isnull=True, to_round__isnull=True, name="")),
                name="room_change_substitute_fields",
            ),
            models.UniqueConstraint(
                fields=["entrant", "kind"],
                condition=~Q(kind="substitute"),
                name="room_change_one_arrival_and_withdrawal_per_entrant",
            ),
        )

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.entrant}"

    @property
    def after_round(self) -> int:
        """A withdrawal's last round played."""
        return self.from_round - 1

    def in_words(self) -> str:
        """One line for the organiser's list, in the page's language."""
        who = f"{self.entrant.number} {self.entrant.name}"
        if self.kind == self.Kind.ARRIVAL:
            taken = [
                gettext("%(replaced)s in round %(round)s")
                % {"replaced": m["replaced"], "round": m["round"]}
                for m in self.matches
                if "replaced" in m
            ]
            if taken:
                return gettext(
                    "%(who)s arrived late, seated from round %(round)s, in the place of %(taken)s"
                ) % {"who": who, "round": self.from_round, "taken": ", ".join(taken)}
            return gettext("%(who)s arrived late, seated from round %(round)s") % {
                "who": who,
                "round": self.from_round,
            }
        if self.kind == self.Kind.WITHDRAWAL:
            return gettext("%(who)s withdrew after round %(round)s") % {
                "who": who,
                "round": self.after_round,
            }
        names = {"name": self.name, "who": who, "member": self.member}
        if self.to_round is None:
            words = gettext("%(name)s plays for %(who)s (player %(member)s), from round %(first)s")
        elif self.to_round == self.from_round:
            words = gettext("%(name)s plays for %(who)s (player %(member)s), round %(first)s")
        else:
            words = gettext(
                "%(name)s plays for %(who)s (player %(member)s), rounds %(first)s-%(last)s"
            )
        return words % {**names, "first": self.from_round, "last": self.to_round}

    def as_data(self) -> dict[str, Any]:
        """What the action log keeps of it."""
        return {
            "kind": self.kind,
            "entrant": self.entrant.number,
            "from_round": self.from_round,
            "to_round": self.to_round,
            "member": self.member,
            "name": self.name,
            "matches": self.matches,
        }
