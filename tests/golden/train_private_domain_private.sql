-- golden SQL of: SELECT madnb.create_nb_prepared_data_tables('mixed', 'class', 'attributes', '2', 3, 'pdp_fp', 'pdp_np', 'pdp_cp', epsilon => 20, bounds => '{{5,20}}', domain => 'private', delta => 1e-5)
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
WITH RECURSIVE w(ord, name) AS (SELECT u.o, u.n FROM pg_catalog.unnest($2::pg_catalog.name[]) WITH ORDINALITY AS u(n, o)), c AS (SELECT w.ord, a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM w LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) w.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped LEFT JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid), d(ord, oid) AS (SELECT c.ord, COALESCE(c.elemoid, c.typoid)::pg_catalog.oid FROM c WHERE $3 AND c.typoid IS NOT NULL UNION ALL SELECT d.ord, t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT c.name, c.typ, c.typoid, c.elem, c.elemoid, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid OPERATOR(pg_catalog.=) o.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) o.opcnamespace WHERE o.opcdefault AND m.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND o.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d WHERE d.ord OPERATOR(pg_catalog.=) c.ord) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1) AS equality_schema FROM c ORDER BY c.ord

-- statement 8
WITH RECURSIVE w(ord, name) AS (SELECT u.o, u.n FROM pg_catalog.unnest($2::pg_catalog.name[]) WITH ORDINALITY AS u(n, o)), c AS (SELECT w.ord, a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM w LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) w.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped LEFT JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid), d(ord, oid) AS (SELECT c.ord, COALESCE(c.elemoid, c.typoid)::pg_catalog.oid FROM c WHERE $3 AND c.typoid IS NOT NULL UNION ALL SELECT d.ord, t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT c.name, c.typ, c.typoid, c.elem, c.elemoid, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid OPERATOR(pg_catalog.=) o.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) o.opcnamespace WHERE o.opcdefault AND m.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND o.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d WHERE d.ord OPERATOR(pg_catalog.=) c.ord) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1) AS equality_schema FROM c ORDER BY c.ord

-- statement 9
WITH RECURSIVE d(oid, base) AS (SELECT t.oid, t.typbasetype FROM pg_catalog.pg_type AS t WHERE t.oid OPERATOR(pg_catalog.=) $1 UNION ALL SELECT t.oid, t.typbasetype FROM d JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) d.base) SELECT b.oid::pg_catalog.int8 AS oid, pg_catalog.format_type(b.oid, NULL) AS s, b.typname::pg_catalog.text AS name, b.typtype::pg_catalog.text AS k, (b.typnamespace OPERATOR(pg_catalog.=) 'pg_catalog'::pg_catalog.regnamespace AND b.typtype OPERATOR(pg_catalog.<>) 'e') AS builtin FROM d JOIN pg_catalog.pg_type AS b ON b.oid OPERATOR(pg_catalog.=) d.oid WHERE d.base OPERATOR(pg_catalog.=) 0

-- statement 10
WITH RECURSIVE d(oid, base) AS (SELECT t.oid, t.typbasetype FROM pg_catalog.pg_type AS t WHERE t.oid OPERATOR(pg_catalog.=) $1 UNION ALL SELECT t.oid, t.typbasetype FROM d JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) d.base) SELECT b.oid::pg_catalog.int8 AS oid, pg_catalog.format_type(b.oid, NULL) AS s, b.typname::pg_catalog.text AS name, b.typtype::pg_catalog.text AS k, (b.typnamespace OPERATOR(pg_catalog.=) 'pg_catalog'::pg_catalog.regnamespace AND b.typtype OPERATOR(pg_catalog.<>) 'e') AS builtin FROM d JOIN pg_catalog.pg_type AS b ON b.oid OPERATOR(pg_catalog.=) d.oid WHERE d.base OPERATOR(pg_catalog.=) 0

-- statement 11
WITH RECURSIVE d(oid, base) AS (SELECT t.oid, t.typbasetype FROM pg_catalog.pg_type AS t WHERE t.oid OPERATOR(pg_catalog.=) $1 UNION ALL SELECT t.oid, t.typbasetype FROM d JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) d.base) SELECT b.oid::pg_catalog.int8 AS oid, pg_catalog.format_type(b.oid, NULL) AS s, b.typname::pg_catalog.text AS name, b.typtype::pg_catalog.text AS k, (b.typnamespace OPERATOR(pg_catalog.=) 'pg_catalog'::pg_catalog.regnamespace AND b.typtype OPERATOR(pg_catalog.<>) 'e') AS builtin FROM d JOIN pg_catalog.pg_type AS b ON b.oid OPERATOR(pg_catalog.=) d.oid WHERE d.base OPERATOR(pg_catalog.=) 0

-- statement 12
SELECT c.collname::pg_catalog.text AS coll FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_collation c ON c.oid OPERATOR(pg_catalog.=) a.attcollation WHERE a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) $2 AND NOT c.collisdeterministic

-- statement 13
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 14
SELECT pg_catalog.current_schema()::pg_catalog.text AS s

-- statement 15
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 16
SELECT pg_catalog.to_regclass($1) IS NOT NULL AS taken

-- statement 17
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 18
SELECT pg_catalog.current_schema()::pg_catalog.text AS s

-- statement 19
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 20
SELECT pg_catalog.to_regclass($1) IS NOT NULL AS taken

-- statement 21
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 22
SELECT pg_catalog.current_schema()::pg_catalog.text AS s

-- statement 23
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 24
SELECT pg_catalog.to_regclass($1) IS NOT NULL AS taken

-- statement 25
SELECT pg_catalog.current_setting('madnb.progress', true) AS v

-- statement 26
SELECT pg_catalog.to_regclass(pg_catalog.quote_ident($1) OPERATOR(pg_catalog.||) '.' OPERATOR(pg_catalog.||) pg_catalog.quote_ident($2)) IS NOT NULL AS t

-- statement 27
SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_class c WHERE c.oid OPERATOR(pg_catalog.=) $1 AND c.relkind OPERATOR(pg_catalog.=) 'p' AND EXISTS (SELECT 1 FROM pg_catalog.pg_partition_tree(c.oid) p JOIN pg_catalog.pg_foreign_table f ON f.ftrelid OPERATOR(pg_catalog.=) p.relid)) AS s

-- statement 28
CREATE TEMPORARY TABLE pg_temp."madnb_domain_<hex1>" (o pg_catalog.int4 NOT NULL, cls text, v double precision) ON COMMIT DROP

-- statement 29
CREATE TEMPORARY TABLE pg_temp."madnb_kept_<hex2>" (cls text, attr pg_catalog.int4 NOT NULL, value double precision, n pg_catalog.numeric, nv pg_catalog.int8, mean pg_catalog.float8, mean_lo pg_catalog.float8, var pg_catalog.float8, s1 pg_catalog.numeric, s2 pg_catalog.numeric)

-- statement 30
SELECT madnb._create_kept_statistics($1, $2::pg_catalog.regclass, CURRENT_USER)

-- statement 31
DROP TABLE pg_temp."madnb_kept_<hex2>"

-- statement 32
SELECT madnb.record_private_release($1::pg_catalog.oid::pg_catalog.regclass, $2::pg_catalog.numeric, $3::pg_catalog.jsonb) AS release_id

-- statement 33
INSERT INTO pg_temp."madnb_domain_<hex1>" (o, cls, v) SELECT s.o, s.cls, s.v FROM (SELECT (u.o OPERATOR(pg_catalog.-) 1)::pg_catalog.int4 AS o, CASE WHEN u.o OPERATOR(pg_catalog.=) 1 THEN t."class" END AS cls, CASE WHEN u.o OPERATOR(pg_catalog.>) 1 THEN u.val END AS v, pg_catalog.count(*) AS n FROM "public"."mixed" AS t CROSS JOIN LATERAL pg_catalog.unnest(ARRAY[NULL::double precision] OPERATOR(pg_catalog.||) (CASE WHEN pg_catalog.array_ndims(t."attributes") OPERATOR(pg_catalog.=) 1 THEN t."attributes" END)) WITH ORDINALITY AS u(val, o) WHERE t."class" IS NOT NULL AND (u.o OPERATOR(pg_catalog.=) 1 OR (u.o OPERATOR(pg_catalog.=) ANY ('{2,4}'::pg_catalog.int8[]) AND u.val IS NOT NULL)) GROUP BY 1, 2, 3) AS s WHERE madnb._dp_laplace(s.n, 1, 2.5::pg_catalog.float8) OPERATOR(pg_catalog.>=) 7::pg_catalog.numeric

-- statement 34
SELECT pg_catalog.current_setting($1) AS v

-- statement 35
SELECT pg_catalog.set_config($1, $2, true)

-- statement 36
CREATE TEMPORARY TABLE pg_temp."madnb_released_<hex3>" ON COMMIT DROP AS WITH j AS MATERIALIZED (SELECT x.cls, x.o, x.v, x.o OPERATOR(pg_catalog.=) ANY ('{2}'::pg_catalog.int4[]) AS isnum, COALESCE(e.n, 0) AS n, COALESCE(e.s1, 0) AS s1, COALESCE(e.s2, 0) AS s2, pg_catalog.row_number() OVER (PARTITION BY x.o OPERATOR(pg_catalog.=) ANY ('{2}'::pg_catalog.int4[]))::pg_catalog.int8 AS i FROM (SELECT c.cls, 0::pg_catalog.int4 AS o, NULL::double precision AS v FROM pg_temp."madnb_domain_<hex1>" AS c WHERE c.o OPERATOR(pg_catalog.=) 0 UNION ALL SELECT c.cls, a.o, a.v FROM pg_temp."madnb_domain_<hex1>" AS c JOIN pg_temp."madnb_domain_<hex1>" AS a ON a.o OPERATOR(pg_catalog.>) 0 WHERE c.o OPERATOR(pg_catalog.=) 0 UNION ALL SELECT c.cls, g.o, NULL::double precision FROM pg_temp."madnb_domain_<hex1>" AS c CROSS JOIN pg_catalog.unnest('{2}'::pg_catalog.int4[]) AS g(o) WHERE c.o OPERATOR(pg_catalog.=) 0) AS x LEFT JOIN (SELECT t."class" AS cls, (u.o OPERATOR(pg_catalog.-) 1)::pg_catalog.int4 AS o, CASE WHEN u.o OPERATOR(pg_catalog.=) ANY ('{2,4}'::pg_catalog.int4[]) THEN u.val END AS v, pg_catalog.count(*) AS n, pg_catalog.sum((CASE WHEN u.o OPERATOR(pg_catalog.=) ANY ('{3}'::pg_catalog.int4[]) AND u.val IS NOT NULL AND u.val::pg_catalog.float8 OPERATOR(pg_catalog.<>) 'NaN'::pg_catalog.float8 THEN pg_catalog.float8smaller(pg_catalog.float8larger(pg_catalog.round((pg_catalog.float8smaller(pg_catalog.float8larger(u.val::pg_catalog.float8, ('{NULL,NULL,5.0,NULL}'::pg_catalog.float8[])[u.o]), ('{NULL,NULL,20.0,NULL}'::pg_catalog.float8[])[u.o]) OPERATOR(pg_catalog.-) ('{NULL,NULL,12.5,NULL}'::pg_catalog.float8[])[u.o]) OPERATOR(pg_catalog.*) ('{NULL,NULL,139810.13333333333,NULL}'::pg_catalog.float8[])[u.o]), '-1048576'::pg_catalog.float8), '1048576'::pg_catalog.float8)::pg_catalog.int8 END)) AS s1, pg_catalog.sum((CASE WHEN u.o OPERATOR(pg_catalog.=) ANY ('{3}'::pg_catalog.int4[]) AND u.val IS NOT NULL AND u.val::pg_catalog.float8 OPERATOR(pg_catalog.<>) 'NaN'::pg_catalog.float8 THEN pg_catalog.float8smaller(pg_catalog.float8larger(pg_catalog.round((pg_catalog.float8smaller(pg_catalog.float8larger(u.val::pg_catalog.float8, ('{NULL,NULL,5.0,NULL}'::pg_catalog.float8[])[u.o]), ('{NULL,NULL,20.0,NULL}'::pg_catalog.float8[])[u.o]) OPERATOR(pg_catalog.-) ('{NULL,NULL,12.5,NULL}'::pg_catalog.float8[])[u.o]) OPERATOR(pg_catalog.*) ('{NULL,NULL,139810.13333333333,NULL}'::pg_catalog.float8[])[u.o]), '-1048576'::pg_catalog.float8), '1048576'::pg_catalog.float8)::pg_catalog.int8 END) OPERATOR(pg_catalog.*) (CASE WHEN u.o OPERATOR(pg_catalog.=) ANY ('{3}'::pg_catalog.int4[]) AND u.val IS NOT NULL AND u.val::pg_catalog.float8 OPERATOR(pg_catalog.<>) 'NaN'::pg_catalog.float8 THEN pg_catalog.float8smaller(pg_catalog.float8larger(pg_catalog.round((pg_catalog.float8smaller(pg_catalog.float8larger(u.val::pg_catalog.float8, ('{NULL,NULL,5.0,NULL}'::pg_catalog.float8[])[u.o]), ('{NULL,NULL,20.0,NULL}'::pg_catalog.float8[])[u.o]) OPERATOR(pg_catalog.-) ('{NULL,NULL,12.5,NULL}'::pg_catalog.float8[])[u.o]) OPERATOR(pg_catalog.*) ('{NULL,NULL,139810.13333333333,NULL}'::pg_catalog.float8[])[u.o]), '-1048576'::pg_catalog.float8), '1048576'::pg_catalog.float8)::pg_catalog.int8 END)) AS s2 FROM "public"."mixed" AS t CROSS JOIN LATERAL pg_catalog.unnest(ARRAY[NULL::double precision] OPERATOR(pg_catalog.||) (CASE WHEN pg_catalog.array_ndims(t."attributes") OPERATOR(pg_catalog.=) 1 THEN t."attributes" END)) WITH ORDINALITY AS u(val, o) WHERE t."class" IS NOT NULL AND u.o OPERATOR(pg_catalog.<=) 4 GROUP BY 1, 2, 3) AS e ON e.cls OPERATOR(pg_catalog.=) x.cls AND e.o OPERATOR(pg_catalog.=) x.o AND ARRAY[e.v::double precision] OPERATOR(pg_catalog.=) ARRAY[x.v::double precision]), z AS MATERIALIZED (SELECT madnb._dp_laplace_array(pg_catalog.array_agg(j.n ORDER BY j.i) FILTER (WHERE NOT j.isnum), 1, 2.5::pg_catalog.float8) AS n, madnb._dp_laplace_array(pg_catalog.array_agg(j.s1 ORDER BY j.i) FILTER (WHERE j.isnum), 1048576, 2.5::pg_catalog.float8) AS s1, madnb._dp_laplace_array(pg_catalog.array_agg(j.s2 ORDER BY j.i) FILTER (WHERE j.isnum), 1099511627776, 2.5::pg_catalog.float8) AS s2 FROM j) SELECT j.cls, j.o, j.v, c.n, g.s1, g.s2 FROM j LEFT JOIN (SELECT u.n, u.i FROM z CROSS JOIN LATERAL pg_catalog.unnest(z.n) WITH ORDINALITY AS u(n, i)) AS c ON NOT j.isnum AND c.i OPERATOR(pg_catalog.=) j.i LEFT JOIN (SELECT u.s1, u.s2, u.i FROM z CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(z.s1), pg_catalog.unnest(z.s2)) WITH ORDINALITY AS u(s1, s2, i)) AS g ON j.isnum AND g.i OPERATOR(pg_catalog.=) j.i

-- statement 37
SELECT pg_catalog.set_config($1, $2, true)

-- statement 38
INSERT INTO "madnb_statistics"."public.pdp_fp" (cls, attr, value, n, s1, s2) SELECT r.cls, r.o, r.v, r.n, r.s1, r.s2 FROM pg_temp."madnb_released_<hex3>" AS r

-- statement 39
DROP TABLE pg_temp."madnb_released_<hex3>"

-- statement 40
SELECT pg_catalog.to_char(pg_catalog.statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t

-- statement 41
SELECT pg_catalog.md5(COALESCE(pg_catalog.string_agg(x.c, E'\n' ORDER BY x.c COLLATE "C"), '')) AS f FROM (SELECT pg_catalog.format('%s %L %L', d.o, d.cls, d.v) AS c FROM pg_temp."madnb_domain_<hex1>" AS d) AS x

-- statement 42
DROP TABLE pg_temp."madnb_domain_<hex1>"

-- statement 43
COMMENT ON TABLE "madnb_statistics"."public.pdp_fp" IS 'madnb statistics {"bounds": [[2, 5.0, 20.0]], "class_type": "text", "created_at": "<created_at>", "delta": 1e-05, "domain": "private", "domain_fingerprint": "9cdc994a29de2163fbdb9c3af773931b", "element_type": "double precision", "epsilon": "20", "epsilon_per_query": 2.5, "fixed_point_bits": 20, "fixed_point_scale": 1048576, "format": 1, "guarantee": "(epsilon 20, delta 1e-05)-differentially private (add or remove one row), domain chosen by private partition selection", "id": "<id>", "mode": "private", "num_attrs": 3, "numeric": [2], "release_id": "<release_id>", "source": "public.mixed"}'

-- statement 44
SELECT pg_catalog.to_regclass($1)::pg_catalog.oid::pg_catalog.int8 AS o

-- statement 45
CREATE TABLE "public"."pdp_cp" (class text, class_cnt pg_catalog.int8, all_cnt pg_catalog.int8)

-- statement 46
CREATE TABLE "public"."pdp_fp" (class text, attr pg_catalog.int4, value double precision, cnt pg_catalog.int8, attr_cnt pg_catalog.int8, smoothing pg_catalog.float8)

-- statement 47
CREATE TABLE "public"."pdp_np" (class text, attr pg_catalog.int4, attr_mean pg_catalog.float8, attr_var pg_catalog.float8, value_cnt pg_catalog.int8)

-- statement 48
WITH cc0 AS (SELECT x.cls, LEAST(GREATEST(x.n, 0), 1125899906842624::pg_catalog.numeric) AS c FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."public.pdp_fp" AS s) AS x WHERE x.o = 0),
cc AS (SELECT cc0.cls, (CASE WHEN pg_catalog.sum(cc0.c) OVER () > 0 THEN cc0.c ELSE 1 END)::pg_catalog.int8 AS class_cnt FROM cc0),
cp AS (SELECT cc.cls AS class, cc.class_cnt, LEAST(pg_catalog.sum(cc.class_cnt) OVER (), 9223372036854775807)::pg_catalog.int8 AS all_cnt FROM cc),
ac AS (SELECT d.o, pg_catalog.count(DISTINCT d.v)::pg_catalog.int8 AS attr_cnt FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."public.pdp_fp" AS s) AS d WHERE d.o > 0 AND d.v IS NOT NULL GROUP BY d.o),
fp AS (SELECT x.cls AS class, x.o AS attr, x.v AS value, LEAST(GREATEST(x.n, 0), 1125899906842624::pg_catalog.numeric)::pg_catalog.int8 AS cnt, ac.attr_cnt FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."public.pdp_fp" AS s) AS x JOIN ac ON ac.o = x.o WHERE x.o > 0 AND x.v IS NOT NULL),
nm AS (SELECT x.cls, x.o, cc.class_cnt, b.lo, b.hi, b.mid, b.half, GREATEST(cc.class_cnt, 1)::pg_catalog.float8 AS nn, LEAST(GREATEST(x.s1, -(2097152::pg_catalog.numeric * GREATEST(cc.class_cnt, 1))), (2097152::pg_catalog.numeric * GREATEST(cc.class_cnt, 1)))::pg_catalog.float8 / 1048576.0 AS m1, LEAST(GREATEST(x.s2, -(2199023255552::pg_catalog.numeric * GREATEST(cc.class_cnt, 1))), (2199023255552::pg_catalog.numeric * GREATEST(cc.class_cnt, 1)))::pg_catalog.float8 / 1099511627776.0 AS m2 FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."public.pdp_fp" AS s) AS x JOIN cc ON cc.cls = x.cls JOIN (VALUES (2, 5.0::pg_catalog.float8, 20.0::pg_catalog.float8, 12.5::pg_catalog.float8, 7.5::pg_catalog.float8)) AS b(o, lo, hi, mid, half) ON b.o = x.o),
nm2 AS (SELECT nm.*, CASE WHEN nm.class_cnt = 0 THEN nm.mid ELSE LEAST(GREATEST(nm.mid + nm.half * nm.m1 / nm.nn, nm.lo), nm.hi) END AS mean, LEAST(nm.half * nm.half, pg_catalog.sqrt(2::pg_catalog.float8) * nm.half * nm.half / (2.5::pg_catalog.float8 * nm.nn)) AS floor FROM nm),
np AS (SELECT nm2.cls AS class, nm2.o AS attr, nm2.mean AS attr_mean, CASE WHEN nm2.class_cnt = 0 THEN nm2.half * nm2.half ELSE LEAST(GREATEST(nm2.half * nm2.half * nm2.m2 / nm2.nn - (nm2.mean - nm2.mid) * (nm2.mean - nm2.mid), nm2.floor), nm2.half * nm2.half) END AS attr_var, nm2.class_cnt AS value_cnt FROM nm2)
 INSERT INTO "public"."pdp_cp" (class, class_cnt, all_cnt) SELECT class, class_cnt, all_cnt FROM cp ORDER BY class

-- statement 49
WITH cc0 AS (SELECT x.cls, LEAST(GREATEST(x.n, 0), 1125899906842624::pg_catalog.numeric) AS c FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."public.pdp_fp" AS s) AS x WHERE x.o = 0),
cc AS (SELECT cc0.cls, (CASE WHEN pg_catalog.sum(cc0.c) OVER () > 0 THEN cc0.c ELSE 1 END)::pg_catalog.int8 AS class_cnt FROM cc0),
cp AS (SELECT cc.cls AS class, cc.class_cnt, LEAST(pg_catalog.sum(cc.class_cnt) OVER (), 9223372036854775807)::pg_catalog.int8 AS all_cnt FROM cc),
ac AS (SELECT d.o, pg_catalog.count(DISTINCT d.v)::pg_catalog.int8 AS attr_cnt FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."public.pdp_fp" AS s) AS d WHERE d.o > 0 AND d.v IS NOT NULL GROUP BY d.o),
fp AS (SELECT x.cls AS class, x.o AS attr, x.v AS value, LEAST(GREATEST(x.n, 0), 1125899906842624::pg_catalog.numeric)::pg_catalog.int8 AS cnt, ac.attr_cnt FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."public.pdp_fp" AS s) AS x JOIN ac ON ac.o = x.o WHERE x.o > 0 AND x.v IS NOT NULL),
nm AS (SELECT x.cls, x.o, cc.class_cnt, b.lo, b.hi, b.mid, b.half, GREATEST(cc.class_cnt, 1)::pg_catalog.float8 AS nn, LEAST(GREATEST(x.s1, -(2097152::pg_catalog.numeric * GREATEST(cc.class_cnt, 1))), (2097152::pg_catalog.numeric * GREATEST(cc.class_cnt, 1)))::pg_catalog.float8 / 1048576.0 AS m1, LEAST(GREATEST(x.s2, -(2199023255552::pg_catalog.numeric * GREATEST(cc.class_cnt, 1))), (2199023255552::pg_catalog.numeric * GREATEST(cc.class_cnt, 1)))::pg_catalog.float8 / 1099511627776.0 AS m2 FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."public.pdp_fp" AS s) AS x JOIN cc ON cc.cls = x.cls JOIN (VALUES (2, 5.0::pg_catalog.float8, 20.0::pg_catalog.float8, 12.5::pg_catalog.float8, 7.5::pg_catalog.float8)) AS b(o, lo, hi, mid, half) ON b.o = x.o),
nm2 AS (SELECT nm.*, CASE WHEN nm.class_cnt = 0 THEN nm.mid ELSE LEAST(GREATEST(nm.mid + nm.half * nm.m1 / nm.nn, nm.lo), nm.hi) END AS mean, LEAST(nm.half * nm.half, pg_catalog.sqrt(2::pg_catalog.float8) * nm.half * nm.half / (2.5::pg_catalog.float8 * nm.nn)) AS floor FROM nm),
np AS (SELECT nm2.cls AS class, nm2.o AS attr, nm2.mean AS attr_mean, CASE WHEN nm2.class_cnt = 0 THEN nm2.half * nm2.half ELSE LEAST(GREATEST(nm2.half * nm2.half * nm2.m2 / nm2.nn - (nm2.mean - nm2.mid) * (nm2.mean - nm2.mid), nm2.floor), nm2.half * nm2.half) END AS attr_var, nm2.class_cnt AS value_cnt FROM nm2)
 INSERT INTO "public"."pdp_fp" (class, attr, value, cnt, attr_cnt, smoothing) SELECT class, attr, value, cnt, attr_cnt, 1.0::pg_catalog.float8 FROM fp ORDER BY attr, value, class

-- statement 50
WITH cc0 AS (SELECT x.cls, LEAST(GREATEST(x.n, 0), 1125899906842624::pg_catalog.numeric) AS c FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."public.pdp_fp" AS s) AS x WHERE x.o = 0),
cc AS (SELECT cc0.cls, (CASE WHEN pg_catalog.sum(cc0.c) OVER () > 0 THEN cc0.c ELSE 1 END)::pg_catalog.int8 AS class_cnt FROM cc0),
cp AS (SELECT cc.cls AS class, cc.class_cnt, LEAST(pg_catalog.sum(cc.class_cnt) OVER (), 9223372036854775807)::pg_catalog.int8 AS all_cnt FROM cc),
ac AS (SELECT d.o, pg_catalog.count(DISTINCT d.v)::pg_catalog.int8 AS attr_cnt FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."public.pdp_fp" AS s) AS d WHERE d.o > 0 AND d.v IS NOT NULL GROUP BY d.o),
fp AS (SELECT x.cls AS class, x.o AS attr, x.v AS value, LEAST(GREATEST(x.n, 0), 1125899906842624::pg_catalog.numeric)::pg_catalog.int8 AS cnt, ac.attr_cnt FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."public.pdp_fp" AS s) AS x JOIN ac ON ac.o = x.o WHERE x.o > 0 AND x.v IS NOT NULL),
nm AS (SELECT x.cls, x.o, cc.class_cnt, b.lo, b.hi, b.mid, b.half, GREATEST(cc.class_cnt, 1)::pg_catalog.float8 AS nn, LEAST(GREATEST(x.s1, -(2097152::pg_catalog.numeric * GREATEST(cc.class_cnt, 1))), (2097152::pg_catalog.numeric * GREATEST(cc.class_cnt, 1)))::pg_catalog.float8 / 1048576.0 AS m1, LEAST(GREATEST(x.s2, -(2199023255552::pg_catalog.numeric * GREATEST(cc.class_cnt, 1))), (2199023255552::pg_catalog.numeric * GREATEST(cc.class_cnt, 1)))::pg_catalog.float8 / 1099511627776.0 AS m2 FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."public.pdp_fp" AS s) AS x JOIN cc ON cc.cls = x.cls JOIN (VALUES (2, 5.0::pg_catalog.float8, 20.0::pg_catalog.float8, 12.5::pg_catalog.float8, 7.5::pg_catalog.float8)) AS b(o, lo, hi, mid, half) ON b.o = x.o),
nm2 AS (SELECT nm.*, CASE WHEN nm.class_cnt = 0 THEN nm.mid ELSE LEAST(GREATEST(nm.mid + nm.half * nm.m1 / nm.nn, nm.lo), nm.hi) END AS mean, LEAST(nm.half * nm.half, pg_catalog.sqrt(2::pg_catalog.float8) * nm.half * nm.half / (2.5::pg_catalog.float8 * nm.nn)) AS floor FROM nm),
np AS (SELECT nm2.cls AS class, nm2.o AS attr, nm2.mean AS attr_mean, CASE WHEN nm2.class_cnt = 0 THEN nm2.half * nm2.half ELSE LEAST(GREATEST(nm2.half * nm2.half * nm2.m2 / nm2.nn - (nm2.mean - nm2.mid) * (nm2.mean - nm2.mid), nm2.floor), nm2.half * nm2.half) END AS attr_var, nm2.class_cnt AS value_cnt FROM nm2)
 INSERT INTO "public"."pdp_np" (class, attr, attr_mean, attr_var, value_cnt) SELECT class, attr, attr_mean, attr_var, value_cnt FROM np ORDER BY class, attr

-- statement 51
COMMENT ON TABLE "public"."pdp_cp" IS 'madnb class priors trained from public.mixed; noisy class counts clamped at 0; (epsilon 20, delta 1e-05)-differentially private (add or remove one row), domain chosen by private partition selection; release <release_id> of madnb.privacy_ledger; derived from statistics "madnb_statistics"."public.pdp_fp" (id <uuid>)'

-- statement 52
COMMENT ON TABLE "public"."pdp_fp" IS 'madnb categorical feature counts trained from public.mixed; noisy counts clamped at 0, attr_cnt = size of the attribute''s domain; P(value|class) = (cnt + smoothing) / (sum of cnt over the attribute''s values + smoothing * attr_cnt); (epsilon 20, delta 1e-05)-differentially private (add or remove one row), domain chosen by private partition selection; release <release_id> of madnb.privacy_ledger; numAttrs = 3; derived from statistics "madnb_statistics"."public.pdp_fp" (id <uuid>)'

-- statement 53
COMMENT ON TABLE "public"."pdp_np" IS 'madnb Gaussian parameters trained from public.mixed: mean and variance from noisy sums of values clipped to public bounds, over the noisy class count (value_cnt); (epsilon 20, delta 1e-05)-differentially private (add or remove one row), domain chosen by private partition selection; release <release_id> of madnb.privacy_ledger; derived from statistics "madnb_statistics"."public.pdp_fp" (id <uuid>)'

-- statement 54
ANALYZE "public"."pdp_fp"

-- statement 55
ANALYZE "public"."pdp_cp"

-- statement 56
ANALYZE "public"."pdp_np"

-- statement 57
SELECT pg_catalog.set_config('search_path', $1, true)
