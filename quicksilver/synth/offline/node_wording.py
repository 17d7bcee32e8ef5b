"""Other wordings of a tree's or linked list's node count and node values (issue 26), restated
as the sentences :class:`~.sentences.LineReader` reads (:func:`~.wording.restate` tries them
only for a line no form reads whole, so every line read before reads as before):

- node values: ``Each node's value is between [-10^4, 10^4]`` / ``is either 0 or 1``, ``Each
  node in the linked list has -1000 <= node.val <= 1000``, ``Each node has a distinct value
  between 1 and 1000``, ``Both of the given trees will have values in the range [0, 200]``,
  ``Each tree will have unique node values in the range [0, 99]``, ``1 <= Node.val <= 100 for
  each node in the linked list and binary tree`` (where that names every node parameter): read
  as ``Node.val`` (every TreeNode / ListNode parameter) sentences;
- node counts: ``The given linked list will contain between 1 and 1000 nodes``, ``The number
  of nodes in the given tree is at most 1000``, ``Number of nodes will not exceed 30`` (of the
  one tree or list), ``The Linked List is not empty``, ``The number of nodes in the list is an
  even integer in the range [2, 10^5]``: read as ``The number of nodes in ... is in the range
  [a, b]`` (a count's least value is 0 where none is stated, so ``at most`` is ``[0, b]``),
  ``head.length >= 1`` and ``head.length is even`` (a linked list's length).
"""

from __future__ import annotations

import re

from quicksilver.synth.offline.facts import Facts

_WHERE = r"(?:the (?:given )?(?P<s>linked list|list|(?:binary )?tree))"
_AT_MOST = r"(?:is at most|will be at most|will not exceed|does not exceed|won't exceed|<=)"
_RANGE = r"(?P<range>between .+|in the range .+)"


def node_wordings(text: str, facts: Facts) -> list[list[str]]:
    """The restatements of ``text`` (a cleaned Constraints item) this module knows."""
    nodes = [p for p in facts.params if p.node]
    if not nodes:
        return []
    text = re.sub(r"\bnode\.val\b", "Node.val", text)
    return _values(text, facts) + _counts(text, facts)


def _values(text: str, facts: Facts) -> list[list[str]]:
    out: list[list[str]] = []
    kinds = sorted("tree" if p.tree else "list" for p in facts.params if p.node)
    m = re.fullmatch(
        r"(?:(?:each|every) node(?:'s|s')? value|the value of (?:each|every) node)"
        rf"(?: in {_WHERE})? (?P<rest>(?:is|will be) .+)",
        text,
        flags=re.I,
    )
    if m and _names_all(m["s"], kinds):
        out.append([f"Node.val {_bracket(m['rest'])}"])
    m = re.fullmatch(
        rf"(?:each|every) node(?: in {_WHERE})? (?:has|will have) (?P<chain>.*\bNode\.val\b.*)",
        text,
        flags=re.I,
    )
    if m and _names_all(m["s"], kinds):
        out.append([m["chain"]])
    m = re.fullmatch(
        rf"(?:each|every) node (?:has|will have) an? (?:distinct|unique) value {_RANGE}",
        text,
        flags=re.I,
    )
    if m:
        out.append(["All Node.val are unique", f"Node.val is {_bracket(m['range'])}"])
    m = re.fullmatch(
        r"(?P<w>both (?:of )?the (?:given )?trees|each tree|(?:both|all) trees) (?:will )?"
        rf"(?:have|has|contain) (?P<u>unique |distinct )?(?:node )?values {_RANGE}",
        text,
        flags=re.I,
    )
    trees = set(kinds) == {"tree"}
    if m and trees and (len(kinds) > 1 or m["w"].lower() == "each tree"):
        parts = [f"Node.val is {_bracket(m['range'])}"]
        out.append(["All Node.val are unique", *parts] if m["u"] else parts)
    m = re.fullmatch(
        r"(?P<chain>.*\bNode\.val\b.*) for (?:each|every|all) nodes? in (?P<w>.+)",
        text,
        flags=re.I,
    )
    if m:
        named = re.findall(r"(?:linked )?list|(?:binary )?tree", m["w"], flags=re.I)
        said = sorted("tree" if "tree" in w.lower() else "list" for w in named)
        rest = re.sub(r"(?:linked )?list|(?:binary )?tree|\b(?:the|and|both)\b|,", "", m["w"])
        if said == kinds and not rest.strip():
            out.append([m["chain"]])
    return out


def _bracket(text: str) -> str:
    """``between [-10^4, 10^4]`` (LeetCode's mix of two wordings) is ``in the range [...]``."""
    return re.sub(r"\bbetween (?=\[)", "in the range ", text)


def _names_all(where: str | None, kinds: list[str]) -> bool:
    """``in the linked list`` / ``in the tree`` (or nothing): whether that names every node
    parameter (one of that kind), so ``Node.val`` means the same nodes."""
    if where is None:
        return True
    return kinds == ["tree" if "tree" in where.lower() else "list"]


def _counts(text: str, facts: Facts) -> list[list[str]]:
    out: list[list[str]] = []
    nodes = [p for p in facts.params if p.node]
    one = ("tree" if nodes[0].tree else "list") if len(nodes) == 1 else None
    m = re.fullmatch(
        rf"{_WHERE} (?:will )?(?:contains?|has|have) between (?P<a>\S+) and (?P<b>\S+) nodes",
        text,
        flags=re.I,
    )
    if m:
        out.append([f"The number of nodes in the {m['s']} is in the range [{m['a']}, {m['b']}]"])
    m = re.fullmatch(
        rf"(?:the )?number of (?:the )?nodes(?: in {_WHERE})? {_AT_MOST} (?P<b>.+)",
        text,
        flags=re.I,
    )
    if m and (m["s"] or one):
        where = m["s"] or one
        out.append([f"The number of nodes in the {where} is in the range [0, {m['b']}]"])
    lists = [p.name for p in nodes if not p.tree]
    m = re.fullmatch(rf"{_WHERE} (?:is not|will not be|is never|cannot be) empty", text, re.I)
    if m and "tree" not in m["s"].lower() and len(lists) == 1:
        out.append([f"{lists[0]}.length >= 1"])
    m = re.fullmatch(
        rf"the number of nodes in {_WHERE} is an even (?:integer|number) in the range (?P<r>.+)",
        text,
        flags=re.I,
    )
    if m and "tree" not in m["s"].lower() and len(lists) == 1:
        out.append(
            [
                f"The number of nodes in the {m['s']} is in the range {m['r']}",
                f"{lists[0]}.length is even",
            ]
        )
    return out
