"""The exact release, wherever the rows are: one table here, or the shards of a partitioned table.

And the header of a statistics table wherever it is: here, or on another server
behind a postgres_fdw foreign table; and a list of sources wherever they are
(:func:`gather`: tables here, foreign tables, ``server:table``), each with its
header, read and checked before any cell crosses the network.  This module only chooses;
:mod:`madnb_pl.release.statistics_table` (local), :mod:`madnb_pl.merge.shards` and
:mod:`madnb_pl.merge.federation` (other servers) do the work, and none of them needs
to know about the others' case.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from ..core.errors import MadnbError
from ..core.names import NewName, Relation, parse_name, resolve_relation
from ..core.sql import Plpy, quote_ident
from ..inputs.arrays import Training
from ..release import statistics_table
from ..release.statistics_table import Header
from . import federation, shards


def write_exact_here_or_on_shards(plpy: Plpy, training: Training, dest: NewName | Relation) -> Header:
    """The exact statistics of ``t`` into a new statistics table ``dest``; return its header.

    A partitioned source with postgres_fdw partitions is computed on its shards
    (:func:`madnb_pl.merge.shards.write_cells`), anything else by the local pass
    (:func:`madnb_pl.release.statistics_table.write_exact`).
    """
    if shards.write_cells(plpy, training, dest):
        return statistics_table.write_exact_header(plpy, training, dest)
    return statistics_table.write_exact(plpy, training, dest)


def read_header(plpy: Plpy, rel: Relation, subject: str) -> Header:
    """The header of statistics table ``rel`` (22023 when it is not one).

    A foreign table carries no comment of its own: for a postgres_fdw foreign
    table the header is the remote table's comment, read over dblink on the
    same foreign server after checking that the remote table's columns are the
    foreign table's (:func:`madnb_pl.merge.federation.foreign_comment`), and it then
    names that server (:func:`madnb_pl.release.statistics_table.read_on_server`).
    """
    comment, display, server = read_comment(plpy, rel, subject)
    return statistics_header(comment, subject, display, server)


def statistics_header(comment: str | None, subject: str, display: str, server: str | None) -> Header:
    """The statistics header in ``comment`` (22023 naming ``subject`` ``display`` when there is none); read on
    foreign server ``server``, it says so (:func:`madnb_pl.release.statistics_table.read_on_server`)."""
    header = statistics_table.parse_header(comment, subject, display)
    return header if server is None else statistics_table.read_on_server(header, server)


def read_comment(plpy: Plpy, rel: Relation, subject: str) -> tuple[str | None, str, str | None]:
    """The comment of table ``rel`` wherever it is: (comment, how to name the table, its foreign server or None).

    A postgres_fdw foreign table's comment is its remote table's, read on its
    server (:func:`madnb_pl.merge.federation.foreign_comment`); the headers of
    statistics and share tables (:mod:`madnb_pl.merge.secure`) are read so.
    """
    comment, kind = statistics_table.comment_and_kind(plpy, rel)
    if kind == "f":
        remote, server, display = federation.foreign_comment(plpy, rel, subject)
        return remote, display, server
    return comment, rel.display, None


def split_source(text: str | None, argument: str) -> tuple[str | None, str]:
    """(server or None, table name) of a source: ``table``, or ``server:table`` (a colon outside double quotes)."""
    if text is None:
        raise MadnbError("22004", f"{argument} must not be NULL", hint="name a table, or server:table for a table on a foreign server")
    quoted = False
    for i, ch in enumerate(text):
        if ch == '"':
            quoted = not quoted
        elif ch == ":" and not quoted:
            (server,) = parse_name(text[:i], f"{argument} (its server)", max_parts=1)
            return server, text[i + 1:]
    return None, text


H = TypeVar("H", bound=federation.Typed)

ReadAny = Callable[[str | None, str, str, str | None], H]
"""(comment, subject, label, server or None) -> the header of a source wherever it is (:func:`gather`): ``server`` is
the foreign server of a foreign table or of a ``server:table`` source, None for a table here."""


def gather(
    plpy: Plpy, texts: list[str | None] | None, argument: str, read: ReadAny[H], check: Callable[[list[tuple[Relation, H]]], None],
    doing: str = "send the statistics",
) -> list[tuple[Relation, H]]:
    """The sources named by ``texts`` -- tables here, postgres_fdw foreign tables (their comment read on their
    server, :func:`read_comment`), or ``server:table`` (:func:`split_source`: a table on a foreign server reached over
    dblink, :func:`madnb_pl.merge.federation.connect_tables`) -- each with its header as ``read`` parses it.

    ``check`` runs on every header before any cell crosses the network; tables on foreign servers are then
    pulled into temporary tables (ON COMMIT DROP, :class:`madnb_pl.merge.federation.PulledPart`).  Secure
    aggregation's shares and share sums and a named model's statistics are gathered so; ``doing`` says, in an error,
    what a server failed to do.
    """
    if texts is None:
        raise MadnbError("22004", f"{argument} must not be NULL", hint="pass an array of table names (or server:table)")
    if len(texts) == 0:
        raise MadnbError("22023", f"{argument} is empty", hint="pass an array of table names (or server:table)")
    local: dict[int, tuple[Relation, H]] = {}
    remote: list[tuple[int, str, str, str]] = []
    for i, text in enumerate(texts, start=1):
        subject = f"{argument}[{i}]"
        server, name = split_source(text, subject)
        if server is None:
            rel = resolve_relation(plpy, name, subject)
            comment, display, on = read_comment(plpy, rel, subject)
            local[i] = (rel, read(comment, subject, display, on))
        else:
            federation.server_names(plpy, [quote_ident(server)])
            qualified = ".".join(quote_ident(p) for p in parse_name(name, subject))
            remote.append((i, server, qualified, subject))
    if not remote:
        parts = [local[i] for i in sorted(local)]
        check(parts)
        return parts
    with federation.connect_tables(plpy, [(s, q, subj) for _, s, q, subj in remote], read) as fed:
        pulled: dict[int, tuple[Relation, H]] = dict(zip((i for i, *_ in remote), fed.parts, strict=True))
        parts = [local[i] if i in local else pulled[i] for i in range(1, len(texts) + 1)]
        check(parts)
        fed.pull(doing)
    return parts


__all__ = ["ReadAny", "gather", "read_comment", "read_header", "split_source", "statistics_header", "write_exact_here_or_on_shards"]
