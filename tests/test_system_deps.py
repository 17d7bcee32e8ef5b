"""scripts/system_deps.py against fakes: a PATH of fake bwrap / qemu / gcc / chromium /
apt-get / sudo scripts, and QS_ASSUME_UID for root or not. Nothing here installs anything."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import requires_bwrap

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "system_deps.py"
ALL = ("bwrap", "qemu-x86_64", "gcc", "chromium")


class FakeMachine:
    """A folder of fake commands that becomes the script's whole PATH."""

    def __init__(self, root: Path) -> None:
        self.bin = root / "bin"
        self.bin.mkdir()
        self.calls = root / "calls.log"
        self.calls.touch()
        # sudo runs `env DEBIAN_FRONTEND=... apt-get`: the real env(1), nothing else.
        (self.bin / "env").symlink_to("/usr/bin/env")

    def command(self, name: str, body: str = "exit 0") -> None:
        path = self.bin / name
        path.write_text(f'#!/bin/sh\necho "{name} $*" >> "{self.calls}"\n{body}\n')
        path.chmod(0o755)

    def have(self, *names: str) -> None:
        for name in names:
            self.command(name)

    def apt_get(self, *, exit_code: int = 0) -> None:
        """apt-get that records its argv and, on install, provides each package's command."""
        provides = {"bubblewrap": "bwrap", "qemu-user": "qemu-x86_64"}
        lines = [f'[ "$1" = install ] && [ {exit_code} = 0 ] && for p in "$@"; do case "$p" in']
        for package, command in provides.items():
            lines.append(f"  {package}) c={command};;")
        lines += ["  -*|install) continue;;", '  *) c="$p";;', "esac"]
        fake = f'printf \'#!/bin/sh\\nexit 0\\n\' > "{self.bin}/$c"; /bin/chmod 755 "{self.bin}/$c"'
        lines += [f"{fake}; done", f"exit {exit_code}"]
        self.command("apt-get", "\n".join(lines))

    def sudo(self, *, passwordless: bool) -> None:
        body = (
            'shift; [ "$1" = true ] && exit 0; exec "$@"'
            if passwordless
            else 'echo "sudo: a password is required" >&2; exit 1'
        )
        self.command("sudo", body)

    def run(
        self, *, uid: int, extra: dict[str, str] | None = None, args: list[str] | None = None
    ) -> subprocess.CompletedProcess:
        env = {"PATH": str(self.bin), "QS_ASSUME_UID": str(uid), "QS_ASSUME_MACHINE": "x86_64"}
        env.update(extra or {})
        return subprocess.run(
            [sys.executable, str(SCRIPT), *(args or [])],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )

    def log(self) -> list[str]:
        return self.calls.read_text().splitlines()


@pytest.fixture
def fake(tmp_path) -> FakeMachine:
    return FakeMachine(tmp_path)


def test_all_present_and_working_is_silent(fake):
    fake.have(*ALL)
    fake.apt_get()
    proc = fake.run(uid=1000)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    log = fake.log()
    assert [line.split()[0] for line in log] == ["bwrap"], log  # only the namespace trial
    assert "--unshare-user" in log[0].split()  # not root: a user namespace, as the sandbox does


def test_root_installs_the_missing_packages_with_apt_get(fake):
    fake.have("bwrap")
    fake.apt_get()
    proc = fake.run(uid=0)
    assert proc.returncode == 0, proc.stderr
    log = fake.log()
    assert log[0] == "apt-get update -qq"
    assert log[1] == "apt-get install -y -qq --no-install-recommends qemu-user gcc chromium"
    assert log[2].startswith("bwrap ") and "--cap-drop ALL" in log[2]  # then the trial, as root
    assert "--unshare-user" not in log[2].split()
    assert "installing qemu-user gcc chromium with apt-get" in proc.stderr
    assert (fake.bin / "chromium").exists()


def test_passwordless_sudo_installs_through_sudo(fake):
    fake.have("qemu-x86_64", "gcc", "chromium")
    fake.apt_get()
    fake.sudo(passwordless=True)
    proc = fake.run(uid=1000)
    assert proc.returncode == 0, proc.stderr
    log = fake.log()
    assert log[0] == "sudo -n true"
    assert "sudo -n env DEBIAN_FRONTEND=noninteractive" in log[1] and log[1].endswith("update -qq")
    assert log[2] == "apt-get update -qq"
    assert log[4] == "apt-get install -y -qq --no-install-recommends bubblewrap"
    assert (fake.bin / "bwrap").exists()


@pytest.mark.parametrize("sudo", ["password", "absent"])
def test_not_root_without_sudo_stops_with_one_line(fake, sudo):
    fake.have("qemu-x86_64", "chromium")
    fake.apt_get()
    if sudo == "password":
        fake.sudo(passwordless=False)
    proc = fake.run(uid=1000)
    assert proc.returncode == 1
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("error: missing system packages: bubblewrap (bwrap")
    assert "gcc (gcc" in lines[0]
    assert "sudo apt-get install -y bubblewrap gcc" in lines[0]
    assert not any(line.startswith(("apt-get", "bwrap")) for line in fake.log())


def test_no_apt_get_names_the_packages_for_any_package_manager(fake):
    fake.have("bwrap", "gcc", "chromium")
    proc = fake.run(uid=0)
    assert proc.returncode == 1
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert "qemu-user (qemu-x86_64" in lines[0]
    assert (
        "this system's package manager" in lines[0] and "apt-get install -y qemu-user" in lines[0]
    )


def test_failed_apt_get_install_names_the_command(fake):
    fake.have("bwrap", "qemu-x86_64", "chromium")
    fake.apt_get(exit_code=100)
    proc = fake.run(uid=0)
    assert proc.returncode == 1
    last = proc.stderr.splitlines()[-1]
    assert "apt-get install -y -qq --no-install-recommends gcc` exited 100" in last


def test_check_only_never_installs(fake):
    fake.have("bwrap", "qemu-x86_64", "chromium")
    fake.apt_get()
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--check"],
        env={"PATH": str(fake.bin), "QS_ASSUME_UID": "0", "QS_ASSUME_MACHINE": "x86_64"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 1
    assert "gcc (gcc" in proc.stderr
    assert fake.log() == []


def test_the_emulator_follows_the_machine(fake):
    fake.have("bwrap", "gcc", "qemu-x86_64", "chromium")
    proc = fake.run(uid=1000, extra={"QS_ASSUME_MACHINE": "aarch64"})
    assert proc.returncode == 1
    assert "qemu-user (qemu-aarch64" in proc.stderr


def test_bwrap_that_cannot_create_namespaces_gets_its_own_message(fake):
    fake.have("qemu-x86_64", "gcc", "chromium")
    fake.apt_get()
    said = "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces."
    fake.command("bwrap", f'echo "{said}" >&2; exit 1')
    proc = fake.run(uid=1000)
    assert proc.returncode == 1
    text = proc.stderr
    assert text.startswith(
        "error: bubblewrap is installed but cannot create the sandbox's namespaces"
    )
    assert "--unshare-user" in text and "exited 1" in text
    assert f"bwrap said: {said}" in text
    assert "--privileged" in text and "kernel.unprivileged_userns_clone=1" in text
    assert "missing system packages" not in text
    assert not any(line.startswith("apt-get") for line in fake.log())


def test_list_names_every_package_and_its_command():
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--list"],
        env={"PATH": "/nonexistent", "QS_ASSUME_MACHINE": "aarch64"},
        capture_output=True,
        text=True,
        check=True,
    )
    rows = [line.split("\t")[:2] for line in proc.stdout.splitlines()]
    assert rows == [
        ["bubblewrap", "bwrap"],
        ["qemu-user", "qemu-aarch64"],
        ["gcc", "gcc"],
        ["chromium", "chromium"],
    ]


@requires_bwrap  # it runs the namespace trial, a real sandbox
def test_this_machine_is_ready_under_ci():
    """make test runs the script first, so under CI this machine must pass its own check."""
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--check"],
        capture_output=True,
        text=True,
        env={k: v for k, v in os.environ.items() if not k.startswith("QS_ASSUME")},
        timeout=60,
        check=False,
    )
    assert "Traceback" not in proc.stderr
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        assert (proc.returncode, proc.stderr) == (0, ""), proc.stderr
    elif proc.returncode != 0:
        assert proc.stderr.startswith("error: "), proc.stderr


def test_build_only_leaves_the_tests_browser_out(fake):
    """`make build-dataset` runs --build-only: a machine without chromium is ready to build."""
    fake.have("bwrap", "qemu-x86_64", "gcc")
    fake.apt_get()
    proc = fake.run(uid=0, args=["--build-only"])
    assert (proc.returncode, proc.stderr) == (0, ""), proc.stderr
    assert not any(line.startswith("apt-get") for line in fake.log())
    full = fake.run(uid=0)  # without it (make test): chromium is installed
    assert full.returncode == 0, full.stderr
    assert any(
        line.endswith("install -y -qq --no-install-recommends chromium") for line in fake.log()
    )
