"""The harness that runs one untrusted solution inside the sandbox.

Started as ``python -I -S harness.py CMD_FD REPLY_FD [SITE_DIR]``: commands arrive on CMD_FD and
replies leave on REPLY_FD (length-prefixed JSON, see wire.py). Standard library only. The host
drives it one command at a time and reads the process's CPU clock (or instruction counter)
between commands, so every measurement is taken by the kernel, outside this process; the
harness never reports a time of its own. Expected outputs never enter this process.

Commands (each answered by exactly one reply carrying the command's ``seq``):
  setup    limits, privileges, the task (entry point, kind, convert_offline, case inputs)
  load     exec the solution and find the entry point
  prep     deep-copy case inputs ``k`` times and pass them through convert_offline
  go       call the entry point on each prepared copy (the timed region); ``null`` calls a no-op
  report   strictly serialise the first call's output and its post-call inputs
  release  drop the copies and outputs
  exit
"""

from __future__ import annotations

import contextlib
import copy
import gc
import os
import sys

PROTOCOL = 2  # bump on any change of the commands or replies; the host checks it

CMD_FD = int(sys.argv[1]) if len(sys.argv) > 1 else 3
REPLY_FD = int(sys.argv[2]) if len(sys.argv) > 2 else 4

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE] + ([sys.argv[3]] if len(sys.argv) > 3 and sys.argv[3] else [])

import wire  # noqa: E402
from prelude import build_namespace  # noqa: E402

# sys.call_tracing is the marker that callgrind dumps at (entry and exit); keep a private
# reference and take it away from the solution, which has no use for it.
_call_tracing = sys.call_tracing
with contextlib.suppress(AttributeError):
    del sys.call_tracing


def _noop() -> None:
    return None


def _fence() -> None:
    # A callgrind dump boundary before every reply, so each window's instructions are on disk
    # before the host reads them. Costs a few hundred nanoseconds natively.
    _call_tracing(_noop, ())


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()


def _describe(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}"
    return text if len(text) <= 2000 else text[:2000] + "..."


def _apply_limits(limits: dict) -> None:
    import resource

    pairs = {
        "as_bytes": resource.RLIMIT_AS,
        "cpu_seconds": resource.RLIMIT_CPU,
        "fsize_bytes": resource.RLIMIT_FSIZE,
        "nofile": resource.RLIMIT_NOFILE,
        "core": resource.RLIMIT_CORE,
    }
    pairs["nproc"] = resource.RLIMIT_NPROC
    for key, res in pairs.items():
        value = limits.get(key)
        if value is None:
            continue
        _soft, hard = resource.getrlimit(res)
        value = int(value)
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)  # never raise (valgrind, for one, lowers some hard limits)
        try:
            resource.setrlimit(res, (value, value))
        except ValueError:
            # valgrind lets a client change only the soft RLIMIT_NOFILE; keep its hard limit.
            resource.setrlimit(res, (value, hard))


def _drop_privileges(uid: int | None, gid: int | None) -> None:
    if uid is None or os.getuid() != 0:
        return
    os.setgroups([])
    os.setgid(gid if gid is not None else uid)
    os.setuid(uid)
    if os.getuid() == 0 or os.geteuid() == 0:
        raise RuntimeError("could not drop root privileges")


class Harness:
    def __init__(self) -> None:
        self.kind = "class"
        self.entry_point = ""
        self.raw_inputs: list = []
        self.convert = None
        self.target = None
        self.target_cls = None
        self.slots: list = []
        self.outputs: list = []
        self.evaluate = None
        self.nodes: dict = {}

    # -- commands -------------------------------------------------------------------------

    def setup(self, msg: dict) -> dict:
        _drop_privileges(msg.get("uid"), msg.get("gid"))
        _apply_limits(msg.get("limits", {}))
        recursion = msg.get("recursion_limit")
        if recursion:
            sys.setrecursionlimit(int(recursion))
        self.kind = msg["kind"]
        self.entry_point = msg["entry_point"]
        self.raw_inputs = [wire.decode(c) for c in msg["cases"]]
        ns = build_namespace()
        exec(msg["convert_offline"], ns)
        self.convert = ns.get("convert_offline")
        if not callable(self.convert):
            return {"ok": False, "error": "convert_offline source defines no convert_offline()"}
        return {"ok": True, "pid": os.getpid(), "uid": os.getuid()}

    def load(self, msg: dict) -> dict:
        ns = build_namespace()
        exec(compile(msg["code"], "<solution>", "exec"), ns)
        if self.kind == "class":
            cls = ns.get("Solution")
            if not isinstance(cls, type):
                return {"ok": False, "error": "the code defines no class Solution"}
            if not callable(getattr(cls, self.entry_point, None)):
                return {"ok": False, "error": f"class Solution has no method {self.entry_point}"}
            self.target_cls = cls
        else:
            fn = ns.get(self.entry_point)
            if not callable(fn):
                return {"ok": False, "error": f"the code defines no function {self.entry_point}"}
            self.target = fn
        return {"ok": True}

    def prep(self, msg: dict) -> dict:
        raw = self.raw_inputs[int(msg["case"])]
        slots = []
        for _ in range(int(msg.get("k", 1))):
            args, _expected = self.convert((copy.deepcopy(raw), None))
            slots.append(list(args))
        self.slots = slots
        self.outputs = []
        return {"ok": True}

    def _run_calls(self) -> None:
        outputs = self.outputs
        entry = self.entry_point
        if self.kind == "class":
            cls = self.target_cls
            for args in self.slots:
                outputs.append(getattr(cls(), entry)(*args))
                if len(outputs) > 1:
                    outputs.pop()
        else:
            fn = self.target
            for args in self.slots:
                outputs.append(fn(*args))
                if len(outputs) > 1:
                    outputs.pop()

    def _run_null(self) -> None:
        for _args in self.slots:
            self.outputs.append(_noop())
            if len(self.outputs) > 1:
                self.outputs.pop()

    def go(self, msg: dict) -> dict:
        body = self._run_null if msg.get("null") else self._run_calls
        try:
            _call_tracing(body, ())
        except MemoryError:
            self.outputs = []
            return {"ok": False, "kind": "memory", "error": "MemoryError"}
        except RecursionError as exc:
            return {"ok": False, "kind": "exception", "error": _describe(exc)}
        except SystemExit as exc:
            return {"ok": False, "kind": "exit", "error": f"the solution called exit({exc.code!r})"}
        except BaseException as exc:
            return {"ok": False, "kind": "exception", "error": _describe(exc)}
        return {"ok": True}

    def report(self, msg: dict) -> dict:
        if not self.outputs or not self.slots:
            return {"ok": False, "kind": "harness", "error": "nothing to report"}
        try:
            output = wire.encode(self.outputs[0])
        except wire.NotPlainData as exc:
            return {"ok": False, "kind": "output", "error": f"output: {exc}"}
        try:
            inputs_after = wire.encode(self.slots[0])
        except wire.NotPlainData as exc:
            return {"ok": False, "kind": "output", "error": f"inputs after the call: {exc}"}
        return {"ok": True, "output": output, "inputs_after": inputs_after}

    def judge_setup(self, msg: dict) -> dict:
        """Become a judge: evaluate_offline on values the host rebuilt (no solution code here)."""
        ns = build_namespace()
        exec(msg["convert_offline"], ns)
        exec(msg["evaluate_offline"], ns)
        self.convert = ns.get("convert_offline")
        self.evaluate = ns.get("evaluate_offline")
        if not callable(self.convert) or not callable(self.evaluate):
            return {"ok": False, "error": "convert_offline / evaluate_offline not defined"}
        self.nodes = {"tree_node": ns["TreeNode"], "list_node": ns["ListNode"]}
        return {"ok": True}

    def judge(self, msg: dict) -> dict:
        verdicts = []
        for item in msg["items"]:
            try:
                raw = wire.decode(item["inputs"], **self.nodes)
                _, expected = self.convert((raw, wire.decode(item["expected"], **self.nodes)))
                after = wire.decode(item["inputs_after"], **self.nodes)
                output = wire.decode(item["output"], **self.nodes)
                verdict = self.evaluate(after, output, expected)
            except BaseException as exc:
                verdicts.append({"ok": False, "error": _describe(exc)})
                continue
            if type(verdict) is not bool:
                verdicts.append(
                    {"ok": False, "error": f"evaluate_offline returned {type(verdict).__name__}"}
                )
            else:
                verdicts.append({"ok": True, "passed": verdict})
        return {"ok": True, "verdicts": verdicts}

    def release(self, msg: dict) -> dict:
        self.slots = []
        self.outputs = []
        generation = msg.get("collect")
        if generation is not None:
            # The young generations hold the cyclic garbage the call left; a full collection
            # would walk the whole heap and dwarf what it is meant to measure.
            gc.collect(int(generation))
        return {"ok": True}


def main() -> int:
    harness = Harness()
    handlers = {
        "setup": harness.setup,
        "load": harness.load,
        "prep": harness.prep,
        "go": harness.go,
        "report": harness.report,
        "release": harness.release,
        "judge_setup": harness.judge_setup,
        "judge": harness.judge,
    }
    write, read, fence = wire.write_frame, wire.read_frame, _fence
    fence()
    # the host waits for this, and checks that it speaks the same protocol
    write(REPLY_FD, {"seq": 0, "ok": True, "hello": os.getpid(), "protocol": PROTOCOL})
    while True:
        try:
            msg = read(CMD_FD)
        except EOFError:
            return 0
        op = msg.get("op")
        seq = msg.get("seq")
        if op == "exit":
            fence()
            write(REPLY_FD, {"seq": seq, "ok": True})
            return 0
        handler = handlers.get(op)
        if handler is None:
            reply = {"ok": False, "kind": "harness", "error": f"unknown op {op!r}"}
        else:
            try:
                reply = handler(msg)
            except MemoryError:
                reply = {"ok": False, "kind": "memory", "error": f"MemoryError during {op}"}
            except SystemExit as exc:
                reply = {"ok": False, "kind": "exit", "error": f"exit({exc.code!r}) during {op}"}
            except BaseException as exc:
                reply = {"ok": False, "kind": "exception", "error": f"{op}: {_describe(exc)}"}
        reply["seq"] = seq
        _flush()
        fence()
        write(REPLY_FD, reply)


if __name__ == "__main__":
    sys.exit(main())
