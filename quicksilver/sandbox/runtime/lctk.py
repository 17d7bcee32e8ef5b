"""A stand-in for ``lctk`` 0.0.6 (the LeetCode toolkit on PyPI), the module Mercury's rows import.

Mercury's ``convert_offline`` / ``evaluate_offline`` sources call ``lctk.binaryTree``,
``lctk.binaryTree2Arr``, ``lctk.linkedList`` and ``lctk.linkedList2Arr``, and the Mercury
authors' evaluator runs them with the real ``lctk`` 0.0.6 installed. The same names are provided
here, over the ``TreeNode`` / ``ListNode`` classes that the harness injects, and they give what
0.0.6 gives on everything those rows pass them, so an original row judges a solution here as it
does there (``tests/test_lctk.py`` compares the two on the same values). Where 0.0.6 differs from
LeetCode, so does this module, on purpose:

- ``binaryTree2Arr`` drops every trailing *falsy* value, not only trailing ``None``: 0.0.6 ends
  with ``while res and not res[-1]: res.pop()``, so a tree whose last value in level order is 0
  comes out without it (``[1, 0]`` -> ``[1]``). The Mercury rows' expected trees were written by
  that function, so an exact flattening here would fail correct solutions on them;
- ``binaryTree`` builds a root whose value is ``None`` from a list that starts with ``None``
  (only an empty list, or ``None``, is no tree), and ignores values left over once every node
  has its children.

Quicksilver's own rows do not depend on either: they carry an exact LeetCode flattening inline
(quicksilver/sources/convert.py). Kept from before, where 0.0.6 would fail or hang: any iterable
is accepted, ``linkedList(None)`` is an empty list, the node classes take LeetCode's
``(val, next)`` / ``(val, left, right)`` defaults, and a cyclic linked list raises instead of
printing. Standard library only: it is imported inside the sandbox.
"""

from __future__ import annotations

from typing import Any


class ListNode:
    def __init__(self, val: Any = 0, next: Any = None) -> None:
        self.val = val
        self.next = next

    def __repr__(self) -> str:
        return f"ListNode({linkedList2Arr(self)!r})"


class TreeNode:
    def __init__(self, val: Any = 0, left: Any = None, right: Any = None) -> None:
        self.val = val
        self.left = left
        self.right = right

    def __repr__(self) -> str:
        return f"TreeNode({_level_order(self)!r})"


def linkedList(arr: Any) -> ListNode | None:
    head = None
    for val in reversed(list(arr or [])):
        head = ListNode(val, head)
    return head


def linkedList2Arr(head: Any, limit: int = 10_000_000) -> list[Any]:
    out = []
    seen = set()
    while head is not None:
        if id(head) in seen or len(out) >= limit:
            raise ValueError("linked list has a cycle or is too long")
        seen.add(id(head))
        out.append(head.val)
        head = head.next
    return out


def printLinkedList(head: Any) -> list[Any]:
    return linkedList2Arr(head)


def binaryTree(arr: Any) -> TreeNode | None:
    """LeetCode's level order to a tree, as lctk 0.0.6 reads it (module docstring)."""
    vals = list(arr or [])
    if not vals:
        return None
    root = TreeNode(vals[0])
    queue = [root]
    head = 0
    i = 1
    while head < len(queue) and i < len(vals):
        node = queue[head]
        head += 1
        if vals[i] is not None:
            node.left = TreeNode(vals[i])
            queue.append(node.left)
        i += 1
        if i < len(vals):
            if vals[i] is not None:
                node.right = TreeNode(vals[i])
                queue.append(node.right)
            i += 1
    return root


def _level_order(root: Any) -> list[Any]:
    """LeetCode's own form: children of every node, trailing ``None`` dropped."""
    out: list[Any] = []
    queue = [root]
    i = 0
    while i < len(queue):
        node = queue[i]
        i += 1
        if node is None:
            out.append(None)
            continue
        out.append(node.val)
        queue.append(node.left)
        queue.append(node.right)
    while out and out[-1] is None:
        out.pop()
    return out


def binaryTree2Arr(root: Any) -> list[Any]:
    """A tree to a list as lctk 0.0.6 writes it: LeetCode's level order with every trailing
    falsy value dropped, a last 0 included (module docstring)."""
    out = _level_order(root)
    while out and not out[-1]:
        out.pop()
    return out
