"""Membership and relations between parameters (issue 26): a value or a list stated to be in,
or not in, another parameter; a string or list built from the items of another; scalars
pairwise distinct; at least some items with a stated value.

The sentences read (the Constraints items, and the description's guarantees that
:mod:`~.described` passes on), each naming its parameters:

- ``target is in nums``, ``key is an integer from the array nums``, ``pivot equals to an
  element of nums``, ``c occurs at least once in s``: ``["in", a, b]``, the scalar ``a`` takes
  the value of a random item of ``b``;
- ``Each arr2[i] is in arr1``, ``All the integers of nums1 also appear in nums2``:
  ``["subset", a, b]``, each item of ``a`` an item of ``b`` (distinct ones where ``a`` is);
- ``x is not in deadends``, ``Position x is not forbidden``: ``["notin", a, b]``, the items of
  ``b`` equal to ``a`` drawn again;
- ``t is a permutation of s``, ``s2 is an anagram of s1``: ``["perm", a, b]``, ``a`` a
  shuffled copy of ``b`` (the lengths are one quantity);
- ``p is a subsequence of s``: ``["subseq", a, b]``, ``a`` the items of ``b`` at random
  increasing positions;
- ``There is at least one 0 in mat``, ``there are at least three 1's in grid``, ``There is at
  least one element i where nums[i] == 0``: ``["has", b, value, k]``, items planted at random
  positions of ``b`` until ``k`` hold the value;
- ``beginWord != endWord`` (two strings or lists compared whole): ``["ne", a, b]``, one item
  of ``b`` changed where the two are equal;
- ``a, b, and c have different values``, ``src1, src2, and dest are pairwise distinct``
  (integer scalars): the exclusions (``!=``) the comparisons read, pair by pair; two lists or
  strings ``are different``: ``ne`` above.

A parameter the runtime changes must carry no other rule on its values that the change could
break (an order, fixed positions, a form, ...), and the values it takes must be values its own
spec allows; otherwise the line is reported (:func:`members_spec`).
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import partial
from itertools import combinations
from typing import Any

from quicksilver.synth.offline.comparisons import Acts, Comparisons
from quicksilver.synth.offline.constraints import Lin, Ref, Unsupported
from quicksilver.synth.offline.facts import Facts, LeafInfo

_N = r"[A-Za-z_]\w*"
_PRE = (
    r"(?:(?:it is|it's) guaranteed that |the (?:input|test cases?|test data) (?:is|are) "
    r"generated (?:such|so) that )?"
)
_LIST = rf"(?:the (?:given )?(?:array|list|string|integer array) )?(?P<b>{_N})"
_IN = (
    rf"(?P<a>{_N}) (?:is|will be) (?:in|present in|contained in|an? (?:element|value|member|"
    rf"item) (?:of|in)|one of the (?:elements|values|items) (?:of|in)) {_LIST}",
    rf"(?P<a>{_N}) (?:exists|occurs|appears|is present)(?: at least once)? in {_LIST}",
    rf"(?P<a>{_N}) is an? (?:integer|number|value|element|character|letter|digit) "
    rf"(?:from|of|in) {_LIST}",
    rf"(?P<a>{_N}) (?:is )?equals? (?:to )?(?:an?|one|some) (?:element|value|item|integer) "
    rf"(?:of|in|from) {_LIST}",
)
_SUBSET = (
    rf"(?:each|every) (?P<a>{_N})\[i\] (?:is in|appears in|occurs in|is present in|is an "
    rf"element of|is also in|also appears in) {_LIST}",
    rf"all (?:of )?(?:the )?(?:integers|elements|values|numbers|items) (?:of|in) (?P<a>{_N}) "
    rf"(?:also )?(?:appear|occur|exist|are present|are also present|are) in {_LIST}",
    rf"(?:each|every) (?:integer|element|value|number|item) (?:of|in) (?P<a>{_N}) (?:also )?"
    rf"(?:appears|occurs|exists|is present|is) in {_LIST}",
)
_NOT_IN = (
    rf"(?P<a>{_N}) (?:is not|will not be|is never|does not (?:appear|occur|exist)|will not "
    rf"(?:appear|occur)) in {_LIST}",
    rf"(?:position )?(?P<a>{_N}) is not (?P<b>{_N})",
)
_PERM = (
    rf"(?P<a>{_N}) is (?:a|some|one) (?:permutation|rearrangement) of (?P<b>{_N})",
    rf"(?P<a>{_N}) is an anagram of (?P<b>{_N})",
    rf"(?P<a>{_N}) and (?P<b>{_N}) are (?:anagrams|permutations) of each other",
)
_SUBSEQ = (
    rf"(?P<a>{_N}) is a subsequence of (?P<b>{_N})",
    rf"(?P<a>{_N}) (?:appears|occurs) as a subsequence (?:in|of) (?P<b>{_N})",
)
_COUNT = r"(?P<k>one|two|three|four|five|\d+)"
_HAS = (
    rf"there (?:is|are|will be|exists?) at least {_COUNT} (?P<v>-?\d+)(?:'s|s)? in {_LIST}",
    rf"{_LIST} (?:contains|has) at least {_COUNT} (?P<v>-?\d+)(?:'s|s)?",
    rf"there (?:is|exists) at least one (?:element|index|position|cell|item)(?: i)? "
    rf"(?:where|such that|with) (?P<b>{_N})\[i\] == (?P<v>-?\d+)",
)
_NE = (
    rf"(?P<a>{_N}) != (?P<b>{_N})",
    rf"(?P<a>{_N}) and (?P<b>{_N}) are (?:not equal|not the same|different)",
)
_APART = (
    rf"(?P<names>{_N}(?:, {_N})*,? and {_N}) (?:are (?:all )?(?:pairwise )?(?:distinct|"
    r"different)|have (?:pairwise )?(?:different|distinct) values)"
)
_HOW = {  # the note of each rule: how the runtime meets it
    "in": "drawn again as a random item of the list (or string)",
    "subset": "each item drawn from the other list's items (distinct ones where it is distinct)",
    "notin": "the list's items equal to it drawn again",
    "perm": "drawn as a shuffled copy of the other (one length)",
    "subseq": "drawn as the other's items at random increasing positions",
    "has": "the value planted at random positions until enough items hold it",
    "ne": "where the two are equal, one item of the second drawn again",
}
_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
# the keys a changed parameter's spec may have: any other is a rule the change could break
_PLAIN = {"name", "type", "kind", "dims", "leaf", "join", "sorted", "distinct", "q"}


def read_members(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """One sentence of this family into ``facts.members`` (``(op, a, b, line)``), or False
    when it is none; Unsupported where it names parameters the family cannot relate."""
    cmp = Comparisons(facts)
    m = re.fullmatch(_PRE + _APART, text, flags=re.I)
    names = re.split(r",? and |, ", m["names"]) if m else []
    if m and not all(facts.by_name.get(n) and facts.by_name[n].is_quantity for n in names):
        if not all(n in facts.by_name for n in names):
            return False
        if len(names) > 2:
            raise Unsupported("pairwise distinct values of parameters that are not integers")
        m = None  # two lists or strings: ``a and b are different`` below
    if m:
        for x, y in combinations(names, 2):
            cmp.not_equal(x, y, line, acts)
        return True
    for op, forms in (
        ("in", _IN),
        ("subset", _SUBSET),
        ("notin", _NOT_IN),
        ("perm", _PERM),
        ("subseq", _SUBSEQ),
        ("has", _HAS),
        ("ne", _NE),
    ):
        for form in forms:
            m = re.fullmatch(_PRE + form, text, flags=re.I)
            if m and _names_params(facts, m):
                return _record(facts, op, m, line, acts)
    return False


def _names_params(facts: Facts, m: re.Match[str]) -> bool:
    """Both names of the match are parameters (a sentence about other things is not ours)."""
    names = [m[g] for g in ("a", "b") if g in m.re.groupindex]
    return all(n in facts.by_name for n in names)


def _record(facts: Facts, op: str, m: re.Match[str], line: str, acts: Acts) -> bool:
    b = facts.by_name[m["b"]]
    if b.tree or b.node or b.depth < 1:
        if op in ("ne", "notin"):
            return False  # ``src != dst`` of scalars: the comparisons read it
        raise Unsupported(f"{b.name} is not a list or a string")
    if op == "has":
        k = _WORDS.get(m["k"].lower(), 0) if "k" in m.re.groupindex else 1
        k = k or int(m["k"])
        if b.leaf != "int" or b.join or k < 1:
            raise Unsupported(f"a count of a value in {b.name}, which does not hold integers")
        rule: tuple[str, str, Any, str] = ("has", b.name, [int(m["v"]), k], line)
        acts.append(lambda: None if _known(facts, rule) else facts.members.append(rule))
        return True
    a = facts.by_name[m["a"]]
    if a.name == b.name or a.tree or a.node:
        raise Unsupported("a relation of a parameter with itself, or of a tree or a list node")
    if op == "in" and a.depth == 1 and not a.join:
        raise Unsupported(f"{a.name} is a list: each of its items in {b.name}?")
    if op in ("in", "notin") and (a.depth != 0 or b.depth != 1):
        if op == "notin" and a.depth:
            return False
        raise Unsupported(f"{a.name} in {b.name}: a scalar in a list or string is read")
    if op in ("subset", "perm", "subseq", "ne") and (a.depth != 1 or b.depth != 1):
        if op == "ne" and (a.depth == 0 or b.depth == 0):
            return False
        raise Unsupported(f"{a.name} and {b.name}: lists of one level (or strings) are read")
    if op == "perm":  # a permutation: one length
        acts.append(partial(facts.union, b.dim_key(0), a.dim_key(0)))
    rule = (op, a.name, b.name, line)  # the same rule twice (a guarantee restated): once
    acts.append(lambda: None if _known(facts, rule) else facts.members.append(rule))
    return True


def _known(facts: Facts, rule: tuple[str, str, Any, str]) -> bool:
    return any(r[:3] == rule[:3] for r in facts.members)


# -- before the schedule: what the relation lends the parameter it changes ---------------------


def members_prepare(facts: Facts) -> None:
    """What a rule states of the parameter it draws: a scalar in a list with no stated range
    takes the list's constant range (``target is in nums`` and nothing else on target); a
    list built from another's items with no stated values takes that list's value facts."""
    for i, (op, a, b, _line) in enumerate(facts.members):
        if op == "perm" and _empty(facts.leaf[b]) and not _empty(facts.leaf[a]):
            facts.members[i] = (op, b, a, _line)  # symmetric: the stated one is the source
            a, b = b, a
        if op == "in" and facts.by_name[a].is_quantity and not _bounded(facts, a):
            for bound, strict, text in facts.leaf[b].lo:
                if not bound.terms:
                    low = bound.const + (1 if strict else 0)
                    facts.lins.append((_q(a) - Lin(Fraction(low)), f"{_line}: {text}"))
            for bound, strict, text in facts.leaf[b].hi:
                if not bound.terms:
                    high = bound.const - (1 if strict else 0)
                    facts.lins.append((Lin(Fraction(high)) - _q(a), f"{_line}: {text}"))
            facts.mention(_q(a), _line)
        if op in ("perm", "subseq", "subset") and _empty(facts.leaf[a]):
            src, dst = facts.leaf[b], facts.leaf[a]
            dst.lo, dst.hi, dst.values = list(src.lo), list(src.hi), src.values
            dst.alphabet, dst.exclude, dst.include = src.alphabet, src.exclude, src.include
            if op == "perm":
                dst.distinct = src.distinct


def _q(name: str) -> Lin:
    return Lin(Fraction(0), {Ref("q", key=name): Fraction(1)})


def _bounded(facts: Facts, name: str) -> bool:
    """Some linear fact (a bound or an equality) names the quantity ``name``."""
    root = facts.find(name)
    return any(
        ref.kind == "q" and facts.find(ref.key) == root
        for lin, _ in (*facts.lins, *facts.eqs)
        for ref in lin.terms
    )


def _empty(info: LeafInfo) -> bool:
    return not info.lo and not info.hi and info.values is None and info.alphabet is None


# -- the spec's "members" ------------------------------------------------------------------------


def members_spec(
    facts: Facts,
    spec: dict[str, Any],
    zips: list[list[Any]],
    relations: list[list[Any]],
    problems: list[str],
    notes: list[str],
) -> list[list[Any]]:
    """``spec["members"]``: ``[op, a, b]`` by parameter index (``["has", b, value, k]``), or a
    problem for each rule the runtime cannot keep. A parameter the spec's ``zips`` or
    ``relations`` (formats) change already, or another rule here, is not changed again."""
    params = spec["params"]
    index = {p["name"]: i for i, p in enumerate(params)}
    out: list[list[Any]] = []
    used = {n for rule in zips for n in rule[:2]}
    used |= {params[i]["name"] for rule in relations for i in (rule[0], rule[2])}
    for op, a, b, line in facts.members:
        names = {a, b} if op != "has" else {a}
        why = "a parameter in two relations with others" if names & used else None
        why = why or _problem(op, a, b, spec)
        if why:
            problems.append(f'"{line}": {why}')
            continue
        used |= names
        changed = a if op in ("in", "subset", "perm", "subseq", "has") else b
        notes.append(f"{changed}: {_HOW[op]}, so that {line.rstrip('.')} holds")
        if op == "has":
            out.append(["has", index[a], *b])
        else:
            out.append([op, index[a], index[b]])
    return out


def _problem(op: str, a: str, b: Any, spec: dict[str, Any]) -> str | None:
    by_name = {p["name"]: p for p in spec["params"]}
    if op == "has":
        return _has_problem(by_name[a], b[0], b[1], spec)
    pa, pb = by_name[a], by_name[b]
    if op == "in":
        return _in_problem(pa, pb, spec)
    if op == "notin":
        return _notin_problem(pa, pb)
    if op == "ne":
        return _changed_problem(pb, ()) or _ne_problem(pa, pb, spec)
    allow = ("distinct", "sorted") if op == "subset" else ("distinct",) if op == "perm" else ()
    why = _changed_problem(pa, allow)
    if why:
        return why
    if op == "perm":
        if pa["dims"] != pb["dims"] or pa["leaf"] != pb["leaf"] or pa.get("join") != pb["join"]:
            return f"{a} a permutation of {b}, but their lengths or values are stated apart"
        if pa.get("distinct") and pa["distinct"] != pb.get("distinct"):
            return f"{a} distinct, a permutation of {b} whose values need not be"
        return None
    if not _within(pb["leaf"], pa["leaf"]) or pa.get("join") != pb.get("join"):
        return f"{b}'s values may be outside what {a} may hold"
    if op == "subseq" or (op == "subset" and pa.get("distinct")):
        if op == "subset" and pa["distinct"] != pb.get("distinct"):
            return f"{a} distinct, its items from {b} whose values need not be"
        if not _at_most(spec, pa["dims"][0].get("q"), pb["dims"][0].get("q")):
            return f"no stated {a}.length <= {b}.length"
    elif _least(spec, pb["dims"][0].get("q")) < 1 and not _at_most(
        spec, pa["dims"][0].get("q"), pb["dims"][0].get("q")
    ):
        return f"{b} may be empty"
    return None


def _in_problem(pa: dict[str, Any], pb: dict[str, Any], spec: dict[str, Any]) -> str | None:
    if _least(spec, pb["dims"][0].get("q")) < 1:
        return f"{pb['name']} may be empty"
    if pa["kind"] == "quantity":
        item = next((i for i in spec["quantities"] if i["name"] == pa.get("q")), None)
        if item is None or pa["q"] != pa["name"] or set(item) - {"name", "label", "size", "bounds"}:
            return f"{pa['name']} is tied to other quantities or rules"
        if item["size"] or _mentioned(spec, pa["name"]):
            return f"other bounds name {pa['name']}"
        lo, hi = _const_range(item)
        dom = _int_domain(pb["leaf"])
        if dom is None or lo is None or hi is None or not lo <= dom[0] <= dom[1] <= hi:
            return f"{pb['name']}'s values may be outside {pa['name']}'s range"
        return None
    if pa["kind"] != "scalar" or set(pa) - _PLAIN or pa["leaf"].get("type") != "char":
        return f"{pa['name']}: an integer or a character is read"
    if not _within(pb["leaf"], pa["leaf"]):
        return f"{pb['name']}'s characters may be outside {pa['name']}'s"
    return None


def _notin_problem(pa: dict[str, Any], pb: dict[str, Any]) -> str | None:
    why = _changed_problem(pb, ("distinct", "sorted"))
    if why:
        return why
    dom = _int_domain(pb["leaf"])
    if pa["kind"] != "quantity" or pb["join"] or dom is None or "set" in pb["leaf"]:
        return f"{pa['name']} not in {pb['name']}: integers in a constant range are read"
    if dom[1] - dom[0] < 1 or pb["leaf"].get("ne"):
        return f"{pb['name']}'s range leaves no other value"
    return None


def _ne_problem(pa: dict[str, Any], pb: dict[str, Any], spec: dict[str, Any]) -> str | None:
    if pa.get("join") != pb.get("join") or pa["leaf"].get("type") != pb["leaf"].get("type"):
        return f"{pa['name']} and {pb['name']} hold different kinds of values"
    leaf = pb["leaf"]
    dom = _int_domain(leaf)
    many = (
        len(leaf["alphabet"]) > 1
        if "alphabet" in leaf
        else (dom is not None and dom[1] > dom[0] and not leaf.get("ne") and "set" not in leaf)
    )
    if not many or _least(spec, pb["dims"][0].get("q")) < 1:
        return f"{pb['name']} may be empty or hold one value only"
    return None


def _has_problem(p: dict[str, Any], v: int, k: int, spec: dict[str, Any]) -> str | None:
    why = _changed_problem(p, ())
    if why:
        return why
    leaf = p["leaf"]
    dom = _int_domain(leaf)
    inside = v in leaf["set"] if "set" in leaf else dom is not None and dom[0] <= v <= dom[1]
    if leaf.get("type") != "int" or not inside or v in leaf.get("ne", ()):
        return f"{v} is not a value {p['name']} may hold"
    least = 1
    for dim in p["dims"]:  # a length per item (grid[i].length): its own least value
        least *= _least(spec, dim["q"]) if "q" in dim else max(0, dim.get("lo", 0))
    if least < k:
        return f"{p['name']} may hold fewer than {k} items"
    return None


def _changed_problem(p: dict[str, Any], allow: tuple[str, ...]) -> str | None:
    """Why the runtime may not change ``p``'s values: another rule on them."""
    extra = sorted(set(p) - _PLAIN)
    extra += [k for k in ("sorted", "distinct") if p.get(k) and k not in allow]
    if extra or p["kind"] != "list" or len(p["dims"]) > 2 or (p["join"] and len(p["dims"]) > 1):
        return f"{p['name']} has other rules on its values ({', '.join(extra) or p['kind']})"
    return None


def _int_domain(leaf: dict[str, Any]) -> tuple[int, int] | None:
    """An integer leaf's constant [lo, hi] (a value set: its least and greatest)."""
    if leaf.get("type") != "int":
        return None
    if "set" in leaf:
        return (min(leaf["set"]), max(leaf["set"])) if leaf["set"] else None
    if not all(isinstance(x, int) for x in (*leaf.get("lo", ()), *leaf.get("hi", ()))):
        return None
    if not leaf.get("lo") or not leaf.get("hi"):
        return None
    return max(leaf["lo"]), min(leaf["hi"])


def _within(src: dict[str, Any], dst: dict[str, Any]) -> bool:
    """Every value the leaf ``src`` allows is one ``dst`` allows."""
    if src == dst:
        return True
    if src.get("type") != dst.get("type"):
        return False
    if src["type"] == "char":
        return (
            "alphabet" in src and "alphabet" in dst and set(src["alphabet"]) <= set(dst["alphabet"])
        )
    a, b = _int_domain(src), _int_domain(dst)
    if a is None or b is None or dst.get("ne") or "set" in dst:
        return False
    return b[0] <= a[0] and a[1] <= b[1]


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
    return lo, hi


def _least(spec: dict[str, Any], name: str | None) -> int:
    """The least value of the quantity ``name`` its constant lower bounds give (0 if none)."""
    item = next((i for i in spec["quantities"] if i["name"] == name), None)
    if item is None:
        return 0
    lows = [-b["rest"] for b in item["bounds"] if b["coef"] == 1 and isinstance(b["rest"], int)]
    return max([0, *lows])


def _at_most(spec: dict[str, Any], a: str | None, b: str | None) -> bool:
    """A stated bound ``a <= b + c`` with ``c <= 0`` between two quantities."""
    if a is None or b is None:
        return False
    if a == b:
        return True
    for item in spec["quantities"]:
        other = {a: b, b: a}.get(item["name"])
        for bound in item["bounds"] if other else ():
            rest = bound["rest"]
            if not isinstance(rest, dict) or set(rest.get("terms", {})) != {other}:
                continue
            coef, sign = bound["coef"], rest["terms"][other]
            if (item["name"], coef, sign) in ((a, -1, 1), (b, 1, -1)) and rest["const"] <= 0:
                return True
    return False


def _mentioned(spec: dict[str, Any], name: str) -> bool:
    """Some part of the spec other than ``name``'s own quantity and parameter names it."""

    def walk(x: Any) -> bool:
        if isinstance(x, dict):
            if x.get("name") == name or (x.get("q") == name and "kind" in x):
                return False  # its own quantity item or parameter
            return any(k not in ("text", "label") and (k == name or walk(v)) for k, v in x.items())
        if isinstance(x, list):
            return any(walk(v) for v in x)
        return x == name

    return walk(spec["quantities"]) or walk(spec["params"])
