-- golden SQL of: SELECT madnb.train('pets_c', 'pets', 'species', features => ARRAY['colour', 'legs', 'indoor'], kind => 'categorical', options => '{"alpha": 0.5, "min_categories": {"colour": 5}, "fit_prior": false}')
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
SELECT pg_catalog.current_setting('max_parallel_workers_per_gather')::pg_catalog.int4 AS w

-- statement 20
SELECT pg_catalog.current_setting($1) AS v

-- statement 21
SELECT pg_catalog.set_config($1, $2, true)

-- statement 22
SELECT pg_catalog.current_setting($1) AS v

-- statement 23
SELECT pg_catalog.set_config($1, $2, true)

-- statement 24
CREATE TEMPORARY TABLE pg_temp."madnb_colstats_<hex1>" ON COMMIT DROP AS SELECT t."species" AS cls, 0 AS o, NULL::pg_catalog.text AS v, pg_catalog.count(*) AS n FROM "public"."pets" AS t GROUP BY 1 UNION ALL SELECT g.cls, (g.k OPERATOR(pg_catalog.&) 134217727::pg_catalog.int8)::pg_catalog.int4, (g.k OPERATOR(pg_catalog.>>) 27)::pg_catalog.text, g.n FROM (SELECT e.cls, e.k, pg_catalog.count(*) AS n FROM (SELECT t."species" AS cls, pg_catalog.unnest(ARRAY[(((t."legs")::pg_catalog.int8 OPERATOR(pg_catalog.*) 134217728) OPERATOR(pg_catalog.+) 2)]) AS k FROM "public"."pets" AS t) AS e GROUP BY 1, 2 OFFSET 0) AS g WHERE g.k IS NOT NULL UNION ALL SELECT g.cls, g.o, g.v, g.n FROM (SELECT g.cls, g.o, g.v, g.n FROM (SELECT t."species" AS cls, 1 AS o, COALESCE(((t."colour")::pg_catalog.text COLLATE pg_catalog."C")) AS v, pg_catalog.count(*) AS n FROM "public"."pets" AS t GROUP BY GROUPING SETS ((t."species", ((t."colour")::pg_catalog.text COLLATE pg_catalog."C")))) AS g WHERE g.v IS NOT NULL) AS g UNION ALL SELECT g.cls, g.o, g.v, g.n FROM (SELECT g.cls, g.o, g.v, g.n FROM (SELECT t."species" AS cls, 3 AS o, COALESCE(((t."indoor")::pg_catalog.text COLLATE pg_catalog."C")) AS v, pg_catalog.count(*) AS n FROM "public"."pets" AS t GROUP BY GROUPING SETS ((t."species", ((t."indoor")::pg_catalog.text COLLATE pg_catalog."C")))) AS g WHERE g.v IS NOT NULL) AS g

-- statement 25
SELECT pg_catalog.set_config($1, $2, true)

-- statement 26
SELECT pg_catalog.set_config($1, $2, true)

-- statement 27
SELECT COALESCE(pg_catalog.sum(s.n) FILTER (WHERE s.cls IS NULL AND s.o OPERATOR(pg_catalog.=) 0), 0)::pg_catalog.int8 AS unlabelled, COALESCE(pg_catalog.sum(s.n) FILTER (WHERE s.cls IS NOT NULL AND s.o OPERATOR(pg_catalog.=) 0), 0)::pg_catalog.int8 AS labelled FROM pg_temp."madnb_colstats_<hex1>" AS s

-- statement 28
CREATE TEMPORARY TABLE pg_temp."madnb_kept_<hex2>" (cls character varying(8), attr pg_catalog.int4 NOT NULL, value text, n pg_catalog.numeric, nv pg_catalog.int8, mean pg_catalog.float8, mean_lo pg_catalog.float8, var pg_catalog.float8, s1 pg_catalog.numeric, s2 pg_catalog.numeric)

-- statement 29
SELECT madnb._create_kept_statistics($1, $2::pg_catalog.regclass, CURRENT_USER)

-- statement 30
DROP TABLE pg_temp."madnb_kept_<hex2>"

-- statement 31
SELECT pg_catalog.current_setting($1) AS v

-- statement 32
SELECT pg_catalog.set_config($1, $2, true)

-- statement 33
INSERT INTO "madnb_statistics"."madnb_models.pets_c" (cls, attr, value, n, nv, mean, var) SELECT s.cls, 0, NULL, s.n, NULL::pg_catalog.int8, NULL::pg_catalog.float8, NULL::pg_catalog.float8 FROM pg_temp."madnb_colstats_<hex1>" AS s WHERE s.cls IS NOT NULL AND s.o OPERATOR(pg_catalog.=) 0 UNION ALL SELECT s.cls, s.o, s.v, s.n, NULL, NULL, NULL FROM pg_temp."madnb_colstats_<hex1>" AS s WHERE s.cls IS NOT NULL AND s.o OPERATOR(pg_catalog.>) 0 AND s.v IS NOT NULL

-- statement 34
SELECT pg_catalog.set_config($1, $2, true)

-- statement 35
DROP TABLE pg_temp."madnb_colstats_<hex1>"

-- statement 36
SELECT pg_catalog.to_char(pg_catalog.statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t

-- statement 37
COMMENT ON TABLE "madnb_statistics"."madnb_models.pets_c" IS 'madnb statistics {"bounds": null, "class_type": "character varying(8)", "created_at": "<created_at>", "delta": null, "domain": null, "domain_fingerprint": null, "element_type": "text", "epsilon": null, "epsilon_per_query": null, "fixed_point_bits": null, "fixed_point_scale": null, "format": 1, "guarantee": null, "id": "<id>", "mode": "exact", "num_attrs": 3, "numeric": [], "release_id": null, "source": "public.pets"}'

-- statement 38
SELECT pg_catalog.count(*) AS k, COALESCE(pg_catalog.sum(s.n), 0)::pg_catalog.int8 AS n, pg_catalog.format('%s', (pg_catalog.array_agg(s.cls))[1]) AS one FROM "madnb_statistics"."madnb_models.pets_c" AS s WHERE s.attr OPERATOR(pg_catalog.=) 0

-- statement 39
SELECT pg_catalog.to_regclass($1)::pg_catalog.oid::pg_catalog.int8 AS o

-- statement 40
CREATE TABLE "madnb_models"."pets_c_class_priors" (class character varying(8), class_cnt pg_catalog.int8, all_cnt pg_catalog.int8)

-- statement 41
CREATE TABLE "madnb_models"."pets_c_feature_probs" (class character varying(8), attr pg_catalog.int4, value text, cnt pg_catalog.int8, attr_cnt pg_catalog.int8, smoothing pg_catalog.float8)

-- statement 42
WITH cc AS (SELECT s.cls, pg_catalog.sum(s.n)::pg_catalog.int8 AS class_cnt FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.nv, s.mean, s.var FROM "madnb_statistics"."madnb_models.pets_c" AS s) AS s WHERE s.cls IS NOT NULL AND s.o OPERATOR(pg_catalog.=) 0 GROUP BY s.cls),
cp AS (SELECT cc.cls AS class, cc.class_cnt, (pg_catalog.sum(cc.class_cnt) OVER ())::pg_catalog.int8 AS all_cnt FROM cc),
vals AS (SELECT DISTINCT s.o, s.v FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.nv, s.mean, s.var FROM "madnb_statistics"."madnb_models.pets_c" AS s) AS s WHERE s.cls IS NOT NULL AND s.v IS NOT NULL),
ac AS (SELECT vals.o, pg_catalog.count(*)::pg_catalog.int8 AS attr_cnt FROM vals GROUP BY vals.o),
fp AS (SELECT cc.cls AS class, vals.o AS attr, vals.v AS value, COALESCE(s.n, 0)::pg_catalog.int8 AS cnt, ac.attr_cnt FROM cc CROSS JOIN vals JOIN ac ON ac.o = vals.o LEFT JOIN (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.nv, s.mean, s.var FROM "madnb_statistics"."madnb_models.pets_c" AS s) AS s ON s.cls = cc.cls AND s.o = vals.o AND s.v = vals.v),
np AS (SELECT s.cls AS class, s.o AS attr, s.mean AS attr_mean, s.var AS attr_var, s.nv AS value_cnt FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.nv, s.mean, s.var FROM "madnb_statistics"."madnb_models.pets_c" AS s) AS s WHERE s.cls IS NOT NULL AND s.o = ANY ('{}'::pg_catalog.int4[]))
 INSERT INTO "madnb_models"."pets_c_class_priors" (class, class_cnt, all_cnt) SELECT class, class_cnt, all_cnt FROM cp ORDER BY class

-- statement 43
WITH cc AS (SELECT s.cls, pg_catalog.sum(s.n)::pg_catalog.int8 AS class_cnt FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.nv, s.mean, s.var FROM "madnb_statistics"."madnb_models.pets_c" AS s) AS s WHERE s.cls IS NOT NULL AND s.o OPERATOR(pg_catalog.=) 0 GROUP BY s.cls),
cp AS (SELECT cc.cls AS class, cc.class_cnt, (pg_catalog.sum(cc.class_cnt) OVER ())::pg_catalog.int8 AS all_cnt FROM cc),
vals AS (SELECT DISTINCT s.o, s.v FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.nv, s.mean, s.var FROM "madnb_statistics"."madnb_models.pets_c" AS s) AS s WHERE s.cls IS NOT NULL AND s.v IS NOT NULL),
ac AS (SELECT vals.o, pg_catalog.count(*)::pg_catalog.int8 AS attr_cnt FROM vals GROUP BY vals.o),
fp AS (SELECT cc.cls AS class, vals.o AS attr, vals.v AS value, COALESCE(s.n, 0)::pg_catalog.int8 AS cnt, ac.attr_cnt FROM cc CROSS JOIN vals JOIN ac ON ac.o = vals.o LEFT JOIN (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.nv, s.mean, s.var FROM "madnb_statistics"."madnb_models.pets_c" AS s) AS s ON s.cls = cc.cls AND s.o = vals.o AND s.v = vals.v),
np AS (SELECT s.cls AS class, s.o AS attr, s.mean AS attr_mean, s.var AS attr_var, s.nv AS value_cnt FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.nv, s.mean, s.var FROM "madnb_statistics"."madnb_models.pets_c" AS s) AS s WHERE s.cls IS NOT NULL AND s.o = ANY ('{}'::pg_catalog.int4[]))
 INSERT INTO "madnb_models"."pets_c_feature_probs" (class, attr, value, cnt, attr_cnt, smoothing) SELECT class, attr, value, cnt, attr_cnt, 0.5::pg_catalog.float8 FROM fp ORDER BY attr, value, class

-- statement 44
COMMENT ON TABLE "madnb_models"."pets_c_class_priors" IS 'madnb class priors trained from public.pets; derived from statistics "madnb_statistics"."madnb_models.pets_c" (id <uuid>)'

-- statement 45
COMMENT ON TABLE "madnb_models"."pets_c_feature_probs" IS 'madnb categorical feature counts trained from public.pets; P(value|class) = (cnt + smoothing) / (class rows with attr present + smoothing * attr_cnt); numAttrs = 3; derived from statistics "madnb_statistics"."madnb_models.pets_c" (id <uuid>)'

-- statement 46
ANALYZE "madnb_models"."pets_c_feature_probs"

-- statement 47
ANALYZE "madnb_models"."pets_c_class_priors"

-- statement 48
UPDATE "madnb_models"."pets_c_feature_probs" AS f SET attr_cnt = GREATEST(f.attr_cnt, ('{5,1,1}'::pg_catalog.int8[])[f.attr])

-- statement 49
SELECT pg_catalog.obj_description(pg_catalog.to_regclass($1), 'pg_class') AS c

-- statement 50
COMMENT ON TABLE "madnb_models"."pets_c_feature_probs" IS 'madnb model pets_c: madnb categorical feature counts trained from public.pets; P(value|class) = (cnt + smoothing) / (class rows with attr present + smoothing * attr_cnt); numAttrs = 3; derived from statistics "madnb_statistics"."madnb_models.pets_c" (id <uuid>)'

-- statement 51
GRANT SELECT ON "madnb_models"."pets_c_feature_probs" TO PUBLIC

-- statement 52
SELECT pg_catalog.obj_description(pg_catalog.to_regclass($1), 'pg_class') AS c

-- statement 53
COMMENT ON TABLE "madnb_models"."pets_c_class_priors" IS 'madnb model pets_c: madnb class priors trained from public.pets; derived from statistics "madnb_statistics"."madnb_models.pets_c" (id <uuid>)'

-- statement 54
GRANT SELECT ON "madnb_models"."pets_c_class_priors" TO PUBLIC

-- statement 55
SELECT pg_catalog.count(*)::pg_catalog.int8 AS k FROM "madnb_models"."pets_c_class_priors" AS m

-- statement 56
SELECT EXISTS (SELECT 1 FROM "madnb_models"."pets_c_feature_probs") AS e

-- statement 57
SELECT e.key::pg_catalog.int4 AS a, e.value::pg_catalog.text AS js FROM (SELECT pg_catalog.jsonb_object_agg(d.attr::pg_catalog.text, d.js) AS jsall FROM (SELECT r.attr, pg_catalog.jsonb_object_agg((r.value)::pg_catalog.text, r.rank) AS js FROM (SELECT d.attr, u.value, u.rank::pg_catalog.int4 AS rank FROM (SELECT f.attr, pg_catalog.array_agg(DISTINCT f.value) AS vals FROM "madnb_models"."pets_c_feature_probs" AS f GROUP BY f.attr) AS d CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(d.vals)) WITH ORDINALITY AS u(value, rank)) AS r GROUP BY r.attr) AS d) AS m2 CROSS JOIN LATERAL pg_catalog.jsonb_each(m2.jsall) AS e

-- statement 58
SELECT pg_catalog.textin(pg_catalog.array_out(m0.classes)) AS classes_text, ARRAY(SELECT (u.c)::pg_catalog.text FROM pg_catalog.unnest(m0.classes) WITH ORDINALITY AS u(c, i) ORDER BY u.i) AS class_texts, m0.prior FROM (SELECT pg_catalog.array_agg(c.class ORDER BY c.pos) AS classes, pg_catalog.array_agg((CASE WHEN (c.class_cnt::pg_catalog.float8 / c.all_cnt) > 0 THEN pg_catalog.ln((c.class_cnt::pg_catalog.float8 / c.all_cnt)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) ORDER BY c.pos) AS prior, madnb._check_class_count(pg_catalog.count(*), 3) AS checked FROM (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "madnb_models"."pets_c_class_priors" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c) AS m0

-- statement 59
SELECT m1.arr AS lut FROM (SELECT r.pos, pg_catalog.array_agg(r.arr ORDER BY r.a) AS arr FROM (SELECT c.pos, g.a, pg_catalog.array_agg(COALESCE(x.lp, 0::pg_catalog.float8) ORDER BY s.s) AS arr FROM (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "madnb_models"."pets_c_class_priors" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c CROSS JOIN pg_catalog.generate_series(1, 3) AS g(a) CROSS JOIN (SELECT pg_catalog.max(r.rank) AS w FROM (SELECT d.attr, u.value, u.rank::pg_catalog.int4 AS rank FROM (SELECT f.attr, pg_catalog.array_agg(DISTINCT f.value) AS vals FROM "madnb_models"."pets_c_feature_probs" AS f GROUP BY f.attr) AS d CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(d.vals)) WITH ORDINALITY AS u(value, rank)) AS r) AS b CROSS JOIN LATERAL pg_catalog.unnest(pg_catalog.array_fill(0, ARRAY[b.w::pg_catalog.int4])) WITH ORDINALITY AS s(z, s) LEFT JOIN (SELECT c.attr, c.pos, r.rank AS slot, c.lp FROM (SELECT f.attr, f.value, c.pos, CASE WHEN 0.5::pg_catalog.float8 <= 1000000.0::pg_catalog.float8 THEN (CASE WHEN (f.cnt + 0.5::pg_catalog.float8) > 0 THEN pg_catalog.ln((f.cnt + 0.5::pg_catalog.float8)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) - (CASE WHEN (n.cnt + 0.5::pg_catalog.float8 * f.attr_cnt) > 0 THEN pg_catalog.ln((n.cnt + 0.5::pg_catalog.float8 * f.attr_cnt)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) ELSE (CASE WHEN (f.cnt / 0.5::pg_catalog.float8 + 1) > 0 THEN pg_catalog.ln((f.cnt / 0.5::pg_catalog.float8 + 1)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) - (CASE WHEN (n.cnt / 0.5::pg_catalog.float8 + f.attr_cnt) > 0 THEN pg_catalog.ln((n.cnt / 0.5::pg_catalog.float8 + f.attr_cnt)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) END AS lp FROM "madnb_models"."pets_c_feature_probs" AS f JOIN (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "madnb_models"."pets_c_class_priors" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c ON c.class = f.class JOIN (SELECT g.class, g.attr, pg_catalog.sum(g.cnt) AS cnt FROM "madnb_models"."pets_c_feature_probs" AS g GROUP BY g.class, g.attr) AS n ON n.class = f.class AND n.attr = f.attr) AS c JOIN (SELECT d.attr, u.value, u.rank::pg_catalog.int4 AS rank FROM (SELECT f.attr, pg_catalog.array_agg(DISTINCT f.value) AS vals FROM "madnb_models"."pets_c_feature_probs" AS f GROUP BY f.attr) AS d CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(d.vals)) WITH ORDINALITY AS u(value, rank)) AS r ON r.attr = c.attr AND r.value = c.value) AS x ON x.pos = c.pos AND x.attr = g.a AND x.slot = s.s WHERE madnb._check_code_slots(b.w::pg_catalog.int8 * 9, 4000000) > 0 GROUP BY c.pos, g.a) AS r GROUP BY r.pos) AS m1 ORDER BY m1.pos

-- statement 60
CREATE OR REPLACE FUNCTION "madnb_models"."pets_c_exact_class"("colour" pg_catalog.text DEFAULT NULL, "legs" pg_catalog.int4 DEFAULT NULL, "indoor" pg_catalog.bool DEFAULT NULL) RETURNS pg_catalog.int4 LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE SECURITY INVOKER COST 1 AS E'BEGIN RETURN (madnb._nb_best(
 ''-1.0986122886681098''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE((''{-0.8472978603872039,-3.555348061489414,-0.7221347174331978}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"black": "\\\\u0001", "white": "\\\\u0003", "ginger": "\\\\u0002"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-0.06252035698133396,NULL,-3.4965075614664802,NULL,-3.4965075614664802}''::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, ''-1''::pg_catalog.int8), ''5''::pg_catalog.int8) OPERATOR(pg_catalog.-) ''-1''::pg_catalog.int8)::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-0.24686007793152553,-1.519825753744413}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"true": "\\\\u0002", "false": "\\\\u0001"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($3)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8),
 ''-1.0986122886681098''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE((''{-3.555348061489414,-0.7221347174331978,-0.8472978603872039}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"black": "\\\\u0001", "white": "\\\\u0003", "ginger": "\\\\u0002"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-3.4965075614664802,NULL,-0.06252035698133396,NULL,-3.4965075614664802}''::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, ''-1''::pg_catalog.int8), ''5''::pg_catalog.int8) OPERATOR(pg_catalog.-) ''-1''::pg_catalog.int8)::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-0.33024168687057687,-1.268511325463507}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"true": "\\\\u0002", "false": "\\\\u0001"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($3)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8),
 ''-1.0986122886681098''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE((''{-3.555348061489414,-0.12136085700426769,-3.555348061489414}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"black": "\\\\u0001", "white": "\\\\u0003", "ginger": "\\\\u0002"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-3.4965075614664802,NULL,-3.4965075614664802,NULL,-0.06252035698133396}''::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, ''-1''::pg_catalog.int8), ''5''::pg_catalog.int8) OPERATOR(pg_catalog.-) ''-1''::pg_catalog.int8)::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-0.33024168687057687,-1.268511325463507}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"true": "\\\\u0002", "false": "\\\\u0001"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($3)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)
)); END'

-- statement 61
COMMENT ON FUNCTION "madnb_models"."pets_c_exact_class"(pg_catalog.text, pg_catalog.int4, pg_catalog.bool) IS 'madnb model pets_c: internal, the position of the predicted class among the model''s classes from the unshifted scores, which pets_c_predict computes so only for a row near a tie'

-- statement 62
CREATE OR REPLACE FUNCTION "madnb_models"."pets_c_predict"("colour" pg_catalog.text DEFAULT NULL, "legs" pg_catalog.int4 DEFAULT NULL, "indoor" pg_catalog.bool DEFAULT NULL) RETURNS character varying(8) LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT (E''{cat,dog,fish}''::character varying(8)[])[COALESCE(madnb._nb_clear(''37.582562372805555''::pg_catalog.float8, 
 ''-1.0986122886681098''::pg_catalog.float8,
 ''-1.0986122886681098''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE((''{-2.70805020110221,2.833213344056216,-0.1251631429540061}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"black": "\\\\u0001", "white": "\\\\u0003", "ginger": "\\\\u0002"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-3.4339872044851463,NULL,3.4339872044851463,NULL,0.0}''::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, ''-1''::pg_catalog.int8), ''5''::pg_catalog.int8) OPERATOR(pg_catalog.-) ''-1''::pg_catalog.int8)::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-0.08338160893905133,0.2513144282809061}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"true": "\\\\u0002", "false": "\\\\u0001"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($3)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8),
 ''-1.0986122886681098''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE((''{-2.70805020110221,3.4339872044851463,-2.833213344056216}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"black": "\\\\u0001", "white": "\\\\u0003", "ginger": "\\\\u0002"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-3.4339872044851463,NULL,0.0,NULL,3.4339872044851463}''::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, ''-1''::pg_catalog.int8), ''5''::pg_catalog.int8) OPERATOR(pg_catalog.-) ''-1''::pg_catalog.int8)::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-0.08338160893905133,0.2513144282809061}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"true": "\\\\u0002", "false": "\\\\u0001"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($3)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)
), "madnb_models"."pets_c_exact_class"($1, $2, $3))]'

-- statement 63
COMMENT ON FUNCTION "madnb_models"."pets_c_predict"(pg_catalog.text, pg_catalog.int4, pg_catalog.bool) IS 'madnb model pets_c: the predicted class (the first class within 1e-12 of the best log-likelihood, as the classify view''s first class) of the feature values (each NULL, a missing value, unless given)'

-- statement 64
CREATE OR REPLACE FUNCTION "madnb_models"."pets_c_predict_proba"("colour" pg_catalog.text DEFAULT NULL, "legs" pg_catalog.int4 DEFAULT NULL, "indoor" pg_catalog.bool DEFAULT NULL) RETURNS pg_catalog.jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT madnb._nb_proba_jsonb(ARRAY[
 ''-1.0986122886681098''::pg_catalog.float8,
 ''-1.0986122886681098''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE((''{-2.70805020110221,2.833213344056216,-0.1251631429540061}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"black": "\\\\u0001", "white": "\\\\u0003", "ginger": "\\\\u0002"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-3.4339872044851463,NULL,3.4339872044851463,NULL,0.0}''::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, ''-1''::pg_catalog.int8), ''5''::pg_catalog.int8) OPERATOR(pg_catalog.-) ''-1''::pg_catalog.int8)::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-0.08338160893905133,0.2513144282809061}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"true": "\\\\u0002", "false": "\\\\u0001"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($3)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8),
 ''-1.0986122886681098''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE((''{-2.70805020110221,3.4339872044851463,-2.833213344056216}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"black": "\\\\u0001", "white": "\\\\u0003", "ginger": "\\\\u0002"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-3.4339872044851463,NULL,0.0,NULL,3.4339872044851463}''::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, ''-1''::pg_catalog.int8), ''5''::pg_catalog.int8) OPERATOR(pg_catalog.-) ''-1''::pg_catalog.int8)::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-0.08338160893905133,0.2513144282809061}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"true": "\\\\u0002", "false": "\\\\u0001"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($3)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)
], E''{"cat","dog","fish"}''::pg_catalog.text[])'

-- statement 65
COMMENT ON FUNCTION "madnb_models"."pets_c_predict_proba"(pg_catalog.text, pg_catalog.int4, pg_catalog.bool) IS 'madnb model pets_c: jsonb {class: probability} of the feature values (each NULL, a missing value, unless given)'

-- statement 66
CREATE OR REPLACE FUNCTION "madnb_models"."pets_c_predict_proba_array"("colour" pg_catalog.text DEFAULT NULL, "legs" pg_catalog.int4 DEFAULT NULL, "indoor" pg_catalog.bool DEFAULT NULL) RETURNS pg_catalog.float8[] LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT madnb._nb_proba(
 ''-1.0986122886681098''::pg_catalog.float8,
 ''-1.0986122886681098''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE((''{-2.70805020110221,2.833213344056216,-0.1251631429540061}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"black": "\\\\u0001", "white": "\\\\u0003", "ginger": "\\\\u0002"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-3.4339872044851463,NULL,3.4339872044851463,NULL,0.0}''::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, ''-1''::pg_catalog.int8), ''5''::pg_catalog.int8) OPERATOR(pg_catalog.-) ''-1''::pg_catalog.int8)::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-0.08338160893905133,0.2513144282809061}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"true": "\\\\u0002", "false": "\\\\u0001"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($3)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8),
 ''-1.0986122886681098''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE((''{-2.70805020110221,3.4339872044851463,-2.833213344056216}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"black": "\\\\u0001", "white": "\\\\u0003", "ginger": "\\\\u0002"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-3.4339872044851463,NULL,0.0,NULL,3.4339872044851463}''::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, ''-1''::pg_catalog.int8), ''5''::pg_catalog.int8) OPERATOR(pg_catalog.-) ''-1''::pg_catalog.int8)::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-0.08338160893905133,0.2513144282809061}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"true": "\\\\u0002", "false": "\\\\u0001"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($3)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)
)'

-- statement 67
COMMENT ON FUNCTION "madnb_models"."pets_c_predict_proba_array"(pg_catalog.text, pg_catalog.int4, pg_catalog.bool) IS 'madnb model pets_c: float8[] of class probabilities in the order of madnb.model_classes of the feature values (each NULL, a missing value, unless given)'

-- statement 68
CREATE OR REPLACE FUNCTION "madnb_models"."pets_c_predict"(r anyelement) RETURNS character varying(8) LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT "madnb_models"."pets_c_predict"("colour" => ($1)."colour", "legs" => ($1)."legs", "indoor" => ($1)."indoor")'

-- statement 69
COMMENT ON FUNCTION "madnb_models"."pets_c_predict"(anyelement) IS 'madnb model pets_c: the predicted class (the first class within 1e-12 of the best log-likelihood, as the classify view''s first class) of a row holding the feature columns'

-- statement 70
CREATE OR REPLACE FUNCTION "madnb_models"."pets_c_predict_proba"(r anyelement) RETURNS pg_catalog.jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT "madnb_models"."pets_c_predict_proba"("colour" => ($1)."colour", "legs" => ($1)."legs", "indoor" => ($1)."indoor")'

-- statement 71
COMMENT ON FUNCTION "madnb_models"."pets_c_predict_proba"(anyelement) IS 'madnb model pets_c: jsonb {class: probability} of a row holding the feature columns'

-- statement 72
CREATE OR REPLACE FUNCTION "madnb_models"."pets_c_predict_proba_array"(r anyelement) RETURNS pg_catalog.float8[] LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT "madnb_models"."pets_c_predict_proba_array"("colour" => ($1)."colour", "legs" => ($1)."legs", "indoor" => ($1)."indoor")'

-- statement 73
COMMENT ON FUNCTION "madnb_models"."pets_c_predict_proba_array"(anyelement) IS 'madnb model pets_c: float8[] of class probabilities in the order of madnb.model_classes of a row holding the feature columns'

-- statement 74
CREATE OR REPLACE FUNCTION "madnb_models"."pets_c_share_encoding"() RETURNS pg_catalog.jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT E''{"format": 1, "modulus": "10407932194664399081925240327364085538615262247266704805319112350403608059673360298012239441732324184842421613954281007791383566248323464908139906605677320762924129509389220345773183349661583550472959420547689811211693677147548478866962501384438260291732348885311160828538416585028255604666224831890918801847068222203140521026698435488732958028878050869736186900714720710555703168729087", "input_bits": 128, "coefficient_bits": 64, "classes": ["cat", "dog", "fish"], "width": 9, "features": [{"name": "colour", "role": "categorical", "text": "text", "values": ["black", "ginger", "white"]}, {"name": "legs", "role": "categorical", "text": "int4", "values": ["0", "2", "4"]}, {"name": "indoor", "role": "categorical", "text": "bool", "values": ["false", "true"]}], "fingerprint": "7fe6fcdd9e5cd271b45a12087e18c117aab6259661181b81078959e43f77bdfc", "score_function": ["madnb_models", "pets_c_score_share"]}''::pg_catalog.jsonb'

-- statement 75
CREATE OR REPLACE FUNCTION "madnb_models"."pets_c_score_share"(share pg_catalog.numeric[]) RETURNS pg_catalog.numeric[] LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER AS E'DECLARE _madnb_p pg_catalog.numeric := ''10407932194664399081925240327364085538615262247266704805319112350403608059673360298012239441732324184842421613954281007791383566248323464908139906605677320762924129509389220345773183349661583550472959420547689811211693677147548478866962501384438260291732348885311160828538416585028255604666224831890918801847068222203140521026698435488732958028878050869736186900714720710555703168729087''::pg_catalog.numeric; BEGIN IF COALESCE(pg_catalog.array_ndims(share), 0) OPERATOR(pg_catalog.<>) 1 OR pg_catalog.array_lower(share, 1) OPERATOR(pg_catalog.<>) 1 OR pg_catalog.array_length(share, 1) OPERATOR(pg_catalog.<>) ''9''::pg_catalog.int4 OR pg_catalog.array_position(share, NULL) IS NOT NULL THEN RAISE EXCEPTION ''a share of this model is an array of 9 numbers'' USING ERRCODE = ''22023'', DETAIL = pg_catalog.format(''got %s'', pg_catalog.array_dims(share)), HINT = ''private_predict of the madnb Python package encodes and shares rows''; END IF; RETURN ARRAY[pg_catalog.mod(pg_catalog.mod(((((''-20265819725292941312''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[1]) OPERATOR(pg_catalog.+) (''-15629886784764436480''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[2])) OPERATOR(pg_catalog.+) ((''-65584595783254589440''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[3]) OPERATOR(pg_catalog.+) (''-13321034319230763008''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[4]))) OPERATOR(pg_catalog.+) (((''-1153297024631627776''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[5]) OPERATOR(pg_catalog.+) (''-64499180138162429952''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[6])) OPERATOR(pg_catalog.+) ((''-64499180138162429952''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[7]) OPERATOR(pg_catalog.+) ((''-4553764679618846720''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[8]) OPERATOR(pg_catalog.+) (''-28035836715955904512''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[9]))))), _madnb_p) OPERATOR(pg_catalog.+) _madnb_p, _madnb_p), pg_catalog.mod(pg_catalog.mod(((((''-20265819725292941312''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[1]) OPERATOR(pg_catalog.+) (''-65584595783254589440''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[2])) OPERATOR(pg_catalog.+) ((''-13321034319230763008''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[3]) OPERATOR(pg_catalog.+) (''-15629886784764436480''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[4]))) OPERATOR(pg_catalog.+) (((''-64499180138162429952''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[5]) OPERATOR(pg_catalog.+) (''-1153297024631627776''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[6])) OPERATOR(pg_catalog.+) ((''-64499180138162429952''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[7]) OPERATOR(pg_catalog.+) ((''-6091883880171659264''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[8]) OPERATOR(pg_catalog.+) (''-23399903775427395584''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[9]))))), _madnb_p) OPERATOR(pg_catalog.+) _madnb_p, _madnb_p), pg_catalog.mod(pg_catalog.mod(((((''-20265819725292941312''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[1]) OPERATOR(pg_catalog.+) (''-65584595783254589440''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[2])) OPERATOR(pg_catalog.+) ((''-2238712669723787264''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[3]) OPERATOR(pg_catalog.+) (''-65584595783254589440''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[4]))) OPERATOR(pg_catalog.+) (((''-64499180138162429952''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[5]) OPERATOR(pg_catalog.+) (''-64499180138162429952''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[6])) OPERATOR(pg_catalog.+) ((''-1153297024631627776''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[7]) OPERATOR(pg_catalog.+) ((''-6091883880171659264''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[8]) OPERATOR(pg_catalog.+) (''-23399903775427395584''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[9]))))), _madnb_p) OPERATOR(pg_catalog.+) _madnb_p, _madnb_p)]; END'

-- statement 76
COMMENT ON FUNCTION "madnb_models"."pets_c_share_encoding"() IS 'madnb model pets_c: private prediction, the public encoding of a row for pets_c_score_share (jsonb: modulus, scales, classes, features and their values, the model''s fingerprint)'

-- statement 77
COMMENT ON FUNCTION "madnb_models"."pets_c_score_share"(pg_catalog.numeric[]) IS 'madnb model pets_c: private prediction, one additive share (mod p) of an encoded row -> its share of every class''s log-score, in class order (madnb.private_predict adds the servers'' answers)'

-- statement 78
CREATE OR REPLACE FUNCTION "madnb_models"."pets_c_explain"("colour" pg_catalog.text DEFAULT NULL, "legs" pg_catalog.int4 DEFAULT NULL, "indoor" pg_catalog.bool DEFAULT NULL) RETURNS pg_catalog.jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT madnb._nb_explain(ARRAY[''-1.0986122886681098''::pg_catalog.float8, ''-1.0986122886681098''::pg_catalog.float8, ''-1.0986122886681098''::pg_catalog.float8], ARRAY[
 ARRAY[COALESCE((''{-0.8472978603872039,-3.555348061489414,-0.7221347174331978}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"black": "\\\\u0001", "white": "\\\\u0003", "ginger": "\\\\u0002"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8), COALESCE((''{-0.06252035698133396,NULL,-3.4965075614664802,NULL,-3.4965075614664802}''::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, ''-1''::pg_catalog.int8), ''5''::pg_catalog.int8) OPERATOR(pg_catalog.-) ''-1''::pg_catalog.int8)::pg_catalog.int4], ''0''::pg_catalog.float8), COALESCE((''{-0.24686007793152553,-1.519825753744413}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"true": "\\\\u0002", "false": "\\\\u0001"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($3)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)],
 ARRAY[COALESCE((''{-3.555348061489414,-0.7221347174331978,-0.8472978603872039}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"black": "\\\\u0001", "white": "\\\\u0003", "ginger": "\\\\u0002"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8), COALESCE((''{-3.4965075614664802,NULL,-0.06252035698133396,NULL,-3.4965075614664802}''::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, ''-1''::pg_catalog.int8), ''5''::pg_catalog.int8) OPERATOR(pg_catalog.-) ''-1''::pg_catalog.int8)::pg_catalog.int4], ''0''::pg_catalog.float8), COALESCE((''{-0.33024168687057687,-1.268511325463507}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"true": "\\\\u0002", "false": "\\\\u0001"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($3)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)],
 ARRAY[COALESCE((''{-3.555348061489414,-0.12136085700426769,-3.555348061489414}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"black": "\\\\u0001", "white": "\\\\u0003", "ginger": "\\\\u0002"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8), COALESCE((''{-3.4965075614664802,NULL,-3.4965075614664802,NULL,-0.06252035698133396}''::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, ''-1''::pg_catalog.int8), ''5''::pg_catalog.int8) OPERATOR(pg_catalog.-) ''-1''::pg_catalog.int8)::pg_catalog.int4], ''0''::pg_catalog.float8), COALESCE((''{-0.33024168687057687,-1.268511325463507}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"true": "\\\\u0002", "false": "\\\\u0001"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($3)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)]
], E''{"colour","legs","indoor"}''::pg_catalog.text[], E''{"cat","dog","fish"}''::pg_catalog.text[])'

-- statement 79
COMMENT ON FUNCTION "madnb_models"."pets_c_explain"(pg_catalog.text, pg_catalog.int4, pg_catalog.bool) IS 'madnb model pets_c: jsonb explanation: per class the log prior and each feature''s contribution to the log-score the prediction functions use (they sum to it), the log-posterior, the predicted class, the runner-up and the features'' differences against it of the feature values (each NULL, a missing value, unless given)'

-- statement 80
CREATE OR REPLACE FUNCTION "madnb_models"."pets_c_explain"(r anyelement) RETURNS pg_catalog.jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT "madnb_models"."pets_c_explain"("colour" => ($1)."colour", "legs" => ($1)."legs", "indoor" => ($1)."indoor")'

-- statement 81
COMMENT ON FUNCTION "madnb_models"."pets_c_explain"(anyelement) IS 'madnb model pets_c: jsonb explanation: per class the log prior and each feature''s contribution to the log-score the prediction functions use (they sum to it), the log-posterior, the predicted class, the runner-up and the features'' differences against it of a row holding the feature columns'

-- statement 82
SELECT p.oid::pg_catalog.regprocedure::pg_catalog.text AS f, pg_catalog.md5(p.prosrc) AS h FROM pg_catalog.pg_proc AS p WHERE p.pronamespace OPERATOR(pg_catalog.=) pg_catalog.to_regnamespace($1) AND p.proname::pg_catalog.text OPERATOR(pg_catalog.=) ANY ($2)

-- statement 83
INSERT INTO madnb._models (name, kind, source, label, label_type, features, classes, training_rows, smoothing, privacy, statistics, parameters, functions, tables, schema_name, version) VALUES ($1, $2, $3, $4, $5, $6::pg_catalog.jsonb, $7, $8, $9, $10::pg_catalog.jsonb, $11, $12::pg_catalog.jsonb, $13, ARRAY(SELECT pg_catalog.to_regclass(u.t)::pg_catalog.text FROM pg_catalog.unnest($14) WITH ORDINALITY AS u(t, i) ORDER BY u.i), $15, $16)

-- statement 84
SELECT pg_catalog.current_setting($1, true) AS v

-- statement 85
SELECT pg_catalog.to_regclass($1)::pg_catalog.oid::pg_catalog.int8 AS o

-- statement 86
SELECT pg_catalog.obj_description(c.oid, 'pg_class') AS c, c.relkind::pg_catalog.text AS kind FROM pg_catalog.pg_class AS c WHERE c.oid OPERATOR(pg_catalog.=) $1

-- statement 87
SELECT pg_catalog.to_regclass(pg_catalog.quote_ident($1) OPERATOR(pg_catalog.||) '.' OPERATOR(pg_catalog.||) pg_catalog.quote_ident($2)) IS NOT NULL AS t

-- statement 88
CREATE TEMPORARY TABLE pg_temp."madnb_kept_<hex3>" (LIKE "madnb_statistics"."madnb_models.pets_c")

-- statement 89
SELECT madnb._create_kept_statistics($1, $2::pg_catalog.regclass, CURRENT_USER)

-- statement 90
DROP TABLE pg_temp."madnb_kept_<hex3>"

-- statement 91
INSERT INTO "madnb_statistics"."madnb_models.pets_c@v1" (cls, attr, value, n, nv, mean, var, mean_lo, s1, s2) SELECT s.cls, s.attr, s.value, s.n, s.nv, s.mean, s.var, s.mean_lo, s.s1, s.s2 FROM "madnb_statistics"."madnb_models.pets_c" AS s

-- statement 92
COMMENT ON TABLE "madnb_statistics"."madnb_models.pets_c@v1" IS 'madnb statistics {"bounds": null, "class_type": "character varying(8)", "created_at": "<created_at>", "delta": null, "domain": null, "domain_fingerprint": null, "element_type": "text", "epsilon": null, "epsilon_per_query": null, "fixed_point_bits": null, "fixed_point_scale": null, "format": 1, "guarantee": null, "id": "<id>", "mode": "exact", "num_attrs": 3, "numeric": [], "release_id": null, "source": "public.pets"}'

-- statement 93
INSERT INTO madnb._model_versions (schema_name, name, version, operation, source, rows, training_rows, classes, statistics, model) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::pg_catalog.jsonb)

-- statement 94
DELETE FROM madnb._model_versions AS v WHERE v.schema_name OPERATOR(pg_catalog.=) $1 AND v.name OPERATOR(pg_catalog.=) $2 AND v.version OPERATOR(pg_catalog.<=) $3 RETURNING v.statistics, v.owner::pg_catalog.text AS owner

-- statement 95
SELECT pg_catalog.set_config('search_path', $1, true)

-- function madnb_models.pets_c_exact_class(text,integer,boolean) (pg_get_functiondef)
CREATE OR REPLACE FUNCTION madnb_models.pets_c_exact_class(colour text DEFAULT NULL::text, legs integer DEFAULT NULL::integer, indoor boolean DEFAULT NULL::boolean)
 RETURNS integer
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE COST 1
AS $function$BEGIN RETURN (madnb._nb_best(
 '-1.0986122886681098'::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE(('{-0.8472978603872039,-3.555348061489414,-0.7221347174331978}'::pg_catalog.float8[])[pg_catalog.ascii(E'{"black": "\\u0001", "white": "\\u0003", "ginger": "\\u0002"}'::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(('{-0.06252035698133396,NULL,-3.4965075614664802,NULL,-3.4965075614664802}'::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, '-1'::pg_catalog.int8), '5'::pg_catalog.int8) OPERATOR(pg_catalog.-) '-1'::pg_catalog.int8)::pg_catalog.int4], '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(('{-0.24686007793152553,-1.519825753744413}'::pg_catalog.float8[])[pg_catalog.ascii(E'{"true": "\\u0002", "false": "\\u0001"}'::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($3)::pg_catalog.text COLLATE pg_catalog."C"))], '0'::pg_catalog.float8),
 '-1.0986122886681098'::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE(('{-3.555348061489414,-0.7221347174331978,-0.8472978603872039}'::pg_catalog.float8[])[pg_catalog.ascii(E'{"black": "\\u0001", "white": "\\u0003", "ginger": "\\u0002"}'::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(('{-3.4965075614664802,NULL,-0.06252035698133396,NULL,-3.4965075614664802}'::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, '-1'::pg_catalog.int8), '5'::pg_catalog.int8) OPERATOR(pg_catalog.-) '-1'::pg_catalog.int8)::pg_catalog.int4], '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(('{-0.33024168687057687,-1.268511325463507}'::pg_catalog.float8[])[pg_catalog.ascii(E'{"true": "\\u0002", "false": "\\u0001"}'::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($3)::pg_catalog.text COLLATE pg_catalog."C"))], '0'::pg_catalog.float8),
 '-1.0986122886681098'::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE(('{-3.555348061489414,-0.12136085700426769,-3.555348061489414}'::pg_catalog.float8[])[pg_catalog.ascii(E'{"black": "\\u0001", "white": "\\u0003", "ginger": "\\u0002"}'::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(('{-3.4965075614664802,NULL,-3.4965075614664802,NULL,-0.06252035698133396}'::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, '-1'::pg_catalog.int8), '5'::pg_catalog.int8) OPERATOR(pg_catalog.-) '-1'::pg_catalog.int8)::pg_catalog.int4], '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(('{-0.33024168687057687,-1.268511325463507}'::pg_catalog.float8[])[pg_catalog.ascii(E'{"true": "\\u0002", "false": "\\u0001"}'::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($3)::pg_catalog.text COLLATE pg_catalog."C"))], '0'::pg_catalog.float8)
)); END$function$

-- function madnb_models.pets_c_explain(anyelement) (pg_get_functiondef)
CREATE OR REPLACE FUNCTION madnb_models.pets_c_explain(r anyelement)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$SELECT "madnb_models"."pets_c_explain"("colour" => ($1)."colour", "legs" => ($1)."legs", "indoor" => ($1)."indoor")$function$

-- function madnb_models.pets_c_explain(text,integer,boolean) (pg_get_functiondef)
CREATE OR REPLACE FUNCTION madnb_models.pets_c_explain(colour text DEFAULT NULL::text, legs integer DEFAULT NULL::integer, indoor boolean DEFAULT NULL::boolean)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$SELECT madnb._nb_explain(ARRAY['-1.0986122886681098'::pg_catalog.float8, '-1.0986122886681098'::pg_catalog.float8, '-1.0986122886681098'::pg_catalog.float8], ARRAY[
 ARRAY[COALESCE(('{-0.8472978603872039,-3.555348061489414,-0.7221347174331978}'::pg_catalog.float8[])[pg_catalog.ascii(E'{"black": "\\u0001", "white": "\\u0003", "ginger": "\\u0002"}'::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], '0'::pg_catalog.float8), COALESCE(('{-0.06252035698133396,NULL,-3.4965075614664802,NULL,-3.4965075614664802}'::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, '-1'::pg_catalog.int8), '5'::pg_catalog.int8) OPERATOR(pg_catalog.-) '-1'::pg_catalog.int8)::pg_catalog.int4], '0'::pg_catalog.float8), COALESCE(('{-0.24686007793152553,-1.519825753744413}'::pg_catalog.float8[])[pg_catalog.ascii(E'{"true": "\\u0002", "false": "\\u0001"}'::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($3)::pg_catalog.text COLLATE pg_catalog."C"))], '0'::pg_catalog.float8)],
 ARRAY[COALESCE(('{-3.555348061489414,-0.7221347174331978,-0.8472978603872039}'::pg_catalog.float8[])[pg_catalog.ascii(E'{"black": "\\u0001", "white": "\\u0003", "ginger": "\\u0002"}'::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], '0'::pg_catalog.float8), COALESCE(('{-3.4965075614664802,NULL,-0.06252035698133396,NULL,-3.4965075614664802}'::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, '-1'::pg_catalog.int8), '5'::pg_catalog.int8) OPERATOR(pg_catalog.-) '-1'::pg_catalog.int8)::pg_catalog.int4], '0'::pg_catalog.float8), COALESCE(('{-0.33024168687057687,-1.268511325463507}'::pg_catalog.float8[])[pg_catalog.ascii(E'{"true": "\\u0002", "false": "\\u0001"}'::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($3)::pg_catalog.text COLLATE pg_catalog."C"))], '0'::pg_catalog.float8)],
 ARRAY[COALESCE(('{-3.555348061489414,-0.12136085700426769,-3.555348061489414}'::pg_catalog.float8[])[pg_catalog.ascii(E'{"black": "\\u0001", "white": "\\u0003", "ginger": "\\u0002"}'::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], '0'::pg_catalog.float8), COALESCE(('{-3.4965075614664802,NULL,-3.4965075614664802,NULL,-0.06252035698133396}'::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, '-1'::pg_catalog.int8), '5'::pg_catalog.int8) OPERATOR(pg_catalog.-) '-1'::pg_catalog.int8)::pg_catalog.int4], '0'::pg_catalog.float8), COALESCE(('{-0.33024168687057687,-1.268511325463507}'::pg_catalog.float8[])[pg_catalog.ascii(E'{"true": "\\u0002", "false": "\\u0001"}'::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($3)::pg_catalog.text COLLATE pg_catalog."C"))], '0'::pg_catalog.float8)]
], E'{"colour","legs","indoor"}'::pg_catalog.text[], E'{"cat","dog","fish"}'::pg_catalog.text[])$function$

-- function madnb_models.pets_c_predict(anyelement) (pg_get_functiondef)
CREATE OR REPLACE FUNCTION madnb_models.pets_c_predict(r anyelement)
 RETURNS character varying
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$SELECT "madnb_models"."pets_c_predict"("colour" => ($1)."colour", "legs" => ($1)."legs", "indoor" => ($1)."indoor")$function$

-- function madnb_models.pets_c_predict(text,integer,boolean) (pg_get_functiondef)
CREATE OR REPLACE FUNCTION madnb_models.pets_c_predict(colour text DEFAULT NULL::text, legs integer DEFAULT NULL::integer, indoor boolean DEFAULT NULL::boolean)
 RETURNS character varying
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$SELECT (E'{cat,dog,fish}'::character varying(8)[])[COALESCE(madnb._nb_clear('37.582562372805555'::pg_catalog.float8, 
 '-1.0986122886681098'::pg_catalog.float8,
 '-1.0986122886681098'::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE(('{-2.70805020110221,2.833213344056216,-0.1251631429540061}'::pg_catalog.float8[])[pg_catalog.ascii(E'{"black": "\\u0001", "white": "\\u0003", "ginger": "\\u0002"}'::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(('{-3.4339872044851463,NULL,3.4339872044851463,NULL,0.0}'::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, '-1'::pg_catalog.int8), '5'::pg_catalog.int8) OPERATOR(pg_catalog.-) '-1'::pg_catalog.int8)::pg_catalog.int4], '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(('{-0.08338160893905133,0.2513144282809061}'::pg_catalog.float8[])[pg_catalog.ascii(E'{"true": "\\u0002", "false": "\\u0001"}'::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($3)::pg_catalog.text COLLATE pg_catalog."C"))], '0'::pg_catalog.float8),
 '-1.0986122886681098'::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE(('{-2.70805020110221,3.4339872044851463,-2.833213344056216}'::pg_catalog.float8[])[pg_catalog.ascii(E'{"black": "\\u0001", "white": "\\u0003", "ginger": "\\u0002"}'::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(('{-3.4339872044851463,NULL,0.0,NULL,3.4339872044851463}'::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, '-1'::pg_catalog.int8), '5'::pg_catalog.int8) OPERATOR(pg_catalog.-) '-1'::pg_catalog.int8)::pg_catalog.int4], '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(('{-0.08338160893905133,0.2513144282809061}'::pg_catalog.float8[])[pg_catalog.ascii(E'{"true": "\\u0002", "false": "\\u0001"}'::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($3)::pg_catalog.text COLLATE pg_catalog."C"))], '0'::pg_catalog.float8)
), "madnb_models"."pets_c_exact_class"($1, $2, $3))]$function$

-- function madnb_models.pets_c_predict_proba(anyelement) (pg_get_functiondef)
CREATE OR REPLACE FUNCTION madnb_models.pets_c_predict_proba(r anyelement)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$SELECT "madnb_models"."pets_c_predict_proba"("colour" => ($1)."colour", "legs" => ($1)."legs", "indoor" => ($1)."indoor")$function$

-- function madnb_models.pets_c_predict_proba(text,integer,boolean) (pg_get_functiondef)
CREATE OR REPLACE FUNCTION madnb_models.pets_c_predict_proba(colour text DEFAULT NULL::text, legs integer DEFAULT NULL::integer, indoor boolean DEFAULT NULL::boolean)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$SELECT madnb._nb_proba_jsonb(ARRAY[
 '-1.0986122886681098'::pg_catalog.float8,
 '-1.0986122886681098'::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE(('{-2.70805020110221,2.833213344056216,-0.1251631429540061}'::pg_catalog.float8[])[pg_catalog.ascii(E'{"black": "\\u0001", "white": "\\u0003", "ginger": "\\u0002"}'::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(('{-3.4339872044851463,NULL,3.4339872044851463,NULL,0.0}'::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, '-1'::pg_catalog.int8), '5'::pg_catalog.int8) OPERATOR(pg_catalog.-) '-1'::pg_catalog.int8)::pg_catalog.int4], '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(('{-0.08338160893905133,0.2513144282809061}'::pg_catalog.float8[])[pg_catalog.ascii(E'{"true": "\\u0002", "false": "\\u0001"}'::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($3)::pg_catalog.text COLLATE pg_catalog."C"))], '0'::pg_catalog.float8),
 '-1.0986122886681098'::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE(('{-2.70805020110221,3.4339872044851463,-2.833213344056216}'::pg_catalog.float8[])[pg_catalog.ascii(E'{"black": "\\u0001", "white": "\\u0003", "ginger": "\\u0002"}'::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(('{-3.4339872044851463,NULL,0.0,NULL,3.4339872044851463}'::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, '-1'::pg_catalog.int8), '5'::pg_catalog.int8) OPERATOR(pg_catalog.-) '-1'::pg_catalog.int8)::pg_catalog.int4], '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(('{-0.08338160893905133,0.2513144282809061}'::pg_catalog.float8[])[pg_catalog.ascii(E'{"true": "\\u0002", "false": "\\u0001"}'::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($3)::pg_catalog.text COLLATE pg_catalog."C"))], '0'::pg_catalog.float8)
], E'{"cat","dog","fish"}'::pg_catalog.text[])$function$

-- function madnb_models.pets_c_predict_proba_array(anyelement) (pg_get_functiondef)
CREATE OR REPLACE FUNCTION madnb_models.pets_c_predict_proba_array(r anyelement)
 RETURNS double precision[]
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$SELECT "madnb_models"."pets_c_predict_proba_array"("colour" => ($1)."colour", "legs" => ($1)."legs", "indoor" => ($1)."indoor")$function$

-- function madnb_models.pets_c_predict_proba_array(text,integer,boolean) (pg_get_functiondef)
CREATE OR REPLACE FUNCTION madnb_models.pets_c_predict_proba_array(colour text DEFAULT NULL::text, legs integer DEFAULT NULL::integer, indoor boolean DEFAULT NULL::boolean)
 RETURNS double precision[]
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$SELECT madnb._nb_proba(
 '-1.0986122886681098'::pg_catalog.float8,
 '-1.0986122886681098'::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE(('{-2.70805020110221,2.833213344056216,-0.1251631429540061}'::pg_catalog.float8[])[pg_catalog.ascii(E'{"black": "\\u0001", "white": "\\u0003", "ginger": "\\u0002"}'::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(('{-3.4339872044851463,NULL,3.4339872044851463,NULL,0.0}'::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, '-1'::pg_catalog.int8), '5'::pg_catalog.int8) OPERATOR(pg_catalog.-) '-1'::pg_catalog.int8)::pg_catalog.int4], '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(('{-0.08338160893905133,0.2513144282809061}'::pg_catalog.float8[])[pg_catalog.ascii(E'{"true": "\\u0002", "false": "\\u0001"}'::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($3)::pg_catalog.text COLLATE pg_catalog."C"))], '0'::pg_catalog.float8),
 '-1.0986122886681098'::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE(('{-2.70805020110221,3.4339872044851463,-2.833213344056216}'::pg_catalog.float8[])[pg_catalog.ascii(E'{"black": "\\u0001", "white": "\\u0003", "ginger": "\\u0002"}'::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(('{-3.4339872044851463,NULL,0.0,NULL,3.4339872044851463}'::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, '-1'::pg_catalog.int8), '5'::pg_catalog.int8) OPERATOR(pg_catalog.-) '-1'::pg_catalog.int8)::pg_catalog.int4], '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(('{-0.08338160893905133,0.2513144282809061}'::pg_catalog.float8[])[pg_catalog.ascii(E'{"true": "\\u0002", "false": "\\u0001"}'::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($3)::pg_catalog.text COLLATE pg_catalog."C"))], '0'::pg_catalog.float8)
)$function$

-- function madnb_models.pets_c_score_share(numeric[]) (pg_get_functiondef)
CREATE OR REPLACE FUNCTION madnb_models.pets_c_score_share(share numeric[])
 RETURNS numeric[]
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE STRICT
AS $function$DECLARE _madnb_p pg_catalog.numeric := '10407932194664399081925240327364085538615262247266704805319112350403608059673360298012239441732324184842421613954281007791383566248323464908139906605677320762924129509389220345773183349661583550472959420547689811211693677147548478866962501384438260291732348885311160828538416585028255604666224831890918801847068222203140521026698435488732958028878050869736186900714720710555703168729087'::pg_catalog.numeric; BEGIN IF COALESCE(pg_catalog.array_ndims(share), 0) OPERATOR(pg_catalog.<>) 1 OR pg_catalog.array_lower(share, 1) OPERATOR(pg_catalog.<>) 1 OR pg_catalog.array_length(share, 1) OPERATOR(pg_catalog.<>) '9'::pg_catalog.int4 OR pg_catalog.array_position(share, NULL) IS NOT NULL THEN RAISE EXCEPTION 'a share of this model is an array of 9 numbers' USING ERRCODE = '22023', DETAIL = pg_catalog.format('got %s', pg_catalog.array_dims(share)), HINT = 'private_predict of the madnb Python package encodes and shares rows'; END IF; RETURN ARRAY[pg_catalog.mod(pg_catalog.mod((((('-20265819725292941312'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[1]) OPERATOR(pg_catalog.+) ('-15629886784764436480'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[2])) OPERATOR(pg_catalog.+) (('-65584595783254589440'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[3]) OPERATOR(pg_catalog.+) ('-13321034319230763008'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[4]))) OPERATOR(pg_catalog.+) ((('-1153297024631627776'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[5]) OPERATOR(pg_catalog.+) ('-64499180138162429952'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[6])) OPERATOR(pg_catalog.+) (('-64499180138162429952'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[7]) OPERATOR(pg_catalog.+) (('-4553764679618846720'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[8]) OPERATOR(pg_catalog.+) ('-28035836715955904512'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[9]))))), _madnb_p) OPERATOR(pg_catalog.+) _madnb_p, _madnb_p), pg_catalog.mod(pg_catalog.mod((((('-20265819725292941312'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[1]) OPERATOR(pg_catalog.+) ('-65584595783254589440'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[2])) OPERATOR(pg_catalog.+) (('-13321034319230763008'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[3]) OPERATOR(pg_catalog.+) ('-15629886784764436480'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[4]))) OPERATOR(pg_catalog.+) ((('-64499180138162429952'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[5]) OPERATOR(pg_catalog.+) ('-1153297024631627776'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[6])) OPERATOR(pg_catalog.+) (('-64499180138162429952'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[7]) OPERATOR(pg_catalog.+) (('-6091883880171659264'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[8]) OPERATOR(pg_catalog.+) ('-23399903775427395584'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[9]))))), _madnb_p) OPERATOR(pg_catalog.+) _madnb_p, _madnb_p), pg_catalog.mod(pg_catalog.mod((((('-20265819725292941312'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[1]) OPERATOR(pg_catalog.+) ('-65584595783254589440'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[2])) OPERATOR(pg_catalog.+) (('-2238712669723787264'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[3]) OPERATOR(pg_catalog.+) ('-65584595783254589440'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[4]))) OPERATOR(pg_catalog.+) ((('-64499180138162429952'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[5]) OPERATOR(pg_catalog.+) ('-64499180138162429952'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[6])) OPERATOR(pg_catalog.+) (('-1153297024631627776'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[7]) OPERATOR(pg_catalog.+) (('-6091883880171659264'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[8]) OPERATOR(pg_catalog.+) ('-23399903775427395584'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[9]))))), _madnb_p) OPERATOR(pg_catalog.+) _madnb_p, _madnb_p)]; END$function$

-- function madnb_models.pets_c_share_encoding() (pg_get_functiondef)
CREATE OR REPLACE FUNCTION madnb_models.pets_c_share_encoding()
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$SELECT E'{"format": 1, "modulus": "10407932194664399081925240327364085538615262247266704805319112350403608059673360298012239441732324184842421613954281007791383566248323464908139906605677320762924129509389220345773183349661583550472959420547689811211693677147548478866962501384438260291732348885311160828538416585028255604666224831890918801847068222203140521026698435488732958028878050869736186900714720710555703168729087", "input_bits": 128, "coefficient_bits": 64, "classes": ["cat", "dog", "fish"], "width": 9, "features": [{"name": "colour", "role": "categorical", "text": "text", "values": ["black", "ginger", "white"]}, {"name": "legs", "role": "categorical", "text": "int4", "values": ["0", "2", "4"]}, {"name": "indoor", "role": "categorical", "text": "bool", "values": ["false", "true"]}], "fingerprint": "7fe6fcdd9e5cd271b45a12087e18c117aab6259661181b81078959e43f77bdfc", "score_function": ["madnb_models", "pets_c_score_share"]}'::pg_catalog.jsonb$function$
