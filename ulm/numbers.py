"""Numbers that people give (options, bot specs, files): seeds checked in one
place, and values shown in messages without flooding them.

    >>> check_seed(7)
    7
    >>> parse_seed("-1", "--seed")
    Traceback (most recent call last):
    ValueError: --seed: must be a whole number from 0 to 2**64 - 1, got '-1'

Every random choice starts from a seed of 64 bits (R-SETUP-8; `derive_seed`
mixes it), so a seed outside 0..2**64 - 1 would be cut to 64 bits without a
word: it is refused instead, by the commands, the bot specs and the records
alike.

A whole number written as text (an option, a seed, an index, a seat's
number) has one grammar, the docs' digits: ASCII 0-9, a minus sign where a
negative number is allowed, nothing else. Python's int() also reads
"1_000", "+3", " 3 " and Arabic-Indic or other Unicode digits; each of those
is refused here, so that what one entry point takes every other takes too:

    >>> parse_whole("1_000", "--games")
    Traceback (most recent call last):
    ValueError: --games: must be a whole number written with the digits 0-9, got '1_000'
"""
from __future__ import annotations

import math
import re

MAX_SEED = 2 ** 64 - 1
SEED_RANGE = "a whole number from 0 to 2**64 - 1"
SHOWN_CHARS = 40        # the longest value a message quotes whole


def shown(value: object, limit: int = SHOWN_CHARS) -> str:
    """The value as a message quotes it: repr, or its start and length when a text
    is longer than `limit` (a 5,000-digit number is not written back whole to
    the person who typed it)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"a whole number of about {int(math.log10(abs(value))) + 1:,} digits"
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit // 2]!r}... ({len(value):,} characters)"
    return repr(value)


def _where(where: str | None, what: str) -> str:
    return f"{where}: {what}" if where else what


WHOLE_TEXT = re.compile(r"-?[0-9]+")     # the one grammar of a whole number as text
WHOLE_WORDS = "a whole number written with the digits 0-9"


def is_whole_text(text: object) -> bool:
    """Is `text` a whole number in the docs' digits ("12", "-3"; not "+3", " 3 ",
    "1_000" or "١٢")?"""
    return isinstance(text, str) and WHOLE_TEXT.fullmatch(text) is not None


def parse_whole(text: object, where: str | None = None) -> int:
    """The whole number `text` writes (is_whole_text), or an int given as one (a
    default); ValueError `<where>: must be a whole number written with the digits
    0-9, got <text>` otherwise. Bounds are the caller's; a number of more than
    4,300 digits (beyond int()) is refused here."""
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    if is_whole_text(text):
        try:
            return int(str(text))
        except ValueError:          # more than 4,300 digits
            pass
    raise ValueError(_where(where, f"must be {WHOLE_WORDS}, got {shown(text)}"))


def check_seed(value: object, where: str | None = "seed") -> int:
    """`value` if it is a seed (an int from 0 to MAX_SEED), else ValueError
    `<where>: must be a whole number from 0 to 2**64 - 1, got <value>`."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SEED:
        raise ValueError(_where(where, f"must be {SEED_RANGE}, got {shown(value)}"))
    return value


def parse_seed(text: str, where: str | None = "seed") -> int:
    """A seed written as text (a command-line option, a bot spec's `seed=`);
    errors as check_seed, quoting the text."""
    try:        # text of the digits, or a whole number (a default): never a float
        value: int | None = parse_whole(text)
    except ValueError:      # not a number, or more than 4,300 digits
        value = None
    if isinstance(text, str) and text.startswith("-"):     # "-0" is no seed either
        value = None
    if value is None or not 0 <= value <= MAX_SEED:
        raise ValueError(_where(where, f"must be {SEED_RANGE}, got {shown(text)}"))
    return value


def seed_argument(text: str) -> int:
    """parse_seed as an argparse `type=` (the bench scripts' --seed): argparse
    reports the error as `argument --seed: must be ...` with exit status 2."""
    import argparse
    try:
        return parse_seed(text, None)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def whole_argument(text: str) -> int:
    """parse_whole as an argparse `type=` (the bench scripts' counts): a number
    that Python's int() alone would take ("1_000", "+3") is refused, exit
    status 2."""
    import argparse
    try:
        return parse_whole(text, None)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
