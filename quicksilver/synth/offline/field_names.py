"""Names the description gives to the fields of a row where it uses another index than ``i``,
or to the items of a list of a fixed length (issue 26).

LeetCode names a second list's row fields with ``j`` (``queries[j] = [row_j, col_j]``,
``edges[j] = [u_j, v_j]``) and the items of a short integer list with no index at all
(``startPos = [start_row, start_col]``, ``newInterval = [start, end]``, ``pricing = [low,
high]``), then bounds those names in the Constraints (``0 <= row_j, col_j < n``, ``0 <=
start_row, start_col < n``). :func:`field_definitions` reads both, so that
:meth:`~.facts.Facts.read_fields` gives each name its owner and position as it does for
``intervals[i] = [start_i, end_i]``:

- a row form with another single-letter index is a row form (its fields, and for integer rows
  the row's length, :func:`other_index_rows`);
- a fixed-length list of integers is one row: each item gets its field's own range, ordered
  pairs (``0 <= start <= end``) hold, and the list is drawn as one row of the rows' runtime
  (``cols`` on a list of one level). Only where a Constraints item fixes the list's length to
  the number of names (:func:`list_width`); otherwise the rows' usual problem is reported.

A name defined twice (two lists calling an item ``row``) means nothing, as for rows.
"""

from __future__ import annotations

import re
from typing import Any

from quicksilver.synth.offline.constraints import Param, Ref, split_top

_NAMES = r"([A-Za-z_]\w*(?:,\s*[A-Za-z_]\w*)+)"
# queries[j] = [row_j, col_j] (i is FIELDS_RE's): each name carries that index
_OTHER_INDEX = re.compile(rf"\b([A-Za-z_]\w*)\[([a-hj-z])\] ?==? ?\[{_NAMES}\]")
# startPos = [start_row, start_col]: not after a dot or a bracket (``x.y = [...]``, ``a[0] = [``)
_WHOLE_LIST = re.compile(rf"(?<![\w.\]\[])([A-Za-z_]\w*) ?==? ?\[{_NAMES}\]")


def other_index_rows(by_name: dict[str, Param], prose: str) -> list[tuple[str, str]]:
    """``queries[j] = [row_j, col_j]``: (the list, the names) for each row form of a list of
    rows whose index is another single letter than ``i`` and whose every name ends with that
    index (``_j``), the way LeetCode writes them; a form whose names do not is not read."""
    out = []
    for m in _OTHER_INDEX.finditer(prose):
        p = by_name.get(m.group(1))
        names = split_top(m.group(3))
        strings = p is not None and p.join and p.depth == 3  # string rows (string_field)
        if p is None or (p.depth != 2 and not strings) or p.tree or p.node:
            continue
        if all(n.endswith("_" + m.group(2)) for n in names):
            out.append((p.name, m.group(3)))
    return out


def whole_list_fields(by_name: dict[str, Param], prose: str) -> list[tuple[str, str]]:
    """``startPos = [start_row, start_col]``: (the list, the names) for a list of integers of
    one level (not a string, a tree or a linked list) defined item by item by names that are
    not parameters. Examples (``Input: nums = [1,2]``) hold numbers, so they never match."""
    out = []
    for m in _WHOLE_LIST.finditer(prose):
        p = by_name.get(m.group(1))
        if p is None or p.depth != 1 or p.leaf != "int" or p.join or p.tree or p.node:
            continue
        names = split_top(m.group(2))
        if any(n in by_name for n in names) or len(set(names)) != len(names):
            continue
        out.append((p.name, m.group(2)))
    return out


def field_definitions(by_name: dict[str, Param], prose: str) -> list[tuple[str, str]]:
    """Both kinds above, for :meth:`~.facts.Facts.read_fields`."""
    return other_index_rows(by_name, prose) + whole_list_fields(by_name, prose)


def _fixed_length(dim: dict[str, Any], quantities: list[dict[str, Any]]) -> int | None:
    """The one length a dimension's quantity may have (its constant bounds meet), or None."""
    if "q" not in dim:
        return None
    bounds = [
        b for item in quantities if item["name"] == dim["q"] for b in item["bounds"] if b["coef"]
    ]
    if any(not isinstance(b["rest"], int) for b in bounds):
        return None
    los = [-(b["rest"] // b["coef"]) for b in bounds if b["coef"] > 0]
    his = [b["rest"] // -b["coef"] for b in bounds if b["coef"] < 0]
    if not los or not his or max(los) != min(his):
        return None
    return max(los)


def list_width(
    p: Param, dims: list[dict[str, Any]], quantities: list[dict[str, Any]], named: int
) -> int | None:
    """The width of a list's rows where a quantity fixes it: the one row a list of integers of
    one level is (``startPos.length == 2`` with ``startPos = [start_row, start_col]``: its
    fixed length, when that is the number of its named items ``named``), or the rows of an
    integer ``[][]`` whose length a chain shares with another's (``redEdges[i].length ==
    blueEdges[j].length == 2``: one quantity, of one value). None otherwise (then the rows'
    problem is reported)."""
    if p.leaf != "int" or p.join or p.tree or len(dims) != p.depth:
        return None
    width = _fixed_length(dims[-1], quantities)
    if p.depth == 1:
        return width if width is not None and width == named and width >= 2 else None
    return width if p.depth == 2 and width else None


def case_twin(params: list[Param], name: str) -> Param | None:
    """The one parameter whose name differs from ``name`` only in case (LeetCode's
    ``arrivaltime`` for ``arrivalTime``), for a name that is no parameter, field or known
    quantity; None when none or several do."""
    found = [p for p in params if p.name != name and p.name.lower() == name.lower()]
    return found[0] if len(found) == 1 else None


def described_length(facts: Any, text: str, line: str, acts: list[Any]) -> bool:
    """``n == nums.length`` where ``nums`` is an array the statement builds from its scalar
    inputs (xor-operation-in-an-array: ``nums[i] = start + 2 * i``; a grid of n rows to paint):
    the line names the length of no input. Read as saying nothing only where no parameter is a
    collection at all, so it cannot be a misspelt input's length, and ``n`` is a parameter whose
    own bounds stay."""
    m = re.fullmatch(r"(\w+) == (\w+)\.length|(\w+)\.length == (\w+)", text.strip())
    if not m:
        return False
    scalar, name = (m[1], m[2]) if m[1] else (m[4], m[3])
    p = facts.by_name.get(scalar)
    if p is None or not p.is_quantity or name in facts.by_name or name in facts.fields:
        return False
    return all(q.is_quantity for q in facts.params)


def named_field(facts: Any, name: str, idx: list[str]) -> Ref | None:
    """``weight[i]`` for the field ``weight_i`` that a row form names (the description's
    ``edges[i] = [from_i, to_i, weight_i]``), and ``weights_i`` for the one field a letter
    apart (``boxes[i] = [ports_i, weight_i]``, names of six letters at least): that field of
    its rows. None when no field is so named."""
    if name in facts.by_name:
        return None
    if len(idx) == 1 and re.fullmatch(r"[a-z]", idx[0].strip()):
        field = f"{name}_{idx[0].strip()}"
        if field in facts.fields:
            owner, col = facts.fields[field]
            return Ref("leaf", params=(owner,), col=col)
        return None
    m = re.fullmatch(r"([A-Za-z]\w*)_([a-z])", name)
    if idx or not m or len(m.group(1)) < 6 or name in facts.fields:
        return None
    near = [
        f for f in facts.fields if f.endswith(f"_{m.group(2)}") and _one_letter(f[:-2], m.group(1))
    ]
    if len(near) != 1:
        return None
    owner, col = facts.fields[near[0]]
    facts.aliases[name] = near[0]
    return Ref("leaf", params=(owner,), col=col)


def _one_letter(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by one letter added or dropped (``weight``, ``weights``)."""
    short, long = sorted((a, b), key=len)
    return len(long) == len(short) + 1 and any(
        long[:k] + long[k + 1 :] == short for k in range(len(long))
    )


def string_field(facts: Any, name: str, suffix: str | None) -> Ref | None:
    """A field of rows of strings (``paths[i] = [cityA_i, cityB_i]``): ``cityA_i.length`` is
    the length of the rows' strings, ``cityA_i`` their characters. The runtime draws every
    string of the rows alike, so a line must say the same of every field of those rows
    (``1 <= cityA_i.length, cityB_i.length <= 10``, or one line per field in the same words):
    :func:`string_fields_problems` checks it. None for any other name."""
    if name not in facts.fields or suffix not in (None, "length", "size"):
        return None
    owner = facts.by_name[facts.fields[name][0]]
    if not (owner.join and owner.depth == 3 and not owner.tree):
        return None
    if suffix is None:
        return Ref("leaf", params=(owner.name,))
    return Ref("q", key=owner.dim_key(2))


def string_fields_problems(facts: Any, lines: list[str]) -> list[str]:
    """The lines that name some fields of rows of strings but not all (in other words than
    for the others): their strings are drawn alike, so what one field's line says must hold
    for every field. A line is compared with the others with each field's name taken out."""
    owners: dict[str, list[str]] = {}
    for f, (owner, _) in facts.fields.items():
        p = facts.by_name[owner]
        if p.join and p.depth == 3 and not p.tree:
            owners.setdefault(owner, []).append(f)
    out = []
    for owner, names in owners.items():
        said: dict[str, set[str]] = {}
        for line in lines:
            found = [f for f in names if re.search(rf"(?<![\w.]){re.escape(f)}(?!\w)", line)]
            if found:
                text = line
                for f in sorted(found, key=len, reverse=True):
                    text = re.sub(rf"(?<![\w.]){re.escape(f)}(?!\w)", "#", text)
                said.setdefault(text, set()).update(found)
        for text, found in said.items():
            if set(found) != set(names):
                out.append(
                    f'"{text}": says of some fields of {owner} what it does not say of all '
                    "(the rows' strings are drawn alike)"
                )
    return out
