"""The checker's part for uniqueness across parameters (the spec's ``uniq``,
:mod:`.uniqueness`): code of its own, independent of the runtime's ``_uniq``; a module apart so
that checker.py stays within the size a module may have."""

from __future__ import annotations

from typing import Any


def check_uniq(spec: dict[str, Any], args: list[Any]) -> list[str]:
    """Each rule of ``spec["uniq"]`` on one input (``args`` in parameter order)."""
    names = [p["name"] for p in spec.get("params", [])]
    out: list[str] = []
    for rule in spec.get("uniq", ()):
        of = rule["of"]
        if rule["mode"] == "groups":
            twice = _twice([tuple(args[i] for i in pair) for pair in of])
            if twice is not None:
                held = " and ".join("(" + ", ".join(names[i] for i in pair) + ")" for pair in of)
                out.append(f"the place {twice!r} is held twice by {held}")
            continue
        lists = [_items(kind, args[i]) for kind, i in zip(rule["items"], of, strict=True)]
        if any(items is None for items in lists):
            continue  # the shape was reported with the lengths
        what = ", ".join(names[i] for i in of)
        if rule["mode"] == "tuples":
            if len({len(items) for items in lists}) != 1:
                continue  # the lengths were reported
            twice = _twice(list(zip(*lists, strict=True)))
            if twice is not None:
                out.append(f"the items {twice!r} of {what} occur at two indexes")
        elif rule["mode"] == "whole":
            twice = _twice([x for items in lists for x in items])
            if twice is not None:
                out.append(f"{twice!r} occurs twice over {what}")
        else:
            for a in range(len(lists)):
                for b in range(a + 1, len(lists)):
                    both = set(lists[a]) & set(lists[b])
                    if both:
                        shared = sorted(map(repr, both))[0]
                        out.append(f"{names[of[a]]} and {names[of[b]]} both hold {shared}")
    return out


def _items(kind: str, arg: Any) -> list[Any] | None:
    """The items of one list as hashable values (rows as tuples), or None for a bad shape."""
    if not isinstance(arg, list):
        return None
    if kind == "one_row":
        return [tuple(arg)]
    if kind == "row":
        if not all(isinstance(r, list) for r in arg):
            return None
        return [tuple(r) for r in arg]
    if not all(isinstance(x, int | str) for x in arg):
        return None
    return list(arg)


def _twice(items: list[Any]) -> Any:
    """An item that occurs twice, or None."""
    seen: set[Any] = set()
    for x in items:
        if x in seen:
            return x
        seen.add(x)
    return None
