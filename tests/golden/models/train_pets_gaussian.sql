-- golden SQL of: SELECT madnb.train('pets_g', 'pets', 'species', features => ARRAY['legs', 'weight', 'age'], kind => 'gaussian', options => '{"var_smoothing": 1e-6, "priors": [0.2, 0.3, 0.5]}')
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
SELECT pg_catalog.current_setting($1) AS v

-- statement 20
SELECT pg_catalog.set_config($1, $2, true)

-- statement 21
SELECT pg_catalog.current_setting($1) AS v

-- statement 22
SELECT pg_catalog.set_config($1, $2, true)

-- statement 23
CREATE TEMPORARY TABLE pg_temp."madnb_colstats_<hex1>" ON COMMIT DROP AS SELECT t."species" AS cls, 0 AS o, NULL::pg_catalog.text AS v, pg_catalog.count(*) AS n, pg_catalog.count((t."legs")::pg_catalog.float8) AS c1, pg_catalog.avg((t."legs")::pg_catalog.float8) AS m1, pg_catalog.var_samp((t."legs")::pg_catalog.float8) AS v1, pg_catalog.count(CASE WHEN (t."weight")::pg_catalog.float8 OPERATOR(pg_catalog.=) 'NaN'::pg_catalog.float8 THEN NULL ELSE (t."weight")::pg_catalog.float8 END) AS c2, pg_catalog.avg(CASE WHEN (t."weight")::pg_catalog.float8 OPERATOR(pg_catalog.=) 'NaN'::pg_catalog.float8 THEN NULL ELSE (t."weight")::pg_catalog.float8 END) AS m2, pg_catalog.var_samp(CASE WHEN (t."weight")::pg_catalog.float8 OPERATOR(pg_catalog.=) 'NaN'::pg_catalog.float8 THEN NULL ELSE (t."weight")::pg_catalog.float8 END) AS v2, pg_catalog.count(CASE WHEN (t."age")::pg_catalog.float8 OPERATOR(pg_catalog.=) 'NaN'::pg_catalog.float8 THEN NULL ELSE (t."age")::pg_catalog.float8 END) AS c3, pg_catalog.avg(CASE WHEN (t."age")::pg_catalog.float8 OPERATOR(pg_catalog.=) 'NaN'::pg_catalog.float8 THEN NULL ELSE (t."age")::pg_catalog.float8 END) AS m3, pg_catalog.var_samp(CASE WHEN (t."age")::pg_catalog.float8 OPERATOR(pg_catalog.=) 'NaN'::pg_catalog.float8 THEN NULL ELSE (t."age")::pg_catalog.float8 END) AS v3 FROM "public"."pets" AS t GROUP BY 1

-- statement 24
SELECT pg_catalog.set_config($1, $2, true)

-- statement 25
SELECT pg_catalog.set_config($1, $2, true)

-- statement 26
SELECT COALESCE(pg_catalog.sum(s.n) FILTER (WHERE s.cls IS NULL AND s.o OPERATOR(pg_catalog.=) 0), 0)::pg_catalog.int8 AS unlabelled, COALESCE(pg_catalog.sum(s.n) FILTER (WHERE s.cls IS NOT NULL AND s.o OPERATOR(pg_catalog.=) 0), 0)::pg_catalog.int8 AS labelled FROM pg_temp."madnb_colstats_<hex1>" AS s

-- statement 27
SELECT x.j, (s.cls)::pg_catalog.text AS cls FROM pg_temp."madnb_colstats_<hex1>" AS s CROSS JOIN LATERAL (VALUES (1, s.m1, s.v1), (2, s.m2, s.v2), (3, s.m3, s.v3)) AS x(j, m, v) WHERE s.o OPERATOR(pg_catalog.=) 0 AND s.cls IS NOT NULL AND (x.m OPERATOR(pg_catalog.=) ANY (ARRAY['NaN', 'Infinity', '-Infinity']::pg_catalog.float8[]) OR x.v OPERATOR(pg_catalog.=) ANY (ARRAY['NaN', 'Infinity']::pg_catalog.float8[])) ORDER BY x.j LIMIT 1

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
INSERT INTO "madnb_statistics"."madnb_models.pets_g" (cls, attr, value, n, nv, mean, var) SELECT s.cls, 0, NULL, s.n, NULL::pg_catalog.int8, NULL::pg_catalog.float8, NULL::pg_catalog.float8 FROM pg_temp."madnb_colstats_<hex1>" AS s WHERE s.cls IS NOT NULL AND s.o OPERATOR(pg_catalog.=) 0 UNION ALL SELECT s.cls, s.o, s.v, s.n, NULL, NULL, NULL FROM pg_temp."madnb_colstats_<hex1>" AS s WHERE s.cls IS NOT NULL AND s.o OPERATOR(pg_catalog.>) 0 AND s.v IS NOT NULL UNION ALL SELECT s.cls, x.j, NULL, NULL, x.c, x.m, x.v FROM pg_temp."madnb_colstats_<hex1>" AS s CROSS JOIN LATERAL (VALUES (1, s.c1, s.m1, s.v1), (2, s.c2, s.m2, s.v2), (3, s.c3, s.m3, s.v3)) AS x(j, c, m, v) WHERE s.cls IS NOT NULL AND s.o OPERATOR(pg_catalog.=) 0

-- statement 34
SELECT pg_catalog.set_config($1, $2, true)

-- statement 35
DROP TABLE pg_temp."madnb_colstats_<hex1>"

-- statement 36
SELECT DISTINCT ON (s.attr) s.attr AS o, s.mean AS c FROM "madnb_statistics"."madnb_models.pets_g" AS s WHERE s.attr OPERATOR(pg_catalog.=) ANY ('{1,2,3}'::pg_catalog.int4[]) AND s.nv OPERATOR(pg_catalog.>) 1 AND pg_catalog.abs(s.mean) OPERATOR(pg_catalog.>) (10000.0::pg_catalog.float8 OPERATOR(pg_catalog.*) pg_catalog.sqrt(s.var)) ORDER BY s.attr, s.nv DESC

-- statement 37
UPDATE "madnb_statistics"."madnb_models.pets_g" AS s SET mean = y.c OPERATOR(pg_catalog.+) y.r, mean_lo = (y.c OPERATOR(pg_catalog.-) (y.c OPERATOR(pg_catalog.+) y.r)) OPERATOR(pg_catalog.+) y.r, var = y.v FROM (SELECT g.cls, x.o, x.c, x.r, x.v FROM (SELECT t."species" AS cls, pg_catalog.avg(((t."legs")::pg_catalog.float8 OPERATOR(pg_catalog.-) 4.0::pg_catalog.float8)) AS r1, pg_catalog.var_samp(((t."legs")::pg_catalog.float8 OPERATOR(pg_catalog.-) 4.0::pg_catalog.float8)) AS v1 FROM "public"."pets" AS t WHERE t."species" IS NOT NULL GROUP BY t."species") AS g CROSS JOIN LATERAL (VALUES (1, 4.0::pg_catalog.float8, g.r1, g.v1)) AS x(o, c, r, v)) AS y WHERE s.cls OPERATOR(pg_catalog.=) y.cls AND s.attr OPERATOR(pg_catalog.=) y.o AND y.r IS NOT NULL AND s.nv OPERATOR(pg_catalog.>) 1 AND pg_catalog.abs(s.mean) OPERATOR(pg_catalog.>) (10000.0::pg_catalog.float8 OPERATOR(pg_catalog.*) pg_catalog.sqrt(s.var))

-- statement 38
SELECT pg_catalog.to_char(pg_catalog.statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t

-- statement 39
COMMENT ON TABLE "madnb_statistics"."madnb_models.pets_g" IS 'madnb statistics {"bounds": null, "class_type": "character varying(8)", "created_at": "<created_at>", "delta": null, "domain": null, "domain_fingerprint": null, "element_type": "text", "epsilon": null, "epsilon_per_query": null, "fixed_point_bits": null, "fixed_point_scale": null, "format": 1, "guarantee": null, "id": "<id>", "mode": "exact", "num_attrs": 3, "numeric": [1, 2, 3], "release_id": null, "source": "public.pets"}'

-- statement 40
SELECT pg_catalog.count(*) AS k, COALESCE(pg_catalog.sum(s.n), 0)::pg_catalog.int8 AS n, pg_catalog.format('%s', (pg_catalog.array_agg(s.cls))[1]) AS one FROM "madnb_statistics"."madnb_models.pets_g" AS s WHERE s.attr OPERATOR(pg_catalog.=) 0

-- statement 41
SELECT pg_catalog.to_regclass($1)::pg_catalog.oid::pg_catalog.int8 AS o

-- statement 42
CREATE TABLE "madnb_models"."pets_g_class_priors" (class character varying(8), class_cnt pg_catalog.int8, all_cnt pg_catalog.int8)

-- statement 43
CREATE TABLE "madnb_models"."pets_g_feature_probs" (class character varying(8), attr pg_catalog.int4, value text, cnt pg_catalog.int8, attr_cnt pg_catalog.int8, smoothing pg_catalog.float8)

-- statement 44
CREATE TABLE "madnb_models"."pets_g_numeric_stats" (class character varying(8), attr pg_catalog.int4, attr_mean pg_catalog.float8, attr_var pg_catalog.float8, value_cnt pg_catalog.int8)

-- statement 45
WITH cc AS (SELECT s.cls, pg_catalog.sum(s.n)::pg_catalog.int8 AS class_cnt FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.nv, s.mean, s.var FROM "madnb_statistics"."madnb_models.pets_g" AS s) AS s WHERE s.cls IS NOT NULL AND s.o OPERATOR(pg_catalog.=) 0 GROUP BY s.cls),
cp AS (SELECT cc.cls AS class, cc.class_cnt, (pg_catalog.sum(cc.class_cnt) OVER ())::pg_catalog.int8 AS all_cnt FROM cc),
vals AS (SELECT DISTINCT s.o, s.v FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.nv, s.mean, s.var FROM "madnb_statistics"."madnb_models.pets_g" AS s) AS s WHERE s.cls IS NOT NULL AND s.v IS NOT NULL),
ac AS (SELECT vals.o, pg_catalog.count(*)::pg_catalog.int8 AS attr_cnt FROM vals GROUP BY vals.o),
fp AS (SELECT cc.cls AS class, vals.o AS attr, vals.v AS value, COALESCE(s.n, 0)::pg_catalog.int8 AS cnt, ac.attr_cnt FROM cc CROSS JOIN vals JOIN ac ON ac.o = vals.o LEFT JOIN (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.nv, s.mean, s.var FROM "madnb_statistics"."madnb_models.pets_g" AS s) AS s ON s.cls = cc.cls AND s.o = vals.o AND s.v = vals.v),
np AS (SELECT s.cls AS class, s.o AS attr, s.mean AS attr_mean, s.var AS attr_var, s.nv AS value_cnt FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.nv, s.mean, s.var FROM "madnb_statistics"."madnb_models.pets_g" AS s) AS s WHERE s.cls IS NOT NULL AND s.o = ANY ('{1,2,3}'::pg_catalog.int4[]))
 INSERT INTO "madnb_models"."pets_g_class_priors" (class, class_cnt, all_cnt) SELECT class, class_cnt, all_cnt FROM cp ORDER BY class

-- statement 46
WITH cc AS (SELECT s.cls, pg_catalog.sum(s.n)::pg_catalog.int8 AS class_cnt FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.nv, s.mean, s.var FROM "madnb_statistics"."madnb_models.pets_g" AS s) AS s WHERE s.cls IS NOT NULL AND s.o OPERATOR(pg_catalog.=) 0 GROUP BY s.cls),
cp AS (SELECT cc.cls AS class, cc.class_cnt, (pg_catalog.sum(cc.class_cnt) OVER ())::pg_catalog.int8 AS all_cnt FROM cc),
vals AS (SELECT DISTINCT s.o, s.v FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.nv, s.mean, s.var FROM "madnb_statistics"."madnb_models.pets_g" AS s) AS s WHERE s.cls IS NOT NULL AND s.v IS NOT NULL),
ac AS (SELECT vals.o, pg_catalog.count(*)::pg_catalog.int8 AS attr_cnt FROM vals GROUP BY vals.o),
fp AS (SELECT cc.cls AS class, vals.o AS attr, vals.v AS value, COALESCE(s.n, 0)::pg_catalog.int8 AS cnt, ac.attr_cnt FROM cc CROSS JOIN vals JOIN ac ON ac.o = vals.o LEFT JOIN (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.nv, s.mean, s.var FROM "madnb_statistics"."madnb_models.pets_g" AS s) AS s ON s.cls = cc.cls AND s.o = vals.o AND s.v = vals.v),
np AS (SELECT s.cls AS class, s.o AS attr, s.mean AS attr_mean, s.var AS attr_var, s.nv AS value_cnt FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.nv, s.mean, s.var FROM "madnb_statistics"."madnb_models.pets_g" AS s) AS s WHERE s.cls IS NOT NULL AND s.o = ANY ('{1,2,3}'::pg_catalog.int4[]))
 INSERT INTO "madnb_models"."pets_g_feature_probs" (class, attr, value, cnt, attr_cnt, smoothing) SELECT class, attr, value, cnt, attr_cnt, 1.0::pg_catalog.float8 FROM fp ORDER BY attr, value, class

-- statement 47
WITH cc AS (SELECT s.cls, pg_catalog.sum(s.n)::pg_catalog.int8 AS class_cnt FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.nv, s.mean, s.var FROM "madnb_statistics"."madnb_models.pets_g" AS s) AS s WHERE s.cls IS NOT NULL AND s.o OPERATOR(pg_catalog.=) 0 GROUP BY s.cls),
cp AS (SELECT cc.cls AS class, cc.class_cnt, (pg_catalog.sum(cc.class_cnt) OVER ())::pg_catalog.int8 AS all_cnt FROM cc),
vals AS (SELECT DISTINCT s.o, s.v FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.nv, s.mean, s.var FROM "madnb_statistics"."madnb_models.pets_g" AS s) AS s WHERE s.cls IS NOT NULL AND s.v IS NOT NULL),
ac AS (SELECT vals.o, pg_catalog.count(*)::pg_catalog.int8 AS attr_cnt FROM vals GROUP BY vals.o),
fp AS (SELECT cc.cls AS class, vals.o AS attr, vals.v AS value, COALESCE(s.n, 0)::pg_catalog.int8 AS cnt, ac.attr_cnt FROM cc CROSS JOIN vals JOIN ac ON ac.o = vals.o LEFT JOIN (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.nv, s.mean, s.var FROM "madnb_statistics"."madnb_models.pets_g" AS s) AS s ON s.cls = cc.cls AND s.o = vals.o AND s.v = vals.v),
np AS (SELECT s.cls AS class, s.o AS attr, s.mean AS attr_mean, s.var AS attr_var, s.nv AS value_cnt FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.nv, s.mean, s.var FROM "madnb_statistics"."madnb_models.pets_g" AS s) AS s WHERE s.cls IS NOT NULL AND s.o = ANY ('{1,2,3}'::pg_catalog.int4[]))
 INSERT INTO "madnb_models"."pets_g_numeric_stats" (class, attr, attr_mean, attr_var, value_cnt) SELECT class, attr, attr_mean, attr_var, value_cnt FROM np ORDER BY class, attr

-- statement 48
COMMENT ON TABLE "madnb_models"."pets_g_class_priors" IS 'madnb class priors trained from public.pets; derived from statistics "madnb_statistics"."madnb_models.pets_g" (id <uuid>)'

-- statement 49
COMMENT ON TABLE "madnb_models"."pets_g_feature_probs" IS 'madnb categorical feature counts trained from public.pets; P(value|class) = (cnt + smoothing) / (class rows with attr present + smoothing * attr_cnt); numAttrs = 3; derived from statistics "madnb_statistics"."madnb_models.pets_g" (id <uuid>)'

-- statement 50
COMMENT ON TABLE "madnb_models"."pets_g_numeric_stats" IS 'madnb Gaussian parameters (mean, sample variance, non-NULL count) trained from public.pets; derived from statistics "madnb_statistics"."madnb_models.pets_g" (id <uuid>)'

-- statement 51
ANALYZE "madnb_models"."pets_g_feature_probs"

-- statement 52
ANALYZE "madnb_models"."pets_g_class_priors"

-- statement 53
ANALYZE "madnb_models"."pets_g_numeric_stats"

-- statement 54
SELECT pg_catalog.max(COALESCE(g.var OPERATOR(pg_catalog.*) (g.nv OPERATOR(pg_catalog.-) 1)::pg_catalog.float8 OPERATOR(pg_catalog./) g.nv::pg_catalog.float8, '0'::pg_catalog.float8)) AS v FROM (SELECT m.o AS attr, m.nv, m.mean, m.var FROM (WITH u AS (SELECT pg_catalog.dense_rank() OVER (ORDER BY s.cls)::pg_catalog.int4 AS part, 0 AS cls, s.attr, s.value, s.n, s.nv, s.mean, s.mean_lo, s.var, s.s1, s.s2 FROM "madnb_statistics"."madnb_models.pets_g" AS s WHERE s.cls IS NOT NULL AND s.attr OPERATOR(pg_catalog.=) ANY ('{1,2,3}'::pg_catalog.int4[])), c AS (SELECT u.cls, u.attr AS o, u.value AS v, pg_catalog.sum(u.n) AS n FROM u WHERE NOT (u.attr OPERATOR(pg_catalog.=) ANY ('{1,2,3}'::pg_catalog.int4[])) GROUP BY 1, 2, 3), w0 AS (SELECT u.part, u.cls, u.attr, u.nv, u.mean, COALESCE(u.mean_lo, 0) AS lo, u.var, pg_catalog.first_value(u.mean) OVER r AS ref, pg_catalog.first_value(COALESCE(u.mean_lo, 0)) OVER r AS ref_lo FROM u WHERE u.attr OPERATOR(pg_catalog.=) ANY ('{1,2,3}'::pg_catalog.int4[]) WINDOW r AS (PARTITION BY u.cls, u.attr ORDER BY u.mean IS NULL, u.part)), w AS (SELECT w0.*, (w0.mean - w0.ref) + (w0.lo - w0.ref_lo) AS dev FROM w0), g AS (SELECT w.*, pg_catalog.sum(w.nv::pg_catalog.float8 * w.dev) OVER p / NULLIF(pg_catalog.sum(w.nv) OVER p, 0)::pg_catalog.float8 AS d FROM w WINDOW p AS (PARTITION BY w.cls, w.attr)), x AS (SELECT g.cls, g.attr, pg_catalog.sum(g.nv) AS nv, pg_catalog.count(g.mean) AS k, pg_catalog.min(g.mean) AS m1, pg_catalog.min(g.lo) AS l1, pg_catalog.min(g.var) AS v1, pg_catalog.min(g.ref) AS ref, pg_catalog.min(g.ref_lo) + pg_catalog.min(g.d) AS dd, pg_catalog.sum(COALESCE(g.var * (g.nv - 1)::pg_catalog.float8, 0::pg_catalog.float8) + COALESCE(g.nv::pg_catalog.float8 * (g.dev - g.d) * (g.dev - g.d), 0::pg_catalog.float8)) AS m2 FROM g GROUP BY g.cls, g.attr), y AS (SELECT x.*, x.ref + x.dd AS hi FROM x), z AS (SELECT y.*, (y.ref - (y.hi - (y.hi - y.ref))) + (y.dd - (y.hi - y.ref)) AS lo FROM y) SELECT c.cls, c.o, c.v, c.n, NULL::pg_catalog.int8 AS nv, NULL::pg_catalog.float8 AS mean, NULL::pg_catalog.float8 AS var, NULL::pg_catalog.float8 AS mean_lo FROM c UNION ALL SELECT z.cls, z.attr, NULL::text, NULL::pg_catalog.numeric, z.nv::pg_catalog.int8, CASE WHEN z.k = 1 THEN z.m1 WHEN z.k > 1 THEN z.hi END, CASE WHEN z.k = 1 THEN z.v1 WHEN z.k > 1 AND z.nv > 1 THEN z.m2 / (z.nv - 1)::pg_catalog.float8 END, NULLIF(CASE WHEN z.k = 1 THEN z.l1 WHEN z.k > 1 THEN z.lo END, 0::pg_catalog.float8) FROM z) AS m WHERE m.o OPERATOR(pg_catalog.=) ANY ('{1,2,3}'::pg_catalog.int4[])) AS g

-- statement 55
UPDATE "madnb_models"."pets_g_numeric_stats" AS x SET attr_var = COALESCE(x.attr_var OPERATOR(pg_catalog.*) (x.value_cnt OPERATOR(pg_catalog.-) 1)::pg_catalog.float8 OPERATOR(pg_catalog./) x.value_cnt::pg_catalog.float8, '0'::pg_catalog.float8) OPERATOR(pg_catalog.+) 1.0141866666666665e-05::pg_catalog.float8 WHERE x.value_cnt OPERATOR(pg_catalog.>) 0

-- statement 56
SELECT x.attr, (x.class)::pg_catalog.text AS cls FROM "madnb_models"."pets_g_numeric_stats" AS x WHERE x.value_cnt OPERATOR(pg_catalog.>) 0 AND NOT x.attr_var OPERATOR(pg_catalog.>) '0'::pg_catalog.float8 LIMIT 1

-- statement 57
SELECT pg_catalog.obj_description(pg_catalog.to_regclass($1), 'pg_class') AS c

-- statement 58
COMMENT ON TABLE "madnb_models"."pets_g_feature_probs" IS 'madnb model pets_g: madnb categorical feature counts trained from public.pets; P(value|class) = (cnt + smoothing) / (class rows with attr present + smoothing * attr_cnt); numAttrs = 3; derived from statistics "madnb_statistics"."madnb_models.pets_g" (id <uuid>)'

-- statement 59
GRANT SELECT ON "madnb_models"."pets_g_feature_probs" TO PUBLIC

-- statement 60
SELECT pg_catalog.obj_description(pg_catalog.to_regclass($1), 'pg_class') AS c

-- statement 61
COMMENT ON TABLE "madnb_models"."pets_g_class_priors" IS 'madnb model pets_g: madnb class priors trained from public.pets; derived from statistics "madnb_statistics"."madnb_models.pets_g" (id <uuid>)'

-- statement 62
GRANT SELECT ON "madnb_models"."pets_g_class_priors" TO PUBLIC

-- statement 63
SELECT pg_catalog.obj_description(pg_catalog.to_regclass($1), 'pg_class') AS c

-- statement 64
COMMENT ON TABLE "madnb_models"."pets_g_numeric_stats" IS 'madnb model pets_g: madnb Gaussian parameters (mean, population variance + epsilon 1.0141866666666665e-05 (scikit-learn''s GaussianNB), non-NULL count) trained from public.pets; derived from statistics "madnb_statistics"."madnb_models.pets_g" (id <uuid>)'

-- statement 65
GRANT SELECT ON "madnb_models"."pets_g_numeric_stats" TO PUBLIC

-- statement 66
SELECT pg_catalog.count(*)::pg_catalog.int8 AS k FROM "madnb_models"."pets_g_class_priors" AS m

-- statement 67
SELECT EXISTS (SELECT 1 FROM "madnb_models"."pets_g_feature_probs") AS e

-- statement 68
SELECT pg_catalog.textin(pg_catalog.array_out(m0.classes)) AS classes_text, ARRAY(SELECT (u.c)::pg_catalog.text FROM pg_catalog.unnest(m0.classes) WITH ORDINALITY AS u(c, i) ORDER BY u.i) AS class_texts, m0.prior, m2.nlo, m2.nhi FROM (SELECT pg_catalog.array_agg(c.class ORDER BY c.pos) AS classes, pg_catalog.array_agg((CASE WHEN (c.class_cnt::pg_catalog.float8 / c.all_cnt) > 0 THEN pg_catalog.ln((c.class_cnt::pg_catalog.float8 / c.all_cnt)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) ORDER BY c.pos) AS prior, madnb._check_class_count(pg_catalog.count(*), 3) AS checked FROM (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "madnb_models"."pets_g_class_priors" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c) AS m0, (SELECT pg_catalog.array_agg(COALESCE(b.lo, 0::pg_catalog.float8) ORDER BY g.a) AS nlo, pg_catalog.array_agg(COALESCE(b.hi, 0::pg_catalog.float8) ORDER BY g.a) AS nhi FROM pg_catalog.generate_series(1, 3) AS g(a) LEFT JOIN (SELECT w.attr, pg_catalog.min(w.mu) - 1e+100 * pg_catalog.sqrt(pg_catalog.min(w.w)) AS lo, pg_catalog.max(w.mu) + 1e+100 * pg_catalog.sqrt(pg_catalog.min(w.w)) AS hi FROM (SELECT b.attr, b.pos, b.mu, b.var AS w FROM (SELECT x.attr, c.pos, x.attr_mean AS mu, x.attr_var AS var, x.value_cnt AS cnt FROM "madnb_models"."pets_g_numeric_stats" AS x JOIN (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "madnb_models"."pets_g_class_priors" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c ON c.class = x.class WHERE x.value_cnt > 0) AS b) AS w GROUP BY w.attr) AS b ON b.attr = g.a) AS m2

-- statement 69
SELECT m1.a, m1.r, m1.mu FROM (SELECT c.pos, pg_catalog.array_agg(COALESCE(w.mu, 0::pg_catalog.float8) ORDER BY g.a) AS mu, pg_catalog.array_agg(COALESCE(pg_catalog.sqrt(0.5 / w.w), 0::pg_catalog.float8) ORDER BY g.a) AS r, pg_catalog.array_agg(COALESCE(-0.5 * pg_catalog.ln(2 * pg_catalog.pi() * w.w), 0::pg_catalog.float8) ORDER BY g.a) AS a FROM (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "madnb_models"."pets_g_class_priors" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c CROSS JOIN pg_catalog.generate_series(1, 3) AS g(a) LEFT JOIN (SELECT b.attr, b.pos, b.mu, b.var AS w FROM (SELECT x.attr, c.pos, x.attr_mean AS mu, x.attr_var AS var, x.value_cnt AS cnt FROM "madnb_models"."pets_g_numeric_stats" AS x JOIN (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "madnb_models"."pets_g_class_priors" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c ON c.class = x.class WHERE x.value_cnt > 0) AS b) AS w ON w.pos = c.pos AND w.attr = g.a GROUP BY c.pos) AS m1 ORDER BY m1.pos

-- statement 70
CREATE OR REPLACE FUNCTION "madnb_models"."pets_g_predict"("legs" pg_catalog.int4 DEFAULT NULL, "weight" pg_catalog.float8 DEFAULT NULL, "age" pg_catalog.numeric DEFAULT NULL) RETURNS character varying(8) LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT (E''{cat,dog,fish}''::character varying(8)[])[madnb._nb_best(
 ''-1.6094379124341003''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE(''4.830480710459705''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''222.0373594188667''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(($1)::pg_catalog.float8, ''-3.1846297534669025e+97''::pg_catalog.float8), ''3.1846297534669025e+97''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''0.0''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-2.0705714709025616''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.2235306969163329''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($2)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($2)::pg_catalog.float8 END, ''-3.1633542548798843e+100''::pg_catalog.float8), ''3.1633542548798843e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''6.239999999999999''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-1.8293973808332304''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.2844970376612271''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-2.353395776389557e+100''::pg_catalog.float8), ''2.353395776389557e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''2.769230769230769''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8),
 ''-1.2039728043259361''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE(''4.830480710459705''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''222.0373594188667''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(($1)::pg_catalog.float8, ''-3.1846297534669025e+97''::pg_catalog.float8), ''3.1846297534669025e+97''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''2.0''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-2.0772717818087343''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.2220379781742797''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($2)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($2)::pg_catalog.float8 END, ''-3.1633542548798843e+100''::pg_catalog.float8), ''3.1633542548798843e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''6.220000000000001''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-1.774797829566279''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.3004623311899326''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-2.353395776389557e+100''::pg_catalog.float8), ''2.353395776389557e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''4.0''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8),
 ''-0.6931471805599453''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE(''4.830480710459705''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''222.0373594188667''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(($1)::pg_catalog.float8, ''-3.1846297534669025e+97''::pg_catalog.float8), ''3.1846297534669025e+97''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''4.0''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-2.0838834904001757''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.2205747702488672''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($2)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($2)::pg_catalog.float8 END, ''-3.1633542548798843e+100''::pg_catalog.float8), ''3.1633542548798843e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''6.2299999999999995''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-1.8293973808332304''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.2844970376612271''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-2.353395776389557e+100''::pg_catalog.float8), ''2.353395776389557e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''4.769230769230769''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
)]'

-- statement 71
COMMENT ON FUNCTION "madnb_models"."pets_g_predict"(pg_catalog.int4, pg_catalog.float8, pg_catalog.numeric) IS 'madnb model pets_g: the predicted class (the first class within 1e-12 of the best log-likelihood, as the classify view''s first class) of the feature values (each NULL, a missing value, unless given)'

-- statement 72
CREATE OR REPLACE FUNCTION "madnb_models"."pets_g_predict_proba"("legs" pg_catalog.int4 DEFAULT NULL, "weight" pg_catalog.float8 DEFAULT NULL, "age" pg_catalog.numeric DEFAULT NULL) RETURNS pg_catalog.jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT madnb._nb_proba_jsonb(ARRAY[
 ''-1.6094379124341003''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE(''4.830480710459705''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''222.0373594188667''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(($1)::pg_catalog.float8, ''-3.1846297534669025e+97''::pg_catalog.float8), ''3.1846297534669025e+97''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''0.0''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-2.0705714709025616''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.2235306969163329''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($2)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($2)::pg_catalog.float8 END, ''-3.1633542548798843e+100''::pg_catalog.float8), ''3.1633542548798843e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''6.239999999999999''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-1.8293973808332304''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.2844970376612271''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-2.353395776389557e+100''::pg_catalog.float8), ''2.353395776389557e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''2.769230769230769''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8),
 ''-1.2039728043259361''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE(''4.830480710459705''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''222.0373594188667''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(($1)::pg_catalog.float8, ''-3.1846297534669025e+97''::pg_catalog.float8), ''3.1846297534669025e+97''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''2.0''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-2.0772717818087343''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.2220379781742797''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($2)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($2)::pg_catalog.float8 END, ''-3.1633542548798843e+100''::pg_catalog.float8), ''3.1633542548798843e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''6.220000000000001''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-1.774797829566279''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.3004623311899326''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-2.353395776389557e+100''::pg_catalog.float8), ''2.353395776389557e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''4.0''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8),
 ''-0.6931471805599453''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE(''4.830480710459705''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''222.0373594188667''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(($1)::pg_catalog.float8, ''-3.1846297534669025e+97''::pg_catalog.float8), ''3.1846297534669025e+97''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''4.0''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-2.0838834904001757''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.2205747702488672''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($2)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($2)::pg_catalog.float8 END, ''-3.1633542548798843e+100''::pg_catalog.float8), ''3.1633542548798843e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''6.2299999999999995''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-1.8293973808332304''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.2844970376612271''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-2.353395776389557e+100''::pg_catalog.float8), ''2.353395776389557e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''4.769230769230769''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
], E''{"cat","dog","fish"}''::pg_catalog.text[])'

-- statement 73
COMMENT ON FUNCTION "madnb_models"."pets_g_predict_proba"(pg_catalog.int4, pg_catalog.float8, pg_catalog.numeric) IS 'madnb model pets_g: jsonb {class: probability} of the feature values (each NULL, a missing value, unless given)'

-- statement 74
CREATE OR REPLACE FUNCTION "madnb_models"."pets_g_predict_proba_array"("legs" pg_catalog.int4 DEFAULT NULL, "weight" pg_catalog.float8 DEFAULT NULL, "age" pg_catalog.numeric DEFAULT NULL) RETURNS pg_catalog.float8[] LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT madnb._nb_proba(
 ''-1.6094379124341003''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE(''4.830480710459705''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''222.0373594188667''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(($1)::pg_catalog.float8, ''-3.1846297534669025e+97''::pg_catalog.float8), ''3.1846297534669025e+97''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''0.0''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-2.0705714709025616''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.2235306969163329''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($2)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($2)::pg_catalog.float8 END, ''-3.1633542548798843e+100''::pg_catalog.float8), ''3.1633542548798843e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''6.239999999999999''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-1.8293973808332304''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.2844970376612271''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-2.353395776389557e+100''::pg_catalog.float8), ''2.353395776389557e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''2.769230769230769''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8),
 ''-1.2039728043259361''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE(''4.830480710459705''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''222.0373594188667''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(($1)::pg_catalog.float8, ''-3.1846297534669025e+97''::pg_catalog.float8), ''3.1846297534669025e+97''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''2.0''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-2.0772717818087343''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.2220379781742797''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($2)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($2)::pg_catalog.float8 END, ''-3.1633542548798843e+100''::pg_catalog.float8), ''3.1633542548798843e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''6.220000000000001''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-1.774797829566279''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.3004623311899326''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-2.353395776389557e+100''::pg_catalog.float8), ''2.353395776389557e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''4.0''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8),
 ''-0.6931471805599453''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE(''4.830480710459705''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''222.0373594188667''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(($1)::pg_catalog.float8, ''-3.1846297534669025e+97''::pg_catalog.float8), ''3.1846297534669025e+97''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''4.0''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-2.0838834904001757''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.2205747702488672''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($2)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($2)::pg_catalog.float8 END, ''-3.1633542548798843e+100''::pg_catalog.float8), ''3.1633542548798843e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''6.2299999999999995''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-1.8293973808332304''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.2844970376612271''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-2.353395776389557e+100''::pg_catalog.float8), ''2.353395776389557e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''4.769230769230769''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
)'

-- statement 75
COMMENT ON FUNCTION "madnb_models"."pets_g_predict_proba_array"(pg_catalog.int4, pg_catalog.float8, pg_catalog.numeric) IS 'madnb model pets_g: float8[] of class probabilities in the order of madnb.model_classes of the feature values (each NULL, a missing value, unless given)'

-- statement 76
CREATE OR REPLACE FUNCTION "madnb_models"."pets_g_predict"(r anyelement) RETURNS character varying(8) LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT "madnb_models"."pets_g_predict"("legs" => ($1)."legs", "weight" => ($1)."weight", "age" => ($1)."age")'

-- statement 77
COMMENT ON FUNCTION "madnb_models"."pets_g_predict"(anyelement) IS 'madnb model pets_g: the predicted class (the first class within 1e-12 of the best log-likelihood, as the classify view''s first class) of a row holding the feature columns'

-- statement 78
CREATE OR REPLACE FUNCTION "madnb_models"."pets_g_predict_proba"(r anyelement) RETURNS pg_catalog.jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT "madnb_models"."pets_g_predict_proba"("legs" => ($1)."legs", "weight" => ($1)."weight", "age" => ($1)."age")'

-- statement 79
COMMENT ON FUNCTION "madnb_models"."pets_g_predict_proba"(anyelement) IS 'madnb model pets_g: jsonb {class: probability} of a row holding the feature columns'

-- statement 80
CREATE OR REPLACE FUNCTION "madnb_models"."pets_g_predict_proba_array"(r anyelement) RETURNS pg_catalog.float8[] LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT "madnb_models"."pets_g_predict_proba_array"("legs" => ($1)."legs", "weight" => ($1)."weight", "age" => ($1)."age")'

-- statement 81
COMMENT ON FUNCTION "madnb_models"."pets_g_predict_proba_array"(anyelement) IS 'madnb model pets_g: float8[] of class probabilities in the order of madnb.model_classes of a row holding the feature columns'

-- statement 82
CREATE OR REPLACE FUNCTION "madnb_models"."pets_g_share_encoding"() RETURNS pg_catalog.jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT E''{"format": 1, "modulus": "10407932194664399081925240327364085538615262247266704805319112350403608059673360298012239441732324184842421613954281007791383566248323464908139906605677320762924129509389220345773183349661583550472959420547689811211693677147548478866962501384438260291732348885311160828538416585028255604666224831890918801847068222203140521026698435488732958028878050869736186900714720710555703168729087", "input_bits": 128, "coefficient_bits": 64, "classes": ["cat", "dog", "fish"], "width": 10, "features": [{"name": "legs", "role": "gaussian", "window": [-3.1846297534669025e+97, 3.1846297534669025e+97], "scale": 4.003184629753467}, {"name": "weight", "role": "gaussian", "window": [-3.1633542548798843e+100, 3.1633542548798843e+100], "scale": 9.435746425072741}, {"name": "age", "role": "gaussian", "window": [-2.353395776389557e+100, 2.353395776389557e+100], "scale": 7.254693489684664}], "fingerprint": "25c207bcda2c001382dd5c73564cfe3cfc9489e22876fb1305fe59d9b967f16f", "score_function": ["madnb_models", "pets_g_score_share"]}''::pg_catalog.jsonb'

-- statement 83
CREATE OR REPLACE FUNCTION "madnb_models"."pets_g_score_share"(share pg_catalog.numeric[]) RETURNS pg_catalog.numeric[] LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER AS E'DECLARE _madnb_p pg_catalog.numeric := ''10407932194664399081925240327364085538615262247266704805319112350403608059673360298012239441732324184842421613954281007791383566248323464908139906605677320762924129509389220345773183349661583550472959420547689811211693677147548478866962501384438260291732348885311160828538416585028255604666224831890918801847068222203140521026698435488732958028878050869736186900714720710555703168729087''::pg_catalog.numeric; BEGIN IF COALESCE(pg_catalog.array_ndims(share), 0) OPERATOR(pg_catalog.<>) 1 OR pg_catalog.array_lower(share, 1) OPERATOR(pg_catalog.<>) 1 OR pg_catalog.array_length(share, 1) OPERATOR(pg_catalog.<>) ''10''::pg_catalog.int4 OR pg_catalog.array_position(share, NULL) IS NOT NULL THEN RAISE EXCEPTION ''a share of this model is an array of 10 numbers'' USING ERRCODE = ''22023'', DETAIL = pg_catalog.format(''got %s'', pg_catalog.array_dims(share)), HINT = ''private_predict of the madnb Python package encodes and shares rows''; END IF; RETURN ARRAY[pg_catalog.mod(pg_catalog.mod(((((''-29688889273197211648''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[1]) OPERATOR(pg_catalog.+) (''89106641418840866816''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[2])) OPERATOR(pg_catalog.+) ((''-14574144503182792158341633''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[4]) OPERATOR(pg_catalog.+) (''-74084458087851067125''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[5]))) OPERATOR(pg_catalog.+) (((''108538774410210891381''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[6]) OPERATOR(pg_catalog.+) (''-82062848767862522184''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[7])) OPERATOR(pg_catalog.+) ((''-45196109714116809963''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[8]) OPERATOR(pg_catalog.+) ((''59990631296783738580''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[9]) OPERATOR(pg_catalog.+) (''-78580240972792370226''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[10]))))), _madnb_p) OPERATOR(pg_catalog.+) _madnb_p, _madnb_p), pg_catalog.mod(pg_catalog.mod(((((''-22209378193106931712''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[1]) OPERATOR(pg_catalog.+) (''-3637652283577914122796000''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[2])) OPERATOR(pg_catalog.+) ((''14562550420344043578167460''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[3]) OPERATOR(pg_catalog.+) ((''-14574144503182792158341633''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[4]) OPERATOR(pg_catalog.+) (''-73503695530256400059''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[5])))) OPERATOR(pg_catalog.+) (((''106750739505132773496''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[6]) OPERATOR(pg_catalog.+) (''-80970491049793242214''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[7])) OPERATOR(pg_catalog.+) ((''-59384489547953556237''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[8]) OPERATOR(pg_catalog.+) ((''96651554336007353076''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[9]) OPERATOR(pg_catalog.+) (''-87647175251167012649''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[10]))))), _madnb_p) OPERATOR(pg_catalog.+) _madnb_p, _madnb_p), pg_catalog.mod(pg_catalog.mod(((((''-12786308645202655232''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[1]) OPERATOR(pg_catalog.+) (''-14550876454235913013784449''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[2])) OPERATOR(pg_catalog.+) ((''29125100840688087156334921''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[3]) OPERATOR(pg_catalog.+) ((''-14574144503182792158341633''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[4]) OPERATOR(pg_catalog.+) (''-73275197441095048658''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[5])))) OPERATOR(pg_catalog.+) (((''105517792543594936105''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[6]) OPERATOR(pg_catalog.+) (''-79906832566195277892''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[7])) OPERATOR(pg_catalog.+) ((''-67706754701868462003''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[8]) OPERATOR(pg_catalog.+) ((''103317198344460884180''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[9]) OPERATOR(pg_catalog.+) (''-78580240972792370226''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[10]))))), _madnb_p) OPERATOR(pg_catalog.+) _madnb_p, _madnb_p)]; END'

-- statement 84
COMMENT ON FUNCTION "madnb_models"."pets_g_share_encoding"() IS 'madnb model pets_g: private prediction, the public encoding of a row for pets_g_score_share (jsonb: modulus, scales, classes, features and their values, the model''s fingerprint)'

-- statement 85
COMMENT ON FUNCTION "madnb_models"."pets_g_score_share"(pg_catalog.numeric[]) IS 'madnb model pets_g: private prediction, one additive share (mod p) of an encoded row -> its share of every class''s log-score, in class order (madnb.private_predict adds the servers'' answers)'

-- statement 86
CREATE OR REPLACE FUNCTION "madnb_models"."pets_g_explain"("legs" pg_catalog.int4 DEFAULT NULL, "weight" pg_catalog.float8 DEFAULT NULL, "age" pg_catalog.numeric DEFAULT NULL) RETURNS pg_catalog.jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT madnb._nb_explain(ARRAY[''-1.6094379124341003''::pg_catalog.float8, ''-1.2039728043259361''::pg_catalog.float8, ''-0.6931471805599453''::pg_catalog.float8], ARRAY[
 ARRAY[COALESCE(''4.830480710459705''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''222.0373594188667''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(($1)::pg_catalog.float8, ''-3.1846297534669025e+97''::pg_catalog.float8), ''3.1846297534669025e+97''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''0.0''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8), COALESCE(''-2.0705714709025616''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.2235306969163329''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($2)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($2)::pg_catalog.float8 END, ''-3.1633542548798843e+100''::pg_catalog.float8), ''3.1633542548798843e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''6.239999999999999''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8), COALESCE(''-1.8293973808332304''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.2844970376612271''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-2.353395776389557e+100''::pg_catalog.float8), ''2.353395776389557e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''2.769230769230769''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)],
 ARRAY[COALESCE(''4.830480710459705''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''222.0373594188667''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(($1)::pg_catalog.float8, ''-3.1846297534669025e+97''::pg_catalog.float8), ''3.1846297534669025e+97''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''2.0''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8), COALESCE(''-2.0772717818087343''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.2220379781742797''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($2)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($2)::pg_catalog.float8 END, ''-3.1633542548798843e+100''::pg_catalog.float8), ''3.1633542548798843e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''6.220000000000001''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8), COALESCE(''-1.774797829566279''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.3004623311899326''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-2.353395776389557e+100''::pg_catalog.float8), ''2.353395776389557e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''4.0''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)],
 ARRAY[COALESCE(''4.830480710459705''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''222.0373594188667''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(($1)::pg_catalog.float8, ''-3.1846297534669025e+97''::pg_catalog.float8), ''3.1846297534669025e+97''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''4.0''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8), COALESCE(''-2.0838834904001757''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.2205747702488672''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($2)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($2)::pg_catalog.float8 END, ''-3.1633542548798843e+100''::pg_catalog.float8), ''3.1633542548798843e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''6.2299999999999995''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8), COALESCE(''-1.8293973808332304''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.2844970376612271''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-2.353395776389557e+100''::pg_catalog.float8), ''2.353395776389557e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''4.769230769230769''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)]
], E''{"legs","weight","age"}''::pg_catalog.text[], E''{"cat","dog","fish"}''::pg_catalog.text[])'

-- statement 87
COMMENT ON FUNCTION "madnb_models"."pets_g_explain"(pg_catalog.int4, pg_catalog.float8, pg_catalog.numeric) IS 'madnb model pets_g: jsonb explanation: per class the log prior and each feature''s contribution to the log-score the prediction functions use (they sum to it), the log-posterior, the predicted class, the runner-up and the features'' differences against it of the feature values (each NULL, a missing value, unless given)'

-- statement 88
CREATE OR REPLACE FUNCTION "madnb_models"."pets_g_explain"(r anyelement) RETURNS pg_catalog.jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT "madnb_models"."pets_g_explain"("legs" => ($1)."legs", "weight" => ($1)."weight", "age" => ($1)."age")'

-- statement 89
COMMENT ON FUNCTION "madnb_models"."pets_g_explain"(anyelement) IS 'madnb model pets_g: jsonb explanation: per class the log prior and each feature''s contribution to the log-score the prediction functions use (they sum to it), the log-posterior, the predicted class, the runner-up and the features'' differences against it of a row holding the feature columns'

-- statement 90
SELECT p.oid::pg_catalog.regprocedure::pg_catalog.text AS f, pg_catalog.md5(p.prosrc) AS h FROM pg_catalog.pg_proc AS p WHERE p.pronamespace OPERATOR(pg_catalog.=) pg_catalog.to_regnamespace($1) AND p.proname::pg_catalog.text OPERATOR(pg_catalog.=) ANY ($2)

-- statement 91
INSERT INTO madnb._models (name, kind, source, label, label_type, features, classes, training_rows, smoothing, privacy, statistics, parameters, functions, tables, schema_name, version) VALUES ($1, $2, $3, $4, $5, $6::pg_catalog.jsonb, $7, $8, $9, $10::pg_catalog.jsonb, $11, $12::pg_catalog.jsonb, $13, ARRAY(SELECT pg_catalog.to_regclass(u.t)::pg_catalog.text FROM pg_catalog.unnest($14) WITH ORDINALITY AS u(t, i) ORDER BY u.i), $15, $16)

-- statement 92
SELECT pg_catalog.current_setting($1, true) AS v

-- statement 93
SELECT pg_catalog.to_regclass($1)::pg_catalog.oid::pg_catalog.int8 AS o

-- statement 94
SELECT pg_catalog.obj_description(c.oid, 'pg_class') AS c, c.relkind::pg_catalog.text AS kind FROM pg_catalog.pg_class AS c WHERE c.oid OPERATOR(pg_catalog.=) $1

-- statement 95
SELECT pg_catalog.to_regclass(pg_catalog.quote_ident($1) OPERATOR(pg_catalog.||) '.' OPERATOR(pg_catalog.||) pg_catalog.quote_ident($2)) IS NOT NULL AS t

-- statement 96
CREATE TEMPORARY TABLE pg_temp."madnb_kept_<hex3>" (LIKE "madnb_statistics"."madnb_models.pets_g")

-- statement 97
SELECT madnb._create_kept_statistics($1, $2::pg_catalog.regclass, CURRENT_USER)

-- statement 98
DROP TABLE pg_temp."madnb_kept_<hex3>"

-- statement 99
INSERT INTO "madnb_statistics"."madnb_models.pets_g@v1" (cls, attr, value, n, nv, mean, var, mean_lo, s1, s2) SELECT s.cls, s.attr, s.value, s.n, s.nv, s.mean, s.var, s.mean_lo, s.s1, s.s2 FROM "madnb_statistics"."madnb_models.pets_g" AS s

-- statement 100
COMMENT ON TABLE "madnb_statistics"."madnb_models.pets_g@v1" IS 'madnb statistics {"bounds": null, "class_type": "character varying(8)", "created_at": "<created_at>", "delta": null, "domain": null, "domain_fingerprint": null, "element_type": "text", "epsilon": null, "epsilon_per_query": null, "fixed_point_bits": null, "fixed_point_scale": null, "format": 1, "guarantee": null, "id": "<id>", "mode": "exact", "num_attrs": 3, "numeric": [1, 2, 3], "release_id": null, "source": "public.pets"}'

-- statement 101
INSERT INTO madnb._model_versions (schema_name, name, version, operation, source, rows, training_rows, classes, statistics, model) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::pg_catalog.jsonb)

-- statement 102
DELETE FROM madnb._model_versions AS v WHERE v.schema_name OPERATOR(pg_catalog.=) $1 AND v.name OPERATOR(pg_catalog.=) $2 AND v.version OPERATOR(pg_catalog.<=) $3 RETURNING v.statistics, v.owner::pg_catalog.text AS owner

-- statement 103
SELECT pg_catalog.set_config('search_path', $1, true)

-- function madnb_models.pets_g_explain(anyelement) (pg_get_functiondef)
CREATE OR REPLACE FUNCTION madnb_models.pets_g_explain(r anyelement)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$SELECT "madnb_models"."pets_g_explain"("legs" => ($1)."legs", "weight" => ($1)."weight", "age" => ($1)."age")$function$

-- function madnb_models.pets_g_explain(integer,double precision,numeric) (pg_get_functiondef)
CREATE OR REPLACE FUNCTION madnb_models.pets_g_explain(legs integer DEFAULT NULL::integer, weight double precision DEFAULT NULL::double precision, age numeric DEFAULT NULL::numeric)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$SELECT madnb._nb_explain(ARRAY['-1.6094379124341003'::pg_catalog.float8, '-1.2039728043259361'::pg_catalog.float8, '-0.6931471805599453'::pg_catalog.float8], ARRAY[
 ARRAY[COALESCE('4.830480710459705'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('222.0373594188667'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(($1)::pg_catalog.float8, '-3.1846297534669025e+97'::pg_catalog.float8), '3.1846297534669025e+97'::pg_catalog.float8) OPERATOR(pg_catalog.-) '0.0'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8), COALESCE('-2.0705714709025616'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('0.2235306969163329'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($2)::pg_catalog.float8 OPERATOR(pg_catalog.=) 'NaN'::pg_catalog.float8 THEN NULL ELSE ($2)::pg_catalog.float8 END, '-3.1633542548798843e+100'::pg_catalog.float8), '3.1633542548798843e+100'::pg_catalog.float8) OPERATOR(pg_catalog.-) '6.239999999999999'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8), COALESCE('-1.8293973808332304'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('0.2844970376612271'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) 'NaN'::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, '-2.353395776389557e+100'::pg_catalog.float8), '2.353395776389557e+100'::pg_catalog.float8) OPERATOR(pg_catalog.-) '2.769230769230769'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8)],
 ARRAY[COALESCE('4.830480710459705'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('222.0373594188667'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(($1)::pg_catalog.float8, '-3.1846297534669025e+97'::pg_catalog.float8), '3.1846297534669025e+97'::pg_catalog.float8) OPERATOR(pg_catalog.-) '2.0'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8), COALESCE('-2.0772717818087343'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('0.2220379781742797'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($2)::pg_catalog.float8 OPERATOR(pg_catalog.=) 'NaN'::pg_catalog.float8 THEN NULL ELSE ($2)::pg_catalog.float8 END, '-3.1633542548798843e+100'::pg_catalog.float8), '3.1633542548798843e+100'::pg_catalog.float8) OPERATOR(pg_catalog.-) '6.220000000000001'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8), COALESCE('-1.774797829566279'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('0.3004623311899326'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) 'NaN'::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, '-2.353395776389557e+100'::pg_catalog.float8), '2.353395776389557e+100'::pg_catalog.float8) OPERATOR(pg_catalog.-) '4.0'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8)],
 ARRAY[COALESCE('4.830480710459705'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('222.0373594188667'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(($1)::pg_catalog.float8, '-3.1846297534669025e+97'::pg_catalog.float8), '3.1846297534669025e+97'::pg_catalog.float8) OPERATOR(pg_catalog.-) '4.0'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8), COALESCE('-2.0838834904001757'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('0.2205747702488672'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($2)::pg_catalog.float8 OPERATOR(pg_catalog.=) 'NaN'::pg_catalog.float8 THEN NULL ELSE ($2)::pg_catalog.float8 END, '-3.1633542548798843e+100'::pg_catalog.float8), '3.1633542548798843e+100'::pg_catalog.float8) OPERATOR(pg_catalog.-) '6.2299999999999995'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8), COALESCE('-1.8293973808332304'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('0.2844970376612271'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) 'NaN'::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, '-2.353395776389557e+100'::pg_catalog.float8), '2.353395776389557e+100'::pg_catalog.float8) OPERATOR(pg_catalog.-) '4.769230769230769'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8)]
], E'{"legs","weight","age"}'::pg_catalog.text[], E'{"cat","dog","fish"}'::pg_catalog.text[])$function$

-- function madnb_models.pets_g_predict(anyelement) (pg_get_functiondef)
CREATE OR REPLACE FUNCTION madnb_models.pets_g_predict(r anyelement)
 RETURNS character varying
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$SELECT "madnb_models"."pets_g_predict"("legs" => ($1)."legs", "weight" => ($1)."weight", "age" => ($1)."age")$function$

-- function madnb_models.pets_g_predict(integer,double precision,numeric) (pg_get_functiondef)
CREATE OR REPLACE FUNCTION madnb_models.pets_g_predict(legs integer DEFAULT NULL::integer, weight double precision DEFAULT NULL::double precision, age numeric DEFAULT NULL::numeric)
 RETURNS character varying
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$SELECT (E'{cat,dog,fish}'::character varying(8)[])[madnb._nb_best(
 '-1.6094379124341003'::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE('4.830480710459705'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('222.0373594188667'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(($1)::pg_catalog.float8, '-3.1846297534669025e+97'::pg_catalog.float8), '3.1846297534669025e+97'::pg_catalog.float8) OPERATOR(pg_catalog.-) '0.0'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE('-2.0705714709025616'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('0.2235306969163329'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($2)::pg_catalog.float8 OPERATOR(pg_catalog.=) 'NaN'::pg_catalog.float8 THEN NULL ELSE ($2)::pg_catalog.float8 END, '-3.1633542548798843e+100'::pg_catalog.float8), '3.1633542548798843e+100'::pg_catalog.float8) OPERATOR(pg_catalog.-) '6.239999999999999'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE('-1.8293973808332304'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('0.2844970376612271'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) 'NaN'::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, '-2.353395776389557e+100'::pg_catalog.float8), '2.353395776389557e+100'::pg_catalog.float8) OPERATOR(pg_catalog.-) '2.769230769230769'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8),
 '-1.2039728043259361'::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE('4.830480710459705'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('222.0373594188667'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(($1)::pg_catalog.float8, '-3.1846297534669025e+97'::pg_catalog.float8), '3.1846297534669025e+97'::pg_catalog.float8) OPERATOR(pg_catalog.-) '2.0'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE('-2.0772717818087343'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('0.2220379781742797'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($2)::pg_catalog.float8 OPERATOR(pg_catalog.=) 'NaN'::pg_catalog.float8 THEN NULL ELSE ($2)::pg_catalog.float8 END, '-3.1633542548798843e+100'::pg_catalog.float8), '3.1633542548798843e+100'::pg_catalog.float8) OPERATOR(pg_catalog.-) '6.220000000000001'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE('-1.774797829566279'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('0.3004623311899326'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) 'NaN'::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, '-2.353395776389557e+100'::pg_catalog.float8), '2.353395776389557e+100'::pg_catalog.float8) OPERATOR(pg_catalog.-) '4.0'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8),
 '-0.6931471805599453'::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE('4.830480710459705'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('222.0373594188667'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(($1)::pg_catalog.float8, '-3.1846297534669025e+97'::pg_catalog.float8), '3.1846297534669025e+97'::pg_catalog.float8) OPERATOR(pg_catalog.-) '4.0'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE('-2.0838834904001757'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('0.2205747702488672'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($2)::pg_catalog.float8 OPERATOR(pg_catalog.=) 'NaN'::pg_catalog.float8 THEN NULL ELSE ($2)::pg_catalog.float8 END, '-3.1633542548798843e+100'::pg_catalog.float8), '3.1633542548798843e+100'::pg_catalog.float8) OPERATOR(pg_catalog.-) '6.2299999999999995'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE('-1.8293973808332304'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('0.2844970376612271'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) 'NaN'::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, '-2.353395776389557e+100'::pg_catalog.float8), '2.353395776389557e+100'::pg_catalog.float8) OPERATOR(pg_catalog.-) '4.769230769230769'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8)
)]$function$

-- function madnb_models.pets_g_predict_proba(anyelement) (pg_get_functiondef)
CREATE OR REPLACE FUNCTION madnb_models.pets_g_predict_proba(r anyelement)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$SELECT "madnb_models"."pets_g_predict_proba"("legs" => ($1)."legs", "weight" => ($1)."weight", "age" => ($1)."age")$function$

-- function madnb_models.pets_g_predict_proba(integer,double precision,numeric) (pg_get_functiondef)
CREATE OR REPLACE FUNCTION madnb_models.pets_g_predict_proba(legs integer DEFAULT NULL::integer, weight double precision DEFAULT NULL::double precision, age numeric DEFAULT NULL::numeric)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$SELECT madnb._nb_proba_jsonb(ARRAY[
 '-1.6094379124341003'::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE('4.830480710459705'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('222.0373594188667'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(($1)::pg_catalog.float8, '-3.1846297534669025e+97'::pg_catalog.float8), '3.1846297534669025e+97'::pg_catalog.float8) OPERATOR(pg_catalog.-) '0.0'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE('-2.0705714709025616'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('0.2235306969163329'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($2)::pg_catalog.float8 OPERATOR(pg_catalog.=) 'NaN'::pg_catalog.float8 THEN NULL ELSE ($2)::pg_catalog.float8 END, '-3.1633542548798843e+100'::pg_catalog.float8), '3.1633542548798843e+100'::pg_catalog.float8) OPERATOR(pg_catalog.-) '6.239999999999999'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE('-1.8293973808332304'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('0.2844970376612271'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) 'NaN'::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, '-2.353395776389557e+100'::pg_catalog.float8), '2.353395776389557e+100'::pg_catalog.float8) OPERATOR(pg_catalog.-) '2.769230769230769'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8),
 '-1.2039728043259361'::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE('4.830480710459705'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('222.0373594188667'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(($1)::pg_catalog.float8, '-3.1846297534669025e+97'::pg_catalog.float8), '3.1846297534669025e+97'::pg_catalog.float8) OPERATOR(pg_catalog.-) '2.0'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE('-2.0772717818087343'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('0.2220379781742797'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($2)::pg_catalog.float8 OPERATOR(pg_catalog.=) 'NaN'::pg_catalog.float8 THEN NULL ELSE ($2)::pg_catalog.float8 END, '-3.1633542548798843e+100'::pg_catalog.float8), '3.1633542548798843e+100'::pg_catalog.float8) OPERATOR(pg_catalog.-) '6.220000000000001'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE('-1.774797829566279'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('0.3004623311899326'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) 'NaN'::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, '-2.353395776389557e+100'::pg_catalog.float8), '2.353395776389557e+100'::pg_catalog.float8) OPERATOR(pg_catalog.-) '4.0'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8),
 '-0.6931471805599453'::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE('4.830480710459705'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('222.0373594188667'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(($1)::pg_catalog.float8, '-3.1846297534669025e+97'::pg_catalog.float8), '3.1846297534669025e+97'::pg_catalog.float8) OPERATOR(pg_catalog.-) '4.0'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE('-2.0838834904001757'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('0.2205747702488672'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($2)::pg_catalog.float8 OPERATOR(pg_catalog.=) 'NaN'::pg_catalog.float8 THEN NULL ELSE ($2)::pg_catalog.float8 END, '-3.1633542548798843e+100'::pg_catalog.float8), '3.1633542548798843e+100'::pg_catalog.float8) OPERATOR(pg_catalog.-) '6.2299999999999995'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE('-1.8293973808332304'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('0.2844970376612271'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) 'NaN'::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, '-2.353395776389557e+100'::pg_catalog.float8), '2.353395776389557e+100'::pg_catalog.float8) OPERATOR(pg_catalog.-) '4.769230769230769'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8)
], E'{"cat","dog","fish"}'::pg_catalog.text[])$function$

-- function madnb_models.pets_g_predict_proba_array(anyelement) (pg_get_functiondef)
CREATE OR REPLACE FUNCTION madnb_models.pets_g_predict_proba_array(r anyelement)
 RETURNS double precision[]
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$SELECT "madnb_models"."pets_g_predict_proba_array"("legs" => ($1)."legs", "weight" => ($1)."weight", "age" => ($1)."age")$function$

-- function madnb_models.pets_g_predict_proba_array(integer,double precision,numeric) (pg_get_functiondef)
CREATE OR REPLACE FUNCTION madnb_models.pets_g_predict_proba_array(legs integer DEFAULT NULL::integer, weight double precision DEFAULT NULL::double precision, age numeric DEFAULT NULL::numeric)
 RETURNS double precision[]
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$SELECT madnb._nb_proba(
 '-1.6094379124341003'::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE('4.830480710459705'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('222.0373594188667'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(($1)::pg_catalog.float8, '-3.1846297534669025e+97'::pg_catalog.float8), '3.1846297534669025e+97'::pg_catalog.float8) OPERATOR(pg_catalog.-) '0.0'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE('-2.0705714709025616'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('0.2235306969163329'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($2)::pg_catalog.float8 OPERATOR(pg_catalog.=) 'NaN'::pg_catalog.float8 THEN NULL ELSE ($2)::pg_catalog.float8 END, '-3.1633542548798843e+100'::pg_catalog.float8), '3.1633542548798843e+100'::pg_catalog.float8) OPERATOR(pg_catalog.-) '6.239999999999999'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE('-1.8293973808332304'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('0.2844970376612271'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) 'NaN'::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, '-2.353395776389557e+100'::pg_catalog.float8), '2.353395776389557e+100'::pg_catalog.float8) OPERATOR(pg_catalog.-) '2.769230769230769'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8),
 '-1.2039728043259361'::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE('4.830480710459705'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('222.0373594188667'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(($1)::pg_catalog.float8, '-3.1846297534669025e+97'::pg_catalog.float8), '3.1846297534669025e+97'::pg_catalog.float8) OPERATOR(pg_catalog.-) '2.0'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE('-2.0772717818087343'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('0.2220379781742797'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($2)::pg_catalog.float8 OPERATOR(pg_catalog.=) 'NaN'::pg_catalog.float8 THEN NULL ELSE ($2)::pg_catalog.float8 END, '-3.1633542548798843e+100'::pg_catalog.float8), '3.1633542548798843e+100'::pg_catalog.float8) OPERATOR(pg_catalog.-) '6.220000000000001'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE('-1.774797829566279'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('0.3004623311899326'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) 'NaN'::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, '-2.353395776389557e+100'::pg_catalog.float8), '2.353395776389557e+100'::pg_catalog.float8) OPERATOR(pg_catalog.-) '4.0'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8),
 '-0.6931471805599453'::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE('4.830480710459705'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('222.0373594188667'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(($1)::pg_catalog.float8, '-3.1846297534669025e+97'::pg_catalog.float8), '3.1846297534669025e+97'::pg_catalog.float8) OPERATOR(pg_catalog.-) '4.0'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE('-2.0838834904001757'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('0.2205747702488672'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($2)::pg_catalog.float8 OPERATOR(pg_catalog.=) 'NaN'::pg_catalog.float8 THEN NULL ELSE ($2)::pg_catalog.float8 END, '-3.1633542548798843e+100'::pg_catalog.float8), '3.1633542548798843e+100'::pg_catalog.float8) OPERATOR(pg_catalog.-) '6.2299999999999995'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE('-1.8293973808332304'::pg_catalog.float8 OPERATOR(pg_catalog.-) (('0.2844970376612271'::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) 'NaN'::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, '-2.353395776389557e+100'::pg_catalog.float8), '2.353395776389557e+100'::pg_catalog.float8) OPERATOR(pg_catalog.-) '4.769230769230769'::pg_catalog.float8)) OPERATOR(pg_catalog.^) '2'::pg_catalog.float8), '0'::pg_catalog.float8)
)$function$

-- function madnb_models.pets_g_score_share(numeric[]) (pg_get_functiondef)
CREATE OR REPLACE FUNCTION madnb_models.pets_g_score_share(share numeric[])
 RETURNS numeric[]
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE STRICT
AS $function$DECLARE _madnb_p pg_catalog.numeric := '10407932194664399081925240327364085538615262247266704805319112350403608059673360298012239441732324184842421613954281007791383566248323464908139906605677320762924129509389220345773183349661583550472959420547689811211693677147548478866962501384438260291732348885311160828538416585028255604666224831890918801847068222203140521026698435488732958028878050869736186900714720710555703168729087'::pg_catalog.numeric; BEGIN IF COALESCE(pg_catalog.array_ndims(share), 0) OPERATOR(pg_catalog.<>) 1 OR pg_catalog.array_lower(share, 1) OPERATOR(pg_catalog.<>) 1 OR pg_catalog.array_length(share, 1) OPERATOR(pg_catalog.<>) '10'::pg_catalog.int4 OR pg_catalog.array_position(share, NULL) IS NOT NULL THEN RAISE EXCEPTION 'a share of this model is an array of 10 numbers' USING ERRCODE = '22023', DETAIL = pg_catalog.format('got %s', pg_catalog.array_dims(share)), HINT = 'private_predict of the madnb Python package encodes and shares rows'; END IF; RETURN ARRAY[pg_catalog.mod(pg_catalog.mod((((('-29688889273197211648'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[1]) OPERATOR(pg_catalog.+) ('89106641418840866816'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[2])) OPERATOR(pg_catalog.+) (('-14574144503182792158341633'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[4]) OPERATOR(pg_catalog.+) ('-74084458087851067125'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[5]))) OPERATOR(pg_catalog.+) ((('108538774410210891381'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[6]) OPERATOR(pg_catalog.+) ('-82062848767862522184'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[7])) OPERATOR(pg_catalog.+) (('-45196109714116809963'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[8]) OPERATOR(pg_catalog.+) (('59990631296783738580'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[9]) OPERATOR(pg_catalog.+) ('-78580240972792370226'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[10]))))), _madnb_p) OPERATOR(pg_catalog.+) _madnb_p, _madnb_p), pg_catalog.mod(pg_catalog.mod((((('-22209378193106931712'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[1]) OPERATOR(pg_catalog.+) ('-3637652283577914122796000'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[2])) OPERATOR(pg_catalog.+) (('14562550420344043578167460'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[3]) OPERATOR(pg_catalog.+) (('-14574144503182792158341633'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[4]) OPERATOR(pg_catalog.+) ('-73503695530256400059'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[5])))) OPERATOR(pg_catalog.+) ((('106750739505132773496'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[6]) OPERATOR(pg_catalog.+) ('-80970491049793242214'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[7])) OPERATOR(pg_catalog.+) (('-59384489547953556237'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[8]) OPERATOR(pg_catalog.+) (('96651554336007353076'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[9]) OPERATOR(pg_catalog.+) ('-87647175251167012649'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[10]))))), _madnb_p) OPERATOR(pg_catalog.+) _madnb_p, _madnb_p), pg_catalog.mod(pg_catalog.mod((((('-12786308645202655232'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[1]) OPERATOR(pg_catalog.+) ('-14550876454235913013784449'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[2])) OPERATOR(pg_catalog.+) (('29125100840688087156334921'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[3]) OPERATOR(pg_catalog.+) (('-14574144503182792158341633'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[4]) OPERATOR(pg_catalog.+) ('-73275197441095048658'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[5])))) OPERATOR(pg_catalog.+) ((('105517792543594936105'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[6]) OPERATOR(pg_catalog.+) ('-79906832566195277892'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[7])) OPERATOR(pg_catalog.+) (('-67706754701868462003'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[8]) OPERATOR(pg_catalog.+) (('103317198344460884180'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[9]) OPERATOR(pg_catalog.+) ('-78580240972792370226'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[10]))))), _madnb_p) OPERATOR(pg_catalog.+) _madnb_p, _madnb_p)]; END$function$

-- function madnb_models.pets_g_share_encoding() (pg_get_functiondef)
CREATE OR REPLACE FUNCTION madnb_models.pets_g_share_encoding()
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$SELECT E'{"format": 1, "modulus": "10407932194664399081925240327364085538615262247266704805319112350403608059673360298012239441732324184842421613954281007791383566248323464908139906605677320762924129509389220345773183349661583550472959420547689811211693677147548478866962501384438260291732348885311160828538416585028255604666224831890918801847068222203140521026698435488732958028878050869736186900714720710555703168729087", "input_bits": 128, "coefficient_bits": 64, "classes": ["cat", "dog", "fish"], "width": 10, "features": [{"name": "legs", "role": "gaussian", "window": [-3.1846297534669025e+97, 3.1846297534669025e+97], "scale": 4.003184629753467}, {"name": "weight", "role": "gaussian", "window": [-3.1633542548798843e+100, 3.1633542548798843e+100], "scale": 9.435746425072741}, {"name": "age", "role": "gaussian", "window": [-2.353395776389557e+100, 2.353395776389557e+100], "scale": 7.254693489684664}], "fingerprint": "25c207bcda2c001382dd5c73564cfe3cfc9489e22876fb1305fe59d9b967f16f", "score_function": ["madnb_models", "pets_g_score_share"]}'::pg_catalog.jsonb$function$
