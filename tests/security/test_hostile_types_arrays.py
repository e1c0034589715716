"""MADlib's array face: casts and domain checks another role defines never run inside madnb (issue 17, A2).

The named-model face's tests (tests/security/test_hostile_types.py) say why: PostgreSQL
picks a cast from pg_cast whatever the search_path says, and only a type's owner
may create one involving it, so a role that owns an enum or a domain plants a
cast (or a logging CHECK) and waits for a superuser to train or classify on its
table.  Here the role owns the class column's enum, the attribute arrays'
element types (an enum and domains with a logging CHECK) and the domain tables
of private training, with casts planted from and to each of them and their
arrays; every MADlib-face call on them runs none of it, and gives what the same
data in plain types gives.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from psycopg import sql
from test_hostile_types import SPY
from test_search_path_hijack import unprivileged_role

from privacy_helpers import use_seeded_noise

TYPES = SPY + """CREATE TYPE public.kind AS ENUM ('a', 'b', 'c');
CREATE TYPE public.colour AS ENUM ('blue', 'green', 'red');
CREATE DOMAIN public.c_text AS text CHECK (public.spy_check(VALUE));
CREATE DOMAIN public.c_int AS integer CHECK (public.spy_check(VALUE));
CREATE DOMAIN public.c_kind AS public.kind CHECK (public.spy_check(VALUE));
"""

# one table per attribute array (each with the enum class), in hostile types and in plain ones
ROWS = """
SELECT i, (ARRAY['a', 'b', 'c'])[1 + (i * 7 + i / 5) % 3]::{kind},
       ARRAY[(ARRAY['blue', 'green', 'red'])[1 + i % 3], CASE WHEN i % 5 = 0 THEN NULL ELSE (ARRAY['red', 'blue'])[1 + i % 2] END]::{colour}[],
       ARRAY[(ARRAY['light', 'dark'])[1 + i % 2], (ARRAY['x', 'y', 'z'])[1 + (i / 3) % 3]]::{c_text}[],
       ARRAY[i % 3, (i * 5) % 4]::{c_int}[],
       ARRAY[i * 1.25 + (i % 3) * 10, CASE WHEN i % 11 = 0 THEN 'NaN' ELSE (i % 7)::float8 END, (i % 2)::float8]::float8[],
       (ARRAY['a', 'b', 'c'])[1 + (i * 7 + i / 5) % 3]::{c_text}
FROM generate_series(1, 48) AS i
"""
COLUMNS = "id int, cls {kind}, a {colour}[], d {c_text}[], k {c_int}[], x float8[], dk {c_text}"
HOSTILE = {"kind": "public.kind", "colour": "public.colour", "c_text": "public.c_text", "c_int": "public.c_int",
           "c_kind": "public.c_kind"}
PLAIN = {"kind": "text", "colour": "text", "c_text": "text", "c_int": "integer", "c_kind": "text"}

# (attribute column, numAttrs, numeric indices or None, class column): every array face shape
SHAPES = {
    "enum": ("a", 2, None, "cls"),
    "domain": ("d", 2, None, "cls"),
    "codes": ("k", 2, None, "cls"),
    "gaussian": ("x", 3, "1,2,3", "cls"),
    "mixed": ("x", 3, "1,2", "cls"),
    "domain_class": ("d", 2, None, "dk"),
}
DOMAIN_ROWS = "(0, 'a'), (0, 'b'), (0, 'c'), (1, 'blue'), (1, 'green'), (1, 'red'), (2, 'red'), (2, 'blue')"
TEXT_DOMAIN_ROWS = "(0, 'a'), (0, 'b'), (0, 'c'), (1, 'light'), (1, 'dark'), (2, 'x'), (2, 'y'), (2, 'z')"


def plant(db: psycopg.Connection[Any], role: str) -> None:
    """As ``role``: the spy, the hostile tables and every cast that role may plant."""
    db.execute(sql.SQL("GRANT CREATE ON SCHEMA public TO {}").format(sql.Identifier(role)))
    db.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(role)))
    db.execute(TYPES)
    db.execute(f"CREATE TABLE public.h ({COLUMNS.format(**HOSTILE)})")
    db.execute(f"INSERT INTO public.h {ROWS.format(**HOSTILE)}")
    db.execute("CREATE TABLE public.h_test AS SELECT * FROM public.h WHERE id % 4 = 0")
    # domain tables whose values are the role's types (attr 0: the class)
    db.execute("CREATE TABLE public.h_dom_enum (attr int, value public.colour)")
    db.execute("CREATE TABLE public.h_dom_text (attr int, value public.c_text)")
    for t, label in (("kind", "a"), ("colour", "red")):
        value, array = f"'{label}'::public.{t}", f"'{{{label}}}'::public.{t}[]"  # literals: no cast
        for src, dst, result in (
            (t, "text", "'planted'::text"), (t, "varchar", "'planted'::varchar"), (f"{t}[]", "text", "'planted'::text"),
            (f"{t}[]", "text[]", "'{planted}'::text[]"), ("text", t, value), ("text[]", f"{t}[]", array),
            ("varchar", t, value),
        ):
            fn = f"public.spy_{src.replace('[]', '_array')}_{dst.replace('[]', '_array')}"
            db.execute(
                f"CREATE FUNCTION {fn}(x {src}) RETURNS {dst} LANGUAGE plpgsql "
                f"AS $$ BEGIN PERFORM public.spy('cast {src} to {dst}'); RETURN {result}; END $$"
            )
            db.execute(f"CREATE CAST ({src} AS {dst}) WITH FUNCTION {fn}({src}) AS ASSIGNMENT")
    db.execute(
        "CREATE FUNCTION public.spy_row(x public.h) RETURNS text LANGUAGE plpgsql "
        "AS $$ BEGIN PERFORM public.spy('cast h to text'); RETURN 'planted'; END $$"
    )
    db.execute("CREATE CAST (public.h AS text) WITH FUNCTION public.spy_row(public.h) AS ASSIGNMENT")
    db.execute("TRUNCATE public.spy_log")
    db.execute("RESET ROLE")


@pytest.fixture
def hostile(db: psycopg.Connection[Any]) -> Iterator[psycopg.Connection[Any]]:
    """The planted table public.h (and h_test) and its twin public.p (p_test) of plain types, the spy log empty."""
    db.execute(f"CREATE TABLE public.p ({COLUMNS.format(**PLAIN)})")
    db.execute(f"INSERT INTO public.p {ROWS.format(**PLAIN)}")
    db.execute("CREATE TABLE public.p_test AS SELECT * FROM public.p WHERE id % 4 = 0")
    db.execute(f"CREATE TABLE public.domain_plain (attr int, value text); INSERT INTO public.domain_plain VALUES {DOMAIN_ROWS}")
    db.execute(f"CREATE TABLE public.domain_text (attr int, value text); INSERT INTO public.domain_text VALUES {TEXT_DOMAIN_ROWS}")
    with unprivileged_role(db, "mallory") as role:
        plant(db, role)
        db.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(role)))
        db.execute(f"INSERT INTO public.h_dom_text VALUES {TEXT_DOMAIN_ROWS}")
        db.execute("RESET ROLE")
        db.execute("TRUNCATE public.spy_log")
        yield db


def spied(db: psycopg.Connection[Any]) -> list[str]:
    return [r[0] for r in db.execute("SELECT what FROM public.spy_log")]


def train(db: psycopg.Connection[Any], src: str, shape: str, prefix: str, extra: str = "") -> None:
    attr, n, numeric, cls = SHAPES[shape]
    if numeric is None:
        db.execute(f"SELECT madnb.create_nb_prepared_data_tables('{src}', '{cls}', '{attr}', {n}, "
                   f"'{prefix}_fp', '{prefix}_cp'{extra})")
    else:
        db.execute(f"SELECT madnb.create_nb_prepared_data_tables('{src}', '{cls}', '{attr}', '{numeric}', {n}, "
                   f"'{prefix}_fp', '{prefix}_np', '{prefix}_cp'{extra})")


def views(db: psycopg.Connection[Any], src: str, test: str, shape: str, prefix: str) -> dict[str, list[Any]]:
    """Create the classify and probs views of the model ``prefix`` and the ad hoc ones on ``src``; their rows."""
    attr, n, numeric, cls = SHAPES[shape]
    np = "" if numeric is None else f", '{prefix}_np'"
    adhoc = f"'{src}', '{cls}', '{attr}', " + ("" if numeric is None else f"'{numeric}', ")
    out = {}
    for kind in ("classify", "probs"):
        db.execute(f"SELECT madnb.create_nb_{kind}_view('{prefix}_fp', '{prefix}_cp', '{test}', 'id', '{attr}', {n}{np}, "
                   f"'{prefix}_{kind}')")
        db.execute(f"SELECT madnb.create_nb_{kind}_view({adhoc}'{test}', 'id', '{attr}', {n}, '{prefix}_adhoc_{kind}')")
        for v in (f"{prefix}_{kind}", f"{prefix}_adhoc_{kind}"):
            # an enum[] reaches the client as its output function's text, a text[] as a list: compare texts
            rows = db.execute(f"SELECT * FROM {v} ORDER BY 1, 2").fetchall()
            out[v.removeprefix(prefix)] = [
                tuple("{" + ",".join(x) + "}" if isinstance(x, list) else x for x in r) for r in rows]
    return out


def model(db: psycopg.Connection[Any], shape: str, prefix: str) -> list[Any]:
    """The model tables' rows, values as their types' output functions write them (format's %s: no cast)."""
    c, v = "format('%s', class)", "format('%s', value)"
    rows = db.execute(f"SELECT {c}, class_cnt, all_cnt FROM {prefix}_cp ORDER BY 1").fetchall()
    rows += db.execute(f"SELECT {c}, attr, {v}, cnt, attr_cnt FROM {prefix}_fp ORDER BY 1, 2, 3").fetchall()
    if SHAPES[shape][2] is not None:
        rows += db.execute(f"SELECT {c}, attr, attr_mean, attr_var FROM {prefix}_np ORDER BY 1, 2").fetchall()
    return rows


@pytest.mark.parametrize("shape", list(SHAPES))
def test_no_planted_cast_or_check_runs_in_training_views_statistics_or_updates_and_the_results_are_the_plain_types(hostile, shape):
    db = hostile
    attr, n, numeric, cls = SHAPES[shape]
    train(db, "public.h", shape, "h")
    assert spied(db) == [], "create_nb_prepared_data_tables"
    got = views(db, "public.h", "public.h_test", shape, "h")
    assert spied(db) == [], "the views (created and selected from)"
    train(db, "public.p", shape, "p")
    assert model(db, shape, "h") == model(db, shape, "p")
    assert got == views(db, "public.p", "public.p_test", shape, "p")
    # statistics tables, a model merged from two parts, an online update of it
    idx = "" if numeric is None else f"'{numeric}', "
    for part, where in (("1", "id <= 30"), ("2", "id > 30")):
        for src in ("h", "p"):
            db.execute(f"CREATE TABLE public.{src}{part} AS SELECT * FROM public.{src} WHERE {where}")
    db.execute("TRUNCATE public.spy_log")
    for src in ("h", "p"):
        for part in ("1", "2"):
            db.execute(f"SELECT madnb.create_nb_statistics('public.{src}{part}', '{cls}', '{attr}', {idx}{n}, '{src}_s{part}')")
        np = "NULL" if numeric is None else f"'{src}m_np'"
        db.execute(f"SELECT madnb.create_nb_model_from_statistics(ARRAY['{src}_s1', '{src}_s2'], '{src}m_fp', {np}, '{src}m_cp')")
        db.execute(f"SELECT madnb.create_nb_model_from_statistics(ARRAY['{src}_s1'], '{src}u_fp', "
                   f"{'NULL' if numeric is None else repr(src + 'u_np')}, '{src}u_cp')")
        db.execute(f"SELECT madnb.update_nb_model('{src}_s2', '{src}u_fp', {'NULL' if numeric is None else repr(src + 'u_np')}, "
                   f"'{src}u_cp')")
        if src == "h":
            assert spied(db) == [], "statistics, a merge and an update"
    assert model(db, shape, "hm") == model(db, shape, "pm")
    assert model(db, shape, "hu") == model(db, shape, "pu")
    if numeric is None:  # counts add up exactly (merged means and variances only up to rounding)
        assert model(db, shape, "hm") == model(db, shape, "hu") == model(db, shape, "p")


@pytest.mark.parametrize("shape", ["enum", "domain", "mixed", "domain_class"])
def test_no_planted_cast_or_check_runs_in_private_training_with_a_domain_table_or_a_private_domain(hostile, shape):
    db = hostile
    attr, n, numeric, cls = SHAPES[shape]
    bounds = "" if numeric is None else ", bounds => '{{0,100},{0,10}}'"
    plain_dom = "public.domain_plain" if attr == "a" else "public.domain_text"
    hostile_doms = {"a": ["public.domain_plain"], "d": ["public.domain_text", "public.h_dom_text"], "x": ["public.domain_text"]}
    for dom in hostile_doms[attr]:
        for src, prefix in (("public.h", "h"), ("public.p", "p")):
            use_seeded_noise(db, 7)
            db.execute("TRUNCATE public.spy_log")
            d = plain_dom if src == "public.p" else dom
            if attr == "x":  # numeric and categorical codes: the domain lists the class only
                d = "public.dom_cls"
                db.execute("CREATE TABLE IF NOT EXISTS public.dom_cls AS SELECT * FROM public.domain_text WHERE attr = 0 "
                           "UNION ALL SELECT 3, v::text FROM generate_series(0, 1) AS v")
            train(db, src, shape, f"{prefix}_{dom.split('.')[1]}", f", epsilon => 1e6{bounds}, domain => '{d}'")
            if src == "public.h":
                assert spied(db) == [], f"private training with domain table {dom}"
            got_views = views(db, src, f"{src}_test", shape, f"{prefix}_{dom.split('.')[1]}")
            if src == "public.h":
                assert spied(db) == [], f"the views of a private model (domain table {dom})"
                hostile_views = got_views
        name = dom.split(".")[1]
        assert model(db, shape, f"h_{name}") == model(db, shape, f"p_{name}")
        assert {k: v for k, v in hostile_views.items() if "adhoc" not in k} == {
            k: v for k, v in got_views.items() if "adhoc" not in k}
    for src, prefix in (("public.h", "h"), ("public.p", "p")):
        use_seeded_noise(db, 11)
        db.execute("TRUNCATE public.spy_log")
        train(db, src, shape, f"{prefix}_priv", f", epsilon => 1e6{bounds}, domain => 'private', delta => 1e-6")
        if src == "public.h":
            assert spied(db) == [], "private training with domain => 'private'"
    assert model(db, shape, "h_priv") == model(db, shape, "p_priv")


def test_a_composite_class_column_is_refused_at_training_with_madnb_own_error(db):
    db.execute("CREATE TYPE public.pair AS (a int, b text)")
    db.execute("CREATE TABLE public.t (c public.pair, x int[])")
    db.execute("INSERT INTO public.t VALUES (ROW(1, 'a'), '{1,2}'), (ROW(2, 'b'), '{2,1}')")
    for call in (
        "madnb.create_nb_prepared_data_tables('public.t', 'c', 'x', 2, 'fp', 'cp')",
        "madnb.create_nb_prepared_data_tables('public.t', 'c', 'x', '', 2, 'fp', 'np', 'cp')",
        "madnb.create_nb_statistics('public.t', 'c', 'x', 2, 's')",
        "madnb.create_nb_classify_view('public.t', 'c', 'x', 'public.t', 'x', 'x', 2, 'v')",
        "madnb.create_nb_prepared_data_tables('public.t', 'c', 'x', 2, 'fp', 'cp', epsilon => 1, "
        "domain => 'private', delta => 1e-6)",
    ):
        with pytest.raises(psycopg.errors.DatatypeMismatch) as e:
            db.execute(f"SELECT {call}")
        assert e.value.diag.sqlstate == "42804"
        assert 'a composite type' in e.value.diag.message_primary
        db.rollback()
    assert db.execute("SELECT pg_catalog.to_regclass('fp'), pg_catalog.to_regclass('cp'), pg_catalog.to_regclass('s')").fetchone() == (
        None, None, None)


def test_statistics_tables_of_domain_types_made_before_merge_and_update_without_running_the_domain_check(hostile):
    """madnb used to keep a domain class's and domain elements' own types in a statistics table (and its header):
    a merge, an update and the views of such tables run no CHECK."""
    db = hostile
    for part, where in (("1", "id <= 30"), ("2", "id > 30")):
        db.execute(f"CREATE TABLE public.p{part} AS SELECT * FROM public.p WHERE {where}")
        db.execute(f"SELECT madnb.create_nb_statistics('public.p{part}', 'dk', 'd', 2, 'old{part}')")
        comment = db.execute(f"SELECT obj_description('old{part}'::regclass, 'pg_class')").fetchone()[0]
        db.execute(f"ALTER TABLE old{part} ALTER cls TYPE public.c_text, ALTER value TYPE public.c_text")
        old = comment.replace('"class_type": "text"', '"class_type": "public.c_text"').replace(
            '"element_type": "text"', '"element_type": "public.c_text"')
        assert old != comment
        db.execute(sql.SQL("COMMENT ON TABLE {} IS {}").format(sql.Identifier(f"old{part}"), sql.Literal(old)))
    db.execute("TRUNCATE public.spy_log")
    db.execute("SELECT madnb.create_nb_model_from_statistics(ARRAY['old1', 'old2'], 'om_fp', NULL, 'om_cp')")
    db.execute("SELECT madnb.create_nb_model_from_statistics(ARRAY['old1'], 'ou_fp', NULL, 'ou_cp')")
    db.execute("SELECT madnb.update_nb_model('old2', 'ou_fp', NULL, 'ou_cp')")
    for kind in ("classify", "probs"):
        db.execute(f"SELECT madnb.create_nb_{kind}_view('ou_fp', 'ou_cp', 'public.h_test', 'id', 'd', 2, 'ou_{kind}')")
        db.execute(f"SELECT * FROM ou_{kind}").fetchall()
    assert spied(db) == []
    train(db, "public.p", "domain_class", "p")
    assert model(db, "domain_class", "om") == model(db, "domain_class", "ou") == model(db, "domain_class", "p")
