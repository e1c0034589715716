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
import re
import secrets
from typing import Any

import numpy as np
import psycopg
import pytest

from conftest import data_file
from models_helpers import ADULT_COLUMNS, load_adult
from test_golden_sql import check_golden
from test_models_catalog import _PLANTED_FUNCTIONS, _PLANTED_OPERATORS

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


def test_objects_planted_on_the_search_path_never_run_inside_the_script_or_its_functions(db, empty_db):
    _, target = empty_db
    db.execute("CREATE TABLE fruit AS SELECT i AS id, (ARRAY['apple', 'pear'])[1 + i % 2] AS kind, "
               "(ARRAY['red', 'green', 'brown'])[1 + i % 3] AS colour, (i % 4)::int AS seeds, 100 + i * 1.5 AS weight "
               "FROM generate_series(1, 40) AS i")
    db.execute("SELECT madnb.train('fruit_nb', 'fruit', 'kind', exclude => ARRAY['id'], categorical => ARRAY['seeds'])")
    want = predictions(db, "madnb_models", "fruit_nb", "fruit")
    target.execute("CREATE SCHEMA evil")
    target.execute(
        "CREATE FUNCTION evil.boom() RETURNS void LANGUAGE plpgsql AS "
        "$$ BEGIN RAISE EXCEPTION 'planted object ran' USING ERRCODE = 'XX666'; END $$"
    )
    for i, (op, left, right) in enumerate(_PLANTED_OPERATORS):
        target.execute(
            f"CREATE FUNCTION evil.op{i}(a {left}, b {right}) RETURNS {left} LANGUAGE plpgsql AS "
            "$$ BEGIN PERFORM evil.boom(); RETURN NULL; END $$"
        )
        target.execute(f"CREATE OPERATOR evil.{op} (LEFTARG = {left}, RIGHTARG = {right}, FUNCTION = evil.op{i})")
    planted = [f for f in _PLANTED_FUNCTIONS if "VARIADIC" not in f[1]] + [
        ("starts_with", "text, text", "boolean"), ("to_regprocedure", "text", "regprocedure"),
        ("obj_description", "oid, name", "text"),
    ]
    for name, args, result in planted:
        target.execute(
            f"CREATE FUNCTION evil.{name}({args}) RETURNS {result} LANGUAGE plpgsql AS "
            "$$ BEGIN PERFORM evil.boom(); RETURN NULL; END $$"
        )
    copy_table(db, target, "fruit", "id int, kind text, colour text, seeds int, weight numeric")
    target.execute("SET search_path = evil, public, pg_catalog")
    target.execute(model_sql(db, "fruit_nb"))
    target.execute(model_sql(db, "fruit_nb"))  # the guard of a second run finds its own functions
    assert_same_predictions(want, predictions(target, "public", "fruit_nb", "fruit"))


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
        (("a.b",), "42602"),
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
    db.execute("UPDATE madnb._models SET kind = 'bernoulli'")  # as a kind of a later version would be
    for call in ("SELECT madnb.model_sql('fruit_nb')", "SELECT madnb._model_numbers('fruit_nb')"):
        with pytest.raises(psycopg.Error) as e:
            db.execute(call)
        assert e.value.diag.sqlstate == "0A000"
        assert e.value.diag.message_primary == "models of kind 'bernoulli' cannot be exported yet"
        assert e.value.diag.message_hint == "kinds that can be exported: naive_bayes"


def test_the_script_of_a_small_model_matches_its_golden_file(db):
    from test_models_golden import DATA

    db.execute(DATA)
    db.execute("SELECT madnb.train('pets_nb', 'pets', 'species', exclude => ARRAY['id'], categorical => ARRAY['legs'])")
    script = model_sql(db, "pets_nb", "analytics.pets")
    version = db.execute("SELECT madnb.version()").fetchone()[0]
    check_golden("models/export_pets.sql", script.replace(f"madnb {version} ", "madnb <version> "))
