"""Uniqueness across parameters: tuples of parallel lists, lists that share no item, items
distinct over several lists (issue 26).

The sentences read (Constraints items and the description's guarantees that
:mod:`~.described` passes on), each naming its parameters or the nouns of them:

- ``No two cards have the same rank and suit`` (``ranks``, ``suits``: lists of one length):
  ``tuples``, no two indexes i hold the same ``(ranks[i], suits[i])``; with one noun (``No two
  students have the same id``) the list's values are distinct;
- ``No word is present in both positive_feedback and negative_feedback``, ``a and b have no
  common values``, ``a and b are disjoint``, ``a[i] != b[j]``: ``disjoint``, no item in two of
  the lists (each list may repeat its own);
- ``All the values of recipes and supplies combined are unique``, ``All the positions in
  guards and walls are unique``, ``All the given positions are unique`` (every integer list
  holds positions: rows of fields, one row such as ``king = [xKing, yKing]``), ``There are no
  repeated elements on moves`` (one list): ``whole``, no item twice over all of them;
- ``No two pieces are on the same square`` with the description's ``(a, b) denotes the
  position of the white rook``, ``(c, d) ...``: ``groups``, no two pairs of integer scalars
  hold the same values;
- ``There can be multiple ghosts in the same location``: a permission, which states nothing;
- ``All the pairs (u_i, v_i) are unique. (i.e., no multiple edges.)``: the unique rows of
  :func:`~.row_sentences.unique_rows`, the parenthesis restating them.

An item is a value (a list of integers or characters), a string (a list of strings), a row
(a list of integer rows with a stated range per field) or a list of one row (``king``). The
spec's ``"uniq"`` (optional: a spec without it draws as before) holds one rule per sentence,
``{"mode", "of": [parameter indexes], "items": [kinds], "dom": [domains], "own": [distinct
already], "text"}``, each domain constant so the runtime (:mod:`.runtime_uniq`) draws a
clashing item again from it; :mod:`.checker_uniq` checks the rules. Refused: a parameter with
another rule on its values that a changed item could break (an order, a form, unique rows of
its own, ...), a domain that is not constant, a string length shared or summed, and lists
that could hold more items than their domain has values.
"""

from __future__ import annotations

import re
from functools import partial
from typing import Any

from quicksilver.synth.offline.comparisons import Acts
from quicksilver.synth.offline.constraints import Param, Unsupported
from quicksilver.synth.offline.facts import Facts
from quicksilver.synth.offline.row_sentences import unique_rows

_N = r"[A-Za-z_]\w*"
_NAMES = rf"(?P<names>{_N}(?:, {_N})*,? and {_N})"
_PRE = (
    r"(?:(?:it is|it's) guaranteed that |(?:the )?(?:input|test cases?|test data|tests?) "
    r"(?:is|are) generated (?:such|so) that )?"
)
_UNIQUE = r"(?:unique|distinct|pairwise distinct|all different|different)"
_ITEM = (
    r"(?:word|value|element|string|integer|number|item|id|name|position|point|coordinate|"
    r"cell|entry|entrie)"
)
_PLACE = r"(?:positions|points|coordinates|cells|squares|locations)"
_PERMIT = re.compile(
    r"there (?:can|may|could|might) be (?:multiple|several|many|two or more|more than one) "
    r"\w+ (?:in|at|on) the same (?:location|position|cell|square|point|place|coordinates?)",
    flags=re.I,
)
_TUPLES = re.compile(
    r"no two (?P<noun>\w+) (?:have|has|share|will have) (?:both )?the same "
    r"(?P<fields>\w+(?:(?:,| and) \w+)*)",
    flags=re.I,
)
_DISJOINT = tuple(
    re.compile(_PRE + form, flags=re.I)
    for form in (
        rf"no {_ITEM}s? (?:is|are|will be|appears?|is present|occurs?|exists?) in both "
        rf"(?:the )?{_NAMES}",
        rf"no {_ITEM}s? (?:of|in|from) (?P<a>{_N}) (?:is|appears|occurs|exists|is present|"
        rf"will be) (?:also )?in (?P<b>{_N})",
        rf"{_NAMES} (?:have|share|contain) no (?:common |shared )?{_ITEM}s?(?: in common)?",
        rf"{_NAMES} are disjoint",
        rf"(?P<a>{_N})\[i\] != (?P<b>{_N})\[j\](?:,? for (?:all |each |every |any )?"
        r"(?:valid )?i(?:,| and) j)?",
    )
)
_WHOLE = tuple(
    re.compile(_PRE + form, flags=re.I)
    for form in (
        rf"(?:all )?(?:of )?(?:the )?(?:given )?{_ITEM}s (?:of|in) (?:the )?{_NAMES}"
        rf" (?:combined|together) are (?:all )?{_UNIQUE}",
        rf"(?:all )?(?:of )?(?:the )?(?:given )?{_PLACE} (?:of|in) (?:the )?{_NAMES} are "
        rf"(?:all )?{_UNIQUE}",
        rf"there (?:are|will be) no (?:repeated|duplicate|duplicated) {_ITEM}s (?:on|in) "
        rf"(?P<one>{_N})",
    )
)
_POSITIONS = re.compile(
    rf"{_PRE}all (?:of )?(?:the )?(?:given )?{_PLACE} are "
    rf"{_UNIQUE}",
    flags=re.I,
)
_SAME_PLACE = re.compile(
    rf"{_PRE}no two \w+ (?:(?:are|will be|lie|stand) (?:on|at|in)|share|occupy) the same "
    r"(?:square|cell|position|point|location|place)",
    flags=re.I,
)
# the description's pairs of scalars that hold one place: ``(a, b) denotes the position of the
# white rook``
_HELD = re.compile(
    r"\((\w+), (\w+)\) (?:denotes|represents|is|gives|describes) the (?:position|location|"
    r"coordinates?|cell|square) of"
)
_RESTATED = re.compile(
    r"(?P<head>.+?)\.? \(i\.e\.,? (?:there are )?no (?:multiple|repeated|duplicate|parallel) "
    r"edges\.?\)",
    flags=re.I,
)


def uniq_form(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """One sentence of this family into ``facts.uniq`` (``(mode, names, line)``), or False
    when it is none; Unsupported where it names what the family cannot keep."""
    if _PERMIT.fullmatch(text):
        return True  # a permission: no rule
    m = _RESTATED.fullmatch(text)
    if m:
        return unique_rows(facts, m["head"], line, acts)
    m = _TUPLES.fullmatch(text)
    if m and _tuples(facts, m["noun"], re.split(r",? and |, ", m["fields"]), line, acts):
        return True  # else: the nouns name no lists (``share the same square``: below)
    for form in _DISJOINT:
        m = form.fullmatch(text)
        if m:
            names = _names(m)
            if len(set(names)) != len(names) or not all(n in facts.by_name for n in names):
                return False  # a[i] != a[j]: unique_rows's; not parameters: another form's
            return _record(facts, "disjoint", names, line, acts)
    for form in _WHOLE:
        m = form.fullmatch(text)
        if m:
            names = _names(m)
            if not all(n in facts.by_name for n in names):
                return False
            return _record(facts, "whole", names, line, acts)
    if _SAME_PLACE.fullmatch(text):
        return _held_places(facts, line, acts)
    if _POSITIONS.fullmatch(text):
        names = [p.name for p in facts.params if p.depth >= 1 and p.leaf == "int" and not p.join]
        if len(names) < 2 or not all(facts.width_fields(n) for n in names):
            return False  # one list: unique_rows's; lists that are not positions: reported
        return _record(facts, "whole", names, line, acts)
    return False


def _held_places(facts: Facts, line: str, acts: Acts) -> bool:
    """``No two pieces are on the same square``: the places are the pairs of integer scalars
    the description gives as a position (``(a, b) denotes the position of the white rook``),
    two at least, each scalar in one; otherwise the line is no sentence of this family."""
    pairs = [list(m.groups()) for m in _HELD.finditer(facts.prose)]
    names = [n for pair in pairs for n in pair]
    if len(pairs) < 2 or len(set(names)) != len(names):
        return False
    if not all(facts.by_name.get(n) and facts.by_name[n].is_quantity for n in names):
        return False
    acts.append(partial(facts.uniq.append, ("groups", pairs, line)))
    return True


def _names(m: re.Match[str]) -> list[str]:
    groups = m.groupdict()
    if groups.get("names"):
        return re.split(r",? and |, ", groups["names"])
    return [groups["one"]] if groups.get("one") else [groups["a"], groups["b"]]


def _tuples(facts: Facts, noun: str, fields: list[str], line: str, acts: Acts) -> bool:
    """``No two cards have the same rank and suit``: each field noun names a list (``rank``
    -> ``ranks``), the lists one level of values of one length; the subject names none."""
    if _param(facts, noun) is not None:
        return False  # a list's own items (fields of its rows): not read here
    params = [_param(facts, f) for f in fields]
    if any(p is None for p in params):
        return False
    lists = [p for p in params if p is not None]
    if any(p.depth != 1 or p.join or p.tree or p.leaf not in ("int", "char") for p in lists):
        raise Unsupported("the same values of lists that are not lists of values")
    if len({p.name for p in lists}) != len(lists):
        raise Unsupported("a field named twice")
    if len(lists) == 1:
        info = facts.leaf[lists[0].name]
        acts.append(partial(setattr, info, "distinct", {"level": "value", "scope": "all"}))
        return True
    return _record(facts, "tuples", [p.name for p in lists], line, acts)


def _param(facts: Facts, noun: str) -> Param | None:
    for cand in (noun, noun + "s", noun + "es"):
        if cand in facts.by_name:
            return facts.by_name[cand]
    return None


def _record(facts: Facts, mode: str, names: list[str], line: str, acts: Acts) -> bool:
    acts.append(partial(facts.uniq.append, (mode, names, line)))
    return True


# -- the spec ------------------------------------------------------------------------------------

# the keys a changed parameter's spec may have: any other is a rule a changed item could break
_PLAIN = {"name", "type", "kind", "dims", "leaf", "join", "sorted", "distinct", "cols", "fields"}
_ROOM = 100000  # the most values an item's domain is enumerated over, its runtime's way out


def uniq_spec(
    facts: Facts,
    spec: dict[str, Any],
    used: set[str],
    problems: list[str],
    notes: list[str],
) -> list[dict[str, Any]]:
    """``spec["uniq"]``: each rule of ``facts.uniq`` by parameter index with each list's item
    kind and constant domain, or a problem where the runtime cannot keep it. ``used``: the
    parameters another rule between parameters changes."""
    params = spec["params"]
    index = {p["name"]: i for i, p in enumerate(params)}
    out: list[dict[str, Any]] = []
    for mode, names, line in facts.uniq:
        try:
            if mode == "groups":
                rule = _groups([[index[n] for n in pair] for pair in names], spec, used)
                names = [n for pair in names for n in pair]
            else:
                rule = _rule(mode, [index[n] for n in names], spec, used)
        except Unsupported as e:
            problems.append(f'"{line}": {e}')
            continue
        used.update(names)
        out.append({**rule, "text": line})
        how = {
            "tuples": "the items of one index drawn again where they repeat another's",
            "disjoint": "an item that another list holds drawn again",
            "whole": "an item that an earlier one repeats drawn again",
            "groups": "the values of a place that an earlier one holds drawn again",
        }[mode]
        notes.append(f"{', '.join(names)}: {how}, so that {line.rstrip('.')}")
    return out


def _rule(mode: str, of: list[int], spec: dict[str, Any], used: set[str]) -> dict[str, Any]:
    params = [spec["params"][i] for i in of]
    items, doms, counts, own = [], [], [], []
    for p in params:
        extra = sorted(set(p) - _PLAIN) + [k for k in ("sorted",) if p.get(k)]
        if extra or p["name"] in used or p["kind"] != "list":
            raise Unsupported(f"{p['name']} has other rules on its values ({', '.join(extra)})")
        kind, dom = _item(p)
        if mode == "tuples" and kind != "value":
            raise Unsupported(f"tuples of {p['name']}, whose items are not values")
        items.append(kind)
        doms.append(dom)
        counts.append(1 if kind == "one_row" else _most(p["dims"][0], spec["quantities"]))
        own.append(bool(p.get("distinct")))
    room = [_size(k, d) for k, d in zip(items, doms, strict=True)]
    if mode == "tuples":
        total = 1
        for r in room:
            total *= r
        if max(counts) > total:
            raise Unsupported(f"up to {max(counts)} distinct tuples of {total} possible")
    elif any(r < sum(counts) for r in room):
        raise Unsupported(f"up to {sum(counts)} distinct items of {min(room)} possible")
    if len(set(items) - {"row", "one_row"}) + bool(set(items) & {"row", "one_row"}) > 1:
        raise Unsupported("distinct items of lists that hold different kinds of items")
    widths = {len(d["cols"]) for d in doms if "cols" in d}
    if len(widths) > 1:
        raise Unsupported("distinct rows of different widths")
    return {"mode": mode, "of": of, "items": items, "dom": doms, "own": own}


def _groups(of: list[list[int]], spec: dict[str, Any], used: set[str]) -> dict[str, Any]:
    """Places held by integer scalars (``(a, b)``, ``(c, d)``): each scalar a quantity in a
    constant range with no other rule that nothing else names (so drawing it again changes
    nothing else), and room for every place."""
    doms = []
    for pair in of:
        cols = []
        for i in pair:
            p = spec["params"][i]
            if p["kind"] != "quantity" or p["name"] in used:
                raise Unsupported(f"{p['name']} has other rules on its value")
            cols.append(_scalar_range(p["q"], spec))
        doms.append(cols)
    for cols in doms:
        if _size("row", {"cols": cols}) < len(of):
            raise Unsupported(f"{len(of)} places apart with room for fewer")
    return {"mode": "groups", "of": of, "dom": doms}


def _scalar_range(key: str, spec: dict[str, Any]) -> dict[str, Any]:
    """The constant range of the quantity ``key``, which no other quantity or parameter
    names."""
    item = next(x for x in spec["quantities"] if x["name"] == key)
    if set(item) - {"name", "label", "size", "bounds"}:
        raise Unsupported(f"{key} has other rules on its value")
    lo, hi = None, None
    for b in item["bounds"]:
        if not isinstance(b["rest"], int) or b["coef"] not in (1, -1):
            raise Unsupported(f"{key} is bounded by other quantities")
        if b["coef"] == 1:
            lo = -b["rest"] if lo is None else max(lo, -b["rest"])
        else:
            hi = b["rest"] if hi is None else min(hi, b["rest"])
    others = [x for x in spec["quantities"] if x is not item]
    others += [p for p in spec["params"] if p.get("q") != key]
    if lo is None or hi is None or _names_in(others, key):
        raise Unsupported(f"{key} has no constant range, or another quantity names it")
    return {"lo": lo, "hi": hi}


def _names_in(value: Any, key: str) -> bool:
    """Whether ``key`` is a string (a key or a value) anywhere in ``value``."""
    if isinstance(value, dict):
        return any(k == key or _names_in(v, key) for k, v in value.items())
    if isinstance(value, list):
        return any(_names_in(v, key) for v in value)
    return value == key


def _item(p: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The kind of ``p``'s items and their domain (constant), or Unsupported."""
    dims = p["dims"]
    if "cols" in p:
        if len(dims) > 2 or p.get("distinct"):
            raise Unsupported(f"rows of {p['name']} with another rule on their values")
        cols = [_values(c) for c in p["cols"]]
        return ("one_row" if len(dims) == 1 else "row"), {"cols": cols}
    if p["join"] and len(dims) == 2:
        last = dims[1]
        if "q" in last or last.get("sum_max") is not None or "lo" not in last:
            raise Unsupported(f"strings of {p['name']} whose lengths are shared or summed")
        leaf = p["leaf"]
        if set(leaf) != {"type", "alphabet"}:
            raise Unsupported(f"strings of {p['name']} with another rule on their characters")
        return "string", {"alphabet": leaf["alphabet"], "lo": last["lo"], "hi": last["hi"]}
    if len(dims) == 1 and not p["join"]:
        return "value", _values(p["leaf"])
    raise Unsupported(f"distinct items of {p['name']} ({p['type']})")


def _values(leaf: dict[str, Any]) -> dict[str, Any]:
    """A constant domain: ``{"lo", "hi"}`` or ``{"set"}``."""
    if set(leaf) - {"type", "lo", "hi", "set", "alphabet"} or leaf["type"] not in ("int", "char"):
        raise Unsupported("distinct values with another rule on them")
    if "set" in leaf:
        return {"set": list(leaf["set"])}
    if "alphabet" in leaf:
        return {"set": list(leaf["alphabet"])}
    if not all(isinstance(x, int) for x in [*leaf["lo"], *leaf["hi"]]):
        raise Unsupported("distinct values whose range is not constant")
    return {"lo": max(leaf["lo"]), "hi": min(leaf["hi"])}


def _size(kind: str, dom: dict[str, Any]) -> int:
    """How many items the domain holds (strings: counted up to 10^18)."""
    if kind == "string":
        total, k = 0, len(dom["alphabet"])
        for length in range(dom["lo"], dom["hi"] + 1):
            total += k**length
            if total > 10**18:
                break
        return total
    if "cols" in dom:
        total = 1
        for c in dom["cols"]:
            total *= _size("value", c)
        return total
    return len(dom["set"]) if "set" in dom else max(0, dom["hi"] - dom["lo"] + 1)


def _most(dim: dict[str, Any], quantities: list[dict[str, Any]]) -> int:
    """The most items a list's length allows: its constant upper bounds, or Unsupported."""
    if "q" not in dim:
        raise Unsupported("distinct items of a list whose length is not one quantity")
    item = next(x for x in quantities if x["name"] == dim["q"])
    tops = [
        b["rest"] // -b["coef"]
        for b in item["bounds"]
        if isinstance(b["coef"], int) and b["coef"] < 0 and isinstance(b["rest"], int)
    ]
    if not tops:
        raise Unsupported(f"distinct items of a list with no constant bound on {dim['q']}")
    return min(tops)


def used_params(
    spec: dict[str, Any], members: list[list[Any]], presence: list[list[Any]], zips: list[Any]
) -> set[str]:
    """The parameters that the rules between parameters change (``members``: ``[op, a, b]``,
    ``["has", b, value, k]``; ``presence``: ``[kind, p, ...]``, ``["absent" | "common", b,
    a]``; ``zips``: names): a uniqueness rule may not change them again."""
    names = [p["name"] for p in spec["params"]]
    out = {names[r[1]] for r in [*members, *presence]}
    out |= {names[r[2]] for r in members if r[0] != "has"}
    out |= {names[r[2]] for r in presence if r[0] in ("absent", "common")}
    return out | {n for z in zips for n in z[:2]}
