"""Objects planted on the caller's search_path never run inside madnb (issue 9, A1).

madnb resolves the names it is given on the caller's search_path, as MADlib
does, but the SQL it generates runs under ``pg_catalog, pg_temp``: every
operator, function and type in it, and in the views (where operators are bound
at CREATE VIEW), is pg_catalog's.  The main test collects the operator,
function and type names from the SQL madnb really generates (auto_explain's
text of every nested statement, and the view definitions), plants in a schema
``evil`` an object of the same name for every signature pg_catalog (or madnb)
has, puts ``evil`` first on the search_path, and runs everything again as a
superuser: no planted object may run, and every model table and view must give
exactly what it gives with an ordinary search_path.
"""

from __future__ import annotations

import contextlib
import json
import re
import secrets
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from psycopg import sql

import madnb
from helpers import MANUAL_GAUSSIAN, MANUAL_TRAINING
from privacy_helpers import use_seeded_noise

# ---------------------------------------------------------------------------
# Data: one table per kind of model and view
# ---------------------------------------------------------------------------

DATA = MANUAL_TRAINING + MANUAL_GAUSSIAN + """
-- text values, varchar classes (the 'dict' lookup; training compares varchar)
CREATE TABLE words (id int, class varchar(8), attributes text[]);
INSERT INTO words VALUES (1, 'spam', '{buy,now,x}'), (2, 'spam', '{buy,later,y}'), (3, 'ham', '{meet,now,x}'),
    (4, 'ham', '{meet,later,NULL}'), (5, 'ham', '{buy,later,x}');
CREATE TABLE words_test (id int, attributes text[]);
INSERT INTO words_test VALUES (1, '{buy,now,y}'), (2, '{meet,soon,x}'), (3, NULL);
-- categorical codes and a Gaussian attribute in one float8[] (mixed)
CREATE TABLE mixed (id int, class text, attributes float8[]);
INSERT INTO mixed SELECT i, CASE WHEN i % 3 = 0 THEN 'b' ELSE 'a' END,
    ARRAY[(i % 4)::float8, 10 + (i % 7) + i / 100.0, (i % 2)::float8] FROM generate_series(1, 60) i;
CREATE TABLE mixed_test (id int, attributes float8[]);
INSERT INTO mixed_test SELECT i, ARRAY[(i % 5)::float8, 9 + i, (i % 3)::float8] FROM generate_series(1, 8) i;
CREATE TABLE mixed_domain (attr int, value text);
INSERT INTO mixed_domain VALUES (0, 'a'), (0, 'b'), (1, '0'), (1, '1'), (1, '2'), (1, '3'), (3, '0'), (3, '1');
-- 130 attributes (more than a view unrolls: the LATERAL form), codes in one range
CREATE TABLE wide (id int, class int, attributes int[]);
INSERT INTO wide SELECT i, i % 2, ARRAY(SELECT (i * j + j / 7) % 3 FROM generate_series(1, 130) j)
    FROM generate_series(1, 24) i;
-- codes in ranges far apart (LATERAL, one slot range per attribute)
CREATE TABLE spread (id int, class int, attributes int[]);
INSERT INTO spread SELECT i, i % 3, ARRAY[1000 + i % 2, 5000 + i % 3, -7000 + i % 4] FROM generate_series(1, 30) i;
-- fractional float values: neither codes nor a dictionary (the 'join' lookup)
CREATE TABLE halves (id int, class int, attributes float8[]);
INSERT INTO halves SELECT i, i % 2, ARRAY[(i % 3) + 0.5, (i % 4) / 4.0] FROM generate_series(1, 20) i;
-- more than 500 classes (the class-rows form): codes, and a Gaussian attribute
CREATE TABLE many (id int, class int, attributes float8[]);
INSERT INTO many SELECT i, i % 600, ARRAY[((i * 7 + i / 600) % 5)::float8, ((i * 11) % 4)::float8,
    (i % 600) / 50.0 + ((i / 600) * 13 % 7)::float8 / 3] FROM generate_series(0, 1799) i;
CREATE TABLE many_test (id int, attributes float8[]);
INSERT INTO many_test SELECT i, ARRAY[(i % 5)::float8, (i % 4)::float8, i / 3.0] FROM generate_series(1, 6) i;
-- the same classes, fractional values (the class-rows form's equality lookup)
CREATE TABLE many_halves (id int, class int, attributes float8[]);
INSERT INTO many_halves SELECT i, i % 600, ARRAY[(i % 3) + 0.5, (i % 4) / 4.0] FROM generate_series(0, 1799) i;
"""

# The calls, with {out} replaced by an output name (unqualified: created in the
# caller's current schema) and sources unqualified (found on the caller's search_path).
PREPARED = [
    ("codes", "'training', 'class', 'attributes', 3, '{fp}', '{cp}'", "'toclassify', 'id', 'attributes', 3", False),
    ("words", "'words', 'class', 'attributes', 3, '{fp}', '{cp}'", "'words_test', 'id', 'attributes', 3", False),
    (
        "gauss", "'gaussian_data', 'sex', 'attributes', 'ARRAY[1,2,3]', 3, '{fp}', '{np}', '{cp}'",
        "'gaussian_test', 'id', 'attributes', 3", True,
    ),
    ("mixed", "'mixed', 'class', 'attributes', '2', 3, '{fp}', '{np}', '{cp}'", "'mixed_test', 'id', 'attributes', 3", True),
    ("wide", "'wide', 'class', 'attributes', 130, '{fp}', '{cp}'", "'wide', 'id', 'attributes', 130", False),
    ("spread", "'spread', 'class', 'attributes', 3, '{fp}', '{cp}'", "'spread', 'id', 'attributes', 3", False),
    ("halves", "'halves', 'class', 'attributes', 2, '{fp}', '{cp}'", "'halves', 'id', 'attributes', 2", False),
    ("many", "'many', 'class', 'attributes', '3', 3, '{fp}', '{np}', '{cp}'", "'many_test', 'id', 'attributes', 3", True),
    ("many_halves", "'many_halves', 'class', 'attributes', 2, '{fp}', '{cp}'", "'halves', 'id', 'attributes', 2", False),
    (
        "private", "'mixed', 'class', 'attributes', '2', 3, '{fp}', '{np}', '{cp}', "
        "epsilon => 2, bounds => '{{5,20}}', domain => 'mixed_domain'",
        "'mixed_test', 'id', 'attributes', 3", True,
    ),
]
ADHOC = [
    ("adhoc_codes", "'training', 'class', 'attributes', 'toclassify', 'id', 'attributes', 3"),
    ("adhoc_words", "'words', 'class', 'attributes', 'words_test', 'id', 'attributes', 3"),
    ("adhoc_mixed", "'mixed', 'class', 'attributes', '2', 'mixed_test', 'id', 'attributes', 3"),
    ("adhoc_gauss", "'gaussian_data', 'sex', 'attributes', '1,2,3', 'gaussian_test', 'id', 'attributes', 3"),
]
SEED = 20261130


def run_workload(conn: psycopg.Connection[Any]) -> list[str]:
    """Train every model and create every view, outputs unqualified; return the output names."""
    outs: list[str] = []
    for name, train, classify, numeric in PREPARED:
        fp, np, cp = f"{name}_fp", f"{name}_np", f"{name}_cp"
        if name == "private":
            use_seeded_noise(conn, SEED)
        conn.execute(f"SELECT madnb.create_nb_prepared_data_tables({train.format(fp=fp, np=np, cp=cp)})")
        outs += [fp, cp] + ([np] if numeric else [])
        for kind in ("classify", "probs"):
            view = f"{name}_{kind}"
            model = f"'{fp}', '{cp}', {classify}" + (f", '{np}'" if numeric else "")
            conn.execute(f"SELECT madnb.create_nb_{kind}_view({model}, '{view}')")
            outs.append(view)
    for name, args in ADHOC:
        for kind in ("classify", "probs"):
            view = f"{name}_{kind}"
            conn.execute(f"SELECT madnb.create_nb_{kind}_view({args}, '{view}')")
            outs.append(view)
    # secure aggregation: two owners' shares, two share sums, the model (the shares are random: not compared)
    for owner in ("mixed", "mixed_test_owner"):
        if owner != "mixed":
            conn.execute(f"CREATE TABLE IF NOT EXISTS public.{owner} AS SELECT * FROM public.mixed WHERE id % 2 = 0")
        conn.execute(f"SELECT madnb.create_nb_statistics_shares('public.{owner}', 'class', 'attributes', '2', 3, "
                     f"ARRAY['{owner}_sh1', '{owner}_sh2'], bounds => '{{0,30}}', domain => 'public.mixed_domain')")
    for j in (1, 2):
        conn.execute(f"SELECT madnb.create_nb_share_sum(ARRAY['mixed_sh{j}', 'mixed_test_owner_sh{j}'], 'mixed_sum{j}')")
    conn.execute("SELECT madnb.create_nb_model_from_shares(ARRAY['mixed_sum1', 'mixed_sum2'], 'secure_fp', 'secure_np', 'secure_cp')")
    outs += ["secure_fp", "secure_np", "secure_cp"]
    # named models from statistics tables and from the share sums (in madnb_models: replaced on the second run)
    conn.execute("SELECT madnb.create_nb_statistics('public.mixed', 'class', 'attributes', '2', 3, 'mixed_stats')")
    conn.execute("SELECT madnb.train_from_statistics('hijack_from_stats', ARRAY['mixed_stats'], replace => true)")
    conn.execute("SELECT madnb.train_from_statistics('hijack_from_shares', ARRAY['mixed_sum1', 'mixed_sum2'], replace => true)")
    outs.append("mixed_stats")
    return outs


def read_outputs(conn: psycopg.Connection[Any], schema: str, outs: list[str]) -> dict[str, list[tuple[Any, ...]]]:
    """Every output's rows, sorted in Python (the query itself uses no operator)."""

    def key(row: tuple[Any, ...]) -> tuple[str, ...]:
        return tuple(repr(v) for v in row)

    return {
        o: sorted(conn.execute(sql.SQL("SELECT * FROM {}").format(sql.Identifier(schema, o))).fetchall(), key=key)
        for o in outs
    }


# ---------------------------------------------------------------------------
# What madnb generates: operator, function and type names from the SQL text
# ---------------------------------------------------------------------------

_OP_CHARS = set("+-*/<>=~!@#%^&|`?")
_IDENT = re.compile(r"[A-Za-z_\u0080-\uffff][A-Za-z0-9_$\u0080-\uffff]*")
_NUMBER = re.compile(r"(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def sql_tokens(text: str) -> Iterator[tuple[str, str]]:
    """(kind, value) tokens of SQL text with PostgreSQL's lexical rules (kinds: ident, op, punct).

    Literals, numbers, parameters and comments are skipped, dollar-quoted bodies read
    (PL/pgSQL, migrations) unless their tag says PL/Python; unquoted identifiers are
    folded to lower case; an operator token loses trailing + and - as the server's
    lexer does (``=-1`` is ``=`` then ``-``).
    """
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
        elif text.startswith("--", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif ch == "'":
            escapes = i > 0 and text[i - 1] in "eE"
            j = i + 1
            while j < n:
                if escapes and text[j] == "\\":
                    j += 2
                elif text[j] == "'" and text[j + 1 : j + 2] == "'":
                    j += 2
                elif text[j] == "'":
                    break
                else:
                    j += 1
            i = j + 1
        elif ch == '"':
            j = i + 1
            while j < n and not (text[j] == '"' and text[j + 1 : j + 2] != '"'):
                j += 2 if text[j] == '"' else 1
            yield "ident", text[i + 1 : j].replace('""', '"')
            i = j + 1
        elif ch == "$":
            m = re.match(r"\$(\d+|[A-Za-z_]\w*\$|\$)", text[i:])
            if m and m.group(1)[-1] == "$":  # dollar quote: SQL bodies are read, PL/Python ones skipped
                tag = m.group(0)
                j = text.find(tag, i + len(tag))
                if not tag.startswith("$python"):
                    yield from sql_tokens(text[i + len(tag) : n if j < 0 else j])
                i = n if j < 0 else j + len(tag)
            else:
                i += len(m.group(0)) if m else 1
        elif ch.isdigit() or (ch == "." and text[i + 1 : i + 2].isdigit()):
            m = _NUMBER.match(text, i)
            assert m is not None
            i = m.end()
        elif _IDENT.match(text, i):
            m = _IDENT.match(text, i)
            assert m is not None
            word = m.group(0)
            i = m.end()
            if i < n and text[i] == "'":  # E'...' and similar prefixes: the literal follows
                continue
            yield "ident", word.lower()
        elif ch in _OP_CHARS:
            j = i
            while j < n and text[j] in _OP_CHARS and not text.startswith("--", j) and not text.startswith("/*", j):
                j += 1
            op = text[i:j]
            if not set(op) & set("~!@#%^&|`?"):
                while len(op) > 1 and op[-1] in "+-":
                    op = op[:-1]
            yield "op", op
            i += len(op)
        else:
            yield "punct", ch
            i += 1


def names_in(texts: list[str]) -> tuple[set[str], set[str], set[str]]:
    """Operator names, function names (any identifier called like one) and unqualified cast type names."""
    ops: set[str] = set()
    funcs: set[str] = set()
    types: set[str] = set()
    for text in texts:
        toks = list(sql_tokens(text))
        for k, (kind, value) in enumerate(toks):
            nxt = toks[k + 1] if k + 1 < len(toks) else ("", "")
            if kind == "op":
                ops.add(value)
            elif kind == "ident" and nxt == ("punct", "("):
                funcs.add(value)
            elif (
                kind == "ident" and k >= 2 and toks[k - 1] == ("punct", ":") and toks[k - 2] == ("punct", ":")
                and nxt != ("punct", ".")
            ):
                types.add(value)
    return ops, funcs, types


def generated_sql(conn: psycopg.Connection[Any], action: Any) -> list[str]:
    """The text of every statement executed during ``action()`` (auto_explain, nested ones included)."""
    texts: list[str] = []

    def collect(d: psycopg.errors.Diagnostic) -> None:
        msg = d.message_primary or ""
        if msg.startswith("duration:"):
            texts.append(json.loads(msg.split("\n", 1)[1])["Query Text"])

    conn.execute("LOAD 'auto_explain'")
    for setting, value in [
        ("auto_explain.log_min_duration", "0"), ("auto_explain.log_nested_statements", "on"),
        ("auto_explain.log_level", "notice"), ("auto_explain.log_format", "json"),
    ]:
        conn.execute("SELECT set_config(%s, %s, false)", (setting, value))
    conn.add_notice_handler(collect)
    try:
        action()
    finally:
        conn.remove_notice_handler(collect)
        conn.execute("SET auto_explain.log_min_duration = -1")
    return texts


# ---------------------------------------------------------------------------
# The planted objects
# ---------------------------------------------------------------------------

# argument and result types PL/pgSQL cannot declare: objects with them are not planted
UNPLANTABLE_TYPES = {'"any"', "internal", "cstring", "trigger", "event_trigger", "language_handler", "fdw_handler",
                     "index_am_handler", "tsm_handler", "table_am_handler"}
# The issue's three examples (name, left, right, result): no pg_catalog operator has these
# signatures, so they win even behind pg_catalog on the path.
ISSUE_OPERATORS = [
    ("/", "double precision", "bigint", "double precision"),
    ("=", "character varying", "character varying", "boolean"),
    ("||", "integer[]", "integer[]", "integer[]"),
]


def _body(what: str) -> str:
    """A PL/pgSQL body that counts the call (a sequence: no rollback undoes it), then fails."""
    return (
        "$planted$BEGIN PERFORM pg_catalog.nextval('evil.planted_calls'::pg_catalog.regclass); "
        f"RAISE EXCEPTION 'planted % ran', {psycopg.sql.quote(what)}; END$planted$"
    )


class Planter:
    """Creates the planted objects as the attacker, remembering what could not be planted and why."""

    def __init__(self, conn: psycopg.Connection[Any]):
        self.conn = conn
        self.planted: list[str] = []
        self.skipped: list[tuple[str, str]] = []
        self._n = 0

    def _try(self, what: str, statements: list[str], last: bool = True) -> bool:
        try:
            with self.conn.transaction():
                for s in statements:
                    self.conn.execute(s)
            self.planted.append(what)
            return True
        except psycopg.Error as e:
            if last:
                self.skipped.append((what, str(e).splitlines()[0]))
            return False

    def helper_name(self) -> str:
        self._n += 1
        return f"evil.planted_{self._n}"

    def operator(self, name: str, left: str | None, right: str, result: str) -> None:
        what = f"operator {name}({left or 'NONE'}, {right})"
        f = self.helper_name()
        params = ", ".join(t for t in (left, right) if t)
        args = (f"LEFTARG = {left}, " if left else "") + f"RIGHTARG = {right}"
        self._try(what, [
            f"CREATE FUNCTION {f}({params}) RETURNS {result} LANGUAGE plpgsql AS {_body(what)}",
            f"CREATE OPERATOR evil.{name} ({args}, FUNCTION = {f})",
        ])

    def function(self, name: str, kind: str, agg_kind: str | None, args: str, identity: str, result: str) -> None:
        what = f"function {name}({identity})"
        if kind == "w" or agg_kind not in (None, "n"):
            self.skipped.append((what, "window and ordered-set aggregates cannot be written in PL/pgSQL"))
            return
        if kind == "a":
            f, g = self.helper_name(), self.helper_name()
            agg = f"CREATE AGGREGATE evil.{sql_ident(name)}({identity or '*'})"
            if self._try(what, [
                f"CREATE FUNCTION {f}(s {result}{', ' + identity if identity else ''}) RETURNS {result} "
                f"LANGUAGE plpgsql AS {_body(what)}",
                f"{agg} (SFUNC = {f}, STYPE = {result})",
            ], last=False):
                return
            # a polymorphic state the server does not accept as such (anyenum): an array state and a final function
            self._try(what, [
                f"CREATE FUNCTION {f}(s anyarray{', ' + identity if identity else ''}) RETURNS anyarray "
                f"LANGUAGE plpgsql AS {_body(what)}",
                f"CREATE FUNCTION {g}(s anyarray) RETURNS {result} LANGUAGE plpgsql AS {_body(what)}",
                f"{agg} (SFUNC = {f}, STYPE = anyarray, FINALFUNC = {g})",
            ])
            return
        self._try(what, [
            f"CREATE FUNCTION evil.{sql_ident(name)}({args}) RETURNS {result} LANGUAGE plpgsql AS {_body(what)}"
        ])

    def domain(self, name: str) -> None:
        what = f"type {name}"
        self._try(what, [
            f"CREATE DOMAIN evil.{sql_ident(name)} AS pg_catalog.{sql_ident(name)} CHECK (evil.planted_check(VALUE))"
        ])


def sql_ident(name: str) -> str:
    return psycopg.sql.Identifier(name).as_string(None)


def plant(conn: psycopg.Connection[Any], ops: set[str], funcs: set[str], types: set[str], attacker: str) -> Planter:
    """Create schema evil (the attacker's) with an object for every pg_catalog / madnb signature of the names."""
    conn.execute(sql.SQL("CREATE SCHEMA evil AUTHORIZATION {}").format(sql.Identifier(attacker)))
    (path,) = conn.execute("SELECT current_setting('search_path')").fetchone()
    conn.execute("SET search_path = pg_catalog")  # the type names below mean pg_catalog's
    op_rows = conn.execute(
        "SELECT o.oprname, CASE WHEN o.oprleft = 0 THEN NULL ELSE format_type(o.oprleft, NULL) END, "
        "format_type(o.oprright, NULL), format_type(o.oprresult, NULL) FROM pg_operator AS o "
        "WHERE o.oprnamespace = 'pg_catalog'::regnamespace AND o.oprname = ANY (%s) ORDER BY 1, 2, 3",
        (sorted(ops),),
    ).fetchall()
    fn_rows = conn.execute(
        "SELECT p.proname, p.prokind, a.aggkind, pg_get_function_arguments(p.oid), "
        "pg_get_function_identity_arguments(p.oid), pg_get_function_result(p.oid) "
        "FROM pg_proc AS p LEFT JOIN pg_aggregate AS a ON a.aggfnoid = p.oid "
        "WHERE p.pronamespace::regnamespace::text IN ('pg_catalog', 'madnb') AND p.proname = ANY (%s) "
        "ORDER BY 1, 4",
        (sorted(funcs),),
    ).fetchall()
    type_rows = conn.execute(
        "SELECT t.typname FROM pg_type AS t WHERE t.typnamespace = 'pg_catalog'::regnamespace "
        "AND t.typname = ANY (%s) AND t.typtype = 'b' ORDER BY 1",
        (sorted(types | {"text", "oid", "name", "int8", "int4", "float8", "bool", "numeric"}),),
    ).fetchall()
    conn.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(attacker)))
    try:
        conn.execute("CREATE SEQUENCE evil.planted_calls")
        conn.execute("GRANT USAGE ON SCHEMA evil TO PUBLIC")
        conn.execute("GRANT USAGE, UPDATE ON SEQUENCE evil.planted_calls TO PUBLIC")
        conn.execute(
            f"CREATE FUNCTION evil.planted_check(anyelement) RETURNS boolean LANGUAGE plpgsql AS {_body('a domain check')}"
        )
        p = Planter(conn)
        for name, left, right, result in op_rows + ISSUE_OPERATORS:
            if {left, right, result} & UNPLANTABLE_TYPES:
                p.skipped.append((f"operator {name}({left}, {right})", "pseudo-type argument"))
            else:
                p.operator(name, left, right, result)
        for name, kind, agg_kind, args, identity, result in fn_rows:
            if any(t in f" {args} {result}".replace(",", " ").replace("(", " ").split() for t in UNPLANTABLE_TYPES):
                p.skipped.append((f"function {name}({identity})", "pseudo-type argument or result"))
            else:
                p.function(name, kind, agg_kind, args, identity, result)
        for (typname,) in type_rows:
            p.domain(typname)
    finally:
        conn.execute("RESET ROLE")
        conn.execute("SELECT set_config('search_path', %s, false)", (path,))
    return p


def planted_calls(conn: psycopg.Connection[Any]) -> int:
    last, called = conn.execute("SELECT last_value, is_called FROM evil.planted_calls").fetchone()
    return int(last) if called else 0


@contextlib.contextmanager
def unprivileged_role(conn: psycopg.Connection[Any], prefix: str) -> Iterator[str]:
    """A role without privileges (cluster-wide, so with a unique name), dropped afterwards with what it owns."""
    role = prefix + "_" + secrets.token_hex(4)
    conn.execute(sql.SQL("CREATE ROLE {} NOLOGIN NOSUPERUSER").format(sql.Identifier(role)))
    try:
        yield role
    finally:
        conn.execute("RESET ROLE")
        conn.execute("RESET search_path")
        conn.execute(sql.SQL("DROP OWNED BY {} CASCADE").format(sql.Identifier(role)))
        conn.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(role)))


@pytest.fixture
def attacker(db: psycopg.Connection[Any]) -> Iterator[str]:
    with unprivileged_role(db, "mallory") as role:
        yield role


# ---------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------


def test_no_operator_function_or_type_planted_ahead_of_pg_catalog_ever_runs(db, attacker):
    db.execute(DATA)
    # statistics now, not by autovacuum between the two runs: the same plans release the
    # private model's cells in the same order, so the seeded noise lands on the same cells
    db.execute("ANALYZE")
    db.execute("CREATE SCHEMA ref")
    db.execute("SET search_path = ref, public, madnb")
    outs: list[str] = []
    texts = generated_sql(db, lambda: outs.extend(run_workload(db)))
    for o in outs:
        (viewdef,) = db.execute(
            "SELECT pg_get_viewdef(c.oid) FROM pg_class AS c WHERE c.oid = to_regclass(%s) AND c.relkind = 'v'",
            ("ref." + o,),
        ).fetchone() or (None,)
        if viewdef is not None:
            texts.append(viewdef)
    expected = read_outputs(db, "ref", outs)
    # the class-rows form is in the workload, with its codes and its equality lookups
    assert any("generate_series(1, 600)" in t and "m.lut[1:600]" in t for t in texts)
    assert any("generate_series(1, 600)" in t and "cat_attr" in t for t in texts)

    ops, funcs, types = names_in(texts)
    # the collection sees what madnb runs: training, scoring, private release, checks
    assert {"=", "<>", "<=", ">=", "<", ">", "+", "-", "*", "/", "||", "->", "^", "&", ">>"} <= ops
    assert {"unnest", "ln", "exp", "count", "sum", "array_agg", "generate_series", "_dp_laplace_array", "_check_class_count"} <= funcs
    p = plant(db, ops, funcs, types, attacker)
    assert len(p.planted) > 400, p.skipped
    # what is left out: objects whose arguments PL/pgSQL cannot declare ("any", internal), window functions
    assert all(why in ("pseudo-type argument", "pseudo-type argument or result")
               or why.startswith("window") for _, why in p.skipped), p.skipped

    # the planted objects do run where PostgreSQL resolves these names through the path
    db.execute("SET search_path = evil, pg_catalog, public, madnb")
    for probe in ["SELECT 1::float8 / 2::int8", "SELECT 'a'::varchar = 'b'::varchar", "SELECT ARRAY[1] || ARRAY[2]",
                  "SELECT 1 = 1", "SELECT count(*) FROM (SELECT 1) AS s", "SELECT '1'::int8"]:
        with pytest.raises(psycopg.errors.RaiseException, match="planted"):
            db.execute(probe)
    before = planted_calls(db)

    run_workload(db)  # outputs land in evil, the first schema on the path
    got = read_outputs(db, "evil", outs)
    assert planted_calls(db) == before
    db.execute("SET search_path = public, madnb")
    assert got == expected
    # what the views are bound to: pg_catalog's and madnb's operators and functions only
    foreign = db.execute(
        "SELECT DISTINCT v.relname, d.refobjid::regoperator::text FROM pg_depend AS d "
        "JOIN pg_rewrite AS r ON r.oid = d.objid AND d.classid = 'pg_rewrite'::regclass "
        "JOIN pg_class AS v ON v.oid = r.ev_class AND v.relnamespace = 'evil'::regnamespace "
        "JOIN pg_operator AS o ON o.oid = d.refobjid AND d.refclassid = 'pg_operator'::regclass "
        "WHERE o.oprnamespace <> 'pg_catalog'::regnamespace "
        "UNION ALL SELECT DISTINCT v.relname, d.refobjid::regprocedure::text FROM pg_depend AS d "
        "JOIN pg_rewrite AS r ON r.oid = d.objid AND d.classid = 'pg_rewrite'::regclass "
        "JOIN pg_class AS v ON v.oid = r.ev_class AND v.relnamespace = 'evil'::regnamespace "
        "JOIN pg_proc AS f ON f.oid = d.refobjid AND d.refclassid = 'pg_proc'::regclass "
        "WHERE f.pronamespace NOT IN ('pg_catalog'::regnamespace, 'madnb'::regnamespace)"
    ).fetchall()
    assert foreign == []


def test_the_issues_division_operator_does_not_make_its_author_a_superuser(db):
    """The issue's reproduction: a role with CREATE on public plants /(float8, bigint)."""
    db.execute(MANUAL_GAUSSIAN)
    with unprivileged_role(db, "alice") as alice:
        a = sql.Identifier(alice)
        db.execute(sql.SQL("GRANT CREATE ON SCHEMA public TO {}").format(a))
        db.execute(sql.SQL("SET ROLE {}").format(a))
        db.execute(
            sql.SQL(
                "CREATE FUNCTION public.evil_div(float8, bigint) RETURNS float8 LANGUAGE plpgsql AS "
                "$$BEGIN EXECUTE 'ALTER ROLE {} SUPERUSER'; RETURN $1 / $2::float8; END$$"
            ).format(a)
        )
        db.execute("CREATE OPERATOR public./ (LEFTARG = float8, RIGHTARG = bigint, FUNCTION = public.evil_div)")
        db.execute("RESET ROLE")
        # a superuser, with an ordinary search_path, trains and creates and reads views
        db.execute(
            "SELECT madnb.create_nb_prepared_data_tables('gaussian_data', 'sex', 'attributes', '1,2,3', 3, 'fp', 'np', 'cp')"
        )
        for kind in ("classify", "probs"):
            db.execute(f"SELECT madnb.create_nb_{kind}_view('fp', 'cp', 'gaussian_test', 'id', 'attributes', 3, 'np', 'v_{kind}')")
            db.execute(f"SELECT madnb.create_nb_{kind}_view('gaussian_data', 'sex', 'attributes', '1,2,3', 'gaussian_test', "
                       f"'id', 'attributes', 3, 'adhoc_{kind}')")
        # MADlib's manual: (5.8, 180, 11) is class 1, (5, 160, 6) class 2
        assert db.execute("SELECT key, nb_classification FROM v_classify ORDER BY key").fetchall() == [(9, [1]), (10, [2])]
        assert db.execute("SELECT key, nb_classification FROM adhoc_classify ORDER BY key").fetchall() == [(9, [1]), (10, [2])]
        for view in ("v_probs", "adhoc_probs"):
            sums = db.execute(f"SELECT key, sum(nb_prob) FROM {view} GROUP BY key ORDER BY key").fetchall()
            assert [k for k, _ in sums] == [9, 10] and all(abs(p - 1) < 1e-12 for _, p in sums)
        assert db.execute("SELECT rolsuper FROM pg_roles WHERE rolname = %s", (alice,)).fetchone()[0] is False
        # and nothing madnb created is bound to the planted operator
        assert db.execute(
            "SELECT count(*) FROM pg_depend WHERE refclassid = 'pg_operator'::regclass "
            "AND refobjid = 'public./(float8, bigint)'::regoperator AND classid <> 'pg_operator'::regclass"
        ).fetchone()[0] == 0


def test_names_are_resolved_on_the_callers_search_path_which_is_back_after_every_call(db):
    db.execute("CREATE SCHEMA other")
    db.execute("SET search_path = other, madnb")
    db.execute(MANUAL_TRAINING)  # created in other, the current schema
    db.execute("SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp')")
    db.execute("SELECT madnb.create_nb_classify_view('fp', 'cp', 'toclassify', 'id', 'attributes', 3, 'v')")
    assert db.execute("SELECT to_regclass('other.fp') IS NOT NULL, to_regclass('other.v') IS NOT NULL").fetchone() == (
        True, True)
    assert db.execute("SHOW search_path").fetchone()[0] == "other, madnb"
    with db.transaction():
        db.execute("SET LOCAL search_path = other, public, madnb")
        db.execute("SELECT madnb.create_nb_probs_view('fp', 'cp', 'toclassify', 'id', 'attributes', 3, 'p')")
        assert db.execute("SHOW search_path").fetchone()[0] == "other, public, madnb"
        # a failed call rolled back to a savepoint, or caught by PL/pgSQL, leaves the caller's path too
        with pytest.raises(psycopg.errors.DuplicateTable):
            with db.transaction():
                db.execute("SELECT madnb.create_nb_probs_view('fp', 'cp', 'toclassify', 'id', 'attributes', 3, 'p')")
        assert db.execute("SHOW search_path").fetchone()[0] == "other, public, madnb"
        db.execute(
            "DO $$BEGIN PERFORM madnb.create_nb_probs_view('fp', 'cp', 'toclassify', 'id', 'attributes', 3, 'p'); "
            "EXCEPTION WHEN duplicate_table THEN NULL; END$$"
        )
        assert db.execute("SHOW search_path").fetchone()[0] == "other, public, madnb"
    assert db.execute("SHOW search_path").fetchone()[0] == "other, madnb"


TYPED = """
CREATE TYPE answer AS ENUM ('yes', 'no');  -- enum order differs from text order
CREATE DOMAIN word AS text CHECK (VALUE <> '');
CREATE TABLE plain (id int, class text, attributes text[]);
INSERT INTO plain VALUES (1, 'yes', '{sun,warm}'), (2, 'yes', '{sun,cold}'), (3, 'no', '{rain,cold}'),
    (4, 'no', '{rain,warm}'), (5, 'no', '{sun,cold}'), (6, 'yes', '{cloud,warm}');
CREATE TABLE plain_test (id int, attributes text[]);
INSERT INTO plain_test VALUES (1, '{sun,warm}'), (2, '{rain,cold}'), (3, '{fog,warm}'), (4, '{cloud,NULL}');
CREATE TABLE typed AS SELECT id, class::answer AS class, attributes::word[] AS attributes FROM plain;
CREATE TABLE typed_test AS SELECT id, attributes::word[] AS attributes FROM plain_test;
CREATE TABLE typed_domain (attr int, value text);
INSERT INTO typed_domain VALUES (0, 'yes'), (0, 'no'), (1, 'sun'), (1, 'rain'), (1, 'cloud'), (2, 'warm'), (2, 'cold');
"""


def test_enum_classes_and_domain_values_from_outside_pg_catalog_train_and_score_as_their_text_does(db):
    db.execute(TYPED)
    # an ad hoc view's 'join' form is costed at millions on these tiny tables, and JIT would compile it (~1 s)
    db.execute("SET jit = off")
    # the types are on the caller's path (public): where madnb writes their names, they must be qualified
    for t in ("plain", "typed"):
        db.execute(f"SELECT madnb.create_nb_prepared_data_tables('{t}', 'class', 'attributes', 2, '{t}_fp', '{t}_cp')")
        for kind in ("classify", "probs"):
            db.execute(f"SELECT madnb.create_nb_{kind}_view('{t}_fp', '{t}_cp', '{t}_test', 'id', 'attributes', 2, "
                       f"'{t}_{kind}')")
            db.execute(f"SELECT madnb.create_nb_{kind}_view('{t}', 'class', 'attributes', '{t}_test', 'id', "
                       f"'attributes', 2, '{t}_adhoc_{kind}')")
    # a domain's values are kept as its base type (a coercion to the domain would run its CHECK: issue 17, A2)
    assert db.execute(
        "SELECT format_type(a.atttypid, a.atttypmod) FROM pg_attribute AS a WHERE a.attrelid = 'typed_fp'::regclass "
        "AND a.attname IN ('class', 'value') ORDER BY a.attnum"
    ).fetchall() == [("answer",), ("text",)]

    def rows(q: str) -> list[tuple[Any, ...]]:
        return sorted(db.execute(q).fetchall())

    assert rows("SELECT class::text, class_cnt, all_cnt FROM typed_cp") == rows("SELECT * FROM plain_cp")
    assert rows("SELECT class::text, attr, value::text, cnt, attr_cnt, smoothing FROM typed_fp") == rows(
        "SELECT * FROM plain_fp")
    for v in ("classify", "adhoc_classify"):
        typed = rows(f"SELECT key, nb_classification::text[] FROM typed_{v}")
        assert typed == rows(f"SELECT key, nb_classification FROM plain_{v}")
        assert len(typed) == 4
    for v in ("probs", "adhoc_probs"):
        typed = rows(f"SELECT key, class::text, nb_prob FROM typed_{v}")
        plain = rows(f"SELECT key, class, nb_prob FROM plain_{v}")
        assert [r[:2] for r in typed] == [r[:2] for r in plain] and len(typed) == 8
        assert all(abs(a[2] - b[2]) < 1e-12 for a, b in zip(typed, plain))
    # a private model of these types takes its domain from a text table
    db.execute("SELECT madnb.create_nb_prepared_data_tables('typed', 'class', 'attributes', 2, 'dp_fp', 'dp_cp', "
               "epsilon => 1, domain => 'typed_domain')")
    assert rows("SELECT class::text FROM dp_cp") == [("no",), ("yes",)]
    assert db.execute("SELECT count(*) FROM dp_fp").fetchone()[0] == 2 * 5


def test_a_type_with_its_own_equality_outside_pg_catalog_is_refused_with_0A000(db):
    if not db.execute("SELECT count(*) FROM pg_available_extensions WHERE name = 'citext'").fetchone()[0]:
        pytest.skip("citext is not available on this server")
    db.execute("CREATE EXTENSION citext")
    db.execute(MANUAL_TRAINING)
    db.execute("CREATE DOMAIN label AS citext")
    db.execute("CREATE TABLE ci (id int, class citext, dclass label, attributes citext[], codes int[])")
    db.execute("INSERT INTO ci VALUES (1, 'Yes', 'Yes', '{Red}', '{1}'), (2, 'yes', 'yes', '{red}', '{2}')")
    db.execute("SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp')")
    calls = [
        "SELECT madnb.create_nb_prepared_data_tables('ci', 'class', 'codes', 1, 'a_fp', 'a_cp')",
        "SELECT madnb.create_nb_prepared_data_tables('ci', 'dclass', 'codes', 1, 'a_fp', 'a_cp')",
        "SELECT madnb.create_nb_prepared_data_tables('ci', 'id', 'attributes', 1, 'a_fp', 'a_cp')",
        "SELECT madnb.create_nb_classify_view('fp', 'cp', 'ci', 'id', 'attributes', 3, 'a_v')",
        "SELECT madnb.create_nb_probs_view('ci', 'id', 'codes', 'ci', 'id', 'attributes', 1, 'a_v')",
    ]
    for call in calls:
        with pytest.raises(psycopg.errors.FeatureNotSupported) as e:
            db.execute(call)
        assert re.search(r"of type public\.(citext|label), whose equality is defined in schema public, not in pg_catalog",
                         e.value.diag.message_primary)
        assert e.value.diag.message_hint
    assert db.execute("SELECT to_regclass('a_fp') IS NULL AND to_regclass('a_v') IS NULL").fetchone()[0]
    # a citext key is only passed through: it is accepted
    db.execute("CREATE TABLE ci_test AS SELECT class AS k, codes || 0 || 0 AS attributes FROM ci")
    db.execute("SELECT madnb.create_nb_classify_view('fp', 'cp', 'ci_test', 'k', 'attributes', 3, 'ok')")
    assert db.execute("SELECT count(*) FROM ok").fetchone()[0] == 2


def test_installing_under_a_search_path_with_planted_operators_binds_only_pg_catalogs(empty_db):
    url, conn = empty_db
    texts = generated_sql(conn, lambda: (madnb.install(conn), madnb.uninstall(conn))) + [madnb.build_script()]
    ops, funcs, types = names_in(texts)
    assert {"=", ">", "/", "-", "*"} <= ops
    with unprivileged_role(conn, "mallory") as attacker:
        plant(conn, ops, funcs, types, attacker)
        conn.execute("SET search_path = evil, pg_catalog, public")
        madnb.install(conn)
        assert madnb.version(conn).installed == madnb.__version__
        assert planted_calls(conn) == 0
        conn.execute("RESET search_path")
        # views, CHECK constraints, defaults and indexes of madnb are bound to pg_catalog's operators and functions
        assert conn.execute(
            "SELECT pg_describe_object(d.classid, d.objid, d.objsubid), pg_describe_object(d.refclassid, d.refobjid, 0) "
            "FROM pg_depend AS d "
            "LEFT JOIN pg_operator AS o ON d.refclassid = 'pg_operator'::regclass AND o.oid = d.refobjid "
            "LEFT JOIN pg_proc AS p ON d.refclassid = 'pg_proc'::regclass AND p.oid = d.refobjid "
            "LEFT JOIN pg_type AS t ON d.refclassid = 'pg_type'::regclass AND t.oid = d.refobjid "
            "WHERE COALESCE(o.oprnamespace, p.pronamespace, t.typnamespace) = 'evil'::regnamespace "
            "AND d.classid NOT IN ('pg_operator'::regclass, 'pg_proc'::regclass, 'pg_type'::regclass) "
            "AND NOT EXISTS (SELECT 1 FROM pg_constraint AS c WHERE d.classid = 'pg_constraint'::regclass "
            "AND c.oid = d.objid AND c.contypid <> 0)"  # the planted domains' own checks
        ).fetchall() == []
        conn.execute("SET search_path = evil, pg_catalog, public")
        conn.execute(MANUAL_TRAINING.replace("CREATE TABLE ", "CREATE TABLE public."))
        conn.execute("SELECT madnb.set_privacy_budget('public.training', 10)")
        conn.execute("SELECT madnb.create_nb_prepared_data_tables('public.training', 'class', 'attributes', 3, "
                     "'public.fp', 'public.cp', epsilon => 1, domain => 'observed')")
        assert conn.execute("SELECT releases FROM madnb.privacy_budget_status").fetchone()[0] == 1
        madnb.uninstall(conn, cascade=True)
        assert planted_calls(conn) == 0
