"""Parts of the emitted runtime (:mod:`.runtime`) that draw a structure stated in words
(:mod:`.formats`): a rotated sorted list, a mountain array, balanced parentheses, a clock format.
They are copied into every generated generator with the rest of the runtime, so they use only
``random`` and builtin types, and call no runtime function outside this module but
:func:`~.runtime_numstr._number_text` (an integer written as a string).
"""

from __future__ import annotations

import random

from quicksilver.synth.offline.runtime_numstr import _number_text


def _shaped(form: dict, row: list, leaf: dict) -> list | None:
    """``row`` (one list, or one string's characters, drawn as for any list) in the structure
    ``form`` asks for; None when its length leaves no room (the input is drawn again).

    ``rotated``: the sorted row rotated by a random k in [0, n). ``mountain``: strictly up to a
    peak at a random index strictly inside, strictly down after it (the leaf's range is
    constant). ``balanced``: pairs of parentheses (a random walk that never closes more than it
    opened) with the alphabet's other characters between them. ``path``: ``/`` and names.
    ``date``: a date. ``version``, ``ipv4``, ``roman``: numbers so
    written. ``email``: a local name, ``@``, a domain name. ``count``: at most ``most``
    of ``chars``. ``halves``: half each of two characters.
    ``integer``: an integer written out. ``sentence``: capitalized words.
    ``format``: each field a number in its range, of its width, between the fixed separators."""
    kind = form["kind"]
    n = len(row)
    if kind == "rotated":
        k = random.randrange(n) if n else 0
        return row[k:] + row[:k]
    if kind == "mountain":
        return _mountain(n, max(leaf["lo"]), min(leaf["hi"]))
    if kind == "balanced":
        return _balanced(n, [c for c in leaf["alphabet"] if c not in "()"])
    if kind == "path":
        return _path(n, [c for c in leaf["alphabet"] if c != "/"])
    if kind == "date":
        return _date(form["lo"], form["hi"])
    if kind == "ipv4":
        return _ipv4(n)
    if kind == "integer":  # an optional minus, then digits with no leading zero
        sign = ["-"] if n >= 2 and random.random() < 0.5 else []
        digits = [random.choice(form["digits"]) for _ in range(n - len(sign))]
        lead = [d for d in form["digits"] if d != "0"]
        if len(digits) > 1 and digits[0] == "0":
            if not lead:
                return None
            digits[0] = random.choice(lead)
        return sign + digits if digits != ["0"] or not sign else None
    if kind == "sentence":
        words = _path(n + 1, [chr(c) for c in range(97, 123)])
        return (
            None
            if words is None
            else [*words[1].upper(), *(" " if c == "/" else c for c in words[2:])]
        )
    if kind == "halves":  # half of the string each of two characters, in a random order
        if n % 2:
            return None
        half = [form["chars"][0]] * (n // 2) + [form["chars"][1]] * (n // 2)
        random.shuffle(half)
        return half
    if kind == "count":  # at most "most" of "chars": the ones beyond it redrawn from the others
        spots = [i for i, c in enumerate(row) if c in form["chars"]]
        others = [c for c in leaf["alphabet"] if c not in form["chars"]]
        extra = random.sample(spots, max(0, len(spots) - form["most"]))
        return [random.choice(others) if i in extra else c for i, c in enumerate(row)]
    if kind == "email":
        return _email(n, form, [c for c in leaf["alphabet"] if c != "@"])
    if kind == "version":
        return _version(n, form["digits"])
    if kind == "roman":
        return _roman(n, form["lo"], form["hi"])
    if kind == "number":  # an integer written as a string (runtime_numstr.py)
        return _number_text(n, form)
    out: list = []
    for part in form["parts"]:
        if isinstance(part, str):
            out += list(part)
        else:
            out += list(str(random.randint(part[2], part[3])).zfill(part[1]))
    if form.get("mask"):  # some digits hidden: none, a few, half or all of them
        rate = random.choice((0.0, 0.25, 0.5, 0.5, 1.0))
        out = [form["mask"] if c.isdigit() and random.random() < rate else c for c in out]
    return out


def _relate(spec: dict, args: list) -> list:
    """Two arguments of one format compared whole (``spec["relations"]``: ``[a, op, b]``,
    indices of parameters): swapped when out of order (both have one spec, so either may hold
    either value); equal ones where they must differ (or be strictly ordered) make the draw
    None, so the input is drawn again. ``pairs``: the pairs ``[a[i], b[i]]`` distinct, a
    repeated one's ``b[i]`` (a format or a date) drawn again."""
    out = list(args)
    for a, op, b in spec["relations"]:
        if op == "pairs":  # [a[i], b[i]] unique: b[i] of a repeated pair drawn again
            seen = set()
            for i, x in enumerate(out[a]):
                tries = 0
                while (x, out[b][i]) in seen:
                    tries += 1
                    if tries > 100:
                        return [None]
                    p = spec["params"][b]
                    out[b][i] = "".join(_shaped(p["form"], [], p["leaf"]) or [])
                seen.add((x, out[b][i]))
            continue
        if out[a] == out[b] and op in ("!=", "<", ">"):
            return [None]
        if (op in ("<=", "<") and out[a] > out[b]) or (op in (">=", ">") and out[a] < out[b]):
            out[a], out[b] = out[b], out[a]
    return out


def _path(n: int, others: list) -> list | None:
    """An absolute path of ``n`` characters: ``/`` then names of ``others`` (each at least one
    character; ``.`` and ``..`` now and then where the alphabet has ``.``) joined by single
    slashes, no slash at the end (``/`` alone when ``n`` is 1); None when ``n`` is 0."""
    if n < 1:
        return None
    room = n - 1  # the names and the slashes between them
    count = random.randint(1, (room + 1) // 2) if room else 0
    letters = room - (count - 1) if count else 0
    cuts = sorted(random.sample(range(1, letters), count - 1)) if count > 1 else []
    sizes = [b - a for a, b in zip([0, *cuts], [*cuts, letters], strict=True)] if count else []
    names = []
    for size in sizes:
        if "." in others and size <= 2 and random.random() < 0.3:
            names.append("." * size)
        else:
            names.append("".join(random.choice(others) for _ in range(size)))
    return list("/" + "/".join(names))


def _version(n: int, most: int) -> list | None:
    """A version number of ``n`` characters: revisions of 1 to ``most`` digits (leading zeros
    allowed) joined by dots; None when ``n`` is 0."""
    if n < 1:
        return None
    count = random.randint(-(-(n + 1) // (most + 1)), (n + 1) // 2)
    sizes = [1] * count
    for _ in range(n - (count - 1) - count):  # the digits beyond one per revision
        i = random.choice([j for j, k in enumerate(sizes) if k < most])
        sizes[i] += 1
    return list(".".join("".join(random.choice("0123456789") for _ in range(k)) for k in sizes))


def _email(n: int, form: dict, chars: list) -> list | None:
    """``n`` characters: a local name (not starting with ``not_first``), ``@``, a domain name
    that ends with ``suffix`` (at least one character before it); each name at least one
    character of ``chars``. None when ``n`` leaves no room."""
    suffix = form["suffix"]
    room = n - 1 - len(suffix)  # the local name and the domain's characters before its suffix
    first = [c for c in chars if c != form["not_first"]]
    if room < 2 or not first:
        return None
    local = random.randint(1, room - 1)
    name = [random.choice(first)] + [random.choice(chars) for _ in range(local - 1)]
    domain = [random.choice(chars) for _ in range(room - local)]
    return [*name, "@", *domain, *suffix]


def _ipv4(n: int) -> list | None:
    """An IPv4 address of ``n`` characters: four numbers of 1 to 3 digits each (0-9, 10-99,
    100-255: no leading zeros), joined by dots; None when no address has that length."""
    for _ in range(1000):
        sizes = [random.randint(1, 3) for _ in range(4)]
        if sum(sizes) + 3 == n:
            ranges = {1: (0, 9), 2: (10, 99), 3: (100, 255)}
            return list(".".join(str(random.randint(*ranges[k])) for k in sizes))
    return None


def _roman(n: int, lo: int, hi: int) -> list | None:
    """The roman numeral of ``n`` characters of a random number in [lo, hi] (None if none has
    that length): thousands, hundreds, tens and ones, each written by the subtractive rule."""
    fits = []
    for v in range(lo, hi + 1):
        text = "M" * (v // 1000)
        for ones, fives, tens, d in (
            ("C", "D", "M", v // 100 % 10),
            ("X", "L", "C", v // 10 % 10),
            ("I", "V", "X", v % 10),
        ):
            text += [
                "",
                ones,
                ones * 2,
                ones * 3,
                ones + fives,
                fives,
                fives + ones,
                fives + ones * 2,
                fives + ones * 3,
                ones + tens,
            ][d]
        if len(text) == n:
            fits.append(text)
    return list(random.choice(fits)) if fits else None


def _date(lo: list, hi: list) -> list | None:
    """A valid Gregorian date in [lo, hi] (``[y, m, d]`` each) as YYYY-MM-DD: a year, a month
    and a day of that month drawn until the date is in the range (None after 1000 tries)."""
    for _ in range(1000):
        y, m = random.randint(lo[0], hi[0]), random.randint(1, 12)
        leap = y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)
        days = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
        d = random.randint(1, days)
        if lo <= [y, m, d] <= hi:
            return list(f"{y:04}-{m:02}-{d:02}")
    return None


def _mountain(n: int, lo: int, hi: int) -> list | None:
    """``n`` >= 3 values in [lo, hi], strictly increasing to a peak at an index in [1, n - 2],
    strictly decreasing after it; None when the range is too narrow for the side drawn."""
    if n < 3:
        return None
    peak = random.randint(1, n - 2)
    need = max(peak, n - 1 - peak)  # values below the peak that one side needs
    if hi - lo < need:
        return None
    top = random.randint(lo + need, hi)
    left = sorted(random.sample(range(lo, top), peak))
    right = sorted(random.sample(range(lo, top), n - 1 - peak), reverse=True)
    return [*left, top, *right]


def _balanced(n: int, others: list) -> list | None:
    """A string of ``n`` characters whose parentheses are balanced: ``pairs`` of them (all when
    the alphabet has no other character; then ``n`` must be even), placed at random positions,
    the rest drawn from ``others``."""
    if not others:
        if n % 2:
            return None
        pairs = n // 2
    else:
        pairs = random.randint(0, n // 2)
    seq = []
    opened = depth = 0
    for i in range(2 * pairs):
        left = 2 * pairs - i  # characters still to place
        if opened < pairs and (depth == 0 or (depth < left and random.random() < 0.5)):
            seq.append("(")
            opened += 1
            depth += 1
        else:
            seq.append(")")
            depth -= 1
    spots = set(random.sample(range(n), 2 * pairs))
    it = iter(seq)
    return [next(it) if i in spots else random.choice(others) for i in range(n)]


# emitted with the rest of the runtime (runtime.py's _RUNTIME)
FORMS_RUNTIME = (
    _shaped,
    _mountain,
    _balanced,
    _path,
    _date,
    _version,
    _email,
    _ipv4,
    _roman,
    _relate,
)
