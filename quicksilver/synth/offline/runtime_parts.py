"""Parts of the emitted runtime (:mod:`.runtime`) that call no other runtime function and read
no sampling mode: the rules of text, a random tree's shape, fixed positions. They are copied
into every generated generator with the rest of the runtime, so they use only ``random`` and
builtin types. (A module of its own so that runtime.py stays within the size a module may have.)
"""

from __future__ import annotations

import random

from quicksilver.synth.offline.runtime_prods import _poly_more
from quicksilver.synth.offline.runtime_words import _word_text


def _text_rules(p: dict, s: str | list) -> str | list:
    """``s`` (a string, or a list of digits) as ``p``'s text rules want it: a space where
    ``spaces`` forbids one ("trim": at either end, "single": after another, "word": all spaces)
    and a leading zero where ``lead`` does (a lone zero kept when "zero-ok") drawn again from
    the other characters (or from ``lead_range``). A string with a count of words (``words``)
    is laid out by :func:`~.runtime_words._word_text`, which meets the rules of spaces too."""
    if p.get("words") and isinstance(s, str):  # a count of words (runtime_words.py)
        return _word_text(p, s)
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
    for path, value, *ne in p["pins"]:
        row = out
        for k in path[:-1]:
            row = row[k]
        k = path[-1] % len(row)
        if ne:  # "s[0] != 'i'": another of the leaf's values (no order or distinctness here)
            leaf = p["leaf"]
            choices = leaf.get("set") or leaf.get("alphabet")
            while row[k] == value:
                row[k] = random.choice(choices) if choices else random.randint(*_ends(leaf, {}))
            continue
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
    if op in ("!", "C", "max", "min"):
        return _poly_more(op, x, y)  # a factorial, a binomial, max / min (runtime_prods.py)
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


def _ends(leaf: dict, q: dict) -> tuple:
    """An integer leaf's range [lo, hi] on the quantities ``q`` (its bounds are numbers or
    {"const", "terms"} forms)."""

    def value(f: object) -> int:
        if not isinstance(f, dict):
            return f  # type: ignore[return-value]
        return f["const"] + sum(c * q[n] for n, c in f["terms"].items())

    return max(value(f) for f in leaf["lo"]), min(value(f) for f in leaf["hi"])


def _kept_leaves(p: dict, q: dict) -> list:
    """The leaves the fields are drawn from: ``p["cols"]``, but a distinct field that is the
    smaller end of a strict order (``start_i < end_i``) stops one below the other end's top
    (the larger end one above its bottom), so that the other end always has a value left."""
    leaves = list(p["cols"])
    keep = p.get("distinct_cols", ())
    for a, b, op in p.get("pairs", ()):
        if op != "<" or (a in keep) == (b in keep):
            continue
        if a in keep:
            top = _ends(p["cols"][b], q)[1]
            leaves[a] = dict(leaves[a], hi=[*leaves[a]["hi"], top - 1])
        else:
            bottom = _ends(p["cols"][a], q)[0]
            leaves[b] = dict(leaves[b], lo=[*leaves[b]["lo"], bottom + 1])
    return leaves


def _fit_kept(cols: list, q: dict, row: list, a: int, b: int, op: str, a_kept: bool) -> None:
    """``row[a] op row[b]`` (``<`` or ``<=``) where one end is a distinct field, which is
    kept: the other end is drawn in its range as far as the order leaves it (never empty:
    see :func:`_kept_leaves`)."""
    other = b if a_kept else a
    lo, hi = _ends(cols[other], q)
    step = 1 if op == "<" else 0
    if a_kept:
        lo = max(lo, row[a] + step)
    else:
        hi = min(hi, row[b] - step)
    row[other] = random.randint(lo, hi)


def _zip(params: list, args: list, rule: list, q: dict) -> bool:
    """``a[i] op b[i]`` for every index of two lists of one length (``rule`` = [a, b, op]):
    ``<`` / ``<=`` swap two items out of order (both lists share one range), an equal pair
    where ``<`` is stated gets a new second item; ``!=`` draws an equal second item again (a
    character from its leaf's choices; a string with one character changed). False when
    nothing is left to draw (the caller draws everything again)."""
    names = [p["name"] for p in params]
    ia, ib = names.index(rule[0]), names.index(rule[1])
    xs, ys, op = args[ia], args[ib], rule[2]
    leaf, text = params[ib]["leaf"], len(params[ib]["dims"]) == 2 and params[ib].get("join")
    if len(xs) != len(ys):
        return False
    choices = list(leaf.get("set") or leaf.get("alphabet") or ())
    lo, hi = _ends(leaf, q) if not choices else (0, 0)
    for i in range(len(xs)):
        tries = 0
        while ys[i] == xs[i] and op != "<=":
            tries += 1
            if tries > 100:
                return False
            if text:
                s = ys[i]
                if not s:
                    return False
                at = random.randrange(len(s))
                ys[i] = s[:at] + random.choice(choices) + s[at + 1 :]
            else:
                ys[i] = random.choice(choices) if choices else random.randint(lo, hi)
        if op != "!=" and xs[i] > ys[i]:
            xs[i], ys[i] = ys[i], xs[i]
    return True


def _below_index(p: dict, row: list, q: dict) -> list:
    """``0 <= nextVisit[i] <= i``: a value above its index plus ``p["below_index"]`` is drawn
    again in the leaf's range below it (which index 0 leaves room for)."""
    k = p["below_index"]
    lo, hi = _ends(p["leaf"], q)
    return [x if x <= i + k else random.randint(lo, min(hi, i + k)) for i, x in enumerate(row)]


def _order_rows(p: dict, q: dict, table: list) -> list | None:
    """Rows sorted by one field (``p["sorted_col"]``: [field, "asc" | "desc"]; whole rows move,
    so what holds within a row still holds), then each field of ``p["apart_cols"]`` drawn
    again where it equals the row before's. None when a range leaves no other value."""
    if "sorted_col" in p:
        col, direction = p["sorted_col"]
        table.sort(key=lambda row: row[col], reverse=direction == "desc")
    for col in p.get("apart_cols", ()):
        lo, hi = _ends(p["cols"][col], q)
        for i in range(1, len(table)):
            if table[i][col] == table[i - 1][col]:
                if lo == hi:
                    return None
                while table[i][col] == table[i - 1][col]:
                    table[i][col] = random.randint(lo, hi)
    return table


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


def _eval(form: int | dict, q: dict) -> int:
    """A bound: a number, or {"const": c, "terms": {quantity: coefficient}} evaluated on ``q``."""
    if not isinstance(form, dict):
        return form
    return form["const"] + sum(coef * q[name] for name, coef in form["terms"].items())


def _fit_sum(counts: list, lo: int, limit: int) -> list:
    """Shrink per-item lengths (each >= lo) proportionally so that their sum is <= limit."""
    total = sum(counts)
    if total <= limit:
        return counts
    floor_total = lo * len(counts)
    if floor_total > limit:
        raise RuntimeError(f"{len(counts)} items of length >= {lo} exceed the sum bound {limit}")
    scale = (limit - floor_total) / (total - floor_total)
    return [lo + int((c - lo) * scale) for c in counts]


def _draw_float(leaf: dict, count: int, distinct: bool, edge: bool) -> list:
    lo, hi = leaf["lo"], leaf["hi"]
    out: list = []
    seen: set = set()
    tries = 0
    while len(out) < count:
        tries += 1
        if tries > 100 * count + 100:
            raise RuntimeError("could not draw the floating-point values")
        if edge and random.random() < 0.5:
            x = random.choice((lo, hi))
        else:
            x = min(hi, max(lo, round(random.uniform(lo, hi), 5)))
        if (leaf["lo_strict"] and x <= lo) or (leaf["hi_strict"] and x >= hi):
            continue
        if distinct and x in seen:
            continue
        seen.add(x)
        out.append(x)
    return out


def _unseen_string(p: dict, q: dict, last: dict, seen: set) -> str | None:
    """A string of the strings' fixed length that none before holds, taken at random from all
    of them: the redraws' way out when the strings nearly fill their space (216 distinct rows of
    3 letters from 'ABCDEF' are all there are). None when the length is not fixed, the space is
    large (over 10^5) or shaped (sorted, a form), or every string is taken."""
    alphabet = p["leaf"].get("alphabet")
    length = q[last["q"]] if "q" in last else last["lo"] if last["lo"] == last["hi"] else None
    if not alphabet or length is None or p["sorted"] or p.get("form"):
        return None
    if len(alphabet) ** length > 100000:
        return None
    codes = list(range(len(alphabet) ** length))
    random.shuffle(codes)
    for code in codes:
        chars = []
        for _ in range(length):
            code, digit = divmod(code, len(alphabet))
            chars.append(alphabet[digit])
        s = _text_rules(p, "".join(chars))
        if s not in seen:
            return s
    return None
