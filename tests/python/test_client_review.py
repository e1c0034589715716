"""The Python client after its review: names, catalog names, transactions, types and the small things.

Each test pins one defect the review found in madnb.NaiveBayes, its sources,
the model commands or the progress reporter.  Expected numbers come from
scikit-learn fitted in the test on the same rows.
"""

from __future__ import annotations

import inspect
import io
import json
from typing import Any

import numpy as np
import pandas as pd
import psycopg
import pytest
import sqlalchemy as sa
from sklearn.base import clone
from sklearn.naive_bayes import CategoricalNB, MultinomialNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OrdinalEncoder

import madnb
from helpers import run_cli

TOL = 1e-9


def tennis(n: int = 120, seed: int = 3) -> pd.DataFrame:
    """Two categorical features (capitalised names, one with a space) and a capitalised label, every value frequent."""
    rng = np.random.default_rng(seed)
    play = rng.choice(["no", "yes"], size=n, p=[0.45, 0.55])
    yes = play == "yes"
    outlook = np.where(yes, rng.choice(["sunny", "rain", "overcast"], n, p=[0.2, 0.3, 0.5]),
                       rng.choice(["sunny", "rain", "overcast"], n, p=[0.5, 0.3, 0.2]))
    wind = np.where(yes, rng.choice([0, 1], n, p=[0.7, 0.3]), rng.choice([0, 1], n, p=[0.4, 0.6]))
    return pd.DataFrame({"Id": np.arange(1, n + 1), "Outlook": outlook, "my wind": wind, "Play": play})


def tennis_table(db: psycopg.Connection[Any], frame: pd.DataFrame, name: str = "tennis") -> None:
    db.execute(f'CREATE TABLE {name} ("Id" int PRIMARY KEY, "Outlook" text, "my wind" int, "Play" text)')
    with db.cursor().copy(f"COPY {name} FROM STDIN") as copy:
        for row in frame.itertuples(index=False):
            copy.write_row([int(row[0]), row[1], int(row[2]), row[3]])


def reference(frame: pd.DataFrame, features: list[str], alpha: float = 1.0) -> Any:
    return make_pipeline(OrdinalEncoder(), CategoricalNB(alpha=alpha)).fit(frame[features], frame["Play"])


# -- 1. names from a frame or the catalog are exact --------------------------------------------------


def test_a_frames_capitalised_columns_and_labels_series_name_reach_madnb_train_as_they_are(db):
    rows = tennis()
    X = rows.drop(columns=["Play", "Id"]).astype({"my wind": str})
    est = madnb.NaiveBayes(db, "frame_nb").fit(X, rows["Play"])
    assert est.label_ == "Play" and list(est.feature_names_in_) == ["Outlook", "my wind"]
    ref = reference(rows.astype({"my wind": str}), ["Outlook", "my wind"])
    assert np.abs(est.predict_proba(X) - ref.predict_proba(X)).max() <= TOL
    assert est.score(X, rows["Play"]) == pytest.approx(ref.score(X, rows["Play"]), abs=1e-12)


def test_features_and_categorical_of_a_frame_are_its_column_names(db):
    rows = tennis()
    est = madnb.NaiveBayes(db, "picked_nb").fit(rows, "Play", features=["Outlook"])
    assert list(est.feature_names_in_) == ["Outlook"]
    assert np.abs(est.predict_proba(rows) - reference(rows, ["Outlook"]).predict_proba(rows[["Outlook"]])).max() <= TOL
    est = madnb.NaiveBayes(db, "cat_int_nb", categorical=["my wind"]).fit(rows, "Play", exclude=["Id"])
    roles = {f["name"]: f["role"] for f in est.info_.features}
    assert roles == {"Outlook": "categorical", "my wind": "categorical"}
    assert np.abs(est.predict_proba(rows) - reference(rows, ["Outlook", "my wind"]).predict_proba(rows[["Outlook", "my wind"]])).max() <= TOL


def test_cross_validate_and_clone_of_a_loaded_model_send_the_catalogs_names_as_identifiers(db):
    rows = tennis()
    tennis_table(db, rows)
    db.execute("""SELECT madnb.train('tennis_nb', 'tennis', '"Play"', exclude => ARRAY['"Id"'], categorical => ARRAY['"my wind"'])""")
    est = madnb.NaiveBayes.load(db, "tennis_nb")
    cv = est.cross_validate("tennis", key='"Id"', folds=3)
    want = db.execute("""SELECT c.metrics FROM madnb.cross_validate('tennis', '"Play"', features => ARRAY['"Outlook"', '"my wind"'],
                         categorical => ARRAY['"my wind"'], folds => 3, key => '"Id"') AS c WHERE c.fold = 'mean'""").fetchone()[0]
    assert cv.mean.accuracy == want["accuracy"] and cv.mean.rows == len(rows)
    # a frame's names, the fold key's among them, are its columns' names
    framed = madnb.NaiveBayes(db, categorical=["my wind"]).cross_validate(rows, "Play", key="Id", exclude=["Id"], folds=3)
    assert framed.mean.accuracy == want["accuracy"]
    again = clone(est).set_params(name="tennis_again").fit("tennis", '"Play"', exclude=['"Id"'])
    assert {f["name"]: f["role"] for f in again.info_.features} == {"Outlook": "categorical", "my wind": "categorical"}
    ref = reference(rows, ["Outlook", "my wind"])
    assert np.abs(again.predict_proba("tennis", key='"Id"') - ref.predict_proba(rows[["Outlook", "my wind"]])).max() <= TOL


# -- 2. names of models in schema madnb_models ----------------------------------------------------------


def test_a_model_name_that_needs_quotes_or_names_schema_madnb_models_is_called_by_its_quoted_name(db):
    rows = tennis()
    tennis_table(db, rows)
    ref = reference(rows, ["Outlook", "my wind"]).predict_proba(rows[["Outlook", "my wind"]].astype({"my wind": float}))
    quoted = madnb.NaiveBayes(db, '"MyModel"', categorical=['"my wind"']).fit("tennis", '"Play"', exclude=['"Id"'])
    assert quoted.model_ == '"MyModel"'
    assert np.abs(quoted.predict_proba("tennis", key='"Id"') - ref).max() <= TOL
    assert madnb.NaiveBayes.load(db, '"MyModel"').classes_.tolist() == ["no", "yes"]
    qualified = madnb.NaiveBayes(db, "madnb_models.qualified_nb", categorical=['"my wind"']).fit("tennis", '"Play"', exclude=['"Id"'])
    assert qualified.model_ == "qualified_nb"
    assert np.abs(qualified.predict_proba("tennis", key='"Id"') - ref).max() <= TOL
    db.execute("CREATE SCHEMA analytics")
    other = madnb.NaiveBayes(db, 'analytics."Churn"', categorical=['"my wind"']).fit("tennis", '"Play"', exclude=['"Id"'])
    assert other.model_ == 'analytics."Churn"'
    assert np.abs(other.predict_proba("tennis", key='"Id"') - ref).max() <= TOL
    quoted.drop()
    assert db.execute("SELECT count(*) FROM madnb.models WHERE name = 'MyModel'").fetchone()[0] == 0


# -- 3. a failure inside the caller's transaction -------------------------------------------------------


def test_a_failed_call_inside_the_callers_transaction_rolls_back_only_itself(db):
    tennis_table(db, tennis())
    with db.transaction():
        db.execute("CREATE TABLE kept (x int)")
        with pytest.raises(madnb.MadnbError) as e:
            madnb.NaiveBayes(db, "bad_nb").fit("tennis", "no_such_column")
        assert e.value.sqlstate == "42703"
        db.execute("INSERT INTO kept VALUES (1)")  # the transaction is still usable
    assert db.execute("SELECT count(*) FROM kept").fetchone()[0] == 1
    assert db.execute("SELECT count(*) FROM madnb.models WHERE name = 'bad_nb'").fetchone()[0] == 0


# -- 4. enum labels ------------------------------------------------------------------------------


def test_predict_gives_an_enum_labels_classes_as_text_like_classes_(db):
    rows = tennis()
    db.execute("CREATE TYPE answer AS ENUM ('no', 'yes')")
    tennis_table(db, rows)
    db.execute('ALTER TABLE tennis ALTER COLUMN "Play" TYPE answer USING "Play"::answer')
    est = madnb.NaiveBayes(db, "enum_nb", categorical=['"my wind"']).fit("tennis", '"Play"', exclude=['"Id"'])
    got = est.predict("tennis", key='"Id"')
    assert list(est.classes_) == ["no", "yes"]
    assert list(got) == list(reference(rows, ["Outlook", "my wind"]).predict(rows[["Outlook", "my wind"]]))
    assert all(type(v) is str for v in got)


# -- 5. SQLAlchemy's expanding parameters ----------------------------------------------------------


def test_a_selectable_with_an_in_list_is_a_source(db):
    rows = tennis()
    tennis_table(db, rows)
    est = madnb.NaiveBayes(db, "in_nb", categorical=['"my wind"']).fit("tennis", '"Play"', exclude=['"Id"'])
    table = sa.table("tennis", sa.column("Id"), sa.column("Outlook"), sa.column("my wind"), sa.column("Play"))
    query = sa.select(table).where(table.c.Id.in_([3, 1, 2])).order_by(table.c.Id)
    chosen = rows[rows["Id"].isin([1, 2, 3])]
    want = reference(rows, ["Outlook", "my wind"]).predict_proba(chosen[["Outlook", "my wind"]])
    assert np.abs(est.predict_proba(query) - want).max() <= TOL


# -- 6. numpy values among a kind's options -----------------------------------------------------------


def test_numpy_values_among_the_options_are_sent_as_json_and_shown_by_repr(db):
    rng = np.random.default_rng(5)
    X = rng.integers(0, 5, size=(200, 4))
    y = np.where(X[:, 0] + rng.integers(0, 3, 200) > 3, "a", "b")
    est = madnb.NaiveBayes(db, "np_nb", kind="multinomial", alpha=np.float64(0.5), class_prior=np.array([0.3, 0.7]))
    assert "alpha=np.float64(0.5), class_prior=array([0.3, 0.7])" in repr(est)
    est.fit(pd.DataFrame({"counts": list(X)}), y)
    ref = MultinomialNB(alpha=0.5, class_prior=[0.3, 0.7]).fit(X, y)
    assert np.abs(est.predict_proba(pd.DataFrame({"counts": list(X)})) - ref.predict_proba(X)).max() <= TOL


# -- 7. predict -o keeps an existing file when the query fails ---------------------------------------------


def test_predict_into_a_file_leaves_an_existing_file_as_it_was_when_the_query_fails(db, tmp_path):
    tennis_table(db, tennis())
    db.execute("""SELECT madnb.train('cli_nb', 'tennis', '"Play"', exclude => ARRAY['"Id"'])""")
    db.execute('CREATE TABLE lacking ("Id" int, "Outlook" text)')
    db.execute("INSERT INTO lacking VALUES (1, 'sunny')")
    out_file = tmp_path / "p.csv"
    out_file.write_text("keep me\n")
    out = run_cli("predict", "cli_nb", "lacking", "-o", str(out_file), "--dsn", db.info.dsn)
    assert out.returncode == 1 and "SQLSTATE" in out.stderr
    assert out_file.read_text() == "keep me\n"
    assert [p.name for p in tmp_path.iterdir()] == ["p.csv"]


# -- 8. progress in the caller's transaction ------------------------------------------------------------


def test_progress_in_the_callers_transaction_is_off_again_after_the_call_and_heard_at_any_message_level(db):
    tennis_table(db, tennis())
    db.execute("SET client_min_messages = warning")
    reporter = madnb.Reporter(bar="text", stream=io.StringIO())
    with db.transaction():
        madnb.NaiveBayes(db, "loud_nb", progress=reporter).fit("tennis", '"Play"', exclude=['"Id"'])
        assert db.execute("SELECT current_setting('madnb.progress', true)").fetchone()[0] in (None, "")
        assert db.execute("SHOW client_min_messages").fetchone()[0] == "warning"
    assert [e["phase"] for e in reporter.seen][-1] == "done"
    assert db.execute("SHOW client_min_messages").fetchone()[0] == "warning"


# -- 9. clone of an estimator with a Reporter ---------------------------------------------------------------


def test_clone_of_an_estimator_with_a_reporter_shares_the_reporter(db):
    reporter = madnb.Reporter(bar="text", stream=io.StringIO())
    copy = clone(madnb.NaiveBayes(db, "r_nb", progress=reporter))
    assert copy.progress is reporter and copy.name == "r_nb"


# -- 10. predict --key is read as SQL reads an identifier -----------------------------------------------


def test_predict_key_is_an_identifier_as_cross_validates_key_is(db):
    rows = tennis()
    tennis_table(db, rows)
    db.execute('ALTER TABLE tennis ADD COLUMN n int')
    db.execute('UPDATE tennis SET n = "Id"')
    db.execute("""SELECT madnb.train('key_nb', 'tennis', '"Play"', features => ARRAY['"Outlook"'])""")
    want = list(reference(rows, ["Outlook"]).predict(rows[["Outlook"]]))
    for key, header in (('"Id"', "Id"), ("N", "n")):
        out = run_cli("predict", "key_nb", "tennis", "--key", key, "--json", "--dsn", db.info.dsn)
        assert out.returncode == 0, out.stderr
        got = [json.loads(line) for line in out.stdout.splitlines()]
        assert [r[header] for r in got] == list(range(1, len(rows) + 1))
        assert [r["predicted"] for r in got] == want


# -- 11. SQLSTATEs of the client's own refusals -----------------------------------------------------


def test_a_failed_transaction_and_a_url_of_another_database_are_refused_with_a_sqlstate(db):
    db.autocommit = False
    try:
        with pytest.raises(psycopg.errors.DivisionByZero):
            db.execute("SELECT 1 / 0")
        with pytest.raises(madnb.MadnbError) as e:
            madnb.NaiveBayes(db, "x_nb").fit("tennis", "Play")
        assert e.value.sqlstate == "25P02"
    finally:
        db.rollback()
        db.autocommit = True
    with pytest.raises(madnb.MadnbError) as e:
        madnb.NaiveBayes("mysql://localhost/db", "x_nb").fit("tennis", "Play")
    assert e.value.sqlstate == "22023"


def test_a_psycopg_error_without_sqlstate_is_a_connection_failure_only_when_it_is_one(db):
    with pytest.raises(psycopg.ProgrammingError) as e:
        db.execute("SELECT %s", [])  # refused by psycopg, never sent
    assert madnb.MadnbError.from_psycopg(e.value).sqlstate is None
    with pytest.raises(psycopg.OperationalError) as op:
        psycopg.connect(host=db.info.host, port=1, dbname="x", connect_timeout=5)
    assert madnb.MadnbError.from_psycopg(op.value).sqlstate == "08000"


# -- 12. arguments that a source cannot use -------------------------------------------------------------


def test_a_key_with_a_selectable_and_labels_with_a_table_are_refused(db):
    tennis_table(db, tennis())
    est = madnb.NaiveBayes(db, "ref_nb").fit("tennis", '"Play"', exclude=['"Id"'])
    table = sa.table("tennis", sa.column("Id"), sa.column("Outlook"), sa.column("my wind"), sa.column("Play"))
    with pytest.raises(TypeError):
        est.predict(sa.select(table), key="Id")
    with pytest.raises(TypeError):
        est.evaluate("tennis", ["no"] * 120)


# -- 13. the parameters in one place ------------------------------------------------------------------


def test_the_parameters_are_the_signatures_and_a_default_estimators_repr_shows_none(db):
    est = madnb.NaiveBayes(db)
    assert repr(est) == "NaiveBayes()"
    named = [p for p, v in inspect.signature(madnb.NaiveBayes).parameters.items() if v.kind is not v.VAR_KEYWORD]
    assert list(est.get_params()) == named


# -- 14. a private model's bounds and domain ----------------------------------------------------------


def test_clone_of_a_loaded_private_model_trains_another_private_model_with_its_bounds_and_domain(db):
    rows = tennis()
    tennis_table(db, rows)
    db.execute("CREATE TABLE tennis_domain (attr text, value text)")
    db.execute("INSERT INTO tennis_domain VALUES ('Play', 'no'), ('Play', 'yes'), ('Outlook', 'overcast'), ('Outlook', 'rain'), "
               "('Outlook', 'sunny')")
    madnb.NaiveBayes(db, "dp_nb", epsilon=1.0, domain="tennis_domain", bounds={"my wind": [0, 1]}).fit(
        "tennis", '"Play"', exclude=['"Id"'])
    loaded = madnb.NaiveBayes.load(db, "dp_nb")
    assert loaded.bounds == {"my wind": [0, 1]} and loaded.domain == "public.tennis_domain"
    again = clone(loaded).set_params(name="dp_again").fit("tennis", '"Play"', exclude=['"Id"'])
    assert db.execute("SELECT privacy, epsilon FROM madnb.models WHERE name = 'dp_again'").fetchone() == ("private", 1.0)
    assert again.predict_proba("tennis", key='"Id"').shape == (len(rows), 2)
    # a domain given as jsonb is recorded without its values: the loaded estimator has the bounds, not the domain
    madnb.NaiveBayes(db, "dp_json", epsilon=1.0, domain={"Play": ["no", "yes"], "Outlook": ["overcast", "rain", "sunny"]},
                     bounds={"my wind": [0, 1]}).fit("tennis", '"Play"', exclude=['"Id"'])
    loaded = madnb.NaiveBayes.load(db, "dp_json")
    assert (loaded.bounds, loaded.domain) == ({"my wind": [0, 1]}, None)
