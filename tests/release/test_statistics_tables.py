"""Statistics tables: release, merge = sum, derive (issue 10, points 1-4).

Reference values come from the data (Python fractions, numpy) or from
centralised training on the union of the parts; noise variances from the
discrete Laplace distribution's formula.
"""

from __future__ import annotations

import csv
import json
import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from conftest import data_file
from helpers import relations, sqlstate_of
from privacy_helpers import ledger, use_seeded_noise


def header(db, table: str) -> dict[str, Any]:
    comment = db.execute("SELECT obj_description(%s::regclass, 'pg_class')", (table,)).fetchone()[0]
    assert comment.startswith("madnb statistics ")
    return json.loads(comment.removeprefix("madnb statistics "))


def rows(db, query: str) -> list[tuple[Any, ...]]:
    return sorted(db.execute(query).fetchall(), key=repr)


def load(db, table: str, data, elem: str) -> None:
    db.execute(f"CREATE TABLE {table} (id int, label text, attrs {elem}[])")
    with db.cursor().copy(f"COPY {table} (id, label, attrs) FROM STDIN") as cp:
        for r in data:
            cp.write_row(r)
    db.execute(f"ANALYZE {table}")


def close(a: float | None, b: float | None, tol: float = 1e-9) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


# --- point 1: what a statistics table holds ------------------------------------------------

MIXED = """
CREATE TABLE mixed (id int, c text, x float8[]);
INSERT INTO mixed VALUES (1, 'a', '{1, 5.5, 10}'), (2, 'a', '{2, 6.5, NULL}'), (3, 'a', '{1, 7.0, 12}'),
                         (4, 'b', '{2, 1.5, 3}'), (5, 'b', '{2, NULL, 4}'), (6, NULL, '{1, 1, 1}');
"""


def test_exact_statistics_hold_class_counts_value_counts_and_numeric_moments(db):
    db.execute(MIXED)
    db.execute("SELECT madnb.create_nb_statistics('mixed', 'c', 'x', '{3,2}', 3, 'st')")
    got = rows(db, "SELECT cls, attr, value, n, nv, mean, var FROM st")
    a2, a3, b3 = [5.5, 6.5, 7.0], [10.0, 12.0], [3.0, 4.0]
    want = sorted([
        ("a", 0, None, 3, None, None, None), ("b", 0, None, 2, None, None, None),
        ("a", 1, 1.0, 2, None, None, None), ("a", 1, 2.0, 1, None, None, None), ("b", 1, 2.0, 2, None, None, None),
        ("a", 2, None, None, 3, float(np.mean(a2)), float(np.var(a2, ddof=1))),
        ("a", 3, None, None, 2, float(np.mean(a3)), float(np.var(a3, ddof=1))),
        ("b", 2, None, None, 1, 1.5, None),
        ("b", 3, None, None, 2, float(np.mean(b3)), float(np.var(b3, ddof=1))),
    ], key=repr)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g[:5] == w[:5] and close(g[5], w[5]) and close(g[6], w[6]), (g, w)


def test_the_header_records_format_types_indices_in_given_order_mode_and_source(db):
    db.execute(MIXED)
    db.execute("SELECT madnb.create_nb_statistics('mixed', 'c', 'x', '{3,2}', 3, 'st')")
    h = header(db, "st")
    assert (h["format"], h["mode"], h["num_attrs"], h["numeric"]) == (1, "exact", 3, [3, 2])
    assert (h["class_type"], h["element_type"], h["source"]) == ("text", "double precision", "public.mixed")
    assert h["release_id"] is None and h["epsilon"] is None and h["bounds"] is None
    assert h["created_at"].endswith("Z") and len(h["id"]) == 36


def test_a_private_release_is_ledgered_and_stores_every_domain_cell_as_released(db):
    db.execute(MIXED)
    db.execute("CREATE TABLE dom (attr int, value text)")
    db.execute("INSERT INTO dom VALUES (0, 'a'), (0, 'b'), (1, '1'), (1, '2'), (1, '3')")
    before = len(ledger(db))
    db.execute(
        "SELECT madnb.create_nb_statistics('mixed', 'c', 'x', '{3,2}', 3, 'pst', epsilon => 1, "
        "bounds => '{{0,20},{0,10}}', domain => 'dom')"
    )
    entries = ledger(db)
    assert len(entries) == before + 1
    h = header(db, "pst")
    release_id = db.execute("SELECT max(release_id) FROM madnb.privacy_ledger").fetchone()[0]
    assert (h["mode"], h["release_id"], h["epsilon"], h["fixed_point_scale"]) == ("private", release_id, "1", 2**20)
    assert h["bounds"] == [[3, 0.0, 20.0], [2, 0.0, 10.0]]  # the order given
    assert h["epsilon_per_query"] == 1 / (1 + 1 + 2 * 2) and len(h["domain_fingerprint"]) == 32
    assert entries[-1][3]["statistics"] == "public.pst"
    # 2 classes x (class count + 3 categorical values + 2 numeric attributes), none left out
    assert db.execute("SELECT count(*) FROM pst").fetchone()[0] == 2 * (1 + 3 + 2)
    assert db.execute("SELECT count(*) FROM pst WHERE attr IN (2, 3) AND (s1 IS NULL OR s2 IS NULL)").fetchone()[0] == 0


# --- point 3: training is release + derive, and keeps its statistics -----------------------

def kept_statistics(db, fp: str) -> str:
    comment = db.execute("SELECT obj_description(%s::regclass, 'pg_class')", (fp,)).fetchone()[0]
    name = comment.split("derived from statistics ")[1].split(" (id ")[0]
    assert name.startswith('"madnb_statistics".')
    return name


MODEL_QUERIES = {
    "cp": "SELECT class, class_cnt, all_cnt FROM {cp}",
    "fp": "SELECT class, attr, value, cnt, attr_cnt, smoothing FROM {fp}",
    "np": "SELECT class, attr, attr_mean, attr_var, value_cnt FROM {np}",
}


def model(db, fp: str, np_: str | None, cp: str) -> dict[str, list[tuple[Any, ...]]]:
    out = {k: rows(db, q.format(fp=fp, cp=cp, np=np_)) for k, q in MODEL_QUERIES.items() if k != "np" or np_}
    return out


def test_training_keeps_its_statistics_and_deriving_them_again_gives_the_same_model(db):
    db.execute(MIXED)
    db.execute("SELECT madnb.create_nb_prepared_data_tables('mixed', 'c', 'x', '2,3', 3, 'fp', 'np', 'cp')")
    kept = kept_statistics(db, "fp")
    assert header(db, kept)["source"] == "public.mixed"
    db.execute("SELECT madnb.create_nb_statistics('mixed', 'c', 'x', '2,3', 3, 'st')")
    cells = "SELECT cls, attr, value, n, nv, mean, mean_lo, var FROM {}"
    assert rows(db, cells.format(kept)) == rows(db, cells.format("st"))
    db.execute(f"SELECT madnb.create_nb_model_from_statistics(ARRAY['{kept}'], 'fp2', 'np2', 'cp2')")
    assert model(db, "fp", "np", "cp") == model(db, "fp2", "np2", "cp2")
    # a second model of the same name keeps its statistics under another name
    db.execute("DROP TABLE fp, np, cp")
    db.execute("SELECT madnb.create_nb_prepared_data_tables('mixed', 'c', 'x', '2,3', 3, 'fp', 'np', 'cp')")
    assert kept_statistics(db, "fp") != kept


def test_private_training_keeps_its_raw_release_and_derives_the_model_from_it(db):
    db.execute(MIXED)
    db.execute("CREATE TABLE dom (attr int, value text)")
    db.execute("INSERT INTO dom VALUES (0, 'a'), (0, 'b'), (1, '1'), (1, '2')")
    db.execute(
        "SELECT madnb.create_nb_prepared_data_tables('mixed', 'c', 'x', '2,3', 3, 'fp', 'np', 'cp', "
        "epsilon => 1, bounds => '{{0,10},{0,20}}', domain => 'dom')"
    )
    kept = kept_statistics(db, "fp")
    assert header(db, kept)["release_id"] == db.execute("SELECT max(release_id) FROM madnb.privacy_ledger").fetchone()[0]
    releases = len(ledger(db))
    db.execute(f"SELECT madnb.create_nb_model_from_statistics(ARRAY['{kept}'], 'fp2', 'np2', 'cp2')")
    assert model(db, "fp", "np", "cp") == model(db, "fp2", "np2", "cp2")
    assert len(ledger(db)) == releases  # deriving is post-processing


# --- point 2: compatibility --------------------------------------------------------------

@pytest.fixture
def parts(db):
    db.execute(MIXED)
    db.execute("CREATE TABLE dom (attr int, value text)")
    db.execute("INSERT INTO dom VALUES (0, 'a'), (0, 'b'), (1, '1'), (1, '2')")
    db.execute("CREATE TABLE dom2 (attr int, value text)")
    db.execute("INSERT INTO dom2 VALUES (0, 'a'), (0, 'b'), (1, '1'), (1, '2'), (1, '3')")
    make = {
        "s1": "'mixed', 'c', 'x', '2,3', 3, 's1'",
        "s2": "'mixed', 'c', 'x', '2,3', 3, 's2'",
        "other_num_attrs": "'mixed4', 'c', 'x', '2,3', 4, 'other_num_attrs'",
        "other_indices": "'mixed', 'c', 'x', '2', 3, 'other_indices'",
        "other_order": "'mixed', 'c', 'x', '3,2', 3, 'other_order'",
        "p1": "'mixed', 'c', 'x', '2,3', 3, 'p1', epsilon => 1, bounds => '{{0,10},{0,20}}', domain => 'dom'",
        "p2": "'mixed', 'c', 'x', '2,3', 3, 'p2', epsilon => 1, bounds => '{{0,10},{0,20}}', domain => 'dom'",
        "other_bounds": "'mixed', 'c', 'x', '2,3', 3, 'other_bounds', epsilon => 1, bounds => '{{0,10},{0,30}}', domain => 'dom'",
        "other_domain": "'mixed', 'c', 'x', '2,3', 3, 'other_domain', epsilon => 1, bounds => '{{0,10},{0,20}}', domain => 'dom2'",
    }
    db.execute("CREATE VIEW mixed4 AS SELECT id, c, x || 0::float8 AS x FROM mixed")
    for args in make.values():
        db.execute(f"SELECT madnb.create_nb_statistics({args})")
    return db


@pytest.mark.parametrize(
    "third, what",
    [
        ("other_num_attrs", "numAttrs"),
        ("other_indices", "numeric attribute indices"),
        ("other_order", "numeric attribute indices"),
        ("p1", "mode"),
    ],
)
def test_an_incompatible_exact_part_is_22023_naming_it_and_the_difference(parts, third, what):
    before = relations(parts)
    e = sqlstate_of(parts, f"SELECT madnb.create_nb_model_from_statistics(ARRAY['s1', 's2', '{third}'], 'fp', 'np', 'cp')")
    assert e.diag.sqlstate == "22023"
    assert f"part 3 (public.{third})" in e.diag.message_primary and "part 1 (public.s1)" in e.diag.message_primary
    assert what in e.diag.message_detail and e.diag.message_hint
    assert relations(parts) == before


@pytest.mark.parametrize("second, what", [("other_bounds", "bounds"), ("other_domain", "domain fingerprint"), ("s1", "mode")])
def test_an_incompatible_private_part_is_22023_naming_it_and_the_difference(parts, second, what):
    e = sqlstate_of(parts, f"SELECT madnb.create_nb_model_from_statistics(ARRAY['p1', '{second}'], 'fp', 'np', 'cp')")
    assert e.diag.sqlstate == "22023"
    assert f"part 2 (public.{second})" in e.diag.message_primary and what in e.diag.message_detail


def test_a_part_listed_twice_or_copied_is_refused(parts):
    e = sqlstate_of(parts, "SELECT madnb.create_nb_model_from_statistics(ARRAY['p1', 'p2', 'p1'], 'fp', 'np', 'cp')")
    assert e.diag.sqlstate == "22023" and "part 3 (public.p1) is listed twice" in e.diag.message_primary
    assert "release" in e.diag.message_detail
    parts.execute("CREATE TABLE copy_of_s1 AS SELECT * FROM s1")
    comment = parts.execute("SELECT obj_description('s1'::regclass, 'pg_class')").fetchone()[0]
    parts.execute(f"COMMENT ON TABLE copy_of_s1 IS {psql_literal(comment)}")
    e = sqlstate_of(parts, "SELECT madnb.create_nb_model_from_statistics(ARRAY['s1', 'copy_of_s1'], 'fp', 'np', 'cp')")
    assert e.diag.sqlstate == "22023" and "listed twice" in e.diag.message_primary


def psql_literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def test_a_table_without_a_header_is_not_statistics_and_the_numeric_output_must_fit(parts):
    e = sqlstate_of(parts, "SELECT madnb.create_nb_model_from_statistics(ARRAY['mixed'], 'fp', 'np', 'cp')")
    assert e.diag.sqlstate == "22023" and "public.mixed is not a madnb statistics table" in e.diag.message_primary
    e = sqlstate_of(parts, "SELECT madnb.create_nb_model_from_statistics(ARRAY['s1'], 'fp', NULL, 'cp')")
    assert e.diag.sqlstate == "22004"
    parts.execute("SELECT madnb.create_nb_statistics('mixed', 'c', 'x', 3, 'cat_only')")
    e = sqlstate_of(parts, "SELECT madnb.create_nb_model_from_statistics(ARRAY['cat_only'], 'fp', 'np', 'cp')")
    assert e.diag.sqlstate == "22023" and "no numeric attributes" in e.diag.message_primary
    parts.execute("SELECT madnb.create_nb_model_from_statistics(ARRAY['cat_only'], 'fp', NULL, 'cp')")
    e = sqlstate_of(parts, "SELECT madnb.create_nb_model_from_statistics(ARRAY[]::text[], 'fp3', NULL, 'cp3')")
    assert e.diag.sqlstate == "22023"


# --- point 4: exactness on real data -------------------------------------------------------

def _read(name: str) -> list[list[str]]:
    with open(data_file(name), newline="") as f:
        return list(csv.reader(f))[1:]


def adult(db) -> tuple[str, str, int]:
    data = _read("adult_train.csv")[:6000]
    numeric, categorical = [0, 2, 4, 10, 11, 12], [1, 3, 5, 6, 7, 8, 9, 13]
    codes: dict[tuple[int, str], int] = {}
    out = []
    for i, r in enumerate(data):
        attrs = [float(r[c]) for c in numeric] + [float(codes.setdefault((c, r[c]), len(codes))) for c in categorical]
        out.append((i, r[14], attrs))
    load(db, "data", out, "float8")
    return "'{1,2,3,4,5,6}'", "np", 14


def skin(db) -> tuple[str, str, int]:
    data = np.array(_read("skin_segmentation.csv"), dtype=float)[::20]
    load(db, "data", [(i, str(int(r[3])), [float(v) for v in r[:3]]) for i, r in enumerate(data)], "float8")
    return "'1,2,3'", "np", 3


def splits(db, k: int) -> dict[str, list[str]]:
    """Part views of data_train: by row number, and skewed (part 1 holds one class only)."""
    first = db.execute("SELECT min(label) FROM data_train").fetchone()[0]
    out: dict[str, list[str]] = {"rows": [], "skewed": []}
    for j in range(k):
        db.execute(f"CREATE VIEW r{k}_{j} AS SELECT * FROM data_train WHERE id % {k} = {j}")
        out["rows"].append(f"r{k}_{j}")
        rule = f"label = '{first}'" if j == 0 else f"label <> '{first}' AND id % {k - 1} = {j - 1}"
        db.execute(f"CREATE VIEW k{k}_{j} AS SELECT * FROM data_train WHERE {rule}")
        out["skewed"].append(f"k{k}_{j}")
    return out


def assert_same_model(db, a: tuple[str, str, str], b: tuple[str, str, str]) -> None:
    got, want = model(db, *a), model(db, *b)
    assert got["cp"] == want["cp"] and got["fp"] == want["fp"]
    assert len(got["np"]) == len(want["np"])
    for g, w in zip(got["np"], want["np"]):
        assert g[:2] == w[:2] and g[4] == w[4] and close(g[2], w[2]) and close(g[3], w[3]), (g, w)


@pytest.mark.parametrize("dataset", [adult, skin])
def test_merged_parts_equal_centralised_training_on_real_data(db, dataset):
    indices, _, n = dataset(db)
    db.execute("CREATE VIEW data_train AS SELECT * FROM data WHERE id % 4 <> 0")
    db.execute("CREATE VIEW data_test AS SELECT * FROM data WHERE id % 4 = 0")
    db.execute(f"SELECT madnb.create_nb_prepared_data_tables('data_train', 'label', 'attrs', {indices}, {n}, 'fp', 'np', 'cp')")
    db.execute(f"SELECT madnb.create_nb_probs_view('fp', 'cp', 'data_test', 'id', 'attrs', {n}, 'np', 'pv')")
    central = dict(((k, c), p) for k, c, p in db.execute("SELECT key, class, nb_prob FROM pv"))
    kept = kept_statistics(db, "fp")
    for k in (2, 3, 10):
        for how, views in splits(db, k).items():
            names = []
            for v in views:
                db.execute(f"SELECT madnb.create_nb_statistics('{v}', 'label', 'attrs', {indices}, {n}, 's_{v}')")
                names.append(f"s_{v}")
            tag = f"{how}{k}"
            db.execute(
                f"SELECT madnb.create_nb_model_from_statistics(%s, 'fp_{tag}', 'np_{tag}', 'cp_{tag}')", (names,)
            )
            assert_same_model(db, (f"fp_{tag}", f"np_{tag}", f"cp_{tag}"), ("fp", "np", "cp"))
            # the parts' counts add up to the centralised statistics, cell by cell
            summed = rows(db, " UNION ALL ".join(f"SELECT cls, attr, value, n, nv FROM {s}" for s in names).join(
                ["SELECT cls, attr, value, sum(n), sum(nv) FROM (", ") AS u GROUP BY 1, 2, 3"]))
            assert summed == rows(db, f"SELECT cls, attr, value, n, nv FROM {kept}")
            db.execute(f"SELECT madnb.create_nb_probs_view('fp_{tag}', 'cp_{tag}', 'data_test', 'id', 'attrs', {n}, 'np_{tag}', 'pv_{tag}')")
            merged = dict(((k2, c), p) for k2, c, p in db.execute(f"SELECT key, class, nb_prob FROM pv_{tag}"))
            assert merged.keys() == central.keys()
            assert max(abs(merged[key] - central[key]) for key in central) < 1e-9, tag


@pytest.mark.parametrize("spread", [1e-3, 1.0, 100.0])
def test_values_near_1e9_with_small_spreads_merge_to_the_exact_mean_and_variance(db, spread):
    rng = np.random.default_rng(11)
    xs = 1e9 + rng.normal(0, spread, 3000)
    load(db, "big", [(i, "a" if i % 3 else "b", [float(x)]) for i, x in enumerate(xs)], "float8")
    exact = {}
    for c in ("a", "b"):
        fr = [Fraction(float(x)) for i, x in enumerate(xs) if ("a" if i % 3 else "b") == c]
        m = sum(fr) / len(fr)
        exact[c] = (m, sum((x - m) ** 2 for x in fr) / (len(fr) - 1))
    for k in (1, 2, 3, 10):
        names = []
        for j in range(k):  # skewed: part j holds a band of values
            db.execute(
                f"CREATE VIEW b{k}_{j} AS SELECT * FROM big WHERE width_bucket(attrs[1], {1e9 - 4 * spread!r}, "
                f"{1e9 + 4 * spread!r}, {k}) BETWEEN {j + 1 if j else 0} AND {j + 1 if j < k - 1 else k + 1}"
            )
            db.execute(f"SELECT madnb.create_nb_statistics('b{k}_{j}', 'label', 'attrs', '1', 1, 'sb{k}_{j}')")
            names.append(f"sb{k}_{j}")
        db.execute(f"SELECT madnb.create_nb_model_from_statistics(%s, 'fp{k}', 'np{k}', 'cp{k}')", (names,))
        for c, mean, var in db.execute(f"SELECT class, attr_mean, attr_var FROM np{k}"):
            m, v = exact[c]
            assert abs((Fraction(mean) - m) / m) < 1e-15, (k, c)
            assert abs((Fraction(var) - v) / v) < 1e-9, (k, c, float((Fraction(var) - v) / v))
    # centralised training gives the same exact numbers
    db.execute("SELECT madnb.create_nb_prepared_data_tables('big', 'label', 'attrs', '1', 1, 'fp', 'np', 'cp')")
    for c, var in db.execute("SELECT class, attr_var FROM np"):
        assert abs((Fraction(var) - exact[c][1]) / exact[c][1]) < 1e-9


# --- point 4: private merges ---------------------------------------------------------------

def discrete_laplace_variance(epsilon: float) -> float:
    a = math.exp(-epsilon)
    return 2 * a / (1 - a) ** 2


@pytest.fixture
def owners(db):
    """Tiny owner tables: one categorical attribute over a public domain of 200 values, classes a and b."""
    db.execute("CREATE TABLE owner (id int, c text, x int[])")
    db.execute("INSERT INTO owner SELECT i, CASE WHEN i % 2 = 0 THEN 'a' ELSE 'b' END, ARRAY[i % 3] FROM generate_series(1, 30) i")
    db.execute("CREATE TABLE dom (attr int, value text)")
    db.execute("INSERT INTO dom VALUES (0, 'a'), (0, 'b')")
    db.execute("INSERT INTO dom SELECT 1, v::text FROM generate_series(0, 199) v")
    return db


def release(db, name: str) -> None:
    # 1 + 1 queries: epsilon' = 1 per cell
    db.execute(f"SELECT madnb.create_nb_statistics('owner', 'c', 'x', 1, '{name}', epsilon => 2, domain => 'dom')")


def test_merging_private_parts_is_post_processing_and_adds_their_noises(owners):
    db = owners
    # seeded: a variance estimated from 400 draws is within 30% only about 99 times in 100
    use_seeded_noise(db, 20261130)
    for j in range(3):
        release(db, f"p{j}")
    releases = ledger(db)
    budget = db.execute("SELECT * FROM madnb.privacy_budget_status").fetchall()
    db.execute("SELECT madnb.create_nb_model_from_statistics(ARRAY['p0', 'p1', 'p2'], 'fp', NULL, 'cp')")
    assert ledger(db) == releases
    assert db.execute("SELECT * FROM madnb.privacy_budget_status").fetchall() == budget
    true = "(SELECT count(*) FROM owner o WHERE o.c = s.cls AND o.x[1] = s.value)"
    # noise of one part's count cells, and of the sums of three parts
    one = [float(r[0]) for r in db.execute(f"SELECT s.n - {true} FROM p0 AS s WHERE s.attr = 1")]
    summed = db.execute(
        f"SELECT s.cls, s.value, sum(s.n) AS raw, 3 * {true} AS t FROM (SELECT * FROM p0 UNION ALL SELECT * FROM p1 "
        "UNION ALL SELECT * FROM p2) AS s WHERE s.attr = 1 GROUP BY s.cls, s.value"
    ).fetchall()
    v = discrete_laplace_variance(1.0)
    assert len(one) == 400 and abs(np.var(one) / v - 1) < 0.3
    assert abs(np.var([float(raw - t) for _, _, raw, t in summed]) / (3 * v) - 1) < 0.3
    # the model clamps the sums, not the parts
    cnt = dict(((c, val), n) for c, val, n in db.execute("SELECT class, value, cnt FROM fp"))
    assert all(cnt[(c, val)] == max(0, int(raw)) for c, val, raw, _ in summed)


def test_releases_of_the_same_rows_merge_with_their_epsilons_added_not_the_largest(owners):
    db = owners
    release(db, "p0")
    release(db, "p1")
    db.execute("CREATE TABLE other AS SELECT * FROM owner")
    db.execute("SELECT madnb.create_nb_statistics('other', 'c', 'x', 1, 'q0', epsilon => 2, domain => 'dom')")
    # two releases of owner (2 + 2: sequential composition) and one of another table (parallel: the larger)
    db.execute("SELECT madnb.create_nb_model_from_statistics(ARRAY['p0', 'p1', 'q0'], 'fp', NULL, 'cp')")
    kept = kept_statistics(db, "fp")
    h = header(db, kept)
    assert h["epsilon"] == "4"
    said = db.execute("SELECT obj_description('cp'::regclass, 'pg_class')").fetchone()[0]
    assert "epsilon 4 in total" in said and "sequential composition" in said
    # parts of different sources only: the largest epsilon, as before
    db.execute("SELECT madnb.create_nb_model_from_statistics(ARRAY['p0', 'q0'], 'fp2', NULL, 'cp2')")
    assert header(db, kept_statistics(db, "fp2"))["epsilon"] == "2"


def test_a_hundred_owners_with_an_empty_cell_sum_to_about_zero_not_to_a_positive_bias(owners):
    db = owners
    names = []
    for j in range(100):
        release(db, f"o{j}")
        names.append(f"o{j}")
    db.execute("SELECT madnb.create_nb_model_from_statistics(%s, 'fp', NULL, 'cp')", (names,))
    # values 3..199 never occur: 2 x 197 cells whose true count is 0 for every owner
    union = " UNION ALL ".join(f"SELECT cls, value, n FROM {o} WHERE attr = 1 AND value >= 3" for o in names)
    sums = [float(r[0]) for r in db.execute(f"SELECT sum(n) FROM ({union}) AS u GROUP BY cls, value")]
    sd = math.sqrt(100 * discrete_laplace_variance(1.0))  # about 13.6
    assert len(sums) == 394
    assert abs(np.mean(sums)) < 5 * sd / math.sqrt(len(sums))  # about 3.4; clamping each part first would give about +42
    mean_cnt = db.execute("SELECT avg(cnt) FROM fp WHERE value >= 3").fetchone()[0]
    assert float(mean_cnt) < 0.6 * sd  # E[max(0, S)] = sd / sqrt(2 pi), about 5.4, far below 42
