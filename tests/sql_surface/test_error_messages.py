"""Errors read as PostgreSQL errors: no PL/Python prefix, no Python traceback.

Every public madnb function is a thin PL/pgSQL wrapper that re-raises the
errors of its PL/Python entry point with the same SQLSTATE, message, DETAIL and
HINT; the CONTEXT then names the madnb function.
"""

from __future__ import annotations

import subprocess

import pytest

from helpers import MANUAL_GAUSSIAN, MANUAL_TRAINING, sqlstate_of
from madnb._cluster import find_bindir

PREFIXES = ("plpy.", "spiexceptions.", "Traceback", "PL/Python")


@pytest.fixture
def manual(db):
    db.execute(MANUAL_TRAINING)
    db.execute(MANUAL_GAUSSIAN)
    db.execute("SELECT create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp')")
    db.execute(
        "SELECT create_nb_prepared_data_tables('gaussian_data', 'sex', 'attributes', 'ARRAY[1,2]', 3, 'gfp', 'gnp', 'gcp')"
    )
    return db


# (call, expected SQLSTATE, expected primary message, function named in the CONTEXT)
CASES = [
    ("SELECT create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp2')",
     "42P07", 'relation "public.fp" already exists', "create_nb_prepared_data_tables"),
    ("SELECT create_nb_prepared_data_tables('gaussian_data', 'sex', 'attributes', 'ARRAY[1,2]', 3, 'f', 'n', 'c', epsilon => -1)",
     "22023", "epsilon must be a positive finite number, got -1.0", "create_nb_prepared_data_tables"),
    ("SELECT create_nb_classify_view('fp', 'nosuch', 'toclassify', 'id', 'attributes', 3, 'v')",
     "42P01", 'relation "nosuch" does not exist', "create_nb_classify_view"),
    ("SELECT create_nb_classify_view('gfp', 'gcp', 'gaussian_test', 'id', 'attributes', 3, 'gnp', 'gaussian_test')",
     "42P07", 'relation "public.gaussian_test" already exists', "create_nb_classify_view"),
    ("SELECT create_nb_classify_view('training', 'class', 'nosuch', 'toclassify', 'id', 'attributes', 3, 'v')",
     "42703", 'column "nosuch" does not exist in public.training', "create_nb_classify_view"),
    ("SELECT create_nb_classify_view('gaussian_data', 'sex', 'attributes', 'ARRAY[1,9]', 'gaussian_test', 'id', 'attributes', 3, 'v')",
     "22023", "numeric attribute index 9 is out of range 1..3", "create_nb_classify_view"),
    ("SELECT create_nb_probs_view('fp', 'cp', 'toclassify', 'id', 'attributes', 0, 'v')",
     "22023", "numAttrs must be at least 1, got 0", "create_nb_probs_view"),
    ("SELECT create_nb_probs_view('gfp', 'gcp', 'gaussian_test', 'id', 'attributes', 3, 'nosuch', 'v')",
     "42P01", 'relation "nosuch" does not exist', "create_nb_probs_view"),
    ("SELECT create_nb_probs_view('training', 'class', 'attributes', 'toclassify', 'id', 'nosuch', 3, 'v')",
     "42703", 'column "nosuch" does not exist in public.toclassify', "create_nb_probs_view"),
    ("SELECT create_nb_probs_view('gaussian_data', 'sex', 'attributes', 'x', 'gaussian_test', 'id', 'attributes', 3, 'v')",
     "22P02", "invalid numericAttrsColumnIndices: 'x'", "create_nb_probs_view"),
    ("SELECT dp_laplace(1.5, 1, 1)", "22023", "value must be an integer", "dp_laplace"),
]


@pytest.mark.parametrize("call, state, message, function", CASES, ids=[c[3] + "-" + c[1] for c in CASES])
def test_every_public_function_raises_a_plain_postgresql_error(manual, call, state, message, function):
    e = sqlstate_of(manual, call)
    assert e.sqlstate == state
    assert e.diag.message_primary == message
    context = e.diag.context or ""
    assert f"function {function}(" in context or f"function madnb.{function}(" in context
    for text in (e.diag.message_primary, e.diag.message_detail or "", e.diag.message_hint or "", context):
        assert not any(p in text for p in PREFIXES), text


def test_detail_and_hint_survive_the_wrapper(manual):
    e = sqlstate_of(manual, "SELECT create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp2')")
    assert e.diag.message_detail == "featureProbsDestName is 'fp'"
    assert e.diag.message_hint == "drop it first or choose another name"


def test_an_error_raised_by_postgresql_inside_madnb_keeps_its_sqlstate_without_a_prefix(manual):
    manual.execute("CREATE ROLE madnb_err_reader")
    try:
        manual.execute("SELECT madnb.grant_usage('madnb_err_reader')")  # everything but SELECT on the data
        manual.execute("REVOKE ALL ON training FROM PUBLIC")
        manual.execute("SET ROLE madnb_err_reader")
        e = sqlstate_of(manual, "SELECT madnb.create_nb_prepared_data_tables('public.training', 'class', 'attributes', 3, 'x1', 'x2')")
        manual.execute("RESET ROLE")
        assert e.sqlstate == "42501"
        assert e.diag.message_primary == "permission denied for table training"
        assert "Traceback" not in (e.diag.context or "")
    finally:
        manual.execute("RESET ROLE")
        manual.execute("DROP OWNED BY madnb_err_reader")
        manual.execute("DROP ROLE madnb_err_reader")


def test_psql_shows_the_error_as_postgresql_does(manual):
    info = manual.info
    psql = find_bindir() / "psql"
    out = subprocess.run(
        [str(psql), "-X", "-h", info.host, "-p", str(info.port), "-U", info.user, "-d", info.dbname,
         "-v", "VERBOSITY=verbose", "-c",
         "SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp2')"],
        capture_output=True, text=True,
    )
    lines = out.stderr.splitlines()
    assert lines[0] == 'ERROR:  42P07: relation "public.fp" already exists'
    assert lines[1] == "DETAIL:  featureProbsDestName is 'fp'"
    assert lines[2] == "HINT:  drop it first or choose another name"
    assert lines[3].startswith("CONTEXT:  PL/pgSQL function madnb.create_nb_prepared_data_tables(")
    assert "Traceback" not in out.stderr and "plpy" not in out.stderr
