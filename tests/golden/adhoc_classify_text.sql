-- golden SQL of: SELECT madnb.create_nb_classify_view('words', 'class', 'attributes', 'words_test', 'id', 'attributes', 3, 'adhoc_text_classify')
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
CREATE TEMPORARY TABLE pg_temp."madnb_stats_<hex1>" ON COMMIT DROP AS SELECT t."class" AS cls, u.o::pg_catalog.int4 AS o, u.val AS v, pg_catalog.count(*) AS n, NULL::pg_catalog.int8 AS nv, NULL::pg_catalog.float8 AS mean, NULL::pg_catalog.float8 AS var FROM "public"."words" AS t LEFT JOIN LATERAL pg_catalog.unnest(t."attributes") WITH ORDINALITY AS u(val, o) ON true GROUP BY 1, 2, 3

-- statement 23
SELECT  COALESCE(pg_catalog.sum(n) FILTER (WHERE cls IS NULL AND (o = 1 OR o IS NULL)), 0)::int8 AS null_class_rows, COALESCE(pg_catalog.sum(n) FILTER (WHERE cls IS NOT NULL AND (o = 1 OR o IS NULL)), 0)::int8 AS rows, COALESCE(pg_catalog.sum(n) FILTER (WHERE cls IS NOT NULL AND o = 1), 0)::int8 AS with_attrs, COALESCE(pg_catalog.sum(n) FILTER (WHERE cls IS NOT NULL AND o = 3), 0)::int8 AS full_length, COALESCE(pg_catalog.max(o) FILTER (WHERE cls IS NOT NULL), 0)::int8 AS max_len, pg_catalog.count(DISTINCT cls)::int8 AS classes FROM pg_temp."madnb_stats_<hex1>" AS s

-- statement 24
SELECT COALESCE(c.collisdeterministic, true) AS det FROM pg_catalog.pg_attribute AS a LEFT JOIN pg_catalog.pg_collation AS c ON c.oid = a.attcollation WHERE a.attrelid = $1 AND a.attname = $2

-- statement 25
SELECT COALESCE(c.collisdeterministic, true) AS det FROM pg_catalog.pg_attribute AS a LEFT JOIN pg_catalog.pg_collation AS c ON c.oid = a.attcollation WHERE a.attrelid = $1 AND a.attname = $2

-- statement 26
WITH cc AS (SELECT s.cls, pg_catalog.sum(s.n)::pg_catalog.int8 AS class_cnt FROM pg_temp."madnb_stats_<hex1>" AS s WHERE s.cls IS NOT NULL AND (s.o = 1 OR s.o IS NULL) GROUP BY s.cls),
cp AS (SELECT cc.cls AS class, cc.class_cnt, (pg_catalog.sum(cc.class_cnt) OVER ())::pg_catalog.int8 AS all_cnt FROM cc),
vals AS (SELECT DISTINCT s.o, s.v FROM pg_temp."madnb_stats_<hex1>" AS s WHERE s.cls IS NOT NULL AND s.v IS NOT NULL),
ac AS (SELECT vals.o, pg_catalog.count(*)::pg_catalog.int8 AS attr_cnt FROM vals GROUP BY vals.o),
fp AS (SELECT cc.cls AS class, vals.o AS attr, vals.v AS value, COALESCE(s.n, 0)::pg_catalog.int8 AS cnt, ac.attr_cnt FROM cc CROSS JOIN vals JOIN ac ON ac.o = vals.o LEFT JOIN pg_temp."madnb_stats_<hex1>" AS s ON s.cls = cc.cls AND s.o = vals.o AND s.v = vals.v),
np AS (SELECT s.cls AS class, s.o AS attr, s.mean AS attr_mean, s.var AS attr_var, s.nv AS value_cnt FROM pg_temp."madnb_stats_<hex1>" AS s WHERE s.cls IS NOT NULL AND s.o = ANY ('{}'::pg_catalog.int4[]))
SELECT pg_catalog.max(r.w) AS width, COALESCE(pg_catalog.sum(r.w), 0) AS pairs FROM (SELECT pg_catalog.count(DISTINCT f.value) AS w FROM fp AS f GROUP BY f.attr) AS r

-- statement 27
DROP TABLE pg_temp."madnb_stats_<hex1>"

-- statement 28
CREATE VIEW "public"."adhoc_text_classify" AS WITH stats AS (SELECT t."class" AS cls, u.o::pg_catalog.int4 AS o, u.val AS v, pg_catalog.count(*) AS n, NULL::pg_catalog.int8 AS nv, NULL::pg_catalog.float8 AS mean, NULL::pg_catalog.float8 AS var FROM "public"."words" AS t LEFT JOIN LATERAL pg_catalog.unnest(t."attributes") WITH ORDINALITY AS u(val, o) ON true GROUP BY 1, 2, 3),
cc AS (SELECT s.cls, pg_catalog.sum(s.n)::pg_catalog.int8 AS class_cnt FROM stats AS s WHERE s.cls IS NOT NULL AND (s.o = 1 OR s.o IS NULL) GROUP BY s.cls),
cp AS (SELECT cc.cls AS class, cc.class_cnt, (pg_catalog.sum(cc.class_cnt) OVER ())::pg_catalog.int8 AS all_cnt FROM cc),
vals AS (SELECT DISTINCT s.o, s.v FROM stats AS s WHERE s.cls IS NOT NULL AND s.v IS NOT NULL),
ac AS (SELECT vals.o, pg_catalog.count(*)::pg_catalog.int8 AS attr_cnt FROM vals GROUP BY vals.o),
fp AS (SELECT cc.cls AS class, vals.o AS attr, vals.v AS value, COALESCE(s.n, 0)::pg_catalog.int8 AS cnt, ac.attr_cnt FROM cc CROSS JOIN vals JOIN ac ON ac.o = vals.o LEFT JOIN stats AS s ON s.cls = cc.cls AND s.o = vals.o AND s.v = vals.v),
np AS (SELECT s.cls AS class, s.o AS attr, s.mean AS attr_mean, s.var AS attr_var, s.nv AS value_cnt FROM stats AS s WHERE s.cls IS NOT NULL AND s.o = ANY ('{}'::pg_catalog.int4[])),
cls AS (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM cp AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)),
ranks AS (SELECT d.attr, u.value, u.rank::pg_catalog.int4 AS rank FROM (SELECT f.attr, pg_catalog.array_agg(DISTINCT f.value) AS vals FROM fp AS f GROUP BY f.attr) AS d CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(d.vals)) WITH ORDINALITY AS u(value, rank)),
mdl AS (SELECT DISTINCT ON (m0.checked) m0.checked AS ready, m0.classes, prior AS g, lut1, lut2, js1, js2, js3 FROM (SELECT pg_catalog.array_agg(c.class ORDER BY c.pos) AS classes, pg_catalog.array_agg((CASE WHEN (c.class_cnt::pg_catalog.float8 / c.all_cnt) > 0 THEN pg_catalog.ln((c.class_cnt::pg_catalog.float8 / c.all_cnt)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) ORDER BY c.pos) AS prior, madnb._check_class_count(pg_catalog.count(*), 2) AS checked FROM cls AS c) AS m0, (SELECT pg_catalog.max(q.arr) FILTER (WHERE q.pos = 1) AS lut1, pg_catalog.max(q.arr) FILTER (WHERE q.pos = 2) AS lut2 FROM (SELECT r.pos, pg_catalog.array_agg(r.arr ORDER BY r.a) AS arr FROM (SELECT c.pos, g.a, pg_catalog.array_agg(COALESCE(x.lp, 0::pg_catalog.float8) ORDER BY s.s) AS arr FROM cls AS c CROSS JOIN pg_catalog.generate_series(1, 3) AS g(a) CROSS JOIN (SELECT pg_catalog.max(r.rank) AS w FROM ranks AS r) AS b CROSS JOIN LATERAL pg_catalog.unnest(pg_catalog.array_fill(0, ARRAY[b.w::pg_catalog.int4])) WITH ORDINALITY AS s(z, s) LEFT JOIN (SELECT c.attr, c.pos, r.rank AS slot, c.lp FROM (SELECT f.attr, f.value, c.pos, CASE WHEN 1.0::pg_catalog.float8 <= 1000000.0::pg_catalog.float8 THEN (CASE WHEN (f.cnt + 1.0::pg_catalog.float8) > 0 THEN pg_catalog.ln((f.cnt + 1.0::pg_catalog.float8)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) - (CASE WHEN (n.cnt + 1.0::pg_catalog.float8 * f.attr_cnt) > 0 THEN pg_catalog.ln((n.cnt + 1.0::pg_catalog.float8 * f.attr_cnt)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) ELSE (CASE WHEN (f.cnt / 1.0::pg_catalog.float8 + 1) > 0 THEN pg_catalog.ln((f.cnt / 1.0::pg_catalog.float8 + 1)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) - (CASE WHEN (n.cnt / 1.0::pg_catalog.float8 + f.attr_cnt) > 0 THEN pg_catalog.ln((n.cnt / 1.0::pg_catalog.float8 + f.attr_cnt)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) END AS lp FROM fp AS f JOIN cls AS c ON c.class = f.class JOIN (SELECT g.class, g.attr, pg_catalog.sum(g.cnt) AS cnt FROM fp AS g GROUP BY g.class, g.attr) AS n ON n.class = f.class AND n.attr = f.attr) AS c JOIN ranks AS r ON r.attr = c.attr AND r.value = c.value) AS x ON x.pos = c.pos AND x.attr = g.a AND x.slot = s.s WHERE madnb._check_code_slots(b.w::pg_catalog.int8 * 6, 4000000) > 0 GROUP BY c.pos, g.a) AS r GROUP BY r.pos) AS q) AS m1, (SELECT pg_catalog.jsonb_object_agg((r.value)::pg_catalog.text, r.rank) FILTER (WHERE r.attr = 1) AS js1, pg_catalog.jsonb_object_agg((r.value)::pg_catalog.text, r.rank) FILTER (WHERE r.attr = 2) AS js2, pg_catalog.jsonb_object_agg((r.value)::pg_catalog.text, r.rank) FILTER (WHERE r.attr = 3) AS js3 FROM ranks AS r) AS m2)
SELECT q.key, CASE WHEN q.ok THEN pg_catalog.array_remove(ARRAY[CASE WHEN q.l1 >= q.thr THEN q.classes[1] END, CASE WHEN q.l2 >= q.thr THEN q.classes[2] END], NULL) END AS nb_classification FROM (SELECT q.*, GREATEST(q.l1, q.l2) - 1e-12::pg_catalog.float8 * GREATEST(1::pg_catalog.float8, pg_catalog.abs(GREATEST(q.l1, q.l2))) AS thr FROM (SELECT src."id" AS key, m.classes, (pg_catalog.cardinality(src."attributes") OPERATOR(pg_catalog.=) ANY ('{0,3}'::pg_catalog.int4[])) IS NOT FALSE AS ok, m.g1 + COALESCE(m.lut1[1][s.i1], 0) + COALESCE(m.lut1[2][s.i2], 0) + COALESCE(m.lut1[3][s.i3], 0) AS l1, m.g2 + COALESCE(m.lut2[1][s.i1], 0) + COALESCE(m.lut2[2][s.i2], 0) + COALESCE(m.lut2[3][s.i3], 0) AS l2 FROM "public"."words_test" AS src LEFT JOIN (SELECT v.ready, v.classes, CASE WHEN v.ready THEN v.g[1] END AS g1, CASE WHEN v.ready THEN v.g[2] END AS g2, v.lut1, v.lut2, v.js1, v.js2, v.js3 FROM (VALUES ((SELECT mdl.ready FROM mdl), (SELECT mdl.classes FROM mdl), (SELECT mdl.g FROM mdl), (SELECT mdl.lut1 FROM mdl), (SELECT mdl.lut2 FROM mdl), (SELECT mdl.js1 FROM mdl), (SELECT mdl.js2 FROM mdl), (SELECT mdl.js3 FROM mdl)), (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)) AS v(ready, classes, g, lut1, lut2, js1, js2, js3)) AS m ON m.ready = (pg_catalog.num_nulls(src."id") >= 0) LEFT JOIN LATERAL (SELECT (m.js1 -> (src."attributes"[1])::pg_catalog.text)::pg_catalog.int4 AS i1, (m.js2 -> (src."attributes"[2])::pg_catalog.text)::pg_catalog.int4 AS i2, (m.js3 -> (src."attributes"[3])::pg_catalog.text)::pg_catalog.int4 AS i3) AS s ON m.ready WHERE m.ready OFFSET 0) AS q OFFSET 0) AS q

-- statement 29
COMMENT ON VIEW "public"."adhoc_text_classify" IS 'madnb naive Bayes classification of public.words_test, trained ad hoc from public.words on every query'

-- statement 30
SELECT pg_catalog.set_config('search_path', $1, true)

-- view definition of adhoc_text_classify (pg_get_viewdef)
 WITH stats AS (
         SELECT t.class AS cls,
            u.o::integer AS o,
            u.val AS v,
            count(*) AS n,
            NULL::bigint AS nv,
            NULL::double precision AS mean,
            NULL::double precision AS var
           FROM words t
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
             LEFT JOIN stats s ON s.cls::text = cc.cls::text AND s.o = vals.o AND s.v = vals.v
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
        ), ranks AS (
         SELECT d.attr,
            u.value,
            u.rank::integer AS rank
           FROM ( SELECT f.attr,
                    array_agg(DISTINCT f.value) AS vals
                   FROM fp f
                  GROUP BY f.attr) d
             CROSS JOIN LATERAL unnest(d.vals) WITH ORDINALITY u(value, rank)
        ), mdl AS (
         SELECT DISTINCT ON (m0.checked) m0.checked AS ready,
            m0.classes,
            m0.prior AS g,
            m1.lut1,
            m1.lut2,
            m2.js1,
            m2.js2,
            m2.js3
           FROM ( SELECT array_agg(c.class ORDER BY c.pos) AS classes,
                    array_agg(
                        CASE
                            WHEN (c.class_cnt::double precision / c.all_cnt::double precision) > 0::double precision THEN ln(c.class_cnt::double precision / c.all_cnt::double precision)
                            ELSE '-Infinity'::double precision
                        END ORDER BY c.pos) AS prior,
                    _check_class_count(count(*), 2) AS checked
                   FROM cls c) m0,
            ( SELECT max(q_1.arr) FILTER (WHERE q_1.pos = 1) AS lut1,
                    max(q_1.arr) FILTER (WHERE q_1.pos = 2) AS lut2
                   FROM ( SELECT r.pos,
                            array_agg(r.arr ORDER BY r.a) AS arr
                           FROM ( SELECT c.pos,
                                    g.a,
                                    array_agg(COALESCE(x.lp, 0::double precision) ORDER BY s.s) AS arr
                                   FROM cls c
                                     CROSS JOIN generate_series(1, 3) g(a)
                                     CROSS JOIN ( SELECT max(r_1.rank) AS w
   FROM ranks r_1) b
                                     CROSS JOIN LATERAL unnest(array_fill(0, ARRAY[b.w])) WITH ORDINALITY s(z, s)
                                     LEFT JOIN ( SELECT c_1.attr,
    c_1.pos,
    r_1.rank AS slot,
    c_1.lp
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
       JOIN cls c_2 ON c_2.class::text = f.class::text
       JOIN ( SELECT g_1.class,
        g_1.attr,
        sum(g_1.cnt) AS cnt
       FROM fp g_1
      GROUP BY g_1.class, g_1.attr) n ON n.class::text = f.class::text AND n.attr = f.attr) c_1
     JOIN ranks r_1 ON r_1.attr = c_1.attr AND r_1.value = c_1.value) x ON x.pos = c.pos AND x.attr = g.a AND x.slot = s.s
                                  WHERE _check_code_slots(b.w::bigint * 6, 4000000) > 0
                                  GROUP BY c.pos, g.a) r
                          GROUP BY r.pos) q_1) m1,
            ( SELECT jsonb_object_agg(r.value, r.rank) FILTER (WHERE r.attr = 1) AS js1,
                    jsonb_object_agg(r.value, r.rank) FILTER (WHERE r.attr = 2) AS js2,
                    jsonb_object_agg(r.value, r.rank) FILTER (WHERE r.attr = 3) AS js3
                   FROM ranks r) m2
        )
 SELECT q.key,
        CASE
            WHEN q.ok THEN array_remove(ARRAY[
            CASE
                WHEN q.l1 >= q.thr THEN q.classes[1]
                ELSE NULL::character varying
            END,
            CASE
                WHEN q.l2 >= q.thr THEN q.classes[2]
                ELSE NULL::character varying
            END], NULL::character varying)
            ELSE NULL::character varying[]
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
                    m.g1 + COALESCE(m.lut1[1][s.i1], 0::double precision) + COALESCE(m.lut1[2][s.i2], 0::double precision) + COALESCE(m.lut1[3][s.i3], 0::double precision) AS l1,
                    m.g2 + COALESCE(m.lut2[1][s.i1], 0::double precision) + COALESCE(m.lut2[2][s.i2], 0::double precision) + COALESCE(m.lut2[3][s.i3], 0::double precision) AS l2
                   FROM words_test src
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
                            v.lut1,
                            v.lut2,
                            v.js1,
                            v.js2,
                            v.js3
                           FROM ( VALUES (( SELECT mdl.ready
   FROM mdl),( SELECT mdl.classes
   FROM mdl),( SELECT mdl.g
   FROM mdl),( SELECT mdl.lut1
   FROM mdl),( SELECT mdl.lut2
   FROM mdl),( SELECT mdl.js1
   FROM mdl),( SELECT mdl.js2
   FROM mdl),( SELECT mdl.js3
   FROM mdl)), (NULL::boolean,NULL::character varying[],NULL::double precision[],NULL::double precision[],NULL::double precision[],NULL::jsonb,NULL::jsonb,NULL::jsonb)) v(ready, classes, g, lut1, lut2, js1, js2, js3)) m ON m.ready = (num_nulls(src.id) >= 0)
                     LEFT JOIN LATERAL ( SELECT (m.js1 -> src.attributes[1])::integer AS i1,
                            (m.js2 -> src.attributes[2])::integer AS i2,
                            (m.js3 -> src.attributes[3])::integer AS i3) s ON m.ready
                  WHERE m.ready
                 OFFSET 0) q_1
         OFFSET 0) q;
