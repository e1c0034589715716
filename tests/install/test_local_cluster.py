"""madnb's throwaway cluster (madnb._cluster.LocalCluster), which the demo, the tests and the benchmark start."""

from __future__ import annotations

import shutil
import socket
import tempfile
from pathlib import Path

import psycopg
import pytest

import madnb._cluster as cluster_module
from madnb._cluster import LocalCluster


def test_a_cluster_whose_free_port_is_taken_before_it_binds_starts_on_another_port(monkeypatch: pytest.MonkeyPatch) -> None:
    # clusters started side by side (pytest-xdist workers) can both be told the same free port; the one that
    # loses the race must try another instead of failing
    taken = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 0)
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    busy = taken.getsockname()[1]
    real = cluster_module._free_port
    ports = iter([busy])
    monkeypatch.setattr(cluster_module, "_free_port", lambda: next(ports, None) or real())
    try:
        with LocalCluster() as pg, psycopg.connect(pg.url) as conn:
            assert pg.port != busy
            assert conn.execute("SHOW port").fetchone()[0] == str(pg.port)
            assert "could not bind" in pg.log()  # it did meet the taken port first
    finally:
        taken.close()


def test_a_cluster_that_cannot_start_leaves_no_folder_behind(monkeypatch: pytest.MonkeyPatch) -> None:
    parent = Path(tempfile.mkdtemp(prefix="madnb-test-clusters-"))  # the server's OS user must reach it
    parent.chmod(0o755)
    monkeypatch.setattr(cluster_module.tempfile, "tempdir", str(parent))
    taken = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        with pytest.raises(RuntimeError, match="pg_ctl"):
            LocalCluster(port=taken.getsockname()[1]).start()  # a port given by the caller is not replaced
        assert list(parent.iterdir()) == []
    finally:
        taken.close()
        shutil.rmtree(parent, ignore_errors=True)
