"""A throwaway local PostgreSQL cluster for the demo, the tests and the benchmark.

PostgreSQL refuses to run as root, so when this process is root the server runs
as the ``postgres`` OS user; otherwise it runs as the invoking user.  The server's
environment has ``PYTHONHOME`` and ``PYTHONPATH`` removed: PL/Python embeds the
system Python, which a virtualenv's ``PYTHONHOME`` crashes on the first call.

Extensions: where the server supports ``extension_destdir`` (Debian's and
Ubuntu's PostgreSQL packages), the cluster looks for extension files in a
private directory first (:attr:`LocalCluster.extension_dir`), so tests can
install ``madnb.control`` and its scripts without touching the system's
extension directory.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

__all__ = ["LocalCluster", "find_bindir"]

SERVER_USER = "postgres"


def find_bindir() -> Path:
    """Return the directory holding ``initdb`` and ``pg_ctl``.

    ``MADNB_PG_BINDIR`` wins; otherwise the newest ``/usr/lib/postgresql/*/bin``,
    then whatever ``pg_config --bindir`` says.
    """
    env = os.environ.get("MADNB_PG_BINDIR")
    if env:
        return Path(env)
    candidates = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(Path(p).parent.parent.name) if Path(p).parent.parent.name.isdigit() else 0,
    )
    if candidates:
        return Path(candidates[-1]).parent
    pg_config = shutil.which("pg_config")
    if pg_config:
        out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, check=True)
        return Path(out.stdout.strip())
    raise FileNotFoundError("no PostgreSQL server binaries found; set MADNB_PG_BINDIR")


def _pg_config(bindir: Path) -> str | None:
    own = bindir / "pg_config"
    return str(own) if own.exists() else shutil.which("pg_config")


PORT_ATTEMPTS = 5


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _server_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONHOME", "PYTHONPATH")}
    env["LC_ALL"] = "C.UTF-8"
    env["LANG"] = "C.UTF-8"
    return env


@dataclass
class LocalCluster:
    """A PostgreSQL cluster in a temporary directory, removed on :meth:`stop`.

    Use as a context manager::

        with LocalCluster() as pg:
            conn = psycopg.connect(pg.url)

    ``settings`` are extra ``postgresql.conf`` lines (name -> value).
    """

    settings: dict[str, str] = field(default_factory=dict)
    fast: bool = True
    host: str = "127.0.0.1"
    port: int = 0
    user: str = "postgres"
    dbname: str = "postgres"
    _dir: Path | None = None
    _run_as: str | None = None
    _extension_dir: Path | None = None

    @property
    def url(self) -> str:
        """A libpq URL of the cluster's ``postgres`` database."""
        return self.url_for(self.dbname)

    def url_for(self, dbname: str) -> str:
        """A libpq URL of database ``dbname`` on this cluster."""
        return f"postgresql://{self.user}@{self.host}:{self.port}/{dbname}"

    @property
    def datadir(self) -> Path:
        assert self._dir is not None, "cluster not started"
        return self._dir / "data"

    @property
    def extension_dir(self) -> Path | None:
        """A private folder for extension control and script files this cluster finds first.

        None when the server has no ``extension_destdir`` setting (a Debian patch).
        Removed with the cluster.
        """
        return self._extension_dir

    def _private_extension_dir(self, bindir: Path) -> Path | None:
        """Set up extension_destdir under the cluster's folder, if this server has the setting."""
        assert self._dir is not None
        pg_config = _pg_config(bindir)
        if pg_config is None:
            return None
        described = subprocess.run([str(bindir / "postgres"), "--describe-config"], capture_output=True, text=True,
                                   env=_server_env(), **self._run_as_kwargs())  # type: ignore[call-overload]
        if not any(line.split("\t", 1)[0] == "extension_destdir" for line in described.stdout.splitlines()):
            return None
        sharedir = subprocess.run([pg_config, "--sharedir"], capture_output=True, text=True, check=True).stdout.strip()
        destdir = self._dir / "extension_destdir"
        ext = destdir / sharedir.lstrip("/") / "extension"
        ext.mkdir(parents=True, mode=0o755)
        return ext

    def _run_as_kwargs(self) -> dict[str, object]:
        if not self._run_as:
            return {}
        return {"user": self._run_as, "group": pwd.getpwnam(self._run_as).pw_gid, "extra_groups": []}

    def _cmd(self, args: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
        kwargs: dict[str, object] = {"env": _server_env(), "capture_output": True, "text": True}
        kwargs.update(self._run_as_kwargs())
        kwargs.update(kw)
        res: subprocess.CompletedProcess[str] = subprocess.run(args, **kwargs)  # type: ignore[call-overload]
        if res.returncode != 0:
            raise RuntimeError(f"{' '.join(args)} failed ({res.returncode}):\n{res.stdout}\n{res.stderr}")
        return res

    def start(self) -> LocalCluster:
        """initdb a new cluster and start it, listening on 127.0.0.1 only; a start that fails leaves nothing behind."""
        bindir = find_bindir()
        self._dir = Path(tempfile.mkdtemp(prefix="madnb-pg-"))
        try:
            return self._start(bindir)
        except BaseException:
            self.stop()
            raise

    def _start(self, bindir: Path) -> LocalCluster:
        assert self._dir is not None
        if os.geteuid() == 0:
            self._run_as = SERVER_USER
            pw = pwd.getpwnam(SERVER_USER)
            os.chown(self._dir, pw.pw_uid, pw.pw_gid)
        self._dir.chmod(0o700)
        chosen = not self.port  # a port picked here may be taken by another process before the server binds it
        if chosen:
            self.port = _free_port()
        self._cmd([
            str(bindir / "initdb"), "-D", str(self.datadir), "-U", self.user,
            "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8", "--no-instructions",
        ])
        conf = {
            "listen_addresses": "'127.0.0.1'",
            "port": str(self.port),
            "unix_socket_directories": f"'{self._dir}'",
            "max_connections": "50",
            "shared_buffers": "'256MB'",
            "logging_collector": "off",
        }
        if self.fast:
            conf.update({"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"})
        self._extension_dir = self._private_extension_dir(bindir)
        if self._extension_dir is not None:
            conf["extension_destdir"] = "'" + str(self._dir / "extension_destdir") + "'"
        conf.update(self.settings)
        with open(self.datadir / "postgresql.conf", "a", encoding="utf-8") as f:
            f.write("\n# madnb throwaway cluster\n")
            for k, v in conf.items():
                f.write(f"{k} = {v}\n")
        for attempt in range(PORT_ATTEMPTS):
            try:
                self._cmd([
                    str(bindir / "pg_ctl"), "-D", str(self.datadir), "-l", str(self._dir / "server.log"),
                    "-w", "-t", "60", "start",
                ])
                break
            except RuntimeError:
                # another process bound the free port first (tests start clusters side by side): another port
                if not chosen or attempt == PORT_ATTEMPTS - 1 or "could not bind" not in self.log():
                    raise
                self.port = _free_port()
                with open(self.datadir / "postgresql.conf", "a", encoding="utf-8") as f:
                    f.write(f"port = {self.port}\n")
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection((self.host, self.port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        return self

    def log(self) -> str:
        """The server log so far (for error reports)."""
        if self._dir is None:
            return ""
        try:
            return (self._dir / "server.log").read_text(errors="replace")
        except OSError:
            return ""

    def stop(self) -> None:
        """Stop the server (fast shutdown) and delete the cluster directory."""
        if self._dir is None:
            return
        try:
            if (self.datadir / "postmaster.pid").exists():
                self._cmd([str(find_bindir() / "pg_ctl"), "-D", str(self.datadir), "-m", "fast", "-w", "stop"])
        finally:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None
            self._extension_dir = None

    def __enter__(self) -> LocalCluster:
        return self.start()

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
