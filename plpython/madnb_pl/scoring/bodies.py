"""The two view bodies over the log-likelihood rows (key, classes, ok, l1..lK): classify and probs."""

from __future__ import annotations

from .common import CASE_PICK_MAX_CLASSES, shifted_or_null, tie_threshold


def _greatest(ks: range) -> str:
    return f"GREATEST({', '.join(f'q.l{i}' for i in ks)})"


def classify(k: int, log_likelihoods: str) -> str:
    """Every class within TIE_TOLERANCE of the best, in class order; NULL for a row that is not ok."""
    ks = range(1, k + 1)
    greatest = _greatest(ks)
    threshold = tie_threshold(greatest)
    picks = ", ".join(f"CASE WHEN q.l{i} >= q.thr THEN q.classes[{i}] END" for i in ks)
    return (
        f"SELECT q.key, CASE WHEN q.ok THEN pg_catalog.array_remove(ARRAY[{picks}], NULL) END AS nb_classification "
        f"FROM (SELECT q.*, {threshold} AS thr FROM ({log_likelihoods}) AS q OFFSET 0) AS q"
    )


def probs(k: int, log_likelihoods: str) -> str:
    """K rows (key, class, nb_prob) per source row; NULL probabilities for a row that is not ok."""
    ks = range(1, k + 1)
    greatest = _greatest(ks)
    # K output rows per source row from a join with 1..K (a set-returning function
    # in the select list costs about 1 us per row more).  Per source row, in levels
    # kept apart by OFFSET 0 so that each is computed once: mx, then d_i = l_i - mx
    # (NULL where exp() would underflow: probability 0), then lse.  Per output row
    # only class i's d_i is picked (a CASE, or for many classes an array) and
    # exponentiated once.
    ds = ", ".join(f"{shifted_or_null(f'q.l{i}', 'q.mx')} AS d{i}" for i in ks)
    lse = " + ".join(f"COALESCE(pg_catalog.exp(q.d{i}), 0)" for i in ks)
    if k <= CASE_PICK_MAX_CLASSES:
        pick, per_row = "CASE c.i " + " ".join(f"WHEN {i} THEN q.d{i}" for i in ks) + " END", ""
    else:
        pick, per_row = "q.ds[c.i]", f", ARRAY[{', '.join(f'q.d{i}' for i in ks)}] AS ds"
    return (
        f"SELECT q.key, q.classes[c.i] AS class, "
        f"CASE WHEN q.ok THEN COALESCE(pg_catalog.exp({pick} - q.lse), 0) END AS nb_prob FROM ("
        f"SELECT q.*, pg_catalog.ln({lse}) AS lse{per_row} FROM ("
        f"SELECT q.key, q.classes, q.ok, {ds} FROM (SELECT q.*, {greatest} AS mx FROM ({log_likelihoods}) AS q OFFSET 0) AS q "
        "OFFSET 0) AS q OFFSET 0"
        f") AS q CROSS JOIN pg_catalog.generate_series(1, {k}) AS c(i)"
    )
