"""The offline test-generator synthesizer: metaData types + the statement's Constraints section.

:func:`synthesize_offline` reads the parameters' LeetCode types (``inp.meta``) and every item of
the Constraints list (``inp.content_html``), turns them into a *spec* (a JSON-like dict: integer
quantities with linear bounds, and per parameter its dimensions and value domain), and emits a
self-contained generator: a small generic runtime plus the literal spec (:func:`emit_generator`).
Nothing is guessed: a constraint line it does not understand, a type it does not generate, a
parameter without a stated bound, or a missing Constraints section is *reported* (``needs_llm``,
``reason`` quoting each line) instead. See docs/offline-synthesizer.md.

What it understands (one Constraints item at a time, after ``<sup>`` -> ``^`` and entity decoding):

- chains of comparisons over linear integer expressions: ``1 <= nums.length <= 10^5``,
  ``-2^31 <= x <= 2^31 - 1``, ``2 * 10^4``, comma lists (``1 <= m, n <= 300``,
  ``-10^9 <= nums[i], target <= 10^9``), aliases (``n == nums.length``), chains
  (``1 <= k <= n <= 10^4``), relations (``1 <= k <= nums.length``), sums (``1 <= m + n <= ...``),
  element bounds (``nums[i]``, ``lists[i][j]``, ``grid[i][j]``, ``Node.val``);
- ``X is in the range [a, b]``, ``The number of nodes in the tree/list/each list is in the range
  [a, b]`` and ``The number of nodes in the list is sz.``;
- ``The sum of lists[i].length will not exceed B``;
- alphabets (``s consists of lowercase English letters``, ``... English letters, digits, symbols
  and spaces``, ``p contains only lowercase English letters, '.', and '*'``) and value sets
  (``grid[i][j] is '0' or '1'``, ``nums[i] is either 0, 1, or 2``);
- sortedness (``... sorted in non-decreasing order``; ``ascending`` / ``increasing`` are read as
  strictly increasing, the reading that satisfies either meaning) and distinctness (``All the
  values of nums are unique``);
- LeetCode's own wordings, collected from 781 real Constraints items (docs/offline-synthesizer.md,
  "LeetCode's real wording"): ``The number of nodes in the list is the range [0, 5000]``,
  ``... will be in the range``, ``between a and b``, ``min(50, nums.length)``,
  ``sum(words[i].length)``, ``s.length / 2``, ``n = grid[i].length``, free names tied by an
  equality (``nums.length == n + 1``), parity (``n is even``), ``!=`` (``divisor != 0``),
  permutations, binary search trees, rows with named fields (``edges[i] = [a_i, b_i]``, the one
  thing read from the description), and many more alphabet, order and uniqueness phrasings.

Sampling policy (also written into each generated file's header):

- lengths and counts: uniform in ``[lo, min(hi, size_cap)]`` (each capped bound is noted);
- element values: uniform within their range (or over their value set / alphabet);
- scalar integer parameters: log-uniform in magnitude when the range spans >= 3 orders of
  magnitude (so ``n <= 10^6`` reaches large values without dominating), otherwise uniform;
- with probability ~10% a list with no stated order comes sorted, ascending or descending;
- with probability ~10% a size or scalar is a boundary (its min or max), a parameter's values
  lean on the extremes (or a string uses only one or two letters of its alphabet), and a tree is
  path-shaped instead of random;
- distinct values via ``random.sample`` over the range (lengths bounded by the range size, which
  is reported when impossible); sorted by sorting; sums of lengths shrunk to fit their bound;
- quantities are sampled in a topological order of their relations (sizes first); an ordering
  that cannot bound a quantity (no stated bound, a cycle) is reported.

The generator only uses the module-level ``random`` functions (the caller seeds it) and imports
only ``math`` and ``random``.

Perf mode (the offline path of DPE's SaS, :mod:`quicksilver.dpe.sas`):
:func:`synthesize_offline_perf` emits the same runtime and spec, built without capping any stated
bound, plus ``perf_input_gen(scale)``, which switches the runtime's ``_SIZE_MODE`` to ``"max"`` for
one call: every length and count is ``min(stated max, scale)`` (at least the stated min), scalar
integers whose range spans >= 3 orders of magnitude from >= 0 take ``min(hi, max(lo, scale))``, and
no random edge case is drawn, so the input's size is monotone in ``scale`` (:data:`PERF_POLICY`).
Element values and narrow scalars stay random. In ``"random"`` mode the runtime draws exactly what
it drew before the mode existed, so ``generate_test_case()`` is unchanged.
"""

from __future__ import annotations

import inspect
import logging
import math
import pprint
import random
import re
import string
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from typing import Any

from quicksilver.sources.text import constraint_lines, html_to_text
from quicksilver.synth import OFFLINE_SYNTHESIZER, GeneratorResult, SynthInput

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


def _eval(form: int | dict, q: dict) -> int:
    """A bound: a number, or {"const": c, "terms": {quantity: coefficient}} evaluated on ``q``."""
    if not isinstance(form, dict):
        return form
    return form["const"] + sum(coef * q[name] for name, coef in form["terms"].items())


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

    An item may also carry ``"mod": [m, r]`` (x % m == r: ``n is even``) and ``"ne"``: bounds
    ``coef * x + rest != 0`` (``divisor != 0``, ``src != dst``).
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
            value = _pick_quantity(item, lo, hi, size_cap, q)
            if value is None:
                break
            q[item["name"]] = value
        else:
            return q
    raise RuntimeError("could not satisfy the size constraints in 200 draws")


def _pick_quantity(item: dict, lo: int, hi: int, size_cap: int, q: dict) -> int | None:
    """One size or scalar in [lo, hi] (already aligned to its ``mod``); None: no allowed value
    was found (the caller draws everything again)."""
    mod = item.get("mod")
    for attempt in range(20):
        if attempt:
            value = random.randint(lo, hi)  # only after an excluded value ("ne")
        elif item["size"]:
            value = _pick_size(lo, hi)
        elif _SIZE_MODE == "max" and lo >= 0 and hi + 1 >= 1000 * (lo + 1):
            # a magnitude-like scalar (amount <= 10^4, x <= 2^31 - 1) grows with scale too
            value = min(hi, max(lo, size_cap))
        elif _SIZE_MODE in ("min", "min1"):
            value = lo
        else:
            value = _pick_scalar(lo, hi)
        if mod:
            value -= (value - mod[1]) % mod[0]  # stays >= lo, which is aligned
        if all(b["coef"] * value + _eval(b["rest"], q) != 0 for b in item.get("ne", ())):
            return value
    return None


def _fit_sum(counts: list, lo: int, limit: int) -> list:
    """Shrink per-item lengths (each >= lo) proportionally so that their sum is <= limit."""
    total = sum(counts)
    if total <= limit:
        return counts
    floor_total = lo * len(counts)
    if floor_total > limit:
        raise RuntimeError(f"{len(counts)} items of length >= {lo} exceed the sum bound {limit}")
    scale = (limit - floor_total) / (total - floor_total)
    return [lo + int((c - lo) * scale) for c in counts]


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
        levels.append(counts)
    return levels


def _draw_float(leaf: dict, count: int, distinct: bool, edge: bool) -> list:
    lo, hi = leaf["lo"], leaf["hi"]
    out: list = []
    seen: set = set()
    tries = 0
    while len(out) < count:
        tries += 1
        if tries > 100 * count + 100:
            raise RuntimeError("could not draw the floating-point values")
        if edge and random.random() < 0.5:
            x = random.choice((lo, hi))
        else:
            x = min(hi, max(lo, round(random.uniform(lo, hi), 5)))
        if (leaf["lo_strict"] and x <= lo) or (leaf["hi_strict"] and x >= hi):
            continue
        if distinct and x in seen:
            continue
        seen.add(x)
        out.append(x)
    return out


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


def _distinct_strings(strings: list, p: dict, q: dict, size_cap: int) -> list:
    """Redraw repeated strings until all differ (a bounded number of tries)."""
    last = p["dims"][-1]
    seen: set = set()
    out = []
    for s in strings:
        tries = 0
        while s in seen:
            tries += 1
            if tries > 200:
                raise RuntimeError("could not draw distinct strings")
            if "q" in last:
                length = q[last["q"]]
            else:
                length = _pick_size(last["lo"], max(last["lo"], min(last["hi"], size_cap)))
            chars = _draw(p["leaf"], q, length, False, False)
            if p["sorted"]:
                chars.sort(reverse=p["sorted"] == "desc")
            s = "".join(chars)
        seen.add(s)
        out.append(s)
    return out


def _tree(values: list, path: bool, bst: bool = False) -> list:
    """A random binary tree holding ``values`` (a path when ``path``), in LeetCode level order.

    ``bst``: the values go in sorted by an in-order walk, so the tree is a search tree.
    """
    n = len(values)
    if n == 0:
        return []
    left = [-1] * n
    right = [-1] * n
    free = [(0, 0), (0, 1)]
    for i in range(1, n):
        if path:
            node, side = i - 1, random.randint(0, 1)
        else:
            j = random.randrange(len(free))
            node, side = free[j]
            free[j] = free[-1]
            free.pop()
            free.append((i, 0))
            free.append((i, 1))
        if side == 0:
            left[node] = i
        else:
            right[node] = i
    if bst:
        ordered = sorted(values)
        values = list(values)
        stack: list = []
        node, k = 0, 0
        while stack or node >= 0:
            while node >= 0:
                stack.append(node)
                node = left[node]
            node = stack.pop()
            values[node] = ordered[k]
            k += 1
            node = right[node]
    out = [values[0]]
    queue = [0]
    for node in queue:
        for child in (left[node], right[node]):
            if child < 0:
                out.append(None)
            else:
                out.append(values[child])
                queue.append(child)
    while out and out[-1] is None:
        out.pop()
    return out


def _build_param(p: dict, q: dict, size_cap: int) -> object:
    """One argument from its spec entry and the sampled quantities."""
    if p["kind"] == "quantity":
        return q[p["q"]]
    edge = _chance(_BOUNDARY_P)
    if p["kind"] == "scalar":
        return _draw(p["leaf"], q, 1, False, edge)[0]
    levels = _level_counts(p["dims"], q, size_cap)
    rows = levels[-1]
    distinct = p["distinct"]
    if "cols" in p:  # rows of named fields: a value range per field
        return _draw_rows(p, q, len(rows), edge)
    if distinct and distinct["level"] == "value" and distinct["scope"] == "all":
        flat = _draw(p["leaf"], q, sum(rows), True, edge)
    elif distinct and distinct["level"] == "value":
        flat = []
        for r in rows:
            flat.extend(_draw(p["leaf"], q, r, True, edge))
    else:
        flat = _draw(p["leaf"], q, sum(rows), False, edge)
    order = p["sorted"]
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
        inner.append(row)
    if p["join"]:
        inner = ["".join(row) for row in inner]
        if distinct and distinct["level"] == "string":
            inner = _distinct_strings(inner, p, q, size_cap)
    if p["kind"] == "tree":
        return _tree(inner[0], _chance(_BOUNDARY_P), p.get("bst", False))
    for counts in reversed(levels[:-1]):
        nested = []
        i = 0
        for c in counts:
            nested.append(inner[i : i + c])
            i += c
        inner = nested
    return inner[0]


def _draw_rows(p: dict, q: dict, count: int, edge: bool) -> list | None:
    """``count`` rows, field j drawn from ``p["cols"][j]``; then each pair [a, b, op] holds
    (``!=``, ``<``: b drawn again until it differs; ``<=``, ``<``: a and b swapped when out of
    order, both having one range), and with ``unique_rows`` no two rows hold the same values.
    None when the sizes drawn leave no room (the caller draws everything again)."""
    cols = p["cols"]
    table = [list(r) for r in zip(*[_draw(c, q, count, False, edge) for c in cols], strict=True)]
    seen: set = set()
    for row in table:
        for _try in range(1000):
            for a, b, op in p.get("pairs", ()):
                tries = 0
                while op != "<=" and row[a] == row[b]:
                    tries += 1
                    if tries > 100:
                        return None  # e.g. 1 <= a_i, b_i <= n with n == 1: draw n again
                    row[b] = _draw(cols[b], q, 1, False, False)[0]
                if op != "!=" and row[a] > row[b]:
                    row[a], row[b] = row[b], row[a]
            key = tuple(sorted(row))
            if not p.get("unique_rows") or key not in seen:
                break
            row[:] = [_draw(c, q, 1, False, False)[0] for c in cols]
        else:
            return None
        seen.add(key)
    return table


def _generate_from_spec(spec: dict, size_cap: int) -> list:
    """One test input: the method's arguments in parameter order, as plain data."""
    for _attempt in range(50):
        q = _sample_quantities(spec["quantities"], size_cap)
        args = [_build_param(p, q, size_cap) for p in spec["params"]]
        if all(a is not None for a in args):  # None: rows that the sizes left no room for
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
    _distinct_strings,
    _tree,
    _draw_rows,
    _build_param,
    _generate_from_spec,
)

SAMPLING_POLICY = (
    "lengths/counts uniform in [lo, min(hi, size_cap)]; element values uniform in their range "
    "(or over their value set / alphabet); scalar integers log-uniform in magnitude when their "
    "range spans >= 3 orders of magnitude, else uniform; with probability ~10% a boundary size or "
    "value (min/max), extreme-leaning values, a one- or two-letter alphabet, or a path-shaped "
    "tree; with probability ~10% a list with no stated order sorted ascending or descending; "
    "distinct values by random.sample; sorted by sorting; sums of lengths shrunk to fit; "
    "quantities drawn in topological order of their relations (sizes first); where stated: a "
    "binary search tree's values placed by an in-order walk, a remainder (n is even) met by "
    "moving the value down to the next allowed one, values excluded by != drawn again, rows "
    "with named fields drawn field by field (ordered pairs swapped into order, repeated rows "
    "drawn again); generate_edge_cases() gives the inputs a judge always tries: every length, "
    "count and scalar at its smallest allowed value, then lengths and counts one above it, then "
    "every element value at the low and at the high end of its range"
)

PERF_POLICY = (
    "perf_input_gen(scale) gives every length and count the value min(stated max, scale) (at "
    "least its stated min), so the input grows monotonically with scale up to what the "
    "constraints allow; the stated maxima are not capped by a size cap; scalar integers whose "
    "range spans >= 3 orders of magnitude (lower bound >= 0) take min(stated max, max(stated "
    "min, scale)) too; other scalars and element values stay random (uniform over their range, "
    "value set or alphabet; log-uniform in magnitude for wide ranges reaching below 0); no "
    "random edge cases (boundary sizes, extreme-leaning values, path-shaped trees, pre-sorted "
    "lists), which would break monotonicity; distinct values by random.sample; sorted by "
    "sorting; sums of lengths shrunk to fit (and to at most scale). generate_test_case() keeps "
    "the random test-input policy, sizes at most SIZE_CAP"
)

OFFLINE_PERF_SYNTHESIZER = "quicksilver-offline-perf-synth/1"  # the "model" of offline SaS rows

# The cap a perf spec is built with: above any stated bound, so none is capped. The runtime only
# compares sizes with a cap (it allocates by the sizes it picks: at most ``scale`` per dimension).
PERF_SPEC_CAP = 2**62

EDGE_ENTRY = '''def generate_edge_cases():
    """The inputs a judge always tries: every length, count and scalar at its smallest allowed
    value, then one above it, then every value at the low and at the high end of its range
    (what the constraints leave no room for is left out). The caller seeds random."""
    global _SIZE_MODE, _VALUE_MODE
    previous = _SIZE_MODE, _VALUE_MODE
    out = []
    patterns = (("min", "random"), ("min1", "random"), ("random", "low"), ("random", "high"))
    for sizes, values in patterns:
        _SIZE_MODE, _VALUE_MODE = sizes, values
        try:
            case = _generate(SIZE_CAP)
        except RuntimeError:
            continue
        finally:
            _SIZE_MODE, _VALUE_MODE = previous
        if case not in out:
            out.append(case)
    return out
'''

PERF_ENTRY = '''def perf_input_gen(scale):
    """One performance input: every length and count min(stated max, scale) (policy above)."""
    global _SIZE_MODE
    previous = _SIZE_MODE
    _SIZE_MODE = "max"
    try:
        return _generate(max(1, int(scale)))
    finally:
        _SIZE_MODE = previous
'''


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
        f"_SIZE_MODE = {_SIZE_MODE!r}\n_VALUE_MODE = {_VALUE_MODE!r}"
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
    spec: dict[str, Any], seed: int, size_cap: int = DEFAULT_SIZE_CAP, *, mode: str = "random"
) -> list[Any]:
    """Run the runtime in this process (tests, debugging): one input for ``seed``.

    Seeds the module-level ``random`` as the sandboxed caller does, restoring its state after.
    ``mode="max"`` does what ``perf_input_gen(scale)`` does, with ``size_cap`` as the scale.
    Not thread-safe (the mode is a module global, as in the generated files).
    """
    global _SIZE_MODE
    if mode not in ("random", "max"):
        raise ValueError(f"mode must be 'random' or 'max', got {mode!r}")
    state = random.getstate()
    previous = _SIZE_MODE
    try:
        random.seed(seed)
        _SIZE_MODE = mode
        return _generate_from_spec(spec, size_cap)
    finally:
        _SIZE_MODE = previous
        random.setstate(state)


# ---------------------------------------------------------------------------------------------
# Statement text
# ---------------------------------------------------------------------------------------------


# ---------------------------------------------------------------------------------------------
# Types, references and expressions
# ---------------------------------------------------------------------------------------------

_SCALAR_LEAF = {
    "integer": "int",
    "long": "int",
    "double": "float",
    "boolean": "bool",
    "character": "char",
}


@dataclass(frozen=True)
class _Param:
    name: str
    type: str
    depth: int  # list nesting of the value (a string's characters count; a tree: its node count)
    leaf: str  # int | float | bool | char
    join: bool = False  # innermost character lists are strings
    tree: bool = False
    node: bool = False  # TreeNode / ListNode forms: ``Node.val`` names their values

    def dim_key(self, d: int) -> str:
        return f"{self.name}.nodes" if self.tree else self.name + "[i]" * d + ".length"

    @property
    def is_quantity(self) -> bool:
        return self.depth == 0 and self.leaf == "int"


def _parse_type(name: str, t: str) -> _Param | None:
    base, depth = t.strip(), 0
    while True:
        if base.endswith("[]"):
            base, depth = base[:-2].strip(), depth + 1
        elif base.startswith("list<") and base.endswith(">"):
            base, depth = base[5:-1].strip(), depth + 1
        else:
            break
    if base in _SCALAR_LEAF:
        return _Param(name, t, depth, _SCALAR_LEAF[base])
    if base == "string":
        return _Param(name, t, depth + 1, "char", join=True)
    if base == "TreeNode" and depth == 0:
        return _Param(name, t, 1, "int", tree=True, node=True)
    if base == "ListNode" and depth <= 1:
        return _Param(name, t, depth + 1, "int", node=True)
    return None


@dataclass(frozen=True)
class _Ref:
    """What a name in a constraint denotes."""

    kind: str  # "q": an integer quantity; "leaf": values of params; "container": a (sub)list
    key: str = ""  # q: the quantity's key (a parameter, a dimension, or a free name like n)
    params: tuple[str, ...] = ()  # leaf / container
    depth: int = 0  # container: how many indexes deep
    col: int = -1  # leaf: one field of each row (``edges[i] = [a_i, b_i]``: a_i is column 0)


class _Unsupported(ValueError):
    """The line has a recognised form but something in it cannot be generated."""


_REF_RE = re.compile(r"[A-Za-z_]\w*(?:\[[^\[\]]*\])*(?:\.\w+(?:\(\))?)?")


def _split_top(text: str) -> list[str]:
    """``a, b, and c`` -> its items, keeping commas inside brackets (``min(50, nums.length)``)."""
    items: list[str] = []
    depth = 0
    cur = ""
    for ch in text:
        depth += ch in "([{"
        depth -= ch in ")]}"
        if ch == "," and depth == 0:
            items.append(cur)
            cur = ""
        else:
            cur += ch
    items.append(cur)
    out = [re.sub(r"^and\s+", "", i.strip()) for i in items]
    return [i for i in out if i]


def _clean(line: str) -> str:
    """A Constraints item ready for the forms: no final period, ``10,000`` -> ``10000``,
    LeetCode's odd minus signs (``–10^4``) as ``-``."""
    text = line.strip().rstrip(".").strip()
    text = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)
    return re.sub(r"[\u2013\u2212](?=\s*\d)", "-", text)


# ``edges[i] = [a_i, b_i]``, ``queries[i] == [l_i, r_i, x_i]``: names for the fields of each row
_FIELDS_RE = re.compile(r"([A-Za-z_]\w*)\[i\] ?==? ?\[([A-Za-z_]\w*(?:,\s*[A-Za-z_]\w*)+)\]")
# the same said in words: "Each element of intervals is a closed interval [start_i, end_i]"
_FIELDS_WORDS_RE = re.compile(
    r"\b(?:each|every) (?:element|item|entry|row|pair|member) (?:of|in) ([A-Za-z_]\w*) "
    r"(?:is|represents|describes|has the form|is of the form) [^.\[\]]{0,60}?"
    r"\[([A-Za-z_]\w*_i(?:,\s*[A-Za-z_]\w*_i)+)\]",
    flags=re.I,
)


class _Lin:
    """A linear form ``const + sum(coef * ref)`` with exact rational coefficients."""

    def __init__(self, const: Fraction = Fraction(0), terms: dict[_Ref, Fraction] | None = None):
        self.const = Fraction(const)
        self.terms = {k: v for k, v in (terms or {}).items() if v != 0}

    def __add__(self, other: _Lin) -> _Lin:
        terms = dict(self.terms)
        for k, v in other.terms.items():
            terms[k] = terms.get(k, Fraction(0)) + v
        return _Lin(self.const + other.const, terms)

    def scale(self, f: Fraction) -> _Lin:
        return _Lin(self.const * f, {k: v * f for k, v in self.terms.items()})

    def __sub__(self, other: _Lin) -> _Lin:
        return self + other.scale(Fraction(-1))

    def single(self) -> _Ref | None:
        """The reference when the form is exactly one reference (coefficient 1, no constant)."""
        if self.const == 0 and len(self.terms) == 1:
            ref, coef = next(iter(self.terms.items()))
            return ref if coef == 1 else None
        return None


_TOKEN = re.compile(
    r"\s*(?:(?P<num>\d+(?:\.\d+)?)|(?P<ref>" + _REF_RE.pattern + r")|(?P<op>[-+*/^()]))"
)


class _ExprParser:
    """Recursive descent over ``+ - * ^ ( )``, numbers and references; linear results only."""

    def __init__(self, text: str, resolve: Callable[[str], _Ref]) -> None:
        self.tokens: list[tuple[str, str]] = []
        pos = 0
        text = text.strip()
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if not m or m.end() == pos:
                raise _Unsupported(f"cannot read {text[pos:]!r}")
            kind = m.lastgroup or ""
            self.tokens.append((kind, m.group(kind)))
            pos = m.end()
            while pos < len(text) and text[pos].isspace():
                pos += 1
        self.i = 0
        self.resolve = resolve

    def parse(self) -> _Lin:
        if not self.tokens:
            raise _Unsupported("an empty expression")
        out = self._expr()
        if self.i != len(self.tokens):
            raise _Unsupported(f"unexpected {self.tokens[self.i][1]!r}")
        return out

    def _peek(self) -> str | None:
        return self.tokens[self.i][1] if self.i < len(self.tokens) else None

    def _expr(self) -> _Lin:
        out = self._term()
        while self._peek() in ("+", "-"):
            op = self.tokens[self.i][1]
            self.i += 1
            rhs = self._term()
            out = out + rhs if op == "+" else out - rhs
        return out

    def _term(self) -> _Lin:
        out = self._unary()
        while self._peek() in ("*", "/"):
            op = self.tokens[self.i][1]
            self.i += 1
            rhs = self._unary()
            if op == "/":
                # ``s.length / 2``: exact (rational) here; a bound between integer quantities
                # is scaled back to integers later, a bound on values must not be fractional
                if rhs.terms or rhs.const == 0:
                    raise _Unsupported("a division by a quantity")
                out = out.scale(1 / rhs.const)
            elif not rhs.terms:
                out = out.scale(rhs.const)
            elif not out.terms:
                out = rhs.scale(out.const)
            else:
                raise _Unsupported("a product of two quantities")
        return out

    def _unary(self) -> _Lin:
        if self._peek() == "-":
            self.i += 1
            return self._unary().scale(Fraction(-1))
        if self._peek() == "+":
            self.i += 1
            return self._unary()
        return self._power()

    def _power(self) -> _Lin:
        base = self._atom()
        if self._peek() == "^":
            self.i += 1
            exp = self._unary()
            if base.terms or exp.terms or exp.const.denominator != 1 or exp.const < 0:
                raise _Unsupported("a power of a quantity")
            return _Lin(base.const ** int(exp.const))
        return base

    def _atom(self) -> _Lin:
        if self.i >= len(self.tokens):
            raise _Unsupported("an incomplete expression")
        kind, tok = self.tokens[self.i]
        self.i += 1
        if kind == "num":
            return _Lin(Fraction(tok))
        if kind == "ref":
            return _Lin(Fraction(0), {self.resolve(tok): Fraction(1)})
        if tok == "(":
            out = self._expr()
            if self._peek() != ")":
                raise _Unsupported("unbalanced parentheses")
            self.i += 1
            return out
        raise _Unsupported(f"unexpected {tok!r}")


# ---------------------------------------------------------------------------------------------
# Alphabets
# ---------------------------------------------------------------------------------------------

_LETTERS = string.ascii_lowercase + string.ascii_uppercase
_CHAR_CLASSES = {
    "lowercase english letters": string.ascii_lowercase,
    "lowercase english letter": string.ascii_lowercase,
    "lowercase english characters": string.ascii_lowercase,
    "lowercase letters": string.ascii_lowercase,
    "lowercase letter": string.ascii_lowercase,
    "uppercase english letters": string.ascii_uppercase,
    "uppercase english letter": string.ascii_uppercase,
    "uppercase letters": string.ascii_uppercase,
    "uppercase letter": string.ascii_uppercase,
    "english letters": _LETTERS,
    "english letter": _LETTERS,
    "letters": _LETTERS,
    "letter": _LETTERS,
    "digits": string.digits,
    "digit": string.digits,
    "symbols": string.punctuation,
    "spaces": " ",
    "space": " ",
    "space characters": " ",
    "printable ascii characters": "".join(chr(c) for c in range(32, 127)),
}
_CLASS_NAMES = {
    string.ascii_lowercase: "lowercase English letters",
    string.ascii_uppercase: "uppercase English letters",
    _LETTERS: "English letters",
    string.digits: "digits",
}
_QUOTED = re.compile(r"'(.)'|\"(.)\"")
# a quoted run of characters where the sentence lists characters: "!@#$", square brackets '[]'
_QUOTED_RUN = re.compile(
    r"(\b(?:characters?|brackets|parenthes[ie]s|in|from|string)(?:\s+only)?\s*:?\s*)"
    r"'([^'\s]{2,40})'|"
    r"(\b(?:characters?|brackets|parenthes[ie]s|in|from|string)(?:\s+only)?\s*:?\s*)"
    r"\"([^\"\s]{2,40})\""
)
_QUOTED_RANGE = re.compile(
    r"(?:from\s+)?(['\"])(.)\1\s*(?:to|through|-)\s*(['\"])(.)\3", flags=re.I
)
# "digits 2 through 9", "digits (0-9)", "digits from 0 to 9", "digits 0-9"
_DIGIT_RANGE = re.compile(r"\bdigits?\s*(?:from\s+)?\(?(\d)\s*(?:to|through|-)\s*(\d)\)?")
# names that a quoted character follows ("period '.'", "the characters '0' and '1'")
_CHAR_NAMES = (
    r"(?:(?:the\s+)?(?:special\s+)?(?:characters?|letters?|digits?|symbols?)(?:\s+(?:from|in))?"
    r"(?:\s+the\s+set)?|(?:lowercase\s+)?(?:english\s+)?letters(?:\s+from)?(?:\s+the\s+set)?|"
    r"operators?|the\s+set|periods?|slash(?:es)?|dots?|plus|minus|commas?|hyphens?|underscores?|"
    r"apostrophes?|asterisks?|dash(?:es)?|stars?|vertical\s+bars?|"
    r"(?:square\s+|round\s+|curly\s+)?brackets|parenthes[ie]s|negative\s+sign|"
    r"exclamation\s+marks?|spaces?|the\s+following\s+characters|one\s+of\s+the\s+following)"
)


def _set_items(text: str) -> list[str | int] | None:
    """``'0' or '1'`` / ``0, 1, or 2`` / ``lowercase English letters, '.', and '*'``: the items
    (a class expands to its characters; ints stay ints); None when something is not recognised.

    Reads LeetCode's many ways to say it: ``English lowercase letters``, ``lower case``,
    ``the characters 'a', 'b', and 'c'``, ``digits from '0' to '9'``, ``digits (0-9)``,
    ``period '.'``, ``the special characters in "!@#$"``, ``{'a', 'b'}``, ``0's and 1's``.
    """
    quoted: list[str] = []

    def hold(chars: str) -> str:
        quoted.append(chars)
        return f" \x00{len(quoted) - 1}\x00 "

    def run(m: re.Match[str]) -> str:
        lead = m.group(1) if m.group(1) is not None else m.group(3)
        return lead + hold(m.group(2) if m.group(2) is not None else m.group(4))

    def span(m: re.Match[str]) -> str:
        a, b = ord(m.group(2)), ord(m.group(4))
        return hold("".join(chr(c) for c in range(a, b + 1))) if a <= b else m.group(0)

    def keep(m: re.Match[str]) -> str:
        return hold(m.group(1) if m.group(1) is not None else m.group(2))

    text = _QUOTED_RUN.sub(run, text)
    text = _QUOTED_RANGE.sub(span, text)
    text = _QUOTED.sub(keep, text).lower().strip().rstrip(".").strip()
    text = _DIGIT_RANGE.sub(
        lambda m: hold("".join(str(d) for d in range(int(m.group(1)), int(m.group(2)) + 1))),
        text,
    )
    text = re.sub(r"^only\s+|\s+only$", "", text)  # "digits only"
    text = re.sub(r"(\d)'s\b", r"\1", text)  # "0's and 1's"
    text = text.replace("and/or", "and").replace("lower-case", "lowercase")
    text = re.sub(r"\b(lower|upper)[- ]case\b", r"\1case", text)
    text = re.sub(r"\bnumeric digits\b", "digits", text)
    text = re.sub(r"\benglish (lowercase|uppercase)\b", r"\1 english", text)
    text = re.sub(
        r"(?:english )?(?:lower(?:case)?|upper(?:case)?) and (?:lower(?:case)?|upper(?:case)?) "
        r"(?:english )?(?:letters|characters)",
        "english letters",
        text,
    )
    text = re.sub(
        r"letters of the english alphabet in (?:lowercase and uppercase|uppercase and lowercase)",
        "english letters",
        text,
    )
    text = re.sub(
        r"(english letters?) \((?:both )?(?:lowercase|uppercase) (?:and|or) "
        r"(?:uppercase|lowercase)\)",
        r"\1",
        text,
    )
    text = re.sub(r"\b(lowercase|uppercase) english characters?\b", r"\1 english letters", text)
    # a name before a quoted character or run ("period '.'"), or after it ("'#' letter")
    text = re.sub(rf"\b{_CHAR_NAMES}(?:\s+only)?\s*:?\s*(?=[\[({{]?\s*\x00)", "", text)
    text = re.sub(r"(\x00\d+\x00)\s+(?:characters?|letters?|s)\b", r"\1", text)  # '0's
    text = re.sub(r"\b(?:the\s+)?digits\s+(?=\d\b)", "", text)  # "the digits 0 and 1"
    if "\x00" in text:
        text = re.sub(r"[{}\[\]()]", " ", text)  # {'a', 'b'}, ['A', 'C'], ('I', 'V')
    out: list[str | int] = []
    for raw in re.split(r"\s*,\s*|\s+(?:and|or)\s+", text):
        item = raw.strip().rstrip(".").strip()
        item = re.sub(r"^(?:(?:and|or|either|only|one of|a|an|the)\s+)+", "", item).strip()
        if not item:
            continue
        held = re.findall(r"\x00(\d+)\x00", item)
        if held and not re.sub(r"\x00\d+\x00", "", item).strip():
            out.extend(c for i in held for c in quoted[int(i)])
        elif re.fullmatch(r"-?\d+", item):
            out.append(int(item))
        elif item in _CHAR_CLASSES:
            out.extend(_CHAR_CLASSES[item])
        else:
            return None
    return out or None


def _describe_alphabet(chars: str) -> str:
    """E.g. ``lowercase English letters``, ``digits, symbols, spaces``, ``{'(', ')'}``."""
    if chars in _CLASS_NAMES:
        return _CLASS_NAMES[chars]
    parts: list[str] = []
    rest = chars
    groups = (
        (_LETTERS, "English letters"),
        (string.ascii_lowercase, "lowercase English letters"),
        (string.ascii_uppercase, "uppercase English letters"),
        (string.digits, "digits"),
        (string.punctuation, "symbols"),
    )
    for group, name in groups:
        if all(c in rest for c in group):
            parts.append(name)
            rest = "".join(c for c in rest if c not in group)
    if " " in rest and parts:
        parts.append("spaces")
        rest = rest.replace(" ", "")
    if not parts:
        return "{" + ", ".join(repr(c) for c in rest) + "}"
    return ", ".join(parts + [repr(c) for c in rest])


# ---------------------------------------------------------------------------------------------
# Number formatting for notes
# ---------------------------------------------------------------------------------------------


def _fmt(n: Fraction | int | float) -> str:
    """10^5 rather than 100000 in notes, as statements write it."""
    if isinstance(n, Fraction):
        if n.denominator != 1:
            return str(float(n))
        n = int(n)
    if isinstance(n, float):
        return repr(n)
    if n < 0:
        return "-" + _fmt(-n)
    if n >= 1000:
        for p in range(3, 20):
            for a in range(1, 10):
                if n == a * 10**p:
                    return f"10^{p}" if a == 1 else f"{a} * 10^{p}"
        for p in range(10, 64):
            if n == 2**p:
                return f"2^{p}"
            if n == 2**p - 1:
                return f"2^{p} - 1"
    return str(n)


def _fmt_form(form: object) -> str:
    """A bound as a statement would write it: ``n - 1``, ``2 * 10^5 - m``."""
    if not isinstance(form, dict):
        return _fmt(form)  # type: ignore[arg-type]
    text = ""
    for name, coef in form["terms"].items():
        mag = name if abs(coef) == 1 else f"{_fmt(abs(coef))} * {name}"
        if not text:
            text = mag if coef > 0 else f"-{mag}"
        else:
            text += f" + {mag}" if coef > 0 else f" - {mag}"
    c = form["const"]
    if c > 0:
        text += f" + {_fmt(c)}"
    elif c < 0:
        text += f" - {_fmt(-c)}"
    return text


def _fmt_range(los: list[str], his: list[str]) -> str:
    lo = los[0] if len(los) == 1 else f"max({', '.join(los)})"
    hi = his[0] if len(his) == 1 else f"min({', '.join(his)})"
    return f"[{lo}, {hi}]"


# ---------------------------------------------------------------------------------------------
# The analysis: constraint lines -> facts -> spec
# ---------------------------------------------------------------------------------------------


@dataclass
class _LeafInfo:
    lo: list[tuple[_Lin, bool, str]] = field(default_factory=list)  # (bound, strict, line)
    hi: list[tuple[_Lin, bool, str]] = field(default_factory=list)
    values: list[int] | None = None  # a stated value set
    alphabet: str | None = None
    sorted: str | None = None  # "asc" | "desc"
    distinct: dict[str, str] | None = None  # {"level": "value"|"string", "scope": "all"|"each"}
    ne: list[int] = field(default_factory=list)  # excluded values (``nums[i] != 0``)
    bst: bool = False  # a TreeNode parameter that is a binary search tree
    cols: dict[int, _LeafInfo] = field(default_factory=dict)  # per-field bounds of rows
    pairs: list[tuple[int, int, str, str]] = field(default_factory=list)  # (a, b, op, line)
    unique_rows: str | None = None  # the line that says no two rows are the same


@dataclass
class SpecResult:
    """What :func:`build_spec` understood: a spec, or the problems that prevent one."""

    spec: dict[str, Any] | None
    notes: list[str]
    problems: list[str]


_ORDER_WORDS = {
    "non-decreasing": ("asc", False),
    "non-descending": ("asc", False),
    "non-ascending": ("desc", False),
    "nondecreasing": ("asc", False),
    "non-increasing": ("desc", False),
    "nonincreasing": ("desc", False),
    "ascending": ("asc", True),
    "increasing": ("asc", True),
    "strictly increasing": ("asc", True),
    "strictly ascending": ("asc", True),
    "descending": ("desc", True),
    "decreasing": ("desc", True),
    "strictly decreasing": ("desc", True),
    "strictly descending": ("desc", True),
}
_NOUNS = (
    r"values|integers|numbers|elements|strings|words|characters|letters|node values|"
    r"nodes' values|nodes"
)


class _Analysis:
    def __init__(self, params: list[_Param], size_cap: int, *, perf: bool = False) -> None:
        self.params = params
        self.by_name = {p.name: p for p in params}
        self.size_cap = size_cap
        self.perf = perf  # notes describe perf_input_gen(scale): sizes min(max, scale)
        self.cap_note = "min(its max, scale)" if perf else f"at most {size_cap}"
        self.problems: list[str] = []
        self.notes: list[str] = []
        self.parent: dict[str, str] = {}
        self.mentions: dict[str, list[str]] = {}  # quantity key -> lines naming it
        self.lins: list[tuple[_Lin, str]] = []  # (form >= 0, line) over q refs
        self.leaf: dict[str, _LeafInfo] = {p.name: _LeafInfo() for p in params}
        self.sums: dict[str, list[tuple[int, str]]] = {}
        self.sum_mins: dict[str, list[tuple[int, str]]] = {}  # stated least sums of lengths
        self.eqs: list[tuple[_Lin, str]] = []  # equalities that are not aliases (n == e.length + 1)
        self.nes: list[tuple[_Lin, str]] = []  # form != 0 over quantities
        self.mods: list[tuple[str, int, int, str]] = []  # (quantity key, m, r, line): key % m == r
        self.hidden: set[str] = set()  # classes of free names tied to parameters by an equality
        self.hidden_sizes: set[str] = set()  # ... tied to a length or count (capped like one)
        self.cap_fit: dict[str, list[int]] = {}  # hidden size -> [a, c]: length == a * it + c
        self.fields: dict[str, tuple[str, int]] = {}  # a_i -> (edges, 0) for edges[i] = [a_i, b_i]
        self.known: set[str] = set()
        for p in params:
            if p.is_quantity:
                self.known.add(p.name)
            for d in range(p.depth if not p.tree else 1):
                self.known.add(p.dim_key(d))
        for k in sorted(self.known):
            self._find(k)

    # -- union-find over quantity keys ------------------------------------------------------

    def _find(self, k: str) -> str:
        self.parent.setdefault(k, k)
        while self.parent[k] != k:
            self.parent[k] = self.parent[self.parent[k]]
            k = self.parent[k]
        return k

    def _union(self, a: str, b: str) -> None:
        ra, rb = self._find(a), self._find(b)
        if ra != rb:
            self.parent[rb] = ra

    # -- references ---------------------------------------------------------------------------

    def _node_params(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.params if p.node)

    def resolve(self, raw: str) -> _Ref:
        m = re.fullmatch(r"([A-Za-z_]\w*)((?:\[[^\[\]]*\])*)(?:\.(\w+)(\(\))?)?", raw.strip())
        if not m:
            raise _Unsupported(f"cannot read {raw!r}")
        name, idx_text, suffix = m.group(1), m.group(2), m.group(3)
        idx = re.findall(r"\[([^\[\]]*)\]", idx_text)
        if name == "Node" and suffix == "val" and not idx:
            nodes = self._node_params()
            if not nodes:
                raise _Unsupported("Node.val, but no TreeNode / ListNode parameter")
            return _Ref("leaf", params=nodes)
        p = self.by_name.get(name)
        if p is None and name in self.fields and not idx:
            owner, col = self.fields[name]
            if suffix:
                raise _Unsupported(f"{raw}: a field of {owner} has no .{suffix}")
            return _Ref("leaf", params=(owner,), col=col)
        if p is None:
            if idx or suffix:
                raise _Unsupported(f"{raw} is not a parameter or a size of one")
            return _Ref("q", key=name)
        if suffix in ("length", "size"):
            if p.tree or len(idx) >= p.depth:
                raise _Unsupported(f"{raw}: {p.name} ({p.type}) has no such length")
            return _Ref("q", key=p.dim_key(len(idx)))
        if suffix:
            raise _Unsupported(f"{raw}: .{suffix} is not modelled")
        if p.is_quantity and not idx:
            return _Ref("q", key=p.name)
        if (
            not suffix
            and len(idx) == p.depth == 2
            and p.leaf == "int"
            and re.fullmatch(r"\d+", idx[1].strip())
            and not re.fullmatch(r"\d+", idx[0].strip())
        ):
            return _Ref("leaf", params=(p.name,), col=int(idx[1]))  # edges[i][0]: a column
        if any(re.fullmatch(r"\d+", i.strip()) for i in idx):
            raise _Unsupported(f"{raw}: a constraint on one specific position")
        if len(idx) == p.depth and not p.tree:
            return _Ref("leaf", params=(p.name,))
        if len(idx) < p.depth:
            return _Ref("container", params=(p.name,), depth=len(idx))
        raise _Unsupported(f"{raw}: {p.name} ({p.type}) has no such element")

    def _parse(self, text: str) -> _Lin:
        try:
            return _ExprParser(text, self.resolve).parse()
        except _Unsupported as exc:
            raise _Unsupported(f"cannot read {text.strip()!r} ({exc})") from None

    def _phrase_refs(self, phrase: str) -> list[_Ref]:
        """Targets of a sentence: references, ``the tree``, ``the number of nodes in ...``."""
        phrase = re.sub(r"^(?:both|each of|all of)\s+", "", phrase.strip(), flags=re.I)
        phrase = re.sub(
            r"^the (?:given )?(?:string|array|integer array|list)\s+(?=\w)", "", phrase, flags=re.I
        )
        m = re.fullmatch(r"the (?:total )?number of (?:the )?nodes in (.+)", phrase, flags=re.I)
        if m:
            return [
                _Ref("q", key=self.by_name[n].dim_key(0))
                for n in self._structure_params(m.group(1))
            ]
        if re.fullmatch(r"(?:the )?(?:binary )?tree|the list|the linked list", phrase, flags=re.I):
            return [_Ref("container", params=(n,)) for n in self._structure_params(phrase)]
        out: list[_Ref] = []
        for part in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", phrase):
            part = part.strip()
            if not part:
                continue
            if not _REF_RE.fullmatch(part):
                raise _Unsupported(f"{part!r} is not a parameter")
            out.append(self.resolve(part))
        return out

    def _structure_params(self, where: str) -> list[str]:
        """``the tree`` / ``the list`` / ``each list`` / ``both trees`` -> parameter names."""
        w = where.strip().lower()
        w = re.sub(r"^(?:the given|the|each|both|every)\s+", "", w)
        w = re.sub(r"^(?:binary\s+|linked\s+)", "", w)
        tree = [p.name for p in self.params if p.tree]
        lists = [p.name for p in self.params if p.node and not p.tree and p.depth == 1]
        many = re.match(r"(each|both|every)\b", where.strip().lower()) is not None
        if w in ("tree", "trees"):
            found = tree
        elif w in ("list", "lists"):
            found = lists
        elif w in self.by_name and self.by_name[w].node and self.by_name[w].depth == 1:
            found = [w]
        else:
            raise _Unsupported(f"{where!r} names no TreeNode / ListNode parameter")
        if not found or (len(found) > 1 and not many):
            raise _Unsupported(f"{where!r} does not name exactly one parameter")
        return found

    # -- facts -------------------------------------------------------------------------------

    def _q_form(self, lin: _Lin) -> _Lin:
        for ref in lin.terms:
            if ref.kind != "q":
                raise _Unsupported("a relation between a list and a quantity or between elements")
        return lin

    def _mention(self, lin: _Lin, line: str) -> None:
        for ref in lin.terms:
            if ref.kind == "q":
                self._find(ref.key)
                self.mentions.setdefault(ref.key, []).append(line)

    def _relate(self, a: _Lin, op: str, b: _Lin, line: str, acts: list[Callable[[], None]]) -> None:
        if op in (">=", ">"):
            a, b, op = b, a, "<=" if op == ">=" else "<"
        kinds = {r.kind for r in (*a.terms, *b.terms)}
        if "container" in kinds:
            raise _Unsupported("compares a whole list")
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
                    raise _Unsupported("a false statement about numbers")
                return
            acts.append(lambda: self._mention(a, line))
            acts.append(lambda: self._mention(b, line))
            if op == "==":
                ra, rb = a.single(), b.single()
                if ra and rb:
                    acts.append(partial(self._union, ra.key, rb.key))
                    return
                acts.append(lambda: self.lins.append((b - a, line)))
                acts.append(lambda: self.lins.append((a - b, line)))
                acts.append(lambda: self.eqs.append((a - b, line)))
                return
            diff = b - a - (_Lin(Fraction(1)) if op == "<" else _Lin())
            acts.append(lambda: self.lins.append((diff, line)))
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
            acts.append(partial(self.leaf[ra.params[0]].pairs.append, pair))
            return
        if ra is not None and ra.kind == "leaf" and "leaf" not in {r.kind for r in b.terms}:
            leaf_ref, other, leaf_left = ra, self._q_form(b), True
        elif rb is not None and rb.kind == "leaf" and "leaf" not in {r.kind for r in a.terms}:
            leaf_ref, other, leaf_left = rb, self._q_form(a), False
        else:
            raise _Unsupported("a relation between elements")
        acts.append(lambda: self._mention(other, line))
        strict = op == "<"
        for name in leaf_ref.params:
            p = self.by_name[name]
            if p.leaf not in ("int", "float"):
                raise _Unsupported(f"a numeric bound on {p.name}, whose values are {p.leaf}")
            if p.leaf == "float" and other.terms:
                raise _Unsupported("a floating-point value bounded by a quantity")
            info = self._info(name, leaf_ref.col)
            if op == "==":
                acts.append(partial(info.lo.append, (other, False, line)))
                acts.append(partial(info.hi.append, (other, False, line)))
            elif leaf_left:
                acts.append(partial(info.hi.append, (other, strict, line)))
            else:
                acts.append(partial(info.lo.append, (other, strict, line)))

    def _info(self, name: str, col: int) -> _LeafInfo:
        """The value facts of a parameter, or of one field (column) of its rows."""
        info = self.leaf[name]
        return info if col < 0 else info.cols.setdefault(col, _LeafInfo())

    def _unique_rows(self, text: str, line: str, acts: list[Callable[[], None]]) -> bool:
        """``There are no repeated edges``, ``All the pairs [x_i, y_i] are unique``, ``All the
        given points are unique``: no two rows hold the same values (in any order, which
        satisfies both the ordered and the unordered reading)."""
        unique = r"(?:unique|distinct)"
        name: str | None = None
        m = re.fullmatch(
            r"there (?:are|will be) no (?:repeated|duplicate|duplicated) (\w+)"
            r"(?: in (?:the )?(?:input|graph))?",
            text,
            flags=re.I,
        ) or re.fullmatch(
            rf"all (?:the )?(?:given )?(\w+) (?:are|is) {unique}|"
            rf"(\w+) contains? (?:all |only )?{unique} (?:coordinates|points|rows|pairs)|"
            rf"(\w+) contains? no duplicate (?:coordinates|points|rows|pairs|\w+)",
            text,
            flags=re.I,
        )
        if m:
            word = next(g for g in m.groups() if g)
            for cand in (word, word + "s"):
                p = self.by_name.get(cand)
                if p is not None and p.depth == 2 and p.leaf == "int" and not p.join:
                    name = p.name
                    break
            if name is None:
                return False
        else:
            whole = re.fullmatch(rf"all (?:the )?pairs (\w+)\[i\] are {unique}", text, flags=re.I)
            if whole and whole.group(1) in self.by_name:  # "All the pairs prerequisites[i] are"
                acts.append(partial(setattr, self.leaf[whole.group(1)], "unique_rows", line))
                return True
            m = re.fullmatch(
                rf"all (?:the )?pairs \[?\(?([^\]\)]+)\)?\]? are {unique}", text, flags=re.I
            )
            if not m:
                return False
            refs = [self.resolve(f) for f in _split_top(m.group(1))]
            owners = {r.params for r in refs if r.kind == "leaf" and r.col >= 0}
            if len(owners) != 1 or len(refs) != len(self._width_fields(next(iter(owners))[0])):
                raise _Unsupported("a uniqueness of some fields of the rows only")
            name = next(iter(owners))[0]
        acts.append(partial(setattr, self.leaf[name], "unique_rows", line))
        return True

    def _width_fields(self, name: str) -> list[str]:
        return [f for f, (owner, _) in self.fields.items() if owner == name]

    def _chain(self, text: str, acts: list[Callable[[], None]], line: str) -> bool:
        # a lone ``=`` is an equality too (``n = board[i].length``)
        parts = re.split(r"(<=|>=|==|!=|<|>|(?<![<>=!])=(?!=))", text)
        if len(parts) < 3:
            return False
        ops, segs = ["==" if o == "=" else o for o in parts[1::2]], parts[0::2]
        if "!=" in ops:
            if len(ops) != 1:
                raise _Unsupported("an inequality (!=) in a chain")
            self._not_equal(segs[0], segs[1], line, acts)
            return True
        sides = [[self._side_item(e) for e in _split_top(s)] for s in segs]
        if any(not side for side in sides):
            raise _Unsupported("an empty side of a comparison")
        for i, op in enumerate(ops):
            for a in sides[i]:
                for b in sides[i + 1]:
                    self._relate_items(a, op, b, line, acts)
        return True

    def _side_item(self, text: str) -> tuple[str, list[_Lin], str]:
        """One expression of a comparison: ``("one", [form], "")``, ``("min"/"max", [forms], "")``
        for ``min(50, nums.length)``, or ``("sum", [], key)`` for ``sum(words[i].length)``."""
        text = text.strip()
        m = re.fullmatch(r"(min|max)\s*\((.*)\)", text, flags=re.I)
        if m:
            args = _split_top(m.group(2))
            if len(args) < 2:
                raise _Unsupported(f"cannot read {text!r}")
            return (m.group(1).lower(), [self._parse(a) for a in args], "")
        m = re.fullmatch(r"sum\s*\((.*)\)", text, flags=re.I)
        if m:
            ref = self.resolve(m.group(1))
            if ref.kind != "q" or not re.fullmatch(r".+\[i\]\.length", ref.key):
                raise _Unsupported("only sums of per-item lengths (x[i].length) are supported")
            return ("sum", [], ref.key)
        return ("one", [self._parse(text)], "")

    def _relate_items(
        self,
        a: tuple[str, list[_Lin], str],
        op: str,
        b: tuple[str, list[_Lin], str],
        line: str,
        acts: list[Callable[[], None]],
    ) -> None:
        """``a op b`` where either side may be a min / max / sum (see :meth:`_side_item`)."""
        if op in (">=", ">"):
            a, b, op = b, a, "<=" if op == ">=" else "<"
        if a[0] == "sum" or b[0] == "sum":
            self._sum_relation(a, op, b, line, acts)
            return
        if op == "==" and (a[0] != "one" or b[0] != "one"):
            raise _Unsupported("an equality with min(...) or max(...)")
        if a[0] == "min" or b[0] == "max":
            # x <= max(a, b) means "x <= a or x <= b": not a conjunction of bounds
            raise _Unsupported("a bound by the larger (or smaller) of two values")
        # max(a, b) <= x <= min(c, d): every pair is a bound
        for la in a[1]:
            for lb in b[1]:
                self._relate(la, op, lb, line, acts)

    def _sum_relation(
        self,
        a: tuple[str, list[_Lin], str],
        op: str,
        b: tuple[str, list[_Lin], str],
        line: str,
        acts: list[Callable[[], None]],
    ) -> None:
        if (a[0] == "sum" and b[0] == "sum") or op == "==":
            raise _Unsupported("only a constant bound on a sum of lengths is supported")
        bound = b if a[0] == "sum" else a
        if bound[0] != "one" or bound[1][0].terms or bound[1][0].const.denominator != 1:
            raise _Unsupported("only a constant bound on a sum of lengths is supported")
        value = int(bound[1][0].const)
        if a[0] == "sum":  # sum <= value (or < value)
            limit = value - 1 if op == "<" else value
            acts.append(lambda: self.sums.setdefault(a[2], []).append((limit, line)))
        else:  # value <= sum: holds when every draw reaches it (checked when scheduling)
            least = value + 1 if op == "<" else value
            acts.append(lambda: self.sum_mins.setdefault(b[2], []).append((least, line)))

    def _not_equal(self, left: str, right: str, line: str, acts: list[Callable[[], None]]) -> None:
        """``divisor != 0``, ``nums[i] != 0``, ``src != dst``: an excluded value or pair."""
        a, b = self._parse(left), self._parse(right)
        kinds = {r.kind for r in (*a.terms, *b.terms)}
        if "container" in kinds:
            raise _Unsupported("an inequality (!=) between lists")
        if "leaf" not in kinds:
            if not a.terms and not b.terms:
                if a.const == b.const:
                    raise _Unsupported("a false statement about numbers")
                return
            acts.append(lambda: self._mention(a, line))
            acts.append(lambda: self._mention(b, line))
            acts.append(lambda: self.nes.append((a - b, line)))
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
            acts.append(partial(self.leaf[ra.params[0]].pairs.append, pair))
            return
        leaf_ref, other = (ra, b) if ra is not None and ra.kind == "leaf" else (rb, a)
        if leaf_ref is None or leaf_ref.kind != "leaf" or other.terms:
            raise _Unsupported("an inequality (!=) between elements")
        if other.const.denominator != 1:
            raise _Unsupported("an inequality (!=) with a fraction")
        for name in leaf_ref.params:
            if self.by_name[name].leaf != "int":
                raise _Unsupported(f"an inequality (!=) on {name}, whose values are not integers")
            acts.append(partial(self._info(name, leaf_ref.col).ne.append, int(other.const)))

    def _modulus(
        self, targets: str, m: int, r: int, line: str, acts: list[Callable[[], None]]
    ) -> None:
        """``n is even``, ``nums.length % 2 == 0``, ``n is a multiple of 3``."""
        if m < 1:
            raise _Unsupported(f"a remainder modulo {m}")
        for ref in self._phrase_refs(targets):
            if ref.kind != "q":
                raise _Unsupported("a divisibility condition on something that is not a count")
            key = ref.key
            acts.append(partial(self._mention, _Lin(Fraction(0), {ref: Fraction(1)}), line))
            acts.append(partial(self.mods.append, (key, m, r % m, line)))

    def _set_alphabet(self, refs: list[_Ref], chars: str, acts: list[Callable[[], None]]) -> None:
        for ref in refs:
            if ref.kind not in ("leaf", "container"):
                raise _Unsupported("an alphabet for something that is not text")
            for name in ref.params:
                if self.by_name[name].leaf != "char":
                    raise _Unsupported(f"an alphabet for {name}, which holds no characters")
                info = self.leaf[name]

                def act(info: _LeafInfo = info) -> None:
                    old = info.alphabet
                    info.alphabet = chars if old is None else "".join(c for c in old if c in chars)

                acts.append(act)

    def _line(self, line: str) -> None:
        """Understand one Constraints item, or record it as a problem (quoted)."""
        text = _clean(line)
        acts: list[Callable[[], None]] = []
        try:
            if not self._try_forms(text, line, acts):
                self.problems.append(f'"{line}": not understood')
                return
            for act in acts:
                act()
        except _Unsupported as exc:
            self.problems.append(f'"{line}": {exc}')

    def _try_forms(self, text: str, line: str, acts: list[Callable[[], None]]) -> bool:
        m = _FIELDS_RE.fullmatch(text)
        if m and m.group(1) in self.by_name:
            p = self.by_name[m.group(1)]
            names = _split_top(m.group(2))
            if p.depth != 2 or p.leaf != "int":
                raise _Unsupported(f"fields of {p.name} ({p.type}): only integer rows are")
            if any(self.fields.get(n) != (p.name, j) for j, n in enumerate(names)):
                raise _Unsupported("a field name that is already a parameter or another field")
            width = _Lin(Fraction(0), {_Ref("q", key=p.dim_key(1)): Fraction(1)})
            self._relate(width, "==", _Lin(Fraction(len(names))), line, acts)
            return True
        if self._unique_rows(text, line, acts):
            return True
        m = re.fullmatch(
            r"the number of (?:the )?nodes in (.+?) (?:is|will be|equals) ([A-Za-z_]\w*|\d+)",
            text,
            flags=re.I,
        )
        if m:
            refs = self._phrase_refs(f"the number of nodes in {m.group(1)}")
            value = self._parse(m.group(2))
            for ref in refs:
                self._relate(_Lin(Fraction(0), {ref: Fraction(1)}), "==", value, line, acts)
            return True
        # "is in the range [a, b]", and LeetCode's variants: "is the range" (reverse-linked-list),
        # "will be in the range", "is within the range", "is in the range of"
        m = re.fullmatch(
            r"(.+?) (?:is|are|will be|will always be|should be)(?: always)? "
            r"(?:(?:in|within) )?the range (?:of )?\[([^\[\],]+),\s*([^\[\]]+)\]"
            r"(?:,? inclusive)?",
            text,
            flags=re.I,
        ) or re.fullmatch(
            r"(.+?) (?:is|are|will be) between (\S+(?: [-+*/] \S+)*) and "
            r"(\S+(?: [-+*/] \S+)*?)(?:,? inclusive)?",
            text,
            flags=re.I,
        )
        if m:
            lo, hi = self._parse(m.group(2)), self._parse(m.group(3))
            for ref in self._phrase_refs(m.group(1)):
                target = _Lin(Fraction(0), {ref: Fraction(1)})
                self._relate(lo, "<=", target, line, acts)
                self._relate(target, "<=", hi, line, acts)
            return True
        m = re.fullmatch(
            r"the sum of (.+?) (?:will not exceed|does not exceed|won't exceed|is at most|"
            r"is less than or equal to|is smaller than or equal(?: to)?|<=) (.+)",
            text,
            flags=re.I,
        ) or re.fullmatch(r"sum\((.+?)\) <= (.+)", text, flags=re.I)
        if m:
            self._sum(m.group(1), m.group(2), line, acts)
            return True
        if self._order_forms(text, acts):
            return True
        if self._distinct(text, acts):
            return True
        if self._permutation(text, line, acts):
            return True
        if self._parity(text, line, acts):
            return True
        m = re.fullmatch(
            r"(?:root|the (?:given )?(?:binary )?tree) is (?:guaranteed to be )?"
            r"a (?:valid )?(?:binary search tree|BST)",
            text,
            flags=re.I,
        )
        if m:
            self._bst(acts)
            return True
        m = re.fullmatch(
            r"(?:both )?(.+?)(?: only| will| both)? (?:consists?|contains?|has|have|"
            r"is made up|is consisting) (?:only )?(?:of )?(?:only )?(.+)",
            text,
            flags=re.I,
        )
        if m and not re.search(r"<=|>=|==|<|>", _QUOTED.sub("", text)):
            items = _set_items(m.group(2))
            if items is None:
                return False
            refs = self._phrase_refs(m.group(1))
            if all(isinstance(i, int) for i in items) and all(
                self.by_name[n].leaf == "int" for r in refs for n in r.params
            ):
                for ref in refs:  # "nums1 and nums2 consist only of 0 and 1"
                    self._value_set_ref(ref, items, m.group(1), acts)
                return True
            if not all(isinstance(i, str) or 0 <= i <= 9 for i in items):
                return False
            chars = "".join(dict.fromkeys(str(i) for i in items))  # "the digits 0 and 1"
            self._set_alphabet(refs, chars, acts)
            return True
        m = re.fullmatch(r"'(.)' <= (\S+) <= '(.)'", text)
        if m and _REF_RE.fullmatch(m.group(2)):
            chars = "".join(chr(c) for c in range(ord(m.group(1)), ord(m.group(3)) + 1))
            if not chars:
                raise _Unsupported("an empty range of characters")
            self._set_alphabet([self.resolve(m.group(2))], chars, acts)
            return True
        ref_list = _REF_RE.pattern + r"(?:(?:,\s*|,?\s+and\s+)" + _REF_RE.pattern + r")*"
        m = re.fullmatch(
            rf"(?:both )?({ref_list}) (?:is|are)(?: both)? (?:either |one of |all )?(.+)",
            text,
            flags=re.I,
        )
        if m:
            items = _set_items(m.group(2))
            if items is not None:
                for target in _split_top(re.sub(r"\s+and\s+", ", ", m.group(1))):
                    self._value_set(target, items, acts)
                return True
        if re.search(r"<=|>=|==|!=|<|>|(?<![<>=!])=(?!=)", text) and not _QUOTED.search(text):
            return self._chain(text, acts, line)
        return False

    def _order_forms(self, text: str, acts: list[Callable[[], None]]) -> bool:
        """``X is sorted in non-decreasing order`` and LeetCode's other ways to say it."""
        words = "|".join(sorted((re.escape(w) for w in _ORDER_WORDS), key=len, reverse=True))
        lead = r"(?:both )?(.+?) (?:is|are) (?:(?:guaranteed to be|already|also|each|all) )?"
        m = re.fullmatch(
            lead + rf"sorted in (?:an? )?({words}) order"
            r"(?:,? and all (?:of )?(?:the |its )?(?:elements|values|integers|numbers) "
            r"(?:are|is) (unique|distinct))?",
            text,
            flags=re.I,
        ) or re.fullmatch(
            lead + rf"(?:in )?(?:an? )?({words})(?: order| array| list| sequence)?()",
            text,
            flags=re.I,
        )
        if m:
            self._sorted(m.group(1), m.group(2).lower(), acts)
            if m.group(3):
                self._distinct_targets(m.group(1), "", acts)
            return True
        m = re.fullmatch(
            rf"(.+?) (?:contains|consists of) (?:only )?(?:unique|distinct) (?:{_NOUNS}) "
            rf"sorted in (?:an? )?({words}) order",
            text,
            flags=re.I,
        )
        if m:
            self._sorted(m.group(1), m.group(2).lower(), acts)
            self._distinct_targets(m.group(1), "", acts)
            return True
        return False

    def _permutation(self, text: str, line: str, acts: list[Callable[[], None]]) -> bool:
        """``nums is a permutation of integers from 0 to n - 1`` / ``of [1, 2, ..., n]`` /
        ``of the integers in the range [1, n]``: distinct values in [a, b], b - a + 1 of them."""
        m = re.fullmatch(
            r"(?:it is guaranteed that )?(.+?) (?:is|are) (?:a )?permutations? of "
            r"(?:all )?(?:the )?(?:(?:distinct )?(?:integers|numbers|values) )?"
            r"(?:(?:from|between) (.+?) (?:to|and) (.+?)|(?:in the range )?\[(.+)\])"
            r"(?:,? inclusive)?",
            text,
            flags=re.I,
        )
        if not m:
            return False
        if m.group(4) is not None:
            items = _split_top(m.group(4))
            if len(items) == 2 or (len(items) >= 3 and items[-2] in ("...", "…")):
                lo_text, hi_text = items[0], items[-1]
            else:
                raise _Unsupported(f"cannot read the range [{m.group(4)}]")
        else:
            lo_text, hi_text = m.group(2), m.group(3)
        lo, hi = self._parse(lo_text), self._parse(hi_text)
        for ref in self._phrase_refs(m.group(1)):
            if ref.kind != "container" or ref.depth != 0:
                raise _Unsupported("a permutation that is not a whole list")
            for name in ref.params:
                p = self.by_name[name]
                if p.depth != 1 or p.leaf != "int" or p.tree:
                    raise _Unsupported(f"a permutation of numbers in {name} ({p.type})")
                values = _Lin(Fraction(0), {_Ref("leaf", params=(name,)): Fraction(1)})
                self._relate(lo, "<=", values, line, acts)
                self._relate(values, "<=", hi, line, acts)
                size = _Lin(Fraction(0), {_Ref("q", key=p.dim_key(0)): Fraction(1)})
                self._relate(size, "==", hi - lo + _Lin(Fraction(1)), line, acts)
                info = self.leaf[name]
                acts.append(partial(setattr, info, "distinct", {"level": "value", "scope": "all"}))
        return True

    def _parity(self, text: str, line: str, acts: list[Callable[[], None]]) -> bool:
        """``n is even``, ``m and n are both odd``, ``s has an even length``,
        ``n is a multiple of 3``, ``nums.length % 2 == 0``."""
        m = re.fullmatch(r"(.+?) (?:is|are)(?: both)? (even|odd)(?: numbers?| integers?)?", text)
        if m:
            self._modulus(m.group(1), 2, int(m.group(2) == "odd"), line, acts)
            return True
        m = re.fullmatch(r"(\S+) has an? (even|odd) length", text)
        if m:
            self._modulus(m.group(1) + ".length", 2, int(m.group(2) == "odd"), line, acts)
            return True
        m = re.fullmatch(r"(.+?) (?:is|are) (?:a multiple of|divisible by) (\d+)", text)
        if m:
            self._modulus(m.group(1), int(m.group(2)), 0, line, acts)
            return True
        m = re.fullmatch(r"(\S+) % (\d+) == (\d+)", text)
        if m:
            self._modulus(m.group(1), int(m.group(2)), int(m.group(3)), line, acts)
            return True
        return False

    def _bst(self, acts: list[Callable[[], None]]) -> None:
        """``root is a valid binary search tree``: LeetCode's BSTs are strict (left < node <
        right), so the values are distinct and placed in order."""
        for name in self._structure_params("the tree"):
            info = self.leaf[name]
            acts.append(partial(setattr, info, "bst", True))
            acts.append(partial(setattr, info, "distinct", {"level": "value", "scope": "all"}))

    def _sum(self, what: str, bound: str, line: str, acts: list[Callable[[], None]]) -> None:
        ref = self.resolve(what.strip())
        if ref.kind != "q" or not re.fullmatch(r".+\[i\]\.length", ref.key):
            raise _Unsupported("only sums of per-item lengths (x[i].length) are supported")
        limit = self._parse(bound)
        self._sum_relation(("sum", [], ref.key), "<=", ("one", [limit], ""), line, acts)

    def _sorted(self, targets: str, order: str, acts: list[Callable[[], None]]) -> None:
        if order not in _ORDER_WORDS:
            raise _Unsupported(f"the order {order!r}")
        direction, strict = _ORDER_WORDS[order]
        for ref in self._phrase_refs(targets):
            if ref.kind != "container":
                raise _Unsupported("sortedness of something that is not a list")
            for name in ref.params:
                p = self.by_name[name]
                if p.tree or ref.depth != p.depth - 1 or p.leaf in ("bool",):
                    raise _Unsupported(f"sortedness of {name} ({p.type}) at that level")
                info = self.leaf[name]

                def act(info: _LeafInfo = info, p: _Param = p) -> None:
                    if info.sorted not in (None, direction):
                        raise _Unsupported("contradictory orders")
                    info.sorted = direction
                    if strict:
                        scope = "each" if p.depth > 1 else "all"
                        info.distinct = info.distinct or {"level": "value", "scope": scope}

                acts.append(act)

    def _distinct(self, text: str, acts: list[Callable[[], None]]) -> bool:
        flags = re.I
        unique = r"(?:unique|distinct|pairwise distinct)"
        node = (
            r"(?:the input is generated such that )?(?:"
            r"each node (?:in the (?:tree|list) )?has a unique value|"
            r"(?:the )?values? of (?:each|the|all(?: the)?) nodes?(?: in the (?:tree|list))? "
            r"(?:is|are) (?:all )?unique|"
            rf"(?:the )?value of each node(?: in the (?:tree|list))? is {unique}|"
            rf"each node(?:'s |\.)val(?:ue)? is {unique}|"
            rf"all (?:the )?node values(?: in the (?:tree|list))? are {unique})"
        )
        if re.fullmatch(node, text, flags=flags):
            self._distinct_targets("Node.val", "", acts)
            return True
        m = re.fullmatch(rf"all (?:of )?(?:the )?(?P<noun>{_NOUNS}) are {unique}", text, flags)
        if m:  # "All values are unique": only when the statement has one list or tree
            lists = [p.name for p in self.params if p.depth and not p.join]
            if len(lists) != 1:
                raise _Unsupported("does not say which list's values are unique")
            self._distinct_targets(lists[0], m.group("noun").lower(), acts)
            return True
        forms = (
            rf"all (?:of )?(?:the )?(?P<noun>{_NOUNS}) (?:of|in) (?P<t>.+?) are {unique}",
            rf"(?:the )?(?P<noun>{_NOUNS}) (?:of|in) (?P<t>.+?) are (?:all )?{unique}",
            rf"all (?:the )?(?P<noun>{_NOUNS}) (?P<t>\S+) are {unique}",
            rf"all (?:the )?(?P<t>\S+) are {unique}",
            rf"(?P<t>.+?) (?:contains?|consists? of) (?:only |all )?{unique} (?P<noun>{_NOUNS})",
            rf"(?P<t>\S+) (?:contains|has) no duplicates?(?: (?P<noun>{_NOUNS}))?",
        )
        for form in forms:
            m = re.fullmatch(form, text, flags=flags)
            if m:
                break
        else:
            return False
        self._distinct_targets(m.group("t"), (m.groupdict().get("noun") or "").lower(), acts)
        return True

    def _distinct_targets(self, targets: str, noun: str, acts: list[Callable[[], None]]) -> None:
        """Distinct values (or strings, for lists of strings) for each named list."""
        for ref in self._phrase_refs(targets):
            if ref.kind not in ("leaf", "container"):
                raise _Unsupported("distinctness of something that is not a list")
            if ref.col >= 0:
                raise _Unsupported("distinct values of one field of the rows")
            for name in ref.params:
                p = self.by_name[name]
                if p.leaf == "bool":
                    raise _Unsupported("distinct booleans")
                words = p.join and p.depth >= 2 and noun not in ("characters", "letters")
                if words and ref.kind == "container" and ref.depth == p.depth - 2:
                    level, scope = "string", "all"
                elif ref.kind == "leaf" or ref.depth == 0:
                    level, scope = "value", "all"
                elif ref.depth == p.depth - 1:
                    level, scope = "value", "each"
                else:
                    raise _Unsupported(f"distinctness of {name} ({p.type}) at that level")
                info = self.leaf[name]
                acts.append(partial(setattr, info, "distinct", {"level": level, "scope": scope}))

    def _value_set(
        self, target: str, items: list[str | int], acts: list[Callable[[], None]]
    ) -> None:
        self._value_set_ref(self.resolve(target), items, target, acts)

    def _value_set_ref(
        self, ref: _Ref, items: list[str | int], target: str, acts: list[Callable[[], None]]
    ) -> None:
        if ref.kind == "container" and all(isinstance(i, int) for i in items):
            p = self.by_name[ref.params[0]]
            if len(ref.params) == 1 and ref.depth < p.depth and not p.tree:
                ref = _Ref("leaf", params=ref.params)  # "land consists of only 0's and 1's"
        if ref.kind == "q" and ref.key in self.by_name:
            ref = _Ref("leaf", params=(ref.key,))  # an int scalar parameter with a value set
        if ref.kind not in ("leaf", "container"):
            raise _Unsupported(f"a value set for {target}")
        ints = [i for i in items if isinstance(i, int)]
        chars = [i for i in items if isinstance(i, str)]
        if ints and chars:
            raise _Unsupported("a mix of numbers and characters")
        if chars:
            self._set_alphabet([ref], "".join(dict.fromkeys(chars)), acts)
            return
        for name in ref.params:
            p = self.by_name[name]
            if p.leaf != "int" or ref.kind != "leaf":
                raise _Unsupported(f"a set of numbers for {name} ({p.type})")
            if p.is_quantity:
                raise _Unsupported(f"a value set for the scalar {name}")
            info = self._info(name, ref.col)

            def act(info: _LeafInfo = info) -> None:
                old = info.values
                info.values = list(ints) if old is None else [v for v in old if v in ints]

            acts.append(act)

    # -- building the spec ---------------------------------------------------------------------

    def run(self, lines: list[str], prose: str = "") -> SpecResult:
        """Read every Constraints item. ``prose`` (the statement as text) is read only for the
        definitions of row fields (``intervals[i] = [start_i, end_i]``), which LeetCode states
        in the description more often than among the constraints."""
        defined: dict[str, set[tuple[str, int]]] = {}
        matches = [_FIELDS_RE.fullmatch(_clean(line)) for line in lines]
        matches += list(_FIELDS_RE.finditer(prose))
        matches += list(_FIELDS_WORDS_RE.finditer(prose))
        for m in matches:
            if m and m.group(1) in self.by_name:
                for col, name in enumerate(_split_top(m.group(2))):
                    if name not in self.by_name:
                        defined.setdefault(name, set()).add((m.group(1), col))
        # fields first: "0 <= a_i, b_i < n" may come before their definition; a name given
        # to two different fields means nothing here
        self.fields = {n: next(iter(d)) for n, d in defined.items() if len(d) == 1}
        for line in lines:
            self._line(line)
        classes = self._classes()
        quantities, qnotes, per_item = self._schedule(classes)
        params = [self._param_spec(p, classes, per_item) for p in self.params]
        if self.problems:
            return SpecResult(None, self.notes, self.problems)
        spec = {"quantities": quantities, "params": params}
        sizes = {q["name"] for q in quantities if q["size"]}
        self.notes = [*self._param_notes(params, qnotes, sizes), *self.notes]
        return SpecResult(spec, self.notes, [])

    def _classes(self) -> dict[str, str]:
        """Quantity key -> class name (a parameter name, else an alias, else a dimension).

        A free name (``n``) that no alias ties to a parameter is still a quantity when an
        equality determines it from ones that are: ``nums.length == n + 1``,
        ``edges.length == n - 1``, ``nums.length == 2 * n``. It is drawn like the others (a
        *hidden* quantity); tied to a length or count, it is capped like one and drawn first,
        so that the length follows from it. A free name with inequalities only is reported:
        what it means is in the prose.
        """
        members: dict[str, list[str]] = {}
        for k in list(self.parent):
            members.setdefault(self._find(k), []).append(k)
        known = {r for r, g in members.items() if any(k in self.known for k in g)}
        sized = {
            r for r in known if any(k in self.known and k not in self.by_name for k in members[r])
        }
        accepted = set(known)
        hidden_sized: set[str] = set()
        cap_fit: dict[str, list[int]] = {}
        changed = True
        while changed:
            changed = False
            for lin, _ in self.eqs:
                roots = {self._find(ref.key) for ref in lin.terms if ref.kind == "q"}
                new = roots - accepted
                if len(new) == 1 and roots & accepted:
                    root = new.pop()
                    accepted.add(root)
                    changed = True
                    if roots & (sized | hidden_sized):
                        hidden_sized.add(root)
                        fit = self._cap_fit(lin, root, sized)
                        if fit:
                            cap_fit[root] = fit
        names: dict[str, str] = {}
        for root, group in members.items():
            if root not in accepted:
                for k in sorted(group):
                    lines = self.mentions.get(k) or ["(an alias)"]
                    for line in dict.fromkeys(lines):
                        self.problems.append(f'"{line}": {k} is not a parameter or a size of one')
                continue

            def rank(k: str) -> tuple[int, int, str]:
                if k in self.by_name:
                    return (0, len(k), k)
                return (1, len(k), k) if k not in self.known else (2, len(k), k)

            name = min(group, key=rank)
            for k in group:
                names[k] = name
            if root not in known:
                self.hidden.add(name)
                if root in hidden_sized:
                    self.hidden_sizes.add(name)
                if root in cap_fit:
                    self.cap_fit[name] = cap_fit[root]
        return names

    def _cap_fit(self, lin: _Lin, hidden: str, sized: set[str]) -> list[int] | None:
        """For ``length == a * n + c`` (one length, a > 0, integers): ``[a, c]``, so that the
        runtime caps ``n`` at ``(size_cap - c) // a`` and the length stays within the cap."""
        coef: dict[str, Fraction] = {}
        for ref, v in lin.terms.items():
            root = self._find(ref.key)
            coef[root] = coef.get(root, Fraction(0)) + v
        coef = {k: v for k, v in coef.items() if v != 0}
        others = [k for k in coef if k != hidden]
        if hidden not in coef or len(others) != 1 or others[0] not in sized:
            return None
        a = -coef[hidden] / coef[others[0]]
        c = -lin.const / coef[others[0]]
        if a <= 0 or a.denominator != 1 or c.denominator != 1:
            return None
        return [int(a), int(c)]

    def _is_size(self, cls: str, classes: dict[str, str]) -> bool:
        return any(
            classes.get(k) == cls and k in self.known and k not in self.by_name for k in classes
        )

    def _label(self, cls: str, classes: dict[str, str]) -> str:
        others = sorted(k for k, c in classes.items() if c == cls and k != cls and k in self.known)
        return cls if not others else f"{cls} (= {', '.join(others)})"

    def _to_cls(
        self, lin: _Lin, classes: dict[str, str], *, integral: bool = False
    ) -> tuple[dict[str, int], int] | None:
        """The form over quantity classes with integer coefficients. ``integral``: the form is
        a constraint between integer quantities (``form >= 0`` or ``!= 0``), so it may be
        multiplied out (``k <= s.length / 2`` is ``2 * k <= s.length``)."""
        terms: dict[str, Fraction] = {}
        for ref, coef in lin.terms.items():
            if ref.key not in classes:
                return None  # an unknown name: already reported
            c = classes[ref.key]
            terms[c] = terms.get(c, Fraction(0)) + coef
        terms = {k: v for k, v in terms.items() if v != 0}
        const = lin.const
        if integral and terms:
            scale = math.lcm(const.denominator, *(v.denominator for v in terms.values()))
            const *= scale
            terms = {k: v * scale for k, v in terms.items()}
        if const.denominator != 1 or any(v.denominator != 1 for v in terms.values()):
            raise _Unsupported("a fractional bound on an integer")
        return {k: int(v) for k, v in terms.items()}, int(const)

    def _schedule(
        self, classes: dict[str, str]
    ) -> tuple[list[dict[str, Any]], dict[str, str], dict[str, dict[str, Any]]]:
        cons: list[tuple[dict[str, int], int, str]] = []
        for lin, line in self.lins:
            try:
                got = self._to_cls(lin, classes, integral=True)
            except _Unsupported as exc:
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
        cons += self._distinct_room(classes)
        # per-item lengths (words[i].length, lists[i].length): only constant bounds of their own
        leaf_refs = {
            classes.get(ref.key)
            for info in self.leaf.values()
            for lin, _, _ in (*info.lo, *info.hi)
            for ref in lin.terms
        }
        per_item: dict[str, dict[str, Any]] = {}
        for p in self.params:
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
                per_item[cls] = {"name": cls, **self._per_item(cls, own)}
                cons = [c for c in cons if cls not in c[0]]
        cons += self._string_room(classes, per_item)
        cons += self._row_room(classes)
        self._conditions(classes, per_item)
        self._least_sums(classes, per_item, cons)
        for key, limits in self.sums.items():
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
                    f"{_fmt(per_item[cls]['sum_max'])}"
                )
        return (*self._order(classes, cons, set(per_item)), per_item)

    def _conditions(self, classes: dict[str, str], per_item: dict[str, dict[str, Any]]) -> None:
        """Divisibility (``n is even``) and exclusions (``src != dst``) per quantity class."""
        self.mod_of: dict[str, tuple[int, int, str]] = {}
        for key, m, r, line in self.mods:
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
        self.ne_cons: list[tuple[dict[str, int], int, str]] = []
        for lin, line in self.nes:
            try:
                got = self._to_cls(lin, classes, integral=True)
            except _Unsupported as exc:
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

    def _least_sums(
        self,
        classes: dict[str, str],
        per_item: dict[str, dict[str, Any]],
        cons: list[tuple[dict[str, int], int, str]],
    ) -> None:
        """``1 <= sum(words[i].length)``: met by every draw when the fewest items of the
        shortest length reach it; otherwise reported (the runtime only shrinks sums)."""
        for key, least in self.sum_mins.items():
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
                if value > floor:
                    self.problems.append(
                        f'"{line}": the other constraints allow a sum of {floor} '
                        f"({outer} >= {outer_lo}, {cls} >= {per_item[cls]['lo']})"
                    )

    def _per_item(self, cls: str, own: list[tuple[dict[str, int], int, str]]) -> dict[str, Any]:
        lo, hi = 0, None
        for terms, const, _ in own:
            a = terms[cls]
            if a > 0:
                lo = max(lo, -(const // a))
            else:
                v = const // -a
                hi = v if hi is None else min(hi, v)
        if hi is None:
            self.problems.append(f"no stated upper bound for {cls}")
            hi = lo
        elif lo > hi:
            self.problems.append(f"{cls}: the stated bounds [{lo}, {hi}] are empty")
        elif hi > self.size_cap:
            self.notes.append(f"{cls} capped at {self.size_cap} of the stated {_fmt(hi)}")
        return {"lo": lo, "hi": hi}

    def _distinct_room(self, classes: dict[str, str]) -> list[tuple[dict[str, int], int, str]]:
        """Distinct values need a list no longer than its value range: one more bound each."""
        out: list[tuple[dict[str, int], int, str]] = []
        for p in self.params:
            info = self.leaf[p.name]
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
                        form = hi - lo + _Lin(Fraction(1 - lo_strict - hi_strict - excluded))
                        got = self._to_cls(form, classes)
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

    def _row_room(self, classes: dict[str, str]) -> list[tuple[dict[str, int], int, str]]:
        """Distinct rows need no more rows than there are sets of field values (each field
        range constant; counted as unordered, which is what the runtime tells apart)."""
        out: list[tuple[dict[str, int], int, str]] = []
        for p in self.params:
            info = self.leaf[p.name]
            outer = classes.get(p.dim_key(0))
            if not info.unique_rows or outer is None:
                continue
            width = max([len(self._width_fields(p.name)), *(c + 1 for c in info.cols)])
            cols = self._columns(p, info, width) if width else "no fields"
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
            paired = any(op != "<=" and 0 in (a, b) for a, b, op, _ in info.pairs)
            why = f"(distinct rows of {p.name}: no more rows than values of its first field)"
            for lo, lo_strict, _ in col.lo:
                for hi, hi_strict, _ in col.hi:
                    form = hi - lo + _Lin(Fraction(1 - lo_strict - hi_strict - paired))
                    got = self._to_cls(form, classes, integral=True)
                    if got is not None:
                        terms = dict(got[0])
                        terms[outer] = terms.get(outer, 0) - 1
                        out.append(({k: v for k, v in terms.items() if v}, got[1], why))
        return out

    def _string_room(
        self, classes: dict[str, str], per_item: dict[str, dict[str, Any]]
    ) -> list[tuple[dict[str, int], int, str]]:
        """Distinct strings need a list no longer than the number of strings that exist."""
        out: list[tuple[dict[str, int], int, str]] = []
        for p in self.params:
            info = self.leaf[p.name]
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
        self,
        classes: dict[str, str],
        cons: list[tuple[dict[str, int], int, str]],
        skip: set[str],
    ) -> tuple[list[dict[str, Any]], dict[str, str]]:
        """A topological order of the quantities (sizes first) and each one's bounds.

        A quantity is ready when the constraints over it and already-placed quantities give it a
        lower and an upper bound; each constraint then bounds the last-placed quantity in it.
        """
        sizes = {c for c in set(classes.values()) if self._is_size(c, classes)}
        capped = sizes | self.hidden_sizes  # drawn as sizes; only true sizes are >= 0 unstated
        remaining = set(classes.values()) - skip
        implied = self._implied(remaining, sizes, cons)
        cons = cons + [(t, c, line) for t, c, line, _ in implied]
        pos: dict[str, int] = {}
        order: list[str] = []
        while remaining:
            chosen = None
            for c in sorted(remaining, key=lambda c: (c not in capped, c not in self.hidden, c)):
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
                    self.problems.append(self._unbounded(c, classes, cons, sizes))
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
            item = {"name": c, "label": self._label(c, classes), "size": c in capped}
            item["bounds"] = bounds
            if c in self.cap_fit:
                item["cap"] = self.cap_fit[c]
            if c in self.mod_of:
                item["mod"] = list(self.mod_of[c][:2])
            for terms, const, line in self.ne_cons:
                if c in terms and target(terms) == c:
                    rest_terms = {t: v for t, v in terms.items() if t != c}
                    rest = {"const": const, "terms": rest_terms} if rest_terms else const
                    item.setdefault("ne", []).append({"coef": terms[c], "rest": rest, "text": line})
            quantities.append(item)
            qnotes[c] = self._describe_quantity(c, bounds, c in capped, classes)
            if "mod" in item:
                m, r = item["mod"]
                qnotes[c] += (
                    f", {'even' if (m, r) == (2, 0) else 'odd' if m == 2 else f'% {m} == {r}'}"
                )
            if "ne" in item:
                qnotes[c] += ", " + ", ".join(b["text"] for b in item["ne"])
        return quantities, qnotes

    def _implied(
        self, names: set[str], sizes: set[str], cons: list[tuple[dict[str, int], int, str]]
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
                why = f"{c} >= {_fmt(lo_c)} (implied by the others)"
                out.append(({c: 1}, -lo_c, why, src_lo[c]))
            if hi_c is not None and hi_c != direct_hi[c]:
                why = f"{c} <= {_fmt(hi_c)} (implied by the others)"
                out.append(({c: -1}, hi_c, why, src_hi[c]))
        return out

    def _unbounded(
        self,
        c: str,
        classes: dict[str, str],
        cons: list[tuple[dict[str, int], int, str]],
        sizes: set[str],
    ) -> str:
        lo = c in sizes or any(t.get(c, 0) > 0 for t, _, _ in cons)
        hi = any(t.get(c, 0) < 0 for t, _, _ in cons)
        label = self._label(c, classes)
        if lo and hi:
            others = sorted({t for terms, _, _ in cons if c in terms for t in terms} - {c})
            return (
                f"no constant bound reaches {label}: its bounds involve only "
                f"{', '.join(others)}, which are bounded by it (a cycle)"
            )
        if not hi and not lo:
            return f"no stated bound for {label}"
        return f"no stated {'upper' if not hi else 'lower'} bound for {label}"

    def _describe_quantity(
        self, c: str, bounds: list[dict[str, Any]], size: bool, classes: dict[str, str]
    ) -> str:
        const_lo = [
            -b["rest"] for b in bounds if b["coef"] == 1 and not isinstance(b["rest"], dict)
        ]
        const_hi = [
            b["rest"] for b in bounds if b["coef"] == -1 and not isinstance(b["rest"], dict)
        ]
        los = [_fmt(max(const_lo))] if const_lo else []
        his = [_fmt(min(const_hi))] if const_hi else []
        for b in bounds:
            a, rest = b["coef"], b["rest"]
            if a in (1, -1) and not isinstance(rest, dict):
                continue
            if a > 0:
                los.append(
                    _fmt_form(_neg(rest)) if a == 1 else f"ceil({_fmt_form(_neg(rest))} / {a})"
                )
            else:
                his.append(_fmt_form(rest) if a == -1 else f"floor({_fmt_form(rest)} / {-a})")
        label = self._label(c, classes)
        text = f"{label} in {_fmt_range(los, his)}"
        if not size:
            return text
        cap = self.size_cap
        if c in self.cap_fit:  # a free n whose length is a * n + c
            cap = (cap - self.cap_fit[c][1]) // self.cap_fit[c][0]
        if const_hi and min(const_hi) > cap:
            self.notes.append(f"{label} capped at {cap} of the stated {_fmt(min(const_hi))}")
        return text + f", {self.cap_note}"

    def _param_spec(
        self, p: _Param, classes: dict[str, str], per_item: dict[str, dict[str, Any]]
    ) -> dict[str, Any]:
        base: dict[str, Any] = {"name": p.name, "type": p.type}
        if p.is_quantity:
            return {**base, "kind": "quantity", "q": classes.get(p.name, p.name)}
        info = self.leaf[p.name]
        dims: list[dict[str, Any]] = []
        for d in range(1 if p.tree else p.depth):
            cls = classes.get(p.dim_key(d), p.dim_key(d))
            dims.append(dict(per_item[cls]) if cls in per_item else {"q": cls})
        if info.cols or info.pairs or info.unique_rows:
            return self._rows_spec(p, info, classes, base, dims)
        kind = "tree" if p.tree else "list" if p.depth else "scalar"
        out = {
            **base,
            "kind": kind,
            "dims": dims,
            "leaf": self._leaf_spec(p, info, classes),
            "join": p.join,
            "sorted": info.sorted,
            "distinct": info.distinct,
        }
        if info.bst:
            out["bst"] = True
        return out

    def _columns(self, p: _Param, info: _LeafInfo, width: int) -> list[_LeafInfo] | str:
        """Each field's facts: the whole list's bounds plus its own; the two fields of an
        ordered pair share both ranges (drawn from the common range, then ordered). A problem
        (text) when a field or a pair cannot be placed."""
        for col in info.cols:
            if col >= width:
                return f"{p.name} has {width} fields per row, not {col + 1}"
        cols = []
        for j in range(width):
            own = info.cols.get(j, _LeafInfo())
            values = info.values
            if own.values is not None:
                values = own.values if values is None else [v for v in values if v in own.values]
            cols.append(
                _LeafInfo(
                    lo=[*info.lo, *own.lo],
                    hi=[*info.hi, *own.hi],
                    values=values,
                    ne=[*info.ne, *own.ne],
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
            merged = _LeafInfo(lo=[*ca.lo, *cb.lo], hi=[*ca.hi, *cb.hi], ne=[*ca.ne, *cb.ne])
            if ca.values is not None or cb.values is not None:
                sets = [c.values for c in (ca, cb) if c.values is not None]
                merged.values = [v for v in sets[0] if all(v in x for x in sets)]
            cols[a] = cols[b] = merged
        return cols

    def _rows_spec(
        self,
        p: _Param,
        info: _LeafInfo,
        classes: dict[str, str],
        base: dict[str, Any],
        dims: list[dict[str, Any]],
    ) -> dict[str, Any]:
        """A list of rows with named fields (``edges[i] = [a_i, b_i]``): a leaf per field."""
        out = {**base, "kind": "list", "dims": dims, "join": False, "sorted": None}
        out["distinct"] = None
        width = dims[-1].get("lo") if len(dims) == 2 and "q" not in dims[-1] else None
        if p.depth != 2 or p.leaf != "int" or not width or width != dims[-1].get("hi"):
            self.problems.append(
                f"{p.name} ({p.type}): fields per row need rows of one stated length "
                f"({p.name}[i].length == k or {p.name}[i] = [a_i, b_i, ...])"
            )
            return {**out, "leaf": {"type": "int", "lo": [0], "hi": [0]}}
        if info.sorted or info.distinct:
            self.problems.append(f"{p.name}: sorted or distinct values together with fields")
        cols = self._columns(p, info, width)
        if isinstance(cols, str):
            self.problems.append(cols)
            return {**out, "leaf": {"type": "int", "lo": [0], "hi": [0]}}
        names = {col: f for f, (owner, col) in self.fields.items() if owner == p.name}
        leaves = [
            self._leaf_spec(p, c, classes, what=f"{names.get(j, f'{p.name}[i][{j}]')}")
            for j, c in enumerate(cols)
        ]
        out["leaf"] = leaves[0]
        out["cols"] = leaves
        out["fields"] = [names.get(j, f"{p.name}[i][{j}]") for j in range(width)]
        if info.pairs:
            out["pairs"] = [[a, b, op] for a, b, op, _ in info.pairs]
        if info.unique_rows:
            out["unique_rows"] = True
        return out

    def _leaf_spec(
        self, p: _Param, info: _LeafInfo, classes: dict[str, str], what: str | None = None
    ) -> dict[str, Any]:
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
        los = [self._int_bound(b, strict, +1, classes) for b, strict, _ in info.lo]
        his = [self._int_bound(b, strict, -1, classes) for b, strict, _ in info.hi]
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
        return out

    def _int_bound(self, lin: _Lin, strict: bool, sign: int, classes: dict[str, str]) -> Any:
        adjusted = lin + _Lin(Fraction(sign if strict else 0))
        try:
            got = self._to_cls(adjusted, classes)
        except _Unsupported as exc:
            self.problems.append(str(exc))
            return 0
        if got is None:
            return 0
        terms, const = got
        return {"const": const, "terms": terms} if terms else const

    def _param_notes(
        self, params: list[dict[str, Any]], qnotes: dict[str, str], sizes: set[str]
    ) -> list[str]:
        out = []
        for p in params:
            head = f"{p['name']} ({p['type']}): "
            if p["kind"] == "quantity":
                how = _size_policy(self.perf) if p["q"] in sizes else _scalar_policy(self.perf)
                out.append(head + f"integer {qnotes.get(p['q'], p['q'])}, {how}")
                continue
            leaf = _describe_leaf(p["leaf"])
            extras = []
            if p.get("distinct"):
                d = p["distinct"]
                extras.append(
                    "distinct strings"
                    if d["level"] == "string"
                    else "distinct values" + (" within each list" if d["scope"] == "each" else "")
                )
            if p.get("sorted"):
                order = "non-decreasing" if p["sorted"] == "asc" else "non-increasing"
                extras.append(f"sorted ({order})")
            tail = "".join(f"; {e}" for e in extras)
            if p["kind"] == "scalar":
                out.append(head + leaf + tail)
                continue
            shape = []
            for d in p["dims"]:
                if "q" in d:
                    shape.append(qnotes.get(d["q"], d["q"]))
                else:
                    extra = f", their sum at most {_fmt(d['sum_max'])}" if "sum_max" in d else ""
                    rng = f"[{_fmt(d['lo'])}, {_fmt(d['hi'])}]"
                    shape.append(f"{d['name']} each in {rng}, {self.cap_note}{extra}")
            if "cols" in p:
                fields = p["fields"]
                what = f"{shape[0]}; rows [{', '.join(fields)}]; " + "; ".join(
                    f"{f}: {_describe_leaf(c)}" for f, c in zip(fields, p["cols"], strict=True)
                )
                for a, b, op in p.get("pairs", ()):
                    what += f"; {fields[a]} {op} {fields[b]}"
                if p.get("unique_rows"):
                    what += "; no two rows hold the same values"
            elif p["kind"] == "tree":
                how_shaped = "" if self.perf else " (~10% path-shaped)"
                what = f"a random binary tree{how_shaped}, node count {shape[0]}; values {leaf}"
            elif p["join"] and len(shape) == 1:
                what = f"a string, length {shape[0]}; characters: {leaf}"
            else:
                dims = "; ".join(shape)
                what = f"{dims}; {'characters' if p['leaf']['type'] == 'char' else 'values'} {leaf}"
            out.append(head + what + tail)
        return out


def _neg(form: Any) -> Any:
    if isinstance(form, dict):
        return {"const": -form["const"], "terms": {k: -v for k, v in form["terms"].items()}}
    return -form


def _scalar_policy(perf: bool = False) -> str:
    if perf:
        return (
            "min(its max, scale) when the range spans >= 3 orders of magnitude from >= 0, "
            "else random"
        )
    return "log-uniform in magnitude when the range spans >= 3 orders of magnitude, else uniform"


def _size_policy(perf: bool = False) -> str:
    return "a size: min(its max, scale)" if perf else "a size: uniform"


def _describe_leaf(leaf: dict[str, Any]) -> str:
    t = leaf["type"]
    if t == "bool":
        return "true/false uniformly"
    if t == "char":
        return _describe_alphabet(leaf["alphabet"])
    if t == "float":
        lo = "(" if leaf["lo_strict"] else "["
        hi = ")" if leaf["hi_strict"] else "]"
        return f"floats uniform in {lo}{leaf['lo']}, {leaf['hi']}{hi}"
    if "set" in leaf:
        return "from {" + ", ".join(str(v) for v in leaf["set"]) + "}"
    rng = _fmt_range([_fmt_form(x) for x in leaf["lo"]], [_fmt_form(x) for x in leaf["hi"]])
    return f"integers uniform in {rng}"


def build_spec(inp: SynthInput, *, size_cap: int = DEFAULT_SIZE_CAP) -> SpecResult:
    """Types + Constraints -> a spec for :func:`emit_generator`, or the problems found."""
    return _build_spec(inp, size_cap, perf=False)


def _build_spec(inp: SynthInput, size_cap: int, *, perf: bool) -> SpecResult:
    """:func:`build_spec`; ``perf``: notes describe ``perf_input_gen(scale)`` (the spec is the
    same: ``size_cap`` only decides which stated bounds the notes call capped)."""
    if size_cap < 1:
        raise ValueError(f"size_cap must be >= 1, got {size_cap}")
    problems: list[str] = []
    params: list[_Param] = []
    raw_params = inp.meta.get("params") if isinstance(inp.meta, dict) else None
    if not isinstance(raw_params, list) or "name" not in inp.meta:
        return SpecResult(None, [], ["metaData names no method and parameters (a design problem?)"])
    for raw in raw_params:
        name, t = str(raw.get("name")), str(raw.get("type"))
        p = _parse_type(name, t)
        if p is None:
            problems.append(
                f"parameter {name} has type {t}, which the offline synthesizer does not generate"
            )
            continue
        params.append(p)
    lines = constraint_lines(inp.content_html)
    if lines is None:
        problems.append(
            "the statement has no Constraints section"
            + ("" if inp.content_html else " (no statement at all: paid-only?)")
        )
        return SpecResult(None, [], problems)
    analysis = _Analysis(params, size_cap, perf=perf)
    result = analysis.run(lines, html_to_text(inp.content_html))
    if problems:
        return SpecResult(None, result.notes, problems + result.problems)
    return result


def synthesize_offline(inp: SynthInput, *, size_cap: int = DEFAULT_SIZE_CAP) -> GeneratorResult:
    """A generator from the statement's constraints, or a report of what blocks one.

    ``generator_code`` defines ``generate_test_case()`` (one argument list per call, the caller
    seeds ``random``) and ``_generate(size_cap)``; ``notes`` say how each parameter was understood
    and which stated bounds were capped at ``size_cap``.
    """
    result = build_spec(inp, size_cap=size_cap)
    out = GeneratorResult(slug=inp.slug, path="offline", model=OFFLINE_SYNTHESIZER)
    if result.spec is None:
        out.needs_llm = True
        out.reason = "the offline synthesizer cannot satisfy: " + "; ".join(result.problems)
        out.notes = result.notes
        log.info("%s: offline synthesis reports %d problem(s)", inp.slug, len(result.problems))
        return out
    header = [f"Question: {inp.slug}", "Understood:"] + [f"  {n}" for n in result.notes]
    out.generator_code = emit_generator(result.spec, size_cap, header=header)
    out.notes = result.notes
    log.info("%s: offline generator written (%d parameters)", inp.slug, len(result.spec["params"]))
    return out


def synthesize_offline_perf(inp: SynthInput) -> GeneratorResult:
    """The offline SaS path: a ``perf_input_gen(scale)`` from the statement's constraints, or a
    report of what blocks one (``needs_llm`` and ``reason``, as :func:`synthesize_offline`).

    ``perf_input_gen(scale)`` returns the argument list with every length and count at
    min(stated max, scale) and magnitude-like scalars likewise (:data:`PERF_POLICY`), so a larger
    scale never gives a smaller input and the stated bounds are reached (not capped at the Mercury
    size cap). The file keeps ``generate_test_case()`` (random inputs, sizes at most
    :data:`DEFAULT_SIZE_CAP`).
    """
    result = _build_spec(inp, PERF_SPEC_CAP, perf=True)
    out = GeneratorResult(slug=inp.slug, path="offline", model=OFFLINE_PERF_SYNTHESIZER)
    if result.spec is None:
        out.needs_llm = True
        out.reason = "the offline synthesizer cannot satisfy: " + "; ".join(result.problems)
        out.notes = result.notes
        log.info("%s: offline perf synthesis reports %d problem(s)", inp.slug, len(result.problems))
        return out
    header = [f"Question: {inp.slug}", "Understood:"] + [f"  {n}" for n in result.notes]
    out.generator_code = emit_generator(
        result.spec,
        DEFAULT_SIZE_CAP,
        header=header,
        extra_entry=PERF_ENTRY,
        title=(
            f"Performance-input generator perf_input_gen(scale) written by "
            f"{OFFLINE_PERF_SYNTHESIZER}, the offline perf synthesizer (no LLM)."
        ),
        policy=PERF_POLICY,
    )
    out.notes = [*result.notes, "perf_input_gen(scale): sizes min(stated max, scale)"]
    log.info(
        "%s: offline perf generator written (%d parameters)", inp.slug, len(result.spec["params"])
    )
    return out
