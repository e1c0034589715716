"""The statistics a named model is made from (``madnb.train_from_statistics``), wherever they are.

One argument lists either

* **statistics tables** (``madnb.create_nb_statistics``'s, or any sum of them): tables
  here, postgres_fdw foreign tables, or ``server:table`` on a foreign server reached
  over dblink -- a federation of owners, as ``create_nb_federated_tables`` reaches
  them.  Every header is read and checked for compatibility
  (:func:`madnb_pl.merge.part_sums.check_compatible`, a part listed twice included)
  before any cell crosses the network; the model's merge then sums them as
  ``create_nb_model_from_statistics`` does;
* or the **share sums** of one secure aggregation (``madnb.create_nb_share_sum``'s,
  one per aggregation server), checked as ``create_nb_model_from_shares`` checks them
  (:func:`madnb_pl.merge.secure.check_share_sums`) and reconstructed
  (:func:`madnb_pl.merge.secure.reconstruct`) into one statistics part.

Both are gathered by :func:`madnb_pl.merge.part_sources.gather`; which they are is read
off each header, and the two are never mixed (22023).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import MadnbError
from ..core.names import Relation
from ..core.sql import Plpy, Sql
from ..release import share_table
from ..release.share_table import SHARE_SUM, ShareHeader
from ..release.statistics_table import Header
from . import federation, part_sources, secure
from .part_sums import check_compatible


@dataclass(frozen=True)
class Sources:
    """The parts a named model sums (statistics tables, or the one part reconstructed from share sums), how a message
    names them (``subject``) and the temporary tables among them (dropped once they are summed)."""

    parts: list[tuple[Relation, Header]]
    subject: str
    temporary: list[Relation]
    share_sums: bool

    def drop_temporary(self, plpy: Plpy) -> None:
        for rel in self.temporary:
            plpy.execute(Sql(f"DROP TABLE {rel.sql}"))


def _read(comment: str | None, subject: str, label: str, server: str | None) -> Header | ShareHeader:
    """A share sum's header when the comment is a share header (a share table of one owner is refused by
    :func:`madnb_pl.release.share_table.parse`), else a statistics header (22023 when it is neither)."""
    if comment is not None and comment.startswith(share_table.COMMENT_PREFIX):
        return share_table.parse(comment, subject, label, SHARE_SUM)
    return part_sources.statistics_header(comment, subject, label, server)


def gather(plpy: Plpy, texts: list[str | None] | None, argument: str = "statistics") -> Sources:
    """The statistics tables or share sums named by ``texts`` as the parts of one sum (see the module docstring)."""

    def check(parts: list[tuple[Relation, Header | ShareHeader]]) -> None:
        shares = [isinstance(h, ShareHeader) for _, h in parts]
        if any(shares) and not all(shares):
            i = shares.index(not shares[0]) + 1
            first = "a share sum" if shares[0] else "a statistics table"
            raise MadnbError(
                "22023", f"{argument}[{i}] ({parts[i - 1][0].display}) is {'a share sum' if shares[i - 1] else 'a statistics table'}, "
                f"{argument}[1] ({parts[0][0].display}) {first}",
                detail="a model is made from statistics tables (their sum) or from the share sums of one secure aggregation, not both",
                hint="list statistics tables only, or every aggregation server's share sum only",
            )
        if shares[0]:
            secure.check_share_sums([(r, h) for r, h in parts if isinstance(h, ShareHeader)], argument)
        else:
            check_compatible([(r, h) for r, h in parts if isinstance(h, Header)])

    gathered = part_sources.gather(plpy, texts, argument, _read, check)
    pulled: list[Relation] = [r for r, _ in gathered if isinstance(r, federation.PulledPart)]
    sums = [(r, h) for r, h in gathered if isinstance(h, ShareHeader)]
    if not sums:
        return Sources([(r, h) for r, h in gathered if isinstance(h, Header)], "statistics", pulled, False)
    secure.check_cells(plpy, sums, argument)
    decoded, header = secure.reconstruct(plpy, sums)  # drops the share sums it pulled
    return Sources([(decoded, header)], "reconstructed statistics", [decoded], True)


__all__ = ["Sources", "gather"]
