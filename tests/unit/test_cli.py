"""The command line's help, which needs no database."""

from __future__ import annotations

import sys

import pytest

from helpers import run_cli

COMMANDS = ["train", "predict", "evaluate", "cross-validate", "models", "drop", "install-check", "explain",
            "feature-importance", "threshold-curve", "forget", "versions", "rollback",
            "install", "upgrade", "uninstall", "version", "build-script", "export-sql", "demo", "sandbox", "privacy-curve"]


def test_madnb_without_arguments_prints_the_help():
    out = run_cli()
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("usage: madnb")
    for cmd in ("install", "upgrade", "uninstall", "version", "build-script", "demo"):
        assert cmd in out.stdout


def test_the_privacy_curve_command_is_wired_into_the_cli():
    import subprocess

    out = subprocess.run(
        [sys.executable, "-m", "madnb.cli", "privacy-curve", "--help"], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0 and "--reps" in out.stdout and "--jobs" in out.stdout


@pytest.mark.parametrize("command", COMMANDS)
def test_every_commands_help_ends_with_an_example(command):
    out = run_cli(command, "--help")
    assert out.returncode == 0, out.stderr
    example = out.stdout.split("example:\n", 1)[1]
    assert example.strip().splitlines()[0].split()[:2] in (["madnb", command], ["PGHOST=localhost", "PGDATABASE=mydb"])
