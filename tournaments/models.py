"""The tournament data model. The database itself keeps the hard rules: unique numbers and
access codes, one match per table and round, one match per team and round on each side,
different teams in a match, and the allowed values of every setting.

Rules that span rows (a team may not sit NS in one match and EW in another of the same round,
the schedule's fairness) are kept by ``tournaments.services`` and the engine's validator.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Case, F, IntegerField, Q, Value, When
from django.utils.translation import gettext_lazy as _

from engine.core.errors import DealError, SettingsError
from engine.core.seats import SEAT_LETTERS
from engine.games import DEFAULT_GAME, PLAYERS, Game, game_ids, get_game

# No 0/O, 1/I/L: codes are read off paper and typed on phones.
ACCESS_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
ACCESS_CODE_LENGTH = 10
# A deal in notation: up to 195 characters for the games shipped (a prepared pack of two decks
# and a joker); room for a game with a longer notation.
DEAL_MAX_LENGTH = 400


def new_access_code() -> str:
    """A random access code: 10 characters from 31, about 49 bits."""
    return "".join(secrets.choice(ACCESS_CODE_ALPHABET) for _ in range(ACCESS_CODE_LENGTH))


def entry_script(game: Game) -> str | None:
    """The static path of the script of a game's own entry, loaded before scorer.js (and on
    the director's board page); None for an entry of fields, which scorer.js draws itself."""
    return f"games/{game.id}/{game.entry_script}" if game.entry_script else None


def entry_style(game: Game) -> str | None:
    """The static path of the style sheet of a game's own entry, if it has one."""
    return f"games/{game.id}/{game.entry_style}" if game.entry_style else None


def scorable_games(ids: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """The games a tournament may be of: those whose entry the scorer's page can draw (a list
    of fields, or a script of the game's own). The engine may know a game whose entry the
    pages cannot take yet; tournaments cannot be of it."""
    return tuple(
        game_id
        for game_id in (game_ids() if ids is None else ids)
        if get_game(game_id).entry_kind == "fields" or get_game(game_id).entry_script
    )


def game_choices() -> list[tuple[str, str]]:
    """Every game a tournament may be of, with its title."""
    return [(game_id, get_game(game_id).title) for game_id in scorable_games()]


def validate_deal(text: str) -> None:
    """The default game's deal notation (kept for migration 0001; a board checks its own
    game's)."""
    try:
        get_game(DEFAULT_GAME).parse_deal(text)
    except DealError as exc:
        raise ValidationError(str(exc)) from None


SEATS = ("N", "E", "S", "W")


class SideMode(models.TextChoices):
    FIXED = "fixed", _("Fixed: half the teams always sit NS, half always EW")
    BALANCED = "balanced", _("Balanced: every team sits NS at half its tables")


class TiePolicy(models.TextChoices):
    MIN = "min", _("Best place they span (1, 2, 2, 4)")
    AVERAGE = "average", _("Average (1, 2.5, 2.5, 4)")
    MAX = "max", _("Worst place they span (1, 3, 3, 4)")


class RankingMethod(models.TextChoices):
    DUPLICATE = "duplicate", _("Duplicate: ranking points per table, board and seat (least wins)")
    TOTALS = "totals", _("Totals: each player's own score over the tournament (most wins)")


class Status(models.TextChoices):
    DRAFT = "draft", _("Draft")
    SCHEDULED = "scheduled", _("Scheduled")
    RUNNING = "running", _("Running")
    FINAL = "final", _("Final")


def _check_in(field: str, choices: type[models.TextChoices], name: str) -> models.CheckConstraint:
    return models.CheckConstraint(condition=Q(**{f"{field}__in": choices.values}), name=name)


def _check_at_least(field: str, minimum: int, name: str) -> models.CheckConstraint:
    return models.CheckConstraint(condition=Q(**{f"{field}__gte": minimum}), name=name)


class Tournament(models.Model):
    name = models.CharField(max_length=200)
    slug = models.SlugField(
        unique=True,
        help_text="Short name used in addresses and on the printed QR codes; cannot change.",
    )
    game = models.CharField(
        max_length=20,
        choices=game_choices,
        default=DEFAULT_GAME,
        help_text="The card game played; cannot change once the tournament has entrants.",
    )
    game_settings = models.JSONField(
        default=dict,
        blank=True,
        help_text="The game's own settings (the game checks them); missing ones take defaults.",
    )
    boards_per_table = models.PositiveSmallIntegerField(default=1)
    table_size = models.PositiveSmallIntegerField(
        _("players at a table"),
        default=4,
        help_text="For games of 2 to 4 players; tables use the first seats of N, E, S, W.",
    )
    side_mode = models.CharField(max_length=10, choices=SideMode.choices, default=SideMode.FIXED)
    ties = models.CharField(max_length=10, choices=TiePolicy.choices, default=TiePolicy.MIN)
    ranking = models.CharField(
        max_length=10,
        choices=RankingMethod.choices,
        default=RankingMethod.DUPLICATE,
        help_text=_("Totals are for games of individuals."),
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    language = models.CharField(
        _("language of its pages"),
        max_length=8,
        choices=settings.LANGUAGES,
        default=settings.LANGUAGE_CODE,
        help_text=_(
            "The language of the public pages, the phones and the printed cards for a "
            "reader who has not chosen one."
        ),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = (
            "-created_at",
            "name",
        )
        permissions = (("organise", "Can organise tournaments"),)
        constraints = (
            models.CheckConstraint(condition=~Q(name=""), name="tournament_name_not_empty"),
            models.CheckConstraint(condition=~Q(slug=""), name="tournament_slug_not_empty"),
            _check_at_least("boards_per_table", 1, "tournament_boards_per_table_at_least_1"),
            models.CheckConstraint(
                condition=Q(table_size__gte=2, table_size__lte=4),
                name="tournament_table_size_2_to_4",
            ),
            _check_in("side_mode", SideMode, "tournament_side_mode_valid"),
            _check_in("ties", TiePolicy, "tournament_ties_valid"),
            _check_in("ranking", RankingMethod, "tournament_ranking_valid"),
            _check_in("status", Status, "tournament_status_valid"),
        )

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        # No database constraint lists the games: a new game is a package, not a migration.
        super().clean()
        if self.game not in scorable_games():
            known = ", ".join(scorable_games())
            raise ValidationError({"game": f"{self.game!r} is not one of {known}"})
        game = self.game_rules
        try:
            self.game_settings = game.settings(self.game_settings)
        except SettingsError as exc:
            raise ValidationError({"game_settings": str(exc)}) from None
        if self.ranking == RankingMethod.TOTALS and game.entrants != PLAYERS:
            raise ValidationError({"ranking": f"{game.title} is ranked in duplicate only"})
        if self.table_size not in game.table_sizes:
            sizes = ", ".join(map(str, game.table_sizes))
            raise ValidationError({"table_size": f"{game.title} is played by {sizes} players"})
        boards = game.boards_per_table(self.game_settings, self.table_size)
        if boards is not None:
            self.boards_per_table = boards

    @property
    def seats(self) -> tuple[str, ...]:
        """The seats of every table: the first ``table_size`` of N, E, S, W."""
        return self.game_rules.seats(self.table_size)

    @property
    def entrant_word(self) -> str:
        """What an entrant is called on the pages: a team (a pair) or a player."""
        return "player" if self.of_players else "team"

    @property
    def of_players(self) -> bool:
        """Entrants are single players (not pairs), each in a seat of his own."""
        return self.game_rules.entrants == PLAYERS

    @property
    def game_rules(self) -> Game:
        """The engine's game of this tournament (its notation, records, scores, entry)."""
        return get_game(self.game)

    @property
    def rules(self) -> dict:
        """The game's settings: the stored ones over the game's defaults, checked."""
        return self.game_rules.settings(self.game_settings)

    @property
    def direction(self) -> str:
        """The play direction (GAMES.md): every game has one, clockwise unless it says."""
        return self.rules.get("direction", "clockwise")

    def opening_seat_for(self, table_number: int) -> Any:
        """The seat that makes the first call and leads at the given table, for a game that
        has one (``Game.opening_seat``); None otherwise."""
        return self.game_rules.opening_seat(self.rules, table_number)

    def opening_letter(self, table_number: int) -> str | None:
        """``opening_seat_for`` as its letter (N, E, S, W), or None."""
        seat = self.opening_seat_for(table_number)
        return None if seat is None else seat.name

    def settings_in_words(self) -> list[tuple[str, str]]:
        """``(label, value)`` of every game setting, for pages and exports."""
        return self.game_rules.describe_settings(self.rules)

    @property
    def is_final(self) -> bool:
        return self.status == Status.FINAL


class Entrant(models.Model):
    """Who is ranked: a pair in a game of pairs, a single player in a game of individuals
    (``player1`` only). Pages call an entrant a team or a player, as its game does."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=100)
    player1 = models.CharField("first player", max_length=100, blank=True)
    player2 = models.CharField("second player", max_length=100, blank=True)
    access_code = models.CharField(
        max_length=ACCESS_CODE_LENGTH, default=new_access_code, editable=False
    )

    class Meta:
        ordering = (
            "tournament",
            "number",
        )
        constraints = (
            models.UniqueConstraint(
                fields=["tournament", "number"], name="entrant_number_unique_in_tournament"
            ),
            models.UniqueConstraint(
                fields=["tournament", "access_code"],
                name="entrant_access_code_unique_in_tournament",
            ),
            _check_at_least("number", 1, "entrant_number_at_least_1"),
            models.CheckConstraint(condition=~Q(name=""), name="entrant_name_not_empty"),
        )

    def __str__(self) -> str:
        return f"{self.number}. {self.name}"

    @property
    def players(self) -> str:
        return " + ".join(name for name in (self.player1, self.player2) if name)

    @property
    def is_disqualified(self) -> bool:
        return hasattr(self, "disqualification")


class Table(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveIntegerField()
    label = models.CharField(max_length=50, blank=True, help_text="Optional, e.g. 'By the window'.")
    # Players at this table where the tournament's tables are of several sizes (a proposal
    # such as 4 + 3 + 3, drawn from the schedule page; GAMES.md "Tables of several sizes");
    # empty where every table seats the tournament's ``table_size``.
    players = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = (
            "tournament",
            "number",
        )
        constraints = (
            models.UniqueConstraint(
                fields=["tournament", "number"], name="table_number_unique_in_tournament"
            ),
            _check_at_least("number", 1, "table_number_at_least_1"),
        )

    def __str__(self) -> str:
        return f"Table {self.number}" + (f" ({self.label})" if self.label else "")

    @property
    def size(self) -> int:
        """The players at this table: its own number where the tables are of several sizes,
        else the tournament's."""
        return self.players or self.tournament.table_size

    @property
    def seats(self) -> tuple[str, ...]:
        """This table's seats: the first ``size`` of N, E, S, W."""
        return self.tournament.game_rules.seats(self.size)


class Board(models.Model):
    """One fixed deal of a table; every match at the table plays it."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="boards")
    number = models.PositiveSmallIntegerField()
    deal = models.CharField(max_length=DEAL_MAX_LENGTH)
    # Fixed with the board (GAMES.md); a game without a dealer writes North.
    dealer = models.CharField(max_length=1, default="N")

    class Meta:
        ordering = (
            "table",
            "number",
        )
        constraints = (
            models.UniqueConstraint(
                fields=["table", "number"], name="board_number_unique_at_table"
            ),
            _check_at_least("number", 1, "board_number_at_least_1"),
            models.CheckConstraint(condition=Q(dealer__in=SEATS), name="board_dealer_is_a_seat"),
        )

    def __str__(self) -> str:
        return f"{self.table}, board {self.number}"

    def clean(self) -> None:
        super().clean()
        try:
            self.table.tournament.game_rules.parse_deal(self.deal)
        except DealError as exc:
            raise ValidationError({"deal": str(exc)}) from None

    def parsed(self) -> Any:
        """The deal in the engine's terms of the tournament's game."""
        return self.table.tournament.game_rules.parse_deal(self.deal)


class Match(models.Model):
    """Entrants at a table in a round; the match plays every board of the table.

    ``north_entrant`` enters the results and ``east_entrant`` checks them: the North-South and
    East-West pairs of a game of pairs, or the players at North and East of a game of
    individuals, whose every seat is in ``seats`` (``MatchSeat``).
    """

    round = models.PositiveIntegerField()
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="matches")
    # RESTRICT: a team in the schedule cannot be deleted alone, but deleting the whole
    # tournament (which cascades to the tables and so to the matches) still works.
    north_entrant = models.ForeignKey(
        Entrant, on_delete=models.RESTRICT, related_name="matches_at_north"
    )
    east_entrant = models.ForeignKey(
        Entrant, on_delete=models.RESTRICT, related_name="matches_at_east"
    )

    class Meta:
        ordering = (
            "round",
            "table__number",
        )
        verbose_name_plural = "matches"
        constraints = (
            models.UniqueConstraint(fields=["table", "round"], name="match_one_per_table_round"),
            models.UniqueConstraint(
                fields=["north_entrant", "round"], name="match_north_entrant_once_per_round"
            ),
            models.UniqueConstraint(
                fields=["east_entrant", "round"], name="match_east_entrant_once_per_round"
            ),
            models.CheckConstraint(
                condition=~Q(north_entrant=F("east_entrant")), name="match_entrants_differ"
            ),
            _check_at_least("round", 1, "match_round_at_least_1"),
        )

    def __str__(self) -> str:
        return (
            f"Round {self.round}, table {self.table.number}: "
            f"{self.north_entrant.number} (NS) v {self.east_entrant.number} (EW)"
        )


def seat_order(field: str = "seat") -> Case:
    """Seats in their order at the table, N, E, S, W (the letters sort otherwise)."""
    return Case(
        *(When(**{field: seat}, then=Value(index)) for index, seat in enumerate(SEAT_LETTERS)),
        output_field=IntegerField(),
    )


class MatchSeat(models.Model):
    """A player in a seat of a match, in games whose entrants are single players. The
    database keeps one player per seat of a match and one seat per player and round."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    seat = models.CharField(max_length=1)
    entrant = models.ForeignKey(Entrant, on_delete=models.RESTRICT, related_name="seats")
    # The match's round, kept here so that the database can hold a player to one seat a round.
    round = models.PositiveIntegerField()

    class Meta:
        ordering = ("match", "seat")
        constraints = (
            models.UniqueConstraint(fields=["match", "seat"], name="match_seat_one_player"),
            models.UniqueConstraint(fields=["entrant", "round"], name="match_seat_once_per_round"),
            models.CheckConstraint(condition=Q(seat__in=SEATS), name="match_seat_is_a_seat"),
            _check_at_least("round", 1, "match_seat_round_at_least_1"),
        )

    def __str__(self) -> str:
        return f"{self.match}: {self.seat} {self.entrant}"


class Disqualification(models.Model):
    entrant = models.OneToOneField(
        Entrant, on_delete=models.CASCADE, related_name="disqualification"
    )
    reason = models.TextField()
    created_at = models.DateTimeField("when", auto_now_add=True)
    after_final = models.BooleanField(
        default=False, help_text="Disqualified after the standings were approved as final."
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ("created_at",)
        constraints = (
            models.CheckConstraint(condition=~Q(reason=""), name="disqualification_reason_given"),
        )

    def __str__(self) -> str:
        return f"{self.entrant} disqualified"


class ActionLog(models.Model):
    """Every organiser action: who, when, what, and the data before and after."""

    tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.SET_NULL, related_name="log_entries"
    )
    # Kept as text so the log still names the tournament after it is deleted.
    tournament_slug = models.CharField(max_length=50, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    actor = models.CharField(max_length=150)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    action = models.CharField(max_length=50)
    summary = models.CharField(max_length=300)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = (
            "-created_at",
            "-id",
        )
        constraints = (
            models.CheckConstraint(condition=~Q(action=""), name="action_log_action_not_empty"),
        )

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.actor}: {self.summary}"


class LanguageChoice(models.Model):
    """The language an organiser chose on the chooser, for his other devices
    (``tournaments.languages``)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="language_choice"
    )
    language = models.CharField(max_length=8, choices=settings.LANGUAGES)

    def __str__(self) -> str:
        return f"{self.user}: {self.language}"


# A change of the room after the draw (late arrival, withdrawal, substitute), in its own module.
from tournaments.room_models import RoomChange  # noqa: E402, F401
