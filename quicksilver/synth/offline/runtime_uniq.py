"""The runtime of uniqueness across parameters (:mod:`.uniqueness`, the spec's ``uniq``).

Copied verbatim into every emitted generator with the rest of the runtime (``UNIQ_RUNTIME``
in :data:`.runtime._RUNTIME`), so they use only ``random`` and builtins. They run after every
parameter is drawn, and only on a spec that has ``uniq``: a spec without it draws as before.
An item that breaks a rule is drawn again from the rule's constant domain (a string at its
length, one longer every 50 tries), among the values left when random tries fail.
"""

from __future__ import annotations

import random


def _uniq(spec: dict, args: list) -> list:
    """Each rule of ``spec["uniq"]`` made to hold on the drawn ``args``; ``[None]`` when the
    draw leaves it no room, so the input is drawn again."""
    out = list(args)
    for rule in spec["uniq"]:
        if rule["mode"] == "groups":
            done = _uniq_groups(rule, out)
        else:
            done = _uniq_tuples(rule, out) if rule["mode"] == "tuples" else _uniq_apart(rule, out)
        if not done:
            return [None]
    return out


def _uniq_tuples(rule: dict, out: list) -> bool:
    """No two indexes with the same items in every list (``(ranks[i], suits[i])``)."""
    lists = [list(out[i]) for i in rule["of"]]
    cols = {"cols": rule["dom"]}
    seen: set = set()
    for i in range(len(lists[0])):
        key = tuple(lst[i] for lst in lists)
        if key in seen:
            key = _uniq_item("row", cols, seen, None, key)
            if key is None:
                return False
            for lst, x in zip(lists, key, strict=True):
                lst[i] = x
        seen.add(key)
    for i, lst in zip(rule["of"], lists, strict=True):
        out[i] = lst
    return True


def _uniq_groups(rule: dict, out: list) -> bool:
    """Places held by scalars (``(a, b)``, ``(c, d)``): no two the same."""
    seen: set = set()
    for pair, cols in zip(rule["of"], rule["dom"], strict=True):
        key = tuple(out[i] for i in pair)
        if key in seen:
            key = _uniq_item("row", {"cols": cols}, seen, None, key)
            if key is None:
                return False
            for i, x in zip(pair, key, strict=True):
                out[i] = x
        seen.add(key)
    return True


def _uniq_apart(rule: dict, out: list) -> bool:
    """``disjoint``: no item in two lists; ``whole``: no item twice over all of them (a list
    distinct of its own keeps its items apart in both)."""
    others: set = set()
    for t, i in enumerate(rule["of"]):
        kind, dom = rule["items"][t], rule["dom"][t]
        arg = out[i]
        items = (
            [tuple(r) for r in arg]
            if kind == "row"
            else [tuple(arg)]
            if kind == "one_row"
            else list(arg)
        )
        apart = rule["mode"] == "whole" or rule["own"][t]
        own: set = set()
        for j, x in enumerate(items):
            if x in others or (apart and x in own):
                x = _uniq_item(kind, dom, others, own if apart else None, x)
                if x is None:
                    return False
                items[j] = x
            own.add(x)
        others |= own
        if kind == "row":
            out[i] = [list(r) for r in items]
        elif kind == "one_row":
            out[i] = list(items[0])
        else:
            out[i] = items
    return True


def _uniq_item(kind: str, dom: dict, others: set, own: set | None, old: object) -> object:
    """An item of ``dom`` in neither set (``own`` None: only ``others``), or None."""
    for tries in range(200):
        if kind == "string":
            length = len(old) + tries // 50
            if length > dom["hi"]:
                length = random.randint(dom["lo"], dom["hi"])
            x = "".join(random.choice(dom["alphabet"]) for _ in range(length))
        elif kind == "value":
            x = _uniq_value(dom)
        else:
            x = tuple(_uniq_value(c) for c in dom["cols"])
        if x not in others and (own is None or x not in own):
            return x
    if kind == "string":
        return None
    cols = [dom] if kind == "value" else dom["cols"]
    count = 1
    for c in cols:
        count *= len(c["set"]) if "set" in c else c["hi"] - c["lo"] + 1
    if count > 100000:
        return None
    left = []
    for code in range(count):
        item = []
        for c in cols:
            size = len(c["set"]) if "set" in c else c["hi"] - c["lo"] + 1
            code, digit = divmod(code, size)
            item.append(c["set"][digit] if "set" in c else c["lo"] + digit)
        x = item[0] if kind == "value" else tuple(item)
        if x not in others and (own is None or x not in own):
            left.append(x)
    return random.choice(left) if left else None


def _uniq_value(dom: dict) -> object:
    return random.choice(dom["set"]) if "set" in dom else random.randint(dom["lo"], dom["hi"])


UNIQ_RUNTIME = (_uniq, _uniq_tuples, _uniq_groups, _uniq_apart, _uniq_item, _uniq_value)
