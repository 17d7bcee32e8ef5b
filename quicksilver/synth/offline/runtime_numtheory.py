"""Parts of the emitted runtime (:mod:`.runtime`) that give a list's values a number-theoretic
property (:mod:`.numtheory`): even or odd, not a multiple of m, prime, a power of two. They are
copied into every generated generator with the rest of the runtime, so they use only builtin
types (and the runtime's ``_eval``).
"""

from __future__ import annotations

from quicksilver.synth.offline.runtime_parts import _eval


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


NUMTHEORY_RUNTIME = (_values_are, _allowed, _is_prime)
