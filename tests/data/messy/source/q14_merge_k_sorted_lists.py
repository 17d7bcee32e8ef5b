"""Merge k sorted linked lists (a ListNode[] argument): (value, node) heap entries that cannot be
compared on a tie, merging one list at a time and scanning every head (slow on 10^4 lists), a merge
that stalls on equal heads, empty lists mishandled in several ways."""

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
    span = rng.choice([3, 10, 10**4])
    k = rng.randint(0, 6)
    return [[sorted(rng.randint(-span, span) for _ in range(rng.randint(0, 6))) for _ in range(k)]]


HEAP = """
class Solution:
    def mergeKLists(self, lists: List[Optional[ListNode]]) -> Optional[ListNode]:
        heap = []
        for i, node in enumerate(lists):
            if node:
                heapq.heappush(heap, (node.val, i, node))
        dummy = ListNode()
        tail = dummy
        while heap:
            _, i, node = heapq.heappop(heap)
            tail.next = node
            tail = node
            if node.next:
                heapq.heappush(heap, (node.next.val, i, node.next))
        return dummy.next
"""

SPEC = Spec(
    slug="merge-k-sorted-lists",
    qid=9514,
    title="Merge K Sorted Node Lists",
    difficulty="Hard",
    tags=[
        ("Linked List", "linked-list"),
        ("Divide and Conquer", "divide-and-conquer"),
        ("Heap (Priority Queue)", "heap-priority-queue"),
        ("Merge Sort", "merge-sort"),
    ],
    method="mergeKLists",
    params=[("lists", "ListNode[]")],
    returns="ListNode",
    description="""
<p>You are given an array <code>lists</code> of <code>k</code> singly linked lists, each sorted in ascending order (some may be empty).</p>

<p>Link all their nodes into one list sorted in ascending order and return <em>its head</em>.</p>
""",
    examples=[
        Example([[[2, 6, 9], [1, 5], [3, 3, 8]]], [1, 2, 3, 3, 5, 6, 8, 9]),
        Example([[]], []),
        Example([[[]]], []),
    ],
    constraints=[
        "<code>k == lists.length</code>",
        "<code>0 &lt;= k &lt;= 10<sup>4</sup></code>",
        "<code>0 &lt;= lists[i].length &lt;= 500</code>",
        "<code>-10<sup>4</sup> &lt;= lists[i][j] &lt;= 10<sup>4</sup></code>",
        "<code>lists[i]</code> is sorted in <strong>ascending order</strong>.",
        "The sum of <code>lists[i].length</code> will not exceed <code>10<sup>4</sup></code>.",
    ],
    reference=code("""
        class Solution:
            def mergeKLists(self, lists: List[Optional[ListNode]]) -> Optional[ListNode]:
                values = []
                for node in lists:
                    while node is not None:
                        values.append(node.val)
                        node = node.next
                head = None
                for v in sorted(values, reverse=True):
                    head = ListNode(v, head)
                return head
    """),
    small=small,
    big={
        "singles": (
            "10^4 lists of one node each",
            lambda rng: [[[rng.randint(-(10**4), 10**4)] for _ in range(10**4)]],
        ),
        "singles2k": (
            "2000 lists of one node each",
            lambda rng: [[[rng.randint(-(10**4), 10**4)] for _ in range(2000)]],
        ),
    },
    # After a relinking merge, every one of the 10^4 heads reaches the whole merged chain, and
    # the harness serialises the arguments after the call (inputs_after): O(k * N) outside the
    # solution, tens of seconds of wall time. The correct samples are checked on 2000 lists.
    slow_only=("singles",),
    solutions=[
        Sol(CORRECT, "a", "heap of (value, list index, node), O(N log k)", code(HEAP), key="heap"),
        Sol(
            CORRECT,
            "b",
            "divide and conquer: merge halves recursively, O(N log k)",
            code("""
            class Solution:
                def mergeKLists(self, lists: List[Optional[ListNode]]) -> Optional[ListNode]:
                    def merge(a, b):
                        dummy = tail = ListNode()
                        while a and b:
                            if a.val <= b.val:
                                tail.next, a = a, a.next
                            else:
                                tail.next, b = b, b.next
                            tail = tail.next
                        tail.next = a or b
                        return dummy.next

                    def solve(lo, hi):
                        if lo > hi:
                            return None
                        if lo == hi:
                            return lists[lo]
                        mid = (lo + hi) // 2
                        return merge(solve(lo, mid), solve(mid + 1, hi))

                    return solve(0, len(lists) - 1)
        """),
        ),
        Sol(
            CORRECT,
            "c",
            "collect every node, sort by value, relink",
            code("""
            class Solution:
                def mergeKLists(self, lists: List[Optional[ListNode]]) -> Optional[ListNode]:
                    nodes = []
                    for head in lists:
                        while head:
                            nodes.append(head)
                            head = head.next
                    nodes.sort(key=lambda n: n.val)
                    for a, b in zip(nodes, nodes[1:]):
                        a.next = b
                    if not nodes:
                        return None
                    nodes[-1].next = None
                    return nodes[0]
        """),
        ),
        Sol(
            SLOW,
            "d",
            "merges the lists into the result one at a time, O(k * N)",
            code("""
            class Solution:
                def mergeKLists(self, lists: List[Optional[ListNode]]) -> Optional[ListNode]:
                    def merge_two(a, b):
                        dummy = ListNode()
                        cur = dummy
                        while a and b:
                            if a.val < b.val:
                                cur.next = a
                                a = a.next
                            else:
                                cur.next = b
                                b = b.next
                            cur = cur.next
                        cur.next = a if a else b
                        return dummy.next

                    result = None
                    for head in lists:
                        result = merge_two(result, head)
                    return result
        """),
            complexity="O(k * N)",
            slow_input="singles",
            why="the growing result is walked again for each of 10^4 lists",
        ),
        Sol(
            RAISES,
            "e",
            "heap of (value, node) pairs",
            code("""
            class Solution:
                def mergeKLists(self, lists: List[Optional[ListNode]]) -> Optional[ListNode]:
                    heap = [(node.val, node) for node in lists if node]
                    heapq.heapify(heap)
                    dummy = ListNode()
                    tail = dummy
                    while heap:
                        val, node = heapq.heappop(heap)
                        tail.next = node
                        tail = node
                        if node.next:
                            heapq.heappush(heap, (node.next.val, node.next))
                    return dummy.next
        """),
            witness=[[[1], [1]]],
            error="TypeError",
            why="two heads with the same value make the heap compare ListNode objects",
        ),
        Sol(
            WRONG,
            "f",
            "heap merge with an early exit for an empty first list",
            code("""
            class Solution:
                def mergeKLists(self, lists: List[Optional[ListNode]]) -> Optional[ListNode]:
                    if not lists or not lists[0]:
                        return None
                    heap = []
                    for idx, node in enumerate(lists):
                        if node:
                            heapq.heappush(heap, (node.val, idx, node))
                    head = cur = ListNode(0)
                    while heap:
                        _, idx, node = heapq.heappop(heap)
                        cur.next = node
                        cur = cur.next
                        if node.next:
                            heapq.heappush(heap, (node.next.val, idx, node.next))
                    return head.next
        """),
            witness=[[[], [1]]],
            expected=[1],
            got=[],
            fails_examples=False,
            why="returns the empty list whenever the first list is empty",
        ),
        Sol(
            RAISES,
            "g",
            "heap started from every head, empty ones included",
            code("""
            class Solution:
                def mergeKLists(self, lists: List[Optional[ListNode]]) -> Optional[ListNode]:
                    heap = [(node.val, i, node) for i, node in enumerate(lists)]
                    heapq.heapify(heap)
                    dummy = ListNode()
                    cur = dummy
                    while heap:
                        _, i, node = heapq.heappop(heap)
                        cur.next = node
                        cur = node
                        if node.next is not None:
                            heapq.heappush(heap, (node.next.val, i, node.next))
                    return dummy.next
        """),
            witness=[[[]]],
            error="AttributeError",
            why="reads .val of an empty list (None)",
        ),
        Sol(
            SLOW,
            "a",
            "scans every head for the smallest value at each step, O(k * N)",
            code("""
            class Solution:
                def mergeKLists(self, lists: List[Optional[ListNode]]) -> Optional[ListNode]:
                    heads = list(lists)
                    dummy = ListNode()
                    tail = dummy
                    while True:
                        best = -1
                        for i, node in enumerate(heads):
                            if node is not None and (best == -1 or node.val < heads[best].val):
                                best = i
                        if best == -1:
                            break
                        tail.next = heads[best]
                        tail = tail.next
                        heads[best] = heads[best].next
                    return dummy.next
        """),
            complexity="O(k * N)",
            slow_input="singles",
            why="10^4 scans of 10^4 heads",
        ),
        Sol(
            RAMBLING,
            "b",
            "heap merge with a long explanation and debug output",
            code('''
            import sys
            import math
            from typing import List, Optional


            class Solution:
                def mergeKLists(self, lists: List[Optional[ListNode]]) -> Optional[ListNode]:
                    """
                    Min-heap approach.

                    Push the head of every non-empty list into a min-heap keyed by value.
                    Repeatedly pop the smallest node, append it to the answer, and push the
                    next node of the same list. The list index is included in the heap entry
                    to break ties, because ListNode objects cannot be compared.

                    N total nodes, k lists: O(N log k) time, O(k) extra space.
                    """
                    print(f"merging {len(lists)} lists")
                    min_heap = []
                    for list_index, head in enumerate(lists):
                        if head is not None:
                            heapq.heappush(min_heap, (head.val, list_index, head))
                    sentinel = ListNode(-1)
                    tail = sentinel
                    merged_count = 0
                    while min_heap:
                        value, list_index, node = heapq.heappop(min_heap)
                        tail.next = node
                        tail = node
                        merged_count += 1
                        if node.next is not None:
                            heapq.heappush(min_heap, (node.next.val, list_index, node.next))
                    print("merged", merged_count, "nodes")
                    return sentinel.next

                def to_list(self, head):
                    out = []
                    while head:
                        out.append(head.val)
                        head = head.next
                    return out
        '''),
        ),
        Sol(
            NEAR_DUP,
            "c",
            "heap of (value, list index, node) (variables renamed)",
            code(
                HEAP.replace("heap ", "pq ")
                .replace("(heap", "(pq")
                .replace("while heap", "while pq")
                .replace("tail", "last")
            ),
            dup_of="heap",
            diff="variables renamed",
            jaccard=1.0,
        ),
        Sol(
            HANGING,
            "d",
            "merges pairs of lists with a two-list merge that has no case for equal values",
            code("""
            class Solution:
                def mergeKLists(self, lists: List[Optional[ListNode]]) -> Optional[ListNode]:
                    def merge(a, b):
                        dummy = tail = ListNode()
                        while a and b:
                            if a.val < b.val:
                                tail.next, a = a, a.next
                                tail = tail.next
                            elif a.val > b.val:
                                tail.next, b = b, b.next
                                tail = tail.next
                        tail.next = a or b
                        return dummy.next

                    result = None
                    for head in lists:
                        result = merge(result, head)
                    return result
        """),
            witness=[[[1], [1]]],
            why="when the two heads are equal neither advances: the loop never ends",
        ),
        Sol(
            WRONG,
            "e",
            "collects the distinct values, sorts them, builds new nodes",
            code("""
            class Solution:
                def mergeKLists(self, lists: List[Optional[ListNode]]) -> Optional[ListNode]:
                    values = set()
                    for node in lists:
                        while node:
                            values.add(node.val)
                            node = node.next
                    dummy = cur = ListNode()
                    for v in sorted(values):
                        cur.next = ListNode(v)
                        cur = cur.next
                    return dummy.next
        """),
            witness=[[[1], [1]]],
            expected=[1, 1],
            got=[1],
            fails_examples=True,
            why="a set drops repeated values",
        ),
        Sol(
            CORRECT,
            "f",
            "heapq.merge over the lists' values, then new nodes",
            code("""
            class Solution:
                def mergeKLists(self, lists: List[Optional[ListNode]]) -> Optional[ListNode]:
                    def values(node):
                        while node:
                            yield node.val
                            node = node.next

                    dummy = tail = ListNode()
                    for v in heapq.merge(*(values(h) for h in lists)):
                        tail.next = ListNode(v)
                        tail = tail.next
                    return dummy.next
        """),
        ),
        Sol(
            NO_COMPILE,
            "g",
            "heap merge with a JavaScript-style comment left in",
            code("""
            class Solution:
                def mergeKLists(self, lists: List[Optional[ListNode]]) -> Optional[ListNode]:
                    heap = [(h.val, i, h) for i, h in enumerate(lists) if h]  // heads only
                    heapq.heapify(heap)
                    dummy = tail = ListNode()
                    while heap:
                        _, i, node = heapq.heappop(heap)
                        tail.next = tail = node
                        if node.next:
                            heapq.heappush(heap, (node.next.val, i, node.next))
                    return dummy.next
        """),
            error="SyntaxError",
            why="`// heads only` is not a Python comment",
        ),
        Sol(
            WRONG,
            "a",
            "divide and conquer that skips the middle list",
            code("""
            class Solution:
                def mergeKLists(self, lists: List[Optional[ListNode]]) -> Optional[ListNode]:
                    def merge(a, b):
                        dummy = cur = ListNode()
                        while a and b:
                            if a.val <= b.val:
                                cur.next, a = a, a.next
                            else:
                                cur.next, b = b, b.next
                            cur = cur.next
                        cur.next = a or b
                        return dummy.next

                    def solve(part):
                        if not part:
                            return None
                        if len(part) == 1:
                            return part[0]
                        mid = len(part) // 2
                        return merge(solve(part[:mid]), solve(part[mid + 1 :]))

                    return solve(lists)
        """),
            witness=[[[1], [2]]],
            expected=[1, 2],
            got=[1],
            fails_examples=True,
            why="part[mid + 1:] leaves out part[mid]",
        ),
    ],
)
