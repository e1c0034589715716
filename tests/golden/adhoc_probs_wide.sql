-- golden SQL of: SELECT madnb.create_nb_probs_view('wide', 'class', 'attributes', 'wide', 'id', 'attributes', 130, 'adhoc_wide_probs')
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
CREATE TEMPORARY TABLE pg_temp."madnb_shape_<hex1>" ON COMMIT DROP AS SELECT t."class" AS cls, pg_catalog.count(*) AS n_rows, pg_catalog.count(*) FILTER (WHERE COALESCE(pg_catalog.cardinality(t."attributes"), 0) = 0) AS n_empty, pg_catalog.count(*) FILTER (WHERE pg_catalog.cardinality(t."attributes") > 0 AND pg_catalog.cardinality(t."attributes") <> 130) AS n_other FROM "public"."wide" AS t GROUP BY 1

-- statement 23
SELECT EXISTS (SELECT 1 FROM pg_temp."madnb_shape_<hex1>" AS h WHERE h.cls IS NOT NULL AND h.n_other > 0) AS odd

-- statement 24
SELECT pg_catalog.current_setting($1) AS v

-- statement 25
SELECT pg_catalog.set_config($1, $2, true)

-- statement 26
CREATE TEMPORARY TABLE pg_temp."madnb_stats_<hex2>" ON COMMIT DROP AS SELECT g.cls, (g.k OPERATOR(pg_catalog.&) 134217727::pg_catalog.int8)::pg_catalog.int4 AS o, (g.k OPERATOR(pg_catalog.>>) 27)::integer AS v, g.n, NULL::pg_catalog.int8 AS nv, NULL::pg_catalog.float8 AS mean, NULL::pg_catalog.float8 AS var FROM (SELECT e.cls, e.k, pg_catalog.count(*) AS n FROM (SELECT t."class" AS cls, (((pg_catalog.unnest(t."attributes"))::pg_catalog.int8 OPERATOR(pg_catalog.*) 134217728) OPERATOR(pg_catalog.+) pg_catalog.unnest('{1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79,80,81,82,83,84,85,86,87,88,89,90,91,92,93,94,95,96,97,98,99,100,101,102,103,104,105,106,107,108,109,110,111,112,113,114,115,116,117,118,119,120,121,122,123,124,125,126,127,128,129,130}'::pg_catalog.int8[])) AS k FROM "public"."wide" AS t WHERE t."class" IS NOT NULL) AS e GROUP BY 1, 2 OFFSET 0) AS g WHERE g.k IS NOT NULL

-- statement 27
SELECT pg_catalog.set_config($1, $2, true)

-- statement 28
INSERT INTO pg_temp."madnb_stats_<hex2>" SELECT h.cls, g.o::pg_catalog.int4, NULL::integer, (h.n_rows - h.n_empty - COALESCE(x.n, 0))::pg_catalog.int8, NULL::pg_catalog.int8, NULL::pg_catalog.float8, NULL::pg_catalog.float8 FROM pg_temp."madnb_shape_<hex1>" AS h CROSS JOIN pg_catalog.generate_series(1, 130) AS g(o) LEFT JOIN (SELECT s.cls, s.o, pg_catalog.sum(s.n) AS n FROM pg_temp."madnb_stats_<hex2>" AS s GROUP BY 1, 2) AS x ON x.cls = h.cls AND x.o = g.o WHERE h.cls IS NOT NULL AND h.n_rows - h.n_empty - COALESCE(x.n, 0) > 0 UNION ALL SELECT h.cls, NULL, NULL, h.n_empty, NULL::pg_catalog.int8, NULL::pg_catalog.float8, NULL::pg_catalog.float8 FROM pg_temp."madnb_shape_<hex1>" AS h WHERE h.cls IS NOT NULL AND h.n_empty > 0 UNION ALL SELECT h.cls, NULL, NULL, h.n_rows, NULL::pg_catalog.int8, NULL::pg_catalog.float8, NULL::pg_catalog.float8 FROM pg_temp."madnb_shape_<hex1>" AS h WHERE h.cls IS NULL

-- statement 29
DROP TABLE pg_temp."madnb_shape_<hex1>"

-- statement 30
SELECT  COALESCE(pg_catalog.sum(n) FILTER (WHERE cls IS NULL AND (o = 1 OR o IS NULL)), 0)::int8 AS null_class_rows, COALESCE(pg_catalog.sum(n) FILTER (WHERE cls IS NOT NULL AND (o = 1 OR o IS NULL)), 0)::int8 AS rows, COALESCE(pg_catalog.sum(n) FILTER (WHERE cls IS NOT NULL AND o = 1), 0)::int8 AS with_attrs, COALESCE(pg_catalog.sum(n) FILTER (WHERE cls IS NOT NULL AND o = 130), 0)::int8 AS full_length, COALESCE(pg_catalog.max(o) FILTER (WHERE cls IS NOT NULL), 0)::int8 AS max_len, pg_catalog.count(DISTINCT cls)::int8 AS classes FROM pg_temp."madnb_stats_<hex2>" AS s

-- statement 31
SELECT COALESCE(c.collisdeterministic, true) AS det FROM pg_catalog.pg_attribute AS a LEFT JOIN pg_catalog.pg_collation AS c ON c.oid = a.attcollation WHERE a.attrelid = $1 AND a.attname = $2

-- statement 32
SELECT COALESCE(c.collisdeterministic, true) AS det FROM pg_catalog.pg_attribute AS a LEFT JOIN pg_catalog.pg_collation AS c ON c.oid = a.attcollation WHERE a.attrelid = $1 AND a.attname = $2

-- statement 33
WITH cc AS (SELECT s.cls, pg_catalog.sum(s.n)::pg_catalog.int8 AS class_cnt FROM pg_temp."madnb_stats_<hex2>" AS s WHERE s.cls IS NOT NULL AND (s.o = 1 OR s.o IS NULL) GROUP BY s.cls),
cp AS (SELECT cc.cls AS class, cc.class_cnt, (pg_catalog.sum(cc.class_cnt) OVER ())::pg_catalog.int8 AS all_cnt FROM cc),
vals AS (SELECT DISTINCT s.o, s.v FROM pg_temp."madnb_stats_<hex2>" AS s WHERE s.cls IS NOT NULL AND s.v IS NOT NULL),
ac AS (SELECT vals.o, pg_catalog.count(*)::pg_catalog.int8 AS attr_cnt FROM vals GROUP BY vals.o),
fp AS (SELECT cc.cls AS class, vals.o AS attr, vals.v AS value, COALESCE(s.n, 0)::pg_catalog.int8 AS cnt, ac.attr_cnt FROM cc CROSS JOIN vals JOIN ac ON ac.o = vals.o LEFT JOIN pg_temp."madnb_stats_<hex2>" AS s ON s.cls = cc.cls AND s.o = vals.o AND s.v = vals.v),
np AS (SELECT s.cls AS class, s.o AS attr, s.mean AS attr_mean, s.var AS attr_var, s.nv AS value_cnt FROM pg_temp."madnb_stats_<hex2>" AS s WHERE s.cls IS NOT NULL AND s.o = ANY ('{}'::pg_catalog.int4[]))
SELECT COALESCE(q.whole AND q.lo >= -2147483647 AND q.hi <= 2147483646 AND q.slots <= 4 * q.n + 1024 AND q.slots <= 4000000, false) AS codes, COALESCE(q.whole AND q.lo >= -2147483647 AND q.hi <= 2147483646 AND q.width * 130 <= 4 * q.n + 4096 AND q.width * 260 <= 4000000, false) AS rectangle FROM (SELECT pg_catalog.sum(r.span) AS slots, pg_catalog.sum(r.n) AS n, pg_catalog.bool_and(r.whole) AS whole, pg_catalog.min(r.lo) AS lo, pg_catalog.max(r.hi) AS hi, pg_catalog.max(r.hi) - pg_catalog.min(r.lo) + 1 AS width FROM (SELECT pg_catalog.min(f.value)::pg_catalog.numeric AS lo, pg_catalog.max(f.value)::pg_catalog.numeric AS hi, pg_catalog.max(f.value)::pg_catalog.numeric - pg_catalog.min(f.value)::pg_catalog.numeric + 1 AS span, pg_catalog.count(*) AS n, true AS whole FROM fp AS f GROUP BY f.attr) AS r) AS q

-- statement 34
DROP TABLE pg_temp."madnb_stats_<hex2>"

-- statement 35
CREATE VIEW "public"."adhoc_wide_probs" AS WITH stats AS (SELECT t."class" AS cls, u.o::pg_catalog.int4 AS o, u.val AS v, pg_catalog.count(*) AS n, NULL::pg_catalog.int8 AS nv, NULL::pg_catalog.float8 AS mean, NULL::pg_catalog.float8 AS var FROM "public"."wide" AS t LEFT JOIN LATERAL pg_catalog.unnest(t."attributes") WITH ORDINALITY AS u(val, o) ON true GROUP BY 1, 2, 3),
cc AS (SELECT s.cls, pg_catalog.sum(s.n)::pg_catalog.int8 AS class_cnt FROM stats AS s WHERE s.cls IS NOT NULL AND (s.o = 1 OR s.o IS NULL) GROUP BY s.cls),
cp AS (SELECT cc.cls AS class, cc.class_cnt, (pg_catalog.sum(cc.class_cnt) OVER ())::pg_catalog.int8 AS all_cnt FROM cc),
vals AS (SELECT DISTINCT s.o, s.v FROM stats AS s WHERE s.cls IS NOT NULL AND s.v IS NOT NULL),
ac AS (SELECT vals.o, pg_catalog.count(*)::pg_catalog.int8 AS attr_cnt FROM vals GROUP BY vals.o),
fp AS (SELECT cc.cls AS class, vals.o AS attr, vals.v AS value, COALESCE(s.n, 0)::pg_catalog.int8 AS cnt, ac.attr_cnt FROM cc CROSS JOIN vals JOIN ac ON ac.o = vals.o LEFT JOIN stats AS s ON s.cls = cc.cls AND s.o = vals.o AND s.v = vals.v),
np AS (SELECT s.cls AS class, s.o AS attr, s.mean AS attr_mean, s.var AS attr_var, s.nv AS value_cnt FROM stats AS s WHERE s.cls IS NOT NULL AND s.o = ANY ('{}'::pg_catalog.int4[])),
cls AS (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM cp AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)),
rect AS (SELECT pg_catalog.min(f.value)::pg_catalog.int8 - 1 AS lo0, pg_catalog.max(f.value)::pg_catalog.int8 + 1 AS hi1, pg_catalog.max(f.value)::pg_catalog.int8 - pg_catalog.min(f.value)::pg_catalog.int8 + 1 AS w FROM fp AS f)
SELECT q.key, q.classes[c.i] AS class, CASE WHEN q.ok THEN COALESCE(pg_catalog.exp(CASE c.i WHEN 1 THEN q.d1 WHEN 2 THEN q.d2 END - q.lse), 0) END AS nb_prob FROM (SELECT q.*, pg_catalog.ln(COALESCE(pg_catalog.exp(q.d1), 0) + COALESCE(pg_catalog.exp(q.d2), 0)) AS lse FROM (SELECT q.key, q.classes, q.ok, CASE WHEN q.l1 - q.mx < -700 THEN NULL ELSE q.l1 - q.mx END AS d1, CASE WHEN q.l2 - q.mx < -700 THEN NULL ELSE q.l2 - q.mx END AS d2 FROM (SELECT q.*, GREATEST(q.l1, q.l2) AS mx FROM (SELECT src."id" AS key, m.classes, (pg_catalog.cardinality(src."attributes") OPERATOR(pg_catalog.=) ANY ('{0,130}'::pg_catalog.int4[])) IS NOT FALSE AS ok, m.prior[1] + COALESCE(z.s1, 0) AS l1, m.prior[2] + COALESCE(z.s2, 0) AS l2 FROM "public"."wide" AS src CROSS JOIN (SELECT m0.checked AS ready, * FROM (SELECT pg_catalog.array_agg(c.class ORDER BY c.pos) AS classes, pg_catalog.array_agg((CASE WHEN (c.class_cnt::pg_catalog.float8 / c.all_cnt) > 0 THEN pg_catalog.ln((c.class_cnt::pg_catalog.float8 / c.all_cnt)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) ORDER BY c.pos) AS prior, madnb._check_class_count(pg_catalog.count(*), 2) AS checked FROM cls AS c) AS m0, (SELECT pg_catalog.max(q.arr) FILTER (WHERE q.pos = 1) AS lut1, pg_catalog.max(q.arr) FILTER (WHERE q.pos = 2) AS lut2 FROM (SELECT r.pos, pg_catalog.array_agg(e.lp ORDER BY r.a, e.s) AS arr FROM (SELECT c.pos, g.a, pg_catalog.array_agg(COALESCE(x.lp, 0::pg_catalog.float8) ORDER BY s.s) AS arr FROM cls AS c CROSS JOIN pg_catalog.generate_series(1, 130) AS g(a) CROSS JOIN (SELECT b.hi1 - b.lo0 - 1 AS w FROM rect AS b) AS b CROSS JOIN LATERAL pg_catalog.unnest(pg_catalog.array_fill(0, ARRAY[b.w::pg_catalog.int4])) WITH ORDINALITY AS s(z, s) LEFT JOIN (SELECT x.attr, x.pos, (x.value::pg_catalog.int8 - b.lo0)::pg_catalog.int4 AS slot, x.lp FROM (SELECT f.attr, f.value, c.pos, CASE WHEN 1.0::pg_catalog.float8 <= 1000000.0::pg_catalog.float8 THEN (CASE WHEN (f.cnt + 1.0::pg_catalog.float8) > 0 THEN pg_catalog.ln((f.cnt + 1.0::pg_catalog.float8)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) - (CASE WHEN (n.cnt + 1.0::pg_catalog.float8 * f.attr_cnt) > 0 THEN pg_catalog.ln((n.cnt + 1.0::pg_catalog.float8 * f.attr_cnt)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) ELSE (CASE WHEN (f.cnt / 1.0::pg_catalog.float8 + 1) > 0 THEN pg_catalog.ln((f.cnt / 1.0::pg_catalog.float8 + 1)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) - (CASE WHEN (n.cnt / 1.0::pg_catalog.float8 + f.attr_cnt) > 0 THEN pg_catalog.ln((n.cnt / 1.0::pg_catalog.float8 + f.attr_cnt)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) END AS lp FROM fp AS f JOIN cls AS c ON c.class = f.class JOIN (SELECT g.class, g.attr, pg_catalog.sum(g.cnt) AS cnt FROM fp AS g GROUP BY g.class, g.attr) AS n ON n.class = f.class AND n.attr = f.attr) AS x CROSS JOIN rect AS b) AS x ON x.pos = c.pos AND x.attr = g.a AND x.slot = s.s WHERE madnb._check_code_slots(b.w::pg_catalog.int8 * 260, 4000000) > 0 GROUP BY c.pos, g.a) AS r CROSS JOIN LATERAL pg_catalog.unnest(r.arr) WITH ORDINALITY AS e(lp, s) GROUP BY r.pos) AS q) AS m1, rect AS m2 OFFSET 0) AS m CROSS JOIN LATERAL (SELECT pg_catalog.sum(m.lut1[w.i]) AS s1, pg_catalog.sum(m.lut2[w.i]) AS s2 FROM (SELECT (CASE WHEN u.v > m.lo0 AND u.v < m.hi1 THEN ((u.o - 1) * m.w + (u.v - m.lo0))::pg_catalog.int4 END) AS i FROM (SELECT pg_catalog.unnest(src."attributes") AS v, pg_catalog.unnest('{1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79,80,81,82,83,84,85,86,87,88,89,90,91,92,93,94,95,96,97,98,99,100,101,102,103,104,105,106,107,108,109,110,111,112,113,114,115,116,117,118,119,120,121,122,123,124,125,126,127,128,129,130}'::pg_catalog.int8[]) AS o) AS u WHERE u.o <= 130 OFFSET 0) AS w) AS z WHERE m.ready OFFSET 0) AS q OFFSET 0) AS q OFFSET 0) AS q OFFSET 0) AS q CROSS JOIN pg_catalog.generate_series(1, 2) AS c(i)

-- statement 36
COMMENT ON VIEW "public"."adhoc_wide_probs" IS 'madnb naive Bayes class probabilities of public.wide, trained ad hoc from public.wide on every query'

-- statement 37
SELECT pg_catalog.set_config('search_path', $1, true)

-- view definition of adhoc_wide_probs (pg_get_viewdef)
 WITH stats AS (
         SELECT t.class AS cls,
            u.o::integer AS o,
            u.val AS v,
            count(*) AS n,
            NULL::bigint AS nv,
            NULL::double precision AS mean,
            NULL::double precision AS var
           FROM wide t
             LEFT JOIN LATERAL unnest(t.attributes) WITH ORDINALITY u(val, o) ON true
          GROUP BY t.class, (u.o::integer), u.val
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
          WHERE s.cls IS NOT NULL AND (s.o = ANY ('{}'::integer[]))
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
        ), rect AS (
         SELECT min(f.value)::bigint - 1 AS lo0,
            max(f.value)::bigint + 1 AS hi1,
            max(f.value)::bigint - min(f.value)::bigint + 1 AS w
           FROM fp f
        )
 SELECT q.key,
    q.classes[c.i] AS class,
        CASE
            WHEN q.ok THEN COALESCE(exp(
            CASE c.i
                WHEN 1 THEN q.d1
                WHEN 2 THEN q.d2
                ELSE NULL::double precision
            END - q.lse), 0::double precision)
            ELSE NULL::double precision
        END AS nb_prob
   FROM ( SELECT q_1.key,
            q_1.classes,
            q_1.ok,
            q_1.d1,
            q_1.d2,
            ln(COALESCE(exp(q_1.d1), 0::double precision) + COALESCE(exp(q_1.d2), 0::double precision)) AS lse
           FROM ( SELECT q_2.key,
                    q_2.classes,
                    q_2.ok,
                        CASE
                            WHEN (q_2.l1 - q_2.mx) < '-700'::integer::double precision THEN NULL::double precision
                            ELSE q_2.l1 - q_2.mx
                        END AS d1,
                        CASE
                            WHEN (q_2.l2 - q_2.mx) < '-700'::integer::double precision THEN NULL::double precision
                            ELSE q_2.l2 - q_2.mx
                        END AS d2
                   FROM ( SELECT q_3.key,
                            q_3.classes,
                            q_3.ok,
                            q_3.l1,
                            q_3.l2,
                            GREATEST(q_3.l1, q_3.l2) AS mx
                           FROM ( SELECT src.id AS key,
                                    m.classes,
                                    (cardinality(src.attributes) = ANY ('{0,130}'::integer[])) IS NOT FALSE AS ok,
                                    m.prior[1] + COALESCE(z.s1, 0::double precision) AS l1,
                                    m.prior[2] + COALESCE(z.s2, 0::double precision) AS l2
                                   FROM wide src
                                     CROSS JOIN ( SELECT m0.checked AS ready,
    m0.classes,
    m0.prior,
    m0.checked,
    m1.lut1,
    m1.lut2,
    m2.lo0,
    m2.hi1,
    m2.w
   FROM ( SELECT array_agg(c_1.class ORDER BY c_1.pos) AS classes,
      array_agg(
    CASE
     WHEN (c_1.class_cnt::double precision / c_1.all_cnt::double precision) > 0::double precision THEN ln(c_1.class_cnt::double precision / c_1.all_cnt::double precision)
     ELSE '-Infinity'::double precision
    END ORDER BY c_1.pos) AS prior,
      _check_class_count(count(*), 2) AS checked
     FROM cls c_1) m0,
    ( SELECT max(q_4.arr) FILTER (WHERE q_4.pos = 1) AS lut1,
      max(q_4.arr) FILTER (WHERE q_4.pos = 2) AS lut2
     FROM ( SELECT r.pos,
        array_agg(e.lp ORDER BY r.a, e.s) AS arr
       FROM ( SELECT c_1.pos,
          g.a,
          array_agg(COALESCE(x.lp, 0::double precision) ORDER BY s.s) AS arr
         FROM cls c_1
           CROSS JOIN generate_series(1, 130) g(a)
           CROSS JOIN ( SELECT b_1.hi1 - b_1.lo0 - 1 AS w
           FROM rect b_1) b
           CROSS JOIN LATERAL unnest(array_fill(0, ARRAY[b.w::integer])) WITH ORDINALITY s(z, s)
           LEFT JOIN ( SELECT x_1.attr,
            x_1.pos,
            (x_1.value::bigint - b_1.lo0)::integer AS slot,
            x_1.lp
           FROM ( SELECT f.attr,
              f.value,
              c_2.pos,
            CASE
             WHEN 1.0::double precision <= 1000000.0::double precision THEN
             CASE
              WHEN (f.cnt::double precision + 1.0::double precision) > 0::double precision THEN ln(f.cnt::double precision + 1.0::double precision)
              ELSE '-Infinity'::double precision
             END -
             CASE
              WHEN (n.cnt::double precision + 1.0::double precision * f.attr_cnt::double precision) > 0::double precision THEN ln(n.cnt::double precision + 1.0::double precision * f.attr_cnt::double precision)
              ELSE '-Infinity'::double precision
             END
             ELSE
             CASE
              WHEN (f.cnt::double precision / 1.0::double precision + 1::double precision) > 0::double precision THEN ln(f.cnt::double precision / 1.0::double precision + 1::double precision)
              ELSE '-Infinity'::double precision
             END -
             CASE
              WHEN (n.cnt::double precision / 1.0::double precision + f.attr_cnt::double precision) > 0::double precision THEN ln(n.cnt::double precision / 1.0::double precision + f.attr_cnt::double precision)
              ELSE '-Infinity'::double precision
             END
            END AS lp
             FROM fp f
               JOIN cls c_2 ON c_2.class = f.class
               JOIN ( SELECT g_1.class,
                g_1.attr,
                sum(g_1.cnt) AS cnt
               FROM fp g_1
              GROUP BY g_1.class, g_1.attr) n ON n.class = f.class AND n.attr = f.attr) x_1
             CROSS JOIN rect b_1) x ON x.pos = c_1.pos AND x.attr = g.a AND x.slot = s.s
        WHERE _check_code_slots(b.w * 260, 4000000) > 0
        GROUP BY c_1.pos, g.a) r
         CROSS JOIN LATERAL unnest(r.arr) WITH ORDINALITY e(lp, s)
      GROUP BY r.pos) q_4) m1,
    rect m2
 OFFSET 0) m
                                     CROSS JOIN LATERAL ( SELECT sum(m.lut1[w.i]) AS s1,
    sum(m.lut2[w.i]) AS s2
   FROM ( SELECT
    CASE
     WHEN u.v > m.lo0 AND u.v < m.hi1 THEN ((u.o - 1) * m.w + (u.v - m.lo0))::integer
     ELSE NULL::integer
    END AS i
     FROM ( SELECT unnest(src.attributes) AS v,
        unnest('{1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79,80,81,82,83,84,85,86,87,88,89,90,91,92,93,94,95,96,97,98,99,100,101,102,103,104,105,106,107,108,109,110,111,112,113,114,115,116,117,118,119,120,121,122,123,124,125,126,127,128,129,130}'::bigint[]) AS o) u
    WHERE u.o <= 130
   OFFSET 0) w) z
                                  WHERE m.ready
                                 OFFSET 0) q_3
                         OFFSET 0) q_2
                 OFFSET 0) q_1
         OFFSET 0) q
     CROSS JOIN generate_series(1, 2) c(i);
