"""Reverse a linked list, with LeetCode's own "is the range [0, 5000]" wording; samples that break
on the empty list, on a single node, and one whose self-check walks a cycle forever."""

from __future__ import annotations

import random

from messy_spec import (
    CORRECT,
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
)


def small(rng: random.Random) -> Input:
    n = rng.choice([0, 1, 2, rng.randint(0, 40)])
    return [[rng.randint(-5000, 5000) for _ in range(n)]]


ITERATIVE = """
class Solution:
    def reverseList(self, head: Optional[ListNode]) -> Optional[ListNode]:
        prev = None
        cur = head
        while cur:
            nxt = cur.next
            cur.next = prev
            prev = cur
            cur = nxt
        return prev
"""

SPEC = Spec(
    slug="reverse-node-list",
    qid=9504,
    title="Reverse a Node List",
    difficulty="Easy",
    tags=[("Linked List", "linked-list"), ("Recursion", "recursion")],
    method="reverseList",
    params=[("head", "ListNode")],
    returns="ListNode",
    description="""
<p>You get the <code>head</code> of a singly linked list. Rearrange the links so that the nodes appear in the opposite order, and return <em>the new head</em>.</p>
""",
    examples=[
        Example([[3, 1, 4, 1, 5]], [5, 1, 4, 1, 3]),
        Example([[10, -20]], [-20, 10]),
        Example([[]], []),
    ],
    constraints=[
        "The number of nodes in the list is the range <code>[0, 5000]</code>.",
        "<code>-5000 &lt;= Node.val &lt;= 5000</code>",
    ],
    follow_up="Can you write it both with a loop and with recursion?",
    reference=code("""
        class Solution:
            def reverseList(self, head: Optional[ListNode]) -> Optional[ListNode]:
                values = []
                while head is not None:
                    values.append(head.val)
                    head = head.next
                out = None
                for v in values:
                    out = ListNode(v, out)
                return out
    """),
    small=small,
    big={
        "n5000": (
            "5000 nodes (the constraint maximum)",
            lambda rng: [[rng.randint(-5000, 5000) for _ in range(5000)]],
        )
    },
    solutions=[
        Sol(CORRECT, "d", "iterative pointer reversal, O(n)", code(ITERATIVE), key="iter"),
        Sol(
            CORRECT,
            "e",
            "recursive reversal, O(n) time and recursion depth",
            code("""
            class Solution:
                def reverseList(self, head: Optional[ListNode]) -> Optional[ListNode]:
                    if head is None or head.next is None:
                        return head
                    new_head = self.reverseList(head.next)
                    head.next.next = head
                    head.next = None
                    return new_head
        """),
        ),
        Sol(
            RAISES,
            "f",
            "iterative reversal that stops at the last node",
            code("""
            class Solution:
                def reverseList(self, head: Optional[ListNode]) -> Optional[ListNode]:
                    prev = None
                    cur = head
                    while cur.next:
                        nxt = cur.next
                        cur.next = prev
                        prev = cur
                        cur = nxt
                    cur.next = prev
                    return cur
        """),
            witness=[[]],
            error="AttributeError",
            why="reads cur.next of None on the empty list",
        ),
        Sol(
            SLOW,
            "g",
            "detach the last node again and again, O(n^2)",
            code("""
            class Solution:
                def reverseList(self, head: Optional[ListNode]) -> Optional[ListNode]:
                    new_head = None
                    tail = None
                    while head:
                        if head.next is None:
                            last = head
                            head = None
                        else:
                            before = head
                            while before.next.next:
                                before = before.next
                            last = before.next
                            before.next = None
                        if new_head is None:
                            new_head = last
                        else:
                            tail.next = last
                        tail = last
                    return new_head
        """),
            complexity="O(n^2)",
            slow_input="n5000",
            why="walks to the end of the remaining list for every node",
        ),
        Sol(
            WRONG,
            "a",
            "iterative reversal that leaves the old tail behind",
            code("""
            class Solution:
                def reverseList(self, head: Optional[ListNode]) -> Optional[ListNode]:
                    if not head:
                        return None
                    prev = None
                    cur = head
                    while cur.next:
                        nxt = cur.next
                        cur.next = prev
                        prev = cur
                        cur = nxt
                    return prev
        """),
            witness=[[1, 2]],
            expected=[2, 1],
            got=[1],
            fails_examples=True,
            why="stops before the last node and returns the node before it",
        ),
        Sol(
            CORRECT,
            "b",
            "values into a list, then new nodes in reverse order",
            code("""
            class Solution:
                def reverseList(self, head: Optional[ListNode]) -> Optional[ListNode]:
                    vals = []
                    while head:
                        vals.append(head.val)
                        head = head.next
                    dummy = ListNode()
                    cur = dummy
                    for v in reversed(vals):
                        cur.next = ListNode(v)
                        cur = cur.next
                    return dummy.next
        """),
        ),
        Sol(
            HANGING,
            "c",
            "recursive reversal followed by a length self-check",
            code("""
            class Solution:
                def reverseList(self, head: Optional[ListNode]) -> Optional[ListNode]:
                    def rev(node):
                        if node is None or node.next is None:
                            return node
                        new_head = rev(node.next)
                        node.next.next = node
                        return new_head

                    new_head = rev(head)
                    # sanity check: count the nodes of the result
                    count = 0
                    walker = new_head
                    while walker:
                        count += 1
                        walker = walker.next
                    return new_head
        """),
            witness=[[1, 2]],
            why="never clears the old head's next pointer, so the last two nodes form a cycle "
            "and the self-check walks it forever",
        ),
        Sol(
            WRONG,
            "d",
            "iterative reversal that returns the old head",
            code("""
            class Solution:
                def reverseList(self, head: Optional[ListNode]) -> Optional[ListNode]:
                    prev = None
                    curr = head
                    while curr is not None:
                        following = curr.next
                        curr.next = prev
                        prev = curr
                        curr = following
                    return head
        """),
            witness=[[1, 2]],
            expected=[2, 1],
            got=[1],
            fails_examples=True,
            why="returns the old head, which is now the last node",
        ),
        Sol(
            RAMBLING,
            "e",
            "iterative reversal with a walkthrough in comments and prints",
            code("""
            import sys
            import math


            class Solution:
                def reverseList(self, head: Optional[ListNode]) -> Optional[ListNode]:
                    # Let's think step by step.
                    # We walk the list once. For each node we remember the node that comes
                    # after it, point it back at the previous node, and move on.
                    #
                    # Example: 1 -> 2 -> 3 -> None
                    #   step 1: None <- 1    2 -> 3 -> None
                    #   step 2: None <- 1 <- 2    3 -> None
                    #   step 3: None <- 1 <- 2 <- 3
                    # The new head is the last node we visited.
                    #
                    # Time: O(n), space: O(1).
                    previous_node = None
                    current_node = head
                    steps = 0
                    while current_node is not None:
                        next_node = current_node.next
                        current_node.next = previous_node
                        previous_node = current_node
                        current_node = next_node
                        steps += 1
                        if steps <= 3:
                            print("reversed", steps, "node(s)")
                    print("total steps:", steps)
                    return previous_node

                def printList(self, node):
                    values = []
                    while node:
                        values.append(str(node.val))
                        node = node.next
                    print(" -> ".join(values))
        """),
        ),
        Sol(
            NEAR_DUP,
            "f",
            "iterative pointer reversal (variables renamed)",
            code("""
            class Solution:
                def reverseList(self, head: Optional[ListNode]) -> Optional[ListNode]:
                    before = None
                    node = head
                    while node:
                        after = node.next
                        node.next = before
                        before = node
                        node = after
                    return before
        """),
            dup_of="iter",
            diff="variables renamed",
            jaccard=1.0,
        ),
        Sol(
            SLOW,
            "g",
            "swaps values pairwise, finding each node by walking from the head",
            code("""
            class Solution:
                def reverseList(self, head: Optional[ListNode]) -> Optional[ListNode]:
                    def node_at(k):
                        node = head
                        for _ in range(k):
                            node = node.next
                        return node

                    n = 0
                    while node_at(n) is not None:
                        n += 1
                    for i in range(n // 2):
                        a, b = node_at(i), node_at(n - 1 - i)
                        a.val, b.val = b.val, a.val
                    return head
        """),
            complexity="O(n^2)",
            slow_input="n5000",
            why="every node is found by a walk from the head, and so is the length",
        ),
        Sol(
            WRONG,
            "a",
            "head insertion behind a dummy node, returns the dummy",
            code("""
            class Solution:
                def reverseList(self, head: Optional[ListNode]) -> Optional[ListNode]:
                    dummy = ListNode(0)
                    while head:
                        nxt = head.next
                        head.next = dummy.next
                        dummy.next = head
                        head = nxt
                    return dummy
        """),
            witness=[[]],
            expected=[],
            got=[0],
            fails_examples=True,
            why="returns the dummy node itself, so a 0 is put in front",
        ),
        Sol(
            CORRECT,
            "b",
            "stack of nodes, relinked from the top",
            code("""
            class Solution:
                def reverseList(self, head: Optional[ListNode]) -> Optional[ListNode]:
                    if not head:
                        return None
                    stack = []
                    while head:
                        stack.append(head)
                        head = head.next
                    new_head = stack.pop()
                    cur = new_head
                    while stack:
                        cur.next = stack.pop()
                        cur = cur.next
                    cur.next = None
                    return new_head
        """),
        ),
        Sol(
            NO_COMPILE,
            "c",
            "iterative reversal, cut off inside the loop",
            code("""
            class Solution:
                def reverseList(self, head: Optional[ListNode]) -> Optional[ListNode]:
                    prev, cur = None, head
                    while cur:
                        cur.next, prev, cur = prev, cur, cur.
        """),
            error="SyntaxError",
            why="the sample ends inside a tuple assignment (cut off)",
        ),
        Sol(
            WRONG,
            "d",
            "iterative reversal with an early exit for short lists",
            code("""
            class Solution:
                def reverseList(self, head: Optional[ListNode]) -> Optional[ListNode]:
                    if not head or not head.next:
                        return None
                    prev, cur = None, head
                    while cur:
                        cur.next, prev, cur = prev, cur, cur.next
                    return prev
        """),
            witness=[[7]],
            expected=[7],
            got=[],
            fails_examples=False,
            why="a single node comes back as the empty list",
        ),
    ],
)
