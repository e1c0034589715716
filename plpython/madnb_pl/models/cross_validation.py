"""madnb.cross_validate: k-fold cross-validation of a column model, in the database.

The pipeline of :mod:`madnb_pl.models.lifecycle` once, with the folds inside it, for every kind
(:class:`madnb_pl.models.kinds.base.Kind`: what is the kind's own is named by its method):

    inputs      source, label and features -> the kind's training (madnb.train's rules: Kind.resolve)
    release     ONE statistics pass, grouped by fold too (Kind.fold_pass) -> per fold a statistics
                table (Kind.fold_parts, temporary)
    derive      per fold f: the sum of the other folds' tables (the table kinds: counts add, Gaussian
                cells by Chan's formula, derive.merged_select; the vector kinds: per-feature sums add)
                -> the fold-complement model's tables -> its scores as SQL expressions
                (Kind.complement_scores)
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
about equal in size (a fold that gets no row trained on is an error).  The rows of
the folds are the rows the kind trains on (Kind.trained_rows: a label, and for the
vector kinds a vector).  With as many folds as those rows it is leave-one-out
instead (scikit-learn's ``KFold(n_splits=n)``, ``LeaveOneOut``): fold i is the row
with the i-th key in byte order, the keys must be distinct, and the seed plays no
part (:func:`leave_one_out`); the one pass then runs again with those folds (the
source has at most MAX_FOLDS such rows then).

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
from typing import Any

from ..core.errors import MadnbError, entry_point
from ..core.names import NewName, Relation, resolve_column
from ..core.progress import Progress
from ..core.sql import Plpy, Sql, setting, text_sql, type_is_builtin
from ..inputs import arrays
from . import evaluate, lifecycle
from .kinds.base import Kind, TrainRequest

MAX_FOLDS = 100
"""More folds than this are refused: each fold is a model derived and a CASE branch in the scoring query."""

MEAN = "mean"


def fold_sql(key: str, folds: int, seed: int) -> Sql:
    """The fold of a row: ``madnb.fold`` (an inlined SQL function) of the key's text."""
    return Sql(f"madnb.fold({key}, {int(folds)}, {int(seed)})")


def key_sql(plpy: Plpy, source: Relation, key: str | None) -> Sql:
    """The SQL of the fold key over row ``t`` of ``source``: the key column's text, or the whole row's text form."""
    if key is None:
        # t.*: a column named t would win over the row t; record_out, not a cast: the row type is the table
        # owner's, who may plant a cast to text
        return Sql("pg_catalog.textin(pg_catalog.record_out(t.*))")
    col = resolve_column(plpy, source, key, "key")
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


class Temporary:
    """The temporary tables of one call: each named once (:meth:`name`, a :data:`~.kinds.base.TempName`), all
    dropped together (:meth:`drop`)."""

    def __init__(self) -> None:
        self.tag = secrets.token_hex(6)
        self.names: list[NewName] = []

    def name(self, what: str) -> NewName:
        name = NewName("pg_temp", f"madnb_cv_{what}{len(self.names) + 1}_{self.tag}")
        self.names.append(name)
        return name

    def drop(self, plpy: Plpy) -> None:
        for name in self.names:
            plpy.execute(Sql(f"DROP TABLE {name.sql}"))


def leave_one_out(plpy: Plpy, source: Relation, trained_rows: Sql, key: Sql, temp: Temporary) -> Sql:
    """The fold of a row for leave-one-out: the position of its key among the keys of the rows trained on
    (``trained_rows``, a condition on row ``t``) in byte order.

    The sorted keys are kept in a one-row temporary table (read once per query
    that computes folds; dropped with ``temp``); 22023 when two such rows share a
    key (they would share a fold, and some fold would be empty).
    """
    keys = temp.name("keys")
    plpy.execute(
        Sql(f"CREATE TEMPORARY TABLE {keys.sql} ON COMMIT DROP AS SELECT pg_catalog.array_agg(x.k ORDER BY x.k COLLATE \"C\") "
        "AS ks, pg_catalog.count(x.k) AS n, pg_catalog.count(DISTINCT x.k) AS d "
        f"FROM (SELECT {key} AS k FROM {source.sql} AS t WHERE {trained_rows}) AS x")
    )
    r = plpy.execute(Sql(f"SELECT k.n, k.d FROM {keys.sql} AS k"))[0]
    if r["d"] != r["n"]:
        raise MadnbError(
            "22023", f"leave-one-out needs a distinct key for every labelled row of {source.display}",
            detail=f"folds equal the {r['n']} labelled rows (leave-one-out), but only {r['d']} of their keys are distinct",
            hint="name a key column whose values are unique (a primary key), or use fewer folds",
        )
    return Sql(f"pg_catalog.array_position((SELECT k.ks FROM {keys.sql} AS k), {key})")


def scoring_sql(kind: Kind[Any, Any], training: Any, fold: Sql, classes_sql: str, k: int, branches: list[Sql]) -> Sql:
    """The rows (g, t, h, y, pr) that :func:`madnb_pl.models.evaluate.aggregate_sql` aggregates, for ``k`` classes.

    Every level is aliased ``p``, so that the branches (the fold-complement models'
    scores over the values ``p.c1``, ``p.c2``, ...: the values the scores read,
    ``kind.score_values``, named apart from the source's own names) read the same
    at each.  The scan names the values and the row's fold and is flattened into
    the level above, which gives the probabilities: each row's scores are its
    fold's branch of a simple CASE, which computes the fold once, so that one
    complement model is evaluated per row.  Those two run in parallel workers (a
    LATERAL sub-select would keep the scan off them).  Above them, in the leader,
    OFFSET 0 keeps each level's values computed once: the largest probability, then
    the predicted class read off the probabilities as madnb.evaluate reads it
    (:func:`madnb_pl.models.evaluate.predicted_class_sql`), ``madnb._nb_best`` of
    the row's scores computed again only for a row near a tie.
    """
    values = kind.score_values(training)
    cols = ", ".join(f"{v} AS c{j}" for j, v in enumerate(values, start=1))
    carried = "".join(f", p.c{j}" for j in range(1, len(values) + 1))
    label = kind.label(training)
    y = f"t.{label.sql}" if kind.label_builtin(training) else text_sql(f"t.{label.sql}", False)
    scores = "CASE p.g " + " ".join(f"WHEN {f} THEN {b}" for f, b in enumerate(branches, start=1)) + " END"
    largest = evaluate.margin_sql(k, "p.pr")
    best = evaluate.predicted_class_sql(k, "p.pr", "p.m", f"madnb._nb_best({scores})")
    return Sql(
        f"SELECT p.g, pg_catalog.array_position({classes_sql}, p.y) AS t, {best} AS h, p.y, p.pr "
        f"FROM (SELECT p.g, p.y, p.pr{carried}, {largest} AS m "
        f"FROM (SELECT p.g, p.y{carried}, madnb._nb_proba({scores}) AS pr "
        f"FROM (SELECT {fold} AS g, {y} AS y, {cols} FROM {kind.source(training).sql} AS t "
        f"WHERE {kind.trained_rows(training)}) AS p OFFSET 0) AS p OFFSET 0) AS p"
    )


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

    ``kind`` and ``options`` as madnb.train's, for every kind: each fold's model
    gets the kind's numbers from its complement's statistics (the kind's
    :meth:`~madnb_pl.models.kinds.base.Kind.complement_scores`).
    """
    k = _folds(folds, seed)
    sd = int(seed)  # type: ignore[arg-type]  # _folds refused NULL
    smoothing_factor = arrays.parse_smoothing(smoothing)
    model_kind = lifecycle.kind_named(kind)
    request = TrainRequest(
        source, label, features, exclude, categorical, smoothing_factor, lifecycle.parse_options(model_kind.name, options),
        options is not None, None, None, None, None,
    )
    training = model_kind.resolve(plpy, request)
    rel, trained_rows = model_kind.source(training), model_kind.trained_rows(training)
    key_expr = key_sql(plpy, rel, key)
    fold = fold_sql(key_expr, k, sd)
    # phases: the statistics pass, each fold's model, the scoring pass, the metrics (fixed by k, not by the data)
    progress = Progress(plpy, f"cross-validate {rel.display} ({k} folds)", k + 3)
    progress.phase("statistics pass (every fold at once)")
    fold_pass = model_kind.fold_pass(plpy, training, fold)
    labelled = fold_pass.labelled
    if labelled < k:
        raise MadnbError(
            "22023", f"folds ({k}) are more than the labelled rows of {rel.display} ({labelled})",
            hint="use at most as many folds as labelled rows (as many is leave-one-out)",
        )
    temp = Temporary()
    if labelled == k:  # leave-one-out: the pass again, each labelled row its own fold
        plpy.execute(Sql(f"DROP TABLE {fold_pass.table}"))
        fold = leave_one_out(plpy, rel, trained_rows, key_expr, temp)
        with setting(plpy, "client_min_messages", "warning"):  # the first pass gave its NOTICE (rows without a label)
            fold_pass = model_kind.fold_pass(plpy, training, fold)
    s = fold_pass.table
    sizes = {
        r["f"]: int(r["n"])
        for r in plpy.execute(
            Sql(f"SELECT s.f, pg_catalog.sum(s.n)::pg_catalog.int8 AS n FROM {s} AS s "
            "WHERE s.cls IS NOT NULL AND s.o OPERATOR(pg_catalog.=) 0 GROUP BY s.f")
        )
    }
    if None in sizes:
        raise MadnbError(
            "22004", f"the key of {sizes[None]} labelled row(s) of {rel.display} is NULL",
            detail=f'the key column is "{key}"' if key is not None else None, hint="a row's fold is computed from its key: use a key column without NULLs",
        )
    empty = [f for f in range(1, k + 1) if f not in sizes]
    if empty:
        raise MadnbError(
            "22023", f"fold {empty[0]} of {k} has no labelled rows of {rel.display}",
            detail=f"{labelled} labelled rows; folds are assigned by a hash of the key, so their sizes vary",
            hint="use fewer folds, or another seed",
        )
    builtin = model_kind.label_builtin(training)
    classes: list[str] = list(plpy.execute(
        Sql(f"SELECT ARRAY(SELECT {text_sql('d.c', builtin)} FROM (SELECT DISTINCT s.cls AS c FROM {s} AS s "
        "WHERE s.cls IS NOT NULL) AS d ORDER BY d.c) AS c")
    )[0]["c"])
    parts = model_kind.fold_parts(plpy, training, fold_pass, k, temp.name)
    values = [f"p.c{j}" for j in range(1, len(model_kind.score_values(training)) + 1)]
    branches = []
    for f in range(1, k + 1):
        progress.phase(f"fold {f} of {k}: the model of the other folds")
        # the fold-complement model: the other folds' statistics summed and derived, as any merge
        branches.append(model_kind.complement_scores(
            plpy, training, [p for i, p in enumerate(parts, start=1) if i != f], classes, values, temp.name))
    # labels of a type from outside pg_catalog compare as their texts (scoring_sql's y): a cast could be its owner's
    classes_sql = f"$1::pg_catalog.text[]::{model_kind.label(training).type_sql}[]" if builtin else "$1::pg_catalog.text[]"
    query = evaluate.aggregate_sql(scoring_sql(model_kind, training, fold, classes_sql, len(classes), branches), len(classes))
    progress.phase("score every fold (one pass)")
    result = evaluate.run_aggregate(plpy, query, classes)  # jit off, parallel workers where the plan allows
    temp.drop(plpy)
    progress.phase("metrics")
    per_fold = evaluate.read_metrics(classes, result)
    rows = [{"fold": str(f), "metrics": json.dumps(per_fold[f])} for f in range(1, k + 1)]
    rows.append({"fold": MEAN, "metrics": json.dumps(mean_metrics([per_fold[f] for f in range(1, k + 1)]))})
    progress.done()
    return rows


__all__ = ["MAX_FOLDS", "Temporary", "cross_validate", "fold_sql", "key_sql", "leave_one_out", "mean_metrics", "scoring_sql"]
