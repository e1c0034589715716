"""Export (issue 12, point 6): madnb.model_sql and madnb.to_sklearn.

model_sql: the script runs in a database where madnb is not installed (the
``empty_db`` fixture: a fresh database of the same cluster), and the functions
it creates give the installed model's predictions on the same rows.
to_sklearn: predict_proba of the returned estimator, on rows fetched from the
database as psycopg gives them, equals the database's
``<m>_predict_proba_array`` on the same rows.
"""

from __future__ import annotations

import csv
import datetime
import pickle
import re
import secrets
import sys
from decimal import Decimal
from typing import Any

import numpy as np
import pandas as pd
import psycopg
import pytest
from sklearn.naive_bayes import CategoricalNB, GaussianNB
from test_explain import assert_exact_sums

import madnb
from conftest import data_file
from golden_files import check_golden
from madnb import cli
from madnb.sklearn_export import MixedNB
from models_helpers import ADULT_COLUMNS, load_adult, plant_on_search_path

TOL_SQL = 1e-12
TOL_SKLEARN = 1e-9


def model_sql(db: psycopg.Connection[Any], *args: Any) -> str:
    marks = ", ".join(["%s"] * len(args))
    return db.execute(f"SELECT madnb.model_sql({marks})", list(args)).fetchone()[0]


def load_mushroom(db: psycopg.Connection[Any]) -> list[str]:
    """mushroom.csv as one text column per field (hyphens become underscores), '?' read as NULL, plus an id; the columns."""
    path = data_file("mushroom.csv")
    with open(path, newline="") as f:
        cols = [c.replace("-", "_") for c in next(csv.reader(f))]
    db.execute(f"CREATE TABLE mushroom ({', '.join(c + ' text' for c in cols)})")
    with db.cursor().copy("COPY mushroom FROM STDIN WITH (FORMAT csv, HEADER true, NULL '?')") as copy:
        copy.write(path.read_bytes())
    db.execute("ALTER TABLE mushroom ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY")
    return cols


def copy_table(src: psycopg.Connection[Any], dst: psycopg.Connection[Any], table: str, columns: str) -> None:
    """Table ``table`` of ``src`` into ``dst`` (created there with ``columns``), rows in the same order."""
    dst.execute(f"CREATE TABLE {table} ({columns})")
    with src.cursor().copy(f"COPY (SELECT * FROM {table} ORDER BY id) TO STDOUT") as out, dst.cursor().copy(
        f"COPY {table} FROM STDIN"
    ) as into:
        for chunk in out:
            into.write(chunk)


def assert_same_predictions(installed: list[tuple[Any, ...]], exported: list[tuple[Any, ...]]) -> None:
    """Rows of (predict, predict_proba jsonb, predict_proba_array): same classes and keys, numbers within 1e-12."""
    assert len(installed) == len(exported) > 0
    assert [r[0] for r in installed] == [r[0] for r in exported]
    assert [list(r[1]) for r in installed] == [list(r[1]) for r in exported]
    keys = list(installed[0][1])
    for col in (lambda r: [r[1][k] for k in keys], lambda r: r[2]):
        diff = np.abs(np.array([col(r) for r in installed]) - np.array([col(r) for r in exported]))
        assert diff.max() <= TOL_SQL


def predictions(conn: psycopg.Connection[Any], schema: str, prefix: str, table: str, args: str = "t") -> list[tuple[Any, ...]]:
    return conn.execute(
        f"SELECT {schema}.{prefix}_predict({args}), {schema}.{prefix}_predict_proba({args}), "
        f"{schema}.{prefix}_predict_proba_array({args}) FROM {table} t ORDER BY t.id"
    ).fetchall()


@pytest.fixture
def roles(db: psycopg.Connection[Any]) -> Any:
    """A maker of roles with fresh names (roles belong to the cluster), dropped after the test."""
    made: list[str] = []

    def make(prefix: str) -> str:
        name = f"{prefix}_{secrets.token_hex(3)}"
        db.execute(f'CREATE ROLE "{name}"')
        made.append(name)
        return name

    yield make
    db.execute("RESET ROLE")
    for name in made:
        db.execute(f'DROP OWNED BY "{name}"')
        db.execute(f'DROP ROLE "{name}"')


def without_comments(script: str) -> str:
    """The script less its ``--`` header lines and its functions' COMMENT statements."""
    return "\n".join(
        line for line in script.splitlines() if not line.startswith("--") and not line.startswith("COMMENT ON FUNCTION")
    )


# ---------------------------------------------------------------------------
# madnb.model_sql
# ---------------------------------------------------------------------------


def test_the_script_predicts_adult_in_a_database_without_madnb_as_the_installed_model(db, empty_db):
    _, target = empty_db
    load_adult(db, "adult")
    load_adult(db, "adult_test", "test")
    db.execute("SELECT madnb.train('adult_nb', 'adult', 'income', exclude => ARRAY['id'])")
    script = model_sql(db, "adult_nb")
    assert not re.search(r"\bmadnb(_models)?\s*\.", without_comments(script))
    target.execute(script)
    assert target.execute("SELECT pg_catalog.to_regnamespace('madnb') IS NULL").fetchone()[0]
    copy_table(db, target, "adult_test", ADULT_COLUMNS + ", id bigint")
    want = predictions(db, "madnb_models", "adult_nb", "adult_test")
    # the row form, and the column form with the features as arguments in the catalog's order
    assert_same_predictions(want, predictions(target, "public", "adult_nb", "adult_test"))
    features = [f["name"] for f in db.execute("SELECT features FROM madnb.models").fetchone()[0]]
    args = ", ".join(f"t.{f}" for f in features)
    assert_same_predictions(want, predictions(target, "public", "adult_nb", "adult_test", args))
    # the classes' order of the probability array is the model's
    assert target.execute("SELECT public.adult_nb_predict_proba_array(t) FROM adult_test t LIMIT 1").fetchone()[0] == want[0][2]


def test_the_script_predicts_mushroom_with_unseen_and_missing_values_as_the_installed_model(db, empty_db):
    _, target = empty_db
    cols = load_mushroom(db)
    db.execute("SELECT madnb.train('mush_nb', 'mushroom', 'edibility', exclude => ARRAY['id'])")
    # rows the model has not seen: a new value, and missing values
    db.execute("UPDATE mushroom SET odor = 'zz' WHERE id % 7 = 0")
    db.execute("UPDATE mushroom SET cap_color = NULL, stalk_root = NULL WHERE id % 11 = 0")
    script = model_sql(db, "mush_nb", "nb.mushroom")
    with pytest.raises(psycopg.Error) as e:
        target.execute(script)  # one string through the driver: one transaction
    assert e.value.diag.sqlstate == "3F000"  # schema "nb" does not exist
    assert target.execute("SELECT count(*) FROM pg_proc WHERE proname LIKE 'mushroom%'").fetchone()[0] == 0
    target.execute("CREATE SCHEMA nb")
    target.execute(model_sql(db, "mush_nb", "nb.mushroom"))
    copy_table(db, target, "mushroom", ", ".join(c + " text" for c in cols) + ", id bigint")
    want = predictions(db, "madnb_models", "mush_nb", "mushroom")
    assert_same_predictions(want, predictions(target, "nb", "mushroom", "mushroom"))


# Types that travel (a domain as its base type, an enum as text), values the model never saw, NULL and
# NaN, and names that are hostile in every place the script writes one.
HOSTILE_TYPES = """
CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
CREATE DOMAIN posint AS integer CHECK (VALUE > 0);
"""
HOSTILE_COLUMNS = (
    'id int, "Label ""x""" text, "col\ntwo" mood, "$guard$ d" date, "n\\um" numeric, flag boolean, code character(3), '
    'at timestamptz, u uuid, w posint, f float8'
)
HOSTILE_ROWS = """
INSERT INTO "we""ird $body$ t"
SELECT i, CASE WHEN i % 3 = 0 THEN 'a''s' WHEN i % 3 = 1 THEN 'b"' ELSE 'c\\' END,
       (ARRAY['sad', 'ok', 'happy'])[1 + i % 3]::mood, DATE '2024-02-27' + i % 4, (i % 4)::numeric / 2 + 0.50,
       i % 5 = 0, (ARRAY['ab', 'c', 'xyz'])[1 + i % 3], TIMESTAMPTZ '2024-03-01 10:00:00+00' + (i % 3) * INTERVAL '90 minutes',
       ('00000000-0000-0000-0000-00000000000' || (i % 3))::uuid, 1 + i % 6,
       CASE WHEN i % 13 = 0 THEN 'NaN' WHEN i % 17 = 0 THEN NULL ELSE i * 1.25 + (i % 3) * 10 END
FROM generate_series(1, 60) AS i;
-- rows to predict: values never seen, missing values
INSERT INTO "we""ird $body$ t" VALUES
    (61, 'a''s', NULL, DATE '1999-01-01', 9.75, NULL, 'zz', NULL, NULL, 40, NULL),
    (62, NULL, 'ok', NULL, NULL, true, NULL, TIMESTAMPTZ '2030-01-01 00:00:00+00', '00000000-0000-0000-0000-000000000009', NULL, 'NaN'),
    (63, 'b"', 'happy', DATE '2024-02-28', 1.5000, false, 'c  ', TIMESTAMPTZ '2024-03-01 11:30:00+00', '00000000-0000-0000-0000-000000000001', 3, 1e6);
"""
HOSTILE_MODEL = '"Odd ""nb"" $body$"'


def test_hostile_names_domains_enums_and_settings_predict_the_same_in_a_database_without_madnb(db, empty_db):
    _, target = empty_db
    db.execute(HOSTILE_TYPES)
    db.execute(f'CREATE TABLE "we""ird $body$ t" ({HOSTILE_COLUMNS})')
    db.execute(HOSTILE_ROWS)
    db.execute(
        "SELECT madnb.train(%s, %s, %s, exclude => ARRAY['id'], categorical => %s)",
        [HOSTILE_MODEL, '"we""ird $body$ t"', '"Label ""x"""', ["w", '"n\\um"']],
    )
    # a line break in a name must not end a comment of the script's header (the next line would run)
    script = model_sql(db, HOSTILE_MODEL, '"My ""Schema"""."f\nSELECT 1/0; -- $guard$"')
    target.execute('CREATE SCHEMA "My ""Schema"""')
    # another session's settings: the script and the predictions do not depend on them
    target.execute("SET DateStyle = 'SQL, DMY'; SET TimeZone = 'Asia/Kolkata'; SET extra_float_digits = 0")
    target.execute(HOSTILE_TYPES)
    target.execute(script)
    copy_table(db, target, '"we""ird $body$ t"', HOSTILE_COLUMNS)
    schema, prefix = '"My ""Schema"""', '"f\nSELECT 1/0; -- $guard$'
    want = db.execute(
        'SELECT madnb_models."Odd ""nb"" $body$_predict"(t), madnb_models."Odd ""nb"" $body$_predict_proba"(t), '
        'madnb_models."Odd ""nb"" $body$_predict_proba_array"(t) FROM "we""ird $body$ t" t ORDER BY t.id'
    ).fetchall()
    got_rows = target.execute(
        f'SELECT {schema}.{prefix}_predict"(t), {schema}.{prefix}_predict_proba"(t), {schema}.{prefix}_predict_proba_array"(t) '
        'FROM "we""ird $body$ t" t ORDER BY t.id'
    ).fetchall()
    assert_same_predictions(want, got_rows)
    # the column form: an enum is passed as its label (text), a domain as its base type
    args = 't."col\ntwo"::text, t."$guard$ d", t."n\\um", t.flag, t.code, t.at, t.u, t.w, t.f'
    got_columns = target.execute(
        f'SELECT {schema}.{prefix}_predict"({args}), {schema}.{prefix}_predict_proba"({args}), '
        f'{schema}.{prefix}_predict_proba_array"({args}) FROM "we""ird $body$ t" t ORDER BY t.id'
    ).fetchall()
    assert_same_predictions(want, got_columns)
    assert {r[0] for r in want} == {"a's", 'b"', "c\\"}
    # and the explanation, its features' and classes' hostile names as keys
    table = '"we""ird $body$ t"'
    explained = db.execute(EXPLAIN_ROWS.format(f='madnb_models."Odd ""nb"" $body$_explain"(t)', table=table)).fetchall()
    assert_same_explanations(explained, target.execute(EXPLAIN_ROWS.format(f=f'{schema}.{prefix}_explain"(t)', table=table)).fetchall())
    assert_same_explanations(explained, target.execute(EXPLAIN_ROWS.format(f=f'{schema}.{prefix}_explain"({args})', table=table)).fetchall())
    assert "col\ntwo" in explained[0][1]["classes"]["a's"]["contributions"]


def test_objects_planted_on_the_search_path_never_run_inside_the_script_or_its_functions(db, empty_db):
    _, target = empty_db
    db.execute("CREATE TABLE fruit AS SELECT i AS id, (ARRAY['apple', 'pear'])[1 + i % 2] AS kind, "
               "(ARRAY['red', 'green', 'brown'])[1 + i % 3] AS colour, (i % 4)::int AS seeds, 100 + i * 1.5 AS weight "
               "FROM generate_series(1, 40) AS i")
    db.execute("SELECT madnb.train('fruit_nb', 'fruit', 'kind', exclude => ARRAY['id'], categorical => ARRAY['seeds'])")
    want = predictions(db, "madnb_models", "fruit_nb", "fruit")
    explained = db.execute(EXPLAIN_ROWS.format(f="madnb_models.fruit_nb_explain(t)", table="fruit")).fetchall()
    copy_table(db, target, "fruit", "id int, kind text, colour text, seeds int, weight numeric")
    plant_on_search_path(target, [
        ("starts_with", "text, text", "boolean"), ("to_regprocedure", "text", "regprocedure"), ("obj_description", "oid, name", "text"),
        ("jsonb_build_object", "text, float8", "jsonb"), ("jsonb_agg", "jsonb", "jsonb"), ("array_upper", "float8[], int4", "int4"),
    ], path="evil, public, pg_catalog")
    target.execute(model_sql(db, "fruit_nb"))
    target.execute(model_sql(db, "fruit_nb"))  # the guard of a second run finds its own functions
    assert_same_predictions(want, predictions(target, "public", "fruit_nb", "fruit"))
    assert_same_explanations(explained, target.execute(EXPLAIN_ROWS.format(f="public.fruit_nb_explain(t)", table="fruit")).fetchall())


FRUIT = (
    "CREATE TABLE fruit AS SELECT i AS id, (ARRAY['apple', 'pear'])[1 + i % 2] AS kind, "
    "(ARRAY['red', 'green', 'brown'])[1 + i % 3] AS colour, (i % 4)::int AS seeds, 100 + i * 1.5 AS weight "
    "FROM generate_series(1, 40) AS i"
)


def test_a_script_runs_again_and_over_an_older_export_of_its_model_but_stops_at_another_function(db, empty_db):
    _, target = empty_db
    db.execute(FRUIT)
    db.execute("SELECT madnb.train('fruit_nb', 'fruit', 'kind', exclude => ARRAY['id'])")
    target.execute(model_sql(db, "fruit_nb"))
    target.execute(model_sql(db, "fruit_nb"))  # CREATE OR REPLACE: the same script twice
    # re-trained (smoothing changes every number): the new script replaces the old functions
    db.execute("SELECT madnb.train('fruit_nb', 'fruit', 'kind', exclude => ARRAY['id'], smoothing => 0.5, replace => true)")
    target.execute(model_sql(db, "fruit_nb"))
    want = db.execute("SELECT madnb_models.fruit_nb_predict_proba_array('red', 2, 130.0)").fetchone()[0]
    assert target.execute("SELECT public.fruit_nb_predict_proba_array('red', 2, 130.0)").fetchone()[0] == want
    # a single expression there too: the planner inlines it (only the helper is called)
    target.execute("CREATE TABLE t AS SELECT 'red'::text AS colour, 2 AS seeds, 130.0 AS weight")
    plan = "\n".join(r[0] for r in target.execute("EXPLAIN (VERBOSE) SELECT public.fruit_nb_predict(t) FROM t"))
    assert "fruit_nb_scores_clear" in plan and "fruit_nb_predict(" not in plan
    # another model exported under the same name would replace them: stopped, nothing changed
    db.execute("SELECT madnb.train('other', 'fruit', 'kind', features => ARRAY['colour', 'seeds', 'weight'])")
    with pytest.raises(psycopg.Error) as e:
        target.execute(model_sql(db, "other", "fruit_nb"))
    assert e.value.diag.sqlstate == "42723"
    assert e.value.diag.message_primary == (
        'function "public"."fruit_nb_scores_best"(pg_catalog.float8[]) already exists and is not part of the export of model other'
    )
    assert "function_name" in e.value.diag.message_hint
    assert target.execute("SELECT public.fruit_nb_predict_proba_array('red', 2, 130.0)").fetchone()[0] == want
    # and so is a function of the user's of the same name and arguments
    target.execute("CREATE FUNCTION public.mine_predict(r anyelement) RETURNS text LANGUAGE sql AS $$ SELECT 'mine' $$")
    with pytest.raises(psycopg.Error) as e:
        target.execute(model_sql(db, "fruit_nb", "mine"))
    assert e.value.diag.sqlstate == "42723"
    assert target.execute("SELECT count(*) FROM pg_proc WHERE proname LIKE 'mine%'").fetchone()[0] == 1
    # the explanation's names too
    target.execute("CREATE FUNCTION public.ours_explain(r anyelement) RETURNS jsonb LANGUAGE sql AS $$ SELECT '{}'::jsonb $$")
    with pytest.raises(psycopg.Error) as e:
        target.execute(model_sql(db, "fruit_nb", "ours"))
    assert e.value.diag.sqlstate == "42723"
    assert "ours_explain" in e.value.diag.message_primary
    assert target.execute("SELECT count(*) FROM pg_proc WHERE proname LIKE 'ours%'").fetchone()[0] == 1


def test_a_role_given_grant_usage_exports_the_same_script_as_the_models_owner(db, roles):
    db.execute(FRUIT)
    db.execute("SELECT madnb.train('fruit_nb', 'fruit', 'kind', exclude => ARRAY['id'])")
    owner = model_sql(db, "fruit_nb")
    alice, bob = roles("nb_export_alice"), roles("nb_export_bob")
    db.execute("SELECT madnb.grant_usage(%s)", [alice])
    db.execute(f'SET ROLE "{alice}"')
    try:
        assert model_sql(db, "fruit_nb") == owner
    finally:
        db.execute("RESET ROLE")
    db.execute(f'SET ROLE "{bob}"')  # no grant_usage: no access to madnb at all
    try:
        with pytest.raises(psycopg.Error) as e:
            model_sql(db, "fruit_nb")
        assert e.value.diag.sqlstate == "42501"
    finally:
        db.execute("RESET ROLE")


@pytest.mark.parametrize(
    ("args", "sqlstate"),
    [
        (("nope",), "42704"),
        ((None,), "22004"),
        (("a.b.c",), "42602"),
        (("fruit_nb", "a.b.c"), "42602"),
        (("fruit_nb", ""), "42602"),
        (("fruit_nb", "x" * 44), "42622"),
    ],
)
def test_model_sql_refuses_bad_arguments_with_their_sqlstate(db, args, sqlstate):
    db.execute(FRUIT)
    db.execute("SELECT madnb.train('fruit_nb', 'fruit', 'kind', exclude => ARRAY['id'])")
    with pytest.raises(psycopg.Error) as e:
        model_sql(db, *args)
    assert e.value.diag.sqlstate == sqlstate


def test_a_kind_without_an_exporter_is_0A000_naming_the_kinds_that_have_one(db):
    db.execute(FRUIT)
    db.execute("SELECT madnb.train('fruit_nb', 'fruit', 'kind', exclude => ARRAY['id'])")
    db.execute("UPDATE madnb._models SET kind = 'poisson'")  # as a kind of a later version would be
    for call in ("SELECT madnb.model_sql('fruit_nb')", "SELECT madnb._model_numbers('fruit_nb')"):
        with pytest.raises(psycopg.Error) as e:
            db.execute(call)
        assert e.value.diag.sqlstate == "0A000"
        assert e.value.diag.message_primary == "models of kind 'poisson' cannot be exported yet"
        assert e.value.diag.message_hint == (
            "kinds that can be exported: bernoulli, categorical, complement, gaussian, multinomial, naive_bayes"
        )


def test_the_script_of_a_small_model_matches_its_golden_file(db):
    from test_golden import DATA

    db.execute(DATA)
    db.execute("SELECT madnb.train('pets_nb', 'pets', 'species', exclude => ARRAY['id'], categorical => ARRAY['legs'])")
    script = model_sql(db, "pets_nb", "analytics.pets")
    version = db.execute("SELECT madnb.version()").fetchone()[0]
    check_golden("models/export_pets.sql", script.replace(f"madnb {version} ", "madnb <version> "))


def test_a_tie_predicts_the_first_class_there_as_here(db, empty_db):
    _, target = empty_db
    # P(x, p | a) = 3/4 * 1/2 and P(x, p | b) = 1/2 * 3/4: a tie in exact arithmetic, the sums of logs in another
    # order in floating point; the first class within 1e-12 wins, as the classify view's first class
    db.execute("CREATE TABLE tie AS SELECT * FROM (VALUES ('a', 'x', 'p'), ('a', 'x', 'q'), ('b', 'x', 'p'), ('b', 'y', 'p')) AS v(c, f, g)")
    db.execute("SELECT madnb.train('tie_nb', 'tie', 'c')")
    target.execute(model_sql(db, "tie_nb"))
    for args in (("x", "p"), ("y", "q"), (None, None), ("zz", None)):
        want = db.execute("SELECT madnb_models.tie_nb_predict(%s, %s), madnb_models.tie_nb_predict_proba_array(%s, %s)", args * 2).fetchone()
        got = target.execute("SELECT public.tie_nb_predict(%s, %s), public.tie_nb_predict_proba_array(%s, %s)", args * 2).fetchone()
        assert got == want
    assert target.execute("SELECT public.tie_nb_predict('x', 'p'), public.tie_nb_predict(NULL::text, NULL::text)").fetchone() == ("a", "a")


def test_a_date_label_exported_under_one_datestyle_is_read_back_the_same_under_another(db, empty_db):
    _, target = empty_db
    db.execute(
        "CREATE TABLE visits AS SELECT i AS id, DATE '2024-01-02' + (i % 3) * 30 AS day, "
        "(ARRAY['x', 'y', 'z'])[1 + i % 3] AS what FROM generate_series(1, 30) AS i"
    )
    db.execute("SELECT madnb.train('visits_nb', 'visits', 'day', exclude => ARRAY['id'])")
    db.execute("SET DateStyle = 'SQL, DMY'")
    script = model_sql(db, "visits_nb")
    assert db.execute("SHOW DateStyle").fetchone()[0] == "SQL, DMY"  # the caller's setting is back
    target.execute("SET DateStyle = 'SQL, MDY'")
    target.execute(script)
    got = [target.execute("SELECT public.visits_nb_predict(%s)", [w]).fetchone()[0] for w in ("x", "y", "z")]
    assert got == [db.execute("SELECT madnb_models.visits_nb_predict(%s)", [w]).fetchone()[0] for w in ("x", "y", "z")]
    assert got == [datetime.date(2024, 1, 2), datetime.date(2024, 2, 1), datetime.date(2024, 3, 2)]


def test_a_model_with_more_than_100_features_is_exported_with_the_row_form_only(db, empty_db):
    _, target = empty_db
    cols = ", ".join(f"(i * {j} % 3)::text AS c{j}" for j in range(1, 102))
    db.execute(f"CREATE TABLE wide AS SELECT i AS id, (i % 2 = 0) AS label, {cols} FROM generate_series(1, 20) AS i")
    db.execute("SELECT madnb.train('wide_nb', 'wide', 'label', exclude => ARRAY['id'])")
    script = model_sql(db, "wide_nb")
    target.execute(script)
    assert target.execute(
        "SELECT count(*) FROM pg_proc WHERE proname LIKE 'wide_nb_predict%' AND pronargs = 1"
    ).fetchone()[0] == 3
    assert target.execute("SELECT count(*) FROM pg_proc WHERE proname LIKE 'wide_nb_predict%'").fetchone()[0] == 3
    # and the internal functions its row forms call, as madnb_models has them: the same names and bodies
    internal = "SELECT proname::text, prosrc FROM pg_proc WHERE proname LIKE 'wide\\_nb\\_row\\_%' ORDER BY 1"
    made = target.execute(internal).fetchall()
    assert [n for n, _ in made] == [n for n, _ in db.execute(internal).fetchall()]
    assert {n for n, _ in made} >= {
        "wide_nb_row_check_1", "wide_nb_row_class", "wide_nb_row_proba", "wide_nb_row_proba_array", "wide_nb_row_explanation",
    }
    assert [b for n, b in made if "check" in n] == [b for n, b in db.execute(internal).fetchall() if "check" in n]
    copy_table(db, target, "wide", "id int, label boolean, " + ", ".join(f"c{j} text" for j in range(1, 102)))
    assert_same_predictions(predictions(db, "madnb_models", "wide_nb", "wide"), predictions(target, "public", "wide_nb", "wide"))
    # the explanation too, the row form only, as the model's own
    assert target.execute("SELECT array_agg(pg_get_function_identity_arguments(oid)) FROM pg_proc "
                          "WHERE proname = 'wide_nb_explain'").fetchone()[0] == ["r anyelement"]
    assert_same_explanations(db.execute(EXPLAIN_ROWS.format(f="madnb_models.wide_nb_explain(t)", table="wide")).fetchall(),
                             target.execute(EXPLAIN_ROWS.format(f="public.wide_nb_explain(t)", table="wide")).fetchall())
    assert_exact_sums(target, "wide_nb", "wide", exported=("public.wide_nb", ["false", "true"]))
    # a row without a feature column fails there too, briefly, naming the column and the function
    target.execute("CREATE TABLE part AS SELECT id, c1, c2 FROM wide")
    with pytest.raises(psycopg.errors.UndefinedColumn) as e:
        target.execute("SELECT public.wide_nb_predict_proba(t) FROM part AS t")
    assert '"c3"' in e.value.diag.message_primary and "wide_nb_predict_proba" in e.value.diag.context
    assert len(e.value.diag.internal_query or "") < 1300
    with pytest.raises(psycopg.errors.UndefinedColumn):
        target.execute("SELECT public.wide_nb_explain(t) FROM part AS t")
    # the header's DROP FUNCTION drops every function the script made
    header = [line.removeprefix("--") for line in script.splitlines() if line.startswith("--")]
    start = next(i for i, line in enumerate(header) if line.startswith(" DROP FUNCTION"))
    target.execute("\n".join(header[start:]))
    assert target.execute("SELECT count(*) FROM pg_proc WHERE proname LIKE 'wide\\_nb\\_%'").fetchone()[0] == 0


def test_a_large_model_is_exported_with_its_plpgsql_functions_and_predicts_the_same_there(db, empty_db):
    # 150 classes x 2 features: past generated.INLINE_MAX_TERMS, so its functions are PL/pgSQL (each feature
    # looked up once per row), and past 16 classes (the jsonb helper's aggregate, in the script's copy)
    _, target = empty_db
    db.execute("CREATE TABLE many AS SELECT i AS id, 'c' || (i % 150) AS label, 'p' || (i % 7) AS plan, "
               "((i % 150) + (i % 9) / 3.0)::float8 AS minutes FROM generate_series(1, 1500) AS i")
    db.execute("SELECT madnb.train('many_nb', 'many', 'label', exclude => ARRAY['id'])")
    target.execute(model_sql(db, "many_nb"))
    languages = "SELECT DISTINCT l.lanname::text FROM pg_proc AS p JOIN pg_language AS l ON l.oid = p.prolang WHERE p.proname LIKE 'many_nb_predict%'"
    assert sorted(r[0] for r in target.execute(languages)) == ["plpgsql", "sql"]  # the column form, and the row form calling it
    copy_table(db, target, "many", "id int, label text, plan text, minutes float8")
    assert_same_predictions(predictions(db, "madnb_models", "many_nb", "many"), predictions(target, "public", "many_nb", "many"))


# ---------------------------------------------------------------------------
# The script's explanation: <function_name>_explain, as the model's own
# ---------------------------------------------------------------------------


EXPLAIN_ROWS = "SELECT t.id, {f} FROM {table} t ORDER BY t.id"


def assert_same_explanation(want: Any, got: Any, path: str = "$") -> None:
    """Two explanations (jsonb) alike: the same keys in the same order, the same texts, numbers within 1e-12
    (relative beyond 1)."""
    if isinstance(want, dict):
        assert isinstance(got, dict) and list(got) == list(want), path
        for k in want:
            assert_same_explanation(want[k], got[k], f"{path}.{k}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), path
        for i, (a, b) in enumerate(zip(want, got, strict=True)):
            assert_same_explanation(a, b, f"{path}[{i}]")
    elif isinstance(want, float | int) and not isinstance(want, bool):
        assert isinstance(got, float | int) and not isinstance(got, bool), path
        assert abs(got - want) <= TOL_SQL * max(1.0, abs(want)), path
    else:
        assert got == want, path


def assert_same_explanations(want: list[tuple[Any, ...]], got: list[tuple[Any, ...]]) -> None:
    """Rows of (id, explanation): the same rows, each explanation alike (:func:`assert_same_explanation`)."""
    assert len(want) == len(got) > 0
    assert [r[0] for r in want] == [r[0] for r in got]
    for (key, a), (_, b) in zip(want, got, strict=True):
        assert_same_explanation(a, b, f"row {key}")


# one small table for every kind: three classes, a text, a float and an integer column, a vector of 5 counts;
# then rows the model never saw: a new value, missing values, a NULL vector (no explanation)
MIX = """
CREATE TABLE mix AS SELECT i AS id, i % 3 AS y,
       CASE WHEN i % 11 = 0 THEN NULL ELSE 'v' || ((i * 7) % 4 + i % 3) END AS c,
       ((i % 5) * 1.5 + (i % 3))::float8 AS g, (i * 5) % 4 + i % 3 AS n,
       ARRAY[i % 4, (i * 3) % 5 + i % 3, i % 2, (i * 7) % 3, 2 * (i % 3)]::int4[] AS v
FROM generate_series(1, 60) AS i
"""
MIX_COLUMNS = "id int, y int, c text, g float8, n int, v int4[]"
MIX_UNSEEN = "INSERT INTO mix VALUES (61, 0, 'zz', NULL, 9, NULL), (62, 1, NULL, 2.25, NULL, '{0,0,0,0,0}'), (63, 2, 'v1', 1e3, -4, '{9,0,1,0,30}')"
EXPLAIN_KINDS = [
    ("naive_bayes", ["c", "g", "n"]),
    ("categorical", ["c", "n"]),
    ("gaussian", ["g", "n"]),
    ("multinomial", ["v"]),
    ("bernoulli", ["v"]),
    ("complement", ["v"]),
]


@pytest.mark.parametrize(("kind", "features"), EXPLAIN_KINDS)
def test_the_script_explains_every_row_as_the_installed_model_does_in_a_database_without_madnb(db, empty_db, kind, features):
    _, target = empty_db
    db.execute(MIX)
    db.execute("SELECT madnb.train('mix_nb', 'mix', 'y', features => %s, kind => %s)", [features, kind])
    db.execute(MIX_UNSEEN)
    script = model_sql(db, "mix_nb", "mix_x")
    assert not re.search(r"\bmadnb(_models)?\s*\.", without_comments(script))
    target.execute(script)
    assert target.execute("SELECT pg_catalog.to_regnamespace('madnb') IS NULL").fetchone()[0]
    copy_table(db, target, "mix", MIX_COLUMNS)
    want = db.execute(EXPLAIN_ROWS.format(f="madnb_models.mix_nb_explain(t)", table="mix")).fetchall()
    assert_same_explanations(want, target.execute(EXPLAIN_ROWS.format(f="public.mix_x_explain(t)", table="mix")).fetchall())
    # the column form, the features by name
    args = ", ".join(f"{f} => t.{f}" for f in features)
    assert_same_explanations(want, target.execute(EXPLAIN_ROWS.format(f=f"public.mix_x_explain({args})", table="mix")).fetchall())
    # the contributions add up to the script's own log-scores and posteriors
    assert_exact_sums(target, "mix_x", "mix", "t.id <= 60 OR t.id = 63", exported=("public.mix_x", ["0", "1", "2"]))
    # a missing value adds nothing there either; a NULL vector has no explanation
    got = dict(target.execute(EXPLAIN_ROWS.format(f="public.mix_x_explain(t)", table="mix")).fetchall())
    if features == ["v"]:
        assert got[61] is None
    else:
        missing = "c" if "c" in features else "n"  # both NULL in row 62
        assert {e["contributions"][missing] for e in got[62]["classes"].values()} == {0}


# ---------------------------------------------------------------------------
# madnb.to_sklearn
# ---------------------------------------------------------------------------


def frame(db: psycopg.Connection[Any], query: str) -> pd.DataFrame:
    """The rows of ``query`` as psycopg gives them, as a DataFrame with the column names."""
    cur = db.execute(query)
    return pd.DataFrame(cur.fetchall(), columns=[c.name for c in cur.description], dtype=object)


def database_proba(db: psycopg.Connection[Any], model: str, table: str) -> np.ndarray:
    rows = db.execute(f"SELECT madnb_models.{model}_predict_proba_array(t) FROM {table} t ORDER BY t.id").fetchall()
    return np.array([r[0] for r in rows], dtype=np.float64)


def database_predict(db: psycopg.Connection[Any], model: str, table: str) -> list[Any]:
    return [r[0] for r in db.execute(f"SELECT madnb_models.{model}_predict(t) FROM {table} t ORDER BY t.id").fetchall()]


def test_to_sklearn_of_adult_predicts_the_databases_probabilities_on_adult_test(db):
    load_adult(db, "adult")
    load_adult(db, "adult_test", "test")
    db.execute("SELECT madnb.train('adult_nb', 'adult', 'income', exclude => ARRAY['id'])")
    est = madnb.to_sklearn(db, "adult_nb")
    assert isinstance(est[-1], MixedNB)
    assert list(est.classes_) == db.execute("SELECT madnb.model_classes('adult_nb')").fetchone()[0]
    X = frame(db, "SELECT * FROM adult_test ORDER BY id")  # the label and the id are ignored
    got = est.predict_proba(X)
    want = database_proba(db, "adult_nb", "adult_test")
    assert np.abs(got - want).max() <= TOL_SKLEARN
    assert list(est.predict(X)) == database_predict(db, "adult_nb", "adult_test")
    assert np.allclose(np.exp(est.predict_log_proba(X)), got, rtol=0, atol=1e-15)
    # a fitted estimator, picklable as any other
    again = pickle.loads(pickle.dumps(est))
    assert np.array_equal(again.predict_proba(X), got)


def test_to_sklearn_of_a_categorical_model_is_a_categorical_nb_with_unseen_and_missing_values_adding_nothing(db):
    load_mushroom(db)
    db.execute("SELECT madnb.train('mush_nb', 'mushroom', 'edibility', exclude => ARRAY['id'])")
    db.execute("UPDATE mushroom SET odor = 'zz' WHERE id % 7 = 0")
    db.execute("UPDATE mushroom SET cap_color = NULL, stalk_root = NULL WHERE id % 11 = 0")
    est = madnb.to_sklearn(db, "mush_nb")
    nb = est[-1]
    assert isinstance(nb, CategoricalNB)
    assert list(nb.classes_) == ["e", "p"]
    X = frame(db, "SELECT * FROM mushroom ORDER BY id")
    assert np.abs(est.predict_proba(X) - database_proba(db, "mush_nb", "mushroom")).max() <= TOL_SKLEARN
    # scikit-learn's arg-max: the database's class wherever the two classes are not within 1e-12
    assert list(est.predict(X)) == database_predict(db, "mush_nb", "mushroom")
    # its numbers are scikit-learn's own formula on madnb's counts: log((cnt + s) / (n_c + s * values))
    cnt = db.execute(
        "SELECT cnt FROM madnb_models.mush_nb_feature_probs WHERE class = 'e' AND attr = 5 AND value = 'a'"
    ).fetchone()[0]
    n_e = db.execute("SELECT sum(cnt)::float8 FROM madnb_models.mush_nb_feature_probs WHERE class = 'e' AND attr = 5").fetchone()[0]
    values = db.execute("SELECT count(DISTINCT value) FROM madnb_models.mush_nb_feature_probs WHERE attr = 5").fetchone()[0]
    odor = est[0].named_transformers_["categorical_4"][-1].categories_[0]
    assert nb.feature_log_prob_[4][0, list(odor).index("a")] == pytest.approx(np.log((cnt + 1) / (n_e + values)), abs=1e-14)


def test_to_sklearn_of_a_gaussian_model_is_a_gaussian_nb_with_the_databases_probabilities(db):
    with open(data_file("skin_segmentation.csv"), newline="") as f:
        rows = list(csv.reader(f))[1::50]  # a subset: every 50th row (about 4,900)
    db.execute("CREATE TABLE skin (id int PRIMARY KEY, r int, g int, b int, label text)")
    with db.cursor().copy("COPY skin FROM STDIN") as copy:
        for i, (r, g, b, skin) in enumerate(rows):
            copy.write_row((i, r, g, b, "skin" if skin == "1" else "other"))
    db.execute("SELECT madnb.train('skin_nb', 'skin', 'label', exclude => ARRAY['id'])")
    est = madnb.to_sklearn(db, "skin_nb")
    nb = est[-1]
    assert isinstance(nb, GaussianNB)
    X = frame(db, "SELECT r, g, b, id FROM skin ORDER BY id")
    assert np.abs(est.predict_proba(X) - database_proba(db, "skin_nb", "skin")).max() <= TOL_SKLEARN
    # the parameters are the class means and sample variances (scikit-learn's fit gives the population variance)
    mean, var = db.execute("SELECT avg(g), var_samp(g) FROM skin WHERE label = 'other'").fetchone()
    other = list(nb.classes_).index("other")
    assert nb.theta_[other, 1] == pytest.approx(float(mean), rel=1e-12)
    assert nb.var_[other, 1] == pytest.approx(float(var), rel=1e-12)


def test_to_sklearn_compares_booleans_dates_numerics_chars_times_and_uuids_by_the_text_madnb_compares(db):
    db.execute(HOSTILE_TYPES)
    db.execute(f'CREATE TABLE "we""ird $body$ t" ({HOSTILE_COLUMNS})')
    db.execute(HOSTILE_ROWS)
    db.execute(
        "SELECT madnb.train('typed', %s, %s, exclude => ARRAY['id'], categorical => %s)",
        ['"we""ird $body$ t"', '"Label ""x"""', ["w", '"n\\um"']],
    )
    est = madnb.to_sklearn(db, "typed")
    assert isinstance(est[-1], MixedNB)
    db.execute("SET TimeZone = 'Asia/Kolkata'")  # psycopg gives timestamptz values at +05:30: compared in UTC
    X = frame(db, 'SELECT * FROM "we""ird $body$ t" ORDER BY id')
    assert isinstance(X["$guard$ d"][0], datetime.date) and isinstance(X["n\\um"][0], Decimal)
    want = database_proba(db, "typed", '"we""ird $body$ t"')
    assert np.abs(est.predict_proba(X) - want).max() <= TOL_SKLEARN
    assert list(est.predict(X)) == database_predict(db, "typed", '"we""ird $body$ t"')
    # pandas' own types: an integer column with a missing value is float, a date column datetime64
    Y = X.copy()
    Y["w"] = pd.to_numeric(Y["w"])
    Y["$guard$ d"] = pd.to_datetime(Y["$guard$ d"])
    assert Y["w"].dtype == np.float64
    assert np.abs(est.predict_proba(Y) - want).max() <= TOL_SKLEARN


def test_to_sklearn_works_for_a_role_given_grant_usage_and_says_what_is_missing_without_scikit_learn(db, roles, monkeypatch):
    db.execute(FRUIT)
    db.execute("SELECT madnb.train('fruit_nb', 'fruit', 'kind', exclude => ARRAY['id'])")
    X = frame(db, "SELECT * FROM fruit ORDER BY id")
    want = database_proba(db, "fruit_nb", "fruit")
    alice = roles("nb_export_alice")
    db.execute("SELECT madnb.grant_usage(%s)", [alice])
    db.execute(f'SET ROLE "{alice}"')
    try:
        assert np.abs(madnb.to_sklearn(db, "fruit_nb").predict_proba(X) - want).max() <= TOL_SKLEARN
        with pytest.raises(psycopg.Error) as e:
            madnb.to_sklearn(db, "nope")
        assert e.value.diag.sqlstate == "42704"
    finally:
        db.execute("RESET ROLE")
    monkeypatch.setitem(sys.modules, "sklearn", None)
    with pytest.raises(ImportError, match=r"pip install 'madnb\[sklearn\]'"):
        madnb.to_sklearn(db, "fruit_nb")


def test_the_command_line_prints_the_models_script(db, capsys):
    db.execute(FRUIT)
    db.execute("SELECT madnb.train('fruit_nb', 'fruit', 'kind', exclude => ARRAY['id'])")
    dsn = db.info.dsn
    assert cli.main(["export-sql", "fruit_nb", "--function-name", "x.f", "--dsn", dsn]) == 0
    assert capsys.readouterr().out == model_sql(db, "fruit_nb", "x.f")
    assert cli.main(["export-sql", "nope", "--dsn", dsn]) == 1
    assert 'model "nope" does not exist' in capsys.readouterr().err


def test_the_scikit_learn_kinds_export_to_their_estimators_and_to_a_script_with_the_same_numbers(db, empty_db):
    with open(data_file("skin_segmentation.csv"), newline="") as f:
        rows = list(csv.reader(f))[1::50]
    db.execute("CREATE TABLE skin (id int PRIMARY KEY, r int, g int, b int, label text)")
    with db.cursor().copy("COPY skin FROM STDIN") as copy:
        for i, (r, g, b, skin) in enumerate(rows):
            copy.write_row((i, r, g, b, "skin" if skin == "1" else "other"))
    db.execute("SELECT madnb.train('skin_g', 'skin', 'label', exclude => ARRAY['id'], kind => 'gaussian', "
               """options => '{"var_smoothing": 1e-3, "priors": [0.3, 0.7]}')""")
    est = madnb.to_sklearn(db, "skin_g")
    assert isinstance(est[-1], GaussianNB)
    X = frame(db, "SELECT r, g, b, id FROM skin ORDER BY id")
    got = est.predict_proba(X)
    assert np.abs(got - database_proba(db, "skin_g", "skin")).max() <= TOL_SKLEARN
    # and scikit-learn's own GaussianNB fitted on the same rows
    y = [r[0] for r in db.execute("SELECT label FROM skin ORDER BY id").fetchall()]
    ref = GaussianNB(var_smoothing=1e-3, priors=[0.3, 0.7]).fit(X[["r", "g", "b"]].astype(float).to_numpy(), y)
    assert np.abs(got - ref.predict_proba(X[["r", "g", "b"]].astype(float).to_numpy())).max() <= TOL_SKLEARN

    load_mushroom(db)
    db.execute("SELECT madnb.train('mush_c', 'mushroom', 'edibility', exclude => ARRAY['id'], kind => 'categorical', "
               """options => '{"alpha": 0.5, "fit_prior": false, "min_categories": 12}')""")
    est = madnb.to_sklearn(db, "mush_c")
    assert isinstance(est[-1], CategoricalNB)
    X = frame(db, "SELECT * FROM mushroom ORDER BY id")
    assert np.abs(est.predict_proba(X) - database_proba(db, "mush_c", "mushroom")).max() <= TOL_SKLEARN

    # the scripts predict as the installed models in a database without madnb
    url, other = empty_db
    for model, table, columns in (
        ("skin_g", "skin", "id int, r int, g int, b int, label text"),
        ("mush_c", "mushroom", None),
    ):
        if columns is None:
            columns = ", ".join(
                f"{c} text" for c in [r[0] for r in db.execute(
                    "SELECT attname FROM pg_attribute WHERE attrelid = 'mushroom'::regclass AND attnum > 0 "
                    "AND NOT attisdropped AND attname <> 'id' ORDER BY attnum").fetchall()]
            ) + ", id bigint"
        copy_table(db, other, table, columns)
        other.execute(model_sql(db, model))
        assert_same_predictions(predictions(db, "madnb_models", model, table), predictions(other, "public", model, table))
