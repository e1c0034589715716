"""Parity on real data: scikit-learn's CategoricalNB and a numpy Gaussian computation.

Reference numbers are computed in the test from the data (scikit-learn, numpy),
never copied from madnb.
"""

from __future__ import annotations

import csv
import math

import numpy as np
import pytest
from sklearn.naive_bayes import CategoricalNB
from sklearn.preprocessing import OrdinalEncoder

from conftest import data_file


def read_csv(name: str) -> tuple[list[str], list[list[str]]]:
    with open(data_file(name), newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def load(db, table: str, rows, elem: str) -> None:
    db.execute(f"CREATE TABLE {table} (id int, label text, attrs {elem}[])")
    with db.cursor().copy(f"COPY {table} (id, label, attrs) FROM STDIN") as cp:
        for r in rows:
            cp.write_row(r)
    db.execute(f"ANALYZE {table}")


@pytest.fixture(scope="module")
def mushroom():
    header, rows = read_csv("mushroom.csv")
    labels = [r[0] for r in rows]
    feats = [r[1:] for r in rows]
    return labels, feats


@pytest.mark.parametrize("encoding", ["text", "integer codes"])
def test_probabilities_match_categorical_nb_on_mushroom(db, mushroom, encoding):
    labels, feats = mushroom
    n_attr = len(feats[0])
    enc = OrdinalEncoder(dtype=np.int64).fit(feats)
    codes = enc.transform(feats)
    if encoding == "text":
        load(db, "mush", [(i, y, x) for i, (y, x) in enumerate(zip(labels, feats))], "text")
    else:
        load(db, "mush", [(i, y, [int(v) for v in x]) for i, (y, x) in enumerate(zip(labels, codes))], "int")
    # train on a fixed 90%, score everything
    rng = np.random.default_rng(7)
    train = rng.random(len(labels)) < 0.9
    db.execute("CREATE TABLE mush_train_ids (id int)")
    with db.cursor().copy("COPY mush_train_ids FROM STDIN") as cp:
        for i in np.flatnonzero(train):
            cp.write_row((int(i),))
    db.execute("CREATE VIEW mush_train AS SELECT m.* FROM mush m JOIN mush_train_ids USING (id)")
    db.execute(f"SELECT madnb.create_nb_prepared_data_tables('mush_train', 'label', 'attrs', {n_attr}, 'fp', 'cp')")
    db.execute(f"SELECT madnb.create_nb_probs_view('fp', 'cp', 'mush', 'id', 'attrs', {n_attr}, 'pv')")
    db.execute(f"SELECT madnb.create_nb_classify_view('fp', 'cp', 'mush', 'id', 'attrs', {n_attr}, 'cv')")
    got = {(k, c): p for k, c, p in db.execute("SELECT key, class, nb_prob FROM pv")}

    # scikit-learn, fitted on the same 90% with categories as seen in training
    tr_enc = OrdinalEncoder(dtype=np.int64).fit([feats[i] for i in np.flatnonzero(train)])
    model = CategoricalNB(alpha=1.0).fit(tr_enc.transform([feats[i] for i in np.flatnonzero(train)]),
                                         [labels[i] for i in np.flatnonzero(train)])
    seen = [i for i in range(len(labels))
            if all(feats[i][a] in tr_enc.categories_[a] for a in range(n_attr))]
    assert len(seen) > 0.98 * len(labels)
    proba = model.predict_proba(tr_enc.transform([feats[i] for i in seen]))
    worst = 0.0
    for row, i in enumerate(seen):
        for j, c in enumerate(model.classes_):
            worst = max(worst, abs(got[(i, c)] - proba[row, j]))
    assert worst < 1e-9
    # every row is classified, the argmax agrees with scikit-learn where it is not a tie
    cls = dict(db.execute("SELECT key, nb_classification FROM cv").fetchall())
    assert len(cls) == len(labels)
    pred = model.predict(tr_enc.transform([feats[i] for i in seen]))
    assert all(cls[i] == [pred[row]] for row, i in enumerate(seen))


def gaussian_log_joint(train_x, train_y, test_x, classes):
    """log P(c) + sum_i log N(x_i; mean, var) from the formula: priors n_c/n, per-class
    mean and sample variance (n-1), variances floored at 1e-9 x each attribute's total
    population variance."""
    n = len(train_y)
    floor = 1e-9 * train_x.var(axis=0)
    logp = np.zeros((len(test_x), len(classes)))
    for j, c in enumerate(classes):
        xc = train_x[train_y == c]
        mu = xc.mean(axis=0)
        var = np.maximum(xc.var(axis=0, ddof=1), floor)
        logp[:, j] = math.log(len(xc) / n) + (
            -0.5 * np.log(2 * np.pi * var) - (test_x - mu) ** 2 / (2 * var)
        ).sum(axis=1)
    return logp


def normalise(logp):
    logp = logp - logp.max(axis=1, keepdims=True)
    p = np.exp(logp)
    return p / p.sum(axis=1, keepdims=True)


def test_gaussian_probabilities_match_numpy_on_skin_segmentation(db):
    header, rows = read_csv("skin_segmentation.csv")
    data = np.array(rows, dtype=float)[::10]  # every 10th row: 24,506 rows
    x, y = data[:, :3], data[:, 3].astype(int)
    load(db, "skin", [(i, str(int(y[i])), list(map(float, x[i]))) for i in range(len(y))], "float8")
    db.execute("CREATE VIEW skin_train AS SELECT * FROM skin WHERE id % 5 <> 0")
    db.execute("CREATE VIEW skin_test AS SELECT * FROM skin WHERE id % 5 = 0")
    db.execute("SELECT madnb.create_nb_prepared_data_tables('skin_train', 'label', 'attrs', '1,2,3', 3, 'fp', 'np', 'cp')")
    db.execute("SELECT madnb.create_nb_probs_view('fp', 'cp', 'skin_test', 'id', 'attrs', 3, 'np', 'pv')")
    got = {(k, c): p for k, c, p in db.execute("SELECT key, class, nb_prob FROM pv")}
    ids = np.arange(len(y))
    tr, te = ids % 5 != 0, ids % 5 == 0
    ref = normalise(gaussian_log_joint(x[tr], y[tr], x[te], [1, 2]))
    worst = max(abs(got[(int(i), str(c))] - ref[r, j]) for r, i in enumerate(ids[te]) for j, c in enumerate([1, 2]))
    assert worst < 1e-9


def test_mixed_gaussian_and_categorical_attributes_match_numpy_on_adult(db):
    header, rows = read_csv("adult_train.csv")
    numeric = [0, 2, 4, 10, 11, 12]
    categorical = [1, 3, 5, 6, 7, 8, 9, 13]
    rows = rows[:6000]
    enc = OrdinalEncoder(dtype=np.int64).fit([[r[c] for c in categorical] for r in rows])
    cats = enc.transform([[r[c] for c in categorical] for r in rows])
    nums = np.array([[float(r[c]) for c in numeric] for r in rows])
    y = np.array([r[14] for r in rows])
    # attribute array: 6 numeric first, then 8 categorical codes, all float8
    attrs = np.hstack([nums, cats.astype(float)])
    load(db, "adult", [(i, y[i], list(map(float, attrs[i]))) for i in range(len(y))], "float8")
    db.execute("CREATE VIEW adult_train AS SELECT * FROM adult WHERE id % 4 <> 0")
    db.execute("CREATE VIEW adult_test AS SELECT * FROM adult WHERE id % 4 = 0")
    db.execute("SELECT madnb.create_nb_prepared_data_tables('adult_train', 'label', 'attrs', '{1,2,3,4,5,6}', 14, 'fp', 'np', 'cp')")
    db.execute("SELECT madnb.create_nb_probs_view('fp', 'cp', 'adult_test', 'id', 'attrs', 14, 'np', 'pv')")
    got = {(k, c): p for k, c, p in db.execute("SELECT key, class, nb_prob FROM pv")}

    ids = np.arange(len(y))
    tr, te = ids % 4 != 0, ids % 4 == 0
    classes = sorted(set(y))
    # categorical part from the formula: (cnt + 1) / (n_c + distinct values of the attribute in training)
    logp = gaussian_log_joint(nums[tr], y[tr], nums[te], classes)
    for a in range(len(categorical)):
        values = sorted(set(cats[tr, a]))
        for j, c in enumerate(classes):
            in_c = cats[tr & (y == c), a]
            for r, v in enumerate(cats[te, a]):
                if v in values:
                    logp[r, j] += math.log(((in_c == v).sum() + 1) / (len(in_c) + len(values)))
    ref = normalise(logp)
    worst = max(abs(got[(int(i), c)] - ref[r, j]) for r, i in enumerate(ids[te]) for j, c in enumerate(classes))
    assert worst < 1e-9
