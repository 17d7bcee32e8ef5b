"""An independent checker of offline generators' inputs: one input against its spec.

:func:`check_input` reads a spec (``build_spec(inp).spec``, or :func:`spec_from_generator` on an
emitted generator) and one argument list as the generator returns it (plain data: strings joined,
trees as LeetCode level-order lists with ``None``), and lists every constraint the input breaks.
It is a second implementation of the spec's meaning, written apart from the runtime's drawing
code (:mod:`.runtime` is not imported), so that the tests can check the one with the other.

What it checks, in order:

- the shape of each argument (lists nested as deep as its dimensions, strings where they are
  joined, a level-order list that is a binary tree) and the quantities it shows: a length at each
  level (every item of a level that shares a quantity has that length), a scalar's value, a tree's
  node count; a quantity shown twice must show one value;
- each quantity's bounds ``coef * x + rest >= 0`` (``rest`` evaluated on the quantities seen),
  its remainder (``mod``), its exclusions (``ne``) and its products with an earlier quantity
  (``prod``: ``lo <= other * x <= hi``) and its bounds by a product or power of others
  (``poly``: ``edges.length <= n * (n - 1) / 2``). A quantity that no argument shows (a free
  ``n`` in ``nums.length == 2 * n``) is solved from an equality where one pins it (and the
  equality broken when no integer solves it); otherwise it stays unknown and every bound or value
  range that needs it is skipped;
- per-item lengths (``lo``/``hi``) and their sum (``sum_max``);
- each value against its leaf domain: type (an int is not a bool), range (forms evaluated on the
  quantities), strictness of float bounds, value set, alphabet, excluded values;
- ``distinct`` (values of the whole parameter, values within each innermost list, or whole
  strings), ``sorted`` (each innermost list or string, ascending = non-decreasing, descending =
  non-increasing), ``bst`` (the in-order walk increasing, strictly when the values are distinct);
- rows of named fields (``cols``): each field's domain, each pair ``[a, b, op]`` (``!=``, ``<``,
  ``<=``) and ``unique_rows``, two rows being the same when they hold the same values in any
  order (the runtime's notion: ``tuple(sorted(row))``; with ``unique_key``, of those fields
  only); with ``tree_edges``, the first two fields
  are the edges of one tree over every value of the first field's range; with ``graph``, the
  properties of a graph whose edges they are (no self loops, no repeated edges, connected,
  acyclic);
- ``lead``: no string (or innermost list of digits) starts with a zero, but a lone zero where
  the zero itself is allowed; ``spaces``: no space at either end (``trim``), no two in a row
  (``single``), not only spaces (``word``).

What it does not check: the size cap (the generator keeps sizes at most ``size_cap`` by policy;
that is no stated constraint), a hidden quantity's own bounds when nothing pins its value, and
anything the spec does not state.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Any

from quicksilver.synth.offline.checker_adj import adj_shape, check_adjacency
from quicksilver.synth.offline.checker_arith import poly_value, solve_pinned
from quicksilver.synth.offline.checker_chars import check_chars
from quicksilver.synth.offline.checker_derived import check_counts
from quicksilver.synth.offline.checker_forms import check_form
from quicksilver.synth.offline.checker_forms import check_relations as check_form_relations
from quicksilver.synth.offline.checker_members import check_members
from quicksilver.synth.offline.checker_neighbours import check_neighbours
from quicksilver.synth.offline.checker_numstr import check_num_order
from quicksilver.synth.offline.checker_occurs import check_occurs, check_sizes
from quicksilver.synth.offline.checker_presence import check_presence
from quicksilver.synth.offline.checker_prods import check_prods
from quicksilver.synth.offline.checker_quant import check_quant, head_rows
from quicksilver.synth.offline.checker_relations import check_relations
from quicksilver.synth.offline.checker_spec import spec_from_generator
from quicksilver.synth.offline.checker_sums import check_sums
from quicksilver.synth.offline.checker_trees import check_tree_shape
from quicksilver.synth.offline.checker_union import union_problem
from quicksilver.synth.offline.checker_uniq import check_uniq
from quicksilver.synth.offline.checker_words import check_words

__all__ = ["check_input", "spec_from_generator"]

_SHOWN = 5  # value problems listed per parameter and kind; the rest are counted in one line

Item = tuple[str, Any]  # (where, value): "nums[3]", 7


@dataclass
class _Shape:
    """One argument taken apart: its innermost lists (a string's characters, a tree's values
    in level order), its strings, and a tree's values in order."""

    rows: list[tuple[str, list[Item]]] = field(default_factory=list)
    strings: list[Item] = field(default_factory=list)
    inorder: list[Any] | None = None


class _Seen:
    """The quantities the arguments show, each with where it was first seen."""

    def __init__(self) -> None:
        self.values: dict[str, int] = {}
        self.where: dict[str, str] = {}

    def see(self, name: str, value: int, where: str, problems: list[str]) -> None:
        if name not in self.values:
            self.values[name] = value
            self.where[name] = where
        elif self.values[name] != value:
            problems.append(
                f"{where} = {value} but {self.where[name]} = {self.values[name]} (both are {name})"
            )


def check_input(spec: dict[str, Any], args: list[Any]) -> list[str]:
    """The constraints of ``spec`` that ``args`` (one input, in parameter order) breaks, one
    short line each; empty when the input is valid."""
    params = spec.get("params", [])
    names = ", ".join(p["name"] for p in params)
    if not isinstance(args, list):
        return [f"the input is {type(args).__name__}, not a list of arguments ({names})"]
    if len(args) != len(params):
        return [f"the input has {len(args)} arguments, not {len(params)} ({names})"]
    problems: list[str] = []
    seen = _Seen()
    shapes = [
        _shape(adj_shape(p), arg, seen, problems) for p, arg in zip(params, args, strict=True)
    ]
    q = dict(seen.values)
    quantities = spec.get("quantities", [])
    problems += _solve_hidden(quantities, q)
    problems += solve_pinned(quantities, q)  # derived quantities (arith.py)
    problems += _check_quantities(quantities, q) + check_sizes(quantities, q)
    problems += check_prods(quantities, q)  # a product or power in numbers (prods.py)
    for p, shape in zip(params, shapes, strict=True):
        if shape is not None and p["kind"] != "quantity":
            problems += _check_values(p, shape, q)
    return (
        problems
        + check_relations(spec, args)
        + check_num_order(spec, args)
        + check_occurs(spec, args)
        + check_members(spec, args)
        + check_presence(spec, args)
        + check_uniq(spec, args)
        + check_neighbours(spec, args)
        + check_quant(spec, args)
        + check_adjacency(spec, args, q)
        + check_sums(spec, args)
        + check_counts(spec, args)  # k <= a count of another input (checker_derived.py)
        + check_form_relations(spec.get("relations", []), params, args)
    )


# -- shapes and the quantities they show ----------------------------------------------------------


def _shape(p: dict[str, Any], arg: Any, seen: _Seen, problems: list[str]) -> _Shape | None:
    """``arg`` taken apart by ``p``'s kind; None when its shape is wrong (reported)."""
    name, kind = p["name"], p["kind"]
    if kind == "quantity":
        if not _is_int(arg):
            problems.append(f"{name} = {_short(arg)} is not an integer")
            return None
        seen.see(p["q"], arg, name, problems)
        return _Shape()
    if kind == "scalar":
        return _Shape(rows=[(name, [(name, arg)])])
    if kind == "tree":
        return _tree_shape(p, arg, seen, problems)
    return _list_shape(p, arg, seen, problems)


def _list_shape(p: dict[str, Any], arg: Any, seen: _Seen, problems: list[str]) -> _Shape | None:
    """A (nested) list, level by level: ``dims[d]`` gives the length of each item at depth
    ``d`` (a shared quantity, or a per-item range with an optional sum bound)."""
    dims, join = p["dims"], bool(p.get("join"))
    level: list[Item] = [(p["name"], arg)]
    shape = _Shape()
    for d, dim in enumerate(dims):
        last = d == len(dims) - 1
        for where, item in level:
            if last and join:
                if not isinstance(item, str):
                    problems.append(f"{where} = {_short(item)} is not a string")
                    return None
            elif not isinstance(item, list):
                problems.append(f"{where} = {_short(item)} is not a list")
                return None
        if "q" in dim:
            for where, item in level:
                seen.see(dim["q"], len(item), f"{where}.length", problems)
        else:
            problems += _per_item_lengths(p["name"], dim, level)
        if last:
            shape.rows = [(w, [(f"{w}[{i}]", x) for i, x in enumerate(it)]) for w, it in level]
            if join:
                shape.strings = list(level)
        else:
            level = [(f"{w}[{i}]", x) for w, it in level for i, x in enumerate(it)]
    return shape


def _per_item_lengths(name: str, dim: dict[str, Any], level: list[Item]) -> list[str]:
    """Each item's length within ``[lo, hi]`` and their sum at most ``sum_max``."""
    out: list[str] = []
    lo, hi = dim.get("lo", 0), dim.get("hi")
    label = dim.get("name", f"the items of {name}")
    for where, item in level:
        n = len(item)
        if n < lo or (hi is not None and n > hi):
            out.append(f"{where}.length = {n} is outside [{lo}, {hi}] ({label})")
    total = sum(len(item) for _, item in level)
    if dim.get("sum_max") is not None and total > dim["sum_max"]:
        out.append(f"{name}: the lengths {label} sum to {total}, above {dim['sum_max']}")
    return out


def _tree_shape(p: dict[str, Any], arg: Any, seen: _Seen, problems: list[str]) -> _Shape | None:
    """A LeetCode level-order list: the root, then each node's two child slots in turn
    (``None`` for a missing child); nothing may follow the last node's slots."""
    name = p["name"]
    if not isinstance(arg, list):
        problems.append(f"{name} = {_short(arg)} is not a level-order list")
        return None
    if arg and arg[0] is None:
        problems.append(f"{name} = {_short(arg)}: a level-order tree cannot start with None")
        return None
    left: dict[int, int] = {}
    right: dict[int, int] = {}
    queue = [0] if arg else []
    slot = 1
    for node in queue:
        for side in (left, right):
            if slot >= len(arg):
                break
            if arg[slot] is not None:
                side[node] = slot
                queue.append(slot)
            slot += 1
    if slot < len(arg):
        problems.append(
            f"{name}: {len(arg) - slot} item(s) after the last node's child slots "
            "(not a level-order binary tree)"
        )
        return None
    seen.see(p["dims"][0]["q"], len(queue), f"{name} (node count)", problems)
    if p.get("depth_max") is not None:
        depth = {0: 1} if arg else {}
        for node in queue:
            for side in (left, right):
                if node in side:
                    depth[side[node]] = depth[node] + 1
        deepest = max(depth.values(), default=0)
        if deepest > p["depth_max"]:
            problems.append(f"{name}: depth {deepest} is above {p['depth_max']}")
    problems.extend(check_tree_shape(p, arg))  # complete or perfect (checker_trees.py)
    values = [(f"{name}[{i}]", arg[i]) for i in queue]
    inorder: list[Any] = []
    stack: list[int] = []
    node = 0 if arg else -1
    while stack or node >= 0:
        while node >= 0:
            stack.append(node)
            node = left.get(node, -1)
        node = stack.pop()
        inorder.append(arg[node])
        node = right.get(node, -1)
    return _Shape(rows=[(name, values)], inorder=inorder)


# -- quantities -----------------------------------------------------------------------------------


def _form(rest: Any) -> tuple[int, dict[str, int]]:
    """A bound's ``rest`` (a number or ``{"const", "terms"}``) as (const, terms)."""
    if isinstance(rest, dict):
        return rest.get("const", 0), dict(rest.get("terms", {}))
    return rest, {}


def _value(form: Any, q: dict[str, int]) -> int | None:
    """A form evaluated on the known quantities; None when it needs an unknown one."""
    const, terms = _form(form)
    if any(t not in q for t in terms):
        return None
    return const + sum(c * q[t] for t, c in terms.items())


def _linear(item: dict[str, Any], bound: dict[str, Any]) -> tuple[int, dict[str, int]]:
    """A bound of ``item`` as the whole form ``const + sum(coef * quantity) >= 0``."""
    const, terms = _form(bound["rest"])
    terms[item["name"]] = terms.get(item["name"], 0) + bound["coef"]
    return const, {t: c for t, c in terms.items() if c}


def _solve_hidden(quantities: list[dict[str, Any]], q: dict[str, int]) -> list[str]:
    """Quantities no argument shows, solved from equalities (two opposite bounds,
    ``nums.length == 2 * n``) where one unknown is left; an equality no integer solves is
    reported. ``q`` gains what is solved."""
    equalities: list[tuple[int, dict[str, int], str]] = []
    for item in quantities:
        forms = [(*_linear(item, b), b["text"]) for b in item["bounds"]]
        for const, terms, text in forms:
            negated = {t: -c for t, c in terms.items()}
            if any(c2 == -const and t2 == negated for c2, t2, _ in forms):
                equalities.append((const, terms, text))
    out: list[str] = []
    done: set[str] = set()
    changed = True
    while changed:
        changed = False
        for const, terms, text in equalities:
            unknown = [t for t in terms if t not in q]
            if len(unknown) != 1 or text in done:
                continue
            h = unknown[0]
            total = const + sum(c * q[t] for t, c in terms.items() if t != h)
            done.add(text)
            if total % terms[h]:
                out.append(f"{h} cannot be an integer: breaks {text}")
                continue
            q[h] = -total // terms[h]
            changed = True
    return out


def _check_quantities(quantities: list[dict[str, Any]], q: dict[str, int]) -> list[str]:
    """Every bound, remainder and exclusion of the known quantities (never the size cap)."""
    out: list[str] = []
    for item in quantities:
        x = item["name"]
        if x not in q:
            continue  # hidden and not pinned by an equality: its own bounds cannot be checked
        v = q[x]
        label = item.get("label", x)
        for b in item["bounds"]:
            rest = _value(b["rest"], q)
            if rest is None or b["coef"] * v + rest >= 0:
                continue
            coef = b["coef"]
            need = f">= {-(rest // coef)}" if coef > 0 else f"<= {rest // -coef}"
            given = "".join(f", {t} = {q[t]}" for t in _form(b["rest"])[1])
            out.append(f"{label} = {v} breaks {b['text']} (needs {need}{given})")
        if "digits" in item and not set(str(abs(v))) <= set(item["digits"]):
            out.append(f"{label} = {v} has a digit outside {item['digits']}")
        mod = item.get("mod")
        if mod and v % mod[0] != mod[1] % mod[0]:
            out.append(f"{label} = {v} breaks {x} % {mod[0]} == {mod[1]}")
        for b in item.get("ne", ()):
            rest = _value(b["rest"], q)
            if rest is not None and b["coef"] * v + rest == 0:
                out.append(f"{label} = {v} breaks {b['text']}")
        for b in item.get("poly", ()):  # x op num / den, num a product or power of others
            num = poly_value(b["num"], q)
            if num is None:
                continue
            # compared exactly: x * den op num
            holds = {
                "<=": v * b["den"] <= num,
                "<": v * b["den"] < num,
                ">=": v * b["den"] >= num,
                ">": v * b["den"] > num,
                "==": v * b["den"] == num,
            }[b["op"]]
            if not holds:
                out.append(f"{label} = {v} breaks {b['text']} (the bound is {num}/{b['den']})")
        for other, lo, hi in item.get("prod", ()):  # lo <= other * x <= hi
            if other in q and not ((lo is None or lo <= q[other] * v) and q[other] * v <= hi):
                low = "" if lo is None else f"{lo} <= "
                out.append(
                    f"{other} * {label} = {q[other]} * {v} breaks {low}{other} * {x} <= {hi}"
                )
    return out


# -- values ---------------------------------------------------------------------------------------


def _check_values(p: dict[str, Any], shape: _Shape, q: dict[str, int]) -> list[str]:
    """Each value's domain, then distinctness, order and the search-tree property."""
    name = p["name"]
    if "cols" in p:
        return _check_rows(p, shape, q)
    leaf = p["leaf"]
    bad = []
    for _, row in head_rows(p, shape.rows):  # from a quantified bound's first index on
        for where, x in row:
            why = _leaf_problem(leaf, x, q)
            if why:
                bad.append(f"{where} = {_short(x)} {why}")
    out = _capped(bad, name, "values outside their domain")
    out += _check_distinct(p, shape)
    if p.get("sorted") and p["kind"] != "tree" and not _rotated(p):
        out += _capped(_check_sorted(p["sorted"], shape), name, "lists out of order")
    if p.get("form"):
        out += _capped(check_form(p["form"], shape.rows), name, "lists out of form")
    if p.get("bst") and shape.inorder is not None:
        out += _check_bst(name, shape.inorder, strict=bool(p.get("distinct")))
    if p.get("lead"):
        out += _capped(_check_lead(p["lead"], shape), name, "leading zeros")
    if p.get("spaces"):
        out += _capped(_check_spaces(p["spaces"], shape), name, "strings spaced against a rule")
    if p.get("words"):
        out += check_words(p, shape.strings)  # a count of words (checker_words.py)
    if p.get("apart"):
        out += _capped(_check_apart(p["apart"], shape), name, "values not apart")
    if p.get("pins"):
        out += _check_pins(p, shape)
    if any(k in p for k in ("counts", "at", "kinds", "tokens")):
        out += check_chars(p, shape.rows)
    if p.get("square"):
        out += _capped(_check_square(p["square"], shape), name, "matrix values against its rules")
    if p.get("values_sum_max") is not None:
        total = sum(x for _, row in shape.rows for _, x in row if _is_number(x))
        if total > p["values_sum_max"]:
            out.append(f"{name}: its values sum to {total}, above {p['values_sum_max']}")
    return out


def _rotated(p: dict[str, Any]) -> bool:
    """A rotated sorted list: its order is checked round the list (checker_forms.py)."""
    return bool(p.get("form")) and p["form"].get("kind") == "rotated"


def _check_square(rule: dict[str, Any], shape: _Shape) -> list[str]:
    """``square``: the matrix is square, its diagonal holds ``diag`` (when given) and, when
    ``symmetric``, each value equals its mirror across the diagonal."""
    rows = [[x for _, x in row] for _, row in shape.rows]
    out = [
        f"row {i} has {len(r)} values, not {len(rows)}"
        for i, r in enumerate(rows)
        if len(r) != len(rows)
    ]
    if out:
        return out
    for i, r in enumerate(rows):
        if rule.get("diag") is not None and _key(r[i]) != _key(rule["diag"]):
            out.append(f"[{i}][{i}] = {_short(r[i])}, not {rule['diag']} (the diagonal)")
        if rule.get("symmetric"):
            out += [
                f"[{i}][{j}] = {_short(r[j])} but [{j}][{i}] = {_short(rows[j][i])} (symmetric)"
                for j in range(i + 1, len(rows))
                if _key(r[j]) != _key(rows[j][i])
            ]
    return out


def _check_apart(rules: list[str], shape: _Shape) -> list[str]:
    """``next``: no value equals the one before it in its list; ``index``: no value equals its
    own position in its list."""
    out = []
    for _, row in shape.rows:
        for pos, (where, x) in enumerate(row):
            if "index" in rules and _key(x) == _key(pos):
                out.append(f"{where} = {_short(x)} equals its own index")
            if "next" in rules and pos > 0 and _key(x) == _key(row[pos - 1][1]):
                out.append(f"{where} = {_short(x)} equals {row[pos - 1][0]} (neighbours differ)")
    return out


def _check_pins(p: dict[str, Any], shape: _Shape) -> list[str]:
    """Each fixed position holds its value: the path is one index per level (negative from the
    end); a list of lists has one innermost list per row, in order."""
    out = []
    depth = len(p["dims"])
    for path, value, *ne in p["pins"]:
        rows = shape.rows
        try:
            _, row = rows[path[0]] if depth == 2 else rows[0]
            got_where, got = row[path[-1]]
        except (IndexError, TypeError):
            out.append(f"{p['name']}{path}: no such position (it holds {value!r})")
            continue
        same = _key(got) == _key(value) and type(got) is type(value)
        if ne and same:
            out.append(f"{got_where} = {_short(got)}, which it may not be")
        elif not ne and not same:
            out.append(f"{got_where} = {_short(got)}, not {value!r} (a fixed position)")
    return out


def _check_spaces(rules: list[str], shape: _Shape) -> list[str]:
    """Rules on spaces: none at either end (``trim``), never two in a row (``single``), not
    only spaces (``word``)."""
    out = []
    for where, s in shape.strings:
        if not isinstance(s, str) or not s:
            continue
        if "trim" in rules and (s[0] == " " or s[-1] == " "):
            out.append(f"{where} = {_short(s)} has a leading or trailing space")
        if "single" in rules and "  " in s:
            out.append(f"{where} = {_short(s)} has two spaces in a row")
        if "word" in rules and not s.strip():
            out.append(f"{where} = {_short(s)} holds no word")
    return out


def _check_lead(mode: str, shape: _Shape) -> list[str]:
    """No leading zeros: each string, or each innermost list of digits, starts with another
    digit; a lone zero only where the zero itself is allowed (``zero-ok``)."""
    items: list[tuple[str, Any]] = [(w, s) for w, s in shape.strings] or [
        (where, [x for _, x in row]) for where, row in shape.rows
    ]
    return [
        f"{where} = {_short(v)} has a leading zero"
        for where, v in items
        if v and v[0] in ("0", 0) and not (len(v) == 1 and mode == "zero-ok")
    ]


def _leaf_problem(leaf: dict[str, Any], x: Any, q: dict[str, int]) -> str | None:
    """Why ``x`` is outside the leaf domain (a few words), or None."""
    kind = leaf["type"]
    if kind == "bool":
        return None if isinstance(x, bool) else "is not a boolean"
    if kind == "word":  # a whole string, one of a set of words
        if not isinstance(x, str) or x not in leaf["set"]:
            return f"is not one of the words {_short(leaf['set'])}"
        return None
    if kind == "char":
        if not isinstance(x, str) or len(x) != 1:
            return "is not a single character"
        choices = leaf["set"] if "set" in leaf else leaf.get("alphabet", "")
        if x not in choices:
            return f"is not in the alphabet {_alphabet(choices)}"
    elif kind == "float":
        if isinstance(x, bool) or not isinstance(x, int | float) or not math.isfinite(x):
            return "is not a finite number"
        lo, hi = leaf["lo"], leaf["hi"]
        if x < lo or (leaf.get("lo_strict") and x == lo):
            return f"is not {'>' if leaf.get('lo_strict') else '>='} {lo}"
        if x > hi or (leaf.get("hi_strict") and x == hi):
            return f"is not {'<' if leaf.get('hi_strict') else '<='} {hi}"
    else:
        if not _is_int(x):
            return "is not an integer"
        if "set" in leaf:
            if x not in leaf["set"]:
                return f"is not one of {_short(leaf['set'])}"
        else:
            los = [v for v in (_value(f, q) for f in leaf.get("lo", ())) if v is not None]
            his = [v for v in (_value(f, q) for f in leaf.get("hi", ())) if v is not None]
            lo, hi = max(los, default=None), min(his, default=None)
            if (lo is not None and x < lo) or (hi is not None and x > hi):
                return f"is outside [{_end(lo)}, {_end(hi)}]"
    if x in leaf.get("ne", ()):
        return f"is an excluded value (!= {x})"
    return union_problem(leaf, x)  # a union of values and ranges (checker_union.py)


def _check_distinct(p: dict[str, Any], shape: _Shape) -> list[str]:
    """Distinct values of the whole parameter (``scope: all``) or of each innermost list
    (``each``), or distinct strings (``level: string``)."""
    d = p.get("distinct")
    if not d:
        return []
    if d.get("level") == "string":
        groups = [shape.strings]
    elif d.get("scope") == "each":
        groups = [row for _, row in shape.rows]
    else:
        groups = [[item for _, row in shape.rows for item in row]]
    bad = []
    for group in groups:
        first: dict[Any, str] = {}
        for where, x in group:
            key = _key(x)
            if key in first:
                bad.append(f"{where} = {_short(x)} repeats {first[key]} (values are distinct)")
            else:
                first[key] = where
    return _capped(bad, p["name"], "repeated values")


def _check_sorted(order: str, shape: _Shape) -> list[str]:
    """Each innermost list (a string's characters) non-decreasing ("asc") or non-increasing
    ("desc"); one line per list that is not."""
    out = []
    for where, row in shape.rows:
        for (wa, a), (wb, b) in itertools.pairwise(row):
            try:
                wrong = a > b if order == "asc" else a < b
            except TypeError:
                continue  # a value of the wrong type: reported with the domain
            if wrong:
                word = "ascending" if order == "asc" else "descending"
                out.append(f"{where} is not sorted {word}: {wa} = {_short(a)}, {wb} = {_short(b)}")
                break
    return out


def _check_bst(name: str, inorder: list[Any], *, strict: bool) -> list[str]:
    """A search tree's in-order walk increases (strictly when its values are distinct)."""
    for a, b in itertools.pairwise(inorder):
        try:
            wrong = a >= b if strict else a > b
        except TypeError:
            continue
        if wrong:
            return [
                f"{name} is not a binary search tree: in order, {_short(a)} comes before "
                f"{_short(b)}"
            ]
    return []


def _check_rows(p: dict[str, Any], shape: _Shape, q: dict[str, int]) -> list[str]:
    """Rows of named fields: each field's domain, the pairs between fields of one row and,
    with ``unique_rows``, no two rows holding the same values (in any order, as the runtime
    tells rows apart). A row of the wrong width was reported with the lengths."""
    name, cols = p["name"], p["cols"]
    fields = p.get("fields") or [f"{name}[i][{j}]" for j in range(len(cols))]
    bad_values: list[str] = []
    bad_pairs: list[str] = []
    repeats: list[str] = []
    first: dict[Any, str] = {}
    field_first: dict[tuple[int, Any], str] = {}
    for where, row in shape.rows:
        if len(row) != len(cols):
            continue
        values = [x for _, x in row]
        for j in p.get("distinct_cols", ()):
            at, x = row[j]
            if (j, _key(x)) in field_first:
                repeats.append(
                    f"{at} ({fields[j]}) = {_short(x)} repeats {field_first[j, _key(x)]} "
                    "(the field's values are distinct)"
                )
            else:
                field_first[j, _key(x)] = at
        for j, (at, x) in enumerate(row):
            why = _leaf_problem(cols[j], x, q)
            if why:
                bad_values.append(f"{at} ({fields[j]}) = {_short(x)} {why}")
        for a, b, op in p.get("pairs", ()):
            if not (_is_number(values[a]) and _is_number(values[b])):
                continue
            x, y = values[a], values[b]
            holds = x != y if op == "!=" else x < y if op == "<" else x <= y
            if not holds:
                bad_pairs.append(f"{where} = {_short(values)} breaks {fields[a]} {op} {fields[b]}")
        if p.get("unique_rows"):
            told = [values[j] for j in p.get("unique_key", range(len(values)))]
            key = _key(_sorted_or_same(told))
            by = ", ".join(fields[j] for j in p.get("unique_key", ())) or "their values"
            if key in first:
                repeats.append(
                    f"{where} = {_short(values)} repeats {first[key]} "
                    f"(rows are unique by {by}, in any order)"
                )
            else:
                first[key] = where
    out = _capped(bad_values, name, "fields outside their domain")
    out += _capped(bad_pairs, name, "rows breaking a relation between fields")
    out += _capped(repeats, name, "repeated rows")
    if p.get("tree_edges"):
        out += _check_tree_edges(p, [[x for _, x in row] for _, row in shape.rows], q)
    if p.get("graph"):
        out += _check_graph(p, [[x for _, x in row] for _, row in shape.rows], q)
    return out


def _check_graph(p: dict[str, Any], rows: list[list[Any]], q: dict[str, int]) -> list[str]:
    """``graph``: the rows' first two fields are the edges of a graph over the values of the
    first field's range: with ``no_loops`` no edge joins a node to itself, with ``simple`` no
    two edges join the same ends (in either order with ``both_ways`` or ``dag``), with
    ``connected`` every node is reached from every other along the edges taken both ways, and
    with ``dag`` no edge path from a node leads back to it."""
    name, g = p["name"], p["graph"]
    edges = [(row[0], row[1]) for row in rows if len(row) >= 2]
    out: list[str] = []
    if g.get("no_loops") or g.get("dag"):
        loops = [e for e in edges if e[0] == e[1]]
        out += [f"{name}: the edge {_short(list(e))} joins a node to itself" for e in loops]
    if g.get("simple"):
        both_ways = g.get("both_ways") or g.get("dag")
        met: set[Any] = set()
        for a, b in edges:
            key = frozenset((a, b)) if both_ways else (a, b)
            if key in met:
                out.append(f"{name}: a second edge between {a} and {b} (no repeated edges)")
            met.add(key)
    col = p["cols"][0]
    los = [_value(f, q) for f in col.get("lo", [])]
    his = [_value(f, q) for f in col.get("hi", [])]
    if g.get("connected") and los and his and None not in los and None not in his:
        nodes = set(range(max(los), min(his) + 1))  # type: ignore[type-var]
        near: dict[Any, set[Any]] = {v: set() for v in nodes}
        for a, b in edges:
            near.setdefault(a, set()).add(b)
            near.setdefault(b, set()).add(a)
        start = next(iter(nodes), None)
        reached = {start} if start is not None else set()
        todo = list(reached)
        while todo:
            for w in near[todo.pop()] - reached:
                reached.add(w)
                todo.append(w)
        if nodes - reached:
            out.append(f"{name}: not connected ({len(nodes - reached)} nodes not reached)")
    if g.get("dag"):
        out += _cycle(name, edges)
    return _capped(out, name, "graph problems")


def _cycle(name: str, edges: list[tuple[Any, Any]]) -> list[str]:
    """A directed cycle among ``edges``, found by removing nodes with no incoming edge."""
    into: dict[Any, int] = {}
    succ: dict[Any, list[Any]] = {}
    for a, b in edges:
        succ.setdefault(a, []).append(b)
        into[b] = into.get(b, 0) + 1
        into.setdefault(a, 0)
    free = [v for v, k in into.items() if k == 0]
    gone = 0
    while free:
        v = free.pop()
        gone += 1
        for w in succ.get(v, ()):
            into[w] -= 1
            if into[w] == 0:
                free.append(w)
    if gone < len(into):
        return [f"{name}: the edges hold a cycle (the graph is acyclic)"]
    return []


def _check_tree_edges(p: dict[str, Any], rows: list[list[Any]], q: dict[str, int]) -> list[str]:
    """``tree_edges``: the rows' first two fields are the edges of one tree over every value of
    the first field's range (as many rows as values, less one; connected, so no cycle)."""
    name, col = p["name"], p["cols"][0]
    los = [_value(f, q) for f in col.get("lo", [])]
    his = [_value(f, q) for f in col.get("hi", [])]
    if None in los or None in his or not los or not his:
        return []  # a range on a quantity the input does not show
    lo, hi = max(v for v in los if v is not None), min(v for v in his if v is not None)
    if len(rows) != hi - lo:
        return [
            f"{name}: {len(rows)} edges for the {hi - lo + 1} nodes of [{lo}, {hi}] "
            "(a tree has one fewer)"
        ]
    parent = {v: v for v in range(lo, hi + 1)}

    def root(v: Any) -> Any:
        while parent[v] != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    for row in rows:
        a, b = row[0], row[1]
        if a not in parent or b not in parent:
            continue  # reported with the fields' domains
        ra, rb = root(a), root(b)
        if ra == rb:
            return [f"{name}: the edge {_short(row)} closes a cycle (the rows must form a tree)"]
        parent[ra] = rb
    return []


# -- small helpers --------------------------------------------------------------------------------


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_number(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def _sorted_or_same(values: list[Any]) -> Any:
    try:
        return tuple(sorted(values))
    except TypeError:
        return tuple(values)


def _key(x: Any) -> Any:
    """A hashable stand-in for ``x`` that tells ``True`` from ``1`` (a type mix-up is
    reported with the domain, not as a repeat)."""
    try:
        hash(x)
    except TypeError:
        return ("unhashable", repr(x))
    return (type(x) is bool, x)


def _capped(lines: list[str], name: str, what: str) -> list[str]:
    """The first few lines, and one line counting the rest."""
    if len(lines) <= _SHOWN:
        return lines
    return [*lines[:_SHOWN], f"{name}: {len(lines) - _SHOWN} more {what}"]


def _short(x: Any, width: int = 60) -> str:
    text = repr(x)
    return text if len(text) <= width else text[: width - 3] + "..."


def _alphabet(choices: Any) -> str:
    text = "".join(map(str, choices)) if not isinstance(choices, str) else choices
    return repr(text) if len(text) <= 30 else repr(text[:27]) + "..."


def _end(v: int | None) -> str:
    return "?" if v is None else str(v)
