"""Federation: statistics tables released on other PostgreSQL servers, merged here.

Each owner releases its statistics on its own server (``madnb.create_nb_statistics``,
exact or private, charged to its own ledger and budget).  The aggregator reaches
the owners through the user's own configuration -- postgres_fdw foreign servers
and user mappings (``CREATE SERVER``, ``CREATE USER MAPPING``) -- and dblink over
those same servers and mappings (``dblink_connect(name, '<foreign server>')``).
Two ways in:

* **foreign tables** (``IMPORT FOREIGN SCHEMA``) listed in
  ``create_nb_model_from_statistics``: the rows are read through postgres_fdw as
  any foreign table's; the header -- the remote table's comment, which a foreign
  table does not carry -- is read over dblink on the foreign table's server
  (:func:`foreign_comment`), after checking that the remote table's columns are
  the foreign table's;
* **one call**, ``create_nb_federated_tables(servers, "remoteStatisticsName", ...)``
  (:func:`connect`, :meth:`Federation.pull`): one dblink connection per server;
  every header is read and checked first, then every part's query is sent at once
  (``dblink_send_query``) and the results collected (``dblink_get_result``) into
  temporary tables shaped like statistics tables, so the owners answer
  concurrently; :func:`madnb_pl.derive.model_tables.merge_and_derive` merges them exactly as it
  merges local parts, and the model keeps their sum (an online update adds to it).

Only statistics cells and catalog facts about the statistics table (its comment,
its columns' types) cross the network; a training row never does, and the
remote role needs nothing but SELECT on the statistics table.

dblink connections outlive transactions: every one opened here is closed before
the call returns, whatever happens.  Each remote session first pins what
postgres_fdw pins (``search_path = pg_catalog, pg_temp``, ISO dates, ``postgres``
intervals, ``extra_float_digits = 3``), so that values cross as text exactly and
types print the same way on both sides.  SQL sent to a server is built here from
quoted identifiers, integers and ``quote_literal`` values; locally the connection
name and that SQL are parameters.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from ..core.errors import MadnbError
from ..core.names import NewName, QualifiedName, Relation, created, parse_name
from ..core.progress import Progress
from ..core.sql import Plpy, Sql, quote_ident
from ..release.statistics_table import COLUMNS, FIXED_COLUMN_TYPES, Header, columns_ddl, parse_header, read_on_server

WRAPPERS = ("postgres_fdw", "dblink_fdw")
"""Foreign-data wrappers whose servers dblink can connect to."""

_PIN_REMOTE = Sql("SET search_path = pg_catalog, pg_temp; SET datestyle = ISO; SET intervalstyle = postgres; SET extra_float_digits = 3")


def dblink_schema(plpy: Plpy) -> Sql:
    """The quoted schema of the dblink extension (0A000 when it is not installed)."""
    rows = plpy.execute(
        Sql("SELECT n.nspname::pg_catalog.text AS s FROM pg_catalog.pg_extension AS e "
        "JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace "
        "WHERE e.extname OPERATOR(pg_catalog.=) 'dblink'")
    )
    if not rows:
        raise MadnbError(
            "0A000", "the dblink extension is not installed in this database",
            detail="madnb reads statistics on other servers over dblink, through the foreign server and your user mapping",
            hint="CREATE EXTENSION dblink",
        )
    return quote_ident(str(rows[0]["s"]))


def spi_diagnostics(e: Exception) -> tuple[str | None, str | None]:
    """(DETAIL, HINT) of a PostgreSQL error caught in PL/Python (``plpy.SPIError`` keeps them in ``spidata``)."""
    data = getattr(e, "spidata", None)
    if isinstance(data, tuple) and len(data) >= 3:
        return data[1] or None, data[2] or None
    return None, None


class Link:
    """One named dblink connection to a foreign server, for one part (``subject`` names it in errors).

    ``busy`` is true while a statement may be running on the server (sent and not
    yet collected, or interrupted while the aggregator waited for it): :meth:`close`
    then cancels it there (``dblink_cancel_query``) before disconnecting, so that a
    cancel or a statement_timeout on the aggregator, or an error on another link,
    leaves no owner's query running.
    """

    def __init__(self, plpy: Plpy, dblink: Sql, server: str, subject: str):
        self.plpy, self.dblink, self.server, self.subject = plpy, dblink, server, subject
        self.name = "madnb_" + secrets.token_hex(6)
        self.opened = False
        self.busy = False

    def _run(self, sql: Sql, types: Sequence[str], args: Sequence[Any], doing: str) -> Any:
        try:
            return self.plpy.execute(self.plpy.prepare(sql, list(types)), list(args))
        except self.plpy.SPIError as e:
            state = getattr(e, "sqlstate", None) or "08000"
            primary = str(e.args[0]) if e.args else str(e)
            detail, hint = spi_diagnostics(e)
            if doing == "connect":
                raise MadnbError(
                    state, f'could not connect to server "{self.server}" for {self.subject}',
                    detail=detail or primary,  # libpq's reason: refused, no such database, password failed, ...
                    hint=f"check that the server is running and that your user mapping for server {self.server} "
                    "(CREATE USER MAPPING ... SERVER ... OPTIONS (user ..., password ...)) lets you in",
                ) from None
            raise MadnbError(
                state, f'server "{self.server}" failed to {doing} for {self.subject}: {primary}', detail=detail, hint=hint,
            ) from None

    def _remote(self, sql: Sql, types: Sequence[str], args: Sequence[Any], doing: str) -> Any:
        """:meth:`_run` a statement that runs SQL on the server: busy until it has returned."""
        self.busy = True
        out = self._run(sql, types, args, doing)
        self.busy = False
        return out

    def connect(self) -> None:
        self._run(Sql(f"SELECT {self.dblink}.dblink_connect($1, $2)"), ["pg_catalog.text"] * 2, [self.name, self.server], "connect")
        self.opened = True

    def execute(self, remote_sql: Sql, doing: str) -> None:
        self._remote(Sql(f"SELECT {self.dblink}.dblink_exec($1, $2)"), ["pg_catalog.text"] * 2, [self.name, remote_sql], doing)

    def query(self, remote_sql: Sql, columns: Sql, doing: str) -> Any:
        """The rows of ``remote_sql``, whose result columns are ``columns`` (``name type, ...``)."""
        return self._remote(
            Sql(f"SELECT r.* FROM {self.dblink}.dblink($1, $2) AS r({columns})"), ["pg_catalog.text"] * 2, [self.name, remote_sql], doing,
        )

    def send(self, remote_sql: Sql, doing: str) -> None:
        """Start ``remote_sql`` on the server and return at once (:meth:`collect` reads its result)."""
        self.busy = True
        self._run(Sql(f"SELECT {self.dblink}.dblink_send_query($1, $2)"), ["pg_catalog.text"] * 2, [self.name, remote_sql], doing)

    def collect(self, into: Sql, columns: Sql, doing: str) -> None:
        """Insert the result of the query :meth:`send` started into table ``into``, waiting for it if need be."""
        self._remote(
            Sql(f"INSERT INTO {into} SELECT r.* FROM {self.dblink}.dblink_get_result($1) AS r({columns})"),
            ["pg_catalog.text"], [self.name], doing,
        )

    def close(self) -> None:
        """Cancel what may still run on the server (see the class docstring), then disconnect."""
        if not self.opened:
            return
        try:
            if self.busy:
                self.busy = False
                self._run(Sql(f"SELECT {self.dblink}.dblink_cancel_query($1)"), ["pg_catalog.text"], [self.name], "cancel its query")
        finally:
            self.opened = False
            self._run(Sql(f"SELECT {self.dblink}.dblink_disconnect($1)"), ["pg_catalog.text"], [self.name], "disconnect")


def close_all(links: Iterable[Link]) -> MadnbError | None:
    """Close every link (each cancelling what still runs on its server); the first failure to close, if any."""
    first: MadnbError | None = None
    for link in links:
        try:
            link.close()
        except MadnbError as e:
            first = first or e
    return first


@contextmanager
def closing(links: list[Link]) -> Iterator[list[Link]]:
    """``links`` (filled by the caller as it connects), all closed on the way out, whatever happens.

    On an error (a cancel or statement_timeout on the aggregator included) every
    server's query still running is cancelled first, and the error that brought us
    here is the one reported; otherwise a failure to close is.
    """
    try:
        yield links
    except BaseException:
        close_all(links)
        raise
    failed = close_all(links)
    if failed is not None:
        raise failed


@contextmanager
def _links(plpy: Plpy, servers: Sequence[tuple[str, str]]) -> Iterator[list[Link]]:
    """Connected links to ``servers`` ((server, subject) pairs), all closed on the way out."""
    dblink = dblink_schema(plpy)
    with closing([]) as links:
        for server, subject in servers:
            link = Link(plpy, dblink, server, subject)
            links.append(link)
            link.connect()
        yield links


@dataclass(frozen=True)
class RemoteColumn:
    type_schema: str
    type_name: str
    typmod: int
    formatted: str  # format_type under search_path = pg_catalog, pg_temp


@dataclass(frozen=True)
class RemoteTable(QualifiedName):
    """A statistics table on a server: its name there (``sql``, ``display``), its comment and its columns."""

    comment: str | None
    columns: dict[str, RemoteColumn]


def remote_table(link: Link, qualified: str, subject: str = "the statistics table") -> RemoteTable:
    """Resolve ``qualified`` (quoted identifiers) on the server, pin the session, and describe the table (``subject``, in errors).

    The name is resolved before the session is pinned, so that an unqualified
    name is looked up on the remote role's own search_path.
    """
    literal = link.plpy.quote_literal(qualified)
    found = link.query(
        Sql(f"SELECT pg_catalog.to_regclass({literal})::pg_catalog.oid::pg_catalog.int8"), Sql("oid pg_catalog.int8"),
        f"find {subject}",
    )[0]["oid"]
    if found is None:
        raise MadnbError(
            "42P01", f'relation {qualified} does not exist on server "{link.server}"', detail=f"{link.subject}",
            hint="unqualified names are looked up on the search_path of the role your user mapping logs in as",
        )
    link.execute(_PIN_REMOTE, "set up the session")
    oid = int(found)
    row = link.query(Sql(
        "SELECT n.nspname::pg_catalog.text, c.relname::pg_catalog.text, pg_catalog.obj_description(c.oid, 'pg_class'), "
        "(SELECT pg_catalog.json_agg(pg_catalog.json_build_array(a.attname, tn.nspname, t.typname, a.atttypmod, "
        "pg_catalog.format_type(a.atttypid, a.atttypmod)) ORDER BY a.attnum) "
        "FROM pg_catalog.pg_attribute AS a JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid "
        "JOIN pg_catalog.pg_namespace AS tn ON tn.oid OPERATOR(pg_catalog.=) t.typnamespace "
        "WHERE a.attrelid OPERATOR(pg_catalog.=) c.oid AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped)::pg_catalog.text "
        "FROM pg_catalog.pg_class AS c JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace "
        f"WHERE c.oid OPERATOR(pg_catalog.=) {oid}::pg_catalog.oid"),
        Sql("schema pg_catalog.text, name pg_catalog.text, comment pg_catalog.text, columns pg_catalog.text"),
        f"describe {subject}",
    )[0]
    columns = {
        str(c[0]): RemoteColumn(str(c[1]), str(c[2]), int(c[3]), str(c[4])) for c in json.loads(row["columns"] or "[]")
    }
    return RemoteTable(str(row["schema"]), str(row["name"]), row["comment"], columns)


def _not_statistics(subject: str, where: str, detail: str) -> MadnbError:
    return MadnbError(
        "22023", f"{subject} {where} is not a madnb statistics table", detail=detail,
        hint="statistics tables are made by madnb.create_nb_statistics on the owner's server",
    )


# ---------------------------------------------------------------------------
# Foreign tables listed in create_nb_model_from_statistics
# ---------------------------------------------------------------------------


def foreign_comment(
    plpy: Plpy, rel: Relation, subject: str, columns: Sequence[str] = COLUMNS,
    not_released: Callable[[str, str, str], MadnbError] | None = None,
) -> tuple[str | None, str, str]:
    """The header text of foreign table ``rel``'s remote table: (comment, server, how to name the part).

    The remote table is the foreign table's ``schema_name`` / ``table_name``
    options, by default its own schema and name (postgres_fdw's rules); each
    of ``columns`` of the foreign table (its ``column_name`` option, by
    default its own name; a statistics table's by default) must be a column of
    the remote table of the same type.  ``not_released`` (subject, where, detail):
    the error for a foreign table without one of them (by default, not a statistics table).
    """
    rows = plpy.execute(
        plpy.prepare(
            Sql("SELECT s.srvname::pg_catalog.text AS server, w.fdwname::pg_catalog.text AS wrapper, "
            "(SELECT o.option_value FROM pg_catalog.pg_options_to_table(ft.ftoptions) AS o "
            " WHERE o.option_name OPERATOR(pg_catalog.=) 'schema_name') AS schema_name, "
            "(SELECT o.option_value FROM pg_catalog.pg_options_to_table(ft.ftoptions) AS o "
            " WHERE o.option_name OPERATOR(pg_catalog.=) 'table_name') AS table_name "
            "FROM pg_catalog.pg_foreign_table AS ft JOIN pg_catalog.pg_foreign_server AS s ON s.oid OPERATOR(pg_catalog.=) ft.ftserver "
            "JOIN pg_catalog.pg_foreign_data_wrapper AS w ON w.oid OPERATOR(pg_catalog.=) s.srvfdw "
            "WHERE ft.ftrelid OPERATOR(pg_catalog.=) $1"),
            ["pg_catalog.oid"],
        ),
        [rel.oid],
    )
    r = rows[0]
    server = str(r["server"])
    if r["wrapper"] != "postgres_fdw":
        raise MadnbError(
            "22023", f"{subject} {rel.display} is a foreign table of server {server}, whose wrapper is {r['wrapper']}",
            detail="madnb reads the header of a statistics table through postgres_fdw foreign tables only",
            hint="import the owner's statistics table with IMPORT FOREIGN SCHEMA from a postgres_fdw server",
        )
    remote_schema = r["schema_name"] if r["schema_name"] is not None else rel.schema
    remote_name = r["table_name"] if r["table_name"] is not None else rel.name
    local = {
        str(c["name"]): (str(c["remote"]), str(c["typ"]))
        for c in plpy.execute(
            plpy.prepare(
                Sql("SELECT a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, "
                "COALESCE((SELECT o.option_value FROM pg_catalog.pg_options_to_table(a.attfdwoptions) AS o "
                "WHERE o.option_name OPERATOR(pg_catalog.=) 'column_name'), a.attname::pg_catalog.text) AS remote "
                "FROM pg_catalog.pg_attribute AS a WHERE a.attrelid OPERATOR(pg_catalog.=) $1 "
                "AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped"),
                ["pg_catalog.oid"],
            ),
            [rel.oid],
        )
    }
    display = f"{rel.display} (a foreign table of server {server})"
    missing = [c for c in columns if c not in local]
    if missing:
        raise (not_released or _not_statistics)(subject, display, f'it has no column "{missing[0]}"')
    with _links(plpy, [(server, f"{subject} {rel.display}")]) as (link,):
        table = remote_table(link, QualifiedName(remote_schema, remote_name).sql)
    for col in columns:
        remote_col, typ = local[col]
        there = table.columns.get(remote_col)
        if there is None or there.formatted != typ:
            raise MadnbError(
                "22023", f"{subject} {rel.display} does not match its remote table {table.display} on server {server}",
                detail=f'column "{col}" is {typ} here' + (
                    f', remote column "{remote_col}" is {there.formatted}' if there is not None else f', the remote table has no column "{remote_col}"'
                ),
                hint="import the statistics table again (IMPORT FOREIGN SCHEMA ... LIMIT TO (...)) rather than declaring it by hand",
            )
    return table.comment, server, display


# ---------------------------------------------------------------------------
# One call: create_nb_federated_tables
# ---------------------------------------------------------------------------


HH = TypeVar("HH")


@dataclass(frozen=True)
class PulledPart(Relation):
    """A temporary table holding the statistics pulled from one server; named in messages as the remote table."""

    label: str = ""

    @property
    def display(self) -> str:
        return self.label


@dataclass
class Federation(Generic[HH]):
    """Open links to the servers of one call, each with its remote table, header and (empty) temporary table."""

    plpy: Plpy
    links: list[Link]
    tables: list[RemoteTable] = field(default_factory=list)
    parts: list[tuple[PulledPart, HH]] = field(default_factory=list)
    columns: list[Sql] = field(default_factory=list)  # each part's columns, for dblink_get_result

    def pull(self, doing: str = "send the statistics") -> list[tuple[PulledPart, HH]]:
        """Every part's cells into its temporary table: sent to all servers at once, then collected."""
        progress = Progress(self.plpy, f"pull the statistics of {len(self.links)} servers", len(self.links))
        for link, table in zip(self.links, self.tables, strict=True):
            link.send(Sql(f"SELECT {', '.join('s.' + c for c in COLUMNS)} FROM {table.sql} AS s"), doing)
        for i, (link, (part, _), columns) in enumerate(zip(self.links, self.parts, self.columns, strict=True), start=1):
            progress.phase(f"server {i} of {len(self.links)} ({link.server})")
            link.collect(part.sql, columns, doing)
        progress.done()
        return self.parts


def server_names(plpy: Plpy, servers: list[str | None] | None) -> list[str]:
    """The foreign servers named in ``servers`` (identifiers), each checked to exist and to be one dblink can reach."""
    if servers is None:
        raise MadnbError("22004", "servers must not be NULL", hint="pass an array of foreign server names, e.g. ARRAY['owner1', 'owner2']")
    if len(servers) == 0:
        raise MadnbError("22023", "servers is empty", hint="pass at least one foreign server, e.g. ARRAY['owner1', 'owner2']")
    plan = plpy.prepare(
        Sql("SELECT w.fdwname::pg_catalog.text AS wrapper FROM pg_catalog.pg_foreign_server AS s "
        "JOIN pg_catalog.pg_foreign_data_wrapper AS w ON w.oid OPERATOR(pg_catalog.=) s.srvfdw "
        "WHERE s.srvname OPERATOR(pg_catalog.=) $1"),
        ["pg_catalog.name"],
    )
    out = []
    for i, text in enumerate(servers, start=1):
        (name,) = parse_name(text, f"servers[{i}]", max_parts=1)
        rows = plpy.execute(plan, [name])
        if not rows:
            raise MadnbError(
                "42704", f'server "{name}" does not exist', detail=f"servers[{i}] is {text!r}",
                hint="create it with CREATE SERVER ... FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host ..., dbname ...) "
                "and a user mapping; names are identifiers (quote names with capitals)",
            )
        if rows[0]["wrapper"] not in WRAPPERS:
            raise MadnbError(
                "22023", f'server "{name}" is a server of foreign-data wrapper {rows[0]["wrapper"]}',
                detail=f"servers[{i}]; madnb reaches owners through servers of {' or '.join(WRAPPERS)}",
            )
        out.append(name)
    return out


def _local_type(plpy: Plpy, col: RemoteColumn) -> str | None:
    """This database's name for the type of a remote column (None when there is no such type here)."""
    rows = plpy.execute(
        plpy.prepare(
            Sql("SELECT pg_catalog.format_type(t.oid, $3) AS typ FROM pg_catalog.pg_type AS t "
            "JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) t.typnamespace "
            "WHERE n.nspname OPERATOR(pg_catalog.=) $1 AND t.typname OPERATOR(pg_catalog.=) $2"),
            ["pg_catalog.name", "pg_catalog.name", "pg_catalog.int4"],
        ),
        [col.type_schema, col.type_name, col.typmod],
    )
    return str(rows[0]["typ"]) if rows else None


class Typed(Protocol):
    """A header that names the class and value types of its table's columns (statistics and share headers)."""

    @property
    def class_type(self) -> str: ...

    @property
    def element_type(self) -> str: ...


H = TypeVar("H", bound=Typed)

ReadHeader = Callable[[str | None, str, str, str], H]
"""(comment, subject, label, server) -> the header of a remote table, or a 22023 naming ``subject`` ``label``."""


def read_statistics_header(comment: str | None, subject: str, label: str, server: str) -> Header:
    """The statistics header of a remote table (:func:`connect`'s default reader)."""
    return read_on_server(parse_header(comment, subject, label), server)


def _checked_part(plpy: Plpy, link: Link, table: RemoteTable, read: ReadHeader[H]) -> tuple[PulledPart, H, Sql]:
    """The part's header, checked against its remote columns, an empty temporary table to pull it into, and its columns."""
    label = f"{table.display} on server {link.server}"
    header = read(table.comment, link.subject, label, link.server)
    types: dict[str, str] = {}
    for col in COLUMNS:
        there = table.columns.get(col)
        if there is None:
            raise _not_statistics(link.subject, label, f'it has no column "{col}"')
        want = FIXED_COLUMN_TYPES.get(col) or (header.class_type if col == "cls" else header.element_type)
        here = _local_type(plpy, there)
        if there.formatted != want or here != want:
            raise MadnbError(
                "22023", f"{link.subject} {label} does not match its header",
                detail=f'column "{col}" is {there.formatted} on server {link.server}'
                + ("" if here == there.formatted else (f", {here} here" if here is not None else ", a type that does not exist here"))
                + f"; the header says {want}",
                hint="a statistics table is not to be altered, and its class and value types must exist on this server too",
            )
        types[col] = want  # = here: this database's spelling of the type
    name = "madnb_part_" + secrets.token_hex(6)
    plpy.execute(Sql(f"CREATE TEMPORARY TABLE {quote_ident(name)} {columns_ddl(types['cls'], types['value'])} ON COMMIT DROP"))
    oid = created(plpy, NewName("pg_temp", name)).oid
    # types as this database's format_type spells them (the fixed ones are SQL keywords: pg_catalog's)
    columns = Sql(", ".join(f"{c} {types[c]}" for c in COLUMNS))
    return PulledPart("pg_temp", name, oid, label=label), header, columns


@contextmanager
def connect(plpy: Plpy, servers: list[str], remote_statistics: str | None) -> Iterator[Federation[Header]]:
    """Connect to every server, find ``remote_statistics`` on each, check its header; close everything on the way out.

    Nothing but catalog facts has crossed the network when this yields: the
    caller checks the headers' compatibility, then calls :meth:`Federation.pull`.
    """
    qualified = ".".join(quote_ident(p) for p in parse_name(remote_statistics, "remoteStatisticsName"))
    targets = [(s, qualified, f"servers[{i}]") for i, s in enumerate(servers, start=1)]
    with connect_tables(plpy, targets, read_statistics_header) as fed:
        yield fed


@contextmanager
def connect_tables(plpy: Plpy, targets: Sequence[tuple[str, str, str]], read: ReadHeader[H]) -> Iterator[Federation[H]]:
    """:func:`connect` to tables of any name: ``targets`` are (server, quoted remote name, subject), ``read``
    parses each remote table's comment into its header (statistics tables, or secure aggregation's shares)."""
    with _links(plpy, [(s, subject) for s, _, subject in targets]) as links:
        fed: Federation[H] = Federation(plpy, links)
        for link, (_, qualified, _) in zip(links, targets, strict=True):
            table = remote_table(link, qualified)
            part, header, columns = _checked_part(plpy, link, table, read)
            fed.tables.append(table)
            fed.parts.append((part, header))
            fed.columns.append(columns)
        yield fed


__all__ = [
    "WRAPPERS", "Federation", "Link", "PulledPart", "RemoteTable", "close_all", "closing", "connect", "connect_tables", "dblink_schema",
    "foreign_comment", "read_statistics_header", "remote_table", "server_names", "spi_diagnostics",
]
