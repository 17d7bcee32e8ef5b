"""A binary tree's shape stated in words (issue 26): ``The tree is guaranteed to be complete``,
``root is a perfect binary tree``. Read by :class:`~.sentences.LineReader` into the tree's
facts, written as the spec's ``"tree_shape"`` (``"complete"`` | ``"perfect"``), drawn by
:mod:`~.runtime_trees` and checked by :mod:`~.checker_trees`.

A complete tree of n nodes is the only shape whose LeetCode level-order list holds no ``None``
(every level full but the last, filled from the left), so it is drawn for any node count. A
perfect tree (every level full) has 2^k - 1 nodes: the runtime keeps the largest such count not
above the one drawn. That is exact only when nothing else depends on the count (no other bound,
argument or length names it) and its least value is at most 1, so that rounding down never
leaves its range; otherwise the line is reported. A shape together with a stated least depth or
a shape said of something that is not one tree parameter is reported too. Not read:
``Every node has either 0 or 2 children`` (a full tree, with rules on the leaves' values where
LeetCode states it), the description's ``Given the root of a complete binary tree`` alone.
"""

from __future__ import annotations

import json
import re
from functools import partial
from typing import Any

from quicksilver.synth.offline.comparisons import Acts
from quicksilver.synth.offline.constraints import Param, Unsupported
from quicksilver.synth.offline.facts import Facts, LeafInfo

_SHAPE = re.compile(
    r"(?:it is guaranteed that )?(?P<t>the (?:given )?(?:binary )?tree|[A-Za-z_]\w*) "
    r"(?:is|will be) (?:guaranteed to be |always )?(?:an? )?(?P<k>complete|perfect)"
    r"(?: binary tree| tree)?",
    flags=re.I,
)


def tree_shape(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """``The tree is guaranteed to be complete``, ``root is a perfect binary tree``: the one
    tree parameter named (or ``the tree``) gets the shape."""
    m = _SHAPE.fullmatch(text)
    if not m:
        return False
    target = m["t"]
    if target in facts.by_name:
        names = [target]
    elif target.lower().startswith("the "):
        names = facts.structure_params(target)
    else:
        return False
    p = facts.by_name[names[0]]
    if len(names) != 1 or not p.tree:
        raise Unsupported(f"a {m['k'].lower()} tree, but {target} is not one tree parameter")
    acts.append(partial(setattr, facts.leaf[p.name], "tree_shape", (m["k"].lower(), line)))
    return True


def tree_shape_spec(
    p: Param,
    info: LeafInfo,
    out: dict[str, Any],
    facts: Facts,
    classes: dict[str, str],
    quantities: list[dict[str, Any]],
    problems: list[str],
) -> None:
    """Writes ``out["tree_shape"]``, or reports why the shape cannot be drawn exactly
    (``classes``: quantity keys to their classes; ``quantities``: the schedule's)."""
    assert info.tree_shape is not None
    shape, line = info.tree_shape
    out["tree_shape"] = shape
    if shape != "perfect":
        return
    count = out["dims"][0].get("q")
    item = next((i for i in quantities if i["name"] == count), None)
    others = [json.dumps(i) for i in quantities if i is not item]
    shared = [
        o.name
        for o in facts.params
        if o is not p
        and (
            classes.get(o.name) == count
            or any(classes.get(o.dim_key(d), o.dim_key(d)) == count for d in range(o.depth))
        )
    ]
    bounds = item["bounds"] if item else []
    los = [
        -(b["rest"] // b["coef"]) for b in bounds if b["coef"] > 0 and isinstance(b["rest"], int)
    ]
    if (
        item is None
        or shared
        or any(not isinstance(b["rest"], int) for b in bounds)
        or any(f'"{count}"' in text for text in others)
        or max(los, default=0) > 1
    ):
        problems.append(
            f'"{line}": a perfect tree whose node count is bounded by constants only, at least '
            "1 at most, and named by nothing else"
        )
