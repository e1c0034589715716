"""A named model's object names (madnb_pl.models.catalog.ModelObjects) and the row checks' bound, read without a server."""

from __future__ import annotations

from madnb_pl.models.catalog import FUNCTION_SUFFIXES, MAX_MODEL_NAME_BYTES, TABLE_SUFFIXES, ModelObjects
from madnb_pl.predict.generated import CHECK_BODY_BYTES, MAX_COLUMNS, MAX_ROW_CHECKS, row_checks


def test_no_suffix_of_a_models_objects_ends_with_another_so_two_models_never_share_a_name():
    # model x's name + s1 equals model y's + s2 (s1 != s2) only if one suffix ends with the other
    suffixes = FUNCTION_SUFFIXES + TABLE_SUFFIXES
    assert len(set(suffixes)) == len(suffixes)
    assert [(a, b) for a in suffixes for b in suffixes if a != b and a.endswith(b)] == []


def test_every_object_name_of_the_longest_model_name_fits_in_63_bytes():
    assert MAX_MODEL_NAME_BYTES == 43  # as before the row checks: the longest suffix is still _predict_proba_array
    objects = ModelObjects("madnb_models", "é" * (MAX_MODEL_NAME_BYTES // 2) + "x")
    assert len(objects.prefix.encode()) == MAX_MODEL_NAME_BYTES
    names = objects.function_names + [t.name for t in objects.tables(True).all()]
    assert max(len(n.encode()) for n in names) <= 63
    assert objects.prefix + f"_row_check_{MAX_ROW_CHECKS}" in objects.function_names


def test_the_widest_table_with_the_longest_quoted_names_needs_at_most_max_row_checks_each_within_its_bytes():
    # 63 bytes of double quotes but the number: quoted, each is twice as long
    columns = ['"' + ('"' * 59 + f"{j:04d}").replace('"', '""') + '"' for j in range(MAX_COLUMNS)]
    checks = row_checks(columns)
    assert len(checks) <= MAX_ROW_CHECKS
    assert max(len(body.encode()) for body, _ in checks) <= CHECK_BODY_BYTES
    assert [c for _, cols in checks for c in cols] == columns
    assert all(body.count("($1).") == len(cols) for body, cols in checks)


def test_a_row_check_names_each_column_once_in_a_case_the_planner_folds_to_the_row():
    checks = row_checks(['"a"', '"b"'])
    assert checks == [('SELECT CASE WHEN false AND ROW(($1)."a", ($1)."b") IS NULL THEN $1 ELSE $1 END', ['"a"', '"b"'])]
