"""A stand-in for the ``lctk`` (LeetCode toolkit) module that Mercury's rows import.

Mercury's ``convert_offline`` / ``evaluate_offline`` sources call ``lctk.binaryTree``,
``lctk.binaryTree2Arr``, ``lctk.linkedList`` and ``lctk.linkedList2Arr``; the same names are
provided here, over the ``TreeNode`` / ``ListNode`` classes that the harness injects, so the
original rows run unchanged. Standard library only: it is imported inside the sandbox.
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
        return f"TreeNode({binaryTree2Arr(self)!r})"


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
    vals = list(arr or [])
    if not vals or vals[0] is None:
        return None
    it = iter(vals)
    root = TreeNode(next(it))
    queue = [root]
    head = 0
    for left in it:
        node = queue[head]
        head += 1
        if left is not None:
            node.left = TreeNode(left)
            queue.append(node.left)
        right = next(it, None)
        if right is not None:
            node.right = TreeNode(right)
            queue.append(node.right)
    return root


def binaryTree2Arr(root: Any) -> list[Any]:
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
