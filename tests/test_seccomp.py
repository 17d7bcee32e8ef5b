"""The seccomp program, decision by decision, run by a small classic-BPF interpreter.

The kernel-level behaviour (bubblewrap loads the program, the calls fail with EPERM inside) is
tested in test_sandbox.py; here every architecture's table and argument check is exercised
without a kernel, so that aarch64 is covered on an x86_64 machine too.
"""

from __future__ import annotations

import errno
import struct

import pytest

from quicksilver.sandbox import seccomp as sc

ALLOW = sc.SECCOMP_RET_ALLOW
EPERM = sc.SECCOMP_RET_ERRNO | errno.EPERM
ENOSYS = sc.SECCOMP_RET_ERRNO | errno.ENOSYS
KILL = sc.SECCOMP_RET_KILL_PROCESS
AUDIT_ARCH_I386 = 0x40000003

# Calls the harness, CPython, valgrind and qemu make and the filter must let through.
EVERYDAY = {
    "x86_64": {"read": 0, "write": 1, "mmap": 9, "execve": 59, "fork": 57, "setuid": 105,
               "setgid": 106, "setgroups": 116, "setrlimit": 160, "prlimit64": 302, "wait4": 61},
    "aarch64": {"read": 63, "write": 64, "mmap": 222, "execve": 221, "setuid": 146,
                "setgid": 144, "setgroups": 159, "setrlimit": 164, "prlimit64": 261,
                "wait4": 260},
}  # fmt: skip


def run_filter(program: bytes, nr: int, arch: int, args: tuple[int, ...] = ()) -> int:
    """Execute a classic BPF seccomp program on one struct seccomp_data."""
    full = (list(args) + [0] * 6)[:6]
    data = struct.pack("<iIQ6Q", nr, arch, 0, *full)
    insns = [struct.unpack_from("=HBBI", program, i) for i in range(0, len(program), 8)]
    pc, acc = 0, 0
    while True:
        code, jt, jf, k = insns[pc]
        pc += 1
        if code == sc.BPF_LD_W_ABS:
            acc = struct.unpack_from("<I", data, k)[0]
        elif code == sc.BPF_JEQ_K:
            pc += jt if acc == k else jf
        elif code == sc.BPF_JGE_K:
            pc += jt if acc >= k else jf
        elif code == sc.BPF_JSET_K:
            pc += jt if acc & k else jf
        elif code == sc.BPF_RET_K:
            return k
        else:
            raise AssertionError(f"unexpected opcode {code:#x} at {pc - 1}")


@pytest.fixture(params=sorted(sc.ARCHES))
def arch(request: pytest.FixtureRequest) -> sc.Arch:
    return sc.ARCHES[request.param]


def decide(arch: sc.Arch, name: str, *args: int) -> int:
    return run_filter(sc.build(arch), arch.syscalls[name], arch.audit, args)


def test_every_denied_call_gets_eperm(arch: sc.Arch) -> None:
    program = sc.build(arch)
    denied = [n for n in sc.DENIED if n in arch.syscalls]
    assert {"unshare", "setns", "mount", "umount2", "pivot_root", "chroot", "fsopen",
            "move_mount", "open_tree", "ptrace", "process_vm_writev", "bpf",
            "perf_event_open", "userfaultfd", "io_uring_setup", "keyctl", "init_module",
            "kexec_load", "reboot", "swapon"} <= set(denied)  # fmt: skip
    for name in denied:
        got = run_filter(program, arch.syscalls[name], arch.audit)
        assert got == EPERM, (arch.name, name, hex(got))
    assert sc.denied_names(arch.name) == denied


def test_everyday_calls_are_allowed(arch: sc.Arch) -> None:
    program = sc.build(arch)
    for name, nr in EVERYDAY[arch.name].items():
        assert run_filter(program, nr, arch.audit, (0, 0, 0)) == ALLOW, name


def test_clone_is_refused_only_with_a_namespace_flag(arch: sc.Arch) -> None:
    sigchld = 17
    # CLONE_VM|FS|FILES|SIGHAND|THREAD|SYSVSEM|SETTLS|PARENT_SETTID|CHILD_CLEARTID
    thread = 0x3D0F00
    assert decide(arch, "clone", sigchld) == ALLOW  # fork
    assert decide(arch, "clone", thread) == ALLOW  # a thread (qemu's RCU thread)
    assert decide(arch, "clone", 0x4111) == ALLOW  # posix_spawn: CLONE_VM|CLONE_VFORK|SIGCHLD
    for flag in (sc.CLONE_NEWNS, sc.CLONE_NEWCGROUP, sc.CLONE_NEWUTS, sc.CLONE_NEWIPC,
                 sc.CLONE_NEWUSER, sc.CLONE_NEWPID, sc.CLONE_NEWNET):  # fmt: skip
        assert decide(arch, "clone", flag | sigchld) == EPERM, hex(flag)
        assert decide(arch, "clone", flag | thread) == EPERM, hex(flag)
    # the kernel reads clone's flags as 32 bits: high bits change nothing
    assert decide(arch, "clone", (1 << 40) | sigchld) == ALLOW
    assert decide(arch, "clone", (1 << 40) | sc.CLONE_NEWUSER) == EPERM


def test_clone3_falls_back_to_clone(arch: sc.Arch) -> None:
    assert decide(arch, "clone3", 0, 88) == ENOSYS


def test_personality_allows_only_query_linux_and_no_aslr(arch: sc.Arch) -> None:
    assert decide(arch, "personality", 0xFFFFFFFF) == ALLOW
    assert decide(arch, "personality", 0) == ALLOW
    assert decide(arch, "personality", 0x0040000) == ALLOW  # setarch -R (callgrind meter)
    for bad in (0x0400000, 0x0100000, 0x0040000 | 0x0400000, 0x0008):
        # READ_IMPLIES_EXEC, MMAP_PAGE_ZERO, a mix, PER_LINUX32
        assert decide(arch, "personality", bad) == EPERM, hex(bad)


def test_fcntl_is_refused_only_to_grow_a_pipe(arch: sc.Arch) -> None:
    """A pipe's buffer holds memory no process map shows: it stays at its default size."""
    assert decide(arch, "fcntl", 5, sc.F_SETPIPE_SZ, 1 << 20) == EPERM
    for cmd in (0, 1, 2, 3, 4, 1030, 1032):  # F_DUPFD ... F_SETFL, F_DUPFD_CLOEXEC, F_GETPIPE_SZ
        assert decide(arch, "fcntl", 5, cmd, 0) == ALLOW, cmd


def test_memory_and_kernel_work_calls_are_refused(arch: sc.Arch) -> None:
    for name in ("memfd_create", "shmget", "msgget", "mq_open", "socket", "socketpair",
                 "splice", "tee", "vmsplice", "sendfile", "copy_file_range", "io_setup"):  # fmt: skip
        assert decide(arch, name, 0, 0, 0) == EPERM, name


def test_getrandom_falls_back_to_the_seeded_urandom(arch: sc.Arch) -> None:
    for flags in (0, 1, 2, 4):  # GRND_NONBLOCK, GRND_RANDOM, GRND_INSECURE
        assert decide(arch, "getrandom", 0, 16, flags) == ENOSYS, flags


def test_other_abis_are_refused() -> None:
    x86 = sc.ARCHES["x86_64"]
    program = sc.build(x86)
    # an i386 system call (int 0x80) would be read with the wrong table: the process dies
    assert run_filter(program, 0, AUDIT_ARCH_I386) == KILL
    assert run_filter(program, 0, sc.AUDIT_ARCH_AARCH64) == KILL
    # x32 system calls share the x86_64 audit arch and carry bit 0x40000000
    assert run_filter(program, sc.X32_SYSCALL_BIT | 0, x86.audit) == EPERM
    assert run_filter(program, sc.X32_SYSCALL_BIT | 272, x86.audit) == EPERM
    arm = sc.ARCHES["aarch64"]
    assert run_filter(sc.build(arm), 63, sc.AUDIT_ARCH_X86_64) == KILL


@pytest.mark.parametrize("machine", ["riscv64", "ppc64le", "s390x", "i686", "armv7l"])
def test_unknown_architecture_is_refused(machine: str) -> None:
    with pytest.raises(sc.UnsupportedArchitecture, match="refusing"):
        sc.program(machine)


def test_aliases_and_program_shape() -> None:
    assert sc.arch_for("amd64") is sc.ARCHES["x86_64"]
    assert sc.arch_for("arm64") is sc.ARCHES["aarch64"]
    data = sc.program("x86_64")
    assert len(data) % 8 == 0 and 0 < len(data) // 8 < 256
