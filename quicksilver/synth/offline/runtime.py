"""The emitted runtime: the small generic sampler every offline generator carries, and the file
around it (:func:`emit_generator`). The functions below are copied verbatim (``inspect.getsource``)
into every generated generator, after its literal spec: they use only ``math``, ``random``, each
other and builtin types. :func:`sample_spec` runs them in this process (tests, debugging). The
sampling policies in each file's header: :data:`SAMPLING_POLICY` (test inputs) and
:data:`PERF_POLICY` (``perf_input_gen(scale)``).
"""

from __future__ import annotations

import inspect
import logging
import math
import pprint
import random
import textwrap
from collections.abc import Callable, Iterable
from typing import Any

from quicksilver.synth import OFFLINE_SYNTHESIZER
from quicksilver.synth.offline.entries import EDGE_ENTRY
from quicksilver.synth.offline.policy import SAMPLING_POLICY
from quicksilver.synth.offline.runtime_adj import ADJ_RUNTIME, _adj_lists, _deg_edges
from quicksilver.synth.offline.runtime_derived import DERIVED_RUNTIME, _below_count
from quicksilver.synth.offline.runtime_forms import FORMS_RUNTIME, _relate, _shaped
from quicksilver.synth.offline.runtime_members import MEMBERS_RUNTIME, _members
from quicksilver.synth.offline.runtime_neighbours import (
    NEIGHBOURS_RUNTIME,
    _apart_cells,
    _no_adjacent,
)
from quicksilver.synth.offline.runtime_numstr import NUMSTR_RUNTIME, _num_order
from quicksilver.synth.offline.runtime_numtheory import _size_value
from quicksilver.synth.offline.runtime_occurs import OCCURS_RUNTIME, _occurs, _ruled_values
from quicksilver.synth.offline.runtime_parts import (
    _below_index,
    _char_count,
    _char_kinds,
    _char_rules,
    _count_range,
    _digit_value,
    _draw_float,
    _ends,
    _eval,
    _fit_kept,
    _fit_sum,
    _graph_edges,
    _kept_leaves,
    _order_rows,
    _pin,
    _poly,
    _shrink_sum,
    _square,
    _text_rules,
    _tree,
    _unseen_string,
    _zip,
)
from quicksilver.synth.offline.runtime_perf import _perf_variants
from quicksilver.synth.offline.runtime_presence import PRESENCE_RUNTIME, _presence
from quicksilver.synth.offline.runtime_prods import PRODS_RUNTIME, _expr_range
from quicksilver.synth.offline.runtime_quant import QUANT_RUNTIME, _chains, _parent_tree
from quicksilver.synth.offline.runtime_rows import ROWS_RUNTIME, _chain_rows, _fit_lins
from quicksilver.synth.offline.runtime_sums import (
    SUMS_RUNTIME,
    _below_sum,
    _grow_sum,
    _meet_sum,
)
from quicksilver.synth.offline.runtime_trees import TREES_RUNTIME, _shaped_tree
from quicksilver.synth.offline.runtime_union import UNION_RUNTIME, _draw_union
from quicksilver.synth.offline.runtime_uniq import UNIQ_RUNTIME, _uniq
from quicksilver.synth.offline.runtime_words import WORDS_RUNTIME

log = logging.getLogger(__name__)

DEFAULT_SIZE_CAP = 1000

# ---------------------------------------------------------------------------------------------
# The generic runtime. These functions are copied verbatim (inspect.getsource) into every
# generated generator, so they use only ``math``, ``random`` and each other, and builtin types.
# ---------------------------------------------------------------------------------------------

_BOUNDARY_P = 0.1  # probability of a boundary size / value / path-shaped tree
_ORDER_P = 0.1  # probability that a list with no stated order comes sorted (asc or desc)
# "random": test inputs (the policy above). "max": performance inputs for perf_input_gen(scale):
# every length and count at its largest allowed value (the caller caps it with size_cap = scale),
# magnitude-like scalars likewise, and no random edge cases (they would break monotonicity).
_SIZE_MODE = "random"
# Edge cases (generate_edge_cases()): "min" puts every length, count and scalar at its smallest
# allowed value, "min1" every length and count one above it (a single node, a one-letter
# string); _VALUE_MODE "low" / "high" puts every element value at the low / high end of its
# range (an all-negative tree, all-equal values). "random": the test-input policy.
_VALUE_MODE = "random"
# The worst-case search (quicksilver/dpe/worstcase.py): None, or a structured variant applied in
# "max" mode: {"values": {param: variant}, "shape": {param: "path"}, "quantities": {name: skew}}.
# Value variants: "sorted", "reversed", "equal", "few" (3 distinct values), "alternating" (a
# zigzag: smallest, largest, 2nd smallest, ...), "extremes" (each value at an end of its range),
# "zeros" (about half the values 0, where 0 is allowed), "bst" (a tree's values placed in order:
# a search tree, which a validity check must walk to the end).
# Skews of a scalar quantity over [lo, top] (top = min(hi, max(lo, scale))): "min", "sqrt"
# (lo + isqrt(top - lo)), "half", "max". Only variants the stated constraints allow are offered
# (_perf_variants), and with None the runtime draws exactly what it drew without the search.
_PATTERN = None


def _chance(p: float) -> bool:
    """True with probability ``p``; never in "max" mode, where sizes must be monotone in scale.

    In "random" mode it draws exactly one ``random.random()``, as the runtime always did.
    """
    return _SIZE_MODE == "random" and random.random() < p


def _pick_size(lo: int, hi: int) -> int:
    """A length or count: uniform in [lo, hi], now and then exactly lo or hi (edge cases).

    In "max" mode: hi (which the callers already capped at size_cap).
    """
    if _SIZE_MODE == "max":
        return hi
    if _SIZE_MODE in ("min", "min1"):
        return lo if _SIZE_MODE == "min" else min(lo + 1, hi)
    if _chance(_BOUNDARY_P):
        return random.choice((lo, hi))
    return random.randint(lo, hi)


def _log_magnitude(a: int, b: int) -> int:
    """An integer in [a, b] (0 <= a <= b) whose magnitude is log-uniform."""
    x = math.exp(random.uniform(math.log(a + 1), math.log(b + 1))) - 1
    return min(b, max(a, int(x)))


def _pick_scalar(lo: int, hi: int) -> int:
    """A scalar integer: log-uniform in magnitude over a range spanning >= 3 orders of magnitude."""
    if _chance(_BOUNDARY_P):
        return random.choice((lo, hi))
    if lo >= 0:
        return _log_magnitude(lo, hi) if hi + 1 >= 1000 * (lo + 1) else random.randint(lo, hi)
    if hi <= 0:
        if -lo + 1 >= 1000 * (-hi + 1):
            return -_log_magnitude(-hi, -lo)
        return random.randint(lo, hi)
    if max(-lo, hi) + 1 < 1000:
        return random.randint(lo, hi)
    neg = math.log(-lo + 1)
    pos = math.log(hi + 1)
    if random.random() * (neg + pos) < neg:
        return -_log_magnitude(1, -lo)
    return _log_magnitude(0, hi)


def _sample_quantities(quantities: list, size_cap: int) -> dict:
    """Sizes and scalars in order; each bound is ``coef * x + rest >= 0`` (rest: earlier ones).

    An item may also carry ``"mod": [m, r]`` (x % m == r: ``n is even``), ``"ne"``: bounds
    ``coef * x + rest != 0`` (``divisor != 0``, ``src != dst``), ``"prod"``: [other, lo,
    hi] for ``lo <= other * x <= hi`` (``1 <= m * n <= 10^5``; lo may be None), and ``"poly"``:
    bounds by a product or power of earlier ones (``edges.length <= n * (n - 1) / 2``). After 100
    draws that found no room, scalars are drawn as in random mode: a max-mode scalar grown with the
    scale can leave a later one none (``0 <= left <= right < words.length``, left at the cap).
    """
    for _attempt in range(200):
        q: dict = {}
        for item in quantities:
            los, his = [], []  # the synthesizer gives every quantity at least one of each
            for bound in item["bounds"]:
                rest = _eval(bound["rest"], q)
                coef = bound["coef"]
                if coef > 0:
                    los.append(-(rest // coef))  # ceil(-rest / coef)
                else:
                    his.append(rest // -coef)  # floor(rest / -coef)
            lo, hi = max(los), min(his)
            for other, plo, phi in item.get("prod", ()):  # plo <= other * x <= phi
                f = q[other]
                if f > 0:
                    hi = min(hi, phi // f)
                    lo = lo if plo is None else max(lo, -(-plo // f))
                elif f < 0 or (plo is not None and plo > 0):
                    hi = lo - 1  # not drawn that way: draw again
            for b in item.get("poly", ()):  # x op num / den, num a product or power of others
                num, den = _poly(b["num"], q), b["den"]
                if b["op"] in ("<=", "<", "=="):
                    hi = min(hi, num // den if b["op"] != "<" else -(-num // den) - 1)
                if b["op"] in (">=", ">", "=="):
                    lo = max(lo, -(-num // den) if b["op"] != ">" else num // den + 1)
            lo, hi = _expr_range(item, lo, hi, q)  # a product or power in numbers (prods.py)
            mod = item.get("mod")
            if mod:
                lo += (mod[1] - lo) % mod[0]
            if item["size"]:
                cap = size_cap
                if "cap" in item:  # a free n with length == a * n + c: the length fits the cap
                    cap = (size_cap - item["cap"][1]) // item["cap"][0]
                hi = min(hi, max(cap, lo))
            if mod:
                hi -= (hi - mod[1]) % mod[0]
            if lo > hi:
                break  # an earlier choice left no room: draw again
            value = _pick_quantity(item, lo, hi, size_cap, q, _attempt >= 100)
            if value is None:
                break
            q[item["name"]] = value
        else:
            return q
    raise RuntimeError("could not satisfy the size constraints in 200 draws")


def _pick_quantity(
    item: dict, lo: int, hi: int, size_cap: int, q: dict, relaxed: bool = False
) -> int | None:
    """One size or scalar in [lo, hi] (already aligned to its ``mod``); None: no allowed value
    was found (the caller draws everything again). ``relaxed``: a scalar as in random mode."""
    mod, ne = item.get("mod"), item.get("ne", ())
    skew = (_PATTERN or {}).get("quantities", {}).get(item["name"]) if not item["size"] else None
    for attempt in range(20):
        if attempt:
            value = random.randint(lo, hi)  # only after an excluded value ("ne")
        elif skew is not None and _SIZE_MODE == "max":
            top = min(hi, max(lo, size_cap))
            if skew == "min":
                value = lo
            elif skew == "sqrt":
                value = lo + math.isqrt(top - lo)
            elif skew == "half":
                value = lo + (top - lo) // 2
            else:
                value = top
        elif item["size"]:
            value = _pick_size(lo, hi)
        elif _SIZE_MODE == "max" and not relaxed and lo >= 0 and hi + 1 >= 1000 * (lo + 1):
            # a magnitude-like scalar (amount <= 10^4, x <= 2^31 - 1) grows with scale too
            value = min(hi, max(lo, size_cap))
        elif _SIZE_MODE in ("min", "min1") and not relaxed:
            value = lo
        else:
            value = _pick_scalar(lo, hi)
        if mod:
            value -= (value - mod[1]) % mod[0]  # stays >= lo, which is aligned
        # its decimal digits from a set ("digits"): the nearest such value
        got = _size_value(item, value, lo, hi, q)  # its digits, a power of two (numtheory.py)
        if got is not None and all(b["coef"] * got + _eval(b["rest"], q) != 0 for b in ne):
            return got
    return None


def _level_counts(dims: list, q: dict, size_cap: int) -> list:
    """Item counts level by level: [[n], [len(row 0), len(row 1), ...], ...]."""
    levels = [[q[dims[0]["q"]]]]
    for dim in dims[1:]:
        total = sum(levels[-1])
        if "q" in dim:
            counts = [q[dim["q"]]] * total
        else:
            lo = dim["lo"]
            hi = max(lo, min(dim["hi"], size_cap))
            counts = [_pick_size(lo, hi) for _ in range(total)]
            if dim.get("sum_max") is not None:
                limit = min(dim["sum_max"], max(size_cap, lo * total))
                counts = _fit_sum(counts, lo, limit)
            if dim.get("sum_min") is not None:  # a least sum of the lengths (sums.py)
                counts = _grow_sum(counts, dim["hi"], dim["sum_min"])
        levels.append(counts)
    return levels


def _draw(leaf: dict, q: dict, count: int, distinct: bool, edge: bool) -> list:
    """``count`` values of one leaf domain (``edge``: lean on the extremes)."""
    if count == 0:
        return []  # e.g. an empty list whose value bound is nums.length - 1
    kind = leaf["type"]
    if kind == "bool":
        return [random.random() < 0.5 for _ in range(count)]
    if kind == "float":
        if _VALUE_MODE != "random" and not distinct:
            end = leaf["lo"] if _VALUE_MODE == "low" else leaf["hi"]
            if not (leaf["lo_strict"] if _VALUE_MODE == "low" else leaf["hi_strict"]):
                return [end] * count
        return _draw_float(leaf, count, distinct, edge)
    if "union" in leaf and _VALUE_MODE == "random" and not distinct:  # runtime_union.py
        return _draw_union(leaf["union"], count, edge, kind == "word")
    if kind == "int" and "set" not in leaf:
        lo = max(_eval(f, q) for f in leaf["lo"])
        hi = min(_eval(f, q) for f in leaf["hi"])
        if lo > hi:
            raise RuntimeError(f"empty value range [{lo}, {hi}]")
        if _VALUE_MODE != "random" and not distinct and not leaf.get("ne"):
            return [lo if _VALUE_MODE == "low" else hi] * count
        if leaf.get("ne"):
            return _draw_excluding(leaf, q, count, distinct, edge, lo, hi)
        if distinct:
            if count > hi - lo + 1:
                raise RuntimeError(f"{count} distinct values do not fit in [{lo}, {hi}]")
            if edge and count >= 2:
                out = [lo, hi, *random.sample(range(lo + 1, hi), count - 2)]
                random.shuffle(out)
                return out
            return random.sample(range(lo, hi + 1), count)
        if edge:
            return [
                random.choice((lo, hi)) if random.random() < 0.5 else random.randint(lo, hi)
                for _ in range(count)
            ]
        return [random.randint(lo, hi) for _ in range(count)]
    choices = list(leaf["set"]) if "set" in leaf else list(leaf["alphabet"])
    if _VALUE_MODE != "random" and not distinct:
        return [min(choices) if _VALUE_MODE == "low" else max(choices)] * count
    if distinct:
        if count > len(choices):
            raise RuntimeError(f"{count} distinct values do not fit in {len(choices)} choices")
        return random.sample(choices, count)
    if edge and len(choices) > 1:
        choices = random.sample(choices, random.randint(1, 2))  # e.g. "aaaa", all '0'
    return [random.choice(choices) for _ in range(count)]


def _draw_excluding(
    leaf: dict, q: dict, count: int, distinct: bool, edge: bool, lo: int, hi: int
) -> list:
    """Integer values in [lo, hi] other than ``leaf["ne"]`` (``nums[i] != 0``)."""
    bad = set(leaf["ne"])
    plain = {k: v for k, v in leaf.items() if k != "ne"}
    if distinct:
        room = hi - lo + 1
        got = _draw(plain, q, min(room, count + len(bad)), True, edge)
        out = [x for x in got if x not in bad][:count]
        if len(out) < count:
            raise RuntimeError(f"{count} distinct values do not fit in [{lo}, {hi}] less {bad}")
        return out
    out = _draw(plain, q, count, False, edge)
    for i, x in enumerate(out):
        tries = 0
        while x in bad:
            tries += 1
            if tries > 100:
                raise RuntimeError(f"no value in [{lo}, {hi}] other than {sorted(bad)}")
            x = random.randint(lo, hi)
        out[i] = x
    return out


def _distinct_strings(strings: list, p: dict, q: dict, size_cap: int) -> list | None:
    """Redraw repeated strings until all differ (a bounded number of tries). With a bound on
    the sum of the lengths (``sum_max``), a string is drawn again at its own length, one longer
    every 20 tries, and never longer than the room the others leave. None when no string of
    that length is left (one shared length too short for so many strings): drawn again."""
    last = p["dims"][-1]
    seen: set = set()
    out = []
    total = sum(len(s) for s in strings)
    for s in strings:
        tries = 0
        while s in seen:
            tries += 1
            if tries > 200:  # nearly every string is taken: one of those left, if any
                s = _unseen_string(p, q, last, seen)
                if s is None:  # none left at this length: the sizes are drawn again
                    return None
                break
            if "q" in last:
                length = q[last["q"]]
            elif last.get("sum_max") is not None:
                # one character longer every 20 tries, while the others leave room
                room = len(s) + last["sum_max"] - total  # >= len(s): the sum was fitted
                length = max(last["lo"], min(last["hi"], room, len(s) + tries // 20))
                total += length - len(s)
            else:
                length = _pick_size(last["lo"], max(last["lo"], min(last["hi"], size_cap)))
            chars = _draw(p["leaf"], q, length, False, False)
            if p["sorted"]:
                chars.sort(reverse=p["sorted"] == "desc")
            if p.get("form"):  # a path (formats.py: the one form drawn with distinct strings)
                chars = _shaped(p["form"], chars, p["leaf"]) or chars
            s = _text_rules(p, "".join(chars))
        seen.add(s)
        out.append(s)
    return out


def _build_param(p: dict, q: dict, size_cap: int) -> object:
    """One argument from its spec entry and the sampled quantities."""
    if p["kind"] == "quantity":
        return q[p["q"]]
    edge = _chance(_BOUNDARY_P)
    if p["kind"] == "scalar":
        return _draw(p["leaf"], q, 1, False, edge)[0]
    if p.get("adj"):  # an adjacency list (adjacency.py)
        return _adj_lists(p, q)
    levels = _level_counts(p["dims"], q, size_cap)
    rows = levels[-1]
    distinct = p["distinct"]
    if "cols" in p:  # rows of named fields: a value range per field
        table = _draw_rows(p, q, len(rows), edge)
        return table[0] if table and len(p["dims"]) == 1 else table  # startPos = [row, col]
    if distinct and distinct["level"] == "value" and distinct["scope"] == "all":
        flat = _draw(p["leaf"], q, sum(rows), True, edge)
    elif distinct and distinct["level"] == "value":
        flat = []
        for r in rows:
            flat.extend(_draw(p["leaf"], q, r, True, edge))
    else:
        flat = _draw(p["leaf"], q, sum(rows), False, edge)
    if _ruled_values(p):  # how many times values occur, even or prime values (occurs.py)
        flat = _occurs(p, q, flat, _VALUE_MODE)
    variant = None
    if _PATTERN and _SIZE_MODE == "max":
        variant = _PATTERN.get("values", {}).get(p["name"])
        if variant in ("equal", "few", "extremes"):
            flat = _variant_values(p["leaf"], q, len(flat), variant)
        elif variant == "zeros":  # about half the values 0: a zero-moving or product task's worst
            flat = [0 if random.random() < 0.5 else x for x in flat]
    order = p["sorted"]
    if variant in ("sorted", "alternating"):
        order = order or "asc"
    elif variant == "reversed":
        order = order or "desc"
    if not order and not p["join"] and p["kind"] != "tree" and _chance(_ORDER_P):
        # ordered lists are classic edge and worst cases (a falling price series, a sorted input
        # for a naive quicksort); sorting keeps every stated constraint on the values
        order = random.choice(("asc", "desc"))
    inner: list = []
    i = 0
    for r in rows:
        row = flat[i : i + r]
        i += r
        if order:
            row.sort(reverse=order == "desc")
        if variant == "alternating":
            row = [row[j // 2] if j % 2 == 0 else row[-1 - j // 2] for j in range(len(row))]
        if p.get("form"):  # a structure stated in words (formats.py); None: no room, draw again
            shaped = _shaped(p["form"], row, p["leaf"])
            if shaped is None:
                return None
            row = shaped
        inner.append(row if p["join"] else _text_rules(p, row))
    chars = any(k in p for k in ("counts", "at", "kinds", "tokens"))  # rules on characters
    if chars and _char_rules(p, inner) is None:  # in place; None: no room (draw again)
        return None
    if p["join"]:
        inner = [_text_rules(p, "".join(row)) for row in inner]
        if distinct and distinct["level"] == "string":
            strings = _distinct_strings(inner, p, q, size_cap)
            if strings is None:
                return None
            inner = strings
    if p["kind"] == "tree":
        path = bool(_PATTERN and _SIZE_MODE == "max" and _PATTERN.get("shape", {}).get(p["name"]))
        bst = p.get("bst", False) or variant == "bst"  # a search tree: checks that walk it all
        if p.get("tree_shape"):  # complete or perfect (tree_shapes.py)
            return _shaped_tree(inner[0], p["tree_shape"], bst)
        return _tree(inner[0], path or _chance(_BOUNDARY_P), bst, p.get("depth_max"))
    if p.get("apart"):
        inner = [_apart(p, row, q) for row in inner]
    if p.get("no_adjacent"):  # no two 1s side by side (neighbours.py)
        inner = [_no_adjacent(p, row) for row in inner]
    if p.get("below_index") is not None:
        inner = [_below_index(p, row, q) for row in inner]
    if p.get("parent_tree"):  # a tree given by its parents (quantified.py)
        path = bool(_PATTERN and _SIZE_MODE == "max" and _PATTERN.get("shape", {}).get(p["name"]))
        inner = [_parent_tree(p["parent_tree"], row, path or _chance(_BOUNDARY_P)) for row in inner]
    if p.get("values_sum_max") is not None:  # one level, values in one constant range from 0 up
        inner = [_shrink_sum(row, p["leaf"]["lo"][0], p["values_sum_max"]) for row in inner]
    if p.get("values_sum"):  # a least, fixed or odd/even sum of values (sums.py)
        top = p.get("values_sum_max")
        inner = [_meet_sum(row, p["leaf"], p["values_sum"], top) for row in inner]
        if None in inner:
            return None
    for counts in reversed(levels[:-1]):
        nested = []
        i = 0
        for c in counts:
            nested.append(inner[i : i + c])
            i += c
        inner = nested
    if p.get("apart_cells"):  # no two adjacent cells equal (neighbours.py)
        inner[0] = _apart_cells(p["leaf"], inner[0])
    if p.get("square"):
        inner[0] = _square(p["square"], inner[0])
    return _pin(p, inner[0]) if p.get("pins") else inner[0]


def _apart(p: dict, row: list, q: dict) -> list:
    """``nums[i] != nums[i + 1]`` (``"next"`` in ``p["apart"]``) and ``edges[i] != i``
    (``"index"``): a value that equals its neighbour before it, or its own index, is drawn
    again, uniformly over its domain (in every value mode)."""
    rules = p["apart"]
    for i in range(len(row)):
        tries = 0
        while ("next" in rules and i and row[i] == row[i - 1]) or (
            "index" in rules and row[i] == i
        ):
            tries += 1
            if tries > 200:
                raise RuntimeError(f"no value for {p['name']}[{i}] apart from its neighbour")
            row[i] = _draw(p["leaf"], q, 1, True, False)[0]
    return row


def _variant_values(leaf: dict, q: dict, count: int, variant: str) -> list:
    """``count`` values of one leaf domain, all equal ("equal"), from 3 values drawn once
    ("few"), or each at the low or high end of the domain ("extremes")."""
    if count == 0:
        return []
    if variant == "equal":
        return _draw(leaf, q, 1, False, False) * count
    if variant == "few":
        pool = _draw(leaf, q, min(3, count), False, False)
        return [random.choice(pool) for _ in range(count)]
    if leaf["type"] == "int" and "set" not in leaf:
        ends = [max(_eval(f, q) for f in leaf["lo"]), min(_eval(f, q) for f in leaf["hi"])]
    else:
        choices = list(leaf["set"]) if "set" in leaf else list(leaf["alphabet"])
        ends = [min(choices), max(choices)]
    return [random.choice(ends) for _ in range(count)]


def _tree_rows(p: dict, q: dict, count: int) -> list | None:
    """``count`` rows whose first two fields are the edges of a random tree (now and then a
    path) over every value of the first field's range, which must hold ``count + 1`` values
    (else None: the caller draws again); the other fields drawn from their ranges."""
    cols = p["cols"]
    lo = max(_eval(f, q) for f in cols[0]["lo"])
    hi = min(_eval(f, q) for f in cols[0]["hi"])
    if hi - lo != count:
        return None
    nodes = list(range(lo, hi + 1))
    random.shuffle(nodes)
    path = _chance(_BOUNDARY_P)
    rows = []
    for i in range(1, len(nodes)):
        a, b = nodes[i - 1 if path else random.randrange(i)], nodes[i]
        if random.random() < 0.5:
            a, b = b, a
        rows.append([a, b, *(_draw(c, q, 1, False, False)[0] for c in cols[2:])])
    for a, b, op in p.get("pairs", ()):
        if {a, b} == {0, 1} and op != "!=":  # a_i < b_i: each edge written in order
            for row in rows:
                if row[a] > row[b]:
                    row[a], row[b] = row[b], row[a]
    random.shuffle(rows)
    return rows


def _graph_rows(p: dict, q: dict, count: int) -> list | None:
    """``count`` rows whose first two fields are a graph's edges (``_graph_edges``: the
    properties of ``p["graph"]``) over the first field's range, each edge written in order when
    a pair orders its ends (``a_i < b_i``: then no two edges join the same ends in either
    order); the other fields drawn from their ranges. None: no such edges (draw again)."""
    cols = p["cols"]
    lo = max(_eval(f, q) for f in cols[0]["lo"])
    hi = min(_eval(f, q) for f in cols[0]["hi"])
    g = p["graph"]
    ordered = [(a, b) for a, b, op in p.get("pairs", ()) if op != "!="]
    if ordered:
        g = {**g, "directed": False, "both_ways": True, "dag": False, "no_loops": True}
    draw = _deg_edges if g.get("deg_max") else _graph_edges  # a degree bound: graph_degree.py
    edges = draw(lo, hi, count, g, _chance(_BOUNDARY_P))
    if edges is None:
        return None
    rows = [[*e, *(_draw(c, q, 1, False, False)[0] for c in cols[2:])] for e in edges]
    for a, b in ordered:
        for row in rows:
            if row[a] > row[b]:
                row[a], row[b] = row[b], row[a]
    return rows


def _draw_rows(p: dict, q: dict, count: int, edge: bool) -> list | None:
    """``count`` rows, field j drawn from ``p["cols"][j]``; then each pair [a, b, op] holds
    (``!=``, ``<``: b drawn again until it differs; ``<=``, ``<``: a and b swapped when out of
    order, both having one range), a row drawn again when one pair undid another, and with
    ``unique_rows`` no two rows hold the same values. None when the sizes drawn leave no room
    (the caller draws everything again)."""
    if p.get("tree_edges"):
        return _tree_rows(p, q, count)
    if p.get("graph"):
        return _graph_rows(p, q, count)
    cols = p["cols"]
    keep = p.get("distinct_cols", ())  # fields whose values are distinct: drawn so, and kept
    leaves = _kept_leaves(p, q)
    drawn = [_draw(c, q, count, j in keep, edge) for j, c in enumerate(leaves)]
    table = [list(r) for r in zip(*drawn, strict=True)]
    seen: set = set()
    unique_key = p.get("unique_key")
    for row in table:
        for _try in range(1000):
            for a, b, op in p.get("pairs", ()):
                if a in keep or b in keep:  # an order with a distinct end: the other drawn
                    _fit_kept(cols, q, row, a, b, op, a in keep)
                    continue
                tries = 0
                while op != "<=" and row[a] == row[b]:
                    tries += 1
                    if tries > 100:
                        return None  # e.g. 1 <= a_i, b_i <= n with n == 1: draw n again
                    row[b] = _draw(cols[b], q, 1, False, False)[0]
                if op != "!=" and row[a] > row[b]:
                    row[a], row[b] = row[b], row[a]
            # a later pair may have moved a field an earlier one holds (a_i != b_i, b_i <= c_i)
            fits = "lins" not in p or _fit_lins(p, q, row)  # a field by others (row_fields.py)
            held = fits and all(
                row[a] != row[b]
                if op == "!="
                else row[a] < row[b]
                if op == "<"
                else row[a] <= row[b]
                for a, b, op in p.get("pairs", ())
            )
            key = tuple(sorted(row if unique_key is None else [row[j] for j in unique_key]))
            if held and (not p.get("unique_rows") or key not in seen):
                break
            row[:] = [
                x if j in keep else _draw(cols[j], q, 1, False, False)[0] for j, x in enumerate(row)
            ]
        else:
            return None
        seen.add(key)
    if "lins" in p:  # end_i < start_i+1: the rows one chain (row_fields.py)
        return _chain_rows(p, q, table)
    return _order_rows(p, q, table) if "sorted_col" in p or "apart_cols" in p else table


def _generate_from_spec(spec: dict, size_cap: int) -> list:
    """One test input: the method's arguments in parameter order, as plain data."""
    for _attempt in range(50):
        q = _sample_quantities(spec["quantities"], size_cap)
        args = [_build_param(p, q, size_cap) for p in spec["params"]]
        if "relations" in spec and None not in args:  # two strings of one format: formats.py
            args = _relate(spec, args)
        args = _members(spec, args) if "members" in spec and None not in args else args
        args = _presence(spec, args) if "presence" in spec and None not in args else args
        args = _num_order(spec, args) if "num_order" in spec and None not in args else args
        args = _uniq(spec, args) if "uniq" in spec and None not in args else args
        if None not in args and any("below_sum" in p for p in spec["params"]):  # sums.py
            args = _below_sum(spec, args, q, _SIZE_MODE) or [None]
        derived = ("below_count", "same_digits")  # derived_counts.py
        if None not in args and any(k in p for p in spec["params"] for k in derived):
            args = _below_count(spec, args, q, _SIZE_MODE) or [None]
        if (
            all(a is not None for a in args)
            and all(  # None: rows the sizes left no room for
                _zip(spec["params"], args, rule, q) for rule in spec.get("zips", ())
            )
            and _chains(spec, args, q)
        ):  # two lists in one chain (quantified.py)
            return args
    raise RuntimeError("could not draw rows that meet the constraints in 50 draws")


_RUNTIME: tuple[Callable[..., Any], ...] = (
    _eval,
    _chance,
    _pick_size,
    _log_magnitude,
    _pick_scalar,
    _sample_quantities,
    _pick_quantity,
    _fit_sum,
    _level_counts,
    _draw_float,
    _draw,
    _draw_excluding,
    _text_rules,
    _char_rules,
    _count_range,
    _char_count,
    _char_kinds,
    _digit_value,
    _distinct_strings,
    _unseen_string,
    _tree,
    _pin,
    _poly,
    _shrink_sum,
    _square,
    *FORMS_RUNTIME,
    *OCCURS_RUNTIME,
    *TREES_RUNTIME,
    *MEMBERS_RUNTIME,
    *PRESENCE_RUNTIME,
    *PRODS_RUNTIME,
    *NUMSTR_RUNTIME,
    *NEIGHBOURS_RUNTIME,
    *QUANT_RUNTIME,
    *WORDS_RUNTIME,
    *ADJ_RUNTIME,
    *SUMS_RUNTIME,
    *ROWS_RUNTIME,
    *UNION_RUNTIME,
    *UNIQ_RUNTIME,
    *DERIVED_RUNTIME,
    _apart,
    _below_index,
    _variant_values,
    _perf_variants,
    _tree_rows,
    _graph_edges,
    _graph_rows,
    _ends,
    _kept_leaves,
    _fit_kept,
    _order_rows,
    _draw_rows,
    _zip,
    _build_param,
    _generate_from_spec,
)

OFFLINE_PERF_SYNTHESIZER = "quicksilver-offline-perf-synth/1"  # the "model" of offline SaS rows

# The cap a perf spec is built with: above any stated bound, so none is capped. The runtime only
# compares sizes with a cap (it allocates by the sizes it picks: at most ``scale`` per dimension).
PERF_SPEC_CAP = 2**62


def emit_generator(
    spec: dict[str, Any],
    size_cap: int,
    *,
    header: Iterable[str] = (),
    extra_entry: str | None = None,
    title: str | None = None,
    policy: str = SAMPLING_POLICY,
) -> str:
    """The generator source for ``spec``: runtime + literal spec + ``_generate(size_cap)``.

    ``generate_test_case()`` calls ``_generate(SIZE_CAP)``. ``extra_entry`` (source text) is
    appended verbatim, e.g. a ``perf_input_gen(scale)`` that calls ``_generate`` with a cap that
    grows with ``scale``. ``title`` replaces the first header line (who wrote the file, without
    the ``# ``) and ``policy`` the sampling policy written under it.
    """
    title = title or f"Test-input generator written by {OFFLINE_SYNTHESIZER} (no LLM)."
    lines = ["# " + w for w in textwrap.wrap(title, 96)]
    for h in header:
        indent = " " * (len(h) - len(h.lstrip()))
        lines += ["# " + w for w in textwrap.wrap(h, 96, subsequent_indent=indent + "    ")]
    lines.append("# Sampling policy:")
    lines += ["#   " + ln for ln in textwrap.wrap(policy, 94)]
    lines.append("# Uses only the module-level random functions; the caller seeds random.")
    parts = ["\n".join(lines), "import math\nimport random"]
    parts.append(
        f"SIZE_CAP = {int(size_cap)}\n_BOUNDARY_P = {_BOUNDARY_P!r}\n_ORDER_P = {_ORDER_P!r}\n"
        f"_SIZE_MODE = {_SIZE_MODE!r}\n_VALUE_MODE = {_VALUE_MODE!r}\n_PATTERN = {_PATTERN!r}"
    )
    parts.append("SPEC = " + pprint.pformat(spec, width=96, sort_dicts=False))
    parts += [textwrap.dedent(inspect.getsource(fn)).rstrip() for fn in _RUNTIME]
    parts.append(
        "def _generate(size_cap):\n"
        '    """One input with every length and count at most size_cap."""\n'
        "    return _generate_from_spec(SPEC, size_cap)"
    )
    parts.append("def generate_test_case():\n    return _generate(SIZE_CAP)")
    parts.append(EDGE_ENTRY.strip("\n"))
    if extra_entry:
        parts.append(extra_entry.strip("\n"))
    return "\n\n\n".join(parts) + "\n"


def sample_spec(
    spec: dict[str, Any],
    seed: int,
    size_cap: int = DEFAULT_SIZE_CAP,
    *,
    mode: str = "random",
    pattern: dict[str, Any] | None = None,
) -> list[Any]:
    """Run the runtime in this process (tests, debugging): one input for ``seed``.

    Seeds the module-level ``random`` as the sandboxed caller does, restoring its state after.
    ``mode="max"`` does what ``perf_input_gen(scale)`` does, with ``size_cap`` as the scale, and
    ``pattern`` what ``perf_input_variant(scale, pattern)`` does (one of :func:`perf_variants`).
    Not thread-safe (the mode is a module global, as in the generated files).
    """
    global _SIZE_MODE, _PATTERN
    if mode not in ("random", "max"):
        raise ValueError(f"mode must be 'random' or 'max', got {mode!r}")
    state = random.getstate()
    previous = _SIZE_MODE, _PATTERN
    try:
        random.seed(seed)
        _SIZE_MODE, _PATTERN = mode, pattern
        return _generate_from_spec(spec, size_cap)
    finally:
        _SIZE_MODE, _PATTERN = previous
        random.setstate(state)


def perf_variants(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """The structured variants the worst-case search tries for ``spec`` (run in this process;
    the generated file's ``perf_variants()`` runs the same code in the sandbox)."""
    return list(_perf_variants(spec))
