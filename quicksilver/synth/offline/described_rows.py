"""What the description says about rows whose fields :mod:`~.field_names` names (issue 26).

A row form with another index (``edges[j] = [u_j, v_j] represents an edge between nodes u_j and
v_j in the tree``) often carries the rows' structure in the same sentence, and a field's
uniqueness is said in the prose as well (``Each roomId_i is guaranteed to be unique``). Before
those names were read the question was refused anyway; now that its rows are drawn, each such
sentence is read as the Constraints item it restates, or reported:

- a sentence holding the row form ``X[j] = [...]`` of a list that says ``tree``: read as ``X
  represents a valid tree`` (the rows a random tree's edges);
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


def described_rows(
    facts: Facts, prose: str, sentences: list[str], problems: list[str], notes: list[str]
) -> None:
    """Reads the sentences above into ``facts``, or appends them to ``problems`` quoted."""
    owners = {owner for owner, _ in other_index_rows(facts.by_name, prose)}
    for sentence in sentences:
        for name in sorted(owners):
            form = re.search(rf"\b{re.escape(name)}\[[a-hj-z]\] ?==? ?\[", sentence)
            if not form or not re.search(r"\btrees?\b", sentence, flags=re.I):
                continue
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
