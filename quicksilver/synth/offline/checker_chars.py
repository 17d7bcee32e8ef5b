"""The checker's reading of the rules on characters beyond an alphabet (``counts``, ``at``:
``char_sentences.py``), written apart from the runtime's drawing code like the rest of
:mod:`~.checker`: each count over each string (or over the whole parameter), and each ruled
position's character."""

from __future__ import annotations

from typing import Any

_SHOWN = 5


def check_chars(p: dict[str, Any], rows: list[tuple[str, list[tuple[str, Any]]]]) -> list[str]:
    """The broken rules of ``p["counts"]`` and ``p["at"]``, for the innermost lists ``rows``
    (``(where, [(where, character), ...])``, as :class:`~.checker._Shape` holds them)."""
    out: list[str] = []
    for c in p.get("counts", ()):
        if c["scope"] == "each":
            units = [(where, [x for _, x in row]) for where, row in rows]
        else:
            units = [(p["name"], [x for _, row in rows for _, x in row])]
        for where, chars in units:
            n = sum(1 for x in chars if isinstance(x, str) and x in c["chars"])
            shown = "".join(dict.fromkeys(c["chars"]))[:12]
            lo, hi = c["min"], c["max"]
            if "part" in c:  # exactly a / b of the characters
                a, b = c["part"]
                if n * b != len(chars) * a:
                    out.append(f"{where} holds {n} of {shown!r}, not {a} / {b} of {len(chars)}")
                continue
            if n < lo or (hi is not None and n > hi):
                out.append(
                    f"{where} holds {n} of {shown!r}, outside [{lo}, {'' if hi is None else hi}]"
                )
            elif c["mod"] and n % c["mod"][0] != c["mod"][1]:
                out.append(f"{where} holds {n} of {shown!r}, not {c['mod'][1]} mod {c['mod'][0]}")
    for sel, allowed in p.get("at", ()):
        for _, row in rows:
            for i, (where, x) in enumerate(row):
                hit = i % sel[0] == sel[1] if isinstance(sel, list) else i == sel
                if hit and (not isinstance(x, str) or x not in allowed):
                    out.append(f"{where} = {x!r} is not one of {allowed[:30]!r} (its position)")
    if p.get("kinds"):
        out += _check_kinds(p["kinds"], rows)
    for where, row in rows if p.get("tokens") else ():
        text = "".join(str(x) for _, x in row)
        made = [True] + [False] * len(text)  # made[i]: text[:i] is a run of whole tokens
        for i in range(1, len(text) + 1):
            made[i] = any(made[i - len(t)] and text.endswith(t, 0, i) for t in p["tokens"])
        if not made[-1]:
            out.append(f"{where} = {text[:40]!r} is not made of the tokens {p['tokens']}")
    if len(out) > _SHOWN:
        out = [*out[:_SHOWN], f"{p['name']}: {len(out) - _SHOWN} more characters against a rule"]
    return out


def _check_kinds(rule: list[Any], rows: list[tuple[str, list[tuple[str, Any]]]]) -> list[str]:
    """``["times", k]``: each character of a string that occurs, k times; ``["repeat", 2]``:
    one at least twice; ``["kinds", k]``: k distinct characters at least."""
    name, k = rule
    out = []
    for where, row in rows:
        seen: dict[Any, int] = {}
        for _, x in row:
            seen[x] = seen.get(x, 0) + 1
        if name == "times" and any(n != k for n in seen.values()):
            out.append(f"{where}: a character occurs other than {k} times")
        elif name == "repeat" and all(n < 2 for n in seen.values()):
            out.append(f"{where}: no character occurs twice")
        elif name == "kinds" and len(seen) < k:
            out.append(f"{where}: {len(seen)} distinct characters, fewer than {k}")
    return out
