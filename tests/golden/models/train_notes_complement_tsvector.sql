-- golden SQL of: SELECT madnb.train('notes_c', 'notes', 'topic', features => ARRAY['doc'], kind => 'complement', options => '{"norm": true}')
-- regenerate: make golden

-- statement 1
SELECT pg_catalog.current_setting('search_path') AS p, pg_catalog.current_setting('extra_float_digits') AS f, pg_catalog.current_setting('DateStyle') AS d

-- statement 2
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 3
SELECT n.oid IS NOT NULL AS found, pg_catalog.has_schema_privilege(n.oid, 'CREATE') AS ok, (SELECT r.rolname::pg_catalog.text FROM pg_catalog.pg_roles AS r WHERE NOT r.rolsuper AND r.rolname OPERATOR(pg_catalog.<>) CURRENT_USER AND pg_catalog.has_schema_privilege(r.oid, n.oid, 'CREATE') ORDER BY r.rolname LIMIT 1) AS other, pg_catalog.has_schema_privilege('public', n.oid, 'CREATE') AS everyone FROM (SELECT 1) AS one LEFT JOIN pg_catalog.pg_namespace AS n ON n.nspname OPERATOR(pg_catalog.=) $1

-- statement 4
SELECT pg_catalog.pg_advisory_xact_lock(1835101548, pg_catalog.hashtext($1))

-- statement 5
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 6
SELECT pg_catalog.to_regclass($1)::pg_catalog.oid::pg_catalog.int8 AS oid

-- statement 7
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 8
SELECT c.oid::pg_catalog.int8 AS oid, n.nspname::pg_catalog.text AS schema, c.relname::pg_catalog.text AS name, c.relkind::pg_catalog.text AS kind FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace WHERE c.oid OPERATOR(pg_catalog.=) $1

-- statement 9
WITH RECURSIVE d(top, oid, depth) AS (SELECT a.atttypid, a.atttypid, 0 FROM pg_catalog.pg_attribute AS a WHERE a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped UNION SELECT d.top, t.typbasetype, d.depth OPERATOR(pg_catalog.+) 1 FROM d JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT a.attname::pg_catalog.text AS name, b.oid::pg_catalog.int8 AS base, (b.typtype OPERATOR(pg_catalog.=) 'e') AS enum, b.typname::pg_catalog.text AS base_name, pg_catalog.format_type(b.oid, NULL) AS base_sql, (b.typnamespace OPERATOR(pg_catalog.=) 'pg_catalog'::pg_catalog.regnamespace AND b.typtype OPERATOR(pg_catalog.<>) 'e') AS builtin FROM pg_catalog.pg_attribute AS a JOIN LATERAL (SELECT d.oid FROM d WHERE d.top OPERATOR(pg_catalog.=) a.atttypid ORDER BY d.depth DESC LIMIT 1) AS bo ON true JOIN pg_catalog.pg_type AS b ON b.oid OPERATOR(pg_catalog.=) bo.oid WHERE a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped ORDER BY a.attnum

-- statement 10
WITH RECURSIVE w(ord, name) AS (SELECT u.o, u.n FROM pg_catalog.unnest($2::pg_catalog.name[]) WITH ORDINALITY AS u(n, o)), c AS (SELECT w.ord, a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM w LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) w.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped LEFT JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid), d(ord, oid) AS (SELECT c.ord, COALESCE(c.elemoid, c.typoid)::pg_catalog.oid FROM c WHERE $3 AND c.typoid IS NOT NULL UNION ALL SELECT d.ord, t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT c.name, c.typ, c.typoid, c.elem, c.elemoid, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid OPERATOR(pg_catalog.=) o.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) o.opcnamespace WHERE o.opcdefault AND m.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND o.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d WHERE d.ord OPERATOR(pg_catalog.=) c.ord) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1) AS equality_schema FROM c ORDER BY c.ord

-- statement 11
SELECT c.collname::pg_catalog.text AS coll FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_collation c ON c.oid OPERATOR(pg_catalog.=) a.attcollation WHERE a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) $2 AND NOT c.collisdeterministic

-- statement 12
WITH RECURSIVE w(ord, name) AS (SELECT u.o, u.n FROM pg_catalog.unnest($2::pg_catalog.name[]) WITH ORDINALITY AS u(n, o)), c AS (SELECT w.ord, a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM w LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) w.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped LEFT JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid), d(ord, oid) AS (SELECT c.ord, COALESCE(c.elemoid, c.typoid)::pg_catalog.oid FROM c WHERE $3 AND c.typoid IS NOT NULL UNION ALL SELECT d.ord, t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT c.name, c.typ, c.typoid, c.elem, c.elemoid, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid OPERATOR(pg_catalog.=) o.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) o.opcnamespace WHERE o.opcdefault AND m.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND o.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d WHERE d.ord OPERATOR(pg_catalog.=) c.ord) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1) AS equality_schema FROM c ORDER BY c.ord

-- statement 13
WITH RECURSIVE d(oid, base) AS (SELECT t.oid, t.typbasetype FROM pg_catalog.pg_type AS t WHERE t.oid OPERATOR(pg_catalog.=) $1 UNION ALL SELECT t.oid, t.typbasetype FROM d JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) d.base) SELECT b.oid::pg_catalog.int8 AS oid, pg_catalog.format_type(b.oid, NULL) AS s, b.typname::pg_catalog.text AS name, b.typtype::pg_catalog.text AS k, (b.typnamespace OPERATOR(pg_catalog.=) 'pg_catalog'::pg_catalog.regnamespace AND b.typtype OPERATOR(pg_catalog.<>) 'e') AS builtin FROM d JOIN pg_catalog.pg_type AS b ON b.oid OPERATOR(pg_catalog.=) d.oid WHERE d.base OPERATOR(pg_catalog.=) 0

-- statement 14
SELECT pg_catalog.current_setting('madnb.progress', true) AS v

-- statement 15
SELECT m.kind, m.source, m.label, m.label_type, m.features::pg_catalog.text AS features, m.classes, m.smoothing, m.training_rows, m.parameters::pg_catalog.text AS parameters, m.statistics, m.functions, m.tables, m.owner::pg_catalog.text AS owner, m.privacy::pg_catalog.text AS privacy, m.version FROM madnb._models AS m WHERE m.schema_name OPERATOR(pg_catalog.=) $1 AND m.name OPERATOR(pg_catalog.=) $2

-- statement 16
SELECT pg_catalog.max(v.version) AS v FROM madnb._model_versions AS v WHERE v.schema_name OPERATOR(pg_catalog.=) $1 AND v.name OPERATOR(pg_catalog.=) $2

-- statement 17
SELECT p.oid::pg_catalog.regprocedure::pg_catalog.text AS f, pg_catalog.md5(p.prosrc) AS h FROM pg_catalog.pg_proc AS p WHERE p.pronamespace OPERATOR(pg_catalog.=) pg_catalog.to_regnamespace($1) AND p.proname::pg_catalog.text OPERATOR(pg_catalog.=) ANY ($2)

-- statement 18
SELECT pg_catalog.to_regclass(pg_catalog.quote_ident($1) OPERATOR(pg_catalog.||) '.' OPERATOR(pg_catalog.||) pg_catalog.quote_ident($2)) IS NOT NULL AS t

-- statement 19
CREATE TEMPORARY TABLE pg_temp."madnb_vecstats_<hex1>" ON COMMIT DROP AS SELECT t."topic" AS cls, 0 AS o, NULL::pg_catalog.text AS v, pg_catalog.count(*)::pg_catalog.numeric AS n, 0::pg_catalog.int8 AS bad FROM "public"."notes" AS t WHERE t."doc" IS NOT NULL GROUP BY 1 UNION ALL SELECT NULL, -1, NULL, pg_catalog.count(*)::pg_catalog.numeric, 0 FROM "public"."notes" AS t WHERE t."topic" IS NOT NULL AND t."doc" IS NULL UNION ALL SELECT t."topic", 1, u.lexeme, pg_catalog.sum(COALESCE(pg_catalog.cardinality(u.positions), 1)::pg_catalog.float8)::pg_catalog.numeric, 0::pg_catalog.int8 FROM "public"."notes" AS t CROSS JOIN LATERAL pg_catalog.unnest(t."doc") AS u WHERE t."topic" IS NOT NULL GROUP BY 1, 3

-- statement 20
SELECT COALESCE(pg_catalog.sum(s.n), 0)::pg_catalog.int8 AS n FROM pg_temp."madnb_vecstats_<hex1>" AS s WHERE s.o OPERATOR(pg_catalog.=) -1

-- statement 21
SELECT COALESCE(pg_catalog.sum(s.n) FILTER (WHERE s.cls IS NOT NULL), 0)::pg_catalog.int8 AS rows, COALESCE(pg_catalog.sum(s.bad), 0)::pg_catalog.int8 AS bad, pg_catalog.min(pg_catalog.split_part(s.v, ':', 1)::pg_catalog.int8) AS lo, pg_catalog.max(pg_catalog.split_part(s.v, ':', 2)::pg_catalog.int8) AS hi FROM pg_temp."madnb_vecstats_<hex1>" AS s WHERE s.o OPERATOR(pg_catalog.=) 0 AND s.cls IS NOT NULL

-- statement 22
SELECT pg_catalog.to_char(pg_catalog.statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t

-- statement 23
CREATE TEMPORARY TABLE pg_temp."madnb_kept_<hex2>" (cls text, attr pg_catalog.int4 NOT NULL, value pg_catalog.text, n pg_catalog.numeric, nv pg_catalog.int8, mean pg_catalog.float8, mean_lo pg_catalog.float8, var pg_catalog.float8, s1 pg_catalog.numeric, s2 pg_catalog.numeric)

-- statement 24
SELECT madnb._create_kept_statistics($1, $2::pg_catalog.regclass, CURRENT_USER)

-- statement 25
DROP TABLE pg_temp."madnb_kept_<hex2>"

-- statement 26
INSERT INTO "madnb_statistics"."madnb_models.notes_c" (cls, attr, value, n) SELECT s.cls, s.o, CASE WHEN s.o OPERATOR(pg_catalog.>) 0 THEN s.v END, s.n FROM pg_temp."madnb_vecstats_<hex1>" AS s WHERE s.cls IS NOT NULL AND s.o OPERATOR(pg_catalog.>=) 0

-- statement 27
DROP TABLE pg_temp."madnb_vecstats_<hex1>"

-- statement 28
COMMENT ON TABLE "madnb_statistics"."madnb_models.notes_c" IS 'madnb statistics {"bounds": null, "class_type": "text", "created_at": "<created_at>", "delta": null, "domain": null, "domain_fingerprint": null, "element_type": "text", "epsilon": null, "epsilon_per_query": null, "fixed_point_bits": null, "fixed_point_scale": null, "format": 1, "guarantee": null, "id": "<id>", "mode": "exact", "num_attrs": 1, "numeric": [], "release_id": null, "source": "public.notes", "vector": "tsvector"}'

-- statement 29
SELECT pg_catalog.count(*) AS k, COALESCE(pg_catalog.sum(s.n), 0)::pg_catalog.int8 AS n, pg_catalog.format('%s', (pg_catalog.array_agg(s.cls))[1]) AS one FROM "madnb_statistics"."madnb_models.notes_c" AS s WHERE s.attr OPERATOR(pg_catalog.=) 0

-- statement 30
SELECT pg_catalog.to_regclass($1)::pg_catalog.oid::pg_catalog.int8 AS o

-- statement 31
SELECT (s.cls)::pg_catalog.text AS c, pg_catalog.sum(s.n)::pg_catalog.float8 AS n FROM "madnb_statistics"."madnb_models.notes_c" AS s WHERE s.attr OPERATOR(pg_catalog.=) 0 GROUP BY s.cls ORDER BY s.cls

-- statement 32
CREATE TABLE "madnb_models"."notes_c_class_priors" (class text PRIMARY KEY, class_count pg_catalog.float8 NOT NULL, log_prior pg_catalog.float8 NOT NULL)

-- statement 33
INSERT INTO "madnb_models"."notes_c_class_priors" (class, class_count, log_prior) SELECT s.cls, s.n, p.lp FROM (SELECT s.cls, pg_catalog.sum(s.n)::pg_catalog.float8 AS n, pg_catalog.row_number() OVER (ORDER BY s.cls) AS i FROM "madnb_statistics"."madnb_models.notes_c" AS s WHERE s.attr OPERATOR(pg_catalog.=) 0 GROUP BY s.cls) AS s JOIN pg_catalog.unnest($1::pg_catalog.float8[]) WITH ORDINALITY AS p(lp, i) ON p.i OPERATOR(pg_catalog.=) s.i

-- statement 34
ANALYZE "madnb_statistics"."madnb_models.notes_c"

-- statement 35
ANALYZE "madnb_models"."notes_c_class_priors"

-- statement 36
CREATE TABLE "madnb_models"."notes_c_feature_probs" (class text NOT NULL, feature pg_catalog.int4 NOT NULL, term pg_catalog.text, count pg_catalog.float8 NOT NULL, log_prob pg_catalog.float8 NOT NULL, PRIMARY KEY (class, feature))

-- statement 37
INSERT INTO "madnb_models"."notes_c_feature_probs" WITH v AS (SELECT (pg_catalog.row_number() OVER (ORDER BY d.value COLLATE "C"))::pg_catalog.int4 AS feature, d.value AS term FROM (SELECT DISTINCT s.value FROM "madnb_statistics"."madnb_models.notes_c" AS s WHERE s.attr OPERATOR(pg_catalog.=) 1) AS d), f AS (SELECT c.class, v.feature, v.term, COALESCE(s.n, 0)::pg_catalog.float8 AS count, c.class_count AS cc FROM "madnb_models"."notes_c_class_priors" AS c CROSS JOIN v LEFT JOIN (SELECT s.cls, s.attr, s.value, pg_catalog.sum(s.n) AS n FROM "madnb_statistics"."madnb_models.notes_c" AS s WHERE s.attr OPERATOR(pg_catalog.>) 0 GROUP BY 1, 2, 3) AS s ON s.cls OPERATOR(pg_catalog.=) c.class AND s.attr OPERATOR(pg_catalog.=) 1 AND s.value OPERATOR(pg_catalog.=) v.term), g AS (SELECT f.class, f.feature, f.term, f.count, (pg_catalog.sum(f.count) OVER (PARTITION BY f.feature) OPERATOR(pg_catalog.+) '1.0'::pg_catalog.float8 OPERATOR(pg_catalog.-) f.count) AS comp FROM f), h AS (SELECT g.class, g.feature, g.term, g.count, pg_catalog.ln(g.comp OPERATOR(pg_catalog./) pg_catalog.sum(g.comp) OVER (PARTITION BY g.class)) AS logged FROM g) SELECT h.class, h.feature, h.term, h.count, h.logged OPERATOR(pg_catalog./) pg_catalog.sum(h.logged) OVER (PARTITION BY h.class) FROM h

-- statement 38
COMMENT ON TABLE "madnb_models"."notes_c_class_priors" IS 'madnb model notes_c (complement): per class its training rows and log prior (scikit-learn''s class_count_, class_log_prior_)'

-- statement 39
GRANT SELECT ON "madnb_models"."notes_c_class_priors" TO PUBLIC

-- statement 40
COMMENT ON TABLE "madnb_models"."notes_c_feature_probs" IS 'madnb model notes_c (complement): per class and feature the summed statistic and its weight (scikit-learn''s feature_count_, feature_log_prob_)'

-- statement 41
GRANT SELECT ON "madnb_models"."notes_c_feature_probs" TO PUBLIC

-- statement 42
SELECT pg_catalog.textin(pg_catalog.array_out(pg_catalog.array_agg(c.class ORDER BY c.class))) AS t, pg_catalog.array_agg((c.class)::pg_catalog.text ORDER BY c.class) AS a, pg_catalog.array_agg(c.log_prior ORDER BY c.class) AS p FROM "madnb_models"."notes_c_class_priors" AS c

-- statement 43
SELECT pg_catalog.array_agg(f.log_prob ORDER BY f.feature) AS lp FROM "madnb_models"."notes_c_feature_probs" AS f GROUP BY f.class ORDER BY f.class

-- statement 44
SELECT f.term FROM "madnb_models"."notes_c_feature_probs" AS f WHERE f.class OPERATOR(pg_catalog.=) (SELECT pg_catalog.min(c.class) FROM "madnb_models"."notes_c_class_priors" AS c) ORDER BY f.feature

-- statement 45
CREATE OR REPLACE FUNCTION "madnb_models"."notes_c_predict"("doc" tsvector) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT (E''{food,pets}''::text[])[madnb._nb_best(CASE WHEN $1 IS NOT NULL THEN (SELECT ARRAY[''0.0''::pg_catalog.float8 OPERATOR(pg_catalog.+) COALESCE(pg_catalog.sum(u.x OPERATOR(pg_catalog.*) (''{0.10256248620895533,0.30801616388388625,0.10256248620895533,0.30801616388388625,0.10256248620895533,0.07628021360536141}''::pg_catalog.float8[])[u.j]), ''0''::pg_catalog.float8), ''0.0''::pg_catalog.float8 OPERATOR(pg_catalog.+) COALESCE(pg_catalog.sum(u.x OPERATOR(pg_catalog.*) (''{0.08286770209212754,0.08286770209212754,0.2504656312412058,0.08286770209212754,0.2504656312412058,0.2504656312412058}''::pg_catalog.float8[])[u.j]), ''0''::pg_catalog.float8)] FROM (SELECT COALESCE(pg_catalog.cardinality(e.positions), 1)::pg_catalog.float8 AS x, (E''{"and": 1, "bread": 2, "cat": 3, "cheese": 4, "dog": 5, "the": 6}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) e.lexeme)::pg_catalog.int4 AS j FROM pg_catalog.unnest($1) AS e) AS u WHERE u.x OPERATOR(pg_catalog.<>) ''0''::pg_catalog.float8) END)]'

-- statement 46
COMMENT ON FUNCTION "madnb_models"."notes_c_predict"(tsvector) IS 'madnb model notes_c (complement): the predicted class (the first class within 1e-12 of the best score) of the vector'

-- statement 47
CREATE OR REPLACE FUNCTION "madnb_models"."notes_c_predict_proba"("doc" tsvector) RETURNS pg_catalog.jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT madnb._nb_proba_jsonb(CASE WHEN $1 IS NOT NULL THEN (SELECT ARRAY[''0.0''::pg_catalog.float8 OPERATOR(pg_catalog.+) COALESCE(pg_catalog.sum(u.x OPERATOR(pg_catalog.*) (''{0.10256248620895533,0.30801616388388625,0.10256248620895533,0.30801616388388625,0.10256248620895533,0.07628021360536141}''::pg_catalog.float8[])[u.j]), ''0''::pg_catalog.float8), ''0.0''::pg_catalog.float8 OPERATOR(pg_catalog.+) COALESCE(pg_catalog.sum(u.x OPERATOR(pg_catalog.*) (''{0.08286770209212754,0.08286770209212754,0.2504656312412058,0.08286770209212754,0.2504656312412058,0.2504656312412058}''::pg_catalog.float8[])[u.j]), ''0''::pg_catalog.float8)] FROM (SELECT COALESCE(pg_catalog.cardinality(e.positions), 1)::pg_catalog.float8 AS x, (E''{"and": 1, "bread": 2, "cat": 3, "cheese": 4, "dog": 5, "the": 6}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) e.lexeme)::pg_catalog.int4 AS j FROM pg_catalog.unnest($1) AS e) AS u WHERE u.x OPERATOR(pg_catalog.<>) ''0''::pg_catalog.float8) END, E''{"food","pets"}''::pg_catalog.text[])'

-- statement 48
COMMENT ON FUNCTION "madnb_models"."notes_c_predict_proba"(tsvector) IS 'madnb model notes_c (complement): jsonb {class: probability} of the vector'

-- statement 49
CREATE OR REPLACE FUNCTION "madnb_models"."notes_c_predict_proba_array"("doc" tsvector) RETURNS pg_catalog.float8[] LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT madnb._nb_proba(CASE WHEN $1 IS NOT NULL THEN (SELECT ARRAY[''0.0''::pg_catalog.float8 OPERATOR(pg_catalog.+) COALESCE(pg_catalog.sum(u.x OPERATOR(pg_catalog.*) (''{0.10256248620895533,0.30801616388388625,0.10256248620895533,0.30801616388388625,0.10256248620895533,0.07628021360536141}''::pg_catalog.float8[])[u.j]), ''0''::pg_catalog.float8), ''0.0''::pg_catalog.float8 OPERATOR(pg_catalog.+) COALESCE(pg_catalog.sum(u.x OPERATOR(pg_catalog.*) (''{0.08286770209212754,0.08286770209212754,0.2504656312412058,0.08286770209212754,0.2504656312412058,0.2504656312412058}''::pg_catalog.float8[])[u.j]), ''0''::pg_catalog.float8)] FROM (SELECT COALESCE(pg_catalog.cardinality(e.positions), 1)::pg_catalog.float8 AS x, (E''{"and": 1, "bread": 2, "cat": 3, "cheese": 4, "dog": 5, "the": 6}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) e.lexeme)::pg_catalog.int4 AS j FROM pg_catalog.unnest($1) AS e) AS u WHERE u.x OPERATOR(pg_catalog.<>) ''0''::pg_catalog.float8) END)'

-- statement 50
COMMENT ON FUNCTION "madnb_models"."notes_c_predict_proba_array"(tsvector) IS 'madnb model notes_c (complement): float8[] of class probabilities in the order of madnb.model_classes of the vector'

-- statement 51
CREATE OR REPLACE FUNCTION "madnb_models"."notes_c_predict"(r anyelement) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT "madnb_models"."notes_c_predict"("doc" => ($1)."doc")'

-- statement 52
COMMENT ON FUNCTION "madnb_models"."notes_c_predict"(anyelement) IS 'madnb model notes_c (complement): the predicted class (the first class within 1e-12 of the best score) of a row holding the vector column'

-- statement 53
CREATE OR REPLACE FUNCTION "madnb_models"."notes_c_predict_proba"(r anyelement) RETURNS pg_catalog.jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT "madnb_models"."notes_c_predict_proba"("doc" => ($1)."doc")'

-- statement 54
COMMENT ON FUNCTION "madnb_models"."notes_c_predict_proba"(anyelement) IS 'madnb model notes_c (complement): jsonb {class: probability} of a row holding the vector column'

-- statement 55
CREATE OR REPLACE FUNCTION "madnb_models"."notes_c_predict_proba_array"(r anyelement) RETURNS pg_catalog.float8[] LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT "madnb_models"."notes_c_predict_proba_array"("doc" => ($1)."doc")'

-- statement 56
COMMENT ON FUNCTION "madnb_models"."notes_c_predict_proba_array"(anyelement) IS 'madnb model notes_c (complement): float8[] of class probabilities in the order of madnb.model_classes of a row holding the vector column'

-- statement 57
CREATE OR REPLACE FUNCTION "madnb_models"."notes_c_share_encoding"() RETURNS pg_catalog.jsonb LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'BEGIN RAISE EXCEPTION ''this model cannot be used for private prediction'' USING ERRCODE = ''0A000'', DETAIL = E''models of kind ''''complement'''' are not served yet'', HINT = ''private prediction serves models of Gaussian and categorical features with finite numbers''; END'

-- statement 58
CREATE OR REPLACE FUNCTION "madnb_models"."notes_c_score_share"(share pg_catalog.numeric[]) RETURNS pg_catalog.numeric[] LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'BEGIN RAISE EXCEPTION ''this model cannot be used for private prediction'' USING ERRCODE = ''0A000'', DETAIL = E''models of kind ''''complement'''' are not served yet'', HINT = ''private prediction serves models of Gaussian and categorical features with finite numbers''; END'

-- statement 59
COMMENT ON FUNCTION "madnb_models"."notes_c_share_encoding"() IS 'madnb model notes_c (complement): private prediction, the public encoding of a row for notes_c_score_share (jsonb: modulus, scales, classes, features and their values, the model''s fingerprint); this model cannot be served (models of kind ''complement'' are not served yet): raises 0A000'

-- statement 60
COMMENT ON FUNCTION "madnb_models"."notes_c_score_share"(pg_catalog.numeric[]) IS 'madnb model notes_c (complement): private prediction, one additive share (mod p) of an encoded row -> its share of every class''s log-score, in class order (madnb.private_predict adds the servers'' answers); this model cannot be served (models of kind ''complement'' are not served yet): raises 0A000'

-- statement 61
CREATE OR REPLACE FUNCTION "madnb_models"."notes_c_explain"("doc" tsvector) RETURNS pg_catalog.jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT CASE WHEN $1 IS NOT NULL THEN (SELECT madnb._nb_explain(ARRAY[''0.0''::pg_catalog.float8, ''0.0''::pg_catalog.float8], ARRAY[COALESCE(pg_catalog.array_agg(u.x OPERATOR(pg_catalog.*) (''{0.10256248620895533,0.30801616388388625,0.10256248620895533,0.30801616388388625,0.10256248620895533,0.07628021360536141}''::pg_catalog.float8[])[u.j] ORDER BY u.j), ''{}''::pg_catalog.float8[]), COALESCE(pg_catalog.array_agg(u.x OPERATOR(pg_catalog.*) (''{0.08286770209212754,0.08286770209212754,0.2504656312412058,0.08286770209212754,0.2504656312412058,0.2504656312412058}''::pg_catalog.float8[])[u.j] ORDER BY u.j), ''{}''::pg_catalog.float8[])], COALESCE(pg_catalog.array_agg(u.name ORDER BY u.j), ''{}''::pg_catalog.text[]), E''{"food","pets"}''::pg_catalog.text[]) FROM (SELECT COALESCE(pg_catalog.cardinality(e.positions), 1)::pg_catalog.float8 AS x, (E''{"and": 1, "bread": 2, "cat": 3, "cheese": 4, "dog": 5, "the": 6}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) e.lexeme)::pg_catalog.int4 AS j, e.lexeme AS name FROM pg_catalog.unnest($1) AS e) AS u WHERE u.x OPERATOR(pg_catalog.<>) ''0''::pg_catalog.float8 AND u.j IS NOT NULL) END'

-- statement 62
COMMENT ON FUNCTION "madnb_models"."notes_c_explain"(tsvector) IS 'madnb model notes_c (complement): jsonb explanation: per class the log prior and each feature''s contribution to the log-score the prediction functions use (they sum to it), the log-posterior, the predicted class, the runner-up and the features'' differences against it of the vector'

-- statement 63
CREATE OR REPLACE FUNCTION "madnb_models"."notes_c_explain"(r anyelement) RETURNS pg_catalog.jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT "madnb_models"."notes_c_explain"("doc" => ($1)."doc")'

-- statement 64
COMMENT ON FUNCTION "madnb_models"."notes_c_explain"(anyelement) IS 'madnb model notes_c (complement): jsonb explanation: per class the log prior and each feature''s contribution to the log-score the prediction functions use (they sum to it), the log-posterior, the predicted class, the runner-up and the features'' differences against it of a row holding the feature columns'

-- statement 65
SELECT p.oid::pg_catalog.regprocedure::pg_catalog.text AS f, pg_catalog.md5(p.prosrc) AS h FROM pg_catalog.pg_proc AS p WHERE p.pronamespace OPERATOR(pg_catalog.=) pg_catalog.to_regnamespace($1) AND p.proname::pg_catalog.text OPERATOR(pg_catalog.=) ANY ($2)

-- statement 66
INSERT INTO madnb._models (name, kind, source, label, label_type, features, classes, training_rows, smoothing, privacy, statistics, parameters, functions, tables, schema_name, version) VALUES ($1, $2, $3, $4, $5, $6::pg_catalog.jsonb, $7, $8, $9, $10::pg_catalog.jsonb, $11, $12::pg_catalog.jsonb, $13, ARRAY(SELECT pg_catalog.to_regclass(u.t)::pg_catalog.text FROM pg_catalog.unnest($14) WITH ORDINALITY AS u(t, i) ORDER BY u.i), $15, $16)

-- statement 67
SELECT pg_catalog.current_setting($1, true) AS v

-- statement 68
SELECT pg_catalog.to_regclass($1)::pg_catalog.oid::pg_catalog.int8 AS o

-- statement 69
SELECT pg_catalog.obj_description(c.oid, 'pg_class') AS c, c.relkind::pg_catalog.text AS kind FROM pg_catalog.pg_class AS c WHERE c.oid OPERATOR(pg_catalog.=) $1

-- statement 70
SELECT pg_catalog.to_regclass(pg_catalog.quote_ident($1) OPERATOR(pg_catalog.||) '.' OPERATOR(pg_catalog.||) pg_catalog.quote_ident($2)) IS NOT NULL AS t

-- statement 71
CREATE TEMPORARY TABLE pg_temp."madnb_kept_<hex3>" (LIKE "madnb_statistics"."madnb_models.notes_c")

-- statement 72
SELECT madnb._create_kept_statistics($1, $2::pg_catalog.regclass, CURRENT_USER)

-- statement 73
DROP TABLE pg_temp."madnb_kept_<hex3>"

-- statement 74
INSERT INTO "madnb_statistics"."madnb_models.notes_c@v1" (cls, attr, value, n, nv, mean, var, mean_lo, s1, s2) SELECT s.cls, s.attr, s.value, s.n, s.nv, s.mean, s.var, s.mean_lo, s.s1, s.s2 FROM "madnb_statistics"."madnb_models.notes_c" AS s

-- statement 75
COMMENT ON TABLE "madnb_statistics"."madnb_models.notes_c@v1" IS 'madnb statistics {"bounds": null, "class_type": "text", "created_at": "<created_at>", "delta": null, "domain": null, "domain_fingerprint": null, "element_type": "text", "epsilon": null, "epsilon_per_query": null, "fixed_point_bits": null, "fixed_point_scale": null, "format": 1, "guarantee": null, "id": "<id>", "mode": "exact", "num_attrs": 1, "numeric": [], "release_id": null, "source": "public.notes", "vector": "tsvector"}'

-- statement 76
INSERT INTO madnb._model_versions (schema_name, name, version, operation, source, rows, training_rows, classes, statistics, model) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::pg_catalog.jsonb)

-- statement 77
DELETE FROM madnb._model_versions AS v WHERE v.schema_name OPERATOR(pg_catalog.=) $1 AND v.name OPERATOR(pg_catalog.=) $2 AND v.version OPERATOR(pg_catalog.<=) $3 RETURNING v.statistics, v.owner::pg_catalog.text AS owner

-- statement 78
SELECT pg_catalog.set_config('search_path', $1, true)

-- function madnb_models.notes_c_explain(anyelement) (pg_get_functiondef)
CREATE OR REPLACE FUNCTION madnb_models.notes_c_explain(r anyelement)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$SELECT "madnb_models"."notes_c_explain"("doc" => ($1)."doc")$function$

-- function madnb_models.notes_c_explain(tsvector) (pg_get_functiondef)
CREATE OR REPLACE FUNCTION madnb_models.notes_c_explain(doc tsvector)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$SELECT CASE WHEN $1 IS NOT NULL THEN (SELECT madnb._nb_explain(ARRAY['0.0'::pg_catalog.float8, '0.0'::pg_catalog.float8], ARRAY[COALESCE(pg_catalog.array_agg(u.x OPERATOR(pg_catalog.*) ('{0.10256248620895533,0.30801616388388625,0.10256248620895533,0.30801616388388625,0.10256248620895533,0.07628021360536141}'::pg_catalog.float8[])[u.j] ORDER BY u.j), '{}'::pg_catalog.float8[]), COALESCE(pg_catalog.array_agg(u.x OPERATOR(pg_catalog.*) ('{0.08286770209212754,0.08286770209212754,0.2504656312412058,0.08286770209212754,0.2504656312412058,0.2504656312412058}'::pg_catalog.float8[])[u.j] ORDER BY u.j), '{}'::pg_catalog.float8[])], COALESCE(pg_catalog.array_agg(u.name ORDER BY u.j), '{}'::pg_catalog.text[]), E'{"food","pets"}'::pg_catalog.text[]) FROM (SELECT COALESCE(pg_catalog.cardinality(e.positions), 1)::pg_catalog.float8 AS x, (E'{"and": 1, "bread": 2, "cat": 3, "cheese": 4, "dog": 5, "the": 6}'::pg_catalog.jsonb OPERATOR(pg_catalog.->>) e.lexeme)::pg_catalog.int4 AS j, e.lexeme AS name FROM pg_catalog.unnest($1) AS e) AS u WHERE u.x OPERATOR(pg_catalog.<>) '0'::pg_catalog.float8 AND u.j IS NOT NULL) END$function$

-- function madnb_models.notes_c_predict(anyelement) (pg_get_functiondef)
CREATE OR REPLACE FUNCTION madnb_models.notes_c_predict(r anyelement)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$SELECT "madnb_models"."notes_c_predict"("doc" => ($1)."doc")$function$

-- function madnb_models.notes_c_predict(tsvector) (pg_get_functiondef)
CREATE OR REPLACE FUNCTION madnb_models.notes_c_predict(doc tsvector)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$SELECT (E'{food,pets}'::text[])[madnb._nb_best(CASE WHEN $1 IS NOT NULL THEN (SELECT ARRAY['0.0'::pg_catalog.float8 OPERATOR(pg_catalog.+) COALESCE(pg_catalog.sum(u.x OPERATOR(pg_catalog.*) ('{0.10256248620895533,0.30801616388388625,0.10256248620895533,0.30801616388388625,0.10256248620895533,0.07628021360536141}'::pg_catalog.float8[])[u.j]), '0'::pg_catalog.float8), '0.0'::pg_catalog.float8 OPERATOR(pg_catalog.+) COALESCE(pg_catalog.sum(u.x OPERATOR(pg_catalog.*) ('{0.08286770209212754,0.08286770209212754,0.2504656312412058,0.08286770209212754,0.2504656312412058,0.2504656312412058}'::pg_catalog.float8[])[u.j]), '0'::pg_catalog.float8)] FROM (SELECT COALESCE(pg_catalog.cardinality(e.positions), 1)::pg_catalog.float8 AS x, (E'{"and": 1, "bread": 2, "cat": 3, "cheese": 4, "dog": 5, "the": 6}'::pg_catalog.jsonb OPERATOR(pg_catalog.->>) e.lexeme)::pg_catalog.int4 AS j FROM pg_catalog.unnest($1) AS e) AS u WHERE u.x OPERATOR(pg_catalog.<>) '0'::pg_catalog.float8) END)]$function$

-- function madnb_models.notes_c_predict_proba(anyelement) (pg_get_functiondef)
CREATE OR REPLACE FUNCTION madnb_models.notes_c_predict_proba(r anyelement)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$SELECT "madnb_models"."notes_c_predict_proba"("doc" => ($1)."doc")$function$

-- function madnb_models.notes_c_predict_proba(tsvector) (pg_get_functiondef)
CREATE OR REPLACE FUNCTION madnb_models.notes_c_predict_proba(doc tsvector)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$SELECT madnb._nb_proba_jsonb(CASE WHEN $1 IS NOT NULL THEN (SELECT ARRAY['0.0'::pg_catalog.float8 OPERATOR(pg_catalog.+) COALESCE(pg_catalog.sum(u.x OPERATOR(pg_catalog.*) ('{0.10256248620895533,0.30801616388388625,0.10256248620895533,0.30801616388388625,0.10256248620895533,0.07628021360536141}'::pg_catalog.float8[])[u.j]), '0'::pg_catalog.float8), '0.0'::pg_catalog.float8 OPERATOR(pg_catalog.+) COALESCE(pg_catalog.sum(u.x OPERATOR(pg_catalog.*) ('{0.08286770209212754,0.08286770209212754,0.2504656312412058,0.08286770209212754,0.2504656312412058,0.2504656312412058}'::pg_catalog.float8[])[u.j]), '0'::pg_catalog.float8)] FROM (SELECT COALESCE(pg_catalog.cardinality(e.positions), 1)::pg_catalog.float8 AS x, (E'{"and": 1, "bread": 2, "cat": 3, "cheese": 4, "dog": 5, "the": 6}'::pg_catalog.jsonb OPERATOR(pg_catalog.->>) e.lexeme)::pg_catalog.int4 AS j FROM pg_catalog.unnest($1) AS e) AS u WHERE u.x OPERATOR(pg_catalog.<>) '0'::pg_catalog.float8) END, E'{"food","pets"}'::pg_catalog.text[])$function$

-- function madnb_models.notes_c_predict_proba_array(anyelement) (pg_get_functiondef)
CREATE OR REPLACE FUNCTION madnb_models.notes_c_predict_proba_array(r anyelement)
 RETURNS double precision[]
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$SELECT "madnb_models"."notes_c_predict_proba_array"("doc" => ($1)."doc")$function$

-- function madnb_models.notes_c_predict_proba_array(tsvector) (pg_get_functiondef)
CREATE OR REPLACE FUNCTION madnb_models.notes_c_predict_proba_array(doc tsvector)
 RETURNS double precision[]
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$SELECT madnb._nb_proba(CASE WHEN $1 IS NOT NULL THEN (SELECT ARRAY['0.0'::pg_catalog.float8 OPERATOR(pg_catalog.+) COALESCE(pg_catalog.sum(u.x OPERATOR(pg_catalog.*) ('{0.10256248620895533,0.30801616388388625,0.10256248620895533,0.30801616388388625,0.10256248620895533,0.07628021360536141}'::pg_catalog.float8[])[u.j]), '0'::pg_catalog.float8), '0.0'::pg_catalog.float8 OPERATOR(pg_catalog.+) COALESCE(pg_catalog.sum(u.x OPERATOR(pg_catalog.*) ('{0.08286770209212754,0.08286770209212754,0.2504656312412058,0.08286770209212754,0.2504656312412058,0.2504656312412058}'::pg_catalog.float8[])[u.j]), '0'::pg_catalog.float8)] FROM (SELECT COALESCE(pg_catalog.cardinality(e.positions), 1)::pg_catalog.float8 AS x, (E'{"and": 1, "bread": 2, "cat": 3, "cheese": 4, "dog": 5, "the": 6}'::pg_catalog.jsonb OPERATOR(pg_catalog.->>) e.lexeme)::pg_catalog.int4 AS j FROM pg_catalog.unnest($1) AS e) AS u WHERE u.x OPERATOR(pg_catalog.<>) '0'::pg_catalog.float8) END)$function$

-- function madnb_models.notes_c_score_share(numeric[]) (pg_get_functiondef)
CREATE OR REPLACE FUNCTION madnb_models.notes_c_score_share(share numeric[])
 RETURNS numeric[]
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
AS $function$BEGIN RAISE EXCEPTION 'this model cannot be used for private prediction' USING ERRCODE = '0A000', DETAIL = E'models of kind ''complement'' are not served yet', HINT = 'private prediction serves models of Gaussian and categorical features with finite numbers'; END$function$

-- function madnb_models.notes_c_share_encoding() (pg_get_functiondef)
CREATE OR REPLACE FUNCTION madnb_models.notes_c_share_encoding()
 RETURNS jsonb
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
AS $function$BEGIN RAISE EXCEPTION 'this model cannot be used for private prediction' USING ERRCODE = '0A000', DETAIL = E'models of kind ''complement'' are not served yet', HINT = 'private prediction serves models of Gaussian and categorical features with finite numbers'; END$function$
