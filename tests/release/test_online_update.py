"""Online updates: madnb.update_nb_model adds a new part to a model in place (issue 11, points 4 and 5).

Expected values come from one-shot training on the union of the parts (the
model an update sequence must equal), from exact rational arithmetic, and from
the discrete Laplace distribution's variance formula.
"""

from __future__ import annotations

import math
import threading
from fractions import Fraction
from typing import Any

import numpy as np
import psycopg
import pytest
import test_statistics_tables as st

from helpers import relations, sqlstate_of, statements_sent
from privacy_helpers import ledger, notices, use_seeded_noise


def comment(db, table: str) -> str:
    return db.execute("SELECT obj_description(%s::regclass, 'pg_class')", (table,)).fetchone()[0]


def kept(db, fp: str = "fp") -> str:
    return st.kept_statistics(db, fp)


def snapshot(db, fp: str = "fp", np_: str | None = "np", cp: str = "cp") -> dict[str, Any]:
    """Everything an update may change: the model's rows, comments and OIDs, its kept statistics and their header."""
    k = kept(db, fp)
    tables = [fp, cp] + ([np_] if np_ else [])
    return {
        "model": st.model(db, fp, np_, cp),
        "comments": [comment(db, t) for t in tables],
        "oids": [db.execute("SELECT %s::regclass::oid", (t,)).fetchone()[0] for t in tables],
        "kept": st.rows(db, f"SELECT * FROM {k}"),
        "header": comment(db, k),
        "relations": relations(db) | relations(db, "madnb_statistics"),
    }


def probs(db, view: str) -> dict[tuple[Any, Any], float]:
    return {(k, c): p for k, c, p in db.execute(f"SELECT key, class, nb_prob FROM {view}")}


def assert_same_statistics(db, a: str, b: str) -> None:
    """Two statistics tables hold the same cells: counts exactly, means and variances within 1e-9."""
    got = st.rows(db, f"SELECT cls, attr, value, n, nv, mean + coalesce(mean_lo, 0), var FROM {a}")
    want = st.rows(db, f"SELECT cls, attr, value, n, nv, mean + coalesce(mean_lo, 0), var FROM {b}")
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g[:5] == w[:5] and st.close(g[5], w[5]) and st.close(g[6], w[6]), (g, w)


# --- exact: k updates = one-shot training on the union ------------------------------------

def batches(db, k: int, how: str) -> list[str]:
    """Views b1..bk of data_train: by row number, or skewed (the last batch brings rows of one class only)."""
    first = db.execute("SELECT min(label) FROM data_train").fetchone()[0]
    names = []
    for j in range(k):
        if how == "rows":
            rule = f"(id / 4) % {k} = {j}"  # data_train is id % 4 <> 0
        elif j < k - 1:
            rule = f"NOT (label = '{first}' AND id % 2 = 0) AND (id / 4) % {k - 1} = {j}"
        else:
            rule = f"label = '{first}' AND id % 2 = 0"
        db.execute(f"CREATE VIEW b{j + 1} AS SELECT * FROM data_train WHERE {rule}")
        names.append(f"b{j + 1}")
    return names


@pytest.mark.parametrize("how", ["rows", "skewed"])
@pytest.mark.parametrize("dataset", [st.adult, st.skin])
def test_k_updates_equal_one_shot_training_on_the_union_and_old_views_see_the_new_model(db, dataset, how):
    indices, _, n = dataset(db)
    db.execute("CREATE VIEW data_train AS SELECT * FROM data WHERE id % 4 <> 0")
    db.execute("CREATE VIEW data_test AS SELECT * FROM data WHERE id % 4 = 0")
    parts = batches(db, 4, how)
    db.execute(f"SELECT madnb.create_nb_prepared_data_tables('b1', 'label', 'attrs', {indices}, {n}, 'fp', 'np', 'cp')")
    # views created after batch 1, never recreated
    db.execute(f"SELECT madnb.create_nb_probs_view('fp', 'cp', 'data_test', 'id', 'attrs', {n}, 'np', 'pv')")
    db.execute(f"SELECT madnb.create_nb_classify_view('fp', 'cp', 'data_test', 'id', 'attrs', {n}, 'np', 'cv')")
    after_batch_1 = probs(db, "pv")
    for b in parts[1:]:
        db.execute(f"SELECT madnb.create_nb_statistics('{b}', 'label', 'attrs', {indices}, {n}, 's_{b}')")
        db.execute(f"SELECT madnb.update_nb_model('s_{b}', 'fp', 'np', 'cp')")
    db.execute(f"SELECT madnb.create_nb_prepared_data_tables('data_train', 'label', 'attrs', {indices}, {n}, 'fp1', 'np1', 'cp1')")
    # every stored statistic: the model tables and the statistics they keep
    st.assert_same_model(db, ("fp", "np", "cp"), ("fp1", "np1", "cp1"))
    assert_same_statistics(db, kept(db, "fp"), kept(db, "fp1"))
    # the old views read the updated model: the probabilities of one-shot training's views
    db.execute(f"SELECT madnb.create_nb_probs_view('fp1', 'cp1', 'data_test', 'id', 'attrs', {n}, 'np1', 'pv1')")
    db.execute(f"SELECT madnb.create_nb_classify_view('fp1', 'cp1', 'data_test', 'id', 'attrs', {n}, 'np1', 'cv1')")
    got, want = probs(db, "pv"), probs(db, "pv1")
    assert got.keys() == want.keys()
    assert max(abs(got[key] - want[key]) for key in want) < 1e-9
    assert max(abs(got[key] - after_batch_1[key]) for key in want) > 1e-6  # the view did change
    same = "SELECT count(*) FROM cv JOIN cv1 USING (key) WHERE cv.nb_classification = cv1.nb_classification"
    assert db.execute(same).fetchone()[0] == db.execute("SELECT count(*) FROM data_test").fetchone()[0]


def test_a_model_derived_from_statistics_keeps_their_sum_and_updates_like_training(db):
    db.execute(st.MIXED)
    db.execute("CREATE TABLE more (id int, c text, x float8[])")
    db.execute("INSERT INTO more VALUES (7, 'a', '{2, 8.0, 11}'), (8, 'b', '{1, 2.5, NULL}'), (9, 'b', '{2, 0.5, 5}')")
    db.execute("CREATE VIEW m1 AS SELECT * FROM mixed WHERE id <= 3")
    db.execute("CREATE VIEW m2 AS SELECT * FROM mixed WHERE id > 3")
    for v in ("m1", "m2", "more"):
        db.execute(f"SELECT madnb.create_nb_statistics('{v}', 'c', 'x', '2,3', 3, 's_{v}')")
    db.execute("SELECT madnb.create_nb_model_from_statistics(ARRAY['s_m1', 's_m2'], 'fp', 'np', 'cp')")
    h = st.header(db, kept(db))
    assert h["parts"] == [st.header(db, "s_m1")["id"], st.header(db, "s_m2")["id"]]
    db.execute("SELECT madnb.update_nb_model('s_more', 'fp', 'np', 'cp')")
    assert st.header(db, kept(db))["parts"] == h["parts"] + [st.header(db, "s_more")["id"]]
    db.execute("CREATE VIEW everything AS SELECT * FROM mixed UNION ALL SELECT * FROM more")
    db.execute("SELECT madnb.create_nb_prepared_data_tables('everything', 'c', 'x', '2,3', 3, 'fp1', 'np1', 'cp1')")
    st.assert_same_model(db, ("fp", "np", "cp"), ("fp1", "np1", "cp1"))
    assert "(the sum of 3 statistics tables)" in comment(db, "cp")


def test_a_merge_refuses_a_models_kept_sum_together_with_a_part_the_sum_holds(db):
    db.execute(st.MIXED)
    db.execute("CREATE VIEW m1 AS SELECT * FROM mixed WHERE id <= 3")
    db.execute("CREATE VIEW m2 AS SELECT * FROM mixed WHERE id > 3")
    for v in ("m1", "m2"):
        db.execute(f"SELECT madnb.create_nb_statistics('{v}', 'c', 'x', '2,3', 3, 's_{v}')")
    db.execute("SELECT madnb.create_nb_model_from_statistics(ARRAY['s_m1', 's_m2'], 'fp', 'np', 'cp')")
    e = sqlstate_of(db, "SELECT madnb.create_nb_model_from_statistics(%s, 'fp2', 'np2', 'cp2')", ([kept(db), "s_m2"],))
    assert e.diag.sqlstate == "22023"
    assert e.diag.message_primary == f"statistics part 2 (public.s_m2) holds statistics that part 1 ({kept(db).replace(chr(34), '')}) holds"
    assert st.header(db, "s_m2")["id"] in e.diag.message_detail


def test_an_update_derives_with_the_models_own_smoothing(db):
    db.execute(st.MIXED)
    db.execute("CREATE VIEW m1 AS SELECT * FROM mixed WHERE id % 2 = 0")
    db.execute("CREATE VIEW m2 AS SELECT * FROM mixed WHERE id % 2 = 1")
    db.execute("SELECT madnb.create_nb_prepared_data_tables('m1', 'c', 'x', 3, 'fp', 'cp', smoothing => 0.25)")
    db.execute("SELECT madnb.create_nb_statistics('m2', 'c', 'x', 3, 's2')")
    db.execute("SELECT madnb.update_nb_model('s2', 'fp', NULL, 'cp')")
    db.execute("SELECT madnb.create_nb_prepared_data_tables('mixed', 'c', 'x', 3, 'fp1', 'cp1', smoothing => 0.25)")
    assert st.model(db, "fp", None, "cp") == st.model(db, "fp1", None, "cp1")
    assert {r[0] for r in db.execute("SELECT DISTINCT smoothing FROM fp")} == {0.25}


@pytest.mark.parametrize("spread", [1e-3, 1.0])
def test_updates_of_values_near_1e9_keep_the_exact_mean_and_variance(db, spread):
    rng = np.random.default_rng(5)
    xs = 1e9 + rng.normal(0, spread, 2000)
    st.load(db, "big", [(i, "a", [float(x)]) for i, x in enumerate(xs)], "float8")
    fr = [Fraction(float(x)) for x in xs]
    mean = sum(fr) / len(fr)
    var = sum((x - mean) ** 2 for x in fr) / (len(fr) - 1)
    # ten batches, each a band of values (the batches' means differ by about the spread)
    bands = [f"width_bucket(attrs[1], {1e9 - 3 * spread!r}, {1e9 + 3 * spread!r}, 10)"]
    for j in range(10):
        rule = f"{bands[0]} <= 1" if j == 0 else f"{bands[0]} >= 10" if j == 9 else f"{bands[0]} = {j + 1}"
        db.execute(f"CREATE VIEW b{j} AS SELECT * FROM big WHERE {rule}")
    db.execute("SELECT madnb.create_nb_prepared_data_tables('b0', 'label', 'attrs', '1', 1, 'fp', 'np', 'cp')")
    for j in range(1, 10):
        db.execute(f"SELECT madnb.create_nb_statistics('b{j}', 'label', 'attrs', '1', 1, 's{j}')")
        db.execute(f"SELECT madnb.update_nb_model('s{j}', 'fp', 'np', 'cp')")
    got_mean, got_var, cnt = db.execute("SELECT attr_mean, attr_var, value_cnt FROM np").fetchone()
    assert cnt == len(xs)
    assert abs((Fraction(got_mean) - mean) / mean) < 1e-15
    assert abs((Fraction(got_var) - var) / var) < 1e-9


def test_an_update_runs_the_same_statements_whatever_the_number_of_earlier_updates(db):
    """Its cost grows with the part and the model, not with the model's history: the same work, and a kept
    sum of the same size, after 1 update as after 8."""
    db.execute(st.MIXED)
    db.execute("SELECT madnb.create_nb_prepared_data_tables('mixed', 'c', 'x', '2,3', 3, 'fp', 'np', 'cp')")
    cells = db.execute(f"SELECT count(*) FROM {kept(db)}").fetchone()[0]
    for j in range(10):
        db.execute(f"SELECT madnb.create_nb_statistics('mixed', 'c', 'x', '2,3', 3, 's{j}')")
    sent = []
    for j in range(10):
        sent.append(statements_sent(db, lambda j=j: db.execute(f"SELECT madnb.update_nb_model('s{j}', 'fp', 'np', 'cp')")))
    assert len(sent[1]) == len(sent[8])
    assert db.execute(f"SELECT count(*) FROM {kept(db)}").fetchone()[0] == cells
    assert len(st.header(db, kept(db))["parts"]) == 11


# --- the class set ---------------------------------------------------------------------------

def test_a_new_class_updates_the_model_with_a_notice_and_old_views_raise_55000_until_recreated(db):
    db.execute(st.MIXED)
    db.execute("CREATE TABLE newcomers (id int, c text, x float8[])")
    db.execute("INSERT INTO newcomers VALUES (10, 'z', '{1, 3.0, 2}'), (11, 'z', '{3, 4.0, 1}'), (12, 'a', '{2, 6.0, 9}')")
    db.execute("CREATE TABLE test_rows (id int, x float8[])")
    db.execute("INSERT INTO test_rows VALUES (1, '{1, 3.5, 2}'), (2, '{2, 6.0, 10}')")
    db.execute("SELECT madnb.create_nb_prepared_data_tables('mixed', 'c', 'x', '2,3', 3, 'fp', 'np', 'cp')")
    db.execute("SELECT madnb.create_nb_probs_view('fp', 'cp', 'test_rows', 'id', 'x', 3, 'np', 'pv')")
    db.execute("SELECT madnb.create_nb_statistics('newcomers', 'c', 'x', '2,3', 3, 's_new')")
    seen = notices(db)
    db.execute("SELECT madnb.update_nb_model('s_new', 'fp', 'np', 'cp')")
    notice = [m for m in seen if m.severity_nonlocalized == "NOTICE"]
    assert len(notice) == 1 and "now has 3 classes (it had 2)" in notice[0].message_primary
    assert "55000" in notice[0].message_hint
    # the model is the one of the union
    db.execute("CREATE VIEW everything AS SELECT * FROM mixed UNION ALL SELECT * FROM newcomers")
    db.execute("SELECT madnb.create_nb_prepared_data_tables('everything', 'c', 'x', '2,3', 3, 'fp1', 'np1', 'cp1')")
    st.assert_same_model(db, ("fp", "np", "cp"), ("fp1", "np1", "cp1"))
    e = sqlstate_of(db, "SELECT * FROM pv")
    assert e.diag.sqlstate == "55000" and "create it again" in e.diag.message_hint
    db.execute("DROP VIEW pv")
    db.execute("SELECT madnb.create_nb_probs_view('fp', 'cp', 'test_rows', 'id', 'x', 3, 'np', 'pv')")
    assert db.execute("SELECT count(DISTINCT class) FROM pv").fetchone()[0] == 3


# --- refusals: nothing changes --------------------------------------------------------------

@pytest.fixture
def trained(db):
    """A mixed model on half of MIXED, and statistics of the other half."""
    db.execute(st.MIXED)
    db.execute("CREATE VIEW m1 AS SELECT * FROM mixed WHERE id % 2 = 0")
    db.execute("CREATE VIEW m2 AS SELECT * FROM mixed WHERE id % 2 = 1")
    db.execute("SELECT madnb.create_nb_prepared_data_tables('m1', 'c', 'x', '2,3', 3, 'fp', 'np', 'cp')")
    db.execute("SELECT madnb.create_nb_statistics('m2', 'c', 'x', '2,3', 3, 's2')")
    return db


def test_the_same_part_twice_is_refused_naming_it_and_leaves_the_model_as_it_was(trained):
    db = trained
    db.execute("SELECT madnb.update_nb_model('s2', 'fp', 'np', 'cp')")
    before = snapshot(db)
    e = sqlstate_of(db, "SELECT madnb.update_nb_model('s2', 'fp', 'np', 'cp')")
    assert e.diag.sqlstate == "22023" and e.diag.message_primary == "statistics public.s2 are already in the model public.fp"
    assert st.header(db, "s2")["id"] in e.diag.message_detail and e.diag.message_hint
    # a copy of the part (same header), and the model's own statistics, are the same parts
    db.execute("CREATE TABLE copy_of_s2 AS SELECT * FROM s2")
    db.execute(f"COMMENT ON TABLE copy_of_s2 IS {st.psql_literal(comment(db, 's2'))}")
    for part in ("copy_of_s2", kept(db)):
        e = sqlstate_of(db, "SELECT madnb.update_nb_model(%s, 'fp', 'np', 'cp')", (part,))
        assert e.diag.sqlstate == "22023" and "already in the model public.fp" in e.diag.message_primary
    assert snapshot(db) == before | {"relations": before["relations"] | {"copy_of_s2"}}


@pytest.mark.parametrize(
    "release, what",
    [
        ("'mixed4', 'c', 'x', '2,3', 4, 'bad'", "numAttrs"),
        ("'mixed', 'c', 'x', '2', 3, 'bad'", "numeric attribute indices"),
        ("'mixed', 'c', 'x', '3,2', 3, 'bad'", "numeric attribute indices"),
        ("'mixed_int_class', 'c', 'x', '2,3', 3, 'bad'", "class type"),
        ("'mixed', 'c', 'x', '2,3', 3, 'bad', epsilon => 1, bounds => '{{0,10},{0,20}}', domain => 'dom'", "mode"),
    ],
)
def test_an_incompatible_part_is_22023_naming_it_and_the_difference_and_changes_nothing(trained, release, what):
    db = trained
    db.execute("CREATE VIEW mixed4 AS SELECT id, c, x || 0::float8 AS x FROM mixed")
    db.execute("CREATE VIEW mixed_int_class AS SELECT id, ascii(c) AS c, x FROM mixed")
    db.execute("CREATE TABLE dom (attr int, value text)")
    db.execute("INSERT INTO dom VALUES (0, 'a'), (0, 'b'), (1, '1'), (1, '2')")
    db.execute(f"SELECT madnb.create_nb_statistics({release})")
    before = snapshot(db)
    e = sqlstate_of(db, "SELECT madnb.update_nb_model('bad', 'fp', 'np', 'cp')")
    assert e.diag.sqlstate == "22023"
    assert e.diag.message_primary == "statistics public.bad are not compatible with the model public.fp"
    assert f"its {what} is" in e.diag.message_detail and "the model's is" in e.diag.message_detail
    assert snapshot(db) == before


@pytest.mark.parametrize(
    "corrupt, cell, why",
    [
        ("UPDATE s2 SET var = 'Infinity' WHERE attr = 3 AND cls = 'a'", "(class 'a', attr 3)", "its variance var is Infinity"),
        ("UPDATE s2 SET n = -10000 WHERE attr = 0 AND cls = 'b'", "(class 'b', attr 0)", "its count n is -10000"),
        ("INSERT INTO s2 SELECT * FROM s2 WHERE attr = 2 AND cls = 'a'", "(class 'a', attr 2)", "the cell appears 2 times"),
    ],
)
def test_an_impossible_part_is_22023_naming_it_and_its_cell_and_changes_nothing(trained, corrupt, cell, why):
    db = trained
    db.execute(corrupt)
    before = snapshot(db)
    e = sqlstate_of(db, "SELECT madnb.update_nb_model('s2', 'fp', 'np', 'cp')")
    assert e.diag.sqlstate == "22023"
    assert e.diag.message_primary == f"statistics public.s2 holds an impossible cell {cell}"
    assert why in e.diag.message_detail and e.diag.message_hint
    assert snapshot(db) == before


def test_a_failure_late_in_an_update_leaves_the_model_and_its_statistics_as_they_were(trained):
    db = trained
    db.execute("CREATE VIEW pv_rows AS SELECT id, x FROM mixed")
    db.execute("SELECT madnb.create_nb_probs_view('fp', 'cp', 'pv_rows', 'id', 'x', 3, 'np', 'pv')")
    view = st.rows(db, "SELECT * FROM pv")
    before = snapshot(db)
    # the last table written refuses its rows
    db.execute(
        "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS "
        "$$ BEGIN RAISE EXCEPTION 'refused by a trigger' USING ERRCODE = 'P0001'; END $$"
    )
    db.execute("CREATE TRIGGER refuse BEFORE INSERT ON np FOR EACH ROW EXECUTE FUNCTION refuse()")
    e = sqlstate_of(db, "SELECT madnb.update_nb_model('s2', 'fp', 'np', 'cp')")
    assert e.diag.sqlstate == "P0001"
    assert snapshot(db) == before and st.rows(db, "SELECT * FROM pv") == view


def test_a_madlib_model_or_one_whose_statistics_are_gone_is_refused_with_a_hint_to_retrain(trained):
    db = trained
    for t in ("fp", "np", "cp"):
        db.execute(f"CREATE TABLE madlib_{t} AS SELECT * FROM {t}")  # MADlib's tables: no madnb comment
    e = sqlstate_of(db, "SELECT madnb.update_nb_model('s2', 'madlib_fp', 'madlib_np', 'madlib_cp')")
    assert e.diag.sqlstate == "22023" and "is not a model madnb can update" in e.diag.message_primary
    assert "train the model again" in e.diag.message_hint
    # tables of two different models
    db.execute("SELECT madnb.create_nb_prepared_data_tables('m2', 'c', 'x', '2,3', 3, 'fp2', 'np2', 'cp2')")
    e = sqlstate_of(db, "SELECT madnb.update_nb_model('s2', 'fp', 'np', 'cp2')")
    assert e.diag.sqlstate == "22023" and "public.cp2 is not a table of the model public.fp" in e.diag.message_primary
    # the numeric table must be given exactly when the model has numeric attributes
    e = sqlstate_of(db, "SELECT madnb.update_nb_model('s2', 'fp', NULL, 'cp')")
    assert e.diag.sqlstate == "22004"
    before = snapshot(db)
    db.execute(f"DROP TABLE {kept(db)}")
    e = sqlstate_of(db, "SELECT madnb.update_nb_model('s2', 'fp', 'np', 'cp')")
    assert e.diag.sqlstate == "55000" and "the statistics the model public.fp keeps are gone" == e.diag.message_primary
    assert "train the model again" in e.diag.message_hint
    assert st.model(db, "fp", "np", "cp") == before["model"]


def test_a_copy_of_a_model_updated_elsewhere_no_longer_matches_its_statistics(trained):
    db = trained
    for t in ("fp", "np", "cp"):
        db.execute(f"CREATE TABLE copy_{t} AS SELECT * FROM {t}")
        db.execute(f"COMMENT ON TABLE copy_{t} IS {st.psql_literal(comment(db, t))}")
    db.execute("SELECT madnb.update_nb_model('s2', 'copy_fp', 'copy_np', 'copy_cp')")
    db.execute("SELECT madnb.create_nb_statistics('m2', 'c', 'x', '2,3', 3, 's3')")
    e = sqlstate_of(db, "SELECT madnb.update_nb_model('s3', 'fp', 'np', 'cp')")
    assert e.diag.sqlstate == "55000" and "have changed since the model was derived from them" in e.diag.message_primary


def test_a_model_whose_comments_name_another_roles_statistics_is_not_updated_even_by_a_superuser(trained):
    db = trained
    k = kept(db)
    before = db.execute(f"SELECT * FROM {k} ORDER BY attr, cls, value").fetchall()
    db.execute("CREATE ROLE upd_forger")
    for t in ("fp", "np", "cp"):
        # the forger's own model tables, whose comments name the statistics another role's model keeps
        db.execute(f"CREATE TABLE forged_{t} AS SELECT * FROM {t}")
        db.execute(f"COMMENT ON TABLE forged_{t} IS {st.psql_literal(comment(db, t))}")
        db.execute(f"ALTER TABLE forged_{t} OWNER TO upd_forger")
    e = sqlstate_of(db, "SELECT madnb.update_nb_model('s2', 'forged_fp', 'forged_np', 'forged_cp')")
    assert e.diag.sqlstate == "42501" and "belong to different roles" in e.diag.message_primary
    assert db.execute(f"SELECT * FROM {k} ORDER BY attr, cls, value").fetchall() == before
    # the rightful model still updates
    db.execute("SELECT madnb.update_nb_model('s2', 'fp', 'np', 'cp')")


# --- private parts ---------------------------------------------------------------------------

DOMAIN_VALUES = 1000


@pytest.fixture
def owner_batches(db):
    """One categorical attribute over a public domain of 1,000 values, classes a and b, three disjoint batches."""
    db.execute("CREATE TABLE owner (id int, c text, x int[])")
    db.execute("INSERT INTO owner SELECT i, CASE WHEN i % 2 = 0 THEN 'a' ELSE 'b' END, ARRAY[i % 5] FROM generate_series(1, 90) i")
    db.execute("CREATE TABLE dom (attr int, value text)")
    db.execute("INSERT INTO dom VALUES (0, 'a'), (0, 'b')")
    db.execute(f"INSERT INTO dom SELECT 1, v::text FROM generate_series(0, {DOMAIN_VALUES - 1}) v")
    for j in range(3):
        db.execute(f"CREATE TABLE batch{j} AS SELECT * FROM owner WHERE id % 3 = {j}")
    use_seeded_noise(db, 20261130)
    return db


def test_private_updates_write_no_ledger_row_and_the_summed_noise_has_the_parts_summed_variance(owner_batches):
    db = owner_batches
    # epsilon 2 over 1 + 1 queries: epsilon' = 1 per count cell
    db.execute("SELECT madnb.create_nb_prepared_data_tables('batch0', 'c', 'x', 1, 'fp', 'cp', epsilon => 2, domain => 'dom')")
    first = kept(db)
    first_release = st.header(db, first)["release_id"]
    one = [float(r[0]) for r in db.execute(
        f"SELECT s.n - (SELECT count(*) FROM batch0 o WHERE o.c = s.cls AND o.x[1] = s.value) FROM {first} AS s WHERE s.attr = 1")]
    for j in (1, 2):
        db.execute(f"SELECT madnb.create_nb_statistics('batch{j}', 'c', 'x', 1, 'p{j}', epsilon => 2, domain => 'dom')")
    releases = ledger(db)
    assert [r[0] for r in releases] == ["public.batch0", "public.batch1", "public.batch2"]  # each in its owner's ledger
    for j in (1, 2):
        db.execute(f"SELECT madnb.update_nb_model('p{j}', 'fp', NULL, 'cp')")
    assert ledger(db) == releases  # adding is post-processing
    h = st.header(db, kept(db))
    assert h["release_ids"] == [first_release] + [st.header(db, n)["release_id"] for n in ("p1", "p2")]
    assert h["epsilon"] == "2" and h["epsilon_per_query"] == pytest.approx(1 / math.sqrt(3))
    assert "releases" in comment(db, "cp")
    # the kept cells are the raw sums of the three releases; their noise variance is three parts'
    true = "(SELECT count(*) FROM owner o WHERE o.c = s.cls AND o.x[1] = s.value)"
    summed = db.execute(f"SELECT s.cls, s.value, s.n, {true} FROM {kept(db)} AS s WHERE s.attr = 1").fetchall()
    v = st.discrete_laplace_variance(1.0)
    assert len(one) == len(summed) == 2 * DOMAIN_VALUES
    assert abs(np.var(one) / v - 1) < 0.15
    assert abs(np.var([float(n - t) for _, _, n, t in summed]) / (3 * v) - 1) < 0.15
    # clamped only when deriving
    cnt = {(c, val): n for c, val, n in db.execute("SELECT class, value, cnt FROM fp")}
    assert any(n < 0 for _, _, n, _ in summed)
    assert all(cnt[(c, val)] == max(0, int(n)) for c, val, n, _ in summed)


def test_a_private_update_derives_the_model_a_merge_of_the_same_parts_derives(db):
    db.execute(st.MIXED)
    db.execute("CREATE TABLE dom (attr int, value text)")
    db.execute("INSERT INTO dom VALUES (0, 'a'), (0, 'b'), (1, '1'), (1, '2')")
    db.execute("CREATE VIEW m1 AS SELECT * FROM mixed WHERE id % 2 = 0")
    db.execute("CREATE VIEW m2 AS SELECT * FROM mixed WHERE id % 2 = 1")
    for v in ("m1", "m2"):
        db.execute(f"SELECT madnb.create_nb_statistics('{v}', 'c', 'x', '2,3', 3, 'p_{v}', epsilon => 1, "
                   "bounds => '{{0,10},{0,20}}', domain => 'dom')")
    db.execute("SELECT madnb.create_nb_model_from_statistics(ARRAY['p_m1'], 'fp', 'np', 'cp')")
    db.execute("SELECT madnb.update_nb_model('p_m2', 'fp', 'np', 'cp')")
    db.execute("SELECT madnb.create_nb_model_from_statistics(ARRAY['p_m1', 'p_m2'], 'fp1', 'np1', 'cp1')")
    st.assert_same_model(db, ("fp", "np", "cp"), ("fp1", "np1", "cp1"))
    assert st.rows(db, f"SELECT cls, attr, value, n, s1, s2 FROM {kept(db)}") == st.rows(
        db, f"SELECT cls, attr, value, n, s1, s2 FROM {kept(db, 'fp1')}")


def test_a_private_model_refuses_an_exact_part_and_a_part_from_another_domain(owner_batches):
    db = owner_batches
    db.execute("SELECT madnb.create_nb_prepared_data_tables('batch0', 'c', 'x', 1, 'fp', 'cp', epsilon => 2, domain => 'dom')")
    db.execute("SELECT madnb.create_nb_statistics('batch1', 'c', 'x', 1, 'exact1')")
    db.execute("CREATE TABLE dom2 AS SELECT * FROM dom WHERE value <> '999'")
    db.execute("SELECT madnb.create_nb_statistics('batch2', 'c', 'x', 1, 'other', epsilon => 2, domain => 'dom2')")
    before = snapshot(db, np_=None)
    for part, what in (("exact1", "mode"), ("other", "domain fingerprint")):
        e = sqlstate_of(db, "SELECT madnb.update_nb_model(%s, 'fp', NULL, 'cp')", (part,))
        assert e.diag.sqlstate == "22023" and f"its {what} is" in e.diag.message_detail
    assert snapshot(db, np_=None) == before


def test_a_private_release_already_in_the_model_is_refused(owner_batches):
    db = owner_batches
    db.execute("SELECT madnb.create_nb_statistics('batch1', 'c', 'x', 1, 'p1', epsilon => 2, domain => 'dom')")
    db.execute("SELECT madnb.create_nb_statistics('batch2', 'c', 'x', 1, 'p2', epsilon => 2, domain => 'dom')")
    db.execute("SELECT madnb.create_nb_model_from_statistics(ARRAY['p1', 'p2'], 'fp', NULL, 'cp')")
    release = st.header(db, "p2")["release_id"]
    e = sqlstate_of(db, "SELECT madnb.update_nb_model('p2', 'fp', NULL, 'cp')")
    assert e.diag.sqlstate == "22023" and f"release {release} of madnb.privacy_ledger" in e.diag.message_detail


# --- concurrency -----------------------------------------------------------------------------

def test_concurrent_updates_of_one_model_wait_for_each_other_and_both_count(trained, cluster):
    db = trained
    db.execute("SELECT madnb.create_nb_statistics('m2', 'c', 'x', '2,3', 3, 's3')")
    url = cluster.url_for(db.info.dbname)
    with psycopg.connect(url) as first, psycopg.connect(url, autocommit=True) as second:
        second.execute("SET search_path = public, madnb")
        first.execute("SET search_path = public, madnb")
        first.execute("SELECT madnb.update_nb_model('s2', 'fp', 'np', 'cp')")  # not committed yet
        pid = second.info.backend_pid
        waiter = threading.Thread(target=lambda: second.execute("SELECT madnb.update_nb_model('s3', 'fp', 'np', 'cp')"))
        waiter.start()
        # the second update waits for the first one's lock (polled: no timing is asserted)
        while waiter.is_alive() and not db.execute(
            "SELECT wait_event_type = 'Lock' FROM pg_stat_activity WHERE pid = %s", (pid,)
        ).fetchone()[0]:
            pass
        assert waiter.is_alive()
        first.commit()
        waiter.join()
    assert len(st.header(db, kept(db))["parts"]) == 3
    db.execute("CREATE VIEW twice AS SELECT * FROM m1 UNION ALL SELECT * FROM m2 UNION ALL SELECT * FROM m2")
    db.execute("SELECT madnb.create_nb_prepared_data_tables('twice', 'c', 'x', '2,3', 3, 'fp1', 'np1', 'cp1')")
    st.assert_same_model(db, ("fp", "np", "cp"), ("fp1", "np1", "cp1"))


def test_operators_planted_on_the_callers_search_path_never_run_inside_an_update(trained):
    db = trained
    db.execute("CREATE SCHEMA evil")
    raise_ = "LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'planted operator ran' USING ERRCODE = 'XX666'; END $$"
    for typ, ret in (("int4", "boolean"), ("text", "boolean"), ("float8", "float8")):
        db.execute(f"CREATE FUNCTION evil.boom_{typ}({typ}, {typ}) RETURNS {ret} {raise_}")
    for op, typ in (("=", "int4"), ("=", "text"), ("<>", "int4"), ("+", "float8"), ("-", "float8"), ("*", "float8"), ("/", "float8")):
        db.execute(f"CREATE OPERATOR evil.{op} (LEFTARG = {typ}, RIGHTARG = {typ}, FUNCTION = evil.boom_{typ})")
    db.execute("SELECT madnb.create_nb_statistics('m2', 'c', 'x', '2,3', 3, 's3')")
    db.execute("SET search_path = evil, pg_catalog, public, madnb")
    assert sqlstate_of(db, "SELECT 1::int4 = 1::int4").diag.sqlstate == "XX666"  # the plant works
    db.execute("SELECT madnb.update_nb_model('s2', 'fp', 'np', 'cp')")
    db.execute("SET search_path = public, madnb")
    db.execute("SELECT madnb.create_nb_prepared_data_tables('mixed', 'c', 'x', '2,3', 3, 'fp1', 'np1', 'cp1')")
    st.assert_same_model(db, ("fp", "np", "cp"), ("fp1", "np1", "cp1"))
