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
import math
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
    return scored_accuracy(conn, d, tag)


def scored_accuracy(conn: psycopg.Connection[Any], d: Dataset, tag: str) -> float:
    """The test accuracy of the model tables of task ``tag`` (:func:`_names`), scored by the classify view."""
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


# ---------------------------------------------------------------------------
# The federated panel (``--federated``): N owners, plain private federation beside secure aggregation
# ---------------------------------------------------------------------------

FEDERATED_EPSILONS = (0.1, 0.3, 1.0, 3.0, 10.0)
FEDERATED_OWNERS = (1, 10, 100)
FEDERATED_DATASETS = ("adult", "mushroom")
FEDERATED_REPS = 30
SERVERS = 2  # aggregation servers of secure aggregation
# plain federation; secure aggregation with the owners' noise => 'once' (one central release's noise in the sum);
# and, at the largest N only, with noise => 'each' (each server adds one central release's noise): the trade-off
PLAIN, SECURE, SECURE_EACH = "plain", "secure", "secure 'each'"
# The targets for secure aggregation at 100 owners (epsilon, accuracy at least), and its tolerance
# against the one-owner (central) figure at every epsilon.
FEDERATED_TARGETS: dict[str, tuple[float, float]] = {"adult": (0.1, 0.81), "mushroom": (1.0, 0.93)}
FEDERATED_TOLERANCE = 0.01
# The paper's scheme (Marchioro et al., 2022): (epsilon, one owner, 100 owners).
PAPER_FEDERATED: dict[str, tuple[float, float, float]] = {"adult": (0.1, 0.817, 0.738), "mushroom": (1.0, 0.937, 0.904)}


def owner_tables(conn: psycopg.Connection[Any], d: Dataset, n: int) -> list[str]:
    """The training set split into ``n`` disjoint owners of (almost) equal size: tables ``<table>_n<n>_o<k>``.

    The split is a seeded shuffle (the same on every run); the tables have the columns of ``<table>_train``.
    """
    order = list(range(len(d.train)))
    random.Random(SPLIT_SEED + n).shuffle(order)
    names = [f"{d.table}_n{n}_o{k}" for k in range(1, n + 1)]
    for k, name in enumerate(names):
        ident = sql.Identifier(name)
        conn.execute(sql.SQL("CREATE TABLE {} (id int PRIMARY KEY, cls text NOT NULL, attrs {}[] NOT NULL)").format(
            ident, sql.SQL(d.elem)))
        with conn.cursor().copy(sql.SQL("COPY {} (id, cls, attrs) FROM STDIN").format(ident)) as cp:
            for i in order[k::n]:
                cp.write_row(d.train[i])
        conn.execute(sql.SQL("ANALYZE {}").format(ident))
    return names


def _owner_release(
    conn: psycopg.Connection[Any], d: Dataset, function: str, source: str, dest: sql.Composable, epsilon: float,
    extra: sql.Composable | None = None,
) -> None:
    """``madnb.<function>`` (create_nb_statistics or create_nb_statistics_shares) of one owner at ``epsilon``."""
    privacy = sql.SQL("epsilon => {}, bounds => {}, domain => {}").format(
        sql.Literal(epsilon), sql.Literal([[float(x) for x in b] for b in d.bounds] or None), sql.Literal(f"{d.table}_domain"))
    numeric = sql.SQL("{}, ").format(sql.Literal(",".join(map(str, d.numeric)))) if d.numeric else sql.SQL("")
    conn.execute(sql.SQL("SELECT madnb.{}({}, 'cls', 'attrs', {}{}, {}, {}{})").format(
        sql.Identifier(function), sql.Literal(source), numeric, sql.Literal(d.num_attrs), dest, privacy, extra or sql.SQL("")))


def _drop_model(conn: psycopg.Connection[Any], tag: str) -> None:
    """The model tables of task ``tag`` and the statistics their model kept (schema madnb_statistics)."""
    fp, np_, cp, _ = _names(tag)
    kept = sql.Identifier("madnb_statistics", f"public.pc_{tag}_fp")
    conn.execute(sql.SQL("DROP TABLE IF EXISTS {}, {}, {}, {}").format(fp, np_, cp, kept))


def _model_tables(conn: psycopg.Connection[Any], d: Dataset, tag: str) -> sql.Composable:
    """The model tables' names as the three destination arguments (the numeric one NULL without numeric attributes)."""
    fp, np_, cp, _ = (sql.Literal(n.as_string(conn)) for n in _names(tag))
    return sql.SQL("{}, {}, {}").format(fp, np_ if d.numeric else sql.SQL("NULL"), cp)


def _array(names: Sequence[str]) -> sql.Composable:
    return sql.SQL("ARRAY[{}]::text[]").format(sql.SQL(", ").join(sql.Literal(n) for n in names))


def plain_federated_accuracy(conn: psycopg.Connection[Any], d: Dataset, owners: Sequence[str], epsilon: float, tag: str) -> float:
    """Plain private federation: each owner's own private statistics, merged by create_nb_model_from_statistics."""
    parts = [f"pc_{tag}_part{k}" for k in range(1, len(owners) + 1)]
    conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(sql.SQL(", ").join(sql.Identifier(p) for p in parts)))
    for owner, part in zip(owners, parts, strict=True):
        _owner_release(conn, d, "create_nb_statistics", owner, sql.Literal(part), epsilon)
    _drop_model(conn, tag)
    conn.execute(sql.SQL("SELECT madnb.create_nb_model_from_statistics({}, {})").format(_array(parts), _model_tables(conn, d, tag)))
    return scored_accuracy(conn, d, tag)


def secure_shares(
    conn: psycopg.Connection[Any], d: Dataset, owners: Sequence[str], epsilon: float, tag: str, noise: str = "once",
) -> list[list[str]]:
    """Every owner's private shares (create_nb_statistics_shares, owners => N, noise => ``noise``): the share tables of each server."""
    tables = [[f"pc_{tag}_o{k}_s{j}" for k in range(1, len(owners) + 1)] for j in range(1, SERVERS + 1)]
    for k, owner in enumerate(owners):
        dests = [server[k] for server in tables]
        _owner_release(conn, d, "create_nb_statistics_shares", owner, _array(dests), epsilon,
                       sql.SQL(", owners => {}, noise => {}").format(sql.Literal(len(owners)), sql.Literal(noise)))
    return tables


def secure_accuracy(conn: psycopg.Connection[Any], d: Dataset, shares: list[list[str]], tag: str) -> float:
    """Secure aggregation from the owners' share tables: each server's share sum (its noise drawn afresh), the model."""
    sums = [f"pc_{tag}_sum{j}" for j in range(1, len(shares) + 1)]
    conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(sql.SQL(", ").join(sql.Identifier(s) for s in sums)))
    for server, dest in zip(shares, sums, strict=True):
        conn.execute(sql.SQL("SELECT madnb.create_nb_share_sum({}, {})").format(_array(server), sql.Literal(dest)))
    _drop_model(conn, tag)
    conn.execute(sql.SQL("SELECT madnb.create_nb_model_from_shares({}, {})").format(_array(sums), _model_tables(conn, d, tag)))
    return scored_accuracy(conn, d, tag)


@dataclass
class FederatedCurve:
    """One dataset's federated panel: the non-private accuracy, and the private runs per (mode, owners, epsilon)."""

    dataset: Dataset
    exact: float
    runs: dict[tuple[str, int, float], list[float]]

    def mean(self, mode: str, n: int, eps: float) -> float:
        return statistics.fmean(self.runs[(mode, n, eps)])

    def sd(self, mode: str, n: int, eps: float) -> float:
        xs = self.runs[(mode, n, eps)]
        return statistics.stdev(xs) if len(xs) > 1 else 0.0

    @property
    def owners(self) -> list[int]:
        return sorted({n for _, n, _ in self.runs})

    def se_difference(self, mode: str, n: int, eps: float) -> float:
        """The standard error of mean(mode, n, eps) less the one-owner figure (independent runs)."""
        a, b = self.runs[(mode, n, eps)], self.runs[(PLAIN, 1, eps)]
        return math.sqrt(self.sd(mode, n, eps) ** 2 / len(a) + self.sd(PLAIN, 1, eps) ** 2 / len(b))

    @property
    def epsilons(self) -> list[float]:
        return sorted({e for _, _, e in self.runs})

    def central(self, eps: float) -> float:
        """The one-owner figure: plain federation of one owner, a central release."""
        return self.mean(PLAIN, 1, eps)


def run_federated(
    url: str, datasets: Sequence[Dataset], reps: int, owners: Sequence[int] = FEDERATED_OWNERS,
    epsilons: Sequence[float] = FEDERATED_EPSILONS, jobs: int = 2, progress: Callable[[str], None] = lambda s: None,
) -> list[FederatedCurve]:
    """The federated panels: for every dataset, number of owners and epsilon, ``reps`` models of each mode.

    Plain: every run, each owner releases its private statistics afresh.  Secure (noise 'once'; at the largest
    N also noise 'each'): each owner's shares are released once per (owners, epsilon) -- they carry no noise,
    and reconstruction cancels their randomness exactly -- and every run makes both servers' share sums afresh,
    which is where all the noise is drawn.  The (dataset, owners, epsilon) tasks run on ``jobs`` connections
    side by side.
    """
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SET client_min_messages = error")
        exact = {}
        split: dict[tuple[str, int], list[str]] = {}
        for d in datasets:
            create_tables(conn, d)
            exact[d.name] = accuracy(conn, d, None, tag=f"{d.table}_exact")
            for n in owners:
                split[(d.name, n)] = owner_tables(conn, d, n)
    local = threading.local()
    opened: list[psycopg.Connection[Any]] = []
    lock = threading.Lock()

    def task(d: Dataset, n: int, i: int, eps: float) -> dict[str, list[float]]:
        if not hasattr(local, "conn"):
            local.conn = psycopg.connect(url, autocommit=True)
            local.conn.execute("SET client_min_messages = error")
            with lock:
                opened.append(local.conn)
        conn = local.conn
        tag = f"{d.table}_n{n}_e{i}"
        t0 = time.monotonic()
        plain = [plain_federated_accuracy(conn, d, split[(d.name, n)], eps, f"{tag}_p") for _ in range(reps)]
        shares = secure_shares(conn, d, split[(d.name, n)], eps, f"{tag}_s")
        out = {PLAIN: plain, SECURE: [secure_accuracy(conn, d, shares, f"{tag}_s") for _ in range(reps)]}
        if n == max(owners):
            shares = secure_shares(conn, d, split[(d.name, n)], eps, f"{tag}_x", noise="each")
            out[SECURE_EACH] = [secure_accuracy(conn, d, shares, f"{tag}_x") for _ in range(reps)]
        progress(f"{d.name}, {n} owner(s), epsilon {eps:g}: {reps} models of each of {', '.join(out)} in {time.monotonic() - t0:.0f} s")
        return out

    try:
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            # the largest federations first, so that the last tasks are short ones
            keys = [(d, n, i, eps) for n in sorted(owners, reverse=True) for d in datasets for i, eps in enumerate(epsilons)]
            futures = {(d.name, n, eps): pool.submit(task, d, n, i, eps) for d, n, i, eps in keys}
            results = {key: f.result() for key, f in futures.items()}
    finally:
        for c in opened:
            c.close()
    return [
        FederatedCurve(d, exact[d.name], {(mode, n, eps): runs for n in owners for eps in epsilons
                                          for mode, runs in results[(d.name, n, eps)].items()})
        for d in datasets
    ]


def federated_markdown(curves: list[FederatedCurve], reps: int, seconds: float, jobs: int = 1) -> str:
    """The federated panel's tables: mean (sd) per epsilon, mode and number of owners; the targets."""
    owners = curves[0].owners
    lines = [
        "# Accuracy against epsilon, federated: plain private federation beside secure aggregation",
        "",
        f"Generated by `madnb privacy-curve --federated` (`make privacy-curve-federated`): mean test accuracy "
        f"(standard deviation) over {reps} private models per cell; {seconds:.0f} s in all ({jobs} connection(s) "
        "side by side). The training set is split into N disjoint owners of equal size (a seeded shuffle).",
        "",
        "* **plain**: each owner releases its own private statistics (`madnb.create_nb_statistics` with epsilon), "
        "merged by `madnb.create_nb_model_from_statistics`: the sum holds N owners' noise. N = 1 is a central release, "
        "the one-owner figure.",
        f"* **secure**: each owner releases private shares (`madnb.create_nb_statistics_shares`, owners => N, "
        f"{SERVERS} shares, noise => 'once'), each of {SERVERS} aggregation servers sums its shares "
        "(`madnb.create_nb_share_sum`), server 1 adding a one-sided geometric noise and server 2 subtracting another, "
        "the analyst reconstructs (`madnb.create_nb_model_from_shares`): the sum holds exactly one central release's "
        "noise (a discrete Laplace) whatever N. Each owner's shares are released once per (N, epsilon) "
        "(they hold no noise, and their randomness cancels exactly); every run makes both share sums afresh, "
        "which is where all of the noise is drawn.",
        f"* **secure 'each'** (at N = {max(owners)} only): the same with noise => 'each', the default: each server "
        f"adds one central release's noise, so the sum holds {SERVERS} releases' noise whatever N, and the "
        "guarantee needs one honest server instead of both servers 1 and 2 keeping their noise "
        "(docs/privacy.md, \"Private secure aggregation\").",
        "",
        "Every owner, share, share sum and model is a table of the one throwaway database: accuracy depends on the "
        "numbers, not on where the tables are (tests/federation/test_secure_servers.py runs the same calls on "
        "separate servers).",
        "",
    ]
    big = max(owners)
    columns = [(mode, n) for mode in (PLAIN, SECURE) for n in owners] + [(SECURE_EACH, big)]
    for c in curves:
        lines += [f"## {c.dataset.name}", "",
                  "| epsilon | " + " | ".join(f"{mode} N={n}" for mode, n in columns) + " |",
                  "|---|" + "---|" * len(columns)]
        for e in c.epsilons:
            lines.append(f"| {e:g} | " + " | ".join(
                f"{c.mean(mode, n, e):.3f} ({c.sd(mode, n, e):.3f})" for mode, n in columns) + " |")
        lines += [f"| non-private | {c.exact:.3f} |" + " |" * (len(columns) - 1), ""]
    lines += [
        f"Secure aggregation (noise 'once') at N = {big} against the one-owner (central) figure (target of the issue: "
        f"within {FEDERATED_TOLERANCE} at every epsilon >= 0.1; the difference's standard error, from both cells' "
        f"{reps} runs, beside it), with noise 'each' and plain federation at N = {big}:",
        "",
        f"| dataset | epsilon | one owner | secure N={big} | difference (se) | within {FEDERATED_TOLERANCE} | "
        f"secure 'each' N={big} | its difference | plain N={big} |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for c in curves:
        for e in c.epsilons:
            one, sec, each = c.central(e), c.mean(SECURE, big, e), c.mean(SECURE_EACH, big, e)
            lines.append(f"| {c.dataset.name} | {e:g} | {one:.3f} | {sec:.3f} | {sec - one:+.3f} ({c.se_difference(SECURE, big, e):.3f}) | "
                         f"{'yes' if sec >= one - FEDERATED_TOLERANCE else 'no'} | {each:.3f} | {each - one:+.3f} | "
                         f"{c.mean(PLAIN, big, e):.3f} |")
    lines += ["", "Targets of the issue, and the paper's scheme (one owner / 100 owners):", "",
              f"| dataset | epsilon | target | secure N={big} | plain N={big} | paper, one owner | paper, 100 owners |",
              "|---|---|---|---|---|---|---|"]
    for c in curves:
        name = c.dataset.name
        if name in FEDERATED_TARGETS and FEDERATED_TARGETS[name][0] in c.epsilons:
            e, target = FEDERATED_TARGETS[name]
            _, one, hundred = PAPER_FEDERATED[name]
            sec = c.mean(SECURE, big, e)
            lines.append(f"| {name} | {e:g} | {target:.2f} | {sec:.3f} {'ok' if sec >= target else 'MISSED'} | "
                         f"{c.mean(PLAIN, big, e):.3f} | {one:.3f} | {hundred:.3f} |")
    return "\n".join(lines) + "\n"


def federated_plot(curves: list[FederatedCurve], path: Path) -> None:
    """One panel per dataset: accuracy against epsilon, a line per (mode, N); non-private dashed grey."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(curves), figsize=(5.5 * len(curves), 4), squeeze=False)
    colours = ["tab:blue", "tab:orange", "tab:red", "tab:purple"]
    for ax, c in zip(axes[0], curves, strict=True):
        eps = c.epsilons
        for colour, n in zip(colours, c.owners, strict=False):
            for mode, style, marker in ((PLAIN, ":", "s"), (SECURE, "-", "o"), (SECURE_EACH, "-.", "^")):
                if (mode, n, eps[0]) in c.runs:
                    ax.plot(eps, [c.mean(mode, n, e) for e in eps], linestyle=style, marker=marker, color=colour,
                            label=f"{mode}, N = {n}")
        ax.axhline(c.exact, linestyle="--", color="grey", label="non-private")
        ax.set_xscale("log")
        ax.set_title(f"{c.dataset.name}: N owners")
        ax.set_xlabel("epsilon")
        ax.grid(True, alpha=0.3)
    axes[0][0].set_ylabel("test accuracy")
    axes[0][0].legend(loc="lower right", fontsize=7, ncol=2)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``madnb privacy-curve``."""
    p.add_argument(
        "--reps", type=int,
        help=f"private trainings per epsilon and dataset (default {DEFAULT_REPS}; with --federated {FEDERATED_REPS} per mode and N)",
    )
    p.add_argument(
        "--federated", action="store_true",
        help="the federated panel instead: N owners, plain private federation beside secure aggregation, on "
        + ", ".join(FEDERATED_DATASETS) + " unless --only says otherwise (writes privacy_curve_federated.md and .png)",
    )
    p.add_argument(
        "--owners", help="with --federated: comma-separated numbers of owners (default "
        + ",".join(map(str, FEDERATED_OWNERS)) + "; 1 must be among them, the one-owner figure)",
    )
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


def _owners(args: argparse.Namespace) -> list[int]:
    if not args.federated:
        if args.owners:
            raise CurveError("--owners needs --federated")
        return []
    if not args.owners:
        return list(FEDERATED_OWNERS)
    try:
        owners = sorted({int(x) for x in args.owners.split(",")})
    except ValueError:
        raise CurveError(f"--owners must be comma-separated integers, got {args.owners!r}") from None
    if owners[0] != 1:
        raise CurveError("--owners must include 1 (the one-owner figure the others are compared with) and no number below it")
    return owners


def _run(args: argparse.Namespace) -> int:
    default = list(FEDERATED_DATASETS) if args.federated else list(LOADERS)
    names = [s.strip() for s in args.only.split(",")] if args.only else default
    unknown = [n for n in names if n not in LOADERS]
    if unknown:
        raise CurveError(f"unknown dataset(s): {', '.join(unknown)} (choose from {', '.join(LOADERS)})")
    reps = args.reps if args.reps is not None else (FEDERATED_REPS if args.federated else DEFAULT_REPS)
    if reps < 2:
        raise CurveError("--reps must be at least 2")
    owners = _owners(args)
    # Everything a user can fix is checked before the (long) run starts.
    check_plotting()
    data = check_data(args.data if args.data is not None else default_data(), names)
    out: Path = args.out if args.out is not None else default_out()
    datasets = [load(data, n) for n in names]

    def say(s: str) -> None:
        print(s, file=sys.stderr, flush=True)

    t0 = time.monotonic()

    def compute(url: str) -> tuple[str, Callable[[Path], None]]:
        """The table's text and the function that draws the plot."""
        if args.federated:
            fed = run_federated(url, datasets, reps, owners, jobs=args.jobs, progress=say)
            return federated_markdown(fed, reps, time.monotonic() - t0, args.jobs), lambda path: federated_plot(fed, path)
        curves = run(url, datasets, reps, jobs=args.jobs, progress=say)
        return markdown(curves, reps, time.monotonic() - t0, args.jobs), lambda path: plot(curves, path)

    if args.dsn:
        text, draw = compute(args.dsn)
    else:
        with LocalCluster() as pg:
            with psycopg.connect(pg.url, autocommit=True) as conn:
                install(conn)
            text, draw = compute(pg.url)
    stem = "privacy_curve_federated" if args.federated else "privacy_curve"
    try:
        out.mkdir(parents=True, exist_ok=True)
        (out / f"{stem}.md").write_text(text, encoding="utf-8")
        draw(out / f"{stem}.png")
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
