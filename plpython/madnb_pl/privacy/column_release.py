"""The private release of ordinary columns: bounds and the domain given by column name.

With ``epsilon`` (:func:`privacy`) the release is private training's
(:func:`madnb_pl.privacy.private_release.write_private`), reading each row's
columns through :func:`dp_cells_sql` instead of an attribute array.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
from dataclasses import dataclass
from typing import Any

from ..core.errors import MadnbError
from ..core.names import NewName, Relation, resolve_column, resolve_relation
from ..core.sql import (
    F8,
    NUMERIC,
    Plpy,
    Sql,
    float8_literal,
)
from ..inputs import privacy_parameters
from ..inputs.arrays import Training, finite_number
from ..inputs.columns import ColumnTraining, Feature, column_text_sql, gaussian_value_sql, value_text_sql
from ..release import column_pass
from . import private_release

# ---------------------------------------------------------------------------
# Private training from columns (madnb.train with epsilon)
# ---------------------------------------------------------------------------

BOUNDS_HINT = (
    'give public bounds for every Gaussian feature as jsonb keyed by column name, e.g. bounds => \'{"age": [17, 90], '
    '"hours_per_week": [1, 99]}\'; bounds are public knowledge, never taken from the data'
)


DOMAIN_HINT = privacy_parameters.COLUMNS_DOMAIN_HINT


@dataclass(frozen=True)
class ColumnPrivacy:
    """A validated private training from columns: the shape the private release reads, and its parameters."""

    shape: Training
    privacy: privacy_parameters.Privacy
    bounds: dict[str, list[float]]  # Gaussian feature name -> [lower, upper]
    copy: NewName | None = None  # the temporary copy of a domain given by column name (:func:`_domain_table`)

    def ledger(self, training: ColumnTraining) -> dict[str, Any]:
        """What the ledger records beyond private.write_private's parameters."""
        return {"features": [f.name for f in training.features], "bounds_by_column": self.bounds}

    def drop_copy(self, plpy: Plpy) -> None:
        """Drop the temporary domain copy once the release has read it (ON COMMIT DROP is too late in a transaction)."""
        if self.copy is not None:
            plpy.execute(Sql(f"DROP TABLE IF EXISTS {self.copy.sql}"))


def privacy(
    plpy: Plpy, training: ColumnTraining, epsilon: float | None, bounds: str | None, domain: str | None, delta: float | None,
) -> ColumnPrivacy | None:
    """The validated private release of ``t`` with ``epsilon``, or None for exact statistics.

    Everything is checked here, before anything is charged; nothing is read from
    the data.  ``bounds`` (jsonb text) names every Gaussian feature; ``domain`` is
    'observed', 'private' (with ``delta``), a jsonb object or a table of (attr,
    value) rows, by column name (:func:`_domain_table` copies it into the
    numbered form the private release reads, as a domain table of
    create_nb_prepared_data_tables would be).
    """
    if epsilon is None:
        privacy_parameters.refuse_private_arguments(bounds, domain, delta)
        return None
    by_name = _bounds(training, bounds)
    pairs = [by_name[training.features[j - 1].name] for j in training.numeric]
    shape = training.shape()
    if domain is None:
        raise MadnbError("22023", "a differentially private model needs a public domain", hint=DOMAIN_HINT)
    kind = domain.strip().lower()
    named: str | None = None
    table: NewName | None = None
    if kind not in (privacy_parameters.OBSERVED, privacy_parameters.PRIVATE):
        table, named = _domain_table(plpy, training, domain)
        domain = table.sql
    p = privacy_parameters.privacy_spec(plpy, shape, epsilon, pairs or None, domain, list(shape.numeric), delta)
    if named is not None and table is not None and p.domain is not None:
        # named as pg_temp (not pg_temp_<n>, which depends on the backend), and shown as the user gave it
        p = dataclasses.replace(p, domain=Relation("pg_temp", table.name, p.domain.oid), domain_name=named)
    cells = dp_cells_sql(training, p.bounds)
    stats = dp_column_stats_sql(training, p.bounds, column_pass.grouping_branches(plpy, sum(not f.gaussian for f in training.features)))
    return ColumnPrivacy(dataclasses.replace(shape, cells=cells, column_stats=stats), p, by_name, table)


def _bounds(training: ColumnTraining, bounds: str | None) -> dict[str, list[float]]:
    """The public bounds by Gaussian feature name (jsonb text): every one named, no other name."""
    gaussian = [f.name for f in training.features if f.gaussian]
    if bounds is None:
        if gaussian:
            raise MadnbError("22023", f'public bounds are missing for Gaussian feature "{gaussian[0]}"', hint=BOUNDS_HINT)
        return {}
    given = json.loads(bounds)
    if not isinstance(given, dict):
        raise MadnbError("22023", "bounds must be a jsonb object keyed by column name", hint=BOUNDS_HINT)
    features = {f.name: f for f in training.features}
    for name, pair in given.items():
        if name not in features:
            raise MadnbError(
                "42703", f'bounds name column "{name}", which is not a feature of {training.source.display}', hint=BOUNDS_HINT,
            )
        if not features[name].gaussian:
            raise MadnbError(
                "22023", f'bounds name the categorical feature "{name}"',
                hint="bounds are for Gaussian features; a categorical feature's values are listed in domain",
            )
        ok = isinstance(pair, list) and len(pair) == 2 and all(finite_number(x) for x in pair)
        if not ok:
            raise MadnbError(
                "22023", f'the bounds of "{name}" must be two finite numbers [lower, upper], got {json.dumps(pair)}',
                hint=BOUNDS_HINT,
            )
        if not float(pair[0]) < float(pair[1]):
            raise MadnbError(
                "22023", f'the lower bound of "{name}" must be below its upper bound, got {json.dumps(pair)}', hint=BOUNDS_HINT,
            )
        privacy_parameters.check_half_width(float(pair[0]), float(pair[1]), f'the bounds of "{name}"', json.dumps(pair), BOUNDS_HINT)
    for name in gaussian:
        if name not in given:
            raise MadnbError("22023", f'public bounds are missing for Gaussian feature "{name}"', hint=BOUNDS_HINT)
    return {name: [float(given[name][0]), float(given[name][1])] for name in gaussian}


def _domain_table(plpy: Plpy, training: ColumnTraining, domain: str) -> tuple[NewName, str]:
    """Copy a domain given by column name into a temporary (attr int, value text) table; return it and its name.

    jsonb (``{"column": [values]}``) or a table with columns attr and value
    (attr the column's name).  attr 0 holds the label's classes, attr i the
    values of feature i in their text form (:func:`value_text_sql`, after a cast
    to the column's base type, so '1.50' and '1.5' are one numeric value; an
    enum's values are their labels, as given).  Every
    categorical feature and the label need values; a Gaussian feature or
    another name is refused.  Only public data is read.
    """
    text = domain.strip()
    if text.startswith("{"):
        try:
            # numbers kept as written (a float would round 12345678901234567.5): each is cast to its column's type
            given = json.loads(text, parse_float=str, parse_int=str)
        except ValueError:
            given = None
        if not isinstance(given, dict) or any(
            not isinstance(v, list) or any(x is None or isinstance(x, (list, dict)) for x in v) for v in given.values()
        ):
            raise MadnbError(
                "22023", "a jsonb domain must be an object of arrays of values, one per column", hint=DOMAIN_HINT,
            )
        rows = [(k, x if isinstance(x, str) else json.dumps(x)) for k, vs in given.items() for x in vs]
        named = "given as jsonb"
    else:
        rel = resolve_relation(plpy, domain, "domain")
        resolve_column(plpy, rel, "attr", "domain")
        resolve_column(plpy, rel, "value", "domain")
        got = plpy.execute(Sql(f"SELECT d.attr::pg_catalog.text AS a, d.value::pg_catalog.text AS v FROM {rel.sql} AS d"))
        if any(r["a"] is None or r["v"] is None for r in got):
            raise MadnbError("22023", f"the domain table {rel.display} has NULL in attr or value", hint=DOMAIN_HINT)
        rows = [(r["a"], r["v"]) for r in got]
        named = rel.display
    number = {f.name: i for i, f in enumerate(training.features, start=1)}
    number[training.label.name] = 0
    for a, _ in rows:
        if a not in number:
            raise MadnbError(
                "42703", f'the domain names column "{a}", which is not the label or a feature of {training.source.display}',
                hint=DOMAIN_HINT,
            )
        if a != training.label.name and training.features[number[a] - 1].gaussian:
            raise MadnbError(
                "22023", f'the domain lists values for the Gaussian feature "{a}"',
                hint="a Gaussian feature takes bounds, not a domain", detail=f"bounds => '{{\"{a}\": [lower, upper]}}'",
            )
    named_cols = {a for a, _ in rows}
    for name in [training.label.name] + [f.name for f in training.features if not f.gaussian]:
        if name not in named_cols:
            column = "the label" if name == training.label.name else "categorical feature"
            raise MadnbError("22023", f'the domain lists no values for {column} "{name}"', hint=DOMAIN_HINT)
    table = NewName("pg_temp", "madnb_column_domain_" + secrets.token_hex(6))
    dom = table.sql
    plpy.execute(Sql(f"CREATE TEMPORARY TABLE {dom} (attr pg_catalog.int4, value pg_catalog.text) ON COMMIT DROP"))
    cases = " ".join(
        f"WHEN {i} THEN {value_text_sql(f'(r.v)::{f.param_type}', f)}"
        for i, f in enumerate(training.features, start=1) if not f.gaussian
    )
    insert = plpy.prepare(
        Sql(f"INSERT INTO {dom} (attr, value) SELECT DISTINCT m.o, CASE m.o WHEN 0 THEN r.v {cases} END "
        "FROM ROWS FROM (pg_catalog.unnest($1::pg_catalog.text[]), pg_catalog.unnest($2::pg_catalog.text[])) AS r(a, v) "
        "JOIN ROWS FROM (pg_catalog.unnest($3::pg_catalog.text[]), pg_catalog.unnest($4::pg_catalog.int4[])) AS m(a, o) "
        "ON m.a OPERATOR(pg_catalog.=) r.a"),
        ["pg_catalog.text[]", "pg_catalog.text[]", "pg_catalog.text[]", "pg_catalog.int4[]"],
    )
    try:
        plpy.execute(insert, [[a for a, _ in rows], [v for _, v in rows], list(number), list(number.values())])
    except plpy.SPIError as e:  # a value that does not cast (22xxx); the domain is public, so the message may show it
        state = str(getattr(e, "sqlstate", None) or "")
        if not state.startswith("22"):
            raise
        raise MadnbError(
            state, f"a value of the domain does not fit its column's type: {e.args[0] if e.args else e}",
            hint="the domain's values are read as values of their column's type (e.g. 13 for an integer column, "
            "2024-01-31 for a date)",
        ) from e
    return table, named


def dp_column_stats_sql(training: ColumnTraining, nb: privacy_parameters.NumericBounds, branches: int = 1) -> Sql:
    """The private pass's exact statistics from columns: the rows (cls, o, v, n, s1, s2) of
    :func:`madnb_pl.privacy.private_release.dp_stats_select`, the same numbers, from scans of the columns
    instead of an unpivot of every row into one row per feature.

    * per class its row count (o = 0) and, per Gaussian feature o, the sums s1 and
      s2 of its fixed-point values (:func:`_fixed_point_sql`): one ``GROUP BY`` class
      over a sub-select that computes each row's codes once (``madnb._once``: not
      flattened into the aggregate, which would compute a code once per reference,
      three times), unpivoted (a few rows);
    * per class and categorical value its count, in ``branches`` groups of the
      categorical features (:func:`madnb_pl.release.column_pass.value_counts_branches`).

    All the groups are the branches of one UNION ALL of rows of one shape (a
    MATERIALIZED CTE, unpivoted afterwards), which parallel workers run side by
    side, as exact training's pass (one part per class, ``branches`` of grouping
    sets; an unpivot inside a branch keeps the planner from a Parallel Append).
    ``branches`` comes from a setting
    (:func:`madnb_pl.release.column_pass.grouping_branches`), never from the data.
    Rows with a NULL class are left out; nothing here can fail whatever a row holds.
    """
    src, lab = f"{training.source.sql} AS t", f"t.{training.label.sql}"
    cat = [(i, column_text_sql(f"t.{f.column.sql}", f)) for i, f in enumerate(training.features, start=1) if not f.gaussian]
    num = list(training.numeric)
    numeric = "pg_catalog.numeric"
    codes = "".join(f", {_fixed_point_sql(training, nb, i)} AS z{i}" for i in num)
    sums = "".join(f", pg_catalog.sum(r.z{i}) AS s{i}, pg_catalog.sum(r.z{i} OPERATOR(pg_catalog.*) r.z{i}) AS q{i}" for i in num)
    rows = [f"SELECT r.cls, 0 AS o, NULL::pg_catalog.text AS v, pg_catalog.count(*) AS n{sums} "
            f"FROM (SELECT {lab} AS cls{codes} FROM {src} WHERE {lab} IS NOT NULL) AS r GROUP BY 1"]
    no_sums = "".join(f", NULL::{numeric}, NULL::{numeric}" for _ in num)
    for counts in column_pass.value_counts_branches(lab, src, cat, branches, where=f"{lab} IS NOT NULL") if cat else []:
        rows.append(f"SELECT c.cls, c.o, c.v, c.n{no_sums} FROM ({counts}) AS c")
    added = "".join(f", pg_catalog.sum(w.s{i}) AS s{i}, pg_catalog.sum(w.q{i}) AS q{i}" for i in num)
    cells = ", ".join([f"(0, a.n, NULL::{numeric}, NULL::{numeric})"] + [f"({i}, NULL, a.s{i}, a.q{i})" for i in num])
    return Sql(
        f"WITH w AS MATERIALIZED ({' UNION ALL '.join(rows)}) "
        f"SELECT a.cls, u.o, NULL::pg_catalog.text AS v, u.n, u.s1, u.s2 FROM (SELECT w.cls, pg_catalog.sum(w.n)::pg_catalog.int8 AS n{added} "
        f"FROM w WHERE w.o OPERATOR(pg_catalog.=) 0 GROUP BY 1) AS a CROSS JOIN LATERAL (VALUES {cells}) AS u(o, n, s1, s2) "
        "UNION ALL SELECT w.cls, w.o, w.v, w.n, NULL, NULL FROM w WHERE w.o OPERATOR(pg_catalog.<>) 0"
    )


def _fixed_point_sql(training: ColumnTraining, nb: privacy_parameters.NumericBounds, i: int) -> str:
    """Gaussian feature i's fixed-point value in row ``t`` (int8, NULL when missing): as
    :func:`madnb_pl.privacy.private_release.dp_stats_select` encodes a cell's value, with the same constants,
    through ``madnb._once`` (computed once in its sub-select)."""
    lo, hi = next((x, y) for a, x, y in nb.bounds if a == i)
    x = _value_sql(training.features[i - 1], lo, hi)
    c = [f"{float8_literal(v)}::{F8}" for v in (lo, hi, nb.mid(lo, hi), nb.scale / nb.half(lo, hi))]
    return private_release.fixed_point_sql(x, c[0], c[1], c[2], c[3], nb.scale, computed_once=True)  # NULL where x is


def _value_sql(f: Feature, lo: float, hi: float) -> str:
    """A Gaussian column's value in the private pass (float8, NULL when missing): NaN is missing, and a numeric
    column is clipped to its bounds in numeric first (a huge numeric does not fit a float8)."""
    col = f"t.{f.column.sql}"
    if f.base_oid != NUMERIC:
        return gaussian_value_sql(col, f)
    lo_n, hi_n = (f"'{float8_literal(b)}'::pg_catalog.numeric" for b in (lo, hi))
    v = f"({col})::pg_catalog.numeric"
    return f"(CASE WHEN {v} IS NOT NULL AND {v} OPERATOR(pg_catalog.<>) 'NaN'::pg_catalog.numeric THEN (LEAST(GREATEST({v}, {lo_n}), {hi_n}))::{F8} END)"


def dp_cells_sql(training: ColumnTraining, nb: privacy_parameters.NumericBounds) -> Sql:
    """The private pass's cells of row ``t`` (see :attr:`madnb_pl.inputs.arrays.Training.cells`): one LATERAL VALUES list.

    Categorical values in their text form (:func:`value_text_sql`), Gaussian ones
    as float8 with NaN missing; a numeric column is clipped to its bounds in
    numeric first (a huge numeric does not fit a float8), as the attribute-array
    pass clips a numeric array.  Nothing here can fail whatever a row holds.
    """
    bounds = {a: (lo, hi) for a, lo, hi in nb.bounds}
    cells = [f"(NULL::pg_catalog.text, 1, NULL::{F8})"]
    for i, f in enumerate(training.features, start=1):
        col = f"t.{f.column.sql}"
        if not f.gaussian:
            cells.append(f"({column_text_sql(col, f)}, {i + 1}, NULL)")
        else:
            cells.append(f"(NULL, {i + 1}, {_value_sql(f, *bounds[i])})")
    return Sql(f"(VALUES {', '.join(cells)}) AS u(val, o, x)")


