"""The errors every game raises for bad input, so callers catch one type whatever the game."""

from __future__ import annotations

from engine.core.messages import Words, words


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
    """A deal that is not written right or does not hold its game's pack once. Its message is
    kept as the engine's words (``words``), for the pages to give in the reader's language: a
    fault made with ``in_deal`` reads ``deal: <fault>``."""

    def __init__(self, message: str):
        super().__init__(message)
        # The message as the engine's words (made with ``words``, translated by the pages; any
        # other text stays as written).
        self.words = message

    @property
    def reason(self) -> str:
        """The fault without its ``deal:`` lead (a record reader names the field itself)."""
        message = self.words
        if isinstance(message, Words) and message.message == DEAL_FAULT:
            fault: str = message.values["fault"]
            return fault
        text = str(message)
        return text.removeprefix("deal: ") if text.startswith("deal: ") else message


#: A deal's fault, led by the field's name.
DEAL_FAULT = "deal: %(fault)s"


def in_deal(fault: str) -> str:
    """``deal: <fault>``, ``fault`` the engine's words (``words(...)``): a ``DealError``'s
    message, translatable as a whole."""
    return words("deal: %(fault)s", fault=fault)


class SettingsError(ValueError):
    """Game settings that a tournament cannot use; the message names the setting."""

    def __init__(self, name: str, reason: str):
        super().__init__(f"{name}: {reason}")
        self.field = name
        self.reason = reason
