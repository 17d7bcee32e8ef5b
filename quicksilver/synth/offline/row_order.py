"""An order or a difference between one field of consecutive rows (issue 26):
``position_i < position_i+1`` and ``leaveTime_i are sorted in a strictly increasing order`` (the
rows sorted by that field, its values distinct when the order is strict), ``id_i != id_i+1``
(no row's field equal to the one before it). Read by :class:`~.sentences.LineReader`.

The runtime draws the rows as before, then sorts them by the field (whole rows, so the relations
within a row and unique rows still hold), then draws again a field equal to the row before's.
"""

from __future__ import annotations

import re
from functools import partial
from typing import Any

from quicksilver.synth.offline.comparisons import Acts, Comparisons
from quicksilver.synth.offline.constraints import Ref, Unsupported
from quicksilver.synth.offline.facts import Facts, LeafInfo

_NEXT = r"(?:i ?\+ ?1|\(i ?\+ ?1\)|\{i ?\+ ?1\})"
_PREV = r"(?:i ?- ?1|\(i ?- ?1\)|\{i ?- ?1\})"


def field_neighbours(facts: Facts, cmp: Comparisons, text: str, line: str, acts: Acts) -> bool:
    """``1 <= position_i < position_i+1 < target``, ``id_i != id_i+1``: an order between a field
    of each row and the same field of the next row (the rows sorted by it), or a difference."""
    m = re.fullmatch(
        r"(?:(?P<lo>[^<>=!]+?) (?P<lop><=|<) )?(?P<f>(?P<base>[A-Za-z]\w*)_i) "
        rf"(?P<op><=|<|>=|>|!=) (?P=base)_{_NEXT}(?: (?P<hop><=|<) (?P<hi>[^<>=!,]+?))?",
        text,
    ) or re.fullmatch(  # "position_i-1 < position_i for any i > 0 (0-indexed)"
        rf"(?P<base>[A-Za-z]\w*)_{_PREV} (?P<op><=|<|>=|>|!=) (?P<f>(?P=base)_i)"
        r"(?:,? for (?:all|any|each|every) i(?: > 0| >= 1)?(?: \(0-indexed\))?)?",
        text,
    )
    if not m or m["f"] not in facts.fields:
        return False
    owner, col = facts.fields[m["f"]]
    got = m.groupdict()
    if got.get("lo"):
        cmp.chain(f"{m['lo']} {m['lop']} {m['f']}", acts, line)
    if got.get("hi"):
        cmp.chain(f"{m['f']} {m['hop']} {m['hi']}", acts, line)
    info = facts.leaf[owner]
    if m["op"] == "!=":
        acts.append(partial(info.apart_cols.__setitem__, col, line))
        return True
    order = {"<": ("asc", True), "<=": ("asc", False), ">": ("desc", True)}
    _sort_by(info, col, *order.get(m["op"], ("desc", False)), line, acts)
    return True


def rows_sorted_by(
    facts: Facts, text: str, line: str, acts: Acts, words: dict[str, tuple[str, bool]]
) -> bool:
    """``buildings is sorted by left_i in non-decreasing order``, ``events is sorted in
    increasing order of time_i``: the rows sorted by one of their fields (``words``: the order
    words, as sortedness reads them)."""
    alts = "|".join(sorted((re.escape(w) for w in words), key=len, reverse=True))
    m = re.fullmatch(
        r"(?:the input is generated such that )?(?P<x>\w+) is sorted (?:by (?P<f>\w+) )?"
        rf"in (?:an? )?(?P<o>{alts}) order(?: of (?P<g>\w+))?",
        text,
        flags=re.I,
    )
    name = (m["f"] or m["g"]) if m and bool(m["f"]) != bool(m["g"]) else None
    if not m or name not in facts.fields:
        return False
    owner, col = facts.fields[name]
    if owner != m["x"]:
        raise Unsupported(f"{m['x']} sorted by {name}, a field of another list")
    direction, strict = words[m["o"].lower()]
    _sort_by(facts.leaf[owner], col, direction, strict, line, acts)
    return True


def sorted_field(
    facts: Facts, ref: Ref, direction: str, strict: bool, line: str, acts: Acts
) -> None:
    """``leaveTime_i are sorted in a strictly increasing order``: the rows sorted by a field."""
    if len(ref.params) != 1:
        raise Unsupported("sortedness of a field of several lists")
    _sort_by(facts.leaf[ref.params[0]], ref.col, direction, strict, line, acts)


def _sort_by(info: LeafInfo, col: int, direction: str, strict: bool, line: str, acts: Acts) -> None:
    def act() -> None:
        if info.sorted_col is not None and info.sorted_col[:2] != (col, direction):
            raise Unsupported("the rows sorted by two fields")
        info.sorted_col = (col, direction, line)
        if strict:
            info.distinct_cols.setdefault(col, line)

    acts.append(act)


def row_order_spec(info: LeafInfo, out: dict[str, Any], problems: list[str]) -> None:
    """``sorted_col`` ([field, "asc" | "desc"]) and ``apart_cols`` on a rows spec, or the
    problems that stop them: rows of a tree or graph (drawn by their own code), a field apart
    that a pair or unique rows would have to keep."""
    special = out.get("tree_edges") or out.get("graph")
    if info.sorted_col is not None:
        col, direction, line = info.sorted_col
        if special or col >= len(out["cols"]):
            problems.append(f'"{line}": rows sorted by a field, in rows drawn otherwise')
        out["sorted_col"] = [col, direction]
    if info.apart_cols:
        for col, line in sorted(info.apart_cols.items()):
            paired = any(col in (a, b) for a, b, _ in out.get("pairs", ()))
            # the sorted field itself: drawing it again would undo the order
            paired = paired or (info.sorted_col is not None and info.sorted_col[0] == col)
            if special or paired or out.get("unique_rows") or col >= len(out["cols"]):
                problems.append(
                    f'"{line}": a field apart from the row before, in rows with other rules on it'
                )
            leaf = out["cols"][col] if col < len(out["cols"]) else {}
            if leaf.get("type") != "int" or "set" in leaf or leaf.get("ne"):
                problems.append(f'"{line}": a field apart from the row before, not in a range')
        out["apart_cols"] = sorted(info.apart_cols)
