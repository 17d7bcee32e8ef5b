"""The checker's part for relations between the fields of rows (the rows' ``"lins"``,
:mod:`.row_fields`): a field bounded by a linear form of the others in its row, and a field of
each row against another field of the next row. Code of its own, independent of the runtime's
``_fit_lins`` and ``_chain_rows``."""

from __future__ import annotations

from typing import Any


def check_row_fields(spec: dict[str, Any], args: list[Any]) -> list[str]:
    """Every rule of every rows spec's ``lins``, on the rows the input gives."""
    out: list[str] = []
    for p, rows in zip(spec.get("params", []), args, strict=False):
        if "lins" not in p or not isinstance(rows, list):
            continue
        fields = p.get("fields") or []
        bad: list[str] = []
        for rule in p["lins"]:
            if rule[0] == "row":
                bad += _row_rule(p["name"], fields, rule, rows)
            else:
                bad += _next_rule(p["name"], fields, rule, rows)
        out += bad[:3] + ([f"... {len(bad) - 3} more such rows"] if len(bad) > 3 else [])
    return out


def _name(fields: list[str], col: int) -> str:
    return fields[col] if col < len(fields) else f"[{col}]"


def _row_rule(name: str, fields: list[str], rule: list[Any], rows: list[Any]) -> list[str]:
    """``row[t] op sum(coef * row[col]) + c`` in every row of integers."""
    _, t, op, terms, c = rule
    text = " + ".join(f"{k} * {_name(fields, j)}" for j, k in terms)
    bad = []
    for i, row in enumerate(rows):
        cols = [t, *(j for j, _ in terms)]
        if not isinstance(row, list) or max(cols) >= len(row):
            continue  # the shape was reported with the lengths
        if not all(isinstance(row[j], int) for j in cols):
            continue  # a value of another type was reported with the domain
        bound = sum(k * row[j] for j, k in terms) + c
        if not (row[t] <= bound if op == "<=" else row[t] >= bound):
            bad.append(
                f"{name}[{i}] = {row!r} breaks {_name(fields, t)} {op} {text} + {c} "
                f"({row[t]} against {bound})"
            )
    return bad


def _next_rule(name: str, fields: list[str], rule: list[Any], rows: list[Any]) -> list[str]:
    """``rows[i][a] op rows[i + 1][b]`` for every two consecutive rows."""
    _, a, b, op = rule
    bad = []
    for i in range(1, len(rows)):
        prev, row = rows[i - 1], rows[i]
        if not isinstance(prev, list) or not isinstance(row, list):
            continue
        if max(a, b) >= min(len(prev), len(row)):
            continue
        x, y = prev[a], row[b]
        if not (isinstance(x, int) and isinstance(y, int)):
            continue
        if not (x < y if op == "<" else x <= y):
            bad.append(
                f"{name}[{i - 1}][{a}] = {x} and {name}[{i}][{b}] = {y} break "
                f"{_name(fields, a)} {op} {_name(fields, b)} of the next row"
            )
    return bad
