"""Named models of granted roles (issue 17, A3).

A role given ``madnb.grant_usage`` trains, replaces and drops named models of
its own, in a schema it may create in (``madnb.train('work.churn', ...)``): their
functions and tables belong to it, ``madnb.models`` lists them, and no other
role (but a superuser) can replace or drop them.  Schema ``madnb_models`` stays
its owner's, and a schema where another role may create is refused, since that
role could plant an overload of the model's prediction function.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from helpers import connect_as, drop_roles, new_role, sqlstate_of

DATA = """
CREATE TABLE churn_data (id int PRIMARY KEY, label text, plan text, minutes float8);
INSERT INTO churn_data SELECT i, CASE WHEN i % 3 = 0 THEN 'left' ELSE 'stayed' END,
    CASE WHEN i % 2 = 0 THEN 'basic' ELSE 'premium' END, 100 + (i % 7) * 10 + i / 10.0
FROM generate_series(1, 60) i;
"""


@pytest.fixture
def roles(db: psycopg.Connection[Any]) -> Iterator[tuple[psycopg.Connection[Any], psycopg.Connection[Any], str, str]]:
    """(alice's connection, bob's connection, alice, bob): two granted roles; alice may create in schema work."""
    db.execute(DATA)
    alice, bob = new_role(db, "alice"), new_role(db, "bob")
    for r in (alice, bob):
        db.execute("SELECT madnb.grant_usage(%s)", (r,))
        db.execute(f'GRANT SELECT ON churn_data TO "{r}"')
    db.execute(f'CREATE SCHEMA work AUTHORIZATION "{alice}"')
    a, b = connect_as(db, alice), connect_as(db, bob)
    try:
        yield a, b, alice, bob
    finally:
        a.close()
        b.close()
        db.execute("DROP SCHEMA IF EXISTS work CASCADE")
        drop_roles(db, [alice, bob])


def test_a_granted_role_trains_a_model_of_its_own_in_its_schema_and_the_catalog_lists_it(db, roles):
    a, _, alice, _ = roles
    a.execute("SELECT madnb.train('work.churn', 'churn_data', 'label', exclude => ARRAY['id'])")
    row = db.execute(
        "SELECT name, schema_name, owner, predict_function, training_rows FROM madnb.models"
    ).fetchone()
    assert row == ("work.churn", "work", alice, "work.churn_predict", 60)
    owners = db.execute(
        "SELECT DISTINCT pg_get_userbyid(proowner) FROM pg_proc WHERE pronamespace = 'work'::regnamespace "
        "UNION SELECT DISTINCT pg_get_userbyid(relowner) FROM pg_class WHERE relnamespace = 'work'::regnamespace"
    ).fetchall()
    assert owners == [(alice,)]
    # the same model trained by the superuser from the same rows predicts the same
    db.execute("SELECT madnb.train('reference', 'churn_data', 'label', exclude => ARRAY['id'])")
    mine = a.execute("SELECT id, work.churn_predict(t), work.churn_predict_proba_array(t) FROM churn_data t ORDER BY id").fetchall()
    ref = db.execute("SELECT id, madnb_models.reference_predict(t), madnb_models.reference_predict_proba_array(t) FROM churn_data t ORDER BY id").fetchall()
    assert mine == ref
    assert a.execute("SELECT madnb.model_classes('work.churn')").fetchone() == (["left", "stayed"],)
    assert a.execute("SELECT (madnb.evaluate('work.churn', 'churn_data'))->>'rows'").fetchone() == ("60",)
    assert 'CREATE OR REPLACE FUNCTION "public"."churn_predict"' in a.execute("SELECT madnb.model_sql('work.churn')").fetchone()[0]
    a.execute("SELECT madnb.train('work.churn', 'churn_data', 'label', exclude => ARRAY['id'], smoothing => 2, replace => true)")
    a.execute("SELECT madnb.drop_model('work.churn')")
    assert db.execute("SELECT count(*) FROM madnb.models WHERE schema_name = 'work'").fetchone() == (0,)
    assert db.execute("SELECT count(*) FROM pg_class WHERE relnamespace = 'work'::regnamespace").fetchone() == (0,)


def test_another_granted_role_can_neither_replace_nor_drop_it(roles):
    a, b, alice, _ = roles
    a.execute("SELECT madnb.train('work.churn', 'churn_data', 'label', exclude => ARRAY['id'])")
    err = sqlstate_of(b, "SELECT madnb.drop_model('work.churn')")
    assert err.diag.sqlstate == "42501"
    assert err.diag.message_primary == 'must be owner of model "work.churn"'
    err = sqlstate_of(b, "SELECT madnb.train('work.churn', 'churn_data', 'label', replace => true)")
    assert err.diag.sqlstate == "42501"
    # nor write its catalog row
    assert b.execute("DELETE FROM madnb._models WHERE schema_name = 'work'").rowcount == 0
    assert a.execute("SELECT count(*) FROM madnb.models WHERE name = 'work.churn'").fetchone() == (1,)


def test_a_granted_role_trains_nothing_into_madnb_models_nor_writes_rows_for_it(roles):
    a, _, alice, _ = roles
    err = sqlstate_of(a, "SELECT madnb.train('churn', 'churn_data', 'label')")
    assert err.diag.sqlstate == "42501"
    assert "madnb.train('my_schema.churn'" in err.diag.message_hint
    err = sqlstate_of(
        a, "INSERT INTO madnb._models (schema_name, name, kind, source, label, label_type, features, classes, training_rows, "
        "smoothing, statistics, functions, tables) VALUES ('madnb_models', 'x', 'naive_bayes', 's', 'l', 'text', '[]', '{}', 0, 1, 's', '{}', '{}')"
    )
    assert err.diag.sqlstate == "42501"


def test_a_schema_another_role_may_create_in_is_refused(db, roles):
    a, _, alice, bob = roles
    db.execute(f'GRANT CREATE ON SCHEMA work TO "{bob}"')
    err = sqlstate_of(a, "SELECT madnb.train('work.churn', 'churn_data', 'label')")
    assert err.diag.sqlstate == "42501"
    assert err.diag.message_primary.startswith(f'role "{bob}" may create objects in schema "work"')
    assert db.execute("SELECT count(*) FROM madnb.models").fetchone() == (0,)
    err = sqlstate_of(a, "SELECT madnb.train('nowhere.churn', 'churn_data', 'label')")
    assert err.diag.sqlstate == "3F000"


def test_another_role_predicts_with_what_the_models_owner_grants(db, roles):
    a, b, alice, bob = roles
    a.execute("SELECT madnb.train('work.churn', 'churn_data', 'label', exclude => ARRAY['id'])")
    err = sqlstate_of(b, "SELECT work.churn_predict(t) FROM churn_data t")
    assert err.diag.sqlstate == "42501"
    a.execute(f'GRANT USAGE ON SCHEMA work TO "{bob}"')
    assert b.execute("SELECT count(*) FROM churn_data t WHERE work.churn_predict(t) IS NOT NULL").fetchone() == (60,)


def test_a_role_without_grant_usage_predicts_with_only_the_owners_grant(db, roles):
    """The functions of a model outside madnb_models call copies of madnb's helpers next to them."""
    a, _, alice, _ = roles
    carol = new_role(db, "carol")
    try:
        db.execute(f'GRANT SELECT ON churn_data TO "{carol}"')
        a.execute("SELECT madnb.train('work.churn', 'churn_data', 'label', exclude => ARRAY['id'])")
        functions = db.execute("SELECT functions FROM madnb._models WHERE schema_name = 'work'").fetchone()[0]
        assert "work.churn_scores_best(double precision[])" in functions
        bodies = db.execute("SELECT string_agg(prosrc, ' ') FROM pg_proc WHERE pronamespace = 'work'::regnamespace").fetchone()[0]
        assert "madnb." not in bodies
        a.execute(f'GRANT USAGE ON SCHEMA work TO "{carol}"')
        with connect_as(db, carol) as c:
            assert c.execute("SELECT has_schema_privilege('madnb', 'USAGE')").fetchone() == (False,)
            got = c.execute("SELECT id, work.churn_predict(t), work.churn_predict_proba(t) FROM churn_data t ORDER BY id").fetchall()
        assert got == a.execute("SELECT id, work.churn_predict(t), work.churn_predict_proba(t) FROM churn_data t ORDER BY id").fetchall()
        a.execute("SELECT madnb.drop_model('work.churn')")
        assert db.execute("SELECT count(*) FROM pg_proc WHERE pronamespace = 'work'::regnamespace").fetchone() == (0,)
    finally:
        drop_roles(db, [carol])


def test_a_granted_role_trains_a_private_model_of_its_own_and_the_ledger_names_it(db, roles):
    a, _, alice, _ = roles
    a.execute(
        "SELECT madnb.train('work.private_churn', 'churn_data', 'label', features => ARRAY['plan', 'minutes'], epsilon => 1, "
        "bounds => '{\"minutes\": [0, 200]}', domain => '{\"label\": [\"left\", \"stayed\"], \"plan\": [\"basic\", \"premium\"]}')"
    )
    assert db.execute("SELECT privacy, owner FROM madnb.models WHERE name = 'work.private_churn'").fetchone() == ("private", alice)
    assert db.execute(
        "SELECT released_by, source_name FROM madnb.privacy_ledger ORDER BY release_id DESC LIMIT 1"
    ).fetchone() == (alice, "public.churn_data")
    assert a.execute("SELECT count(*) FROM churn_data t WHERE work.private_churn_predict(t) IS NOT NULL").fetchone() == (60,)


def test_a_catalog_row_its_owner_rewrote_cannot_make_a_superusers_drop_take_another_roles_table(db, roles):
    a, b, alice, bob = roles
    db.execute(f'CREATE SCHEMA bobwork AUTHORIZATION "{bob}"')
    b.execute("SELECT madnb.train('bobwork.m', 'churn_data', 'label', exclude => ARRAY['id'])")
    a.execute("SELECT madnb.train('work.churn', 'churn_data', 'label', exclude => ARRAY['id'])")
    bobs = db.execute("SELECT statistics FROM madnb._models WHERE schema_name = 'bobwork'").fetchone()[0]
    # alice may not UPDATE the catalog, but may replace her own row (row level security)
    a.execute("CREATE TEMPORARY TABLE mine AS SELECT * FROM madnb._models WHERE schema_name = 'work'")
    a.execute("UPDATE mine SET statistics = %s, functions = functions || 'bobwork.m_predict(anyelement)'::text, "
              "tables = tables || 'bobwork.m_class_priors'::text", (bobs,))
    a.execute("DELETE FROM madnb._models WHERE schema_name = 'work'")
    a.execute("INSERT INTO madnb._models SELECT * FROM mine")
    db.execute("SELECT madnb.drop_model('work.churn')")
    assert db.execute(
        "SELECT to_regclass(%s) IS NOT NULL, to_regprocedure('bobwork.m_predict(anyelement)') IS NOT NULL, "
        "to_regclass('bobwork.m_class_priors') IS NOT NULL", (bobs,)
    ).fetchone() == (True, True, True)
    db.execute("DROP SCHEMA bobwork CASCADE")


def test_a_granted_role_trains_a_large_model_whose_plpgsql_functions_and_helper_copies_predict_as_the_superusers(db, roles):
    # 150 classes x 2 features: past generated.INLINE_MAX_TERMS (PL/pgSQL), past 16 classes (the jsonb aggregate
    # in the copy of madnb._nb_proba_jsonb next to the model)
    a, _, alice, _ = roles
    db.execute("CREATE TABLE many_churn AS SELECT i AS id, 'c' || (i % 150) AS label, 'p' || (i % 7) AS plan, "
               "((i % 150) + (i % 9) / 3.0)::float8 AS minutes FROM generate_series(1, 1500) AS i")
    db.execute(f'GRANT SELECT ON many_churn TO "{alice}"')
    a.execute("SELECT madnb.train('work.big', 'many_churn', 'label', exclude => ARRAY['id'])")
    db.execute("SELECT madnb.train('big_reference', 'many_churn', 'label', exclude => ARRAY['id'])")
    assert db.execute(
        "SELECT l.lanname FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang WHERE p.oid = 'work.big_predict(text, float8)'::regprocedure"
    ).fetchone() == ("plpgsql",)
    mine = a.execute(
        "SELECT work.big_predict(t), work.big_predict_proba(t), work.big_predict_proba_array(t) FROM many_churn t ORDER BY id"
    ).fetchall()
    ref = db.execute(
        "SELECT madnb_models.big_reference_predict(t), madnb_models.big_reference_predict_proba(t), "
        "madnb_models.big_reference_predict_proba_array(t) FROM many_churn t ORDER BY id"
    ).fetchall()
    assert mine == ref
    a.execute("SELECT madnb.drop_model('work.big')")
    assert db.execute("SELECT count(*) FROM pg_proc WHERE pronamespace = 'work'::regnamespace").fetchone() == (0,)
