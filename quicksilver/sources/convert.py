"""Mercury's code fields derived from a question's metaData.

LeetCode's metaData names the method, its parameters' types and the return type; from it we write
``convert_offline`` (lists -> TreeNode / ListNode where the signature needs them) and
``evaluate_offline`` (trees and lists back to lists; in-place problems compare the mutated
argument) in the style of the original Mercury rows.

The sources run wherever the row is judged: in Quicksilver's sandbox and in the Mercury authors'
evaluator, which imports the real ``lctk`` 0.0.6. Linked lists go through ``lctk`` as in
Mercury's rows (0.0.6 and the sandbox's stand-in agree on every list a judge meets). Trees do
not: 0.0.6's ``binaryTree2Arr`` drops every trailing falsy value, so a tree whose last value is 0
would be compared without it, and a wrong answer missing that leaf would pass. A row with a tree
therefore carries its own two helpers, defined inside the function (nothing is added to the
solution's namespace): ``tree`` (LeetCode's level order -> nodes of the ``TreeNode`` class the
evaluator injects) and ``tree_list`` (a tree -> LeetCode's level order, only trailing nulls
dropped), the form LeetCode prints and the sandbox's serialiser writes expected outputs in.
"""

from __future__ import annotations

import json
import textwrap
from dataclasses import dataclass
from typing import Any

SUPPORTED_SCALARS = {
    "integer",
    "long",
    "double",
    "boolean",
    "string",
    "character",
    "void",
}
SUPPORTED_NODES = {"TreeNode", "ListNode"}


@dataclass(frozen=True)
class Signature:
    name: str
    params: list[tuple[str, str]]  # (name, LeetCode type)
    returns: str
    output_param: int | None  # in-place problems: the argument that holds the answer

    @property
    def types(self) -> list[str]:
        return [t for _, t in self.params] + [self.returns]


class UnsupportedSignature(ValueError):
    """metaData that Mercury's format cannot express (design problems, other node types)."""


def base_type(t: str) -> str:
    t = t.strip()
    while True:
        if t.endswith("[]"):
            t = t[:-2]
        elif t.startswith("list<") and t.endswith(">"):
            t = t[5:-1]
        else:
            return t


def parse_signature(meta: dict[str, Any] | str) -> Signature:
    if isinstance(meta, str):
        meta = json.loads(meta)
    if not isinstance(meta, dict) or "name" not in meta:
        if isinstance(meta, dict) and meta.get("systemdesign"):
            raise UnsupportedSignature("a design problem (class with several methods)")
        raise UnsupportedSignature("metaData has no method name")
    params = [(str(p["name"]), str(p["type"])) for p in meta.get("params", [])]
    returns = str((meta.get("return") or {}).get("type", "void"))
    output = meta.get("output") or {}
    idx = output.get("paramindex")
    sig = Signature(str(meta["name"]), params, returns, int(idx) if idx is not None else None)
    bad = [
        t
        for t in sig.types
        if base_type(t) not in SUPPORTED_SCALARS | SUPPORTED_NODES
        or (base_type(t) in SUPPORTED_NODES and t not in NODE_FORMS)  # nested node lists
    ]
    if bad:
        raise UnsupportedSignature(f"unsupported type(s): {', '.join(sorted(set(bad)))}")
    return sig


# Node types Mercury's rows can carry: (builder, flattener) per node class, ``lctk``'s for linked
# lists and the row's own helpers for trees (module docstring); a list of nodes
# (``ListNode[]`` / ``list<ListNode>``) converts element-wise. Nothing deeper is supported.
_CONVERTERS = {
    "TreeNode": ("tree", "tree_list"),
    "ListNode": ("lctk.linkedList", "lctk.linkedList2Arr"),
}
NODE_FORMS = {
    form: (node, many)
    for node in _CONVERTERS
    for form, many in ((node, False), (f"{node}[]", True), (f"list<{node}>", True))
}

# The helpers a row with trees carries, as lines of a function body.
TREE_FROM_LIST = """\
    def tree(vals):
        # LeetCode's level order (children of every node in turn, None for none) -> TreeNode
        if not vals or vals[0] is None:
            return None
        root = TreeNode(vals[0])
        queue, head, i = [root], 0, 1
        while head < len(queue) and i < len(vals):
            node = queue[head]
            head += 1
            if vals[i] is not None:
                node.left = TreeNode(vals[i])
                queue.append(node.left)
            if i + 1 < len(vals) and vals[i + 1] is not None:
                node.right = TreeNode(vals[i + 1])
                queue.append(node.right)
            i += 2
        return root
"""
TREE_TO_LIST = """\
    def tree_list(root):
        # a tree -> LeetCode's level order: trailing None dropped, a last 0 kept
        out, queue, seen, i = [], [root], set(), 0
        while i < len(queue):
            node = queue[i]
            i += 1
            if node is None:
                out.append(None)
                continue
            if id(node) in seen:
                raise ValueError("not a tree: a node is reached twice")
            seen.add(id(node))
            out.append(node.val)
            queue.append(node.left)
            queue.append(node.right)
        while out and out[-1] is None:
            out.pop()
        return out
"""
_TREE_HELPERS = (TREE_FROM_LIST, TREE_TO_LIST)
# A list answer returned lazily, or as a tuple or a set at a list level (LeetCode's driver
# iterates the value and writes a list): made a list before it is compared, at every list level
# the declared type has. The sandbox's harness does the same inside the measured call
# (harness._LAZY); a row carries it so that the Mercury authors' evaluator, which hands
# ``evaluate_offline`` the raw return value, agrees.
LAZY_TYPES = (
    "map", "filter", "zip", "range", "reversed", "enumerate",
    "type(iter([]))", "type(iter(()))", "type(iter(''))", "type(iter(range(0)))",
    "type((x for x in ()))", "type({}.keys())", "type({}.values())", "type({}.items())",
    "itertools.accumulate", "itertools.chain", "itertools.islice", "itertools.starmap",
    "itertools.compress", "itertools.takewhile", "itertools.dropwhile", "itertools.filterfalse",
    "itertools.zip_longest", "itertools.product", "itertools.permutations",
    "itertools.combinations", "itertools.combinations_with_replacement", "itertools.repeat",
    "itertools.count", "itertools.cycle",
)  # fmt: skip
LAZY_TO_LIST = (
    "    import itertools\n"
    + "    lazy = {\n"
    + "\n".join(textwrap.wrap(", ".join(LAZY_TYPES) + ",", 88, initial_indent=" " * 8,
                              subsequent_indent=" " * 8, break_on_hyphens=False))
    + "\n    }\n"
    + "    def as_list(x, depth):\n"
    + "        # LeetCode's driver writes any of these where a list is declared, in its order\n"
    + "        if type(x) in lazy or isinstance(x, (tuple, set, frozenset)):\n"
    + "            x = list(x)\n"
    + "        if depth > 1 and isinstance(x, list):\n"
    + "            return [as_list(v, depth - 1) for v in x]\n"
    + "        return x\n"
    + "    outputs = as_list(outputs, {depth})\n"
)  # fmt: skip


def list_depth(t: str) -> int:
    """How many list levels the LeetCode type ``t`` has (``integer[][]``: 2)."""
    t, depth = t.strip(), 0
    while True:
        if t.endswith("[]"):
            t, depth = t[:-2], depth + 1
        elif t.startswith("list<") and t.endswith(">"):
            t, depth = t[5:-1], depth + 1
        else:
            return depth


def _convert(expr: str, t: str, which: int) -> str:
    if t not in NODE_FORMS:
        return expr
    node, many = NODE_FORMS[t]
    fn = _CONVERTERS[node][which]
    return f"[{fn}(x) for x in {expr}]" if many else f"{fn}({expr})"


def _to_node(expr: str, t: str) -> str:
    return _convert(expr, t, 0)


def _from_node(expr: str, t: str) -> str:
    return _convert(expr, t, 1)


def _tree_helper(t: str, which: int) -> list[str]:
    """The helper a value of type ``t`` needs in the function body (trees only)."""
    if t in NODE_FORMS and NODE_FORMS[t][0] == "TreeNode":
        return _TREE_HELPERS[which].splitlines()
    return []


def convert_offline_source(sig: Signature) -> str:
    lines = ["def convert_offline(case):", "    import lctk"]
    if any(_tree_helper(t, 0) for _, t in sig.params):
        lines += TREE_FROM_LIST.splitlines()
    lines.append("    inputs, expected = case")
    if any(base_type(t) in SUPPORTED_NODES for _, t in sig.params):
        lines.append("    inputs = list(inputs)")
        for i, (_, t) in enumerate(sig.params):
            if base_type(t) in SUPPORTED_NODES:
                lines.append(f"    inputs[{i}] = {_to_node(f'inputs[{i}]', t)}")
    lines.append("    return inputs, expected")
    return "\n".join(lines) + "\n"


def evaluate_offline_source(
    sig: Signature, *, any_order: bool = False, tuples_as_lists: bool = False
) -> str:
    """``any_order``: the answer is a list whose order does not matter (compared sorted).
    ``tuples_as_lists``: a tuple answer compares as the list it is published as (function-style
    tasks: HumanEval's functions return tuples, the expected outputs are JSON lists)."""
    if sig.output_param is not None:
        t = sig.params[sig.output_param][1]
        got = _from_node(f"inputs[{sig.output_param}]", t)
    else:
        t = sig.returns
        got = _from_node("outputs", t)
    lines = [
        "def evaluate_offline(inputs, outputs, expected):",
        "    import lctk",
        *_tree_helper(t, 1),
    ]
    if sig.output_param is None and base_type(t) != t and not tuples_as_lists:
        lines += LAZY_TO_LIST.replace("{depth}", str(list_depth(t))).splitlines()
    lines.append(f"    got = {got}")
    if tuples_as_lists:
        lines += [
            "    def as_lists(x):",
            "        if isinstance(x, (list, tuple)):",
            "            return [as_lists(v) for v in x]",
            "        return x",
            "    got = as_lists(got)",
        ]
    if base_type(t) == "boolean" and not tuples_as_lists:
        # LeetCode's driver reads a boolean answer by its truth value (judged_answer)
        lines += [
            "    def truth(x):",
            "        if isinstance(x, (list, tuple)):",
            "            return [truth(v) for v in x]",
            "        return bool(x) if x is None or isinstance(x, int) else x",
            "    got = truth(got)",
        ]
    if sig.returns == "double":
        lines += [
            "    if isinstance(got, (int, float)) and isinstance(expected, (int, float)):",
            "        return abs(got - expected) <= 1e-5 * max(1.0, abs(expected))",
        ]
    if any_order:
        lines += [
            "    def norm(x):",
            "        if isinstance(x, (list, tuple)):",
            "            return sorted((norm(v) for v in x), key=repr)",
            "        return x",
            "    return norm(got) == norm(expected)",
        ]
    else:
        lines.append("    return got == expected")
    return "\n".join(lines) + "\n"


def judged_answer(value: Any, leetcode_type: str, *, leetcode: bool = True) -> Any:
    """An answer as LeetCode's judge reads it for the declared type (docs/uniqueness.md, "How
    answers are compared"): an empty tree or list (None) is ``[]``; for ``boolean`` (at any list
    depth) an int or None is read by its truth value, as LeetCode's driver does (accepted
    solutions return ``num == 0 or num % 10`` for a boolean). Anything else is left as it is:
    a float for an ``integer`` compares by value (``2.0 == 2``, as Python's ``==`` and the Mercury
    evaluator do), a bool is never an integer, a string never a character list. ``leetcode``
    False (function-style tasks, HumanEval's): booleans compare as Python's ``==`` does."""
    t = leetcode_type.strip()
    if t in ("TreeNode", "ListNode"):
        return [] if value is None else value
    if t in ("TreeNode[]", "ListNode[]", "list<TreeNode>", "list<ListNode>") and isinstance(
        value, list
    ):
        return [[] if v is None else v for v in value]
    if leetcode and base_type(t) == "boolean":
        return _truth(value)
    return value


def _truth(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return [_truth(v) for v in value]
    if value is None or isinstance(value, int):
        return bool(value)
    return value


def parse_example_testcase(text: str, n_params: int) -> list[Any]:
    """One exampleTestcaseList entry: the parameters' values, one JSON value per line."""
    lines = [ln for ln in text.split("\n") if ln.strip() != ""]
    if len(lines) != n_params:
        raise ValueError(f"expected {n_params} lines (one per parameter), got {len(lines)}")
    return [json.loads(ln) for ln in lines]
