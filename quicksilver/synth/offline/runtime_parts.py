"""Parts of the emitted runtime (:mod:`.runtime`) that call no other runtime function and read
no sampling mode: the rules of text, a random tree's shape, fixed positions. They are copied
into every generated generator with the rest of the runtime, so they use only ``random`` and
builtin types. (A module of its own so that runtime.py stays within the size a module may have.)
"""

from __future__ import annotations

import random


def _text_rules(p: dict, s: str | list) -> str | list:
    """``s`` (a string, or a list of digits) as ``p``'s text rules want it: a space where
    ``spaces`` forbids one ("trim": at either end, "single": after another, "word": all spaces)
    and a leading zero where ``lead`` does (a lone zero kept when "zero-ok") drawn again from
    the other characters (or from ``lead_range``)."""
    rules = p.get("spaces") if isinstance(s, str) else None
    if rules and s:
        other = [c for c in p["leaf"]["alphabet"] if c != " "]
        chars = list(s)
        for i, c in enumerate(chars):
            end = i in (0, len(chars) - 1) and "trim" in rules
            if c == " " and (end or ("single" in rules and i and chars[i - 1] == " ")):
                chars[i] = random.choice(other)
        if "word" in rules and not "".join(chars).strip():
            chars[random.randrange(len(chars))] = random.choice(other)
        s = "".join(chars)
    if (
        not p.get("lead")
        or not len(s)
        or s[0] not in ("0", 0)
        or (len(s) == 1 and p["lead"] == "zero-ok")
    ):
        return s
    if isinstance(s, str):
        return random.choice([c for c in p["leaf"]["alphabet"] if c != "0"]) + s[1:]
    return [random.randint(*p["lead_range"]), *s[1:]]


def _tree(values: list, path: bool, bst: bool = False, depth_max: int | None = None) -> list:
    """A random binary tree holding ``values`` (a path when ``path``), in LeetCode level order.

    ``bst``: the values go in sorted by an in-order walk, so the tree is a search tree.
    ``depth_max``: no node deeper (the root is at depth 1): a free child slot of a node at that
    depth is never used (the node count is at most 2^depth_max - 1, so a slot is always left),
    and a path only when it fits.
    """
    n = len(values)
    if n == 0:
        return []
    left = [-1] * n
    right = [-1] * n
    free = [(0, 0), (0, 1)]
    depth = [1] * n
    if depth_max is not None and n > depth_max:
        path = False
    if depth_max is not None and depth_max <= 1:
        free = []
    for i in range(1, n):
        if path:
            node, side = i - 1, random.randint(0, 1)
        else:
            j = random.randrange(len(free))
            node, side = free[j]
            free[j] = free[-1]
            free.pop()
            depth[i] = depth[node] + 1
            if depth_max is None or depth[i] < depth_max:
                free.append((i, 0))
                free.append((i, 1))
        if side == 0:
            left[node] = i
        else:
            right[node] = i
    if bst:
        ordered = sorted(values)
        values = list(values)
        stack: list = []
        node, k = 0, 0
        while stack or node >= 0:
            while node >= 0:
                stack.append(node)
                node = left[node]
            node = stack.pop()
            values[node] = ordered[k]
            k += 1
            node = right[node]
    out = [values[0]]
    queue = [0]
    for node in queue:
        for child in (left[node], right[node]):
            if child < 0:
                out.append(None)
            else:
                out.append(values[child])
                queue.append(child)
    while out and out[-1] is None:
        out.pop()
    return out


def _pin(p: dict, arg: object) -> object:
    """``arg`` with ``p["pins"]`` placed: each ``[path, value]`` puts ``value`` at the position
    ``path`` names (an index per level, negative from the end: ``grid[m - 1][n - 1]`` is
    ``[-1, -1]``). Where the values are distinct, the value's other copy takes the old one."""
    text = isinstance(arg, str)
    out = list(arg) if text else arg
    for path, value in p["pins"]:
        row = out
        for k in path[:-1]:
            row = row[k]
        k = path[-1] % len(row)
        if p["distinct"] and value in row:
            row[row.index(value)] = row[k]
        row[k] = value
    return "".join(out) if text else out


def _poly(expr: object, q: dict) -> int:
    """The value of a nonlinear bound's expression: an int, a quantity's name, or
    ``[op, a, b]`` with ``op`` one of ``+ - * ^`` (nonlinear.py)."""
    if isinstance(expr, int):
        return expr
    if isinstance(expr, str):
        return q[expr]
    op, a, b = expr
    x, y = _poly(a, q), _poly(b, q)
    if op == "+":
        return x + y
    if op == "-":
        return x - y
    if op == "*":
        return x * y
    return x**y


def _shrink_sum(row: list, low: int, limit: int) -> list:
    """``row`` with its values above ``low`` scaled down in proportion (rounded down) when their
    sum is above ``limit`` (``sum(nums[i]) <= 1000``; the schedule keeps ``len(row) * low <=
    limit``), so the values keep their shape."""
    over = sum(row) - low * len(row)
    room = limit - low * len(row)
    if sum(row) <= limit or over <= 0:
        return row
    return [low + (x - low) * room // over for x in row]


def _graph_edges(lo: int, hi: int, count: int, g: dict, path: bool) -> list | None:
    """``count`` edges ``[a, b]`` over the nodes ``lo..hi`` with the properties ``g`` holds:
    ``no_loops`` (a != b), ``simple`` (no two edges join the same ends: in either order when
    ``both_ways`` or ``dag``), ``connected`` (a random spanning tree first, a path when
    ``path``, then the other edges) and ``dag`` (every edge from an earlier to a later node of
    one random order of the nodes). None when no such edges exist (the caller draws again)."""
    v = hi - lo + 1
    loops = not g["no_loops"] and not g["dag"]
    ordered = not g["both_ways"] and not g["dag"]
    if v < 1 or (v == 1 and not loops):
        return [] if count == 0 else None
    room = v * (v + 1) // 2 if loops else v * (v - 1) // 2
    if ordered:
        room = v * v if loops else v * (v - 1)
    if (g["simple"] and count > room) or (g["connected"] and count < v - 1):
        return None
    order = list(range(lo, hi + 1))
    random.shuffle(order)
    rank = {x: i for i, x in enumerate(order)} if g["dag"] else {}
    edges: list = []
    seen: set = set()

    def add(a: int, b: int) -> bool:
        if a == b and not loops:
            return False
        if g["dag"] and rank[a] > rank[b]:
            a, b = b, a
        key = (a, b) if ordered else (min(a, b), max(a, b))
        if g["simple"] and key in seen:
            return False
        seen.add(key)
        edges.append([a, b])
        return True

    if g["connected"]:
        for i in range(1, min(v, count + 1)):
            add(order[i - 1] if path else order[random.randrange(i)], order[i])
    if g["simple"] and count - len(edges) > room // 4:  # dense: choose among the pairs left
        pairs = [
            (a, b)
            for a in range(lo, hi + 1)
            for b in range(lo if ordered else a, hi + 1)
            if (a != b or loops) and ((a, b) if ordered else (min(a, b), max(a, b))) not in seen
        ]
        for a, b in random.sample(pairs, count - len(edges)):
            add(a, b)
    tries = 0
    while len(edges) < count:
        tries += 1
        if tries > 100 * count + 100:
            return None
        add(random.randint(lo, hi), random.randint(lo, hi))
    if not g["directed"]:
        for e in edges:
            if random.random() < 0.5:
                e.reverse()
    random.shuffle(edges)
    return edges


def _square(rule: dict, m: list) -> list:
    """An adjacency matrix: its diagonal set to ``rule["diag"]`` (when not None) and, when
    ``rule["symmetric"]``, each value below the diagonal the one above it."""
    for i, row in enumerate(m):
        if rule["diag"] is not None and i < len(row):
            row[i] = rule["diag"]
        if rule["symmetric"]:
            for j in range(min(i, len(row))):
                row[j] = m[j][i]
    return m


def _char_rules(p: dict, rows: list) -> list | None:
    """``rows`` (each a string's characters, or a grid's rows) with ``p["at"]``'s positions
    drawn again from their alphabets where they hold another character, and ``p["counts"]``
    met: in each row (scope "each") or over all of them ("all"), a character above a count
    becomes one that no count names, one below takes the place of such a character (or of one
    another count has more of than its least, and no parity). None when the text is too short
    for the counts (the caller draws again)."""
    for sel, chars in p.get("at", ()):
        for row in rows:
            for i in range(len(row)):
                hit = i % sel[0] == sel[1] if isinstance(sel, list) else i == sel
                if hit and row[i] not in chars:
                    row[i] = random.choice(chars)
    counts = p.get("counts", ())
    named = "".join(c["chars"] for c in counts)
    free = [c for c in p["leaf"]["alphabet"] if c not in named]
    whole = [[(r, i) for r in range(len(rows)) for i in range(len(rows[r]))]]
    each = [[(r, i) for i in range(len(rows[r]))] for r in range(len(rows))]
    for c in counts:
        for unit in whole if c["scope"] == "all" else each:
            if _char_count(c, counts, rows, unit, free) is None:
                return None
    for row in rows if p.get("tokens") else ():  # whole tokens (one has one character)
        out: list = []
        while len(out) < len(row):
            out += random.choice([t for t in p["tokens"] if len(t) <= len(row) - len(out)])
        row[:] = out
    if p.get("kinds") and any(_char_kinds(p, row) is None for row in rows):
        return None
    for row in rows if p["sorted"] else ():  # the rules above keep a sorted text's counts
        row.sort(reverse=p["sorted"] == "desc")
    return rows


def _char_kinds(p: dict, row: list) -> list | None:
    """``row`` with ``p["kinds"]`` met: ``["times", k]`` every character that occurs, k times
    (drawn again: len(row) // k distinct ones, shuffled); ``["repeat", 2]`` one twice (a
    character copied over another); ``["kinds", k]`` k distinct ones (a character that occurs
    twice replaced by a missing one). None when the row leaves no room."""
    rule, k = p["kinds"]
    alphabet = list(p["leaf"]["alphabet"])
    if rule == "times":
        if len(row) % k or len(row) // k > len(alphabet):
            return None
        row[:] = random.sample(alphabet, len(row) // k) * k
        random.shuffle(row)
    elif rule == "repeat" and len(set(row)) == len(row):
        if len(row) < 2:
            return None
        i, j = random.sample(range(len(row)), 2)
        row[j] = row[i]
    elif rule == "kinds":
        missing = [c for c in alphabet if c not in set(row)]
        random.shuffle(missing)
        while len(set(row)) < k:
            seen: dict = {}
            for c in row:
                seen[c] = seen.get(c, 0) + 1
            twice = [i for i, c in enumerate(row) if seen[c] > 1]
            if not twice or not missing:
                return None
            row[random.choice(twice)] = missing.pop()
    return row


def _digit_value(value: int, lo: int, hi: int, digits: str) -> int | None:
    """``value`` if its decimal digits are all in ``digits``; else the nearest such value in
    [lo, hi] within 200 steps (an edge case at an end stays there), else one built of random
    digits of a random length (50 tries); None when none is found."""
    for step in range(201):
        for v in (value - step, value + step):
            if lo <= v <= hi and set(str(abs(v))) <= set(digits):
                return v
    low = len(str(max(lo, 0)))
    for _ in range(50):
        if hi < 0:
            break
        n = random.randint(low, len(str(hi)))
        lead = [d for d in digits if d != "0" or n == 1]
        if not lead:
            break
        v = int(random.choice(lead) + "".join(random.choice(digits) for _ in range(n - 1)))
        if lo <= v <= hi:
            return v
    return None


def _count_range(c: dict, n: int) -> tuple[int, int | None] | None:
    """The least and most of count ``c`` over ``n`` characters (a part of the length: exactly
    that part, None when it is not whole)."""
    if "part" in c:
        a, b = c["part"]
        return None if n * a % b else (n * a // b, n * a // b)
    return c["min"], c["max"]


def _char_count(c: dict, counts: list, rows: list, unit: list, free: list) -> bool | None:
    """Count ``c`` met over the positions ``unit`` of ``rows`` (see :func:`_char_rules`): a
    counted character too many becomes a free one (or one of a count with room: no upper
    bound, or a part below its share), one too few takes the place of a free character (or
    of one another count has beyond its least). None: no room."""
    span = _count_range(c, len(unit))
    if span is None:
        return None
    lo, hi = span
    have = [(r, i) for r, i in unit if rows[r][i] in c["chars"]]
    want = max(len(have), lo) if hi is None else min(max(len(have), lo), hi)
    if c["mod"] and (want - c["mod"][1]) % c["mod"][0]:
        step = (want - c["mod"][1]) % c["mod"][0]
        want = want - step if want - step >= lo else want + c["mod"][0] - step
    spare = [(r, i) for r, i in unit if all(rows[r][i] not in d["chars"] for d in counts)]
    into = list(free)
    for d in counts:  # another count's characters beyond its least, or its room below its most
        span = _count_range(d, len(unit)) if d is not c and not d["mod"] else None
        if span is not None:
            theirs = [(r, i) for r, i in unit if rows[r][i] in d["chars"]]
            spare += random.sample(theirs, max(0, len(theirs) - span[0]))
            if span[1] is None or len(theirs) < span[1]:
                into += list(d["chars"])
    if (hi is not None and want > hi) or want - len(have) > len(spare):
        return None
    if len(have) > want and not into:
        return None
    for r, i in random.sample(have, max(0, len(have) - want)):
        rows[r][i] = random.choice(into)
    for r, i in random.sample(spare, max(0, want - len(have))):
        rows[r][i] = random.choice(c["chars"])
    return True
