"""Tests for the sandbox's lctk stand-in: LeetCode trees and linked lists to and from lists, as
the real lctk 0.0.6 (a test dependency) makes them."""

from __future__ import annotations

import importlib.util
import random
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
    [0, 0, 1],
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


@pytest.mark.parametrize("arr", [[], None, ()])
def test_empty_tree(arr: Any) -> None:
    assert lctk.binaryTree(arr) is None


def test_a_leading_null_is_a_root_without_a_value() -> None:
    # lctk 0.0.6: only an empty list is no tree
    root = lctk.binaryTree([None, 1, 2])
    assert root.val is None and root.left.val == 1 and root.right.val == 2
    assert lctk.binaryTree2Arr(lctk.binaryTree([None])) == []


def test_values_beyond_the_last_node_are_ignored() -> None:
    root = lctk.binaryTree([1, None, None, 7])
    assert (root.val, root.left, root.right) == (1, None, None)


def test_binary_tree2arr_of_none_is_empty() -> None:
    assert lctk.binaryTree2Arr(None) == []


def test_trailing_nulls_are_trimmed() -> None:
    assert lctk.binaryTree2Arr(lctk.binaryTree([1, 2, None, None, None])) == [1, 2]
    assert lctk.binaryTree2Arr(lctk.binaryTree([1, None, None])) == [1]
    hand = lctk.TreeNode(1, lctk.TreeNode(2), None)
    assert lctk.binaryTree2Arr(hand) == [1, 2]
    hand = lctk.TreeNode(1, None, lctk.TreeNode(2, None, lctk.TreeNode(3)))
    assert lctk.binaryTree2Arr(hand) == [1, None, 2, None, 3]


def test_trailing_falsy_values_are_trimmed_as_lctk_0_0_6_does() -> None:
    # lctk 0.0.6's binaryTree2Arr ends with `while res and not res[-1]: res.pop()`
    assert lctk.binaryTree2Arr(lctk.binaryTree([1, 0])) == [1]
    assert lctk.binaryTree2Arr(lctk.binaryTree([1, 2, 0, None, 0])) == [1, 2]
    assert lctk.binaryTree2Arr(lctk.binaryTree([0])) == []
    assert lctk.binaryTree2Arr(lctk.binaryTree([0, 0, 0])) == []
    assert lctk.binaryTree2Arr(lctk.binaryTree([0, 1, 0, 0, 2])) == [0, 1, 0, 0, 2]
    # the repr keeps LeetCode's exact form
    assert repr(lctk.binaryTree([1, 0])) == "TreeNode([1, 0])"


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


# --- the real lctk 0.0.6 -----------------------------------------------------------------------


def _real_lctk() -> Any:
    """The PyPI package's module (a test dependency), loaded from its installed file under a name
    of its own: ``import lctk`` may give whichever lctk another test imported first."""
    from importlib import metadata

    try:
        dist = metadata.distribution("lctk")
    except metadata.PackageNotFoundError:
        pytest.fail("lctk 0.0.6 is a test dependency (pyproject.toml, dev): run `make setup`")
    assert dist.version == "0.0.6", dist.version
    path = Path(str(dist.locate_file("lctk/lctk.py")))
    spec = importlib.util.spec_from_file_location("lctk_0_0_6", path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _random_level_order(rng: random.Random) -> list[Any]:
    """A LeetCode tree list: values drawn from a small range (zeros common), nulls among them."""
    n = rng.randint(0, 12)
    vals: list[Any] = [rng.randint(-2, 2) for _ in range(n)]
    root = lctk.binaryTree(vals)
    for _ in range(rng.randint(0, 3)):  # prune some subtrees: nulls inside the list
        node = root
        while node is not None and rng.random() < 0.7:
            node = node.left if rng.random() < 0.5 else node.right
        if node is not None:
            node.left = None
    return lctk._level_order(root)


def test_the_stand_in_agrees_with_the_real_lctk_0_0_6() -> None:
    real = _real_lctk()
    rng = random.Random(20261128)
    trees = [*LEETCODE_TREES, [1, 0], [0], [5, 0, None, 0], [None, 1, 2], [1, None, None, 7]]
    trees += [_random_level_order(rng) for _ in range(500)]
    for arr in trees:
        ours, theirs = lctk.binaryTree(arr), real.binaryTree(arr)
        assert lctk._level_order(ours) == lctk._level_order(theirs), arr
        assert lctk.binaryTree2Arr(ours) == real.binaryTree2Arr(theirs), arr
        # each flattens the other's nodes alike: only the attributes count
        assert lctk.binaryTree2Arr(theirs) == real.binaryTree2Arr(ours), arr
    lists = [[], [0], [1, 2, 3], [0, 0], ["a", None, 2.5]]
    lists += [[rng.randint(-2, 2) for _ in range(rng.randint(0, 9))] for _ in range(200)]
    for arr in lists:
        assert lctk.linkedList2Arr(lctk.linkedList(arr)) == real.linkedList2Arr(
            real.linkedList(arr)
        )
        assert real.linkedList2Arr(lctk.linkedList(arr)) == arr


def test_the_real_lctk_drops_a_last_zero() -> None:
    """Why the stand-in does: a tree whose level order ends in 0 loses it (Mercury's rows were
    written with this function)."""
    real = _real_lctk()
    assert real.binaryTree2Arr(real.binaryTree([1, 2, 0])) == [1, 2]
