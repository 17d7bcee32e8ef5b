"""The checker's part for how many times values occur (the spec's ``occur`` and ``end_once``,
:mod:`.occurs`) and for number-theoretic properties of values (``values_are``, :mod:`.numtheory`).
Code of its own, independent of the runtime's ``_occurs`` and ``_values_are``; a module apart
so that checker.py stays within the size a module may have."""

from __future__ import annotations

from typing import Any


def check_occurs(spec: dict[str, Any], args: list[Any]) -> list[str]:
    """Each list with ``occur``: every value occurs within ``each`` ([least, most or None])
    times, but for exactly as many values as the exceptions (``but``: [count, least, most])
    name, each occurring as one of them allows (the counts matched largest first); no more
    distinct values than ``kinds``. With ``end_once``: its largest (``max``) or smallest
    (``min``) value occurs once."""
    out: list[str] = []
    for p, arg in zip(spec.get("params", []), args, strict=False):
        if "values_are" in p and isinstance(arg, list):
            out += _check_property(p["name"], p["values_are"], arg)
        if not isinstance(arg, list) or not arg or not all(isinstance(x, int) for x in arg):
            continue
        name, seen = p["name"], _count(arg)
        end = p.get("end_once")
        if end is not None:
            top = max(seen) if end == "max" else min(seen)
            if seen[top] != 1:
                what = "largest" if end == "max" else "smallest"
                out.append(f"{name}: its {what} value {top} occurs {seen[top]} times, not once")
        rule = p.get("occur")
        if rule is not None:
            out += _check_rule(name, rule, seen)
    return out


def _count(values: list[Any]) -> dict[Any, int]:
    """How many times each value occurs (the checker imports no collections)."""
    out: dict[Any, int] = {}
    for v in values:
        out[v] = out.get(v, 0) + 1
    return out


def _within(k: int, lo: int, hi: int | None) -> bool:
    return lo <= k and (hi is None or k <= hi)


def _check_rule(name: str, rule: dict[str, Any], seen: dict[Any, int]) -> list[str]:
    lo, hi = rule["each"]
    odd = sorted((k for k in seen.values() if not _within(k, lo, hi)), reverse=True)
    wanted = sorted(
        ((a, b) for c, a, b in rule["but"] for _ in range(c)),
        key=lambda r: (r[0], float("inf") if r[1] is None else r[1]),
        reverse=True,
    )
    out: list[str] = []
    fits = len(odd) == len(wanted) and all(
        _within(k, a, b) for k, (a, b) in zip(odd, wanted, strict=True)
    )
    if not fits:
        shown = dict(sorted(_count(list(seen.values())).items()))
        out.append(
            f"{name}: values occur {shown} times (count: "
            f"values), not every value {lo}..{'' if hi is None else hi} times but "
            f"{rule['but']} ([count, least, most])"
        )
    kinds = rule.get("kinds")
    if kinds is not None and len(seen) > kinds:
        out.append(f"{name}: {len(seen)} distinct values, more than {kinds}")
    return out


def _flat(arg: Any) -> list[Any]:
    return [y for x in arg for y in _flat(x)] if isinstance(arg, list) else [arg]


def _prime(n: int) -> bool:
    """Trial division (the checker's own test), by 6k +- 1 up to the square root."""
    if n < 4:
        return n >= 2
    if n % 2 == 0 or n % 3 == 0:
        return False
    k = 5
    while k * k <= n:
        if n % k == 0 or n % (k + 2) == 0:
            return False
        k += 6
    return True


def _check_property(name: str, rule: list[Any], arg: list[Any]) -> list[str]:
    """Every value of ``arg`` (any depth) has the property: ``["mod", m, r]`` (``v % m ==
    r``), ``["not_mod", m, r]``, ``["prime"]``, ``["pow2"]`` (1, 2, 4, ...)."""
    kind = rule[0]
    tests = {
        "mod": lambda v: v % rule[1] == rule[2],
        "not_mod": lambda v: v % rule[1] != rule[2],
        "prime": _prime,
        "pow2": lambda v: v >= 1 and v & (v - 1) == 0,
    }
    what = {"mod": f"% {rule[1:]}", "not_mod": f"% {rule[1:]} (must not)"}.get(kind, kind)
    bad = [v for v in _flat(arg) if not isinstance(v, int) or not tests[kind](v)]
    return [f"{name}: {v!r} is not {what}" for v in bad[:3]] + (
        [f"{name}: ... {len(bad) - 3} more such values"] if len(bad) > 3 else []
    )


def check_sizes(quantities: list[dict[str, Any]], q: dict[str, int]) -> list[str]:
    """Each quantity's ``pow2`` ([c]: its value plus c a power of two), ``multiple_of`` and
    ``divisor_of`` (another quantity's), where the values are known."""
    out: list[str] = []
    for item in quantities:
        x = q.get(item["name"])
        if x is None:
            continue
        if "pow2" in item:
            v = x + item["pow2"][0]
            if v < 1 or v & (v - 1):
                out.append(f"{item['name']} = {x}: {x} + {item['pow2'][0]} is no power of two")
        for key in ("multiple_of", "divisor_of"):
            other = item.get(key)
            if other is None or q.get(other) is None:
                continue
            k, n = (q[other], x) if key == "multiple_of" else (x, q[other])
            if k == 0 or n % k:
                out.append(f"{item['name']} = {x}: {k} does not divide {n} ({key} {other})")
    return out
