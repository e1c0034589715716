"""madnb.train_from_statistics: a named model made from statistics tables or share sums (issue 20, the analyst).

The reference is madnb.train on the union of the owners' rows, as ordinary
columns: the model from the owners' released statistics must predict the same
classes with the same probabilities (within 1e-9), on real datasets (adult:
Gaussian and categorical attributes, released through MADlib's array face;
mushroom: every attribute categorical, shared by secure aggregation).  Multiple
servers: tests/federation/test_secure_servers.py.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pandas as pd
import psycopg
import pytest

import madnb
from conftest import data_file
from helpers import relations, sqlstate_of
from models_helpers import load_adult

# adult's attributes in one int4[] per row: categorical ones as codes (their rank among the training's values)
ADULT_ATTRS = [
    ("age", "gaussian"), ("workclass", "categorical"), ("fnlwgt", "gaussian"), ("education", "categorical"),
    ("education_num", "gaussian"), ("marital_status", "categorical"), ("occupation", "categorical"),
    ("relationship", "categorical"), ("race", "categorical"), ("sex", "categorical"), ("capital_gain", "gaussian"),
    ("capital_loss", "gaussian"), ("hours_per_week", "gaussian"), ("native_country", "categorical"),
]
NUMERIC = [i for i, (_, role) in enumerate(ADULT_ATTRS, start=1) if role == "gaussian"]
NAMES = [n for n, _ in ADULT_ATTRS]
CATEGORICAL = [n for n, role in ADULT_ATTRS if role == "categorical"]
OWNERS = 3


def _coded(db: psycopg.Connection[Any], table: str) -> None:
    """``<table>_coded``: adult's rows with each categorical column as its code (int4, NULL for '?')."""
    cols = ", ".join(
        f"(SELECT c.code FROM codes_{n} c WHERE c.v = t.{n})::int4 AS {n}" if role == "categorical" else f"t.{n}"
        for n, role in ADULT_ATTRS
    )
    db.execute(f"CREATE TABLE {table}_coded AS SELECT t.id, {cols}, t.income FROM {table} t")


@pytest.fixture
def adult_owners(db: psycopg.Connection[Any]) -> psycopg.Connection[Any]:
    """adult's training rows, coded, split among three owners, each owner's statistics released through the array face."""
    load_adult(db, "adult")
    load_adult(db, "adult_test", "test")
    for n in CATEGORICAL:
        db.execute(
            f"CREATE TABLE codes_{n} AS SELECT v, (row_number() OVER (ORDER BY v))::int4 AS code "
            f"FROM (SELECT DISTINCT {n} AS v FROM adult WHERE {n} IS NOT NULL) s"
        )
    _coded(db, "adult")
    _coded(db, "adult_test")
    attrs = "ARRAY[" + ", ".join(NAMES) + "]::int4[]"
    numeric = ",".join(str(i) for i in NUMERIC)
    for o in range(OWNERS):
        db.execute(f"CREATE TABLE owner{o} AS SELECT id, income, {attrs} AS attributes FROM adult_coded WHERE id % {OWNERS} = {o}")
        db.execute(
            f"SELECT madnb.create_nb_statistics('owner{o}', 'income', 'attributes', '{numeric}', {len(NAMES)}, 'stats{o}')"
        )
    db.execute(f"SELECT madnb.train('union_nb', 'adult_coded', 'income', exclude => ARRAY['id'], categorical => ARRAY{CATEGORICAL!r})")
    return db


def _statistics(n: int = OWNERS) -> str:
    return "ARRAY[" + ", ".join(f"'stats{o}'" for o in range(n)) + "]"


def assert_same_predictions(db: psycopg.Connection[Any], got: str, want: str, rows: str, n: int) -> None:
    """Models ``got`` and ``want`` predict the same class for every row of ``rows``, probabilities within 1e-9."""
    pairs = db.execute(
        f"SELECT madnb_models.{got}_predict(t), madnb_models.{want}_predict(t), "
        f"madnb_models.{got}_predict_proba_array(t), madnb_models.{want}_predict_proba_array(t) FROM {rows} t"
    ).fetchall()
    assert len(pairs) == n
    assert db.execute(f"SELECT madnb.model_classes('{got}') = madnb.model_classes('{want}')").fetchone() == (True,)
    for c1, c2, p1, p2 in pairs:
        assert c1 == c2
        assert all(abs(a - b) <= 1e-9 * max(abs(b), 1e-300) or abs(a - b) <= 1e-15 for a, b in zip(p1, p2, strict=True)), (p1, p2)


def test_a_model_from_three_owners_statistics_tables_predicts_as_madnb_train_on_the_union_of_their_rows(adult_owners):
    db = adult_owners
    db.execute(f"SELECT madnb.train_from_statistics('from_stats', {_statistics()}, features => ARRAY{NAMES!r}, label => 'income')")
    n = db.execute("SELECT count(*) FROM adult_test_coded").fetchone()[0]
    assert_same_predictions(db, "from_stats", "union_nb", "adult_test_coded", n)
    # the column form, one argument per feature, named as the features
    row = db.execute("SELECT * FROM adult_test_coded WHERE workclass IS NOT NULL ORDER BY id LIMIT 1").fetchone()
    args = ", ".join(f"{name} => %s" for name in NAMES)
    got = db.execute(f"SELECT madnb_models.from_stats_predict({args})", row[1:15]).fetchone()
    want = db.execute(f"SELECT madnb_models.union_nb_predict({args})", row[1:15]).fetchone()
    assert got == want
    # the catalog: the sources as given, the kind's roles and types, the rows of every owner
    m = db.execute(
        "SELECT kind, source, label, label_type, features, training_rows, privacy, statistics FROM madnb.models WHERE name = 'from_stats'"
    ).fetchone()
    assert m[:4] == ("naive_bayes", "stats0, stats1, stats2", "income", "text")
    assert [(f["name"], f["role"], f["type"]) for f in m[4]] == [
        (name, role, "double precision" if role == "gaussian" else "integer") for name, role in ADULT_ATTRS
    ]
    assert m[5] == db.execute("SELECT count(*) FROM adult WHERE income IS NOT NULL").fetchone()[0]
    assert m[6] == "exact" and m[7].startswith('"madnb_statistics".')


def test_evaluate_model_sql_and_to_sklearn_work_on_a_model_from_statistics(adult_owners):
    db = adult_owners
    db.execute(f"SELECT madnb.train_from_statistics('from_stats', {_statistics()}, features => ARRAY{NAMES!r}, label => 'income')")
    got = db.execute("SELECT madnb.evaluate('from_stats', 'adult_test_coded')").fetchone()[0]
    want = db.execute("SELECT madnb.evaluate('union_nb', 'adult_test_coded')").fetchone()[0]
    assert got["accuracy"] == want["accuracy"] > 0.8 and got["confusion_matrix"] == want["confusion_matrix"]
    assert abs(got["log_loss"] - want["log_loss"]) <= 1e-9 * want["log_loss"]
    script = db.execute("SELECT madnb.model_sql('from_stats')").fetchone()[0]
    assert "from_stats_predict" in script
    clf = madnb.to_sklearn(db, "from_stats")
    x = db.execute(f"SELECT {', '.join(NAMES)} FROM adult_test_coded ORDER BY id LIMIT 200").fetchall()
    want_p = db.execute("SELECT madnb_models.from_stats_predict_proba_array(t) FROM adult_test_coded t ORDER BY t.id LIMIT 200").fetchall()
    frame = pd.DataFrame(x, columns=NAMES)
    for p, (w,) in zip(clf.predict_proba(frame), want_p, strict=True):
        assert all(abs(a - b) <= 1e-9 for a, b in zip(p, w, strict=True))


def test_dropping_a_model_from_statistics_drops_what_it_made_and_never_the_source_statistics(adult_owners):
    db = adult_owners
    before = relations(db)
    db.execute(f"SELECT madnb.train_from_statistics('from_stats', {_statistics()})")
    kept = db.execute("SELECT statistics FROM madnb.models WHERE name = 'from_stats'").fetchone()[0]
    assert db.execute("SELECT to_regclass(%s) IS NOT NULL", (kept,)).fetchone() == (True,)
    assert relations(db) == before  # nothing here but the model's own objects
    db.execute("SELECT madnb.drop_model('from_stats')")
    assert db.execute("SELECT to_regclass(%s)", (kept,)).fetchone() == (None,)
    assert db.execute("SELECT count(*) FROM pg_proc WHERE proname LIKE 'from\\_stats\\_%'").fetchone() == (0,)
    assert relations(db) == before and all(db.execute(f"SELECT count(*) > 0 FROM stats{o}").fetchone()[0] for o in range(OWNERS))


def test_default_feature_names_are_attr_1_to_attr_n_and_replace_makes_the_model_again_from_other_statistics(adult_owners):
    db = adult_owners
    db.execute("SELECT madnb.train_from_statistics('from_stats', ARRAY['stats0'], label => 'income')")
    names = [f["name"] for f in db.execute("SELECT features FROM madnb.models WHERE name = 'from_stats'").fetchone()[0]]
    assert names == [f"attr_{i}" for i in range(1, len(NAMES) + 1)]
    e = sqlstate_of(db, f"SELECT madnb.train_from_statistics('from_stats', {_statistics()})")
    assert e.diag.sqlstate == "42710"
    one = db.execute("SELECT training_rows FROM madnb.models WHERE name = 'from_stats'").fetchone()[0]
    db.execute(f"SELECT madnb.train_from_statistics('from_stats', {_statistics()}, replace => true)")
    assert db.execute("SELECT training_rows FROM madnb.models WHERE name = 'from_stats'").fetchone()[0] > one
    args = ", ".join(f"attr_{i} => NULL" for i in range(1, len(NAMES) + 1))
    assert db.execute(f"SELECT madnb_models.from_stats_predict({args})").fetchone()[0] in ("<=50K", ">50K")


def test_private_statistics_make_a_private_model_whose_catalog_row_says_what_the_releases_guarantee(db):
    db.execute("CREATE TABLE t (id int, class text, attributes int[])")
    db.execute("INSERT INTO t SELECT i, CASE WHEN i % 3 = 0 THEN 'a' ELSE 'b' END, ARRAY[i % 4, i % 5] FROM generate_series(1, 300) i")
    db.execute("SELECT madnb.create_nb_statistics('t', 'class', 'attributes', 2, 'private_stats', epsilon => 1, domain => 'observed')")
    db.execute("SELECT madnb.train_from_statistics('private_nb', ARRAY['private_stats'], ARRAY['x', 'y'])")
    row = db.execute("SELECT privacy, epsilon, release_id FROM madnb.models WHERE name = 'private_nb'").fetchone()
    released = db.execute("SELECT max(release_id) FROM madnb.privacy_ledger").fetchone()[0]
    assert row == ("private", 1.0, released)
    guarantee = db.execute("SELECT m.privacy ->> 'guarantee' FROM madnb._models m WHERE m.name = 'private_nb'").fetchone()[0]
    header = json.loads(db.execute("SELECT obj_description('private_stats'::regclass)").fetchone()[0][len("madnb statistics "):])
    assert guarantee == header["guarantee"]
    p = db.execute("SELECT madnb_models.private_nb_predict_proba_array(x => 1, y => 2)").fetchone()[0]
    assert len(p) == 2 and math.isclose(sum(p), 1.0)
    assert db.execute("SELECT count(*) FROM madnb.privacy_ledger").fetchone()[0] == 1  # making a model charges nothing


# ---------------------------------------------------------------------------
# Share sums: mushroom shared by three owners to two aggregation servers (tables of this database)
# ---------------------------------------------------------------------------


MUSHROOM_ATTRS = 22


@pytest.fixture
def mushroom_shares(db: psycopg.Connection[Any]) -> psycopg.Connection[Any]:
    path = data_file("mushroom.csv")
    cols = [c.replace("-", "_") for c in path.read_text().splitlines()[0].split(",")]
    db.execute(f"CREATE TABLE mushroom ({', '.join(f'{c} text' for c in cols)})")
    with db.cursor().copy("COPY mushroom FROM STDIN WITH (FORMAT csv, HEADER true, NULL '?')") as copy:
        copy.write(path.read_bytes())
    db.execute("ALTER TABLE mushroom ADD COLUMN id int GENERATED ALWAYS AS IDENTITY")
    features = cols[1:]
    db.execute(
        "CREATE TABLE mushroom_domain AS SELECT 0 AS attr, edibility AS value FROM mushroom GROUP BY 2 UNION ALL "
        + " UNION ALL ".join(f"SELECT {i}, {c} FROM mushroom WHERE {c} IS NOT NULL GROUP BY 2" for i, c in enumerate(features, start=1))
    )
    attrs = "ARRAY[" + ", ".join(features) + "]"
    for o in range(OWNERS):
        db.execute(f"CREATE TABLE m_owner{o} AS SELECT id, edibility, {attrs} AS attributes FROM mushroom WHERE id % {OWNERS} = {o}")
        db.execute(
            f"SELECT madnb.create_nb_statistics_shares('m_owner{o}', 'edibility', 'attributes', {MUSHROOM_ATTRS}, "
            f"ARRAY['m_owner{o}_share1', 'm_owner{o}_share2'], domain => 'mushroom_domain')"
        )
        db.execute(f"SELECT madnb.create_nb_statistics('m_owner{o}', 'edibility', 'attributes', {MUSHROOM_ATTRS}, 'm_stats{o}')")
    for j in (1, 2):
        db.execute(f"SELECT madnb.create_nb_share_sum(ARRAY[{', '.join(f'{chr(39)}m_owner{o}_share{j}{chr(39)}' for o in range(OWNERS))}], 'm_sum{j}')")
    db.execute("SELECT madnb.train('mushroom_nb', 'mushroom', 'edibility', exclude => ARRAY['id'])")
    return db


def _mushroom_features(db: psycopg.Connection[Any]) -> list[str]:
    return [f["name"] for f in db.execute("SELECT features FROM madnb.models WHERE name = 'mushroom_nb'").fetchone()[0]]


def test_a_model_from_the_share_sums_of_a_secure_aggregation_predicts_as_madnb_train_on_the_owners_rows(mushroom_shares):
    db = mushroom_shares
    names = _mushroom_features(db)
    db.execute(f"SELECT madnb.train_from_statistics('from_shares', ARRAY['m_sum1', 'm_sum2'], ARRAY{names!r}, 'edibility')")
    assert_same_predictions(db, "from_shares", "mushroom_nb", "mushroom", db.execute("SELECT count(*) FROM mushroom").fetchone()[0])
    m = db.execute("SELECT source, training_rows, privacy FROM madnb.models WHERE name = 'from_shares'").fetchone()
    assert m == ("m_sum1, m_sum2", db.execute("SELECT count(*) FROM mushroom").fetchone()[0], "exact")
    # ... and the same as the model from the owners' statistics tables
    db.execute(f"SELECT madnb.train_from_statistics('from_stats', ARRAY['m_stats0', 'm_stats1', 'm_stats2'], ARRAY{names!r}, 'edibility')")
    assert_same_predictions(db, "from_shares", "from_stats", "mushroom", db.execute("SELECT count(*) FROM mushroom").fetchone()[0])


def test_share_sums_mixed_with_statistics_tables_are_refused_and_nothing_is_left_behind(mushroom_shares):
    db = mushroom_shares
    before = relations(db), relations(db, "madnb_statistics"), relations(db, "madnb_models")
    for arr, where in (("ARRAY['m_sum1', 'm_stats0']", "statistics[2]"), ("ARRAY['m_stats0', 'm_sum1', 'm_sum2']", "statistics[2]")):
        e = sqlstate_of(db, f"SELECT madnb.train_from_statistics('mixed', {arr})")
        assert e.diag.sqlstate == "22023" and e.diag.message_primary.startswith(where), e.diag.message_primary
    e = sqlstate_of(db, "SELECT madnb.train_from_statistics('mixed', ARRAY['m_owner0_share1', 'm_owner1_share1'])")
    assert e.diag.sqlstate == "22023" and "not a share sum table" in e.diag.message_primary
    e = sqlstate_of(db, "SELECT madnb.train_from_statistics('mixed', ARRAY['m_sum1'])")
    assert e.diag.sqlstate == "22023" and "missing" in e.diag.message_primary
    assert (relations(db), relations(db, "madnb_statistics"), relations(db, "madnb_models")) == before
    assert db.execute("SELECT count(*) FROM madnb.models WHERE name = 'mixed'").fetchone() == (0,)


def test_bad_arguments_are_refused_with_their_sqlstate_and_leave_nothing_behind(adult_owners):
    db = adult_owners
    db.execute("CREATE TABLE not_statistics (a int)")
    before = relations(db), relations(db, "madnb_statistics"), relations(db, "madnb_models")
    cases = [
        ("NULL, ARRAY['stats0']", "22004"),
        ("'m', NULL", "22004"),
        ("'m', ARRAY[]::text[]", "22023"),
        ("'m', ARRAY['stats0', NULL]", "22004"),
        ("'m', ARRAY['no_such_table']", "42P01"),
        ("'m', ARRAY['not_statistics']", "22023"),
        ("'m', ARRAY['stats0', 'stats0']", "22023"),
        ("'m', ARRAY['stats0'], ARRAY['a', 'b']", "22023"),
        ("'m', ARRAY['stats0'], ARRAY['a', NULL, 'c']", "22004"),
        (f"'m', ARRAY['stats0'], ARRAY{['a'] * len(NAMES)!r}", "42701"),
        (f"'m', ARRAY['stats0'], ARRAY{NAMES!r}, 'age'", "22023"),
        ("'m', ARRAY['stats0'], label => NULL", "22004"),
        ("'m', ARRAY['stats0'], smoothing => -1", "22023"),
        ("'m', ARRAY['stats0'], replace => NULL", "22004"),
    ]
    for args, state in cases:
        e = sqlstate_of(db, f"SELECT madnb.train_from_statistics({args})")
        assert e.diag.sqlstate == state, (args, e.diag.sqlstate, e.diag.message_primary)
        assert e.diag.message_primary == e.diag.message_primary.lower()[:1] + e.diag.message_primary[1:]
    assert (relations(db), relations(db, "madnb_statistics"), relations(db, "madnb_models")) == before
    assert db.execute("SELECT count(*) FROM madnb.models").fetchone() == (1,)  # union_nb


FLOAT_CODES = [0.0, 1.0, 0.5, -3.25, 1e-05, 0.0001, 123.456, 1e14, 2.5e15, 0.1 + 0.2, 5e-324, -1.7976931348623157e308]


def test_to_sklearn_of_a_model_with_float8_categorical_positions_compares_values_by_postgresqls_text_of_them(db):
    db.execute("CREATE TABLE f (id int, class text, attributes float8[])")
    rows = [(i, "ab"[i % 2 if i % 5 else 0], [FLOAT_CODES[i % len(FLOAT_CODES)], (i % 7) * 0.3]) for i in range(200)]
    with db.cursor() as cur:
        cur.executemany("INSERT INTO f VALUES (%s, %s, %s)", rows)
    db.execute("SELECT madnb.create_nb_statistics('f', 'class', 'attributes', '2', 2, 'f_stats')")
    db.execute("SELECT madnb.train_from_statistics('f_nb', ARRAY['f_stats'], ARRAY['code', 'x'])")
    texts = db.execute("SELECT v::text FROM unnest(%s::float8[]) AS v", (FLOAT_CODES,)).fetchall()
    values = db.execute(
        "SELECT array_agg(DISTINCT value ORDER BY value) FROM madnb_statistics.\"madnb_models.f_nb\" WHERE attr = 1"
    ).fetchone()[0]
    assert sorted(values) == sorted(t for (t,) in texts)  # the kept statistics hold PostgreSQL's text of each value
    db.execute("CREATE TABLE f_new (id int, code float8, x float8)")
    with db.cursor() as cur:
        cur.executemany("INSERT INTO f_new VALUES (%s, %s, %s)", [(i, FLOAT_CODES[i % len(FLOAT_CODES)], i * 0.05) for i in range(40)])
    want = [r[0] for r in db.execute("SELECT madnb_models.f_nb_predict_proba_array(t) FROM f_new t ORDER BY t.id").fetchall()]
    frame = pd.DataFrame(db.execute("SELECT code, x FROM f_new ORDER BY id").fetchall(), columns=["code", "x"])
    got = madnb.to_sklearn(db, "f_nb").predict_proba(frame)
    for g, w in zip(got, want, strict=True):
        assert all(abs(a - b) <= 1e-9 for a, b in zip(g, w, strict=True)), (g, w)


def test_private_share_sums_make_a_private_model_charged_to_no_budget_beyond_the_owners_releases(db):
    db.execute("CREATE TABLE dom (attr int, value text)")
    db.execute("INSERT INTO dom VALUES (0, 'a'), (0, 'b'), (1, 'x'), (1, 'y'), (1, 'z')")
    for o in range(OWNERS):
        db.execute(f"CREATE TABLE p_owner{o} (id int, class text, attributes text[])")
        db.execute(
            f"INSERT INTO p_owner{o} SELECT i, CASE WHEN i % 3 = 0 THEN 'a' ELSE 'b' END, ARRAY[(ARRAY['x', 'y', 'z'])[1 + i % 3]] "
            f"FROM generate_series(1, 100 + {o}) i"
        )
        db.execute(
            f"SELECT madnb.create_nb_statistics_shares('p_owner{o}', 'class', 'attributes', 1, "
            f"ARRAY['p_owner{o}_share1', 'p_owner{o}_share2'], epsilon => 1, domain => 'dom')"
        )
    for j in (1, 2):
        db.execute(f"SELECT madnb.create_nb_share_sum(ARRAY['p_owner0_share{j}', 'p_owner1_share{j}', 'p_owner2_share{j}'], 'p_sum{j}')")
    ledger = db.execute("SELECT count(*) FROM madnb.privacy_ledger").fetchone()[0]
    assert ledger == OWNERS
    db.execute("SELECT madnb.train_from_statistics('p_nb', ARRAY['p_sum1', 'p_sum2'], ARRAY['letter'])")
    assert db.execute("SELECT count(*) FROM madnb.privacy_ledger").fetchone()[0] == ledger
    row = db.execute("SELECT privacy, epsilon FROM madnb.models WHERE name = 'p_nb'").fetchone()
    assert row == ("private", 1.0)
    header = json.loads(db.execute("SELECT obj_description('p_sum1'::regclass)").fetchone()[0][len("madnb share "):])
    privacy = db.execute("SELECT m.privacy FROM madnb._models m WHERE m.name = 'p_nb'").fetchone()[0]
    assert privacy["guarantee"] == header["statistics"]["guarantee"] and len(privacy["release_ids"]) == OWNERS
    p = db.execute("SELECT madnb_models.p_nb_predict_proba_array(letter => 'y')").fetchone()[0]
    assert len(p) == 2 and math.isclose(sum(p), 1.0)
