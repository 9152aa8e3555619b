"""Forms of the club pages; the services check again and have the last word."""

from __future__ import annotations

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from clubs.imports import MAX_FILE_BYTES
from clubs.models import Member, Season
from tournaments.models import game_choices


class ClubForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    slug = forms.SlugField(
        label=_("Address"),
        max_length=50,
        required=False,
        help_text=_("Used in addresses; made from the name if blank."),
    )


class MemberForm(forms.ModelForm):
    class Meta:
        model = Member
        fields = ("number", "name", "contact", "active", "public")
        labels = {
            "number": _("Member number"),
            "name": _("Name"),
            "contact": _("Contact"),
            "active": _("Active"),
            "public": _("Shown on public pages"),
        }
        help_texts = {
            "contact": _("Kept private: seen only by the club's organisers."),
            "active": _("Inactive members are not suggested when entrants are registered."),
            "public": _("Untick when the member opts out of public pages."),
        }


class MemberImportForm(forms.Form):
    file = forms.FileField(
        label=_("File"),
        help_text=format_lazy(
            _("A .csv, .xlsx or .ods file of at most {megabytes} MB."),
            megabytes=MAX_FILE_BYTES // 1024 // 1024,
        ),
    )


class MergeForm(forms.Form):
    kept = forms.CharField(label=_("Member number to keep"), max_length=20)
    merged = forms.CharField(label=_("Member number merged into it"), max_length=20)


class LinkForm(forms.Form):
    entrant = forms.IntegerField(label=_("Entrant number"), min_value=1)
    player1 = forms.CharField(label=_("Player 1's member number"), max_length=20, required=False)
    player2 = forms.CharField(label=_("Player 2's member number"), max_length=20, required=False)


class ManyLinksForm(forms.Form):
    lines = forms.CharField(
        label=_("One line an entrant"),
        widget=forms.Textarea(attrs={"rows": 6}),
        max_length=40_000,
        help_text=_(
            "The entrant's number, then its players' member numbers (blank: a guest), "
            "e.g. 3, 101, 102."
        ),
    )


class RegisterForm(forms.Form):
    lines = forms.CharField(
        label=_("One line a new entrant"),
        widget=forms.Textarea(attrs={"rows": 6}),
        max_length=40_000,
        help_text=_("Its players' member numbers, e.g. 101, 102 (a game of individuals: one)."),
    )


class EventDateForm(forms.Form):
    date = forms.DateField(label=_("Played on"), widget=forms.DateInput(attrs={"type": "date"}))


class SeasonForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100)
    starts = forms.DateField(label=_("Starts"), widget=forms.DateInput(attrs={"type": "date"}))
    ends = forms.DateField(label=_("Ends"), widget=forms.DateInput(attrs={"type": "date"}))
    games = forms.MultipleChoiceField(
        label=_("Games"),
        choices=game_choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("None ticked: every game."),
    )
    kind = forms.ChoiceField(label=_("Ladder"), choices=Season.Kind.choices)
    best_n = forms.IntegerField(label=_("Best N"), min_value=1, max_value=200, initial=10)
    min_events = forms.IntegerField(
        label=_("Minimum of events"), min_value=1, max_value=200, initial=1
    )
    points = forms.CharField(
        label=_("Points per place"),
        required=False,
        max_length=1000,
        help_text=_("Place 1 first, e.g. 10, 8, 6, 5, 4, 3, 2, 1 (a place beyond scores 0)."),
    )

    def clean_points(self) -> list[float]:
        words = [w for w in self.cleaned_data["points"].replace(";", ",").split(",") if w.strip()]
        try:
            return [float(word) for word in words]
        except ValueError:
            raise forms.ValidationError(_("The points are numbers separated by commas.")) from None


class OrganiserForm(forms.Form):
    username = forms.CharField(label=_("Organiser's user name"), max_length=150)
