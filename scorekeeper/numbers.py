"""Whole numbers from requests, in one place: form fields, the hidden
fields a write carries, query parameters. ASCII digits only, with an
optional minus and at most 18 digits (every id and count fits the
database). Python's ``int()`` would also read "٣", "３", "1_0" and
"\\u20037" (around any Unicode space), so nothing read from a request
goes through it directly; ``tests/test_numbers.py`` looks for any that
does. Spaces a keyboard types around a number (ASCII) are ignored."""

from __future__ import annotations

import re
from typing import Any

PLAIN_INT = re.compile(r"-?[0-9]{1,18}")
ASCII_SPACE = " \t\r\n"


def typed(raw: Any) -> str:
    """A submitted value as text, without the ASCII spaces around it."""
    return "" if raw is None else str(raw).strip(ASCII_SPACE)


def plain_int(raw: Any) -> int | None:
    """An int from typed ASCII digits (with an optional minus), else None."""
    raw = typed(raw)
    return int(raw) if PLAIN_INT.fullmatch(raw) else None
