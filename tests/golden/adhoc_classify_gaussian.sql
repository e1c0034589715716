-- golden SQL of: SELECT madnb.create_nb_classify_view('gaussian_data', 'sex', 'attributes', '1,2,3', 'gaussian_test', 'id', 'attributes', 3, 'adhoc_gaussian_classify')
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
SELECT pg_catalog.to_regclass($1)::pg_catalog.oid::pg_catalog.int8 AS oid

-- statement 14
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 15
SELECT c.oid::pg_catalog.int8 AS oid, n.nspname::pg_catalog.text AS schema, c.relname::pg_catalog.text AS name, c.relkind::pg_catalog.text AS kind FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace WHERE c.oid OPERATOR(pg_catalog.=) $1

-- statement 16
WITH RECURSIVE w(ord, name) AS (SELECT u.o, u.n FROM pg_catalog.unnest($2::pg_catalog.name[]) WITH ORDINALITY AS u(n, o)), c AS (SELECT w.ord, a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM w LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) w.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped LEFT JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid), d(ord, oid) AS (SELECT c.ord, COALESCE(c.elemoid, c.typoid)::pg_catalog.oid FROM c WHERE $3 AND c.typoid IS NOT NULL UNION ALL SELECT d.ord, t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT c.name, c.typ, c.typoid, c.elem, c.elemoid, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid OPERATOR(pg_catalog.=) o.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) o.opcnamespace WHERE o.opcdefault AND m.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND o.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d WHERE d.ord OPERATOR(pg_catalog.=) c.ord) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1) AS equality_schema FROM c ORDER BY c.ord

-- statement 17
WITH RECURSIVE w(ord, name) AS (SELECT u.o, u.n FROM pg_catalog.unnest($2::pg_catalog.name[]) WITH ORDINALITY AS u(n, o)), c AS (SELECT w.ord, a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM w LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) w.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped LEFT JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid), d(ord, oid) AS (SELECT c.ord, COALESCE(c.elemoid, c.typoid)::pg_catalog.oid FROM c WHERE $3 AND c.typoid IS NOT NULL UNION ALL SELECT d.ord, t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT c.name, c.typ, c.typoid, c.elem, c.elemoid, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid OPERATOR(pg_catalog.=) o.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) o.opcnamespace WHERE o.opcdefault AND m.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND o.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d WHERE d.ord OPERATOR(pg_catalog.=) c.ord) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1) AS equality_schema FROM c ORDER BY c.ord

-- statement 18
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 19
SELECT pg_catalog.current_schema()::pg_catalog.text AS s

-- statement 20
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 21
SELECT pg_catalog.to_regclass($1) IS NOT NULL AS taken

-- statement 22
CREATE TEMPORARY TABLE pg_temp."madnb_stats_<hex1>" ON COMMIT DROP AS SELECT g.cls, x.o, NULL::double precision AS v, x.n, x.nv, x.mean, x.var FROM (SELECT t."sex" AS cls, pg_catalog.count(*) FILTER (WHERE COALESCE(pg_catalog.cardinality(t."attributes"), 0) = 0) AS n_empty, pg_catalog.count(*) FILTER (WHERE pg_catalog.cardinality(t."attributes") > 0) AS n_any, pg_catalog.count(*) FILTER (WHERE pg_catalog.cardinality(t."attributes") >= 3) AS n_full, pg_catalog.count(*) FILTER (WHERE pg_catalog.cardinality(t."attributes") > 3) AS n_long, pg_catalog.max(pg_catalog.cardinality(t."attributes"))::pg_catalog.int4 AS max_len, pg_catalog.count(*) FILTER (WHERE pg_catalog.array_ndims(t."attributes") > 1 OR pg_catalog.array_lower(t."attributes", 1) <> 1) AS n_odd, pg_catalog.count(t."attributes"[1]) AS c1, pg_catalog.avg(t."attributes"[1]::pg_catalog.float8) AS m1, pg_catalog.var_samp(t."attributes"[1]::pg_catalog.float8) AS v1, pg_catalog.count(t."attributes"[2]) AS c2, pg_catalog.avg(t."attributes"[2]::pg_catalog.float8) AS m2, pg_catalog.var_samp(t."attributes"[2]::pg_catalog.float8) AS v2, pg_catalog.count(t."attributes"[3]) AS c3, pg_catalog.avg(t."attributes"[3]::pg_catalog.float8) AS m3, pg_catalog.var_samp(t."attributes"[3]::pg_catalog.float8) AS v3 FROM "public"."gaussian_data" AS t GROUP BY t."sex") AS g CROSS JOIN LATERAL (VALUES (NULL::pg_catalog.int4, g.n_empty, NULL::pg_catalog.int8, NULL::pg_catalog.float8, NULL::pg_catalog.float8), (g.max_len, g.n_long, NULL, NULL, NULL), (-1, g.n_odd, NULL, NULL, NULL), (1, g.n_any, g.c1, g.m1, g.v1), (2, g.n_full, g.c2, g.m2, g.v2), (3, g.n_full, g.c3, g.m3, g.v3)) AS x(o, n, nv, mean, var) WHERE x.n > 0 AND (x.o IS NULL OR x.o BETWEEN 1 AND 3 OR x.o = g.max_len OR x.o = -1)

-- statement 23
SELECT EXISTS (SELECT 1 FROM pg_temp."madnb_stats_<hex1>" AS s WHERE s.o = -1) AS odd

-- statement 24
SELECT s.o, CASE WHEN pg_catalog.num_nulls(s.cls) OPERATOR(pg_catalog.=) 0 THEN pg_catalog.format('%s'::pg_catalog.text, s.cls) END AS cls, s.mean, s.var FROM pg_temp."madnb_stats_<hex1>" AS s WHERE s.o OPERATOR(pg_catalog.=) ANY ('{1,2,3}'::pg_catalog.int4[]) AND (s.mean OPERATOR(pg_catalog.=) ANY (ARRAY['NaN', 'Infinity', '-Infinity']::pg_catalog.float8[]) OR s.var OPERATOR(pg_catalog.=) ANY (ARRAY['NaN', 'Infinity']::pg_catalog.float8[])) ORDER BY s.o LIMIT 1

-- statement 25
SELECT  COALESCE(pg_catalog.sum(n) FILTER (WHERE cls IS NULL AND (o = 1 OR o IS NULL)), 0)::int8 AS null_class_rows, COALESCE(pg_catalog.sum(n) FILTER (WHERE cls IS NOT NULL AND (o = 1 OR o IS NULL)), 0)::int8 AS rows, COALESCE(pg_catalog.sum(n) FILTER (WHERE cls IS NOT NULL AND o = 1), 0)::int8 AS with_attrs, COALESCE(pg_catalog.sum(n) FILTER (WHERE cls IS NOT NULL AND o = 3), 0)::int8 AS full_length, COALESCE(pg_catalog.max(o) FILTER (WHERE cls IS NOT NULL), 0)::int8 AS max_len, pg_catalog.count(DISTINCT cls)::int8 AS classes FROM pg_temp."madnb_stats_<hex1>" AS s

-- statement 26
SELECT COALESCE(c.collisdeterministic, true) AS det FROM pg_catalog.pg_attribute AS a LEFT JOIN pg_catalog.pg_collation AS c ON c.oid = a.attcollation WHERE a.attrelid = $1 AND a.attname = $2

-- statement 27
SELECT COALESCE(c.collisdeterministic, true) AS det FROM pg_catalog.pg_attribute AS a LEFT JOIN pg_catalog.pg_collation AS c ON c.oid = a.attcollation WHERE a.attrelid = $1 AND a.attname = $2

-- statement 28
DROP TABLE pg_temp."madnb_stats_<hex1>"

-- statement 29
CREATE VIEW "public"."adhoc_gaussian_classify" AS WITH stats_fast AS (SELECT g.cls, x.o, NULL::double precision AS v, x.n, x.nv, x.mean, x.var FROM (SELECT t."sex" AS cls, pg_catalog.count(*) FILTER (WHERE COALESCE(pg_catalog.cardinality(t."attributes"), 0) = 0) AS n_empty, pg_catalog.count(*) FILTER (WHERE pg_catalog.cardinality(t."attributes") > 0) AS n_any, pg_catalog.count(*) FILTER (WHERE pg_catalog.cardinality(t."attributes") >= 3) AS n_full, pg_catalog.count(*) FILTER (WHERE pg_catalog.cardinality(t."attributes") > 3) AS n_long, pg_catalog.max(pg_catalog.cardinality(t."attributes"))::pg_catalog.int4 AS max_len, pg_catalog.count(*) FILTER (WHERE pg_catalog.array_ndims(t."attributes") > 1 OR pg_catalog.array_lower(t."attributes", 1) <> 1) AS n_odd, pg_catalog.count((CASE WHEN t."attributes"[1] OPERATOR(pg_catalog.<>) 'NaN'::pg_catalog.float8 THEN t."attributes"[1] END)::pg_catalog.float8) AS c1, pg_catalog.avg((CASE WHEN t."attributes"[1] OPERATOR(pg_catalog.<>) 'NaN'::pg_catalog.float8 THEN t."attributes"[1] END)::pg_catalog.float8) AS m1, pg_catalog.var_samp((CASE WHEN t."attributes"[1] OPERATOR(pg_catalog.<>) 'NaN'::pg_catalog.float8 THEN t."attributes"[1] END)::pg_catalog.float8) AS v1, pg_catalog.count((CASE WHEN t."attributes"[2] OPERATOR(pg_catalog.<>) 'NaN'::pg_catalog.float8 THEN t."attributes"[2] END)::pg_catalog.float8) AS c2, pg_catalog.avg((CASE WHEN t."attributes"[2] OPERATOR(pg_catalog.<>) 'NaN'::pg_catalog.float8 THEN t."attributes"[2] END)::pg_catalog.float8) AS m2, pg_catalog.var_samp((CASE WHEN t."attributes"[2] OPERATOR(pg_catalog.<>) 'NaN'::pg_catalog.float8 THEN t."attributes"[2] END)::pg_catalog.float8) AS v2, pg_catalog.count((CASE WHEN t."attributes"[3] OPERATOR(pg_catalog.<>) 'NaN'::pg_catalog.float8 THEN t."attributes"[3] END)::pg_catalog.float8) AS c3, pg_catalog.avg((CASE WHEN t."attributes"[3] OPERATOR(pg_catalog.<>) 'NaN'::pg_catalog.float8 THEN t."attributes"[3] END)::pg_catalog.float8) AS m3, pg_catalog.var_samp((CASE WHEN t."attributes"[3] OPERATOR(pg_catalog.<>) 'NaN'::pg_catalog.float8 THEN t."attributes"[3] END)::pg_catalog.float8) AS v3 FROM "public"."gaussian_data" AS t GROUP BY t."sex") AS g CROSS JOIN LATERAL (VALUES (NULL::pg_catalog.int4, g.n_empty, NULL::pg_catalog.int8, NULL::pg_catalog.float8, NULL::pg_catalog.float8), (g.max_len, g.n_long, NULL, NULL, NULL), (-1, g.n_odd, NULL, NULL, NULL), (-2, g.n_any - g.n_full, NULL, NULL, NULL), (1, g.n_any, g.c1, g.m1, g.v1), (2, g.n_full, g.c2, g.m2, g.v2), (3, g.n_full, g.c3, g.m3, g.v3)) AS x(o, n, nv, mean, var) WHERE x.n > 0 AND (x.o IS NULL OR x.o BETWEEN 1 AND 3 OR x.o = g.max_len OR x.o < 0)),
stats AS (SELECT f.* FROM stats_fast AS f WHERE (SELECT NOT EXISTS (SELECT 1 FROM stats_fast AS x WHERE x.o OPERATOR(pg_catalog.<) 0 OR x.o OPERATOR(pg_catalog.>) 3)) UNION ALL SELECT u.* FROM (SELECT t."sex" AS cls, u.o::pg_catalog.int4 AS o, NULL::double precision AS v, pg_catalog.count(*) AS n, pg_catalog.count((CASE WHEN u.val OPERATOR(pg_catalog.<>) 'NaN'::pg_catalog.float8 THEN u.val END)::pg_catalog.float8) AS nv, pg_catalog.avg((CASE WHEN u.val OPERATOR(pg_catalog.<>) 'NaN'::pg_catalog.float8 THEN u.val END)::pg_catalog.float8) AS mean, pg_catalog.var_samp((CASE WHEN u.val OPERATOR(pg_catalog.<>) 'NaN'::pg_catalog.float8 THEN u.val END)::pg_catalog.float8) AS var FROM (SELECT t."sex", t."attributes" FROM (SELECT t."sex", t."attributes" FROM "public"."gaussian_data" AS t LIMIT CASE WHEN (SELECT NOT EXISTS (SELECT 1 FROM stats_fast AS x WHERE x.o OPERATOR(pg_catalog.<) 0 OR x.o OPERATOR(pg_catalog.>) 3)) THEN 0 END) AS t LIMIT CASE WHEN (SELECT NOT EXISTS (SELECT 1 FROM stats_fast AS x WHERE x.o OPERATOR(pg_catalog.<) 0 OR x.o OPERATOR(pg_catalog.>) 3)) THEN 0 END) AS t LEFT JOIN LATERAL pg_catalog.unnest(t."attributes") WITH ORDINALITY AS u(val, o) ON true GROUP BY 1, 2, 3) AS u),
cc AS (SELECT s.cls, pg_catalog.sum(s.n)::pg_catalog.int8 AS class_cnt FROM stats AS s WHERE s.cls IS NOT NULL AND (s.o = 1 OR s.o IS NULL) GROUP BY s.cls),
cp AS (SELECT cc.cls AS class, cc.class_cnt, (pg_catalog.sum(cc.class_cnt) OVER ())::pg_catalog.int8 AS all_cnt FROM cc),
vals AS (SELECT DISTINCT s.o, s.v FROM stats AS s WHERE s.cls IS NOT NULL AND s.v IS NOT NULL),
ac AS (SELECT vals.o, pg_catalog.count(*)::pg_catalog.int8 AS attr_cnt FROM vals GROUP BY vals.o),
fp AS (SELECT cc.cls AS class, vals.o AS attr, vals.v AS value, COALESCE(s.n, 0)::pg_catalog.int8 AS cnt, ac.attr_cnt FROM cc CROSS JOIN vals JOIN ac ON ac.o = vals.o LEFT JOIN stats AS s ON s.cls = cc.cls AND s.o = vals.o AND s.v = vals.v),
np AS (SELECT s.cls AS class, s.o AS attr, s.mean AS attr_mean, s.var AS attr_var, s.nv AS value_cnt FROM stats AS s WHERE s.cls IS NOT NULL AND s.o = ANY ('{1,2,3}'::pg_catalog.int4[])),
cls AS (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM cp AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)),
numb AS (SELECT x.attr, c.pos, x.attr_mean AS mu, x.attr_var AS var, x.value_cnt AS cnt FROM np AS x JOIN cls AS c ON c.class = x.class WHERE x.value_cnt > 0),
numw AS (SELECT b.attr, b.pos, b.mu, GREATEST(COALESCE(b.var, 0), CASE WHEN f.total_var > 0 THEN 1e-09 * f.total_var ELSE 1 END) AS w FROM numb AS b JOIN (SELECT b.attr, pg_catalog.sum(GREATEST(b.cnt - 1, 0) * COALESCE(b.var, 0) + b.cnt * (b.mu - g.gm) * (b.mu - g.gm)) / g.tot AS total_var FROM numb AS b JOIN (SELECT b.attr, pg_catalog.sum(b.cnt * b.mu) / pg_catalog.sum(b.cnt) AS gm, pg_catalog.sum(b.cnt) AS tot FROM numb AS b GROUP BY b.attr) AS g ON g.attr = b.attr GROUP BY b.attr, g.tot) AS f ON f.attr = b.attr),
mdl AS (SELECT DISTINCT ON (m0.checked) m0.checked AS ready, m0.classes, prior || a1 || r1 || mu1 || a2 || r2 || mu2 || nlo || nhi AS g FROM (SELECT pg_catalog.array_agg(c.class ORDER BY c.pos) AS classes, pg_catalog.array_agg((CASE WHEN (c.class_cnt::pg_catalog.float8 / c.all_cnt) > 0 THEN pg_catalog.ln((c.class_cnt::pg_catalog.float8 / c.all_cnt)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) ORDER BY c.pos) AS prior, madnb._check_class_count(pg_catalog.count(*), 2) AS checked FROM cls AS c) AS m0, (SELECT pg_catalog.max(q.mu) FILTER (WHERE q.pos = 1) AS mu1, pg_catalog.max(q.r) FILTER (WHERE q.pos = 1) AS r1, pg_catalog.max(q.a) FILTER (WHERE q.pos = 1) AS a1, pg_catalog.max(q.mu) FILTER (WHERE q.pos = 2) AS mu2, pg_catalog.max(q.r) FILTER (WHERE q.pos = 2) AS r2, pg_catalog.max(q.a) FILTER (WHERE q.pos = 2) AS a2 FROM (SELECT c.pos, pg_catalog.array_agg(COALESCE(w.mu, 0::pg_catalog.float8) ORDER BY g.a) AS mu, pg_catalog.array_agg(COALESCE(pg_catalog.sqrt(0.5 / w.w), 0::pg_catalog.float8) ORDER BY g.a) AS r, pg_catalog.array_agg(COALESCE(-0.5 * pg_catalog.ln(2 * pg_catalog.pi() * w.w), 0::pg_catalog.float8) ORDER BY g.a) AS a FROM cls AS c CROSS JOIN pg_catalog.generate_series(1, 3) AS g(a) LEFT JOIN numw AS w ON w.pos = c.pos AND w.attr = g.a GROUP BY c.pos) AS q) AS m1, (SELECT pg_catalog.array_agg(COALESCE(b.lo, 0::pg_catalog.float8) ORDER BY g.a) AS nlo, pg_catalog.array_agg(COALESCE(b.hi, 0::pg_catalog.float8) ORDER BY g.a) AS nhi FROM pg_catalog.generate_series(1, 3) AS g(a) LEFT JOIN (SELECT w.attr, pg_catalog.min(w.mu) - 1e+100 * pg_catalog.sqrt(pg_catalog.min(w.w)) AS lo, pg_catalog.max(w.mu) + 1e+100 * pg_catalog.sqrt(pg_catalog.min(w.w)) AS hi FROM numw AS w GROUP BY w.attr) AS b ON b.attr = g.a) AS m2, (SELECT pg_catalog.array_agg(x.attr IS NOT NULL ORDER BY g.a) AS isnum FROM pg_catalog.generate_series(1, 3) AS g(a) LEFT JOIN (SELECT DISTINCT y.attr FROM np AS y) AS x ON x.attr = g.a) AS m3)
SELECT q.key, CASE WHEN q.ok THEN pg_catalog.array_remove(ARRAY[CASE WHEN q.l1 >= q.thr THEN q.classes[1] END, CASE WHEN q.l2 >= q.thr THEN q.classes[2] END], NULL) END AS nb_classification FROM (SELECT q.*, GREATEST(q.l1, q.l2) - 1e-12::pg_catalog.float8 * GREATEST(1::pg_catalog.float8, pg_catalog.abs(GREATEST(q.l1, q.l2))) AS thr FROM (SELECT src."id" AS key, m.classes, (pg_catalog.cardinality(src."attributes") OPERATOR(pg_catalog.=) ANY ('{0,3}'::pg_catalog.int4[])) IS NOT FALSE AS ok, m.g1 + COALESCE(m.g3 - (m.g6 * (s.x1 - m.g9)) ^ 2, 0) + COALESCE(m.g4 - (m.g7 * (s.x2 - m.g10)) ^ 2, 0) + COALESCE(m.g5 - (m.g8 * (s.x3 - m.g11)) ^ 2, 0) AS l1, m.g2 + COALESCE(m.g12 - (m.g15 * (s.x1 - m.g18)) ^ 2, 0) + COALESCE(m.g13 - (m.g16 * (s.x2 - m.g19)) ^ 2, 0) + COALESCE(m.g14 - (m.g17 * (s.x3 - m.g20)) ^ 2, 0) AS l2 FROM "public"."gaussian_test" AS src LEFT JOIN (SELECT v.ready, v.classes, CASE WHEN v.ready THEN v.g[1] END AS g1, CASE WHEN v.ready THEN v.g[2] END AS g2, CASE WHEN v.ready THEN v.g[3] END AS g3, CASE WHEN v.ready THEN v.g[4] END AS g4, CASE WHEN v.ready THEN v.g[5] END AS g5, CASE WHEN v.ready THEN v.g[6] END AS g6, CASE WHEN v.ready THEN v.g[7] END AS g7, CASE WHEN v.ready THEN v.g[8] END AS g8, CASE WHEN v.ready THEN v.g[9] END AS g9, CASE WHEN v.ready THEN v.g[10] END AS g10, CASE WHEN v.ready THEN v.g[11] END AS g11, CASE WHEN v.ready THEN v.g[12] END AS g12, CASE WHEN v.ready THEN v.g[13] END AS g13, CASE WHEN v.ready THEN v.g[14] END AS g14, CASE WHEN v.ready THEN v.g[15] END AS g15, CASE WHEN v.ready THEN v.g[16] END AS g16, CASE WHEN v.ready THEN v.g[17] END AS g17, CASE WHEN v.ready THEN v.g[18] END AS g18, CASE WHEN v.ready THEN v.g[19] END AS g19, CASE WHEN v.ready THEN v.g[20] END AS g20, CASE WHEN v.ready THEN v.g[21] END AS g21, CASE WHEN v.ready THEN v.g[22] END AS g22, CASE WHEN v.ready THEN v.g[23] END AS g23, CASE WHEN v.ready THEN v.g[24] END AS g24, CASE WHEN v.ready THEN v.g[25] END AS g25, CASE WHEN v.ready THEN v.g[26] END AS g26 FROM (VALUES ((SELECT mdl.ready FROM mdl), (SELECT mdl.classes FROM mdl), (SELECT mdl.g FROM mdl)), (NULL, NULL, NULL)) AS v(ready, classes, g)) AS m ON m.ready = (pg_catalog.num_nulls(src."id") >= 0) LEFT JOIN LATERAL (SELECT pg_catalog.float8smaller(pg_catalog.float8larger(NULLIF(src."attributes"[1]::pg_catalog.float8, 'NaN'::pg_catalog.float8), m.g21), m.g24) AS x1, pg_catalog.float8smaller(pg_catalog.float8larger(NULLIF(src."attributes"[2]::pg_catalog.float8, 'NaN'::pg_catalog.float8), m.g22), m.g25) AS x2, pg_catalog.float8smaller(pg_catalog.float8larger(NULLIF(src."attributes"[3]::pg_catalog.float8, 'NaN'::pg_catalog.float8), m.g23), m.g26) AS x3) AS s ON m.ready WHERE m.ready OFFSET 0) AS q OFFSET 0) AS q

-- statement 30
COMMENT ON VIEW "public"."adhoc_gaussian_classify" IS 'madnb naive Bayes classification of public.gaussian_test, trained ad hoc from public.gaussian_data on every query'

-- statement 31
SELECT pg_catalog.set_config('search_path', $1, true)

-- view definition of adhoc_gaussian_classify (pg_get_viewdef)
 WITH stats_fast AS (
         SELECT g.cls,
            x.o,
            NULL::double precision AS v,
            x.n,
            x.nv,
            x.mean,
            x.var
           FROM ( SELECT t.sex AS cls,
                    count(*) FILTER (WHERE COALESCE(cardinality(t.attributes), 0) = 0) AS n_empty,
                    count(*) FILTER (WHERE cardinality(t.attributes) > 0) AS n_any,
                    count(*) FILTER (WHERE cardinality(t.attributes) >= 3) AS n_full,
                    count(*) FILTER (WHERE cardinality(t.attributes) > 3) AS n_long,
                    max(cardinality(t.attributes)) AS max_len,
                    count(*) FILTER (WHERE array_ndims(t.attributes) > 1 OR array_lower(t.attributes, 1) <> 1) AS n_odd,
                    count(
                        CASE
                            WHEN t.attributes[1] <> 'NaN'::double precision THEN t.attributes[1]
                            ELSE NULL::double precision
                        END) AS c1,
                    avg(
                        CASE
                            WHEN t.attributes[1] <> 'NaN'::double precision THEN t.attributes[1]
                            ELSE NULL::double precision
                        END) AS m1,
                    var_samp(
                        CASE
                            WHEN t.attributes[1] <> 'NaN'::double precision THEN t.attributes[1]
                            ELSE NULL::double precision
                        END) AS v1,
                    count(
                        CASE
                            WHEN t.attributes[2] <> 'NaN'::double precision THEN t.attributes[2]
                            ELSE NULL::double precision
                        END) AS c2,
                    avg(
                        CASE
                            WHEN t.attributes[2] <> 'NaN'::double precision THEN t.attributes[2]
                            ELSE NULL::double precision
                        END) AS m2,
                    var_samp(
                        CASE
                            WHEN t.attributes[2] <> 'NaN'::double precision THEN t.attributes[2]
                            ELSE NULL::double precision
                        END) AS v2,
                    count(
                        CASE
                            WHEN t.attributes[3] <> 'NaN'::double precision THEN t.attributes[3]
                            ELSE NULL::double precision
                        END) AS c3,
                    avg(
                        CASE
                            WHEN t.attributes[3] <> 'NaN'::double precision THEN t.attributes[3]
                            ELSE NULL::double precision
                        END) AS m3,
                    var_samp(
                        CASE
                            WHEN t.attributes[3] <> 'NaN'::double precision THEN t.attributes[3]
                            ELSE NULL::double precision
                        END) AS v3
                   FROM gaussian_data t
                  GROUP BY t.sex) g
             CROSS JOIN LATERAL ( VALUES (NULL::integer,g.n_empty,NULL::bigint,NULL::double precision,NULL::double precision), (g.max_len,g.n_long,NULL::bigint,NULL::double precision,NULL::double precision), ('-1'::integer,g.n_odd,NULL::bigint,NULL::double precision,NULL::double precision), ('-2'::integer,g.n_any - g.n_full,NULL::bigint,NULL::double precision,NULL::double precision), (1,g.n_any,g.c1,g.m1,g.v1), (2,g.n_full,g.c2,g.m2,g.v2), (3,g.n_full,g.c3,g.m3,g.v3)) x(o, n, nv, mean, var)
          WHERE x.n > 0 AND (x.o IS NULL OR x.o >= 1 AND x.o <= 3 OR x.o = g.max_len OR x.o < 0)
        ), stats AS (
         SELECT f.cls,
            f.o,
            f.v,
            f.n,
            f.nv,
            f.mean,
            f.var
           FROM stats_fast f
          WHERE ( SELECT NOT (EXISTS ( SELECT 1
                           FROM stats_fast x
                          WHERE x.o < 0 OR x.o > 3)))
        UNION ALL
         SELECT u.cls,
            u.o,
            u.v,
            u.n,
            u.nv,
            u.mean,
            u.var
           FROM ( SELECT t.sex AS cls,
                    u_1.o::integer AS o,
                    NULL::double precision AS v,
                    count(*) AS n,
                    count(
                        CASE
                            WHEN u_1.val <> 'NaN'::double precision THEN u_1.val
                            ELSE NULL::double precision
                        END) AS nv,
                    avg(
                        CASE
                            WHEN u_1.val <> 'NaN'::double precision THEN u_1.val
                            ELSE NULL::double precision
                        END) AS mean,
                    var_samp(
                        CASE
                            WHEN u_1.val <> 'NaN'::double precision THEN u_1.val
                            ELSE NULL::double precision
                        END) AS var
                   FROM ( SELECT t_1.sex,
                            t_1.attributes
                           FROM ( SELECT t_2.sex,
                                    t_2.attributes
                                   FROM gaussian_data t_2
                                 LIMIT
CASE
 WHEN ( SELECT NOT (EXISTS ( SELECT 1
      FROM stats_fast x
     WHERE x.o < 0 OR x.o > 3))) THEN 0
 ELSE NULL::integer
END) t_1
                         LIMIT
                                CASE
                                    WHEN ( SELECT NOT (EXISTS ( SELECT 1
    FROM stats_fast x
   WHERE x.o < 0 OR x.o > 3))) THEN 0
                                    ELSE NULL::integer
                                END) t
                     LEFT JOIN LATERAL unnest(t.attributes) WITH ORDINALITY u_1(val, o) ON true
                  GROUP BY t.sex, (u_1.o::integer), NULL::double precision) u
        ), cc AS (
         SELECT s.cls,
            sum(s.n)::bigint AS class_cnt
           FROM stats s
          WHERE s.cls IS NOT NULL AND (s.o = 1 OR s.o IS NULL)
          GROUP BY s.cls
        ), cp AS (
         SELECT cc.cls AS class,
            cc.class_cnt,
            sum(cc.class_cnt) OVER ()::bigint AS all_cnt
           FROM cc
        ), vals AS (
         SELECT DISTINCT s.o,
            s.v
           FROM stats s
          WHERE s.cls IS NOT NULL AND s.v IS NOT NULL
        ), ac AS (
         SELECT vals.o,
            count(*) AS attr_cnt
           FROM vals
          GROUP BY vals.o
        ), fp AS (
         SELECT cc.cls AS class,
            vals.o AS attr,
            vals.v AS value,
            COALESCE(s.n, 0::bigint) AS cnt,
            ac.attr_cnt
           FROM cc
             CROSS JOIN vals
             JOIN ac ON ac.o = vals.o
             LEFT JOIN stats s ON s.cls = cc.cls AND s.o = vals.o AND s.v = vals.v
        ), np AS (
         SELECT s.cls AS class,
            s.o AS attr,
            s.mean AS attr_mean,
            s.var AS attr_var,
            s.nv AS value_cnt
           FROM stats s
          WHERE s.cls IS NOT NULL AND (s.o = ANY ('{1,2,3}'::integer[]))
        ), cls AS (
         SELECT u.class,
            u.class_cnt,
            u.all_cnt,
            u.pos::integer AS pos
           FROM ( SELECT array_agg(m.class ORDER BY m.class) AS c,
                    array_agg(m.class_cnt ORDER BY m.class) AS n,
                    array_agg(m.all_cnt ORDER BY m.class) AS a
                   FROM cp m) s
             CROSS JOIN LATERAL UNNEST(s.c, s.n, s.a) WITH ORDINALITY u(class, class_cnt, all_cnt, pos)
        ), numb AS (
         SELECT x.attr,
            c.pos,
            x.attr_mean AS mu,
            x.attr_var AS var,
            x.value_cnt AS cnt
           FROM np x
             JOIN cls c ON c.class = x.class
          WHERE x.value_cnt > 0
        ), numw AS (
         SELECT b.attr,
            b.pos,
            b.mu,
            GREATEST(COALESCE(b.var, 0::double precision),
                CASE
                    WHEN f.total_var > 0::double precision THEN 0.000000001::double precision * f.total_var
                    ELSE 1::double precision
                END) AS w
           FROM numb b
             JOIN ( SELECT b_1.attr,
                    sum(GREATEST(b_1.cnt - 1, 0::bigint)::double precision * COALESCE(b_1.var, 0::double precision) + b_1.cnt::double precision * (b_1.mu - g.gm) * (b_1.mu - g.gm)) / g.tot::double precision AS total_var
                   FROM numb b_1
                     JOIN ( SELECT b_2.attr,
                            sum(b_2.cnt::double precision * b_2.mu) / sum(b_2.cnt)::double precision AS gm,
                            sum(b_2.cnt) AS tot
                           FROM numb b_2
                          GROUP BY b_2.attr) g ON g.attr = b_1.attr
                  GROUP BY b_1.attr, g.tot) f ON f.attr = b.attr
        ), mdl AS (
         SELECT DISTINCT ON (m0.checked) m0.checked AS ready,
            m0.classes,
            (((((((m0.prior || m1.a1) || m1.r1) || m1.mu1) || m1.a2) || m1.r2) || m1.mu2) || m2.nlo) || m2.nhi AS g
           FROM ( SELECT array_agg(c.class ORDER BY c.pos) AS classes,
                    array_agg(
                        CASE
                            WHEN (c.class_cnt::double precision / c.all_cnt::double precision) > 0::double precision THEN ln(c.class_cnt::double precision / c.all_cnt::double precision)
                            ELSE '-Infinity'::double precision
                        END ORDER BY c.pos) AS prior,
                    _check_class_count(count(*), 2) AS checked
                   FROM cls c) m0,
            ( SELECT max(q_1.mu) FILTER (WHERE q_1.pos = 1) AS mu1,
                    max(q_1.r) FILTER (WHERE q_1.pos = 1) AS r1,
                    max(q_1.a) FILTER (WHERE q_1.pos = 1) AS a1,
                    max(q_1.mu) FILTER (WHERE q_1.pos = 2) AS mu2,
                    max(q_1.r) FILTER (WHERE q_1.pos = 2) AS r2,
                    max(q_1.a) FILTER (WHERE q_1.pos = 2) AS a2
                   FROM ( SELECT c.pos,
                            array_agg(COALESCE(w.mu, 0::double precision) ORDER BY g.a) AS mu,
                            array_agg(COALESCE(sqrt(0.5::double precision / w.w), 0::double precision) ORDER BY g.a) AS r,
                            array_agg(COALESCE('-0.5'::numeric::double precision * ln(2::double precision * pi() * w.w), 0::double precision) ORDER BY g.a) AS a
                           FROM cls c
                             CROSS JOIN generate_series(1, 3) g(a)
                             LEFT JOIN numw w ON w.pos = c.pos AND w.attr = g.a
                          GROUP BY c.pos) q_1) m1,
            ( SELECT array_agg(COALESCE(b.lo, 0::double precision) ORDER BY g.a) AS nlo,
                    array_agg(COALESCE(b.hi, 0::double precision) ORDER BY g.a) AS nhi
                   FROM generate_series(1, 3) g(a)
                     LEFT JOIN ( SELECT w.attr,
                            min(w.mu) - '10000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'::numeric::double precision * sqrt(min(w.w)) AS lo,
                            max(w.mu) + '10000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'::numeric::double precision * sqrt(min(w.w)) AS hi
                           FROM numw w
                          GROUP BY w.attr) b ON b.attr = g.a) m2,
            ( SELECT array_agg(x.attr IS NOT NULL ORDER BY g.a) AS isnum
                   FROM generate_series(1, 3) g(a)
                     LEFT JOIN ( SELECT DISTINCT y.attr
                           FROM np y) x ON x.attr = g.a) m3
        )
 SELECT q.key,
        CASE
            WHEN q.ok THEN array_remove(ARRAY[
            CASE
                WHEN q.l1 >= q.thr THEN q.classes[1]
                ELSE NULL::integer
            END,
            CASE
                WHEN q.l2 >= q.thr THEN q.classes[2]
                ELSE NULL::integer
            END], NULL::integer)
            ELSE NULL::integer[]
        END AS nb_classification
   FROM ( SELECT q_1.key,
            q_1.classes,
            q_1.ok,
            q_1.l1,
            q_1.l2,
            GREATEST(q_1.l1, q_1.l2) - 0.000000000001::double precision * GREATEST(1::double precision, abs(GREATEST(q_1.l1, q_1.l2))) AS thr
           FROM ( SELECT src.id AS key,
                    m.classes,
                    (cardinality(src.attributes) = ANY ('{0,3}'::integer[])) IS NOT FALSE AS ok,
                    m.g1 + COALESCE(m.g3 - ((m.g6 * (s.x1 - m.g9)) ^ 2::double precision), 0::double precision) + COALESCE(m.g4 - ((m.g7 * (s.x2 - m.g10)) ^ 2::double precision), 0::double precision) + COALESCE(m.g5 - ((m.g8 * (s.x3 - m.g11)) ^ 2::double precision), 0::double precision) AS l1,
                    m.g2 + COALESCE(m.g12 - ((m.g15 * (s.x1 - m.g18)) ^ 2::double precision), 0::double precision) + COALESCE(m.g13 - ((m.g16 * (s.x2 - m.g19)) ^ 2::double precision), 0::double precision) + COALESCE(m.g14 - ((m.g17 * (s.x3 - m.g20)) ^ 2::double precision), 0::double precision) AS l2
                   FROM gaussian_test src
                     LEFT JOIN ( SELECT v.ready,
                            v.classes,
                                CASE
                                    WHEN v.ready THEN v.g[1]
                                    ELSE NULL::double precision
                                END AS g1,
                                CASE
                                    WHEN v.ready THEN v.g[2]
                                    ELSE NULL::double precision
                                END AS g2,
                                CASE
                                    WHEN v.ready THEN v.g[3]
                                    ELSE NULL::double precision
                                END AS g3,
                                CASE
                                    WHEN v.ready THEN v.g[4]
                                    ELSE NULL::double precision
                                END AS g4,
                                CASE
                                    WHEN v.ready THEN v.g[5]
                                    ELSE NULL::double precision
                                END AS g5,
                                CASE
                                    WHEN v.ready THEN v.g[6]
                                    ELSE NULL::double precision
                                END AS g6,
                                CASE
                                    WHEN v.ready THEN v.g[7]
                                    ELSE NULL::double precision
                                END AS g7,
                                CASE
                                    WHEN v.ready THEN v.g[8]
                                    ELSE NULL::double precision
                                END AS g8,
                                CASE
                                    WHEN v.ready THEN v.g[9]
                                    ELSE NULL::double precision
                                END AS g9,
                                CASE
                                    WHEN v.ready THEN v.g[10]
                                    ELSE NULL::double precision
                                END AS g10,
                                CASE
                                    WHEN v.ready THEN v.g[11]
                                    ELSE NULL::double precision
                                END AS g11,
                                CASE
                                    WHEN v.ready THEN v.g[12]
                                    ELSE NULL::double precision
                                END AS g12,
                                CASE
                                    WHEN v.ready THEN v.g[13]
                                    ELSE NULL::double precision
                                END AS g13,
                                CASE
                                    WHEN v.ready THEN v.g[14]
                                    ELSE NULL::double precision
                                END AS g14,
                                CASE
                                    WHEN v.ready THEN v.g[15]
                                    ELSE NULL::double precision
                                END AS g15,
                                CASE
                                    WHEN v.ready THEN v.g[16]
                                    ELSE NULL::double precision
                                END AS g16,
                                CASE
                                    WHEN v.ready THEN v.g[17]
                                    ELSE NULL::double precision
                                END AS g17,
                                CASE
                                    WHEN v.ready THEN v.g[18]
                                    ELSE NULL::double precision
                                END AS g18,
                                CASE
                                    WHEN v.ready THEN v.g[19]
                                    ELSE NULL::double precision
                                END AS g19,
                                CASE
                                    WHEN v.ready THEN v.g[20]
                                    ELSE NULL::double precision
                                END AS g20,
                                CASE
                                    WHEN v.ready THEN v.g[21]
                                    ELSE NULL::double precision
                                END AS g21,
                                CASE
                                    WHEN v.ready THEN v.g[22]
                                    ELSE NULL::double precision
                                END AS g22,
                                CASE
                                    WHEN v.ready THEN v.g[23]
                                    ELSE NULL::double precision
                                END AS g23,
                                CASE
                                    WHEN v.ready THEN v.g[24]
                                    ELSE NULL::double precision
                                END AS g24,
                                CASE
                                    WHEN v.ready THEN v.g[25]
                                    ELSE NULL::double precision
                                END AS g25,
                                CASE
                                    WHEN v.ready THEN v.g[26]
                                    ELSE NULL::double precision
                                END AS g26
                           FROM ( VALUES (( SELECT mdl.ready
   FROM mdl),( SELECT mdl.classes
   FROM mdl),( SELECT mdl.g
   FROM mdl)), (NULL::boolean,NULL::integer[],NULL::double precision[])) v(ready, classes, g)) m ON m.ready = (num_nulls(src.id) >= 0)
                     LEFT JOIN LATERAL ( SELECT float8smaller(float8larger(NULLIF(src.attributes[1], 'NaN'::double precision), m.g21), m.g24) AS x1,
                            float8smaller(float8larger(NULLIF(src.attributes[2], 'NaN'::double precision), m.g22), m.g25) AS x2,
                            float8smaller(float8larger(NULLIF(src.attributes[3], 'NaN'::double precision), m.g23), m.g26) AS x3) s ON m.ready
                  WHERE m.ready
                 OFFSET 0) q_1
         OFFSET 0) q;
