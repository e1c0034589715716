"""Golden files of the SQL madnb generates, and of its public SQL surface (issue 10, point 6).

For a handful of representative specs (categorical codes, text values in a
dictionary, Gaussian, mixed, wide with its LATERAL form, fractional floats with
the 'join' lookup, codes in far-apart ranges, private training with a public and
with a private domain, statistics tables, a model merged from them, an update) every
statement madnb's PL/Python code sends to the server while training or creating
each kind of view is written to ``tests/golden/<operation>_<spec>.sql``, with each
view's definition as the server keeps it (``pg_get_viewdef``).  A change to the
generated SQL then shows in the diff of those files; the test fails until they are
regenerated.  ``tests/golden/sql_surface.txt`` is the public interface of a fresh
install (functions with signatures and properties, tables, views, columns,
comments, grants to PUBLIC).

Regenerate (then read the diff)::

    MADNB_REGEN_GOLDEN=1 .venv/bin/pytest tests/sql_surface/test_golden_sql.py

See tests/golden/README.md for what is captured and how it is normalised.
"""

from __future__ import annotations

import pytest

from golden_files import GOLDEN, REGEN, REGEN_COMMAND, capture, check_golden, golden_text, normalise
from helpers import MANUAL_GAUSSIAN, MANUAL_TRAINING
from privacy_helpers import use_seeded_noise

SEED = 20261130

# ---------------------------------------------------------------------------
# Data: one table per representative spec (this file's own, so that other
# tests' data can change without touching the golden files)
# ---------------------------------------------------------------------------

DATA = MANUAL_TRAINING + MANUAL_GAUSSIAN + """
-- text values, varchar classes: the dictionary form
CREATE TABLE words (id int, class varchar(8), attributes text[]);
INSERT INTO words VALUES (1, 'spam', '{buy,now,x}'), (2, 'spam', '{buy,later,y}'), (3, 'ham', '{meet,now,x}'),
    (4, 'ham', '{meet,later,NULL}'), (5, 'ham', '{buy,later,x}');
CREATE TABLE words_test (id int, attributes text[]);
INSERT INTO words_test VALUES (1, '{buy,now,y}'), (2, '{meet,soon,x}'), (3, NULL);
-- categorical codes and a Gaussian attribute in one float8[]
CREATE TABLE mixed (id int, class text, attributes float8[]);
INSERT INTO mixed SELECT i, CASE WHEN i % 3 = 0 THEN 'b' ELSE 'a' END,
    ARRAY[(i % 4)::float8, 10 + (i % 7) + i / 100.0, (i % 2)::float8] FROM generate_series(1, 60) i;
CREATE TABLE mixed_test (id int, attributes float8[]);
INSERT INTO mixed_test SELECT i, ARRAY[(i % 5)::float8, 9 + i, (i % 3)::float8] FROM generate_series(1, 8) i;
CREATE TABLE mixed_domain (attr int, value text);
INSERT INTO mixed_domain VALUES (0, 'a'), (0, 'b'), (1, '0'), (1, '1'), (1, '2'), (1, '3'), (3, '0'), (3, '1');
-- 130 attributes x 2 classes: more class x attribute terms than a view unrolls (LATERAL)
CREATE TABLE wide (id int, class int, attributes int[]);
INSERT INTO wide SELECT i, i % 2, ARRAY(SELECT (i * j + j / 7) % 3 FROM generate_series(1, 130) j)
    FROM generate_series(1, 24) i;
-- codes in ranges far apart
CREATE TABLE spread (id int, class int, attributes int[]);
INSERT INTO spread SELECT i, i % 3, ARRAY[1000 + i % 2, 5000 + i % 3, -7000 + i % 4] FROM generate_series(1, 30) i;
-- fractional float values: neither codes nor a dictionary (the 'join' lookup)
CREATE TABLE halves (id int, class int, attributes float8[]);
INSERT INTO halves SELECT i, i % 2, ARRAY[(i % 3) + 0.5, (i % 4) / 4.0] FROM generate_series(1, 20) i;
-- two parts of the codes data, for statistics tables merged into one model
CREATE TABLE training_part1 AS SELECT * FROM training WHERE id <= 3;
CREATE TABLE training_part2 AS SELECT * FROM training WHERE id > 3;
"""

# spec: (training arguments with {fp} {np} {cp}, scoring arguments, numeric, ad hoc arguments or None)
SPECS: dict[str, tuple[str, str, bool, str | None]] = {
    "codes": (
        "'training', 'class', 'attributes', 3, '{fp}', '{cp}'", "'toclassify', 'id', 'attributes', 3", False,
        "'training', 'class', 'attributes', 'toclassify', 'id', 'attributes', 3",
    ),
    "text": (
        "'words', 'class', 'attributes', 3, '{fp}', '{cp}'", "'words_test', 'id', 'attributes', 3", False,
        "'words', 'class', 'attributes', 'words_test', 'id', 'attributes', 3",
    ),
    "gaussian": (
        "'gaussian_data', 'sex', 'attributes', 'ARRAY[1,2,3]', 3, '{fp}', '{np}', '{cp}'",
        "'gaussian_test', 'id', 'attributes', 3", True,
        "'gaussian_data', 'sex', 'attributes', '1,2,3', 'gaussian_test', 'id', 'attributes', 3",
    ),
    "mixed": (
        "'mixed', 'class', 'attributes', '2', 3, '{fp}', '{np}', '{cp}'", "'mixed_test', 'id', 'attributes', 3", True,
        "'mixed', 'class', 'attributes', '2', 'mixed_test', 'id', 'attributes', 3",
    ),
    "wide": (
        "'wide', 'class', 'attributes', 130, '{fp}', '{cp}'", "'wide', 'id', 'attributes', 130", False,
        "'wide', 'class', 'attributes', 'wide', 'id', 'attributes', 130",
    ),
    "spread": (
        "'spread', 'class', 'attributes', 3, '{fp}', '{cp}'", "'spread', 'id', 'attributes', 3", False, None,
    ),
    "join": (
        "'halves', 'class', 'attributes', 2, '{fp}', '{cp}'", "'halves', 'id', 'attributes', 2", False,
        "'halves', 'class', 'attributes', 'halves', 'id', 'attributes', 2",
    ),
    # private training with a public domain table (the views of a private model too)
    "private": (
        "'mixed', 'class', 'attributes', '2', 3, '{fp}', '{np}', '{cp}', "
        "epsilon => 2, bounds => '{{5,20}}', domain => 'mixed_domain'",
        "'mixed_test', 'id', 'attributes', 3", True, None,
    ),
}

# operation name (golden file stem) -> the call
Operation = tuple[str, str, list[str]]  # (file stem, SQL call, views whose definition is kept)


def operations() -> list[Operation]:
    ops: list[Operation] = []
    for spec, (train, classify, numeric, adhoc) in SPECS.items():
        fp, np, cp = f"{spec}_fp", f"{spec}_np", f"{spec}_cp"
        ops.append((f"train_{spec}",
                    f"SELECT madnb.create_nb_prepared_data_tables({train.format(fp=fp, np=np, cp=cp)})", []))
        for kind in ("classify", "probs"):
            view = f"{spec}_{kind}"
            model = f"'{fp}', '{cp}', {classify}" + (f", '{np}'" if numeric else "")
            ops.append((f"view_{kind}_{spec}", f"SELECT madnb.create_nb_{kind}_view({model}, '{view}')", [view]))
        if adhoc is not None:
            for kind in ("classify", "probs"):
                view = f"adhoc_{spec}_{kind}"
                ops.append((f"adhoc_{kind}_{spec}", f"SELECT madnb.create_nb_{kind}_view({adhoc}, '{view}')", [view]))
    ops += [
        # private training with a private domain (partition selection, delta)
        ("train_private_domain_private",
         "SELECT madnb.create_nb_prepared_data_tables('mixed', 'class', 'attributes', '2', 3, "
         "'pdp_fp', 'pdp_np', 'pdp_cp', epsilon => 20, bounds => '{{5,20}}', domain => 'private', delta => 1e-5)", []),
        # statistics tables: two exact parts, a private numeric one, and a model merged from the exact parts
        ("statistics_codes",
         "SELECT madnb.create_nb_statistics('training_part1', 'class', 'attributes', 3, 'stats_part1')", []),
        ("statistics_codes_part2",
         "SELECT madnb.create_nb_statistics('training_part2', 'class', 'attributes', 3, 'stats_part2')", []),
        ("statistics_private_mixed",
         "SELECT madnb.create_nb_statistics('mixed', 'class', 'attributes', '2', 3, 'stats_private', "
         "epsilon => 2, bounds => '{{5,20}}', domain => 'mixed_domain')", []),
        ("model_from_statistics_codes",
         "SELECT madnb.create_nb_model_from_statistics(ARRAY['stats_part1', 'stats_part2'], "
         "'merged_fp', NULL, 'merged_cp')", []),
        ("model_from_statistics_mixed",
         "SELECT madnb.create_nb_model_from_statistics(ARRAY['stats_private'], "
         "'merged_private_fp', 'merged_private_np', 'merged_private_cp')", []),
        # an online update: a part added to the codes model, in place
        ("update_codes", "SELECT madnb.update_nb_model('stats_part1', 'codes_fp', NULL, 'codes_cp')", []),
    ]
    return ops


# ---------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------


def test_the_sql_each_training_and_view_generates_matches_its_golden_file(db):
    db.execute(DATA)
    db.execute("ANALYZE")  # statistics now, not whenever autovacuum comes by
    # seeded noise: the private releases are the same each run, so is the model whose views are captured
    # (that no noise reaches the SQL text is the next test's, with the secure sampler)
    use_seeded_noise(db, SEED)
    results: dict[str, str] = {}
    for stem, call, views in operations():
        statements = normalise(capture(db, call))
        viewdefs = [
            (v, normalise([db.execute("SELECT pg_get_viewdef(%s::regclass, true)", (v,)).fetchone()[0]])[0])
            for v in views
        ]
        results[stem + ".sql"] = golden_text(call, statements, viewdefs)
    failures = []
    for name, text in results.items():
        try:
            check_golden(name, text)
        except pytest.fail.Exception as e:
            failures.append(str(e))
    stale = sorted(p.name for p in GOLDEN.glob("*.sql") if p.name not in results)
    if REGEN:
        for name in stale:
            (GOLDEN / name).unlink()
    elif stale:
        failures.append(f"golden files no operation writes any more (regenerate with `{REGEN_COMMAND}`): {stale}")
    if failures:
        pytest.fail(f"{len(failures)} golden file(s) differ:\n\n" + "\n\n".join(failures), pytrace=False)


def test_private_training_puts_no_noise_into_the_sql_it_generates(db):
    """Two private trainings of the same data with different noise send the same SQL text."""
    db.execute(DATA)
    db.execute("ANALYZE")
    texts = []
    for out in ("first", "second"):
        call = ("SELECT madnb.create_nb_prepared_data_tables('mixed', 'class', 'attributes', '2', 3, "
                f"'{out}_fp', '{out}_np', '{out}_cp', epsilon => 2, bounds => '{{{{5,20}}}}', domain => 'mixed_domain')")
        texts.append([t.replace(out, "<out>") for t in normalise(capture(db, call))])
    # the noise did differ: the two released models are not the same
    first, second = (sorted(map(repr, db.execute(f"SELECT * FROM {out}_fp").fetchall())) for out in ("first", "second"))
    assert first != second
    assert texts[0] == texts[1]


SURFACE = """
WITH s AS (SELECT n.oid, n.nspname FROM pg_namespace AS n WHERE n.nspname IN ('madnb', 'madnb_privacy', 'madnb_statistics'))
SELECT line FROM (
SELECT 'schema ' || s.nspname || E'\\n    comment: ' || coalesce(obj_description(s.oid, 'pg_namespace'), '<none>')
FROM s
UNION ALL
SELECT 'function ' || p.oid::regprocedure::text
       || E'\\n    arguments: ' || pg_get_function_arguments(p.oid)
       || E'\\n    returns: ' || coalesce(pg_get_function_result(p.oid), '<none>')
       || E'\\n    kind=' || p.prokind::text || ' language=' || l.lanname
       || ' volatility=' || p.provolatile::text || ' strict=' || p.proisstrict || ' parallel=' || p.proparallel::text
       || ' security_definer=' || p.prosecdef || ' config=' || coalesce(array_to_string(p.proconfig, ','), '<none>')
       || E'\\n    comment: ' || coalesce(obj_description(p.oid, 'pg_proc'), '<none>')
FROM pg_proc AS p JOIN s ON s.oid = p.pronamespace JOIN pg_language AS l ON l.oid = p.prolang
UNION ALL
SELECT 'relation ' || s.nspname || '.' || c.relname || ' kind=' || c.relkind::text
       || E'\\n    comment: ' || coalesce(obj_description(c.oid, 'pg_class'), '<none>')
FROM pg_class AS c JOIN s ON s.oid = c.relnamespace WHERE c.relkind IN ('r', 'v', 'm', 'p', 'f', 'S')
UNION ALL
SELECT 'column ' || s.nspname || '.' || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
       || ' notnull=' || a.attnotnull || ' default=' || coalesce(pg_get_expr(d.adbin, d.adrelid), '<none>')
       || E'\\n    comment: ' || coalesce(col_description(c.oid, a.attnum), '<none>')
FROM pg_attribute AS a JOIN pg_class AS c ON c.oid = a.attrelid JOIN s ON s.oid = c.relnamespace
LEFT JOIN pg_attrdef AS d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
WHERE c.relkind IN ('r', 'v', 'm', 'p', 'f') AND a.attnum > 0 AND NOT a.attisdropped
UNION ALL
SELECT 'type ' || t.oid::regtype::text || ' kind=' || t.typtype::text
       || E'\\n    comment: ' || coalesce(obj_description(t.oid, 'pg_type'), '<none>')
FROM pg_type AS t JOIN s ON s.oid = t.typnamespace WHERE t.typtype <> 'b' AND t.typrelid = 0
UNION ALL
SELECT 'grant to PUBLIC: ' || x.privilege_type || ' on schema ' || s.nspname
FROM s JOIN pg_namespace AS n ON n.oid = s.oid, aclexplode(n.nspacl) AS x WHERE x.grantee = 0
UNION ALL
SELECT 'grant to PUBLIC: ' || x.privilege_type || ' on function ' || p.oid::regprocedure::text
FROM pg_proc AS p JOIN s ON s.oid = p.pronamespace,
     aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) AS x WHERE x.grantee = 0
UNION ALL
SELECT 'grant to PUBLIC: ' || x.privilege_type || ' on ' || s.nspname || '.' || c.relname
FROM pg_class AS c JOIN s ON s.oid = c.relnamespace, aclexplode(c.relacl) AS x
WHERE x.grantee = 0 AND c.relkind IN ('r', 'v', 'm', 'p', 'f', 'S')
) AS surface(line)
ORDER BY line COLLATE "C"
"""


def test_the_public_sql_surface_of_a_fresh_install_matches_its_snapshot(db):
    db.execute("SET search_path = pg_catalog")  # every name schema-qualified
    lines = [r[0] for r in db.execute(SURFACE).fetchall()]
    text = (
        "# The public SQL surface of a fresh madnb install: every object in schemas madnb, madnb_privacy\n"
        f"# and madnb_statistics, with its interface and comment.  Regenerate: {REGEN_COMMAND}\n\n"
        + "\n".join(lines) + "\n"
    )
    check_golden("sql_surface.txt", text)
