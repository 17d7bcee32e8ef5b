"""Where a build is: a live line in a terminal, a status line now and then in a log, and a
progress artifact in the Prefect UI.

A build is a list of *steps*: each whole-build stage once, each sharded stage once per shard
(``testcases/shard-0003``). The flow (quicksilver/orchestration/build.py and chains.py) says when
a step starts and when it ends; :class:`BuildProgress` turns that into

- in a terminal, a rich progress bar redrawn every second: the steps done of all, the stage the
  build is in, the tasks and solutions whose shards are through every sharded stage, what runs
  now and for how long, and an estimate of the time left;
- when stderr is not a terminal (a CI log, ``make ... | tee``), the same as one line, printed when
  a stage ends everywhere and at least every :data:`HEARTBEAT` seconds (builds used to be silent
  for 4 to 5 minutes);
- in the Prefect UI, a progress artifact ``<build>-progress`` updated at every step's end, and
  the same line in the flow run's logs.

The estimate comes from recorded costs: a step's own manifest from an earlier build of the same
out_dir says how long it took (``seconds``), even when its key has changed since; a step with no
record is expected to take what the finished steps of its stage took per task in this run. A
sharded stage's remaining work is shared by the worker slots. Until every stage left has a cost
(its own record or a finished step), the estimate says so rather than guess.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TextIO

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn
from rich.table import Column

from quicksilver.orchestration.server_watch import window_closed

log = logging.getLogger("quicksilver")

HEARTBEAT = 60.0
"""Seconds without a status line after which a build not watched in a terminal prints one."""


@dataclass
class Step:
    """One stage run (``part`` "": a whole-build stage) and what is known of its cost."""

    stage: str
    part: str
    tasks: int
    solutions: int
    recorded: float | None = None  # seconds an earlier run of this step took (its manifest)
    started: float | None = None
    seconds: float | None = None  # how long it took here, once done
    reused: bool = False
    # a shard's tasks, slug -> solutions: a stage whose shards hold other tasks than the stage
    # before (packed by their work) is followed task by task, not shard by shard
    holds: dict[str, int] = field(default_factory=dict)
    work: float | None = None  # what the shard was packed by: its expected time follows it

    @property
    def label(self) -> str:
        return f"{self.stage}/{self.part}" if self.part else self.stage


def _duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    minutes, secs = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{secs:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"


class BuildProgress:
    """The progress of one build (see the module docstring). ``slots``: how many sharded steps
    run at once; ``live``: draw in a terminal (None: when stderr is one); ``ui``: record a Prefect
    progress artifact (``name``: the build's name, the artifact's key)."""

    def __init__(
        self,
        name: str,
        title: str,
        *,
        slots: int = 1,
        live: bool | None = None,
        ui: bool = True,
        out: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
        heartbeat: float = HEARTBEAT,
        width: int | None = None,
    ) -> None:
        self.name, self.title, self.slots = name, title, max(1, slots)
        self.out = out or sys.stderr
        self.live = self.out.isatty() if live is None else live
        self.ui, self.clock, self.heartbeat = ui, clock, heartbeat
        self.width = width  # the terminal's, unless given
        self.steps: dict[tuple[str, str], Step] = {}
        self.expected: list[str] = []  # the sharded stages (:meth:`expect`)
        self.t0 = clock()
        self._lock = threading.Lock()
        self._last_line = self.t0
        self._printed = ""
        self._stop = threading.Event()
        self._artifact: Any = None
        self._ui_failed = False
        self._bar: Progress | None = None
        self._bar_task: Any = None
        self._ticker: threading.Thread | None = None

    # -- the plan --------------------------------------------------------------------------------

    def expect(self, stages: list[str]) -> None:
        """The sharded stages every task goes through, some planned later (a stage whose shards
        are packed once the stages before it are done): a task is through only after them."""
        with self._lock:
            self.expected = list(stages)

    def plan(self, steps: list[Step]) -> None:
        """Add steps still to come (whole stages first; shards once the shards are known)."""
        with self._lock:
            for step in steps:
                self.steps.setdefault((step.stage, step.part), step)
        self._show()

    def start(self, stage: str, part: str = "") -> None:
        with self._lock:
            step = self.steps.get((stage, part))
            if step is not None and step.started is None:
                step.started = self.clock()
        self._show()

    def finish(self, stage: str, part: str = "", summary: dict[str, Any] | None = None) -> None:
        """A step ended (``summary``: the stage's, when it completed: its seconds, whether it
        was reused)."""
        with self._lock:
            step = self.steps.get((stage, part))
            if step is None or step.seconds is not None:
                return
            now = self.clock()
            step.seconds = now - (step.started if step.started is not None else now)
            if summary is not None:
                step.reused = bool(summary.get("reused"))
            stage_done = all(s.seconds is not None for s in self.steps.values() if s.stage == stage)
        line = self.line()
        if self.ui:
            self._record_ui(line)
        if stage_done and not self.live:
            self._print(line)
        self._show()

    # -- what is shown ---------------------------------------------------------------------------

    def _expected(self, step: Step) -> float | None:
        """What ``step`` is expected to take by this run's finished steps of its stage (reused
        ones say nothing): per unit of the work its shards were packed by when they were, else
        per task; None when none finished."""
        done = [
            s
            for s in self.steps.values()
            if s.stage == step.stage and s.seconds is not None and not s.reused
        ]
        if not done:
            return None
        seconds = sum(s.seconds or 0.0 for s in done)
        work = sum(s.work or 0.0 for s in done)
        if step.work is not None and work > 0 and all(s.work is not None for s in done):
            return seconds / work * step.work
        return seconds / max(1, sum(max(1, s.tasks) for s in done)) * max(1, step.tasks)

    def remaining(self) -> tuple[float, list[str]]:
        """Seconds the build still needs by the recorded costs, and the stages left that have
        no cost yet (their time is not in the figure)."""
        now = self.clock()
        whole = sharded = 0.0
        unknown: list[str] = []
        for step in self.steps.values():
            if step.seconds is not None:
                continue
            expected = self._expected(step)
            expected = expected if expected is not None else step.recorded
            if expected is None:
                if step.stage not in unknown:
                    unknown.append(step.stage)
                continue
            if step.started is not None:
                expected = max(0.0, expected - (now - step.started))
            if step.part:
                sharded += expected
            else:
                whole += expected
        return whole + sharded / self.slots, unknown

    def counts(self) -> dict[str, int]:
        """Steps, and the tasks and solutions through every sharded stage: a task is through when
        a finished step of every sharded stage (those planned, and those :meth:`expect` named)
        holds it, or the stage was planned without it (dropped before)."""
        steps = list(self.steps.values())
        sharded = [s for s in steps if s.part]
        stages = set(self.expected) | {s.stage for s in sharded}
        planned = {s.stage for s in sharded}
        solutions: dict[str, int] = {}
        held: dict[str, set[str]] = {}
        done: dict[str, set[str]] = {}
        for s in sharded:
            for slug, n in s.holds.items():
                solutions.setdefault(slug, n)
                held.setdefault(slug, set()).add(s.stage)
                if s.seconds is not None:
                    done.setdefault(slug, set()).add(s.stage)
        # a stage planned without a task: the task was dropped before it, nothing left to do
        through = [
            slug
            for slug in solutions
            if all(
                st in done.get(slug, ()) or (st in planned and st not in held[slug])
                for st in stages
            )
        ]
        return {
            "steps": len(steps),
            "steps_done": sum(s.seconds is not None for s in steps),
            "tasks": len(solutions),
            "tasks_done": len(through),
            "solutions": sum(solutions.values()),
            "solutions_done": sum(solutions[x] for x in through),
        }

    def line(self) -> str:
        """The status: ``mercury: 14/27 steps (profile 3/9) · tasks 12/36 · solutions 80/229 ·
        4m10s · about 5m left · running profile/shard-0004 1m02s``."""
        with self._lock:
            c = self.counts()
            now = self.clock()
            running = sorted(
                (s for s in self.steps.values() if s.started is not None and s.seconds is None),
                key=lambda s: s.started or 0.0,
            )
            current = running[0].stage if running else None
            left, unknown = self.remaining()
        parts = [f"{self.title}: {c['steps_done']}/{c['steps']} steps"]
        if current is not None:
            of_stage = [s for s in self.steps.values() if s.stage == current]
            done = sum(s.seconds is not None for s in of_stage)
            parts[0] += f" ({current} {done}/{len(of_stage)})" if len(of_stage) > 1 else ""
        if c["tasks"]:
            parts.append(f"tasks {c['tasks_done']}/{c['tasks']}")
            parts.append(f"solutions {c['solutions_done']}/{c['solutions']}")
        parts.append(_duration(now - self.t0))
        if c["steps_done"] < c["steps"]:
            if not unknown:
                parts.append(f"about {_duration(left)} left")
            elif left >= 1:
                parts.append(f"over {_duration(left)} left (no cost yet for {', '.join(unknown)})")
            else:
                parts.append(f"no estimate yet (no cost yet for {', '.join(unknown)})")
        if running:
            shown = ", ".join(
                f"{s.label} {_duration(now - (s.started or now))}" for s in running[:3]
            )
            more = f" and {len(running) - 3} more" if len(running) > 3 else ""
            parts.append(f"running {shown}{more}")
        return " · ".join(parts)

    def _print(self, line: str) -> None:
        self._last_line = self.clock()
        if line != self._printed:
            self._printed = line
            print(f"progress: {line}", file=self.out, flush=True)

    def _show(self) -> None:
        if self._bar is not None:
            c = self.counts()
            self._bar.update(
                self._bar_task,
                total=max(1, c["steps"]),
                completed=c["steps_done"],
                status=self.line().split(": ", 1)[1],
            )

    def _record_ui(self, line: str) -> None:
        """The progress artifact and a log line in the Prefect UI (not once the server went
        away; a failure is said once)."""
        if self._ui_failed or window_closed():
            return
        c = self.counts()
        percent = 100.0 * c["steps_done"] / max(1, c["steps"])
        try:
            from prefect.artifacts import create_progress_artifact, update_progress_artifact
            from prefect.logging import get_run_logger

            get_run_logger().info("progress: %s", line)
            if self._artifact is None:
                self._artifact = create_progress_artifact(
                    percent, key=f"{self.name}-progress", description=line
                )
            else:
                update_progress_artifact(self._artifact, percent, description=line)
        except Exception as exc:  # the UI is a view: the build goes on without it
            self._ui_failed = True
            log.warning("could not record the build's progress in the Prefect UI: %s", exc)

    # -- running ---------------------------------------------------------------------------------

    def _tick(self) -> None:
        while not self._stop.wait(1.0 if self.live else min(self.heartbeat, 5.0)):
            if self.live:
                self._show()
            elif self.clock() - self._last_line >= self.heartbeat:
                self._print(self.line())

    def __enter__(self) -> BuildProgress:
        if self.live:
            self._bar = Progress(
                # the title and the bar keep their width; the status wraps rather than being cut
                # (an 80-column terminal cut the estimate off)
                TextColumn("[bold]{task.description}", table_column=Column(no_wrap=True)),
                BarColumn(bar_width=16),
                TextColumn("{task.fields[status]}", table_column=Column(overflow="fold")),
                console=Console(file=self.out, width=self.width),
                transient=False,
                redirect_stdout=False,
                redirect_stderr=False,
            )
            self._bar_task = self._bar.add_task(self.title, total=1, status="starting")
            self._bar.start()
        self._ticker = threading.Thread(target=self._tick, name="build-progress", daemon=True)
        self._ticker.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._bar is not None:
            self._show()
            self._bar.stop()
        elif self.steps:
            self._print(self.line())
