"""The build's funnel as a person reads it: a rich table, Prefect artifact rows, markdown."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table


def _drops(row: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in row["drops"].items()) or "-"


def funnel_rows(funnel: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {
            "stage": r["stage"],
            "tasks in": r["tasks_in"],
            "tasks out": r["tasks_out"],
            "solutions in": r["solutions_in"],
            "solutions out": r["solutions_out"],
            "dropped (reason count)": _drops(r),
            "seconds": r.get("seconds", 0.0),
        }
        for r in funnel
    ]


def funnel_markdown(
    funnel: list[dict[str, Any]], dataset: Path | str, title: str = "Mercury build"
) -> str:
    lines = [
        f"# {title}",
        "",
        f"Dataset: `{dataset}` (parquet/, hf/, README.md)",
        "",
        "| stage | tasks in | tasks out | solutions in | solutions out | dropped | seconds |",
        "|---|---:|---:|---:|---:|---|---:|",
    ]
    for r in funnel:
        lines.append(
            f"| {r['stage']} | {r['tasks_in']} | {r['tasks_out']} | {r['solutions_in']} | "
            f"{r['solutions_out']} | {_drops(r)} | {r.get('seconds', 0.0):.1f} |"
        )
    notes = [n for r in funnel for n in r.get("notes", [])]
    if notes:
        lines += ["", "Notes:", ""] + [f"- {n}" for n in notes]
    return "\n".join(lines) + "\n"


def print_funnel(
    funnel: list[dict[str, Any]], *, title: str, console: Console | None = None
) -> None:
    table = Table(title=title)
    for col, justify in (
        ("stage", "left"),
        ("tasks in", "right"),
        ("tasks out", "right"),
        ("solutions in", "right"),
        ("solutions out", "right"),
        ("dropped (reason count)", "left"),
        ("s", "right"),
    ):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    for r in funnel:
        table.add_row(
            r["stage"],
            str(r["tasks_in"]),
            str(r["tasks_out"]),
            str(r["solutions_in"]),
            str(r["solutions_out"]),
            _drops(r),
            f"{r.get('seconds', 0.0):.1f}",
        )
    if console is None:
        console = Console()
        if not console.is_terminal:  # a log file or a pipe: do not wrap the table at 80 columns
            console = Console(width=160)
    console.print(table)
