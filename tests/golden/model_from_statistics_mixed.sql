-- golden SQL of: SELECT madnb.create_nb_model_from_statistics(ARRAY['stats_private'], 'merged_private_fp', 'merged_private_np', 'merged_private_cp')
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
SELECT pg_catalog.current_schema()::pg_catalog.text AS s

-- statement 10
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 11
SELECT pg_catalog.to_regclass($1) IS NOT NULL AS taken

-- statement 12
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 13
SELECT pg_catalog.current_schema()::pg_catalog.text AS s

-- statement 14
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 15
SELECT pg_catalog.to_regclass($1) IS NOT NULL AS taken

-- statement 16
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 17
SELECT pg_catalog.current_schema()::pg_catalog.text AS s

-- statement 18
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 19
SELECT pg_catalog.to_regclass($1) IS NOT NULL AS taken

-- statement 20
SELECT pg_catalog.to_regclass(pg_catalog.quote_ident($1) OPERATOR(pg_catalog.||) '.' OPERATOR(pg_catalog.||) pg_catalog.quote_ident($2)) IS NOT NULL AS t

-- statement 21
WITH RECURSIVE w(ord, name) AS (SELECT u.o, u.n FROM pg_catalog.unnest($2::pg_catalog.name[]) WITH ORDINALITY AS u(n, o)), c AS (SELECT w.ord, a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM w LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) w.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped LEFT JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid), d(ord, oid) AS (SELECT c.ord, COALESCE(c.elemoid, c.typoid)::pg_catalog.oid FROM c WHERE $3 AND c.typoid IS NOT NULL UNION ALL SELECT d.ord, t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT c.name, c.typ, c.typoid, c.elem, c.elemoid, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid OPERATOR(pg_catalog.=) o.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) o.opcnamespace WHERE o.opcdefault AND m.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND o.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d WHERE d.ord OPERATOR(pg_catalog.=) c.ord) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1) AS equality_schema FROM c ORDER BY c.ord

-- statement 22
WITH RECURSIVE w(ord, name) AS (SELECT u.o, u.n FROM pg_catalog.unnest($2::pg_catalog.name[]) WITH ORDINALITY AS u(n, o)), c AS (SELECT w.ord, a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM w LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) w.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped LEFT JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid), d(ord, oid) AS (SELECT c.ord, COALESCE(c.elemoid, c.typoid)::pg_catalog.oid FROM c WHERE $3 AND c.typoid IS NOT NULL UNION ALL SELECT d.ord, t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT c.name, c.typ, c.typoid, c.elem, c.elemoid, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid OPERATOR(pg_catalog.=) o.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) o.opcnamespace WHERE o.opcdefault AND m.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND o.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d WHERE d.ord OPERATOR(pg_catalog.=) c.ord) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1) AS equality_schema FROM c ORDER BY c.ord

-- statement 23
WITH c AS (SELECT s.cls, s.attr, s.value, s.n, s.nv, s.mean, s.mean_lo, s.var, s.s1, s.s2, pg_catalog.count(*) OVER (PARTITION BY s.cls, s.attr, s.value) AS copies, pg_catalog.count(*) FILTER (WHERE s.attr OPERATOR(pg_catalog.=) 0) OVER (PARTITION BY s.cls) AS class_rows, pg_catalog.max(s.n) FILTER (WHERE s.attr OPERATOR(pg_catalog.=) 0) OVER (PARTITION BY s.cls) AS class_n, pg_catalog.sum(s.n) OVER (PARTITION BY s.cls, s.attr) AS attr_n, COALESCE(s.attr OPERATOR(pg_catalog.=) ANY ('{2}'::pg_catalog.int4[]), false) AS isnum, COALESCE(s.attr OPERATOR(pg_catalog.>) 0 AND NOT s.attr OPERATOR(pg_catalog.=) ANY ('{2}'::pg_catalog.int4[]), false) AS iscat FROM "public"."stats_private" AS s),
b AS (SELECT s.cls, s.attr, s.value, CASE WHEN s.cls IS NULL THEN 'its class is NULL' WHEN s.attr IS NULL OR s.attr OPERATOR(pg_catalog.<) 0 OR s.attr OPERATOR(pg_catalog.>) 3 THEN pg_catalog.format('attribute %s is not 0 (the class count) or an attribute 1 to numAttrs = %s', CASE WHEN s.attr IS NULL THEN 'NULL' ELSE pg_catalog.format('%s', s.attr) END, 3) WHEN s.copies OPERATOR(pg_catalog.>) 1 THEN pg_catalog.format('the cell appears %s times: a statistics table holds each cell once', s.copies) WHEN s.class_rows OPERATOR(pg_catalog.=) 0 THEN 'its class has no class count (no cell with attr 0 for that class)' WHEN (s.attr OPERATOR(pg_catalog.=) 0 OR s.isnum) AND s.value IS NOT NULL THEN pg_catalog.format('it has the value %s, which only cells of a categorical attribute have', CASE WHEN s.value IS NULL THEN 'NULL' ELSE pg_catalog.format('%s', s.value) END) WHEN s.iscat AND s.value IS NULL THEN 'its value is NULL: a categorical cell counts the rows of one value' WHEN (s.attr OPERATOR(pg_catalog.=) 0 OR s.iscat) AND NOT (s.n IS NOT NULL AND s.n OPERATOR(pg_catalog.>) '-Infinity'::pg_catalog.numeric AND s.n OPERATOR(pg_catalog.<) 'Infinity'::pg_catalog.numeric AND s.n OPERATOR(pg_catalog.=) pg_catalog.trunc(s.n)) THEN pg_catalog.format('its noisy count n is %s: released counts are (possibly negative) integers', CASE WHEN s.n IS NULL THEN 'NULL' ELSE pg_catalog.format('%s', s.n) END) WHEN s.isnum AND NOT ((s.s1 IS NOT NULL AND s.s1 OPERATOR(pg_catalog.>) '-Infinity'::pg_catalog.numeric AND s.s1 OPERATOR(pg_catalog.<) 'Infinity'::pg_catalog.numeric AND s.s1 OPERATOR(pg_catalog.=) pg_catalog.trunc(s.s1)) AND (s.s2 IS NOT NULL AND s.s2 OPERATOR(pg_catalog.>) '-Infinity'::pg_catalog.numeric AND s.s2 OPERATOR(pg_catalog.<) 'Infinity'::pg_catalog.numeric AND s.s2 OPERATOR(pg_catalog.=) pg_catalog.trunc(s.s2))) THEN pg_catalog.format('its noisy sums s1 = %s and s2 = %s: released sums are (possibly negative) integers', CASE WHEN s.s1 IS NULL THEN 'NULL' ELSE pg_catalog.format('%s', s.s1) END, CASE WHEN s.s2 IS NULL THEN 'NULL' ELSE pg_catalog.format('%s', s.s2) END) END AS problem FROM c AS s),
bad AS (SELECT b.cls, b.attr, b.value, b.problem FROM b WHERE b.problem IS NOT NULL ORDER BY b.attr LIMIT 1),
dom AS (SELECT DISTINCT s.attr AS o, CASE WHEN s.attr OPERATOR(pg_catalog.=) 0 THEN s.cls END AS cls, CASE WHEN s.iscat THEN s.value END AS v FROM c AS s WHERE s.attr OPERATOR(pg_catalog.=) 0 OR s.iscat)
SELECT (SELECT pg_catalog.md5(COALESCE(pg_catalog.string_agg(x.c, E'\n' ORDER BY x.c COLLATE "C"), '')) AS f FROM (SELECT pg_catalog.format('%s %L %L', d.o, d.cls, d.v) AS c FROM dom AS d) AS x) AS fingerprint, (SELECT pg_catalog.count(*) FROM "public"."stats_private") AS cells, (SELECT pg_catalog.count(*) FILTER (WHERE d.o OPERATOR(pg_catalog.=) 0) OPERATOR(pg_catalog.*) (1 OPERATOR(pg_catalog.+) pg_catalog.count(*) FILTER (WHERE d.o OPERATOR(pg_catalog.>) 0) OPERATOR(pg_catalog.+) 1) FROM dom AS d) AS grid, bad.* FROM (SELECT 1) AS one LEFT JOIN bad ON true

-- statement 24
CREATE TEMPORARY TABLE pg_temp."madnb_kept_<hex1>" (cls text, attr pg_catalog.int4 NOT NULL, value double precision, n pg_catalog.numeric, nv pg_catalog.int8, mean pg_catalog.float8, mean_lo pg_catalog.float8, var pg_catalog.float8, s1 pg_catalog.numeric, s2 pg_catalog.numeric)

-- statement 25
SELECT madnb._create_kept_statistics($1, $2::pg_catalog.regclass, CURRENT_USER)

-- statement 26
DROP TABLE pg_temp."madnb_kept_<hex1>"

-- statement 27
INSERT INTO "madnb_statistics"."public.merged_private_fp" (cls, attr, value, n, nv, mean, var, mean_lo, s1, s2) SELECT m.cls, m.o AS attr, m.v AS value, m.n, NULL::pg_catalog.int8 AS nv, NULL::pg_catalog.float8 AS mean, NULL::pg_catalog.float8 AS var, NULL::pg_catalog.float8 AS mean_lo, m.s1, m.s2 FROM (SELECT u.cls, u.attr AS o, u.value AS v, pg_catalog.sum(u.n) AS n, pg_catalog.sum(u.s1) AS s1, pg_catalog.sum(u.s2) AS s2 FROM (SELECT 1::pg_catalog.int4 AS part, s.cls, s.attr, s.value, s.n, s.nv, s.mean, s.mean_lo, s.var, s.s1, s.s2 FROM "public"."stats_private" AS s) AS u GROUP BY 1, 2, 3) AS m

-- statement 28
SELECT pg_catalog.to_char(pg_catalog.statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t

-- statement 29
COMMENT ON TABLE "madnb_statistics"."public.merged_private_fp" IS 'madnb statistics {"bounds": [[2, 5.0, 20.0]], "class_type": "text", "created_at": "<created_at>", "delta": 0.0, "domain": "public.mixed_domain", "domain_fingerprint": "9cdc994a29de2163fbdb9c3af773931b", "element_type": "double precision", "epsilon": "2", "epsilon_per_query": 0.39999999999999997, "fixed_point_bits": 20, "fixed_point_scale": 1048576, "format": 1, "guarantee": "epsilon 2-differentially private (add or remove one row) with respect to the public domain public.mixed_domain", "id": "<id>", "mode": "private", "num_attrs": 3, "numeric": [2], "parts": ["<uuid>"], "release_id": null, "release_ids": [3], "source": "public.mixed"}'

-- statement 30
SELECT pg_catalog.to_regclass($1)::pg_catalog.oid::pg_catalog.int8 AS o

-- statement 31
CREATE TABLE "public"."merged_private_cp" (class text, class_cnt pg_catalog.int8, all_cnt pg_catalog.int8)

-- statement 32
CREATE TABLE "public"."merged_private_fp" (class text, attr pg_catalog.int4, value double precision, cnt pg_catalog.int8, attr_cnt pg_catalog.int8, smoothing pg_catalog.float8)

-- statement 33
CREATE TABLE "public"."merged_private_np" (class text, attr pg_catalog.int4, attr_mean pg_catalog.float8, attr_var pg_catalog.float8, value_cnt pg_catalog.int8)

-- statement 34
WITH cc0 AS (SELECT x.cls, LEAST(GREATEST(x.n, 0), 1125899906842624::pg_catalog.numeric) AS c FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."public.merged_private_fp" AS s) AS x WHERE x.o = 0),
cc AS (SELECT cc0.cls, (CASE WHEN pg_catalog.sum(cc0.c) OVER () > 0 THEN cc0.c ELSE 1 END)::pg_catalog.int8 AS class_cnt FROM cc0),
cp AS (SELECT cc.cls AS class, cc.class_cnt, LEAST(pg_catalog.sum(cc.class_cnt) OVER (), 9223372036854775807)::pg_catalog.int8 AS all_cnt FROM cc),
ac AS (SELECT d.o, pg_catalog.count(DISTINCT d.v)::pg_catalog.int8 AS attr_cnt FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."public.merged_private_fp" AS s) AS d WHERE d.o > 0 AND d.v IS NOT NULL GROUP BY d.o),
fp AS (SELECT x.cls AS class, x.o AS attr, x.v AS value, LEAST(GREATEST(x.n, 0), 1125899906842624::pg_catalog.numeric)::pg_catalog.int8 AS cnt, ac.attr_cnt FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."public.merged_private_fp" AS s) AS x JOIN ac ON ac.o = x.o WHERE x.o > 0 AND x.v IS NOT NULL),
nm AS (SELECT x.cls, x.o, cc.class_cnt, b.lo, b.hi, b.mid, b.half, GREATEST(cc.class_cnt, 1)::pg_catalog.float8 AS nn, LEAST(GREATEST(x.s1, -(2097152::pg_catalog.numeric * GREATEST(cc.class_cnt, 1))), (2097152::pg_catalog.numeric * GREATEST(cc.class_cnt, 1)))::pg_catalog.float8 / 1048576.0 AS m1, LEAST(GREATEST(x.s2, -(2199023255552::pg_catalog.numeric * GREATEST(cc.class_cnt, 1))), (2199023255552::pg_catalog.numeric * GREATEST(cc.class_cnt, 1)))::pg_catalog.float8 / 1099511627776.0 AS m2 FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."public.merged_private_fp" AS s) AS x JOIN cc ON cc.cls = x.cls JOIN (VALUES (2, 5.0::pg_catalog.float8, 20.0::pg_catalog.float8, 12.5::pg_catalog.float8, 7.5::pg_catalog.float8)) AS b(o, lo, hi, mid, half) ON b.o = x.o),
nm2 AS (SELECT nm.*, CASE WHEN nm.class_cnt = 0 THEN nm.mid ELSE LEAST(GREATEST(nm.mid + nm.half * nm.m1 / nm.nn, nm.lo), nm.hi) END AS mean, LEAST(nm.half * nm.half, pg_catalog.sqrt(2::pg_catalog.float8) * nm.half * nm.half / (0.39999999999999997::pg_catalog.float8 * nm.nn)) AS floor FROM nm),
np AS (SELECT nm2.cls AS class, nm2.o AS attr, nm2.mean AS attr_mean, CASE WHEN nm2.class_cnt = 0 THEN nm2.half * nm2.half ELSE LEAST(GREATEST(nm2.half * nm2.half * nm2.m2 / nm2.nn - (nm2.mean - nm2.mid) * (nm2.mean - nm2.mid), nm2.floor), nm2.half * nm2.half) END AS attr_var, nm2.class_cnt AS value_cnt FROM nm2)
 INSERT INTO "public"."merged_private_cp" (class, class_cnt, all_cnt) SELECT class, class_cnt, all_cnt FROM cp ORDER BY class

-- statement 35
WITH cc0 AS (SELECT x.cls, LEAST(GREATEST(x.n, 0), 1125899906842624::pg_catalog.numeric) AS c FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."public.merged_private_fp" AS s) AS x WHERE x.o = 0),
cc AS (SELECT cc0.cls, (CASE WHEN pg_catalog.sum(cc0.c) OVER () > 0 THEN cc0.c ELSE 1 END)::pg_catalog.int8 AS class_cnt FROM cc0),
cp AS (SELECT cc.cls AS class, cc.class_cnt, LEAST(pg_catalog.sum(cc.class_cnt) OVER (), 9223372036854775807)::pg_catalog.int8 AS all_cnt FROM cc),
ac AS (SELECT d.o, pg_catalog.count(DISTINCT d.v)::pg_catalog.int8 AS attr_cnt FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."public.merged_private_fp" AS s) AS d WHERE d.o > 0 AND d.v IS NOT NULL GROUP BY d.o),
fp AS (SELECT x.cls AS class, x.o AS attr, x.v AS value, LEAST(GREATEST(x.n, 0), 1125899906842624::pg_catalog.numeric)::pg_catalog.int8 AS cnt, ac.attr_cnt FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."public.merged_private_fp" AS s) AS x JOIN ac ON ac.o = x.o WHERE x.o > 0 AND x.v IS NOT NULL),
nm AS (SELECT x.cls, x.o, cc.class_cnt, b.lo, b.hi, b.mid, b.half, GREATEST(cc.class_cnt, 1)::pg_catalog.float8 AS nn, LEAST(GREATEST(x.s1, -(2097152::pg_catalog.numeric * GREATEST(cc.class_cnt, 1))), (2097152::pg_catalog.numeric * GREATEST(cc.class_cnt, 1)))::pg_catalog.float8 / 1048576.0 AS m1, LEAST(GREATEST(x.s2, -(2199023255552::pg_catalog.numeric * GREATEST(cc.class_cnt, 1))), (2199023255552::pg_catalog.numeric * GREATEST(cc.class_cnt, 1)))::pg_catalog.float8 / 1099511627776.0 AS m2 FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."public.merged_private_fp" AS s) AS x JOIN cc ON cc.cls = x.cls JOIN (VALUES (2, 5.0::pg_catalog.float8, 20.0::pg_catalog.float8, 12.5::pg_catalog.float8, 7.5::pg_catalog.float8)) AS b(o, lo, hi, mid, half) ON b.o = x.o),
nm2 AS (SELECT nm.*, CASE WHEN nm.class_cnt = 0 THEN nm.mid ELSE LEAST(GREATEST(nm.mid + nm.half * nm.m1 / nm.nn, nm.lo), nm.hi) END AS mean, LEAST(nm.half * nm.half, pg_catalog.sqrt(2::pg_catalog.float8) * nm.half * nm.half / (0.39999999999999997::pg_catalog.float8 * nm.nn)) AS floor FROM nm),
np AS (SELECT nm2.cls AS class, nm2.o AS attr, nm2.mean AS attr_mean, CASE WHEN nm2.class_cnt = 0 THEN nm2.half * nm2.half ELSE LEAST(GREATEST(nm2.half * nm2.half * nm2.m2 / nm2.nn - (nm2.mean - nm2.mid) * (nm2.mean - nm2.mid), nm2.floor), nm2.half * nm2.half) END AS attr_var, nm2.class_cnt AS value_cnt FROM nm2)
 INSERT INTO "public"."merged_private_fp" (class, attr, value, cnt, attr_cnt, smoothing) SELECT class, attr, value, cnt, attr_cnt, 1.0::pg_catalog.float8 FROM fp ORDER BY attr, value, class

-- statement 36
WITH cc0 AS (SELECT x.cls, LEAST(GREATEST(x.n, 0), 1125899906842624::pg_catalog.numeric) AS c FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."public.merged_private_fp" AS s) AS x WHERE x.o = 0),
cc AS (SELECT cc0.cls, (CASE WHEN pg_catalog.sum(cc0.c) OVER () > 0 THEN cc0.c ELSE 1 END)::pg_catalog.int8 AS class_cnt FROM cc0),
cp AS (SELECT cc.cls AS class, cc.class_cnt, LEAST(pg_catalog.sum(cc.class_cnt) OVER (), 9223372036854775807)::pg_catalog.int8 AS all_cnt FROM cc),
ac AS (SELECT d.o, pg_catalog.count(DISTINCT d.v)::pg_catalog.int8 AS attr_cnt FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."public.merged_private_fp" AS s) AS d WHERE d.o > 0 AND d.v IS NOT NULL GROUP BY d.o),
fp AS (SELECT x.cls AS class, x.o AS attr, x.v AS value, LEAST(GREATEST(x.n, 0), 1125899906842624::pg_catalog.numeric)::pg_catalog.int8 AS cnt, ac.attr_cnt FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."public.merged_private_fp" AS s) AS x JOIN ac ON ac.o = x.o WHERE x.o > 0 AND x.v IS NOT NULL),
nm AS (SELECT x.cls, x.o, cc.class_cnt, b.lo, b.hi, b.mid, b.half, GREATEST(cc.class_cnt, 1)::pg_catalog.float8 AS nn, LEAST(GREATEST(x.s1, -(2097152::pg_catalog.numeric * GREATEST(cc.class_cnt, 1))), (2097152::pg_catalog.numeric * GREATEST(cc.class_cnt, 1)))::pg_catalog.float8 / 1048576.0 AS m1, LEAST(GREATEST(x.s2, -(2199023255552::pg_catalog.numeric * GREATEST(cc.class_cnt, 1))), (2199023255552::pg_catalog.numeric * GREATEST(cc.class_cnt, 1)))::pg_catalog.float8 / 1099511627776.0 AS m2 FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."public.merged_private_fp" AS s) AS x JOIN cc ON cc.cls = x.cls JOIN (VALUES (2, 5.0::pg_catalog.float8, 20.0::pg_catalog.float8, 12.5::pg_catalog.float8, 7.5::pg_catalog.float8)) AS b(o, lo, hi, mid, half) ON b.o = x.o),
nm2 AS (SELECT nm.*, CASE WHEN nm.class_cnt = 0 THEN nm.mid ELSE LEAST(GREATEST(nm.mid + nm.half * nm.m1 / nm.nn, nm.lo), nm.hi) END AS mean, LEAST(nm.half * nm.half, pg_catalog.sqrt(2::pg_catalog.float8) * nm.half * nm.half / (0.39999999999999997::pg_catalog.float8 * nm.nn)) AS floor FROM nm),
np AS (SELECT nm2.cls AS class, nm2.o AS attr, nm2.mean AS attr_mean, CASE WHEN nm2.class_cnt = 0 THEN nm2.half * nm2.half ELSE LEAST(GREATEST(nm2.half * nm2.half * nm2.m2 / nm2.nn - (nm2.mean - nm2.mid) * (nm2.mean - nm2.mid), nm2.floor), nm2.half * nm2.half) END AS attr_var, nm2.class_cnt AS value_cnt FROM nm2)
 INSERT INTO "public"."merged_private_np" (class, attr, attr_mean, attr_var, value_cnt) SELECT class, attr, attr_mean, attr_var, value_cnt FROM np ORDER BY class, attr

-- statement 37
COMMENT ON TABLE "public"."merged_private_cp" IS 'madnb class priors trained from public.mixed; noisy class counts clamped at 0; epsilon 2-differentially private (add or remove one row) with respect to the public domain public.mixed_domain; release <release_id> of madnb.privacy_ledger; derived from statistics "madnb_statistics"."public.merged_private_fp" (id <uuid>)'

-- statement 38
COMMENT ON TABLE "public"."merged_private_fp" IS 'madnb categorical feature counts trained from public.mixed; noisy counts clamped at 0, attr_cnt = size of the attribute''s domain; P(value|class) = (cnt + smoothing) / (sum of cnt over the attribute''s values + smoothing * attr_cnt); epsilon 2-differentially private (add or remove one row) with respect to the public domain public.mixed_domain; release <release_id> of madnb.privacy_ledger; numAttrs = 3; derived from statistics "madnb_statistics"."public.merged_private_fp" (id <uuid>)'

-- statement 39
COMMENT ON TABLE "public"."merged_private_np" IS 'madnb Gaussian parameters trained from public.mixed: mean and variance from noisy sums of values clipped to public bounds, over the noisy class count (value_cnt); epsilon 2-differentially private (add or remove one row) with respect to the public domain public.mixed_domain; release <release_id> of madnb.privacy_ledger; derived from statistics "madnb_statistics"."public.merged_private_fp" (id <uuid>)'

-- statement 40
ANALYZE "public"."merged_private_fp"

-- statement 41
ANALYZE "public"."merged_private_cp"

-- statement 42
ANALYZE "public"."merged_private_np"

-- statement 43
SELECT pg_catalog.set_config('search_path', $1, true)
