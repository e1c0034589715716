"""Install, upgrade and uninstall madnb over a connection (like MADlib's madpack)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import errors, sql

from ._build import build_script, script_for_connection
from ._version import __version__

Target = Any  # a psycopg connection, a SQLAlchemy engine, or a URL string


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
    """A psycopg connection from a connection, a SQLAlchemy engine or a URL.

    A connection passed in is used as it is and left open; one opened here is
    closed afterwards.
    """
    if isinstance(target, psycopg.Connection):
        yield target
        return
    if hasattr(target, "url") and hasattr(target, "connect"):  # SQLAlchemy Engine
        url = target.url.render_as_string(hide_password=False)
    elif isinstance(target, str):
        url = target
    else:
        raise TypeError(f"expected a psycopg connection, a SQLAlchemy engine or a URL, got {type(target).__name__}")
    with psycopg.connect(_plain_url(url)) as conn:
        yield conn


@dataclass(frozen=True)
class VersionInfo:
    """What is installed in a database."""

    library: str
    installed: str | None
    method: str | None  # 'extension', 'script' or None

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


def version(target: Target) -> VersionInfo:
    """The library's version and the version installed in the target database."""
    with connection(target) as conn:
        ext = _extension_version(conn)
        if ext is not None:
            return VersionInfo(__version__, ext, "extension")
        v = _script_version(conn)
        return VersionInfo(__version__, v, None if v is None else "script")


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
    """Upgrade an existing installation to this version; returns (previous, now)."""
    with connection(target) as conn:
        before = version(conn)
        if before.installed is None:
            raise InstallError("madnb is not installed in this database: use `madnb install`")
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
