"""Native first (issue 29 item 2): under icount every solution is judged natively before it is
counted; a failure there is its verdict, in native time, and the counted pass may take at most
``native_margin`` x the native pass's CPU, so a sample that hangs only under the emulator gains
nothing but a timeout."""

from __future__ import annotations

from quicksilver.config import MeasureConfig, SandboxConfig, SandboxLimits
from quicksilver.profiler import Case, ProfileTask, profile_solution
from tests.conftest import requires_bwrap, requires_qemu

TASK = ProfileTask("sum", "f", (Case([200_000], sum(range(200_000))), Case([3], 3)))
SANDBOX = SandboxConfig(limits=SandboxLimits(cpu_seconds=3.0))
HONEST = "class Solution:\n    def f(self, n):\n        return sum(range(n))\n"


def _profile(code: str, **measure: object):
    options = {"native_first": True, **measure}
    return profile_solution(
        TASK, code, meter="icount", sandbox=SANDBOX, measure=MeasureConfig(**options)
    )


@requires_bwrap
@requires_qemu
def test_a_hanging_sample_gets_its_verdict_natively():
    hang = "class Solution:\n    def f(self, n):\n        while True:\n            pass\n"
    res = _profile(hang)
    assert res.status == "timeout" and res.error.startswith("natively: case 0:"), res.error
    assert not MeasureConfig().native_first  # the builds' default: their solutions ran natively
    assert res.runtime is None
    # without the native judge the same verdict comes from the emulator (up to 15x longer)
    old = _profile(hang, native_first=False)
    assert old.status == "timeout" and not old.error.startswith("natively"), old.error


@requires_bwrap
@requires_qemu
def test_wrong_answers_and_crashes_are_judged_natively():
    wrong = "class Solution:\n    def f(self, n):\n        return n\n"
    res = _profile(wrong)
    assert res.status == "failed" and res.error.startswith("natively: case 0"), res.error
    assert res.failed_case == 0
    deep = "class Solution:\n    def f(self, n):\n        return self.f(n + 1)\n"
    res = _profile(deep)
    assert res.status == "error" and "natively: case 0: RecursionError" in res.error, res.error


@requires_bwrap
@requires_qemu
def test_an_honest_solution_counts_the_same_with_or_without_the_native_judge():
    first = _profile(HONEST)
    plain = _profile(HONEST, native_first=False)
    assert first.status == plain.status == "passed", (first.error, plain.error)
    assert first.runtime == plain.runtime and first.runtime > 1_000_000
    assert [c.passed for c in first.cases] == [True, True]


@requires_bwrap
@requires_qemu
def test_a_sample_that_hangs_only_under_the_emulator_times_out_at_its_native_margin():
    # natively the module-level loop takes about 50 ms of CPU; under the emulator about 400 ms
    # without the icount plugin and more with it, so 0.2 s tells them apart with room on both
    # sides (with 300,000 and 50 ms a fast CI machine's emulator came in under the threshold)
    tells = (
        "import time\nt = time.process_time()\nx = sum(range(3_000_000))\n"
        "SLOW = time.process_time() - t > 0.2\n"
        "class Solution:\n    def f(self, n):\n        while SLOW:\n            pass\n"
        "        return sum(range(n))\n"
    )
    res = _profile(tells, native_floor_seconds=0.3, native_margin=2.0)
    assert res.status == "timeout", (res.status, res.error)
    assert "under the meter, though it finished natively in" in res.error, res.error
    assert "2x that, 0.3 s at least" in res.error
