"""Rules on neighbours and equal lengths (issue 26): sentences about the items of one list
taken together, read where they can be met exactly.

- **Equal lengths.** ``All strings in words have the same length``, ``All the strings are of
  the same length`` (the statement's one list of strings), ``All the strings of words are of
  the same length``, ``All words[i] have the same length``, ``All rows of grid have equal
  length``: the inner length of a list of strings or rows is drawn once for every item (as
  ``grid[0].length`` makes a grid rectangular: ``facts.rect``). No new spec key: the list's
  dimension is one quantity, which the checker already checks item by item. Refused where the
  strings are whole words of a set (their lengths are the words'), and where a sum bound on
  the items' lengths is stated (the schedule keeps those lengths per item).
- **No two 1s side by side.** ``There are no two adjacent flowers in flowerbed``, ``No two
  adjacent elements of nums are both 1``, ``nums does not contain two consecutive 1's``: a list
  of integers whose values are 0 and 1, with no 1 right after a 1 (spec key ``"no_adjacent":
  [value]`` on the list; the runtime's :func:`~.runtime_neighbours._no_adjacent` turns the
  second 1 of each pair into the other value, which keeps the list's value set; the checker
  looks for two such neighbours). Only for a list of one level whose value set is {0, 1} and
  that carries no other rule on its values (an order, distinct values, fixed positions, ...),
  which the change could break; otherwise reported.
- **No two adjacent cells equal.** ``No two adjacent cells are equal``, ``No two adjacent cells
  in mat are equal``: a grid of integers (``"apart_cells": true``; the runtime's
  :func:`~.runtime_neighbours._apart_cells` draws a cell equal to the one above it or to its
  left again), only where its domain is one constant range or set of three values at least
  (a cell may have to differ from two neighbours that differ) and no other rule is on its
  values. Of a list of one level: its neighbours apart (``"apart": ["next"]``, as
  ``nums[i] != nums[i + 1]`` gives).
"""

from __future__ import annotations

import re
from functools import partial
from typing import Any

from quicksilver.synth.offline.comparisons import Acts
from quicksilver.synth.offline.constraints import Param, Unsupported
from quicksilver.synth.offline.facts import Facts

_N = r"[A-Za-z_]\w*"
_PRE = (
    r"(?:(?:it is|it's) guaranteed that |the (?:input|test cases?|test data) (?:is|are) "
    r"generated (?:such|so) that )?"
)
_NOUN = r"(?P<noun>strings|words|arrays|lists|rows)"
# All strings in words have the same length / All the strings are of the same length /
# All words[i] have the same length / All the strings of words are of equal length
_SAME = re.compile(
    _PRE + rf"(?:all|each of) (?:the )?(?:{_NOUN}(?: (?:in|of) (?:the (?:array|list) )?"
    rf"(?P<x>{_N}))?|(?P<y>{_N})(?:\[i\])?) (?:are|have|has|is) (?:all )?(?:of )?"
    r"(?:the same|equal|an equal) (?:length|size)s?",
    flags=re.I,
)
# No two adjacent cells are equal / No two adjacent elements in nums are the same
_CELLS = re.compile(
    _PRE + r"no two adjacent (?:cells|elements|values|items|integers|numbers)"
    rf"(?: (?:in|of) (?:the (?:grid|matrix|array) )?(?P<x>{_N}))? (?:are|will be) "
    r"(?:equal|the same)",
    flags=re.I,
)
# There are no two adjacent flowers in flowerbed / No two adjacent elements of nums are both 1
# / nums does not contain two consecutive 1's
_NO_ADJ = (
    re.compile(
        _PRE + rf"there (?:are|will be) no two (?:adjacent|consecutive) (?:\w+ )?(?:in|of) "
        rf"(?P<x>{_N})",
        flags=re.I,
    ),
    re.compile(
        _PRE + rf"no two (?:adjacent|consecutive) (?:elements|values|items|integers) "
        rf"(?:in|of) (?P<x>{_N}) are both (?P<v>1)",
        flags=re.I,
    ),
    re.compile(
        _PRE + rf"(?P<x>{_N}) (?:does not|doesn't|will not) contain (?:any )?two "
        r"(?:adjacent|consecutive) (?P<v>1)(?:'s|s)",
        flags=re.I,
    ),
)


def _cells_apart(facts: Facts, name: str | None, line: str, acts: Acts) -> bool:
    """``No two adjacent cells are equal``: a grid of integers (``"apart_cells"``), or a list
    of integers (its neighbours apart, the spec's ``"apart": ["next"]`` as ``nums[i] !=
    nums[i + 1]`` gives). With no name, the statement's one list or grid of integers."""
    if name is not None:
        p = facts.by_name.get(name)
        if p is None:
            return False
        fit = [p]
    else:
        fit = [p for p in facts.params if p.depth in (1, 2) and not p.tree and p.leaf == "int"]
    if len(fit) != 1:
        raise Unsupported("adjacent values apart, but not of one list or grid of integers")
    p = fit[0]
    if p.tree or p.node or p.join or p.leaf != "int" or p.depth not in (1, 2):
        raise Unsupported(f"adjacent values apart in {p.name} ({p.type})")
    if p.depth == 1:
        acts.append(partial(facts.leaf[p.name].apart.__setitem__, "next", line))
    else:
        acts.append(partial(facts.apart_cells.__setitem__, p.name, line))
    return True


def _strings_named(facts: Facts, noun: str | None, name: str | None) -> Param | None:
    """The parameter a sentence on equal lengths names: by name, or (no name) the one list of
    strings (``strings``, ``words``) or of rows (``arrays``, ``lists``, ``rows``)."""
    strings = noun is None or noun.lower() in ("strings", "words")
    if name is not None:
        p = facts.by_name.get(name)
        if p is None:
            return None
        if p.tree or p.node or p.depth != 2 or (noun is not None and p.join != strings):
            raise Unsupported(f"equal lengths of the items of {name} ({p.type})")
        return p
    fit = [p for p in facts.params if not p.tree and p.depth == 2 and p.join == strings]
    if len(fit) != 1:
        raise Unsupported(f"equal lengths of {noun}, but not of one parameter")
    return fit[0]


def neighbour_form(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """One sentence of this family (a form of ``char_sentences.TEXT_FORMS``)."""
    m = _SAME.fullmatch(text)
    if m:
        p = _strings_named(facts, m["noun"], m["x"] or m["y"])
        if p is None:
            return False
        key = p.dim_key(1)
        acts.append(partial(facts.rect.__setitem__, key, line))
        acts.append(partial(facts.same_len.__setitem__, key, line))
        return True
    m = _CELLS.fullmatch(text)
    if m:
        return _cells_apart(facts, m["x"], line, acts)
    for form in _NO_ADJ:
        m = form.fullmatch(text)
        if not m:
            continue
        p = facts.by_name.get(m["x"])
        if p is None:
            return False
        if p.tree or p.node or p.join or p.depth != 1 or p.leaf != "int":
            raise Unsupported(f"no two adjacent items of {p.name} ({p.type})")
        acts.append(partial(facts.no_adjacent.__setitem__, p.name, line))
        return True
    return False


def neighbour_checks(facts: Facts, problems: list[str]) -> None:
    """After every line is read: equal lengths the schedule could not keep (a stated sum bound
    keeps lengths per item; a set of words has lengths of its own) are reported."""
    for key, line in facts.same_len.items():
        name = key.split("[", 1)[0]
        if key in facts.sums:
            problems.append(f'"{line}": equal lengths with a sum bound on {key}')
        elif name in facts.words:
            problems.append(f'"{line}": equal lengths of strings drawn from a set of words')


def neighbour_specs(facts: Facts, params: list[dict[str, Any]], problems: list[str]) -> None:
    """``"no_adjacent": [1]`` on each list a line says holds no two 1s side by side: only a
    list of 0s and 1s with no other rule on its values (the runtime turns a 1 into a 0)."""
    by_name = {p["name"]: p for p in params}
    others = (
        "sorted",
        "distinct",
        "apart",
        "pins",
        "form",
        "occur",
        "end_once",
        "values_are",
        "values_sum_max",
        "below_index",
    )
    related = {n for _, a, b, _ in facts.members for n in (a, b) if isinstance(n, str)}
    related |= {n for a, b, _, _ in facts.zips for n in (a, b)}
    for name, line in facts.apart_cells.items():
        spec = by_name[name]
        leaf = spec.get("leaf") or {}
        lo, hi = leaf.get("lo") or [None], leaf.get("hi") or [None]
        room = (
            len(leaf["set"])
            if "set" in leaf
            else hi[0] - lo[0] + 1 - len(leaf.get("ne") or ())
            if len(lo) == len(hi) == 1 and isinstance(lo[0], int) and isinstance(hi[0], int)
            else 0
        )
        if room < 3 or name in related or any(spec.get(k) for k in (*others, "square")):
            # a cell differs from the one above it and the one to its left: 3 values at least
            problems.append(
                f'"{line}": adjacent cells apart, for a grid of integers of one constant range '
                "of three values at least, with no other rule on its values"
            )
            continue
        spec["apart_cells"] = True
    for name, line in facts.no_adjacent.items():
        spec = by_name[name]
        leaf = spec.get("leaf") or {}
        binary = sorted(leaf.get("set") or []) == [0, 1] or (
            leaf.get("lo") == [0] and leaf.get("hi") == [1] and not leaf.get("ne")
        )
        if not binary or name in related or any(spec.get(k) for k in others):
            problems.append(
                f'"{line}": no two adjacent 1s, for a list of 0s and 1s with no other rule '
                "on its values"
            )
            continue
        spec["no_adjacent"] = [1]
