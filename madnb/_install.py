"""Install, upgrade and uninstall madnb over a connection (like MADlib's madpack)."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg import errors, sql

from ._build import build_hash, build_script, read_sources, script_for_connection
from ._version import __version__

Target = Any  # a URL string, a psycopg connection, a SQLAlchemy Engine or Connection


class InstallError(RuntimeError):
    """madnb could not be installed, upgraded or uninstalled, or a connection not used; the message says why.

    ``sqlstate``: the SQLSTATE of the refusal where it has one (25P02 a failed transaction, 22023 a URL or
    engine of another database), which :class:`madnb.MadnbError` carries when the estimator refuses.
    """

    def __init__(self, message: str, sqlstate: str | None = None) -> None:
        super().__init__(message)
        self.sqlstate = sqlstate


CASCADE = "cascade=True"
"""How :func:`uninstall`'s refusal names its way out (the command line says ``--cascade`` instead)."""
DROP_PRIVACY_STATE = "drop_privacy_state=True"
"""How :class:`Uninstalled` says the privacy state can be dropped (the command line says ``--drop-privacy-ledger``)."""


def _plain_url(url: str) -> str:
    # SQLAlchemy-style URLs name a driver: postgresql+psycopg://, postgresql+psycopg2://
    for prefix in ("postgresql+psycopg2://", "postgresql+psycopg://", "postgres+psycopg://"):
        if url.startswith(prefix):
            return "postgresql://" + url[len(prefix):]
    return url


@contextlib.contextmanager
def connection(target: Target, *, pin_search_path: bool = True) -> Iterator[psycopg.Connection[Any]]:
    """A psycopg connection to work on, in a transaction, from any kind of target.

    ``target`` is a libpq URL (SQLAlchemy's ``postgresql+psycopg://`` spelling
    too), a psycopg connection, a SQLAlchemy Engine, or a SQLAlchemy Connection
    using the psycopg driver.

    Transactions: when the target is in a transaction already (a psycopg
    connection inside ``with conn.transaction()``, a non-autocommit psycopg
    connection that has run a statement, a SQLAlchemy Connection inside
    ``begin()`` or after an autobegin), the work happens inside that transaction,
    in a savepoint (a failure rolls back only the work, and the caller's
    transaction goes on), and the caller's COMMIT or ROLLBACK decides.  Otherwise madnb begins the
    transaction itself and commits it when the block completes (rolls it back
    on an error), whatever the connection's autocommit setting.  A connection
    in a failed transaction is refused.  A connection passed in is left open;
    one opened here is closed.  Inside, the installer's statements run under
    ``search_path = pg_catalog, pg_temp`` (:func:`_pinned_search_path`);
    ``pin_search_path=False`` keeps the session's own (the estimator's calls,
    whose table names are the user's, resolved on the user's path; every name
    they write themselves is schema-qualified).
    """
    pin = _pinned_search_path if pin_search_path else _session_search_path
    if isinstance(target, psycopg.Connection):
        with _in_transaction(target), pin(target):
            yield target
        return
    if _is_sqlalchemy_connection(target):
        with _sqlalchemy_connection(target) as conn, pin(conn):
            yield conn
        return
    if hasattr(target, "url") and hasattr(target, "connect"):  # SQLAlchemy Engine
        if target.url.get_backend_name() != "postgresql":
            raise InstallError(
                f"madnb needs PostgreSQL: this engine is for {target.url.get_backend_name()}; "
                "give a postgresql:// URL, or an engine of one", "22023",
            )
        url = target.url.render_as_string(hide_password=False)
    elif isinstance(target, str):
        url = target
        scheme = re.match(r"([A-Za-z][A-Za-z0-9+.-]*)://", url)
        if scheme and scheme.group(1).split("+")[0].lower() not in ("postgresql", "postgres"):
            raise InstallError(f"madnb needs PostgreSQL: the URL is for {scheme.group(1)}; give a postgresql:// URL", "22023")
    else:
        raise TypeError(
            "expected a URL, a psycopg connection, a SQLAlchemy engine or a SQLAlchemy connection, "
            f"got {type(target).__name__}"
        )
    with psycopg.connect(_plain_url(url), autocommit=True) as conn:
        with conn.transaction(), pin(conn):
            yield conn


@contextlib.contextmanager
def _in_transaction(conn: psycopg.Connection[Any]) -> Iterator[None]:
    """Work inside the caller's transaction if there is one, else in one of our own that commits."""
    status = conn.info.transaction_status
    if status == psycopg.pq.TransactionStatus.INERROR:
        raise InstallError(
            "the connection's transaction has failed: roll it back (conn.rollback()) before calling madnb", "25P02",
        )
    if status == psycopg.pq.TransactionStatus.INTRANS:
        # the caller's transaction, the work in a SAVEPOINT: a failure rolls back only it, the caller commits
        with conn.transaction():
            yield
        return
    # Idle: begin a transaction and commit it (psycopg does so for an outermost
    # block on an idle connection, autocommit or not).
    with conn.transaction():
        yield


def _is_sqlalchemy_connection(target: Any) -> bool:
    return type(target).__module__.startswith("sqlalchemy.") and hasattr(target, "in_transaction") and hasattr(
        target, "connection"
    )


@contextlib.contextmanager
def _sqlalchemy_connection(sa_conn: Any) -> Iterator[psycopg.Connection[Any]]:
    """The psycopg connection under a SQLAlchemy Connection, in SQLAlchemy's transaction."""
    driver = getattr(sa_conn.connection, "driver_connection", None)
    if not isinstance(driver, psycopg.Connection):
        raise TypeError(
            "a SQLAlchemy connection must use the psycopg driver (postgresql+psycopg://...); "
            f"this one uses {type(driver).__module__}: pass its engine or URL instead"
        )
    if driver.autocommit:  # isolation_level AUTOCOMMIT: there is no transaction to join
        with _in_transaction(driver):
            yield driver
        return
    # SQLAlchemy begins (explicitly or on first use) and commits through the DBAPI
    # connection; make the driver's transaction real before psycopg blocks nest in it.
    begun = contextlib.nullcontext() if sa_conn.in_transaction() else sa_conn.begin()
    with begun:
        if driver.info.transaction_status == psycopg.pq.TransactionStatus.IDLE:
            driver.execute("SELECT 1")
        with _in_transaction(driver):
            yield driver


@contextlib.contextmanager
def _session_search_path(conn: psycopg.Connection[Any]) -> Iterator[None]:
    """The session's search_path as it is (``connection(..., pin_search_path=False)``)."""
    yield


@contextlib.contextmanager
def _pinned_search_path(conn: psycopg.Connection[Any]) -> Iterator[None]:
    """``search_path = pg_catalog, pg_temp`` inside, the session's own afterwards.

    The installer's catalog queries then use pg_catalog's operators, never an
    operator planted in a schema on the installing role's search_path.  After an
    error in an open transaction the rollback restores the setting instead.
    """
    (saved,) = conn.execute("SELECT pg_catalog.current_setting('search_path')").fetchone()  # type: ignore[misc]
    conn.execute("SELECT pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', false)")
    try:
        yield
    finally:
        if conn.info.transaction_status != psycopg.pq.TransactionStatus.INERROR and not conn.closed:
            conn.execute("SELECT pg_catalog.set_config('search_path', %s, false)", (saved,))


@dataclass(frozen=True)
class VersionInfo:
    """What is installed in a database."""

    library: str
    installed: str | None
    method: str | None  # 'extension', 'script' or None
    # Hash of the installed build's sources (None when unknown): two builds of the
    # same version differ here, so upgrade knows whether there is anything to do.
    build: str | None = field(default=None, repr=False)

    def __str__(self) -> str:
        if self.installed is None:
            return f"madnb {self.library} (not installed in this database)"
        return f"madnb {self.library}; installed: {self.installed} ({self.method})"


def _extension_version(conn: psycopg.Connection[Any]) -> str | None:
    row = conn.execute("SELECT extversion FROM pg_catalog.pg_extension WHERE extname = 'madnb'").fetchone()
    return None if row is None else str(row[0])


def _script_version(conn: psycopg.Connection[Any]) -> str | None:
    if conn.execute("SELECT pg_catalog.to_regclass('madnb.install_log') IS NULL").fetchone()[0]:  # type: ignore[index]
        return None
    row = conn.execute("SELECT version FROM madnb.install_log ORDER BY installed_at DESC, ctid DESC LIMIT 1").fetchone()
    return None if row is None else str(row[0])


def _installed_build(conn: psycopg.Connection[Any]) -> str | None:
    row = conn.execute(
        "SELECT p.prosrc FROM pg_catalog.pg_proc AS p WHERE p.oid = pg_catalog.to_regprocedure('madnb._load_python()')"
    ).fetchone()
    m = re.search(r"^BUILD = '([0-9a-f]+)'$", str(row[0]), re.MULTILINE) if row else None
    return m.group(1) if m else None


def current_build() -> str:
    """The build hash of this library's install script."""
    return build_hash(read_sources(), __version__)


def version(target: Target) -> VersionInfo:
    """The library's version and the version installed in the target database."""
    with connection(target) as conn:
        ext = _extension_version(conn)
        if ext is not None:
            return VersionInfo(__version__, ext, "extension", _installed_build(conn))
        v = _script_version(conn)
        if v is None:
            return VersionInfo(__version__, None, None)
        return VersionInfo(__version__, v, "script", _installed_build(conn))


def _ensure_plpython(conn: psycopg.Connection[Any]) -> None:
    if conn.execute("SELECT 1 FROM pg_catalog.pg_extension WHERE extname = 'plpython3u'").fetchone():
        return
    major = conn.info.server_version // 10000
    try:
        with conn.transaction():
            conn.execute("CREATE EXTENSION IF NOT EXISTS plpython3u")
    except errors.InsufficientPrivilege as e:
        raise InstallError(
            "madnb needs PL/Python (plpython3u), which only a superuser can create in this database: "
            "ask an administrator to run CREATE EXTENSION plpython3u, then install again"
        ) from e
    except (errors.UndefinedFile, errors.FeatureNotSupported, errors.UndefinedObject) as e:
        raise InstallError(
            "PL/Python is not available on the database server: install the package "
            f"postgresql-plpython3-{major} (Debian/Ubuntu; python3-plpython or similar elsewhere) "
            f"on the database host, then install again ({e.diag.message_primary})"
        ) from e


def _apply(conn: psycopg.Connection[Any], script: str) -> None:
    with conn.transaction():
        conn.execute(script_for_connection(script).encode())


def install(target: Target, *, script: str | None = None) -> VersionInfo:
    """Install madnb into schema ``madnb`` of the target database.

    The target is a URL, a psycopg connection, a SQLAlchemy Engine or Connection;
    madnb commits its work unless the target is inside a transaction of the
    caller's, which then commits or rolls it back (see :func:`connection`).
    Idempotent: installing over the same version re-applies the objects and
    changes nothing else.  Creates ``plpython3u`` when the role may.  ``script``
    (for tests) applies another generated script instead of this version's.
    """
    with connection(target) as conn:
        ext = _extension_version(conn)
        if ext is not None:
            if ext == __version__ and script is None:
                return VersionInfo(__version__, ext, "extension")
            raise InstallError(
                f"madnb {ext} is installed as an extension in this database; "
                "use ALTER EXTENSION madnb UPDATE (after make install) instead"
            )
        _ensure_plpython(conn)
        _apply(conn, script if script is not None else build_script())
        return version(conn)


def upgrade(target: Target) -> tuple[str | None, VersionInfo]:
    """Upgrade an existing installation to this version; returns (previous, now).

    Does nothing when this very build is installed already (``previous ==
    now.installed`` then).  The transaction rules are :func:`connection`'s.
    """
    with connection(target) as conn:
        before = version(conn)
        if before.installed is None:
            raise InstallError("madnb is not installed in this database: use `madnb install`")
        if before.installed == __version__ and (before.method == "extension" or before.build == current_build()):
            return before.installed, before
        if before.method == "extension":
            with conn.transaction():
                conn.execute(sql.SQL("ALTER EXTENSION madnb UPDATE TO {}").format(sql.Literal(__version__)))
            return before.installed, version(conn)
        _apply(conn, build_script())
        return before.installed, version(conn)


def dependents(conn: psycopg.Connection[Any]) -> list[str]:
    """Objects outside schema madnb that use madnb's functions, types or views.

    A view is named as a view (``view public.cv``), not by its rewrite rule.
    """
    rows = conn.execute(
        """
        WITH madnb_objects AS (
            SELECT 'pg_catalog.pg_proc'::pg_catalog.regclass AS classid, p.oid AS objid
            FROM pg_catalog.pg_proc AS p WHERE p.pronamespace = 'madnb'::pg_catalog.regnamespace
            UNION ALL
            SELECT 'pg_catalog.pg_class'::pg_catalog.regclass, c.oid
            FROM pg_catalog.pg_class AS c WHERE c.relnamespace = 'madnb'::pg_catalog.regnamespace
            UNION ALL
            SELECT 'pg_catalog.pg_type'::pg_catalog.regclass, t.oid
            FROM pg_catalog.pg_type AS t WHERE t.typnamespace = 'madnb'::pg_catalog.regnamespace
        ),
        users AS (  -- a view's dependency is recorded on its _RETURN rule: name the view
            SELECT CASE WHEN d.classid = 'pg_catalog.pg_rewrite'::pg_catalog.regclass
                        THEN 'pg_catalog.pg_class'::pg_catalog.regclass ELSE d.classid END AS classid,
                   CASE WHEN d.classid = 'pg_catalog.pg_rewrite'::pg_catalog.regclass
                        THEN r.ev_class ELSE d.objid END AS objid,
                   CASE WHEN d.classid = 'pg_catalog.pg_rewrite'::pg_catalog.regclass THEN 0 ELSE d.objsubid END AS objsubid
            FROM pg_catalog.pg_depend AS d
            JOIN madnb_objects AS m ON m.classid = d.refclassid AND m.objid = d.refobjid
            LEFT JOIN pg_catalog.pg_rewrite AS r
                ON d.classid = 'pg_catalog.pg_rewrite'::pg_catalog.regclass AND r.oid = d.objid
            WHERE d.deptype = 'n'
        )
        SELECT DISTINCT o.type || ' ' || o.identity
        FROM users AS u CROSS JOIN LATERAL pg_catalog.pg_identify_object(u.classid, u.objid, u.objsubid) AS o
        WHERE NOT EXISTS (SELECT 1 FROM madnb_objects AS m WHERE m.classid = u.classid AND m.objid = u.objid)
          AND NOT (u.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND EXISTS (
              SELECT 1 FROM pg_catalog.pg_proc AS p WHERE p.oid = u.objid AND p.pronamespace = 'madnb'::pg_catalog.regnamespace))
          AND NOT (u.classid = 'pg_catalog.pg_attrdef'::pg_catalog.regclass AND EXISTS (
              SELECT 1 FROM pg_catalog.pg_attrdef AS a JOIN pg_catalog.pg_class AS c ON c.oid = a.adrelid
              WHERE a.oid = u.objid AND c.relnamespace IN ('madnb'::pg_catalog.regnamespace)))
          AND NOT (u.classid = 'pg_catalog.pg_policy'::pg_catalog.regclass AND EXISTS (
              SELECT 1 FROM pg_catalog.pg_policy AS y JOIN pg_catalog.pg_class AS c ON c.oid = y.polrelid
              WHERE y.oid = u.objid AND c.relnamespace IN ('madnb'::pg_catalog.regnamespace)))
        ORDER BY 1
        """
    ).fetchall()
    return [str(r[0]) for r in rows]


@dataclass(frozen=True)
class Uninstalled:
    """What ``uninstall`` removed and what it kept."""

    privacy_state_kept: bool
    releases: int  # rows in the privacy ledger
    budgets: int

    def __str__(self) -> str:
        if self.releases == 0 and self.budgets == 0:
            kept = "; schema madnb_privacy (no releases or budgets yet) was kept" if self.privacy_state_kept else ""
            return "madnb uninstalled" + kept
        if not self.privacy_state_kept:
            return (
                f"madnb uninstalled; the privacy ledger ({self.releases} release(s)) and {self.budgets} budget(s) "
                "were dropped as asked"
            )
        return (
            f"madnb uninstalled; kept the privacy ledger ({self.releases} release(s)), {self.budgets} budget(s) "
            "and the spent counters in schema madnb_privacy: installing madnb again uses them "
            f"(drop them with madnb.uninstall(..., {DROP_PRIVACY_STATE}))"
        )


def _privacy_counts(conn: psycopg.Connection[Any]) -> tuple[int, int] | None:
    """(releases, budgets) in schema madnb_privacy, or None if there is no such schema."""
    row = conn.execute(
        "SELECT pg_catalog.to_regclass('madnb_privacy.ledger') IS NOT NULL, "
        "pg_catalog.to_regclass('madnb_privacy.budget') IS NOT NULL, "
        "pg_catalog.to_regnamespace('madnb_privacy') IS NOT NULL"
    ).fetchone()
    assert row is not None
    has_ledger, has_budget, has_schema = row
    if not has_schema:
        return None

    def count(table: str) -> int:
        r = conn.execute(sql.SQL("SELECT pg_catalog.count(*) FROM {}").format(sql.Identifier("madnb_privacy", table))).fetchone()
        assert r is not None
        return int(r[0])

    return (count("ledger") if has_ledger else 0), (count("budget") if has_budget else 0)


def _detach_privacy_state(conn: psycopg.Connection[Any]) -> None:
    """Make schema madnb_privacy and its objects no longer members of extension madnb.

    DROP EXTENSION then leaves them in place; a later CREATE EXTENSION adopts them.
    """
    rows = conn.execute(
        """
        SELECT c.relname::text, c.relkind::text
        FROM pg_catalog.pg_depend AS d
        JOIN pg_catalog.pg_class AS c ON d.classid = 'pg_catalog.pg_class'::pg_catalog.regclass AND c.oid = d.objid
        JOIN pg_catalog.pg_extension AS e ON e.oid = d.refobjid AND e.extname = 'madnb'
        WHERE d.deptype = 'e' AND d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass
          AND c.relnamespace = 'madnb_privacy'::pg_catalog.regnamespace
        ORDER BY 1
        """
    ).fetchall()
    kinds = {"r": "TABLE", "S": "SEQUENCE", "v": "VIEW"}
    for name, kind in rows:
        conn.execute(
            sql.SQL("ALTER EXTENSION madnb DROP {} {}").format(sql.SQL(kinds[kind]), sql.Identifier("madnb_privacy", name))
        )
    member = conn.execute(
        "SELECT 1 FROM pg_catalog.pg_depend AS d WHERE d.classid = 'pg_catalog.pg_namespace'::pg_catalog.regclass "
        "AND d.objid = 'madnb_privacy'::pg_catalog.regnamespace AND d.deptype = 'e'"
    ).fetchone()
    if member:
        conn.execute("ALTER EXTENSION madnb DROP SCHEMA madnb_privacy")


def _detach_statistics_schema(conn: psycopg.Connection[Any]) -> None:
    """Detach schemas ``madnb_statistics`` and ``madnb_models`` from the extension: the
    statistics kept by training and the named models belong to the user, like the
    model tables, and stay after uninstall."""
    for schema in ("madnb_statistics", "madnb_models"):
        member = conn.execute(
            "SELECT 1 FROM pg_catalog.pg_depend AS d WHERE d.classid = 'pg_catalog.pg_namespace'::pg_catalog.regclass "
            "AND d.objid = pg_catalog.to_regnamespace(%s) AND d.deptype = 'e'",
            [schema],
        ).fetchone()
        if member:
            conn.execute(sql.SQL("ALTER EXTENSION madnb DROP SCHEMA {}").format(sql.Identifier(schema)))


def named_models(conn: psycopg.Connection[Any]) -> list[tuple[str, str]]:
    """The named models, as the view ``madnb.models`` shows them (if madnb has it): (name, the name
    ``madnb.drop_model`` takes).

    The view shows a model of schema madnb_models by its identifier alone, unquoted, and any other
    as schema.identifier, quoted where needed; ``drop_model`` parses the name it is given.
    """
    if conn.execute("SELECT pg_catalog.to_regclass('madnb.models') IS NULL").fetchone() == (True,):
        return []
    rows = conn.execute(
        "SELECT m.name, CASE WHEN m.schema_name OPERATOR(pg_catalog.=) 'madnb_models' THEN pg_catalog.quote_ident(m.name) "
        "ELSE m.name END FROM madnb.models AS m ORDER BY m.name"
    ).fetchall()
    return [(r[0], r[1]) for r in rows]


def uninstall(target: Target, *, cascade: bool = False, drop_privacy_state: bool = False) -> Uninstalled:
    """Remove madnb (schema ``madnb`` and everything in it).

    Refuses while objects outside the schema still use madnb (views are named),
    unless ``cascade`` (which drops them too).  Model tables created by training (and the statistics kept in schema ``madnb_statistics``)
    are ordinary tables and are kept.  The privacy state (schema
    ``madnb_privacy``: the ledger of private releases, the budgets and the spent
    counters) is the audit record of what was released and is kept, so that a
    reinstall still refuses an exhausted source, unless ``drop_privacy_state``.

    Named models (``madnb.train``) are refused too, unless ``cascade``: their
    prediction functions call madnb's helpers and their catalog is in schema
    madnb, so they would not survive; ``cascade`` drops each of them with the
    server's ``madnb.drop_model(model, cascade => true)``: exactly the objects
    the catalog records, and whatever uses them (views, and columns or triggers
    computed with their prediction functions).
    """
    with connection(target) as conn:
        deps = dependents(conn)
        models = named_models(conn)
        if (deps or models) and not cascade:
            used = ["named model " + shown for shown, _ in models] + deps
            raise InstallError(
                "madnb is still used by " + ", ".join(used) + ": drop those first (named models with "
                f"madnb.drop_model), or uninstall with {CASCADE}"
            )
        with conn.transaction():
            for _, model in models:  # only with cascade: the server's drop_model, with what uses the model
                conn.execute("SELECT madnb.drop_model(%s, cascade => true)", [model])
            counts = _privacy_counts(conn)
            if _extension_version(conn) is not None:
                if counts is not None:  # counters created at run time are not members: detach, then drop or keep
                    _detach_privacy_state(conn)
                _detach_statistics_schema(conn)
                conn.execute("DROP EXTENSION madnb CASCADE" if cascade else "DROP EXTENSION madnb")
                conn.execute("DROP SCHEMA IF EXISTS madnb CASCADE" if cascade else "DROP SCHEMA IF EXISTS madnb")
            else:
                conn.execute("DROP SCHEMA IF EXISTS madnb CASCADE")
            if drop_privacy_state:
                conn.execute("DROP SCHEMA IF EXISTS madnb_privacy CASCADE")
        releases, budgets = counts or (0, 0)
        return Uninstalled(counts is not None and not drop_privacy_state, releases, budgets)
