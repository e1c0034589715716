"""The ``madnb`` commands that model: train, predict, evaluate, cross-validate, models, drop, install-check;
explain, feature-importance, threshold-curve, forget, versions, rollback.

Each is a thin layer over :class:`madnb.NaiveBayes` or one SQL call, so the
command line and Python do the same thing.  Output is for people by default and
JSON with ``--json``; predictions go to a table (``--into``, written in the
database: nothing is fetched), a CSV file (``-o``) or standard output (CSV,
streamed by ``COPY ... TO STDOUT``).  Exit codes: 0 done, 1 the database (or
madnb) refused, with the SQLSTATE in the message, 2 a usage error.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import decimal
import json
import math
import os
import secrets
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from typing import IO, Any

import psycopg
from psycopg import sql

from ._errors import MadnbError
from ._install import version
from ._sources import relation
from .estimator import (
    CALL_NAME,
    FEATURE_IMPORTANCE,
    MODEL_VERSIONS,
    ROLLBACK,
    THRESHOLD_CURVE,
    Decision,
    Evaluation,
    GridSearch,
    NaiveBayes,
    decision_numbers,
    query_rows,
    read_model,
    session,
)


def _example(text: str) -> dict[str, Any]:
    return {"epilog": "example:\n  " + text.strip().replace("\n", "\n  "), "formatter_class": argparse.RawDescriptionHelpFormatter}


def _option(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE (a JSON value, or text), got {text!r}")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def _json_value(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise argparse.ArgumentTypeError(f"expected JSON, got {text!r} ({e.msg})") from None


def _json_object(text: str) -> Any:
    value = _json_value(text)
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError(f"expected a JSON object ({{\"alpha\": [0.1, 1, 10]}}), got {text!r}")
    return value


def _json_numbers(ndim: int) -> Callable[[str], Any]:
    def parse(text: str) -> Any:
        try:
            return decision_numbers(_json_value(text), "it", ndim)
        except (TypeError, ValueError) as e:
            raise argparse.ArgumentTypeError(str(e)) from None
    return parse


def _decision_arguments(p: argparse.ArgumentParser) -> None:
    """--priors, --class-weights, --costs, --threshold: a decision at query time (docs/decisions.md)."""
    p.add_argument("--priors", type=_json_numbers(1), metavar="JSON",
                   help="replace the class priors: one number per class, in madnb.model_classes order ('[0.9, 0.1]')")
    p.add_argument("--class-weights", type=_json_numbers(1), metavar="JSON",
                   help="multiply each class's probability by its weight ('[1, 3]')")
    p.add_argument("--costs", type=_json_numbers(2), metavar="JSON",
                   help="predict the class of least expected cost: costs[i][j] for predicting class j for a row of class i "
                   "('[[0, 1], [5, 0]]')")
    p.add_argument("--threshold", type=float, help="two classes: predict the second class from this probability on")


def _decision(args: argparse.Namespace) -> Decision | None:
    return Decision.of(args.priors, args.class_weights, args.costs, args.threshold)


def _training_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--progress", action="store_true", help="show the database's phases on standard error (madnb.progress)")
    p.add_argument("--features", nargs="+", metavar="COLUMN", help="the feature columns (default: every column but the label and --exclude)")
    p.add_argument("--exclude", nargs="+", metavar="COLUMN", help="columns left out when --features is not given")
    p.add_argument("--categorical", nargs="+", metavar="COLUMN", help="integer or numeric columns to treat as categorical")
    p.add_argument("--kind", default="naive_bayes",
                   help="naive_bayes (default), gaussian, categorical, multinomial, bernoulli or complement")
    p.add_argument("--smoothing", type=float, default=1.0, help="Laplace smoothing of categorical features (default 1)")
    p.add_argument("--option", dest="options", action="append", type=_option, default=[], metavar="KEY=VALUE",
                   help="a parameter of the kind, by scikit-learn's name (alpha=0.5, fit_prior=false); repeat for more")


def add_parsers(sub: Any, with_dsn: Callable[..., argparse.ArgumentParser]) -> None:
    """Add the model commands to the ``madnb`` parser's subcommands (``with_dsn`` adds a command taking --dsn)."""
    tr = with_dsn("train", "train a named model from a table or view (madnb.train)",
                  **_example("madnb train adult_nb adult income --exclude fnlwgt"))
    tr.add_argument("model", help="the model's name (one identifier, or schema.identifier)")
    tr.add_argument("source", help="the table or view to train on")
    tr.add_argument("label", help="the label column")
    _training_arguments(tr)
    tr.add_argument("--replace", action="store_true", help="re-train the model if it exists")
    tr.add_argument("--epsilon", type=float, help="train a differentially private model with this epsilon")
    tr.add_argument("--bounds", help="private models: the Gaussian columns' bounds, as JSON ({\"age\": [17, 90]})")
    tr.add_argument("--domain", help="private models: the table of the categorical values (attr, value)")
    tr.add_argument("--delta", type=float, help="private models: delta")
    tr.add_argument("--weight", metavar="COLUMN", help="a numeric column of sample weights (not a feature)")
    tr.add_argument("--tune", type=_json_object, metavar="JSON",
                    help="train with the best point of a grid by 5-fold cross-validation ('{\"smoothing\": [0.1, 1, 10]}')")
    tr.add_argument("--json", action="store_true", help="print the model's catalog row as JSON")

    pr = with_dsn("predict", "predict with a named model: into a table, a CSV file or standard output",
                  **_example("madnb predict adult_nb adult_test --key id --proba -o predictions.csv\n"
                             "madnb predict adult_nb adult_test --key id --into adult_predictions"))
    pr.add_argument("model", help="the model's name")
    pr.add_argument("source", help="the table or view of the rows (it needs the model's feature columns)")
    pr.add_argument("--key", help="a column written beside each prediction, whose order the rows follow, as SQL reads an "
                                  "identifier (ID is id; quote capitals: '\"Id\"'), as cross-validate's --key "
                                  "(default: a table's physical order; a view needs --key)")
    pr.add_argument("--proba", action="store_true", help="also each class's probability, in a column proba_<class>")
    _decision_arguments(pr)
    out = pr.add_mutually_exclusive_group()
    out.add_argument("--into", metavar="TABLE", help="create this table with the predictions (in the database: nothing is fetched)")
    out.add_argument("-o", "--output", metavar="FILE", help="write CSV (with a header) to this file (default: standard output)")
    out.add_argument("--json", action="store_true", help="print one JSON object per row (JSON Lines)")

    ev = with_dsn("evaluate", "a named model's metrics on a labelled table (madnb.evaluate)",
                  **_example("madnb evaluate adult_nb adult_test --json"))
    ev.add_argument("model", help="the model's name")
    ev.add_argument("source", help="the labelled table or view")
    ev.add_argument("--label", help="the label column of the source (default: the model's)")
    ev.add_argument("--json", action="store_true", help="print madnb.evaluate's jsonb")
    ev.add_argument("--progress", action="store_true", help="show the database's phases on standard error (madnb.progress)")
    _decision_arguments(ev)
    ev.add_argument("--report", metavar="FILE.html",
                    help="also write a self-contained HTML report (confusion matrix, ROC, precision-recall and calibration "
                    "curves, computed in the database; needs matplotlib: the bench extra)")

    cv = with_dsn("cross-validate", "k-fold cross-validation in the database (madnb.cross_validate); writes nothing",
                  **_example("madnb cross-validate adult income --exclude fnlwgt --folds 5 --seed 0"))
    cv.add_argument("source", help="the table or view")
    cv.add_argument("label", help="the label column")
    _training_arguments(cv)
    cv.add_argument("--folds", type=int, default=5, help="number of folds (default 5)")
    cv.add_argument("--seed", type=int, default=0, help="the folds' seed (default 0)")
    cv.add_argument("--key", help="the column whose text assigns the folds (default: the row's text form)")
    cv.add_argument("--weight", metavar="COLUMN", help="a numeric column of sample weights: each fold's model is weighted "
                    "(the metrics count rows)")
    cv.add_argument("--grid", type=_json_object, metavar="JSON",
                    help="a grid search: every point scored from one statistics pass ('{\"alpha\": [0.1, 1], \"fit_prior\": [true, false]}')")
    cv.add_argument("--json", action="store_true", help="print every fold's metrics and their mean as JSON")

    ms = with_dsn("models", "list the named models (madnb.models)", **_example("madnb models --json"))
    ms.add_argument("--json", action="store_true", help="print the catalog's rows as JSON")

    dr = with_dsn("drop", "drop a named model (madnb.drop_model)", **_example("madnb drop adult_nb"))
    dr.add_argument("model", help="the model's name")
    dr.add_argument("--cascade", action="store_true", help="also drop the views that use its functions")

    with_dsn("install-check", "run madnb's self-test in the database, inside a transaction that is rolled back",
             **_example("madnb install-check --dsn postgresql://localhost/mydb"))

    ex = with_dsn("explain", "each row's exact explanation: every feature's contribution to each class's log-score (<model>_explain)",
                  **_example("madnb explain adult_nb adult_test --key id --json"))
    ex.add_argument("model", help="the model's name")
    ex.add_argument("source", help="the table or view of the rows")
    ex.add_argument("--key", help="a column written beside each explanation, whose order the rows follow (as predict's --key)")
    ex.add_argument("--limit", type=int, metavar="N", help="only the first N rows (in the key's order)")
    ex.add_argument("--top", type=int, default=3, help="the features listed per row, those that moved the decision most (default 3)")
    ex.add_argument("--json", action="store_true", help="print one JSON object per row (JSON Lines): the key and the whole explanation")

    fi = with_dsn("feature-importance", "each feature's mean contribution over a table's rows (madnb.feature_importance)",
                  **_example("madnb feature-importance adult_nb adult_test"))
    fi.add_argument("model", help="the model's name")
    fi.add_argument("source", help="the table or view of the rows")
    fi.add_argument("--json", action="store_true", help="print the rows as JSON")

    tc = with_dsn("threshold-curve", "a two-class model's precision, recall and cost at every threshold (madnb.threshold_curve)",
                  **_example("madnb threshold-curve adult_nb adult_test --costs '[[0, 1], [5, 0]]'"))
    tc.add_argument("model", help="the model's name")
    tc.add_argument("source", help="the labelled table or view")
    tc.add_argument("--label", help="the label column of the source (default: the model's)")
    tc.add_argument("--costs", type=_json_numbers(2), metavar="JSON", help="2 x 2 costs[true][predicted] (default: 0 right, 1 wrong)")
    tc.add_argument("--json", action="store_true", help="print the rows as JSON")

    fg = with_dsn("forget", "remove rows the model was trained on, without retraining (madnb.forget)",
                  **_example("madnb forget adult_nb erasure_requests"))
    fg.add_argument("model", help="the model's name")
    fg.add_argument("source", help="the table or view of the rows to forget (the model's feature and label columns)")

    vs = with_dsn("versions", "the versions kept of a model (madnb.model_versions)", **_example("madnb versions adult_nb"))
    vs.add_argument("model", help="the model's name")
    vs.add_argument("--json", action="store_true", help="print the rows as JSON")

    rb = with_dsn("rollback", "make a model what one of its versions was (madnb.rollback_model)",
                  **_example("madnb rollback adult_nb 1"))
    rb.add_argument("model", help="the model's name")
    rb.add_argument("version", type=int, help="the version to return to (madnb versions lists them)")


COMMANDS = frozenset({"train", "predict", "evaluate", "cross-validate", "models", "drop", "install-check", "explain",
                      "feature-importance", "threshold-curve", "forget", "versions", "rollback"})


def run(args: argparse.Namespace, dsn: str) -> int:
    """Run model command ``args.cmd`` on database ``dsn``; MadnbError and psycopg errors propagate (exit 1)."""
    handler: dict[str, Callable[[argparse.Namespace, str], int]] = {
        "train": _train, "predict": _predict, "evaluate": _evaluate, "cross-validate": _cross_validate,
        "models": _models, "drop": _drop, "install-check": _install_check, "explain": _explain,
        "feature-importance": _feature_importance, "threshold-curve": _threshold_curve, "forget": _forget,
        "versions": _versions, "rollback": _rollback,
    }
    return handler[args.cmd](args, dsn)


def _jsonable(v: Any) -> Any:
    if isinstance(v, (datetime.datetime, datetime.date)):
        return v.isoformat()
    if isinstance(v, decimal.Decimal):
        return float(v)
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if v is None or isinstance(v, (str, int, float, bool)):
        return v
    return str(v)


def _print_json(value: Any) -> None:
    print(json.dumps(_jsonable(value), indent=2))


def _catalog_rows(dsn: str, model: str | None = None) -> list[dict[str, Any]]:
    """The catalog's rows (of model ``model`` only, by the name madnb's functions take: :data:`CALL_NAME`)."""
    with session(dsn) as c:
        cur = c.execute(
            "SELECT m.name, m.kind, m.source, m.label, m.label_type, m.features, m.classes, m.training_rows, m.smoothing, "
            "m.privacy, m.epsilon, m.delta, m.predict_function, m.created_at, m.owner, m.size, m.parameters, m.weight, m.version "
            f"FROM madnb.models AS m WHERE %(model)s::pg_catalog.text IS NULL OR {CALL_NAME} OPERATOR(pg_catalog.=) %(model)s "
            "ORDER BY m.schema_name, m.name", {"model": model},
        )
        names = [d.name for d in cur.description or []]
        return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]


def _train(args: argparse.Namespace, dsn: str) -> int:
    est = NaiveBayes(dsn, args.model, kind=args.kind, smoothing=args.smoothing, categorical=args.categorical,
                     epsilon=args.epsilon, bounds=args.bounds, domain=args.domain, delta=args.delta, replace=args.replace,
                     progress=args.progress, tune=args.tune, **dict(args.options))
    est.fit(args.source, args.label, features=args.features, exclude=args.exclude, sample_weight=args.weight)
    info = est.info_
    if args.json:
        _print_json(_catalog_rows(dsn, info.name))
        return 0
    print(f"trained model {info.name} ({info.kind}) on {info.source}: {len(info.features)} features, "
          f"classes {', '.join(map(str, info.classes))}")
    if args.tune is not None:
        print(f"tuned: {json.dumps(est.best_params_)}")
    return 0


@contextlib.contextmanager
def _ordered(c: psycopg.Connection[Any], source: str, key: str | None, what: str) -> Iterator[tuple[Any, sql.Composable, list[sql.Composable]]]:
    """The source's relation, its ORDER BY, and the key column (as SQL reads an identifier: ID is id) to write first."""
    with relation(c, source, key=key) as rel:
        order = rel.order_by()
        if order is None:
            raise MadnbError("22023", f"{rel.name} has no row order of its own (a view, a foreign table)",
                             hint=f"give --key: the column written beside each {what}, whose order they follow")
        key_column: list[sql.Composable] = [sql.SQL("{}.{}").format(rel.alias, sql.Identifier(rel.order[0]))] if key and rel.order else []
        yield rel, order, key_column


def _predict(args: argparse.Namespace, dsn: str) -> int:
    decision = _decision(args)
    with session(dsn) as c:
        info = read_model(c, args.model)
        with _ordered(c, args.source, args.key, "prediction") as (rel, order, columns):
            t = rel.alias
            made = None if decision is None else sql.SQL("{}::pg_catalog.jsonb").format(sql.Literal(decision.made(c, info.name)))
            # under a decision madnb.decide's class, as text (a literal: COPY and CREATE TABLE AS take no parameters)
            if made is None:
                columns.append(sql.SQL("{}({}) AS predicted").format(info.function(), t))
            else:
                columns.append(sql.SQL("madnb.decide({}, {}({})) AS predicted").format(made, info.function("_proba_array"), t))
            proba: sql.Composable = sql.SQL("")
            if args.proba:  # the array once per row, its elements as columns
                classes = info.classes
                p = sql.Identifier("madnb_proba")
                columns += [sql.SQL("{}.a[{}] AS {}").format(p, sql.Literal(i), sql.Identifier(f"proba_{k}"))
                            for i, k in enumerate(classes, start=1)]
                array = sql.SQL("{}({})").format(info.function("_proba_array"), t)
                if made is not None:
                    array = sql.SQL("madnb.decide_proba_array({}, {})").format(made, array)
                proba = sql.SQL(" CROSS JOIN LATERAL (SELECT {} AS a) AS {}").format(array, p)
            query = sql.SQL("SELECT {} FROM {} AS {}{} ORDER BY {}").format(sql.SQL(", ").join(columns), rel.ident, t, proba, order)
            if args.into:
                (parts,) = c.execute("SELECT pg_catalog.parse_ident(%s::pg_catalog.text)", [args.into]).fetchone() or ([],)
                cur = c.execute(sql.SQL("CREATE TABLE {} AS {}").format(sql.Identifier(*parts), query))
                print(f"{cur.rowcount} predictions written into {args.into}")
            elif args.json:
                cur = c.execute(query)
                names = [d.name for d in cur.description or []]
                for row in cur:
                    print(json.dumps(_jsonable(dict(zip(names, row, strict=True)))))
            else:
                _copy_csv(c, query, args.output)
    return 0


def _copy_csv(c: psycopg.Connection[Any], query: sql.Composable, output: str | None) -> None:
    """The query's rows as CSV to standard output, or to file ``output``: written beside it, then moved over it
    (``os.replace``) once the query has completed, so that a failed query leaves an existing file as it was."""
    copy_sql = sql.SQL("COPY ({}) TO STDOUT WITH (FORMAT csv, HEADER true)").format(query)
    if not output:
        with _stdout() as out, c.cursor().copy(copy_sql) as copy:
            for block in copy:
                out.write(block)
        return
    folder, base = os.path.split(os.path.abspath(output))
    fd, partial = tempfile.mkstemp(prefix=f".{base}.", suffix=".partial", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f, c.cursor().copy(copy_sql) as copy:
            for block in copy:
                f.write(block)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(partial, 0o666 & ~umask)  # as open() would have made it (mkstemp's file is private)
        os.replace(partial, output)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.remove(partial)
        raise


class _stdout:
    """Standard output's bytes, left open."""

    def __enter__(self) -> IO[bytes]:
        return sys.stdout.buffer

    def __exit__(self, *exc: object) -> None:
        sys.stdout.buffer.flush()


def _print_evaluation(e: Evaluation) -> None:
    print(f"rows: {e.rows} (labels not among the classes: {e.unknown_label_rows})")
    for key in ("accuracy", "balanced_accuracy", "log_loss", "roc_auc"):
        v = getattr(e, key)
        if v is not None:
            print(f"{key}: {v:.6f}")
    for key in ("total_cost", "expected_cost"):  # evaluated with --costs
        if e.metrics.get(key) is not None:
            print(f"{key}: {e.metrics[key]:.6f}")
    width = max([len(str(k)) for k in e.classes] + [5])
    print(f"{'class':<{width}}  precision  recall     f1         support")
    for k, p, r, f, s in zip(e.classes, e.precision, e.recall, e.f1, e.support, strict=False):
        print(f"{str(k):<{width}}  {p:<9.6f}  {r:<9.6f}  {f:<9.6f}  {s}")
    print("confusion matrix (rows: true class, columns: predicted, in the order above):")
    for row in e.confusion_matrix.tolist():
        print("  " + " ".join(f"{n:>8}" for n in row))


def _evaluate(args: argparse.Namespace, dsn: str) -> int:
    est = NaiveBayes.load(dsn, args.model)
    est.progress = args.progress
    e = est.evaluate(args.source, label=args.label, curves=args.report is not None, priors=args.priors,
                     class_weights=args.class_weights, costs=args.costs, threshold=args.threshold)
    if args.report is not None:
        e.report(args.report, title=f"{args.model} on {args.source}")
    if args.json:
        _print_json(e.to_dict())
    else:
        _print_evaluation(e)
    return 0


def _cross_validate(args: argparse.Namespace, dsn: str) -> int:
    est = NaiveBayes(dsn, kind=args.kind, smoothing=args.smoothing, categorical=args.categorical, progress=args.progress,
                     **dict(args.options))
    if args.grid is not None:
        search = est.cross_validate(args.source, args.label, folds=args.folds, seed=args.seed, key=args.key,
                                    features=args.features, exclude=args.exclude, grid=args.grid, sample_weight=args.weight)
        return _print_grid(search, args.json)
    cv = est.cross_validate(args.source, args.label, folds=args.folds, seed=args.seed, key=args.key,
                            features=args.features, exclude=args.exclude, sample_weight=args.weight)
    if args.json:
        _print_json(cv.to_dict())
        return 0
    print(f"{'fold':<6} {'rows':>8}  accuracy   balanced   log_loss   roc_auc")
    for name, e in [*((str(i), f) for i, f in enumerate(cv.folds, start=1)), ("mean", cv.mean)]:
        print(f"{name:<6} {e.rows:>8}  {_scores(e)}".rstrip())
    return 0


def _scores(e: Evaluation) -> str:
    return "  ".join(f"{v:<9.6f}" if v is not None else f"{'-':<9}" for v in (e.accuracy, e.balanced_accuracy, e.log_loss, e.roc_auc))


def _print_grid(search: GridSearch, as_json: bool) -> int:
    """A grid search: each point's mean scores (in ParameterGrid order), then the best point."""
    if as_json:
        _print_json(search.to_dict())
        return 0
    cells = [json.dumps(p.parameters) for p in search.points]
    width = max(len(x) for x in [*cells, "parameters"])
    print(f"{'parameters':<{width}}  accuracy   balanced   log_loss   roc_auc")
    for text, p in zip(cells, search.points, strict=True):
        print(f"{text:<{width}}  {_scores(p.mean)}".rstrip())
    print(f"best: {json.dumps(search.best_params)} (accuracy {search.best.accuracy:.6f})")
    return 0


def _models(args: argparse.Namespace, dsn: str) -> int:
    rows = _catalog_rows(dsn)
    if args.json:
        _print_json(rows)
        return 0
    if not rows:
        print("no models (train one with madnb train)")
        return 0
    _print_table(["name", "kind", "source", "label", "classes", "rows", "privacy"],
                 [[r["name"], r["kind"], r["source"], r["label"], ", ".join(map(str, r["classes"])), r["training_rows"],
                   r["privacy"]] for r in rows])
    return 0


def _cell(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.6g}"
    if isinstance(v, (datetime.datetime, datetime.date)):
        return v.isoformat(sep=" ", timespec="seconds") if isinstance(v, datetime.datetime) else v.isoformat()
    if isinstance(v, (list, tuple)):
        return ", ".join(map(str, v))
    return str(v)


def _print_table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """Rows under a header, columns padded to their widest cell."""
    table = [list(header), *([_cell(v) for v in r] for r in rows)]
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    for row in table:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())


def _print_rows(columns: list[str], rows: list[tuple[Any, ...]], as_json: bool) -> None:
    """A set-returning call's rows: a table, or with --json a list of objects."""
    if as_json:
        _print_json([dict(zip(columns, r, strict=True)) for r in rows])
    else:
        _print_table(columns, rows)


def _explain(args: argparse.Namespace, dsn: str) -> int:
    with session(dsn) as c:
        info = read_model(c, args.model)
        with _ordered(c, args.source, args.key, "explanation") as (rel, order, columns):
            keyed = bool(columns)
            columns.append(sql.SQL("{}({})").format(info.explain_function(), rel.alias))
            query = sql.SQL("SELECT {} FROM {} AS {} ORDER BY {}").format(sql.SQL(", ").join(columns), rel.ident, rel.alias, order)
            if args.limit is not None:
                query = sql.SQL("{} LIMIT {}").format(query, sql.Literal(max(args.limit, 0)))
            cur = c.execute(query)
            names = [d.name for d in cur.description or []]
            for row in cur:
                explanation = row[-1]
                if args.json:
                    print(json.dumps(_jsonable({**({names[0]: row[0]} if keyed else {}), "explanation": explanation})))
                    continue
                lead = f"{row[0]}: " if keyed else ""
                if explanation is None:
                    print(f"{lead}no prediction")
                    continue
                moved = ", ".join(f"{m['feature']} {m['difference']:+.4f}" for m in explanation["against_runner_up"][:max(args.top, 0)])
                print(f"{lead}{explanation['predicted']} (runner-up {explanation['runner_up']}): {moved}".rstrip(": "))
    return 0


def _feature_importance(args: argparse.Namespace, dsn: str) -> int:
    with session(dsn) as c, relation(c, args.source) as rel:
        _print_rows(*query_rows(c, FEATURE_IMPORTANCE, [args.model, rel.name]), args.json)
    return 0


def _threshold_curve(args: argparse.Namespace, dsn: str) -> int:
    with session(dsn) as c, relation(c, args.source) as rel:
        _print_rows(*query_rows(c, THRESHOLD_CURVE, [args.model, rel.name, args.label, args.costs]), args.json)
    return 0


_CURRENT_VERSION = "SELECT v.version, v.rows, v.training_rows FROM madnb.model_versions(%s::pg_catalog.text) AS v WHERE v.current"


def _forget(args: argparse.Namespace, dsn: str) -> int:
    est = NaiveBayes.load(dsn, args.model).forget(args.source)
    with session(dsn) as c:
        version, rows, left = c.execute(_CURRENT_VERSION, [est.info_.name]).fetchone() or (None, None, None)
    print(f"forgot {rows} rows of {args.source} from model {est.info_.name}: version {version}, {left} training rows left")
    return 0


def _versions(args: argparse.Namespace, dsn: str) -> int:
    with session(dsn) as c:
        _print_rows(*query_rows(c, MODEL_VERSIONS, [args.model]), args.json)
    return 0


def _rollback(args: argparse.Namespace, dsn: str) -> int:
    with session(dsn) as c:
        c.execute(ROLLBACK, [args.model, args.version])
        version, _, rows = c.execute(_CURRENT_VERSION, [args.model]).fetchone() or (None, None, None)
    print(f"model {args.model} is version {args.version} again: version {version}, {rows} training rows")
    return 0


def _drop(args: argparse.Namespace, dsn: str) -> int:
    with session(dsn) as c:
        c.execute("SELECT madnb.drop_model(%s::pg_catalog.text, %s::pg_catalog.bool)", [args.model, args.cascade])
    print(f"dropped model {args.model}")
    return 0


# ---------------------------------------------------------------------------
# install-check
# ---------------------------------------------------------------------------

# Quinlan's "play tennis" (the MADlib manual's naive Bayes data): outlook, windy -> play
_TENNIS = [
    ("sunny", False, "no"), ("sunny", True, "no"), ("overcast", False, "yes"), ("rain", False, "yes"),
    ("rain", False, "yes"), ("rain", True, "no"), ("overcast", True, "yes"), ("sunny", False, "no"),
    ("sunny", False, "yes"), ("rain", False, "yes"), ("sunny", True, "yes"), ("overcast", True, "yes"),
    ("overcast", False, "yes"), ("rain", True, "no"),
]


def expected_proba(rows: Sequence[tuple[str, bool, str]], outlook: str, windy: bool, s: float = 1.0) -> dict[str, float]:
    """Naive Bayes with Laplace smoothing ``s`` over the values seen, from the definition: P(class | outlook, windy)."""
    classes = sorted({r[2] for r in rows})
    joint: dict[str, float] = {}
    for c in classes:
        in_c = [r for r in rows if r[2] == c]
        p = len(in_c) / len(rows)
        for i, v in ((0, outlook), (1, windy)):
            values = {r[i] for r in rows}
            p *= (sum(1 for r in in_c if r[i] == v) + s) / (len(in_c) + s * len(values))
        joint[c] = p
    total = sum(joint.values())
    return {c: p / total for c, p in joint.items()}


def _install_check(args: argparse.Namespace, dsn: str) -> int:
    checks: list[tuple[str, bool]] = []

    def check(what: str, ok: bool) -> None:
        checks.append((what, ok))
        print(f"{'ok' if ok else 'FAILED':<6} {what}")

    with psycopg.connect(dsn) as conn:  # not autocommit: one transaction, rolled back at the end
        conn.execute("SELECT 1")  # begin it: every call below joins it
        try:
            info = version(conn)
            if info.installed is None:
                raise MadnbError("55000", "madnb is not installed in this database", hint="install it with madnb install")
            check(f"madnb {info.installed} installed ({info.method}); library {info.library}", True)
            table = "madnb_check_" + secrets.token_hex(4)
            conn.execute(sql.SQL("CREATE TEMPORARY TABLE {} (id int, outlook text, windy boolean, play text)").format(
                sql.Identifier("pg_temp", table)))
            with conn.cursor().copy(sql.SQL("COPY {} FROM STDIN").format(sql.Identifier("pg_temp", table))) as copy:
                for i, r in enumerate(_TENNIS, start=1):
                    copy.write_row((i, *r))
            est = NaiveBayes(conn, "madnb_install_check_" + secrets.token_hex(4))
            est.fit(f"pg_temp.{table}", "play", exclude=["id"])
            check("madnb.train trains a model from a table's columns", list(est.classes_) == ["no", "yes"])
            got = est.predict_proba(f"pg_temp.{table}", key="id")
            worst = max(abs(got[i][j] - expected_proba(_TENNIS, o, w)[k])
                        for i, (o, w, _) in enumerate(_TENNIS) for j, k in enumerate(["no", "yes"]))
            check(f"its predict_proba is naive Bayes' with Laplace smoothing (largest difference {worst:.1e})", worst <= 1e-12)
            want = ["yes" if expected_proba(_TENNIS, o, w)["yes"] > 0.5 else "no" for o, w, _ in _TENNIS]
            check("its predict gives the most probable class", list(est.predict(f"pg_temp.{table}", key="id")) == want)
            e = est.evaluate(f"pg_temp.{table}")
            right = sum(1 for (_, _, y), p in zip(_TENNIS, want, strict=True) if y == p)
            check("madnb.evaluate counts the rows and the accuracy", e.rows == 14 and abs(e.accuracy - right / 14) <= 1e-12)
            cv = est.cross_validate(f"pg_temp.{table}", key="id", folds=2, seed=1)
            check("madnb.cross_validate scores every row once", cv.mean.rows == 14 and len(cv.folds) == 2)
            check("madnb.model_sql exports the prediction functions", "CREATE" in est.sql().upper())
            model = est.model_
            est.drop()
            (left,) = conn.execute("SELECT pg_catalog.count(*) FROM madnb.models AS m WHERE m.name OPERATOR(pg_catalog.=) %s",
                                   [model]).fetchone() or (1,)
            check("madnb.drop_model drops it", left == 0)
        finally:
            conn.rollback()
    failed = [w for w, ok in checks if not ok]
    if failed:
        print(f"install-check: {len(failed)} of {len(checks)} checks FAILED (everything was rolled back)")
        return 1
    print(f"install-check: all {len(checks)} checks passed (everything was rolled back)")
    return 0
