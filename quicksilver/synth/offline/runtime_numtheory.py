"""Parts of the emitted runtime (:mod:`.runtime`) that give a list's values a number-theoretic
property (:mod:`.numtheory`): even or odd, not a multiple of m, prime, a power of two. They are
copied into every generated generator with the rest of the runtime, so they use only builtin
types (and the runtime's ``_eval``).
"""

from __future__ import annotations

import math

from quicksilver.synth.offline.runtime_parts import _digit_value, _eval


def _size_value(item: dict, value: int, lo: int, hi: int, q: dict) -> int | None:
    """A size or scalar drawn as ``value`` in [lo, hi], made to meet its item's ``digits``
    (``_digit_value``), ``pow2`` ([c]: value + c a power of two, :func:`_allowed`),
    ``multiple_of`` (the nearest multiple of that quantity at most ``value``, else above it)
    or ``divisor_of`` (the divisor of that quantity nearest ``value``, below first); None when
    [lo, hi] holds none (the caller draws again). With none of them: ``value``."""
    if "digits" in item:
        return _digit_value(value, lo, hi, item["digits"])
    if "pow2" in item:
        c = item["pow2"][0]
        got = _allowed(["pow2"], value + c, lo + c, hi + c)
        return None if got is None else got - c
    if "multiple_of" in item:
        k = q[item["multiple_of"]]
        if k < 1:
            return None
        y = value - value % k
        y = y if y >= lo else y + k
        return y if y <= hi else None
    if "divisor_of" in item:
        n = q[item["divisor_of"]]
        if n == 0:
            return value  # every number divides 0
        n = abs(n)
        divisors = [d for i in range(1, math.isqrt(n) + 1) if n % i == 0 for d in (i, n // i)]
        fit = [d for d in divisors if lo <= d <= hi]
        below = [d for d in fit if d <= value]
        return max(below) if below else min(fit) if fit else None
    return value


def _values_are(p: dict, q: dict, flat: list) -> list:
    """Each value of ``flat`` (drawn as for any list) moved to the nearest value of its range
    with the property ``p["values_are"]`` (:func:`_allowed`); the synthesizer checks that the
    range (constant) holds one."""
    leaf = p["leaf"]
    lo = max(_eval(f, q) for f in leaf["lo"])
    hi = min(_eval(f, q) for f in leaf["hi"])
    return [_allowed(p["values_are"], x, lo, hi) for x in flat]


def _allowed(rule: list, x: int, lo: int, hi: int) -> int | None:
    """The value of [lo, hi] with the property ``rule`` nearest to ``x`` below it (at most
    ``x``), else the nearest above it; None when the range holds none. ``["mod", m, r]``:
    ``v % m == r``; ``["not_mod", m, r]``: ``v % m != r``; ``["prime"]``; ``["pow2"]``: 1, 2, 4,
    ... (the power whose exponent is as far along the exponents in range as ``x`` is along
    [lo, hi]: the ends go to the ends)."""
    kind = rule[0]
    if kind == "mod":
        m, r = rule[1], rule[2]
        y = x - (x - r) % m
        y = y if y >= lo else y + m
        return y if y <= hi else None
    if kind == "not_mod":
        for y in (x, x - 1, x + 1):
            if lo <= y <= hi and y % rule[1] != rule[2]:
                return y
        return None
    if kind == "pow2":  # the exponents in range, x's place in [lo, hi] picks one (so a
        # uniform draw is spread over them, not mostly the largest power)
        e_lo = max(lo - 1, 0).bit_length()
        e_hi = hi.bit_length() - 1 if hi >= 1 else -1
        if e_lo > e_hi:
            return None
        return 1 << (e_lo + (x - lo) * (e_hi - e_lo + 1) // (hi - lo + 1))
    y = x  # prime
    while y >= max(lo, 2):
        if _is_prime(y):
            return y
        y -= 1
    y = max(x + 1, lo, 2)
    while y <= hi:
        if _is_prime(y):
            return y
        y += 1
    return None


def _is_prime(n: int) -> bool:
    """Miller-Rabin with the first twelve primes as bases: exact below 3.3 * 10^24."""
    if n < 2:
        return False
    small = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)
    for b in small:
        if n % b == 0:
            return n == b
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for b in small:
        y = pow(b, d, n)
        if y in (1, n - 1):
            continue
        for _ in range(s - 1):
            y = y * y % n
            if y == n - 1:
                break
        else:
            return False
    return True


NUMTHEORY_RUNTIME = (_values_are, _allowed, _is_prime, _size_value)
