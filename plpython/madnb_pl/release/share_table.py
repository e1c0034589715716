"""Share tables: an owner's statistics split into additive shares modulo a prime (secure aggregation).

An owner's integer statistics -- every cell of the public domain, zeros
included: per class its row count, per (class, categorical attribute, value)
a count, per (class, numeric attribute) the count of values present and the
fixed-point sum and sum of squares of the values clipped to public bounds --
are written as m tables, one per aggregation server, so that

    share_1 + ... + share_m = statistics  (mod p)

each share alone uniformly random in [0, p) (the first m - 1 drawn from the
CSPRNG, the last the difference).  The tables have the columns of a statistics
table (:data:`madnb_pl.release.statistics_table.COLUMNS`): ``n`` holds the share
of a cell's count (of a numeric cell: of its count of values present), ``s1``
and ``s2`` those of a numeric cell's sums; ``nv``, ``mean``, ``mean_lo`` and
``var`` are NULL.  A *share sum* (an aggregation server's sum of one share
index over every owner, :mod:`madnb_pl.merge.secure`) has the same columns.

The header is the table's comment, ``madnb share `` followed by a JSON object
(:class:`ShareHeader`): the statistics' own header (what the reconstructed sum
is: numAttrs, numeric attributes, types, bounds, fixed-point scale, domain and
its fingerprint), the share index, m, the modulus, the owners whose shares it
holds (a random id per release), for private shares the owner's noise mode
(:data:`NOISE_MODES`: who adds the noise; written only when it is not the
default 'each', so headers from before it read the same) and a digest of all of it.

No sum wraps: a numeric cell's fixed-point code is at most K = 2**40 in
magnitude, so a sum of squares over R rows is at most R K**2; with at most
:data:`ROWS_PER_OWNER_MAX` rows per owner and :data:`MAX_OWNERS` owners every
reconstructed sum lies within (p - 1) / 2 of 0, where it decodes uniquely
(:func:`check_owners`, before anything is written).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, replace
from typing import Any

from ..core.errors import MadnbError
from ..core.sql import Plpy, Sql
from .statistics_table import Header, domain_fingerprint_select, parse_header

MODULUS = (1 << 127) - 1
"""p: the Mersenne prime 2**127 - 1."""
SHARE_FIXED_POINT_BITS = 40
"""Shared numeric values are encoded with K = 2**40 steps per half-width of their bounds (resolution h / 2**40)."""
ROWS_PER_OWNER_MAX = 1 << 32
"""An owner's release holds at most 2**32 rows (checked before anything is written)."""
MAX_OWNERS = ((MODULUS - 1) // 2) // (ROWS_PER_OWNER_MAX << (2 * SHARE_FIXED_POINT_BITS))
"""The most owners whose sums cannot wrap: N * 2**32 * (2**40)**2 <= (p - 1) / 2, N <= 16383."""

FORMAT = 1
COMMENT_PREFIX = "madnb share "
SHARE = "share"
SHARE_SUM = "share sum"
BOUND_TEXT = (
    f"every reconstructed sum is at most N x {ROWS_PER_OWNER_MAX} rows x (2**{SHARE_FIXED_POINT_BITS})**2 in magnitude, "
    f"below (p - 1) / 2 for p = 2**127 - 1 while N <= {MAX_OWNERS} owners"
)
HINT = "a share table is made by madnb.create_nb_statistics_shares (a share sum by madnb.create_nb_share_sum) and is not to be edited"

NOISE_EACH = "each"
"""Private shares, noise mode 'each': every aggregation server adds one central release's discrete Laplace noise."""
NOISE_ONCE = "once"
"""Private shares, noise mode 'once': one central release's noise in all, G1 - G2 (server 1 adds G1, server 2 -G2)."""
NOISE_MODES = (NOISE_EACH, NOISE_ONCE)


@dataclass(frozen=True)
class ShareHeader:
    """What a share (or share sum) table is: the statistics it is a share of, and which share."""

    format: int
    kind: str  # 'share' (one owner's) or 'share sum' (one aggregation server's sum over owners)
    id: str  # a fresh UUID per table
    statistics: Header  # the header of the statistics the shares add up to (its id: the release's, or the sum's)
    share_index: int  # 1..shares
    shares: int  # m
    modulus: str  # p, as decimal text
    owners: list[str]  # the owner id of every release in it (one for a share)
    releases: list[str]  # the statistics ids of those releases
    expected_owners: int | None  # the owners the release was sized for (None: not stated)
    created_at: str
    noise: str | None = None  # a private share sum: the noise its aggregation server added (None: none)
    noise_mode: str = NOISE_EACH  # private shares: who adds the noise (:data:`NOISE_MODES`), chosen by the owner
    digest: str = ""  # sha256 of the header's other fields (:meth:`text`); a changed field shows

    @property
    def class_type(self) -> str:
        return self.statistics.class_type

    @property
    def element_type(self) -> str:
        return self.statistics.element_type

    @property
    def modulus_int(self) -> int:
        return int(self.modulus)

    def _fields(self) -> dict[str, Any]:
        fields = asdict(self)
        fields.pop("digest")
        if fields["noise_mode"] == NOISE_EACH:  # the default is not written: a header from before the mode existed reads as 'each'
            fields.pop("noise_mode")
        return fields

    def sealed(self) -> ShareHeader:
        """This header with its digest."""
        return replace(self, digest=_digest(self._fields()))

    def text(self) -> str:
        fields = self._fields()
        fields["digest"] = _digest(fields)
        return COMMENT_PREFIX + json.dumps(fields, sort_keys=True)


def _digest(fields: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()


def write_header(plpy: Plpy, name_sql: str, header: ShareHeader) -> None:
    plpy.execute(Sql(f"COMMENT ON TABLE {name_sql} IS {plpy.quote_literal(header.text())}"))


def parse(comment: str | None, subject: str, display: str, kind: str) -> ShareHeader:
    """The share header in a table's comment (22023 naming ``subject`` ``display`` when there is none, it is
    unreadable, its digest does not match its fields, or it is not of ``kind``)."""
    if not comment or not comment.startswith(COMMENT_PREFIX):
        raise MadnbError(
            "22023", f"{subject} {display} is not a madnb {kind} table", detail="its comment holds no madnb share header", hint=HINT,
        )
    try:
        fields = json.loads(comment[len(COMMENT_PREFIX):])
        statistics = fields.pop("statistics")
        digest = fields.get("digest")
        h = ShareHeader(statistics=parse_header("madnb statistics " + json.dumps(statistics), subject, display), **fields)
        if not isinstance(h.modulus, str) or not h.modulus.isdigit():
            raise ValueError(f"modulus {h.modulus!r} is not a decimal integer")
        if not (isinstance(h.shares, int) and isinstance(h.share_index, int) and isinstance(h.owners, list)):
            raise ValueError("share index, shares and owners must be integers and a list")
        if h.noise_mode not in NOISE_MODES:
            raise ValueError(f"noise mode {h.noise_mode!r} is not one of " + ", ".join(map(repr, NOISE_MODES)))
    except MadnbError:
        raise MadnbError(
            "22023", f"{subject} {display} has an unreadable share header", detail="its statistics part is not a statistics header", hint=HINT,
        ) from None
    except (ValueError, TypeError, KeyError, AttributeError) as e:
        raise MadnbError("22023", f"{subject} {display} has an unreadable share header", detail=str(e), hint=HINT) from None
    if h.format != FORMAT:
        raise MadnbError("22023", f"{subject} {display} has share format {h.format}, not {FORMAT}", hint=HINT)
    if digest != _digest(h._fields()):
        raise MadnbError(
            "22023", f"{subject} {display} has a tampered share header",
            detail="its digest does not match its fields: the comment was edited after madnb wrote it", hint=HINT,
        )
    if h.kind != kind:
        raise MadnbError(
            "22023", f"{subject} {display} is a {h.kind} table, not a {kind} table",
            hint="an aggregation server sums owners' shares (madnb.create_nb_share_sum); the analyst reconstructs from share sums",
        )
    return h


def parse_noise_mode(text: str | None, private: bool) -> str:
    """The owner's ``noise`` argument checked: one of :data:`NOISE_MODES` ('once' only with epsilon), 22023 otherwise."""
    if text is None:
        raise MadnbError("22004", "noise must not be NULL", hint="noise is 'each' (the default) or 'once'")
    mode = text.strip().lower()
    if mode not in NOISE_MODES:
        raise MadnbError(
            "22023", f"unknown noise {text!r}",
            hint="noise is 'each' (every aggregation server adds one central release's noise) or 'once' (one central "
            "release's noise in all, split between aggregation servers 1 and 2)",
        )
    if mode == NOISE_ONCE and not private:
        raise MadnbError(
            "22023", "noise => 'once' needs epsilon", detail="exact shares hold no noise",
            hint="pass epsilon => ... for private shares, or leave noise out",
        )
    return mode


def check_owners(owners: int | None, subject: str = "owners") -> None:
    """22023 unless ``owners`` (when given) is between 1 and :data:`MAX_OWNERS` (no sum of that many owners can wrap)."""
    if owners is None:
        return
    if owners < 1:
        raise MadnbError("22023", f"{subject} must be at least 1, got {owners}", hint="owners is the number of owners in the federation")
    if owners > MAX_OWNERS:
        raise MadnbError(
            "22023", f"{subject} is {owners}: a sum of that many owners' shares could wrap modulo p",
            detail=BOUND_TEXT, hint=f"federate at most {MAX_OWNERS} owners",
        )


def residues_check_select(rel: str, modulus: int, numeric_attrs: int) -> Sql:
    """One statement over share table ``rel``: its number of cells and of distinct cells, ``grid`` (classes x
    (1 + values + numeric attributes) of the domain its cells hold), the md5 of that domain (as the header
    fingerprints it), and its first cell whose shares are not residues in [0, p) (``bad``, NULL when none)."""
    p = f"{modulus}::pg_catalog.numeric"

    def residue(c: str) -> str:
        return (f"({c} IS NOT NULL AND {c} OPERATOR(pg_catalog.>=) 0::pg_catalog.numeric AND {c} OPERATOR(pg_catalog.<) {p} "
                f"AND {c} OPERATOR(pg_catalog.=) pg_catalog.trunc({c}))")

    num = "s.s1 IS NOT NULL OR s.s2 IS NOT NULL"
    # a numeric cell's n: the share of its count of values (exact), or none (private: the class count serves)
    bad = (
        f"(NOT ({num}) AND NOT {residue('s.n')}) OR (({num}) AND NOT ({residue('s.s1')} AND {residue('s.s2')} "
        f"AND (s.n IS NULL OR {residue('s.n')}))) "
        "OR s.nv IS NOT NULL OR s.mean IS NOT NULL OR s.mean_lo IS NOT NULL OR s.var IS NOT NULL"
    )
    dom = (
        "SELECT DISTINCT s.attr AS o, CASE WHEN s.attr OPERATOR(pg_catalog.=) 0 THEN s.cls END AS cls, "
        f"s.value AS v FROM {rel} AS s WHERE s.attr OPERATOR(pg_catalog.=) 0 OR s.value IS NOT NULL"
    )
    return Sql(
        f"WITH dom AS ({dom}) SELECT ({domain_fingerprint_select('dom')}) AS fingerprint, "
        f"(SELECT pg_catalog.count(*) FROM {rel}) AS cells, "
        f"(SELECT pg_catalog.count(*) FROM (SELECT DISTINCT s.cls, s.attr, s.value FROM {rel} AS s) AS d) AS distinct_cells, "
        f"(SELECT pg_catalog.count(*) FILTER (WHERE d.o OPERATOR(pg_catalog.=) 0) OPERATOR(pg_catalog.*) (1 OPERATOR(pg_catalog.+) "
        f"pg_catalog.count(*) FILTER (WHERE d.o OPERATOR(pg_catalog.>) 0) OPERATOR(pg_catalog.+) {int(numeric_attrs)}) FROM dom AS d) AS grid, "
        f"(SELECT pg_catalog.format('(class %s, attr %s)', s.cls, s.attr) FROM {rel} AS s WHERE {bad} LIMIT 1) AS bad"
    )


__all__ = [
    "BOUND_TEXT", "COMMENT_PREFIX", "MAX_OWNERS", "MODULUS", "NOISE_EACH", "NOISE_MODES", "NOISE_ONCE", "ROWS_PER_OWNER_MAX", "SHARE",
    "SHARE_FIXED_POINT_BITS", "SHARE_SUM", "ShareHeader", "check_owners", "parse", "parse_noise_mode", "residues_check_select",
    "write_header",
]
