"""The checker's part for how many times values occur (the spec's ``occur`` and ``end_once``,
:mod:`.occurs`). Code of its own, independent of the runtime's ``_occurs``; a module apart so
that checker.py stays within the size a module may have."""

from __future__ import annotations

from collections import Counter
from typing import Any


def check_occurs(spec: dict[str, Any], args: list[Any]) -> list[str]:
    """Each list with ``occur``: every value occurs within ``each`` ([least, most or None])
    times, but for exactly as many values as the exceptions (``but``: [count, least, most])
    name, each occurring as one of them allows (the counts matched largest first); no more
    distinct values than ``kinds``. With ``end_once``: its largest (``max``) or smallest
    (``min``) value occurs once."""
    out: list[str] = []
    for p, arg in zip(spec.get("params", []), args, strict=False):
        if not isinstance(arg, list) or not arg or not all(isinstance(x, int) for x in arg):
            continue
        name, seen = p["name"], Counter(arg)
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


def _within(k: int, lo: int, hi: int | None) -> bool:
    return lo <= k and (hi is None or k <= hi)


def _check_rule(name: str, rule: dict[str, Any], seen: Counter[int]) -> list[str]:
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
        out.append(
            f"{name}: values occur {dict(sorted(Counter(seen.values()).items()))} times (count: "
            f"values), not every value {lo}..{'' if hi is None else hi} times but "
            f"{rule['but']} ([count, least, most])"
        )
    kinds = rule.get("kinds")
    if kinds is not None and len(seen) > kinds:
        out.append(f"{name}: {len(seen)} distinct values, more than {kinds}")
    return out
