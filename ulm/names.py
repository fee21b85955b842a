"""The one way to suggest a name for a misspelt one ("did you mean ...?"), for
every message that names what was expected: board tables, positions, bot
specs, tuned options, decisions."""
from __future__ import annotations

import difflib
from typing import Iterable, Optional


def closest(word: object, choices: Iterable, cutoff: float = 0.5) -> Optional[str]:
    """The choice most like `word` (difflib's ratio at least `cutoff`), or None."""
    near = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=cutoff)
    return near[0] if near else None


def did_you_mean(word: object, choices: Iterable, cutoff: float = 0.5, after: str = " (") -> str:
    """The hint to add to a message: " (did you mean 'X'?)", or with after="; "
    "; did you mean 'X'?"; empty when nothing is close."""
    near = closest(word, choices, cutoff)
    if near is None:
        return ""
    return f" (did you mean {near!r}?)" if after == " (" else f"{after}did you mean {near!r}?"
