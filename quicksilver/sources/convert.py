"""Mercury's code fields derived from a question's metaData.

LeetCode's metaData names the method, its parameters' types and the return type; from it we write
``convert_offline`` (lists -> TreeNode / ListNode where the signature needs them) and
``evaluate_offline`` (trees and lists back to lists; in-place problems compare the mutated
argument) in the style of the original Mercury rows, using ``lctk``.
"""

from __future__ import annotations

import json
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


# Node types Mercury's rows can carry: (lctk builder, lctk flattener) per node class; a list of
# nodes (``ListNode[]`` / ``list<ListNode>``) converts element-wise. Nothing deeper is supported.
_LCTK = {"TreeNode": ("binaryTree", "binaryTree2Arr"), "ListNode": ("linkedList", "linkedList2Arr")}
NODE_FORMS = {
    form: (node, many)
    for node in _LCTK
    for form, many in ((node, False), (f"{node}[]", True), (f"list<{node}>", True))
}


def _lctk_call(expr: str, t: str, which: int) -> str:
    if t not in NODE_FORMS:
        return expr
    node, many = NODE_FORMS[t]
    fn = f"lctk.{_LCTK[node][which]}"
    return f"[{fn}(x) for x in {expr}]" if many else f"{fn}({expr})"


def _to_node(expr: str, t: str) -> str:
    return _lctk_call(expr, t, 0)


def _from_node(expr: str, t: str) -> str:
    return _lctk_call(expr, t, 1)


def convert_offline_source(sig: Signature) -> str:
    lines = ["def convert_offline(case):", "    import lctk", "    inputs, expected = case"]
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
        got = _from_node("outputs", sig.returns)
    lines = [
        "def evaluate_offline(inputs, outputs, expected):",
        "    import lctk",
        f"    got = {got}",
    ]
    if tuples_as_lists:
        lines += [
            "    def as_lists(x):",
            "        if isinstance(x, (list, tuple)):",
            "            return [as_lists(v) for v in x]",
            "        return x",
            "    got = as_lists(got)",
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


def parse_example_testcase(text: str, n_params: int) -> list[Any]:
    """One exampleTestcaseList entry: the parameters' values, one JSON value per line."""
    lines = [ln for ln in text.split("\n") if ln.strip() != ""]
    if len(lines) != n_params:
        raise ValueError(f"expected {n_params} lines (one per parameter), got {len(lines)}")
    return [json.loads(ln) for ln in lines]
