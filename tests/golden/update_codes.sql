-- golden SQL of: SELECT madnb.update_nb_model('stats_part1', 'codes_fp', NULL, 'codes_cp')
-- regenerate: make golden

-- statement 1
SELECT pg_catalog.current_setting('search_path') AS p, pg_catalog.current_setting('extra_float_digits') AS f, pg_catalog.current_setting('DateStyle') AS d

-- statement 2
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 3
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 4
SELECT pg_catalog.to_regclass($1)::pg_catalog.oid::pg_catalog.int8 AS oid

-- statement 5
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 6
SELECT c.oid::pg_catalog.int8 AS oid, n.nspname::pg_catalog.text AS schema, c.relname::pg_catalog.text AS name, c.relkind::pg_catalog.text AS kind FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace WHERE c.oid OPERATOR(pg_catalog.=) $1

-- statement 7
SELECT pg_catalog.obj_description(c.oid, 'pg_class') AS c, c.relkind::pg_catalog.text AS kind FROM pg_catalog.pg_class AS c WHERE c.oid OPERATOR(pg_catalog.=) $1

-- statement 8
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 9
SELECT pg_catalog.to_regclass($1)::pg_catalog.oid::pg_catalog.int8 AS oid

-- statement 10
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 11
SELECT c.oid::pg_catalog.int8 AS oid, n.nspname::pg_catalog.text AS schema, c.relname::pg_catalog.text AS name, c.relkind::pg_catalog.text AS kind FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace WHERE c.oid OPERATOR(pg_catalog.=) $1

-- statement 12
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 13
SELECT pg_catalog.to_regclass($1)::pg_catalog.oid::pg_catalog.int8 AS oid

-- statement 14
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 15
SELECT c.oid::pg_catalog.int8 AS oid, n.nspname::pg_catalog.text AS schema, c.relname::pg_catalog.text AS name, c.relkind::pg_catalog.text AS kind FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace WHERE c.oid OPERATOR(pg_catalog.=) $1

-- statement 16
LOCK TABLE "public"."codes_fp", "public"."codes_cp" IN SHARE ROW EXCLUSIVE MODE

-- statement 17
SELECT pg_catalog.obj_description($1, 'pg_class') AS c

-- statement 18
SELECT pg_catalog.obj_description($1, 'pg_class') AS c

-- statement 19
SELECT pg_catalog.to_regclass($1)::pg_catalog.oid::pg_catalog.int8 AS o

-- statement 20
SELECT c.oid::pg_catalog.int8 AS oid, c.relowner::pg_catalog.regrole::pg_catalog.text AS owner FROM pg_catalog.pg_class AS c WHERE c.oid OPERATOR(pg_catalog.=) ANY ($1)

-- statement 21
LOCK TABLE "madnb_statistics"."public.codes_fp" IN SHARE ROW EXCLUSIVE MODE

-- statement 22
SELECT pg_catalog.obj_description(c.oid, 'pg_class') AS c, c.relkind::pg_catalog.text AS kind FROM pg_catalog.pg_class AS c WHERE c.oid OPERATOR(pg_catalog.=) $1

-- statement 23
SELECT pg_catalog.obj_description($1, 'pg_class') AS c

-- statement 24
WITH RECURSIVE w(ord, name) AS (SELECT u.o, u.n FROM pg_catalog.unnest($2::pg_catalog.name[]) WITH ORDINALITY AS u(n, o)), c AS (SELECT w.ord, a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM w LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) w.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped LEFT JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid), d(ord, oid) AS (SELECT c.ord, COALESCE(c.elemoid, c.typoid)::pg_catalog.oid FROM c WHERE $3 AND c.typoid IS NOT NULL UNION ALL SELECT d.ord, t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT c.name, c.typ, c.typoid, c.elem, c.elemoid, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid OPERATOR(pg_catalog.=) o.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) o.opcnamespace WHERE o.opcdefault AND m.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND o.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d WHERE d.ord OPERATOR(pg_catalog.=) c.ord) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1) AS equality_schema FROM c ORDER BY c.ord

-- statement 25
WITH RECURSIVE w(ord, name) AS (SELECT u.o, u.n FROM pg_catalog.unnest($2::pg_catalog.name[]) WITH ORDINALITY AS u(n, o)), c AS (SELECT w.ord, a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM w LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) w.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped LEFT JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid), d(ord, oid) AS (SELECT c.ord, COALESCE(c.elemoid, c.typoid)::pg_catalog.oid FROM c WHERE $3 AND c.typoid IS NOT NULL UNION ALL SELECT d.ord, t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT c.name, c.typ, c.typoid, c.elem, c.elemoid, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid OPERATOR(pg_catalog.=) o.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) o.opcnamespace WHERE o.opcdefault AND m.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND o.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d WHERE d.ord OPERATOR(pg_catalog.=) c.ord) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1) AS equality_schema FROM c ORDER BY c.ord

-- statement 26
WITH RECURSIVE w(ord, name) AS (SELECT u.o, u.n FROM pg_catalog.unnest($2::pg_catalog.name[]) WITH ORDINALITY AS u(n, o)), c AS (SELECT w.ord, a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM w LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) w.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped LEFT JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid), d(ord, oid) AS (SELECT c.ord, COALESCE(c.elemoid, c.typoid)::pg_catalog.oid FROM c WHERE $3 AND c.typoid IS NOT NULL UNION ALL SELECT d.ord, t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT c.name, c.typ, c.typoid, c.elem, c.elemoid, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid OPERATOR(pg_catalog.=) o.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) o.opcnamespace WHERE o.opcdefault AND m.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND o.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d WHERE d.ord OPERATOR(pg_catalog.=) c.ord) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1) AS equality_schema FROM c ORDER BY c.ord

-- statement 27
WITH RECURSIVE w(ord, name) AS (SELECT u.o, u.n FROM pg_catalog.unnest($2::pg_catalog.name[]) WITH ORDINALITY AS u(n, o)), c AS (SELECT w.ord, a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM w LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) w.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped LEFT JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid), d(ord, oid) AS (SELECT c.ord, COALESCE(c.elemoid, c.typoid)::pg_catalog.oid FROM c WHERE $3 AND c.typoid IS NOT NULL UNION ALL SELECT d.ord, t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT c.name, c.typ, c.typoid, c.elem, c.elemoid, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid OPERATOR(pg_catalog.=) o.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) o.opcnamespace WHERE o.opcdefault AND m.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND o.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d WHERE d.ord OPERATOR(pg_catalog.=) c.ord) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1) AS equality_schema FROM c ORDER BY c.ord

-- statement 28
WITH c AS (SELECT s.cls, s.attr, s.value, s.n, s.nv, s.mean, s.mean_lo, s.var, s.s1, s.s2, pg_catalog.count(*) OVER (PARTITION BY s.cls, s.attr, s.value) AS copies, pg_catalog.count(*) FILTER (WHERE s.attr OPERATOR(pg_catalog.=) 0) OVER (PARTITION BY s.cls) AS class_rows, pg_catalog.max(s.n) FILTER (WHERE s.attr OPERATOR(pg_catalog.=) 0) OVER (PARTITION BY s.cls) AS class_n, pg_catalog.sum(s.n) OVER (PARTITION BY s.cls, s.attr) AS attr_n, COALESCE(s.attr OPERATOR(pg_catalog.=) ANY ('{}'::pg_catalog.int4[]), false) AS isnum, COALESCE(s.attr OPERATOR(pg_catalog.>) 0 AND NOT s.attr OPERATOR(pg_catalog.=) ANY ('{}'::pg_catalog.int4[]), false) AS iscat FROM "public"."stats_part1" AS s),
b AS (SELECT s.cls, s.attr, s.value, CASE WHEN s.cls IS NULL THEN 'its class is NULL' WHEN s.attr IS NULL OR s.attr OPERATOR(pg_catalog.<) 0 OR s.attr OPERATOR(pg_catalog.>) 3 THEN pg_catalog.format('attribute %s is not 0 (the class count) or an attribute 1 to numAttrs = %s', CASE WHEN s.attr IS NULL THEN 'NULL' ELSE pg_catalog.format('%s', s.attr) END, 3) WHEN s.copies OPERATOR(pg_catalog.>) 1 THEN pg_catalog.format('the cell appears %s times: a statistics table holds each cell once', s.copies) WHEN s.class_rows OPERATOR(pg_catalog.=) 0 THEN 'its class has no class count (no cell with attr 0 for that class)' WHEN (s.attr OPERATOR(pg_catalog.=) 0 OR s.isnum) AND s.value IS NOT NULL THEN pg_catalog.format('it has the value %s, which only cells of a categorical attribute have', CASE WHEN s.value IS NULL THEN 'NULL' ELSE pg_catalog.format('%s', s.value) END) WHEN s.iscat AND s.value IS NULL THEN 'its value is NULL: a categorical cell counts the rows of one value' WHEN (s.attr OPERATOR(pg_catalog.=) 0 OR s.iscat) AND NOT (s.n IS NOT NULL AND s.n OPERATOR(pg_catalog.>=) 0::pg_catalog.numeric AND s.n OPERATOR(pg_catalog.<=) 9223372036854775807::pg_catalog.numeric AND s.n OPERATOR(pg_catalog.=) pg_catalog.trunc(s.n)) THEN pg_catalog.format('its count n is %s: counts are non-negative integers', CASE WHEN s.n IS NULL THEN 'NULL' ELSE pg_catalog.format('%s', s.n) END) WHEN s.iscat AND s.n OPERATOR(pg_catalog.>) s.class_n THEN pg_catalog.format('its count n is %s, more than the %s rows of its class', s.n, s.class_n) WHEN s.iscat AND s.attr_n OPERATOR(pg_catalog.>) s.class_n THEN pg_catalog.format('the counts of attribute %s for its class add up to %s, more than the %s rows of the class', s.attr, s.attr_n, s.class_n) WHEN s.isnum AND (s.nv IS NULL OR s.nv OPERATOR(pg_catalog.<) 0) THEN pg_catalog.format('its count nv is %s: counts are non-negative integers', CASE WHEN s.nv IS NULL THEN 'NULL' ELSE pg_catalog.format('%s', s.nv) END) WHEN s.isnum AND s.nv::pg_catalog.numeric OPERATOR(pg_catalog.>) s.class_n THEN pg_catalog.format('its count nv is %s, more than the %s rows of its class', s.nv, s.class_n) WHEN s.isnum AND s.nv OPERATOR(pg_catalog.>) 0 AND (s.mean IS NULL OR NOT (s.mean OPERATOR(pg_catalog.>) '-Infinity'::pg_catalog.float8 AND s.mean OPERATOR(pg_catalog.<) 'Infinity'::pg_catalog.float8) OR (s.mean_lo IS NOT NULL AND NOT (s.mean_lo OPERATOR(pg_catalog.>) '-Infinity'::pg_catalog.float8 AND s.mean_lo OPERATOR(pg_catalog.<) 'Infinity'::pg_catalog.float8))) THEN pg_catalog.format('its mean is %s (mean_lo %s): means are finite numbers', CASE WHEN s.mean IS NULL THEN 'NULL' ELSE pg_catalog.format('%s', s.mean) END, CASE WHEN s.mean_lo IS NULL THEN 'NULL' ELSE pg_catalog.format('%s', s.mean_lo) END) WHEN s.isnum AND ((s.var IS NULL AND s.nv OPERATOR(pg_catalog.>) 1) OR (s.var IS NOT NULL AND NOT (s.var OPERATOR(pg_catalog.>=) 0::pg_catalog.float8 AND (s.var OPERATOR(pg_catalog.>) '-Infinity'::pg_catalog.float8 AND s.var OPERATOR(pg_catalog.<) 'Infinity'::pg_catalog.float8)))) THEN pg_catalog.format('its variance var is %s over %s values: variances are finite, non-negative, and given from two values on', CASE WHEN s.var IS NULL THEN 'NULL' ELSE pg_catalog.format('%s', s.var) END, CASE WHEN s.nv IS NULL THEN 'NULL' ELSE pg_catalog.format('%s', s.nv) END) END AS problem FROM c AS s),
bad AS (SELECT b.cls, b.attr, b.value, b.problem FROM b WHERE b.problem IS NOT NULL ORDER BY b.attr LIMIT 1)
SELECT 1 AS one, bad.* FROM (SELECT 1) AS one LEFT JOIN bad ON true

-- statement 29
SELECT DISTINCT f.smoothing FROM "public"."codes_fp" AS f WHERE f.smoothing IS NOT NULL LIMIT 2

-- statement 30
SELECT pg_catalog.count(*)::pg_catalog.int8 AS k FROM "public"."codes_cp" AS c

-- statement 31
CREATE TEMPORARY TABLE pg_temp."madnb_merged_<hex1>" ON COMMIT DROP AS SELECT m.cls, m.o AS attr, m.v AS value, m.n, m.nv, m.mean, m.var, m.mean_lo, NULL::pg_catalog.numeric AS s1, NULL::pg_catalog.numeric AS s2 FROM (WITH u AS (SELECT 1::pg_catalog.int4 AS part, s.cls, s.attr, s.value, s.n, s.nv, s.mean, s.mean_lo, s.var, s.s1, s.s2 FROM "madnb_statistics"."public.codes_fp" AS s UNION ALL SELECT 2::pg_catalog.int4 AS part, s.cls, s.attr, s.value, s.n, s.nv, s.mean, s.mean_lo, s.var, s.s1, s.s2 FROM "public"."stats_part1" AS s), c AS (SELECT u.cls, u.attr AS o, u.value AS v, pg_catalog.sum(u.n) AS n FROM u WHERE NOT (u.attr OPERATOR(pg_catalog.=) ANY ('{}'::pg_catalog.int4[])) GROUP BY 1, 2, 3), w0 AS (SELECT u.part, u.cls, u.attr, u.nv, u.mean, COALESCE(u.mean_lo, 0) AS lo, u.var, pg_catalog.first_value(u.mean) OVER r AS ref, pg_catalog.first_value(COALESCE(u.mean_lo, 0)) OVER r AS ref_lo FROM u WHERE u.attr OPERATOR(pg_catalog.=) ANY ('{}'::pg_catalog.int4[]) WINDOW r AS (PARTITION BY u.cls, u.attr ORDER BY u.mean IS NULL, u.part)), w AS (SELECT w0.*, (w0.mean - w0.ref) + (w0.lo - w0.ref_lo) AS dev FROM w0), g AS (SELECT w.*, pg_catalog.sum(w.nv::pg_catalog.float8 * w.dev) OVER p / NULLIF(pg_catalog.sum(w.nv) OVER p, 0)::pg_catalog.float8 AS d FROM w WINDOW p AS (PARTITION BY w.cls, w.attr)), x AS (SELECT g.cls, g.attr, pg_catalog.sum(g.nv) AS nv, pg_catalog.count(g.mean) AS k, pg_catalog.min(g.mean) AS m1, pg_catalog.min(g.lo) AS l1, pg_catalog.min(g.var) AS v1, pg_catalog.min(g.ref) AS ref, pg_catalog.min(g.ref_lo) + pg_catalog.min(g.d) AS dd, pg_catalog.sum(COALESCE(g.var * (g.nv - 1)::pg_catalog.float8, 0::pg_catalog.float8) + COALESCE(g.nv::pg_catalog.float8 * (g.dev - g.d) * (g.dev - g.d), 0::pg_catalog.float8)) AS m2 FROM g GROUP BY g.cls, g.attr), y AS (SELECT x.*, x.ref + x.dd AS hi FROM x), z AS (SELECT y.*, (y.ref - (y.hi - (y.hi - y.ref))) + (y.dd - (y.hi - y.ref)) AS lo FROM y) SELECT c.cls, c.o, c.v, c.n, NULL::pg_catalog.int8 AS nv, NULL::pg_catalog.float8 AS mean, NULL::pg_catalog.float8 AS var, NULL::pg_catalog.float8 AS mean_lo FROM c UNION ALL SELECT z.cls, z.attr, NULL::integer, NULL::pg_catalog.numeric, z.nv::pg_catalog.int8, CASE WHEN z.k = 1 THEN z.m1 WHEN z.k > 1 THEN z.hi END, CASE WHEN z.k = 1 THEN z.v1 WHEN z.k > 1 AND z.nv > 1 THEN z.m2 / (z.nv - 1)::pg_catalog.float8 END, NULLIF(CASE WHEN z.k = 1 THEN z.l1 WHEN z.k > 1 THEN z.lo END, 0::pg_catalog.float8) FROM z) AS m

-- statement 32
DELETE FROM "madnb_statistics"."public.codes_fp"

-- statement 33
INSERT INTO "madnb_statistics"."public.codes_fp" (cls, attr, value, n, nv, mean, var, mean_lo, s1, s2) SELECT * FROM pg_temp."madnb_merged_<hex1>"

-- statement 34
DROP TABLE pg_temp."madnb_merged_<hex1>"

-- statement 35
SELECT pg_catalog.to_char(pg_catalog.statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t

-- statement 36
COMMENT ON TABLE "madnb_statistics"."public.codes_fp" IS 'madnb statistics {"bounds": null, "class_type": "integer", "created_at": "<created_at>", "delta": null, "domain": null, "domain_fingerprint": null, "element_type": "integer", "epsilon": null, "epsilon_per_query": null, "fixed_point_bits": null, "fixed_point_scale": null, "format": 1, "guarantee": null, "id": "<id>", "mode": "exact", "num_attrs": 3, "numeric": [], "parts": ["<uuid>", "<uuid>"], "release_id": null, "source": "public.training, public.training_part1"}'

-- statement 37
ANALYZE "madnb_statistics"."public.codes_fp"

-- statement 38
DELETE FROM "public"."codes_fp"

-- statement 39
DELETE FROM "public"."codes_cp"

-- statement 40
WITH cc AS (SELECT s.cls, pg_catalog.sum(s.n)::pg_catalog.int8 AS class_cnt FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.nv, s.mean, s.var FROM "madnb_statistics"."public.codes_fp" AS s) AS s WHERE s.cls IS NOT NULL AND s.o OPERATOR(pg_catalog.=) 0 GROUP BY s.cls),
cp AS (SELECT cc.cls AS class, cc.class_cnt, (pg_catalog.sum(cc.class_cnt) OVER ())::pg_catalog.int8 AS all_cnt FROM cc),
vals AS (SELECT DISTINCT s.o, s.v FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.nv, s.mean, s.var FROM "madnb_statistics"."public.codes_fp" AS s) AS s WHERE s.cls IS NOT NULL AND s.v IS NOT NULL),
ac AS (SELECT vals.o, pg_catalog.count(*)::pg_catalog.int8 AS attr_cnt FROM vals GROUP BY vals.o),
fp AS (SELECT cc.cls AS class, vals.o AS attr, vals.v AS value, COALESCE(s.n, 0)::pg_catalog.int8 AS cnt, ac.attr_cnt FROM cc CROSS JOIN vals JOIN ac ON ac.o = vals.o LEFT JOIN (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.nv, s.mean, s.var FROM "madnb_statistics"."public.codes_fp" AS s) AS s ON s.cls = cc.cls AND s.o = vals.o AND s.v = vals.v),
np AS (SELECT s.cls AS class, s.o AS attr, s.mean AS attr_mean, s.var AS attr_var, s.nv AS value_cnt FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.nv, s.mean, s.var FROM "madnb_statistics"."public.codes_fp" AS s) AS s WHERE s.cls IS NOT NULL AND s.o = ANY ('{}'::pg_catalog.int4[]))
 INSERT INTO "public"."codes_cp" (class, class_cnt, all_cnt) SELECT class, class_cnt, all_cnt FROM cp ORDER BY class

-- statement 41
WITH cc AS (SELECT s.cls, pg_catalog.sum(s.n)::pg_catalog.int8 AS class_cnt FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.nv, s.mean, s.var FROM "madnb_statistics"."public.codes_fp" AS s) AS s WHERE s.cls IS NOT NULL AND s.o OPERATOR(pg_catalog.=) 0 GROUP BY s.cls),
cp AS (SELECT cc.cls AS class, cc.class_cnt, (pg_catalog.sum(cc.class_cnt) OVER ())::pg_catalog.int8 AS all_cnt FROM cc),
vals AS (SELECT DISTINCT s.o, s.v FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.nv, s.mean, s.var FROM "madnb_statistics"."public.codes_fp" AS s) AS s WHERE s.cls IS NOT NULL AND s.v IS NOT NULL),
ac AS (SELECT vals.o, pg_catalog.count(*)::pg_catalog.int8 AS attr_cnt FROM vals GROUP BY vals.o),
fp AS (SELECT cc.cls AS class, vals.o AS attr, vals.v AS value, COALESCE(s.n, 0)::pg_catalog.int8 AS cnt, ac.attr_cnt FROM cc CROSS JOIN vals JOIN ac ON ac.o = vals.o LEFT JOIN (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.nv, s.mean, s.var FROM "madnb_statistics"."public.codes_fp" AS s) AS s ON s.cls = cc.cls AND s.o = vals.o AND s.v = vals.v),
np AS (SELECT s.cls AS class, s.o AS attr, s.mean AS attr_mean, s.var AS attr_var, s.nv AS value_cnt FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.nv, s.mean, s.var FROM "madnb_statistics"."public.codes_fp" AS s) AS s WHERE s.cls IS NOT NULL AND s.o = ANY ('{}'::pg_catalog.int4[]))
 INSERT INTO "public"."codes_fp" (class, attr, value, cnt, attr_cnt, smoothing) SELECT class, attr, value, cnt, attr_cnt, 1.0::pg_catalog.float8 FROM fp ORDER BY attr, value, class

-- statement 42
COMMENT ON TABLE "public"."codes_cp" IS 'madnb class priors trained from public.training, public.training_part1 (the sum of 2 statistics tables); derived from statistics "madnb_statistics"."public.codes_fp" (id <uuid>)'

-- statement 43
COMMENT ON TABLE "public"."codes_fp" IS 'madnb categorical feature counts trained from public.training, public.training_part1 (the sum of 2 statistics tables); P(value|class) = (cnt + smoothing) / (class rows with attr present + smoothing * attr_cnt); numAttrs = 3; derived from statistics "madnb_statistics"."public.codes_fp" (id <uuid>)'

-- statement 44
ANALYZE "public"."codes_fp"

-- statement 45
ANALYZE "public"."codes_cp"

-- statement 46
SELECT pg_catalog.count(*)::pg_catalog.int8 AS k FROM "public"."codes_cp" AS c

-- statement 47
SELECT pg_catalog.set_config('search_path', $1, true)
