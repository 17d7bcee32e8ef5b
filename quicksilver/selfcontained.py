"""Solutions that run in the Mercury authors' evaluator: the names it injects, and the imports a
solution needs beyond them.

Mercury's evaluator (``src/sandbox.py`` in their repository; the appendix's Figure 6) executes a
fixed list of imports into a fresh namespace, then the solution, then the row's
``convert_offline`` / ``evaluate_offline``: :data:`MERCURY_INJECTED` is that list's names.
Quicksilver's sandbox injects a few names more (``quicksilver/sandbox/runtime/prelude.py``:
``Counter``, ``Dict``, ``Set``, ``SortedList``, ``SortedDict``, ``SortedSet``), as LeetCode's own
judge does: accepted LeetCode solutions use them without importing them (12 of the bundled
corpus's 300 solutions use ``Counter`` or ``SortedList`` that way), and so may the original
Mercury release's references, which scoring re-profiles in the same sandbox. The prelude keeps
them.

LeetCode's judge provides more still: accepted solutions use ``pairwise``, ``accumulate``,
``gcd``, ``reduce``, ``ascii_lowercase`` or the ``operator`` module without importing them, as if
``from itertools import *`` and the like had run (:data:`LEETCODE_STAR`, :data:`LEETCODE_MODULES`,
with the evidence). The sandbox does not inject those; the import line is added instead.

A solution published with one of these names free would raise ``NameError`` in Mercury's
evaluator (and, for LeetCode's names, in the sandbox), so the load stage gives it the import lines
it needs (:func:`add_imports`) before it is hashed, tested and measured: the code published is the
code that ran, and the row's ``solution_provenance[].imports_added`` says what was added. A name
no judge provides is left alone: the solution fails in the sandbox and goes with its reason.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import symtable

from quicksilver import astparse

MERCURY_PRELUDE: tuple[str, ...] = (
    "import re, itertools, collections, heapq, bisect, string, sys, lctk, functools, math, copy",
    "import sortedcontainers",
    "from math import floor, ceil, factorial, sqrt, inf",
    "from sys import maxsize, stdin",
    "from bisect import bisect_left, bisect_right",
    "from itertools import permutations, zip_longest",
    "from heapq import heappush, heappop, heapify",
    "from collections import deque, defaultdict, OrderedDict",
    "from typing import List, Optional, Tuple",
    "from functools import lru_cache, cache",
)
"""The imports Mercury's evaluator executes into a solution's namespace (ANCHORS.md, section 6);
it also defines its own ``ListNode`` and ``TreeNode`` classes and ``print`` as a no-op."""


def _bound(statements: tuple[str, ...]) -> frozenset[str]:
    names: set[str] = set()
    for node in astparse.parse("\n".join(statements)).body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return frozenset(names)


MERCURY_INJECTED: frozenset[str] = _bound(MERCURY_PRELUDE) | {"ListNode", "TreeNode", "print"}
"""The names a solution finds in Mercury's evaluator without importing them."""

IMPORTS: dict[str, tuple[str, str]] = {
    "Counter": ("collections", "Counter"),
    "Dict": ("typing", "Dict"),
    "Set": ("typing", "Set"),
    "SortedList": ("sortedcontainers", "SortedList"),
    "SortedDict": ("sortedcontainers", "SortedDict"),
    "SortedSet": ("sortedcontainers", "SortedSet"),
}
"""Each name Quicksilver's sandbox injects beyond :data:`MERCURY_INJECTED`: (module, name) of the
import that provides it (``tests/test_selfcontained.py`` checks the prelude has no other)."""

LEETCODE_MODULES: tuple[str, ...] = ("operator", "random")
"""Modules LeetCode's Python 3 judge lets a solution use by name without importing them, beyond
:data:`MERCURY_INJECTED`'s (``operator.xor``, ``random.randint``): 49 accepted solutions of the
public corpora use them that way (bench/real_leetcode.py's corpora)."""

LEETCODE_STAR: tuple[str, ...] = (
    "itertools",
    "functools",
    "math",
    "heapq",
    "bisect",
    "collections",
    "string",
    "operator",
    "typing",
    "copy",
    "random",
)
"""Modules whose public names LeetCode's judge provides unimported, as ``from M import *`` does;
the first module that has a name provides it. The evidence is the accepted solutions of three
public corpora (doocs/leetcode, walkccc/LeetCode, neetcode-gh/leetcode): 433 of their 7,316
Python 3 solutions need a name or module of this list or of :data:`LEETCODE_MODULES`, among them
``pairwise`` 150, ``accumulate`` 66, ``gcd`` 42, ``reduce`` 23, ``ascii_lowercase`` 18,
``xor`` 14, ``count`` 13, ``nlargest`` 10, ``comb`` 8, ``lcm`` 7, ``chain``, ``groupby``,
``Union``, ``product``, ``heapreplace``, ``combinations``, ``deepcopy``, ``randint`` and more.
A name only LeetCode's helpers define (``isBadVersion``, ``Node``, ``read4``) stays free."""


def _public(module: str) -> frozenset[str]:
    mod = importlib.import_module(module)
    names = getattr(mod, "__all__", None) or [n for n in dir(mod) if not n.startswith("_")]
    return frozenset(names)


_STAR: tuple[tuple[str, frozenset[str]], ...] = tuple((m, _public(m)) for m in LEETCODE_STAR)

_BUILTINS = frozenset(dir(builtins))


def free_names(code: str) -> set[str]:
    """The names ``code`` reads from its module's globals or the builtins without binding them
    at module level (``code`` must parse): what it expects its namespace to provide."""
    top = symtable.symtable(code, "<solution>", "exec")
    bound = {s.get_name() for s in top.get_symbols() if s.is_assigned() or s.is_imported()}
    used: set[str] = set()
    tables = [top]
    while tables:
        table = tables.pop()
        for sym in table.get_symbols():
            # a module-level name, or one a function or class looks up as a global
            if sym.is_referenced() and (table is top or sym.is_global()):
                used.add(sym.get_name())
        tables.extend(table.get_children())
    return used - bound - _BUILTINS


def missing_imports(code: str) -> list[str]:
    """The import lines ``code`` needs to run in Mercury's evaluator as it runs in the sandbox
    and on LeetCode's judge: ``import M`` for a module it uses by name (:data:`LEETCODE_MODULES`),
    then one ``from M import A, B`` per module, sorted (:data:`IMPORTS`, :data:`LEETCODE_STAR`)."""
    wanted: dict[str, set[str]] = {}
    modules: list[str] = []
    for name in sorted(free_names(code) - MERCURY_INJECTED):
        if name in IMPORTS:
            module, attr = IMPORTS[name]
            wanted.setdefault(module, set()).add(attr)
        elif name in LEETCODE_MODULES:
            modules.append(name)
        else:
            star = next((m for m, names in _STAR if name in names), None)
            if star is not None:
                wanted.setdefault(star, set()).add(name)
    lines = [f"import {m}" for m in modules]
    return lines + [f"from {m} import {', '.join(sorted(n))}" for m, n in sorted(wanted.items())]


def add_imports(code: str) -> tuple[str, list[str]]:
    """``code`` with the lines of :func:`missing_imports` added, and those lines.

    They go first, after a module docstring and ``from __future__`` imports when the code has
    them (those must come first). ``code`` is normalised and parses (the load stage's)."""
    lines = missing_imports(code)
    if not lines:
        return code, []
    body = astparse.parse(code).body
    after = 0  # the source line the imports follow
    for i, node in enumerate(body):
        docstring = (
            i == 0
            and isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        )
        if docstring or (isinstance(node, ast.ImportFrom) and node.module == "__future__"):
            after = node.end_lineno or after
            continue
        break
    source = code.splitlines(keepends=True)
    added = "".join(line + "\n" for line in lines)
    return "".join(source[:after]) + added + "".join(source[after:]), lines
