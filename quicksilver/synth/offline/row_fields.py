"""Names for row fields and relations between them (issue 26): the family of lines that speak of
the fields of integer rows (``edges[i] = [u_i, v_i, w_i]``) in more ways than a bound or an
order of two fields.

- **Aliases**: ``items[i][0] == profit_i``, ``0 <= u_i == edges[i][0] < n``. Where the name is
  the field the row form gives that position, the line says nothing new (its other links, the
  bounds, are read as usual); where it names another position, it is refused.
- **Relations between fields of one row** (``row``): ``1 < queries[i][1] - queries[i][0]``,
  ``1 <= duration_i <= end_i - start_i + 1``, and ``1 <= r_i <= min(x_i, y_i)`` (a field in two
  orderings). One field, the *target*, is bounded by a linear form of the others; the runtime
  draws the row as before, then the target within what the others leave it (the row drawn again
  where they leave it nothing). A target with no stated bound on that side gets the bound the
  others imply over their ranges (``duration_i <= 2000``), which every valid row meets.
- **Different fields of consecutive rows** (``next``): ``end_i < start_i+1`` with ``start_i <
  end_i`` (the rows sorted and disjoint): the two fields of all rows are one chain, drawn as
  sorted values (distinct where a step is strict).

The spec key is the rows' ``"lins"`` (``["row", t, op, [[col, coef], ...], const]``: ``row[t] op
sum(coef * row[col]) + const``, op ``<=`` or ``>=``; ``["next", a, b, op]``: ``rows[i][a] op
rows[i + 1][b]``), optional: a spec without it draws as before. Checked by
:mod:`.checker_rows`, drawn by :mod:`.runtime_rows`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from typing import Any

from quicksilver.synth.offline.constraints import Lin, Unsupported
from quicksilver.synth.offline.facts import Facts, LeafInfo

Acts = list[Callable[[], None]]  # as in comparisons.py, which reads these relations

_NEXT = r"(?:\+ ?1|\(i ?\+ ?1\)|\{i ?\+ ?1\})"


def field_relation(facts: Facts, a: Lin, op: str, b: Lin, line: str, acts: Acts) -> bool:
    """``a op b`` (op ``<=``, ``<`` or ``==``) whose every name is a field of one list of integer
    rows: an alias (``items[i][0] == profit_i``) or a relation between fields of one row. False
    when it is no such line (the caller reports it as before)."""
    refs = [*a.terms, *b.terms]
    if not refs or any(r.kind != "leaf" or r.col < 0 or len(r.params) != 1 for r in refs):
        return False
    owners = {r.params[0] for r in refs}
    p = facts.by_name[next(iter(owners))]
    if len(owners) != 1 or p.leaf != "int" or p.depth != 2 or p.tree:
        return False
    ra, rb = a.single(), b.single()
    if op == "==":
        if ra is not None and rb is not None and ra.col == rb.col:
            return True  # items[i][0] == profit_i: the row form's own name for that position
        if ra is not None and rb is not None and _one_indexed(facts, p.name, ra.col, rb.col, line):
            rule = ("base1", line)  # x_i == queries[i][1] of a 1-indexed array: its field 0
            acts.append(partial(facts.leaf[p.name].lins.append, rule))
            return True
        if ra is not None and rb is not None:
            raise Unsupported(f"an alias of fields of {p.name} that the row form does not give")
        raise Unsupported("a field equal to an expression of other fields")
    diff = b - a - (Lin(Fraction(1)) if op == "<" else Lin())  # diff >= 0
    coefs = {r.col: c for r, c in diff.terms.items()}
    if len(coefs) < 2:
        return False  # one field: a bound, or nothing the family reads
    if any(c.denominator != 1 for c in [*coefs.values(), diff.const]):
        raise Unsupported("a relation between fields with fractions")
    single = [r.col for r in (ra, rb) if r is not None and list(coefs).count(r.col) == 1]
    units = sorted(c for c, k in coefs.items() if abs(k) == 1)
    target = single[0] if single and abs(coefs[single[0]]) == 1 else units[-1] if units else None
    if target is None:
        raise Unsupported("a relation between fields, none of which is alone")
    sign = int(coefs[target])  # sign * t + rest >= 0
    terms = [[c, int(-k * sign)] for c, k in sorted(coefs.items()) if c != target]
    rule = ("row", target, ">=" if sign > 0 else "<=", terms, int(-diff.const * sign), line)
    acts.append(partial(facts.leaf[p.name].lins.append, rule))
    return True


def _one_indexed(facts: Facts, owner: str, a: int, b: int, line: str) -> bool:
    """``x_i == queries[i][1]`` where the description calls ``queries`` a ``1-indexed`` array:
    the line counts the row's positions from 1, so the name is the field the row form gives
    position 0 (``queries[i] = [x_i, y_i]``). Each alias must be so; :func:`base1_problems`
    then refuses any other line that indexes those rows by a number."""
    low, high = sorted((a, b))
    if high != low + 1:
        return False
    if not re.search(rf"\b1-indexed (?:[\w-]+ ){{0,4}}{re.escape(owner)}\b", facts.prose):
        return False
    digits = {int(d) for d in re.findall(rf"{re.escape(owner)}\[\w+\]\[(\d+)\]", line)}
    names = [f for f, (o, c) in facts.fields.items() if o == owner and c == low]
    return high in digits and any(re.search(rf"\b{re.escape(f)}\b", line) for f in names)


def base1_problems(facts: Facts, lines: list[str]) -> list[str]:
    """The lines that index the rows of a 1-indexed array (one read through its aliases,
    :func:`_one_indexed`) by a number, other than those aliases: counted from 0 as they are
    read, they would mean another field."""
    out = []
    for owner, info in facts.leaf.items():
        aliases = {r[1] for r in info.lins if r[0] == "base1"}
        if not aliases:
            continue
        for line in lines:
            if line not in aliases and re.search(rf"{re.escape(owner)}\[\w+\]\[\d+\]", line):
                out.append(f'"{line}": a position of the rows of the 1-indexed {owner}')
    return out


_ALIAS = r"(?:\w+ ?== ?\w+\[\w+\]\[\d+\]|\w+\[\w+\]\[\d+\] ?== ?\w+)"


def alias_list(chain: Callable[[str, Acts, str], bool], text: str, line: str, acts: Acts) -> bool:
    """``a_i == queries[i][0], b_i == queries[i][1]``: aliases one after another, each read as a
    line of its own (``chain``), not as one chain with comma lists."""
    if not re.fullmatch(rf"{_ALIAS}(?:, ?{_ALIAS})+", text):
        return False
    return all(chain(part, acts, line) for part in re.split(r", ?", text))


def consecutive_fields(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """``end_i < start_i+1`` (``end_j <= start_{j+1}``): a field of each row and another field
    of the next row, of one list of integer rows. The same field of both is ``row_order.py``'s."""
    m = re.fullmatch(
        rf"(?P<a>[A-Za-z]\w*)_(?P<i>[a-z]) (?P<op><=|<) (?P<b>[A-Za-z]\w*)_(?P=i) ?{_NEXT}", text
    )
    if not m or m["a"] == m["b"]:
        return False
    a, b = f"{m['a']}_{m['i']}", f"{m['b']}_{m['i']}"
    if a not in facts.fields or b not in facts.fields:
        return False
    (owner, col_a), (other, col_b) = facts.fields[a], facts.fields[b]
    if owner != other:
        raise Unsupported(f"{a} and {b} are fields of different lists")
    rule = ("next", col_a, col_b, m["op"], line)
    acts.append(partial(facts.leaf[owner].lins.append, rule))
    return True


def prepare_lins(p: Any, info: LeafInfo, width: int, problems: list[str]) -> None:
    """Before the fields' ranges are merged (``shapes.columns``): the ordered pairs of a field
    in two orderings (``r_i <= x_i``, ``r_i <= y_i``) become relations with that field as their
    target, and a target with no stated bound on its side gets the one the others imply. A rows
    spec with neither is left as it was."""
    ordered = [(a, b, op, line) for a, b, op, line in info.pairs if op != "!="]
    counts: dict[int, int] = {}
    for a, b, _, _ in ordered:
        counts[a], counts[b] = counts.get(a, 0) + 1, counts.get(b, 0) + 1
    shared = [c for c, n in counts.items() if n > 1]
    if len(shared) == 1:
        t = shared[0]
        for a, b, op, line in ordered:
            if t not in (a, b):
                continue
            info.pairs.remove((a, b, op, line))
            other, strict = (b, op == "<") if t == a else (a, op == "<")
            if t == a:  # t <= other (- 1)
                info.lins.append(("row", t, "<=", [[other, 1]], -int(strict), line))
            else:  # t >= other (+ 1)
                info.lins.append(("row", t, ">=", [[other, 1]], int(strict), line))
    for rule in info.lins:
        if rule[0] != "row":
            continue
        _, t, op, terms, const, line = rule
        if max(t, *(c for c, _ in terms)) >= width:
            problems.append(f'"{line}": names fields that {p.name}\'s rows do not have')
            return
        side = "hi" if op == "<=" else "lo"
        if _bounds(info, t, side):
            continue
        if any(t in (a, b) for a, b, _, _ in info.pairs):
            problems.append(f'"{line}": a field of an ordered pair with no stated bound')
            return
        implied = _implied(info, terms, const, side)
        if implied is None:
            problems.append(f'"{line}": a relation between fields with no stated range')
            return
        getattr(info.cols.setdefault(t, LeafInfo()), side).append((implied, False, line))


def _bounds(info: LeafInfo, col: int, side: str) -> list[tuple[Lin, bool, str]]:
    """The stated bounds of one field on one side: the list's, its own, and those of the other
    end of an ordered pair it is in (the two share one range)."""
    cols = {col} | {x for a, b, op, _ in info.pairs if op != "!=" and col in (a, b) for x in (a, b)}
    own = [x for c in sorted(cols) for x in getattr(info.cols.get(c, LeafInfo()), side)]
    return [*getattr(info, side), *own]


def _implied(info: LeafInfo, terms: list[list[int]], const: int, side: str) -> Lin | None:
    """The bound ``sum(coef * field) + const`` has on ``side`` over the fields' stated ranges
    (one stated bound each: any one is a bound)."""
    out = Lin(Fraction(const))
    for col, coef in terms:
        want = side if coef > 0 else ("lo" if side == "hi" else "hi")
        found = _bounds(info, col, want)
        if not found:
            return None
        lin, strict, _ = found[0]
        step = Fraction(-1 if want == "hi" else 1) if strict else Fraction(0)
        out = out + (lin + Lin(step)).scale(Fraction(coef))
    return out


def lins_spec(info: LeafInfo, out: dict[str, Any], problems: list[str], most: int | None) -> None:
    """The rows' ``"lins"``, or the problems that stop them: rows drawn by other code (a tree's
    or graph's edges, an order by a field), a target with a value set, excluded values or a
    distinct field, a target the other relations name; a chain (``next``) whose fields no
    ordered pair joins, or whose range has no room for every row (``most``, their largest
    count)."""
    special = out.get("tree_edges") or out.get("graph") or "sorted_col" in out
    special = special or "apart_cols" in out or out.get("distinct_cols")
    rules: list[list[Any]] = []
    targets = {r[1] for r in info.lins if r[0] == "row"}
    named = {c for r in info.lins if r[0] == "row" for c, _ in r[3]}
    for rule in info.lins:
        line = rule[-1]
        if rule[0] == "base1":
            continue  # said nothing new (base1_problems checked the other lines)
        cols = [rule[1], *(c for c, _ in rule[3])] if rule[0] == "row" else list(rule[1:3])
        if special or max(cols) >= len(out["cols"]):
            problems.append(f'"{line}": a relation between fields, in rows drawn otherwise')
            continue
        leaves = [out["cols"][c] for c in cols]
        if any(x.get("type") != "int" or "set" in x or x.get("ne") for x in leaves):
            problems.append(f'"{line}": a relation between fields that are not in a range')
            continue
        if rule[0] == "row":
            if rule[1] in named:
                problems.append(f'"{line}": a relation between fields bounded by each other')
                continue
            rules.append(list(rule[:5]))
            continue
        why = _chain_problem(info, out, rule, targets | named, most)
        if why:
            problems.append(f'"{line}": {why}')
            continue
        rules.append(list(rule[:4]))
    if rules:
        out["lins"] = rules


def _chain_problem(
    info: LeafInfo, out: dict[str, Any], rule: tuple[Any, ...], ruled: set[int], most: int | None
) -> str | None:
    """Why rows cannot be one chain ``b_0 < a_0 < b_1 < a_1 ...``: no ordered pair ``b_i <
    a_i``, another rule on those fields, more chains, a range that is no constant or has no room
    for two values a row."""
    _, a, b, op, _ = rule
    pair = [x for x in info.pairs if x[:2] == (b, a) and x[2] != "!="]
    if not pair or len([r for r in info.lins if r[0] == "next"]) > 1:
        return "fields of consecutive rows, with no order between them in a row"
    others = [x for x in info.pairs if x not in pair and {a, b} & set(x[:2])]
    if {a, b} & ruled or out.get("unique_rows") or others:
        return "fields of consecutive rows, with other rules on them"
    leaf = out["cols"][a]
    lo, hi = leaf["lo"], leaf["hi"]
    if not all(isinstance(x, int) for x in [*lo, *hi]) or most is None:
        return "fields of consecutive rows in a range that is no constant"
    if "<" in (op, pair[0][2]) and min(hi) - max(lo) + 1 < 2 * most:
        return "fields of consecutive rows, with no room for two distinct values a row"
    return None
