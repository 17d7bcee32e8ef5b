"""What the description says about rows whose fields :mod:`~.field_names` names (issue 26).

A row form with another index (``edges[j] = [u_j, v_j] represents an edge between nodes u_j and
v_j in the tree``) often carries the rows' structure in the same sentence, and a field's
uniqueness is said in the prose as well (``Each roomId_i is guaranteed to be unique``). Before
those names were read the question was refused anyway; now that its rows are drawn, each such
sentence is read as the Constraints item it restates, or reported:

- a sentence holding the row form ``X[j] = [...]`` of a list that says ``tree``, or ``X[i] =
  [...]`` of a list of integer rows that says ``edge`` and ``tree`` (no query, no forest): read
  as ``X represents a valid tree`` (the rows a random tree's edges);
- ``<field> is guaranteed to be unique`` (``distinct``), of a field of rows: read as ``All
  <field> are distinct``.
"""

from __future__ import annotations

import re

from quicksilver.synth.offline.facts import Facts
from quicksilver.synth.offline.field_names import other_index_rows
from quicksilver.synth.offline.sentences import LineReader

_UNIQUE_FIELD = re.compile(
    r"(?:each |every |all (?:the )?)?(?P<f>[A-Za-z_]\w*) (?:is|are) (?:also )?guaranteed to be "
    r"(?:unique|distinct)",
    flags=re.I,
)


def _reads(facts: Facts, line: str) -> bool:
    """Whether the Constraints reader reads ``line`` whole (its facts are then applied)."""
    found: list[str] = []
    LineReader(facts, found).read(line)
    return not found


def _tree_edges(facts: Facts, sentence: str, done: set[str]) -> list[str]:
    """The lists of integer rows whose row form ``X[i] = [...]`` this sentence gives as the
    edges of a tree (``The edges of the undirected tree are given in the array edges, where
    edges[i] = [a_i, b_i] ...``, ``edges[i] = [a_i, b_i] indicates that there is an edge
    between nodes a_i and b_i in the tree``). The words edge and tree must both be there, and no
    query: ``queries[i] = [u_i, v_i] asks for the path in the tree`` is no edge list. Before,
    such rows were drawn as any pairs of nodes, which the statement rules out."""
    if not (re.search(r"\btrees?\b", sentence, re.I) and re.search(r"\bedges?\b", sentence, re.I)):
        return []
    if re.search(r"\bquer(?:y|ies)\b|\bforest\b", sentence, re.I):
        return []
    return [
        name
        for name, p in sorted(facts.by_name.items())
        if name not in done
        and p.depth == 2
        and p.leaf == "int"
        and re.search(rf"\b{re.escape(name)}\[i\] ?==? ?\[", sentence)
    ]


def described_rows(
    facts: Facts, prose: str, sentences: list[str], problems: list[str], notes: list[str]
) -> None:
    """Reads the sentences above into ``facts``, or appends them to ``problems`` quoted."""
    owners = {owner for owner, _ in other_index_rows(facts.by_name, prose)}
    for sentence in sentences:
        trees = [
            name
            for name in sorted(owners)
            if re.search(rf"\b{re.escape(name)}\[[a-hj-z]\] ?==? ?\[", sentence)
            and re.search(r"\btrees?\b", sentence, flags=re.I)
        ]
        for name in trees + _tree_edges(facts, sentence, owners):
            if _reads(facts, f"{name} represents a valid tree"):
                notes.append(f'{name}: the edges of a tree, as the description says ("{sentence}")')
            else:
                problems.append(f'"{sentence}": rows that are a tree\'s edges, not read')
        m = _UNIQUE_FIELD.fullmatch(sentence)
        if m and m["f"] in facts.fields:
            if _reads(facts, f"All {m['f']} are distinct"):
                notes.append(f'{m["f"]}: distinct, as the description says ("{sentence}")')
            else:
                problems.append(f'"{sentence}": distinct values of a field, not read')
