"""The emitted runtime's part for a count of words (:mod:`.word_sentences`): a drawn text laid out
again as a number of words in the spec's ``words`` range. Copied into every generated generator
with the rest of the runtime, so it uses only ``random`` and builtin types."""

from __future__ import annotations

import random


def _word_text(p: dict, s: str) -> str:
    """``s`` with its characters laid out as ``p["words"]`` asks: a word count drawn in the
    range (at most ``(len(s) + 1) // 2``: a word and a space between each two), the drawn
    characters other than the space kept in order as the words' letters (drawn again from the
    alphabet where too few), and spaces between the words: one each where ``spaces`` has
    "single", none at either end where it has "trim", otherwise any number more at random.
    The length is kept; the spec asks it to be at least ``2 * lo - 1``."""
    lo, hi = p["words"]
    rules = p.get("spaces") or ()
    n = len(s)
    most = (n + 1) // 2 if hi is None else min(hi, (n + 1) // 2)
    if n == 0 or most < lo:
        return s  # no room (the spec's length bound leaves none): the checker says so
    count = random.randint(lo, most)
    gaps = [] if "trim" in rules else [0, count]  # where more spaces may go
    gaps += [] if "single" in rules else list(range(1, count))
    extra = random.randint(0, n - 2 * count + 1) if gaps and random.random() < 0.5 else 0
    letters = n - (count - 1) - extra
    cuts = sorted(random.sample(range(1, letters), count - 1))
    sizes = [b - a for a, b in zip([0, *cuts], [*cuts, letters], strict=True)]
    spaces = [0] + [1] * (count - 1) + [0]
    for _ in range(extra):
        spaces[random.choice(gaps)] += 1
    other = [c for c in p["leaf"]["alphabet"] if c != " "]
    pool = [c for c in s if c != " "][:letters]
    pool += [random.choice(other) for _ in range(letters - len(pool))]
    out, at = [" " * spaces[0]], 0
    for i, size in enumerate(sizes):
        out.append("".join(pool[at : at + size]))
        out.append(" " * spaces[i + 1])
        at += size
    return "".join(out)


WORDS_RUNTIME = (_word_text,)
