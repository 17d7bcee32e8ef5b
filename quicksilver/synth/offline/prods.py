"""Products, powers, factorials and binomials in bounds, beyond what :mod:`.nonlinear` reads
(issue 26: arithmetic in bounds). Only where the bound is met exactly; a line read before is read
as before (this reader runs where :func:`~.nonlinear.read_nonlinear` finds nothing to read, and
leaves every line that names an element to :mod:`.arith`).

- **More expressions** in a bound on one quantity (a ``poly`` bound, nonlinear.py): a factorial
  ``1 <= k <= n!``, a binomial coefficient ``1 <= k <= nCr(m + n, n)`` (also ``C(a, b)``,
  ``comb(a, b)``; a closing ``where nCr(a, b) denotes a choose b`` is the definition), the
  larger of two values on the greater side (``1 <= word.length <= max(m, n)``: a ``max`` in the
  expression, where the chain reads it as a disjunction it cannot place), a whole side in
  parentheses (``0 <= flights.length <= (n * (n - 1) / 2)``). Not a sum of quantities below a
  product (``2 <= guards.length + walls.length <= m * n``): the sizes are drawn before the
  product's factors, and the later one could only be met by drawing again (in perf mode, where
  sizes are at their greatest, never).
- **A bound on the expression itself**, with numbers on the other sides: ``2 <= m * n``,
  ``1 <= k^n <= 4096``, ``1 <= a * b * c <= 10^18``. The spec's ``"prod_in"`` on the quantity
  of the expression drawn last (``[{"expr", "lo", "hi", "text"}]``): the runtime
  (:mod:`.runtime_prods`) narrows its range to the values that keep the expression within
  [lo, hi] given the ones drawn before (the expression grows with each of its quantities, so
  they are one interval, found by bisection); where none is left, everything is drawn again.
  Each quantity is also bounded by what the others' least (greatest) values leave it (an
  implied bound, which every valid input meets), so that an earlier draw rarely leaves the
  last none. Only for an expression of ``+ * ^ ! max min`` over quantities whose stated least
  values are at least 0 (at least 1 for the base of a power whose exponent is a quantity), so
  that it grows with each of them; otherwise refused.
- **A range sentence** with such a bound (``The number of nodes in the list is in the range
  [1, m * n]``) is restated as the chain it means (:func:`prod_wordings`, through
  ``wording.restate``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from quicksilver.synth.offline.constraints import REF_RE, Lin, Ref, Unsupported, tokenize
from quicksilver.synth.offline.nonlinear import (
    PolyParser,
    facts_mention,
    interval,
    names,
    rename,
)
from quicksilver.synth.offline.nonlinear import read_nonlinear as _read_nonlinear
from quicksilver.synth.offline.prod_ops import MAX_FACTORIAL

Acts = list[Callable[[], None]]
Expr = Any

_TOKEN = re.compile(r"\s*(?:(?P<num>\d+)|(?P<ref>" + REF_RE.pattern + r")|(?P<op>[-+*/^()!,]))")
_BINOMIAL = {"ncr": "C", "c": "C", "comb": "C", "binom": "C"}
_EXTREMES = {"max": "max", "min": "min"}
# ``, where nCr(a, b) denotes a choose b``: the definition of a binomial's name, at the end
_WHERE = re.compile(
    r"(?P<rest>.+?),?\s+where (?P<f>\w+)\((?P<a>\w+),\s*(?P<b>\w+)\) (?:denotes|is|means|"
    r"represents) (?:(?P=a) choose (?P=b)|the binomial coefficient(?: of (?P=a) and (?P=b))?|"
    r"the number of ways to choose (?P=b) (?:items )?(?:out )?of (?P=a)(?: items)?)",
    flags=re.I,
)
_NONLINEAR = re.compile(
    r"\w\s*\*\s*[A-Za-z_(]|[A-Za-z_)]\s*\*\s*\w|\^|!|\b(?:ncr|comb|binom|c)\(", flags=re.I
)


def _unwrap(text: str) -> str:
    """``(n * (n - 1) / 2)``: the inside of parentheses that hold the whole text."""
    text = text.strip()
    while text.startswith("(") and text.endswith(")"):
        depth = 0
        for i, ch in enumerate(text):
            depth += (ch == "(") - (ch == ")")
            if depth == 0 and i < len(text) - 1:
                return text
        text = text[1:-1].strip()
    return text


class ExprParser(PolyParser):
    """:class:`~.nonlinear.PolyParser` with a postfix factorial (``n!``), binomials
    (``nCr(a, b)``), ``max(a, b)`` / ``min(a, b)`` and a whole text in parentheses."""

    def __init__(self, text: str, resolve: Callable[[str], Ref], binomials: set[str]) -> None:
        super().__init__("0", resolve)
        self.tokens = tokenize(_unwrap(text), _TOKEN)
        self.binomials = binomials

    def _power(self) -> Expr:
        base = self._factorial()
        if self._peek() == "^":
            self.i += 1
            return ["^", base, self._factorial()]
        return base

    def _factorial(self) -> Expr:
        out = self._call()
        while self._peek() == "!":
            self.i += 1
            out = ["!", out, 0]
        return out

    def _call(self) -> Expr:
        """``nCr(a, b)``, ``max(a, b)``: a function of two arguments, or any other atom."""
        toks = self.tokens
        if self.i + 1 < len(toks) and toks[self.i][0] == "ref" and toks[self.i + 1][1] == "(":
            name = toks[self.i][1].lower()
            op = _EXTREMES.get(name) or (_BINOMIAL.get(name) if name in self.binomials else None)
            if op is None:
                raise Unsupported(f"an unknown function {toks[self.i][1]}(...)")
            self.i += 2
            a = self._expr()
            if self._peek() != ",":
                raise Unsupported(f"{name}(...) with one argument")
            self.i += 1
            b = self._expr()
            if self._peek() != ")":
                raise Unsupported(f"{name}(...) with more than two arguments")
            self.i += 1
            return [op, a, b]
        return self._atom()


def read_nonlinear(text: str, line: str, facts: Any, cmp: Any, acts: Acts) -> bool:
    """:func:`~.nonlinear.read_nonlinear`, then this module's forms where it reads nothing."""
    return _read_nonlinear(text, line, facts, cmp, acts) or read_prods(text, line, facts, cmp, acts)


def _constant(expr: Expr) -> int | None:
    """The value of an expression that names no quantity (None where it names one)."""
    if isinstance(expr, int):
        return expr
    if isinstance(expr, str):
        return None
    a, b = _constant(expr[1]), _constant(expr[2])
    if a is None or b is None or (expr[0] in ("!", "C") and not 0 <= a <= MAX_FACTORIAL):
        return None
    if expr[0] == "^" and (b < 0 or b > 256):
        return None
    ops: dict[str, Callable[[int, int], int]] = {
        "+": lambda x, y: x + y,
        "-": lambda x, y: x - y,
        "*": lambda x, y: x * y,
        "^": lambda x, y: x**y,
        "!": lambda x, _: math.factorial(x),
        "C": lambda x, y: math.comb(x, y) if y >= 0 else 0,
        "max": max,
        "min": min,
    }
    return ops[expr[0]](a, b)


def _item(text: str, facts: Any, binomials: set[str]) -> tuple[Any, ...] | None:
    """One item of a side: ``("lin", Lin)`` over quantities, or ``("expr", expr, den)``; None
    where it names an element or is not read (the line is then left to the other readers)."""
    try:
        lin = facts.parse(text)
    except Unsupported:
        lin = None
    if lin is not None:
        return ("lin", lin) if all(r.kind == "q" for r in lin.terms) else None
    try:
        expr, den = ExprParser(text, facts.resolve, binomials).parse()
    except Unsupported:
        return None
    value = _constant(expr)
    if value is not None:
        return ("lin", Lin(Fraction(value, den)))
    return ("expr", expr, den)


def _lin_expr(lin: Lin) -> Expr | None:
    """A linear form over quantities with integer coefficients as an expression."""
    if lin.const.denominator != 1 or any(c.denominator != 1 for c in lin.terms.values()):
        return None
    out: Expr = int(lin.const)
    for ref, coef in lin.terms.items():
        term = ref.key if coef == 1 else ["*", int(coef), ref.key]
        out = term if out == 0 else ["+", out, term]
    return out


def _fold(op: str, items: list[tuple[Any, ...]]) -> tuple[Any, ...] | None:
    """``max(a, b, c)`` on the greater side of a bound as one expression (None: not one, or one
    of numbers only, which the chain reports as before)."""
    exprs = []
    for it in items:
        if it[0] == "expr" and it[2] != 1:
            return None
        exprs.append(it[1] if it[0] == "expr" else _lin_expr(it[1]))
    if any(e is None for e in exprs):
        return None
    out = exprs[0]
    for e in exprs[1:]:
        out = [op, out, e]
    return ("expr", out, 1) if names(out) else None  # max(5, 10): left to the chain


def _side_items(seg: str, facts: Any, binomials: set[str]) -> tuple[str, list[Any]] | None:
    m = re.fullmatch(r"(min|max)\s*\((.*)\)", seg, flags=re.I)
    raw = _args(m.group(2)) if m else [seg]
    items = [_item(i, facts, binomials) for i in raw]
    if any(i is None for i in items) or (m and len(items) < 2):
        return None
    return (m.group(1).lower() if m else "one"), items


def _args(text: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return [*out, cur.strip()]


def _flip(op: str) -> str:
    return {"<=": ">=", "<": ">", ">=": "<=", ">": "<", "==": "=="}[op]


def read_prods(text: str, line: str, facts: Any, cmp: Any, acts: Acts) -> bool:
    """A chain with a factorial, binomial, ``max`` on the greater side, or a product compared
    with numbers only (the module's docstring). False where none
    applies or an item names an element: the line is read, or reported, as before."""
    binomials = set(_BINOMIAL)
    m = _WHERE.fullmatch(text)
    if m:  # ``..., where nCr(a, b) denotes a choose b``: the definition of a known name
        text = m["rest"]
        if m["f"].lower() not in binomials:
            return False
    if not _NONLINEAR.search(text) and not re.search(r"\bmax\s*\(|\bmin\s*\(", text):
        return False
    parts = re.split(r"(<=|>=|==|!=|<|>)", text)
    if len(parts) < 3 or "!=" in parts[1::2]:
        return False
    ops, segs = parts[1::2], [s.strip() for s in parts[0::2]]
    sides = [_side_items(seg, facts, binomials) for seg in segs]
    if any(s is None for s in sides):
        return False
    links: list[tuple[Any, str, Any]] = []
    for i, op in enumerate(ops):
        (ka, a), (kb, b) = sides[i], sides[i + 1]  # type: ignore[misc]
        if op == "==" and (ka != "one" or kb != "one"):
            return False
        small, big = ((ka, a), (kb, b)) if op in ("<=", "<", "==") else ((kb, b), (ka, a))
        lows = [_fold("min", small[1])] if small[0] == "min" else small[1]
        highs = [_fold("max", big[1])] if big[0] == "max" else big[1]
        if any(x is None for x in (*lows, *highs)):
            return False
        rel = "<=" if op in ("<=", ">=") else "<" if op in ("<", ">") else "=="
        links += [(x, rel, y) for x in lows for y in highs]
    if not any(x[0] == "expr" or y[0] == "expr" for x, _, y in links):
        return False
    queued: Acts = []
    for x, op, y in links:
        if x[0] == "lin" and y[0] == "lin":
            cmp.relate(x[1], op, y[1], line, queued)
        elif x[0] == "expr" and y[0] == "expr":
            return False  # two expressions compared: not read
        elif not _expr_link(x, op, y, line, facts, queued):
            return False
    acts += queued
    return True


def _expr_link(x: Any, op: str, y: Any, line: str, facts: Any, acts: Acts) -> bool:
    """``x op y`` with one side an expression: a bound on one quantity (``poly``), or on the
    expression itself (numbers on the other side)."""
    lin, op, (expr, den) = (x[1], op, y[1:]) if y[0] == "expr" else (y[1], _flip(op), x[1:])
    # now: lin op expr / den
    if not lin.terms:
        if den != 1:
            return False
        c = lin.const  # c op expr: a least value of expr (<=, <) or a greatest (>=, >)
        if op == "==" and c.denominator != 1:
            return False
        lo = math.ceil(c) if op in ("<=", "==") else math.floor(c) + 1 if op == "<" else None
        hi = math.floor(c) if op in (">=", "==") else math.ceil(c) - 1 if op == ">" else None
        acts.append(lambda: facts.prod_bounds.append((expr, lo, hi, line)))
        facts_mention(facts, names(expr), line, acts)
        return True
    ref = lin.single()
    if ref is None or ref.kind != "q" or ref.key in names(expr):
        return False  # a sum of quantities below a product: not read (the docstring)
    key, num = ref.key, expr
    acts.append(lambda: facts.polys.append((key, op, num, den, line)))
    facts_mention(facts, {key, *names(num)}, line, acts)
    return True


def tame_power(
    expr: Expr, den: int, op: str, hi: int | None, ranges: dict[str, tuple[int, int]]
) -> Expr:
    """``k <= min(2000, 2^n)`` with n up to 10^5: a power too large to bound (an exponent above
    256) over a quantity that a number bounds as well is ``2^min(n, t)``, t the least exponent
    whose power is above that number (then the bound holds whatever n is, as it does for every
    n >= t). The same bound for every value k may take; ``expr`` unchanged elsewhere (so every
    spec read before is unchanged: their powers are bounded)."""
    if interval(expr, ranges) is not None or hi is None or op not in ("<=", "<") or den != 1:
        return expr
    if not (isinstance(expr, list) and expr[0] == "^" and isinstance(expr[1], int)):
        return expr
    exponent = interval(expr[2], ranges)
    if expr[1] < 2 or exponent is None or exponent[0] < 0:
        return expr
    t = 0
    while expr[1] ** t <= hi:
        t += 1
    return ["^", expr[1], ["min", expr[2], t]]


# -- a range sentence with such a bound ---------------------------------------------------------

_RANGE = re.compile(
    r"(?P<s>.+?) (?:is|are|will be)(?: always)? (?:(?:in|within) )?the range (?:of )?"
    r"\[(?P<lo>[^\[\],]+),\s*(?P<hi>[^\[\]]+)\](?:,? inclusive)?",
    flags=re.I,
)


def prod_wordings(text: str, facts: Any) -> list[list[str]]:
    """``The number of nodes in the list is in the range [1, m * n]``, ``k is in the range [1,
    n!]``: the chain ``1 <= head.length <= m * n``, where a range end is such an expression
    (the range sentence's own reader refuses it). The subject is a quantity's name, or the
    node count of the one linked list (or list) a phrase names."""
    m = _RANGE.fullmatch(text)
    if not m or not any(_NONLINEAR.search(m[k]) for k in ("lo", "hi")):
        return []
    subject = m["s"].strip()
    if not REF_RE.fullmatch(subject):
        n = re.fullmatch(r"the (?:total )?number of (?:the )?nodes in (.+)", subject, flags=re.I)
        if n is None:
            return []
        try:
            found = facts.structure_params(n.group(1))
        except Unsupported:
            return []
        p = facts.by_name[found[0]] if len(found) == 1 else None
        if p is None or p.tree:
            return []
        subject = f"{p.name}.length"
    return [[f"{m['lo']} <= {subject} <= {m['hi']}"]]


# -- the spec: each bound on an expression on the quantity drawn last -----------------------------


def _const_range(item: dict[str, Any]) -> tuple[int | None, int | None]:
    """A quantity's least and greatest value by its constant bounds alone (None: none)."""
    lo = hi = None
    for b in item["bounds"]:
        if not isinstance(b["rest"], int):
            continue
        if b["coef"] > 0:
            v = -(b["rest"] // b["coef"])
            lo = v if lo is None else max(lo, v)
        else:
            v = b["rest"] // -b["coef"]
            hi = v if hi is None else min(hi, v)
    return lo, hi


def _grows(expr: Expr, lows: dict[str, int | None]) -> int | None:
    """The least value of ``expr`` when it grows with each of its quantities (none below 0,
    the base of a power with a quantity in its exponent at least 1); None when it may not."""
    if isinstance(expr, int):
        return expr if expr >= 0 else None
    if isinstance(expr, str):
        low = lows.get(expr)
        return low if low is not None and low >= 0 else None
    op = expr[0]
    if op not in ("+", "*", "^", "!", "max", "min"):
        return None
    a, b = _grows(expr[1], lows), _grows(expr[2], lows)
    if a is None or b is None:
        return None
    if op == "^" and names(expr[2]) and a < 1:
        return None
    return _capped([op, a, b], {}, 2**64)  # its least value (capped: only its sign matters)


def _apply(op: str, a: int, b: int) -> int:
    """An operation of an expression that grows on its operands' values ``a`` and ``b``."""
    if op == "+":
        return a + b
    if op == "*":
        return a * b
    if op == "^":
        return a**b
    if op == "!":
        return math.factorial(a)
    return max(a, b) if op == "max" else min(a, b)


def _capped(expr: Expr, q: dict[str, int], cap: int) -> int:
    """``expr`` on ``q``, at most ``cap`` (every operation grows, so a value over the cap stays
    over it: no huge power or factorial is built)."""
    if isinstance(expr, int):
        return min(expr, cap)
    if isinstance(expr, str):
        return min(q[expr], cap)
    a, b = _capped(expr[1], q, cap), _capped(expr[2], q, cap)
    op = expr[0]
    if op == "^" and a >= 2 and b >= cap.bit_length():
        return cap
    if op == "!" and a > MAX_FACTORIAL:
        return cap
    return min(_apply(op, a, b), cap)


def _implied(
    expr: Expr, key: str, ranges: dict[str, tuple[int, int]], lo: int | None, hi: int | None
) -> tuple[int | None, int | None]:
    """The range of ``key`` that leaves the expression room in [lo, hi] with the others at
    their least (for hi) or greatest (for lo) stated values: bounds every valid input meets."""
    k_lo, k_hi = ranges[key]
    cap = max(lo or 0, hi or 0) + 1
    least = {k: r[0] for k, r in ranges.items()}
    most = {k: r[1] for k, r in ranges.items()}
    new_lo = new_hi = None
    if hi is not None:  # the greatest x with E(x, others least) <= hi
        a, z = k_lo, k_hi
        if _capped(expr, {**least, key: a}, cap) <= hi:
            while a < z:
                mid = (a + z + 1) // 2
                a, z = (mid, z) if _capped(expr, {**least, key: mid}, cap) <= hi else (a, mid - 1)
            new_hi = a
        else:
            new_hi = k_lo - 1
    if lo is not None:  # the least x with E(x, others greatest) >= lo
        a, z = k_lo, k_hi
        if _capped(expr, {**most, key: z}, cap) >= lo:
            while a < z:
                mid = (a + z) // 2
                a, z = (a, mid) if _capped(expr, {**most, key: mid}, cap) >= lo else (mid + 1, z)
            new_lo = a
        else:
            new_lo = k_hi + 1
    return new_lo, new_hi


def attach_prod_bounds(
    facts: Any,
    quantities: list[dict[str, Any]],
    classes: dict[str, str],
    problems: list[str],
    notes: list[str],
) -> None:
    """Each bound on an expression (``facts.prod_bounds``) as ``"prod_in"`` on the quantity of
    the expression drawn last, and each quantity's implied range as bounds of its own."""
    order = {item["name"]: i for i, item in enumerate(quantities)}
    ranges = {item["name"]: _const_range(item) for item in quantities}
    below = {classes.get(k, k) for k, *_ in facts.below_sums}
    merged: dict[tuple[str, str], list[Any]] = {}  # one line's least and greatest values
    for expr, lo, hi, line in facts.prod_bounds:
        e = rename(expr, lambda k: classes.get(k, k))
        got = merged.setdefault((repr(e), line), [e, None, None, line])
        got[1] = lo if got[1] is None else got[1] if lo is None else max(got[1], lo)
        got[2] = hi if got[2] is None else got[2] if hi is None else min(got[2], hi)
    for e, lo, hi, line in merged.values():
        used = names(e)
        if not used <= order.keys() or used & below:
            problems.append(f'"{line}": a product or power of quantities not drawn one by one')
            continue
        known = {k: r for k, r in ranges.items() if k in used and None not in r}
        if known.keys() != used or _grows(e, {k: r[0] for k, r in known.items()}) is None:
            problems.append(
                f'"{line}": a bound on an expression that may not grow with its quantities '
                "(one with no stated range, or below 0)"
            )
            continue
        last = max(used, key=order.__getitem__)
        quantities[order[last]].setdefault("prod_in", []).append(
            {"expr": e, "lo": lo, "hi": hi, "text": line}
        )
        for k in sorted(used, key=order.__getitem__):
            k_lo, k_hi = _implied(e, k, known, lo, hi)  # type: ignore[arg-type]
            item = quantities[order[k]]
            if k_lo is not None and k_lo > known[k][0]:
                item["bounds"].append({"coef": 1, "rest": -k_lo, "text": f"{line} (implied)"})
            if k_hi is not None and k_hi < known[k][1]:
                item["bounds"].append({"coef": -1, "rest": k_hi, "text": f"{line} (implied)"})
            if (k_lo if k_lo is not None else known[k][0]) > (
                k_hi if k_hi is not None else known[k][1]
            ):
                problems.append(f'"{line}": no value of {k} meets it with the others in range')
        others = sorted(used - {last}, key=order.__getitem__)
        notes.append(f"{last} drawn so that {line} holds, after {', '.join(others) or 'nothing'}")
