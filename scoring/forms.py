"""Forms of the director's pages. They only shape input; the services check it against the
rules (an illegal call or impossible tricks come back as ``InvalidEntry`` naming the field,
and ``add_service_error`` puts the message beside that field)."""

from __future__ import annotations

import json
import uuid
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.errors import ScoringError
from scoring.services import REASON_MAX
from tournaments.templatetags.languages import translated, translated_tree

TABLE_RESULT_LIMIT = 1_000_000


def new_client_id() -> str:
    return uuid.uuid4().hex


class EntryAsJson(forms.Form):
    """A director's entry that may be typed whole, as JSON, in ``record_json``, with its
    ``client_id`` (a new one on a fresh form) and an optional reason."""

    client_id = forms.CharField(widget=forms.HiddenInput, min_length=8, max_length=64)
    reason = forms.CharField(
        label=gettext_lazy("Reason (optional)"), required=False, max_length=REASON_MAX
    )
    field_order = ["client_id", "record_json", "reason"]

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial.setdefault("client_id", new_client_id())
        self.facts: dict[str, Any] = {}
        self.used_json = False

    def read_json(self, data: dict[str, Any]) -> bool:
        """Read ``record_json`` into ``facts`` if it was given (True), errors on the field."""
        raw = (data.get("record_json") or "").strip()
        if not raw:
            return False
        self.used_json = True
        try:
            self.facts = json.loads(raw)
        except json.JSONDecodeError as exc:
            self.add_error(
                "record_json",
                _("not valid JSON: %(problem)s (line %(line)s)")
                % {"problem": exc.msg, "line": exc.lineno},
            )
            return True
        except RecursionError:
            self.add_error("record_json", _("not valid JSON: nested too deeply"))
            return True
        if not isinstance(self.facts, dict):
            self.add_error("record_json", _("must be a JSON object"))
        return True


class AdjustForm(forms.Form):
    ns = forms.IntegerField(
        label=gettext_lazy("NS table result"),
        min_value=-TABLE_RESULT_LIMIT,
        max_value=TABLE_RESULT_LIMIT,
    )
    ew = forms.IntegerField(
        label=gettext_lazy("EW table result"),
        min_value=-TABLE_RESULT_LIMIT,
        max_value=TABLE_RESULT_LIMIT,
    )
    reason = forms.CharField(
        label=gettext_lazy("Reason"), max_length=REASON_MAX, widget=forms.TextInput
    )

    def add_service_error(self, exc: ScoringError) -> None:
        self.add_error(exc.field if exc.field in self.fields else None, exc.message)


class EraseForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Reason"), max_length=REASON_MAX, widget=forms.TextInput
    )

    def add_service_error(self, exc: ScoringError) -> None:
        self.add_error(exc.field if exc.field in self.fields else None, exc.message)


class ChoicesEntryForm(EntryAsJson):
    """The director's entry for a game whose entry is a list of choices (``entry_kind ==
    "fields"``): one select per field of the game's form for this board, as on North's phone,
    or the whole entry as JSON."""

    record_json = forms.CharField(
        label=gettext_lazy("Or the whole entry as JSON"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false"}),
        help_text=gettext_lazy("When given, the choices above are ignored."),
    )

    def __init__(self, *args: Any, spec: dict[str, Any], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.note = translated(spec.get("note", ""))
        self.choice_names = []
        self._values: dict[str, dict[str, Any]] = {}
        for spec_field in spec["fields"]:
            name = spec_field["name"]
            choices = [(str(value), translated(label)) for value, label in spec_field["choices"]]
            # A select that accepts any value: a choice the sheet no longer has (a page left
            # open while the table scored) gets the service's message, which says what is left.
            self.fields[name] = forms.CharField(
                label=translated(spec_field["label"]),
                widget=forms.Select(choices=[("", "—"), *choices]),
                required=False,
                help_text="" if choices else translated(spec_field.get("empty", "")),
            )
            self._values[name] = {str(value): value for value, _label in spec_field["choices"]}
            self.choice_names.append(name)
        self.fields = {  # the choices first, as on the phone
            **{name: self.fields[name] for name in self.choice_names},
            **{name: field for name, field in self.fields.items() if name not in self._values},
        }

    @property
    def choice_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.choice_names]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.read_json(data):
            return data
        for name in self.choice_names:
            if data.get(name):
                self.facts[name] = self._values[name].get(data[name], _typed(data[name]))
            else:
                label = str(self.fields[name].label)
                self.add_error(
                    name, _("Choose the %(field)s.") % {"field": label[:1].lower() + label[1:]}
                )
        return data

    def add_service_error(self, exc: ScoringError) -> None:
        field = "record_json" if self.used_json else exc.field
        self.add_error(field if field in self.fields else None, exc.message)


class ScriptEntryForm(EntryAsJson):
    """The director's entry for a game whose entry is a script (``Game.entry_script``: a
    bidding box, a set picker): the page runs the same entry as North's phone,
    starting from what North entered, and it writes the facts into the hidden
    ``record_json`` when the director saves; nobody types notation or JSON."""

    record_json = forms.CharField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args: Any, spec: dict[str, Any], **kwargs: Any):
        super().__init__(*args, **kwargs)
        # The game's form for this board, its words in the page's language (the script shows it).
        self.spec = translated_tree(spec)

    @property
    def draft(self) -> dict[str, Any] | None:
        """The facts the entry starts from: North's latest entry, or what was sent back."""
        raw = self.data.get("record_json") if self.is_bound else self.initial.get("record_json")
        try:
            found = json.loads(raw or "null")
        except json.JSONDecodeError:
            return None
        return found if isinstance(found, dict) else None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not self.read_json(data):
            self.add_error(None, _("Enter the result in the entry above, then save it."))
        # The field is hidden: what is wrong with it shows above the entry.
        for message in self.errors.pop("record_json", []):
            self.add_error(None, message)
        return data

    def add_service_error(self, exc: ScoringError) -> None:
        where = f" ({exc.field})" if exc.field and exc.field not in exc.message else ""
        self.add_error(None, f"{exc.message}{where}")


def _typed(value: str) -> Any:
    """A value not among the choices, as the entry would carry it (a number if it is one)."""
    try:
        return int(value)
    except ValueError:
        return value


class SeatsAdjustForm(forms.Form):
    """An adjusted result of a table of individuals: one table result per seat."""

    reason = forms.CharField(
        label=gettext_lazy("Reason"), max_length=REASON_MAX, widget=forms.TextInput
    )

    def __init__(self, *args: Any, seats: dict[str, str], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.seats = list(seats)
        for seat, label in seats.items():
            self.fields[f"seat_{seat}"] = forms.IntegerField(
                label=_("%(seat)s table result") % {"seat": label},
                min_value=-TABLE_RESULT_LIMIT,
                max_value=TABLE_RESULT_LIMIT,
            )
        self.fields["reason"] = self.fields.pop("reason")

    @property
    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{seat}"] for seat in self.seats]

    def results(self) -> dict[str, int]:
        return {seat: self.cleaned_data[f"seat_{seat}"] for seat in self.seats}

    def add_service_error(self, exc: ScoringError) -> None:
        field = f"seat_{exc.field}" if exc.field else None
        self.add_error(field if field in self.fields else None, exc.message)
