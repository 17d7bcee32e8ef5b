"""Parts of the emitted runtime (:mod:`.runtime`) that draw a list of integers whose values occur
a stated number of times (:mod:`.occurs`): every value twice but one once, once or twice, at
most 50 distinct values, a largest value that occurs once. They are copied into every generated
generator with the rest of the runtime, so they use only ``random``, builtin types and the
runtime's ``_eval``.
"""

from __future__ import annotations

import random

from quicksilver.synth.offline.runtime_numtheory import NUMTHEORY_RUNTIME, _values_are
from quicksilver.synth.offline.runtime_parts import _eval


def _ruled_values(p: dict) -> bool:
    """Whether the values of ``p`` follow a rule of :mod:`.occurs` or :mod:`.numtheory` (drawn by
    :func:`_occurs`; the perf variants that put other values in place are not offered)."""
    return any(k in p for k in ("occur", "end_once", "values_are"))


def _occurs(p: dict, q: dict, flat: list, mode: str) -> list:
    """``flat`` (the list's values, drawn as for any list) made to meet ``p["occur"]``,
    ``p["end_once"]`` or ``p["values_are"]`` (:func:`_values_are`). ``occur``: the
    multiplicities first (:func:`_occur_counts`), then as many distinct values of the range
    (the lowest or highest ones in the edge cases' value modes ``low`` and ``high``, else a
    random sample), each repeated its count, shuffled; ``flat``'s values are not kept.
    ``end_once``: :func:`_end_once`. The schedule leaves the length room (its remainder, its
    least value, no more distinct values than the range holds), so an impossible draw is a
    bug: RuntimeError."""
    if "values_are" in p:  # even, prime, a power of two (numtheory.py)
        return _values_are(p, q, flat)
    leaf = p["leaf"]
    lo = max(_eval(f, q) for f in leaf["lo"])
    hi = min(_eval(f, q) for f in leaf["hi"])
    if "end_once" in p:
        return _end_once(p["end_once"], flat, lo, hi)
    counts = _occur_counts(p["occur"], len(flat), hi - lo + 1)
    if counts is None:
        raise RuntimeError(f"no multiset of {len(flat)} values in [{lo}, {hi}] as stated")
    k = len(counts)
    if mode == "low":
        values = list(range(lo, lo + k))
    elif mode == "high":
        values = list(range(hi - k + 1, hi + 1))
    else:
        values = random.sample(range(lo, hi + 1), k)
    random.shuffle(values)
    out = [v for v, c in zip(values, counts, strict=True) for _ in range(c)]
    random.shuffle(out)
    return out


def _occur_counts(rule: dict, total: int, room: int) -> list | None:
    """How many times each distinct value occurs, summing to ``total``, with at most ``room``
    (and ``rule["kinds"]``) values: the exceptions (``rule["but"]``: [count, lo, hi]) first,
    then a random number of other values, each ``rule["each"]`` ([lo, hi]; hi None: no most)
    times; each starts at its least and the rest is handed out one by one to a random value
    with room left. None when no such multiset exists."""
    each_lo, each_hi = rule["each"]
    slots = [[a, b] for c, a, b in rule["but"] for _ in range(c)]
    cap = min(room, rule.get("kinds") or room) - len(slots)
    rest = total - sum(s[0] for s in slots)
    if rest < 0 or cap < 0:
        return None
    spare = None if any(s[1] is None for s in slots) else sum(s[1] - s[0] for s in slots)
    g_hi = min(cap, rest // each_lo)
    if spare is None or rest <= spare:
        g_lo = 0
    elif each_hi is None:
        g_lo = 1
    else:
        g_lo = -(-(rest - spare) // each_hi)
    if g_lo > g_hi:
        return None
    slots += [[each_lo, each_hi] for _ in range(random.randint(g_lo, g_hi))]
    counts = [s[0] for s in slots]
    extra = total - sum(counts)
    free = [i for i, s in enumerate(slots) if s[1] is None or s[1] > s[0]]
    while extra > 0:
        if not free:
            return None
        j = random.randrange(len(free))
        i = free[j]
        counts[i] += 1
        extra -= 1
        if slots[i][1] is not None and counts[i] >= slots[i][1]:
            free[j] = free[-1]
            free.pop()
    return counts


def _end_once(end: str, flat: list, lo: int, hi: int) -> list:
    """The largest (``"max"``) or smallest (``"min"``) value of ``flat`` made to occur once:
    its other copies drawn again below (above) it; where every value is that end of the range
    (so nothing lies beyond it), one copy is drawn again beyond the others instead. The range
    is constant with lo < hi (the synthesizer checks)."""
    if len(flat) < 2:
        return flat
    top = max(flat) if end == "max" else min(flat)
    at = [i for i, x in enumerate(flat) if x == top]
    if len(at) == 1:
        return flat
    keep = random.choice(at)
    if top == (lo if end == "max" else hi):  # all equal: one copy moves beyond the rest
        flat[keep] = random.randint(lo + 1, hi) if end == "max" else random.randint(lo, hi - 1)
        return flat
    for i in at:
        if i != keep:
            flat[i] = random.randint(lo, top - 1) if end == "max" else random.randint(top + 1, hi)
    return flat


OCCURS_RUNTIME = (_ruled_values, _occurs, _occur_counts, _end_once, *NUMTHEORY_RUNTIME)
