"""Tests for the sandbox's lctk stand-in: LeetCode trees and linked lists to and from lists."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

import quicksilver

_LCTK_PATH = Path(quicksilver.__file__).parent / "sandbox" / "runtime" / "lctk.py"
_spec = importlib.util.spec_from_file_location("lctk_under_test", _LCTK_PATH)
assert _spec is not None and _spec.loader is not None
lctk = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lctk)


LEETCODE_TREES = [
    [1, 2, 3, None, 4],
    [3, 9, 20, None, None, 15, 7],
    [1, None, 2],
    [1, None, 2, 3],
    [5, 4, 8, 11, None, 13, 4, 7, 2, None, None, None, 1],
    [1],
    [0, 0, 0],
    [-10, -3, 9, -10, None, 5],
]


@pytest.mark.parametrize("arr", LEETCODE_TREES)
def test_binary_tree_round_trip(arr: list[Any]) -> None:
    root = lctk.binaryTree(arr)
    assert type(root) is lctk.TreeNode
    assert lctk.binaryTree2Arr(root) == arr


def test_binary_tree_shape() -> None:
    root = lctk.binaryTree([1, 2, 3, None, 4])
    assert root.val == 1
    assert root.left.val == 2 and root.right.val == 3
    assert root.left.left is None
    assert root.left.right.val == 4
    assert root.left.right.left is None and root.left.right.right is None
    assert root.right.left is None and root.right.right is None


def test_binary_tree_skips_children_of_null_nodes() -> None:
    # [1, None, 2, 3]: 3 is the left child of 2, not of the missing left child of 1.
    root = lctk.binaryTree([1, None, 2, 3])
    assert root.left is None
    assert root.right.val == 2
    assert root.right.left.val == 3
    assert root.right.right is None


@pytest.mark.parametrize("arr", [[], None, [None], (), [None, 1, 2]])
def test_empty_tree(arr: Any) -> None:
    assert lctk.binaryTree(arr) is None


def test_binary_tree2arr_of_none_is_empty() -> None:
    assert lctk.binaryTree2Arr(None) == []


def test_trailing_nulls_are_trimmed() -> None:
    assert lctk.binaryTree2Arr(lctk.binaryTree([1, 2, None, None, None])) == [1, 2]
    assert lctk.binaryTree2Arr(lctk.binaryTree([1, None, None])) == [1]
    hand = lctk.TreeNode(1, lctk.TreeNode(2), None)
    assert lctk.binaryTree2Arr(hand) == [1, 2]
    hand = lctk.TreeNode(1, None, lctk.TreeNode(2, None, lctk.TreeNode(3)))
    assert lctk.binaryTree2Arr(hand) == [1, None, 2, None, 3]


def test_binary_tree_accepts_any_iterable() -> None:
    assert lctk.binaryTree2Arr(lctk.binaryTree((1, 2, 3))) == [1, 2, 3]
    assert lctk.binaryTree2Arr(lctk.binaryTree(iter([4, None, 5]))) == [4, None, 5]


def test_tree_node_defaults_and_repr() -> None:
    node = lctk.TreeNode()
    assert (node.val, node.left, node.right) == (0, None, None)
    assert repr(lctk.binaryTree([1, None, 2])) == "TreeNode([1, None, 2])"


@pytest.mark.parametrize("arr", [[1, 2, 3], [1], [], [0, 0, -1], ["a", None, 2.5]])
def test_linked_list_round_trip(arr: list[Any]) -> None:
    head = lctk.linkedList(arr)
    if arr:
        assert type(head) is lctk.ListNode
    else:
        assert head is None
    assert lctk.linkedList2Arr(head) == arr
    assert lctk.printLinkedList(head) == arr


def test_linked_list_shape() -> None:
    head = lctk.linkedList([7, 8, 9])
    assert head.val == 7
    assert head.next.val == 8
    assert head.next.next.val == 9
    assert head.next.next.next is None


def test_linked_list_of_none_and_iterables() -> None:
    assert lctk.linkedList(None) is None
    assert lctk.linkedList2Arr(None) == []
    assert lctk.linkedList2Arr(lctk.linkedList(range(4))) == [0, 1, 2, 3]
    assert lctk.linkedList2Arr(lctk.linkedList((5, 6))) == [5, 6]


def test_list_node_defaults_and_repr() -> None:
    node = lctk.ListNode()
    assert (node.val, node.next) == (0, None)
    assert repr(lctk.linkedList([1, 2])) == "ListNode([1, 2])"


def test_cyclic_linked_list_raises() -> None:
    head = lctk.linkedList([1, 2, 3, 4])
    head.next.next.next.next = head.next
    with pytest.raises(ValueError, match="cycle"):
        lctk.linkedList2Arr(head)
    with pytest.raises(ValueError, match="cycle"):
        lctk.printLinkedList(head)


def test_self_loop_raises() -> None:
    node = lctk.ListNode(1)
    node.next = node
    with pytest.raises(ValueError, match="linked list has a cycle or is too long"):
        lctk.linkedList2Arr(node)


def test_linked_list_limit() -> None:
    head = lctk.linkedList([1, 2, 3])
    assert lctk.linkedList2Arr(head, limit=3) == [1, 2, 3]
    with pytest.raises(ValueError, match="too long"):
        lctk.linkedList2Arr(head, limit=2)
