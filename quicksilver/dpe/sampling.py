"""Exponential input sampling (EvalPerf's DPE); the choice of the performance-exercising input
among what it keeps is :mod:`quicksilver.dpe.choosing`.

Sampling (:func:`sample_generator`): a SaS generator's ``perf_input_gen(scale)`` is called at
``scale = 2**k`` for ``k = min_scale_exp .. max_scale_exp``, each call seeded with the recorded
``seed`` (the walls and caps are the ``sampling:`` section, :class:`~quicksilver.config.
SamplingSection`). Each input is checked (JSON size, int64 range, saturation) and then run through
the reference solution, both calls under the same CPU and memory walls. Sampling stops at the first
wall, cap or repeat; every input that passed is kept as a candidate, the last one being the paper's
"last input that passed". An exception of any other kind (in the generator, or the reference
rejecting the input: it breaks the task's contract) makes the generator ILL-DEFINED and its inputs
are discarded.

It runs the code only in the sandbox, through :mod:`quicksilver.execute`. Values come back as
plain data (``wire.to_plain``): tuples become lists, sets sorted lists, trees and linked lists their
LeetCode lists; inputs are stored and hashed in that form.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from quicksilver.config import SamplingSection, SandboxConfig
from quicksilver.execute import IDENTITY_CONVERT, CallOutcome, run_calls, run_generator
from quicksilver.sandbox.runtime import wire
from quicksilver.sources.convert import convert_offline_source, parse_signature
from quicksilver.synth.offline.checker import check_input

log = logging.getLogger(__name__)

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1

GENERATOR_ENTRY = "perf_input_gen"

# Stop reasons of a generator's sampling (Step.status for the step that stopped it).
TIME_WALL = "time-wall"
MEMORY_WALL = "memory-wall"
SIZE_CAP = "size-cap"
INT64 = "int64"
SATURATED = "saturated"
MAX_SCALE = "max-scale"
ILL_DEFINED = "ill-defined"

# Appended to the generator's code (inside the sandbox): the JSON size is measured where the value
# was made, so that an input over the cap never crosses the boundary (a huge value would cost the
# host gigabytes to decode, and one over the wire's frame limit would kill the harness). Values
# json cannot size (node objects, huge ints, odd keys) cross as they are and are checked on the
# host. A generator that tampers with this only stops its own sampling. Its CPU time counts
# towards the generator's wall (json.dumps of 64 MB takes a fraction of a second).
_SIZED_ENTRY = "__quicksilver_sized_input"
_SIZED_WRAPPER = f"""

def {_SIZED_ENTRY}(__scale, __cap):
    import json as __json
    __value = {GENERATOR_ENTRY}(__scale)

    def __plain(x):
        if isinstance(x, (set, frozenset)):
            return list(x)
        if isinstance(x, bytes):
            return x.hex()
        raise TypeError(type(x).__name__)

    __type = type(__value).__name__
    try:
        __size = len(__json.dumps(__value, separators=(",", ":"), default=__plain))
    except (TypeError, ValueError, RecursionError):
        return ["value", __value, __type]
    if __size > __cap:
        return ["oversize", __size, __type]
    return ["value", __value, __type]
"""

# Errors that mean "the value is too large for the sandbox's wire", not "the code is wrong": the
# wire's item budget (wire.encode's max_items) and its frame limit (wire.MAX_FRAME).
_WIRE_SIZE_ERROR = re.compile(r"more than \d+ items|frame of \d+ bytes exceeds")


class SamplingError(RuntimeError):
    """The sandbox could not run the code at all, or the reference solution does not load:
    nothing to do with the generator being sampled, so it is not marked ill-defined."""


@dataclass(frozen=True)
class Target:
    """How to call a task's solutions: entry point, class|function, convert_offline source,
    output_param (in-place problems), number of parameters (None: not checked)."""

    entry_point: str
    kind: Literal["class", "function"] = "class"
    convert_offline: str = IDENTITY_CONVERT
    output_param: int | None = None
    n_params: int | None = None

    @classmethod
    def from_meta(
        cls, meta: dict[str, Any] | str, kind: Literal["class", "function"] = "class"
    ) -> Target:
        """A LeetCode question's metaData (dict or JSON string): a ``class Solution`` method (or,
        ``kind="function"``, a plain function), TreeNode / ListNode parameters converted from
        their LeetCode lists."""
        sig = parse_signature(meta)
        return cls(
            entry_point=sig.name,
            kind=kind,
            convert_offline=convert_offline_source(sig),
            output_param=sig.output_param,
            n_params=len(sig.params),
        )


@dataclass
class Step:
    """One scale tried. ``status`` is "ok" or the reason the sampling stopped at this scale."""

    scale: int
    status: str  # "ok" | TIME_WALL | MEMORY_WALL | SIZE_CAP | INT64 | SATURATED | ILL_DEFINED
    detail: str | None = None
    input_bytes: int | None = None
    input_sha256: str | None = None
    generator_cpu_seconds: float | None = None
    reference_cpu_seconds: float | None = None
    reference_peak_memory_bytes: int | None = None  # measured by the host (memory wall)


@dataclass
class Candidate:
    """An input that passed: the generator ran, the reference finished within the walls."""

    generator: int
    scale: int
    args: list[Any]
    input_sha256: str
    input_bytes: int
    reference_cost: float  # the reference's CPU seconds on this input

    def to_dict(self, with_args: bool = False) -> dict[str, Any]:
        out = asdict(self)
        if not with_args:
            del out["args"]
        return out


@dataclass
class GeneratorTrace:
    """What sampling one generator did. ``candidates`` are every passed step in scale order
    (``[-1]`` is the paper's "last input that passed"); empty when the generator is ill-defined."""

    generator: int
    steps: list[Step] = field(default_factory=list)
    stop: str = MAX_SCALE
    ill_defined: bool = False
    reason: str | None = None
    candidates: list[Candidate] = field(default_factory=list)
    seed: int = 0

    @property
    def last(self) -> Candidate | None:
        return self.candidates[-1] if self.candidates else None

    def to_dict(self, with_args: bool = False) -> dict[str, Any]:
        return {
            "generator": self.generator,
            "seed": self.seed,
            "stop": self.stop,
            "ill_defined": self.ill_defined,
            "reason": self.reason,
            "steps": [asdict(s) for s in self.steps],
            "candidates": [c.to_dict(with_args) for c in self.candidates],
        }


# ------------------------------------------------------------------------------- value checks


def int64_violation(value: Any) -> str | None:
    """Where ``value`` (nested lists, tuples, sets, dict keys and values) holds an integer outside
    int64, described; None when it holds none. Iterative: deep nesting is fine."""
    stack: list[tuple[Any, str]] = [(value, "value")]
    while stack:
        x, path = stack.pop()
        if isinstance(x, int) and not isinstance(x, bool):
            if not INT64_MIN <= x <= INT64_MAX:
                # no repr: a huge int's decimal form may exceed Python's digit limit
                return f"{path} is an integer of {x.bit_length()} bits, outside int64"
        elif isinstance(x, list | tuple):
            for i, v in enumerate(x):
                if isinstance(v, int) and not isinstance(v, bool):
                    if not INT64_MIN <= v <= INT64_MAX:
                        stack.append((v, f"{path}[{i}]"))
                elif isinstance(v, list | tuple | dict | set | frozenset):
                    stack.append((v, f"{path}[{i}]"))
        elif isinstance(x, set | frozenset):
            stack.extend((v, f"{path}{{}}") for v in x)
        elif isinstance(x, dict):
            for k, v in x.items():
                stack.append((k, f"{path}.key"))
                stack.append((v, f"{path}[{k!r}]"))
    return None


def canonical_json(value: Any) -> str:
    """Compact JSON with sorted keys, ASCII only: one text per plain value."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def canonical_sha256(value: Any) -> tuple[str, int]:
    """(sha256 hex digest, size in bytes) of ``value``'s canonical JSON. ``value`` is plain JSON
    data; check :func:`int64_violation` first (integers over 4300 digits cannot be encoded)."""
    data = canonical_json(value).encode("ascii")
    return hashlib.sha256(data).hexdigest(), len(data)


# ------------------------------------------------------------------------------- classification


def call_wall(outcome: CallOutcome) -> str | None:
    """The wall a call hit, if any."""
    if outcome.status == "timeout":
        return TIME_WALL
    if outcome.status == "memory" or "MemoryError" in (outcome.error or ""):
        return MEMORY_WALL
    return None


GENERATOR_LOAD_CPU_SECONDS = 5.0
"""CPU for loading a generator's code at each step, apart from the step's time wall: loading does
not grow with the scale, so it is no wall of the input's (an offline generator carries its whole
runtime, about 117 KB that take ~0.03 s to compile and run natively; under a test's 0.05 s wall
a load a little slower stopped the doubling at scale 16 on a quiet machine). A load that hangs
still stops at this limit, as a time wall."""


def load_wall(load_error: str) -> str | None:
    if "MemoryError" in load_error:
        return MEMORY_WALL
    if "time limit" in load_error or "timed out" in load_error:
        return TIME_WALL
    return None


def _infrastructure(load_error: str) -> bool:
    """The sandbox itself failed (not the code): it did not start, or our setup was refused."""
    return "did not start" in load_error or (
        load_error.startswith("setup failed") and load_wall(load_error) is None
    )


# ------------------------------------------------------------------------------- sampling


def sample_generator(
    code: str,
    *,
    index: int,
    reference_code: str,
    target: Target,
    limits: SamplingSection,
    sandbox: SandboxConfig | None = None,
    task: str = "",
    spec: dict[str, Any] | None = None,
) -> GeneratorTrace:
    """Exponential sampling of one generator (see the module docstring).

    ``spec``: the offline synthesizer's spec of the generator; every input is checked against
    it (synth/offline/checker.py), and one that breaks a stated constraint makes the generator
    ill-defined (``generator-bug``, with an error line). Raises :class:`SamplingError` when the
    sandbox does not start or the reference solution does not load: those say nothing about
    the generator.
    """
    trace = GeneratorTrace(generator=index, seed=limits.seed)
    sampler = _Sampler(code, index, reference_code, target, limits, sandbox, task, trace, spec)
    for exp in range(limits.min_scale_exp, limits.max_scale_exp + 1):
        step = sampler.step(2**exp)
        trace.steps.append(step)
        if step.status != "ok":
            trace.stop = step.status
            break
    else:
        trace.stop = MAX_SCALE
    if trace.stop == ILL_DEFINED:
        trace.ill_defined = True
        trace.candidates = []
    last, final = trace.last, trace.steps[-1]
    log.info(
        "%s generator %d: stop=%s at scale %d; last passed scale=%s, reference cost=%s%s",
        task or "?",
        index,
        trace.stop,
        final.scale,
        last.scale if last else None,
        f"{last.reference_cost:.4g}s" if last else None,
        f" ({final.detail[:200]})" if final.detail and trace.stop != MAX_SCALE else "",
    )
    return trace


@dataclass
class _Sampler:
    """One generator's sampling state: :meth:`step` tries one scale and records what passed."""

    code: str
    index: int
    reference_code: str
    target: Target
    limits: SamplingSection
    sandbox: SandboxConfig | None
    task: str
    trace: GeneratorTrace
    spec: dict[str, Any] | None = None

    def _ill(self, step: Step, error: str) -> Step:
        step.status = ILL_DEFINED
        step.detail = error
        self.trace.reason = (
            f"{self.task or '?'}: generator {self.index} is ill-defined at scale {step.scale}: "
            f"{error}"
        )
        return step

    def _stop(self, step: Step, status: str, detail: str | None) -> Step:
        step.status = status
        step.detail = detail
        return step

    def step(self, scale: int) -> Step:
        step = Step(scale=scale, status="ok")
        gen = run_generator(
            self.code + _SIZED_WRAPPER,
            seeds=[self.limits.seed],
            entry=_SIZED_ENTRY,
            args=(scale, self.limits.max_input_bytes),
            cpu_seconds=self.limits.time_wall_seconds,
            memory_mb=self.limits.memory_mb,
            sandbox=self.sandbox,
            load_cpu_seconds=max(self.limits.time_wall_seconds, GENERATOR_LOAD_CPU_SECONDS),
        )
        if gen.load_error is not None:
            if _infrastructure(gen.load_error):
                raise SamplingError(f"{self.task}: generator {self.index}: {gen.load_error}")
            wall = load_wall(gen.load_error)
            if wall:
                return self._stop(step, wall, gen.load_error)
            return self._ill(step, gen.load_error)
        out = gen.outcomes[0]
        step.generator_cpu_seconds = out.cpu_seconds
        wall = call_wall(out)
        if wall:
            return self._stop(step, wall, out.error)
        if not out.ok:
            error = out.error or out.status
            if _WIRE_SIZE_ERROR.search(error):
                return self._stop(step, SIZE_CAP, f"too large for the sandbox's wire: {error}")
            return self._ill(step, f"perf_input_gen({scale}) failed: {error}")

        reply = out.value
        if not (isinstance(reply, list) and len(reply) == 3 and reply[0] in ("value", "oversize")):
            return self._ill(step, f"malformed answer from the sizing wrapper: {str(reply)[:200]}")
        made = reply[2]
        if made not in ("tuple", "list"):
            return self._ill(
                step,
                f"perf_input_gen({scale}) returned a {made}, not a tuple or list of arguments",
            )
        if reply[0] == "oversize":
            if isinstance(reply[1], int):
                step.input_bytes = reply[1]
            return self._stop(
                step, SIZE_CAP, f"{reply[1]} bytes of JSON > {self.limits.max_input_bytes}"
            )
        args = reply[1]
        if not isinstance(args, list):
            return self._ill(step, f"malformed answer from the sizing wrapper: {str(reply)[:200]}")
        n = self.target.n_params
        if n is not None and len(args) != n:
            return self._ill(
                step,
                f"perf_input_gen({scale}) returned {len(args)} argument(s), "
                f"{self.target.entry_point} takes {n}",
            )

        broken = check_input(self.spec, args) if self.spec is not None else []
        if broken:  # our own synthesizer broke a stated constraint: a bug, said loudly
            log.error("%s generator %d at scale %d: %s", self.task, self.index, scale, broken[0])
            return self._ill(
                step, f"generator-bug: perf_input_gen({scale}) broke " + "; ".join(broken[:3])
            )
        violation = int64_violation(args)
        if violation:
            return self._stop(step, INT64, violation)
        sha, size = canonical_sha256(args)
        step.input_sha256, step.input_bytes = sha, size
        if size > self.limits.max_input_bytes:
            return self._stop(
                step, SIZE_CAP, f"{size} bytes of JSON > {self.limits.max_input_bytes}"
            )
        prev = self.trace.last
        if prev is not None and prev.input_sha256 == sha:
            return self._stop(
                step,
                SATURATED,
                f"the same input as at scale {prev.scale}: the generator stopped growing",
            )

        return self._reference(step, args, sha, size)

    def _reference(self, step: Step, args: list[Any], sha: str, size: int) -> Step:
        t = self.target
        try:
            ref = run_calls(
                self.reference_code,
                entry_point=t.entry_point,
                inputs=[args],
                kind=t.kind,
                convert_offline=t.convert_offline,
                output_param=t.output_param,
                cpu_seconds=self.limits.time_wall_seconds,
                memory_mb=self.limits.reference_address_space_mb,
                memory_wall_mb=self.limits.memory_mb,
                sandbox=self.sandbox,
            )
        except wire.WireError as exc:  # the input is too large for a frame or the item budget
            return self._stop(step, SIZE_CAP, f"too large for the sandbox's wire: {exc}")
        if ref.load_error is not None:
            wall = load_wall(ref.load_error)
            if wall:
                return self._stop(step, wall, f"reference: {ref.load_error}")
            if _infrastructure(ref.load_error) or ref.load_error.startswith("loading the code"):
                raise SamplingError(f"{self.task}: the reference solution: {ref.load_error}")
            return self._ill(step, f"the reference could not take the input: {ref.load_error}")
        out = ref.outcomes[0]
        step.reference_cpu_seconds = out.cpu_seconds
        step.reference_peak_memory_bytes = out.peak_memory_bytes
        wall = call_wall(out)
        if wall:
            return self._stop(step, wall, f"reference: {out.error}")
        if not out.ok:
            return self._ill(step, f"the reference rejects the input: {out.error or out.status}")
        self.trace.candidates.append(
            Candidate(
                generator=self.index,
                scale=step.scale,
                args=args,
                input_sha256=sha,
                input_bytes=size,
                reference_cost=out.cpu_seconds,
            )
        )
        return step
