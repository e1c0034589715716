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

from helpers import connect_as, drop_roles, new_role, sqlstate_of
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


def _proba(db: psycopg.Connection[Any], model: str, source: str = "adult") -> list[list[float]]:
    return [r[0] for r in db.execute(
        f"SELECT madnb_models.{model}_predict_proba_array(t) FROM {source} t WHERE t.id % 11 = 0 ORDER BY t.id"
    ).fetchall()]


def test_forget_1000_rows_of_adult_gives_the_model_retrained_without_them(data: psycopg.Connection[Any]) -> None:
    db = data
    db.execute("CREATE TABLE erased AS SELECT * FROM adult WHERE id IN (SELECT id FROM adult ORDER BY md5(id::text) LIMIT 1000)")
    db.execute("CREATE TABLE remaining AS SELECT * FROM adult WHERE id NOT IN (SELECT id FROM erased)")
    db.execute("SELECT madnb.train('adult_nb', 'adult', 'income', exclude => ARRAY['id'])")
    db.execute("SELECT madnb.forget('adult_nb', 'erased')")
    db.execute("SELECT madnb.train('adult_rest', 'remaining', 'income', exclude => ARRAY['id'])")
    assert_same_model(db, "adult_nb", "adult_rest", "naive_bayes")
    # the Gaussian cells against the maths: mean and sample variance of the remaining rows, per class
    for cls, mean, var in db.execute(
        "SELECT income, avg(age::float8), var_samp(age::float8) FROM remaining GROUP BY income ORDER BY income"
    ).fetchall():
        got = db.execute(
            "SELECT s.attr_mean, s.attr_var FROM madnb_models.adult_nb_numeric_stats s WHERE s.class = %s AND s.attr = 1", [cls],
        ).fetchone()
        assert got is not None
        assert math.isclose(got[0], mean, rel_tol=TOL) and math.isclose(got[1], var, rel_tol=TOL)
    (rows,) = db.execute("SELECT training_rows FROM madnb.models WHERE name = 'adult_nb'").fetchone()
    assert rows == db.execute("SELECT count(*) FROM remaining WHERE income IS NOT NULL").fetchone()[0]


def test_forget_refuses_rows_whose_statistics_the_model_cannot_hold_and_changes_nothing(data: psycopg.Connection[Any]) -> None:
    db = data
    db.execute("CREATE TABLE small AS SELECT * FROM adult WHERE id <= 2000")
    db.execute("SELECT madnb.train('small_nb', 'small', 'income', exclude => ARRAY['id'])")
    before = _proba(db, "small_nb")
    cases = {
        # a class the model does not have
        "unknown_class": "SELECT * FROM small WHERE id <= 5 UNION ALL SELECT (s).* FROM (SELECT s FROM small s LIMIT 1) x",
        # a value of a categorical feature never seen (in that class)
        "unknown_value": "SELECT * FROM small WHERE id <= 5",
        # more rows of a class than the model holds
        "too_many": "SELECT s.* FROM small s CROSS JOIN generate_series(1, 2) WHERE s.income = '>50K'",
    }
    db.execute("CREATE TABLE unknown_class AS SELECT * FROM small WHERE id <= 5")
    db.execute("UPDATE unknown_class SET income = 'maybe' WHERE id = 1")
    db.execute("CREATE TABLE unknown_value AS SELECT * FROM small WHERE id <= 5")
    db.execute("UPDATE unknown_value SET workclass = 'Astronaut' WHERE id = 2")
    db.execute(f"CREATE TABLE too_many AS {cases['too_many']}")
    details = {}
    for table in ("unknown_class", "unknown_value", "too_many"):
        err = sqlstate_of(db, "SELECT madnb.forget('small_nb', %s)", [table])
        assert err.diag.sqlstate == "22023", table
        assert err.diag.message_primary == "the rows to forget were not all trained on"
        details[table] = err.diag.message_detail
    assert "class maybe" in details["unknown_class"]
    assert "'Astronaut'" in details["unknown_value"] and 'feature "workclass"' in details["unknown_value"]
    assert "rows of class >50K" in details["too_many"]
    assert db.execute("SELECT version FROM madnb.models WHERE name = 'small_nb'").fetchone() == (1,)
    assert db.execute("SELECT count(*) FROM madnb.model_versions('small_nb')").fetchone() == (1,)
    assert _proba(db, "small_nb") == before
    # forgetting every row leaves no model
    err = sqlstate_of(db, "SELECT madnb.forget('small_nb', 'small')")
    assert err.diag.sqlstate == "22023"


def test_update_refuses_a_source_without_the_models_columns(data: psycopg.Connection[Any]) -> None:
    db = data
    db.execute("SELECT madnb.train('m', 'adult', 'income', features => ARRAY['age', 'sex'])")
    db.execute("CREATE TABLE other AS SELECT income, age::text AS age, sex FROM adult LIMIT 10")
    err = sqlstate_of(db, "SELECT madnb.update('m', 'other')")
    assert err.diag.sqlstate == "22023" and "age text" in (err.diag.message_detail or "")
    db.execute("CREATE TABLE fewer AS SELECT income, sex FROM adult LIMIT 10")
    assert sqlstate_of(db, "SELECT madnb.update('m', 'fewer')").diag.sqlstate == "42703"
    assert sqlstate_of(db, "SELECT madnb.update('nope', 'adult')").diag.sqlstate == "42704"
    assert sqlstate_of(db, "SELECT madnb.forget('m', NULL)").diag.sqlstate == "22004"


def test_update_and_forget_refuse_a_private_model(data: psycopg.Connection[Any]) -> None:
    db = data
    db.execute(
        "SELECT madnb.train('private_nb', 'adult', 'income', features => ARRAY['sex'], epsilon => 1, "
        "domain => '{\"income\": [\"<=50K\", \">50K\"], \"sex\": [\"Female\", \"Male\"]}')"
    )
    db.execute("CREATE TABLE few AS SELECT * FROM adult LIMIT 10")
    for fn in ("update", "forget"):
        err = sqlstate_of(db, f"SELECT madnb.{fn}('private_nb', 'few')")
        assert err.diag.sqlstate == "0A000"
    assert "would disclose the forgotten rows' statistics" in (err.diag.message_detail or "")


def test_rollback_returns_to_each_version_across_train_replace_update_and_forget(data: psycopg.Connection[Any]) -> None:
    db = data
    db.execute("CREATE TABLE part_a AS SELECT * FROM adult WHERE id % 4 = 0")
    db.execute("CREATE TABLE part_b AS SELECT * FROM adult WHERE id % 4 = 1")
    db.execute("SELECT madnb.train('life', 'part_a', 'income', features => ARRAY['age', 'workclass'])")  # 1
    v1 = _proba(db, "life")
    db.execute("CREATE VIEW life_view AS SELECT t.id, madnb_models.life_predict_proba_array(t) AS p FROM adult t")
    db.execute("SELECT madnb.train('life', 'part_a', 'income', features => ARRAY['age', 'workclass', 'sex'], replace => true)")  # 2
    v2 = _proba(db, "life")
    db.execute("SELECT madnb.update('life', 'part_b')")  # 3
    v3 = _proba(db, "life")
    db.execute("CREATE TABLE part_b_some AS SELECT * FROM part_b WHERE id % 8 = 1")
    db.execute("SELECT madnb.forget('life', 'part_b_some')")  # 4
    v4 = _proba(db, "life")
    listed = db.execute(
        "SELECT version, current, operation, source, rows, created_by = session_user FROM madnb.model_versions('life')"
    ).fetchall()
    n_a, n_b, n_some = (db.execute(f"SELECT count(*) FROM {t} WHERE income IS NOT NULL").fetchone()[0]
                        for t in ("part_a", "part_b", "part_b_some"))
    assert listed == [
        (1, False, "train", "public.part_a", n_a, True), (2, False, "replace", "public.part_a", n_a, True),
        (3, False, "update", "public.part_b", n_b, True), (4, True, "forget", "public.part_b_some", n_some, True),
    ]
    assert len({str(v) for v in (v1, v2, v3, v4)}) == 4
    view_before = db.execute("SELECT p FROM life_view WHERE id % 11 = 0 ORDER BY id").fetchall()
    for version, want in ((1, v1), (3, v3), (2, v2), (4, v4)):
        db.execute("SELECT madnb.rollback_model('life', %s)", [version])
        np.testing.assert_allclose(_proba(db, "life"), want, rtol=0, atol=1e-12)
    # the view made at version 1 kept working through every change (the row form's signature never changed)
    assert db.execute("SELECT p FROM life_view WHERE id % 11 = 0 ORDER BY id").fetchall() == view_before
    assert db.execute("SELECT version, training_rows FROM madnb.models WHERE name = 'life'").fetchone() == (8, n_a + n_b - n_some)
    ops = [r[0] for r in db.execute("SELECT operation || ' ' || source FROM madnb.model_versions('life') ORDER BY version")]
    assert ops[4:] == ["rollback version 1", "rollback version 3", "rollback version 2", "rollback version 4"]
    # a rollback to version 1 has version 1's features, and the column form follows them
    db.execute("SELECT madnb.rollback_model('life', 1)")
    assert [f["name"] for f in db.execute("SELECT features FROM madnb.models WHERE name = 'life'").fetchone()[0]] == ["age", "workclass"]
    assert sqlstate_of(db, "SELECT madnb.rollback_model('life', 99)").diag.sqlstate == "42704"
    assert sqlstate_of(db, "SELECT madnb.rollback_model('life', NULL)").diag.sqlstate == "22004"


def test_only_the_last_versions_the_setting_keeps_stay_and_drop_model_drops_them_all(data: psycopg.Connection[Any]) -> None:
    db = data
    db.execute("CREATE TABLE few AS SELECT * FROM adult WHERE id <= 300")
    db.execute("SET madnb.model_versions_kept = 2")
    db.execute("SELECT madnb.train('kept', 'few', 'income', features => ARRAY['age', 'sex'])")
    for _ in range(3):
        db.execute("SELECT madnb.update('kept', 'few')")
    assert [r[0] for r in db.execute("SELECT version FROM madnb.model_versions('kept')")] == [3, 4]
    tables = db.execute("SELECT statistics FROM madnb.model_versions('kept')").fetchall()
    assert all(db.execute("SELECT to_regclass(%s)", [t]).fetchone()[0] is not None for (t,) in tables)
    assert db.execute("SELECT count(*) FROM pg_class WHERE relname LIKE 'madnb_models.kept@v%'").fetchone() == (2,)
    err = sqlstate_of(db, "SELECT madnb.rollback_model('kept', 1)")
    assert err.diag.sqlstate == "42704"
    db.execute("SET madnb.model_versions_kept = 'none'")
    assert sqlstate_of(db, "SELECT madnb.update('kept', 'few')").diag.sqlstate == "22023"
    db.execute("RESET madnb.model_versions_kept")
    # an erasure: forget with one version kept, and no earlier version holds the forgotten rows' statistics any more
    db.execute("CREATE TABLE erase AS SELECT * FROM few WHERE id <= 10")
    with db.transaction():
        db.execute("SET LOCAL madnb.model_versions_kept = 1")
        db.execute("SELECT madnb.forget('kept', 'erase')")
    assert db.execute("SELECT version, operation FROM madnb.model_versions('kept')").fetchall() == [(5, "forget")]
    assert db.execute("SELECT count(*) FROM pg_class WHERE relname LIKE 'madnb_models.kept@v%'").fetchone() == (1,)
    db.execute("SELECT madnb.drop_model('kept')")
    assert db.execute("SELECT count(*) FROM madnb._model_versions").fetchone() == (0,)
    assert db.execute("SELECT count(*) FROM pg_class WHERE relname LIKE 'madnb_models.kept%'").fetchone() == (0,)


def test_a_granted_role_versions_its_own_models_and_cannot_write_another_roles_versions(db: psycopg.Connection[Any]) -> None:
    db.execute("CREATE TABLE rows_data AS SELECT i AS id, CASE WHEN i % 3 = 0 THEN 'a' ELSE 'b' END AS label, "
               "(i % 5)::text AS colour, i / 7.0 AS size FROM generate_series(1, 90) i")
    alice, bob = new_role(db, "alice"), new_role(db, "bob")
    for r in (alice, bob):
        db.execute("SELECT madnb.grant_usage(%s)", (r,))
        db.execute(f'GRANT SELECT ON rows_data TO "{r}"')
    db.execute(f'CREATE SCHEMA work AUTHORIZATION "{alice}"')
    a, b = connect_as(db, alice), connect_as(db, bob)
    try:
        a.execute("CREATE TABLE work.more AS SELECT * FROM rows_data WHERE id <= 30")
        a.execute("SELECT madnb.train('work.m', 'rows_data', 'label', exclude => ARRAY['id'])")
        a.execute("SELECT madnb.update('work.m', 'work.more')")
        a.execute("SELECT madnb.rollback_model('work.m', 1)")
        assert [r[0] for r in b.execute("SELECT operation FROM madnb.model_versions('work.m')")] == ["train", "update", "rollback"]
        # another role reads the versions but neither removes nor adds any, nor changes the model
        assert b.execute("DELETE FROM madnb._model_versions").rowcount == 0
        err = sqlstate_of(b, "INSERT INTO madnb._model_versions (schema_name, name, version, operation, source, rows, training_rows, "
                             "classes, statistics, model, owner) VALUES ('work', 'm', 9, 'train', 'x', 0, 0, '{}', 'x', '{}', %s)", [alice])
        assert err.diag.sqlstate == "42501"
        assert sqlstate_of(b, "UPDATE madnb._model_versions SET rows = 0").diag.sqlstate == "42501"
        assert sqlstate_of(b, "SELECT madnb.rollback_model('work.m', 2)").diag.sqlstate == "42501"
        assert sqlstate_of(b, "SELECT madnb.update('work.m', 'rows_data')").diag.sqlstate == "42501"
        statistics = db.execute("SELECT statistics FROM madnb._model_versions WHERE version = 2").fetchone()[0]
        assert db.execute("SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = %s::regclass", [statistics]).fetchone() == (alice,)
        assert sqlstate_of(b, f"DELETE FROM {statistics}").diag.sqlstate == "42501"
        assert db.execute("SELECT version FROM madnb.models WHERE name = 'work.m'").fetchone() == (3,)
        a.execute("SELECT madnb.drop_model('work.m')")
    finally:
        a.close()
        b.close()
        db.execute("DROP SCHEMA IF EXISTS work CASCADE")
        drop_roles(db, [alice, bob])


def test_update_and_forget_say_which_classes_the_model_gains_or_loses(db: psycopg.Connection[Any]) -> None:
    db.execute("CREATE TABLE pets (colour text, legs int, label text)")
    db.execute("INSERT INTO pets VALUES ('black', 4, 'cat'), ('white', 4, 'dog'), ('black', 2, 'cat')")
    db.execute("CREATE TABLE birds (colour text, legs int, label text)")
    db.execute("INSERT INTO birds VALUES ('white', 2, 'bird'), ('black', 2, 'bird')")
    db.execute("SELECT madnb.train('pets_nb', 'pets', 'label', categorical => ARRAY['legs'])")
    notices: list[str] = []
    db.add_notice_handler(lambda d: notices.append(d.message_primary or ""))
    db.execute("SELECT madnb.update('pets_nb', 'birds')")
    assert notices == ['model "pets_nb" gains 1 class(es): bird']
    assert db.execute("SELECT madnb.model_classes('pets_nb')").fetchone()[0] == ["bird", "cat", "dog"]
    notices.clear()
    db.execute("SELECT madnb.forget('pets_nb', 'birds')")
    assert notices == ['model "pets_nb" loses 1 class(es): bird']
    notices.clear()
    db.execute("CREATE TABLE one_cat AS SELECT * FROM pets WHERE legs = 2")
    db.execute("SELECT madnb.forget('pets_nb', 'one_cat')")  # cat keeps a row: no class changes, no NOTICE
    assert notices == []
