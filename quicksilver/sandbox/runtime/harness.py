"""The harness that runs untrusted solutions inside the sandbox.

Started as ``python -I -S harness.py CMD_FD REPLY_FD SITE_DIR [CHILD_CMD_FD CHILD_REPLY_FD]``:
commands arrive on CMD_FD and replies leave on REPLY_FD (length-prefixed JSON, see wire.py);
the channels move to the fixed descriptors 40-43 first (``FIXED_FDS``).
Standard library only. The host drives it one command at a time and reads the process's CPU
clock (or instruction counter) between commands, so every measurement is taken outside the
measured process; the harness never reports a time of its own. Expected outputs never enter a
process that runs solution code.

With the two child channels the process is a *zygote* (see docs/profiler.md): it prepares the
task once (``zsetup``) and never runs solution code itself. ``spawn`` forks a child that drops
its privileges, takes its limits and then serves the child channels; the solution is loaded in
the child, and the child is discarded after one pass over the cases (``exit``; the zygote
``reap``s it). Every child starts from the same post-setup state and (``seal_tmp``) cannot
write to any file, so nothing a solution does survives into another pass or another solution.

Commands (each answered by exactly one reply carrying the command's ``seq``):
  setup    limits, privileges, the task (entry point, kind, convert_offline, case inputs)
  load     exec the solution and find the entry point
  prep     deep-copy case inputs ``k`` times and pass them through convert_offline
  go       call the entry point on each prepared copy (the timed region); ``null`` calls a no-op
  report   strictly serialise the first call's output and its post-call inputs
  release  drop the copies and outputs
  exit
Zygote commands:
  zsetup   the task; every case input is decoded and passed through convert_offline once
  spawn    fork a child (privileges, limits, seeds); the reply carries its pid
  reap     wait for the child; the reply carries how it ended and its resource usage
  ping     nothing (the host warms the command loop up, so children start from one state)
Child commands (besides load, judge_setup and judge):
  compile  compile the solution's source (``load`` without ``code`` then executes it)
  call     call the entry point once on case ``case``'s prepared input (``null``: a no-op)
  report   with ``case``: serialise that call's output and its post-call inputs
  stage    decode serialised results (trusted calibration of ``encode``)
  encode   serialise staged result ``i`` exactly as ``report`` does

Solution code runs only inside ``load``, ``call`` and ``go``. Whatever it armed to run later (a
trace or profile function, ``sys.monitoring`` callbacks, ``gc`` callbacks, signal handlers and
interval timers, ``atexit``) is taken away at the end of that command, inside its window, and
the collector is off until the next such command: nothing of the solution's runs in the harness's
own time (``report``, the reply, the wait for the next command). See ``_Guard``.
"""

from __future__ import annotations

import _signal
import atexit
import contextlib
import copy
import gc
import itertools
import os
import sys

# 5: solution commands (load, call, go) disarm what the solution armed (_Guard)
PROTOCOL = 5  # bump on any change of the commands or replies; the host checks it

FIXED_FDS = (40, 41, 42, 43)  # the channels' numbers once settled (see _settle)

# Lazy list answers LeetCode's driver iterates (``map``, ``range``, generators, dict views, ...):
# made a list inside the measured call of a class task, where the work is counted, never while
# encoding (outside the measurement). docs/profiler.md, "A lazy answer is iterated inside the call".
_LAZY = frozenset(
    {
        map, filter, zip, range, reversed, enumerate,
        type(iter([])), type(iter(())), type(iter("")), type(iter(range(0))),
        type(x for x in ()), type({}.keys()), type({}.values()), type({}.items()),
        itertools.accumulate, itertools.chain, itertools.islice, itertools.starmap,
        itertools.compress, itertools.takewhile, itertools.dropwhile, itertools.filterfalse,
        itertools.zip_longest, itertools.product, itertools.permutations,
        itertools.combinations, itertools.combinations_with_replacement, itertools.repeat,
        itertools.count, itertools.cycle,
    }
)  # fmt: skip
_list = list  # bound here: a solution that replaces ``builtins.list`` changes nothing


def _settle(given: list[int]) -> list[int]:
    """Move the channels to fixed descriptor numbers and forget the command line.

    The host's numbers vary from one sandbox to the next; a process that parsed different
    strings allocates differently, and a deterministic meter would count the difference.
    """
    import fcntl

    temps = [fcntl.fcntl(fd, fcntl.F_DUPFD, 50) if fd >= 0 else -1 for fd in given]
    for fd in given:
        if fd >= 0:
            os.close(fd)
    out = []
    for tmp, fixed in zip(temps, FIXED_FDS, strict=False):
        if tmp < 0:
            out.append(-1)
            continue
        os.dup2(tmp, fixed)
        os.close(tmp)
        out.append(fixed)
    return out


_SITE = sys.argv[3] if len(sys.argv) > 3 else ""
CMD_FD, REPLY_FD, CHILD_CMD_FD, CHILD_REPLY_FD = _settle(
    [
        int(sys.argv[1]) if len(sys.argv) > 1 else 3,
        int(sys.argv[2]) if len(sys.argv) > 2 else 4,
        int(sys.argv[4]) if len(sys.argv) > 5 else -1,
        int(sys.argv[5]) if len(sys.argv) > 5 else -1,
    ]
)
sys.argv[:] = ["harness"]

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE] + ([_SITE] if _SITE else [])

import wire  # noqa: E402
from lctk import ListNode, TreeNode  # noqa: E402
from prelude import build_namespace  # noqa: E402


class _Guard:
    """What a solution can leave armed to run after its command has replied, taken away.

    The host books a command's window, and charges a report only beyond what serialising the
    same values costs in a trusted child (times a tolerance, plus a slack). A hook that does the
    solution's work while the harness serialises, replies or waits would slip into that tolerance
    and slack. So at the end of every solution command (``load``, ``call``, ``go``), inside the
    command's own window (the hooks' last firing is charged), the harness:

    - clears the trace and profile functions (``sys.settrace``, ``sys.setprofile``) and every
      ``sys.monitoring`` tool the solution registered (Python 3.12+);
    - empties ``gc.callbacks`` and turns the collector off until the next solution command, which
      turns it back on if the solution had it on (a finalizer in a garbage cycle would otherwise
      run wherever the report's allocations trigger a collection);
    - cancels the interval timers (``setitimer``, ``alarm``), sets every signal handler that
      changed to ``SIG_IGN`` (a signal on its way is discarded) and then back to what it was at
      start-up, and puts the wakeup fd and the signal mask back;
    - restores the async generator and unraisable hooks and forgets ``atexit`` callbacks (the
      child ends with ``os._exit``, so they would never run anyway).

    Each of these can run solution code while the next is undone (a trace function may set a
    profile function again; dropping the last reference to a hook may run its finalizer): the
    harness repeats until a check that drops nothing, and so runs nothing, finds nothing armed.
    A solution that keeps re-arming keeps the command running, until its CPU limit.

    Audit hooks cannot be removed; no audited event occurs in the harness's own time (wire.py
    reads commands through one FileIO per descriptor and serialises without ``id()``), so a
    solution's audit hook never runs there.

    What is left to the charge rules: a solution that patches the harness, its modules or
    builtins, or plants code where the report will reach it (a finalizer on an object of its
    output, freed once reported) is answered by the report's charge (docs/profiler.md).

    The originals are captured when the harness starts, before any solution code runs; the
    functions are bound here, so a solution that replaces ``sys.settrace`` and the like changes
    nothing.
    """

    def __init__(self) -> None:
        self.settrace, self.gettrace = sys.settrace, sys.gettrace
        self.setprofile, self.getprofile = sys.setprofile, sys.getprofile
        self.callbacks = gc.callbacks  # the list the collector reads (rebinding it does nothing)
        self.gc_enable, self.gc_disable, self.gc_isenabled = gc.enable, gc.disable, gc.isenabled
        # _signal's own functions (no Python wrapper to patch); handlers compare by identity:
        # SIG_DFL and SIG_IGN are the small ints 0 and 1, and a handler's __eq__ is its code
        sig = _signal
        self.getsignal, self.signal, self.setitimer = sig.getsignal, sig.signal, sig.setitimer
        self.getitimer = sig.getitimer
        self.timers = (sig.ITIMER_REAL, sig.ITIMER_VIRTUAL, sig.ITIMER_PROF)
        self.set_wakeup_fd, self.sigmask = sig.set_wakeup_fd, sig.pthread_sigmask
        self.mask = sig.pthread_sigmask(sig.SIG_BLOCK, [])
        self.handlers: list[tuple[int, object]] = []
        for num in sorted(sig.valid_signals() - {sig.SIGKILL, sig.SIGSTOP}):
            try:
                handler = sig.getsignal(num)
            except (OSError, ValueError):
                continue
            # None: a handler not set from Python; the default is what a restore can give back
            self.handlers.append((num, sig.SIG_DFL if handler is None else handler))
        self.asyncgen = sys.get_asyncgen_hooks()
        self.get_asyncgen_hooks = sys.get_asyncgen_hooks
        self.set_asyncgen_hooks = sys.set_asyncgen_hooks
        self.unraisablehook = sys.unraisablehook
        self.atexit_clear, self.atexit_count = atexit._clear, atexit._ncallbacks
        self.monitoring = getattr(sys, "monitoring", None)  # Python 3.12+
        self.tools: list[int] = []
        self.events: list[int] = []
        if self.monitoring is not None:
            mon = self.monitoring
            self.tools = [t for t in range(6) if mon.get_tool(t) is None]
            self.events = sorted(
                {
                    v
                    for k, v in vars(mon.events).items()
                    if not k.startswith("_") and isinstance(v, int) and v and not v & (v - 1)
                }
            )
        self.gc_wanted = True  # the solution's choice, given back at its next command

    def resume(self) -> None:
        """At the start of a solution command: the collector as the solution left it."""
        if self.gc_wanted:
            self.gc_enable()

    def disarm(self) -> None:
        """At the end of a solution command (see the class docstring)."""
        self.gc_wanted = self.gc_isenabled()
        while True:
            self._undo()
            if self._quiet():
                return

    def _undo(self) -> None:
        """One pass over everything a solution can arm."""
        self.gc_disable()
        self.settrace(None)
        self.setprofile(None)
        self._unmonitor()
        del self.callbacks[:]
        for timer in self.timers:
            self.setitimer(timer, 0)
        # A signal of the solution's may be on its way (a timer that fired just now, one the
        # solution blocked): ignored first, it is discarded wherever it waits (the kernel,
        # or the emulator's queue under icount); given back straight to its default, it
        # could end the process instead.
        changed = [(n, h) for n, h in self.handlers if self.getsignal(n) is not h]
        for num, _handler in changed:
            self.signal(num, _signal.SIG_IGN)
        self.set_wakeup_fd(-1)
        self.sigmask(_signal.SIG_SETMASK, self.mask)
        for num, handler in changed:
            self.signal(num, handler)
        self.set_asyncgen_hooks(*self.asyncgen)
        sys.unraisablehook = self.unraisablehook
        self.atexit_clear()

    def warm(self, times: int) -> None:
        """Disarm and resume ``times`` times on trusted code (the zygote, before any child):
        CPython specialises code as it runs, and a child's first disarm would otherwise cost
        more than the calibration's empty calls, whose median is warm (thousands of
        instructions per pass under icount)."""
        for _ in range(times):
            self.disarm()
            self.resume()

    def _unmonitor(self) -> None:
        mon = self.monitoring
        if mon is None:
            return
        for tool in self.tools:
            if mon.get_tool(tool) is None:
                continue
            for event in self.events:
                mon.register_callback(tool, event, None)
            mon.set_events(tool, 0)
            clear = getattr(mon, "clear_tool_id", None)  # 3.14: local events too
            if clear is not None:
                clear(tool)
            mon.free_tool_id(tool)

    def _quiet(self) -> bool:
        """Nothing armed. Reads only (comparisons by identity): it drops no reference and calls
        nothing of the solution's, so nothing can arm itself again behind it."""
        if self.gettrace() is not None or self.getprofile() is not None:
            return False
        if self.callbacks or self.gc_isenabled() or self.atexit_count():
            return False
        if any(self.getitimer(t) != (0.0, 0.0) for t in self.timers):
            return False
        if any(self.getsignal(n) is not h for n, h in self.handlers):
            return False
        if self.sigmask(_signal.SIG_BLOCK, []) != self.mask or self.set_wakeup_fd(-1) != -1:
            return False
        hooks = self.get_asyncgen_hooks()
        if hooks.firstiter is not self.asyncgen.firstiter:
            return False
        if hooks.finalizer is not self.asyncgen.finalizer:
            return False
        if sys.unraisablehook is not self.unraisablehook:
            return False
        mon = self.monitoring
        return mon is None or all(mon.get_tool(t) is None for t in self.tools)


_GUARD = _Guard()
SOLUTION_OPS = frozenset({"load", "call", "go"})  # the commands that run solution code
GUARD_WARM_UP = 64  # disarms in the zygote before its first child (as its 64 warm-up commands)


def _noop() -> None:
    return None


def _null_class() -> None:
    """A class task's null call: the lazy answer's check a real call pays, and nothing else."""
    out = None
    _list(out) if type(out) in _LAZY else out


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


def _encode_result(output: object, args: object) -> dict:
    """The serialised answer of one call: its return value and its arguments after the call."""
    try:
        encoded = wire.encode(output)
    except wire.NotPlainData as exc:
        return {"ok": False, "kind": "output", "error": f"output: {exc}"}
    try:
        after = wire.encode(args)
    except wire.NotPlainData as exc:
        return {"ok": False, "kind": "output", "error": f"inputs after the call: {exc}"}
    return {"ok": True, "output": encoded, "inputs_after": after}


def _run_solution_code(body: object) -> dict:
    """Run ``body`` (solution code) and say how it ended, as a reply."""
    try:
        body()  # type: ignore[operator]
    except MemoryError:
        return {"ok": False, "kind": "memory", "error": "MemoryError"}
    except RecursionError as exc:
        return {"ok": False, "kind": "exception", "error": _describe(exc)}
    except SystemExit as exc:
        return {"ok": False, "kind": "exit", "error": f"the solution called exit({exc.code!r})"}
    except BaseException as exc:
        return {"ok": False, "kind": "exception", "error": _describe(exc)}
    return {"ok": True}


class _Switch(Exception):
    """Raised in a freshly forked child: the main loop moves to the child channels."""


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
        self.prepared: list = []  # zygote: converted arguments of each case
        self.results: dict = {}  # child: case -> output of its one call
        self.staged: list = []  # calibration child: decoded (output, arguments) pairs
        self.with_inputs = True  # zygote: report the arguments after each call
        self.seed = 0  # zygote: random's seed in every child
        self.namespace: dict = {}  # zygote: the prelude's names, built once
        self.compiled = None  # child: the solution's compiled module, before `load`
        self.child = 0

    # -- commands -------------------------------------------------------------------------

    def setup(self, msg: dict) -> dict:
        _drop_privileges(msg.get("uid"), msg.get("gid"))
        _apply_limits(msg.get("limits", {}))
        recursion = msg.get("recursion_limit")
        if recursion:
            sys.setrecursionlimit(int(recursion))
        self.kind = msg["kind"]
        self.entry_point = msg["entry_point"]
        # the arguments after a call are the answer of an in-place problem only: serialising them
        # otherwise can cost more than the call (merged lists reach every node of every input)
        self.with_inputs = bool(msg.get("inputs_after", True))
        self.raw_inputs = [wire.decode(c) for c in msg["cases"]]
        ns = build_namespace()
        exec(msg["convert_offline"], ns)
        self.convert = ns.get("convert_offline")
        if not callable(self.convert):
            return {"ok": False, "error": "convert_offline source defines no convert_offline()"}
        return {"ok": True, "pid": os.getpid(), "uid": os.getuid()}

    def compile(self, msg: dict) -> dict:
        """Compile the solution's source. The compiler runs no solution code; the host books this
        window with the load (a source holding a huge literal table pays for compiling it), and
        ``load`` then executes the module's code."""
        self.compiled = compile(msg["code"], "<solution>", "exec")
        return {"ok": True}

    def load(self, msg: dict) -> dict:
        # a zygote's child starts from the namespace the zygote built once (same names)
        ns = dict(self.namespace) if self.namespace else build_namespace()
        # the solution's module registered as a module (this child's alone), as LeetCode runs
        # it: code that looks its own module up in sys.modules (a @dataclass, typing's
        # get_type_hints, pickle) finds it instead of raising on None
        module = type(sys)(ns["__name__"])
        module.__dict__.update(ns)
        sys.modules[module.__name__] = module
        ns = module.__dict__
        code = self.compiled if "code" not in msg else compile(msg["code"], "<solution>", "exec")
        self.compiled = None
        exec(code, ns)
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

    # -- zygote -------------------------------------------------------------------------------

    def zsetup(self, msg: dict) -> dict:
        """Prepare the task once; children share the prepared inputs copy-on-write."""
        import random

        self.kind = msg["kind"]
        self.entry_point = msg["entry_point"]
        ns = build_namespace()
        exec(msg["convert_offline"], ns)
        convert = ns.get("convert_offline")
        if not callable(convert):
            return {"ok": False, "error": "convert_offline source defines no convert_offline()"}
        prepared = []
        for case in msg["cases"]:
            args, _expected = convert((wire.decode(case), None))
            prepared.append(list(args))
        self.prepared = prepared
        self.convert = convert
        # a task whose evaluate_offline never reads the inputs gets no post-call inputs back
        self.with_inputs = bool(msg.get("inputs_after", True))
        self.namespace = build_namespace()
        if msg.get("seal_tmp"):
            # The sandbox's one writable place is its private /tmp, and it outlives a pass: a
            # solution could leave its answers there in one pass and read them in the next (or
            # leave a mark that says "this pass is not judged"). The children run as another
            # uid, so taking the write bit away from everyone but this process (its owner)
            # leaves them no file system to write to at all. Only inside a private /tmp: the
            # host tells us (under the weak sandbox /tmp is the host's).
            try:
                os.chmod("/tmp", 0o755)
            except OSError as exc:
                return {"ok": False, "error": f"could not seal /tmp against the children: {exc}"}
        self._warm_up()
        _GUARD.warm(GUARD_WARM_UP)
        # A solution that imports random gets this module, seeded, not one seeded from urandom
        # (each child seeds it again: random reseeds itself from urandom after every fork).
        self.seed = int(msg.get("seed", 0))
        random.seed(self.seed)
        # Children start with empty young generations and a frozen heap: the collector runs at
        # the same points of every pass, whatever the zygote did before the fork.
        gc.collect()
        gc.freeze()
        return {"ok": True, "pid": os.getpid(), "cases": len(prepared)}

    def _warm_up(self) -> None:
        """Run the child's paths once on trusted code, so that one-time costs (the compiler's
        first use costs ~10M instructions, first encodes, caches) are paid here, before the
        fork, and not charged to whichever solution happens to touch them first."""
        if self.kind == "class":
            source = (
                f"class Solution:\n    def {self.entry_point}(self, *args):\n        return None\n"
            )
        else:
            source = f"def {self.entry_point}(*args):\n    return None\n"
        ns = dict(self.namespace)
        exec(compile(source, "<warm-up>", "exec"), ns)
        target = ns["Solution"]() if self.kind == "class" else None
        for args in self.prepared:
            out = (
                getattr(target, self.entry_point)(*args) if target else ns[self.entry_point](*args)
            )
            _encode_result(out, args if self.with_inputs else None)
        wire.decode(wire.encode([[1, "a", None], {"k": 1.5}]))

    def spawn(self, msg: dict) -> dict:
        if self.child:
            return {"ok": False, "kind": "harness", "error": "a child is still running"}
        pid = os.fork()
        if pid:
            self.child = pid
            return {"ok": True, "pid": pid}
        # The child: trusted code until `load`. The zygote's channels are closed first, so
        # nothing here can speak for the zygote.
        os.close(CMD_FD)
        os.close(REPLY_FD)
        gc.collect()
        _drop_privileges(msg.get("uid"), msg.get("gid"))
        _apply_limits(msg.get("limits", {}))
        recursion = msg.get("recursion_limit")
        if recursion:
            sys.setrecursionlimit(int(recursion))
        # random's at-fork hook has just reseeded it from urandom: a randomised solution (a
        # random pivot) would cost a different amount in every pass and every build.
        import random

        random.seed(self.seed)
        if msg.get("prefault"):
            # Touch what a pass touches, so the copy-on-write faults after the fork are paid
            # now and not in the first timed command (they cost the CPU meter milliseconds).
            self._warm_up()
            _GUARD.warm(1)
        raise _Switch()

    def reap(self, msg: dict) -> dict:
        if not self.child:
            return {"ok": False, "kind": "harness", "error": "no child to reap"}
        pid, status, usage = os.wait4(self.child, 0)
        self.child = 0
        return {
            "ok": True,
            "pid": pid,
            "exit_code": os.waitstatus_to_exitcode(status),
            # fixed width (the host parses them as numbers): a reply whose length varied with
            # the child's usage left the zygote's heap a little different in every run, and the
            # next child's compile, which allocates a lot, counted ~100 instructions more or less
            "cpu_seconds": f"{usage.ru_utime + usage.ru_stime:016.9f}",
            "maxrss_kb": f"{usage.ru_maxrss:012d}",
        }

    # -- child --------------------------------------------------------------------------------

    def call(self, msg: dict) -> dict:
        case = int(msg["case"])
        args = self.prepared[case]
        if msg.get("null"):
            body = _noop if self.kind != "class" else _null_class
        elif self.kind == "class":
            cls, entry = self.target_cls, self.entry_point

            def body() -> None:
                out = getattr(cls(), entry)(*args)
                self.results[case] = _list(out) if type(out) in _LAZY else out

        else:
            fn = self.target

            def body() -> None:
                self.results[case] = fn(*args)

        reply = _run_solution_code(body)
        if reply.get("kind") == "memory":
            self.results.pop(case, None)
        return reply

    def stage(self, msg: dict) -> dict:
        nodes = {"tree_node": TreeNode, "list_node": ListNode}
        self.staged = [
            (wire.decode(item["output"], **nodes), wire.decode(item["inputs_after"], **nodes))
            for item in msg["items"]
        ]
        return {"ok": True}

    def encode(self, msg: dict) -> dict:
        output, args = self.staged[int(msg["i"])]
        return _encode_result(output, args)  # the same reply as `report`: its writing costs too

    # -- one process, one solution (quicksilver.execute) ---------------------------------------

    def _run_calls(self) -> None:
        outputs = self.outputs
        entry = self.entry_point
        if self.kind == "class":
            cls = self.target_cls
            for args in self.slots:
                out = getattr(cls(), entry)(*args)
                outputs.append(_list(out) if type(out) in _LAZY else out)
                if len(outputs) > 1:
                    outputs.pop()
        else:
            fn = self.target
            for args in self.slots:
                outputs.append(fn(*args))
                if len(outputs) > 1:
                    outputs.pop()

    def _run_null(self) -> None:
        if self.kind == "class":  # the lazy answer's check, as _run_calls pays it
            for _args in self.slots:
                out = _noop()
                self.outputs.append(_list(out) if type(out) in _LAZY else out)
                if len(self.outputs) > 1:
                    self.outputs.pop()
            return
        for _args in self.slots:
            self.outputs.append(_noop())
            if len(self.outputs) > 1:
                self.outputs.pop()

    def go(self, msg: dict) -> dict:
        reply = _run_solution_code(self._run_null if msg.get("null") else self._run_calls)
        if reply.get("kind") == "memory":
            self.outputs = []
        return reply

    def report(self, msg: dict) -> dict:
        if "case" in msg:
            case = int(msg["case"])
            if case not in self.results:
                return {"ok": False, "kind": "harness", "error": f"case {case} was not called"}
            args = self.prepared[case] if self.with_inputs else None
            # reported once: the harness drops the output, so that a later case's peak memory
            # (read by the host) does not carry this one's
            return _encode_result(self.results.pop(case), args)
        if not self.outputs or not self.slots:
            return {"ok": False, "kind": "harness", "error": "nothing to report"}
        return _encode_result(self.outputs[0], self.slots[0] if self.with_inputs else None)

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
    zygote = CHILD_CMD_FD >= 0
    if zygote:
        handlers.update(
            {
                "zsetup": harness.zsetup,
                "spawn": harness.spawn,
                "reap": harness.reap,
                "ping": lambda msg: {"ok": True},
            }
        )
    child = False
    cmd_fd, reply_fd = CMD_FD, REPLY_FD
    write, read = wire.write_frame, wire.read_frame
    # the host waits for this, and checks that it speaks the same protocol
    write(reply_fd, {"seq": 0, "ok": True, "hello": os.getpid(), "protocol": PROTOCOL})
    while True:
        try:
            msg = read(cmd_fd)
        except EOFError:
            return 0
        op = msg.get("op")
        seq = msg.get("seq")
        if op == "exit":
            write(reply_fd, {"seq": seq, "ok": True})
            if child:
                # Nothing a solution left behind (atexit, finalizers) runs after the last reply.
                os._exit(0)
            return 0
        handler = handlers.get(op)
        solution = op in SOLUTION_OPS
        if handler is None:
            reply = {"ok": False, "kind": "harness", "error": f"unknown op {op!r}"}
        else:
            try:
                if solution:
                    _GUARD.resume()
                reply = handler(msg)
            except _Switch:
                # The newly forked child: it answers on the child channels from now on, and
                # only child commands (zygote commands are gone with the zygote's channels).
                child = True
                cmd_fd, reply_fd = CHILD_CMD_FD, CHILD_REPLY_FD
                for name in ("zsetup", "spawn", "reap", "setup", "prep", "go", "release"):
                    handlers.pop(name, None)
                handlers.update(
                    {
                        "compile": harness.compile,
                        "call": harness.call,
                        "stage": harness.stage,
                        "encode": harness.encode,
                    }
                )
                _flush()
                write(reply_fd, {"seq": 0, "ok": True, "hello": os.getpid(), "protocol": PROTOCOL})
                continue
            except MemoryError:
                reply = {"ok": False, "kind": "memory", "error": f"MemoryError during {op}"}
            except SystemExit as exc:
                reply = {"ok": False, "kind": "exit", "error": f"exit({exc.code!r}) during {op}"}
            except BaseException as exc:
                reply = {"ok": False, "kind": "exception", "error": f"{op}: {_describe(exc)}"}
        if solution:
            # still inside the command's window: the solution's streams (its own objects, if it
            # replaced them) are flushed, and what it armed fires here for the last time
            try:
                _flush()
                _GUARD.disarm()
            except BaseException as exc:
                reply = {
                    "ok": False,
                    "kind": "exception",
                    "error": f"{op}: what the solution left armed: {_describe(exc)}",
                }
        elif op != "report":
            # (a report follows solution code: its streams are the solution's objects, flushed
            # at the end of its own command; nothing of the solution's runs in a report)
            _flush()
        reply["seq"] = seq
        write(reply_fd, reply)


if __name__ == "__main__":
    sys.exit(main())
