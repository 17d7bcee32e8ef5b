"""The names a LeetCode solution expects to find without importing them.

Mercury's evaluator executes these imports into the solution's namespace (appendix, Figure 6);
``build_namespace`` does the same and adds ``TreeNode`` / ``ListNode``. Standard library plus
``sortedcontainers`` (bound read-only into the sandbox) only.
"""

from __future__ import annotations

import contextlib
from typing import Any

PRELUDE = """
import re
import itertools
import collections
import heapq
import bisect
import string
import sys
import functools
import math
import copy
import lctk
from math import floor, ceil, factorial, sqrt, inf
from sys import maxsize, stdin
from bisect import bisect_left, bisect_right
from itertools import permutations, zip_longest
from heapq import heappush, heappop, heapify
from collections import deque, defaultdict, OrderedDict, Counter
from typing import List, Optional, Tuple, Dict, Set
from functools import lru_cache, cache
from lctk import TreeNode, ListNode
"""

OPTIONAL = (
    "import sortedcontainers",
    "from sortedcontainers import SortedList, SortedDict, SortedSet",
)


def build_namespace() -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": "__solution__", "__builtins__": __builtins__}
    exec(PRELUDE, namespace)
    for line in OPTIONAL:
        with contextlib.suppress(ImportError):
            exec(line, namespace)
    return namespace
