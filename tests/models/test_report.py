"""The pictures of an evaluation (issue 21, part 4): madnb.report draws what madnb.evaluate(curves => true) and
madnb.cross_validate return, and the HTML report renders in a real headless browser (Chromium)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from madnb import report
from models_helpers import load_adult


@pytest.fixture
def adult_metrics(db: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    load_adult(db, "adult")
    load_adult(db, "adult_test", "test")
    db.execute("SELECT madnb.train('adult_nb', 'adult', 'income', exclude => ARRAY['id'])")
    metrics = db.execute("SELECT madnb.evaluate('adult_nb', 'adult_test', curves => true)").fetchone()[0]
    cv = db.execute(
        "SELECT jsonb_object_agg(fold, metrics) FROM madnb.cross_validate('adult', 'income', exclude => ARRAY['id'], "
        "folds => 4, key => 'id')"
    ).fetchone()[0]
    return metrics, report.folds_of(cv)


def read_png(data: bytes) -> np.ndarray:
    import io

    import matplotlib.image
    return matplotlib.image.imread(io.BytesIO(data), format="png")


def test_the_figure_draws_the_curves_the_database_computed_and_the_spread_of_the_folds(adult_metrics):
    metrics, folds = adult_metrics
    fig = report.figure(metrics, folds, "adult")
    axes = fig.axes
    roc = metrics["curves"]["roc"][0]
    line = axes[2].get_lines()[0]
    assert list(line.get_xdata()) == roc["fpr"] and list(line.get_ydata()) == roc["tpr"]  # drawn as given, no refit
    assert "AUC" in axes[2].get_title() and len(folds) == 4
    assert axes[0].images[0].get_array().tolist() == [[float(v) for v in r] for r in metrics["confusion_matrix"]]
    image = read_png(report.png(metrics, folds))
    assert image.shape[0] > 500 and image.shape[1] > 800 and image[..., :3].std() > 0.05


def test_drawing_leaves_the_sessions_matplotlib_backend_and_pyplot_alone(adult_metrics):
    import matplotlib
    import matplotlib.pyplot as plt

    metrics, _folds = adult_metrics
    matplotlib.use("svg")
    before = plt.get_fignums()
    report.png(metrics)
    report.figure(metrics)
    assert matplotlib.get_backend() == "svg" and plt.get_fignums() == before


def test_metrics_without_curves_cannot_be_drawn_and_say_how_to_get_them(db):
    db.execute("CREATE TABLE t AS SELECT i % 2 AS y, (i % 5)::float8 AS x FROM generate_series(1, 40) i")
    db.execute("SELECT madnb.train('m', 't', 'y')")
    plain = db.execute("SELECT madnb.evaluate('m', 't')").fetchone()[0]
    with pytest.raises(report.ReportError, match="curves => true"):
        report.figure(plain)


def test_the_html_report_is_self_contained_and_renders_in_headless_chromium(adult_metrics, tmp_path: Path):
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("Chromium is not installed (make test installs it as root: scripts/setup.sh --test)")
    metrics, folds = adult_metrics
    page = tmp_path / "report.html"
    page.write_text(report.html(metrics, folds, "adult: madnb_nb"))
    text = page.read_text()
    assert "<script" not in text and "http" not in text.replace("http-equiv", "")  # nothing fetched, nothing run
    shot = tmp_path / "shot.png"
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1400,2200"]
    run = subprocess.run([chromium, *flags, f"--screenshot={shot}", page.as_uri()], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    image = read_png(shot.read_bytes())[..., :3]
    assert image.shape[:2] == (2200, 1400)
    # not blank: the page's white, and the figure's colours (the confusion matrix's blues, the curves)
    colours = np.unique((image.reshape(-1, 3) * 255).round().astype(int), axis=0)
    assert len(colours) > 200 and image.std() > 0.05
    dom = subprocess.run([chromium, *flags, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0 and 'id="figure"' in dom.stdout and "data:image/png;base64," in dom.stdout
    assert f"{metrics['accuracy']:.4f}" in dom.stdout


def test_the_python_example_of_docs_models_md_draws_and_writes_the_report(adult_metrics, db, tmp_path: Path, monkeypatch):
    text = (Path(__file__).parents[2] / "docs" / "models.md").read_text()
    start = text.index("```python\nfrom madnb import report")
    block = text[start + len("```python\n"):text.index("```", start + 3)]
    monkeypatch.chdir(tmp_path)
    scope: dict[str, Any] = {"conn": db}
    exec(compile(block, "docs/models.md", "exec"), scope)
    page = (tmp_path / "report.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and "Cross-validation" in page and "data:image/png;base64," in page
