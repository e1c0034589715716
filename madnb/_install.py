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
    """madnb could not be installed, upgraded or uninstalled; the message says why."""


def _plain_url(url: str) -> str:
    # SQLAlchemy-style URLs name a driver: postgresql+psycopg://, postgresql+psycopg2://
    for prefix in ("postgresql+psycopg2://", "postgresql+psycopg://", "postgres+psycopg://"):
        if url.startswith(prefix):
            return "postgresql://" + url[len(prefix):]
    return url


@contextlib.contextmanager
def connection(target: Target) -> Iterator[psycopg.Connection[Any]]:
    """A psycopg connection to work on, in a transaction, from any kind of target.

    ``target`` is a libpq URL (SQLAlchemy's ``postgresql+psycopg://`` spelling
    too), a psycopg connection, a SQLAlchemy Engine, or a SQLAlchemy Connection
    using the psycopg driver.

    Transactions: when the target is in a transaction already (a psycopg
    connection inside ``with conn.transaction()``, a non-autocommit psycopg
    connection that has run a statement, a SQLAlchemy Connection inside
    ``begin()`` or after an autobegin), the work happens inside that transaction
    and the caller's COMMIT or ROLLBACK decides.  Otherwise madnb begins the
    transaction itself and commits it when the block completes (rolls it back
    on an error), whatever the connection's autocommit setting.  A connection
    in a failed transaction is refused.  A connection passed in is left open;
    one opened here is closed.
    """
    if isinstance(target, psycopg.Connection):
        with _in_transaction(target):
            yield target
        return
    if _is_sqlalchemy_connection(target):
        with _sqlalchemy_connection(target) as conn:
            yield conn
        return
    if hasattr(target, "url") and hasattr(target, "connect"):  # SQLAlchemy Engine
        url = target.url.render_as_string(hide_password=False)
    elif isinstance(target, str):
        url = target
    else:
        raise TypeError(
            "expected a URL, a psycopg connection, a SQLAlchemy engine or a SQLAlchemy connection, "
            f"got {type(target).__name__}"
        )
    with psycopg.connect(_plain_url(url), autocommit=True) as conn:
        with conn.transaction():
            yield conn


@contextlib.contextmanager
def _in_transaction(conn: psycopg.Connection[Any]) -> Iterator[None]:
    """Work inside the caller's transaction if there is one, else in one of our own that commits."""
    status = conn.info.transaction_status
    if status == psycopg.pq.TransactionStatus.INERROR:
        raise InstallError(
            "the connection's transaction has failed: roll it back (conn.rollback()) before calling madnb"
        )
    if status == psycopg.pq.TransactionStatus.INTRANS:
        yield  # the caller's transaction: nested blocks become savepoints, the caller commits
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
    """Objects outside schema madnb that depend on madnb's objects (e.g. views)."""
    rows = conn.execute(
        """
        SELECT DISTINCT pg_catalog.pg_describe_object(d.classid, d.objid, 0)
        FROM pg_catalog.pg_depend AS d
        JOIN pg_catalog.pg_proc AS p ON d.refclassid = 'pg_catalog.pg_proc'::regclass AND d.refobjid = p.oid
        JOIN pg_catalog.pg_namespace AS n ON n.oid = p.pronamespace AND n.nspname = 'madnb'
        WHERE d.deptype = 'n' AND d.classid = 'pg_catalog.pg_rewrite'::regclass
        ORDER BY 1
        """
    ).fetchall()
    return [str(r[0]) for r in rows]


def uninstall(target: Target, *, cascade: bool = False) -> None:
    """Remove madnb (schema ``madnb`` and everything in it).

    Refuses while views outside the schema still use madnb, unless ``cascade``
    (which drops them too).  Model tables created by training are ordinary
    tables and are kept.
    """
    with connection(target) as conn:
        deps = dependents(conn)
        if deps and not cascade:
            raise InstallError(
                "madnb is still used by " + ", ".join(deps) + ": drop those first, or uninstall with --cascade"
            )
        with conn.transaction():
            if _extension_version(conn) is not None:
                conn.execute("DROP EXTENSION madnb CASCADE" if cascade else "DROP EXTENSION madnb")
                conn.execute("DROP SCHEMA IF EXISTS madnb CASCADE" if cascade else "DROP SCHEMA IF EXISTS madnb")
            else:
                conn.execute("DROP SCHEMA IF EXISTS madnb CASCADE")
