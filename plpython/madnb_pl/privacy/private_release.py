"""The private release: a differentially private statistics table from a training table.

:func:`write_private` runs the steps of a release in the order that keeps it
private (the parameters are validated by :mod:`madnb_pl.inputs.privacy_parameters` before any of this):

1. the public domain: a domain table or 'observed' (:func:`fill_domain`, which may
   still fail: nothing is charged yet);
2. the charge (:func:`charge`): ``madnb.record_private_release`` checks the
   budget and writes the ledger row before any noise is drawn;
3. domain => 'private': partition selection (:func:`select_private_domain`);
4. every cell of the domain with its noise, in one statement
   (:func:`dp_release_select`, a CREATE TABLE AS, so that its pass may run in
   parallel workers), stored as released in a statistics table
   (:mod:`madnb_pl.release.statistics_table`), with its header.

The private pass computes the same kind of statistics as the exact one, shaped
for noise:

    cls, o, v, n, s1, s2

with o = 0 for the class count (one per row), o = i for attribute i.  The
attribute array is read by position when it is one-dimensional (whatever its
lower bound); any other shape (NULL, empty, two or more dimensions) counts as
all attributes missing, so no array can make the pass fail.  Numeric values
are clipped to their public bounds [lo, hi] and encoded as integers

    z = clip(round((x - m) / h * K), -K, K),   m = (lo + hi) / 2, h = (hi - lo) / 2,

K = 2**bits, so one row moves s1 = sum(z) by at most K and s2 = sum(z*z) by at
most K**2, whatever its value (the final integer clip makes this hold even
where floating point rounds).  These exact statistics never leave the
statement that computes them: :func:`dp_release_select` adds noise to every
cell of the public domain in the same statement.  Categorical integer codes are
counted from exact training's packed key instead (:func:`dp_packed_stats_select`).
"""

from __future__ import annotations

import contextlib
import json
import uuid
from typing import Any

from ..core.errors import MadnbError
from ..core.names import NewName, Relation
from ..core.sql import F8, FLOAT_TYPES, NUMERIC, Plpy, Sql, float8_literal, int_array, once, temp_name, text_sql, type_is_builtin, without_jit
from ..inputs import arrays, privacy_parameters
from ..inputs.arrays import Training
from ..inputs.privacy_parameters import NOT_DP_OBSERVED, NumericBounds, Privacy
from ..release.array_pass import gather_cost, packed_gather_factor, packed_key, packs_codes
from ..release.statistics_table import FORMAT, PRIVATE_MODE, Header, create_table, domain_fingerprint_select, now, write_header


def write_private(
    plpy: Plpy, training: Training, p: Privacy, dest: NewName | Relation, outputs: dict[str, str],
    extra: dict[str, Any] | None = None,
) -> Header:
    """A differentially private release of ``t`` into a new statistics table ``dest``; return its header.

    The same steps as private training always took: the domain (public table,
    'observed', or chosen privately after the charge), the charge and ledger row
    (:func:`charge`, before any noise is drawn), then every cell of the domain
    with its noise, stored as released.  ``outputs`` and ``extra`` are recorded
    in the ledger's parameters.
    """
    arrays.refuse_private(plpy, training)
    dom = temp_name("madnb_domain_")
    plpy.execute(dp_domain_ddl(dom, training))
    if p.selection is None:
        fill_domain(plpy, training, p, dom)
    create_table(plpy, dest, training)
    return _release(plpy, training, p, dest, dom, release_parameters(training, p, dest.display, outputs, extra))


def release_parameters(
    training: Training, p: Privacy, statistics: str, outputs: dict[str, str], extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """What the ledger records of a private release of ``training`` (its parameters column): the queries,
    epsilon' and delta, the guarantee, bounds, domain, fixed-point bits, sensitivities and outputs."""
    nb = p.bounds
    parameters: dict[str, Any] = {
        "class_column": training.cls.name,
        **({"attr_column": training.attrs.name} if training.cells is None else {}),
        "num_attrs": training.num_attrs,
        "numeric_attributes": list(training.numeric),
        "queries": p.queries,
        "epsilon_per_query": p.per_query,
        "delta": p.delta,
        "guarantee": p.guarantee,
        "neighbouring": "add or remove one row",
        "bounds": {str(a): [lo, hi] for a, lo, hi in nb.bounds},
        "domain": p.domain_text,
        "domain_disclosed": p.domain_kind == privacy_parameters.OBSERVED,
        "fixed_point_bits": nb.bits,
        "sensitivity": {"count": 1, "sum": nb.scale, "sum_of_squares": nb.scale * nb.scale},
        "outputs": outputs,
        "statistics": statistics,
        **(extra or {}),
    }
    if p.selection is not None:
        parameters["selection"] = {
            "queries": p.selection.queries,
            "epsilon_per_query": p.per_query,
            "delta_per_query": p.selection.delta_per_query,
            "threshold": p.selection.threshold,
        }
    return parameters


def _release(plpy: Plpy, training: Training, p: Privacy, dest: NewName | Relation, dom: str, parameters: dict[str, Any]) -> Header:
    release = charge(plpy, training.source, p, parameters)
    if p.selection is not None:
        select_private_domain(plpy, training, p, dom)
    nb = p.bounds
    # the release as CREATE TABLE AS: its exact pass may then run in parallel workers (an INSERT ... SELECT
    # never does); the table holds released numbers only, the exact ones stay inside the statement
    released = temp_name("madnb_released_")
    create = Sql(f"CREATE TEMPORARY TABLE {released} ON COMMIT DROP AS {dp_release_select(training, nb, dom, p.per_query)}")
    with contextlib.ExitStack() as settings:
        # without JIT: the planner, which has no statistics of the temporary domain, costed a 16,000-value domain's
        # 48,573 cells as 357,481 and compiled the statement, which took longer than it saved
        settings.enter_context(without_jit(plpy))
        if packs_dp_codes(training):
            settings.enter_context(gather_cost(plpy, packed_gather_factor(training)))
        plpy.execute(create)
    plpy.execute(Sql(f"INSERT INTO {dest.sql} (cls, attr, value, n, s1, s2) SELECT r.cls, r.o, r.v, r.n, r.s1, r.s2 FROM {released} AS r"))
    plpy.execute(Sql(f"DROP TABLE {released}"))
    order = {a: i for i, a in enumerate(training.numeric_given)}
    header = Header(
        format=FORMAT, id=str(uuid.uuid4()), mode=PRIVATE_MODE, num_attrs=training.num_attrs, numeric=list(training.numeric_given),
        class_type=training.cls.type_sql, element_type=str(training.attrs.elem_sql), source=training.source.display, created_at=now(plpy),
        bounds=[[a, lo, hi] for a, lo, hi in sorted(nb.bounds, key=lambda b: order.get(b[0], 0))],
        fixed_point_bits=nb.bits, fixed_point_scale=nb.scale, domain=p.domain_text,
        domain_fingerprint=domain_fingerprint(plpy, dom), epsilon=p.epsilon_text, epsilon_per_query=p.per_query,
        delta=p.delta, release_id=release, guarantee=p.guarantee,
    )
    plpy.execute(Sql(f"DROP TABLE {dom}"))
    write_header(plpy, dest.sql, header)
    return header


def domain_fingerprint(plpy: Plpy, dom: str) -> str:
    """md5 of the public domain's cells (o, class, value) in a collation-independent order."""
    return str(plpy.execute(domain_fingerprint_select(dom))[0]["f"])


def fill_domain(plpy: Plpy, training: Training, p: Privacy, dom: str) -> None:
    """Fill the temporary domain table from the public domain table or from the data ('observed').

    Runs before the charge, so it may fail (on the domain table only: nothing
    that depends on the data can fail).  domain => 'private' is filled after
    the charge by :func:`select_private_domain`.
    """
    fill_public_domain(plpy, training, p.domain, p.domain_text, dom)


def fill_public_domain(plpy: Plpy, training: Training, domain: Relation | None, domain_text: str, dom: str) -> None:
    """:func:`fill_domain` from the domain table ``domain`` (None: 'observed'), named ``domain_text`` in messages;
    also the public domain of an owner's shares (:mod:`madnb_pl.merge.secure`)."""
    n = training.num_attrs
    cat = [i for i in range(1, n + 1) if i not in training.numeric]
    cat_sql = "'{" + ",".join(str(i) for i in cat) + "}'::pg_catalog.int4[]"
    ctype, etype = training.cls.type_sql, training.attrs.elem_sql
    if domain is None:
        plpy.warning(
            "domain 'observed' discloses the set of class labels and attribute values present in the data",
            detail=f"the model trained from {training.source.display} lists exactly the values that occur in it, so it is "
            f"{NOT_DP_OBSERVED}; this is recorded in the privacy ledger and in the model tables' comments",
            hint=privacy_parameters.DOMAIN_HINT if training.cells is None else privacy_parameters.COLUMNS_DOMAIN_HINT,
        )
        src, cls = training.source.sql, training.cls.sql
        if training.cells is None:
            values = f"pg_catalog.unnest({dp_attrs_sql(training)}) WITH ORDINALITY AS u(val, o)"
        else:  # the cells number attribute i as i + 1: shift them back
            values = f"(SELECT u.val, u.o OPERATOR(pg_catalog.-) 1 FROM {training.cells}) AS u(val, o)"
        plpy.execute(
            Sql(f"INSERT INTO {dom} (o, cls, v) "
            f"SELECT DISTINCT 0, t.{cls}, NULL::{etype} FROM {src} AS t WHERE t.{cls} IS NOT NULL "
            f"UNION ALL SELECT DISTINCT u.o::pg_catalog.int4, NULL::{ctype}, u.val FROM {src} AS t "
            f"CROSS JOIN LATERAL {values} "
            f"WHERE t.{cls} IS NOT NULL AND u.val IS NOT NULL AND u.o OPERATOR(pg_catalog.=) ANY ({cat_sql})")
        )
    else:
        d = domain.sql
        bad = plpy.execute(
            Sql("SELECT pg_catalog.array_agg(DISTINCT d.attr ORDER BY d.attr) "
            f"FILTER (WHERE d.attr OPERATOR(pg_catalog.<) 0 OR d.attr OPERATOR(pg_catalog.>) {n} "
            f"OR NOT (d.attr OPERATOR(pg_catalog.=) 0 OR d.attr OPERATOR(pg_catalog.=) ANY ({cat_sql}))) AS bad, "
            "pg_catalog.count(*) FILTER (WHERE d.attr IS NULL OR d.value IS NULL) AS nulls "
            f"FROM {d} AS d")
        )[0]
        if bad["nulls"]:
            raise MadnbError("22023", f"the domain table {domain.display} has NULL in attr or value", hint=privacy_parameters.DOMAIN_HINT)
        if bad["bad"]:
            raise MadnbError(
                "22023",
                f"the domain table {domain.display} lists values for attribute(s) {bad['bad']}, "
                "which are not the class (0) or a categorical attribute",
                detail=f"categorical attributes: {cat}; numeric attributes {list(training.numeric)} take bounds instead",
                hint=privacy_parameters.DOMAIN_HINT,
            )
        # the domain table's values as text by their type's output function (the table is another role's: its
        # value column may be of a type whose owner planted a cast to text)
        text = text_sql("d.value", builtin=False)
        if type_is_builtin(plpy, ctype) and type_is_builtin(plpy, str(etype)):
            plpy.execute(
                Sql(f"INSERT INTO {dom} (o, cls, v) SELECT DISTINCT d.attr::pg_catalog.int4, "
                f"CASE WHEN d.attr OPERATOR(pg_catalog.=) 0 THEN ({text})::{ctype} END, "
                f"CASE WHEN d.attr OPERATOR(pg_catalog.>) 0 THEN ({text})::{etype} END FROM {d} AS d")
            )
        else:
            # a cast from text to a type from outside pg_catalog (an enum) may be its owner's: the labels and
            # values reach it as parameters of that type, read by the type's own input function
            rows = plpy.execute(Sql(f"SELECT DISTINCT d.attr::pg_catalog.int4 AS o, {text} AS v FROM {d} AS d"))
            labels = [str(r["v"]) for r in rows if r["o"] == 0]
            cells = [(int(r["o"]), str(r["v"])) for r in rows if r["o"] != 0]
            plpy.execute(
                plpy.prepare(
                    Sql(f"INSERT INTO {dom} (o, cls, v) SELECT DISTINCT x.o, x.cls, x.v FROM ("
                    "SELECT 0::pg_catalog.int4 AS o, c.cls, NULL AS v FROM pg_catalog.unnest($1) AS c(cls) "
                    "UNION ALL SELECT e.o, NULL, e.v FROM ROWS FROM (pg_catalog.unnest($2), pg_catalog.unnest($3)) "
                    "AS e(o, v)) AS x"),
                    [f"{ctype}[]", "pg_catalog.int4[]", f"{etype}[]"],
                ),
                [labels, [o for o, _ in cells], [v for _, v in cells]],
            )
    r = plpy.execute(
        Sql(f"SELECT pg_catalog.count(*) FILTER (WHERE d.o OPERATOR(pg_catalog.=) 0) AS classes, "
        f"pg_catalog.array_agg(DISTINCT d.o) FILTER (WHERE d.o OPERATOR(pg_catalog.>) 0) AS attrs FROM {dom} AS d")
    )[0]
    if r["classes"] == 0:
        raise MadnbError("22023", f"the domain {domain_text} has no class labels (attr 0)", hint=privacy_parameters.DOMAIN_HINT)
    missing = sorted(set(cat) - set(r["attrs"] or []))
    if missing and domain is not None:
        raise MadnbError(
            "22023", f"the domain table {domain.display} lists no values for categorical attribute(s) {missing}",
            hint=privacy_parameters.DOMAIN_HINT,
        )


def select_private_domain(plpy: Plpy, training: Training, p: Privacy, dom: str) -> None:
    """domain => 'private': fill the domain with the candidates whose noisy count reaches the threshold.

    Runs after the charge.  Candidates are the class labels and the values of
    each categorical attribute present in the data; each selection query (the
    class column, each categorical attribute) counts one value per row, so it
    has L0 and L-infinity sensitivity 1.  The noisy counts decide keep or drop
    inside the statement and are never stored or shown.  Nothing here can fail
    because of the data: an empty selection gives an empty model.
    """
    assert p.selection is not None
    plpy.execute(
        Sql(f"INSERT INTO {dom} (o, cls, v) {dp_selection_select(training, p.per_query, p.selection.threshold)}")
    )


def charge(plpy: Plpy, source: Relation, p: Privacy, parameters: dict[str, Any]) -> int:
    """Charge the release to its source and record it in the ledger; return its release id.

    Runs before any noise is drawn, through ``madnb.record_private_release``: a
    SECURITY DEFINER function (the caller has no write access to privacy state)
    that takes the source's advisory lock until the transaction ends, fails with
    53400 if the budget would be exceeded, adds epsilon to the source's spent
    counter (a sequence: ROLLBACK does not undo it) and writes the ledger row with
    the session user and the mechanism.
    """
    return charge_epsilon(plpy, source, p.epsilon_text, parameters)


def charge_epsilon(plpy: Plpy, source: Relation, epsilon_text: str, parameters: dict[str, Any]) -> int:
    """:func:`charge` of any private release (training, or an evaluation's): ``epsilon_text`` (an exact decimal)
    charged to ``source`` through ``madnb.record_private_release``; return the ledger's release id."""
    return int(
        plpy.execute(
            plpy.prepare(
                Sql("SELECT madnb.record_private_release($1::pg_catalog.oid::pg_catalog.regclass, "
                "$2::pg_catalog.numeric, $3::pg_catalog.jsonb) AS release_id"),
                ["oid", "text", "text"],
            ),
            [source.oid, epsilon_text, json.dumps(parameters, sort_keys=True)],
        )[0]["release_id"]
    )


def dp_attrs_sql(training: Training) -> Sql:
    """The attribute array of row ``t`` if it is one-dimensional, else NULL (all attributes missing).

    ``array_ndims`` is NULL for an empty or NULL array and 2 or more for a
    multi-dimensional one; only a one-dimensional array is unnested by position.
    """
    return Sql(f"CASE WHEN pg_catalog.array_ndims(t.{training.attrs.sql}) OPERATOR(pg_catalog.=) 1 THEN t.{training.attrs.sql} END")


def _dp_cells_unnest(training: Training) -> Sql:
    """``unnest`` of the class-count cell (o = 1) followed by the attributes (o = i + 1), never failing.

    ``ARRAY[NULL] || NULL`` is ``{NULL}``; concatenating two one-dimensional
    arrays works whatever their lower bounds.  Attributes read from columns
    come as ``t.cells`` instead (the same numbering; see :class:`madnb_pl.inputs.arrays.Training`).
    """
    if training.cells is not None:
        return training.cells
    elem = training.attrs.elem_sql
    return Sql(
        f"pg_catalog.unnest(ARRAY[NULL::{elem}] OPERATOR(pg_catalog.||) ({dp_attrs_sql(training)})) "
        "WITH ORDINALITY AS u(val, o)"
    )


def fixed_point_sql(x: str, lo: str, hi: str, mid: str, step: str, k: int, computed_once: bool = False) -> str:
    """A numeric value's fixed-point code (int8): ``x`` (float8) clipped to [lo, hi], then
    clip(round((x - mid) * step), -K, K), step = K / h (the module's encoding).  Every argument is SQL.

    The clips are float8larger / float8smaller, the functions of max and min: as LEAST and GREATEST for every
    float8 (NaN the largest), but strict, so the code is NULL where ``x`` is (LEAST and GREATEST skip a NULL: the
    code would be -K).  ``computed_once``: the code in float8 goes through :func:`madnb_pl.core.sql.once` before
    its cast, so that a sub-select whose select list holds it is not flattened into the aggregate that reads it
    (which would compute it once per reference: a sum and a sum of squares)."""
    def clip(v: str, a: str, b: str) -> str:
        return f"pg_catalog.float8smaller(pg_catalog.float8larger({v}, {a}), {b})"

    code = clip(f"pg_catalog.round(({clip(x, lo, hi)} OPERATOR(pg_catalog.-) {mid}) OPERATOR(pg_catalog.*) {step})",
                f"'{-k}'::{F8}", f"'{k}'::{F8}")
    return f"({once(code)})::pg_catalog.int8" if computed_once else f"{code}::pg_catalog.int8"


def dp_stats_select(training: Training, nb: NumericBounds, value_counts: bool = False) -> Sql:
    """The one exact pass for private training: class counts, value counts, encoded sums.

    ``value_counts``: a numeric cell's n counts the values present (nv), not the
    class's rows (the exact statistics of secure aggregation, :mod:`madnb_pl.merge.secure`).
    Squares of codes above 2**31 are summed in numeric (an int8 product would overflow).

    Elements beyond numAttrs are ignored and missing ones are missing values (no
    validation error: an error would disclose something about the data).  An
    array that is not one-dimensional counts as all missing (the row still counts
    for its class).  Rows with a NULL class are left out.  NaN counts as missing.
    Columns (madnb.train) give their own select of the same rows
    (``training.column_stats``: :func:`madnb_pl.privacy.column_release.dp_column_stats_sql`).
    """
    if training.column_stats is not None:
        return training.column_stats
    src, cls = training.source.sql, training.cls.sql
    elem = training.attrs.elem_sql
    n = training.num_attrs
    # u.o is 1 for the leading NULL (the class-count cell) and i + 1 for attribute i.
    cat = [i + 1 for i in range(1, n + 1) if i not in training.numeric]
    num = [i + 1 for i in training.numeric]
    if training.categorical_only:  # every attribute is categorical: a cheaper test than = ANY per element
        v = "CASE WHEN u.o OPERATOR(pg_catalog.>) 1 THEN u.val END"
    else:
        v = f"CASE WHEN u.o OPERATOR(pg_catalog.=) ANY ({int_array(cat)}) THEN u.val END" if cat else f"NULL::{elem}"
    if num:
        k = nb.scale
        code, present = _numeric_code_sql(training, nb, "u.val", "u.o")
        z = f"(CASE WHEN u.o OPERATOR(pg_catalog.=) ANY ({int_array(num)}) AND {present} THEN {code} END)"
        zz = f"{z}::pg_catalog.numeric" if k > 1 << 31 else z
        s1, s2 = f"pg_catalog.sum({z})", f"pg_catalog.sum({zz} OPERATOR(pg_catalog.*) {zz})"
        # (u.o - 1)::int4 is the grouped expression (written the same in both places): u.o alone may not appear outside an aggregate
        count = (
            f"CASE WHEN (u.o OPERATOR(pg_catalog.-) 1)::pg_catalog.int4 OPERATOR(pg_catalog.=) ANY ({int_array(training.numeric)}) THEN pg_catalog.count({z}) "
            "ELSE pg_catalog.count(*) END"
        ) if value_counts else "pg_catalog.count(*)"
    else:
        s1 = s2 = "NULL::pg_catalog.numeric"
        count = "pg_catalog.count(*)"
    return Sql(
        f"SELECT t.{cls} AS cls, (u.o OPERATOR(pg_catalog.-) 1)::pg_catalog.int4 AS o, {v} AS v, {count} AS n, "
        f"{s1} AS s1, {s2} AS s2 "
        f"FROM {src} AS t CROSS JOIN LATERAL {_dp_cells_unnest(training)} "
        f"WHERE t.{cls} IS NOT NULL AND u.o OPERATOR(pg_catalog.<=) {n + 1} "
        "GROUP BY 1, 2, 3"
    )


def packs_dp_codes(training: Training) -> bool:
    """Whether the release counts its cells from packed keys (:func:`dp_packed_stats_select`): an attribute array
    of categorical integer codes (:func:`madnb_pl.release.array_pass.packs_codes`)."""
    return training.cells is None and training.column_stats is None and packs_codes(training)


def dp_packed_stats_select(training: Training) -> Sql:
    """:func:`dp_stats_select`'s cells for categorical integer codes, as rows (cls, k, n, s1, s2): k is the
    packed key (:func:`madnb_pl.release.array_pass.packed_key`) of value v at attribute o, 0 for the class count.

    The same counts by the same rules, from one int8 per element grouped with the class (as the exact pass
    does): ``ARRAY[0]`` followed by the array if it is one-dimensional (else nothing: all missing), unnested in
    lock-step with the positions 0..numAttrs in the select list.  The leading 0 at position 0 is the class-count
    cell (key 0); an element beyond numAttrs meets a NULL position and a NULL element gives a NULL key, so
    neither is a cell of any domain (:func:`domain_cells_select` joins the cells on the key).
    """
    src, cls, elem = training.source.sql, training.cls.sql, training.attrs.elem_sql
    positions = int_array(range(training.num_attrs + 1), "int8")
    key = packed_key(f"pg_catalog.unnest(ARRAY[0::{elem}] OPERATOR(pg_catalog.||) ({dp_attrs_sql(training)}))",
                     f"pg_catalog.unnest({positions})")
    return Sql(
        "SELECT e.cls, e.k, pg_catalog.count(*) AS n, NULL::pg_catalog.numeric AS s1, NULL::pg_catalog.numeric AS s2 "
        f"FROM (SELECT t.{cls} AS cls, {key} AS k FROM {src} AS t WHERE t.{cls} IS NOT NULL) AS e GROUP BY 1, 2"
    )


def share_stats_select(training: Training, nb: NumericBounds) -> Sql:
    """:func:`dp_stats_select`'s rows with ``value_counts`` (the exact statistics of secure aggregation), read by
    subscript: no row per element.

    The same cells by the same rules: attribute i is element i of a one-dimensional
    array counted from its own lower bound (``a[array_lower(a, 1) + i - 1]``; a
    multi-dimensional array's single subscript is NULL, so all its attributes are
    missing, as an empty or NULL array's), elements beyond numAttrs are ignored,
    NULL and NaN are missing, rows with a NULL class are left out.  Categorical
    values (and the class-count cell, o = 0) come from one unnest of the
    categorical elements only; numeric ones from one GROUP BY class with three
    aggregates per attribute (values present, the sum of codes, the sum of their
    squares in numeric), turned into rows.  On the shares' bench table (20,000 rows,
    10 categorical and 5 Gaussian attributes) about a third of the unnest pass.
    Columns (``training.column_stats``) keep :func:`dp_stats_select`.
    """
    if training.column_stats is not None or training.cells is not None:
        return dp_stats_select(training, nb, value_counts=True)
    src, cls, arr = training.source.sql, training.cls.sql, f"t.{training.attrs.sql}"
    n, elem = training.num_attrs, training.attrs.elem_sql

    def at(i: int) -> str:  # attribute i of the row
        return f"{arr}[pg_catalog.array_lower({arr}, 1) OPERATOR(pg_catalog.+) {i - 1}]"

    cat = [i for i in range(1, n + 1) if i not in training.numeric]
    parts = []
    if cat:
        parts.append(
            f"SELECT t.{cls} AS cls, u.o, u.val AS v, pg_catalog.count(*) AS n, NULL::pg_catalog.numeric AS s1, "
            f"NULL::pg_catalog.numeric AS s2 FROM {src} AS t CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest("
            f"{int_array([0, *cat])}), pg_catalog.unnest(ARRAY[NULL::{elem}, {', '.join(at(i) for i in cat)}])) AS u(o, val) "
            f"WHERE t.{cls} IS NOT NULL GROUP BY 1, 2, 3"
        )
    if training.numeric:
        aggs, rows = [], []
        if not cat:
            rows.append("(0, g.rows, NULL::pg_catalog.numeric, NULL::pg_catalog.numeric)")
        for i in training.numeric:
            code, present = _numeric_code_sql(training, nb, at(i), str(i + 1))
            z = f"(CASE WHEN {present} THEN {code} END)"
            zz = f"{z}::pg_catalog.numeric" if nb.scale > 1 << 31 else z
            aggs.append(f"pg_catalog.count({z}) AS n{i}, pg_catalog.sum({z}) AS a{i}, pg_catalog.sum({zz} OPERATOR(pg_catalog.*) {zz}) AS b{i}")
            rows.append(f"({i}, g.n{i}, g.a{i}::pg_catalog.numeric, g.b{i}::pg_catalog.numeric)")
        parts.append(
            f"SELECT g.cls, x.o, NULL::{elem} AS v, x.n, x.s1, x.s2 FROM "
            f"(SELECT t.{cls} AS cls, pg_catalog.count(*) AS rows, {', '.join(aggs)} FROM {src} AS t "
            f"WHERE t.{cls} IS NOT NULL GROUP BY t.{cls}) AS g "
            f"CROSS JOIN LATERAL (VALUES {', '.join(rows)}) AS x(o, n, s1, s2)"
        )
    return Sql(" UNION ALL ".join(parts))


def _numeric_code_sql(training: Training, nb: NumericBounds, val: str, slot: str) -> tuple[str, str]:
    """(code, present) of numeric value ``val`` of the attribute whose bounds are at ``slot`` of :meth:`NumericBounds.arrays`:
    its fixed-point code (clipped to the bounds) and whether it is present (not NULL, not NaN)."""
    a = nb.arrays(training.num_attrs)
    oid = training.attrs.elem_oid
    if oid == NUMERIC:  # numeric: clip in numeric first (a huge numeric does not fit a float8)
        x = f"LEAST(GREATEST({val}, ({a['lo_n']})[{slot}]), ({a['hi_n']})[{slot}])::{F8}"
        present = f"{val} IS NOT NULL AND {val} OPERATOR(pg_catalog.<>) 'NaN'::pg_catalog.numeric"
    elif oid in FLOAT_TYPES:
        x = f"{val}::{F8}"
        present = f"{val} IS NOT NULL AND {val}::{F8} OPERATOR(pg_catalog.<>) 'NaN'::{F8}"
    else:  # integers
        x = f"{val}::{F8}"
        present = f"{val} IS NOT NULL"
    lo, hi, mid, step = (f"({a[c]})[{slot}]" for c in ("lo", "hi", "mid", "step"))
    return fixed_point_sql(x, lo, hi, mid, step, nb.scale), present


def dp_selection_select(training: Training, epsilon_per_query: float, threshold: int) -> Sql:
    """domain => 'private': the candidates whose count plus discrete Laplace noise reaches ``threshold``.

    One pass: per class label its row count (o = 0), per categorical attribute
    and value present the number of rows (any class) holding it.  Each of these
    1 + F_cat queries counts at most one value per row.  The noisy count is
    compared with the threshold inside the statement and never leaves it.
    Yields rows (o, cls, v) for the domain table.
    """
    src, cls = training.source.sql, training.cls.sql
    n = training.num_attrs
    cat = [i + 1 for i in range(1, n + 1) if i not in training.numeric]
    eps = f"{float8_literal(epsilon_per_query)}::{F8}"
    return Sql(
        "SELECT s.o, s.cls, s.v FROM ("
        f"SELECT (u.o OPERATOR(pg_catalog.-) 1)::pg_catalog.int4 AS o, "
        f"CASE WHEN u.o OPERATOR(pg_catalog.=) 1 THEN t.{cls} END AS cls, "
        f"CASE WHEN u.o OPERATOR(pg_catalog.>) 1 THEN u.val END AS v, pg_catalog.count(*) AS n "
        f"FROM {src} AS t CROSS JOIN LATERAL {_dp_cells_unnest(training)} "
        f"WHERE t.{cls} IS NOT NULL AND (u.o OPERATOR(pg_catalog.=) 1 "
        f"OR (u.o OPERATOR(pg_catalog.=) ANY ({int_array(cat, 'int8')}) AND u.val IS NOT NULL)) "
        "GROUP BY 1, 2, 3) AS s "
        f"WHERE madnb._dp_laplace(s.n, 1, {eps}) OPERATOR(pg_catalog.>=) {int(threshold)}::pg_catalog.numeric"
    )


def dp_domain_ddl(name_sql: str, training: Training) -> Sql:
    """The public domain: (0, class, NULL) per class label, (i, NULL, value) per categorical value."""
    return Sql(
        f"CREATE TEMPORARY TABLE {name_sql} (o pg_catalog.int4 NOT NULL, cls {training.cls.type_sql}, "
        f"v {training.attrs.elem_sql}) ON COMMIT DROP"
    )


def dp_release_select(training: Training, nb: NumericBounds, dom: str, epsilon_per_query: float) -> Sql:
    """Every cell of the public domain with discrete Laplace noise, in one statement.

    Cells: (class) for the class counts, (class, attribute, value) for each
    categorical value of the domain, (class, attribute) for each numeric
    attribute.  The exact statistics of :func:`dp_stats_select` are joined to
    the cells (an empty cell gets 0; a hash join, linear in the domain), and each
    released number gets its noise exactly once, here: the cells are numbered
    (the counts apart from the numeric cells), each kind of number is drawn for in
    one call of ``madnb._dp_laplace_array`` (VOLATILE: the planner neither folds
    nor repeats it; MATERIALIZED: each cell and each call once), and the noisy
    numbers are joined back to their cells by position.
    """
    eps = f"{float8_literal(epsilon_per_query)}::{F8}"
    k = nb.scale
    noisy = ", ".join(
        f"madnb._dp_laplace_array(pg_catalog.array_agg(j.{c} ORDER BY j.i) FILTER (WHERE {'' if numeric else 'NOT '}j.isnum), {s}, {eps}) AS {c}"
        for c, s, numeric in (("n", 1, False), ("s1", k, True), ("s2", k * k, True))
    )
    return Sql(
        f"WITH j AS MATERIALIZED ({domain_cells_select(training, dom, *_cell_stats(training, nb))}), "
        f"z AS MATERIALIZED (SELECT {noisy} FROM j) "
        "SELECT j.cls, j.o, j.v, c.n, g.s1, g.s2 FROM j "
        "LEFT JOIN (SELECT u.n, u.i FROM z CROSS JOIN LATERAL pg_catalog.unnest(z.n) WITH ORDINALITY AS u(n, i)) AS c "
        "ON NOT j.isnum AND c.i OPERATOR(pg_catalog.=) j.i "
        "LEFT JOIN (SELECT u.s1, u.s2, u.i FROM z CROSS JOIN LATERAL "
        "ROWS FROM (pg_catalog.unnest(z.s1), pg_catalog.unnest(z.s2)) WITH ORDINALITY AS u(s1, s2, i)) AS g "
        "ON j.isnum AND g.i OPERATOR(pg_catalog.=) j.i"
    )


def _cell_stats(training: Training, nb: NumericBounds) -> tuple[Sql, bool]:
    """The release's exact statistics and whether they are packed (:func:`packs_dp_codes`)."""
    if packs_dp_codes(training):
        return dp_packed_stats_select(training), True
    return dp_stats_select(training, nb), False


def domain_cells_select(training: Training, dom: str, stats: Sql, packed: bool = False) -> Sql:
    """Every cell of the public domain ``dom`` with its exact statistics from ``stats`` (0 where empty).

    Rows (cls, o, v, isnum, n, s1, s2, i): i numbers the count cells and the
    numeric cells apart (each from 1), in the order the noise arrays take them.
    ``packed``: ``stats`` are :func:`dp_packed_stats_select`'s, joined on the cell's key.
    """
    elem = training.attrs.elem_sql
    num = int_array(training.numeric)
    cells = (
        f"SELECT c.cls, 0::pg_catalog.int4 AS o, NULL::{elem} AS v FROM {dom} AS c WHERE c.o OPERATOR(pg_catalog.=) 0 "
        f"UNION ALL SELECT c.cls, a.o, a.v FROM {dom} AS c JOIN {dom} AS a ON a.o OPERATOR(pg_catalog.>) 0 WHERE c.o OPERATOR(pg_catalog.=) 0"
    )
    if training.numeric:
        cells += (
            f" UNION ALL SELECT c.cls, g.o, NULL::{elem} FROM {dom} AS c "
            f"CROSS JOIN pg_catalog.unnest({num}) AS g(o) WHERE c.o OPERATOR(pg_catalog.=) 0"
        )
    i8 = "pg_catalog.int8"
    return Sql(
        f"SELECT x.cls, x.o, x.v, x.o OPERATOR(pg_catalog.=) ANY ({num}) AS isnum, COALESCE(e.n, 0) AS n, "
        "COALESCE(e.s1, 0) AS s1, COALESCE(e.s2, 0) AS s2, "
        f"pg_catalog.row_number() OVER (PARTITION BY x.o OPERATOR(pg_catalog.=) ANY ({num}))::{i8} AS i "
        f"FROM ({cells}) AS x LEFT JOIN ({stats}) AS e ON e.cls OPERATOR(pg_catalog.=) x.cls AND "
        # ARRAY[v] = ARRAY[v] is true for two NULLs (the class and numeric cells) and hashable,
        # so the cells join the statistics by hash: linear in the domain (IS NOT DISTINCT FROM is not)
        # (both cast to the element type: a CASE over a domain yields its base type); a packed key is an int8
        # (0 for the class cell), which the planner also hashes where it misjudges the groups' number
        + (f"e.k OPERATOR(pg_catalog.=) {packed_key('COALESCE(x.v, 0)', 'x.o')}" if packed else
           f"e.o OPERATOR(pg_catalog.=) x.o AND ARRAY[e.v::{elem}] OPERATOR(pg_catalog.=) ARRAY[x.v::{elem}]")
    )


__all__ = [
    "charge", "release_parameters", "domain_cells_select", "domain_fingerprint", "dp_attrs_sql", "fixed_point_sql", "dp_domain_ddl", "dp_release_select",
    "dp_packed_stats_select", "dp_selection_select", "dp_stats_select", "fill_domain", "fill_public_domain", "packs_dp_codes",
    "select_private_domain", "write_private",
]
