-- golden SQL of: SELECT madnb.create_nb_statistics('training_part1', 'class', 'attributes', 3, 'stats_part1')
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
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 13
SELECT pg_catalog.current_schema()::pg_catalog.text AS s

-- statement 14
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 15
SELECT pg_catalog.to_regclass($1) IS NOT NULL AS taken

-- statement 16
SELECT pg_catalog.current_setting('madnb.progress', true) AS v

-- statement 17
SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_class c WHERE c.oid OPERATOR(pg_catalog.=) $1 AND c.relkind OPERATOR(pg_catalog.=) 'p' AND EXISTS (SELECT 1 FROM pg_catalog.pg_partition_tree(c.oid) p JOIN pg_catalog.pg_foreign_table f ON f.ftrelid OPERATOR(pg_catalog.=) p.relid)) AS s

-- statement 18
CREATE TEMPORARY TABLE pg_temp."madnb_shape_<hex1>" ON COMMIT DROP AS SELECT t."class" AS cls, pg_catalog.count(*) AS n_rows, pg_catalog.count(*) FILTER (WHERE COALESCE(pg_catalog.cardinality(t."attributes"), 0) = 0) AS n_empty, pg_catalog.count(*) FILTER (WHERE pg_catalog.cardinality(t."attributes") > 0 AND pg_catalog.cardinality(t."attributes") <> 3) AS n_other FROM "public"."training_part1" AS t GROUP BY 1

-- statement 19
SELECT EXISTS (SELECT 1 FROM pg_temp."madnb_shape_<hex1>" AS h WHERE h.cls IS NOT NULL AND h.n_other > 0) AS odd

-- statement 20
SELECT pg_catalog.current_setting($1) AS v

-- statement 21
SELECT pg_catalog.set_config($1, $2, true)

-- statement 22
CREATE TEMPORARY TABLE pg_temp."madnb_stats_<hex2>" ON COMMIT DROP AS SELECT g.cls, (g.k OPERATOR(pg_catalog.&) 134217727::pg_catalog.int8)::pg_catalog.int4 AS o, (g.k OPERATOR(pg_catalog.>>) 27)::integer AS v, g.n, NULL::pg_catalog.int8 AS nv, NULL::pg_catalog.float8 AS mean, NULL::pg_catalog.float8 AS var FROM (SELECT e.cls, e.k, pg_catalog.count(*) AS n FROM (SELECT t."class" AS cls, (((pg_catalog.unnest(t."attributes"))::pg_catalog.int8 OPERATOR(pg_catalog.*) 134217728) OPERATOR(pg_catalog.+) pg_catalog.unnest('{1,2,3}'::pg_catalog.int8[])) AS k FROM "public"."training_part1" AS t WHERE t."class" IS NOT NULL) AS e GROUP BY 1, 2 OFFSET 0) AS g WHERE g.k IS NOT NULL

-- statement 23
SELECT pg_catalog.set_config($1, $2, true)

-- statement 24
INSERT INTO pg_temp."madnb_stats_<hex2>" SELECT h.cls, g.o::pg_catalog.int4, NULL::integer, (h.n_rows - h.n_empty - COALESCE(x.n, 0))::pg_catalog.int8, NULL::pg_catalog.int8, NULL::pg_catalog.float8, NULL::pg_catalog.float8 FROM pg_temp."madnb_shape_<hex1>" AS h CROSS JOIN pg_catalog.generate_series(1, 3) AS g(o) LEFT JOIN (SELECT s.cls, s.o, pg_catalog.sum(s.n) AS n FROM pg_temp."madnb_stats_<hex2>" AS s GROUP BY 1, 2) AS x ON x.cls = h.cls AND x.o = g.o WHERE h.cls IS NOT NULL AND h.n_rows - h.n_empty - COALESCE(x.n, 0) > 0 UNION ALL SELECT h.cls, NULL, NULL, h.n_empty, NULL::pg_catalog.int8, NULL::pg_catalog.float8, NULL::pg_catalog.float8 FROM pg_temp."madnb_shape_<hex1>" AS h WHERE h.cls IS NOT NULL AND h.n_empty > 0 UNION ALL SELECT h.cls, NULL, NULL, h.n_rows, NULL::pg_catalog.int8, NULL::pg_catalog.float8, NULL::pg_catalog.float8 FROM pg_temp."madnb_shape_<hex1>" AS h WHERE h.cls IS NULL

-- statement 25
DROP TABLE pg_temp."madnb_shape_<hex1>"

-- statement 26
SELECT  COALESCE(pg_catalog.sum(n) FILTER (WHERE cls IS NULL AND (o = 1 OR o IS NULL)), 0)::int8 AS null_class_rows, COALESCE(pg_catalog.sum(n) FILTER (WHERE cls IS NOT NULL AND (o = 1 OR o IS NULL)), 0)::int8 AS rows, COALESCE(pg_catalog.sum(n) FILTER (WHERE cls IS NOT NULL AND o = 1), 0)::int8 AS with_attrs, COALESCE(pg_catalog.sum(n) FILTER (WHERE cls IS NOT NULL AND o = 3), 0)::int8 AS full_length, COALESCE(pg_catalog.max(o) FILTER (WHERE cls IS NOT NULL), 0)::int8 AS max_len, pg_catalog.count(DISTINCT cls)::int8 AS classes FROM pg_temp."madnb_stats_<hex2>" AS s

-- statement 27
CREATE TABLE "public"."stats_part1" (cls integer, attr pg_catalog.int4 NOT NULL, value integer, n pg_catalog.numeric, nv pg_catalog.int8, mean pg_catalog.float8, mean_lo pg_catalog.float8, var pg_catalog.float8, s1 pg_catalog.numeric, s2 pg_catalog.numeric)

-- statement 28
WITH cc AS (SELECT s.cls, pg_catalog.sum(s.n)::pg_catalog.int8 AS class_cnt FROM pg_temp."madnb_stats_<hex2>" AS s WHERE s.cls IS NOT NULL AND (s.o = 1 OR s.o IS NULL) GROUP BY s.cls)
 INSERT INTO "public"."stats_part1" (cls, attr, value, n, nv, mean, var) SELECT cc.cls, 0, NULL, cc.class_cnt, NULL::pg_catalog.int8, NULL::pg_catalog.float8, NULL::pg_catalog.float8 FROM cc UNION ALL SELECT s.cls, s.o, s.v, s.n, NULL, NULL, NULL FROM pg_temp."madnb_stats_<hex2>" AS s WHERE s.cls IS NOT NULL AND s.v IS NOT NULL AND s.o OPERATOR(pg_catalog.>=) 1 AND s.o OPERATOR(pg_catalog.<=) 3 AND NOT s.o OPERATOR(pg_catalog.=) ANY ('{}'::pg_catalog.int4[]) UNION ALL SELECT s.cls, s.o, NULL, NULL, s.nv, s.mean, s.var FROM pg_temp."madnb_stats_<hex2>" AS s WHERE s.cls IS NOT NULL AND s.o OPERATOR(pg_catalog.=) ANY ('{}'::pg_catalog.int4[])

-- statement 29
DROP TABLE pg_temp."madnb_stats_<hex2>"

-- statement 30
SELECT pg_catalog.to_char(pg_catalog.statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t

-- statement 31
COMMENT ON TABLE "public"."stats_part1" IS 'madnb statistics {"bounds": null, "class_type": "integer", "created_at": "<created_at>", "delta": null, "domain": null, "domain_fingerprint": null, "element_type": "integer", "epsilon": null, "epsilon_per_query": null, "fixed_point_bits": null, "fixed_point_scale": null, "format": 1, "guarantee": null, "id": "<id>", "mode": "exact", "num_attrs": 3, "numeric": [], "release_id": null, "source": "public.training_part1"}'

-- statement 32
ANALYZE "public"."stats_part1"

-- statement 33
SELECT pg_catalog.set_config('search_path', $1, true)
