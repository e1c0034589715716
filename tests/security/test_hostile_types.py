"""Casts and domain checks another role defines never run inside madnb (issue 17, A2).

PostgreSQL picks a cast from pg_cast, whatever the search_path says, and only a
type's owner (or a superuser) may create a cast involving it.  So a role that
owns an enum, a domain or a table (its row type) can plant a cast from it to
text (or back), or a domain CHECK that calls its own function, and wait for a
superuser to train, evaluate or predict on its table.  madnb reads such values
through their types' output functions and takes domains as their base types,
so the planted functions never run; and a model of these types predicts what
the same model of plain types (text, integer, ...) predicts.

The role here owns every non-built-in type involved and plants, for each one, a
cast to text and back (as assignment casts: an implicit one would make its own
enum's = ambiguous, an error but no code run), a cast from its arrays, and a
logging CHECK on a domain over every built-in type madnb trains on;
for the built-in types themselves (numeric, boolean, date, timestamp, uuid, the
vector types, tsvector) PostgreSQL refuses the cast, which the first test shows.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from psycopg import sql
from test_search_path_hijack import unprivileged_role

# (domain, base type) of every built-in type a column model reads, each with a CHECK that logs
DOMAINS = [
    ("c_int", "integer"), ("c_text", "text"), ("c_bool", "boolean"), ("c_date", "date"),
    ("c_ts", "timestamp"), ("c_tstz", "timestamptz"), ("c_uuid", "uuid"), ("c_num", "numeric"),
    ("c_float", "float8"),
]

# the enums are in alphabetical order, so that class orders agree with the plain model's text classes
SPY = """
CREATE TABLE public.spy_log (what text);
GRANT SELECT, INSERT ON public.spy_log TO PUBLIC;
CREATE FUNCTION public.spy(what text) RETURNS void LANGUAGE sql AS $$ INSERT INTO public.spy_log VALUES (what) $$;
CREATE FUNCTION public.spy_check(v anyelement) RETURNS boolean LANGUAGE plpgsql
    AS $$ BEGIN PERFORM public.spy('check ' || pg_catalog.pg_typeof(v)::pg_catalog.text); RETURN true; END $$;
"""
"""A log that every planted cast function and CHECK writes to (and spy_check, a CHECK's body)."""

TYPES = SPY + """CREATE TYPE public.colour AS ENUM ('blue', 'green', 'red');
CREATE TYPE public.mood AS ENUM ('happy', 'ok', 'sad');
"""

# the same rows twice: once in hostile types, once in plain ones (written before any cast is planted)
COLUMNS = (
    "id int, colour {colour}, size {c_int}, shade {c_text}, flag {c_bool}, day {c_date}, at {c_ts}, seen {c_tstz}, "
    "u {c_uuid}, amount {c_num}, weight {c_float}, mood {mood}, tag {c_text}, counts int4[], doc tsvector"
)
ROWS = """
SELECT i, (ARRAY['blue', 'green', 'red'])[1 + i % 3]::{colour}, i % 7, (ARRAY['light', 'dark'])[1 + i % 2], i % 4 = 0,
       DATE '2024-02-27' + i % 4, TIMESTAMP '2024-03-01 10:00' + (i % 3) * INTERVAL '90 minutes',
       TIMESTAMPTZ '2024-03-01 10:00+00' + (i % 2) * INTERVAL '1 day',
       ('00000000-0000-0000-0000-00000000000' || (i % 3))::uuid, (i % 5)::numeric / 2 + 0.50, i * 1.25 + (i % 3) * 10,
       (ARRAY['happy', 'ok', 'sad'])[1 + (i * 7 + i / 5) % 3]::{mood}, (ARRAY['x', 'y'])[1 + (i / 3) % 2],
       ARRAY[i % 3, (i * 5) % 4, i % 2], pg_catalog.to_tsvector('simple', (ARRAY['red fox', 'lazy dog', 'red dog'])[1 + i % 3])
FROM generate_series(1, 48) AS i
"""

NB = "exclude => ARRAY['id', 'tag', 'counts', 'doc']"
MODELS = {
    # name: madnb.train's arguments after the source
    "nb": f"'mood', {NB}",
    "dl": "'tag', features => ARRAY['colour', 'shade', 'size', 'day']",
    "cat": "'mood', features => ARRAY['colour', 'shade', 'flag', 'u', 'seen', 'amount'], kind => 'categorical'",
    "gau": "'mood', features => ARRAY['size', 'amount', 'weight'], kind => 'gaussian'",
    "vec": "'mood', features => ARRAY['counts'], kind => 'multinomial'",
    "doc": "'mood', features => ARRAY['doc'], kind => 'bernoulli'",
}


def plant(db: psycopg.Connection[Any], role: str) -> None:
    """As ``role``: the spy, the hostile table and every cast and CHECK that role may plant."""
    db.execute(sql.SQL("GRANT CREATE ON SCHEMA public TO {}").format(sql.Identifier(role)))
    db.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(role)))
    db.execute(TYPES)
    for name, base in DOMAINS:
        db.execute(f"CREATE DOMAIN public.{name} AS {base} CHECK (public.spy_check(VALUE))")
    hostile = {name: f"public.{name}" for name, _ in DOMAINS} | {"colour": "public.colour", "mood": "public.mood"}
    db.execute(f"CREATE TABLE public.paint ({COLUMNS.format(**hostile)})")
    db.execute(f"INSERT INTO public.paint {ROWS.format(**hostile)}")
    # casts from and to the enums, from their arrays, and from the table's row type
    for t, label in (("colour", "red"), ("mood", "sad")):
        value, array = f"'{label}'::public.{t}", f"'{{{label}}}'::public.{t}[]"  # literals: no cast
        for src, dst, result, how in (
            (t, "text", "'planted'::text", "AS ASSIGNMENT"), (t, "varchar", "'planted'::varchar", "AS ASSIGNMENT"),
            (f"{t}[]", "text", "'planted'::text", "AS ASSIGNMENT"), (f"{t}[]", "text[]", "'{planted}'::text[]", "AS ASSIGNMENT"),
            ("text", t, value, "AS ASSIGNMENT"), ("text[]", f"{t}[]", array, "AS ASSIGNMENT"),
        ):
            fn = f"public.spy_{src.replace('[]', '_array')}_{dst.replace('[]', '_array')}"
            db.execute(
                f"CREATE FUNCTION {fn}(x {src}) RETURNS {dst} LANGUAGE plpgsql "
                f"AS $$ BEGIN PERFORM public.spy('cast {src} to {dst}'); RETURN {result}; END $$"
            )
            db.execute(f"CREATE CAST ({src} AS {dst}) WITH FUNCTION {fn}({src}) {how}")
    db.execute(
        "CREATE FUNCTION public.spy_row(x public.paint) RETURNS text LANGUAGE plpgsql "
        "AS $$ BEGIN PERFORM public.spy('cast paint to text'); RETURN 'planted'; END $$"
    )
    db.execute("CREATE CAST (public.paint AS text) WITH FUNCTION public.spy_row(public.paint) AS ASSIGNMENT")
    db.execute("TRUNCATE public.spy_log")
    db.execute("RESET ROLE")


@pytest.fixture
def hostile(db: psycopg.Connection[Any]) -> Iterator[psycopg.Connection[Any]]:
    """The planted table public.paint and its twin public.plain of plain types, the spy log empty."""
    plain = {name: base for name, base in DOMAINS} | {"colour": "text", "mood": "text"}
    db.execute(f"CREATE TABLE public.plain ({COLUMNS.format(**plain)})")
    db.execute(f"INSERT INTO public.plain {ROWS.format(**plain)}")
    with unprivileged_role(db, "mallory") as role:
        plant(db, role)
        yield db


def spied(db: psycopg.Connection[Any]) -> list[str]:
    return [r[0] for r in db.execute("SELECT what FROM public.spy_log")]


def test_only_the_owner_of_a_type_plants_casts_and_the_built_in_types_madnb_reads_refuse_them(db):
    with unprivileged_role(db, "mallory") as role:
        db.execute(sql.SQL("GRANT CREATE ON SCHEMA public TO {}").format(sql.Identifier(role)))
        db.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(role)))
        for t in ("numeric", "boolean", "date", "timestamp", "timestamptz", "uuid", "integer", "float8",
                  "int4[]", "float8[]", "numeric[]", "tsvector", "text", "varchar", "bpchar"):
            name = "public.f_" + t.replace("[]", "_array")
            db.execute(f"CREATE FUNCTION {name}(x {t}) RETURNS text LANGUAGE sql AS $$ SELECT 'planted' $$")
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                with db.transaction():
                    db.execute(f"CREATE CAST ({t} AS text) WITH FUNCTION {name}({t})")
        # an enum's owner may plant one
        db.execute("CREATE TYPE public.e AS ENUM ('a')")
        db.execute("CREATE FUNCTION public.f_e(x public.e) RETURNS text LANGUAGE sql AS $$ SELECT 'planted' $$")
        db.execute("CREATE CAST (public.e AS text) WITH FUNCTION public.f_e(public.e)")
        assert db.execute("SELECT 'a'::public.e::text").fetchone()[0] == "planted"


def test_the_planted_casts_and_checks_are_live(hostile):
    db = hostile
    db.execute("SELECT colour::text, mood::text FROM public.paint LIMIT 1")
    db.execute("SELECT 'x'::public.c_text, 1::public.c_int")
    db.execute("SELECT p::text FROM public.paint AS p LIMIT 1")
    got = set(spied(db))
    assert {"cast colour to text", "cast mood to text", "check text", "check integer", "cast paint to text"} <= got


def train_all(db: psycopg.Connection[Any], source: str, prefix: str) -> None:
    for name, args in MODELS.items():
        db.execute(f"SELECT madnb.train('{prefix}_{name}', '{source}', {args})")


def test_no_planted_cast_or_check_runs_in_train_evaluate_cross_validate_predict_or_an_export(hostile):
    db = hostile
    train_all(db, "public.paint", "h")
    assert spied(db) == [], "madnb.train"
    db.execute(
        "SELECT madnb.train('h_dp', 'public.paint', 'mood', features => ARRAY['colour', 'shade', 'size'], epsilon => 1, "
        "bounds => '{\"size\": [0, 6]}', "
        "domain => '{\"mood\": [\"happy\", \"ok\", \"sad\"], \"colour\": [\"blue\", \"green\", \"red\"], \"shade\": [\"light\", \"dark\"]}')"
    )
    assert spied(db) == [], "madnb.train with epsilon"
    for name in MODELS:
        db.execute(f"SELECT madnb.evaluate('h_{name}', 'public.paint')")
        assert spied(db) == [], f"madnb.evaluate of h_{name}"
    # the label column and the features of another type than the model's (text for the enums)
    db.execute("SELECT madnb.evaluate('h_nb', 'public.plain')")
    assert spied(db) == [], "madnb.evaluate of a table of other types"
    for key in ("NULL", "'colour'", "'shade'"):
        db.execute(f"SELECT * FROM madnb.cross_validate('public.paint', 'mood', exclude => ARRAY['id', 'tag', 'counts', 'doc'], "
                   f"folds => 2, key => {key})")
        assert spied(db) == [], f"madnb.cross_validate with key {key}"
    db.execute("SELECT * FROM madnb.cross_validate('public.paint', 'tag', features => ARRAY['colour', 'size'], folds => 3)")
    assert spied(db) == [], "madnb.cross_validate of a domain label"
    db.execute("CREATE VIEW public.paint_v AS SELECT * FROM public.paint")
    for name in [*MODELS, "dp"]:
        for fn in ("predict", "predict_proba", "predict_proba_array"):
            db.execute(f"SELECT madnb_models.h_{name}_{fn}(p) FROM public.paint AS p").fetchall()
            db.execute(f"SELECT madnb_models.h_{name}_{fn}(v) FROM public.paint_v AS v").fetchall()
            assert spied(db) == [], f"the row form of h_{name}_{fn}"
    # the column form, every value given (each a domain's base type, or an enum's label as text)
    db.execute(
        "SELECT madnb_models.h_nb_predict_proba(colour => 'red', size => 3, shade => 'dark', flag => true, "
        "day => '2024-02-28', at => '2024-03-01 11:30', seen => '2024-03-02 10:00+00', "
        "u => '00000000-0000-0000-0000-000000000001', amount => 1.5, weight => 12.5)"
    )
    db.execute("SELECT madnb_models.h_dl_predict(colour => 'blue', shade => 'light', size => 2, day => '2024-02-27')")
    db.execute("SELECT madnb_models.h_vec_predict(counts => ARRAY[1, 2, 0])")
    assert spied(db) == [], "the column form"
    # the exported script, run here in another schema, predicts on the hostile table without a planted cast
    db.execute("CREATE SCHEMA exported")
    for name in MODELS:
        db.execute(db.execute(f"SELECT madnb.model_sql('h_{name}', 'exported.h_{name}')").fetchone()[0])
        db.execute(f"SELECT exported.h_{name}_predict_proba(p) FROM public.paint AS p").fetchall()
    assert spied(db) == [], "an exported script"


def test_a_model_of_hostile_types_predicts_and_evaluates_as_the_model_of_their_plain_types(hostile):
    db = hostile
    train_all(db, "public.paint", "h")
    train_all(db, "public.plain", "p")
    for name in MODELS:
        for fn in ("predict", "predict_proba", "predict_proba_array"):
            # the hostile prediction reaches the client through the enum's output function (no cast)
            want = db.execute(f"SELECT p.id, madnb_models.p_{name}_{fn}(p) FROM public.plain AS p ORDER BY p.id").fetchall()
            got = db.execute(f"SELECT p.id, madnb_models.h_{name}_{fn}(p) FROM public.paint AS p ORDER BY p.id").fetchall()
            assert got == want, f"{name}_{fn}"
        want_m = db.execute(f"SELECT madnb.evaluate('p_{name}', 'public.plain')").fetchone()[0]
        got_m = db.execute(f"SELECT madnb.evaluate('h_{name}', 'public.paint')").fetchone()[0]
        assert got_m == want_m, name
        if name != "dl":  # the enum model on the plain table: labels compared as their texts
            assert db.execute(f"SELECT madnb.evaluate('h_{name}', 'public.plain')").fetchone()[0] == want_m
        assert db.execute(f"SELECT madnb.model_classes('h_{name}')").fetchone() == db.execute(
            f"SELECT madnb.model_classes('p_{name}')").fetchone()
    for key in ("NULL", "'colour'"):
        args = f"'mood', exclude => ARRAY['id', 'tag', 'counts', 'doc'], folds => 2, key => {key}"
        want_cv = db.execute(f"SELECT fold, metrics FROM madnb.cross_validate('public.plain', {args})").fetchall()
        got_cv = db.execute(f"SELECT fold, metrics FROM madnb.cross_validate('public.paint', {args})").fetchall()
        assert got_cv == want_cv
    assert spied(db) == []


def test_the_column_form_takes_base_types_so_a_domain_check_never_runs_for_its_arguments(hostile):
    db = hostile
    train_all(db, "public.paint", "h")
    args = dict(db.execute(
        "SELECT p.proname::text, pg_catalog.pg_get_function_identity_arguments(p.oid) FROM pg_catalog.pg_proc AS p "
        "WHERE p.pronamespace = 'madnb_models'::regnamespace AND p.proname IN ('h_nb_predict', 'h_dl_predict') "
        "AND p.proargtypes[0] <> 'anyelement'::regtype"
    ).fetchall())
    assert args["h_nb_predict"] == (
        "colour text, size integer, shade text, flag boolean, day date, at timestamp without time zone, "
        "seen timestamp with time zone, u uuid, amount numeric, weight double precision"
    )
    assert args["h_dl_predict"] == "colour text, shade text, size integer, day date"
    got = db.execute("SELECT madnb_models.h_dl_predict(colour => 'red', shade => 'dark')").fetchone()[0]
    assert spied(db) == []
    # a domain label's classes are of its base type (a coercion to the domain would run its CHECK)
    assert db.execute(
        "SELECT pg_catalog.pg_typeof(madnb_models.h_dl_predict(colour => 'red'))::text, m.label_type "
        "FROM madnb.models AS m WHERE m.name = 'h_dl'"
    ).fetchone() == ("text", "text")
    assert got in ("x", "y")
    assert spied(db) == []


def test_the_row_form_of_a_model_with_enum_features_is_still_inlined(hostile):
    db = hostile
    train_all(db, "public.paint", "h")
    plan = "\n".join(r[0] for r in db.execute(
        "EXPLAIN (VERBOSE, COSTS OFF) SELECT madnb_models.h_nb_predict_proba(p) FROM public.paint AS p"
    ))
    assert "h_nb_predict_proba" not in plan and "_nb_proba_jsonb" in plan
    assert "format('%s'::text, colour)" in plan  # the enum's label by its output function, in the scan


def test_rows_near_a_tie_are_predicted_again_without_a_planted_cast_or_check(hostile):
    # every feature uninformative and the classes balanced: every row ties, so madnb.evaluate predicts each one
    # again with the column form, from the enum and domain columns it carries beside the probabilities
    db = hostile
    db.execute(
        "CREATE TABLE public.tied AS SELECT (ARRAY['blue', 'green', 'red'])[1 + (i / 3) % 3]::public.colour AS colour, "
        "((i / 9) % 2)::public.c_int AS size, (ARRAY['light', 'dark'])[1 + (i / 18) % 2]::public.c_text AS shade, "
        "(ARRAY['a', 'b', 'c'])[1 + i % 3] AS y FROM generate_series(0, 35) AS i"
    )
    db.execute("TRUNCATE public.spy_log")  # the table's literals went through the planted casts and checks
    db.execute("SELECT madnb.train('h_tie', 'public.tied', 'y', categorical => ARRAY['size'])")
    proba = [r[0] for r in db.execute("SELECT madnb_models.h_tie_predict_proba_array(t) FROM public.tied AS t")]
    assert all(max(p) - min(p) < 1e-12 for p in proba)  # the situation: every row a tie
    got = db.execute("SELECT madnb.evaluate('h_tie', 'public.tied')").fetchone()[0]
    assert spied(db) == []
    pred = [r[0] for r in db.execute("SELECT madnb_models.h_tie_predict(t), t.y FROM public.tied AS t")]
    assert pred == ["a"] * 36  # predict's tie rule: the first class
    assert got["accuracy"] == 12 / 36 and got["confusion_matrix"] == [[12, 0, 0], [12, 0, 0], [12, 0, 0]]
