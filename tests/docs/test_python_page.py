"""docs/python.md and the README Quick start's Python lines run as written.

A page's python blocks run in order in one namespace, then its sh blocks'
commands (``madnb`` run as ``python -m madnb.cli``), from the repository's
folder (the page reads ../shared/data/ as the README's Quick start does), in a
fresh database whose URL replaces the page's ``postgresql://localhost/mydb``.
The values the page quotes in comments are checked against the namespace the
blocks leave.
"""

from __future__ import annotations

import re
import shlex

import numpy as np
import pytest
from test_docs_examples import dsn_of, readme_block, run_psql, setup_sql

from conftest import ROOT, data_file
from helpers import run_cli

PAGE = ROOT / "docs" / "python.md"
PAGE_URL = "postgresql://localhost/mydb"
FENCE = re.compile(r"^```(python|sh)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def page_blocks(text: str) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for m in FENCE.finditer(text)]


def run_blocks(blocks: list[tuple[str, str]], url: str, where: str) -> dict[str, object]:
    """Run the blocks in order; the python blocks' namespace."""
    namespace: dict[str, object] = {}
    for kind, code in blocks:
        if kind == "python":
            exec(compile(code.replace(PAGE_URL, url), where, "exec"), namespace)  # the page's own code
            continue
        for line in code.splitlines():
            args = shlex.split(line, comments=True)
            if not args:
                continue
            assert args[0] in ("madnb", ".venv/bin/madnb"), line
            out = run_cli(*[url if a == PAGE_URL else a for a in args[1:]])
            assert out.returncode == 0, f"{line}\n{out.stderr}"
    return namespace


def test_the_python_page_runs_as_written_and_says_what_it_gives(db, monkeypatch):
    data_file("adult_train.csv")
    monkeypatch.chdir(ROOT)
    blocks = page_blocks(PAGE.read_text(encoding="utf-8"))
    assert [kind for kind, _ in blocks].count("sh") == 1
    namespace = run_blocks(blocks, db.info.dsn, str(PAGE))
    # what the comments quote
    nb, e, cv, search = namespace["nb"], namespace["e"], namespace["cv"], namespace["search"]
    assert e.accuracy == pytest.approx(0.8300472943922363, abs=1e-12)  # type: ignore[attr-defined]
    assert e.roc_auc == pytest.approx(0.8902598974887825, abs=1e-12)  # type: ignore[attr-defined]
    assert e.confusion_matrix.tolist() == [[11569, 866], [1901, 1945]]  # type: ignore[attr-defined]
    assert search.best_params_ == {"smoothing": 1.0}  # type: ignore[attr-defined]
    assert len(cv.folds) == 5  # type: ignore[attr-defined]
    assert nb.model_ == "adult_nb"  # type: ignore[attr-defined]
    proba = np.asarray(namespace["proba"])
    assert proba.shape == (16281, 2)
    assert db.execute("SELECT count(*) FROM adult_predictions").fetchone()[0] == 16281
    assert [r[0] for r in db.execute("SELECT name FROM madnb.models ORDER BY name").fetchall()] == [
        "adult_nb", "adult_search", "adult_tuned", "adult_w"]
    # issue 22's methods: decisions, explanations, weights, grid search, forgetting and versions
    new = namespace["new"]
    assert list(nb.predict(new, threshold=0.01)) == ["<=50K", ">50K"]  # type: ignore[attr-defined]
    assert np.allclose(nb.predict_proba(new, priors=[0.9, 0.1])[:, 1], [6.25686697e-07, 1.0], rtol=1e-8, atol=0)  # type: ignore[attr-defined]
    assert namespace["ed"].to_dict()["expected_cost"] == pytest.approx(0.5119464406363246, abs=1e-12)  # type: ignore[attr-defined]
    cheapest = namespace["cheapest"]
    assert len(namespace["curve"]) == 14636  # type: ignore[arg-type]
    assert (round(cheapest["threshold"], 4), round(cheapest["cost"], 4)) == (0.0065, 0.3254)  # type: ignore[index]
    why = namespace["why"]
    assert (why[1]["predicted"], [m["feature"] for m in why[1]["against_runner_up"][:3]]) == (  # type: ignore[index]
        ">50K", ["capital_gain", "education", "workclass"])
    assert list(namespace["importance"]["feature"][:3]) == ["capital_gain", "capital_loss", "age"]  # type: ignore[index]
    assert namespace["grid"].best_params == {"smoothing": 0.1}  # type: ignore[attr-defined]
    assert namespace["tuned"].best_params_ == {"smoothing": 0.1}  # type: ignore[attr-defined]
    assert db.execute("SELECT weight FROM madnb.models WHERE name = 'adult_w'").fetchone()[0] == "fnlwgt"
    assert [tuple(r) for r in nb.versions()[["version", "operation", "rows", "training_rows"]].itertuples(index=False)] == [  # type: ignore[attr-defined]
        (1, "train", 32561, 32561), (2, "forget", 100, 32461), (3, "rollback", 32561, 32561)]
    assert db.execute("SELECT count(*) FROM adult_decided").fetchone()[0] == 16281
    # the pictures: the curves' points drawn as the database gave them, and the two reports the page writes
    ec, fig = namespace["ec"], namespace["fig"]
    assert list(fig.axes[2].get_lines()[0].get_xdata()) == ec.curves["roc"][0]["fpr"]  # type: ignore[attr-defined]
    for name in ("adult_report.html", "adult_cli_report.html"):
        page = ROOT / name
        text = page.read_text()
        page.unlink()  # written where the page runs: the repository's folder
        assert text.startswith("<!DOCTYPE html>") and "data:image/png;base64," in text


def test_the_readme_quick_starts_python_and_shell_lines_run_after_its_sql(db, monkeypatch, tmp_path):
    run_psql(dsn_of(db), setup_sql("quick start"), tmp_path, "quick_start")
    monkeypatch.chdir(ROOT)
    text = (ROOT / "README.md").read_text(encoding="utf-8").split("\n## Quick start\n", 1)[1].split("\n## ", 1)[0]
    blocks = page_blocks(text)
    assert [kind for kind, _ in blocks] == ["sh", "python", "sh"]  # madnb sandbox, then the lines after the SQL
    blocks = blocks[1:]
    assert readme_block("Quick start")  # the SQL above them
    namespace = run_blocks(blocks, db.info.dsn, "README.md")
    assert namespace["nb"].model_ == "adult_py"  # type: ignore[attr-defined]
    first = db.execute("SELECT madnb_models.adult_nb_predict_proba_array(t) FROM adult_test AS t ORDER BY ctid LIMIT 1").fetchone()[0]
    assert np.allclose(first, [9.99999739e-01, 2.60780937e-07], rtol=1e-8, atol=0)
    assert db.execute("SELECT count(*) FROM adult_predictions").fetchone()[0] == 16281
