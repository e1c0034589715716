"""The model catalog, drop_model, roles, and generated SQL that no planted object can enter (issue 12, points 2 and 3)."""

from __future__ import annotations

import threading
from typing import Any

import psycopg
import pytest

from models_helpers import plant_on_search_path

DATA = """
CREATE TABLE fruit (id int PRIMARY KEY, kind text, colour text, weight float8, ripe boolean);
INSERT INTO fruit SELECT i, CASE WHEN i % 3 = 0 THEN 'apple' ELSE 'pear' END,
    CASE WHEN i % 2 = 0 THEN 'green' ELSE 'red' END, 100 + (i % 7) * 10 + i / 10.0, i % 5 = 0
FROM generate_series(1, 60) i;
"""


@pytest.fixture
def fruit(db: psycopg.Connection[Any]) -> psycopg.Connection[Any]:
    db.execute(DATA)
    db.execute("SELECT madnb.train('fruit_nb', 'fruit', 'kind', exclude => ARRAY['id'], smoothing => 0.5)")
    return db


def test_the_catalog_describes_each_model(fruit):
    db = fruit
    row = db.execute(
        "SELECT name, kind, source, label, label_type, features, classes, training_rows, smoothing, privacy, epsilon, "
        "predict_function, created_by, owner, size > 0, created_at <= now() FROM madnb.models"
    ).fetchone()
    assert row == (
        "fruit_nb", "naive_bayes", "public.fruit", "kind", "text",
        [
            {"name": "colour", "role": "categorical", "type": "text"},
            {"name": "weight", "role": "gaussian", "type": "double precision"},
            {"name": "ripe", "role": "categorical", "type": "boolean"},
        ],
        ["apple", "pear"], 60, 0.5, "exact", None, "madnb_models.fruit_nb_predict", "postgres", "postgres", True, True,
    )
    # the statistics table it names is a madnb statistics table of the source
    stats = db.execute("SELECT statistics FROM madnb.models").fetchone()[0]
    header = db.execute(f"SELECT obj_description('{stats}'::regclass, 'pg_class')").fetchone()[0]
    assert header.startswith("madnb statistics ") and '"source": "public.fruit"' in header


def test_every_model_object_has_a_comment_saying_what_it_is(fruit):
    db = fruit
    tables = db.execute(
        "SELECT relname, obj_description(oid, 'pg_class') FROM pg_class "
        "WHERE relnamespace = 'madnb_models'::regnamespace ORDER BY relname"
    ).fetchall()
    assert [t[0] for t in tables] == ["fruit_nb_class_priors", "fruit_nb_feature_probs", "fruit_nb_numeric_stats"]
    assert all(t[1].startswith("madnb model fruit_nb: madnb ") for t in tables)
    functions = db.execute(
        "SELECT p.oid::regprocedure::text, obj_description(p.oid, 'pg_proc') FROM pg_proc p "
        "WHERE pronamespace = 'madnb_models'::regnamespace ORDER BY 1"
    ).fetchall()
    assert [f[0] for f in functions] == [
        "madnb_models.fruit_nb_exact_class(text,double precision,boolean)",
        "madnb_models.fruit_nb_explain(anyelement)",
        "madnb_models.fruit_nb_explain(text,double precision,boolean)",
        "madnb_models.fruit_nb_predict(anyelement)",
        "madnb_models.fruit_nb_predict(text,double precision,boolean)",
        "madnb_models.fruit_nb_predict_proba(anyelement)",
        "madnb_models.fruit_nb_predict_proba(text,double precision,boolean)",
        "madnb_models.fruit_nb_predict_proba_array(anyelement)",
        "madnb_models.fruit_nb_predict_proba_array(text,double precision,boolean)",
        "madnb_models.fruit_nb_score_share(numeric[])",
        "madnb_models.fruit_nb_share_encoding()",
    ]
    assert all(f[1].startswith("madnb model fruit_nb: ") for f in functions)


def test_the_generated_functions_are_inlinable_sql_parallel_safe_and_immutable_without_date_features(fruit):
    db = fruit
    props = db.execute(
        "SELECT DISTINCT l.lanname, p.provolatile, p.proparallel, p.prosecdef, p.proconfig IS NULL FROM pg_proc p "
        "JOIN pg_language l ON l.oid = p.prolang WHERE p.pronamespace = 'madnb_models'::regnamespace "
        "AND p.proname NOT IN ('fruit_nb_score_share', 'fruit_nb_exact_class')"
    ).fetchall()
    assert props == [("sql", "i", "s", False, True)]
    # predict's class from the unshifted scores, for a row near a tie: PL/pgSQL of cost 1, so that the plan of a
    # prediction neither inlines nor costs it (a large plan cost turns JIT on)
    assert db.execute(
        "SELECT l.lanname, p.provolatile, p.proparallel, p.prosecdef, p.proconfig IS NULL, p.procost FROM pg_proc p "
        "JOIN pg_language l ON l.oid = p.prolang WHERE p.oid = 'madnb_models.fruit_nb_exact_class'::regproc"
    ).fetchall() == [("plpgsql", "i", "s", False, True, 1.0)]
    # private prediction's share function: PL/pgSQL (its share checked), called once per shared row
    assert db.execute(
        "SELECT l.lanname, p.provolatile, p.proparallel, p.prosecdef, p.proconfig IS NULL FROM pg_proc p "
        "JOIN pg_language l ON l.oid = p.prolang WHERE p.oid = 'madnb_models.fruit_nb_score_share'::regproc"
    ).fetchall() == [("plpgsql", "i", "s", False, True)]
    db.execute(
        "CREATE TABLE days (label text, d date); INSERT INTO days VALUES ('a', '2024-01-01'), ('b', '2024-01-02');"
        "SELECT madnb.train('days_nb', 'days', 'label')"
    )
    assert db.execute(
        "SELECT DISTINCT provolatile FROM pg_proc WHERE proname LIKE 'days_nb%' AND proname !~ '_(score_share|share_encoding)$'"
    ).fetchall() == [("s",)]  # a date's text form follows DateStyle
    # private prediction's take integers (the client encodes the values): immutable whatever the features
    assert db.execute(
        "SELECT DISTINCT provolatile FROM pg_proc WHERE proname IN ('days_nb_score_share', 'days_nb_share_encoding')"
    ).fetchall() == [("i",)]


def test_drop_model_removes_every_object_and_its_catalog_row(fruit):
    db = fruit
    db.execute("SELECT madnb.drop_model('fruit_nb')")
    assert db.execute("SELECT count(*) FROM madnb.models").fetchone()[0] == 0
    assert db.execute(
        "SELECT count(*) FROM pg_class WHERE relnamespace IN ('madnb_models'::regnamespace, 'madnb_statistics'::regnamespace)"
    ).fetchone()[0] == 0
    assert db.execute("SELECT count(*) FROM pg_proc WHERE pronamespace = 'madnb_models'::regnamespace").fetchone()[0] == 0
    # the name is free again
    db.execute("SELECT madnb.train('fruit_nb', 'fruit', 'kind', exclude => ARRAY['id'])")
    assert db.execute("SELECT count(*) FROM madnb.models").fetchone()[0] == 1


def test_drop_model_drops_the_objects_training_made_and_never_a_users_function_of_the_same_name(db):
    db.execute("CREATE TABLE pre_t (label text, a text, b text, c text)")
    db.execute("INSERT INTO pre_t SELECT CASE WHEN i % 2 = 0 THEN 'x' ELSE 'y' END, i % 3, i % 5, i % 7 FROM generate_series(1, 40) i")
    # a function of the user's that has one of the model's function names (another signature)
    db.execute("CREATE FUNCTION madnb_models.pre_predict(int, int, int) RETURNS text LANGUAGE sql AS $$ SELECT 'mine' $$")
    db.execute("SELECT madnb.train('pre', 'pre_t', 'label')")
    recorded = db.execute("SELECT functions, tables FROM madnb._models WHERE name = 'pre'").fetchone()
    assert recorded == (
        ["madnb_models.pre_exact_class(text,text,text)", "madnb_models.pre_explain(anyelement)", "madnb_models.pre_explain(text,text,text)",
         "madnb_models.pre_predict(anyelement)", "madnb_models.pre_predict(text,text,text)",
         "madnb_models.pre_predict_proba(anyelement)", "madnb_models.pre_predict_proba(text,text,text)",
         "madnb_models.pre_predict_proba_array(anyelement)", "madnb_models.pre_predict_proba_array(text,text,text)",
         "madnb_models.pre_score_share(numeric[])", "madnb_models.pre_share_encoding()"],
        ["madnb_models.pre_feature_probs", "madnb_models.pre_class_priors"],
    )
    db.execute("SELECT madnb.train('pre', 'pre_t', 'label', replace => true)")
    db.execute("SELECT madnb.drop_model('pre')")
    left = db.execute("SELECT oid::regprocedure::text FROM pg_proc WHERE pronamespace = 'madnb_models'::regnamespace").fetchall()
    assert left == [("madnb_models.pre_predict(integer,integer,integer)",)]
    assert db.execute("SELECT madnb_models.pre_predict(1, 2, 3)").fetchone() == ("mine",)


def test_training_never_rewrites_a_users_function_with_a_model_functions_exact_signature(db):
    db.execute("CREATE TABLE pre_t (label text, a text)")
    db.execute("INSERT INTO pre_t VALUES ('x', 'p'), ('y', 'q')")
    db.execute("CREATE FUNCTION madnb_models.pre_predict(a text) RETURNS text LANGUAGE sql AS $$ SELECT 'mine' $$")
    with pytest.raises(psycopg.Error) as e:
        db.execute("SELECT madnb.train('pre', 'pre_t', 'label')")
    assert e.value.diag.sqlstate == "42723"
    assert db.execute("SELECT madnb_models.pre_predict('p')").fetchone() == ("mine",)
    assert db.execute("SELECT count(*) FROM madnb.models").fetchone() == (0,)


def test_a_catalog_row_naming_objects_outside_madnb_models_drops_nothing_there(fruit):
    db = fruit
    db.execute("CREATE TABLE victim (x int); CREATE FUNCTION public.victim_fn() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$")
    db.execute("UPDATE madnb._models SET functions = functions || 'public.victim_fn()'::text, "
               "tables = tables || 'public.victim'::text WHERE name = 'fruit_nb'")
    db.execute("SELECT madnb.drop_model('fruit_nb')")
    assert db.execute("SELECT to_regclass('public.victim') IS NOT NULL, to_regprocedure('public.victim_fn()') IS NOT NULL").fetchone() == (True, True)


def test_drop_model_with_cascade_drops_the_views_that_use_the_model(fruit):
    db = fruit
    db.execute("CREATE VIEW v AS SELECT madnb_models.fruit_nb_predict(f) FROM fruit f")
    db.execute("SELECT madnb.drop_model('fruit_nb', cascade => true)")
    assert db.execute("SELECT to_regclass('v'), count(*) FROM madnb.models").fetchone() == (None, 0)
    with pytest.raises(psycopg.Error) as e:
        db.execute("SELECT madnb.drop_model('fruit_nb', NULL)")
    assert e.value.diag.sqlstate in ("22004", "42704")


def test_drop_model_refuses_while_a_view_uses_the_model_and_changes_nothing(fruit):
    db = fruit
    db.execute("CREATE VIEW v AS SELECT madnb_models.fruit_nb_predict(f) FROM fruit f")
    with pytest.raises(psycopg.Error) as e:
        db.execute("SELECT madnb.drop_model('fruit_nb')")
    assert e.value.diag.sqlstate == "2BP01"
    assert db.execute("SELECT count(*) FROM madnb.models").fetchone()[0] == 1
    assert db.execute("SELECT count(*) FROM v").fetchone()[0] == 60


def test_a_role_given_grant_usage_predicts_and_reads_the_catalog_but_never_trains_drops_or_plants(fruit):
    db = fruit
    db.execute("CREATE ROLE nb_alice; CREATE ROLE nb_mallory; GRANT SELECT ON fruit TO nb_alice, nb_mallory")
    db.execute("SELECT madnb.grant_usage('nb_alice'); SELECT madnb.grant_usage('nb_mallory')")
    expected = db.execute("SELECT id, madnb_models.fruit_nb_predict(f) FROM fruit f ORDER BY id").fetchall()
    metrics = db.execute("SELECT madnb.evaluate('fruit_nb', 'fruit')").fetchone()[0]
    db.execute("SET ROLE nb_mallory")
    try:
        # an exact-type overload of another model's prediction function would win over madnb's
        # anyelement one: a granted role may not create in madnb_models at all
        for call in (
            "CREATE FUNCTION madnb_models.fruit_nb_predict(r public.fruit) RETURNS text "
            "LANGUAGE sql AS $$ SELECT 'ran as ' || current_user $$",
            "SELECT madnb.train('mallory_nb', 'fruit', 'kind', features => ARRAY['colour'])",
            "SELECT madnb.train('fruit_nb', 'fruit', 'kind', features => ARRAY['colour'], replace => true)",
            "SELECT madnb.drop_model('fruit_nb')",
            "INSERT INTO madnb._models SELECT * FROM madnb._models",
            "UPDATE madnb._models SET statistics = 'public.fruit'",
        ):
            with pytest.raises(psycopg.Error) as e:
                db.execute(call)
            assert e.value.diag.sqlstate == "42501", (call, e.value.diag.message_primary)
        # row level security: a granted role deletes only its own models' rows
        assert db.execute("DELETE FROM madnb._models").rowcount == 0
    finally:
        db.execute("RESET ROLE")
    db.execute("SET ROLE nb_alice")
    try:
        assert db.execute("SELECT id, madnb_models.fruit_nb_predict(f) FROM fruit f ORDER BY id").fetchall() == expected
        assert db.execute("SELECT count(*) FROM madnb.models").fetchone()[0] == 1
        assert db.execute("SELECT madnb.model_classes('fruit_nb')").fetchone()[0]
        assert db.execute("SELECT madnb.evaluate('fruit_nb', 'fruit')").fetchone()[0] == metrics
    finally:
        db.execute("RESET ROLE")
    assert db.execute("SELECT count(*) FROM madnb.models").fetchone()[0] == 1
    db.execute("SELECT madnb.revoke_usage('nb_alice')")
    db.execute("SET ROLE nb_alice")
    try:
        with pytest.raises(psycopg.Error) as e:
            db.execute("SELECT madnb_models.fruit_nb_predict(f) FROM fruit f")
        assert e.value.diag.sqlstate == "42501"
    finally:
        db.execute("RESET ROLE")


def test_objects_planted_on_the_search_path_never_run_inside_training_or_prediction(fruit):
    db = fruit
    normal = db.execute(
        "SELECT madnb_models.fruit_nb_predict(f), madnb_models.fruit_nb_predict_proba(f), "
        "madnb_models.fruit_nb_predict_proba_array(f) FROM fruit f ORDER BY id"
    ).fetchall()
    metrics = db.execute("SELECT madnb.evaluate('fruit_nb', 'fruit')").fetchone()[0]
    plant_on_search_path(db)
    got = db.execute(
        "SELECT madnb_models.fruit_nb_predict(f), madnb_models.fruit_nb_predict_proba(f), "
        "madnb_models.fruit_nb_predict_proba_array(f) FROM fruit f ORDER BY id"
    ).fetchall()
    assert got == normal
    assert db.execute("SELECT madnb.evaluate('fruit_nb', 'fruit')").fetchone()[0] == metrics
    # training and re-training run the generated SQL under the same search_path
    db.execute("SELECT madnb.train('fruit_nb', 'fruit', 'kind', exclude => ARRAY['id'], smoothing => 0.5, replace => true)")
    db.execute("SELECT madnb.train('fruit2', 'fruit', 'kind', categorical => ARRAY['id'])")
    assert db.execute(
        "SELECT madnb_models.fruit_nb_predict_proba_array(f) FROM fruit f ORDER BY id"
    ).fetchall() == [(r[2],) for r in normal]
    db.execute("SELECT madnb_models.fruit2_predict(f) FROM fruit f")
    db.execute("SELECT madnb.drop_model('fruit2')")


def test_a_tampered_catalog_row_cannot_make_drop_model_run_its_text(fruit):
    db = fruit
    db.execute("CREATE TABLE victim (x int)")
    db.execute("UPDATE madnb._models SET statistics = 'public.victim; DROP TABLE victim' WHERE name = 'fruit_nb'")
    db.execute("SELECT madnb.drop_model('fruit_nb')")
    assert db.execute("SELECT to_regclass('victim') IS NOT NULL").fetchone()[0]
    # a catalog naming a table outside madnb_statistics does not drop it either
    db.execute("SELECT madnb.train('fruit_nb', 'fruit', 'kind', exclude => ARRAY['id'])")
    db.execute("UPDATE madnb._models SET statistics = 'public.victim' WHERE name = 'fruit_nb'")
    db.execute("SELECT madnb.drop_model('fruit_nb')")
    assert db.execute("SELECT to_regclass('victim') IS NOT NULL").fetchone()[0]


def test_options_are_checked_against_the_kind_and_kept_in_the_catalog(fruit):
    db = fruit
    assert db.execute("SELECT parameters FROM madnb.models").fetchone() == (None,)
    db.execute("SELECT madnb.train('fruit_nb', 'fruit', 'kind', exclude => ARRAY['id'], replace => true, options => '{}')")
    assert db.execute("SELECT parameters FROM madnb.models").fetchone() == ({},)
    for options, said in [
        ('{"alpha": 0.5}', 'option "alpha" is not a parameter of kind \'naive_bayes\''),
        ('[1, 2]', "options must be a JSON object"),
        ('"alpha"', "options must be a JSON object"),
    ]:
        with pytest.raises(psycopg.Error) as e:
            db.execute(
                "SELECT madnb.train('fruit_nb', 'fruit', 'kind', exclude => ARRAY['id'], replace => true, "
                "options => %s::jsonb)", [options],
            )
        assert e.value.sqlstate == "22023" and e.value.diag.message_primary == said
    # a refused call changed nothing
    assert db.execute("SELECT parameters FROM madnb.models").fetchone() == ({},)


def test_two_sessions_training_one_new_name_at_once_give_one_model_and_already_exists(fruit, cluster):
    db = fruit
    url = cluster.url_for(db.info.dbname)
    call = "SELECT madnb.train('twice_nb', 'fruit', 'kind', exclude => ARRAY['id'])"
    with psycopg.connect(url) as first, psycopg.connect(url, autocommit=True) as second:
        first.execute(call)  # not committed yet
        pid = second.info.backend_pid
        got: list[Any] = []

        def run() -> None:
            try:
                second.execute(call)
                got.append("ok")
            except psycopg.Error as e:
                got.append((e.sqlstate, e.diag.message_primary))

        waiter = threading.Thread(target=run)
        waiter.start()
        # the second training waits for the first one's lock on the name (polled: no timing is asserted)
        while waiter.is_alive() and not db.execute(
            "SELECT wait_event_type = 'Lock' FROM pg_stat_activity WHERE pid = %s", (pid,)
        ).fetchone()[0]:
            pass
        first.commit()
        waiter.join()
    assert got == [("42710", 'model "twice_nb" already exists')]
    assert db.execute("SELECT count(*) FROM madnb.models WHERE name = 'twice_nb'").fetchone()[0] == 1
