"""Golden files of the SQL madnb.train generates and of the prediction functions it writes (issue 12).

Same machinery as tests/sql_surface/test_golden_sql.py (tests/golden_files.py:
every statement madnb's PL/Python code sends, normalised), into
tests/golden/models/: the training statements,
then each generated function as the server keeps it (``pg_get_functiondef``).
Regenerate with ``make golden`` and read the diff.
"""

from __future__ import annotations

from golden_files import GOLDEN, REGEN, capture, check_golden, golden_text, normalise
from helpers import statements_sent

DATA = """
CREATE TABLE pets (id int PRIMARY KEY, species varchar(8), colour text, legs int, weight float8, indoor boolean, age numeric);
INSERT INTO pets SELECT i, CASE WHEN i % 3 = 0 THEN 'cat' WHEN i % 3 = 1 THEN 'dog' ELSE 'fish' END,
    (ARRAY['black', 'white', 'ginger'])[1 + i % 3 + i % 2 - (i % 2) * (i % 3 / 2)], (i % 3) * 2,
    1.5 + (i % 5) * 2.25 + i / 100.0, i % 4 = 0, CASE WHEN i % 7 = 0 THEN 'NaN'::numeric ELSE i % 9 END
FROM generate_series(1, 45) i;
ANALYZE pets;
"""


def train_and_functions_text(db, call: str) -> str:
    """The golden text of a training call: its statements, then every function of madnb_models as the server keeps it."""
    statements = normalise(capture(db, call))
    functions = db.execute(
        "SELECT p.oid::regprocedure::text, pg_get_functiondef(p.oid) FROM pg_proc p "
        "WHERE p.pronamespace = 'madnb_models'::regnamespace ORDER BY 1"
    ).fetchall()
    text = golden_text(call, statements, [])
    return text + "".join(f"\n-- function {name} (pg_get_functiondef)\n{d.rstrip()}\n" for name, d in functions)


CALL = "SELECT madnb.train('pets_nb', 'pets', 'species', exclude => ARRAY['id'], categorical => ARRAY['legs'])"


def test_the_sql_train_generates_and_its_prediction_functions_match_their_golden_files(db):
    db.execute(DATA)
    if REGEN:
        (GOLDEN / "models").mkdir(exist_ok=True)
    check_golden("models/train_pets.sql", train_and_functions_text(db, CALL))


PRIVATE_CALL = (
    "SELECT madnb.train('pets_dp', 'pets', 'species', exclude => ARRAY['id'], categorical => ARRAY['legs'], "
    "epsilon => 1, bounds => '{\"weight\": [0, 20], \"age\": [0, 10]}', "
    "domain => '{\"species\": [\"cat\", \"dog\", \"fish\"], \"colour\": [\"black\", \"white\", \"ginger\"], "
    "\"legs\": [0, 2, 4], \"indoor\": [true, false]}')"
)


def test_the_sql_a_private_train_generates_matches_its_golden_file(db):
    db.execute(DATA)
    if REGEN:
        (GOLDEN / "models").mkdir(exist_ok=True)

    def seeded_call() -> None:
        # the generated functions hold the noisy numbers: seeded noise, set after capture has loaded
        # madnb's Python (which resets it) and without loading it again (use_seeded_noise would)
        db.execute(
            "DO $$\nimport sys\n"
            "sys.modules['madnb_pl.privacy.noise'].use_test_source(sys.modules['madnb_pl.privacy.noise'].seeded_source(12))\n"
            "$$ LANGUAGE plpython3u"
        )
        db.execute(PRIVATE_CALL)

    statements = normalise(statements_sent(db, seeded_call))
    check_golden("models/train_pets_private.sql", golden_text(PRIVATE_CALL, statements, []))


KIND_CALLS = {
    "train_pets_gaussian.sql": "SELECT madnb.train('pets_g', 'pets', 'species', features => ARRAY['legs', 'weight', 'age'], "
    """kind => 'gaussian', options => '{"var_smoothing": 1e-6, "priors": [0.2, 0.3, 0.5]}')""",
    "train_pets_categorical.sql": "SELECT madnb.train('pets_c', 'pets', 'species', features => ARRAY['colour', 'legs', 'indoor'], "
    """kind => 'categorical', options => '{"alpha": 0.5, "min_categories": {"colour": 5}, "fit_prior": false}')""",
}


def test_the_sql_of_the_scikit_learn_kinds_and_their_prediction_functions_match_their_golden_files(db):
    db.execute(DATA)
    for file, call in KIND_CALLS.items():
        check_golden(f"models/{file}", train_and_functions_text(db, call))
        db.execute("SELECT madnb.drop_model(%s)", [call.split("'")[1]])
