"""Shared data loading for the tests of named models (tests/models/)."""

from __future__ import annotations

from typing import Any

import psycopg

from conftest import data_file

ADULT_COLUMNS = (
    "age int, workclass text, fnlwgt int, education text, education_num int, marital_status text, occupation text, "
    "relationship text, race text, sex text, capital_gain int, capital_loss int, hours_per_week int, "
    "native_country text, income text"
)


def load_adult(db: psycopg.Connection[Any], table: str, which: str = "train") -> None:
    """adult_<which>.csv as ordinary columns (text and int), '?' read as NULL, plus an id column."""
    path = data_file(f"adult_{which}.csv")
    db.execute(f"CREATE TABLE {table} ({ADULT_COLUMNS})")
    with db.cursor().copy(f"COPY {table} FROM STDIN WITH (FORMAT csv, HEADER true, NULL '?')") as copy:
        copy.write(path.read_bytes())
    db.execute(f"ALTER TABLE {table} ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY")
    db.execute(f"ANALYZE {table}")


# Every operator, function and type name the generated functions and the per-row helpers use
# (the body is pg_get_functiondef's text), planted in schema evil for pg_catalog's signatures.
PLANTED_OPERATORS = [
    ("+", "float8", "float8"), ("-", "float8", "float8"), ("*", "float8", "float8"), ("^", "float8", "float8"),
    (">", "float8", "float8"), (">=", "float8", "float8"), ("<", "float8", "float8"), ("-", "int8", "int8"),
    ("->>", "jsonb", "text"), ("->", "jsonb", "text"), ("||", "jsonb", "jsonb"), ("=", "text", "text"), ("=", "float8", "float8"),
]
PLANTED_FUNCTIONS = [
    ("float8larger", "float8, float8", "float8"), ("float8smaller", "float8, float8", "float8"),
    ("int8larger", "int8, int8", "int8"), ("int8smaller", "int8, int8", "int8"), ("exp", "float8", "float8"),
    ("ln", "float8", "float8"), ("abs", "float8", "float8"), ("array_upper", "anyarray, int4", "int4"),
    ("jsonb_build_object", "VARIADIC \"any\"", "jsonb"), ("trim_scale", "numeric", "numeric"),
]


def plant_on_search_path(
    db: psycopg.Connection[Any], extra: list[tuple[str, str, str]] | None = None, path: str = "evil, public, madnb, pg_catalog",
) -> None:
    """Schema evil, first on the search_path (``path``) ahead of pg_catalog, with an operator or function of each of
    :data:`PLANTED_OPERATORS`, :data:`PLANTED_FUNCTIONS` and ``extra`` (name, arguments, result) that raises XX666
    if it ever runs."""
    db.execute("CREATE SCHEMA evil")
    db.execute(
        "CREATE FUNCTION evil.boom() RETURNS void LANGUAGE plpgsql AS "
        "$$ BEGIN RAISE EXCEPTION 'planted object ran' USING ERRCODE = 'XX666'; END $$"
    )
    for i, (op, left, right) in enumerate(PLANTED_OPERATORS):
        db.execute(
            f"CREATE FUNCTION evil.op{i}(a {left}, b {right}) RETURNS {left} LANGUAGE plpgsql AS "
            "$$ BEGIN PERFORM evil.boom(); RETURN NULL; END $$"
        )
        db.execute(f"CREATE OPERATOR evil.{op} (LEFTARG = {left}, RIGHTARG = {right}, FUNCTION = evil.op{i})")
    for name, args, result in PLANTED_FUNCTIONS + (extra or []):
        if "VARIADIC" in args:
            continue
        db.execute(
            f"CREATE FUNCTION evil.{name}({args}) RETURNS {result} LANGUAGE plpgsql AS "
            "$$ BEGIN PERFORM evil.boom(); RETURN NULL; END $$"
        )
    # what a PL/pgSQL helper's query runs past 16 classes (madnb._nb_proba_jsonb): a set-returning
    # function and an aggregate
    db.execute(
        "CREATE FUNCTION evil.unnest(a anyarray) RETURNS SETOF anyelement LANGUAGE plpgsql AS "
        "$$ BEGIN PERFORM evil.boom(); RETURN; END $$"
    )
    db.execute(
        "CREATE FUNCTION evil.agg_step(s jsonb, k text, v float8) RETURNS jsonb LANGUAGE plpgsql AS "
        "$$ BEGIN PERFORM evil.boom(); RETURN NULL; END $$"
    )
    db.execute("CREATE AGGREGATE evil.jsonb_object_agg(text, float8) (SFUNC = evil.agg_step, STYPE = jsonb)")
    db.execute(f"SET search_path = {path}")
