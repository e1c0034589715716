"""Secure aggregation: owners' statistics as additive shares, summed by aggregation servers, reconstructed by the analyst.

Three steps, one per party (docs/federation.md, "Secure aggregation"):

* **owner** (:func:`write_shares`): the exact integer statistics of every cell
  of the public domain (the pass of a private release,
  :func:`madnb_pl.privacy.private_release.dp_stats_select`, with counts of the
  values present and K = 2**40) are computed in one temporary table and written
  as m share tables (:mod:`madnb_pl.release.share_table`): shares 1..m-1 are
  residues drawn from the CSPRNG (``secrets``) in PL/Python, share m is the
  statistics minus their sum, modulo p, computed in SQL -- the exact statistics
  never enter Python nor any table but the temporary one;
* **aggregation server** (:func:`write_share_sum`): its share of every owner,
  checked (same release parameters and noise mode, one share index, the modulus,
  no owner twice, every cell a residue and the cells the public domain), summed
  modulo p; private shares get the server's noise as the owners' noise mode says
  (:func:`_server_noise`: a discrete Laplace per server, 'each'; or +G1 at share
  index 1 and -G2 at index 2, one discrete Laplace in all, 'once');
* **analyst** (:func:`reconstruct`): the m share sums, checked the same way
  (every index 1..m once, the same owners), added modulo p and decoded into an
  exact statistics table (signed residues; means and variances from the
  integer sums in numeric), which :func:`madnb_pl.derive.model_tables.merge_and_derive`
  derives as it derives any statistics.

Sources (``shareSources``, ``shareSumSources``) are tables here, postgres_fdw
foreign tables (their comment read on their server), or ``server:table`` -- a
table on a foreign server reached over dblink as ``create_nb_federated_tables``
reaches owners (:func:`madnb_pl.merge.federation.connect_tables`): every header
is read and checked before any cell crosses the network.
"""

from __future__ import annotations

import math
import secrets
import uuid
from collections.abc import Callable
from dataclasses import replace
from decimal import Decimal

from ..core.errors import MadnbError
from ..core.names import NewName, Relation, created
from ..core.sql import Plpy, Sql, temp_name
from ..inputs.arrays import Training
from ..inputs.privacy_parameters import NumericBounds, Privacy
from ..privacy import noise, private_release
from ..release import share_table
from ..release.share_table import MODULUS, NOISE_EACH, NOISE_ONCE, SHARE, SHARE_SUM, ShareHeader
from ..release.statistics_table import EXACT, FORMAT, PRIVATE_MODE, Header, create_with_types, now
from . import federation, part_sources
from .part_sums import difference

NUMERIC = "pg_catalog.numeric"
_P = f"{MODULUS}::{NUMERIC}"


def _mod(x: str) -> str:
    """``x`` modulo p in [0, p) (numeric ``mod`` keeps the dividend's sign)."""
    return f"pg_catalog.mod(pg_catalog.mod({x}, {_P}) OPERATOR(pg_catalog.+) {_P}, {_P})"


# ---------------------------------------------------------------------------
# Owner: the shares of one release
# ---------------------------------------------------------------------------


def guarantee(p: Privacy, shares: int, mode: str = NOISE_EACH) -> str:
    """What a private share release guarantees, and against whom (ledger, headers, model comments), in noise mode ``mode``."""
    if mode == NOISE_ONCE:
        return (
            f"{p.guarantee}: for the owners' summed statistics and the model made from them, against the analyst and "
            "anyone who sees them, with one central release's noise in the sum (aggregation server 1 adds a one-sided "
            "geometric noise to its share sum, aggregation server 2 subtracts another; their difference is one discrete "
            "Laplace), provided neither aggregation server 1 nor aggregation server 2 gives its noise to them (a coalition "
            "holding either server's noise removes half of it and sees one-sided noise: no guarantee against it); each "
            f"aggregation server alone sees uniformly random shares, and only the {shares} aggregation servers together "
            "learn an owner's exact statistics"
        )
    return (
        f"{p.guarantee}: for the owners' summed statistics and the model made from them, against the analyst and "
        f"anyone who sees them, with the noise that each of the {shares} aggregation servers adds to its share sum "
        "(one honest aggregation server suffices; a coalition of all of them learns every owner's exact statistics); "
        "each aggregation server alone sees uniformly random shares"
    )


def noise_text(per_query: float, mode: str) -> str:
    """The ledger's ``noise``: what noise the release's sum gets, and who adds it, in noise mode ``mode``."""
    if mode == NOISE_ONCE:
        return (
            f"discrete Laplace at epsilon_per_query {per_query!r}, once in the sum: a one-sided geometric added by "
            "aggregation server 1 to its share sum and another subtracted by aggregation server 2 (their difference is "
            "the discrete Laplace); the other aggregation servers add none"
        )
    return f"discrete Laplace at epsilon_per_query {per_query!r}, added by each aggregation server to its share sum"


def write_shares(
    plpy: Plpy, training: Training, bounds: NumericBounds, domain: Relation, dests: list[NewName], owners: int | None,
    privacy: Privacy | None = None, mode: str = NOISE_EACH,
) -> list[ShareHeader]:
    """The statistics of ``training`` over the public domain ``domain`` as ``len(dests)`` share tables.

    Exact: counts (a numeric cell's: of its values present) and 40-bit fixed-point
    sums.  Private (``privacy``): the cells of a private release (class and value
    counts, 20-bit sums; no count on numeric cells), charged to the source's
    budget and ledger here, before any share is written; the noise is added by
    the aggregation servers (:func:`write_share_sum`) as the owner's noise mode
    ``mode`` says, so the reconstructed sum holds one release's noise per server
    ('each') or one release's noise in all ('once'), whatever the number of owners.
    """
    m = len(dests)
    dom = temp_name("madnb_domain_")
    plpy.execute(private_release.dp_domain_ddl(dom, training))
    private_release.fill_public_domain(plpy, training, domain, domain.display, dom)
    release_id: int | None = None
    if privacy is not None:  # charged before the data is read; nothing after this depends on the data
        extra = {
            "guarantee": guarantee(privacy, m, mode), "shares": m, "owners": owners, "modulus": str(MODULUS),
            "noise": noise_text(privacy.per_query, mode), "noise_mode": mode,
        }
        release_id = private_release.charge(
            plpy, training.source, privacy,
            private_release.release_parameters(training, privacy, ", ".join(d.display for d in dests), {"shares": ", ".join(d.display for d in dests)}, extra),
        )
    cells = temp_name("madnb_cells_")
    stats = private_release.share_stats_select(training, bounds) if privacy is None else private_release.dp_stats_select(training, bounds)
    plpy.execute(Sql(
        f"CREATE TEMPORARY TABLE {cells} ON COMMIT DROP AS SELECT pg_catalog.row_number() OVER () AS k, j.cls, j.o, j.v, j.isnum, "
        f"j.n::{NUMERIC} AS n, j.s1::{NUMERIC} AS s1, j.s2::{NUMERIC} AS s2 "
        f"FROM ({private_release.domain_cells_select(training, dom, stats)}) AS j"
    ))
    size = plpy.execute(Sql(
        f"SELECT pg_catalog.count(*)::pg_catalog.int8 AS cells, COALESCE(pg_catalog.sum(c.n) FILTER (WHERE c.o OPERATOR(pg_catalog.=) 0), 0) AS rows "
        f"FROM {cells} AS c"
    ))[0]
    if privacy is None and int(size["rows"]) > share_table.ROWS_PER_OWNER_MAX:  # private: 20-bit codes, no such bound
        raise MadnbError(
            "22023", f"{training.source.display} has more rows than a share release may hold",
            detail=share_table.BOUND_TEXT,
            hint=f"split the table into releases of at most {share_table.ROWS_PER_OWNER_MAX} rows, each an owner of its own",
        )
    release = _release_header(plpy, training, bounds, domain, private_release.domain_fingerprint(plpy, dom), privacy, release_id, m, mode)
    plpy.execute(Sql(f"DROP TABLE {dom}"))
    headers = _insert_shares(plpy, cells, int(size["cells"]), release, dests, owners, counted="true" if privacy is None else "NOT c.isnum",
                             mode=mode)
    plpy.execute(Sql(f"DROP TABLE {cells}"))
    return headers


def _release_header(
    plpy: Plpy, training: Training, bounds: NumericBounds, domain: Relation, fingerprint: str, privacy: Privacy | None,
    release_id: int | None, shares: int, mode: str,
) -> Header:
    """The header of the statistics an owner's shares add up to (every share table's ``statistics``)."""
    order = {a: i for i, a in enumerate(training.numeric_given)}
    release = Header(
        format=FORMAT, id=str(uuid.uuid4()), mode=EXACT, num_attrs=training.num_attrs, numeric=list(training.numeric_given),
        class_type=training.cls.type_sql, element_type=str(training.attrs.elem_sql), source=training.source.display,
        created_at=now(plpy), bounds=[[a, lo, hi] for a, lo, hi in sorted(bounds.bounds, key=lambda b: order.get(b[0], 0))],
        fixed_point_bits=bounds.bits, fixed_point_scale=bounds.scale, domain=domain.display, domain_fingerprint=fingerprint,
    )
    if privacy is None:
        return release
    return replace(
        release, mode=PRIVATE_MODE, epsilon=privacy.epsilon_text, epsilon_per_query=privacy.per_query, delta=privacy.delta,
        release_id=release_id, guarantee=guarantee(privacy, shares, mode),
    )


def _insert_shares(
    plpy: Plpy, cells: Sql, count: int, release: Header, dests: list[NewName], owners: int | None, counted: str, mode: str,
) -> list[ShareHeader]:
    """The m share tables of the ``count`` cells of temporary table ``cells`` (k, cls, o, v, isnum, n, s1, s2).

    Shares 1..m-1 are drawn from the CSPRNG here; share m is the cells less
    their sum modulo p, computed in SQL (the exact numbers never enter Python).
    ``counted``: the cells whose count n is shared (SQL over ``c``); ``mode``: the
    noise mode every header carries to the aggregation servers.
    """
    m = len(dests)
    owner = secrets.token_hex(16)
    sums = [[0] * count for _ in range(3)]  # per column, the sum of the random shares so far (mod p)
    insert = (
        "INSERT INTO {dest} (cls, attr, value, n, s1, s2) SELECT c.cls, c.o, c.v, "
        f"CASE WHEN {counted} THEN {{n}} END, "
        "CASE WHEN c.isnum THEN {s1} END, CASE WHEN c.isnum THEN {s2} END FROM {cells} AS c "
        f"JOIN ROWS FROM (pg_catalog.unnest($1::{NUMERIC}[]), pg_catalog.unnest($2::{NUMERIC}[]), pg_catalog.unnest($3::{NUMERIC}[])) "
        "WITH ORDINALITY AS r(n, s1, s2, k) ON r.k OPERATOR(pg_catalog.=) c.k"
    )
    headers = []
    for index, dest in enumerate(dests, start=1):
        create_with_types(plpy, dest, release.class_type, release.element_type)
        if index < m:
            drawn = [[secrets.randbelow(MODULUS) for _ in range(count)] for _ in range(3)]
            for acc, col in zip(sums, drawn, strict=True):
                for i, r in enumerate(col):
                    acc[i] = (acc[i] + r) % MODULUS
            text = insert.format(dest=dest.sql, n="r.n", s1="r.s1", s2="r.s2", cells=cells)
            args = drawn
        else:  # the statistics less the other shares: computed here, never in Python
            text = insert.format(dest=dest.sql, n=_mod("c.n OPERATOR(pg_catalog.-) r.n"),
                                 s1=_mod("c.s1 OPERATOR(pg_catalog.-) r.s1"), s2=_mod("c.s2 OPERATOR(pg_catalog.-) r.s2"), cells=cells)
            args = sums
        plpy.execute(plpy.prepare(Sql(text), [f"{NUMERIC}[]"] * 3), [[str(x) for x in col] for col in args])
        header = ShareHeader(
            format=share_table.FORMAT, kind=SHARE, id=str(uuid.uuid4()), statistics=release, share_index=index, shares=m,
            modulus=str(MODULUS), owners=[owner], releases=[release.id], expected_owners=owners, created_at=release.created_at,
            noise_mode=mode,
        )
        share_table.write_header(plpy, dest.sql, header)
        plpy.execute(Sql(f"ANALYZE {dest.sql}"))
        headers.append(header)
    return headers


# ---------------------------------------------------------------------------
# Sources: tables here, foreign tables, or tables on foreign servers
# ---------------------------------------------------------------------------


Part = tuple[Relation, ShareHeader]


def gather(plpy: Plpy, texts: list[str | None] | None, argument: str, kind: str, check: Callable[[list[Part]], None]) -> list[Part]:
    """The share (or share sum, ``kind``) tables named by ``texts``, each with its header
    (:func:`madnb_pl.merge.part_sources.gather`); ``check`` runs on the headers before any cell is read."""

    def read(comment: str | None, subject: str, label: str, server: str | None) -> ShareHeader:
        return share_table.parse(comment, subject, label, kind)

    return part_sources.gather(plpy, texts, argument, read, check, "send its shares")


def _named(argument: str, i: int, rel: Relation) -> str:
    return f"{argument}[{i}] ({rel.display})"


def check_same_release(parts: list[Part], argument: str) -> None:
    """Every part agrees with the first on the release parameters, the modulus and m (22023 naming the part)."""
    first_rel, first = parts[0]
    for i, (rel, h) in enumerate(parts, start=1):
        if h.modulus != str(MODULUS):
            raise MadnbError(
                "22023", f"{_named(argument, i, rel)} has shares modulo {h.modulus}, not modulo 2**127 - 1",
                detail=f"madnb shares statistics modulo p = {MODULUS}", hint=share_table.HINT,
            )
        diff = difference(h.statistics, first.statistics)
        if diff is None and (h.statistics.epsilon, h.statistics.epsilon_per_query) != (first.statistics.epsilon, first.statistics.epsilon_per_query):
            diff = ("epsilon", h.statistics.epsilon, first.statistics.epsilon)
        if diff is None and h.expected_owners != first.expected_owners:
            diff = ("owners", h.expected_owners, first.expected_owners)
        if diff is None and h.shares != first.shares:
            diff = ("number of shares", h.shares, first.shares)
        if diff is None and h.noise_mode != first.noise_mode:
            diff = ("noise", h.noise_mode, first.noise_mode)
        if diff is not None:
            field, value, first_value = diff
            raise MadnbError(
                "22023", f"{_named(argument, i, rel)} does not have the release parameters of {_named(argument, 1, first_rel)}",
                detail=f"its {field} is {value!r}, {argument}[1]'s is {first_value!r}",
                hint="every owner releases its shares with the same numAttrs, numeric attributes, bounds, domain, owners, "
                "number of shares and noise",
            )


def check_cells(plpy: Plpy, parts: list[Part], argument: str) -> None:
    """Every part's cells are residues modulo p, one per cell of the public domain its header fingerprints."""
    for i, (rel, h) in enumerate(parts, start=1):
        r = plpy.execute(share_table.residues_check_select(rel.sql, MODULUS, len(set(h.statistics.numeric))))[0]
        problem = None
        if r["bad"] is not None:
            problem = f"its cell {r['bad']} holds something other than shares in [0, p)"
        elif r["fingerprint"] != h.statistics.domain_fingerprint:
            problem = f"its cells' domain has fingerprint {r['fingerprint']}, its header says {h.statistics.domain_fingerprint}"
        elif not r["cells"] == r["distinct_cells"] == r["grid"]:
            problem = f"it holds {r['cells']} cells ({r['distinct_cells']} distinct); its domain has {r['grid']}"
        if problem is not None:
            raise MadnbError("22023", f"{_named(argument, i, rel)} does not hold the shares its header describes", detail=problem,
                             hint=share_table.HINT)


def _union(parts: list[Part]) -> Sql:
    return Sql(" UNION ALL ".join(f"SELECT s.cls, s.attr, s.value, s.n, s.s1, s.s2 FROM {rel.sql} AS s" for rel, _ in parts))


def _summed(parts: list[Part]) -> Sql:
    """Every cell of the parts summed modulo p: (cls, attr, value, n, s1, s2)."""
    return Sql(
        f"SELECT u.cls, u.attr, u.value, pg_catalog.mod(pg_catalog.sum(u.n), {_P}) AS n, "
        f"pg_catalog.mod(pg_catalog.sum(u.s1), {_P}) AS s1, pg_catalog.mod(pg_catalog.sum(u.s2), {_P}) AS s2 "
        f"FROM ({_union(parts)}) AS u GROUP BY u.cls, u.attr, u.value"
    )


def _drop_pulled(plpy: Plpy, parts: list[Part]) -> None:
    for rel, _ in parts:
        if isinstance(rel, federation.PulledPart):
            plpy.execute(Sql(f"DROP TABLE {rel.sql}"))


# ---------------------------------------------------------------------------
# Aggregation server: one share index of every owner
# ---------------------------------------------------------------------------


def write_share_sum(plpy: Plpy, sources: list[str | None] | None, dest: NewName) -> ShareHeader:
    """The sum modulo p of one share index of every owner into the new share-sum table ``dest``."""
    argument = "shareSources"

    def check(parts: list[Part]) -> None:
        check_same_release(parts, argument)
        first_rel, first = parts[0]
        owners: dict[str, int] = {}
        for i, (rel, h) in enumerate(parts, start=1):
            if h.share_index != first.share_index:
                raise MadnbError(
                    "22023", f"{_named(argument, i, rel)} is share {h.share_index} of its release, "
                    f"{_named(argument, 1, first_rel)} is share {first.share_index}",
                    hint="an aggregation server sums one share index: the share tables its owners granted to it",
                )
            for o in h.owners:
                if o in owners:
                    raise MadnbError(
                        "22023", f"{_named(argument, i, rel)} holds the shares of an owner that {argument}[{owners[o]}] holds",
                        detail=f"owner id {o}", hint="list each owner's share once: a share sum adds up its parts",
                    )
                owners[o] = i
        _check_owner_count(len(owners), first, argument)

    parts = gather(plpy, sources, argument, SHARE, check)
    check_cells(plpy, parts, argument)
    first = parts[0][1]
    create_with_types(plpy, dest, first.class_type, first.element_type)
    stats = first.statistics
    added = None
    if stats.private and (first.noise_mode == NOISE_EACH or first.share_index <= 2):
        added = _insert_noisy_sum(plpy, parts, dest, stats, first.noise_mode, first.share_index)
    else:
        plpy.execute(Sql(f"INSERT INTO {dest.sql} (cls, attr, value, n, s1, s2) {_summed(parts)}"))
        if stats.private:  # noise 'once': servers 1 and 2 hold all of it
            added = f"none: with noise 'once' aggregation servers 1 and 2 add the release's noise, this one (share index {first.share_index}) adds none"
    _drop_pulled(plpy, parts)
    releases: list[int | str] | None = [f"{h.statistics.release_id} of owner {h.owners[0]}" for _, h in parts] if stats.private else None
    header = ShareHeader(
        format=share_table.FORMAT, kind=SHARE_SUM, id=str(uuid.uuid4()),
        statistics=replace(stats, id=str(uuid.uuid4()), source=", ".join(dict.fromkeys(h.statistics.source for _, h in parts)),
                           parts=[r for _, h in parts for r in h.releases], release_id=None, release_ids=releases),
        share_index=first.share_index, shares=first.shares, modulus=first.modulus,
        owners=[o for _, h in parts for o in h.owners], releases=[r for _, h in parts for r in h.releases],
        expected_owners=first.expected_owners, created_at=now(plpy), noise=added, noise_mode=first.noise_mode,
    )
    share_table.write_header(plpy, dest.sql, header)
    plpy.execute(Sql(f"ANALYZE {dest.sql}"))
    return header


def _server_noise(plpy: Plpy, mode: str, index: int, eps: float) -> tuple[Callable[[int, int], list[int]], str, str]:
    """This aggregation server's noise in noise mode ``mode``: draw(count, sensitivity), what it is and who adds it.

    'each': a discrete Laplace at epsilon' per number, as a central release draws it.
    'once': the one-sided geometric G of the same scale, added by share index 1 and
    subtracted by share index 2, so the sum holds G1 - G2, exactly one discrete
    Laplace (:func:`madnb_pl.privacy.noise.geometric`).
    """
    if mode == NOISE_ONCE:
        sign = 1 if index == 1 else -1
        by = ("added by this aggregation server (share index 1; share index 2 subtracts another)" if sign == 1
              else "subtracted by this aggregation server (share index 2; share index 1 adds another)")
        return (lambda count, sens: [sign * g for g in noise.geometric_array(count, sens, eps)]), "one-sided geometric", by
    return (lambda count, sens: noise.laplace_array(plpy, [0] * count, sens, eps) or []), "discrete Laplace", "drawn by this aggregation server"


def _insert_noisy_sum(plpy: Plpy, parts: list[Part], dest: NewName, stats: Header, mode: str, index: int) -> str:
    """The sum of private shares plus this server's noise, modulo p, into ``dest``; what noise it is.

    Every released number gets noise at the release's epsilon' (sensitivity 1
    for a count, K for a sum, K**2 for a sum of squares), drawn exactly from the
    CSPRNG as :func:`_server_noise` says for noise mode ``mode`` and this
    server's share ``index``: the reconstructed sum then holds one discrete
    Laplace per aggregation server ('each') or one in all ('once').  The noise
    never leaves this call.
    """
    eps = float(stats.epsilon_per_query or 0.0)
    k = int(stats.fixed_point_scale or 0)
    draw, kind, by = _server_noise(plpy, mode, index, eps)
    summed = temp_name("madnb_summed_")
    plpy.execute(Sql(
        f"CREATE TEMPORARY TABLE {summed} ON COMMIT DROP AS SELECT r.*, "
        "pg_catalog.row_number() OVER (PARTITION BY r.s1 IS NULL) AS i FROM ("
        f"{_summed(parts)}) AS r"
    ))
    size = plpy.execute(Sql(
        f"SELECT pg_catalog.count(*) FILTER (WHERE s.s1 IS NULL) AS counts, pg_catalog.count(*) FILTER (WHERE s.s1 IS NOT NULL) AS sums "
        f"FROM {summed} AS s"
    ))[0]
    counts, sums = int(size["counts"]), int(size["sums"])
    arrays = [draw(counts, 1), draw(sums, k), draw(sums, k * k)]
    plan = plpy.prepare(Sql(
        f"INSERT INTO {dest.sql} (cls, attr, value, n, s1, s2) SELECT s.cls, s.attr, s.value, "
        f"CASE WHEN s.s1 IS NULL THEN {_mod('s.n OPERATOR(pg_catalog.+) c.z')} ELSE s.n END, "
        f"{_mod('s.s1 OPERATOR(pg_catalog.+) g.z1')}, {_mod('s.s2 OPERATOR(pg_catalog.+) g.z2')} FROM {summed} AS s "
        f"LEFT JOIN pg_catalog.unnest($1::{NUMERIC}[]) WITH ORDINALITY AS c(z, i) ON s.s1 IS NULL AND c.i OPERATOR(pg_catalog.=) s.i "
        f"LEFT JOIN ROWS FROM (pg_catalog.unnest($2::{NUMERIC}[]), pg_catalog.unnest($3::{NUMERIC}[])) WITH ORDINALITY AS g(z1, z2, i) "
        "ON s.s1 IS NOT NULL AND g.i OPERATOR(pg_catalog.=) s.i"
    ), [f"{NUMERIC}[]"] * 3)
    plpy.execute(plan, [[str(x) for x in a] for a in arrays])
    plpy.execute(Sql(f"DROP TABLE {summed}"))
    return f"{kind} at epsilon_per_query {eps!r} (sensitivities 1, {k}, {k * k}), {by}"


def _check_owner_count(n: int, first: ShareHeader, argument: str) -> None:
    if n > share_table.MAX_OWNERS or (first.expected_owners is not None and n > first.expected_owners):
        limit = first.expected_owners if first.expected_owners is not None and first.expected_owners < share_table.MAX_OWNERS else share_table.MAX_OWNERS
        raise MadnbError(
            "22023", f"{argument} hold the shares of {n} owners, more than the {limit} the release was sized for",
            detail=share_table.BOUND_TEXT, hint="owners is the number of owners every share release states",
        )


# ---------------------------------------------------------------------------
# Analyst: the share sums added up and decoded into statistics
# ---------------------------------------------------------------------------


def gather_share_sums(plpy: Plpy, sources: list[str | None] | None) -> list[Part]:
    """The m share sums of one federation, checked: same release, every share index once, the same owners."""
    argument = "shareSumSources"
    parts = gather(plpy, sources, argument, SHARE_SUM, lambda p: check_share_sums(p, argument))
    check_cells(plpy, parts, argument)
    return parts


def check_share_sums(parts: list[Part], argument: str) -> None:
    """The headers of the share sums the analyst reconstructs from (22023 naming the part): the same release,
    every share index 1..m once, the same owners, a private share sum's noise added."""
    check_same_release(parts, argument)
    first_rel, first = parts[0]
    seen: dict[int, int] = {}
    for i, (rel, h) in enumerate(parts, start=1):
        if h.share_index in seen:
            raise MadnbError(
                "22023", f"{_named(argument, i, rel)} is share sum {h.share_index} again",
                detail=f"{argument}[{seen[h.share_index]}] is share sum {h.share_index} too",
                hint="list the share sum of each aggregation server once",
            )
        seen[h.share_index] = i
        if sorted(h.owners) != sorted(first.owners):
            raise MadnbError(
                "22023", f"{_named(argument, i, rel)} holds the shares of other owners than {_named(argument, 1, first_rel)}",
                detail=f"it holds {len(h.owners)} owners' shares, {argument}[1] {len(first.owners)}; "
                f"{len(set(h.owners) ^ set(first.owners))} owner(s) are in one only",
                hint="every aggregation server must sum the shares of the same owners (an owner that dropped out at one "
                "server must be left out at every server)",
            )
        if h.statistics.private and h.noise is None:
            raise MadnbError(
                "22023", f"{_named(argument, i, rel)} holds private shares without its aggregation server's noise",
                hint="share sums of private shares are made by madnb.create_nb_share_sum, which adds the noise",
            )
    missing = sorted(set(range(1, first.shares + 1)) - set(seen))
    if missing:
        raise MadnbError(
            "22023", f"{argument} hold share sums {sorted(seen)} of {first.shares}: share sum(s) {missing} are missing",
            detail="the statistics are the sum of every share sum; any fewer are uniformly random",
            hint="list the share sum of every aggregation server",
        )
    _check_owner_count(len(first.owners), first, argument)


def _decimal(x: float) -> str:
    """The exact decimal value of float8 ``x`` as a numeric literal."""
    return f"'{Decimal(x)}'::{NUMERIC}"


def reconstruct(plpy: Plpy, parts: list[Part]) -> tuple[Relation, Header]:
    """The statistics the share sums add up to, decoded into a temporary exact statistics table; with its header.

    A residue above (p - 1) / 2 stands for a negative number.  Classes whose
    count is 0 and categorical cells of count 0 are left out (the statistics an
    exact release holds: the values seen); a numeric cell keeps nv, and

        mean = mid + h * s1 / (K nv),   var = h**2 (nv s2 - s1**2) / (K**2 nv (nv - 1)),

    computed in numeric from the exact integers (one rounding each).
    """
    first = parts[0][1]
    stats = first.statistics
    nb = stats.numeric_bounds()
    k = nb.scale
    half = f"{(MODULUS - 1) // 2}::{NUMERIC}"

    def signed(c: str) -> str:
        return f"CASE WHEN {c} OPERATOR(pg_catalog.>) {half} THEN {c} OPERATOR(pg_catalog.-) {_P} ELSE {c} END"

    name = "madnb_reconstructed_" + secrets.token_hex(6)
    dest = NewName("pg_temp", name)
    create_with_types(plpy, dest, stats.class_type, stats.element_type)
    owners = len(first.owners)
    source = f"secure aggregation of {owners} owner{'s' if owners != 1 else ''} ({stats.source})"
    if stats.private:  # the raw noisy integers of every cell, as a private release holds them
        plpy.execute(Sql(
            f"INSERT INTO {dest.sql} (cls, attr, value, n, s1, s2) SELECT r.cls, r.attr, r.value, "
            f"CASE WHEN r.s1 IS NULL THEN {signed('r.n')} END, {signed('r.s1')}, {signed('r.s2')} FROM ({_summed(parts)}) AS r"
        ))
        _drop_pulled(plpy, parts)
        # noise 'each' holds m servers' noise: the variance floor's epsilon' is that of one release of m times the
        # variance; noise 'once' holds one release's
        per_query = float(stats.epsilon_per_query or 0.0) / (math.sqrt(len(parts)) if first.noise_mode == NOISE_EACH else 1.0)
        return created(plpy, dest), replace(
            stats, id=str(uuid.uuid4()), created_at=now(plpy), parts=list(first.releases), source=source,
            epsilon_per_query=per_query, release_id=None,
        )
    numeric = [a for a, _, _ in nb.bounds]
    num = "'{" + ",".join(str(a) for a in numeric) + "}'::pg_catalog.int4[]"
    values = ", ".join(
        f"({a}, {_decimal(nb.mid(lo, hi))}, {_decimal(nb.half(lo, hi))})" for a, lo, hi in nb.bounds
    ) or f"(NULL::pg_catalog.int4, NULL::{NUMERIC}, NULL::{NUMERIC})"

    def op(a: str, o: str, b: str) -> str:  # parenthesised: every OPERATOR(...) has the same precedence
        return f"({a} OPERATOR(pg_catalog.{o}) {b})"

    mean = op("b.mid", "+", f"({op(op('b.half', '*', 'd.s1'), '/', op(f'{k}::{NUMERIC}', '*', 'd.n'))})")
    m2 = op(op("d.n", "*", "d.s2"), "-", op("d.s1", "*", "d.s1"))
    var = op(op(op("b.half", "*", "b.half"), "*", f"({m2})"), "/",
             op(op(f"{k * k}::{NUMERIC}", "*", "d.n"), "*", f"({op('d.n', '-', f'1::{NUMERIC}')})"))
    plpy.execute(Sql(
        f"WITH d AS (SELECT r.cls, r.attr, r.value, {signed('r.n')} AS n, {signed('r.s1')} AS s1, {signed('r.s2')} AS s2 "
        f"FROM ({_summed(parts)}) AS r), "
        f"c AS (SELECT d.cls FROM d WHERE {op('d.attr', '=', '0')} AND {op('d.n', '>', f'0::{NUMERIC}')}), "
        f"b (attr, mid, half) AS (VALUES {values}) "
        f"INSERT INTO {dest.sql} (cls, attr, value, n, nv, mean, var) "
        "SELECT d.cls, d.attr, d.value, d.n, NULL, NULL, NULL FROM d JOIN c ON c.cls = d.cls "
        f"WHERE NOT {op('d.attr', '=', f'ANY ({num})')} AND ({op('d.attr', '=', '0')} OR {op('d.n', '>', f'0::{NUMERIC}')}) "
        f"UNION ALL SELECT d.cls, d.attr, NULL, NULL, d.n::pg_catalog.int8, "
        f"CASE WHEN {op('d.n', '>', f'0::{NUMERIC}')} THEN ({mean})::pg_catalog.float8 END, "
        f"CASE WHEN {op('d.n', '>', f'1::{NUMERIC}')} THEN ({var})::pg_catalog.float8 END "
        f"FROM d JOIN c ON c.cls = d.cls JOIN b ON {op('b.attr', '=', 'd.attr')}"
    ))
    _drop_pulled(plpy, parts)
    header = replace(stats, id=str(uuid.uuid4()), mode=EXACT, created_at=now(plpy), parts=list(first.releases), source=source)
    return created(plpy, dest), header


__all__ = ["check_cells", "check_same_release", "check_share_sums", "gather", "gather_share_sums", "reconstruct", "write_share_sum",
           "write_shares"]
