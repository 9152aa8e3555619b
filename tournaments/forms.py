"""Forms of the organiser pages. They check the shape of the input; the rules (status,
uniqueness, the schedule) are the services' job, whose errors the views show on the form."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import get_language, gettext, ngettext
from django.utils.translation import gettext_lazy as _

from engine.core.messages import Words
from engine.games import DEFAULT_GAME, get_game
from engine.games.base import PAIRS, Game, Setting
from tournaments.imports import MAX_TEAMS, READABLE_SUFFIXES
from tournaments.models import Entrant, Match, SideMode, Tournament, game_choices, scorable_games
from tournaments.services import MAX_TABLES, setting_statuses
from tournaments.templatetags.languages import translated

SETTINGS_FIELDS = (
    "name",
    "boards_per_table",
    "table_size",
    "side_mode",
    "ties",
    "ranking",
    "language",
)


def game_words(text: Any) -> Any:
    """A game's words (a setting's label, help or choice) in the page's language: the
    engine's ``words`` translated, a fixed English text looked up in the catalogue."""
    if isinstance(text, Words):
        return translated(text)
    return gettext(text) if isinstance(text, str) and text else text


def game_setting_field(setting: Setting, initial: Any) -> forms.Field:
    """The form field of one of the game's settings, as the game describes it."""
    if setting.choices:
        return forms.ChoiceField(
            label=game_words(setting.label),
            choices=[(value, game_words(label)) for value, label in setting.choices],
            initial=initial,
            help_text=game_words(setting.help),
        )
    return forms.IntegerField(
        label=game_words(setting.label),
        min_value=setting.minimum,
        max_value=setting.maximum,
        initial=initial,
        help_text=game_words(setting.help),
    )


# A seat's letter in a play order, in English and in French (West is Ouest: O).
SEAT_LETTER_WORDS = {"N": "N", "E": "E", "S": "S", "W": "W", "O": "W"}


def seats_only(text: str, seats: tuple[str, ...]) -> str:
    """A play order such as "N → W → S → E" (French: "N → O → S → E") with only the seats a
    table has: "N → S → E"."""

    def kept(match: re.Match) -> str:
        letters = match.group(0).split(" → ")
        return " → ".join(s for s in letters if SEAT_LETTER_WORDS[s] in seats)

    return re.sub(r"\b[NESWO](?: → [NESWO])+\b", kept, text)


def add_game_fields(form: forms.Form, game: Game, values: dict[str, Any]) -> None:
    """The game's own settings, and only the tournament fields that apply to the game. With
    the players at a table known, play orders name only the seats the tables have."""
    size = values.get("table_size")
    seats = game.seats(size) if size in game.table_sizes else None
    for setting in game.setting_fields:
        form.fields[setting.name] = _setting_field(setting, values[setting.name], seats)
    _tournament_fields_of(form, game, values)


def _setting_field(setting: Setting, value: Any, seats: tuple[str, ...] | None) -> forms.Field:
    """A game setting's field; a choice among seats names only the ``seats`` the tables
    have, when known."""
    field = game_setting_field(setting, value)
    if seats and isinstance(field, forms.ChoiceField):
        field.choices = [(choice, seats_only(str(label), seats)) for choice, label in field.choices]
    return field


def _tournament_fields_of(form: forms.Form, game: Game, values: dict[str, Any]) -> None:
    """Only the tournament's fields that apply to the game: players at a table where it
    has a choice, ranking for games of individuals, sides for games of pairs, boards per
    table unless the game's settings decide it."""
    if len(game.table_sizes) == 1:
        del form.fields["table_size"]
    else:
        form.fields["table_size"] = forms.TypedChoiceField(
            label=_("Players at a table"),
            choices=[(size, str(size)) for size in game.table_sizes],
            coerce=int,
            initial=values.get("table_size", max(game.table_sizes)),
        )
    if game.entrants == PAIRS:
        del form.fields["ranking"]
    else:
        del form.fields["side_mode"]  # pairs' seating; a movement of players has none
    if game.boards_per_table(game.default_settings, max(game.table_sizes)) is not None:
        del form.fields["boards_per_table"]  # the game's settings decide it


# The labels of the tournament's own fields on its forms (the model's names are English).
FIELD_LABELS = {
    "name": _("Name"),
    "boards_per_table": _("Boards per table"),
    "side_mode": _("Side mode"),
    "ties": _("Ties"),
    "ranking": _("Ranking"),
}


def field_labels(form: forms.ModelForm) -> None:
    for name, label in FIELD_LABELS.items():
        if name in form.fields:
            form.fields[name].label = label


def language_optional(form: forms.ModelForm) -> None:
    """The language of the tournament's pages may be left out of a post: it keeps its value
    (a new tournament's is the site's default)."""
    if "language" in form.fields:
        form.fields["language"].required = False


def offered_language(form: forms.ModelForm) -> None:
    """A new tournament's form offers the organiser's own language (the page's) for its
    pages: a French club's organiser need not look for it."""
    page = get_language()
    if "language" in form.fields and page in dict(settings.LANGUAGES):
        form.fields["language"].initial = page


def kept_language(form: forms.ModelForm) -> str:
    return form.cleaned_data.get("language") or form.instance.language


def chosen_game(data: Any, initial: Any = None) -> str:
    """The game a create form is for: the one posted, else asked for, else the default."""
    for source in (data, initial):
        game = (source or {}).get("game")
        if game in scorable_games():
            return game
    return DEFAULT_GAME


class TournamentCreateForm(forms.ModelForm):
    tables = forms.IntegerField(label=_("Tables"), min_value=1, max_value=MAX_TABLES, initial=7)
    # Chosen on the page by a link (?game=...): the settings below are that game's.
    game = forms.ChoiceField(
        choices=game_choices, initial=DEFAULT_GAME, required=False, widget=forms.HiddenInput
    )

    class Meta:
        model = Tournament
        fields = ("name", "slug", *SETTINGS_FIELDS[1:])

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        slug = self.fields["slug"]
        slug.required = False
        slug.label = _("Web address")
        slug.help_text = _(
            "The tournament's pages are at /t/<this>/ and the printed QR codes carry it, so it "
            "cannot change. Made from the name when left empty: lower-case letters, digits "
            "and hyphens."
        )
        game = get_game(chosen_game(self.data, self.initial))
        self.game = game
        # The model's own checks (players at a table, ranking) must read the chosen game.
        self.instance.game = game.id
        self.fields["game"].initial = game.id
        add_game_fields(self, game, game.default_settings)
        self.order_fields(["game", "name", "slug", "tables"])
        language_optional(self)
        offered_language(self)
        field_labels(self)

    def clean_game(self) -> str:
        return self.cleaned_data.get("game") or DEFAULT_GAME

    def clean_language(self) -> str:
        return kept_language(self)


class TournamentSettingsForm(forms.ModelForm):
    """Settings that cannot change in the tournament's status are shown but disabled."""

    tables = forms.IntegerField(label=_("Tables"), min_value=1, max_value=MAX_TABLES)

    class Meta:
        model = Tournament
        fields = SETTINGS_FIELDS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        add_game_fields(
            self,
            self.instance.game_rules,
            {**self.instance.rules, "table_size": self.instance.table_size},
        )
        self.order_fields(["name", "tables"])
        language_optional(self)
        field_labels(self)
        self.fields["tables"].initial = self.instance.tables.count()
        for name, field in self.fields.items():
            if self.instance.status not in setting_statuses(self.instance, name):
                field.disabled = True
        ranking = self.fields.get("ranking")
        if ranking is not None and not ranking.disabled and self._has_results():
            self.fields["confirm_ranking"] = forms.BooleanField(
                required=False,
                label=_("Rank the results again"),
                help_text=_(
                    "Results are in: a new ranking places every entrant again. Tick to "
                    "confirm a change of ranking."
                ),
            )

    def clean_language(self) -> str:
        return kept_language(self)

    def _has_results(self) -> bool:
        return Match.objects.filter(table__tournament=self.instance, results__current=True).exists()

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        ranking = cleaned.get("ranking")
        if (
            "confirm_ranking" in self.fields
            and ranking
            and ranking != self.instance.ranking
            and not cleaned.get("confirm_ranking")
        ):
            self.add_error(
                "ranking",
                gettext(
                    "Results are in: changing the ranking to %(ranking)s places every entrant "
                    "again. Tick 'Rank the results again' to confirm."
                )
                % {"ranking": ranking},
            )
        return cleaned

    def changes(self) -> dict[str, Any]:
        return {
            name: value
            for name, value in self.cleaned_data.items()
            if not self.fields[name].disabled and name != "confirm_ranking"
        }


class EntrantForm(forms.Form):
    number = forms.IntegerField(
        min_value=1,
        required=False,
        label=_("Number"),
        help_text=_("Leave empty to number the team after the last one."),
    )
    name = forms.CharField(label=_("Name"), max_length=Entrant._meta.get_field("name").max_length)
    player1 = forms.CharField(
        label=_("First player"),
        max_length=Entrant._meta.get_field("player1").max_length,
        required=False,
    )
    player2 = forms.CharField(
        label=_("Second player"),
        max_length=Entrant._meta.get_field("player2").max_length,
        required=False,
    )

    def __init__(
        self,
        *args: Any,
        entrant: Entrant | None = None,
        number_editable: bool = True,
        of_players: bool = False,
        **kwargs: Any,
    ) -> None:
        if entrant is not None:
            kwargs.setdefault(
                "initial",
                {
                    "number": entrant.number,
                    "name": entrant.name,
                    "player1": entrant.player1,
                    "player2": entrant.player2,
                },
            )
        super().__init__(*args, **kwargs)
        if of_players:  # an entrant is one player: his name is all there is
            del self.fields["player1"], self.fields["player2"]
            self.fields["number"].help_text = _("Leave empty to number the player after the last.")
        if not number_editable:
            self.fields["number"].disabled = True
            self.fields["number"].help_text = _("Numbers change only before the draw-up.")


class EntrantImportForm(forms.Form):
    file = forms.FileField(
        label=_("File"),
        widget=forms.ClearableFileInput(attrs={"accept": ",".join(READABLE_SUFFIXES)}),
    )
    replace = forms.BooleanField(
        required=False, label=_("Replace the current teams (otherwise the file adds to them)")
    )

    def __init__(self, *args: Any, of_players: bool = False, **kwargs: Any):
        super().__init__(*args, **kwargs)
        if of_players:
            self.fields["file"].help_text = ngettext(
                "A .csv, .xlsx or .ods file, first row: number, name (number optional). "
                "At most %(count)s player.",
                "A .csv, .xlsx or .ods file, first row: number, name (number optional). "
                "At most %(count)s players.",
                MAX_TEAMS,
            ) % {"count": MAX_TEAMS}
            self.fields["replace"].label = _(
                "Replace the current players (otherwise the file adds to them)"
            )
        else:
            self.fields["file"].help_text = ngettext(
                "A .csv, .xlsx or .ods file, first row: number, name, player1, player2 "
                "(number and players optional). At most %(count)s team.",
                "A .csv, .xlsx or .ods file, first row: number, name, player1, player2 "
                "(number and players optional). At most %(count)s teams.",
                MAX_TEAMS,
            ) % {"count": MAX_TEAMS}


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}), max_length=2000
    )


class DrawScheduleForm(forms.Form):
    side_mode = forms.ChoiceField(choices=SideMode.choices, label=_("Sides"))
    rounds = forms.IntegerField(
        label=_("Rounds"),
        min_value=1,
        required=False,
        help_text=_("Leave empty for as many as the tables allow (nobody plays a table twice)."),
    )

    def __init__(self, *args: Any, of_players: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Pairs sit on sides; players move in a movement of a chosen length.
        del self.fields["side_mode" if of_players else "rounds"]


class DrawProposalForm(forms.Form):
    """One of the schedule page's proposals, by its key (the service checks it is one)."""

    proposal = forms.CharField(max_length=200)


class FinaliseForm(forms.Form):
    anyway = forms.BooleanField(
        required=False,
        label=_("Finalise anyway, with the results and calls listed above open"),
    )
    reason = forms.CharField(
        label=_("Reason"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Needed when finalising anyway; the action log keeps it."),
    )


class StartForm(forms.Form):
    accept_problems = forms.BooleanField(
        required=False, label=_("Start even though the schedule breaks the rules listed above")
    )


class MatchForm(forms.Form):
    round_number = forms.IntegerField(label=_("Round"), min_value=1)
    table_number = forms.TypedChoiceField(label=_("Table"), coerce=int)
    ns_number = forms.TypedChoiceField(label=_("NS team"), coerce=int)
    ew_number = forms.TypedChoiceField(label=_("EW team"), coerce=int)

    def __init__(
        self, *args: Any, tournament: Tournament, match: Match | None = None, **kwargs: Any
    ):
        if match is not None and "initial" not in kwargs:
            kwargs["initial"] = {
                "round_number": match.round,
                "table_number": match.table.number,
                "ns_number": match.north_entrant.number,
                "ew_number": match.east_entrant.number,
            }
        super().__init__(*args, **kwargs)
        tables = [(table.number, str(table)) for table in tournament.tables.order_by("number")]
        entrants = [
            (entrant.number, str(entrant)) for entrant in tournament.entrants.order_by("number")
        ]
        self.fields["table_number"].choices = tables
        self.fields["ns_number"].choices = entrants
        self.fields["ew_number"].choices = entrants


class DealBoardsForm(forms.Form):
    seed = forms.CharField(
        label=_("Seed"),
        required=False,
        max_length=100,
        help_text=_(
            "Optional. The same seed always gives the same deals; keep it secret. "
            "Without one the deals come from a secure random source."
        ),
    )
    replace = forms.BooleanField(
        required=False, label=_("Deal again: replace the boards dealt already")
    )


class DealForm(forms.Form):
    deal = forms.CharField(
        label=_("Deal"),
        max_length=200,
        widget=forms.TextInput(attrs={"size": 80, "spellcheck": "false", "autocomplete": "off"}),
    )

    def __init__(self, *args: Any, game: Game, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["deal"].help_text = game_words(game.deal_help)


class TableLabelsForm(forms.Form):
    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any):
        super().__init__(*args, **kwargs)
        for table in tournament.tables.order_by("number"):
            self.fields[f"table_{table.number}"] = forms.CharField(
                label=gettext("Table %(number)s") % {"number": table.number},
                max_length=50,
                required=False,
                initial=table.label,
            )

    def labels(self) -> dict[int, str]:
        return {
            int(name.removeprefix("table_")): value for name, value in self.cleaned_data.items()
        }
