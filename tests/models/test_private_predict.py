"""Private prediction (issue 20, part 2): madnb.private_predict and the generated <model>_score_share.

Real servers: the session's cluster (``db``), databases on the remote clusters
(``remote_dbs``, madnb installed or not) and a database without madnb on the
session's cluster (``empty_db``, an exported script).  Expected values: the
model's own ``_predict_proba`` on each server, and scikit-learn's estimators
fitted in the test on the same rows.
"""

from __future__ import annotations

import math
import re
import secrets
from typing import Any

import numpy as np
import pandas as pd
import psycopg
import pytest
from sklearn.naive_bayes import CategoricalNB, GaussianNB
from sklearn.preprocessing import OrdinalEncoder
from test_export import copy_table, load_mushroom, model_sql

import madnb
from models_helpers import ADULT_COLUMNS, load_adult, plant_on_search_path

TOL = 1e-9  # the stated precision of private_predict (docs/private_prediction.md)
NUMERIC = ["age", "fnlwgt", "education_num", "capital_gain", "capital_loss", "hours_per_week"]


def proba(conn: psycopg.Connection[Any], fn: str, table: str, where: str = "true") -> list[dict[str, float]]:
    return [r[0] for r in conn.execute(f"SELECT {fn}_predict_proba(t) FROM {table} t WHERE {where} ORDER BY t.id")]


def frame(conn: psycopg.Connection[Any], table: str, where: str = "true") -> pd.DataFrame:
    cur = conn.execute(f"SELECT * FROM {table} t WHERE {where} ORDER BY t.id")
    return pd.DataFrame(cur.fetchall(), columns=[d.name for d in cur.description])


def assert_close(got: list[dict[str, float]], want: list[dict[str, float]]) -> None:
    assert len(got) == len(want) > 0
    assert [sorted(g) for g in got] == [sorted(w) for w in want]  # jsonb orders its keys its own way
    keys = list(want[0])
    diff = np.abs(np.array([[g[k] for k in keys] for g in got]) - np.array([[w[k] for k in keys] for w in want]))
    assert diff.max() <= TOL


def test_adult_over_three_servers_equals_the_models_predict_proba_trained_or_exported(db, empty_db, remote_dbs):
    """The default kind (categorical and Gaussian features) on adult_test, with its missing values: one server
    trained the model, one holds its exported script without madnb, one a second copy of the script."""
    _, bare = empty_db
    load_adult(db, "adult")
    load_adult(db, "adult_test", "test")
    db.execute("SELECT madnb.train('adult_nb', 'adult', 'income', exclude => ARRAY['id'])")
    bare.execute(model_sql(db, "adult_nb"))
    remote = remote_dbs[0]
    remote.conn.execute("CREATE SCHEMA madnb_models")  # the script under the trained model's name
    remote.conn.execute(model_sql(db, "adult_nb", "madnb_models.adult_nb"))
    assert remote.conn.execute("SELECT to_regnamespace('madnb') IS NULL").fetchone()[0]
    where = "t.id <= 600"
    want = proba(db, "madnb_models.adult_nb", "adult_test", where)
    # a psycopg connection, a URL: both as madnb.connection takes them; a list of dicts
    got = madnb.private_predict([db, remote.url], "adult_nb", frame(db, "adult_test", where).to_dict("records"))
    assert_close(got, want)
    copy_table(db, bare, "adult_test", ADULT_COLUMNS + ", id bigint")
    assert_close(proba(bare, "public.adult_nb", "adult_test", where), want)
    # three servers, a DataFrame, batches of 250 rows: three copies of the script under public
    for r in remote_dbs[1:3]:
        r.conn.execute(model_sql(db, "adult_nb"))
    got = madnb.private_predict([bare, remote_dbs[1].conn, remote_dbs[2].url], "public.adult_nb", frame(db, "adult_test", where),
                                batch_rows=250)
    assert_close(got, want)


def test_a_gaussian_model_over_two_servers_equals_scikit_learns_gaussian_nb(db, remote_dbs):
    load_adult(db, "adult")
    db.execute(
        "SELECT madnb.train('adult_g', 'adult', 'income', features => %s, kind => 'gaussian')", [NUMERIC],
    )
    remote = remote_dbs[0]
    remote.conn.execute("CREATE SCHEMA madnb_models")
    remote.conn.execute(model_sql(db, "adult_g", "madnb_models.adult_g"))
    train = frame(db, "adult")
    ref = GaussianNB().fit(train[NUMERIC].to_numpy(float), train["income"])
    rows = train[train["id"] % 20 == 0]
    got = madnb.private_predict([db, remote.url], "madnb_models.adult_g", rows)
    want = ref.predict_proba(rows[NUMERIC].to_numpy(float))
    assert list(got[0]) == list(ref.classes_)
    np.testing.assert_allclose([[g[c] for c in ref.classes_] for g in got], want, rtol=0, atol=TOL)
    # and the model's own probabilities
    assert_close(got, proba(db, "madnb_models.adult_g", "adult", "t.id % 20 = 0"))


def test_mushroom_trained_on_two_servers_equals_scikit_learns_categorical_nb_and_unseen_or_missing_values_add_nothing(
    db, remote_dbs,
):
    remote = remote_dbs[0]
    remote.install_madnb()
    for conn in (db, remote.conn):  # the same rows trained on each server: the same counts, the same model
        cols = load_mushroom(conn)
        conn.execute("UPDATE mushroom SET stalk_root = '?' WHERE stalk_root IS NULL")  # a category, as scikit-learn has it
        conn.execute("SELECT madnb.train('mush', 'mushroom', 'edibility', exclude => ARRAY['id'], kind => 'categorical')")
    feats = [c for c in cols if c != "edibility"]
    train = frame(db, "mushroom")
    enc = OrdinalEncoder(dtype=np.int64).fit(train[feats])
    ref = CategoricalNB().fit(enc.transform(train[feats]), train["edibility"])
    rows = train.iloc[::5]
    got = madnb.private_predict([db, remote.conn], "mush", rows)
    np.testing.assert_allclose(
        [[g[c] for c in ref.classes_] for g in got], ref.predict_proba(enc.transform(rows[feats])), rtol=0, atol=TOL,
    )
    # values the model never saw, and missing values, add nothing: as the model's predict_proba
    db.execute("UPDATE mushroom SET odor = 'zz' WHERE id % 7 = 0")
    db.execute("UPDATE mushroom SET cap_color = NULL, habitat = NULL WHERE id % 11 = 0")
    where = "t.id % 7 = 0 OR t.id % 11 = 0 OR t.id % 13 = 0"
    assert_close(madnb.private_predict([db, remote.url], "mush", frame(db, "mushroom", where)), proba(db, "madnb_models.mush", "mushroom", where))


def logged_parameters(log: str, marker: str) -> list[str]:
    """The statement parameters a server logged after ``marker`` (log_statement = 'all')."""
    return re.findall(r"parameters: \$1 = '((?:[^']|'')*)'", log.split(marker, 1)[1])


def test_what_each_server_receives_is_uniform_modulo_p_and_never_a_feature_value(db, remote_dbs):
    """Chi-square over 16 bins of every share element each server logged (log_statement = 'all'), for rows whose
    encodings are mostly zeros; no logged statement or parameter holds a feature's value."""
    load_adult(db, "adult")
    db.execute("SELECT madnb.train('adult_nb', 'adult', 'income', exclude => ARRAY['id'])")
    script = model_sql(db, "adult_nb")
    servers = remote_dbs[:2]
    for s in servers:
        s.conn.execute(script)
        s.conn.execute(f'ALTER DATABASE "{s.dbname}" SET log_statement = \'all\'')
        with psycopg.connect(s.url) as c:  # a new session: logged
            c.execute(f"SELECT 'private prediction test {s.dbname}'")  # a marker in the log
    rows = frame(db, "adult", "t.id <= 400")
    madnb.private_predict([s.url for s in servers], "public.adult_nb", rows)
    p = int(servers[0].conn.execute("SELECT public.adult_nb_share_encoding() ->> 'modulus'").fetchone()[0])
    texts = {str(v) for c in rows.columns if c != "id" for v in rows[c].dropna().unique()}
    bins = 16
    for s in servers:
        log = s.cluster.log().split(f"private prediction test {s.dbname}", 1)[1]
        params = logged_parameters(log, "adult_nb_score_share")
        assert params, "the server logged the shares it received"
        values = [int(v) for text in params for v in re.findall(r"\d+", text)]
        assert len(values) >= 400 * 100
        assert all(0 <= v < p for v in values)
        counts = np.bincount([v * bins // p for v in values], minlength=bins)
        expected = len(values) / bins
        chi2 = float(((counts - expected) ** 2 / expected).sum())
        assert chi2 < 37.7  # the 0.999 quantile of chi-square with 15 degrees of freedom
        assert not texts & {str(v) for v in values}
        # nothing else the server logged names a value of a row (categorical values never leave the client)
        words = set(re.findall(r"[A-Za-z][A-Za-z-]+", log))
        assert not {t for t in texts if not t.isdigit()} & words


def test_servers_holding_different_models_are_refused_naming_the_fingerprints(db, remote_dbs):
    remote = remote_dbs[0]
    remote.install_madnb()
    load_mushroom(db)
    load_mushroom(remote.conn)
    db.execute("SELECT madnb.train('mush', 'mushroom', 'edibility', exclude => ARRAY['id'])")
    remote.conn.execute("DELETE FROM mushroom WHERE id % 2 = 0")  # other rows: another model of the same name
    remote.conn.execute("SELECT madnb.train('mush', 'mushroom', 'edibility', exclude => ARRAY['id'])")
    rows = frame(db, "mushroom", "t.id <= 5")
    with pytest.raises(madnb.PrivatePredictionError, match="the servers hold different models named 'mush'.*fingerprint"):
        madnb.private_predict([db, remote.url], "mush", rows)
    with pytest.raises(ValueError, match="two or more servers"):
        madnb.private_predict([db], "mush", rows)
    # one database twice (a connection and a URL of it): it would receive both shares
    with pytest.raises(ValueError, match="servers 1 and 2 are the same database"):
        madnb.private_predict([remote.conn, remote.url], "mush", rows)
    # no such model on a server: the server's error
    with pytest.raises(psycopg.Error) as e:
        madnb.private_predict([db, remote.url], "nothing_here", rows)
    assert e.value.diag.sqlstate == "42883"


def test_a_vector_kind_or_a_class_of_prior_zero_is_refused_with_0A000_by_the_server(db, empty_db):
    _, other = empty_db
    db.execute("CREATE TABLE small (id int, label text, v int[])")
    db.execute("INSERT INTO small SELECT i, (ARRAY['a', 'b'])[1 + i % 2], ARRAY[i % 3, i % 5, 1] FROM generate_series(1, 40) AS i")
    db.execute("SELECT madnb.train('vec', 'small', 'label', features => ARRAY['v'], kind => 'multinomial')")
    db.execute("CREATE TABLE g (id int, label text, x float8)")
    db.execute("INSERT INTO g SELECT i, (ARRAY['a', 'b'])[1 + i % 2], i * 0.5 + i % 2 FROM generate_series(1, 40) AS i")
    db.execute("""SELECT madnb.train('g0', 'g', 'label', features => ARRAY['x'], kind => 'gaussian', options => '{"priors": [0, 1]}')""")
    other.execute("CREATE SCHEMA madnb_models")
    for model, rows, why in [("vec", [{"v": [1, 2, 3]}], "kind 'multinomial'"), ("g0", [{"x": 1.0}], "prior probability 0")]:
        other.execute(model_sql(db, model, f"madnb_models.{model}"))
        with pytest.raises(psycopg.Error) as e:
            madnb.private_predict([db, other], model, rows)
        assert e.value.diag.sqlstate == "0A000"
        assert e.value.diag.message_primary == "this model cannot be used for private prediction"
        assert why in e.value.diag.message_detail
        with pytest.raises(psycopg.Error) as e:  # its score function refuses too
            db.execute(f"SELECT madnb_models.{model}_score_share('{{1}}')")
        assert e.value.diag.sqlstate == "0A000"


# numeric's operators and functions that _score_share runs, and int4's it compares with (on top of
# models_helpers.PLANTED_OPERATORS / PLANTED_FUNCTIONS)
SHARE_OPERATORS = [("*", "numeric", "numeric"), ("+", "numeric", "numeric"), ("<>", "int4", "int4"), ("=", "int4", "int4")]
SHARE_FUNCTIONS = [
    ("mod", "numeric, numeric", "numeric"), ("array_length", "anyarray, int4", "int4"), ("array_lower", "anyarray, int4", "int4"),
    ("array_ndims", "anyarray", "int4"), ("array_position", "anycompatiblearray, anycompatible", "int4"),
    ("array_dims", "anyarray", "text"), ("format", "text, text", "text"),
]


def test_planted_objects_on_the_search_path_never_run_in_score_share_or_share_encoding(db):
    load_adult(db, "adult")
    db.execute("SELECT madnb.train('adult_nb', 'adult', 'income', exclude => ARRAY['id'])")
    plant_on_search_path(db, SHARE_FUNCTIONS)
    for i, (op, left, right) in enumerate(SHARE_OPERATORS):
        db.execute(f"CREATE FUNCTION evil.sop{i}(a {left}, b {right}) RETURNS {left} LANGUAGE plpgsql AS "
                   "$$ BEGIN PERFORM evil.boom(); RETURN NULL; END $$")
        db.execute(f"CREATE OPERATOR evil.{op} (LEFTARG = {left}, RIGHTARG = {right}, FUNCTION = evil.sop{i})")
    db.execute("CREATE FUNCTION evil.sum_step(s numeric, v numeric) RETURNS numeric LANGUAGE plpgsql AS "
               "$$ BEGIN PERFORM evil.boom(); RETURN NULL; END $$")
    db.execute("CREATE AGGREGATE evil.sum(numeric) (SFUNC = evil.sum_step, STYPE = numeric)")
    enc = db.execute("SELECT madnb_models.adult_nb_share_encoding()").fetchone()[0]
    p, width = int(enc["modulus"]), enc["width"]
    # a share of the encoded row of nothing but the constant: the answers add up to the log priors
    one = 1 << (enc["input_bits"])
    first = [secrets.randbelow(p) for _ in range(width)]
    second = [((one if i == 0 else 0) - x) % p for i, x in enumerate(first)]
    answers = [db.execute("SELECT madnb_models.adult_nb_score_share(%s::numeric[])::text", ["{" + ",".join(map(str, s)) + "}"]).fetchone()[0]
               for s in (first, second)]
    totals = [(int(a) + int(b) + p // 2) % p - p // 2 for a, b in zip(*(x.strip("{}").split(",") for x in answers), strict=True)]
    scale = 1 << (enc["input_bits"] + enc["coefficient_bits"])
    counts = [n for (n,) in db.execute("SELECT class_cnt FROM madnb_models.adult_nb_class_priors ORDER BY class")]
    assert [t / scale for t in totals] == pytest.approx([math.log(n / sum(counts)) for n in counts], abs=1e-15)
    with pytest.raises(psycopg.Error) as e:  # a share of another width: 22023, not a planted object's XX666
        db.execute("SELECT madnb_models.adult_nb_score_share('{1,2}'::numeric[])")
    assert e.value.diag.sqlstate == "22023"
    assert e.value.diag.message_primary == f"a share of this model is an array of {width} numbers"


def test_the_share_functions_are_listed_exported_replaced_and_dropped_with_the_model(db):
    db.execute("CREATE TABLE g (id int, label text, x float8, c text)")
    db.execute("INSERT INTO g SELECT i, (ARRAY['a', 'b'])[1 + i % 2], i * 0.5 + i % 2, (ARRAY['u', 'v', 'w'])[1 + i % 3] "
               "FROM generate_series(1, 40) AS i")
    db.execute("SELECT madnb.train('gm', 'g', 'label', exclude => ARRAY['id'])")
    functions = db.execute("SELECT functions FROM madnb._models WHERE name = 'gm'").fetchone()[0]
    assert {"madnb_models.gm_score_share(numeric[])", "madnb_models.gm_share_encoding()"} <= set(functions)
    script = model_sql(db, "gm", "public.gm_copy")
    assert '--   "public"."gm_copy_share_encoding"(),\n--   "public"."gm_copy_score_share"(pg_catalog.numeric[]),' in script  # then the explanation
    before = db.execute("SELECT madnb_models.gm_share_encoding() ->> 'fingerprint'").fetchone()[0]
    db.execute("INSERT INTO g VALUES (41, 'a', 100, 'z')")
    db.execute("SELECT madnb.train('gm', 'g', 'label', exclude => ARRAY['id'], replace => true)")
    enc = db.execute("SELECT madnb_models.gm_share_encoding()").fetchone()[0]
    assert enc["fingerprint"] != before
    assert enc["features"][1]["values"] == ["u", "v", "w", "z"]
    # a failed re-training leaves the model's share functions as they were
    with pytest.raises(psycopg.Error):
        db.execute("SELECT madnb.train('gm', 'g', 'no_such_column', replace => true)")
    assert db.execute("SELECT madnb_models.gm_share_encoding() ->> 'fingerprint'").fetchone()[0] == enc["fingerprint"]
    db.execute("SELECT madnb.drop_model('gm')")
    assert db.execute(
        "SELECT to_regprocedure('madnb_models.gm_score_share(numeric[])'), to_regprocedure('madnb_models.gm_share_encoding()')"
    ).fetchone() == (None, None)


def test_nan_null_infinite_and_far_out_gaussian_values_give_the_models_probabilities(db, empty_db):
    """Values past the edge of the clipping window (1e100 standard deviations: log-scores near -1e200) are clipped
    as the model clips them, and their scores do not wrap modulo p."""
    _, other = empty_db
    db.execute("CREATE TABLE g (id int, label text, x float8, y float8, c text)")
    db.execute("INSERT INTO g SELECT i, (ARRAY['a', 'b', 'c'])[1 + i % 3], i * 0.25 + (i % 3) * 4, (i % 7) * 1e6 + i % 3, "
               "(ARRAY['u', 'v'])[1 + i % 2] FROM generate_series(1, 60) AS i")
    db.execute("SELECT madnb.train('gx', 'g', 'label', exclude => ARRAY['id'])")
    other.execute("CREATE SCHEMA madnb_models")
    other.execute(model_sql(db, "gx", "madnb_models.gx"))
    values = [math.nan, None, 1e150, -1e300, math.inf, -math.inf, 3.5, 0.0, 1e-300, 2e101]
    rows = [{"x": x, "y": y, "c": c} for x in values for y in (values[i % len(values)] for i in (2, 6, 7)) for c in ("u", "w", None)]
    got = madnb.private_predict([db, other], "gx", rows)
    want = [db.execute("SELECT madnb_models.gx_predict_proba(x => %s::float8, y => %s::float8, c => %s)",
                       [r["x"], r["y"], r["c"]]).fetchone()[0] for r in rows]
    assert_close(got, want)


def test_a_categorical_feature_of_thousands_of_values_is_served_over_shares(db, empty_db):
    """5,000 values x 3 classes: 15,000 terms in _score_share, a shallow expression (the sums nest as a balanced tree)."""
    _, other = empty_db
    db.execute("CREATE TABLE big (id int, label text, v int, w text)")
    db.execute("INSERT INTO big SELECT i, (ARRAY['a', 'b', 'c'])[1 + i % 3], i % 5000, 'w' || (i % 7) FROM generate_series(1, 20000) AS i")
    db.execute("SELECT madnb.train('big', 'big', 'label', exclude => ARRAY['id'], categorical => ARRAY['v'])")
    other.execute("CREATE SCHEMA madnb_models")
    other.execute(model_sql(db, "big", "madnb_models.big"))
    assert db.execute("SELECT (madnb_models.big_share_encoding() ->> 'width')::int").fetchone() == (1 + 5000 + 7,)
    rows = frame(db, "big", "t.id % 1000 = 0").astype({"v": object})  # 20 rows: each about 2 MB of shares per server
    rows.loc[rows.index[:3], "v"] = [None, 99999, 4999]  # missing, unseen, the last value
    got = madnb.private_predict([db, other], "big", rows)
    want = [db.execute("SELECT madnb_models.big_predict_proba(v => %s, w => %s)", [None if pd.isna(r.v) else int(r.v), r.w]).fetchone()[0]
            for r in rows.itertuples()]
    assert_close(got, want)


def test_categorical_features_of_every_text_rule_are_encoded_as_the_model_compares_their_values(db, empty_db):
    """boolean, date, numeric, char(n), varchar and an enum: the client gives each value the text form the model
    compares (madnb.to_sklearn's rule for the feature's base type), so every seen value lands in its slot."""
    _, other = empty_db
    db.execute("CREATE TYPE mood AS ENUM ('low', 'high')")
    db.execute("CREATE TABLE r (id int, label text, b boolean, d date, n numeric, ch char(3), vc varchar(5), m mood)")
    db.execute("INSERT INTO r SELECT i, (ARRAY['x', 'y'])[1 + i % 2], i % 3 = 0, date '2024-01-01' + i % 4, (i % 5) * 1.50, "
               "(ARRAY['a', 'bb', 'ccc'])[1 + i % 3], 'v' || i % 4, (ARRAY['low', 'high']::mood[])[1 + i % 2 * (i % 3 % 2)] "
               "FROM generate_series(1, 90) AS i")
    db.execute("SELECT madnb.train('rr', 'r', 'label', exclude => ARRAY['id'], categorical => ARRAY['n'])")
    other.execute("CREATE SCHEMA madnb_models")
    other.execute(model_sql(db, "rr", "madnb_models.rr"))
    rows = db.execute("SELECT b, d, n, ch, vc, m::text FROM r WHERE id <= 12 ORDER BY id").fetchall()
    records = [dict(zip(["b", "d", "n", "ch", "vc", "m"], r, strict=True)) for r in rows]
    got = madnb.private_predict([db, other], "rr", records)
    want = proba(db, "madnb_models.rr", "r", "id <= 12")
    assert_close(got, want)
    # and the same rows with a value the model never saw add nothing for that feature, as in _predict_proba
    unseen = [{**r, "vc": "zzz"} for r in records]
    want_unseen = [db.execute("SELECT madnb_models.rr_predict_proba(b => %s, d => %s, n => %s, ch => %s, vc => 'zzz', m => %s)",
                              [r["b"], r["d"], r["n"], r["ch"], r["m"]]).fetchone()[0] for r in records]
    assert_close(madnb.private_predict([db, other], "rr", unseen), want_unseen)
