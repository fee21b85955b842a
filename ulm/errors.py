"""The error of a setting that is not one, with its field as data.

    >>> exc = OptionError("games", 0, "must be >= 1, got 0")
    >>> str(exc), exc.in_words({"games": "--games"})
    ('games: must be >= 1, got 0', '--games: must be >= 1, got 0')

A library (the search's options, a tournament's, a fit's) raises an
`OptionError` naming the field (its own name for the setting), the value it
was given and what is wrong; `str()` is ``field: message``. A caller that
offers the setting under another name (the command line's ``--bots``, a bot
spec's ``margin=``) words it by that name (`in_words`), never by reading the
message, so a message may change its wording without changing where it
points. It is a ValueError, so callers that catch ValueError keep working.
"""
from __future__ import annotations

from typing import Any, Mapping, Optional

NO_VALUE = object()     # an error about a setting as a whole, not one value given


class OptionError(ValueError):
    """A setting `field` with a value that is not one: `message` says why."""

    def __init__(self, field: Optional[str], value: Any = NO_VALUE,
                 message: Optional[str] = None):
        if message is None:         # OptionError(text): an error that names no one field
            field, message = None, field or ""
        self.field = field
        self.value = value
        self.message = message
        super().__init__(f"{field}: {message}" if field else message)

    def __reduce__(self):           # pickled as its data (errors of worker processes)
        return type(self), (self.field, self.value, self.message)

    def in_words(self, names: Mapping[str, str] | None = None, name: str | None = None) -> str:
        """The message with the field named as the caller names it: `name`, or
        `names[field]` (the field itself where `names` has no entry)."""
        if name is None:
            name = (names or {}).get(self.field or "", self.field)
        return f"{name}: {self.message}" if name else self.message
