"""Derive: summed statistics -> MADlib's model tables.

:func:`merge_and_derive` checks the parts and sums them (:mod:`madnb_pl.merge.part_sums`),
then :func:`derive_from_sum` post-processes that one sum: :func:`model_ctes`
(exact) or :func:`dp_model_ctes` (private: clamps, the variance floor from the
effective epsilon of the summed noise) turn its cells into the rows of MADlib's
three tables, which :func:`create_empty_tables` creates (a :class:`ModelTables`
names them) and :func:`insert_model_rows` fills; an online update refills the
same tables from its new sum.  Training derives from its one part through
the same functions.  Deriving is post-processing: nothing is charged to any
privacy budget.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..core.names import NewName, Relation, created
from ..core.sql import F8, Plpy, Sql, float8_literal, with_clause
from ..inputs import privacy_parameters
from ..inputs.arrays import Training
from ..merge.part_sums import SOURCES_SHOWN, check_compatible, check_parts, statistics_shape, write_sum
from ..release import array_pass
from ..release.statistics_table import Header


@dataclass(frozen=True)
class ModelTables:
    """The names of MADlib's model tables: featureProbs, classPriors and (with numeric attributes) numericFeatureStats."""

    feature_probs: NewName
    class_priors: NewName
    numeric_stats: NewName | None = None

    def all(self) -> tuple[NewName, ...]:
        """Every table of the model, in MADlib's argument order."""
        return (self.feature_probs, self.class_priors) + ((self.numeric_stats,) if self.numeric_stats is not None else ())


def merge_and_derive(
    plpy: Plpy,
    parts: list[tuple[Relation, Header]],
    model: ModelTables,
    smoothing: float,
    subject: str = "statistics",
    shape: Training | None = None,
    keep: NewName | None = None,
) -> None:
    """Check and sum the parts, post-process the sum into MADlib's model tables; comment them.

    Every model is derived from one statistics table, the sum of its parts, which
    it keeps (its tables' comments name it, see :data:`STATISTICS_RECORD`): an
    online update (:mod:`madnb_pl.derive.update`) adds to that sum.  ``keep``: where to
    write the sum of ``parts`` (``create_nb_model_from_statistics``); None when
    the one part is the model's own (training keeps what it released).
    ``shape``: the training every part was just released from by the caller
    (training, cross-validation's folds); otherwise the types are read from each
    part and checked against its header, and its cells are checked
    (:func:`check_parts`).
    """
    kept, header, training = merge(plpy, parts, subject, shape, keep)
    derive_from_sum(plpy, kept, header, training, ModelSql.of(model), smoothing, create=True)


def merge(
    plpy: Plpy,
    parts: list[tuple[Relation, Header]],
    subject: str = "statistics",
    shape: Training | None = None,
    keep: NewName | None = None,
    value_text: Callable[[str], Sql] | None = None,
) -> tuple[Relation, Header, Training]:
    """The checked sum of the parts (:func:`merge_and_derive`'s first half): the statistics table a model derives
    from, its header and the shape of the parts.

    ``value_text``: the sum keeps each categorical value as this text form of it (a named model's statistics,
    :mod:`madnb_pl.models.kinds.statistics`; see :func:`madnb_pl.merge.part_sums.write_sum`).
    """
    check_compatible(parts)
    first_rel, first = parts[0]
    if shape is not None:
        training = shape
    else:
        training = statistics_shape(plpy, first_rel, first, subject)
        for other, h in parts[1:]:
            statistics_shape(plpy, other, h, subject)
        check_parts(plpy, parts)
    if keep is not None:
        header = write_sum(plpy, parts, keep, training, value_text)
        return created(plpy, keep), header, training
    assert len(parts) == 1 and value_text is None
    return first_rel, first, training


@dataclass(frozen=True)
class ModelSql:
    """The model tables as quoted SQL names and display names (new or existing tables alike)."""

    feature_probs: str
    class_priors: str
    numeric_stats: str | None
    display: str  # the feature table's, for messages

    @staticmethod
    def of(model: ModelTables | tuple[Relation, Relation, Relation | None]) -> ModelSql:
        fp, cp, numeric_stats = (model.feature_probs, model.class_priors, model.numeric_stats) if isinstance(model, ModelTables) else model
        return ModelSql(fp.sql, cp.sql, None if numeric_stats is None else numeric_stats.sql, fp.display)

    def all(self) -> tuple[str, ...]:
        return (self.feature_probs, self.class_priors) + ((self.numeric_stats,) if self.numeric_stats is not None else ())


def derive_from_sum(
    plpy: Plpy, kept: Relation, header: Header, training: Training, model: ModelSql, smoothing: float, create: bool,
) -> None:
    """Post-process the statistics table ``kept`` (a model's sum) into the model tables, comment and analyse them.

    ``create``: create the tables; otherwise they exist and their rows are
    replaced in place (an online update: same tables, so views over them keep
    working).
    """
    rel = kept.sql
    counts = array_pass.WEIGHTED_COUNTS if header.weighted else array_pass.COUNTS  # sums of weights, or rows
    if header.private:
        cells = f"(SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM {rel} AS s)"
        ctes = with_clause(dp_model_ctes(cells, training, header.numeric_bounds(), float(header.epsilon_per_query or 0.0)))
    else:
        cells = f"(SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.nv, s.mean, s.var FROM {rel} AS s)"
        ctes = with_clause(model_ctes(cells, training, array_pass.CLASS_ROWS_OF_TABLE, counts))
    if create:
        create_empty_tables(plpy, training, model, counts)
    else:
        for name in model.all():
            plpy.execute(Sql(f"DELETE FROM {name}"))
    insert_model_rows(plpy, ctes, model, smoothing)
    _comment_model(plpy, kept, header, model)
    for name in model.all():
        plpy.execute(Sql(f"ANALYZE {name}"))


STATISTICS_RECORD = re.compile(r'; derived from statistics ("(?:[^"]|"")+"\."(?:[^"]|"")+") \(id ([0-9a-f-]{36})\)$')
"""The end of every model table's comment: the statistics table the model keeps (its sum) and that table's id."""


def _comment_model(plpy: Plpy, kept: Relation, h: Header, model: ModelSql) -> None:
    """The model's comments: what it is, from which source(s), and the statistics it keeps (:data:`STATISTICS_RECORD`)."""
    fp, cp, numeric_stats = model.feature_probs, model.class_priors, model.numeric_stats
    n = len(h.part_ids)
    src = h.source if n == 1 else f"{h.source} (the sum of {n} statistics tables)"
    derived = f"derived from statistics {kept.sql} (id {h.id})"
    num_attrs = f"numAttrs = {int(h.num_attrs)}"
    if h.private:
        rids = h.ledger_releases
        shown = ", ".join(str(r) for r in rids[:SOURCES_SHOWN]) + (", ..." if len(rids) > SOURCES_SHOWN else "")
        about = f"{h.guarantee}; release{'s' if len(rids) > 1 else ''} {shown} of madnb.privacy_ledger"
        texts = {
            cp: f"madnb class priors trained from {src}; noisy class counts clamped at 0; {about}",
            fp: f"madnb categorical feature counts trained from {src}; noisy counts clamped at 0, attr_cnt = size of "
            "the attribute's domain; P(value|class) = (cnt + smoothing) / (sum of cnt over the attribute's values + "
            f"smoothing * attr_cnt); {about}; {num_attrs}",
        }
        if numeric_stats is not None:
            texts[numeric_stats] = (
                f"madnb Gaussian parameters trained from {src}: mean and variance from noisy sums of values clipped to "
                f"public bounds, over the noisy class count (value_cnt); {about}"
            )
    else:
        texts = {
            cp: f"madnb class priors trained from {src}",
            fp: f"madnb categorical feature counts trained from {src}; "
            "P(value|class) = (cnt + smoothing) / (class rows with attr present + smoothing * attr_cnt); " + num_attrs,
        }
        if numeric_stats is not None:
            texts[numeric_stats] = f"madnb Gaussian parameters (mean, sample variance, non-NULL count) trained from {src}"
    for name, text in texts.items():
        plpy.execute(Sql(f"COMMENT ON TABLE {name} IS {plpy.quote_literal(text + '; ' + derived)}"))


def model_ctes(
    cells: str, training: Training, class_rows: str = array_pass.CLASS_ROWS_OF_PASS, counts: str = array_pass.COUNTS,
) -> list[tuple[str, str]]:
    """CTEs deriving MADlib's tables ``cp``, ``fp`` and ``np`` from a statistics relation ``cells``.

    ``class_rows`` selects the rows whose ``n`` add up to the class counts: those
    of the statistics pass (:data:`madnb_pl.release.array_pass.CLASS_ROWS_OF_PASS`), or the attr-0 rows of a
    (merged) statistics table (:data:`madnb_pl.release.array_pass.CLASS_ROWS_OF_TABLE`).

    * cp: (class, class_cnt, all_cnt)
    * fp: (class, attr, value, cnt, attr_cnt), a row for every class x (attr, value
      seen in training), zero counts included; attr_cnt = distinct values of attr.
    * np: (class, attr, attr_mean, attr_var, value_cnt) for numeric attributes.
    """
    num = training.numeric_array_sql
    return [
        array_pass.class_counts_cte(cells, class_rows, counts),
        (
            "cp",
            f"SELECT cc.cls AS class, cc.class_cnt, (pg_catalog.sum(cc.class_cnt) OVER ())::{counts} AS all_cnt FROM cc",
        ),
        (
            "vals",
            f"SELECT DISTINCT s.o, s.v FROM {cells} AS s WHERE s.cls IS NOT NULL AND s.v IS NOT NULL",
        ),
        ("ac", "SELECT vals.o, pg_catalog.count(*)::pg_catalog.int8 AS attr_cnt FROM vals GROUP BY vals.o"),
        (
            "fp",
            "SELECT cc.cls AS class, vals.o AS attr, vals.v AS value, "
            f"COALESCE(s.n, 0)::{counts} AS cnt, ac.attr_cnt "
            f"FROM cc CROSS JOIN vals JOIN ac ON ac.o = vals.o "
            f"LEFT JOIN {cells} AS s ON s.cls = cc.cls AND s.o = vals.o AND s.v = vals.v",
        ),
        (
            "np",
            "SELECT s.cls AS class, s.o AS attr, s.mean AS attr_mean, s.var AS attr_var, s.nv AS value_cnt "
            f"FROM {cells} AS s WHERE s.cls IS NOT NULL AND s.o = ANY ({num})",
        ),
    ]


def dp_model_ctes(noisy: str, training: Training, nb: privacy_parameters.NumericBounds, epsilon_per_query: float) -> list[tuple[str, str]]:
    """Post-processing of the noisy cells into MADlib's tables (no data is read here).

    ``noisy`` holds every released cell of the public domain (summed over the
    parts of a merge, never clamped before): (cls, o, v, n, s1, s2) with o = 0
    for the class counts.  ``epsilon_per_query`` is the epsilon' of the variance
    floor: for a merge, the epsilon' whose noise variance is the parts' summed
    noise variance (:func:`madnb_pl.merge.part_sums.effective_epsilon`).

    * class counts clamped into [0, COUNT_CAP] (all 1 if every one is 0, so that
      priors exist); all_cnt is their sum;
    * value counts clamped into [0, COUNT_CAP]; attr_cnt is the size of the
      attribute's domain (its distinct released values);
    * Gaussian parameters from the noisy sums over the noisy class count: the
      mean clamped into the bounds, the variance into [floor, h**2] with floor
      = min(h**2, sqrt(2) h**2 / (epsilon' n)), one standard deviation of the
      noise on the second moment; a class with count 0 gets (m, h**2).

    Nothing here can fail, whatever the noise: the noisy numerics are clamped
    (in numeric) before any float8 arithmetic, the sums to +-2 n K and +-2 n K**2,
    which changes no result (beyond +-n K the mean and variance are clamped
    anyway), and the validated ranges of h and epsilon' (``dp.HALF_WIDTH_*``,
    ``dp.EPSILON_PER_QUERY_*``) keep every float8 product and quotient normal.
    """
    k = float(nb.scale)
    eps = f"{float8_literal(epsilon_per_query)}::{F8}"
    cap = f"{privacy_parameters.COUNT_CAP}::pg_catalog.numeric"
    ctes = [
        ("cc0", f"SELECT x.cls, LEAST(GREATEST(x.n, 0), {cap}) AS c FROM {noisy} AS x WHERE x.o = 0"),
        (
            "cc",
            "SELECT cc0.cls, (CASE WHEN pg_catalog.sum(cc0.c) OVER () > 0 THEN cc0.c ELSE 1 END)::pg_catalog.int8 AS class_cnt "
            "FROM cc0",
        ),
        (
            "cp",
            "SELECT cc.cls AS class, cc.class_cnt, "
            f"LEAST(pg_catalog.sum(cc.class_cnt) OVER (), {privacy_parameters.INT8_MAX})::pg_catalog.int8 AS all_cnt FROM cc",
        ),
        # every cell of the domain is released, for every class: the attribute's domain
        # size is the number of distinct values among its released cells
        (
            "ac",
            f"SELECT d.o, pg_catalog.count(DISTINCT d.v)::pg_catalog.int8 AS attr_cnt FROM {noisy} AS d "
            "WHERE d.o > 0 AND d.v IS NOT NULL GROUP BY d.o",
        ),
        (
            "fp",
            f"SELECT x.cls AS class, x.o AS attr, x.v AS value, LEAST(GREATEST(x.n, 0), {cap})::pg_catalog.int8 AS cnt, ac.attr_cnt "
            f"FROM {noisy} AS x JOIN ac ON ac.o = x.o WHERE x.o > 0 AND x.v IS NOT NULL",
        ),
    ]
    if training.numeric:
        big1 = f"({2 * nb.scale}::pg_catalog.numeric * GREATEST(cc.class_cnt, 1))"
        big2 = f"({2 * nb.scale * nb.scale}::pg_catalog.numeric * GREATEST(cc.class_cnt, 1))"
        ctes += [
            (
                "nm",
                "SELECT x.cls, x.o, cc.class_cnt, b.lo, b.hi, b.mid, b.half, "
                f"GREATEST(cc.class_cnt, 1)::{F8} AS nn, "
                f"LEAST(GREATEST(x.s1, -{big1}), {big1})::{F8} / {k!r} AS m1, "
                f"LEAST(GREATEST(x.s2, -{big2}), {big2})::{F8} / {k * k!r} AS m2 "
                f"FROM {noisy} AS x JOIN cc ON cc.cls = x.cls "
                f"JOIN {nb.values_sql()} AS b(o, lo, hi, mid, half) ON b.o = x.o",
            ),
            (
                "nm2",
                "SELECT nm.*, CASE WHEN nm.class_cnt = 0 THEN nm.mid "
                "ELSE LEAST(GREATEST(nm.mid + nm.half * nm.m1 / nm.nn, nm.lo), nm.hi) END AS mean, "
                f"LEAST(nm.half * nm.half, pg_catalog.sqrt(2::{F8}) * nm.half * nm.half / ({eps} * nm.nn)) AS floor "
                "FROM nm",
            ),
            (
                "np",
                "SELECT nm2.cls AS class, nm2.o AS attr, nm2.mean AS attr_mean, "
                "CASE WHEN nm2.class_cnt = 0 THEN nm2.half * nm2.half ELSE "
                "LEAST(GREATEST(nm2.half * nm2.half * nm2.m2 / nm2.nn - (nm2.mean - nm2.mid) * (nm2.mean - nm2.mid), "
                "nm2.floor), nm2.half * nm2.half) END AS attr_var, nm2.class_cnt AS value_cnt FROM nm2",
            ),
        ]
    return ctes


def create_empty_tables(plpy: Plpy, training: Training, model: ModelSql, counts: str = array_pass.COUNTS) -> None:
    """Create MADlib's tables (plus madnb's ``smoothing`` column), empty; ``counts``: the type of class_cnt, all_cnt,
    cnt and value_cnt (rows; a weighted model's are sums of weights)."""
    ctype, etype = training.cls.type_sql, training.attrs.elem_sql
    plpy.execute(Sql(f"CREATE TABLE {model.class_priors} (class {ctype}, class_cnt {counts}, all_cnt {counts})"))
    plpy.execute(
        Sql(f"CREATE TABLE {model.feature_probs} (class {ctype}, attr pg_catalog.int4, value {etype}, "
        f"cnt {counts}, attr_cnt pg_catalog.int8, smoothing pg_catalog.float8)")
    )
    if model.numeric_stats is not None:
        plpy.execute(
            Sql(f"CREATE TABLE {model.numeric_stats} (class {ctype}, attr pg_catalog.int4, attr_mean pg_catalog.float8, "
            f"attr_var pg_catalog.float8, value_cnt {counts})")
        )


def insert_model_rows(plpy: Plpy, ctes: str, model: ModelSql, smoothing: float) -> None:
    """Fill MADlib's tables from the ``cp``, ``fp`` and ``np`` CTEs of ``ctes`` (exact or noisy statistics alike)."""
    cp, fp, numeric_stats = model.class_priors, model.feature_probs, model.numeric_stats
    plpy.execute(Sql(f"{ctes} INSERT INTO {cp} (class, class_cnt, all_cnt) SELECT class, class_cnt, all_cnt FROM cp ORDER BY class"))
    plpy.execute(
        Sql(f"{ctes} INSERT INTO {fp} (class, attr, value, cnt, attr_cnt, smoothing) "
        f"SELECT class, attr, value, cnt, attr_cnt, {float(smoothing)!r}::pg_catalog.float8 "
        "FROM fp ORDER BY attr, value, class")
    )
    if numeric_stats is not None:
        plpy.execute(
            Sql(f"{ctes} INSERT INTO {numeric_stats} (class, attr, attr_mean, attr_var, value_cnt) "
            "SELECT class, attr, attr_mean, attr_var, value_cnt FROM np ORDER BY class, attr")
        )


__all__ = [
    "STATISTICS_RECORD",
    "ModelSql",
    "ModelTables",
    "check_compatible",
    "check_parts",
    "create_empty_tables",
    "derive_from_sum",
    "dp_model_ctes",
    "insert_model_rows",
    "merge",
    "merge_and_derive",
    "model_ctes",
    "write_sum",
]
