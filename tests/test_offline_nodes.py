"""Other wordings of a tree's or linked list's node count and node values in the offline
synthesizer (issue 26, node_wording.py): ``Each node's value is between [-10^4, 10^4]``, ``The
given linked list will contain between 1 and 1000 nodes``, ``The Linked List is not empty``,
``Number of nodes will not exceed 30``, ``Both of the given trees will have values in the range
[0, 200]``, ``The number of nodes in the list is an even integer in the range [2, 10^5]``.

Statements we wrote in LeetCode's shapes; each is read into the spec a Constraints item of the
usual wording gives, drawn on many seeds and checked by the independent checker, which reports
an input that breaks it.
"""

from __future__ import annotations

import copy
from typing import Any

from quicksilver.synth import SynthInput
from quicksilver.synth.offline import build_spec
from quicksilver.synth.offline.checker import check_input
from tests import synthkit
from tests.synthkit import question, spec_of

SEEDS = 100


def draws(spec: dict[str, Any]) -> list[list[Any]]:
    return synthkit.draws(spec, SEEDS)


def same_spec(ours: SynthInput, usual: SynthInput) -> dict[str, Any]:
    """Our wording reads into the spec the usual wording gives (the bounds' quoted lines
    aside)."""
    a, b = spec_of(ours), spec_of(usual)

    def bare(spec: dict[str, Any]) -> Any:
        spec = copy.deepcopy(spec)
        for item in spec["quantities"]:
            for bound in item["bounds"]:
                bound.pop("text")
        return spec

    assert bare(a) == bare(b)
    return a


def flat(tree: Any) -> list[int]:
    """A tree's values (the runtime's nested form) or a list's."""
    if isinstance(tree, list):
        return [x for item in tree for x in flat(item)]
    if isinstance(tree, dict):
        return [v for k, v in tree.items() if k == "val"] + [
            x for k, v in tree.items() if k != "val" for x in flat(v)
        ]
    return [] if tree is None else [tree]


def test_linked_list_wordings() -> None:
    """``The Linked List is not empty`` and ``Number of nodes will not exceed 30`` make the
    list's length 1 to 30, ``Each node's value is either 0 or 1`` its values."""
    ours = question(
        [("head", "ListNode")],
        [
            "The Linked List is not empty.",
            "Number of nodes will not exceed 30.",
            "Each node's value is either 0 or 1.",
        ],
    )
    usual = question(
        [("head", "ListNode")],
        [
            "head.length >= 1",
            "The number of nodes in the list is in the range [0, 30]",
            "Node.val is either 0 or 1",
        ],
    )
    spec = same_spec(ours, usual)
    lengths = set()
    for (head,) in draws(spec):
        assert 1 <= len(head) <= 30 and set(head) <= {0, 1}
        lengths.add(len(head))
    assert {1, 30} <= lengths
    assert check_input(spec, [[]]), "an empty list breaks 'not empty'"
    assert check_input(spec, [[0, 2]]), "a node value 2"


def test_list_between_and_node_chain() -> None:
    """``The given linked list will contain between 1 and 1000 nodes``, ``Each node in the
    linked list has -1000 <= node.val <= 1000``; and an even count in a range."""
    ours = question(
        [("head", "ListNode")],
        [
            "The given linked list will contain between 1 and 1000 nodes.",
            "Each node in the linked list has -1000 <= node.val <= 1000.",
        ],
    )
    usual = question(
        [("head", "ListNode")],
        ["The number of nodes in the list is in the range [1, 1000]", "-1000 <= Node.val <= 1000"],
    )
    spec = same_spec(ours, usual)
    assert check_input(spec, [[5, 1001]])
    even = spec_of(
        question(
            [("head", "ListNode")],
            [
                "The number of nodes in the list is an even integer in the range [2, 10^5].",
                "1 <= Node.val <= 10^5",
            ],
        )
    )
    for (head,) in draws(even):
        assert len(head) % 2 == 0 and len(head) >= 2
    assert check_input(even, [[1, 2, 3]]), "an odd length"


def test_tree_wordings() -> None:
    """``Each node's value is between [-10^4, 10^4]`` (a bracket after 'between');
    ``Both of the given trees will have values in the range [0, 200]`` of two trees; ``The
    number of nodes in the given tree is at most 1000`` (0 to 1000);
    ``Each tree will have unique node values in the range [0, 99]`` (distinct in each)."""
    one = spec_of(
        question(
            [("root", "TreeNode")],
            [
                "The number of nodes in the given tree is at most 1000.",
                "Each node's value is between [-10^4, 10^4].",
            ],
        )
    )
    assert one["params"][0]["leaf"] == {"type": "int", "lo": [-10000], "hi": [10000]}
    for (root,) in draws(one):
        assert all(-(10**4) <= v <= 10**4 for v in flat(root))
    two = [("root1", "TreeNode"), ("root2", "TreeNode")]
    both = spec_of(
        question(
            two,
            [
                "The number of nodes in each tree will be in the range [1, 200].",
                "Each tree will have unique node values in the range [0, 99].",
            ],
        )
    )
    for root1, root2 in draws(both):
        for root in (root1, root2):
            values = flat(root)
            assert len(set(values)) == len(values) and all(0 <= v <= 99 for v in values)
    spec = spec_of(
        question(
            two,
            [
                "The number of nodes in each tree will be in the range [1, 200].",
                "Both of the given trees will have values in the range [0, 200].",
            ],
        )
    )
    assert all(p["leaf"] == {"type": "int", "lo": [0], "hi": [200]} for p in spec["params"])


def test_node_wordings_that_name_other_nodes_are_refused() -> None:
    """``Each node's value in the tree ...`` where a linked list has nodes too names only some
    of the ``Node.val`` nodes; ``Both of the given trees`` with one tree names no two: not read."""
    result = build_spec(
        question(
            [("head", "ListNode"), ("root", "TreeNode")],
            [
                "The number of nodes in the list is in the range [1, 100]",
                "The number of nodes in the tree is in the range [1, 100]",
                "Each node's value in the tree is between 1 and 100.",
                "1 <= Node.val <= 100",
            ],
        )
    )
    assert result.spec is None and any("in the tree is between" in p for p in result.problems)
    result = build_spec(
        question(
            [("root", "TreeNode")],
            [
                "The number of nodes in the tree is in the range [1, 100]",
                "Both of the given trees will have values in the range [0, 200].",
            ],
        )
    )
    assert result.spec is None


# -- a tree's shape stated in words (tree_shapes.py) ----------------------------------------------


def test_complete_and_perfect_trees() -> None:
    """``The tree is guaranteed to be complete``: a level-order list with no gap, of every
    count the range allows; ``root is a perfect binary tree``: 2^k - 1 nodes, every level
    full; with a search tree, its values in order."""
    items = [
        "The number of nodes in the tree is in the range [0, 5 * 10^4].",
        "0 <= Node.val <= 5 * 10^4",
    ]
    complete = spec_of(
        question([("root", "TreeNode")], [*items, "The tree is guaranteed to be complete."])
    )
    assert complete["params"][0]["tree_shape"] == "complete"
    counts = set()
    for (root,) in draws(complete):
        assert None not in root
        counts.add(len(root))
    assert len(counts) > 20  # not only the full levels
    assert check_input(complete, [[1, 2, None, 4]]), "a gap before the last node"
    perfect = spec_of(
        question(
            [("root", "TreeNode")],
            [
                "The number of nodes in the tree is in the range [1, 2^14].",
                "0 <= Node.val <= 10^5",
                "root is a perfect binary tree.",
                "root is a binary search tree.",
            ],
        )
    )
    assert perfect["params"][0]["tree_shape"] == "perfect" and perfect["params"][0]["bst"]
    for (root,) in draws(perfect):
        n = len(root)
        assert None not in root and (n + 1) & n == 0, n
        inorder: list[int] = []
        stack, node = [], 0
        while stack or node < n:
            while node < n:
                stack.append(node)
                node = 2 * node + 1
            node = stack.pop()
            inorder.append(root[node])
            node = 2 * node + 2
        assert inorder == sorted(inorder) and len(set(inorder)) == n
    assert check_input(perfect, [[2, 1, 3, 0]]), "4 nodes: complete, not perfect"
    assert check_input(perfect, [[2, 1, None, 0]]), "a missing child"


def test_perfect_tree_whose_count_binds_something_else_is_refused() -> None:
    """Rounding the count down to 2^k - 1 would break a bound that names it (``k <= n``) or a
    least count above 1: reported, as is a shape said of a list."""
    inp = question(
        [("root", "TreeNode"), ("k", "integer")],
        [
            "The number of nodes in the tree is n.",
            "1 <= n <= 1000",
            "1 <= k <= n",
            "1 <= Node.val <= 1000",
            "root is a perfect binary tree.",
        ],
    )
    assert any("a perfect tree" in p for p in build_spec(inp).problems)
    inp = question(
        [("root", "TreeNode")],
        [
            "The number of nodes in the tree is in the range [3, 1000].",
            "1 <= Node.val <= 1000",
            "The tree is perfect.",
        ],
    )
    assert any("a perfect tree" in p for p in build_spec(inp).problems)
    inp = question(
        [("head", "ListNode")],
        [
            "The number of nodes in the list is in the range [1, 100].",
            "1 <= Node.val <= 100",
            "head is a complete binary tree.",
        ],
    )
    assert any("not one tree parameter" in p for p in build_spec(inp).problems)
