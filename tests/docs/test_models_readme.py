"""The README's "Quick start" runs in psql as written and shows what it says (issue 12, point 8).

The session's figures are checked against scikit-learn on the same CSV files:
CategoricalNB and GaussianNB fitted feature by feature on the rows where the
feature is present (a missing value adds nothing, as in madnb), their log
likelihoods added to the class log priors.
"""

from __future__ import annotations

import csv
import math
import re
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
import pytest
from sklearn.naive_bayes import CategoricalNB, GaussianNB

import madnb
from conftest import ROOT, data_file
from psql_session import psql, same_output, split_session

NUMERIC = ("age", "education_num", "capital_gain", "capital_loss", "hours_per_week")
CATEGORICAL = ("workclass", "education", "marital_status", "occupation", "relationship", "race", "sex", "native_country")
LABEL = "income"


def readme_section_blocks(title: str) -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sql\n(.*?)```", section, re.DOTALL)


def run_in_psql(url: str, sql_text: str, tmp_path: Path) -> tuple[list[tuple[str, list[str]]], dict[int, list[str]]]:
    """Run a README block in psql, from the repository's folder (its \\copy paths are relative to it)."""
    chunks = split_session(sql_text)
    path = tmp_path / "readme.sql"
    path.write_text("".join(f"\\echo @@{n}@@\n{stmt}\n" for n, (stmt, _) in enumerate(chunks)), encoding="utf-8")
    res = subprocess.run([psql(), "-X", "-v", "ON_ERROR_STOP=1", "-d", url, "-f", str(path)],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert res.returncode == 0, res.stderr
    outputs = re.split(r"^@@(\d+)@@\n", res.stdout, flags=re.MULTILINE)[1:]
    shown = {int(outputs[k]): outputs[k + 1].rstrip("\n").split("\n") for k in range(0, len(outputs), 2)}
    return chunks, shown


def assert_shows_what_it_says(chunks: list[tuple[str, list[str]]], shown: dict[int, list[str]]) -> None:
    for n, (stmt, quoted) in enumerate(chunks):
        if quoted:
            got = [line.rstrip() for line in shown[n] if line.strip()]
            want = [line.rstrip() for line in quoted]
            assert same_output(got, want), (
                f"{stmt}\npsql shows:\n" + "\n".join(got) + "\nREADME says:\n" + "\n".join(want))


def read_adult(which: str) -> list[dict[str, str | None]]:
    with data_file(f"adult_{which}.csv").open(newline="", encoding="utf-8") as f:
        return [{k: (None if v == "?" else v) for k, v in row.items()} for row in csv.DictReader(f)]


def scikit_learn_predictions(train: list[dict[str, str | None]], test: list[dict[str, str | None]]) -> list[str]:
    """The mixed naive Bayes of adult without fnlwgt, from scikit-learn's estimators, one feature at a time.

    Categorical: CategoricalNB(alpha=1) on the rows with the feature present, so
    P(v | c) = (n_cv + 1) / (n_c,present + values seen). Gaussian: GaussianNB with
    var_smoothing=0 on the present rows gives the per-class mean and population
    variance; madnb (as MADlib) uses the sample variance, n / (n - 1) times it.
    Values missing or unseen in training add nothing.
    """
    labels = np.array([r[LABEL] for r in train])
    classes = sorted(set(labels))
    joint = np.tile(np.log(np.array([np.sum(labels == c) for c in classes]) / len(labels)), (len(test), 1))
    for name in CATEGORICAL:
        present = [i for i, r in enumerate(train) if r[name] is not None]
        values = sorted({train[i][name] for i in present})
        code = {v: k for k, v in enumerate(values)}
        nb = CategoricalNB(alpha=1.0).fit(np.array([[code[train[i][name]]] for i in present]), labels[present])
        assert list(nb.classes_) == classes
        for j, r in enumerate(test):
            if r[name] in code:
                joint[j] += nb.feature_log_prob_[0][:, code[r[name]]]
    for name in NUMERIC:
        present = [i for i, r in enumerate(train) if r[name] is not None]
        g = GaussianNB(var_smoothing=0.0).fit(np.array([[float(train[i][name])] for i in present]), labels[present])
        assert list(g.classes_) == classes
        mean, var = g.theta_[:, 0], g.var_[:, 0] * g.class_count_ / (g.class_count_ - 1)
        for j, r in enumerate(test):
            if r[name] is not None:
                x = float(r[name])
                joint[j] += -0.5 * np.log(2 * math.pi * var) - (x - mean) ** 2 / (2 * var)
    return [classes[k] for k in np.argmax(joint, axis=1)]


def test_the_readme_quick_start_runs_in_psql_as_written_with_scikit_learns_accuracy(empty_db, tmp_path):
    data_file("adult_train.csv")
    url, _ = empty_db
    madnb.install(url)
    blocks = readme_section_blocks("Quick start")
    assert len(blocks) == 2
    quick = split_session(blocks[0])
    assert sum(1 for stmt, _ in quick if re.sub(r"(?m)^\\copy .*$", "", stmt).strip()) == 5, "five SQL statements"
    chunks, shown = run_in_psql(url, blocks[0] + blocks[1], tmp_path)
    assert_shows_what_it_says(chunks, shown)

    columns = list(read_adult("test")[0])
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT " + ", ".join(f"t.{c}::text" for c in columns) + ", madnb_models.adult_nb_predict(t) FROM adult_test AS t"
        ).fetchall()
        metrics: dict[str, Any] = conn.execute("SELECT madnb.evaluate('adult_nb', 'adult_test')").fetchone()[0]  # type: ignore[index]
    test = read_adult("test")
    want = scikit_learn_predictions(read_adult("train"), test)
    # rows are matched by their values (a table has no order): the same multiset of (row, prediction)
    assert Counter(tuple(r) for r in rows) == Counter((*(r[c] for c in columns), p) for r, p in zip(test, want))
    accuracy = sum(r[LABEL] == p for r, p in zip(test, want)) / len(test)
    assert accuracy > 0.8
    assert metrics["accuracy"] == pytest.approx(accuracy, rel=1e-12)
    # the quick start's evaluate row shows the same accuracy
    evaluate_out = next(shown[n] for n, (stmt, _) in enumerate(chunks) if "madnb.evaluate" in stmt)
    shown_accuracy = next(line.split("|")[1] for line in evaluate_out if line.split("|")[0].strip() == "accuracy")
    assert float(shown_accuracy) == pytest.approx(accuracy, rel=1e-12)
