"""Named models' versions, and new versions from rows added or removed (issue 22, points 2, 4 and 7's madnb.update).

The reference for madnb.update and madnb.forget is madnb.train itself on the
union (update) or on the rows left (forget): naive Bayes is a function of
per-class sums, so the model made from the kept sum plus or less the rows'
statistics must be that model, number for number (within 1e-9 on every model
table's numbers and on every predicted probability), for every kind.  Data:
adult (Gaussian and categorical columns) and scikit-learn's digits (counts).
"""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any

import numpy as np
import psycopg
import pytest
from sklearn.datasets import load_digits

from helpers import sqlstate_of
from models_helpers import load_adult

TOL = 1e-9
NUMERIC = ["age", "fnlwgt", "education_num", "capital_gain", "capital_loss", "hours_per_week"]
TEXT = ["workclass", "education", "marital_status", "occupation", "relationship", "race", "sex", "native_country"]
# kind -> (source table, label, madnb.train's extra arguments)
KINDS: dict[str, tuple[str, str, str]] = {
    "naive_bayes": ("adult", "income", "exclude => ARRAY['id']"),
    "gaussian": ("adult", "income", "features => ARRAY[" + ", ".join(f"'{c}'" for c in NUMERIC) + "], kind => 'gaussian'"),
    "categorical": ("adult", "income", "features => ARRAY[" + ", ".join(f"'{c}'" for c in TEXT) + "], kind => 'categorical'"),
    "multinomial": ("digits", "label", "features => ARRAY['v'], kind => 'multinomial'"),
    "bernoulli": ("digits", "label", "features => ARRAY['v'], kind => 'bernoulli', options => '{\"binarize\": 4}'"),
    "complement": ("digits", "label", "features => ARRAY['v'], kind => 'complement', options => '{\"norm\": true}'"),
}


@pytest.fixture
def data(db: psycopg.Connection[Any]) -> psycopg.Connection[Any]:
    """adult (with id) and digits (id, label, v int4[]) in the test's database."""
    load_adult(db, "adult")
    x, y = load_digits(return_X_y=True)
    db.execute("CREATE TABLE digits (id int PRIMARY KEY, label int, v int4[])")
    with db.cursor().copy("COPY digits (id, label, v) FROM STDIN") as copy:
        for i, (row, cls) in enumerate(zip(x, y, strict=True)):
            copy.write_row((i, int(cls), "{" + ",".join(str(int(e)) for e in row) + "}"))
    db.execute("ANALYZE digits")
    return db


def _train(db: psycopg.Connection[Any], model: str, kind: str, source: str, replace: bool = False) -> None:
    _, label, extra = KINDS[kind]
    db.execute(f"SELECT madnb.train('{model}', '{source}', '{label}', {extra}, replace => {str(replace).lower()})")


def _tables(db: psycopg.Connection[Any], model: str) -> dict[str, list[list[Any]]]:
    """Every model table of ``model`` as sorted rows of values (numbers as float)."""
    out: dict[str, list[list[Any]]] = {}
    for suffix in ("_class_priors", "_feature_probs", "_numeric_stats"):
        table = db.execute("SELECT to_regclass(%s)::text", [f"madnb_models.{model}{suffix}"]).fetchone()
        if table is None or table[0] is None:
            continue
        rows = db.execute(f"SELECT * FROM madnb_models.{model}{suffix}").fetchall()
        # rows in the order of their text and integer values (classes, attributes, values, terms, counts)
        keyed = sorted(rows, key=lambda r: [repr(v) for v in r if isinstance(v, (str, int))])
        out[suffix] = [[float(v) if isinstance(v, (int, float, Decimal)) else v for v in r] for r in keyed]
    return out


def assert_same_model(db: psycopg.Connection[Any], got: str, want: str, kind: str) -> None:
    """Models ``got`` and ``want`` have the same tables (numbers within 1e-9) and predict the same probabilities."""
    a, b = _tables(db, got), _tables(db, want)
    assert a.keys() == b.keys()
    for table in a:
        assert len(a[table]) == len(b[table]), table
        for ra, rb in zip(a[table], b[table], strict=True):
            for va, vb in zip(ra, rb, strict=True):
                if isinstance(va, float) and isinstance(vb, float):
                    assert math.isclose(va, vb, rel_tol=TOL, abs_tol=TOL) or (math.isnan(va) and math.isnan(vb)), (table, ra, rb)
                else:
                    assert va == vb, (table, ra, rb)
    source = KINDS[kind][0]
    rows = db.execute(
        f"SELECT madnb_models.{got}_predict_proba_array(t), madnb_models.{want}_predict_proba_array(t) "
        f"FROM {source} t WHERE t.id % 7 = 0"
    ).fetchall()
    assert rows
    for pa, pb in rows:
        np.testing.assert_allclose(pa, pb, rtol=0, atol=TOL)


@pytest.mark.parametrize("kind", list(KINDS))
def test_update_adds_rows_to_a_model_of_every_kind_as_training_on_the_union(data: psycopg.Connection[Any], kind: str) -> None:
    db = data
    source = KINDS[kind][0]
    db.execute(f"CREATE TABLE first_part AS SELECT * FROM {source} WHERE id % 3 <> 0")
    db.execute(f"CREATE TABLE second_part AS SELECT * FROM {source} WHERE id % 3 = 0")
    _train(db, "grown", kind, "first_part")
    db.execute("CREATE VIEW grown_predictions AS SELECT t.id, madnb_models.grown_predict(t) AS p FROM second_part t")
    db.execute("SELECT madnb.update('grown', 'second_part')")
    _train(db, "whole", kind, source)
    assert_same_model(db, "grown", "whole", kind)
    assert db.execute("SELECT training_rows, version FROM madnb.models WHERE name = 'grown'").fetchone() == (
        db.execute("SELECT training_rows FROM madnb.models WHERE name = 'whole'").fetchone()[0], 2,
    )
    # the view made before the update predicts with the updated model
    assert db.execute(
        "SELECT count(*) FROM grown_predictions g JOIN second_part t USING (id) WHERE g.p IS DISTINCT FROM madnb_models.whole_predict(t)"
    ).fetchone() == (0,)


@pytest.mark.parametrize("kind", list(KINDS))
def test_forget_removes_rows_from_a_model_of_every_kind_as_training_on_the_rest(data: psycopg.Connection[Any], kind: str) -> None:
    db = data
    source = KINDS[kind][0]
    db.execute(f"CREATE TABLE gone AS SELECT * FROM {source} WHERE id % 5 = 1")
    db.execute(f"CREATE TABLE kept AS SELECT * FROM {source} WHERE id % 5 <> 1")
    _train(db, "shrunk", kind, source)
    db.execute("SELECT madnb.forget('shrunk', 'gone')")
    _train(db, "rest", kind, "kept")
    assert_same_model(db, "shrunk", "rest", kind)
