"""Parts of the emitted runtime (:mod:`.runtime`) that draw an adjacency list (:mod:`.adjacency`):
``graph[i]`` the nodes adjacent to node i. They are copied into every generated generator with
the rest of the runtime, so they use only builtin types and ``random``; they run only for a spec
with the key ``"adj"``, so a spec without it draws exactly what it drew before.
"""

from __future__ import annotations

import random


def _adj_degree_max(p: dict, q: dict, inner: str, n: int) -> int:
    """The largest row length every stated bound that names it (``p["adj"]["deg"]``, each
    ``coef * item + rest >= 0``) allows, with the other quantities as drawn; at most n - 1 (no
    self loops, no node twice). The bounds hold at 0 (the synthesizer checks it), so the
    allowed lengths are 0 up to it."""
    top = n - 1
    for b in p["adj"]["deg"]:
        rest = b["rest"]
        terms = rest.get("terms", {}) if isinstance(rest, dict) else {}
        const = rest["const"] if isinstance(rest, dict) else rest
        a = (b["coef"] if b["item"] == inner else 0) + terms.get(inner, 0)
        c = const + sum(k * q[t] for t, k in terms.items() if t != inner)
        if b["item"] != inner:
            c += b["coef"] * q[b["item"]]
        if a < 0:  # a * d + c >= 0: d <= c / -a
            top = min(top, c // -a)
    return max(top, 0)


def _adj_lists(p: dict, q: dict) -> list | None:
    """An adjacency list over nodes 0 to n - 1 with the properties of ``p["adj"]``: no self
    loops and no node twice in a row (always), undirected (``symmetric``: j in row i exactly
    when i in row j), acyclic (``dag``: each edge from the earlier to the later node of a
    random order), connected (a random spanning tree first, no node above the largest
    degree). The drawn row length (its quantity) sets how dense it is. None: no connected
    graph fits the largest degree (the caller draws again)."""
    g = p["adj"]
    n, inner = q[p["dims"][0]["q"]], p["dims"][1]["q"]
    top = _adj_degree_max(p, q, inner, n)
    want = min(q[inner], top)
    if g["symmetric"]:
        rows = _adj_undirected(n, top, n * want // 2, g["connected"])
        if rows is None:
            return None
    else:
        order = list(range(n))
        random.shuffle(order)
        rows = [[] for _ in range(n)]
        for k, i in enumerate(order):
            pool = order[k + 1 :] if g["dag"] else [j for j in range(n) if j != i]
            rows[i] = random.sample(pool, min(len(pool), top, random.randint(0, want)))
    for row in rows:
        if p["sorted"]:
            row.sort(reverse=p["sorted"] == "desc")
        else:
            random.shuffle(row)
    return rows


def _adj_undirected(n: int, top: int, edges: int, connected: bool) -> list | None:
    """A simple undirected graph over n nodes, no degree above ``top``, about ``edges`` edges
    (fewer when the degrees leave no room), connected when asked; None when it cannot be."""
    if connected and n > 1 and top < (1 if n == 2 else 2):
        return None
    rows: list = [[] for _ in range(n)]
    seen: set = set()

    def add(a: int, b: int) -> bool:
        if a == b or (min(a, b), max(a, b)) in seen or len(rows[a]) >= top or len(rows[b]) >= top:
            return False
        seen.add((min(a, b), max(a, b)))
        rows[a].append(b)
        rows[b].append(a)
        return True

    if connected:  # a random spanning tree: each node joins an earlier one with room
        order = list(range(n))
        random.shuffle(order)
        for k in range(1, n):
            j = order[random.randrange(k)]
            if len(rows[j]) >= top:
                j = order[k - 1]  # it has one edge yet (to an earlier node): room
            add(order[k], j)
    edges = min(edges, n * top // 2)
    pairs = n * (n - 1) // 2
    if 3 * edges >= pairs:  # dense: every pair once, in random order
        every = [(a, b) for a in range(n) for b in range(a + 1, n)]
        random.shuffle(every)
        for a, b in every:
            if len(seen) >= edges:
                break
            add(a, b)
    else:
        for _ in range(20 * edges):
            if len(seen) >= edges:
                break
            add(random.randrange(n), random.randrange(n))
    return rows


def _deg_edges(lo: int, hi: int, count: int, g: dict, path: bool) -> list | None:
    """``count`` edges over the nodes ``lo..hi``, no node on more than ``g["deg_max"]`` of
    them (graph_degree.py): a sample of a circulant graph over a random order of the nodes
    (each joined to the one d places on, d up to k / 2, and, k odd with an even node count, to
    the one across), whose every degree is k at most. Simple, without self loops; the path
    along the order first when ``connected``; each edge from the earlier node to the later in
    a DAG, else in a random direction. None when they do not fit (the caller draws again)."""
    v, k = hi - lo + 1, g["deg_max"]
    order = list(range(lo, hi + 1))
    random.shuffle(order)
    reach = min(k // 2, (v - 1) // 2)
    pairs = [(i, (i + d) % v) for d in range(1, reach + 1) for i in range(v)]
    if v % 2 == 0 and 2 * reach < min(k, v - 1):
        pairs += [(i, i + v // 2) for i in range(v // 2)]
    chain = [(i, i + 1) for i in range(v - 1)] if g["connected"] else []
    if chain and ((k < 2 and v > 2) or count < v - 1):
        return None
    taken = set(chain) | {(b, a) for a, b in chain}
    rest = [e for e in pairs if e not in taken]
    if count - len(chain) > len(rest):
        return None
    chosen = chain[:count] + random.sample(rest, count - len(chain[:count]))
    edges = []
    for a, b in chosen:
        if g["dag"] or not g["directed"]:
            a, b = min(a, b), max(a, b)  # positions in the order: earlier to later
        if not g["dag"] and random.random() < 0.5:
            a, b = b, a
        edges.append([order[a], order[b]])
    random.shuffle(edges)
    return edges


ADJ_RUNTIME = (_adj_degree_max, _adj_lists, _adj_undirected, _deg_edges)
