"""``madnb sandbox``: a throwaway PostgreSQL with madnb installed, to try madnb in with psql.

The cluster lives in a temporary directory (:class:`madnb._cluster.LocalCluster`,
the one the demo and the tests use); the command prints how to connect, waits
until Ctrl-C, end of input (Ctrl-D) or SIGTERM, then stops the cluster and
deletes it with everything in it.
"""

from __future__ import annotations

import shutil
import signal
import sys
from collections.abc import Callable, Iterable
from types import FrameType
from typing import Any

import psycopg
from psycopg import sql

from ._cluster import LocalCluster, find_bindir
from ._install import install


def throwaway_database(dbname: str) -> tuple[LocalCluster, str]:
    """Start a throwaway cluster and create database ``dbname`` in it: (cluster, URL). The caller stops it."""
    pg = LocalCluster().start()
    try:
        with psycopg.connect(pg.url, autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(dbname)))
    except BaseException:
        pg.stop()
        raise
    return pg, pg.url_for(dbname)


def psql_command(url: str) -> str:
    """The psql command that connects to ``url`` (psql from PATH, else the server's own)."""
    exe = shutil.which("psql") or str(find_bindir() / "psql")
    return f"{exe} {url}"


def _stop_on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def main(dbname: str = "sandbox", stdin: Iterable[str] = sys.stdin, out: Callable[[str], Any] = print) -> int:
    """Run the sandbox until Ctrl-C, end of ``stdin`` or SIGTERM; the cluster is removed in every case."""
    previous = signal.signal(signal.SIGTERM, _stop_on_sigterm)
    try:
        out("starting a throwaway PostgreSQL cluster ...")
        pg, url = throwaway_database(dbname)
        try:
            info = install(url)
            out(f"madnb {info.installed} installed in database {dbname} of a throwaway PostgreSQL "
                f"on {pg.host}:{pg.port} (user {pg.user}, no password)")
            out("connect with:")
            out(f"  {psql_command(url)}")
            out(f"madnb's commands take it as --dsn {url} (or MADNB_DSN)")
            out("stop with Ctrl-C or Ctrl-D: the cluster and everything in it is deleted")
            sys.stdout.flush()
            try:
                for _ in stdin:  # until end of input
                    pass
            except KeyboardInterrupt:
                pass
        finally:
            pg.stop()
        out("sandbox stopped and removed")
        return 0
    except KeyboardInterrupt:  # during start or install: the finally above removed the cluster
        out("sandbox stopped and removed")
        return 130
    finally:
        signal.signal(signal.SIGTERM, previous)
