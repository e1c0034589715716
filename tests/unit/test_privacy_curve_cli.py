"""``madnb privacy-curve`` from an installed wheel: no repository layout, one-line errors, no traceback.

The wheel is built from this checkout and installed with ``pip --target`` into a temporary folder that
comes first on PYTHONPATH; every command runs from a directory outside the repository.  No curve is
computed (that takes minutes): these are the checks made before any cluster starts.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from conftest import ROOT

DATA_FILES = ["adult_train.csv", "adult_test.csv", "mushroom.csv", "house_votes_84.csv", "skin_segmentation.csv"]


@pytest.fixture(scope="module")
def wheel_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """madnb installed from a freshly built wheel (dependencies come from the test's own environment)."""
    tmp = tmp_path_factory.mktemp("wheel")
    # No build isolation: hatchling is in the test extra, so no package index is needed.
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(tmp / "dist"), str(ROOT)],
        check=True, capture_output=True, timeout=300,
    )
    (whl,) = (tmp / "dist").glob("madnb-*.whl")
    site = tmp / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(whl)],
        check=True, capture_output=True, timeout=300,
    )
    return site


def run_installed(site: Path, cwd: Path, *args: str, extra_path: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``madnb ARGS`` through the wheel's console script, with the wheel's madnb first on the path."""
    path = [str(site)] if extra_path is None else [str(extra_path), str(site)]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MADNB_DSN")}
    env["PYTHONPATH"] = os.pathsep.join(path)
    return subprocess.run(
        [sys.executable, str(site / "bin" / "madnb"), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


def assert_one_line_error(out: subprocess.CompletedProcess[str]) -> str:
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr and out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("madnb privacy-curve: "), out.stderr
    return lines[0]


def test_the_wheel_runs_its_own_madnb_not_the_checkouts(wheel_site, tmp_path):
    env = {**os.environ, "PYTHONPATH": str(wheel_site)}
    out = subprocess.run([sys.executable, "-c", "import madnb.privacy_curve as m; print(m.__file__)"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, check=True)
    assert Path(out.stdout.strip()).is_relative_to(wheel_site)


def test_privacy_curve_help_works_from_a_wheel(wheel_site, tmp_path):
    out = run_installed(wheel_site, tmp_path, "privacy-curve", "--help")
    assert out.returncode == 0 and "--data" in out.stdout and "--out" in out.stdout and out.stderr == ""


def test_privacy_curve_from_a_wheel_without_data_says_data_is_required(wheel_site, tmp_path):
    line = assert_one_line_error(run_installed(wheel_site, tmp_path, "privacy-curve"))
    assert "no data folder: give --data FOLDER" in line
    assert all(f in line for f in DATA_FILES)
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_privacy_curve_names_a_data_folder_that_does_not_exist(wheel_site, tmp_path):
    line = assert_one_line_error(run_installed(wheel_site, tmp_path, "privacy-curve", "--data", str(tmp_path / "nowhere")))
    assert f"data folder {tmp_path / 'nowhere'} does not exist" in line


def test_privacy_curve_names_the_missing_csv_files(wheel_site, tmp_path):
    (tmp_path / "mushroom.csv").write_text("edibility\n", encoding="utf-8")
    line = assert_one_line_error(
        run_installed(wheel_site, tmp_path, "privacy-curve", "--data", str(tmp_path), "--only", "adult,mushroom")
    )
    assert line.endswith(f"data folder {tmp_path} lacks adult_train.csv, adult_test.csv (use --only to run fewer datasets)")


def test_privacy_curve_reports_a_csv_without_the_expected_columns(wheel_site, tmp_path):
    (tmp_path / "skin_segmentation.csv").write_text("x,y\n1,2\n", encoding="utf-8")
    line = assert_one_line_error(run_installed(wheel_site, tmp_path, "privacy-curve", "--data", str(tmp_path), "--only", "skin"))
    assert "cannot read dataset skin" in line and "skin_segmentation.csv" in line


def test_privacy_curve_without_matplotlib_says_which_extra_to_install(wheel_site, tmp_path):
    # The extra that brings matplotlib, as pyproject.toml declares it.
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    (extra,) = [name for name, reqs in extras.items() if any(r.startswith("matplotlib") for r in reqs)]
    fake = tmp_path / "no_matplotlib" / "matplotlib"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ModuleNotFoundError(\"No module named 'matplotlib'\", name='matplotlib')\n")
    work = tmp_path / "work"
    work.mkdir()
    line = assert_one_line_error(
        run_installed(wheel_site, work, "privacy-curve", "--data", str(work), extra_path=tmp_path / "no_matplotlib")
    )
    assert "matplotlib" in line and f"pip install 'madnb[{extra}]'" in line


def test_in_a_source_checkout_the_defaults_are_the_shared_data_and_docs():
    from madnb import privacy_curve

    assert privacy_curve.source_checkout() == ROOT
    assert privacy_curve.default_out() == ROOT / "docs"
    shared = ROOT.parent / "shared" / "data"
    assert privacy_curve.default_data() == (shared if shared.is_dir() else None)


@pytest.mark.parametrize("argv, message", [
    (["--owners", "1,10"], "--owners needs --federated"),
    (["--federated", "--owners", "10,100"], "--owners must include 1"),
    (["--federated", "--owners", "1,ten"], "--owners must be comma-separated integers"),
    (["--federated", "--reps", "1"], "--reps must be at least 2"),
])
def test_the_federated_panels_options_are_checked_in_one_line_before_anything_runs(capsys, tmp_path, argv, message):
    from madnb import privacy_curve

    assert privacy_curve.main([*argv, "--data", str(tmp_path / "nowhere"), "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"madnb privacy-curve: {message}"), err
    assert list(tmp_path.iterdir()) == []


def test_the_federated_panel_defaults_to_adult_and_mushroom_and_names_their_files_only(capsys, tmp_path):
    from madnb import privacy_curve

    assert privacy_curve.main(["--federated", "--data", str(tmp_path)]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.endswith(f"data folder {tmp_path} lacks adult_train.csv, adult_test.csv, mushroom.csv (use --only to run fewer datasets)")
