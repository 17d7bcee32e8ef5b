"""Scheduling: the quantity classes in the order they are drawn, each with its bounds.

The facts' linear forms, rewritten over quantity classes (:mod:`.quantities`), become
constraints ``sum(coef * class) + const >= 0``. Some come from the values rather than the
statement's lines: distinct values, strings or rows need room (a list no longer than the number of
values that exist). Per-item lengths with constant bounds of their own (``words[i].length``) are
drawn per item, with their stated sums. The rest are placed in a topological order (sizes first)
in which each quantity has a lower and an upper bound from the ones placed before it, with the
constant bounds the others imply (interval propagation). What cannot be placed, or cannot hold,
is a problem; a stated bound over the size cap is a note.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any

from quicksilver.synth.offline.constraints import Lin, Param, Ref, Unsupported, fmt
from quicksilver.synth.offline.derived_counts import count_room
from quicksilver.synth.offline.facts import Facts, LeafInfo
from quicksilver.synth.offline.nonlinear import MAX_EXPONENT, bound_of, interval, names, rename
from quicksilver.synth.offline.prods import tame_power
from quicksilver.synth.offline.quantities import Quantities
from quicksilver.synth.offline.report import describe_quantity
from quicksilver.synth.offline.shapes import columns
from quicksilver.synth.offline.sums import below_sum_room, least_length_sum, value_sum_room

Con = tuple[dict[str, int], int, str]  # (terms, const, why): sum(coef * class) + const >= 0


class Schedule:
    """Orders and bounds the quantities of ``facts``; problems and capped bounds are appended
    to ``problems`` and ``notes``."""

    def __init__(
        self,
        facts: Facts,
        q: Quantities,
        *,
        size_cap: int,
        cap_note: str,
        problems: list[str],
        notes: list[str],
    ) -> None:
        self.facts = facts
        self.q = q
        self.classes = q.names
        self.size_cap = size_cap
        self.cap_note = cap_note
        self.problems = problems
        self.notes = notes
        self.mod_of: dict[str, tuple[int, int, str]] = {}  # class -> (m, r, line): cls % m == r
        self.ne_cons: list[Con] = []  # (terms, const, line): form != 0
        self.poly_of: dict[str, list[dict[str, Any]]] = {}  # class -> its nonlinear bounds
        self.waits: dict[str, set[str]] = {}  # class -> the classes its nonlinear bounds name
        # a graph's room for edges (``edges.length <= n * (n - 1) / 2``): as facts.polys
        self.graph_polys: list[tuple[str, str, Any, int, str]] = []

    def run(self) -> tuple[list[dict[str, Any]], dict[str, str], dict[str, dict[str, Any]]]:
        """The quantities in the order they are drawn, each with its bounds; the note that
        describes each one; and the per-item lengths (``words[i].length``), drawn per item."""
        classes = self.classes
        cons: list[Con] = []
        for lin, line in self.facts.lins:
            try:
                got = self.q.to_cls(lin, integral=True)
            except Unsupported as exc:
                self.problems.append(f'"{line}": {exc}')
                continue
            if got is None:
                continue
            terms, const = got
            if not terms:
                if const < 0:
                    self.problems.append(f'"{line}": contradicts the other constraints')
                continue
            cons.append((terms, const, line))
        cons += self._distinct_room()
        for lin, line in self.facts.across:  # 1 <= people[i] <= limit: limit >= 1
            got = self.q.to_cls(lin, integral=True) if lin.terms else None
            if got is not None and len(got[0]) == 1:
                ((c, k),) = got[0].items()
                if (
                    c not in self.q.hidden
                    and not self.q.is_size(c)
                    and not any((t.get(c, 0) > 0) == (k > 0) and c in t for t, _, _ in cons)
                ):
                    cons.append((got[0], got[1], f"{line} (across the values between)"))
        # per-item lengths (words[i].length, lists[i].length): only constant bounds of their own
        leaf_refs = {
            classes.get(ref.key)
            for info in self.facts.leaf.values()
            for lin, _, _ in (*info.lo, *info.hi)
            for ref in lin.terms
        }
        per_item: dict[str, dict[str, Any]] = {}
        for p in self.facts.params:
            for d in range(1, 0 if p.tree else p.depth):
                key = p.dim_key(d)
                cls = classes.get(key)
                if cls is None or cls != key or cls in leaf_refs:
                    continue
                if sum(1 for c in classes.values() if c == cls) != 1:
                    continue
                own = [c for c in cons if cls in c[0]]
                if any(len(t) != 1 for t, _, _ in own):
                    continue
                lo, hi = self._item_range(cls, own)
                if key in self.facts.rect and key not in self.facts.sums and lo != hi:
                    # drawn once for all the items (a stated sum bound keeps it per item)
                    self.notes.append(
                        f"{key}: one length for every item of {p.name} ({self.facts.rect[key]})"
                    )
                    continue
                per_item[cls] = {"name": cls, **self._per_item(cls, own)}
                cons = [c for c in cons if cls not in c[0]]
        cons += self._string_room(per_item)
        cons += self._row_room()
        cons += self._graph_room()
        cons += self._col_room()
        cons += self._polys(cons, set(per_item))
        cons += below_sum_room(self.facts, self.classes, cons, self.problems)  # (sums.py)
        cons += count_room(self.facts, self.classes, cons, self.problems)  # (derived_counts.py)
        cons += self._value_sum_room()
        cons += value_sum_room(self.facts, self.classes)  # a least or odd sum of values (sums.py)
        self._conditions(per_item)
        self._least_sums(per_item, cons)
        for key, limits in self.facts.sums.items():
            cls = classes.get(key)
            if cls not in per_item:
                for _, line in limits:
                    self.problems.append(
                        f'"{line}": a sum bound on {key}, which is not a per-item length'
                    )
                continue
            per_item[cls]["sum_max"] = min(v for v, _ in limits)
            outer = classes.get(re.sub(r"\[i\]\.length$", ".length", key))
            if per_item[cls]["lo"] > 0 and outer is not None:
                # every item takes at least lo of the sum: no more than sum_max // lo items
                room = per_item[cls]["sum_max"] // per_item[cls]["lo"]
                why = f"(each of {key} >= {per_item[cls]['lo']}: at most {room} items fit the sum)"
                cons.append(({outer: -1}, room, why))
            if per_item[cls]["sum_max"] > self.size_cap:
                self.notes.append(
                    f"sum of {key} capped at {self.size_cap} of the stated "
                    f"{fmt(per_item[cls]['sum_max'])}"
                )
        return (*self._order(cons, set(per_item)), per_item)

    def _conditions(self, per_item: dict[str, dict[str, Any]]) -> None:
        """Divisibility (``n is even``) and exclusions (``src != dst``) per quantity class."""
        classes = self.classes
        for key, m, r, line in self.facts.mods:
            cls = classes.get(key)
            if cls is None:
                continue  # an unknown name: already reported
            if cls in per_item:
                self.problems.append(f'"{line}": a divisibility condition on {cls}, drawn per item')
                continue
            old = self.mod_of.get(cls)
            if old is None or old[:2] == (m, r):
                self.mod_of[cls] = (m, r, line)
            elif old[0] == m:
                self.problems.append(f'"{line}": contradicts "{old[2]}"')
            else:
                self.problems.append(f'"{line}": a second divisibility condition on {cls}')
        for lin, line in self.facts.nes:
            try:
                got = self.q.to_cls(lin, integral=True)
            except Unsupported as exc:
                self.problems.append(f'"{line}": {exc}')
                continue
            if got is None:
                continue
            terms, const = got
            if not terms:
                if const == 0:
                    self.problems.append(f'"{line}": contradicts the other constraints')
            elif any(t in per_item for t in terms):
                self.problems.append(f'"{line}": an inequality (!=) on a length drawn per item')
            else:
                self.ne_cons.append((terms, const, line))

    def _least_sums(self, per_item: dict[str, dict[str, Any]], cons: list[Con]) -> None:
        """``1 <= sum(words[i].length)``: met by every draw when the fewest items of the
        shortest length reach it; otherwise reported (the runtime only shrinks sums)."""
        classes = self.classes
        for key, least in self.facts.sum_mins.items():
            cls = classes.get(key)
            outer = classes.get(re.sub(r"\[i\]\.length$", ".length", key))
            if cls not in per_item or outer is None:
                for _, line in least:
                    self.problems.append(
                        f'"{line}": a sum bound on {key}, which is not a per-item length'
                    )
                continue
            outer_lo = 0
            for terms, const, _ in cons:
                if list(terms) == [outer] and terms[outer] > 0:
                    outer_lo = max(outer_lo, -(const // terms[outer]))
            floor = outer_lo * per_item[cls]["lo"]
            for value, line in least:
                if value > floor:  # met by lengthening items (sums.py)
                    tops = [v for v, _ in self.facts.sums.get(key, [])]
                    got = least_length_sum(per_item[cls], outer, value, line, tops)
                    if isinstance(got, str):
                        self.problems.append(got)
                    else:
                        cons.append(got)

    @staticmethod
    def _item_range(cls: str, own: list[Con]) -> tuple[int, int | None]:
        """The constant bounds that ``own`` (constraints over ``cls`` alone) give it."""
        lo, hi = 0, None
        for terms, const, _ in own:
            a = terms[cls]
            if a > 0:
                lo = max(lo, -(const // a))
            else:
                v = const // -a
                hi = v if hi is None else min(hi, v)
        return lo, hi

    def _per_item(self, cls: str, own: list[Con]) -> dict[str, Any]:
        """The constant bounds of a per-item length, from its own constraints."""
        lo, hi = self._item_range(cls, own)
        if hi is None and self.facts.sums.get(cls):  # at most the whole sum (sums.py)
            hi = min(v for v, _ in self.facts.sums[cls])
        if hi is None:
            self.problems.append(f"no stated upper bound for {cls}")
            hi = lo
        elif lo > hi:
            self.problems.append(f"{cls}: the stated bounds [{lo}, {hi}] are empty")
        elif hi > self.size_cap:
            self.notes.append(f"{cls} capped at {self.size_cap} of the stated {fmt(hi)}")
        return {"lo": lo, "hi": hi}

    def _distinct_room(self) -> list[Con]:
        """Distinct values need a list no longer than its value range: one more bound each."""
        classes = self.classes
        out: list[Con] = []
        for p in self.facts.params:
            info = self.facts.leaf[p.name]
            if not info.distinct or info.distinct["level"] != "value":
                continue
            if info.distinct["scope"] == "all" and p.depth != 1:
                continue  # checked when drawing
            key = p.dim_key(p.depth - 1)
            if key not in classes:
                continue
            why = f"(distinct values of {p.name} need {key} <= the number of possible values)"
            room: list[tuple[dict[str, int], int]] = []
            choices = info.values if info.values is not None else info.alphabet
            if choices is not None:
                room.append(({}, len(choices)))
            elif p.leaf == "int" and info.lo and info.hi:
                for lo, lo_strict, _ in info.lo:
                    for hi, hi_strict, _ in info.hi:
                        excluded = len(set(info.ne))
                        form = hi - lo + Lin(Fraction(1 - lo_strict - hi_strict - excluded))
                        got = self.q.to_cls(form)
                        if got is not None:
                            room.append(got)
            for terms, const in room:
                t = dict(terms)
                t[classes[key]] = t.get(classes[key], 0) - 1
                t = {k: v for k, v in t.items() if v != 0}
                if not t:
                    if const < 0:
                        self.problems.append(f"{p.name}: distinct values cannot fit {why}")
                    continue
                out.append((t, const, why))
        return out

    def _row_room(self) -> list[Con]:
        """Distinct rows need no more rows than there are sets of field values (each field
        range constant; counted as unordered, which is what the runtime tells apart)."""
        classes = self.classes
        out: list[Con] = []
        for p in self.facts.params:
            info = self.facts.leaf[p.name]
            outer = classes.get(p.dim_key(0))
            if not info.unique_rows or info.graph or outer is None:
                continue
            width = max([len(self.facts.width_fields(p.name)), *(c + 1 for c in info.cols)])
            cols = columns(p, info, width) if width else "no fields"
            if info.unique_key and not isinstance(cols, str):
                cols = [cols[j] for j in info.unique_key if j < len(cols)]
            sizes = []
            for c in cols if not isinstance(cols, str) else []:
                if c.values is not None:
                    sizes.append(len(set(c.values) - set(c.ne)))
                    continue
                los = [b.const for b, st, _ in c.lo if not b.terms]
                his = [b.const for b, st, _ in c.hi if not b.terms]
                if len(los) != len(c.lo) or len(his) != len(c.hi) or not los or not his:
                    sizes = []
                    break
                lo = max(b.const + st for b, st, _ in c.lo)
                hi = min(b.const - st for b, st, _ in c.hi)
                sizes.append(max(0, int(hi - lo + 1)))
            if sizes:
                room = math.prod(sizes) // math.factorial(len(sizes))
                why = f"(distinct rows of {p.name}: at least {room} exist)"
                out.append(({outer: -1}, room, why))
                continue
            # a range that depends on quantities (0 <= a_i, b_i < n): at least as many distinct
            # rows as values of the first field (one fewer when it must differ from another
            # field), a linear bound that keeps the rejection of repeated rows quick
            col = cols[0] if not isinstance(cols, str) else None
            if col is None or not col.lo or not col.hi:
                self.problems.append(
                    f'"{info.unique_rows}": distinct rows need a stated range for each field'
                )
                continue
            first = info.unique_key[0] if info.unique_key else 0
            paired = any(op != "<=" and first in (a, b) for a, b, op, _ in info.pairs)
            why = f"(distinct rows of {p.name}: no more rows than values of its first field)"
            for lo_form, lo_strict, _ in col.lo:
                for hi_form, hi_strict, _ in col.hi:
                    form = hi_form - lo_form + Lin(Fraction(1 - lo_strict - hi_strict - paired))
                    got = self.q.to_cls(form, integral=True)
                    if got is not None:
                        terms = dict(got[0])
                        terms[outer] = terms.get(outer, 0) - 1
                        out.append(({k: v for k, v in terms.items() if v}, got[1], why))
        return out

    def _graph_room(self) -> list[Con]:
        """A graph's edge count: at least one fewer than its nodes when it is connected, and,
        with no repeated edges, at most the number of node pairs (``v * (v - 1) / 2`` for an
        undirected graph without self loops; applied by the runtime once ``v`` is drawn, as a
        stated ``edges.length <= n * (n - 1) / 2`` is). The nodes are the values of the first
        field's range (``0 <= a_i, b_i < n``: ``v = n``)."""
        out: list[Con] = []
        for p in self.facts.params:
            info = self.facts.leaf[p.name]
            outer = self.classes.get(p.dim_key(0))
            if not info.graph or outer is None:
                continue
            width = max([len(self.facts.width_fields(p.name)), *(c + 1 for c in info.cols), 2])
            cols = columns(p, info, width)
            if isinstance(cols, str) or not cols[0].lo or not cols[0].hi:
                self.problems.append(f"{p.name}: a graph's nodes need a stated range")
                continue
            count = Lin(Fraction(0), {Ref("q", key=p.dim_key(0)): Fraction(1)})
            nodes = [
                hi - lo + Lin(Fraction(1 - lo_strict - hi_strict))
                for lo, lo_strict, _ in cols[0].lo
                for hi, hi_strict, _ in cols[0].hi
            ]
            why = f"(a graph's edges in {p.name}: "
            if "connected" in info.graph:
                for v in nodes:  # count >= v - 1: a spanning tree fits
                    got = self.q.to_cls(count - v + Lin(Fraction(1)), integral=True)
                    if got is not None and got[0]:
                        out.append((*got, why + "a connected graph has at least v - 1 edges)"))
            if info.graph.keys() & {"simple", "between"} or info.unique_rows:
                out += self._graph_pairs(p, info, count, nodes, why)
        return out

    def _graph_pairs(
        self, p: Param, info: LeafInfo, count: Lin, nodes: list[Lin], why: str
    ) -> list[Con]:
        """At most as many edges as node pairs: ``v * (v - 1) / 2`` (no self loops, undirected
        or acyclic), as a bound the runtime applies (``poly``) when ``v`` is one quantity (plus
        a constant) drawn apart from the count; otherwise the linear ``count <= v - 1``."""
        loops = not (info.graph.keys() & {"loops", "dag"}) and all(
            op == "<=" for _, _, op, _ in info.pairs
        )
        v = nodes[0] if len(nodes) == 1 else None
        ref = next(iter(v.terms)) if v is not None and len(v.terms) == 1 else None
        if ref is not None and self.classes.get(ref.key) == self.classes.get(p.dim_key(0)):
            return []  # the count is the node count (edges.length == n): the runtime checks
        if v is not None and ref is not None and v.terms[ref] == 1 and v.const.denominator == 1:
            c = int(v.const)
            expr: Any = ref.key if c == 0 else ["+", ref.key, c] if c > 0 else ["-", ref.key, -c]
            other: Any = ["+", expr, 1] if loops else ["-", expr, 1]
            line = why + f"at most v * (v {'+' if loops else '-'} 1) / 2 edges)"
            self.graph_polys.append((p.dim_key(0), "<=", ["*", expr, other], 2, line))
            return []
        out: list[Con] = []
        for v in nodes:
            got = self.q.to_cls(v - count - Lin(Fraction(0 if loops else 1)), integral=True)
            if got is not None and got[0]:
                out.append((*got, why + "no more edges than nodes, a bound that always fits)"))
        return out

    def _polys(self, cons: list[Con], per_item: set[str]) -> list[Con]:
        """Bounds by a product or power of quantities (nonlinear.py): kept per quantity for the
        runtime (``poly``), which applies them once the quantities they name are drawn (the
        bounded one waits for them), and, for the schedule, the constant bound they imply given
        the constant ranges stated for those quantities."""
        classes = self.classes
        ranges: dict[str, tuple[int, int]] = {}
        lows: dict[str, int] = {}
        highs: dict[str, int] = {}
        for terms, const, _ in cons:
            if len(terms) == 1:
                ((c, a),) = terms.items()
                if a > 0:
                    lows[c] = max(lows.get(c, -(const // a)), -(const // a))
                else:
                    highs[c] = min(highs.get(c, const // -a), const // -a)
        for c in highs:
            lo = lows.get(c, 0 if self.q.is_size(c) else None)
            if lo is not None:
                ranges[c] = (lo, highs[c])
        out: list[Con] = []
        for key, op, expr, den, line in [*self.facts.polys, *self.graph_polys]:
            target = classes.get(key)
            expr_c = rename(expr, lambda k: classes.get(k, k))
            used = names(expr_c)
            drawn = set(classes.values()) - per_item  # a per-item length is drawn item by item
            if target not in drawn or not used <= drawn or target in used:
                self.problems.append(f'"{line}": a product or power of quantities not drawn first')
                continue
            expr_c = tame_power(expr_c, den, op, highs.get(target), ranges)  # (prods.py)
            value = interval(expr_c, ranges)
            if value is None:
                self.problems.append(
                    f'"{line}": a product or power of quantities with no stated range '
                    f"(or an exponent above {MAX_EXPONENT})"
                )
                continue
            lo, hi = bound_of(value, den, op)
            if lo is not None:
                out.append(
                    (
                        {target: 1},
                        -lo,
                        f"{line} (at least {fmt(lo)} for every {', '.join(sorted(used))})",
                    )
                )
            if hi is not None:
                out.append(
                    (
                        {target: -1},
                        hi,
                        f"{line} (at most {fmt(hi)} for every {', '.join(sorted(used))})",
                    )
                )
            self.poly_of.setdefault(target, []).append(
                {"num": expr_c, "den": den, "op": op, "text": line}
            )
            self.waits.setdefault(target, set()).update(used)
        return out

    def _value_sum_room(self) -> list[Con]:
        """``sum(nums[i]) <= S`` with every value at least ``low``: ``nums.length * low <= S``
        (the runtime shrinks values toward ``low`` until the sum fits)."""
        out: list[Con] = []
        for name, limits in self.facts.value_sums.items():
            p = self.facts.by_name[name]
            outer = self.classes.get(p.dim_key(0))
            lows = [b.const + st for b, st, _ in self.facts.leaf[name].lo if not b.terms]
            if not limits or outer is None or not lows or max(lows) <= 0:
                continue
            low = math.ceil(max(lows))
            limit = min(v for v, _ in limits)
            why = f"(a sum of {name}'s values: at most {limit} with each at least {low})"
            out.append(({outer: -low}, limit, why))
        return out

    def _col_room(self) -> list[Con]:
        """A field whose values are distinct (``All id_i are distinct``) needs no more rows
        than its range (or value set) holds."""
        classes = self.classes
        out: list[Con] = []
        for p in self.facts.params:
            info = self.facts.leaf[p.name]
            outer = classes.get(p.dim_key(0))
            if not info.distinct_cols or outer is None:
                continue
            width = max([len(self.facts.width_fields(p.name)), *(c + 1 for c in info.cols)])
            cols = columns(p, info, width)
            if isinstance(cols, str):
                continue  # reported with the rows' spec
            for j in info.distinct_cols:
                if j >= len(cols):
                    continue
                col = cols[j]
                why = f"(distinct values of a field of {p.name}: no more rows than its values)"
                if col.values is not None:
                    out.append(({outer: -1}, len(set(col.values) - set(col.ne)), why))
                    continue
                for lo_form, lo_strict, _ in col.lo:
                    for hi_form, hi_strict, _ in col.hi:
                        # a strict order with another field leaves that one room (start_i <
                        # end_i: no start at the top)
                        excluded = len(set(col.ne)) + any(
                            op == "<" and j in (a, b) for a, b, op, _ in info.pairs
                        )
                        form = (
                            hi_form - lo_form + Lin(Fraction(1 - lo_strict - hi_strict - excluded))
                        )
                        got = self.q.to_cls(form, integral=True)
                        if got is not None:
                            terms = dict(got[0])
                            terms[outer] = terms.get(outer, 0) - 1
                            out.append(({k: v for k, v in terms.items() if v}, got[1], why))
        return out

    def _string_room(self, per_item: dict[str, dict[str, Any]]) -> list[Con]:
        """Distinct strings need a list no longer than the number of strings that exist."""
        classes = self.classes
        out: list[Con] = []
        for p in self.facts.params:
            info = self.facts.leaf[p.name]
            if not info.distinct or info.distinct["level"] != "string" or p.depth != 2:
                continue
            outer, inner = classes.get(p.dim_key(0)), classes.get(p.dim_key(1))
            if outer is None or inner not in per_item or not info.alphabet:
                continue  # checked when drawing
            lo, hi = per_item[inner]["lo"], per_item[inner]["hi"]
            count = 0
            for length in range(lo, hi + 1):
                count += len(info.alphabet) ** length
                if count > 10**9:
                    break
            if count <= 10**9:
                why = f"(distinct strings of {p.name}: only {count} exist)"
                out.append(({outer: -1}, count, why))
        return out

    def _order(
        self, cons: list[Con], skip: set[str]
    ) -> tuple[list[dict[str, Any]], dict[str, str]]:
        """A topological order of the quantities (sizes first) and each one's bounds.

        A quantity is ready when the constraints over it and already-placed quantities give it a
        lower and an upper bound; each constraint then bounds the last-placed quantity in it.
        """
        classes = self.classes
        sizes = {c for c in set(classes.values()) if self.q.is_size(c)}
        capped = sizes | self.q.hidden_sizes  # drawn as sizes; only true sizes are >= 0 unstated
        remaining = set(classes.values()) - skip
        implied = self._implied(remaining, sizes, cons)
        cons = cons + [(t, c, line) for t, c, line, _ in implied]
        pos: dict[str, int] = {}
        order: list[str] = []
        while remaining:
            chosen = None
            for c in sorted(remaining, key=lambda c: (c not in capped, c not in self.q.hidden, c)):
                if not self.waits.get(c, set()) <= pos.keys():
                    continue  # a nonlinear bound names a quantity not drawn yet
                lo_ok, hi_ok = c in sizes, False
                for terms, _, _ in cons:
                    if c in terms and all(t == c or t in pos for t in terms):
                        if terms[c] > 0:
                            lo_ok = True
                        else:
                            hi_ok = True
                if lo_ok and hi_ok:
                    chosen = c
                    break
            if chosen is None:
                for c in sorted(remaining):
                    self.problems.append(self._unbounded(c, cons, sizes))
                break
            pos[chosen] = len(order)
            order.append(chosen)
            remaining.discard(chosen)

        def target(terms: dict[str, int]) -> str:
            return max(terms, key=lambda t: pos.get(t, -1))

        # an implied bound is redundant where the constraint it came from bounds the same quantity
        redundant = [(t, c, line) for t, c, line, src in implied if target(src) == next(iter(t))]
        cons = [c for c in cons if c not in redundant]
        quantities: list[dict[str, Any]] = []
        qnotes: dict[str, str] = {}
        for c in order:
            bounds: list[dict[str, Any]] = []
            if c in sizes:
                bounds.append({"coef": 1, "rest": 0, "text": "a length or count is at least 0"})
            for terms, const, line in cons:
                if c in terms and target(terms) == c:
                    rest_terms = {t: v for t, v in terms.items() if t != c}
                    rest: Any = {"const": const, "terms": rest_terms} if rest_terms else const
                    bounds.append({"coef": terms[c], "rest": rest, "text": line})
            item: dict[str, Any] = {"name": c, "label": self.q.label(c), "size": c in capped}
            item["bounds"] = bounds
            if c in self.q.cap_fit:
                item["cap"] = self.q.cap_fit[c]
            if c in self.mod_of:
                item["mod"] = list(self.mod_of[c][:2])
            if c in self.poly_of:
                item["poly"] = self.poly_of[c]
            for terms, const, line in self.ne_cons:
                if c in terms and target(terms) == c:
                    rest_terms = {t: v for t, v in terms.items() if t != c}
                    rest = {"const": const, "terms": rest_terms} if rest_terms else const
                    item.setdefault("ne", []).append({"coef": terms[c], "rest": rest, "text": line})
            quantities.append(item)
            qnotes[c], capped_note = describe_quantity(item, self.size_cap, self.cap_note)
            if capped_note is not None:
                self.notes.append(capped_note)
        return quantities, qnotes

    def _implied(
        self, names: set[str], sizes: set[str], cons: list[Con]
    ) -> list[tuple[dict[str, int], int, str, dict[str, int]]]:
        """Constant bounds implied by the others (``1 <= k <= n`` gives ``n >= 1``), each with
        the constraint it came from.

        Interval propagation to a fixpoint; the implied bounds let a quantity placed early avoid
        values that leave a later one no room, and an empty interval is reported.
        """
        lo: dict[str, int | None] = {c: 0 if c in sizes else None for c in names}
        hi: dict[str, int | None] = dict.fromkeys(names)
        direct_lo, direct_hi = dict(lo), dict(hi)
        src_lo: dict[str, dict[str, int]] = {}
        src_hi: dict[str, dict[str, int]] = {}
        for _round in range(50):
            changed = False
            for terms, const, _ in cons:
                if any(t not in names for t in terms):
                    continue
                for x, a in terms.items():
                    rest = const  # the largest value the other terms can add
                    for y, b in terms.items():
                        if y == x:
                            continue
                        v = hi[y] if b > 0 else lo[y]
                        if v is None:
                            break
                        rest += b * v
                    else:
                        if a > 0:
                            new = -(rest // a)
                            if lo[x] is None or new > lo[x]:  # type: ignore[operator]
                                lo[x], changed, src_lo[x] = new, True, terms
                                if len(terms) == 1:
                                    direct_lo[x] = new
                        else:
                            new = rest // -a
                            if hi[x] is None or new < hi[x]:  # type: ignore[operator]
                                hi[x], changed, src_hi[x] = new, True, terms
                                if len(terms) == 1:
                                    direct_hi[x] = new
            if not changed:
                break
        out: list[tuple[dict[str, int], int, str, dict[str, int]]] = []
        for c in sorted(names):
            lo_c, hi_c = lo[c], hi[c]
            if lo_c is not None and hi_c is not None and lo_c > hi_c:
                lines = "; ".join(dict.fromkeys(f'"{ln}"' for t, _, ln in cons if c in t))
                self.problems.append(
                    f"the constraints on {c} cannot all hold (they leave [{lo_c}, {hi_c}]): {lines}"
                )
                continue
            if lo_c is not None and lo_c != direct_lo[c]:
                why = f"{c} >= {fmt(lo_c)} (implied by the others)"
                out.append(({c: 1}, -lo_c, why, src_lo[c]))
            if hi_c is not None and hi_c != direct_hi[c]:
                why = f"{c} <= {fmt(hi_c)} (implied by the others)"
                out.append(({c: -1}, hi_c, why, src_hi[c]))
        return out

    def _unbounded(self, c: str, cons: list[Con], sizes: set[str]) -> str:
        """Why ``c`` cannot be placed: no bound, one side only, or a cycle of bounds."""
        lo = c in sizes or any(t.get(c, 0) > 0 for t, _, _ in cons)
        hi = any(t.get(c, 0) < 0 for t, _, _ in cons)
        label = self.q.label(c)
        if lo and hi:
            others = sorted({t for terms, _, _ in cons if c in terms for t in terms} - {c})
            return (
                f"no constant bound reaches {label}: its bounds involve only "
                f"{', '.join(others)}, which are bounded by it (a cycle)"
            )
        if not hi and not lo:
            return f"no stated bound for {label}"
        return f"no stated {'upper' if not hi else 'lower'} bound for {label}"
