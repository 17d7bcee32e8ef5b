"""The seccomp filter bubblewrap loads into every sandbox (``bwrap --seccomp FD``).

A classic BPF program, built here with ``struct`` (no libseccomp), that refuses with ``EPERM``
everything a solution could use to leave or reshape its sandbox: new namespaces (``unshare``,
``setns``, ``clone`` with a ``CLONE_NEW*`` flag), mounts (``mount``, ``umount2``, ``pivot_root``,
``chroot``, the new mount API), another process's memory (``ptrace``, ``process_vm_*``,
``pidfd_getfd``, ``kcmp``), kernel attack surface (``bpf``, ``perf_event_open``, keyrings,
``userfaultfd``, ``io_uring``) and machine administration (modules, ``kexec``, ``reboot``, swap);
and what would let it hold memory where no process map shows it (memfds, System V shared memory
and message queues, POSIX message queues, sockets, ``fcntl(F_SETPIPE_SZ)``) or make the kernel do
work the icount meter cannot see (``splice``, ``tee``, ``vmsplice``, ``sendfile``,
``copy_file_range``, kernel AIO). ``getrandom`` fails with ``ENOSYS`` (callers fall back to
``/dev/urandom``, a fixed seeded stream inside the sandbox).
``clone3`` fails with ``ENOSYS``: its flags sit behind a pointer the filter cannot read, and libc
then falls back to ``clone``, whose flags it can. ``personality`` is allowed only for the query
(``0xffffffff``), ``PER_LINUX`` and ``ADDR_NO_RANDOMIZE`` (``setarch -R`` for the callgrind meter).

The filter checks the architecture first: a system call of another ABI (``int 0x80`` on x86_64)
kills the process, and x32 system calls (bit ``0x40000000``) are refused. On a machine whose
architecture is not listed here the sandbox refuses to start rather than run unfiltered.
"""

from __future__ import annotations

import errno
import functools
import os
import platform
import struct
import sys
from dataclasses import dataclass

# linux/audit.h
AUDIT_ARCH_X86_64 = 0xC000003E
AUDIT_ARCH_AARCH64 = 0xC00000B7
X32_SYSCALL_BIT = 0x40000000

# linux/seccomp.h
SECCOMP_RET_KILL_PROCESS = 0x80000000
SECCOMP_RET_ERRNO = 0x00050000
SECCOMP_RET_ALLOW = 0x7FFF0000

# struct seccomp_data { int nr; __u32 arch; __u64 instruction_pointer; __u64 args[6]; }
OFF_NR = 0
OFF_ARCH = 4
OFF_ARG0_LOW = 16  # the low 32 bits of args[0] on a little-endian machine
OFF_ARG1_LOW = 24  # the low 32 bits of args[1]

# linux/filter.h (classic BPF)
BPF_LD_W_ABS = 0x00 | 0x00 | 0x20
BPF_JEQ_K = 0x05 | 0x10 | 0x00
BPF_JGE_K = 0x05 | 0x30 | 0x00
BPF_JSET_K = 0x05 | 0x40 | 0x00
BPF_RET_K = 0x06 | 0x00

# linux/sched.h: every namespace flag clone() accepts (CLONE_NEWTIME only exists for clone3 and
# unshare; in clone()'s flags its bit belongs to the exit signal).
CLONE_NEWNS = 0x00020000
CLONE_NEWCGROUP = 0x02000000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
CLONE_NEW_ANY = (
    CLONE_NEWNS
    | CLONE_NEWCGROUP
    | CLONE_NEWUTS
    | CLONE_NEWIPC
    | CLONE_NEWUSER
    | CLONE_NEWPID
    | CLONE_NEWNET
)

# personality(2) values the filter lets through.
PERSONALITY_QUERY = 0xFFFFFFFF
PER_LINUX = 0x0000
ADDR_NO_RANDOMIZE = 0x0040000
ALLOWED_PERSONALITIES = (PER_LINUX, PERSONALITY_QUERY, ADDR_NO_RANDOMIZE)

# Refused with EPERM, by name; a name an architecture does not have is skipped there.
DENIED = (
    # namespaces and mounts
    "unshare",
    "setns",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "open_tree",
    "move_mount",
    "fsopen",
    "fsconfig",
    "fsmount",
    "fspick",
    "mount_setattr",
    # other processes' memory and descriptors
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "process_madvise",
    "pidfd_getfd",
    "kcmp",
    # kernel attack surface
    "bpf",
    "perf_event_open",
    "userfaultfd",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "keyctl",
    "add_key",
    "request_key",
    "open_by_handle_at",
    "syslog",
    # machine administration
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "create_module",
    "reboot",
    "swapon",
    "swapoff",
    "acct",
    "quotactl",
    "quotactl_fd",
    "iopl",
    "ioperm",
    "uselib",
    # memory held through descriptors, where no process map shows it (docs/sandbox.md, "Memory
    # held outside the process's map"): memfds, System V shared memory and message queues,
    # POSIX message queues, sockets (their buffers; the network namespace has no interface
    # anyway). Pipes stay (the harness speaks over them) at their default size: F_SETPIPE_SZ
    # is refused below.
    "memfd_create",
    "memfd_secret",
    "shmget",
    "shmat",
    "msgget",
    "msgsnd",
    "mq_open",
    "mq_timedsend",
    "socket",
    "socketpair",
    # work the kernel does for the process, which the icount meter cannot see: zero-copy data
    # movement and kernel AIO (read and write are charged per byte by the icount plugin instead)
    "splice",
    "tee",
    "vmsplice",
    "sendfile",
    "copy_file_range",
    "io_setup",
    "io_submit",
)

# Fail with ENOSYS, so that callers fall back: ``getrandom`` (os.urandom, random's seeding, glibc's
# arc4random, which falls back only on ENOSYS) then reads /dev/urandom, which the sandbox binds to
# one fixed stream of seeded bytes (isolation.py): a solution's randomness is the same in every
# pass, on every meter, so it cannot take a cheap path in some passes by a coin from the OS.
UNIMPLEMENTED = ("getrandom",)

F_SETPIPE_SZ = 1031  # fcntl(2): a pipe's buffer could grow to /proc/sys/fs/pipe-max-size (1 MiB)

# From the kernel's unistd tables (x86_64: arch/x86/entry/syscalls/syscall_64.tbl; aarch64:
# include/uapi/asm-generic/unistd.h).
_X86_64 = {
    "unshare": 272,
    "setns": 308,
    "mount": 165,
    "umount2": 166,
    "pivot_root": 155,
    "chroot": 161,
    "open_tree": 428,
    "move_mount": 429,
    "fsopen": 430,
    "fsconfig": 431,
    "fsmount": 432,
    "fspick": 433,
    "mount_setattr": 442,
    "clone": 56,
    "clone3": 435,
    "personality": 135,
    "ptrace": 101,
    "process_vm_readv": 310,
    "process_vm_writev": 311,
    "process_madvise": 440,
    "pidfd_getfd": 438,
    "kcmp": 312,
    "bpf": 321,
    "perf_event_open": 298,
    "userfaultfd": 323,
    "io_uring_setup": 425,
    "io_uring_enter": 426,
    "io_uring_register": 427,
    "keyctl": 250,
    "add_key": 248,
    "request_key": 249,
    "open_by_handle_at": 304,
    "syslog": 103,
    "kexec_load": 246,
    "kexec_file_load": 320,
    "init_module": 175,
    "finit_module": 313,
    "delete_module": 176,
    "create_module": 174,
    "reboot": 169,
    "swapon": 167,
    "swapoff": 168,
    "acct": 163,
    "quotactl": 179,
    "quotactl_fd": 443,
    "iopl": 172,
    "ioperm": 173,
    "uselib": 134,
    "fcntl": 72,
    "getrandom": 318,
    "memfd_create": 319,
    "memfd_secret": 447,
    "shmget": 29,
    "shmat": 30,
    "msgget": 68,
    "msgsnd": 69,
    "mq_open": 240,
    "mq_timedsend": 242,
    "socket": 41,
    "socketpair": 53,
    "splice": 275,
    "tee": 276,
    "vmsplice": 278,
    "sendfile": 40,
    "copy_file_range": 326,
    "io_setup": 206,
    "io_submit": 209,
}
_AARCH64 = {
    "unshare": 97,
    "setns": 268,
    "mount": 40,
    "umount2": 39,
    "pivot_root": 41,
    "chroot": 51,
    "open_tree": 428,
    "move_mount": 429,
    "fsopen": 430,
    "fsconfig": 431,
    "fsmount": 432,
    "fspick": 433,
    "mount_setattr": 442,
    "clone": 220,
    "clone3": 435,
    "personality": 92,
    "ptrace": 117,
    "process_vm_readv": 270,
    "process_vm_writev": 271,
    "process_madvise": 440,
    "pidfd_getfd": 438,
    "kcmp": 272,
    "bpf": 280,
    "perf_event_open": 241,
    "userfaultfd": 282,
    "io_uring_setup": 425,
    "io_uring_enter": 426,
    "io_uring_register": 427,
    "keyctl": 219,
    "add_key": 217,
    "request_key": 218,
    "open_by_handle_at": 265,
    "syslog": 116,
    "kexec_load": 104,
    "kexec_file_load": 294,
    "init_module": 105,
    "finit_module": 273,
    "delete_module": 106,
    "reboot": 142,
    "swapon": 224,
    "swapoff": 225,
    "acct": 89,
    "quotactl": 60,
    "quotactl_fd": 443,
    "fcntl": 25,
    "getrandom": 278,
    "memfd_create": 279,
    "memfd_secret": 447,
    "shmget": 194,
    "shmat": 196,
    "msgget": 186,
    "msgsnd": 189,
    "mq_open": 180,
    "mq_timedsend": 182,
    "socket": 198,
    "socketpair": 199,
    "splice": 76,
    "tee": 77,
    "vmsplice": 75,
    "sendfile": 71,
    "copy_file_range": 285,
    "io_setup": 0,
    "io_submit": 2,
}


class UnsupportedArchitecture(RuntimeError):
    """No system-call table for this machine: the filter cannot be built."""


@dataclass(frozen=True)
class Arch:
    name: str
    audit: int  # AUDIT_ARCH_* as the kernel reports it in seccomp_data.arch
    syscalls: dict[str, int]
    x32: bool  # the x32 ABI shares the audit arch and must be refused by number


ARCHES = {
    "x86_64": Arch("x86_64", AUDIT_ARCH_X86_64, _X86_64, x32=True),
    "aarch64": Arch("aarch64", AUDIT_ARCH_AARCH64, _AARCH64, x32=False),
}
_ALIASES = {"amd64": "x86_64", "arm64": "aarch64"}


def arch_for(machine: str | None = None) -> Arch:
    """The table for ``machine`` (default: this one's), or UnsupportedArchitecture."""
    name = (machine or platform.machine()).lower()
    arch = ARCHES.get(_ALIASES.get(name, name))
    if arch is None or sys.byteorder != "little":
        raise UnsupportedArchitecture(
            f"no seccomp filter for architecture {name!r} ({sys.byteorder}-endian; supported: "
            f"{', '.join(ARCHES)}); refusing to run untrusted code without one"
        )
    return arch


# ------------------------------------------------------------------------------------ assembly


@dataclass(frozen=True)
class _Insn:
    code: int
    k: int
    jt: str | int = 0  # a label, or 0 for the next instruction
    jf: str | int = 0


def _ld(offset: int) -> _Insn:
    return _Insn(BPF_LD_W_ABS, offset)


def _ret(value: int) -> _Insn:
    return _Insn(BPF_RET_K, value)


def _assemble(items: list[_Insn | str]) -> bytes:
    """``items`` are instructions and label names; jumps name labels further down."""
    labels: dict[str, int] = {}
    insns: list[_Insn] = []
    for item in items:
        if isinstance(item, str):
            labels[item] = len(insns)
        else:
            insns.append(item)
    out = bytearray()
    for i, insn in enumerate(insns):
        offsets = []
        for target in (insn.jt, insn.jf):
            off = target if isinstance(target, int) else labels[target] - i - 1
            if not 0 <= off <= 255:
                raise ValueError(f"jump from {i} to {target!r} out of range ({off})")
            offsets.append(off)
        out += struct.pack("=HBBI", insn.code, offsets[0], offsets[1], insn.k)
    return bytes(out)


def build(arch: Arch) -> bytes:
    """The filter program for ``arch``, as ``struct sock_filter`` entries (8 bytes each)."""
    calls = arch.syscalls
    items: list[_Insn | str] = [
        _ld(OFF_ARCH),
        _Insn(BPF_JEQ_K, arch.audit, 0, "kill"),
        _ld(OFF_NR),
    ]
    if arch.x32:
        items.append(_Insn(BPF_JGE_K, X32_SYSCALL_BIT, "eperm", 0))
    items += [
        _Insn(BPF_JEQ_K, calls["clone"], "clone", 0),
        _Insn(BPF_JEQ_K, calls["clone3"], "enosys", 0),
        _Insn(BPF_JEQ_K, calls["personality"], "personality", 0),
        _Insn(BPF_JEQ_K, calls["fcntl"], "fcntl", 0),
    ]
    items += [_Insn(BPF_JEQ_K, calls[name], "eperm", 0) for name in DENIED if name in calls]
    items += [_Insn(BPF_JEQ_K, calls[n], "enosys", 0) for n in UNIMPLEMENTED if n in calls]
    items += [
        _ret(SECCOMP_RET_ALLOW),
        "clone",
        _ld(OFF_ARG0_LOW),
        _Insn(BPF_JSET_K, CLONE_NEW_ANY, "eperm", "allow"),
        "fcntl",
        _ld(OFF_ARG1_LOW),
        _Insn(BPF_JEQ_K, F_SETPIPE_SZ, "eperm", "allow"),
        "personality",
        _ld(OFF_ARG0_LOW),
        *(_Insn(BPF_JEQ_K, value, "allow", 0) for value in ALLOWED_PERSONALITIES),
        "eperm",
        _ret(SECCOMP_RET_ERRNO | errno.EPERM),
        "enosys",
        _ret(SECCOMP_RET_ERRNO | errno.ENOSYS),
        "kill",
        _ret(SECCOMP_RET_KILL_PROCESS),
        "allow",
        _ret(SECCOMP_RET_ALLOW),
    ]
    return _assemble(items)


@functools.lru_cache(maxsize=4)
def program(machine: str | None = None) -> bytes:
    """This machine's filter program (cached); UnsupportedArchitecture if there is none."""
    return build(arch_for(machine))


def denied_names(machine: str | None = None) -> list[str]:
    """The system calls refused on ``machine`` (for doctor and the docs)."""
    calls = arch_for(machine).syscalls
    return [name for name in DENIED if name in calls]


def program_fd(machine: str | None = None) -> int:
    """A pipe's read end holding the program, for ``bwrap --seccomp FD``; the caller closes it.

    bwrap reads it to EOF before it starts the sandbox. The program is well below a pipe's
    capacity, so it is written whole before bwrap runs.
    """
    data = program(machine)
    read_end, write_end = os.pipe()
    try:
        written = os.write(write_end, data)
    finally:
        os.close(write_end)
    if written != len(data):
        os.close(read_end)
        raise OSError(f"short write of the seccomp program ({written} of {len(data)} bytes)")
    return read_end
