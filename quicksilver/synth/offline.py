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
  values of nums are unique``).

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

from quicksilver.sources.text import constraint_lines
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


def _eval(form: int | dict, q: dict) -> int:
    """A bound: a number, or {"const": c, "terms": {quantity: coefficient}} evaluated on ``q``."""
    if not isinstance(form, dict):
        return form
    return form["const"] + sum(coef * q[name] for name, coef in form["terms"].items())


def _chance(p: float) -> bool:
    """True with probability ``p``; never in "max" mode, where sizes must be monotone in scale.

    In "random" mode it draws exactly one ``random.random()``, as the runtime always did.
    """
    return _SIZE_MODE != "max" and random.random() < p


def _pick_size(lo: int, hi: int) -> int:
    """A length or count: uniform in [lo, hi], now and then exactly lo or hi (edge cases).

    In "max" mode: hi (which the callers already capped at size_cap).
    """
    if _SIZE_MODE == "max":
        return hi
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
    """Sizes and scalars in order; each bound is ``coef * x + rest >= 0`` (rest: earlier ones)."""
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
            if item["size"]:
                hi = min(hi, max(size_cap, lo))
            if lo > hi:
                break  # an earlier choice left no room: draw again
            if item["size"]:
                q[item["name"]] = _pick_size(lo, hi)
            elif _SIZE_MODE == "max" and lo >= 0 and hi + 1 >= 1000 * (lo + 1):
                # a magnitude-like scalar (amount <= 10^4, x <= 2^31 - 1) grows with scale too
                q[item["name"]] = min(hi, max(lo, size_cap))
            else:
                q[item["name"]] = _pick_scalar(lo, hi)
        else:
            return q
    raise RuntimeError("could not satisfy the size constraints in 200 draws")


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
        return _draw_float(leaf, count, distinct, edge)
    if kind == "int" and "set" not in leaf:
        lo = max(_eval(f, q) for f in leaf["lo"])
        hi = min(_eval(f, q) for f in leaf["hi"])
        if lo > hi:
            raise RuntimeError(f"empty value range [{lo}, {hi}]")
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
    if distinct:
        if count > len(choices):
            raise RuntimeError(f"{count} distinct values do not fit in {len(choices)} choices")
        return random.sample(choices, count)
    if edge and len(choices) > 1:
        choices = random.sample(choices, random.randint(1, 2))  # e.g. "aaaa", all '0'
    return [random.choice(choices) for _ in range(count)]


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


def _tree(values: list, path: bool) -> list:
    """A random binary tree holding ``values`` (a path when ``path``), in LeetCode level order."""
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
        return _tree(inner[0], _chance(_BOUNDARY_P))
    for counts in reversed(levels[:-1]):
        nested = []
        i = 0
        for c in counts:
            nested.append(inner[i : i + c])
            i += c
        inner = nested
    return inner[0]


def _generate_from_spec(spec: dict, size_cap: int) -> list:
    """One test input: the method's arguments in parameter order, as plain data."""
    q = _sample_quantities(spec["quantities"], size_cap)
    return [_build_param(p, q, size_cap) for p in spec["params"]]


_RUNTIME: tuple[Callable[..., Any], ...] = (
    _eval,
    _chance,
    _pick_size,
    _log_magnitude,
    _pick_scalar,
    _sample_quantities,
    _fit_sum,
    _level_counts,
    _draw_float,
    _draw,
    _distinct_strings,
    _tree,
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
    "quantities drawn in topological order of their relations (sizes first)"
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
        f"_SIZE_MODE = {_SIZE_MODE!r}"
    )
    parts.append("SPEC = " + pprint.pformat(spec, width=96, sort_dicts=False))
    parts += [textwrap.dedent(inspect.getsource(fn)).rstrip() for fn in _RUNTIME]
    parts.append(
        "def _generate(size_cap):\n"
        '    """One input with every length and count at most size_cap."""\n'
        "    return _generate_from_spec(SPEC, size_cap)"
    )
    parts.append("def generate_test_case():\n    return _generate(SIZE_CAP)")
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


class _Unsupported(ValueError):
    """The line has a recognised form but something in it cannot be generated."""


_REF_RE = re.compile(r"[A-Za-z_]\w*(?:\[[^\[\]]*\])*(?:\.\w+(?:\(\))?)?")


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
    r"\s*(?:(?P<num>\d+(?:\.\d+)?)|(?P<ref>" + _REF_RE.pattern + r")|(?P<op>[-+*^()]))"
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
        while self._peek() == "*":
            self.i += 1
            rhs = self._unary()
            if not rhs.terms:
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


def _set_items(text: str) -> list[str | int] | None:
    """``'0' or '1'`` / ``0, 1, or 2`` / ``lowercase English letters, '.', and '*'``: the items
    (a class expands to its characters; ints stay ints); None when something is not recognised."""
    quoted: list[str] = []

    def keep(m: re.Match[str]) -> str:
        quoted.append(m.group(1) if m.group(1) is not None else m.group(2))
        return f" \x00{len(quoted) - 1}\x00 "

    text = _QUOTED.sub(keep, text).lower().strip().rstrip(".")
    text = re.sub(r"\s+only$", "", text)  # "digits only"
    text = text.replace("lower-case", "lowercase").replace("upper-case", "uppercase")
    text = re.sub(
        r"(lowercase and uppercase|uppercase and lowercase) english letters",
        "english letters",
        text,
    )
    text = re.sub(
        r"english letters \((both )?(lowercase|uppercase) and (uppercase|lowercase)\)",
        "english letters",
        text,
    )
    out: list[str | int] = []
    for raw in re.split(r"\s*,\s*|\s+(?:and|or)\s+", text):
        item = raw.strip().rstrip(".").strip()
        item = re.sub(r"^(?:(?:and|or|either|only|one of|a|an|the)\s+)+", "", item).strip()
        if not item:
            continue
        m = re.fullmatch(r"\x00(\d+)\x00", item)
        if m:
            out.append(quoted[int(m.group(1))])
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


@dataclass
class SpecResult:
    """What :func:`build_spec` understood: a spec, or the problems that prevent one."""

    spec: dict[str, Any] | None
    notes: list[str]
    problems: list[str]


_ORDER_WORDS = {
    "non-decreasing": ("asc", False),
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
        m = re.fullmatch(r"the number of nodes in (.+)", phrase, flags=re.I)
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
                return
            diff = b - a - (_Lin(Fraction(1)) if op == "<" else _Lin())
            acts.append(lambda: self.lins.append((diff, line)))
            return
        ra, rb = a.single(), b.single()
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
            info = self.leaf[name]
            if op == "==":
                acts.append(partial(info.lo.append, (other, False, line)))
                acts.append(partial(info.hi.append, (other, False, line)))
            elif leaf_left:
                acts.append(partial(info.hi.append, (other, strict, line)))
            else:
                acts.append(partial(info.lo.append, (other, strict, line)))

    def _chain(self, text: str, acts: list[Callable[[], None]], line: str) -> bool:
        parts = re.split(r"(<=|>=|==|!=|<|>)", text)
        if len(parts) < 3:
            return False
        ops, segs = parts[1::2], parts[0::2]
        if "!=" in ops:
            raise _Unsupported("an inequality (!=)")
        exprs = [
            [self._parse(e) for e in re.split(r",\s*(?:and\s+)?", s) if e.strip()] for s in segs
        ]
        if any(not e for e in exprs):
            raise _Unsupported("an empty side of a comparison")
        for i, op in enumerate(ops):
            for a in exprs[i]:
                for b in exprs[i + 1]:
                    self._relate(a, op, b, line, acts)
        return True

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
        text = line.strip().rstrip(".").strip()
        text = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)  # 10,000
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
        m = re.fullmatch(r"the number of nodes in (.+?) is ([A-Za-z_]\w*|\d+)", text, flags=re.I)
        if m:
            refs = self._phrase_refs(f"the number of nodes in {m.group(1)}")
            value = self._parse(m.group(2))
            for ref in refs:
                self._relate(_Lin(Fraction(0), {ref: Fraction(1)}), "==", value, line, acts)
            return True
        m = re.fullmatch(
            r"(.+?) (?:is|are) (?:in|within) the range \[([^\[\],]+),\s*([^\[\]]+)\]",
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
            r"is less than or equal to|<=) (.+)",
            text,
            flags=re.I,
        ) or re.fullmatch(r"sum\((.+?)\) <= (.+)", text, flags=re.I)
        if m:
            self._sum(m.group(1), m.group(2), line, acts)
            return True
        m = re.fullmatch(
            r"(?:both )?(.+?) (?:is|are) (?:(?:guaranteed to be|already|also|each) )?sorted "
            r"in (?:an? )?(strictly [a-z-]+|[a-z-]+) order",
            text,
            flags=re.I,
        )
        if m:
            self._sorted(m.group(1), m.group(2).lower(), acts)
            return True
        if self._distinct(text, acts):
            return True
        m = re.fullmatch(
            r"(?:both )?(.+?) (?:consists?|contains?) (?:only )?(?:of )?(?:only )?(.+)",
            text,
            flags=re.I,
        )
        if m and not re.search(r"<=|>=|==|<|>", text):
            items = _set_items(m.group(2))
            if items is None or not all(isinstance(i, str) for i in items):
                return False
            chars = "".join(dict.fromkeys(str(i) for i in items))
            self._set_alphabet(self._phrase_refs(m.group(1)), chars, acts)
            return True
        m = re.fullmatch(r"(\S+) (?:is|are) (?:either |one of )?(.+)", text, flags=re.I)
        if m and _REF_RE.fullmatch(m.group(1)):
            items = _set_items(m.group(2))
            if items is not None:
                self._value_set(m.group(1), items, acts)
                return True
        if re.search(r"<=|>=|==|!=|<|>", text) and not _QUOTED.search(text):
            return self._chain(text, acts, line)
        return False

    def _sum(self, what: str, bound: str, line: str, acts: list[Callable[[], None]]) -> None:
        ref = self.resolve(what.strip())
        limit = self._parse(bound)
        if ref.kind != "q" or limit.terms or limit.const.denominator != 1:
            raise _Unsupported("only a constant bound on a sum of lengths is supported")
        if not re.fullmatch(r".+\[i\]\.length", ref.key):
            raise _Unsupported("only sums of per-item lengths (x[i].length) are supported")
        acts.append(lambda: self.sums.setdefault(ref.key, []).append((int(limit.const), line)))

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
        forms = (
            rf"all (?:of )?(?:the )?(?P<noun>{_NOUNS}) (?:of|in) (?P<t>.+?) are {unique}",
            rf"(?:the )?(?P<noun>{_NOUNS}) (?:of|in) (?P<t>.+?) are (?:all )?{unique}",
            rf"all (?:the )?(?P<t>\S+) are {unique}",
            rf"(?P<t>\S+) (?:contains|consists of) (?:only )?{unique} (?P<noun>{_NOUNS})",
        )
        for form in forms:
            m = re.fullmatch(form, text, flags=flags)
            if m:
                break
        else:
            return False
        noun = (m.groupdict().get("noun") or "").lower()
        for ref in self._phrase_refs(m.group("t")):
            if ref.kind not in ("leaf", "container"):
                raise _Unsupported("distinctness of something that is not a list")
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
        return True

    def _value_set(
        self, target: str, items: list[str | int], acts: list[Callable[[], None]]
    ) -> None:
        ref = self.resolve(target)
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
            info = self.leaf[name]

            def act(info: _LeafInfo = info) -> None:
                old = info.values
                info.values = list(ints) if old is None else [v for v in old if v in ints]

            acts.append(act)

    # -- building the spec ---------------------------------------------------------------------

    def run(self, lines: list[str]) -> SpecResult:
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
        """Quantity key -> class name (a parameter name, else an alias, else a dimension)."""
        members: dict[str, list[str]] = {}
        for k in list(self.parent):
            members.setdefault(self._find(k), []).append(k)
        names: dict[str, str] = {}
        for group in members.values():
            if not any(k in self.known for k in group):
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
        return names

    def _is_size(self, cls: str, classes: dict[str, str]) -> bool:
        return any(
            classes.get(k) == cls and k in self.known and k not in self.by_name for k in classes
        )

    def _label(self, cls: str, classes: dict[str, str]) -> str:
        others = sorted(k for k, c in classes.items() if c == cls and k != cls and k in self.known)
        return cls if not others else f"{cls} (= {', '.join(others)})"

    def _to_cls(self, lin: _Lin, classes: dict[str, str]) -> tuple[dict[str, int], int] | None:
        terms: dict[str, Fraction] = {}
        for ref, coef in lin.terms.items():
            if ref.key not in classes:
                return None  # an unknown name: already reported
            c = classes[ref.key]
            terms[c] = terms.get(c, Fraction(0)) + coef
        terms = {k: v for k, v in terms.items() if v != 0}
        if lin.const.denominator != 1 or any(v.denominator != 1 for v in terms.values()):
            raise _Unsupported("a fractional bound on an integer")
        return {k: int(v) for k, v in terms.items()}, int(lin.const)

    def _schedule(
        self, classes: dict[str, str]
    ) -> tuple[list[dict[str, Any]], dict[str, str], dict[str, dict[str, Any]]]:
        cons: list[tuple[dict[str, int], int, str]] = []
        for lin, line in self.lins:
            try:
                got = self._to_cls(lin, classes)
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
        for key, limits in self.sums.items():
            cls = classes.get(key)
            if cls not in per_item:
                for _, line in limits:
                    self.problems.append(
                        f'"{line}": a sum bound on {key}, which is not a per-item length'
                    )
                continue
            per_item[cls]["sum_max"] = min(v for v, _ in limits)
            if per_item[cls]["sum_max"] > self.size_cap:
                self.notes.append(
                    f"sum of {key} capped at {self.size_cap} of the stated "
                    f"{_fmt(per_item[cls]['sum_max'])}"
                )
        return (*self._order(classes, cons, set(per_item)), per_item)

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
                        form = hi - lo + _Lin(Fraction(1 - lo_strict - hi_strict))
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
        remaining = set(classes.values()) - skip
        implied = self._implied(remaining, sizes, cons)
        cons = cons + [(t, c, line) for t, c, line, _ in implied]
        pos: dict[str, int] = {}
        order: list[str] = []
        while remaining:
            chosen = None
            for c in sorted(remaining, key=lambda c: (c not in sizes, c)):
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
            quantities.append(
                {"name": c, "label": self._label(c, classes), "size": c in sizes, "bounds": bounds}
            )
            qnotes[c] = self._describe_quantity(c, bounds, c in sizes, classes)
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
        if const_hi and min(const_hi) > self.size_cap:
            self.notes.append(
                f"{label} capped at {self.size_cap} of the stated {_fmt(min(const_hi))}"
            )
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
        kind = "tree" if p.tree else "list" if p.depth else "scalar"
        return {
            **base,
            "kind": kind,
            "dims": dims,
            "leaf": self._leaf_spec(p, info, classes),
            "join": p.join,
            "sorted": info.sorted,
            "distinct": info.distinct,
        }

    def _leaf_spec(self, p: _Param, info: _LeafInfo, classes: dict[str, str]) -> dict[str, Any]:
        what = f"the values of {p.name}" if p.depth else p.name
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
        return {"type": "int", "lo": los, "hi": his}

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
            if p["kind"] == "tree":
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
    result = analysis.run(lines)
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
