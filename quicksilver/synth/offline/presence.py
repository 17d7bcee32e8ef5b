"""A value that must be present (or absent) in a list or grid, and one stated position.

Two ideas the Constraints state of a list's (or a grid's) items beyond each item's own domain:

- **how many items have a property** (``There is at least one index i such that nums[i] >=
  k``, ``There is at least one thief in the grid``, ``There is at least one water cell``):
  the rule ``["count", p, pred, lo, hi]`` (at least ``lo`` items of ``p`` meet ``pred``; at
  most ``hi``, None for no bound);
- **one position's value** (``board[click_r][click_c] is either 'M' or 'E'``, ``grid[row][col]
  > 0``, ``matrix[0][0] is not an obstacle``, ``entrance will always be an empty cell``): the
  rule ``["at", p, where, pred]``, ``where`` one index per level: ``["i", k]`` a constant
  (negative from the end), ``["arg", j]`` the value of the scalar parameter ``j``, ``["item",
  j, f]`` the item ``f`` of the integer list ``j`` (a field name: ``click = [click_r,
  click_c]``).

Beside them: the same count in each row or column (``Each column contains at least one
non-negative integer``: ``[..., "row" | "col"]``), not all items equal (``at least two houses
have different colors``: ``["kinds", p, 2]``), scalars that are values of distinct nodes of the
tree (``x and y are exist in the tree``: ``["node", t, [a, ...]]``), a string kept out of a list
of strings (``target will not be in the list deadends``: ``["absent", a, b]``) and a string two
lists of strings share (``There is at least a common string between list1 and list2``:
``["common", b, a]``, the first index the list changed).

A property ``pred`` is ``[op, v]``: ``op`` one of ``== != < <= > >=`` with ``v`` a constant or
``{"arg": j}`` (the scalar parameter ``j``), or ``in`` / ``not`` with a list of values.

A property may be a noun the description defines (``A cell containing a thief if grid[r][c] =
1``, ``If isWater[i][j] == 1, cell (i, j) is a water cell``, ``'#' representing an obstacle``,
``empty cells (represented as '.')``): the noun's words must all be words of the definitions of
exactly one value, which no negation qualifies; otherwise the line is left to the other forms
(and reported as before). The rules are the spec's ``"presence"`` (optional: a spec without it
draws as before), made to hold by :mod:`.runtime_presence` after every parameter is drawn, and
checked by :mod:`.checker_presence`.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from quicksilver.synth.offline.comparisons import Acts
from quicksilver.synth.offline.constraints import Lin, Param
from quicksilver.synth.offline.facts import Facts
from quicksilver.synth.offline.members import _bounded, _mentioned, _q

_N = r"[A-Za-z_]\w*"
_PRE = (
    r"(?:(?:it is|it's) guaranteed that |(?:the )?(?:input|test cases?|test data|tests?) "
    r"(?:is|are) generated (?:such|so) that )?"
)
_COUNT = r"(?P<k>one|two|three|four|five|an?|\d+)"
_WORDS = {"one": 1, "a": 1, "an": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_OPS = r"(?P<op>>=|<=|!=|==|>|<)"
_VAL = r"(?P<v>-?\d+|'.'|[A-Za-z_]\w*)"
_INDEX_ITEM = (
    rf"there (?:is|are|exists?|will be) at least {_COUNT} (?:index|indices|indexes|element|"
    rf"elements|position|positions|item|items)(?: i)? (?:such that|where|with|for which) "
    rf"(?P<p>{_N})\[i\] {_OPS} {_VAL}"
)
_NOUN_COUNT = (
    rf"there (?:is|are|exists?|will be) at least {_COUNT} (?P<noun>[a-z][a-z ]*?)"
    rf"(?: in (?:the (?:given )?)?(?P<p>{_N}))?",
    rf"at least {_COUNT} (?P<noun>[a-z][a-z ]*?) (?:is|are|exists?|will be) (?P<adj>[a-z]+)",
)
_ADJ = {
    "non-negative": [">=", 0],
    "nonnegative": [">=", 0],
    "positive": [">", 0],
    "negative": ["<", 0],
    "non-positive": ["<=", 0],
    "non-zero": ["!=", 0],
    "nonzero": ["!=", 0],
}
_ADJS = r"(?P<adj>non-negative|nonnegative|positive|negative|non-positive|non-zero|nonzero)"
_THINGS = r"(?:integer|number|value|element|item)s?"
_ADJ_COUNT = (
    rf"(?:each|every) (?P<scope>row|column) (?:of (?P<p>{_N}) )?(?:contains|has) at least "
    rf"{_COUNT} {_ADJS} {_THINGS}",
    rf"there (?:is|are|exists?) at least {_COUNT} {_ADJS} {_THINGS} in (?P<p>{_N})",
    rf"(?P<p>{_N}) (?:contains|has) at least {_COUNT} {_ADJS} {_THINGS}",
)
_KINDS = r"at least (?:two|2) (?P<noun>[a-z]+) (?:have|has|are of|with) different (?P<what>[a-z]+)"
_TREE = (
    rf"an? node with (?:a |the )?value (?:of )?(?P<a>{_N}) exists in the (?:binary )?tree",
    rf"(?P<a>{_N})(?: and (?P<b>{_N}))? (?:(?:are|is|will) )?(?:exists?|be present|present) in "
    r"the (?:binary )?tree",
)
_ABSENT = (
    rf"(?P<a>{_N}) (?:will not be|is not|will never be|is never|does not appear) in "
    rf"(?:the (?:given )?(?:list|array) )?(?P<b>{_N})"
)
_COMMON = (
    rf"there (?:is|will be|exists?) at least (?:one|a) common (?:string|element|value|item|word) "
    rf"(?:between|of|in) (?P<a>{_N}) and (?P<b>{_N})"
)
_CELL = rf"(?P<p>{_N})\[(?P<i>[^\[\]]+)\](?:\[(?P<j>[^\[\]]+)\])?"
_SETWORDS = r"(?P<set>'.'(?:, '.')*,? or '.')"
_AT = (
    rf"{_CELL} {_OPS} {_VAL}",
    rf"{_CELL} (?:is|will be) (?:either )?{_SETWORDS}",
    rf"{_CELL} (?:is|will be|will always be|is always) (?P<neg>not )?(?:an? )?"
    rf"(?P<noun>[a-z][a-z ]*)",
    rf"(?P<a>{_N}) (?:is|will be|will always be|is always) (?P<neg>not )?(?:an? )?"
    rf"(?P<noun>[a-z][a-z ]*)",
)
_STOP = {
    "a", "an", "the", "that", "this", "is", "are", "be", "in", "of", "at", "to", "it", "its",
    "i", "j", "r", "c", "ith", "jth", "and", "or", "there", "will", "always", "given", "which",
    "represents", "representing", "represented", "as", "by", "if", "then",
}  # fmt: skip
_NEGATION = {"not", "no", "never", "cannot", "without", "non", "nor"}


def presence_form(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """One Constraints item of this family into ``facts.presence``, or False when it is none
    (a noun no definition names, a name that is no parameter: the line is left as before)."""
    m = re.fullmatch(_PRE + _INDEX_ITEM, text, flags=re.I)
    if m:
        p = _list_param(facts, m["p"])
        pred = _compare(facts, m["op"], m["v"], p) if p else None
        if p is None or pred is None:
            return False
        return _queue(facts, ("count", p.name, pred, _k(m["k"]), None, line), acts)
    for form in _NOUN_COUNT:
        m = re.fullmatch(_PRE + form, text, flags=re.I)
        if m:
            noun = m["noun"] + (f" {m['adj']}" if "adj" in m.re.groupindex else "")
            p, pred = _noun_value(facts, noun, m["p"] if "p" in m.re.groupindex else None)
            if p is not None and pred is not None:
                return _queue(facts, ("count", p.name, pred, _k(m["k"]), None, line), acts)
    for form in _AT:
        m = re.fullmatch(_PRE + form, text, flags=re.I)
        if m and _position(facts, m, line, acts):
            return True
    return _more_forms(facts, text, line, acts)


def _more_forms(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """Items by a sign, per row or column (``each column contains at least one non-negative
    integer``); not all items equal (``at least two houses have different colors``: the one
    list of integers); scalars that are values of the tree's nodes."""
    for form in _ADJ_COUNT:
        m = re.fullmatch(_PRE + form, text, flags=re.I)
        if m:
            p = _list_param(facts, m["p"]) if m["p"] else _only(facts, 2, "int")
            scope = m["scope"].lower() + "s" if "scope" in m.re.groupindex else "count"
            if p is None or p.leaf != "int" or (scope != "count" and p.depth != 2):
                return False
            rule = (scope, p.name, _ADJ[m["adj"].lower()], _k(m["k"]), None, line)
            return _queue(facts, rule, acts)
    for kind, form in (("absent", _ABSENT), ("common", _COMMON)):
        m = re.fullmatch(_PRE + form, text, flags=re.I)
        a, b = (facts.by_name.get(m[g]) for g in ("a", "b")) if m else (None, None)
        if a is None or b is None or a.name == b.name or not (a.join and b.join):
            continue
        if (a.depth, b.depth) == ((1, 2) if kind == "absent" else (2, 2)):
            changed, other = (a, b) if kind == "absent" else (b, a)
            return _queue(facts, (kind, changed.name, None, other.name, None, line), acts)
    m = re.fullmatch(_PRE + _KINDS, text, flags=re.I)
    if m:
        p = _only(facts, 1, "int")
        return p is not None and _queue(facts, ("kinds", p.name, None, 2, None, line), acts)
    for form in _TREE:
        m = re.fullmatch(_PRE + form, text, flags=re.I)
        if m:
            trees = [p for p in facts.params if p.tree and p.type == "TreeNode"]
            names = [n for n in (m["a"], m["b"] if "b" in m.re.groupindex else None) if n]
            scalars = [facts.by_name.get(n) for n in names]
            if len(trees) != 1 or not all(q is not None and q.is_quantity for q in scalars):
                return False
            return _queue(facts, ("node", trees[0].name, None, names, None, line), acts)
    return False


def _only(facts: Facts, depth: int, leaf: str) -> Param | None:
    """The statement's one list (depth 1) or grid (depth 2) of ``leaf`` values."""
    found = [p for p in facts.params if _list_param(facts, p.name) and p.depth == depth]
    return found[0] if len(found) == 1 and found[0].leaf == leaf and not found[0].join else None


def _k(word: str) -> int:
    return _WORDS.get(word.lower()) or int(word)


def _queue(facts: Facts, rule: tuple[Any, ...], acts: Acts) -> bool:
    """The rule, once (a guarantee the description restates counts once)."""
    acts.append(
        lambda: None if rule[:5] in [r[:5] for r in facts.presence] else facts.presence.append(rule)
    )
    return True


def _list_param(facts: Facts, name: str | None) -> Param | None:
    p = facts.by_name.get(name or "")
    if p is None or p.tree or p.node or p.depth < 1 or p.depth > 2:
        return None
    return p


def _value(facts: Facts, raw: str, p: Param) -> Any:
    """A constant of ``p``'s values (an integer, a quoted character), ``{"arg": name}`` for a
    scalar integer parameter, or None."""
    if re.fullmatch(r"-?\d+", raw):
        return int(raw) if p.leaf == "int" else None
    if re.fullmatch(r"'.'", raw):
        return raw[1] if p.leaf == "char" else None
    q = facts.by_name.get(raw)
    if q is not None and q.is_quantity and p.leaf == "int":
        return {"arg": raw}
    return None


def _compare(facts: Facts, op: str, raw: str, p: Param) -> list[Any] | None:
    v = _value(facts, raw, p)
    if v is None or (p.leaf == "char" and op not in ("==", "!=")):
        return None
    return [op, v]


# -- nouns the description defines ------------------------------------------------------------


def _words(text: str) -> set[str]:
    out = set()
    for w in re.findall(r"[a-z]+", text.lower()):
        if w in _STOP:
            continue
        out.add(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w)
    return out


_DEFS = (  # each: the parameter p (or none), the value v, the noun
    rf"(?:an? |the )?(?P<noun>[^.;:,\n]+?) if (?P<p>{_N})\[\w+\](?:\[\w+\])? ==? (?P<v>-?\d+|'.')",
    rf"if (?P<p>{_N})\[\w+\](?:\[\w+\])? ==? (?P<v>-?\d+|'.'), (?P<noun>[^.;:\n]+)",
    rf"(?P<p>{_N})\[\w+\](?:\[\w+\])? ==? (?P<v>-?\d+|'.') (?:represents|means|indicates|denotes)"
    r" (?P<noun>[^.;:,\n]+)",
    r"(?P<v>'.'|-?\d+) (?:represents|representing|means|indicates|denotes) (?P<noun>[^.;:,\n]+)",
    r"(?P<noun>[a-z][a-z ]*?) \(represented (?:as|by) (?P<v>'.'|-?\d+)\)",
)


def _definitions(facts: Facts) -> list[tuple[str | None, Any, set[str], bool]]:
    """The description's definitions of values: (parameter or None, value, words, negated)."""
    description = facts.prose.split("Constraints:")[0]
    out = []
    for form in _DEFS:
        for m in re.finditer(form, description, flags=re.I):
            raw = m["v"]
            v: Any = raw[1] if raw.startswith("'") else int(raw)
            p = m["p"] if "p" in m.re.groupindex else None
            words = _words(m["noun"])
            out.append((p, v, words - _NEGATION, bool(words & _NEGATION)))
    return out


def _noun_value(facts: Facts, noun: str, named: str | None) -> tuple[Param | None, Any]:
    """The parameter and the property ``["in", [v]]`` the noun names: exactly one value's
    definitions hold all its words, and no negation qualifies them."""
    want = _words(noun) - {"cell", "element", "item"}
    if not want:
        return None, None
    hits = [d for d in _definitions(facts) if want <= d[2]]
    values = {(type(d[1]).__name__, d[1]) for d in hits}
    if len(values) != 1 or any(d[3] for d in hits):
        return None, None
    owners = {d[0] for d in hits if d[0]} | ({named} if named else set())
    p = _owner(facts, owners, hits[0][1], named)
    if p is None:
        return None, None
    return p, ["in", [hits[0][1]]]


def _owner(facts: Facts, owners: set[str], v: Any, named: str | None) -> Param | None:
    """The one list or grid the definitions (or the line) name, or the one whose values are
    of ``v``'s kind."""
    leaf = "char" if isinstance(v, str) else "int"
    if (
        named
        and named.lower() in ("grid", "matrix", "board", "array", "list")
        and named not in facts.by_name
    ):
        owners.discard(named)
    if len(owners) > 1:
        return None
    if owners:
        p = _list_param(facts, next(iter(owners)))
        return p if p is not None and p.leaf == leaf else None
    found = [q for q in facts.params if _list_param(facts, q.name) and q.leaf == leaf]
    return found[0] if len(found) == 1 else None


# -- one position -------------------------------------------------------------------------------


def _position(facts: Facts, m: re.Match[str], line: str, acts: Acts) -> bool:
    """One of ``_AT`` into an ``at`` rule: each index a constant, a scalar or a field (or the
    two items of a list that addresses the one grid), the property a value set, a comparison,
    or a defined noun (``not``: its complement); False when any part is none of these."""
    groups = m.re.groupindex
    if "a" in groups:  # ``entrance will always be an empty cell``: a list of two indices
        a = facts.by_name.get(m["a"])
        if a is None or a.depth != 1 or a.leaf != "int" or a.join or a.tree or a.node:
            return False
        p, pred = _noun_value(facts, m["noun"], None)
        if p is None or p.depth != 2 or pred is None:
            return False
        where: list[Any] = [["item", a.name, 0], ["item", a.name, 1]]
        return _queue(facts, ("at", p.name, _negate(pred, m["neg"]), where, None, line), acts)
    p = _list_param(facts, m["p"])
    idx = [m["i"]] + ([m["j"]] if m["j"] is not None else [])
    if p is None or len(idx) != p.depth:
        return False
    where = [_index(facts, x.strip()) for x in idx]
    if any(w is None for w in where):
        return False
    if "set" in groups:
        vals = re.findall(r"'(.)'", m["set"])
        pred: Any = ["in", vals] if p.leaf == "char" else None
    elif "noun" in groups:
        got, pred = _noun_value(facts, m["noun"], p.name)
        pred = _negate(pred, m["neg"]) if got is not None and got.name == p.name else None
    else:
        pred = _compare(facts, m["op"], m["v"], p)
    if pred is None:
        return False
    return _queue(facts, ("at", p.name, pred, where, None, line), acts)


def _negate(pred: list[Any], neg: str | None) -> list[Any]:
    return ["not", pred[1]] if neg else pred


def _index(facts: Facts, raw: str) -> list[Any] | None:
    """One index: a constant, a scalar integer parameter, or a field of an integer list."""
    if re.fullmatch(r"\d+", raw):
        return ["i", int(raw)]
    q = facts.by_name.get(raw)
    if q is not None and q.is_quantity:
        return ["arg", raw]
    if raw in facts.fields and raw not in facts.by_name:
        owner, col = facts.fields[raw]
        o = facts.by_name[owner]
        if o.depth == 1 and o.leaf == "int" and not o.join:
            return ["item", owner, col]
    return None


# -- the spec's "presence" ------------------------------------------------------------------------

# the keys a changed parameter's spec may have: any other is a rule the change could break
_PLAIN = {"name", "type", "kind", "dims", "leaf", "join", "sorted", "distinct", "q"}


def presence_spec(
    facts: Facts,
    spec: dict[str, Any],
    members: list[list[Any]],
    problems: list[str],
    notes: list[str],
) -> list[list[Any]]:
    """``spec["presence"]``: each rule of ``facts.presence`` by parameter index, or a problem
    where the runtime cannot keep it (another rule on the values, a domain that is no
    constant, a property no value or every value meets)."""
    params = spec["params"]
    index = {p["name"]: i for i, p in enumerate(params)}
    used = {rule[1] for rule in members} | {rule[2] for rule in members if rule[0] != "has"}
    out: list[list[Any]] = []
    for kind, name, pred, arg, hi, line in facts.presence:
        i = index[name]
        why = "a parameter in two rules on its values" if i in used else None
        if kind == "node":
            why = why or _node_problem(params[i], arg, spec)
        elif kind in ("absent", "common"):
            why = why or _strings_problem(kind, params[i], params[index[arg]], spec)
        else:
            why = why or _rule_problem(kind, params[i], pred, arg, spec, index)
        if why:
            problems.append(f'"{line}": {why}')
            continue
        used.add(i)
        if kind == "node":
            out.append(["node", i, [index[a] for a in arg]])
            notes.append(f"{', '.join(arg)}: values of random nodes of {name} (distinct nodes)")
            continue
        if kind in ("absent", "common"):
            out.append([kind, i, index[arg]])
            how = "drawn again" if kind == "absent" else "an item set to one of"
            notes.append(f"{name}: {how} {arg} where needed, so that {line.rstrip('.')}")
            continue
        if kind == "kinds":
            out.append(["kinds", i, arg])
            notes.append(f"{name}: an item changed where all are equal, so that {line}")
            continue
        pred = [pred[0], {"arg": index[pred[1]["arg"]]} if isinstance(pred[1], dict) else pred[1]]
        if kind in ("count", "rows", "columns"):
            scope = [] if kind == "count" else ["row" if kind == "rows" else "col"]
            out.append(["count", i, pred, arg, hi, *scope])
            notes.append(f"{name}: items set at random positions until {line.rstrip('.')}")
        else:
            where = [[w[0], index[w[1]], *w[2:]] if w[0] != "i" else w for w in arg]
            out.append(["at", i, where, pred])
            notes.append(f"{name}: the position set last, so that {line.rstrip('.')}")
    return out


def _rule_problem(
    kind: str, p: dict[str, Any], pred: list[Any], arg: Any, spec: dict[str, Any], index: dict
) -> str | None:
    """Why the runtime cannot keep a ``count``, ``kinds`` or ``at`` rule on ``p``, or None."""
    extra = sorted(set(p) - _PLAIN) + [k for k in ("sorted", "distinct") if p.get(k)]
    if extra or p["kind"] != "list" or len(p["dims"]) > 2:
        return f"{p['name']} has other rules on its values ({', '.join(extra) or p['kind']})"
    leaf = p["leaf"]
    values = _domain(leaf)
    if values is None:
        return f"{p['name']}'s values are in no constant range or alphabet"
    if pred is not None and isinstance(pred[1], dict):  # a scalar's every value leaves room?
        q = spec["params"][index[pred[1]["arg"]]]
        item = next((x for x in spec["quantities"] if x["name"] == q.get("q")), None)
        lo, hi = _const_range(item) if item else (None, None)
        if lo is None or hi is None or not isinstance(values, range):
            return f"{pred[1]['arg']} has no constant range"
        if not all(_meet_some(values, [pred[0], k]) for k in (lo, hi)):
            return f"some value of {pred[1]['arg']} leaves {p['name']} no value"
    elif pred is not None and not _meet_some(values, pred):
        return f"no value {p['name']} may hold meets it"
    if kind == "kinds" and (len(values) < 2 or _least(spec, p) < 2):
        return f"{p['name']} may hold fewer than two items, or its range one value"
    if kind in ("count", "kinds") and _least(spec, p) < arg:
        return f"{p['name']} may hold fewer than {arg} items"
    if kind in ("rows", "columns") and _least(spec, p, kind == "columns") < arg:
        return f"a {kind[:-1]} of {p['name']} may hold fewer than {arg} items"
    if kind == "at":
        for w in arg:
            src = spec["params"][index[w[1]]] if w[0] != "i" else None
            if src is not None and src["kind"] not in ("quantity", "list"):
                return f"{w[1]} is not an integer or a list of integers"
            if w[0] == "item" and _least(spec, src) <= w[2]:
                return f"{w[1]} may hold no item {w[2]}"
    return None


def _domain(leaf: dict[str, Any]) -> range | list[Any] | None:
    if leaf.get("type") == "char":
        return list(leaf["alphabet"]) if leaf.get("alphabet") else None
    if leaf.get("type") != "int" or leaf.get("ne"):
        return None
    if "set" in leaf:
        return list(leaf["set"]) or None
    bounds = (*leaf.get("lo", ()), *leaf.get("hi", ()))
    if not leaf.get("lo") or not leaf.get("hi") or not all(isinstance(x, int) for x in bounds):
        return None
    return range(max(leaf["lo"]), min(leaf["hi"]) + 1)


def _meet_some(values: range | list[Any], pred: list[Any]) -> bool:
    """Some value meets ``pred`` (a comparison's least or greatest value, over a range)."""
    op, v = pred
    if op in ("in", "not"):
        return any((x in v) == (op == "in") for x in values)
    if isinstance(values, range):
        if not values:
            return False
        picks = [values[0], values[-1], v, v - 1, v + 1]
        return any(x in values and _cmp(x, op, v) for x in picks)
    return any(_cmp(x, op, v) for x in values)


def _cmp(x: Any, op: str, v: Any) -> bool:
    return {
        "==": x == v,
        "!=": x != v,
        "<": x < v,
        "<=": x <= v,
        ">": x > v,
        ">=": x >= v,
    }[op]


def _const_range(item: dict[str, Any]) -> tuple[int | None, int | None]:
    lo: int | None = None
    hi: int | None = None
    for bound in item["bounds"]:
        rest, coef = bound["rest"], bound["coef"]
        if not isinstance(rest, int) or coef not in (1, -1):
            return None, None
        if coef == 1:
            lo = -rest if lo is None else max(lo, -rest)
        else:
            hi = rest if hi is None else min(hi, rest)
    if set(item) - {"name", "label", "size", "bounds"}:
        return None, None
    return lo, hi


def _least(spec: dict[str, Any], p: dict[str, Any], column: bool | None = None) -> int:
    """The fewest items ``p`` may hold (each length at its least constant value); of one row
    (``column`` False) or one column (True) of a grid."""
    least = 1
    dims = p["dims"] if column is None else [p["dims"][0 if column else 1]]
    for dim in dims:
        if "q" in dim:
            item = next((i for i in spec["quantities"] if i["name"] == dim["q"]), None)
            lows = [
                -b["rest"]
                for b in (item["bounds"] if item else ())
                if b["coef"] == 1 and isinstance(b["rest"], int)
            ]
            least *= max([0, *lows])
        else:
            least *= max(0, dim.get("lo", 0))
    return least


# -- scalars that are values of the tree's nodes ------------------------------------------------


def presence_prepare(facts: Facts) -> None:
    """A scalar stated to be a node's value with no stated range of its own takes the tree's
    constant range (``A node with a value of start exists in the tree`` and nothing else)."""
    for kind, tree, _pred, names, _hi, line in facts.presence:
        if kind != "node":
            continue
        info = facts.leaf[tree]
        for name in names:
            if _bounded(facts, name):
                continue
            for bound, strict, text in info.lo:
                if not bound.terms:
                    low = bound.const + (1 if strict else 0)
                    facts.lins.append((_q(name) - Lin(Fraction(low)), f"{line}: {text}"))
            for bound, strict, text in info.hi:
                if not bound.terms:
                    high = bound.const - (1 if strict else 0)
                    facts.lins.append((Lin(Fraction(high)) - _q(name), f"{line}: {text}"))
            facts.mention(_q(name), line)


def _node_problem(p: dict[str, Any], scalars: list[str], spec: dict[str, Any]) -> str | None:
    """Why the scalars cannot take the values of distinct random nodes: a tree of no constant
    range, too few nodes, a scalar another rule names or whose range is narrower."""
    values = _domain(p["leaf"])
    if p["kind"] != "tree" or not isinstance(values, range):
        return f"{p['name']}'s values are in no constant range"
    if _least(spec, p) < len(scalars):
        return f"{p['name']} may hold fewer than {len(scalars)} nodes"
    own = [i for i in spec["quantities"] if i["name"] in scalars]
    rest = {**spec, "quantities": [i for i in spec["quantities"] if i["name"] not in scalars]}
    for name in scalars:
        item = next((i for i in own if i["name"] == name), None)
        param = next(x for x in spec["params"] if x["name"] == name)
        if item is None or param.get("q") != name or set(item) - {*_QITEM, "ne"} or item["size"]:
            return f"{name} is tied to other quantities or rules"
        if _mentioned(rest, name):
            return f"other bounds name {name}"
        for ne in item.get("ne", ()):
            rest_terms = ne["rest"].get("terms", {}) if isinstance(ne["rest"], dict) else {}
            if not set(rest_terms) <= set(scalars) or not p.get("distinct"):
                return f"{name} != another value, and the tree's values may repeat"
        lo, hi = _const_range(_bare(item))
        if lo is None or hi is None or not lo <= values[0] <= values[-1] <= hi:
            return f"{p['name']}'s values may be outside {name}'s range"
    return None


_QITEM = {"name", "label", "size", "bounds"}


def _bare(item: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in item.items() if k in _QITEM}


# -- a string kept out of a list of strings, a string the two lists share ------------------------


def _strings_problem(
    kind: str, p: dict[str, Any], other: dict[str, Any], spec: dict[str, Any]
) -> str | None:
    """``absent``: ``p`` a plain string, drawn again (its length kept) while ``other`` holds it,
    with room (more strings of its least length than the size cap allows items). ``common``:
    ``p`` a list of strings (distinct allowed) whose one item may become one of ``other``'s, of
    the same alphabet and per-item lengths."""
    extra = sorted(set(p) - _PLAIN) + [k for k in ("sorted",) if p.get(k)]
    if kind == "absent" and p.get("distinct"):
        extra.append("distinct")
    alphabet = p["leaf"].get("alphabet") or ""
    if extra or p["kind"] != "list" or not p["join"] or p["leaf"] != other["leaf"]:
        return f"{p['name']} has other rules on its values, or values of another kind"
    if kind == "absent":
        if len(p["dims"]) != 1 or len(other["dims"]) != 2:
            return f"{p['name']} not in {other['name']}: a string kept out of a list of strings"
        least = _least(spec, p)
        if least < 1 or len(alphabet) ** min(least, 4) <= 1000:
            return f"{p['name']} may have too few other values"
        return None
    inner = [d.get(k) for d in (p["dims"][1:2] + other["dims"][1:2]) for k in ("lo", "hi")]
    plain = all(set(d) <= {"name", "lo", "hi"} for d in p["dims"][1:] + other["dims"][1:])
    if len(p["dims"]) != 2 or len(other["dims"]) != 2 or not plain or inner[:2] != inner[2:]:
        return f"{p['name']} and {other['name']}: lists of strings of the same lengths are read"
    if _least(spec, {"dims": p["dims"][:1]}) < 1 or _least(spec, {"dims": other["dims"][:1]}) < 1:
        return f"{p['name']} or {other['name']} may be empty"
    return None
