"""Sentences about the rows of a list of integer rows as a whole: no two rows the same
(``There are no repeated edges``, ``All the pairs [x_i, y_i] are unique``), and rows that are a
tree's edges (``edges represents a valid tree``). Read by :class:`~.sentences.LineReader`.
"""

from __future__ import annotations

import re
from functools import partial

from quicksilver.synth.offline.comparisons import Acts
from quicksilver.synth.offline.constraints import Unsupported, split_top
from quicksilver.synth.offline.facts import Facts


def unique_rows(facts: Facts, text: str, line: str, acts: Acts) -> bool:
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
            p = facts.by_name.get(cand)
            if p is not None and p.depth == 2 and p.leaf == "int" and not p.join:
                name = p.name
                break
        if name is None:
            return False
    else:
        whole = re.fullmatch(rf"all (?:the )?pairs (\w+)\[i\] are {unique}", text, flags=re.I)
        if whole and whole.group(1) in facts.by_name:
            # "All the pairs prerequisites[i] are unique"
            acts.append(partial(setattr, facts.leaf[whole.group(1)], "unique_rows", line))
            return True
        m = re.fullmatch(
            rf"all (?:the )?pairs \[?\(?([^\]\)]+)\)?\]? are {unique}", text, flags=re.I
        )
        if not m:
            return False
        refs = [facts.resolve(f) for f in split_top(m.group(1))]
        owners = {r.params for r in refs if r.kind == "leaf" and r.col >= 0}
        if len(owners) != 1 or len(refs) != len(facts.width_fields(next(iter(owners))[0])):
            raise Unsupported("a uniqueness of some fields of the rows only")
        name = next(iter(owners))[0]
    acts.append(partial(setattr, facts.leaf[name], "unique_rows", line))
    return True


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
        if p is None or p.depth != 2 or p.leaf != "int":
            raise Unsupported(f"a tree's edges in {name}, which is not a list of integer rows")
        acts.append(partial(setattr, facts.leaf[name], "tree", line))
    return True
