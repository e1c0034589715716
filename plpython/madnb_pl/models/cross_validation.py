"""madnb.cross_validate: k-fold cross-validation of a column model, in the database.

The pipeline of :mod:`madnb_pl.models.lifecycle` once, with the folds inside it:

    columns     source, label and features -> a validated ColumnTraining (madnb.train's rules)
    columns     ONE statistics pass, grouped by fold too -> per fold a statistics table (temporary)
    derive      per fold f: the sum of the other folds' tables (counts add, Gaussian cells by
                Chan's formula: derive.merged_select) -> the fold-complement model's tables
    predict     per fold: the complement model's numbers -> its scores as SQL expressions
    evaluate    one scoring pass over the source: each row scored by its fold's complement
                model, aggregated per fold (evaluate.aggregate_sql) -> evaluate.metrics per fold

Why the sum of the other folds and not the total minus the fold: a subtraction of
second moments loses digits when the fold's part is most of the total (and can
go negative); the sum of k - 1 parts is the merge every other madnb model uses,
so a fold-complement model is exactly the model ``create_nb_model_from_statistics``
derives from those parts.  The statistics are small (classes x cells), so the k
sums cost nothing next to the pass over the source.

Folds: row r is in fold ``madnb.fold(key, folds, seed)`` =
``int(md5(seed || ':' || key)[0:8], 16) % folds + 1``, key the text of the ``key``
column (default: the row's text form, ``t::text``).  A hash, so folds are only
about equal in size (a fold that gets no labelled row is an error).  With as many
folds as labelled rows it is leave-one-out instead (scikit-learn's
``KFold(n_splits=n)``, ``LeaveOneOut``): fold i is the labelled row with the i-th
key in byte order, the keys must be distinct, and the seed plays no part
(:func:`leave_one_out`); the one pass then runs again with those folds (the
source has at most MAX_FOLDS labelled rows then).

The metrics are madnb.evaluate's (:func:`madnb_pl.models.evaluate.metrics`), with the
classes of the whole source: a class absent from a fold's complement scores
-infinity there (probability 0, never predicted).  Gaussian cells are the one
pass's avg / var_samp per fold, merged: unlike madnb.train, no second pass
refines cells far from zero (|mean| > 1e4 standard deviations).

Everything is temporary: the tables are dropped before returning, and an error
rolls them back with the statement.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..core.errors import MadnbError, entry_point
from ..core.names import NewName, created, resolve_column
from ..core.sql import F8, Plpy, Sql, text_sql, type_is_builtin
from ..derive import model_tables
from ..derive.model_tables import ModelTables
from ..inputs import arrays, columns
from ..inputs.columns import ColumnTraining
from ..predict import generated
from ..release import column_pass
from . import evaluate, lifecycle
from .kinds import KINDS, table
from .kinds.base import TrainRequest
from .kinds.table import TableKind

MAX_FOLDS = 100
"""More folds than this are refused: each fold is a model derived and a CASE branch in the scoring query."""

MEAN = "mean"

_TABLE_KINDS = [repr(k.name) for k in KINDS.values() if isinstance(k, TableKind)]
_CROSS_VALIDATED_HINT = f"cross_validate takes kind {', '.join(_TABLE_KINDS[:-1])} or {_TABLE_KINDS[-1]}"


def fold_sql(key: str, folds: int, seed: int) -> Sql:
    """The fold of a row: ``madnb.fold`` (an inlined SQL function) of the key's text."""
    return Sql(f"madnb.fold({key}, {int(folds)}, {int(seed)})")


def key_sql(plpy: Plpy, training: ColumnTraining, key: str | None) -> Sql:
    """The SQL of the fold key over row ``t``: the key column's text, or the whole row's text form."""
    if key is None:
        # t.*: a column named t would win over the row t; record_out, not a cast: the row type is the table
        # owner's, who may plant a cast to text
        return Sql("pg_catalog.textin(pg_catalog.record_out(t.*))")
    col = resolve_column(plpy, training.source, key, "key")
    return text_sql(f"t.{col.sql}", type_is_builtin(plpy, col.type_sql))


def _folds(folds: int | None, seed: int | None) -> int:
    if folds is None:
        raise MadnbError("22004", "folds must not be NULL", hint="folds is the number of folds, 5 by default")
    if seed is None:
        raise MadnbError("22004", "seed must not be NULL", hint="seed chooses the fold assignment, 0 by default")
    if not 2 <= folds <= MAX_FOLDS:
        raise MadnbError(
            "22023", f"folds must be from 2 to {MAX_FOLDS}, got {folds}",
            hint="k-fold cross-validation trains on k - 1 folds and scores the remaining one; 5 or 10 are usual",
        )
    return int(folds)


def _temp(prefix: str, tag: str) -> NewName:
    return NewName("pg_temp", f"madnb_cv_{tag}_{prefix}")


def leave_one_out(plpy: Plpy, training: ColumnTraining, key: Sql, tag: str) -> Sql:
    """The fold of a row for leave-one-out: the position of its key among the labelled rows' keys in byte order.

    The sorted keys are kept in a one-row temporary table (read once per query
    that computes folds; dropped by the caller); 22023 when two labelled rows
    share a key (they would share a fold, and some fold would be empty).
    """
    keys = _temp(tag, "keys")
    plpy.execute(
        Sql(f"CREATE TEMPORARY TABLE {keys.sql} ON COMMIT DROP AS SELECT pg_catalog.array_agg(x.k ORDER BY x.k COLLATE \"C\") "
        "AS ks, pg_catalog.count(x.k) AS n, pg_catalog.count(DISTINCT x.k) AS d "
        f"FROM (SELECT {key} AS k FROM {training.source.sql} AS t WHERE t.{training.label.sql} IS NOT NULL) AS x")
    )
    r = plpy.execute(Sql(f"SELECT k.n, k.d FROM {keys.sql} AS k"))[0]
    if r["d"] != r["n"]:
        raise MadnbError(
            "22023", f"leave-one-out needs a distinct key for every labelled row of {training.source.display}",
            detail=f"folds equal the {r['n']} labelled rows (leave-one-out), but only {r['d']} of their keys are distinct",
            hint="name a key column whose values are unique (a primary key), or use fewer folds",
        )
    return Sql(f"pg_catalog.array_position((SELECT k.ks FROM {keys.sql} AS k), {key})")


def scoring_sql(training: ColumnTraining, fold: Sql, classes_sql: str, branches: list[str]) -> Sql:
    """The rows (g, t, h, y, pr) that :func:`madnb_pl.models.evaluate.aggregate_sql` aggregates.

    The inner select names the columns it needs (c1, c2, ...: no clash with the
    source's own names) and the row's fold, computed once in a LATERAL sub-select
    (kept there as in :func:`madnb_pl.release.column_pass.stats_select`); each row's scores are its fold's branch of a CASE,
    so only one complement model is evaluated per row; OFFSET 0 keeps the scores
    computed once for both the arg-max and the probabilities.
    """
    cols = ", ".join(f"{columns.column_value_sql(f't.{f.column.sql}', f)} AS c{j}" for j, f in enumerate(training.features, start=1))
    y = f"t.{training.label.sql}" if training.label_builtin else columns.label_text_sql(f"t.{training.label.sql}", training)
    case = " ".join(f"WHEN {f} THEN {b}" for f, b in enumerate(branches, start=1))
    return (
        Sql(f"SELECT q.g, pg_catalog.array_position({classes_sql}, q.y) AS t, madnb._nb_best(q.sc) AS h, q.y, "
        "madnb._nb_proba(q.sc) AS pr "
        f"FROM (SELECT p.g, p.y, CASE p.g {case} END AS sc FROM ("
        f"SELECT x.g, {y} AS y, {cols} FROM {training.source.sql} AS t "
        f"CROSS JOIN LATERAL (SELECT {fold} OFFSET 0) AS x(g) "
        f"WHERE t.{training.label.sql} IS NOT NULL) AS p OFFSET 0) AS q")
    )


@contextmanager
def setting(plpy: Plpy, name: str, value: str) -> Iterator[None]:
    """Setting ``name`` = ``value`` for the statements inside, then the caller's value again.

    jit = off for the scoring query: it holds every fold's model as one large
    expression, and compiling it with JIT costs seconds (see
    madnb_pl.scoring.common on UNROLL_MAX_TERMS), more than it saves.
    """
    old = plpy.execute(plpy.prepare(Sql("SELECT pg_catalog.current_setting($1) AS v"), ["pg_catalog.text"]), [name])[0]["v"]
    set_it = plpy.prepare(Sql("SELECT pg_catalog.set_config($1, $2, true)"), ["pg_catalog.text", "pg_catalog.text"])
    plpy.execute(set_it, [name, value])
    try:
        yield
    finally:
        plpy.execute(set_it, [name, old])


def mean_metrics(per_fold: list[dict[str, Any]]) -> dict[str, Any]:
    """The mean row: scores averaged over the folds (unweighted, as scikit-learn's cross_validate scores are
    averaged), counts (rows, support, confusion_matrix) summed; roc_auc only when every fold has one."""
    k = len(per_fold)

    def mean(values: list[Any]) -> Any:
        if any(v is None for v in values):
            return None
        if isinstance(values[0], dict):
            return {key: mean([v[key] for v in values]) for key in values[0]}
        if isinstance(values[0], list):
            return [mean(list(column)) for column in zip(*values, strict=True)]
        return sum(values) / k

    def total(values: list[Any]) -> Any:
        if isinstance(values[0], list):
            return [total(list(column)) for column in zip(*values, strict=True)]
        return sum(values)

    first = per_fold[0]
    out: dict[str, Any] = {}
    for name, value in first.items():
        values = [m[name] for m in per_fold]
        if name in ("classes", "positive_class"):
            out[name] = value
        elif name in ("rows", "unknown_label_rows", "support", "confusion_matrix"):
            out[name] = total(values)
        else:
            out[name] = mean(values)
    out["folds"] = k
    return out


@entry_point
def cross_validate(
    plpy: Plpy,
    source: str | None,
    label: str | None,
    features: list[str | None] | None = None,
    folds: int | None = 5,
    seed: int | None = 0,
    exclude: list[str | None] | None = None,
    categorical: list[str | None] | None = None,
    smoothing: float | None = 1.0,
    key: str | None = None,
    kind: str | None = lifecycle.KIND,
    options: Any = None,
) -> list[dict[str, Any]]:
    """k-fold cross-validation of madnb.train's model on ``source``: rows (fold, metrics jsonb text), then 'mean'.

    ``kind`` and ``options`` as madnb.train's, for the kinds of the statistics
    table ('naive_bayes', 'gaussian', 'categorical'): each fold's model gets the
    kind's numbers (:mod:`madnb_pl.models.kinds.table`) from its complement's statistics.
    """
    k = _folds(folds, seed)
    sd = int(seed)  # type: ignore[arg-type]  # _folds refused NULL
    smoothing_factor = arrays.parse_smoothing(smoothing)
    if kind is not None and kind not in KINDS:
        raise MadnbError("22023", f"kind '{kind}' cannot be cross-validated", hint=_CROSS_VALIDATED_HINT)
    model_kind = lifecycle.kind_named(kind)
    if not isinstance(model_kind, TableKind):
        raise MadnbError("0A000", f"kind '{model_kind.name}' cannot be cross-validated", hint=_CROSS_VALIDATED_HINT)
    request = TrainRequest(
        source, label, features, exclude, categorical, smoothing_factor, lifecycle.parse_options(model_kind.name, options),
        options is not None, None, None, None, None,
    )
    training = model_kind.resolve(plpy, request)
    column_training, kind_parameters, smoothing_factor = training.columns, training.params, training.smoothing
    key_expr = key_sql(plpy, column_training, key)
    fold = fold_sql(key_expr, k, sd)
    s, labelled = column_pass.statistics_pass(plpy, column_training, fold)
    if labelled < k:
        raise MadnbError(
            "22023", f"folds ({k}) are more than the labelled rows of {column_training.source.display} ({labelled})",
            hint="use at most as many folds as labelled rows (as many is leave-one-out)",
        )
    tag = secrets.token_hex(6)
    made: list[NewName] = []
    if labelled == k:  # leave-one-out: the pass again, each labelled row its own fold
        plpy.execute(Sql(f"DROP TABLE {s}"))
        fold = leave_one_out(plpy, column_training, key_expr, tag)
        made.append(_temp(tag, "keys"))
        with setting(plpy, "client_min_messages", "warning"):  # the first pass gave its NOTICE (rows without a label)
            s, labelled = column_pass.statistics_pass(plpy, column_training, fold)
    sizes = {
        r["f"]: int(r["n"])
        for r in plpy.execute(
            Sql(f"SELECT s.f, pg_catalog.sum(s.n)::pg_catalog.int8 AS n FROM {s} AS s "
            "WHERE s.cls IS NOT NULL AND s.o OPERATOR(pg_catalog.=) 0 GROUP BY s.f")
        )
    }
    if None in sizes:
        raise MadnbError(
            "22004", f"the key of {sizes[None]} labelled row(s) of {column_training.source.display} is NULL",
            detail=f'the key column is "{key}"' if key is not None else None, hint="a row's fold is computed from its key: use a key column without NULLs",
        )
    empty = [f for f in range(1, k + 1) if f not in sizes]
    if empty:
        raise MadnbError(
            "22023", f"fold {empty[0]} of {k} has no labelled rows of {column_training.source.display}",
            detail=f"{labelled} labelled rows; folds are assigned by a hash of the key, so their sizes vary",
            hint="use fewer folds, or another seed",
        )
    classes: list[str] = list(plpy.execute(
        Sql(f"SELECT ARRAY(SELECT {columns.label_text_sql('d.c', column_training)} FROM (SELECT DISTINCT s.cls AS c FROM {s} AS s "
        "WHERE s.cls IS NOT NULL) AS d ORDER BY d.c) AS c")
    )[0]["c"])
    parts = []
    for f in range(1, k + 1):
        name = _temp(tag, f"fold{f}")
        column_pass.insert_cells(plpy, column_training, s, name, fold=f)
        made.append(name)
        parts.append((created(plpy, name), column_pass.exact_header(plpy, column_training)))
    plpy.execute(Sql(f"DROP TABLE {s}"))
    values = [f"p.c{j}" for j in range(1, column_training.num_attrs + 1)]
    branches = []
    for f in range(1, k + 1):
        # the fold-complement model: the other folds' statistics summed and derived, as any merge
        tables = ModelTables(
            _temp(tag, f"fp{f}"), _temp(tag, f"cp{f}"), _temp(tag, f"np{f}") if column_training.numeric else None,
        )
        kept = _temp(tag, f"sum{f}")
        others = [p for i, p in enumerate(parts, start=1) if i != f]
        model_tables.merge_and_derive(plpy, others, tables, smoothing_factor, shape=column_training.shape(), keep=kept)  # parts it just wrote
        made += [kept, *tables.all()]
        if kind_parameters is not None:
            table.derive_kind(plpy, kind_parameters, column_training, kept.sql, tables.feature_probs, tables.numeric_stats)
        numbers = table.model_numbers(plpy, kind_parameters, column_training, tables.class_priors, tables.feature_probs, tables.numeric_stats, smoothing_factor)
        scores = dict(zip(numbers.classes, generated.scores_sql(column_training, numbers, values), strict=True))
        branches.append("ARRAY[" + ", ".join(scores.get(c, Sql(f"'-Infinity'::{F8}")) for c in classes) + "]")
    # labels of a type from outside pg_catalog compare as their texts (scoring_sql's y): a cast could be its owner's
    classes_sql = f"$1::pg_catalog.text[]::{column_training.label.type_sql}[]" if column_training.label_builtin else "$1::pg_catalog.text[]"
    query = evaluate.aggregate_sql(scoring_sql(column_training, fold, classes_sql, branches), len(classes) == 2)
    with setting(plpy, "jit", "off"):
        result = plpy.execute(plpy.prepare(query, ["pg_catalog.text[]", F8]), [classes, evaluate.EPS])
    for name in made:
        plpy.execute(Sql(f"DROP TABLE {name.sql}"))
    per_fold = evaluate.read_metrics(classes, result)
    rows = [{"fold": str(f), "metrics": json.dumps(per_fold[f])} for f in range(1, k + 1)]
    rows.append({"fold": MEAN, "metrics": json.dumps(mean_metrics([per_fold[f] for f in range(1, k + 1)]))})
    return rows


__all__ = ["MAX_FOLDS", "cross_validate", "fold_sql", "key_sql", "leave_one_out", "mean_metrics", "scoring_sql"]
