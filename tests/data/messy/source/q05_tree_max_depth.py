"""Maximum depth of a binary tree: a recursion that evaluates the deeper side twice (exponential on
a path), a typo that re-queues a node forever, wrong samples that min, count or ignore a side."""

from __future__ import annotations

import random

from messy_spec import (
    CORRECT,
    EXPONENTIAL,
    HANGING,
    NEAR_DUP,
    NO_COMPILE,
    RAISES,
    RAMBLING,
    SLOW,
    WRONG,
    Example,
    Input,
    Sol,
    Spec,
    code,
    leetcode_tree,
    random_tree,
)


def small(rng: random.Random) -> Input:
    """Bushy trees of up to 40 nodes, and paths of up to 16 (the exponential sample doubles its
    work with every level of a path)."""
    if rng.random() < 0.2:
        return [leetcode_tree(random_tree(rng, rng.randint(1, 16), -100, 100, path=True))]
    n = rng.choice([0, 1, 2, 3, rng.randint(0, 40), rng.randint(0, 40)])
    return [leetcode_tree(random_tree(rng, n, -100, 100))]


RECURSIVE = """
class Solution:
    def maxDepth(self, root: Optional[TreeNode]) -> int:
        if root is None:
            return 0
        return 1 + max(self.maxDepth(root.left), self.maxDepth(root.right))
"""

SPEC = Spec(
    slug="tree-max-depth",
    qid=9505,
    title="Tree Maximum Depth",
    difficulty="Easy",
    tags=[
        ("Tree", "tree"),
        ("Depth-First Search", "depth-first-search"),
        ("Breadth-First Search", "breadth-first-search"),
        ("Binary Tree", "binary-tree"),
    ],
    method="maxDepth",
    params=[("root", "TreeNode")],
    returns="integer",
    description="""
<p>The <strong>depth</strong> of a binary tree is the number of nodes on the longest path that starts at the root and goes down to a leaf.</p>

<p>Given the <code>root</code> of a binary tree, return <em>its depth</em>. An empty tree has depth <code>0</code>.</p>
""",
    examples=[
        Example(
            [[5, 2, 8, None, None, 6, 9, 7]],
            4,
            "The longest downward path is <code>5 -&gt; 8 -&gt; 6 -&gt; 7</code>.",
        ),
        Example([[4]], 1),
        Example([[]], 0),
    ],
    constraints=[
        "The number of nodes in the tree is in the range <code>[0, 10<sup>4</sup>]</code>.",
        "<code>-100 &lt;= Node.val &lt;= 100</code>",
    ],
    reference=code("""
        class Solution:
            def maxDepth(self, root: Optional[TreeNode]) -> int:
                best = 0
                stack = [(root, 1)] if root else []
                while stack:
                    node, d = stack.pop()
                    best = max(best, d)
                    for child in (node.left, node.right):
                        if child:
                            stack.append((child, d + 1))
                return best
    """),
    small=small,
    big={
        "full": (
            "a complete tree of 10^4 nodes",
            lambda rng: [[rng.randint(-100, 100) for _ in range(10**4)]],
        ),
        "path60": (
            "a path of 60 nodes (each node has one child)",
            lambda rng: [leetcode_tree(random_tree(rng, 60, -100, 100, path=True))],
        ),
    },
    solutions=[
        Sol(CORRECT, "e", "recursive depth-first search, O(n)", code(RECURSIVE), key="rec"),
        Sol(
            CORRECT,
            "f",
            "breadth-first search level by level with a deque, O(n)",
            code("""
            class Solution:
                def maxDepth(self, root: Optional[TreeNode]) -> int:
                    if not root:
                        return 0
                    queue = deque([root])
                    depth = 0
                    while queue:
                        depth += 1
                        for _ in range(len(queue)):
                            node = queue.popleft()
                            if node.left:
                                queue.append(node.left)
                            if node.right:
                                queue.append(node.right)
                    return depth
        """),
        ),
        Sol(
            CORRECT,
            "g",
            "iterative depth-first search with (node, depth) pairs, O(n)",
            code("""
            class Solution:
                def maxDepth(self, root: Optional[TreeNode]) -> int:
                    answer = 0
                    stack = [(root, 1)]
                    while stack:
                        node, depth = stack.pop()
                        if node is None:
                            continue
                        answer = max(answer, depth)
                        stack.append((node.left, depth + 1))
                        stack.append((node.right, depth + 1))
                    return answer
        """),
        ),
        Sol(
            WRONG,
            "a",
            "recursion that counts edges: a leaf has depth 0",
            code("""
            class Solution:
                def maxDepth(self, root: Optional[TreeNode]) -> int:
                    if root is None:
                        return 0
                    if root.left is None and root.right is None:
                        return 0
                    return 1 + max(self.maxDepth(root.left), self.maxDepth(root.right))
        """),
            witness=[[4]],
            expected=1,
            got=0,
            fails_examples=True,
            why="counts edges instead of nodes",
        ),
        Sol(
            WRONG,
            "b",
            "recursion with min instead of max",
            code("""
            class Solution:
                def maxDepth(self, root: Optional[TreeNode]) -> int:
                    if not root:
                        return 0
                    return 1 + min(self.maxDepth(root.left), self.maxDepth(root.right))
        """),
            witness=[[1, 2]],
            expected=2,
            got=1,
            fails_examples=True,
            why="takes the shallower side (and a missing child counts as depth 0)",
        ),
        Sol(
            RAISES,
            "c",
            "breadth-first search that starts from the root unconditionally",
            code("""
            class Solution:
                def maxDepth(self, root: Optional[TreeNode]) -> int:
                    queue = deque([(root, 1)])
                    deepest = 0
                    while queue:
                        node, d = queue.popleft()
                        deepest = max(deepest, d)
                        if node.left:
                            queue.append((node.left, d + 1))
                        if node.right:
                            queue.append((node.right, d + 1))
                    return deepest
        """),
            witness=[[]],
            error="AttributeError",
            why="reads .left of None for the empty tree",
        ),
        Sol(
            SLOW,
            "d",
            "collects every node, then finds each one's depth by a search from the root",
            code("""
            class Solution:
                def maxDepth(self, root: Optional[TreeNode]) -> int:
                    if root is None:
                        return 0
                    nodes = []
                    stack = [root]
                    while stack:
                        node = stack.pop()
                        nodes.append(node)
                        if node.left:
                            stack.append(node.left)
                        if node.right:
                            stack.append(node.right)

                    def depth_of(target):
                        search = [(root, 1)]
                        while search:
                            node, d = search.pop()
                            if node is target:
                                return d
                            if node.left:
                                search.append((node.left, d + 1))
                            if node.right:
                                search.append((node.right, d + 1))
                        return 0

                    return max(depth_of(node) for node in nodes)
        """),
            complexity="O(n^2)",
            slow_input="full",
            why="one search of the whole tree per node",
        ),
        Sol(
            HANGING,
            "e",
            "level by level, with a typo when queueing the right child",
            code("""
            class Solution:
                def maxDepth(self, root: Optional[TreeNode]) -> int:
                    if root is None:
                        return 0
                    level = [root]
                    depth = 0
                    while level:
                        depth += 1
                        nxt = []
                        for node in level:
                            if node.left:
                                nxt.append(node.left)
                            if node.right:
                                nxt.append(node)
                        level = nxt
                    return depth
        """),
            witness=[[1, None, 2]],
            why="a node with a right child puts itself back on the next level, forever",
        ),
        Sol(
            RAMBLING,
            "f",
            "recursion wrapped in explanations, a debug counter and an unused helper",
            code('''
            import sys
            import collections
            from typing import Optional, List


            class Solution:
                def __init__(self):
                    self.calls = 0

                def maxDepth(self, root: Optional[TreeNode]) -> int:
                    """
                    The maximum depth is the number of nodes along the longest path from the
                    root node down to the farthest leaf node.

                    Recursive definition:
                        depth(None) = 0
                        depth(node) = 1 + max(depth(node.left), depth(node.right))

                    We could also do BFS and count levels; both are O(n).
                    """
                    self.calls += 1
                    if root is None:
                        return 0
                    left_depth = self.maxDepth(root.left)
                    right_depth = self.maxDepth(root.right)
                    result = 1 + max(left_depth, right_depth)
                    if self.calls < 5:
                        print(f"node {root.val}: left={left_depth} right={right_depth}")
                    return result

                def bfs_depth(self, root):
                    # unused alternative
                    if not root:
                        return 0
                    q = collections.deque([root])
                    d = 0
                    while q:
                        d += 1
                        for _ in range(len(q)):
                            n = q.popleft()
                            if n.left:
                                q.append(n.left)
                            if n.right:
                                q.append(n.right)
                    return d
        '''),
        ),
        Sol(
            NEAR_DUP,
            "g",
            "recursive depth-first search (variables renamed)",
            code("""
            class Solution:
                def maxDepth(self, root: Optional[TreeNode]) -> int:
                    if root is None:
                        return 0
                    return 1 + max(self.maxDepth(root.left), self.maxDepth(root.right))
        """).replace("root", "node"),
            dup_of="rec",
            diff="the argument renamed",
            jaccard=1.0,
        ),
        Sol(
            EXPONENTIAL,
            "a",
            "recursion that compares the two sides, then recomputes the deeper one",
            code("""
            class Solution:
                def maxDepth(self, root: Optional[TreeNode]) -> int:
                    if not root:
                        return 0
                    if self.maxDepth(root.left) > self.maxDepth(root.right):
                        return self.maxDepth(root.left) + 1
                    return self.maxDepth(root.right) + 1
        """),
            complexity="O(2^h) on a path of height h (O(n^1.58) on a balanced tree)",
            slow_input="path60",
            why="the deeper subtree is evaluated twice at every level",
        ),
        Sol(
            WRONG,
            "b",
            "recursion that counts the nodes",
            code("""
            class Solution:
                def maxDepth(self, root: Optional[TreeNode]) -> int:
                    if not root:
                        return 0
                    return 1 + self.maxDepth(root.left) + self.maxDepth(root.right)
        """),
            witness=[[1, 2, 3]],
            expected=2,
            got=3,
            fails_examples=True,
            why="adds the two sides instead of taking the larger",
        ),
        Sol(
            CORRECT,
            "c",
            "levels as list comprehensions, O(n)",
            code("""
            class Solution:
                def maxDepth(self, root: Optional[TreeNode]) -> int:
                    depth, level = 0, [root] if root else []
                    while level:
                        depth += 1
                        level = [c for n in level for c in (n.left, n.right) if c]
                    return depth
        """),
        ),
        Sol(
            NO_COMPILE,
            "d",
            "a sentence of prose before the code",
            code("""
            Here is a simple recursive solution:

            class Solution:
                def maxDepth(self, root: Optional[TreeNode]) -> int:
                    if not root:
                        return 0
                    return 1 + max(self.maxDepth(root.left), self.maxDepth(root.right))
        """),
            error="SyntaxError",
            why="the completion starts with a sentence of prose",
        ),
        Sol(
            WRONG,
            "e",
            "recursion that treats a node without a left child as a leaf",
            code("""
            class Solution:
                def maxDepth(self, root: Optional[TreeNode]) -> int:
                    if not root:
                        return 0
                    if not root.left:
                        return 1
                    return 1 + max(self.maxDepth(root.left), self.maxDepth(root.right))
        """),
            witness=[[1, None, 2]],
            expected=2,
            got=1,
            fails_examples=False,
            why="stops at any node without a left child, ignoring its right subtree",
        ),
    ],
)
