"""The errors every game raises for bad input, so callers catch one type whatever the game."""

from __future__ import annotations

from engine.core.messages import words


class RecordError(ValueError):
    """A board record that cannot be scored; the message names the field and the reason."""

    def __init__(self, field_name: str, reason: str):
        super().__init__(f"{field_name}: {reason}")
        self.field = field_name
        self.reason = reason
        # The message as the engine's words (a reason made with ``words`` is translated by
        # the pages; any other stays as written).
        self.words = words("%(field)s: %(reason)s", field=field_name, reason=reason)


class DealError(ValueError):
    """A deal that is not written right or does not hold its game's pack once."""


class SettingsError(ValueError):
    """Game settings that a tournament cannot use; the message names the setting."""

    def __init__(self, name: str, reason: str):
        super().__init__(f"{name}: {reason}")
        self.field = name
        self.reason = reason
