"""The ``madnb`` commands that model: train, predict, evaluate, cross-validate, models, drop, install-check.

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
from collections.abc import Callable, Sequence
from typing import IO, Any

import psycopg
from psycopg import sql

from ._errors import MadnbError
from ._install import version
from ._sources import relation
from .estimator import CALL_NAME, Evaluation, NaiveBayes, read_model, session


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
    cv.add_argument("--json", action="store_true", help="print every fold's metrics and their mean as JSON")

    ms = with_dsn("models", "list the named models (madnb.models)", **_example("madnb models --json"))
    ms.add_argument("--json", action="store_true", help="print the catalog's rows as JSON")

    dr = with_dsn("drop", "drop a named model (madnb.drop_model)", **_example("madnb drop adult_nb"))
    dr.add_argument("model", help="the model's name")
    dr.add_argument("--cascade", action="store_true", help="also drop the views that use its functions")

    with_dsn("install-check", "run madnb's self-test in the database, inside a transaction that is rolled back",
             **_example("madnb install-check --dsn postgresql://localhost/mydb"))


COMMANDS = frozenset({"train", "predict", "evaluate", "cross-validate", "models", "drop", "install-check"})


def run(args: argparse.Namespace, dsn: str) -> int:
    """Run model command ``args.cmd`` on database ``dsn``; MadnbError and psycopg errors propagate (exit 1)."""
    handler: dict[str, Callable[[argparse.Namespace, str], int]] = {
        "train": _train, "predict": _predict, "evaluate": _evaluate, "cross-validate": _cross_validate,
        "models": _models, "drop": _drop, "install-check": _install_check,
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
            "m.privacy, m.epsilon, m.delta, m.predict_function, m.created_at, m.owner, m.size, m.parameters "
            f"FROM madnb.models AS m WHERE %(model)s::pg_catalog.text IS NULL OR {CALL_NAME} OPERATOR(pg_catalog.=) %(model)s "
            "ORDER BY m.schema_name, m.name", {"model": model},
        )
        names = [d.name for d in cur.description or []]
        return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]


def _train(args: argparse.Namespace, dsn: str) -> int:
    est = NaiveBayes(dsn, args.model, kind=args.kind, smoothing=args.smoothing, categorical=args.categorical,
                     epsilon=args.epsilon, bounds=args.bounds, domain=args.domain, delta=args.delta, replace=args.replace,
                     progress=args.progress, **dict(args.options))
    est.fit(args.source, args.label, features=args.features, exclude=args.exclude)
    info = est.info_
    if args.json:
        _print_json(_catalog_rows(dsn, info.name))
        return 0
    print(f"trained model {info.name} ({info.kind}) on {info.source}: {len(info.features)} features, "
          f"classes {', '.join(map(str, info.classes))}")
    return 0


def _predict(args: argparse.Namespace, dsn: str) -> int:
    with session(dsn) as c:
        info = read_model(c, args.model)
        with relation(c, args.source, key=args.key) as rel:
            order = rel.order_by()
            if order is None:
                raise MadnbError("22023", f"{rel.name} has no row order of its own (a view, a foreign table)",
                                 hint="give --key: the column written beside each prediction, whose order they follow")
            t = rel.alias
            columns: list[sql.Composable] = []
            if args.key and rel.order:  # the key as SQL reads an identifier (relation resolved it: ID is id)
                columns.append(sql.SQL("{}.{}").format(t, sql.Identifier(rel.order[0])))
            columns.append(sql.SQL("{}({}) AS predicted").format(info.function(), t))
            proba: sql.Composable = sql.SQL("")
            if args.proba:  # the array once per row, its elements as columns
                classes = info.classes
                p = sql.Identifier("madnb_proba")
                columns += [sql.SQL("{}.a[{}] AS {}").format(p, sql.Literal(i), sql.Identifier(f"proba_{k}"))
                            for i, k in enumerate(classes, start=1)]
                proba = sql.SQL(" CROSS JOIN LATERAL (SELECT {}({}) AS a) AS {}").format(info.function("_proba_array"), t, p)
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
    e = est.evaluate(args.source, label=args.label, curves=args.report is not None)
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
    cv = est.cross_validate(args.source, args.label, folds=args.folds, seed=args.seed, key=args.key,
                            features=args.features, exclude=args.exclude)
    if args.json:
        _print_json(cv.to_dict())
        return 0
    print(f"{'fold':<6} {'rows':>8}  accuracy   balanced   log_loss   roc_auc")
    for name, e in [*((str(i), f) for i, f in enumerate(cv.folds, start=1)), ("mean", cv.mean)]:
        cells = [f"{v:<9.6f}" if v is not None else f"{'-':<9}" for v in (e.accuracy, e.balanced_accuracy, e.log_loss, e.roc_auc)]
        print(f"{name:<6} {e.rows:>8}  {'  '.join(cells)}".rstrip())
    return 0


def _models(args: argparse.Namespace, dsn: str) -> int:
    rows = _catalog_rows(dsn)
    if args.json:
        _print_json(rows)
        return 0
    if not rows:
        print("no models (train one with madnb train)")
        return 0
    table = [["name", "kind", "source", "label", "classes", "rows", "privacy"]]
    for r in rows:
        table.append([str(r["name"]), str(r["kind"]), str(r["source"]), str(r["label"]), ", ".join(map(str, r["classes"])),
                      str(r["training_rows"]), str(r["privacy"])])
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for row in table:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
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
