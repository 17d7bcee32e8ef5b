#!/usr/bin/env python3
"""System packages Quicksilver and its tests need, checked and (where allowed) installed.

Standard library only: it runs before the virtual environment exists (``make system``, which
``make build-dataset`` and ``make build-dpe`` run first with ``--build-only``, and
``make system-tests``, which ``make test`` runs first, with the tests' browser too).

What it does, in order:

1. Looks for each package's command on PATH (the list below is the only place it is kept).
2. Installs the missing packages with apt-get when it may: as root, or through passwordless
   sudo (``sudo -n true``). Otherwise it stops with ONE line naming the missing packages and the
   command that installs them.
3. Checks that bubblewrap can really create the namespaces the sandbox uses (the same flags as
   ``quicksilver/sandbox/isolation.py``: privileged bwrap as root, a user namespace otherwise),
   and stops with its own message when it cannot (an unprivileged container, say).

It is silent when everything is there and works. Exit status: 0 ready, 1 not ready.

Simulation (tests): every probe command (bwrap, qemu-*, gcc, chromium, apt-get, sudo) is
looked up on PATH, so a PATH of fakes shadows them; ``QS_ASSUME_UID`` replaces the effective uid
and ``QS_ASSUME_MACHINE`` the machine name (``uname -m``).
"""

from __future__ import annotations

import argparse
import logging
import os
import platform
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass

log = logging.getLogger("system_deps")


@dataclass(frozen=True)
class Package:
    name: str  # the Debian package
    command: str  # what proves it is installed (a command on PATH)
    why: str


def machine() -> str:
    return os.environ.get("QS_ASSUME_MACHINE") or platform.machine()


def qemu_command() -> str:
    """The qemu user-mode emulator of this machine's own architecture (the default meter)."""
    return f"qemu-{machine()}"


BUILD_ONLY = False
"""Set by ``--build-only``: leave out what only the tests need (a build never opens a browser)."""


def packages() -> list[Package]:
    """Every system package the sandbox and the default (icount) meter need, then the tests'."""
    build = [
        Package("bubblewrap", "bwrap", "the sandbox"),
        Package("qemu-user", qemu_command(), "the default deterministic cost meter"),
        Package("gcc", "gcc", "compiles the qemu meter's plugin"),
    ]
    tests = [
        Package("chromium", "chromium", "the tests that open a build report in a headless browser"),
    ]
    return build if BUILD_ONLY else build + tests


def package_for(command: str) -> Package:
    for package in packages():
        if package.command == command:
            return package
    raise KeyError(f"no system package provides {command!r}")


def install_command(names: list[str], *, sudo: bool = True) -> str:
    prefix = "sudo " if sudo else ""
    return f"{prefix}apt-get install -y {' '.join(names)}"


def euid() -> int:
    assumed = os.environ.get("QS_ASSUME_UID")
    if assumed is not None and assumed.strip():
        try:
            return int(assumed)
        except ValueError:
            raise SystemExit(
                f"error: QS_ASSUME_UID must be an integer uid, not {assumed!r}"
            ) from None
    return os.geteuid()


def missing_packages() -> list[Package]:
    return [p for p in packages() if shutil.which(p.command) is None]


def _describe(missing: list[Package]) -> str:
    return ", ".join(f"{p.name} ({p.command}, for {p.why})" for p in missing)


def _installer_prefix() -> list[str] | None:
    """How to run apt-get with root rights here, or None when that is not possible."""
    if shutil.which("apt-get") is None:
        return None
    if euid() == 0:
        return []
    sudo = shutil.which("sudo")
    if sudo is None:
        return None
    try:
        probe = subprocess.run(
            [sudo, "-n", "true"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return [sudo, "-n"] if probe.returncode == 0 else None


def install(missing: list[Package]) -> bool:
    """Install ``missing`` with apt-get when root rights can be had; False when they cannot."""
    prefix = _installer_prefix()
    if prefix is None:
        return False
    names = [p.name for p in missing]
    apt = shutil.which("apt-get") or "apt-get"
    # sudo resets the environment: the variable then travels through env(1) on its own path.
    apt_argv = [*prefix, "env", "DEBIAN_FRONTEND=noninteractive", apt] if prefix else [apt]
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    log.info("installing %s with apt-get (missing: %s)", " ".join(names), _describe(missing))
    update = subprocess.run(
        [*apt_argv, "update", "-qq"], stdin=subprocess.DEVNULL, env=env, check=False
    )
    if update.returncode != 0:
        log.warning("apt-get update exited %d; trying the install anyway", update.returncode)
    argv = [*apt_argv, "install", "-y", "-qq", "--no-install-recommends", *names]
    done = subprocess.run(argv, stdin=subprocess.DEVNULL, env=env, check=False)
    if done.returncode != 0:
        raise SystemExit(
            f"error: `{shlex.join(argv)}` exited {done.returncode} (apt's output is above); "
            f"install {' '.join(names)} by hand and run this again"
        )
    return True


def namespace_trial_argv() -> list[str]:
    """bwrap with the namespaces the sandbox creates (quicksilver/sandbox/isolation.py)."""
    argv = [
        shutil.which("bwrap") or "bwrap",
        "--unshare-ipc",
        "--unshare-pid",
        "--unshare-net",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--die-with-parent",
        "--new-session",
        "--as-pid-1",
    ]
    if euid() == 0:
        argv += ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    else:
        argv += ["--unshare-user"]
    return [
        *argv,
        "--ro-bind",
        "/",
        "/",
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--tmpfs",
        "/tmp",
        "true",
    ]


NAMESPACE_HELP = (
    "run Quicksilver on a VM or a host, or in a container allowed to create user, pid and net "
    "namespaces (docker run --privileged, or --security-opt seccomp=unconfined --security-opt "
    "apparmor=unconfined); on a host that forbids unprivileged user namespaces, "
    "`sysctl -w kernel.unprivileged_userns_clone=1` (Debian) or "
    "`sysctl -w kernel.apparmor_restrict_unprivileged_userns=0` (Ubuntu 24.04+)"
)


def namespace_trial() -> str | None:
    """None when bubblewrap creates the sandbox's namespaces; otherwise the full error text."""
    argv = namespace_trial_argv()
    try:
        proc = subprocess.run(
            argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=60, check=False
        )
    except subprocess.TimeoutExpired:
        said, status = "(no output)", "did not finish in 60 s"
    except OSError as exc:
        said, status = str(exc), "could not start"
    else:
        if proc.returncode == 0:
            return None
        said = proc.stderr.decode(errors="replace").strip() or "(no output)"
        status = f"exited {proc.returncode}"
    who = "as root" if euid() == 0 else f"as uid {euid()}"
    return (
        f"error: bubblewrap is installed but cannot create the sandbox's namespaces on this "
        f"machine ({who}): `{shlex.join(argv)}` {status}\n"
        f"  bwrap said: {said}\n"
        f"  what to do: {NAMESPACE_HELP}"
    )


def ensure(*, may_install: bool) -> int:
    missing = missing_packages()
    if missing and may_install and install(missing):
        missing = missing_packages()
        if missing:
            log.error(
                "error: apt-get finished but these commands are still missing: %s",
                _describe(missing),
            )
            return 1
    if missing:
        names = [p.name for p in missing]
        if shutil.which("apt-get") is None:
            how = (
                f"install them with this system's package manager "
                f"(on Debian/Ubuntu: {install_command(names)})"
            )
        elif may_install:
            how = f"install them as root: {install_command(names)} (not root, no passwordless sudo)"
        else:
            how = f"install them: {install_command(names)}"
        log.error("error: missing system packages: %s; %s", _describe(missing), how)
        return 1
    problem = namespace_trial()
    if problem is not None:
        log.error("%s", problem)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument(
        "--check", action="store_true", help="never install; only report what is missing"
    )
    parser.add_argument(
        "--list", action="store_true", help="print the packages, one per line, and exit"
    )
    parser.add_argument(
        "--build-only",
        action="store_true",
        help="only what a build needs (make build-dataset / build-dpe); not the tests' browser",
    )
    args = parser.parse_args(argv)
    global BUILD_ONLY
    BUILD_ONLY = args.build_only
    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)
    if args.list:
        for package in packages():
            sys.stdout.write(f"{package.name}\t{package.command}\t{package.why}\n")
        return 0
    return ensure(may_install=not args.check)


if __name__ == "__main__":
    sys.exit(main())
