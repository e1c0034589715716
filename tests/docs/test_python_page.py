"""docs/python.md runs as written: its python blocks in order in one namespace, then its sh block's commands.

From the repository's folder (the page reads ../shared/data/ as the README's
Quick start does), in a fresh database whose URL replaces the page's
``postgresql://localhost/mydb``.  The values the page quotes in comments are
checked here against the namespace the blocks leave.
"""

from __future__ import annotations

import re
import shlex

import numpy as np
import pytest

from conftest import ROOT, data_file
from helpers import run_cli

PAGE = ROOT / "docs" / "python.md"
PAGE_URL = "postgresql://localhost/mydb"
FENCE = re.compile(r"^```(python|sh)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def page_blocks() -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for m in FENCE.finditer(PAGE.read_text(encoding="utf-8"))]


def test_the_python_page_runs_as_written_and_says_what_it_gives(db, monkeypatch):
    data_file("adult_train.csv")
    url = db.info.dsn
    monkeypatch.chdir(ROOT)
    blocks = page_blocks()
    assert [kind for kind, _ in blocks].count("sh") == 1
    namespace: dict[str, object] = {}
    for kind, code in blocks:
        if kind == "python":
            exec(compile(code.replace(PAGE_URL, url), str(PAGE), "exec"), namespace)  # noqa: S102 - the page's own code
            continue
        for line in code.splitlines():
            args = shlex.split(line, comments=True)
            if not args:
                continue
            assert args[0] == "madnb"
            out = run_cli(*[url if a == PAGE_URL else a for a in args[1:]])
            assert out.returncode == 0, f"{line}\n{out.stderr}"
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
    assert [r[0] for r in db.execute("SELECT name FROM madnb.models ORDER BY name").fetchall()] == ["adult_nb", "adult_search"]
