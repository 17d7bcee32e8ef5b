"""The checker's reading of a count of words (``words``: :mod:`.word_sentences`), written apart
from the runtime's drawing code like the rest of :mod:`~.checker`: a word is a maximal run of
characters other than the space, and each string holds a number of them in ``[lo, hi]``
(``hi`` None: no upper end)."""

from __future__ import annotations

from typing import Any

_SHOWN = 5


def check_words(p: dict[str, Any], strings: list[tuple[str, Any]]) -> list[str]:
    """The strings of ``strings`` (``(where, string)``) whose word count is outside
    ``p["words"]``."""
    lo, hi = p["words"]
    out: list[str] = []
    for where, s in strings:
        if not isinstance(s, str):
            continue
        n = len([w for w in s.split(" ") if w])
        if n < lo or (hi is not None and n > hi):
            out.append(f"{where} holds {n} words, outside [{lo}, {'' if hi is None else hi}]")
    if len(out) > _SHOWN:
        return [
            *out[:_SHOWN],
            f"{p['name']}: {len(out) - _SHOWN} more strings with a count of words out of range",
        ]
    return out
