"""Solutions that try to make themselves look faster than they are, on every meter.

Each attack returns correct answers (otherwise the verdict alone would stop it) and tries to move
its real work where it is not counted: a cache across calls or passes, work at import, answers
that are right only when judged, a patched harness, work deferred to a signal handler, and the
count itself. The bar: an attack either fails its verdict or costs at least most of what the
honest solution costs. A bubble sort of 250 values is the honest work (O(n^2), tens of
milliseconds of CPU, millions of instructions).
"""

from __future__ import annotations

import itertools
import json
import random
import sys
import textwrap

import pytest

from quicksilver.config import MeasureConfig
from quicksilver.profiler import Case, Job, ProfileTask, RunResult, profile_many
from quicksilver.sandbox import isolation as iso
from tests.conftest import quick_sandbox, requires_bwrap, requires_qemu

pytestmark = requires_bwrap

N = 250
_rng = random.Random(7)
INPUTS = [[_rng.randrange(10_000) for _ in range(N)] for _ in range(3)]
TASK = ProfileTask(
    "bubble", "sortArray", tuple(Case([xs], sorted(xs)) for xs in INPUTS), kind="class"
)

BUBBLE = """
def bubble(xs):
    xs = list(xs)
    n = len(xs)
    for i in range(n):
        for j in range(n - 1 - i):
            if xs[j] > xs[j + 1]:
                xs[j], xs[j + 1] = xs[j + 1], xs[j]
    return xs
"""

HONEST = (
    BUBBLE
    + """
class Solution:
    def sortArray(self, nums):
        return bubble(nums)
"""
)

ATTACKS = {
    # a cache of answers across calls (an innocent functools.cache at module level gains the same)
    "cache": BUBBLE
    + """
import functools
@functools.cache
def cached(t):
    return tuple(bubble(t))
class Solution:
    def sortArray(self, nums):
        return list(cached(tuple(nums)))
""",
    # every answer computed at import, from the inputs found in the harness (up the stack)
    "precompute": BUBBLE
    + """
import sys
frame = sys._getframe()
while frame is not None and not hasattr(frame.f_locals.get("self"), "prepared"):
    frame = frame.f_back
ANSWERS = {tuple(args[0]): bubble(args[0]) for args in frame.f_locals["self"].prepared}
class Solution:
    def sortArray(self, nums):
        return ANSWERS.get(tuple(nums)) or bubble(nums)
""",
    # right when it is judged (the first pass leaves a mark in /tmp), junk afterwards
    "right-when-judged": BUBBLE
    + """
import os
MARK = "/tmp/judged-once"
JUDGED = os.path.exists(MARK)
try:
    open(MARK, "w").close()
except OSError:
    pass
class Solution:
    def sortArray(self, nums):
        return list(nums) if JUDGED else bubble(nums)
""",
    # answers left in a file by one pass, read by the next (every pass judged: all correct)
    "file-cache": BUBBLE
    + """
import json
PATH = "/tmp/answers.json"
try:
    with open(PATH) as fh:
        CACHE = json.load(fh)
except (OSError, ValueError):
    CACHE = {}
class Solution:
    def sortArray(self, nums):
        key = ",".join(map(str, nums))
        if key not in CACHE:
            CACHE[key] = bubble(nums)
            try:
                with open(PATH, "w") as fh:
                    json.dump(CACHE, fh)
            except OSError:
                pass
        return CACHE[key]
""",
    # the harness's command table, found up the stack: calls do nothing, reports compute
    "patched-harness": BUBBLE
    + """
import sys
frame = sys._getframe()
while frame is not None and "handlers" not in frame.f_locals:
    frame = frame.f_back
HANDLERS = frame.f_locals["handlers"]
HARNESS = HANDLERS["report"].__self__
REAL_REPORT = HANDLERS["report"]
def fake_call(msg):
    return {"ok": True}
def late_report(msg):
    case = int(msg["case"])
    HARNESS.results[case] = bubble(HARNESS.prepared[case][0])
    return REAL_REPORT(msg)
class Solution:
    def sortArray(self, nums):
        return bubble(nums)
HANDLERS["call"] = fake_call
HANDLERS["report"] = late_report
""",
    # the answer is filled in by a signal handler after the call has returned (the handler is
    # set in the call: the harness puts handlers back as they were at the end of every command)
    "deferred-to-a-signal": BUBBLE
    + """
import signal
PENDING = []
def later(*_):
    while PENDING:
        out, nums = PENDING.pop()
        out[:] = bubble(nums)
class Solution:
    def sortArray(self, nums):
        out = []
        PENDING.append((out, nums))
        signal.signal(signal.SIGALRM, later)
        signal.setitimer(signal.ITIMER_REAL, 0.0001)
        while PENDING and False:
            pass
        return out
""",
}

# Lazy answers: LeetCode's driver iterates a list answer, so accepted solutions return generators
# and ``map`` objects; the harness makes them lists inside the measured call (never while it
# serialises, outside the measurement), so the work they put off is counted.
ATTACKS["lazy-generator"] = (
    BUBBLE
    + """
class Solution:
    def sortArray(self, nums):
        def later():
            yield from bubble(nums)
        return later()
"""
)
ATTACKS["lazy-map"] = (
    BUBBLE
    + """
class Solution:
    def sortArray(self, nums):
        box = []
        def nth(i):
            if not box:
                box.append(bubble(nums))
            return box[0][i]
        return map(nth, range(len(nums)))
"""
)


def _answer_table(decoys: int = 60) -> str:
    """A precomputed answer table as a literal (~0.2 MB of source): the three answers among
    answers to inputs that never come."""
    rng = random.Random(13)
    keys = [tuple(xs) for xs in INPUTS]
    keys += [tuple(rng.randrange(10_000) for _ in range(N)) for _ in range(decoys)]
    return "TABLE = {\n" + ",\n".join(f"{k!r}: {sorted(k)!r}" for k in keys) + "\n}\n"


ANSWER_TABLE = _answer_table()

# the answers compiled into the source: nothing before the first call was counted, and a literal
# table costs little to run once compiled (it is the compiler that reads every value)
ATTACKS["answer-table"] = (
    ANSWER_TABLE
    + """
class Solution:
    def sortArray(self, nums):
        return list(TABLE[tuple(nums)])
"""
)

# the same table compiled and run by the module's own code at load (counted all along), and the
# honest work in the calls: what compiling the table costs, beside the honest solution
COMPILED_AT_LOAD = HONEST + f"exec(compile({ANSWER_TABLE!r}, '<table>', 'exec'))\n"

METERS = [pytest.param("icount", marks=requires_qemu), "cpu"]


def _measure(meter: str) -> MeasureConfig:
    if meter == "icount":
        return MeasureConfig(meter="icount")
    return MeasureConfig(meter="cpu", min_rounds=4, max_rounds=6, budget_seconds=5.0)


def _profile(meter: str, codes: list[str]) -> list[RunResult]:
    return profile_many(
        [Job(TASK, code) for code in codes],
        sandbox=quick_sandbox(cpu_seconds=60.0, wall_seconds=120.0),
        measure=_measure(meter),
    )


@pytest.fixture(scope="module", params=METERS)
def measured(request: pytest.FixtureRequest) -> tuple[str, dict[str, RunResult]]:
    """The honest solution and every attack, profiled together (paired) on one meter."""
    meter = request.param
    names = ["honest", "compiled-at-load", *ATTACKS]
    results = _profile(meter, [HONEST, COMPILED_AT_LOAD, *ATTACKS.values()])
    return meter, dict(zip(names, results, strict=True))


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_an_attack_fails_or_pays_for_its_work(
    measured: tuple[str, dict[str, RunResult]], attack: str
) -> None:
    meter, results = measured
    honest, res = results["honest"], results[attack]
    assert honest.passed and honest.runtime, honest.error
    if res.passed:
        assert res.runtime is not None
        assert res.runtime >= 0.7 * honest.runtime, (
            f"{attack} on {meter}: {res.runtime} against honest {honest.runtime}"
        )
    else:
        assert res.status == "failed", (attack, res.status, res.error)


def test_a_lazy_answer_is_accepted_and_pays(measured: tuple[str, dict[str, RunResult]]) -> None:
    """A generator or ``map`` answer passes, as on LeetCode, and is charged for the work it put
    off until it was iterated."""
    _meter, results = measured
    honest = results["honest"]
    for name in ("lazy-generator", "lazy-map"):
        res = results[name]
        assert res.passed, (name, res.error)
        assert res.runtime is not None and res.runtime >= 0.7 * honest.runtime, name


def test_no_mark_survives_a_pass(measured: tuple[str, dict[str, RunResult]]) -> None:
    """A pass cannot write a file for the next one to find: the solution that answers right
    only when it is judged (it looks for its own mark) and the one that reads its answers
    back from a file both stay honest in every pass, and pay for it."""
    _meter, results = measured
    honest = results["honest"]
    for name in ("right-when-judged", "file-cache"):
        res = results[name]
        assert res.passed, (name, res.error)
        assert res.runtime is not None and res.runtime >= 0.7 * honest.runtime, name


def test_a_literal_table_pays_for_compiling_it(measured: tuple[str, dict[str, RunResult]]) -> None:
    """Nothing is free before the first call: a source holding a huge literal table of answers
    pays for compiling it, about what compiling and running the same table costs a module that
    does so in its own code (which was always counted)."""
    meter, results = measured
    table, reference = results["answer-table"], results["compiled-at-load"]
    assert table.passed and reference.passed, (table.error, reference.error)
    assert table.load_cost is not None and reference.load_cost is not None
    # the reference also compiles its source, the table as one string literal: a little more
    # (on cpu both are medians of passes that a slow phase of the machine can stretch by 1.8x)
    assert table.load_cost >= 0.5 * reference.load_cost, (meter, table.load_cost, reference)


def test_answers_that_change_between_passes_fail_on_a_repeating_meter() -> None:
    """Without a mark a solution can still answer differently from one pass to the next (here:
    by its process id, a new one every pass); every pass is judged, so that fails on a meter
    with several passes, whichever pass is the wrong one."""
    flaky = (
        BUBBLE
        + """
import os
class Solution:
    def sortArray(self, nums):
        return bubble(nums) if os.getpid() % 2 else list(nums)
"""
    )
    (res,) = _profile("cpu", [flaky])
    assert res.status == "failed", (res.status, res.error)


def test_moved_work_is_charged_not_hidden(measured: tuple[str, dict[str, RunResult]]) -> None:
    _meter, results = measured
    res = results["patched-harness"]
    assert res.passed, res.error
    # the calls cost nothing now; the reports carry the sorting, and it is charged
    assert res.charged >= 0.5 * results["honest"].runtime
    assert sum(c.charged for c in res.cases) >= 0.5 * results["honest"].runtime


# -- hooks: what a solution can arm to run after its call has replied -------------------------------
#
# Each hook does the work once the harness has started its report (serialising the answer), so
# that it lands in the report's tolerance and slack (on cpu: twice what serialising the answer
# costs in a trusted child, plus 0.1 ms) or in the gaps between commands. The answer is a list of
# SMALL_N values, so that on cpu the allowance holds the whole work of a case: before the harness
# took hooks away at the end of every solution command, the attacks cost a fraction of the
# honest solution there (0.2-0.7x). On icount the allowance (1.05x and 20,000 instructions) is
# smaller than what the hooks cost themselves: there the attacks are a guard only.

SMALL_N = {"cpu": 2000, "icount": 30}
"""Values per case: ~0.2 ms of work natively (cpu), ~150,000 instructions (icount)."""

SMALL_CASES = 8


def _small_task(meter: str) -> ProfileTask:
    rng = random.Random(11)
    inputs = [[rng.randrange(1000) for _ in range(SMALL_N[meter])] for _ in range(SMALL_CASES)]
    return ProfileTask(
        "running-squares",
        "runningSquares",
        tuple(Case([xs], list(itertools.accumulate(x * x % 7 for x in xs))) for xs in inputs),
        kind="class",
    )


WORK = """
def work(nums):
    out = []
    s = 0
    for x in nums:
        s += x * x % 7
        out.append(s)
    return out
"""

SMALL_HONEST = (
    WORK
    + """
class Solution:
    def runningSquares(self, nums):
        return work(nums)
"""
)

# Every hook answers with a list it fills in later: empty when the work never ran.
_DEFER = """
class Solution:
    def runningSquares(self, nums):
        out = []
        PENDING.append((out, nums))
        ARM()
        return out
def finish():
    while PENDING:
        out, nums = PENDING.pop()
        out.extend(work(nums))
def in_report(frame):
    while frame is not None:
        if frame.f_code.co_name == "report":
            return True
        frame = frame.f_back
    return False
PENDING = []
"""

HOOKS = {
    # a profile function: fires on every call, the harness's own included
    "setprofile": """
import sys
def hook(frame, event, arg):
    if event == "call" and frame.f_code.co_name == "report":
        sys.setprofile(None)
        finish()
def ARM():
    sys.setprofile(hook)
""",
    # a trace function: the same through sys.settrace
    "settrace": """
import sys
def tracer(frame, event, arg):
    if event == "call" and frame.f_code.co_name == "report":
        sys.settrace(None)
        finish()
def ARM():
    sys.settrace(tracer)
""",
    # a gc callback with the collector set to run at every allocation (the report allocates)
    "gc-callback": """
import gc, sys
def callback(phase, info):
    if phase == "start" and PENDING and in_report(sys._getframe(1)):
        gc.set_threshold(700)
        finish()
gc.callbacks.append(callback)
def ARM():
    gc.set_threshold(1)
""",
    # a signal handler and an interval timer that fires after the call has replied
    "signal-timer": """
import _signal as signal  # the signal module's C half: importing it costs nothing
def later(signum, frame):
    finish()
def ARM():
    signal.signal(signal.SIGALRM, later)
    # late enough that the host has closed the call's window: the gap before the report (its
    # slack, 0.1 ms a gap, is pooled over the pass) or the report itself
    signal.setitimer(signal.ITIMER_REAL, 0.0005)
""",
    # an audit hook (they cannot be removed) that works at an audited event of the report
    "audit-hook": """
import sys
def audit(event, args):
    if PENDING and event in ("builtins.id", "open") and in_report(sys._getframe(1)):
        finish()
sys.addaudithook(audit)
def ARM():
    pass
""",
    # stdout replaced by an object whose flush works: the harness flushed after every command,
    # the report included; there it answers the next case (its input found in the harness), and
    # the next call returns that answer
    "stdout-flush": """
import sys
READY = {}
class Out:
    calls = 0
    def write(self, text):
        return len(text)
    def flush(self):
        Out.calls += 1  # flushed after the load (1), then after each call and each report
        if Out.calls > 1 and Out.calls % 2:  # after report k: case k + 1 is next
            harness = sys._getframe(2).f_locals.get("harness")
            nxt = (Out.calls - 1) // 2
            if harness is not None and nxt < len(harness.prepared):
                nums = harness.prepared[nxt][0]
                READY[id(nums)] = work(nums)
sys.stdout = Out()
def ARM():
    if PENDING:
        out, nums = PENDING.pop()
        out.extend(READY.pop(id(nums), None) or work(nums))
""",
    # atexit: the child ends with os._exit, after the last reply
    "atexit": """
import atexit
atexit.register(finish)
def ARM():
    pass
""",
}
if hasattr(sys, "monitoring"):  # Python 3.12+
    HOOKS["monitoring"] = """
import sys
mon = sys.monitoring
TOOL = 3
def started(code, offset):
    if code.co_name == "report":
        mon.set_events(TOOL, 0)
        finish()
mon.use_tool_id(TOOL, "attack")
mon.register_callback(TOOL, mon.events.PY_START, started)
def ARM():
    mon.set_events(TOOL, mon.events.PY_START)
"""


@pytest.fixture(scope="module", params=METERS)
def hooked(request: pytest.FixtureRequest) -> tuple[str, dict[str, RunResult]]:
    """The honest summing and every hook, profiled together (paired) on one meter."""
    meter = request.param
    names = ["honest", *HOOKS]
    codes = [SMALL_HONEST, *(WORK + _DEFER + HOOKS[n] for n in HOOKS)]
    results = profile_many(
        [Job(_small_task(meter), code) for code in codes],
        sandbox=quick_sandbox(cpu_seconds=60.0, wall_seconds=120.0),
        measure=_measure(meter),
    )
    return meter, dict(zip(names, results, strict=True))


DISARMED = {"setprofile", "settrace", "gc-callback", "signal-timer", "audit-hook", "monitoring"}
"""Hooks the harness takes away (or, audit hooks, never gives an event) before its own time."""


@pytest.mark.parametrize("hook", sorted(HOOKS))
def test_a_hook_cannot_work_in_the_harness_time(
    hooked: tuple[str, dict[str, RunResult]], hook: str
) -> None:
    """Whatever a solution arms to run after its call is gone before the harness's own time:
    the work never runs (the answer stays empty: failed), or runs where it is counted."""
    meter, results = hooked
    honest, res = results["honest"], results[hook]
    assert honest.passed and honest.runtime, honest.error
    if hook in DISARMED or hook == "atexit":
        # nothing armed survives the call: the work never runs, the empty answer fails
        assert res.status == "failed" and "got []" in (res.error or ""), (
            f"{hook} on {meter}: {res.status}, {res.runtime} against honest {honest.runtime}: "
            f"{res.error}"
        )
    elif res.passed:
        assert res.runtime is not None
        assert res.runtime >= 0.7 * honest.runtime, (
            f"{hook} on {meter}: {res.runtime} against honest {honest.runtime}"
        )
    else:
        assert res.status == "failed", (hook, res.status, res.error)


# A coin drawn from the clock as the module loads: the cheap path in about one pass of four. (The
# sandbox's /dev/urandom reads one fixed stream, and the children's pids follow each other in a
# fixed stride: the clock is the coin the sandbox cannot fix.)
COIN = (
    BUBBLE
    + """
import time
CHEAP = time.monotonic_ns() // 1000 % 4 == 0
class Solution:
    def sortArray(self, nums):
        return sorted(nums) if CHEAP else bubble(nums)
"""
)


def test_a_coin_is_flagged_and_scored_by_its_median_pass() -> None:
    """The fastest passes would credit a sample with the cheap path it takes in some passes
    only: its passes split into modes, it is flagged, not converged, and its median pass is its
    figure (docs/profiler.md, "The mode check")."""
    measure = MeasureConfig(meter="cpu", min_rounds=24, max_rounds=24, budget_seconds=30.0)
    honest, coin = profile_many(
        [Job(TASK, HONEST), Job(TASK, COIN)],
        sandbox=quick_sandbox(cpu_seconds=60.0, wall_seconds=120.0),
        measure=measure,
    )
    assert honest.passed and coin.passed, (honest.error, coin.error)
    assert honest.runtime is not None and coin.runtime is not None
    cheap = sum(c < 0.2 * honest.runtime for c in coin.round_costs)
    if cheap == 0:  # 0.75 ** 24: 0.1% of profiles draw the expensive path every time
        pytest.skip("the coin never came up cheap in 24 passes")
    assert "modes" in coin.flags and not coin.converged, coin.flags
    assert coin.estimator == "median"
    assert coin.runtime >= 0.7 * honest.runtime, (coin.runtime, honest.runtime, cheap)
    assert "modes" not in honest.flags and honest.estimator == "fastest-3", honest.flags


_DRAW = """
import errno, json, os
out = {"urandom": open("/dev/urandom", "rb").read(16).hex(),
       "random": open("/dev/random", "rb").read(16).hex(),
       "uuid": [open("/proc/sys/kernel/random/uuid").read() for _ in range(2)]}
try:
    os.getrandom(1)
    out["getrandom"] = "allowed"
except OSError as exc:
    out["getrandom"] = errno.errorcode.get(exc.errno, str(exc.errno))
out["os.urandom"] = os.urandom(16).hex()
print(json.dumps(out))
"""


def test_the_sandboxs_random_bytes_are_one_fixed_stream() -> None:
    """A coin drawn from the OS comes up the same in every pass: /dev/urandom and /dev/random
    read one seeded stream (isolation.random_source) from every open, in every sandbox, and
    /proc/sys/kernel/random/uuid one UUID (the boot's). So does os.urandom: the seccomp filter
    fails getrandom(2) with ENOSYS, and Python then reads /dev/urandom."""
    draws = []
    for _ in range(2):
        proc = iso.run_bwrap([str(iso.interpreter()), "-S", "-c", _DRAW])
        assert proc.returncode == 0, proc.stderr
        draws.append(json.loads(proc.stdout))
    first = iso.random_source().read_bytes()[:16].hex()
    for draw in draws:
        assert draw["urandom"] == draw["random"] == first
        assert draw["uuid"] == draws[0]["uuid"][:1] * 2  # the kernel's fresh UUID: fixed too
    assert draws[0]["getrandom"] == "ENOSYS"
    assert draws[0]["os.urandom"] == draws[1]["os.urandom"] == first


@requires_qemu
def test_a_solution_cannot_change_another_solutions_count() -> None:
    """Between two runs of the honest solution in one zygote, a saboteur does its worst."""
    saboteur = HONEST + textwrap.dedent("""
        import gc, os, signal, sys
        for sig in (signal.SIGSTOP, signal.SIGKILL, signal.SIGTERM):
            for pid in (1, os.getppid()):
                try:
                    os.kill(pid, sig)
                except OSError:
                    pass
        for i in range(200):
            try:
                with open(f"/tmp/junk-{i}.py", "w") as fh:
                    fh.write("import sys; sys.exit(3)\\n")
            except OSError:
                break
        sys.modules["heapq"] = None
        gc.freeze()
    """)
    a, sab, b = _profile("icount", [HONEST, saboteur, HONEST])
    assert a.passed and b.passed and sab.passed, (a.error, sab.error, b.error)
    assert a.runtime is not None and b.runtime is not None
    assert abs(a.runtime - b.runtime) <= 0.001 * a.runtime


@pytest.mark.parametrize("meter", METERS)
def test_executing_another_program_is_never_a_pass(meter: str) -> None:
    """A program started by execve would run outside the emulator (uncounted) and answer for
    the solution; under icount the plugin ends the process, under cpu it cannot answer."""
    escape = HONEST + textwrap.dedent("""
        import os, sys
        os.execv("/usr/bin/python3", ["python3", "-c", "import time; time.sleep(1)"])
    """)
    (res,) = _profile(meter, [escape])
    assert res.status == "error" and res.runtime is None
    if meter == "icount":
        assert "execute another program" in (res.error or "")


@requires_qemu
def test_the_instruction_counter_is_out_of_reach() -> None:
    """The count lives in the process's memory; nothing a solution can do reaches it."""
    probe = HONEST + textwrap.dedent("""
        import os
        TRIES = []
        try:
            import ctypes  # noqa: F401
            TRIES.append("ctypes imported")
        except ImportError:
            pass
        try:
            fd = os.open("/proc/self/mem", os.O_RDWR)
            TRIES.append("mem opened for writing")
            os.close(fd)
        except OSError:
            pass
        if TRIES:
            raise RuntimeError("reached: " + ", ".join(TRIES))
    """)
    (res,) = _profile("icount", [probe])
    assert res.passed, res.error
