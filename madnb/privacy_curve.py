"""Accuracy against epsilon, side by side with the paper (``madnb privacy-curve``).

Starts a throwaway PostgreSQL (:class:`madnb._cluster.LocalCluster`), installs
madnb, loads four UCI datasets, and for every epsilon trains R differentially
private models per dataset and measures test accuracy with the classify view.
The non-private model (epsilon NULL) is the reference line, as in Figure 1 of
Marchioro et al., "Federated Naive Bayes under Differential Privacy" (SECRYPT
2022).  Writes ``docs/privacy_curve.md`` (table) and ``docs/privacy_curve.png``
(plot) and prints the table.

Public knowledge used (never taken from the training data):

* domains: the value lists of the UCI documentation (``adult.names``,
  ``agaricus-lepiota.names``, ``house-votes-84.names``), see :data:`ADULT_DOMAIN`,
  :data:`MUSHROOM_DOMAIN`; missing values (``?``, ``NA``) are NULL;
* bounds: :data:`ADULT_BOUNDS` (each with its reason) and [0, 255] for the
  RGB values of skin.

Splits: adult uses its train/test files; mushroom, house votes and skin a 90/10
split with a fixed seed (:data:`SPLIT_SEED`).

Why this stays in the installed package (and works from a wheel): it is the
``madnb privacy-curve`` command, the way a user reproduces the accuracy figures
of ``docs/privacy_curve.md`` against the madnb they installed, and it needs
nothing of the repository but the UCI CSV files.  So it assumes no repository
layout: in a source checkout the defaults are ``../shared/data`` and ``docs/``
(what ``make privacy-curve`` uses); installed from a wheel, ``--data FOLDER`` is
required and the output goes to the current directory unless ``--out`` says
otherwise.  A missing data folder or CSV file, or a missing matplotlib (the
``bench`` extra: ``pip install 'madnb[bench]'``), is reported in one line with
exit status 2 before any cluster is started or model trained.
"""

from __future__ import annotations

import argparse
import csv
import random
import statistics
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

from ._cluster import LocalCluster
from ._install import install

EPSILONS = (0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0)
SPLIT_SEED = 20220711
DEFAULT_REPS = 20
PROG = "madnb privacy-curve"
# The extra of pyproject.toml that brings matplotlib (the plot).
PLOT_EXTRA = "bench"

# UCI adult.names: the values of the categorical attributes (in that file's order).
ADULT_DOMAIN: dict[str, list[str]] = {
    "workclass": ["Private", "Self-emp-not-inc", "Self-emp-inc", "Federal-gov", "Local-gov", "State-gov",
                  "Without-pay", "Never-worked"],
    "education": ["Bachelors", "Some-college", "11th", "HS-grad", "Prof-school", "Assoc-acdm", "Assoc-voc", "9th",
                  "7th-8th", "12th", "Masters", "1st-4th", "10th", "Doctorate", "5th-6th", "Preschool"],
    "marital_status": ["Married-civ-spouse", "Divorced", "Never-married", "Separated", "Widowed",
                       "Married-spouse-absent", "Married-AF-spouse"],
    "occupation": ["Tech-support", "Craft-repair", "Other-service", "Sales", "Exec-managerial", "Prof-specialty",
                   "Handlers-cleaners", "Machine-op-inspct", "Adm-clerical", "Farming-fishing", "Transport-moving",
                   "Priv-house-serv", "Protective-serv", "Armed-Forces"],
    "relationship": ["Wife", "Own-child", "Husband", "Not-in-family", "Other-relative", "Unmarried"],
    "race": ["White", "Asian-Pac-Islander", "Amer-Indian-Eskimo", "Other", "Black"],
    "sex": ["Female", "Male"],
    "native_country": ["United-States", "Cambodia", "England", "Puerto-Rico", "Canada", "Germany",
                       "Outlying-US(Guam-USVI-etc)", "India", "Japan", "Greece", "South", "China", "Cuba", "Iran",
                       "Honduras", "Philippines", "Italy", "Poland", "Jamaica", "Vietnam", "Mexico", "Portugal",
                       "Ireland", "France", "Dominican-Republic", "Laos", "Ecuador", "Taiwan", "Haiti", "Columbia",
                       "Hungary", "Guatemala", "Nicaragua", "Scotland", "Thailand", "Yugoslavia", "El-Salvador",
                       "Trinadad&Tobago", "Peru", "Hong", "Holand-Netherlands"],
}
# Public bounds of adult's numeric attributes, each with the public fact it rests on (none
# is read from the data; values outside are clipped, which costs accuracy, never privacy).
ADULT_BOUNDS: dict[str, tuple[float, float, str]] = {
    "age": (17, 90, "adult.names: the extraction kept people over 16 (AAGE>16); the CPS top-codes age at 90"),
    "fnlwgt": (0, 10_000_000, "a CPS final weight is the number of people one respondent stands for; "
               "a generous round bound, far above any"),
    "education_num": (1, 16, "the 16 education levels of adult.names"),
    "capital_gain": (0, 99_999, "the CPS records capital gains in a 5-digit field (top code 99999)"),
    "capital_loss": (0, 99_999, "the same 5-digit CPS field as capital gains"),
    "hours_per_week": (1, 99, "the extraction kept HRSWK>0; the CPS top-codes hours at 99"),
}
ADULT_NUMERIC = list(ADULT_BOUNDS)
ADULT_CATEGORICAL = list(ADULT_DOMAIN)

# UCI agaricus-lepiota.names: the letter codes of each attribute (stalk-root '?' = missing).
MUSHROOM_DOMAIN: dict[str, str] = {
    "cap-shape": "bcxfks", "cap-surface": "fgys", "cap-color": "nbcgrpuewy", "bruises": "tf", "odor": "alcyfmnps",
    "gill-attachment": "adfn", "gill-spacing": "cwd", "gill-size": "bn", "gill-color": "knbhgropuewy",
    "stalk-shape": "et", "stalk-root": "bcuezr", "stalk-surface-above-ring": "fyks", "stalk-surface-below-ring": "fyks",
    "stalk-color-above-ring": "nbcgopewy", "stalk-color-below-ring": "nbcgopewy", "veil-type": "pu",
    "veil-color": "nowy", "ring-number": "not", "ring-type": "ceflnpsz", "spore-print-color": "knbhrouwy",
    "population": "acnsvy", "habitat": "glmpuwd",
}

# Accuracy targets of the issue (mean test accuracy), and a correct reference implementation's numbers.
TARGETS: dict[str, tuple[float, float, float]] = {
    # dataset: (epsilon, target, reference)
    "adult": (1.0, 0.80, 0.838),
    "mushroom": (1.0, 0.93, 0.937),
    "house votes": (1.0, 0.86, 0.871),
    "skin": (0.1, 0.92, 0.922),
}


@dataclass
class Dataset:
    """A dataset loaded as tables ``<name>_train`` / ``<name>_test`` (id, cls text, attrs <type>[])."""

    name: str
    table: str
    elem: str  # float8 or text
    num_attrs: int
    numeric: list[int]  # 1-based positions of numeric attributes
    bounds: list[tuple[float, float]]  # in the order of ``numeric``
    domain: list[tuple[int, str]]  # (attr, value): attr 0 = class
    train: list[tuple[int, str, list[Any]]] = field(default_factory=list)
    test: list[tuple[int, str, list[Any]]] = field(default_factory=list)
    domain_note: str = ""


def _read(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _split(rows: list[Any], seed: int = SPLIT_SEED) -> tuple[list[Any], list[Any]]:
    ids = list(range(len(rows)))
    test = set(random.Random(seed).sample(ids, k=round(len(rows) * 0.1)))
    return [r for i, r in enumerate(rows) if i not in test], [r for i, r in enumerate(rows) if i in test]


def load_adult(data: Path) -> Dataset:
    """Adult: 6 numeric attributes, then 8 categorical ones coded 1..k in adult.names' order."""
    codes = {a: {v: float(i) for i, v in enumerate(vals, start=1)} for a, vals in ADULT_DOMAIN.items()}

    def row(i: int, r: dict[str, str]) -> tuple[int, str, list[Any]]:
        attrs: list[Any] = [float(r[a]) for a in ADULT_NUMERIC]
        attrs += [codes[a].get(r[a]) for a in ADULT_CATEGORICAL]  # '?' (missing) -> None
        return (i, r["income"].rstrip("."), attrs)

    train = [row(i, r) for i, r in enumerate(_read(data / "adult_train.csv"))]
    test = [row(i, r) for i, r in enumerate(_read(data / "adult_test.csv"))]
    domain = [(0, "<=50K"), (0, ">50K")]
    for j, a in enumerate(ADULT_CATEGORICAL, start=len(ADULT_NUMERIC) + 1):
        domain += [(j, str(int(c))) for c in codes[a].values()]
    return Dataset(
        "adult", "adult", "float8", 14, list(range(1, 7)), [ADULT_BOUNDS[a][:2] for a in ADULT_NUMERIC], domain,
        train, test, "UCI adult.names value lists",
    )


def load_mushroom(data: Path) -> Dataset:
    rows = _read(data / "mushroom.csv")
    attrs = list(MUSHROOM_DOMAIN)
    recs = [(i, r["edibility"], [None if r[a] == "?" else r[a] for a in attrs]) for i, r in enumerate(rows)]
    train, test = _split(recs)
    domain = [(0, "e"), (0, "p")] + [(j, v) for j, a in enumerate(attrs, start=1) for v in MUSHROOM_DOMAIN[a]]
    return Dataset("mushroom", "mushroom", "text", 22, [], [], domain, train, test, "UCI agaricus-lepiota.names letter codes")


def load_house_votes(data: Path) -> Dataset:
    rows = _read(data / "house_votes_84.csv")
    votes = [f"V{i}" for i in range(1, 17)]
    recs = [(i, r["Class"], [None if r[v] == "NA" else r[v] for v in votes]) for i, r in enumerate(rows)]
    train, test = _split(recs)
    domain = [(0, "democrat"), (0, "republican")] + [(j, v) for j in range(1, 17) for v in ("y", "n")]
    return Dataset("house votes", "house_votes", "text", 16, [], [], domain, train, test, "y/n votes, UCI house-votes-84.names")


def load_skin(data: Path) -> Dataset:
    rows = _read(data / "skin_segmentation.csv")
    recs = [(i, r["skin"], [float(r["r"]), float(r["g"]), float(r["b"])]) for i, r in enumerate(rows)]
    train, test = _split(recs)
    return Dataset(
        "skin", "skin", "float8", 3, [1, 2, 3], [(0, 255)] * 3, [(0, "1"), (0, "2")], train, test,
        "classes 1, 2 (UCI); RGB bounds [0, 255]",
    )


LOADERS: dict[str, Callable[[Path], Dataset]] = {
    "adult": load_adult, "mushroom": load_mushroom, "house votes": load_house_votes, "skin": load_skin,
}
# The CSV files each loader reads from the data folder.
FILES: dict[str, tuple[str, ...]] = {
    "adult": ("adult_train.csv", "adult_test.csv"), "mushroom": ("mushroom.csv",),
    "house votes": ("house_votes_84.csv",), "skin": ("skin_segmentation.csv",),
}


def source_checkout() -> Path | None:
    """The root of the source checkout this module runs from, or None when madnb is installed (a wheel)."""
    root = Path(__file__).resolve().parents[1]
    return root if (root / "pyproject.toml").is_file() and (root / "sql").is_dir() else None


def default_data() -> Path | None:
    """``../shared/data`` next to a source checkout, if it exists; otherwise None (``--data`` is required)."""
    root = source_checkout()
    data = root.parent / "shared" / "data" if root is not None else None
    return data if data is not None and data.is_dir() else None


def default_out() -> Path:
    """``docs/`` of a source checkout, otherwise the current directory."""
    root = source_checkout()
    return root / "docs" if root is not None else Path.cwd()


class CurveError(Exception):
    """A problem the user can fix (missing data, missing matplotlib, bad option): one line, exit status 2."""


def check_plotting() -> None:
    """Raise :class:`CurveError` naming the extra to install if matplotlib cannot be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError as e:
        raise CurveError(
            f"matplotlib is needed to draw privacy_curve.png but cannot be imported ({e}): "
            f"install the '{PLOT_EXTRA}' extra, e.g. pip install 'madnb[{PLOT_EXTRA}]'"
        ) from e


def check_data(data: Path | None, names: Sequence[str]) -> Path:
    """The data folder, after checking that it holds every CSV file of ``names``; else :class:`CurveError`."""
    if data is None:
        raise CurveError(
            "no data folder: give --data FOLDER, a folder with the UCI CSV files "
            + ", ".join(f for n in names for f in FILES[n])
        )
    if not data.is_dir():
        raise CurveError(f"data folder {data} does not exist (--data)")
    missing = [f for n in names for f in FILES[n] if not (data / f).is_file()]
    if missing:
        raise CurveError(f"data folder {data} lacks {', '.join(missing)} (use --only to run fewer datasets)")
    return data


def load(data: Path, name: str) -> Dataset:
    """Dataset ``name`` from the data folder; a file that does not read as expected is a :class:`CurveError`."""
    try:
        return LOADERS[name](data)
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        raise CurveError(f"cannot read dataset {name} from {data}: {e}") from e
    except KeyError as e:
        raise CurveError(f"cannot read dataset {name} from {data}: no column {e} in {', '.join(FILES[name])}") from e
    except ValueError as e:
        raise CurveError(f"cannot read dataset {name} from {data}: {e}") from e


def create_tables(conn: psycopg.Connection[Any], d: Dataset) -> None:
    """``<table>_train``, ``<table>_test`` (id, cls, attrs) and ``<table>_domain`` (attr, value)."""
    for part, rows in (("train", d.train), ("test", d.test)):
        name = sql.Identifier(f"{d.table}_{part}")
        conn.execute(sql.SQL("CREATE TABLE {} (id int PRIMARY KEY, cls text NOT NULL, attrs {}[] NOT NULL)").format(
            name, sql.SQL(d.elem)))
        with conn.cursor().copy(sql.SQL("COPY {} (id, cls, attrs) FROM STDIN").format(name)) as cp:
            for r in rows:
                cp.write_row(r)
        conn.execute(sql.SQL("ANALYZE {}").format(name))
    dom = sql.Identifier(f"{d.table}_domain")
    conn.execute(sql.SQL("CREATE TABLE {} (attr int NOT NULL, value text NOT NULL)").format(dom))
    with conn.cursor().copy(sql.SQL("COPY {} (attr, value) FROM STDIN").format(dom)) as cp:
        for entry in d.domain:
            cp.write_row(entry)


def _names(tag: str) -> tuple[sql.Identifier, ...]:
    """Model tables and view of one task (tasks run side by side on separate connections)."""
    return tuple(sql.Identifier(f"pc_{tag}_{part}") for part in ("fp", "np", "cp", "classify"))


def _train(conn: psycopg.Connection[Any], d: Dataset, epsilon: float | None, tag: str) -> None:
    fp, np_, cp, _ = _names(tag)
    conn.execute(sql.SQL("DROP TABLE IF EXISTS {}, {}, {}").format(fp, np_, cp))
    train = f"{d.table}_train"
    dp = (
        sql.SQL(", epsilon => {}, bounds => {}, domain => {}").format(
            sql.Literal(epsilon), sql.Literal([[float(x) for x in b] for b in d.bounds] or None),
            sql.Literal(f"{d.table}_domain"))
        if epsilon is not None else sql.SQL("")
    )
    if d.numeric:
        q = sql.SQL(
            "SELECT madnb.create_nb_prepared_data_tables({}, 'cls', 'attrs', {}, {}, {}, {}, {}{})"
        ).format(sql.Literal(train), sql.Literal(",".join(map(str, d.numeric))), sql.Literal(d.num_attrs),
                 sql.Literal(fp.as_string(conn)), sql.Literal(np_.as_string(conn)), sql.Literal(cp.as_string(conn)), dp)
    else:
        q = sql.SQL(
            "SELECT madnb.create_nb_prepared_data_tables({}, 'cls', 'attrs', {}, {}, {}{})"
        ).format(sql.Literal(train), sql.Literal(d.num_attrs), sql.Literal(fp.as_string(conn)),
                 sql.Literal(cp.as_string(conn)), dp)
    conn.execute(q)


def accuracy(conn: psycopg.Connection[Any], d: Dataset, epsilon: float | None, tag: str = "main") -> float:
    """Train (privately unless ``epsilon`` is None) and return the test accuracy."""
    _train(conn, d, epsilon, tag)
    fp, np_, cp, view = (n.as_string(conn) for n in _names(tag))
    conn.execute(sql.SQL("DROP VIEW IF EXISTS {}").format(_names(tag)[3]))
    test = f"{d.table}_test"
    if d.numeric:
        conn.execute(
            "SELECT madnb.create_nb_classify_view(%s, %s, %s, 'id', 'attrs', %s, %s, %s)",
            (fp, cp, test, d.num_attrs, np_, view),
        )
    else:
        conn.execute(
            "SELECT madnb.create_nb_classify_view(%s, %s, %s, 'id', 'attrs', %s, %s)",
            (fp, cp, test, d.num_attrs, view),
        )
    row = conn.execute(
        sql.SQL(
            # MATERIALIZED: score every row once, then compare (a join into the view can be planned per row)
            "WITH c AS MATERIALIZED (SELECT * FROM {}) "
            "SELECT avg((c.nb_classification[1] = t.cls)::int)::float8 FROM c JOIN {} AS t ON t.id = c.key"
        ).format(_names(tag)[3], sql.Identifier(test))
    ).fetchone()
    assert row is not None
    conn.execute(sql.SQL("DROP VIEW {}").format(_names(tag)[3]))
    return float(row[0])


@dataclass
class Curve:
    dataset: Dataset
    exact: float
    runs: dict[float, list[float]]

    def mean(self, eps: float) -> float:
        return statistics.fmean(self.runs[eps])

    def sd(self, eps: float) -> float:
        xs = self.runs[eps]
        return statistics.stdev(xs) if len(xs) > 1 else 0.0


def run(
    url: str, datasets: Sequence[Dataset], reps: int, epsilons: Sequence[float] = EPSILONS, jobs: int = 2,
    progress: Callable[[str], None] = lambda s: None,
) -> list[Curve]:
    """The curves: exact accuracy and ``reps`` private accuracies per epsilon.

    The (dataset, epsilon) tasks run on ``jobs`` connections side by side.
    """
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SET client_min_messages = error")  # the ledger records every release; no per-run chatter
        exact = {}
        for d in datasets:
            create_tables(conn, d)
            exact[d.name] = accuracy(conn, d, None)
    local = threading.local()
    opened: list[psycopg.Connection[Any]] = []
    lock = threading.Lock()

    def task(d: Dataset, i: int, eps: float) -> list[float]:
        if not hasattr(local, "conn"):
            local.conn = psycopg.connect(url, autocommit=True)
            local.conn.execute("SET client_min_messages = error")
            with lock:
                opened.append(local.conn)
        t0 = time.monotonic()
        out = [accuracy(local.conn, d, eps, tag=f"{d.table}_{i}") for _ in range(reps)]
        progress(f"{d.name}, epsilon {eps:g}: {reps} private models in {time.monotonic() - t0:.0f} s")
        return out

    try:
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            futures = {(d.name, eps): pool.submit(task, d, i, eps) for d in datasets for i, eps in enumerate(epsilons)}
            runs = {key: f.result() for key, f in futures.items()}
    finally:
        for c in opened:
            c.close()
    return [Curve(d, exact[d.name], {eps: runs[(d.name, eps)] for eps in epsilons}) for d in datasets]


def markdown(curves: list[Curve], reps: int, seconds: float, jobs: int = 1) -> str:
    """The table: mean (sd) test accuracy per epsilon and dataset, the non-private line, the targets."""
    eps = sorted(curves[0].runs)
    head = "| epsilon | " + " | ".join(c.dataset.name for c in curves) + " |"
    lines = [
        "# Accuracy against epsilon",
        "",
        f"Generated by `madnb privacy-curve` (`make privacy-curve`): mean test accuracy (standard deviation) over "
        f"{reps} private trainings per cell, each drawing fresh noise from the OS CSPRNG; {seconds:.0f} s in all "
        f"({jobs} connection(s) training side by side). "
        "The last row is the non-private model (epsilon NULL), the dashed line of the plot.",
        "",
        f"To reproduce from an installed madnb: `pip install 'madnb[{PLOT_EXTRA}]'`, then "
        "`madnb privacy-curve --data FOLDER --out FOLDER` (the data folder holds "
        + ", ".join(f"`{f}`" for fs in FILES.values() for f in fs) + ").",
        "",
        head,
        "|---|" + "---|" * len(curves),
    ]
    for e in eps:
        lines.append(f"| {e:g} | " + " | ".join(f"{c.mean(e):.3f} ({c.sd(e):.3f})" for c in curves) + " |")
    lines.append("| non-private | " + " | ".join(f"{c.exact:.3f}" for c in curves) + " |")
    lines += ["", "Targets of the issue (a correct reference implementation reaches the last column):", "",
              "| dataset | epsilon | target | madnb | reference |", "|---|---|---|---|---|"]
    for c in curves:
        if c.dataset.name in TARGETS:
            e, target, ref = TARGETS[c.dataset.name]
            if e in c.runs:
                m = c.mean(e)
                lines.append(f"| {c.dataset.name} | {e:g} | {target:.2f} | {m:.3f} {'ok' if m >= target else 'MISSED'} | {ref:.3f} |")
    lines += ["", "Data, splits and public knowledge:", ""]
    for c in curves:
        d = c.dataset
        b = ", ".join(f"{lo:g}..{hi:g}" for lo, hi in d.bounds)
        lines.append(
            f"* {d.name}: {len(d.train)} training / {len(d.test)} test rows; "
            f"{d.num_attrs - len(d.numeric)} categorical, {len(d.numeric)} numeric attributes; "
            f"domain: {d.domain_note}" + (f"; bounds {b}" if b else "")
        )
    lines += ["", "Adult's bounds and why they are public:", ""]
    lines += [f"* {a}: [{lo:g}, {hi:g}]: {why}" for a, (lo, hi, why) in ADULT_BOUNDS.items()]
    return "\n".join(lines) + "\n"


def plot(curves: list[Curve], path: Path) -> None:
    """Mean accuracy against epsilon (log scale), one panel per dataset, non-private accuracy dashed."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(curves), figsize=(4 * len(curves), 3.4), squeeze=False)
    for ax, c in zip(axes[0], curves, strict=True):
        eps = sorted(c.runs)
        means = [c.mean(e) for e in eps]
        sds = [c.sd(e) for e in eps]
        ax.errorbar(eps, means, yerr=sds, marker="o", capsize=3, label="madnb, epsilon-DP")
        ax.axhline(c.exact, linestyle="--", color="grey", label="non-private")
        ax.set_xscale("log")
        ax.set_title(c.dataset.name)
        ax.set_xlabel("epsilon")
        ax.set_ylim(0.0, 1.0)
        ax.grid(True, alpha=0.3)
    axes[0][0].set_ylabel("test accuracy")
    axes[0][0].legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``madnb privacy-curve``."""
    p.add_argument("--reps", type=int, default=DEFAULT_REPS, help=f"private trainings per epsilon and dataset (default {DEFAULT_REPS})")
    p.add_argument(
        "--data", type=Path,
        help="folder with the UCI CSV files (" + ", ".join(f for fs in FILES.values() for f in fs)
        + "); required unless run from a source checkout with ../shared/data",
    )
    p.add_argument(
        "--out", type=Path,
        help="folder for privacy_curve.md and privacy_curve.png (default: docs/ in a source checkout, else the current directory)",
    )
    p.add_argument("--only", help="comma-separated datasets: " + ", ".join(LOADERS))
    p.add_argument("--jobs", type=int, default=2, help="connections training side by side (default 2)")
    p.add_argument("--dsn", help="use this database (madnb installed, no tables of the same names) instead of a throwaway cluster")


def run_command(args: argparse.Namespace) -> int:
    """Run ``madnb privacy-curve`` with parsed options; a :class:`CurveError` is one line on stderr, status 2."""
    try:
        return _run(args)
    except CurveError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    names = [s.strip() for s in args.only.split(",")] if args.only else list(LOADERS)
    unknown = [n for n in names if n not in LOADERS]
    if unknown:
        raise CurveError(f"unknown dataset(s): {', '.join(unknown)} (choose from {', '.join(LOADERS)})")
    if args.reps < 2:
        raise CurveError("--reps must be at least 2")
    # Everything a user can fix is checked before the (long) run starts.
    check_plotting()
    data = check_data(args.data if args.data is not None else default_data(), names)
    out: Path = args.out if args.out is not None else default_out()
    datasets = [load(data, n) for n in names]

    def say(s: str) -> None:
        print(s, file=sys.stderr, flush=True)

    t0 = time.monotonic()
    if args.dsn:
        curves = run(args.dsn, datasets, args.reps, jobs=args.jobs, progress=say)
    else:
        with LocalCluster() as pg:
            with psycopg.connect(pg.url, autocommit=True) as conn:
                install(conn)
            curves = run(pg.url, datasets, args.reps, jobs=args.jobs, progress=say)
    text = markdown(curves, args.reps, time.monotonic() - t0, args.jobs)
    try:
        out.mkdir(parents=True, exist_ok=True)
        (out / "privacy_curve.md").write_text(text, encoding="utf-8")
        plot(curves, out / "privacy_curve.png")
    except OSError as e:
        print(text)
        raise CurveError(f"cannot write the results to {out} (--out): {e}") from e
    print(text)
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m madnb.privacy_curve``: the same as ``madnb privacy-curve``."""
    p = argparse.ArgumentParser(prog=PROG, description="accuracy against epsilon on four UCI datasets")
    add_arguments(p)
    return run_command(p.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
