"""Arithmetic in bounds that the linear chain reader refuses, where it can be met exactly.

- An element bounded by a product or power of quantities: ``0 <= grid[i][j] < n * n``,
  ``1 <= arr[i], mat[r][c] <= m * n``, ``0 <= nums[i] < 2^maximumBit``,
  ``1 <= a_i, b_i <= 2^n - 1``, ``0 <= queries[i] < n * (n - 1) / 2``. The expression becomes
  a *derived* quantity (``facts.derived``) whose value the runtime sets exactly once the
  quantities it names are drawn: a nonlinear bound ``==`` (nonlinear.py), or, over a divisor,
  the pair of bounds that pins it to the floor or the ceiling the comparison needs (an integer
  ``x < r`` is ``x < ceil(r)``, ``x <= r`` is ``x <= floor(r)``). The element's bound is then
  linear in that quantity, as ``0 <= nums[i] < n`` is. A derived quantity is compared with
  elements only: a bound on it would be a bound on the product, which the runtime could only
  meet by drawing again (a product compared with numbers alone, ``2 <= m * n``, is read by
  :mod:`.prods`).
- Comma lists beside a product (``0 <= a, b <= min(m * n, 6)``): one chain per item.
- The largest element below a scalar: ``max(plants[i]) <= capacity`` is ``plants[i] <=
  capacity``, and capacity at least the elements' least value (:func:`_implied`).
- An upper bound by a floor: ``1 <= k <= floor(nums.length / 3)`` is ``k <= nums.length / 3``
  for an integer k (and a lower bound by a ceiling likewise).
- A number times a name: ``nums.length == 2n`` is ``nums.length == 2 * n``.
- Values by cases: ``grid[i][j] == 0 or 1`` (a value set), ``nums[i] == -1 or 1 <= nums[i] <=
  100`` and ``1 <= |nums[i]| <= 10^5`` (a range with a few values excluded, ``ne``); a gap of
  more than :data:`MAX_GAP` values is refused.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from typing import Any

from quicksilver.synth.offline.constraints import REF_RE, Lin, Ref, Unsupported, split_top
from quicksilver.synth.offline.nonlinear import facts_mention, names, parse_poly, read_nonlinear

Acts = list[Callable[[], None]]
MAX_GAP = 16  # values a range may skip between a stated value and the rest (``ne``)
_OPS = re.compile(r"(<=|>=|==|!=|<|>|(?<![<>=!])=(?!=))")
_NUM = r"-?\d+(?:\^\d+)?"


def _flip(op: str) -> str:
    return {"<=": ">=", "<": ">", ">=": "<=", ">": "<", "==": "=="}[op]


def read_arith(
    text: str,
    line: str,
    facts: Any,
    cmp: Any,
    acts: Acts,
    value_set: Callable[[str, list[Any], Acts], None],
) -> bool:
    """A comparison the chain reader refuses, read by one of the forms above; False where none
    applies (the chain then reads or reports the line as before). A line the chain reads is
    left to it, so nothing read before changes."""
    if not re.search(r"[*^|(]|\bor\b|\d[A-Za-z_]", text):
        return False
    try:
        cmp.chain(text, [], line)
        return False  # the chain reads it: as before
    except Unsupported:
        pass
    for form in (_cases, _magnitude):
        if form(text, line, facts, cmp, acts, value_set):
            return True
    found: list[tuple[str, str, str, str]] = []
    rewritten = _juxtaposed(_floors(_extremes(text, found)))
    if _read_one(rewritten, text, line, facts, cmp, acts):
        acts += _implied(found, line, facts, cmp)
        return True
    # comma lists beside a product (``0 <= a, b <= min(m * n, 6)``): one chain per item
    chains = _expand(rewritten)
    trial: Acts = []
    if len(chains) > 1 and all(_read_one(c, text, line, facts, cmp, trial) for c in chains):
        acts += trial
        return True
    return False


def _read_one(text: str, original: str, line: str, facts: Any, cmp: Any, acts: Acts) -> bool:
    """``text`` (a rewriting of ``original``) read as a bound by a product of one quantity
    (nonlinear.py), or of elements (a derived quantity); False, adding nothing, otherwise."""
    trial: Acts = []
    try:
        if text != original and read_nonlinear(text, line, facts, cmp, trial):
            acts += trial
            return True
        trial = []
        rewritten = _derived(text, line, facts, trial)
        if rewritten == original:
            return False
        cmp.chain(rewritten, trial, line)
    except Unsupported:
        return False
    acts += trial
    return True


def _expand(text: str) -> list[str]:
    """A chain with comma lists as the chains of its items' combinations."""
    parts = _OPS.split(text)
    segs = [split_top(s) for s in parts[0::2]]
    ops = parts[1::2]
    out = []
    for combo in itertools.product(*segs):
        out.append(" ".join(x for pair in zip(combo, [*ops, ""], strict=True) for x in pair))
    return [c.strip() for c in out]


def _floors(text: str) -> str:
    """``k <= floor(nums.length / 3)`` -> ``k <= nums.length / 3``: only a floor on the larger
    side of a ``<=`` (a ceiling on the smaller side of a ``<=``), where the two agree on
    integers; inside ``min(...)`` too (each argument is an upper bound)."""
    parts = _OPS.split(text)
    ops = parts[1::2]
    for i in range(0, len(parts), 2):
        seg = parts[i].strip()
        before = ops[i // 2 - 1] if i else None
        after = ops[i // 2] if i // 2 < len(ops) else None
        upper = (before in ("<=", None) and after in (">=", None)) and (before or after)
        lower = (before in (">=", None) and after in ("<=", None)) and (before or after)
        inner = re.fullmatch(r"min\s*\((.*)\)", seg, flags=re.I)
        if inner and upper:
            args = [_unround(a, "floor") for a in split_top(inner.group(1))]
            parts[i] = f" min({', '.join(args)}) "
        elif upper:
            parts[i] = f" {_unround(seg, 'floor')} "
        elif lower:
            parts[i] = f" {_unround(seg, 'ceil')} "
    return "".join(parts).strip()


def _extremes(text: str, found: list[tuple[str, str, str, str]]) -> str:
    """``max(plants[i]) <= capacity`` -> ``plants[i] <= capacity``: the largest element on the
    smaller side of a comparison (the smallest on the larger side) bounds every element so.
    ``found`` gains (max|min, the element, op, a neighbour) for each comparison it meets, read
    as "element op neighbour" (see :func:`_implied`)."""
    parts = _OPS.split(text)
    ops = parts[1::2]
    for i in range(0, len(parts), 2):
        m = re.fullmatch(r"\s*(max|min)\s*\((" + REF_RE.pattern + r")\)\s*", parts[i])
        if not m or "[" not in m.group(2):
            continue
        before = ops[i // 2 - 1] if i else None
        after = ops[i // 2] if i // 2 < len(ops) else None
        small = before in (">=", ">", None) and after in ("<=", "<", None)
        big = before in ("<=", "<", None) and after in (">=", ">", None)
        if (small if m.group(1) == "max" else big) and (before or after):
            parts[i] = f" {m.group(2)} "
            if after:
                found += [(m.group(1), m.group(2), after, o) for o in split_top(parts[i + 2])]
            if before:
                flip = _flip(before)
                found += [(m.group(1), m.group(2), flip, o) for o in split_top(parts[i - 2])]
    return "".join(parts).strip()


def _implied(found: list[tuple[str, str, str, str]], line: str, facts: Any, cmp: Any) -> Acts:
    """``max(plants[i]) <= capacity``: capacity is at least the least value stated for the
    elements before this line (the list has a largest element, so it is not empty); ``min(x[i])
    >= k`` likewise bounds k from above. What the statement implies, so the quantity has the
    bound it needs to be drawn first."""
    acts: Acts = []
    for kind, ref_text, op, other in found:
        ref = facts.resolve(ref_text)
        try:
            q = facts.parse(other).single()
        except Unsupported:
            continue
        if q is None or q.kind != "q" or len(ref.params) != 1:
            continue
        if facts.by_name[ref.params[0]].leaf != "int":
            continue
        info = facts.info(ref.params[0], ref.col)
        strict = op in ("<", ">")

        def act(info: Any = info, q: Ref = q, kind: str = kind, strict: bool = strict) -> None:
            x = Lin(Fraction(0), {q: Fraction(1)})
            sub: Acts = []
            if kind == "max":
                least = [b.const + s for b, s, _ in info.lo if not b.terms]
                if least:
                    cmp.relate(Lin(max(least) + strict), "<=", x, line, sub)
            else:
                most = [b.const - s for b, s, _ in info.hi if not b.terms]
                if most:
                    cmp.relate(x, "<=", Lin(min(most) - strict), line, sub)
            for a in sub:
                a()

        acts.append(act)
    return acts


def _unround(seg: str, kind: str) -> str:
    m = re.fullmatch(rf"{kind}\s*\((.+/\s*\d+)\)", seg.strip(), flags=re.I)
    return m.group(1) if m else seg


def _juxtaposed(text: str) -> str:
    """``2n`` -> ``2 * n`` (not ``10^5``'s digits, nor ``1e9``)."""
    return re.sub(r"(?<![\w.^])(\d+)(?!e\d)([A-Za-z_]\w*)", r"\1 * \2", text)


def _derived(text: str, line: str, facts: Any, acts: Acts) -> str:
    """Each product or power of quantities compared with elements only, replaced by the name
    of a derived quantity pinned to its value (the acts add the pin); ``text`` unchanged when
    a product is compared with anything else."""
    parts = _OPS.split(text)
    if len(parts) < 3:
        return text
    ops = ["==" if o == "=" else o for o in parts[1::2]]
    segs = [split_top(s) for s in parts[0::2]]
    polys: dict[tuple[int, int], tuple[Any, int]] = {}
    for i, items in enumerate(segs):
        for j, item in enumerate(items):
            try:
                facts.parse(item)
                continue
            except Unsupported as exc:
                if "product" not in str(exc) and "power" not in str(exc):
                    return text
            try:
                polys[(i, j)] = parse_poly(item, facts.resolve)
            except Unsupported:
                return text
    if not polys:
        return text
    out = [list(items) for items in segs]
    for (i, j), (expr, den) in polys.items():
        links = []  # each as ``element op expression``
        if i:
            links.append((i - 1, ops[i - 1]))
        if i < len(ops):
            links.append((i + 1, _flip(ops[i])))
        for k, _ in links:
            if any((k, n) in polys or not _is_element(o, facts) for n, o in enumerate(segs[k])):
                return text
        rounds = {_rounding(op) for _, op in links}
        if den != 1 and (len(rounds) != 1 or None in rounds):
            return text
        key = _pin(expr, den, rounds.pop() if den != 1 else None, line, facts, acts)
        out[i][j] = key
    pieces = [", ".join(items) for items in out]
    return " ".join(x for pair in zip(pieces, [*ops, ""], strict=True) for x in pair).strip()


def _is_element(item: str, facts: Any) -> bool:
    try:
        lin = facts.parse(item)
    except Unsupported:
        return False
    ref = lin.single()
    return ref is not None and ref.kind == "leaf"


def _rounding(op: str) -> str | None:
    """How ``x op r`` (x an integer) rounds r: ``x <= r`` and ``x > r`` by its floor, ``x < r``
    and ``x >= r`` by its ceiling; ``x == r`` cannot be rounded."""
    return {"<=": "floor", ">": "floor", "<": "ceil", ">=": "ceil"}.get(op)


def _name(expr: Any) -> str:
    if isinstance(expr, list):
        word = {"+": "plus", "-": "minus", "*": "x", "^": "pow"}[expr[0]]
        return f"{_name(expr[1])}_{word}_{_name(expr[2])}"
    return str(expr)


def _pin(expr: Any, den: int, rounding: str | None, line: str, facts: Any, acts: Acts) -> str:
    """The derived quantity for ``expr / den`` (rounded so where den > 1) and the acts that pin
    it: ``==`` for a whole expression, else two bounds that leave one integer."""
    key = "_" + _name(expr) + (f"_div_{den}_{rounding}" if den != 1 else "")
    if den == 1:
        pins = [("==", expr)]
    elif rounding == "floor":  # floor(e / d): <= e / d and > (e - d) / d
        pins = [("<=", expr), (">", ["-", expr, den])]
    else:  # ceil(e / d): >= e / d and < (e + d) / d
        pins = [(">=", expr), ("<", ["+", expr, den])]

    def act() -> None:
        if key in facts.derived:
            return
        facts.derived.add(key)
        for op, num in pins:
            facts.polys.append((key, op, num, den, line))

    acts.append(act)
    facts_mention(facts, {key, *names(expr)}, line, acts)
    return key


def _cases(
    text: str, line: str, facts: Any, cmp: Any, acts: Acts, value_set: Callable[..., None]
) -> bool:
    """``x == 0 or 1``, ``x == 1 or x == 2``: a value set; ``x == -1 or 1 <= x <= 100``: the
    range from the least to the greatest value, the gap between them excluded."""
    ref = REF_RE.pattern
    m = re.fullmatch(rf"({ref}) ==? ({_NUM}) or (?:\1 ==? )?({_NUM})", text)
    if m:
        value_set(m.group(1), [_int(m.group(2)), _int(m.group(3))], acts)
        return True
    m = re.fullmatch(
        rf"({ref}) ==? ({_NUM}) or ({_NUM}) (<=?) \1 (<=?) ({_NUM})", text
    ) or re.fullmatch(rf"({_NUM}) (<=?) ({ref}) (<=?) ({_NUM}) or \3 ==? ({_NUM})", text)
    if not m:
        return False
    if m.group(1)[0].isdigit() or m.group(1)[0] == "-":
        lo_t, op1, x, op2, hi_t, v_t = m.groups()
    else:
        x, v_t, lo_t, op1, op2, hi_t = m.groups()
    lo = _int(lo_t) + (op1 == "<")
    hi = _int(hi_t) - (op2 == "<")
    v = _int(v_t)
    if lo > hi:
        raise Unsupported("an empty range beside a value")
    gap = range(v + 1, lo) if v < lo else range(hi + 1, v)
    _range_except(x, min(v, lo), max(v, hi), list(gap), line, facts, cmp, acts)
    return True


def _magnitude(
    text: str, line: str, facts: Any, cmp: Any, acts: Acts, value_set: Callable[..., None]
) -> bool:
    """``1 <= |nums[i]| <= 10^5``: values from -10^5 to 10^5 but the ones nearer 0 than 1."""
    m = re.fullmatch(rf"(?:({_NUM}) (<=?) )?\|({REF_RE.pattern})\| (<=?) ({_NUM})", text)
    if not m:
        return False
    lo = 0 if m.group(1) is None else max(0, _int(m.group(1)) + (m.group(2) == "<"))
    hi = _int(m.group(5)) - (m.group(4) == "<")
    if lo > hi:
        raise Unsupported("an empty range of magnitudes")
    _range_except(m.group(3), -hi, hi, list(range(1 - lo, lo)), line, facts, cmp, acts)
    return True


def _int(text: str) -> int:
    sign, text = (-1, text[1:]) if text.startswith("-") else (1, text)
    base, _, power = text.partition("^")
    return sign * (int(base) ** int(power) if power else int(base))


def _range_except(
    target: str, lo: int, hi: int, gap: list[int], line: str, facts: Any, cmp: Any, acts: Acts
) -> None:
    """``lo <= target <= hi`` and ``target != g`` for each g of the gap (an int element)."""
    if len(gap) > MAX_GAP:
        raise Unsupported(f"a range that skips more than {MAX_GAP} values")
    ref = facts.resolve(target)
    if ref.kind != "leaf" or any(facts.by_name[n].leaf != "int" for n in ref.params):
        raise Unsupported(f"values by cases for {target}, which is not a list of integers")
    x = Lin(Fraction(0), {ref: Fraction(1)})
    cmp.relate(Lin(Fraction(lo)), "<=", x, line, acts)
    cmp.relate(x, "<=", Lin(Fraction(hi)), line, acts)
    for g in gap:
        for name in ref.params:
            acts.append(partial(facts.info(name, ref.col).ne.append, g))


def derived_ranges(
    derived: set[str], quantities: list[dict[str, Any]], params: list[dict[str, Any]]
) -> list[str]:
    """The problems of value ranges a derived quantity bounds that could be empty (``1 <= k_i
    <= n * n / 4`` where n may be 1): every low bound must be at most every high bound for all
    the values the quantities take within their constant bounds, or the runtime would meet a
    range it cannot draw from."""
    if not derived:
        return []
    least: dict[str, int] = {}
    most: dict[str, int] = {}
    for item in quantities:
        for b in item["bounds"]:
            if isinstance(b["rest"], int) and b["coef"] in (1, -1):
                name, v = item["name"], -b["rest"] * b["coef"]
                if b["coef"] == 1:
                    least[name] = max(least.get(name, v), v)
                else:
                    most[name] = min(most.get(name, v), v)
    out: list[str] = []
    for p in params:
        leaves = [p["leaf"]] if isinstance(p.get("leaf"), dict) else []
        for leaf in [*leaves, *p.get("cols", [])]:
            los, his = leaf.get("lo", []), leaf.get("hi", [])
            if not any(isinstance(f, dict) and derived & set(f["terms"]) for f in los + his):
                continue
            if not all(_room(lo, hi, least, most) for lo in los for hi in his):
                out.append(f"{p['name']}: a value range bounded by a product that may be empty")
                break
    return out


def _room(lo: Any, hi: Any, least: dict[str, int], most: dict[str, int]) -> bool:
    """Whether ``hi - lo >= 0`` whatever values the quantities take within their bounds."""
    terms: dict[str, int] = {}
    const = 0
    for form, sign in ((hi, 1), (lo, -1)):
        if isinstance(form, dict):
            const += sign * form["const"]
            for t, c in form["terms"].items():
                terms[t] = terms.get(t, 0) + sign * c
        else:
            const += sign * form
    for t, c in terms.items():
        if c and (least if c > 0 else most).get(t) is None:
            return False
        const += c * (least[t] if c > 0 else most[t]) if c else 0
    return const >= 0


__all__ = ["MAX_GAP", "derived_ranges", "read_arith"]
