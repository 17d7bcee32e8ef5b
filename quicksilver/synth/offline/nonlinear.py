"""Bounds of a quantity by a product or a power of others: ``edges.length <= n * (n - 1) / 2``,
``1 <= k <= 2^n - 1``, ``sums.length == 2^n``, ``k <= min(10^9, n * (n + 1) / 2)``.

Such a bound is not linear, so the schedule cannot place it as it places the others. It is kept
as an expression (:func:`parse_poly`) and the runtime applies it exactly once the quantities it
names are drawn (the bounded quantity waits for them). For the schedule's own reasoning it adds
only what the expression implies: a constant bound from the ranges of the quantities it names
(interval arithmetic, :func:`interval`), which every input meeting the exact bound also meets.

An expression is an ``int``, a quantity's name (``str``) or ``[op, a, b]`` with ``op`` one of
``+ - * ^``; a bound is ``{"num": expr, "den": d, "op": op, "text": line}``: the quantity
``op`` ``num / d``, ``op`` one of ``<= < >= > ==`` (``d`` a positive integer; only a division
of the whole side is read).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from quicksilver.synth.offline.constraints import REF_RE, Lin, Ref, Unsupported, tokenize
from quicksilver.synth.offline.prod_ops import MORE_OPS, more_interval

Expr = Any  # int | str | list (see the module's docstring)

_TOKEN = re.compile(r"\s*(?:(?P<num>\d+)|(?P<ref>" + REF_RE.pattern + r")|(?P<op>[-+*/^()]))")
MAX_EXPONENT = 256  # 2^n with n up to this; above it the runtime would build huge numbers


class PolyParser:
    """``+ - * ^ ( )`` over integers and references to quantities; one division by a positive
    integer of the whole expression (``n * (n - 1) / 2``)."""

    def __init__(self, text: str, resolve: Callable[[str], Ref]) -> None:
        self.tokens = tokenize(text, _TOKEN)
        self.i = 0
        self.resolve = resolve

    def parse(self) -> tuple[Expr, int]:
        """The expression and its denominator."""
        out = self._expr()
        den = 1
        if self._peek() == "/":
            self.i += 1
            kind, tok = self.tokens[self.i] if self.i < len(self.tokens) else ("", "")
            if kind != "num" or int(tok) < 1:
                raise Unsupported("a division by something other than a positive number")
            den = int(tok)
            self.i += 1
        if self.i != len(self.tokens):
            raise Unsupported("a division inside an expression")
        return out, den

    def _peek(self) -> str | None:
        return self.tokens[self.i][1] if self.i < len(self.tokens) else None

    def _expr(self) -> Expr:
        out = self._term()
        while self._peek() in ("+", "-"):
            op = self.tokens[self.i][1]
            self.i += 1
            out = [op, out, self._term()]
        return out

    def _term(self) -> Expr:
        out = self._power()
        while self._peek() == "*":
            self.i += 1
            out = ["*", out, self._power()]
        return out

    def _power(self) -> Expr:
        base = self._atom()
        if self._peek() == "^":
            self.i += 1
            return ["^", base, self._atom()]
        return base

    def _atom(self) -> Expr:
        if self.i >= len(self.tokens):
            raise Unsupported("an incomplete expression")
        kind, tok = self.tokens[self.i]
        self.i += 1
        if kind == "num":
            return int(tok)
        if kind == "ref":
            ref = self.resolve(tok)
            if ref.kind != "q":
                raise Unsupported(f"{tok} in a product or power, which is not a count")
            return ref.key
        if tok == "(":
            out = self._expr()
            if self._peek() != ")":
                raise Unsupported("unbalanced parentheses")
            self.i += 1
            return out
        if tok == "-":
            return ["-", 0, self._atom()]
        raise Unsupported(f"unexpected {tok!r}")


def parse_poly(text: str, resolve: Callable[[str], Ref]) -> tuple[Expr, int]:
    """``text`` as an expression over quantities and its denominator; raises Unsupported."""
    return PolyParser(text, resolve).parse()


def names(expr: Expr) -> set[str]:
    """The quantities ``expr`` names."""
    if isinstance(expr, str):
        return {expr}
    if isinstance(expr, list):
        return names(expr[1]) | names(expr[2])
    return set()


def rename(expr: Expr, to: Callable[[str], str]) -> Expr:
    """``expr`` with each quantity's name replaced (keys to their classes)."""
    if isinstance(expr, str):
        return to(expr)
    if isinstance(expr, list):
        return [expr[0], rename(expr[1], to), rename(expr[2], to)]
    return expr


def interval(expr: Expr, ranges: dict[str, tuple[int, int]]) -> tuple[int, int] | None:
    """Bounds of ``expr`` when each quantity is within its range (interval arithmetic: the true
    least and greatest values are within them); None where a power cannot be bounded."""
    if isinstance(expr, int):
        return expr, expr
    if isinstance(expr, str):
        return ranges.get(expr)
    a, b = interval(expr[1], ranges), interval(expr[2], ranges)
    if a is None or b is None:
        return None
    op = expr[0]
    if op == "+":
        return a[0] + b[0], a[1] + b[1]
    if op == "-":
        return a[0] - b[1], a[1] - b[0]
    if op == "*":
        ends = [x * y for x in a for y in b]
        return min(ends), max(ends)
    if op in MORE_OPS:  # a factorial, a binomial, max / min (prods.py)
        return more_interval(op, a, b)
    # a power: a base and an exponent that are never negative, the exponent not too large
    if a[0] < 0 or b[0] < 0 or b[1] > MAX_EXPONENT:
        return None
    return a[0] ** b[0], a[1] ** b[1]


def bound_of(value: tuple[int, int], den: int, op: str) -> tuple[int | None, int | None]:
    """The integer range ``x op num / den`` allows, for num in ``value``: (least, greatest),
    loosened to hold for every num in the range."""
    lo_num, hi_num = value
    if op in ("<=", "<"):
        hi = hi_num // den if op == "<=" else -(-hi_num // den) - 1
        return None, hi
    if op in (">=", ">"):
        lo = -(-lo_num // den) if op == ">=" else lo_num // den + 1
        return lo, None
    return -(-lo_num // den), hi_num // den  # "=="


def _flip(op: str) -> str:
    return {"<=": ">=", "<": ">", ">=": "<=", ">": "<", "==": "=="}[op]


def read_nonlinear(text: str, line: str, facts: Any, cmp: Any, acts: list[Any]) -> bool:
    """A comparison chain with a product or a power of quantities on one side of a link
    (``1 <= edges.length <= min(10^5, n * (n - 1) / 2)``): each link between linear sides is
    related as usual (``cmp``), each link between one quantity and a nonlinear expression
    becomes a bound in ``facts.polys``. False when no side is nonlinear, or when a nonlinear
    side is not compared with one quantity (the chain is then read, or reported, as before)."""
    parts = re.split(r"(<=|>=|==|!=|<|>)", text)
    if len(parts) < 3 or "!=" in parts[1::2]:
        return False
    ops, segs = parts[1::2], [s.strip() for s in parts[0::2]]
    sides: list[tuple[str, list[Any]]] = []  # ("one"|"min"|"max", [("lin", Lin)|("poly", ..)])
    nonlinear = False
    for seg in segs:
        m = re.fullmatch(r"(min|max)\s*\((.*)\)", seg, flags=re.I)
        kind, items = (m.group(1).lower(), _args(m.group(2))) if m else ("one", [seg])
        if (kind != "one" and len(items) < 2) or any("," in i for i in items):
            return False
        parsed: list[Any] = []
        for item in items:
            try:
                parsed.append(("lin", facts.parse(item)))
            except Unsupported as exc:
                if "product" not in str(exc) and "power" not in str(exc):
                    return False
                try:
                    parsed.append(("poly", parse_poly(item, facts.resolve)))
                except Unsupported:
                    return False
                nonlinear = True
        sides.append((kind, parsed))
    if not nonlinear:
        return False
    links: list[tuple[Any, str, Any]] = []
    for i, op in enumerate(ops):
        (ka, a), (kb, b) = sides[i], sides[i + 1]
        small, big = (ka, kb) if op in ("<=", "<") else (kb, ka)
        if op == "==" and (ka != "one" or kb != "one"):
            return False
        if small == "min" or big == "max":
            return False  # x <= max(a, b) is a disjunction
        links += [(x, op, y) for x in a for y in b]
    for x, op, y in links:
        if x[0] == "lin" and y[0] == "lin":
            continue
        if x[0] == "poly" and y[0] == "poly":
            return False
        lin, op2, poly = (x[1], op, y[1]) if y[0] == "poly" else (y[1], _flip(op), x[1])
        ref = lin.single()
        if ref is None or ref.kind != "q":
            return False
    for x, op, y in links:
        if x[0] == "lin" and y[0] == "lin":
            cmp.relate(x[1], op, y[1], line, acts)
            continue
        lin, op2, poly = (x[1], op, y[1]) if y[0] == "poly" else (y[1], _flip(op), x[1])
        key = lin.single().key
        expr, den = poly
        acts.append(lambda k=key, o=op2, e=expr, d=den: facts.polys.append((k, o, e, d, line)))
        facts_mention(facts, {key, *names(expr)}, line, acts)
    return True


def _args(text: str) -> list[str]:
    """The comma-separated arguments of ``min(...)``, at the top level of parentheses."""
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return [*out, cur.strip()]


def facts_mention(facts: Any, keys: set[str], line: str, acts: list[Any]) -> None:
    """Note that ``line`` names each quantity (as a linear line would)."""
    for key in sorted(keys):
        lin = Lin(Fraction(0), {Ref("q", key=key): Fraction(1)})
        acts.append(lambda lin=lin: facts.mention(lin, line))
