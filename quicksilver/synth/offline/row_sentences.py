"""Sentences about a structure as a whole: no two rows of a list of integer rows the same
(``There are no repeated edges``, ``All the pairs [x_i, y_i] are unique``), rows that are a
tree's edges (``edges represents a valid tree``), and a tree's depth (``The depth of the tree
will not exceed 1000``). Read by :class:`~.sentences.LineReader`.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import partial

from quicksilver.synth.offline.comparisons import Acts, Comparisons
from quicksilver.synth.offline.constraints import Lin, Ref, Unsupported, split_top
from quicksilver.synth.offline.facts import Facts
from quicksilver.synth.offline.quantified import parent_list, parent_tree
from quicksilver.synth.offline.tree_shapes import tree_shape


def tree_depth(facts: Facts, cmp: Comparisons, text: str, line: str, acts: Acts) -> bool:
    """``The depth of the tree will not exceed 1000``, ``The depth of the tree is in the range
    [1, 10]``: the tree parameter is drawn no deeper (the root at depth 1, LeetCode's maximum
    depth), and its node count is bounded by 2^depth - 1, the most such a tree holds. A least
    depth above 1 is reported (the runtime does not aim for one). A tree's shape (``The tree is
    guaranteed to be complete``) is read here too (:func:`~.tree_shapes.tree_shape`)."""
    if tree_shape(facts, text, line, acts):
        return True
    m = re.fullmatch(
        r"the (?:maximum )?depth of (?P<t>the (?:given )?(?:binary )?tree) (?:will not exceed|"
        r"does not exceed|is at most|will be at most|is less than or equal to|<=) (?P<hi>.+)|"
        r"the (?:maximum )?depth of (?P<u>the (?:given )?(?:binary )?tree) (?:is|will be) "
        r"in the range \[(?P<lo>[^\[\],]+),\s*(?P<hi2>[^\[\]]+)\]",
        text,
        flags=re.I,
    )
    if not m:
        return False
    hi = facts.parse(m["hi"] or m["hi2"])
    if hi.terms or hi.const.denominator != 1:
        raise Unsupported("a depth bound that is not a number")
    if m["lo"] is not None:
        lo = facts.parse(m["lo"])
        if lo.terms or lo.const > 1:
            raise Unsupported("a least depth above 1")
    limit = int(hi.const)
    if limit < 1:
        raise Unsupported("a depth bound below 1")
    for name in facts.structure_params(m["t"] or m["u"]):
        p = facts.by_name[name]
        if not p.tree:
            raise Unsupported(f"a depth of {name}, which is not a tree")
        info = facts.leaf[name]
        acts.append(partial(setattr, info, "depth_max", (limit, line)))
        if limit < 62:
            nodes = Lin(Fraction(0), {Ref("q", key=p.dim_key(0)): Fraction(1)})
            cmp.relate(nodes, "<=", Lin(Fraction(2**limit - 1)), line, acts)
    return True


def unique_rows(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """``There are no repeated edges``, ``All the pairs [x_i, y_i] are unique``, ``All the
    given points are unique``: no two rows hold the same values (in any order, which
    satisfies both the ordered and the unordered reading). ``The start point of each interval
    is unique`` (one field) is read here too (:func:`unique_end`)."""
    if unique_end(facts, text, line, acts):
        return True
    unique = r"(?:unique|distinct)"
    name: str | None = None
    m = re.fullmatch(
        r"there (?:are|will be) no (?:repeated|duplicate|duplicated) (\w+)"
        r"(?: in (?:the )?(?:input|graph))?",
        text,
        flags=re.I,
    ) or re.fullmatch(
        rf"all (?:the )?(?:given )?(\w+) (?:are|is) {unique}|"
        rf"(?:it is guaranteed that )?(\w+) (?:contains?|consists? of) (?:all |only )?"
        rf"(?:pairwise )?{unique} (?:coordinates|points|rows|pairs)|"
        rf"(\w+) contains? no duplicate (?:coordinates|points|rows|pairs|\w+)|"
        # "All coordinates of buildings are unique", "invocations[i] != invocations[j]"
        rf"all (?:the )?(?:coordinates|points|positions) (?:of|in) (\w+) are {unique}|"
        r"(\w+)\[i\] != (\w+)\[j\](?:,? for (?:all |each |every |any )?i != j)?",
        text,
        flags=re.I,
    )
    if m:
        word = next(g for g in m.groups() if g)
        if m.lastindex == 6 and m.group(6) != word:
            return False
        for cand in (word, word + "s"):
            p = facts.by_name.get(cand)
            if p is not None and p.depth == 2 and p.leaf == "int" and not p.join:
                name = p.name
                break
        if name is None and word.lower() in _POSITIONS:
            name = _only_rows(facts)
        if name is None:
            return False
    else:
        whole = re.fullmatch(rf"all (?:the )?pairs (\w+)\[i\] are {unique}", text, flags=re.I)
        if whole and whole.group(1) in facts.by_name:
            # "All the pairs prerequisites[i] are unique"
            acts.append(partial(setattr, facts.leaf[whole.group(1)], "unique_rows", line))
            return True
        # "All the pairs [x_i, y_i] are unique", "All tuples (type_i, u_i, v_i) are distinct",
        # "All the shapes of wood (h_i, w_i) are pairwise distinct"
        m = re.fullmatch(
            r"all (?:the )?(?:pairs [\[(]?([^\])]+?)[\])]?|"
            r"(?:(?:tuples|triplets|\w+ of \w+|\w+) )?[\[(]([^\])]+)[\])]) "
            rf"are (?:all )?(?:pairwise )?{unique}",
            text,
            flags=re.I,
        )
        if not m:
            return False
        try:
            refs = [facts.resolve(f) for f in split_top(m.group(1) or m.group(2))]
        except Unsupported:
            if m.group(1):
                raise
            return False  # not names: another form's
        if m.group(2) and all(r.kind != "leaf" or r.col < 0 for r in refs):
            return False
        owners = {r.params for r in refs if r.kind == "leaf" and r.col >= 0}
        if len(owners) != 1 or len(refs) != len({r.col for r in refs}):
            raise Unsupported("a uniqueness of fields that are not of one list's rows")
        name = next(iter(owners))[0]
        key = sorted(r.col for r in refs if r.col >= 0)
        if len(key) != len(refs):
            raise Unsupported("a uniqueness of fields that are not of one list's rows")
        if len(key) < len(facts.width_fields(name)):
            acts.append(partial(setattr, facts.leaf[name], "unique_key", key))
    acts.append(partial(setattr, facts.leaf[name], "unique_rows", line))
    return True


_POSITIONS = ("positions", "points", "coordinates", "cells")


def _only_rows(facts: Facts) -> str | None:
    """``All the given positions are unique`` names no list: the one list of integer rows,
    when no other parameter holds integers that could be a position too (a ``king``)."""
    ints = [p for p in facts.params if p.depth >= 1 and p.leaf == "int" and not p.join]
    if len(ints) == 1 and ints[0].depth == 2 and not ints[0].tree:
        return ints[0].name
    return None


def tree_rows(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """``The input is generated such that edges represents a valid tree``, ``edges1 and
    edges2 represent valid trees``, ``The given input is guaranteed to be a tree``: each
    named list of integer rows is the edge list of one tree over every value of its first
    field's range (the runtime draws a random tree, now and then a path)."""
    lead = r"(?:the input is generated such that |it is guaranteed that |the given )?"
    m = re.fullmatch(
        lead + r"(\w+)(?:,? and (?:the given )?(\w+))? (?:represents?|forms?|is|are|will form) "
        r"(?:a )?valid (?:undirected )?trees?",
        text,
        flags=re.I,
    )
    if m:
        names = [n for n in m.groups() if n]
    elif re.fullmatch(
        r"the given (?:input|graph) is guaranteed to be a tree"
        r"(?: and there will be no repeated edges)?",
        text,
        flags=re.I,
    ):
        names = [p.name for p in facts.params if p.depth == 2 and p.leaf == "int"]
        if len(names) != 1:
            raise Unsupported("a tree, but not one list of integer rows to hold its edges")
    else:
        return False
    for name in names:
        p = facts.by_name.get(name)
        if p is not None and parent_list(p) and len(names) == 1:
            return parent_tree(facts, f"{name} represents a valid tree", line, acts)
        if p is None or p.depth != 2 or p.leaf != "int":
            raise Unsupported(f"a tree's edges in {name}, which is not a list of integer rows")
        acts.append(partial(setattr, facts.leaf[name], "tree", line))
    return True


def unique_end(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """``The start point of each interval is unique``: the first field of the rows the noun
    names (``interval`` -> ``intervals``, rows of two fields) has distinct values; ``the end
    ... of each ...``, the last field."""
    m = re.fullmatch(
        r"the (start|end)(?:ing)?(?: point| time| value)? of (?:each|every) (\w+) is "
        r"(?:unique|distinct)",
        text,
        flags=re.I,
    )
    if not m:
        return False
    noun = m.group(2).lower()
    names = [
        p.name
        for p in facts.params
        if p.depth == 2 and p.leaf == "int" and not p.join and p.name.lower() in (noun, noun + "s")
    ]
    if len(names) != 1:
        raise Unsupported(f"the {m.group(1)} of each {noun}, but no list of rows named so")
    width = len(facts.width_fields(names[0]))
    if width != 2:
        raise Unsupported(f"the {m.group(1)} of rows that do not have two named fields")
    col = 0 if m.group(1).lower() == "start" else 1
    acts.append(partial(facts.leaf[names[0]].distinct_cols.__setitem__, col, line))
    return True
