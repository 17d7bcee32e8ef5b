"""Parameter shapes: each parameter's spec (its kind, dimensions and value domain) from its
value facts (:class:`~.facts.LeafInfo`) and the quantity classes, including lists of rows with
named fields (``edges[i] = [a_i, b_i]``), one value domain per field.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from quicksilver.synth.offline.char_sentences import alphabet_of, char_rules_spec, largest_length
from quicksilver.synth.offline.constraints import Lin, Param, Ref, Unsupported
from quicksilver.synth.offline.facts import Facts, LeafInfo
from quicksilver.synth.offline.field_names import list_width
from quicksilver.synth.offline.formats import form_problem
from quicksilver.synth.offline.quantified import pinned_head
from quicksilver.synth.offline.quantities import Quantities
from quicksilver.synth.offline.row_fields import lins_spec, prepare_lins
from quicksilver.synth.offline.row_order import row_order_spec
from quicksilver.synth.offline.tree_shapes import tree_shape_spec
from quicksilver.synth.offline.unions import union_spec, word_union
from quicksilver.synth.offline.word_sentences import words_spec


class ParamSpecs:
    """Writes parameter specs; what cannot be generated is appended to ``problems``."""

    def __init__(
        self,
        facts: Facts,
        q: Quantities,
        problems: list[str],
        quantities: list[dict[str, Any]] | None = None,
    ) -> None:
        self.facts = facts
        self.q = q
        self.problems = problems
        self.quantities = quantities or []  # the schedule's: constant bounds of lengths

    def param_spec(self, p: Param, per_item: dict[str, dict[str, Any]]) -> dict[str, Any]:
        """The spec of parameter ``p``: its kind, dimensions (a quantity class, or a per-item
        length from ``per_item``) and value domain."""
        classes = self.q.names
        base: dict[str, Any] = {"name": p.name, "type": p.type}
        if p.is_quantity:
            return {**base, "kind": "quantity", "q": classes.get(p.name, p.name)}
        info = self.facts.leaf[p.name]
        dims: list[dict[str, Any]] = []
        for d in range(1 if p.tree else p.depth):
            cls = classes.get(p.dim_key(d), p.dim_key(d))
            dims.append(dict(per_item[cls]) if cls in per_item else {"q": cls})
        rows = info.unique_rows or info.distinct_cols or info.graph or info.apart_cols
        if info.form is not None and (
            info.cols or info.pairs or rows or p.name in self.facts.words
        ):
            self.problems.append(f'"{info.form[1]}": a structure of rows with fields or of words')
        if info.cols or info.pairs or rows or info.sorted_col or info.lins:
            return self._rows_spec(p, info, base, dims)
        if p.name in self.facts.words:
            return self._words_spec(p, info, base, dims)
        if p.join and (info.at or info.exclude or info.include or info.tokens):
            info.alphabet = alphabet_of(info, largest_length(dims[-1], self.quantities))
        kind = "tree" if p.tree else "list" if p.depth else "scalar"
        out = {
            **base,
            "kind": kind,
            "dims": dims,
            "leaf": self._leaf_spec(p, info),
            "join": p.join,
            "sorted": info.sorted,
            "distinct": info.distinct,
        }
        if info.bst:
            out["bst"] = True
        if info.depth_max is not None:
            out["depth_max"] = info.depth_max[0]
        if info.tree_shape is not None:  # a complete or perfect tree (tree_shapes.py)
            tree_shape_spec(p, info, out, self.facts, self.q.names, self.quantities, self.problems)
        if info.lead:
            self._lead(p, info, out)
        if info.spaces:
            alphabet = out["leaf"].get("alphabet") or ""
            if not p.join or info.sorted or " " not in alphabet or not alphabet.strip():
                line = next(iter(info.spaces.values()))
                self.problems.append(
                    f'"{line}": a rule on spaces, for strings whose alphabet has the space and '
                    "another character (and no stated order)"
                )
            out["spaces"] = sorted(info.spaces)
        if info.words is not None:
            words_spec(p, info, out, self.problems)  # a count of words (word_sentences.py)
        if info.apart:
            self._apart(p, info, out)
        if info.pins:
            self._pins(p, info, out)
        if info.diag is not None or info.symmetric:
            self._square(p, info, out)
        if p.name in self.facts.value_sums:
            self._value_sum(p, info, out)
        if info.below_index is not None:
            k, line = info.below_index
            ruled = info.sorted or info.distinct or info.apart or info.pins or info.lead
            if ruled or p.name in self.facts.value_sums or "set" in out["leaf"]:
                self.problems.append(f'"{line}": a bound by the index, with other rules')
            out["below_index"] = k
        if info.counts or info.at or info.kinds or info.tokens:
            longest = largest_length(dims[-1], self.quantities) if dims else None
            char_rules_spec(p, info, out, self.problems, longest)
        if info.form is not None:
            why = form_problem(p, info, out)
            if why:
                self.problems.append(f'"{info.form[1]}": {why}')
            out["form"] = info.form[0]
        return out

    def _square(self, p: Param, info: LeafInfo, out: dict[str, Any]) -> None:
        """An adjacency matrix: a square one (``n == grid.length == grid[i].length``) whose
        diagonal holds one value of its domain and, when symmetric, ``grid[i][j] ==
        grid[j][i]``; with no other rule on its values (the runtime sets them after drawing)."""
        line = info.symmetric or (info.diag[1] if info.diag else "")
        leaf, dims = out["leaf"], out["dims"]
        value = info.diag[0] if info.diag else None
        in_domain = value is None or (
            value in leaf["set"]
            if "set" in leaf
            else all(isinstance(b, int) for b in leaf["lo"] + leaf["hi"])
            and max(leaf["lo"]) <= value <= min(leaf["hi"])
            and value not in leaf.get("ne", ())
        )
        square = len(dims) == 2 and "q" in dims[0] and dims[0] == dims[1]
        ruled = info.sorted or info.distinct or info.apart or info.pins or info.lead
        if not square or not in_domain or ruled or p.name in self.facts.value_sums:
            self.problems.append(
                f'"{line}": a matrix rule, for a square matrix whose diagonal value is in its '
                "domain (and no other rule on its values)"
            )
        out["square"] = {"diag": value, "symmetric": bool(info.symmetric)}

    def _value_sum(self, p: Param, info: LeafInfo, out: dict[str, Any]) -> None:
        """``sum(nums[i]) <= S``: values in a constant range from >= 0, shrunk toward its low
        end until the sum fits (the schedule keeps ``length * low <= S``); not with an order,
        distinct values, exclusions or other rules on the values (shrinking could break them)."""
        limits = self.facts.value_sums[p.name]
        leaf = out["leaf"]
        lows = leaf.get("lo") or []
        simple = (
            "set" not in leaf
            and len(lows) == 1
            and isinstance(lows[0], int)
            and lows[0] >= 0
            and not leaf.get("ne")
        )
        ruled = info.sorted or info.distinct or info.apart or info.pins or info.lead
        if not simple or ruled:
            lines = ", ".join(f'"{line}"' for _, line in limits) or "a sum of values"
            self.problems.append(
                f"{lines}: a bound on the sum of {p.name}'s values, which need one constant "
                "range from 0 up and no order, distinctness or other rule"
            )
        if limits:
            out["values_sum_max"] = min(v for v, _ in limits)

    def _apart(self, p: Param, info: LeafInfo, out: dict[str, Any]) -> None:
        """``nums[i] != nums[i + 1]``: implied by distinct values, and a sorted list with no two
        neighbours equal is one in strict order (its values distinct). ``edges[i] != i`` is not
        drawn together with an order or distinctness (a value drawn again could break them)."""
        rules = dict(info.apart)
        if "next" in rules and (info.sorted or info.distinct):
            out["distinct"] = out["distinct"] or {"level": "value", "scope": "all"}
            del rules["next"]
        if "index" in rules and (info.sorted or info.distinct or info.lead):
            self.problems.append(
                f'"{rules["index"]}": a value apart from its index, together with an order, '
                "distinct values or no leading zeros"
            )
        if "next" in rules and info.lead:
            self.problems.append(f'"{rules["next"]}": neighbours apart, with no leading zeros')
        if rules:
            out["apart"] = sorted(rules)

    def _pins(self, p: Param, info: LeafInfo, out: dict[str, Any]) -> None:
        """Fixed positions: each index as a Python index (``m - 1`` for ``m == grid.length`` is
        -1), the value in the leaf's domain. Refused with an order (unless the value is the
        range's end the order puts there), with distinct values beyond one list, with rules of
        text, neighbours apart or no leading zeros."""
        leaf = out["leaf"]
        pins: list[list[Any]] = []
        for lins, value, line, op in info.pins:
            path: list[int | None] = []
            for d, lin in enumerate(lins):
                size = Lin(Fraction(0), {_q(p.dim_key(d)): Fraction(1)})
                got, off = self.q.to_cls(lin), self.q.to_cls(lin - size)
                if got is not None and not got[0]:
                    path.append(got[1])
                elif off is not None and not off[0]:
                    path.append(off[1])
                else:
                    path.append(self._end_by_equality(lin - size))
            why = (
                _pin_ne_problem(p, info, leaf, path)
                if op == "!="
                else self._pin_problem(p, info, leaf, path, value)
            )
            if why:
                self.problems.append(f'"{line}": {why}')
            pins.append([path, value] if op == "==" else [path, value, op])
        out["pins"] = pins

    def _end_by_equality(self, off: Lin) -> int | None:
        """A position counted from the list's end through a stated equality: ``obstacles[n]``
        with ``obstacles.length == n + 1`` is ``obstacles.length - 1`` (-1). None if none
        makes the offset a number."""
        for eq, _line in self.facts.eqs:
            for sign in (1, -1):
                got = self.q.to_cls(off + eq if sign > 0 else off - eq)
                if got is not None and not got[0] and got[1] < 0:
                    return got[1]
        return None

    def _pin_problem(
        self, p: Param, info: LeafInfo, leaf: dict[str, Any], path: list[int | None], value: Any
    ) -> str | None:
        """Why a fixed position cannot be drawn, or None."""
        if None in path:
            return "a position that is neither a number nor counted from the list's end"
        if info.spaces or info.lead or info.apart:
            return "a fixed position together with rules of text or values apart"
        if info.distinct and p.depth > 1:
            return "a fixed position among distinct values of nested lists"
        if leaf["type"] == "char":
            if not isinstance(value, str) or value not in leaf["alphabet"]:
                return "a fixed character outside the stated alphabet"
        elif leaf["type"] != "int" or not isinstance(value, int):
            return "a fixed value of another type than the list's"
        elif "set" in leaf:
            if value not in leaf["set"]:
                return "a fixed value outside the stated value set"
        elif pinned_head(self.facts, p.name, path):  # outside the quantified range (quantified.py)
            pass
        else:
            if any(isinstance(b, dict) for b in (*leaf["lo"], *leaf["hi"])):
                return "a fixed value in a range over sizes"
            if not max(leaf["lo"]) <= value <= min(leaf["hi"]) or value in leaf.get("ne", []):
                return "a fixed value outside the stated range"
        if info.sorted:
            ends = (min(leaf["hi"]), max(leaf["lo"])) if "lo" in leaf else (None, None)
            first = ends[1] if info.sorted == "asc" else ends[0]
            last = ends[0] if info.sorted == "asc" else ends[1]
            at_end = (path == [0] and value == first) or (path == [-1] and value == last)
            if p.depth != 1 or not at_end:
                return "a fixed position in a sorted list, other than its least (or greatest) end"
        return None

    def _lead(self, p: Param, info: LeafInfo, out: dict[str, Any]) -> None:
        """No leading zeros: strings of digits, or a list of digits (integers in a constant
        range from 0 or 1 up); the first item is drawn again from the others."""
        assert info.lead is not None
        leaf = out["leaf"]
        lo, hi = leaf.get("lo") or [None], leaf.get("hi") or [None]
        if p.join:
            ok = bool(set(leaf.get("alphabet") or "") & set("123456789"))
        else:
            ok = (
                p.depth >= 1
                and leaf["type"] == "int"
                and "set" not in leaf
                and len(lo) == len(hi) == 1
                and isinstance(lo[0], int)
                and isinstance(hi[0], int)
                and lo[0] >= 0
                and hi[0] >= 1
            )
            if ok:
                out["lead_range"] = [max(1, lo[0]), hi[0]]
        if not ok or info.sorted or info.distinct:
            self.problems.append(
                f'"{info.lead[1]}": no leading zeros, for strings or lists of digits with another '
                "digit to start with (and no stated order or distinctness)"
            )
        out["lead"] = info.lead[0]

    def _rows_spec(
        self,
        p: Param,
        info: LeafInfo,
        base: dict[str, Any],
        dims: list[dict[str, Any]],
    ) -> dict[str, Any]:
        """A list of rows with named fields (``edges[i] = [a_i, b_i]``): a leaf per field."""
        out = {**base, "kind": "list", "dims": dims, "join": False, "sorted": None}
        out["distinct"] = None
        width = dims[-1].get("lo") if len(dims) == 2 and "q" not in dims[-1] else None
        named = len(self.facts.width_fields(p.name))
        if width is None and (one := list_width(p, dims, self.quantities, named)):
            width = one  # startPos = [start_row, start_col], a shared fixed width (field_names)
        elif p.depth != 2 or p.leaf != "int" or not width or width != dims[-1].get("hi"):
            self.problems.append(
                f"{p.name} ({p.type}): fields per row need rows of one stated length "
                f"({p.name}[i].length == k or {p.name}[i] = [a_i, b_i, ...])"
            )
            return {**out, "leaf": {"type": "int", "lo": [0], "hi": [0]}}
        if info.sorted or info.distinct or info.pins or info.apart:
            self.problems.append(
                f"{p.name}: sorted, distinct, fixed or apart values together with fields"
            )
        prepare_lins(p, info, width, self.problems)  # relations between fields (row_fields.py)
        cols = columns(p, info, width)
        if isinstance(cols, str):
            self.problems.append(cols)
            return {**out, "leaf": {"type": "int", "lo": [0], "hi": [0]}}
        names = {col: f for f, (owner, col) in self.facts.fields.items() if owner == p.name}
        leaves = [
            self._leaf_spec(p, c, what=f"{names.get(j, f'{p.name}[i][{j}]')}")
            for j, c in enumerate(cols)
        ]
        out["leaf"] = leaves[0]
        out["cols"] = leaves
        out["fields"] = [names.get(j, f"{p.name}[i][{j}]") for j in range(width)]
        if info.pairs:
            out["pairs"] = [[a, b, op] for a, b, op, _ in info.pairs]
        if info.unique_rows and not info.graph:
            out["unique_rows"] = True
            if info.unique_key:
                out["unique_key"] = list(info.unique_key)
        if info.graph and info.unique_key and info.unique_key != [0, 1]:
            self.problems.append(
                f'"{info.unique_rows}": unique fields of a graph\'s rows other than its ends'
            )
        if info.tree:
            out["tree_edges"] = True
        if info.graph:
            out["graph"] = self._graph_spec(p, info, out)
        if info.distinct_cols:
            self._distinct_cols(info, width, out)
        row_order_spec(info, out, self.problems)
        if info.lins:
            lins_spec(info, out, self.problems, largest_length(dims[0], self.quantities))
        return out

    def _graph_spec(self, p: Param, info: LeafInfo, out: dict[str, Any]) -> dict[str, Any]:
        """The rows are a graph's edges (the first two fields its ends, drawn from one range of
        integers): which properties the draw keeps. An edge's direction is read from the
        statement (``directed``; ``undirected`` or ``bidirectional`` or no word: undirected, so
        no two rows join the same two nodes in either order, which holds in both readings); a
        connected graph that is directed (connected how?) is reported."""
        line = next(iter(info.graph.values()))
        cols, pairs = out["cols"], info.pairs
        ends_ok = (
            len(cols) >= 2
            and cols[0] == cols[1]
            and cols[0]["type"] == "int"
            and "set" not in cols[0]
            and not cols[0].get("ne")
        )
        others = any({a, b} != {0, 1} for a, b, _, _ in pairs)
        if not ends_ok or info.tree or info.distinct_cols or others:
            self.problems.append(
                f'"{line}": a graph whose edge ends are not the first two fields of its rows, '
                "drawn from one range (or with other relations between fields)"
            )
        prose = self.facts.prose
        dag = "dag" in info.graph
        directed = dag or (
            re.search(r"\bdirected\b", prose, flags=re.I) is not None
            and re.search(r"\bundirected\b|\bbi-?directional\b", prose, flags=re.I) is None
        )
        connected = "connected" in info.graph
        if connected and re.search(r"\bdirected\b", prose, flags=re.I):
            self.problems.append(f'"{info.graph["connected"]}": a connected directed graph')
        return {
            "directed": directed,
            "no_loops": dag or "loops" in info.graph or any(op != "<=" for _, _, op, _ in pairs),
            # no two edges with the same ends; "both_ways": in either order (an undirected
            # graph, or "at most one edge between any two nodes")
            "simple": bool(info.graph.keys() & {"simple", "between"} or info.unique_rows),
            "both_ways": not directed or "between" in info.graph or bool(info.unique_rows),
            "connected": connected,
            "dag": dag,
        }

    def _distinct_cols(self, info: LeafInfo, width: int, out: dict[str, Any]) -> None:
        """``All id_i are distinct``: that field's values are drawn distinct, and a row drawn
        again keeps them; so the field may not be swapped or drawn again by a pair, nor be an
        edge of a tree."""
        cols = out["cols"]
        for col, line in sorted(info.distinct_cols.items()):
            held = [(a, b, op) for a, b, op, _ in info.pairs if col in (a, b)]
            if col >= width:
                self.problems.append(f'"{line}": names a field that the rows do not have')
            elif info.tree or not all(_kept_pair(cols, info, *pair) for pair in held):
                self.problems.append(
                    f'"{line}": distinct values of a field that is related to another field '
                    "or is an end of a tree's edge"
                )
        out["distinct_cols"] = sorted(info.distinct_cols)

    def _words_spec(
        self, p: Param, info: LeafInfo, base: dict[str, Any], dims: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """A list of strings each one of a set of words: a list of ``word`` values (no string
        dimension). An alphabet, an order or another rule on its strings is reported."""
        words, line = self.facts.words[p.name]
        if not words:
            self.problems.append(f'"{line}": the stated sets of words have no common word')
        if info.alphabet is not None and not all(set(w) <= set(info.alphabet) for w in words):
            self.problems.append(f'"{line}": a word outside the stated alphabet of {p.name}')
        if (
            info.sorted
            or info.distinct
            or info.lead
            or info.spaces
            or info.pins
            or info.apart
            or (info.counts or info.at or info.exclude)
        ):
            self.problems.append(f'"{line}": a set of words together with another rule')
        return {
            **base,
            "kind": "list",
            "dims": dims[:-1],
            "leaf": {"type": "word", "set": list(words)} | word_union(info, words),
            "join": False,
            "sorted": None,
            "distinct": None,
        }

    def _leaf_spec(self, p: Param, info: LeafInfo, what: str | None = None) -> dict[str, Any]:
        """The value domain of ``p``'s values (or of one field of its rows): a type, and a
        range, a value set or an alphabet."""
        what = what or (f"the values of {p.name}" if p.depth else p.name)
        if p.leaf == "bool":
            return {"type": "bool"}
        if p.leaf == "char":
            if info.alphabet is None:
                self.problems.append(f"no stated alphabet for {what}")
                return {"type": "char", "alphabet": ""}
            if not info.alphabet:
                self.problems.append(f"the stated alphabets of {what} have no common character")
            return {"type": "char", "alphabet": info.alphabet}
        if p.leaf == "float":
            if not info.lo or not info.hi:
                self.problems.append(f"no stated range for {what}")
                return {
                    "type": "float",
                    "lo": 0.0,
                    "hi": 0.0,
                    "lo_strict": False,
                    "hi_strict": False,
                }
            # the tightest bounds; at equal values a strict bound is the tighter one
            lo, lo_strict = max((float(b.const), s) for b, s, _ in info.lo)
            hi, hi_loose = min((float(b.const), not s) for b, s, _ in info.hi)
            hi_strict = not hi_loose
            if lo > hi or (lo == hi and (lo_strict or hi_strict)):
                self.problems.append(f"{what}: the stated range is empty")
            return {
                "type": "float",
                "lo": lo,
                "hi": hi,
                "lo_strict": lo_strict,
                "hi_strict": hi_strict,
            }
        los = [self._int_bound(b, strict, +1) for b, strict, _ in info.lo]
        his = [self._int_bound(b, strict, -1) for b, strict, _ in info.hi]
        if info.values is not None:
            lo_c = [v for v in los if not isinstance(v, dict)]
            hi_c = [v for v in his if not isinstance(v, dict)]
            if len(lo_c) != len(los) or len(hi_c) != len(his):
                self.problems.append(f"{what}: a value set together with bounds on quantities")
            values = [
                v
                for v in info.values
                if all(v >= x for x in lo_c if x is not None)
                and all(v <= x for x in hi_c if x is not None)
                and v not in info.ne
            ]
            if not values:
                self.problems.append(f"{what}: no stated value satisfies every constraint")
            return {"type": "int", "set": values}
        if not los or not his:
            self.problems.append(f"no stated range for {what}")
            return {"type": "int", "lo": [0], "hi": [0]}
        lo_c = [v for v in los if isinstance(v, int)]
        hi_c = [v for v in his if isinstance(v, int)]
        if lo_c and hi_c and max(lo_c) > min(hi_c):
            self.problems.append(f"{what}: the stated range is empty")
        out: dict[str, Any] = {"type": "int", "lo": los, "hi": his}
        if info.ne:
            out["ne"] = sorted(set(info.ne))
        return out | union_spec(info, los, his)  # the parts of a union (unions.py)

    def _int_bound(self, lin: Lin, strict: bool, sign: int) -> Any:
        """A bound on integer values over quantity classes (a strict one made inclusive): an
        int, or ``{"const", "terms"}``."""
        adjusted = lin + Lin(Fraction(sign if strict else 0))
        try:
            got = self.q.to_cls(adjusted)
        except Unsupported as exc:
            self.problems.append(str(exc))
            return 0
        if got is None:
            return 0
        terms, const = got
        return {"const": const, "terms": terms} if terms else const


def columns(p: Param, info: LeafInfo, width: int) -> list[LeafInfo] | str:
    """Each field's facts: the whole list's bounds plus its own; the two fields of an
    ordered pair share both ranges (drawn from the common range, then ordered). A problem
    (text) when a field or a pair cannot be placed."""
    for col in info.cols:
        if col >= width:
            return f"{p.name} has {width} fields per row, not {col + 1}"
    cols = []
    for j in range(width):
        own = info.cols.get(j, LeafInfo())
        values = info.values
        if own.values is not None:
            values = own.values if values is None else [v for v in values if v in own.values]
        cols.append(
            LeafInfo(
                lo=[*info.lo, *own.lo],
                hi=[*info.hi, *own.hi],
                values=values,
                ne=[*info.ne, *own.ne],
                union=own.union or info.union,
            )
        )
    ordered: set[int] = set()
    for a, b, op, line in info.pairs:
        if max(a, b) >= width or a == b:
            return f'"{line}": names fields that {p.name}\'s rows do not have'
        if op == "!=":
            continue
        if a in ordered or b in ordered:
            return f'"{line}": a field in two orderings'
        ordered |= {a, b}
        ca, cb = cols[a], cols[b]
        merged = LeafInfo(lo=[*ca.lo, *cb.lo], hi=[*ca.hi, *cb.hi], ne=[*ca.ne, *cb.ne])
        if ca.values is not None or cb.values is not None:
            sets = [c.values for c in (ca, cb) if c.values is not None]
            merged.values = [v for v in sets[0] if all(v in x for x in sets)]
        cols[a] = cols[b] = merged
    return cols


def _q(key: str) -> Ref:
    """The reference to the quantity ``key`` (a length, a count)."""
    return Ref("q", key=key)


def _kept_pair(cols: list[dict[str, Any]], info: LeafInfo, a: int, b: int, op: str) -> bool:
    """Whether a distinct field may be one end of the pair ``a op b``: an order (``start_i <
    end_i`` with ``All start_i are unique``) whose other end is not distinct, is in no other
    pair, and is a plain range of integers. The runtime then draws the distinct field first
    (with room for the other end when the order is strict) and the other end within the
    range the order leaves it."""
    other = b if a in info.distinct_cols else a
    leaf = cols[other]
    return (
        op != "!="
        and other not in info.distinct_cols
        and sum(other in (x, y) for x, y, _, _ in info.pairs) == 1
        and leaf["type"] == "int"
        and "set" not in leaf
        and not leaf.get("ne")
    )


def _pin_ne_problem(p: Param, info: LeafInfo, leaf: dict[str, Any], path: list[int | None]) -> str:
    """Why a value a fixed position may not hold (``s[0] != 'i'``) cannot be kept, or "": the
    runtime draws that position again from the leaf's other values, which an order, distinct
    values or rules of text could not allow."""
    if None in path:
        return "a position that is neither a number nor counted from the list's end"
    if info.sorted or info.distinct or info.spaces or info.lead or info.apart or leaf.get("ne"):
        return "a value a position may not hold, in a list with an order or other rules"
    choices = leaf.get("set") or leaf.get("alphabet")
    if leaf["type"] not in ("int", "char") or (choices is not None and len(choices) < 2):
        return "a value a position may not hold, with no other value to draw"
    if choices is None and any(isinstance(b, dict) for b in (*leaf["lo"], *leaf["hi"])):
        return "a value a position may not hold, in a range over sizes"
    if choices is None and max(leaf["lo"]) >= min(leaf["hi"]):
        return "a value a position may not hold, with no other value to draw"
    return ""
