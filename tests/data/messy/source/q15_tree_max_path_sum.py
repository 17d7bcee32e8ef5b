"""Binary tree maximum path sum: an all-negative tree splits the samples 7/2/2/1/1/1 (best = 0
twice, root-only and internal-only paths, a max() of no candidates, a loop that never pops a negative
node); a gain computed three times per node (exponential on a path); an O(n^2 h) pairwise search."""

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
    Plurality,
    Sol,
    Spec,
    code,
    leetcode_tree,
    random_tree,
)


def small(rng: random.Random) -> Input:
    """Bushy trees of up to 40 nodes, paths of up to 16; all values negative now and then."""
    lo, hi = (-1000, -1) if rng.random() < 0.15 else (-1000, 1000)
    if rng.random() < 0.2:
        return [leetcode_tree(random_tree(rng, rng.randint(1, 16), lo, hi, path=True))]
    n = rng.choice([1, 2, 3, rng.randint(1, 40), rng.randint(1, 40)])
    return [leetcode_tree(random_tree(rng, n, lo, hi))]


RECURSIVE = """
class Solution:
    def maxPathSum(self, root: Optional[TreeNode]) -> int:
        best = float("-inf")

        def gain(node):
            nonlocal best
            if node is None:
                return 0
            left = max(gain(node.left), 0)
            right = max(gain(node.right), 0)
            best = max(best, node.val + left + right)
            return node.val + max(left, right)

        gain(root)
        return best
"""

SPEC = Spec(
    slug="tree-max-path-sum",
    qid=9515,
    title="Tree Maximum Path Sum",
    difficulty="Hard",
    tags=[
        ("Dynamic Programming", "dynamic-programming"),
        ("Tree", "tree"),
        ("Depth-First Search", "depth-first-search"),
        ("Binary Tree", "binary-tree"),
    ],
    method="maxPathSum",
    params=[("root", "TreeNode")],
    returns="integer",
    description="""
<p>A <strong>path</strong> in a binary tree is a sequence of distinct nodes in which each pair of consecutive nodes is joined by an edge. A path has at least one node and need not pass through the root; its <strong>sum</strong> is the sum of its nodes' values.</p>

<p>Given the <code>root</code> of a binary tree, return <em>the largest sum of any path</em>.</p>
""",
    examples=[
        Example(
            [[4, -7, 6, None, None, 5, -2]],
            15,
            "The path <code>5 -&gt; 6 -&gt; 4</code> has the sum 15.",
        ),
        Example([[1]], 1),
        Example([[2, -1, 3]], 5, "The path <code>2 -&gt; 3</code>."),
    ],
    constraints=[
        "The number of nodes in the tree is in the range <code>[1, 3 * 10<sup>4</sup>]</code>.",
        "<code>-1000 &lt;= Node.val &lt;= 1000</code>",
    ],
    reference=code("""
        class Solution:
            def maxPathSum(self, root: Optional[TreeNode]) -> int:
                order = []
                stack = [root]
                while stack:
                    node = stack.pop()
                    order.append(node)
                    for child in (node.left, node.right):
                        if child is not None:
                            stack.append(child)
                down = {None: 0}
                best = root.val
                for node in reversed(order):
                    a = max(down[node.left], 0)
                    b = max(down[node.right], 0)
                    best = max(best, node.val + a + b)
                    down[node] = node.val + max(a, b)
                return best
    """),
    small=small,
    big={
        "bushy": (
            "3 * 10^4 nodes, each new node in a random free child slot",
            lambda rng: [leetcode_tree(random_tree(rng, 3 * 10**4, -1000, 1000))],
        ),
        "path60": (
            "a path of 60 nodes",
            lambda rng: [leetcode_tree(random_tree(rng, 60, -1000, 1000, path=True))],
        ),
    },
    plurality=Plurality(
        [[-5, -2, -7]],
        "7/2/2/1/1/1",
        "7/2/2/1/1",
        "right answer -2: #0-#3 #8 #9 #12; 0: #4 #5; -5: #7 #14; -7, ValueError and timeout one "
        "each. #11 hangs on example 1; among the samples that pass the examples the right "
        "answer has 7 of 13.",
    ),
    solutions=[
        Sol(CORRECT, "b", "recursive gain with a nonlocal best, O(n)", code(RECURSIVE), key="rec"),
        Sol(
            CORRECT,
            "c",
            "iterative post-order with a dict of downward gains",
            code("""
            class Solution:
                def maxPathSum(self, root: Optional[TreeNode]) -> int:
                    gain = {None: 0}
                    best = root.val
                    stack = [(root, False)]
                    while stack:
                        node, done = stack.pop()
                        if node is None:
                            continue
                        if not done:
                            stack.append((node, True))
                            stack.append((node.left, False))
                            stack.append((node.right, False))
                            continue
                        l = max(gain[node.left], 0)
                        r = max(gain[node.right], 0)
                        best = max(best, node.val + l + r)
                        gain[node] = node.val + max(l, r)
                    return best
        """),
        ),
        Sol(
            EXPONENTIAL,
            "d",
            "downward gain that compares the two sides and then recomputes the better one",
            code("""
            class Solution:
                def maxPathSum(self, root: Optional[TreeNode]) -> int:
                    def gain(node):
                        if node is None:
                            return 0
                        if gain(node.left) > gain(node.right):
                            return max(0, node.val + gain(node.left))
                        return max(0, node.val + gain(node.right))

                    best = float("-inf")
                    stack = [root]
                    while stack:
                        node = stack.pop()
                        best = max(best, node.val + gain(node.left) + gain(node.right))
                        for child in (node.left, node.right):
                            if child:
                                stack.append(child)
                    return best
        """),
            complexity="O(2^h) on a path of height h",
            slow_input="path60",
            why="the better subtree's gain is computed twice at every level",
        ),
        Sol(
            SLOW,
            "e",
            "every pair of nodes, the path between them through their lowest common ancestor",
            code("""
            class Solution:
                def maxPathSum(self, root: Optional[TreeNode]) -> int:
                    parent, depth, nodes = {root: None}, {root: 0}, []
                    stack = [root]
                    while stack:
                        node = stack.pop()
                        nodes.append(node)
                        for child in (node.left, node.right):
                            if child:
                                parent[child] = node
                                depth[child] = depth[node] + 1
                                stack.append(child)
                    best = float("-inf")
                    for u in nodes:
                        for v in nodes:
                            a, b, total = u, v, 0
                            while depth[a] > depth[b]:
                                total += a.val
                                a = parent[a]
                            while depth[b] > depth[a]:
                                total += b.val
                                b = parent[b]
                            while a is not b:
                                total += a.val + b.val
                                a, b = parent[a], parent[b]
                            best = max(best, total + a.val)
                    return best
        """),
            complexity="O(n^2 h)",
            slow_input="bushy",
            why="9 * 10^8 pairs of nodes",
        ),
        Sol(
            WRONG,
            "f",
            "recursive gain with the best sum starting at 0",
            code("""
            class Solution:
                def maxPathSum(self, root: Optional[TreeNode]) -> int:
                    self.best = 0

                    def dfs(node):
                        if not node:
                            return 0
                        l = max(0, dfs(node.left))
                        r = max(0, dfs(node.right))
                        self.best = max(self.best, node.val + l + r)
                        return node.val + max(l, r)

                    dfs(root)
                    return self.best
        """),
            witness=[[-5, -2, -7]],
            expected=-2,
            got=0,
            fails_examples=False,
            why="starts the best at 0, so a tree of negative values answers 0 (an empty path)",
        ),
        Sol(
            WRONG,
            "g",
            "iterative post-order whose best sum starts at 0",
            code("""
            class Solution:
                def maxPathSum(self, root: Optional[TreeNode]) -> int:
                    order, stack = [], [root]
                    while stack:
                        node = stack.pop()
                        if node:
                            order.append(node)
                            stack.append(node.left)
                            stack.append(node.right)
                    down = {}
                    answer = 0
                    for node in reversed(order):
                        a = max(down.get(node.left, 0), 0)
                        b = max(down.get(node.right, 0), 0)
                        answer = max(answer, node.val + a + b)
                        down[node] = node.val + max(a, b)
                    return answer
        """),
            witness=[[-5, -2, -7]],
            expected=-2,
            got=0,
            fails_examples=False,
            why="the same bug as #4 in another shape: the same wrong answer, 0",
        ),
        Sol(
            WRONG,
            "a",
            "the best root-to-leaf path",
            code("""
            class Solution:
                def maxPathSum(self, root: Optional[TreeNode]) -> int:
                    def down(node):
                        if node.left is None and node.right is None:
                            return node.val
                        options = [down(c) for c in (node.left, node.right) if c is not None]
                        return node.val + max(options)

                    return down(root)
        """),
            witness=[[-5, -2, -7]],
            expected=-2,
            got=-7,
            fails_examples=False,
            why="only paths from the root down to a leaf; in every example the best path is one",
        ),
        Sol(
            WRONG,
            "b",
            "the best path through the root",
            code("""
            class Solution:
                def maxPathSum(self, root: Optional[TreeNode]) -> int:
                    def gain(node):
                        if not node:
                            return 0
                        return max(0, node.val + max(gain(node.left), gain(node.right)))

                    return root.val + gain(root.left) + gain(root.right)
        """),
            witness=[[-5, -2, -7]],
            expected=-2,
            got=-5,
            fails_examples=False,
            why="only paths through the root",
        ),
        Sol(
            RAMBLING,
            "c",
            "recursive gain with a long explanation and debug prints",
            code('''
            import sys
            import math
            from typing import Optional


            class Solution:
                def maxPathSum(self, root: Optional[TreeNode]) -> int:
                    """
                    For every node we compute gain(node): the best sum of a path that starts
                    at this node and goes down. A negative gain is never worth taking, so a
                    child contributes max(gain(child), 0).

                    The best path that "bends" at a node is
                        node.val + max(gain(left), 0) + max(gain(right), 0)
                    and the answer is the maximum of that over all nodes.

                    IMPORTANT: initialise the answer with -infinity, not 0, because every
                    value may be negative and a path must contain at least one node.
                    """
                    sys.setrecursionlimit(100000)
                    self.answer = -math.inf
                    self.visited = 0

                    def gain(node: Optional[TreeNode]) -> int:
                        if node is None:
                            return 0
                        self.visited += 1
                        left_gain = max(gain(node.left), 0)
                        right_gain = max(gain(node.right), 0)
                        through_here = node.val + left_gain + right_gain
                        if through_here > self.answer:
                            self.answer = through_here
                        return node.val + max(left_gain, right_gain)

                    gain(root)
                    print(f"visited {self.visited} nodes, answer {self.answer}")
                    return self.answer
        '''),
        ),
        Sol(
            NEAR_DUP,
            "d",
            "recursive gain with a nonlocal best (variables renamed)",
            code(RECURSIVE.replace("best", "answer").replace("left", "lg").replace("right", "rg"))
            .replace("node.lg", "node.left")
            .replace("node.rg", "node.right"),
            dup_of="rec",
            diff="variables renamed",
            jaccard=1.0,
        ),
        Sol(
            RAISES,
            "e",
            "collects the positive path sums, then takes the largest",
            code("""
            class Solution:
                def maxPathSum(self, root: Optional[TreeNode]) -> int:
                    sums = []

                    def gain(node):
                        if node is None:
                            return 0
                        l = max(gain(node.left), 0)
                        r = max(gain(node.right), 0)
                        total = node.val + l + r
                        if total > 0:
                            sums.append(total)
                        return node.val + max(l, r)

                    gain(root)
                    return max(sums)
        """),
            witness=[[-5, -2, -7]],
            error="ValueError",
            why="no path sum is positive, and max() of an empty list raises",
        ),
        Sol(
            HANGING,
            "f",
            "iterative traversal that prunes negative nodes",
            code("""
            class Solution:
                def maxPathSum(self, root: Optional[TreeNode]) -> int:
                    order = []
                    stack = [root]
                    while stack:
                        node = stack[-1]
                        if node is not root and node.val < 0:
                            # a negative node cannot improve a path through its parent
                            continue
                        stack.pop()
                        order.append(node)
                        if node.left:
                            stack.append(node.left)
                        if node.right:
                            stack.append(node.right)
                    gain = {}
                    best = root.val
                    for node in reversed(order):
                        a = max(gain.get(node.left, 0), 0)
                        b = max(gain.get(node.right, 0), 0)
                        best = max(best, node.val + a + b)
                        gain[node] = node.val + max(a, b)
                    return best
        """),
            witness=[[-5, -2, -7]],
            why="a negative node on top of the stack is never popped: the loop never ends",
        ),
        Sol(
            CORRECT,
            "g",
            "breadth-first order, then the gains from the bottom level up",
            code("""
            class Solution:
                def maxPathSum(self, root: Optional[TreeNode]) -> int:
                    queue = deque([root])
                    order = []
                    while queue:
                        node = queue.popleft()
                        order.append(node)
                        if node.left:
                            queue.append(node.left)
                        if node.right:
                            queue.append(node.right)
                    gain = {}
                    best = -10**9
                    for node in reversed(order):
                        l = max(gain.get(id(node.left), 0), 0) if node.left else 0
                        r = max(gain.get(id(node.right), 0), 0) if node.right else 0
                        best = max(best, node.val + l + r)
                        gain[id(node)] = node.val + max(l, r)
                    return best
        """),
        ),
        Sol(
            NO_COMPILE,
            "a",
            "recursive gain, cut off in the middle of the helper",
            code("""
            class Solution:
                def maxPathSum(self, root: Optional[TreeNode]) -> int:
                    best = float("-inf")

                    def gain(node):
                        nonlocal best
                        if not node:
                            return 0
                        left = max(gain(node.left), 0)
                        right = max(gain(node.right
        """),
            error="SyntaxError",
            why="the sample ends inside a call (cut off)",
        ),
        Sol(
            WRONG,
            "b",
            "recursive gain that updates the best only at nodes with children",
            code("""
            class Solution:
                def maxPathSum(self, root: Optional[TreeNode]) -> int:
                    best = root.val

                    def gain(node):
                        nonlocal best
                        if node is None:
                            return 0
                        l = max(gain(node.left), 0)
                        r = max(gain(node.right), 0)
                        if node.left or node.right:
                            best = max(best, node.val + l + r)
                        return node.val + max(l, r)

                    gain(root)
                    return best
        """),
            witness=[[-5, -2, -7]],
            expected=-2,
            got=-5,
            fails_examples=False,
            why="a leaf alone is never a candidate (except the root); it answers like #7 here",
        ),
    ],
)
