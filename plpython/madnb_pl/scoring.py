"""Scoring SQL: the classify and probs views.

A view reads the model tables live (MADlib's layout) and scores each row of the
classify source on its own:

* the model is reshaped once per query into one row per (attribute, value)
  holding every class's log-probability (``cat``) and one row per numeric
  attribute holding every class's Gaussian parameters (``num``);
* each source row's attributes are unnested and hash-joined to that model
  inside a LATERAL subquery (the hash table is built once and reused), summing
  one column per class;
* natural logs throughout and log-sum-exp normalisation, so thousands of
  attributes never underflow.

The number of classes K is fixed when the view is created (one sum column per
class); a view whose model later gains or loses classes raises an error asking
for it to be recreated.

Categorical: log P(a=v|c) = ln(cnt + s) - ln(n_{c,a} + s * attr_cnt), where
n_{c,a} is the number of class-c rows with attribute a present (MADlib's
class_cnt when nothing is missing) and s = 1 (Laplace).
Gaussian: log N(x; mean, var) with var floored at 1e-9 times the attribute's
total variance over the training data (scikit-learn's var_smoothing idea), so a
one-row class or a constant attribute scores instead of failing.
"""

from __future__ import annotations

from .stats import with_clause

VAR_FLOOR_FACTOR = 1e-9
MAX_CLASSES = 500


def _ln(expr: str) -> str:
    """Natural log that maps 0 (possible with smoothing 0 or noisy counts) to -Infinity."""
    return f"(CASE WHEN ({expr}) > 0 THEN pg_catalog.ln(({expr})::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END)"


def _exp(expr: str) -> str:
    """exp() that returns 0 where PostgreSQL's exp() would raise an underflow error."""
    return f"(CASE WHEN ({expr}) < -700 THEN 0::pg_catalog.float8 ELSE pg_catalog.exp({expr}) END)"


def model_shape_ctes(cp: str, fp: str, np: str | None, k: int, smoothing: float = 1.0) -> list[tuple[str, str]]:
    """CTEs reshaping model tables (cp, fp, np) into per-class columns for scoring."""
    ks = range(1, k + 1)
    s = f"{float(smoothing)!r}::pg_catalog.float8"
    ctes: list[tuple[str, str]] = [
        (
            "cls",
            "SELECT m.class, m.class_cnt, m.all_cnt, "
            "(pg_catalog.row_number() OVER (ORDER BY m.class))::pg_catalog.int4 AS pos "
            f"FROM {cp} AS m",
        ),
        (
            "meta",
            "SELECT pg_catalog.array_agg(cls.class ORDER BY cls.pos) AS classes, "
            + "".join(
                f"pg_catalog.max({_ln('cls.class_cnt::pg_catalog.float8 / cls.all_cnt')}) FILTER (WHERE cls.pos = {i}) AS p{i}, "
                for i in ks
            )
            + f"madnb._check_class_count(pg_catalog.count(*), {k}) AS checked FROM cls",
        ),
        (
            "catl",
            "SELECT f.attr, f.value, c.pos, "
            f"{_ln(f'f.cnt + {s}')} - "
            f"{_ln(f'pg_catalog.sum(f.cnt) OVER (PARTITION BY f.class, f.attr) + {s} * f.attr_cnt')} AS lp "
            f"FROM {fp} AS f JOIN cls AS c ON c.class = f.class",
        ),
        (
            "cat",
            "SELECT catl.attr, catl.value, "
            + ", ".join(f"pg_catalog.max(catl.lp) FILTER (WHERE catl.pos = {i}) AS l{i}" for i in ks)
            + " FROM catl GROUP BY catl.attr, catl.value",
        ),
    ]
    if np is not None:
        ctes += [
            (
                "numb",
                "SELECT n.attr, c.pos, n.attr_mean AS mu, n.attr_var AS var, n.value_cnt AS cnt "
                f"FROM {np} AS n JOIN cls AS c ON c.class = n.class",
            ),
            (
                "numg",
                "SELECT numb.attr, pg_catalog.sum(numb.cnt * numb.mu) / pg_catalog.sum(numb.cnt) AS gm, "
                "pg_catalog.sum(numb.cnt) AS tot FROM numb WHERE numb.cnt > 0 GROUP BY numb.attr",
            ),
            (
                "numf",
                "SELECT b.attr, pg_catalog.sum(GREATEST(b.cnt - 1, 0) * COALESCE(b.var, 0) "
                "+ b.cnt * (b.mu - g.gm) * (b.mu - g.gm)) / g.tot AS total_var "
                "FROM numb AS b JOIN numg AS g ON g.attr = b.attr WHERE b.cnt > 0 GROUP BY b.attr, g.tot",
            ),
            (
                "numw",
                "SELECT b.attr, b.pos, b.mu, GREATEST(COALESCE(b.var, 0), "
                f"CASE WHEN f.total_var > 0 THEN {VAR_FLOOR_FACTOR!r} * f.total_var ELSE 1 END) AS w "
                "FROM numb AS b JOIN numf AS f ON f.attr = b.attr WHERE b.cnt > 0",
            ),
            (
                "num",
                "SELECT numw.attr, "
                + ", ".join(
                    f"pg_catalog.max(numw.mu) FILTER (WHERE numw.pos = {i}) AS m{i}, "
                    f"pg_catalog.max(0.5 / numw.w) FILTER (WHERE numw.pos = {i}) AS h{i}, "
                    f"pg_catalog.max(-0.5 * pg_catalog.ln(2 * pg_catalog.pi() * numw.w)) FILTER (WHERE numw.pos = {i}) AS a{i}"
                    for i in ks
                )
                + " FROM numw GROUP BY numw.attr",
            ),
        ]
    return ctes


def view_sql(
    *,
    prefix: list[tuple[str, str]],
    cp: str,
    fp: str,
    np: str | None,
    k: int,
    source: str,
    key: str,
    attrs: str,
    num_attrs: int,
    kind: str,
    smoothing: float = 1.0,
) -> str:
    """The SELECT of a classify (``kind='classify'``) or probs (``kind='probs'``) view."""
    ks = range(1, k + 1)
    ctes = prefix + model_shape_ctes(cp, fp, np, k, smoothing)
    if np is None:
        term = "c.l{i}"
        joins = "JOIN cat AS c ON c.attr = u.o AND c.value = u.v"
    else:
        term = "COALESCE(c.l{i}, n.a{i} - (u.v::pg_catalog.float8 - n.m{i}) * (u.v::pg_catalog.float8 - n.m{i}) * n.h{i})"
        joins = "LEFT JOIN cat AS c ON c.attr = u.o AND c.value = u.v LEFT JOIN num AS n ON n.attr = u.o"
    sums = ", ".join(f"pg_catalog.sum({term.format(i=i)}) AS s{i}" for i in ks)
    ls = ", ".join(f"meta.p{i} + COALESCE(z.s{i}, 0) AS l{i}" for i in ks)
    scored = (
        f"SELECT src.{key} AS key, meta.classes, {ls} "
        f"FROM {source} AS src CROSS JOIN meta CROSS JOIN LATERAL ("
        f"SELECT {sums} FROM pg_catalog.unnest(src.{attrs}) WITH ORDINALITY AS u(v, o) {joins} "
        f"WHERE u.o <= {int(num_attrs)}) AS z"
    )
    greatest = f"GREATEST({', '.join(f'q.l{i}' for i in ks)})"
    if kind == "classify":
        picks = ", ".join(f"CASE WHEN q.l{i} = q.mx THEN q.classes[{i}] END" for i in ks)
        body = (
            f"SELECT q.key, pg_catalog.array_remove(ARRAY[{picks}], NULL) AS nb_classification "
            f"FROM (SELECT q.*, {greatest} AS mx FROM scored AS q) AS q"
        )
    elif kind == "probs":
        probs = ", ".join(_exp(f"q.l{i} - q.mx - q.lse") for i in ks)
        lse = " + ".join(_exp(f"q.l{i} - q.mx") for i in ks)
        body = (
            "SELECT q.key, x.class, x.nb_prob FROM ("
            f"SELECT q.*, pg_catalog.ln({lse}) AS lse "
            f"FROM (SELECT q.*, {greatest} AS mx FROM scored AS q) AS q"
            f") AS q CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(q.classes), pg_catalog.unnest(ARRAY[{probs}])) AS x(class, nb_prob)"
        )
    else:  # pragma: no cover
        raise ValueError(kind)
    return with_clause(ctes + [("scored", scored)]) + body
