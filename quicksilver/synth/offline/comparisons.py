"""Comparisons in Constraints lines: chains (``1 <= k <= n <= 10^4``), comma lists, ``min`` /
``max`` / ``sum`` sides, ``!=``, read into facts (:class:`~.facts.Facts`).

Each reader appends *acts* (closures that record a fact) instead of recording at once, so that a
line is recorded whole or, when any part of it is not understood, not at all.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from functools import partial

from quicksilver.synth.offline.constraints import Lin, Ref, Unsupported, split_top
from quicksilver.synth.offline.facts import Facts
from quicksilver.synth.offline.relations import zip_relation
from quicksilver.synth.offline.row_fields import alias_list, consecutive_fields, field_relation
from quicksilver.synth.offline.sums import scalar_below_sum, value_sum_rule

Acts = list[Callable[[], None]]
# one side of a comparison: ("one", [form], ""), ("min" | "max", [forms], ""), ("sum", [], key)
Side = tuple[str, list[Lin], str]


class Comparisons:
    """Reads comparisons between quantities, element values and row fields into ``facts``."""

    def __init__(self, facts: Facts) -> None:
        self.facts = facts

    def chain(self, text: str, acts: Acts, line: str) -> bool:
        """``a op b op c ...`` with comma lists on every side; False if ``text`` has no
        comparison."""
        # a lone ``=`` is an equality too (``n = board[i].length``)
        parts = re.split(r"(<=|>=|==|!=|<|>|(?<![<>=!])=(?!=))", text)
        if consecutive_fields(self.facts, text, line, acts) or alias_list(
            self.chain, text, line, acts
        ):
            return True  # end_i < start_i+1, a_i == q[i][0], b_i == q[i][1] (row_fields.py)
        if len(parts) < 3:
            return False
        ops, segs = ["==" if o == "=" else o for o in parts[1::2]], parts[0::2]
        if "!=" in ops:
            if len(ops) != 1:
                raise Unsupported("an inequality (!=) in a chain")
            self.not_equal(segs[0], segs[1], line, acts)
            return True
        sides = [[self._side_item(e) for e in split_top(s)] for s in segs]
        if any(not side for side in sides):
            raise Unsupported("an empty side of a comparison")
        for i, op in enumerate(ops):
            for a in sides[i]:
                for b in sides[i + 1]:
                    self._relate_items(a, op, b, line, acts)
        self._across_values(sides, ops, line, acts)
        return True

    def _across_values(
        self, sides: list[list[Side]], ops: list[str], line: str, acts: Acts
    ) -> None:
        """``1 <= people[i] <= limit <= 3 * 10^4``: the chain says ``1 <= limit`` too (the
        values sit between them). Only across one side of values, between two sides of
        quantities or constants, in a chain of one direction: what the chain states and no
        pairwise reading gives. Kept apart (``facts.across``): the schedule uses it only where
        nothing else bounds the quantity on that side, so no spec that is read changes."""
        if len(ops) < 2 or not (set(ops) <= {"<=", "<"} or set(ops) <= {">=", ">"}):
            return

        def plain(side: list[Side]) -> bool:
            return all(k == "one" and not any(r.kind == "leaf" for r in f[0].terms)
                       for k, f, _ in side)  # fmt: skip

        for i in range(1, len(ops)):
            middle = sides[i]
            if plain(middle) or not plain(sides[i - 1]) or not plain(sides[i + 1]):
                continue
            if not all(k == "one" for k, _, _ in middle):
                continue
            strict = ops[i - 1] in ("<", ">") or ops[i] in ("<", ">")
            ascending = ops[i] in ("<=", "<")
            for low in sides[i - 1 if ascending else i + 1]:
                for high in sides[i + 1 if ascending else i - 1]:
                    diff = high[1][0] - low[1][0] - (Lin(Fraction(1)) if strict else Lin())
                    acts.append(partial(self.facts.across.append, (diff, line)))

    def relate(self, a: Lin, op: str, b: Lin, line: str, acts: Acts) -> None:
        """``a op b`` between two linear forms: a relation between quantities, a bound on the
        values of a parameter (or of one field of its rows), or an order between two fields."""
        facts = self.facts
        if op in (">=", ">"):
            a, b, op = b, a, "<=" if op == ">=" else "<"
        kinds = {r.kind for r in (*a.terms, *b.terms)}
        if "container" in kinds:
            raise Unsupported("compares a whole list")
        if "leaf" not in kinds:
            if not a.terms and not b.terms:
                ok = (
                    a.const == b.const
                    if op == "=="
                    else a.const < b.const
                    if op == "<"
                    else (a.const <= b.const)
                )
                if not ok:
                    raise Unsupported("a false statement about numbers")
                return
            acts.append(lambda: facts.mention(a, line))
            acts.append(lambda: facts.mention(b, line))
            if op == "==":
                ra, rb = a.single(), b.single()
                if ra and rb:
                    acts.append(partial(facts.union, ra.key, rb.key))
                    return
                acts.append(lambda: facts.lins.append((b - a, line)))
                acts.append(lambda: facts.lins.append((a - b, line)))
                acts.append(lambda: facts.eqs.append((a - b, line)))
                return
            diff = b - a - (Lin(Fraction(1)) if op == "<" else Lin())
            acts.append(lambda: facts.lins.append((diff, line)))
            return
        ra, rb = a.single(), b.single()
        if (
            ra is not None
            and rb is not None
            and ra.kind == rb.kind == "leaf"
            and min(ra.col, rb.col) >= 0
            and ra.params == rb.params
            and op in ("<=", "<")
        ):
            # two fields of one row: "start_i <= end_i", "l_i <= r_i" (drawn, then ordered)
            pair = (ra.col, rb.col, op, line)
            acts.append(partial(facts.leaf[ra.params[0]].pairs.append, pair))
            return
        if zip_relation(facts, ra, op, rb, line, acts):
            return  # "l[i] < r[i]": two lists item by item (relations.py)
        if ra is not None and ra.kind == "leaf" and "leaf" not in {r.kind for r in b.terms}:
            leaf_ref, other, leaf_left = ra, _q_form(b), True
        elif rb is not None and rb.kind == "leaf" and "leaf" not in {r.kind for r in a.terms}:
            leaf_ref, other, leaf_left = rb, _q_form(a), False
        elif not field_relation(facts, a, op, b, line, acts):  # fields of a row (row_fields.py)
            raise Unsupported("a relation between elements")
        else:
            return
        acts.append(lambda: facts.mention(other, line))
        strict = op == "<"
        for name in leaf_ref.params:
            p = facts.by_name[name]
            if p.leaf not in ("int", "float"):
                raise Unsupported(f"a numeric bound on {p.name}, whose values are {p.leaf}")
            if p.leaf == "float" and other.terms:
                raise Unsupported("a floating-point value bounded by a quantity")
            info = facts.info(name, leaf_ref.col)
            if op == "==":
                acts.append(partial(info.lo.append, (other, False, line)))
                acts.append(partial(info.hi.append, (other, False, line)))
            elif leaf_left:
                acts.append(partial(info.hi.append, (other, strict, line)))
            else:
                acts.append(partial(info.lo.append, (other, strict, line)))

    def _side_item(self, text: str) -> Side:
        """One expression of a comparison: ``("one", [form], "")``, ``("min"/"max", [forms], "")``
        for ``min(50, nums.length)``, or ``("sum", [], key)`` for ``sum(words[i].length)``."""
        text = text.strip()
        m = re.fullmatch(r"(min|max)\s*\((.*)\)", text, flags=re.I)
        if m:
            args = split_top(m.group(2))
            if len(args) < 2:
                raise Unsupported(f"cannot read {text!r}")
            sums = [a for a in args if re.match(r"sum\s*\(", a, flags=re.I)]
            if sums and m.group(1).lower() == "min" and len(sums) == 1:  # min(sum(x), 10^9)
                rest = [self.facts.parse(a) for a in args if a is not sums[0]]
                return ("minsum", rest, sums[0])
            return (m.group(1).lower(), [self.facts.parse(a) for a in args], "")
        m = re.fullmatch(r"sum\s*\((.*)\)", text, flags=re.I)
        if m:
            ref = self.facts.resolve(m.group(1))
            values = self._values_of(ref)
            if values is not None:
                return ("vsum", [], values)
            if ref.kind != "q" or not re.fullmatch(r".+\[i\]\.length", ref.key):
                raise Unsupported("only sums of per-item lengths (x[i].length) are supported")
            return ("sum", [], ref.key)
        return ("one", [self.facts.parse(text)], "")

    def _relate_items(self, a: Side, op: str, b: Side, line: str, acts: Acts) -> None:
        """``a op b`` where either side may be a min / max / sum (see :meth:`_side_item`)."""
        if op in (">=", ">"):
            a, b, op = b, a, "<=" if op == ">=" else "<"
        if b[0] == "minsum" and a[0] == "one" and op != "==":  # k <= min(sum(x), 10^9)
            self._relate_items(a, op, ("min" if len(b[1]) > 1 else "one", b[1], ""), line, acts)
            self._relate_items(a, op, self._side_item(b[2]), line, acts)
            return
        if "minsum" in (a[0], b[0]):
            raise Unsupported("a bound by the smaller of a sum and another value")
        if a[0] == "vsum" or b[0] == "vsum":
            self._value_sum(a, op, b, line, acts)
            return
        if a[0] == "sum" or b[0] == "sum":
            self._sum_relation(a, op, b, line, acts)
            return
        if op == "==" and (a[0] != "one" or b[0] != "one"):
            raise Unsupported("an equality with min(...) or max(...)")
        if a[0] == "min" or b[0] == "max":
            # x <= max(a, b) means "x <= a or x <= b": not a conjunction of bounds
            raise Unsupported("a bound by the larger (or smaller) of two values")
        # max(a, b) <= x <= min(c, d): every pair is a bound
        for la in a[1]:
            for lb in b[1]:
                self.relate(la, op, lb, line, acts)

    def sum_bound(self, what: str, bound: str, line: str, acts: Acts) -> None:
        """``The sum of lists[i].length will not exceed B``: ``what`` is at most ``bound``."""
        ref = self.facts.resolve(what.strip())
        values = self._values_of(ref)
        if values is not None:
            limit = ("one", [self.facts.parse(bound)], "")
            self._value_sum(("vsum", [], values), "<=", limit, line, acts)
            return
        if ref.kind != "q" or not re.fullmatch(r".+\[i\]\.length", ref.key):
            raise Unsupported("only sums of per-item lengths (x[i].length) are supported")
        limit = self.facts.parse(bound)
        self._sum_relation(("sum", [], ref.key), "<=", ("one", [limit], ""), line, acts)

    def _sum_relation(self, a: Side, op: str, b: Side, line: str, acts: Acts) -> None:
        facts = self.facts
        if (a[0] == "sum" and b[0] == "sum") or op == "==":
            raise Unsupported("only a constant bound on a sum of lengths is supported")
        bound = b if a[0] == "sum" else a
        if a[0] == "one" and bound[1][0].terms:  # k <= sum(piles[i].length) (sums.py)
            scalar_below_sum(facts, a[1][0], b[2], op == "<", line, acts)
            return
        if bound[0] != "one" or bound[1][0].terms or bound[1][0].const.denominator != 1:
            raise Unsupported("only a constant bound on a sum of lengths is supported")
        value = int(bound[1][0].const)
        if a[0] == "sum":  # sum <= value (or < value)
            limit = value - 1 if op == "<" else value
            acts.append(lambda: facts.sums.setdefault(a[2], []).append((limit, line)))
        else:  # value <= sum: holds when every draw reaches it (checked when scheduling)
            least = value + 1 if op == "<" else value
            acts.append(lambda: facts.sum_mins.setdefault(b[2], []).append((least, line)))

    def _values_of(self, ref: Ref) -> str | None:
        """The list whose values ``ref`` names (``nums[i]``, ``nums``), for a sum of values."""
        if ref.kind not in ("leaf", "container") or len(ref.params) != 1 or ref.col >= 0:
            return None
        p = self.facts.by_name[ref.params[0]]
        if p.leaf != "int" or p.depth != 1 or p.tree or (ref.kind == "container" and ref.depth):
            return None
        return p.name

    def _value_sum(self, a: Side, op: str, b: Side, line: str, acts: Acts) -> None:
        """``0 <= sum(nums[i]) <= 1000``: a constant bound on the sum of a list's values. An
        upper bound is kept (``value_sums``); a lower one where it cannot bind (at most 0: the
        values are never negative, which the parameter's spec checks), or as a rule the runtime
        meets (above 0, or a fixed sum: :func:`~.sums.value_sum_rule`)."""
        facts = self.facts
        if a[0] == "vsum" and b[0] == "vsum":
            raise Unsupported("only a constant bound on a sum of values is supported")
        bound = b if a[0] == "vsum" else a
        if a[0] == "one" and bound[1][0].terms and op != "==":  # k <= sum(nums) (sums.py)
            scalar_below_sum(facts, a[1][0], b[2], op == "<", line, acts)
            return
        if bound[0] != "one" or bound[1][0].terms or bound[1][0].const.denominator != 1:
            raise Unsupported("only a constant bound on a sum of values is supported")
        value = int(bound[1][0].const)
        name = a[2] if a[0] == "vsum" else b[2]
        if op == "==":  # a fixed sum, met by the runtime (sums.py)
            value_sum_rule(facts, name, op, value, line, acts)
        elif a[0] == "vsum":  # sum <= value (or < value)
            limit = value - 1 if op == "<" else value
            acts.append(lambda: facts.value_sums.setdefault(name, []).append((limit, line)))
        elif value + (op == "<") > 0:  # a least sum (value + 1 for <), met by the runtime
            value_sum_rule(facts, name, op, value + (op == "<"), line, acts)
        else:
            acts.append(lambda: facts.value_sums.setdefault(name, []))

    def not_equal(self, left: str, right: str, line: str, acts: Acts) -> None:
        """``divisor != 0``, ``nums[i] != 0``, ``src != dst``: an excluded value or pair."""
        facts = self.facts
        a, b = facts.parse(left), facts.parse(right)
        if zip_relation(facts, a.single(), "!=", b.single(), line, acts):
            return  # "original[i] != changed[i]" (relations.py)
        kinds = {r.kind for r in (*a.terms, *b.terms)}
        if "container" in kinds:
            raise Unsupported("an inequality (!=) between lists")
        if "leaf" not in kinds:
            if not a.terms and not b.terms:
                if a.const == b.const:
                    raise Unsupported("a false statement about numbers")
                return
            acts.append(lambda: facts.mention(a, line))
            acts.append(lambda: facts.mention(b, line))
            acts.append(lambda: facts.nes.append((a - b, line)))
            return
        ra, rb = a.single(), b.single()
        if (
            ra is not None
            and rb is not None
            and ra.kind == rb.kind == "leaf"
            and min(ra.col, rb.col) >= 0
            and ra.params == rb.params
        ):
            pair = (ra.col, rb.col, "!=", line)  # "a_i != b_i": two fields of one row
            acts.append(partial(facts.leaf[ra.params[0]].pairs.append, pair))
            return
        leaf_ref, other = (ra, b) if ra is not None and ra.kind == "leaf" else (rb, a)
        if leaf_ref is None or leaf_ref.kind != "leaf" or other.terms:
            raise Unsupported("an inequality (!=) between elements")
        if other.const.denominator != 1:
            raise Unsupported("an inequality (!=) with a fraction")
        for name in leaf_ref.params:
            if facts.by_name[name].leaf != "int":
                raise Unsupported(f"an inequality (!=) on {name}, whose values are not integers")
            acts.append(partial(facts.info(name, leaf_ref.col).ne.append, int(other.const)))


def _q_form(lin: Lin) -> Lin:
    """``lin``, checked to name quantities only (the other side of a bound on values)."""
    for ref in lin.terms:
        if ref.kind != "q":
            raise Unsupported("a relation between a list and a quantity or between elements")
    return lin
