"""Sharded training: a partitioned table whose partitions live on other servers.

When the training source is a partitioned table with postgres_fdw foreign
tables among its leaf partitions, the ordinary training call
(``create_nb_prepared_data_tables``, ``create_nb_statistics``) computes each
shard's statistics on the server that holds its rows, all shards at once, and
only statistics cross the network:

1. every foreign partition gets a dblink connection through its foreign server
   and user mapping (``dblink_connect(name, server)``, with the links and error
   messages of :mod:`madnb_pl.merge.federation`), in a read-only REPEATABLE READ
   transaction with what postgres_fdw pins (``search_path``,
   ``extra_float_digits``, ...).  The statistics pass of :mod:`madnb_pl.release.array_pass`
   is sent over the remote table (``schema_name`` / ``table_name`` /
   ``column_name`` options, as postgres_fdw reads them) with
   ``dblink_send_query`` to every shard before any result is awaited; local
   partitions run the ordinary pass meanwhile.  Each shard runs the local
   table's pass itself, not a copy: the statements and the decision tree of
   :func:`madnb_pl.release.array_pass.steps` (packed codes after a shape pass,
   rerun with NaN as missing, the unnest pass for odd arrays, the same errors)
   and the refinement of values far from zero of
   :func:`madnb_pl.release.statistics_table.refine_steps`; each statement they
   ask for is sent to the shard and its result rows, statistics cells, land in
   the coordinator's tables (:class:`_ShardRows`) where the checks read them;
2. the shards' pass relations are validated together (:func:`madnb_pl.release.array_pass.check_stats`,
   the same checks and messages as one table), and each shard's cells as every
   merge checks its parts (:func:`madnb_pl.release.statistics_table.check_cells`);
3. each shard becomes one exact statistics part, and the parts are merged as
   ``create_nb_model_from_statistics`` merges them
   (:func:`madnb_pl.merge.part_sums.merged_exact_select`, Chan et al.) into the
   statistics table training keeps.

Shards need nothing but PostgreSQL.  The coordinator needs the dblink
extension (0A000 with a hint otherwise; it is not a dependency of madnb, which
works without it everywhere else).  A private release of a sharded table is
refused (:func:`refuse_private`): each owner releases on its own server and the
statistics are merged.  What crossed the network (rows and bytes of statistics
per shard) is reported at DEBUG2 (``plpy.debug``).
"""

from __future__ import annotations

import secrets
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace

from ..core.errors import MadnbError
from ..core.names import NewName, QualifiedName, Relation
from ..core.sql import F8, I4, I8, Plpy, Sql, temp_name
from ..inputs.arrays import Training, is_sharded
from ..release import array_pass, statistics_table
from . import federation, part_sums


@dataclass(frozen=True)
class Shard:
    """A leaf partition of the training source: local (``server`` None) or a foreign table."""

    partition: Relation
    server: str | None = None
    remote: QualifiedName | None = None  # the remote table, from the foreign table's options
    columns: tuple[tuple[str, str], ...] = ()  # (local column, remote column) for columns with a column_name option

    @property
    def display(self) -> str:
        if self.server is None:
            return f"partition {self.partition.display}"
        return f"partition {self.partition.display} on server {self.server}"


def shards_of(plpy: Plpy, training: Training) -> list[Shard]:
    """The leaf partitions of ``t.source`` (postgres_fdw foreign tables and local tables)."""
    rows = plpy.execute(
        plpy.prepare(
            Sql("SELECT c.oid::pg_catalog.int8 AS oid, n.nspname::pg_catalog.text AS schema, c.relname::pg_catalog.text AS name, "
            "c.relkind::pg_catalog.text AS kind, s.srvname::pg_catalog.text AS server, w.fdwname::pg_catalog.text AS fdw, "
            "(SELECT o.option_value FROM pg_catalog.pg_options_to_table(f.ftoptions) o "
            " WHERE o.option_name OPERATOR(pg_catalog.=) 'schema_name') AS remote_schema, "
            "(SELECT o.option_value FROM pg_catalog.pg_options_to_table(f.ftoptions) o "
            " WHERE o.option_name OPERATOR(pg_catalog.=) 'table_name') AS remote_table "
            "FROM pg_catalog.pg_partition_tree($1) p "
            "JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) p.relid "
            "JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace "
            "LEFT JOIN pg_catalog.pg_foreign_table f ON f.ftrelid OPERATOR(pg_catalog.=) c.oid "
            "LEFT JOIN pg_catalog.pg_foreign_server s ON s.oid OPERATOR(pg_catalog.=) f.ftserver "
            "LEFT JOIN pg_catalog.pg_foreign_data_wrapper w ON w.oid OPERATOR(pg_catalog.=) s.srvfdw "
            "WHERE p.isleaf AND c.relkind OPERATOR(pg_catalog.=) ANY ('{r,f}'::pg_catalog.\"char\"[]) "
            "ORDER BY n.nspname COLLATE \"C\", c.relname COLLATE \"C\""),
            ["pg_catalog.regclass"],
        ),
        [training.source.oid],
    )
    column_names = plpy.prepare(
        Sql("SELECT a.attname::pg_catalog.text AS local, o.option_value AS remote FROM pg_catalog.pg_attribute a "
        "CROSS JOIN LATERAL pg_catalog.pg_options_to_table(a.attfdwoptions) o "
        "WHERE a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped "
        "AND o.option_name OPERATOR(pg_catalog.=) 'column_name'"),
        ["pg_catalog.oid"],
    )
    out = []
    for r in rows:
        rel = Relation(r["schema"], r["name"], int(r["oid"]))
        if r["kind"] == "r":
            out.append(Shard(rel))
            continue
        if r["fdw"] != "postgres_fdw":
            raise MadnbError(
                "0A000",
                f"partition {rel.display} of {training.source.display} is a foreign table of server {r['server']}, "
                f"whose wrapper {r['fdw']} is not postgres_fdw",
                detail="sharded training computes each foreign partition's statistics on its server, "
                "which only a PostgreSQL server (postgres_fdw) can do",
                hint="train from a copy of that partition's rows in a local table, "
                "or release its statistics on its own server (madnb.create_nb_statistics) and merge them",
            )
        remote = QualifiedName(r["remote_schema"] or r["schema"], r["remote_table"] or r["name"])
        mapped = tuple((c["local"], c["remote"]) for c in plpy.execute(column_names, [rel.oid]))
        out.append(Shard(rel, r["server"], remote, mapped))
    return out


# ---------------------------------------------------------------------------
# dblink: one connection per foreign partition (madnb_pl.merge.federation's links)
# ---------------------------------------------------------------------------

# what postgres_fdw pins on its remote sessions (federation does the same), in a
# read-only snapshot so that every step of a shard sees the same rows
_BEGIN = Sql(
    "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY; SET LOCAL search_path = pg_catalog, pg_temp; "
    "SET LOCAL datestyle = ISO; SET LOCAL intervalstyle = postgres; SET LOCAL extra_float_digits = 3"
)
_DOING = "compute its statistics"


class _ShardLink(federation.Link):
    """A connection to one shard that runs a sequence of statements, and counts what they return."""

    def __init__(self, plpy: Plpy, dblink: Sql, i: int, shard: Shard) -> None:
        assert shard.server is not None
        super().__init__(plpy, dblink, shard.server, f"partition {shard.partition.display}")
        self.i = i
        self.rows = 0  # statistics rows received
        self.bytes = 0  # and their size as text (what dblink receives)

    def start(self, scan: array_pass.Scan) -> None:
        """Send ``scan`` (a statement of the pass) to the shard; busy until fetched (Link.close cancels it otherwise)."""
        if scan.gather_factor is not None:  # the parallel_tuple_cost of gather_cost, on the shard
            self.query(
                Sql(
                    "SELECT pg_catalog.set_config('parallel_tuple_cost', (pg_catalog.current_setting('parallel_tuple_cost')"
                    f"::pg_catalog.float8 * {scan.gather_factor!r}::pg_catalog.float8)::pg_catalog.text, true)"
                ),
                Sql("x pg_catalog.text"), _DOING,
            )
        self.send(scan.select, _DOING)

    def fetch(self, scan: array_pass.Scan, into: str, columns: str) -> None:
        """The result of ``scan`` in flight into local table ``into`` (result columns ``columns``), tagged with this
        shard's number.  A float8 overflow there is the pass's error (``scan.overflow``), naming the shard."""
        try:
            got = self._run(
                Sql(
                    f"WITH r AS (SELECT * FROM {self.dblink}.dblink_get_result($1) AS r({columns})), "
                    f"i AS (INSERT INTO {into} SELECT {int(self.i)}, r.* FROM r) "
                    "SELECT pg_catalog.count(*)::pg_catalog.int8 AS k, "
                    "COALESCE(pg_catalog.sum(pg_catalog.octet_length(r::pg_catalog.text)), 0)::pg_catalog.int8 AS b FROM r"
                ),
                ["pg_catalog.text"], [self.name], _DOING,
            )[0]
        except MadnbError as e:
            if e.sqlstate != "22003" or scan.overflow is None:
                raise
            raise scan.overflow from None
        # the empty result that ends a query sent asynchronously (dblink's protocol), before the next one
        self._run(Sql(f"SELECT r.x FROM {self.dblink}.dblink_get_result($1) AS r(x pg_catalog.text)"), ["pg_catalog.text"], [self.name], _DOING)
        self.busy = False
        self.rows += int(got["k"])
        self.bytes += int(got["b"])


@contextmanager
def _links(plpy: Plpy, shards: list[Shard]) -> Iterator[dict[int, _ShardLink]]:
    """Connected links to the foreign partitions (by shard number), each in its snapshot; all closed on the way out."""
    dblink = federation.dblink_schema(plpy)
    links: dict[int, _ShardLink] = {}
    with federation.closing([]) as opened:  # closes them all (cancelling what runs) whatever happens
        for i, shard in enumerate(shards, start=1):
            if shard.server is not None:
                links[i] = _ShardLink(plpy, dblink, i, shard)
                opened.append(links[i])
                links[i].connect()
                links[i].execute(_BEGIN, "set up the session")
        yield links


def _check_remote_types(training: Training, shard: Shard, link: _ShardLink) -> None:
    """The remote table's class and attribute columns must have the types the foreign partition declares (42804).

    The shard computes on its own types: a remote real[] declared float8[] here would
    be widened on the shard (0.1 -> 0.10000000149) where a scan through postgres_fdw
    reads its text (0.1), and the model would not be the one table's.
    """
    assert shard.remote is not None
    names = dict(shard.columns)
    table = federation.remote_table(link, shard.remote.sql, "its table")
    for col in (training.cls, training.attrs):
        name = names.get(col.name, col.name)
        there = table.columns.get(name)
        if there is not None and there.formatted != col.type_sql:
            raise MadnbError(
                "42804",
                f'column "{name}" of {shard.display} is {col.type_sql} here but {there.formatted} on its server',
                detail="the shard computes its statistics on its own column types, which would give another model "
                "than the same rows read here",
                hint="declare the foreign partition with the remote types (IMPORT FOREIGN SCHEMA does)",
            )


# ---------------------------------------------------------------------------
# The statistics pass of one shard, step by step
# ---------------------------------------------------------------------------

def _remote_training(training: Training, shard: Shard) -> Training:
    """``t`` with the remote table and column names of ``shard`` (the SQL of a pass sent there)."""
    assert shard.remote is not None
    names = dict(shard.columns)
    return replace(
        training,
        source=Relation(shard.remote.schema, shard.remote.name, 0),
        cls=replace(training.cls, name=names.get(training.cls.name, training.cls.name)),
        attrs=replace(training.attrs, name=names.get(training.attrs.name, training.attrs.name)),
    )


@dataclass(frozen=True)
class _Tables:
    """The coordinator's temporary relations of one sharded pass (each row tagged with its shard), by role."""

    names: dict[str, str]  # array_pass.PASS, SHAPE, REFINED -> table
    columns: dict[str, str]  # their columns after the shard number (the column definition list of a result)

    def pass_of(self, i: int) -> Sql:
        return Sql(
            f"(SELECT x.cls, x.o, x.v, x.n, x.nv, x.mean, x.var FROM {self.names[array_pass.PASS]} AS x "
            f"WHERE x.shard OPERATOR(pg_catalog.=) {int(i)})"
        )


def _create_tables(plpy: Plpy, training: Training) -> _Tables:
    cls, elem = training.cls.type_sql, training.attrs.elem_sql
    columns = {
        array_pass.PASS: f"cls {cls}, o {I4}, v {elem}, n {I8}, nv {I8}, mean {F8}, var {F8}",
        array_pass.SHAPE: f"cls {cls}, n_rows {I8}, n_empty {I8}, n_other {I8}",
        array_pass.REFINED: f"cls {cls}, o {I4}, c {F8}, r {F8}, v {F8}, odd {I8}",
    }
    tables = _Tables({role: temp_name(f"madnb_{role}_") for role in columns}, columns)
    for role, cols in columns.items():
        plpy.execute(Sql(f"CREATE TEMPORARY TABLE {tables.names[role]} (shard {I4}, {cols}) ON COMMIT DROP"))
    return tables


class _ShardRows:
    """The relations of one shard's pass (:class:`madnb_pl.release.array_pass.Relations`): its rows of the coordinator's tables."""

    def __init__(self, plpy: Plpy, tables: _Tables, i: int) -> None:
        self.plpy, self.tables, self.i = plpy, tables, i

    def read(self, role: str) -> str:
        if role == array_pass.PASS:
            return self.tables.pass_of(self.i)
        return f"(SELECT x.* FROM {self.tables.names[role]} AS x WHERE x.shard OPERATOR(pg_catalog.=) {int(self.i)})"

    def add(self, role: str, select: Sql) -> None:
        self.plpy.execute(Sql(f"INSERT INTO {self.tables.names[role]} SELECT {int(self.i)}, r.* FROM ({select}) AS r"))

    def clear(self, role: str) -> None:
        self.plpy.execute(Sql(f"DELETE FROM {self.tables.names[role]} AS x WHERE x.shard OPERATOR(pg_catalog.=) {int(self.i)}"))


def _shard_steps(plpy: Plpy, training: Training, shard: Shard, rels: _ShardRows, part: str) -> Generator[array_pass.Scan, None, None]:
    """The statistics pass of one foreign partition: the local pass's statements and decisions
    (:func:`madnb_pl.release.array_pass.steps`) over the remote table, then its statistics part ``part``
    refined where its values sit far from zero (:func:`madnb_pl.release.statistics_table.refine_steps`).

    Yields the statements to run on the shard; their rows arrive in ``rels`` before the generator resumes.
    """
    remote = _remote_training(training, shard)
    yield from array_pass.steps(plpy, array_pass.plan(training, remote, shard.display), rels)
    statistics_table.insert_cells(plpy, training, rels.read(array_pass.PASS), part)
    yield from statistics_table.refine_steps(plpy, statistics_table.refinement(remote), part, rels)


def _local_part(plpy: Plpy, training: Training, i: int, shard: Shard, tables: _Tables, part: str) -> None:
    """The ordinary pass over a local partition, tagged as shard ``i``, and its statistics part."""
    lt = replace(training, source=shard.partition)
    s = array_pass.materialise(plpy, training, lt, shard.display)
    plpy.execute(
        Sql(f"INSERT INTO {tables.names[array_pass.PASS]} SELECT {int(i)}, s.cls, s.o, s.v, s.n, s.nv, s.mean, s.var FROM {s} AS s")
    )
    plpy.execute(Sql(f"DROP TABLE {s}"))
    statistics_table.insert_cells(plpy, training, tables.pass_of(i), part)
    statistics_table.refine_far_from_zero(plpy, statistics_table.refinement(lt), part)


# ---------------------------------------------------------------------------
# The hook: training's exact statistics of a sharded source
# ---------------------------------------------------------------------------


def write_cells(plpy: Plpy, training: Training, dest: NewName | Relation) -> bool:
    """Create statistics table ``dest`` with the statistics of a sharded ``t.source``; False if it is not sharded.

    See the module docstring.  Nothing but statistics crosses the network; an
    error on a shard names it, and the calling statement fails whole.
    """
    if not is_sharded(plpy, training.source):
        return False
    shards = shards_of(plpy, training)
    _check_readable(plpy, training)
    tables = _create_tables(plpy, training)
    parts: list[tuple[Relation, statistics_table.Header]] = []
    for i, shard in enumerate(shards, start=1):
        name = f"madnb_part_{secrets.token_hex(6)}_{i}"
        statistics_table.create_table(plpy, NewName("pg_temp", name), training)
        parts.append((Relation("pg_temp", name, 0), statistics_table.exact_header(training, "", id=f"{i}", source=shard.partition.display)))
    with _links(plpy, shards) as links:
        for i, link in links.items():
            _check_remote_types(training, shards[i - 1], link)
        steps: dict[int, tuple[Generator[array_pass.Scan, None, None], array_pass.Scan]] = {}
        # every shard gets its first statement before anything is awaited ...
        for i, link in links.items():
            gen = _shard_steps(plpy, training, shards[i - 1], _ShardRows(plpy, tables, i), parts[i - 1][0].sql)
            scan = next(gen)
            link.start(scan)
            steps[i] = (gen, scan)
        # ... then the local partitions run here while the shards work
        for i, shard in enumerate(shards, start=1):
            if shard.server is None:
                _local_part(plpy, training, i, shard, tables, parts[i - 1][0].sql)
        while steps:
            for i in list(steps):
                gen, scan = steps.pop(i)
                links[i].fetch(scan, tables.names[scan.into], tables.columns[scan.into])
                nxt = next(gen, None)
                if nxt is not None:
                    links[i].start(nxt)
                    steps[i] = (gen, nxt)
        for i, link in links.items():
            plpy.debug(f"madnb: {shards[i - 1].display}: {link.rows} rows, {link.bytes} bytes of statistics received")
    passes = tables.names[array_pass.PASS]
    array_pass.check_stats(plpy, f"(SELECT x.cls, x.o, x.v, x.n, x.nv, x.mean, x.var FROM {passes} AS x)", training)
    for (rel, h), shard in zip(parts, shards, strict=True):  # what every merge checks of its parts
        statistics_table.check_cells(plpy, rel.sql, h, f"the statistics of {shard.display}")
    statistics_table.create_table(plpy, dest, training)
    merged = part_sums.merged_exact_select(parts, training)
    plpy.execute(
        Sql(f"INSERT INTO {dest.sql} (cls, attr, value, n, nv, mean, var, mean_lo) "
        f"SELECT m.cls, m.o, m.v, m.n, m.nv, m.mean, m.var, m.mean_lo FROM ({merged}) AS m")
    )
    for rel, _ in parts:
        plpy.execute(Sql(f"DROP TABLE {rel.sql}"))
    for table in tables.names.values():
        plpy.execute(Sql(f"DROP TABLE {table}"))
    return True


def _check_readable(plpy: Plpy, training: Training) -> None:
    """What a scan of the source would check: SELECT on both columns, and no row-level security in force."""
    r = plpy.execute(
        plpy.prepare(
            Sql("SELECT pg_catalog.has_column_privilege($1, $2, 'SELECT') AND pg_catalog.has_column_privilege($1, $3, 'SELECT') AS ok, "
            "pg_catalog.row_security_active($1) AS rls"),
            ["pg_catalog.oid", "pg_catalog.text", "pg_catalog.text"],
        ),
        [training.source.oid, training.cls.name, training.attrs.name],
    )[0]
    if not r["ok"]:
        raise MadnbError("42501", f"permission denied for table {training.source.display}", detail=f'columns "{training.cls.name}" and "{training.attrs.name}"')
    if r["rls"]:
        raise MadnbError(
            "0A000",
            f"row-level security is in force on {training.source.display}, which has partitions on other servers",
            detail="the shards would compute statistics of rows your policies hide",
            hint="train from a view or table holding the rows you may see, or as a role the policies do not apply to",
        )


__all__ = [
    "Shard",
    "is_sharded",
    "shards_of",
    "write_cells",
]
