"""The exact release, wherever the rows are: one table here, or the shards of a partitioned table.

And the header of a statistics table wherever it is: here, or on another server
behind a postgres_fdw foreign table.  This module only chooses;
:mod:`madnb_pl.release.statistics_table` (local), :mod:`madnb_pl.merge.shards` and
:mod:`madnb_pl.merge.federation` (other servers) do the work, and none of them needs
to know about the others' case.
"""

from __future__ import annotations

from ..core.names import NewName, Relation
from ..core.sql import Plpy
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


__all__ = ["read_comment", "read_header", "write_exact_here_or_on_shards"]
