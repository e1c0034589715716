"""Build the one self-contained install script from sql/, plpython/ and migrations/.

The same script serves every install path:

* ``CREATE EXTENSION madnb`` (``make install`` copies it, with ``madnb.control``,
  where the server finds it; PostgreSQL skips the ``\\echo`` guard line);
* ``madnb install --dsn ...`` applies it over a plain connection after
  ``CREATE SCHEMA IF NOT EXISTS madnb``, so nothing is needed on the database host
  but PostgreSQL with ``plpython3u``;
* ``madnb build-script --psql`` wraps that same text for a DBA's ``psql -f``
  (:func:`psql_script`): one transaction, no psql meta-commands.

Layout of the script: a migration runner (each file of ``migrations/`` runs
exactly once, recorded with its hash in ``madnb._migrations``), the PL/Python
loader (the ``plpython/madnb_pl`` package embedded as source), then the
idempotent files of ``sql/`` in name order with each ``#@madnb-prelude`` line
replaced by the loader call.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from ._version import __version__

PRELUDE_MARK = "#@madnb-prelude"
RERAISE_MARK = "--@madnb-reraise"
# What RERAISE_MARK expands to: the exception handler of a public PL/pgSQL wrapper.
# It re-raises an error of the internal PL/Python function it calls with the same
# SQLSTATE, message, DETAIL and HINT, less PL/Python's "plpy.Error: " /
# "spiexceptions.X: " prefix and its traceback (the CONTEXT then names the madnb
# function).  OTHERS does not match query_canceled (57014: a cancel, a
# statement_timeout), which is named too, so that a cancelled call's message has no
# prefix either; re-raising it keeps its SQLSTATE, so the call is still cancelled.
# The wrapper runs on the caller's search_path (names are resolved
# there), so every type and operator here is pg_catalog's, written out.
RERAISE = """EXCEPTION WHEN OTHERS OR query_canceled THEN
    DECLARE
        e_state pg_catalog.text;
        e_message pg_catalog.text;
        e_detail pg_catalog.text;
        e_hint pg_catalog.text;
    BEGIN
        GET STACKED DIAGNOSTICS e_state = RETURNED_SQLSTATE, e_message = MESSAGE_TEXT,
                                e_detail = PG_EXCEPTION_DETAIL, e_hint = PG_EXCEPTION_HINT;
        e_message := pg_catalog.regexp_replace(e_message, '^(plpy|spiexceptions)[.][A-Za-z]+: ', '');
        IF e_detail OPERATOR(pg_catalog.=) '' AND e_hint OPERATOR(pg_catalog.=) '' THEN
            RAISE EXCEPTION USING ERRCODE = e_state, MESSAGE = e_message;
        ELSIF e_detail OPERATOR(pg_catalog.=) '' THEN
            RAISE EXCEPTION USING ERRCODE = e_state, MESSAGE = e_message, HINT = e_hint;
        ELSIF e_hint OPERATOR(pg_catalog.=) '' THEN
            RAISE EXCEPTION USING ERRCODE = e_state, MESSAGE = e_message, DETAIL = e_detail;
        ELSE
            RAISE EXCEPTION USING ERRCODE = e_state, MESSAGE = e_message, DETAIL = e_detail, HINT = e_hint;
        END IF;
    END;"""
SCHEMAS = ("madnb", "madnb_models", "madnb_privacy", "madnb_statistics")
"""Every schema madnb creates; each must belong to the installing role alone."""

# The first statement of every install and upgrade (CREATE EXTENSION, ALTER
# EXTENSION UPDATE, `madnb install` / `upgrade`, the --psql script): refuse
# (42501, nothing installed) when one of madnb's schemas exists and is owned by
# another role, when a role other than its owner (or a superuser) may create
# objects in it, or when schemas madnb, madnb_models or madnb_privacy hold an
# object of another role.  Whoever may create or replace objects there runs its
# own code inside every madnb call, view and prediction function, whoever calls
# them (a superuser included).  Before that check it takes back the CREATE that
# madnb.grant_usage gave on madnb_statistics and madnb_models before 0.1.0's
# hardening (grants by the schema's owner to a role with USAGE on madnb); planted
# objects that such a role left in madnb_models still refuse the install.  It runs
# under CREATE EXTENSION's search_path (schema madnb, which a squatter may own):
# every operator and function here is pg_catalog's, written out.
SCHEMA_GUARD = """
DO $madnb_schema_guard$
DECLARE
    v_me pg_catalog.oid := (SELECT r.oid FROM pg_catalog.pg_roles AS r WHERE r.rolname OPERATOR(pg_catalog.=) CURRENT_USER);
    v_schema pg_catalog.text;
    v_ns pg_catalog.oid;
    v_owner pg_catalog.oid;
    v_role pg_catalog.oid;
    v_object pg_catalog.text;
    v_who pg_catalog.text;
    v_grantee pg_catalog.text;
BEGIN
    FOREACH v_schema IN ARRAY ARRAY[@SCHEMAS@]::pg_catalog.text[] LOOP
        SELECT n.oid, n.nspowner INTO v_ns, v_owner FROM pg_catalog.pg_namespace AS n
        WHERE n.nspname OPERATOR(pg_catalog.=) v_schema::pg_catalog.name;
        CONTINUE WHEN v_ns IS NULL;
        IF v_owner OPERATOR(pg_catalog.<>) v_me THEN
            RAISE EXCEPTION 'schema "%" is owned by role "%", not by the role installing madnb ("%")',
                v_schema, pg_catalog.pg_get_userbyid(v_owner), CURRENT_USER
                USING ERRCODE = '42501',
                      DETAIL = 'the owner of a madnb schema can replace madnb''s objects and run its own code in every madnb call, whoever makes it',
                      HINT = pg_catalog.format('check what the schema holds, then drop it (DROP SCHEMA %I CASCADE) '
                          'or make the installing role its owner (ALTER SCHEMA %I OWNER TO %I), and install again',
                                               v_schema, v_schema, CURRENT_USER);
        END IF;
        IF v_schema OPERATOR(pg_catalog.=) ANY (ARRAY['madnb_statistics', 'madnb_models']::pg_catalog.text[]) THEN
            FOR v_role IN
                SELECT a.grantee FROM pg_catalog.aclexplode((SELECT n.nspacl FROM pg_catalog.pg_namespace AS n
                                                            WHERE n.oid OPERATOR(pg_catalog.=) v_ns)) AS a
                WHERE a.privilege_type OPERATOR(pg_catalog.=) 'CREATE' AND a.grantor OPERATOR(pg_catalog.=) v_owner
                  AND a.grantee OPERATOR(pg_catalog.<>) v_owner AND a.grantee OPERATOR(pg_catalog.<>) 0::pg_catalog.oid
                  AND pg_catalog.has_schema_privilege(a.grantee, 'madnb', 'USAGE')
            LOOP
                EXECUTE pg_catalog.format('REVOKE CREATE ON SCHEMA %I FROM %I', v_schema, pg_catalog.pg_get_userbyid(v_role));
                RAISE NOTICE 'took back CREATE on schema % from role % (madnb.grant_usage no longer gives it)',
                    v_schema, pg_catalog.pg_get_userbyid(v_role);
            END LOOP;
        END IF;
        -- PUBLIC first: through it every role may create, and only revoking it from PUBLIC helps
        SELECT w.who, w.grantee INTO v_who, v_grantee FROM (
            SELECT 0 AS o, 'every role'::pg_catalog.text AS who, 'PUBLIC'::pg_catalog.text AS grantee
            WHERE pg_catalog.has_schema_privilege('public', v_ns, 'CREATE')
            UNION ALL
            SELECT 1, pg_catalog.format('role "%s"', r.rolname), pg_catalog.quote_ident(r.rolname)
            FROM pg_catalog.pg_roles AS r
            WHERE NOT r.rolsuper AND r.oid OPERATOR(pg_catalog.<>) v_me AND pg_catalog.has_schema_privilege(r.oid, v_ns, 'CREATE')
        ) AS w ORDER BY w.o, w.who LIMIT 1;
        IF FOUND THEN
            RAISE EXCEPTION '% may create objects in schema "%"', v_who, v_schema
                USING ERRCODE = '42501',
                      DETAIL = 'a role that may create objects in a madnb schema can make its own code run inside madnb calls and prediction functions',
                      HINT = pg_catalog.format('REVOKE CREATE ON SCHEMA %I FROM %s (or from the role it has the privilege through), then install again',
                                               v_schema, v_grantee);
        END IF;
        -- madnb_statistics keeps the tables of the roles that trained (their own)
        CONTINUE WHEN v_schema OPERATOR(pg_catalog.=) 'madnb_statistics';
        -- every object of a role but the bootstrap superuser has an owner dependency in pg_shdepend
        SELECT o.type OPERATOR(pg_catalog.||) ' ' OPERATOR(pg_catalog.||) o.identity INTO v_object
        FROM pg_catalog.pg_shdepend AS d
        JOIN pg_catalog.pg_roles AS r ON r.oid OPERATOR(pg_catalog.=) d.refobjid
        CROSS JOIN LATERAL pg_catalog.pg_identify_object(d.classid, d.objid, d.objsubid) AS o
        WHERE d.dbid OPERATOR(pg_catalog.=) (SELECT b.oid FROM pg_catalog.pg_database AS b
                                             WHERE b.datname OPERATOR(pg_catalog.=) pg_catalog.current_database())
          AND d.deptype OPERATOR(pg_catalog.=) 'o' AND d.refobjid OPERATOR(pg_catalog.<>) v_me AND NOT r.rolsuper
          AND o.schema OPERATOR(pg_catalog.=) v_schema
        ORDER BY 1 LIMIT 1;
        IF FOUND THEN
            RAISE EXCEPTION 'schema "%" holds % of another role', v_schema, v_object
                USING ERRCODE = '42501',
                      DETAIL = 'objects in madnb''s schemas belong to the role that installs madnb: another role''s object there could run inside madnb calls',
                      HINT = 'check and drop it, then install again';
        END IF;
    END LOOP;
END
$madnb_schema_guard$;
""".replace("@SCHEMAS@", ", ".join(f"'{s}'" for s in SCHEMAS))

# Earlier versions an extension can be upgraded from: the script is idempotent, so
# the upgrade script from each of them is the current script itself.
UPGRADABLE_FROM = ("0.0.1",)
ECHO_GUARD = '\\echo Use "CREATE EXTENSION madnb" to load this file. \\quit'


def sources_root() -> Path:
    """Where sql/, plpython/ and migrations/ are: the wheel's copy, else the repo."""
    here = Path(__file__).resolve().parent
    bundled = here / "_sources"
    return bundled if (bundled / "sql").is_dir() else here.parent


@dataclass(frozen=True)
class Sources:
    sql: list[tuple[str, str]]
    migrations: list[tuple[str, str]]
    python: dict[str, str]

    def packages(self) -> list[str]:
        """The embedded modules that are packages: those with submodules."""
        return sorted(m for m in self.python if any(o.startswith(m + ".") for o in self.python))


def read_sources(root: Path | None = None) -> Sources:
    root = root or sources_root()
    sql = [(p.name, p.read_text(encoding="utf-8")) for p in sorted((root / "sql").glob("*.sql"))]
    migrations = [(p.stem, p.read_text(encoding="utf-8")) for p in sorted((root / "migrations").glob("*.sql"))]
    python: dict[str, str] = {}
    pkg = root / "plpython" / "madnb_pl"
    # the package and its subpackages (madnb_pl.scoring, ...): a directory's __init__.py is its package
    for p in sorted(pkg.rglob("*.py")):
        parts = ("madnb_pl", *p.relative_to(pkg).with_suffix("").parts)
        mod = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        python[mod] = p.read_text(encoding="utf-8")
    return Sources(sql, migrations, python)


def _dollar_quote(body: str, tag: str) -> str:
    n = 0
    t = tag
    while f"${t}$" in body:
        n += 1
        t = f"{tag}{n}"
    return f"${t}${body}${t}$"


def _sql_literal(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def build_hash(src: Sources, version: str) -> str:
    """A short hash of everything the script is made of: two builds differ iff their sources do."""
    h = hashlib.sha256(version.encode())
    for name in sorted(src.python):
        h.update(name.encode() + b"\0" + src.python[name].encode() + b"\0")
    for kind, files in (("sql", src.sql), ("migration", src.migrations)):
        for name, text in files:
            h.update(kind.encode() + b"\0" + name.encode() + b"\0" + text.encode() + b"\0")
    return h.hexdigest()[:16]


def _loader_body(src: Sources, build: str) -> str:
    """The body of ``madnb._load_python``: the package's sources, and (after :func:`_cache_body` has run) their
    bytecode compiled by the server's own Python, which a session loads instead of compiling the sources (about
    0.5 s of every session's first madnb call); another Python (MAGIC differs) compiles the sources."""
    return (
        "import binascii, importlib, importlib.util, marshal, sys\n"
        f"SOURCES = {src.python!r}\n"
        f"BUILD = {build!r}\n"
        "MAGIC = None\n"
        "CODE = {}\n"
        f"PACKAGES = {sorted(set(src.packages()) | {'madnb_pl'})!r}\n"
        "class MadnbFinder:  # a meta path finder and its loader (importlib.abc would import importlib.resources, tempfile, ...)\n"
        "    madnb_finder = True\n"
        "    def find_spec(self, fullname, path=None, target=None):\n"
        "        if fullname in SOURCES:\n"
        "            return importlib.util.spec_from_loader(\n"
        "                fullname, self, origin='madnb:' + fullname, is_package=(fullname in PACKAGES))\n"
        "        return None\n"
        "    def create_module(self, spec):\n"
        "        return None\n"
        "    def exec_module(self, module):\n"
        "        name = module.__name__\n"
        "        if MAGIC == importlib.util.MAGIC_NUMBER and name in CODE:\n"
        "            code = marshal.loads(binascii.a2b_base64(CODE[name]))\n"
        "        else:\n"
        "            code = compile(SOURCES[name], '<madnb ' + name + '>', 'exec')\n"
        "        exec(code, module.__dict__)\n"
        "for name in [m for m in sys.modules if m == 'madnb_pl' or m.startswith('madnb_pl.')]:\n"
        "    del sys.modules[name]\n"
        "sys.meta_path[:] = [f for f in sys.meta_path if not getattr(f, 'madnb_finder', False)]\n"
        "sys.meta_path.insert(0, MadnbFinder())\n"
        "pkg = importlib.import_module('madnb_pl')\n"
        "for name in sorted(SOURCES):\n"
        "    importlib.import_module(name)\n"
        "pkg.BUILD = BUILD\n"
    )


LOADER_ATTRIBUTES = (
    "RETURNS void\nLANGUAGE plpython3u VOLATILE PARALLEL UNSAFE SECURITY INVOKER\nSET search_path = pg_catalog, pg_temp\nAS "
)
"""``madnb._load_python``'s declaration after its name (the script's, and :func:`_cache_body`'s rewrite of it)."""


def _cache_body() -> str:
    """The body of ``madnb._cache_python()``: compile the sources in ``madnb._load_python``'s body with this server's
    Python and write the bytecode (marshal format 2, which has no back-references: the same sources give the same
    bytes) and the interpreter's magic number into that body.  The install script calls it once, as its last
    statement; it is the installer's: only the function's owner can replace it."""
    return (
        "import ast, binascii, importlib.util, marshal\n"
        "src = plpy.execute(\"SELECT p.prosrc FROM pg_catalog.pg_proc AS p \"\n"
        "    \"WHERE p.oid OPERATOR(pg_catalog.=) 'madnb._load_python()'::pg_catalog.regprocedure\")[0]['prosrc']\n"
        "lines = src.split('\\n')\n"
        "def at(prefix):\n"
        "    return next(i for i, line in enumerate(lines) if line.startswith(prefix))\n"
        "sources = ast.literal_eval(lines[at('SOURCES = ')][len('SOURCES = '):])\n"
        "code = {n: binascii.b2a_base64(marshal.dumps(compile(s, '<madnb ' + n + '>', 'exec'), 2), newline=False).decode('ascii')\n"
        "        for n, s in sorted(sources.items())}\n"
        "lines[at('MAGIC = ')] = 'MAGIC = ' + repr(importlib.util.MAGIC_NUMBER)\n"
        "lines[at('CODE = ')] = 'CODE = ' + repr(code)\n"
        "body = '\\n'.join(lines)\n"
        "tag, n = 'madnb_python', 0\n"
        "while '$' + tag + '$' in body:\n"
        "    n += 1\n"
        "    tag = 'madnb_python' + str(n)\n"
        f"plpy.execute('CREATE OR REPLACE FUNCTION madnb._load_python() ' + {LOADER_ATTRIBUTES!r} + '$' + tag + '$' + body + '$' + tag + '$')\n"
    )


def _prelude(build: str) -> str:
    return (
        "import sys as _madnb_sys\n"
        f"if getattr(_madnb_sys.modules.get('madnb_pl'), 'BUILD', None) != {build!r}:\n"
        "    plpy.execute('SELECT madnb._load_python()')\n"
        "madnb_pl = _madnb_sys.modules['madnb_pl']"
    )


def _migration_runner(src: Sources) -> str:
    rows = []
    for name, body in src.migrations:
        sha = hashlib.sha256(body.encode()).hexdigest()
        rows.append(f"({_sql_literal(name)}, {_sql_literal(sha)}, {_dollar_quote(body, 'madnb_migration')})")
    values = ",\n        ".join(rows) if rows else "(NULL::text, NULL::text, NULL::text)"
    return f"""
CREATE TABLE IF NOT EXISTS madnb._migrations (
    name text PRIMARY KEY,
    sha256 text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT pg_catalog.now()
);
COMMENT ON TABLE madnb._migrations IS 'internal: schema migrations applied to this database (each runs exactly once)';

DO $madnb_migrate$
DECLARE
    m record;
    applied text;
BEGIN
    FOR m IN SELECT * FROM (VALUES
        {values}
    ) AS v(name, sha256, body) WHERE v.name IS NOT NULL ORDER BY v.name LOOP
        SELECT x.sha256 INTO applied FROM madnb._migrations AS x WHERE x.name = m.name;
        IF NOT FOUND THEN
            EXECUTE m.body;
            INSERT INTO madnb._migrations (name, sha256) VALUES (m.name, m.sha256);
        ELSIF applied <> m.sha256 THEN
            RAISE EXCEPTION 'madnb migration % was changed after it was applied', m.name
                USING ERRCODE = '55000', HINT = 'released migrations never change; add a new migration instead';
        END IF;
    END LOOP;
END
$madnb_migrate$;
"""


def build_script(version: str = __version__, root: Path | None = None) -> str:
    """The complete install script for ``version``."""
    src = read_sources(root)
    build = build_hash(src, version)
    parts = [
        f"-- madnb {version} (build {build}): generated by `madnb build-script` from sql/, plpython/ and migrations/.\n"
        "-- Do not edit: change the sources and regenerate.\n",
        ECHO_GUARD + "\n",
        SCHEMA_GUARD,
        "COMMENT ON SCHEMA madnb IS 'madnb: naive Bayes inside PostgreSQL (MADlib-compatible interface)';\n",
        _migration_runner(src),
        "\nCREATE OR REPLACE FUNCTION madnb._load_python() " + LOADER_ATTRIBUTES
        + _dollar_quote("\n" + _loader_body(src, build), "python")
        + ";\nCOMMENT ON FUNCTION madnb._load_python() IS "
        "'internal: loads the embedded madnb_pl Python package into this session''s PL/Python interpreter';\n",
        "\nCREATE OR REPLACE FUNCTION madnb._cache_python() RETURNS void\n"
        "LANGUAGE plpython3u VOLATILE PARALLEL UNSAFE SECURITY INVOKER\nSET search_path = pg_catalog, pg_temp\nAS "
        + _dollar_quote("\n" + _cache_body(), "python")
        + ";\nCOMMENT ON FUNCTION madnb._cache_python() IS "
        "'internal: writes the embedded package''s bytecode, compiled by this server''s Python, into madnb._load_python';\n"
        "REVOKE ALL ON FUNCTION madnb._cache_python() FROM PUBLIC;\n",
    ]
    prelude = _prelude(build)
    for name, text in src.sql:
        text = text.replace(PRELUDE_MARK, prelude).replace(RERAISE_MARK, RERAISE).replace("@MADNB_VERSION@", version)
        parts.append(f"\n-- ---- sql/{name} ----\n{text}")
    parts.append("\n-- Last: the embedded package compiled once by this server's Python (madnb._load_python then loads bytecode).\n"
                 "SELECT madnb._cache_python();\n")
    return "".join(parts)


def script_for_connection(script: str) -> str:
    """The script as applied over a plain connection (in one transaction): no psql guard, schema first.

    It runs under ``search_path = pg_catalog, pg_temp`` (as CREATE EXTENSION runs it under
    ``madnb``): the operators of its views, constraints and DO blocks are bound
    to pg_catalog's, never to objects on the installing session's search_path.
    """
    body = "\n".join(line for line in script.splitlines() if not line.startswith("\\echo"))
    return "CREATE SCHEMA IF NOT EXISTS madnb;\nSET LOCAL search_path = pg_catalog, pg_temp;\n" + body


_EXTENSION_GUARD = """
DO $madnb_guard$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_catalog.pg_extension WHERE extname = 'madnb') THEN
        RAISE EXCEPTION 'madnb is installed as an extension in this database'
            USING ERRCODE = '55000',
                  HINT = 'upgrade it with ALTER EXTENSION madnb UPDATE (after make install) instead of this script';
    END IF;
END
$madnb_guard$;
"""


def psql_script(version: str = __version__) -> str:
    """A plain SQL install (and upgrade) script for psql or any SQL client.

    No psql meta-commands; one transaction, so a failure leaves nothing behind;
    creates ``plpython3u`` if missing (a superuser's right), refuses a database
    where madnb is an extension; NOTICEs are not sent inside it (client_min_messages
    = warning until its COMMIT), so a run prints nothing but warnings and errors.
    Applying it is what ``madnb install`` does.
    """
    script = build_script(version)
    header, _, _ = script.partition("\n")
    return (
        header + "\n"
        "-- Plain SQL install script (`madnb build-script --psql`); apply it with\n"
        "--     psql -v ON_ERROR_STOP=1 -d DBNAME -f THIS_FILE\n"
        "-- It runs in one transaction; applying it again re-applies the objects (an upgrade).\n"
        "BEGIN;\n"
        # the script's DROP ... IF EXISTS and CREATE ... IF NOT EXISTS say "skipping" on every run: nothing to act on
        "SET LOCAL client_min_messages = warning;\n"
        + _EXTENSION_GUARD
        + "CREATE EXTENSION IF NOT EXISTS plpython3u;\n"
        + script_for_connection(script)
        + "\nCOMMIT;\n"
    )


def script_version(script: str) -> str | None:
    m = re.match(r"-- madnb (\S+) ", script)
    return m.group(1) if m else None


def write_extension_files(directory: Path, version: str = __version__) -> list[Path]:
    """Write what ``CREATE EXTENSION`` / ``ALTER EXTENSION UPDATE`` need into ``directory``.

    ``madnb--VERSION.sql`` and ``madnb--OLD--VERSION.sql`` for every version in
    :data:`UPGRADABLE_FROM`.  (The control file is copied by ``make install``.)
    """
    directory.mkdir(parents=True, exist_ok=True)
    script = build_script(version)
    written = []
    for name in [f"madnb--{version}.sql"] + [f"madnb--{old}--{version}.sql" for old in UPGRADABLE_FROM]:
        path = directory / name
        path.write_text(script, encoding="utf-8")
        written.append(path)
    return written
