"""Forms of the organiser's publishing page."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from publishing.models import Export, HandRecords, PublishingSettings


class PublishingSettingsForm(forms.ModelForm):
    class Meta:
        model = PublishingSettings
        fields = ["auto_publish_standings", "hand_records"]
        widgets = {"hand_records": forms.RadioSelect(choices=HandRecords.choices)}


class ExportForm(forms.Form):
    kind = forms.ChoiceField(
        choices=Export.Kind.choices, initial=Export.Kind.RESULTS, widget=forms.RadioSelect
    )
    format = forms.ChoiceField(
        choices=Export.Format.choices, initial=Export.Format.XLSX, widget=forms.RadioSelect
    )
    force = forms.BooleanField(
        required=False,
        label=_("Write it again even if an export of these results exists"),
        help_text=_("The same results give the same file; this only helps after renaming teams."),
    )


class PublishForm(forms.Form):
    published = forms.BooleanField(required=False)
