"""Where a build is (quicksilver/orchestration/progress.py): the status line, the estimate from recorded costs, a line
now and then when nobody watches a terminal, and a live bar when someone does."""

from __future__ import annotations

import io
import time

from quicksilver.orchestration.progress import BuildProgress, Step


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _progress(out: io.StringIO, clock: Clock, **kw) -> BuildProgress:
    return BuildProgress("mercury", "Mercury build", ui=False, out=out, clock=clock, **kw)


SHARDS = [("shard-0000", 2, 10), ("shard-0001", 1, 4), ("shard-0002", 1, 6)]


def _sharded(recorded: dict[tuple[str, str], float] | None = None) -> list[Step]:
    recorded = recorded or {}
    return [
        Step(
            stage,
            part,
            tasks,
            solutions,
            recorded.get((stage, part)),
            holds=_holds(part, tasks, solutions),
        )
        for part, tasks, solutions in SHARDS
        for stage in ("testcases", "profile")
    ]


def _holds(part: str, tasks: int, solutions: int) -> dict[str, int]:
    """A shard's tasks (made-up slugs), its solutions shared among them."""
    return {f"{part}-{i}": solutions // tasks + (i < solutions % tasks) for i in range(tasks)}


def test_the_line_counts_steps_tasks_and_solutions_through_every_sharded_stage():
    out, clock = io.StringIO(), Clock()
    p = _progress(out, clock, live=False)
    p.plan([Step("load", "", 0, 0, 1.0), Step("publish", "", 0, 0, 2.0)])
    p.plan(_sharded())
    p.start("load")
    clock.now += 1
    p.finish("load", "", {"reused": False, "seconds": 1.0})
    p.start("testcases", "shard-0000")
    clock.now += 30
    p.finish("testcases", "shard-0000", {"reused": False})
    line = p.line()
    # a shard whose profile has not run is not through: its tasks and solutions are not done
    assert line.startswith("Mercury build: 2/8 steps · tasks 0/4 · solutions 0/20 · 31s · "), line
    p.start("profile", "shard-0000")
    clock.now += 90
    line = p.line()
    assert "(profile 0/3)" in line and "running profile/shard-0000 1m30s" in line, line
    p.finish("profile", "shard-0000", {"reused": False})
    line = p.line()
    assert "3/8 steps" in line and "tasks 2/4 · solutions 10/20" in line, line


def test_the_estimate_uses_recorded_costs_then_this_runs_rate_and_names_what_has_none():
    out, clock = io.StringIO(), Clock()
    # costs an earlier build of the same folder recorded, for every step but the profile ones
    recorded = {("testcases", part): 20.0 for part, _, _ in SHARDS}
    p = _progress(out, clock, live=False, slots=2)
    p.plan([Step("publish", "", 0, 0, 4.0)])
    p.plan(_sharded(recorded))
    left, unknown = p.remaining()
    assert unknown == ["profile"] and left == 4.0 + 3 * 20.0 / 2
    assert "over 34s left (no cost yet for profile)" in p.line()
    # the first profile shard (2 tasks) takes 100 s: 50 s per task for the other two (1 task each)
    p.start("profile", "shard-0000")
    clock.now += 100
    p.finish("profile", "shard-0000", {"reused": False})
    left, unknown = p.remaining()
    assert unknown == [] and left == 4.0 + (3 * 20.0 + 2 * 50.0) / 2
    assert "about 1m24s left" in p.line()
    # a reused step (its manifest matched) says nothing about what the stage costs
    p.finish("profile", "shard-0001", {"reused": True})
    assert p.remaining() == (4.0 + (3 * 20.0 + 50.0) / 2, [])


def test_a_stage_packed_by_work_is_followed_task_by_task_and_estimated_by_its_work():
    out, clock = io.StringIO(), Clock()
    p = _progress(out, clock, live=False, slots=1)
    # tasks a, b, c, d (5, 3, 2 and 4 solutions); d is dropped by testcases
    p.expect(["testcases", "profile"])
    p.plan(
        [
            Step("testcases", "shard-0000", 2, 8, holds={"a": 5, "b": 3}),
            Step("testcases", "shard-0001", 2, 6, holds={"c": 2, "d": 4}),
        ]
    )
    for part in ("shard-0000", "shard-0001"):
        p.start("testcases", part)
        clock.now += 10
        p.finish("testcases", part, {"reused": False})
    # testcases done, profile not planned yet: no task is through
    assert "tasks 0/4 · solutions 0/14" in p.line(), p.line()
    # profile's own shards: the heavy task alone (work 9), the others together (work 1)
    p.plan(
        [
            Step("profile", "shard-0000", 1, 5, holds={"a": 5}, work=9.0),
            Step("profile", "shard-0001", 2, 5, holds={"b": 3, "c": 2}, work=1.0),
        ]
    )
    p.start("profile", "shard-0000")
    clock.now += 90
    p.finish("profile", "shard-0000", {"reused": False})
    # 10 s per unit of work, not 90 s per task; d, dropped before profile, is through
    assert p.remaining() == (10.0, [])
    assert "tasks 2/4 · solutions 9/14" in p.line(), p.line()
    p.finish("profile", "shard-0001", {"reused": False})
    assert "tasks 4/4 · solutions 14/14" in p.line(), p.line()


def test_without_a_terminal_a_stage_ending_and_a_silence_each_print_a_line():
    out, clock = io.StringIO(), Clock()
    with _progress(out, clock, live=False, heartbeat=0.2) as p:
        p.plan([Step("load", "", 0, 0, None), Step("dedup", "", 0, 0, None)])
        p.start("load")
        p.finish("load", "", {"reused": False})
        assert out.getvalue().splitlines() == [
            "progress: Mercury build: 1/2 steps · 0s · no estimate yet (no cost yet for dedup)"
        ]
        p.start("dedup")
        clock.now += 75  # a long stage: the heartbeat says where the build is
        deadline = time.monotonic() + 10
        while "running dedup 1m15s" not in out.getvalue():
            assert time.monotonic() < deadline, out.getvalue()
            time.sleep(0.05)
        p.finish("dedup", "", {"reused": False})
    lines = out.getvalue().splitlines()
    assert lines[-1] == "progress: Mercury build: 2/2 steps · 1m15s", lines
    assert len(lines) == len(set(lines)), lines  # the same line is never printed twice


def test_in_a_terminal_a_live_bar_shows_the_same_status():
    out, clock = io.StringIO(), Clock()
    with _progress(out, clock, live=True, width=80) as p:
        p.plan(
            [
                Step("load", "", 0, 0, 2.0),
                Step("profile", "shard-0000", 4, 30, None, holds=_holds("shard-0000", 4, 30)),
            ]
        )
        p.start("load")
        clock.now += 2
        p.finish("load", "", {"reused": False})
        p.finish("profile", "shard-0000", {"reused": False})
    shown = out.getvalue()
    # in 80 columns: the title whole, the status folded onto more lines rather than cut
    assert "Mercury build" in shown and "2/2 steps · tasks 4/4 · solutions 30/30" in shown, shown
    assert "…" not in shown, shown
    assert "progress:" not in shown  # the bar, not log lines
