-- golden SQL of: SELECT madnb.create_nb_probs_view('spread_fp', 'spread_cp', 'spread', 'id', 'attributes', 3, 'spread_probs')
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
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 8
SELECT pg_catalog.to_regclass($1)::pg_catalog.oid::pg_catalog.int8 AS oid

-- statement 9
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 10
SELECT c.oid::pg_catalog.int8 AS oid, n.nspname::pg_catalog.text AS schema, c.relname::pg_catalog.text AS name, c.relkind::pg_catalog.text AS kind FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace WHERE c.oid OPERATOR(pg_catalog.=) $1

-- statement 11
SELECT pg_catalog.count(*)::pg_catalog.int4 AS k FROM pg_catalog.pg_attribute AS a WHERE a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname::pg_catalog.text OPERATOR(pg_catalog.=) ANY ($2) AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped

-- statement 12
SELECT pg_catalog.count(*)::pg_catalog.int4 AS k FROM pg_catalog.pg_attribute AS a WHERE a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname::pg_catalog.text OPERATOR(pg_catalog.=) ANY ($2) AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped

-- statement 13
WITH RECURSIVE w(ord, name) AS (SELECT u.o, u.n FROM pg_catalog.unnest($2::pg_catalog.name[]) WITH ORDINALITY AS u(n, o)), c AS (SELECT w.ord, a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM w LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) w.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped LEFT JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid), d(ord, oid) AS (SELECT c.ord, COALESCE(c.elemoid, c.typoid)::pg_catalog.oid FROM c WHERE $3 AND c.typoid IS NOT NULL UNION ALL SELECT d.ord, t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT c.name, c.typ, c.typoid, c.elem, c.elemoid, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid OPERATOR(pg_catalog.=) o.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) o.opcnamespace WHERE o.opcdefault AND m.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND o.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d WHERE d.ord OPERATOR(pg_catalog.=) c.ord) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1) AS equality_schema FROM c ORDER BY c.ord

-- statement 14
WITH RECURSIVE w(ord, name) AS (SELECT u.o, u.n FROM pg_catalog.unnest($2::pg_catalog.name[]) WITH ORDINALITY AS u(n, o)), c AS (SELECT w.ord, a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM w LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) w.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped LEFT JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid), d(ord, oid) AS (SELECT c.ord, COALESCE(c.elemoid, c.typoid)::pg_catalog.oid FROM c WHERE $3 AND c.typoid IS NOT NULL UNION ALL SELECT d.ord, t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT c.name, c.typ, c.typoid, c.elem, c.elemoid, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid OPERATOR(pg_catalog.=) o.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) o.opcnamespace WHERE o.opcdefault AND m.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND o.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d WHERE d.ord OPERATOR(pg_catalog.=) c.ord) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1) AS equality_schema FROM c ORDER BY c.ord

-- statement 15
WITH RECURSIVE w(ord, name) AS (SELECT u.o, u.n FROM pg_catalog.unnest($2::pg_catalog.name[]) WITH ORDINALITY AS u(n, o)), c AS (SELECT w.ord, a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM w LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) w.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped LEFT JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid), d(ord, oid) AS (SELECT c.ord, COALESCE(c.elemoid, c.typoid)::pg_catalog.oid FROM c WHERE $3 AND c.typoid IS NOT NULL UNION ALL SELECT d.ord, t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT c.name, c.typ, c.typoid, c.elem, c.elemoid, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid OPERATOR(pg_catalog.=) o.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) o.opcnamespace WHERE o.opcdefault AND m.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND o.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d WHERE d.ord OPERATOR(pg_catalog.=) c.ord) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1) AS equality_schema FROM c ORDER BY c.ord

-- statement 16
WITH RECURSIVE w(ord, name) AS (SELECT u.o, u.n FROM pg_catalog.unnest($2::pg_catalog.name[]) WITH ORDINALITY AS u(n, o)), c AS (SELECT w.ord, a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM w LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) w.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped LEFT JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid), d(ord, oid) AS (SELECT c.ord, COALESCE(c.elemoid, c.typoid)::pg_catalog.oid FROM c WHERE $3 AND c.typoid IS NOT NULL UNION ALL SELECT d.ord, t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT c.name, c.typ, c.typoid, c.elem, c.elemoid, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid OPERATOR(pg_catalog.=) o.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) o.opcnamespace WHERE o.opcdefault AND m.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND o.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d WHERE d.ord OPERATOR(pg_catalog.=) c.ord) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1) AS equality_schema FROM c ORDER BY c.ord

-- statement 17
WITH RECURSIVE w(ord, name) AS (SELECT u.o, u.n FROM pg_catalog.unnest($2::pg_catalog.name[]) WITH ORDINALITY AS u(n, o)), c AS (SELECT w.ord, a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM w LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) w.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped LEFT JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid), d(ord, oid) AS (SELECT c.ord, COALESCE(c.elemoid, c.typoid)::pg_catalog.oid FROM c WHERE $3 AND c.typoid IS NOT NULL UNION ALL SELECT d.ord, t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT c.name, c.typ, c.typoid, c.elem, c.elemoid, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid OPERATOR(pg_catalog.=) o.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) o.opcnamespace WHERE o.opcdefault AND m.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND o.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d WHERE d.ord OPERATOR(pg_catalog.=) c.ord) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1) AS equality_schema FROM c ORDER BY c.ord

-- statement 18
WITH RECURSIVE w(ord, name) AS (SELECT u.o, u.n FROM pg_catalog.unnest($2::pg_catalog.name[]) WITH ORDINALITY AS u(n, o)), c AS (SELECT w.ord, a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM w LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) w.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped LEFT JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid), d(ord, oid) AS (SELECT c.ord, COALESCE(c.elemoid, c.typoid)::pg_catalog.oid FROM c WHERE $3 AND c.typoid IS NOT NULL UNION ALL SELECT d.ord, t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT c.name, c.typ, c.typoid, c.elem, c.elemoid, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid OPERATOR(pg_catalog.=) o.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) o.opcnamespace WHERE o.opcdefault AND m.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND o.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d WHERE d.ord OPERATOR(pg_catalog.=) c.ord) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1) AS equality_schema FROM c ORDER BY c.ord

-- statement 19
WITH RECURSIVE w(ord, name) AS (SELECT u.o, u.n FROM pg_catalog.unnest($2::pg_catalog.name[]) WITH ORDINALITY AS u(n, o)), c AS (SELECT w.ord, a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM w LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) w.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped LEFT JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid), d(ord, oid) AS (SELECT c.ord, COALESCE(c.elemoid, c.typoid)::pg_catalog.oid FROM c WHERE $3 AND c.typoid IS NOT NULL UNION ALL SELECT d.ord, t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT c.name, c.typ, c.typoid, c.elem, c.elemoid, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid OPERATOR(pg_catalog.=) o.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) o.opcnamespace WHERE o.opcdefault AND m.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND o.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d WHERE d.ord OPERATOR(pg_catalog.=) c.ord) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1) AS equality_schema FROM c ORDER BY c.ord

-- statement 20
WITH RECURSIVE w(ord, name) AS (SELECT u.o, u.n FROM pg_catalog.unnest($2::pg_catalog.name[]) WITH ORDINALITY AS u(n, o)), c AS (SELECT w.ord, a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM w LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) w.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped LEFT JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid), d(ord, oid) AS (SELECT c.ord, COALESCE(c.elemoid, c.typoid)::pg_catalog.oid FROM c WHERE $3 AND c.typoid IS NOT NULL UNION ALL SELECT d.ord, t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT c.name, c.typ, c.typoid, c.elem, c.elemoid, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid OPERATOR(pg_catalog.=) o.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) o.opcnamespace WHERE o.opcdefault AND m.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND o.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d WHERE d.ord OPERATOR(pg_catalog.=) c.ord) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1) AS equality_schema FROM c ORDER BY c.ord

-- statement 21
SELECT pg_catalog.max(a.attr)::pg_catalog.int8 AS hi, pg_catalog.min(a.attr)::pg_catalog.int8 AS lo FROM (SELECT f.attr FROM "public"."spread_fp" AS f) AS a

-- statement 22
SELECT pg_catalog.obj_description($1, 'pg_class') AS c

-- statement 23
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 24
SELECT pg_catalog.to_regclass($1)::pg_catalog.oid::pg_catalog.int8 AS oid

-- statement 25
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 26
SELECT c.oid::pg_catalog.int8 AS oid, n.nspname::pg_catalog.text AS schema, c.relname::pg_catalog.text AS name, c.relkind::pg_catalog.text AS kind FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace WHERE c.oid OPERATOR(pg_catalog.=) $1

-- statement 27
WITH RECURSIVE w(ord, name) AS (SELECT u.o, u.n FROM pg_catalog.unnest($2::pg_catalog.name[]) WITH ORDINALITY AS u(n, o)), c AS (SELECT w.ord, a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM w LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) w.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped LEFT JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid), d(ord, oid) AS (SELECT c.ord, COALESCE(c.elemoid, c.typoid)::pg_catalog.oid FROM c WHERE $3 AND c.typoid IS NOT NULL UNION ALL SELECT d.ord, t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT c.name, c.typ, c.typoid, c.elem, c.elemoid, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid OPERATOR(pg_catalog.=) o.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) o.opcnamespace WHERE o.opcdefault AND m.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND o.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d WHERE d.ord OPERATOR(pg_catalog.=) c.ord) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1) AS equality_schema FROM c ORDER BY c.ord

-- statement 28
WITH RECURSIVE w(ord, name) AS (SELECT u.o, u.n FROM pg_catalog.unnest($2::pg_catalog.name[]) WITH ORDINALITY AS u(n, o)), c AS (SELECT w.ord, a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM w LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) w.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped LEFT JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid), d(ord, oid) AS (SELECT c.ord, COALESCE(c.elemoid, c.typoid)::pg_catalog.oid FROM c WHERE $3 AND c.typoid IS NOT NULL UNION ALL SELECT d.ord, t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT c.name, c.typ, c.typoid, c.elem, c.elemoid, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid OPERATOR(pg_catalog.=) o.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) o.opcnamespace WHERE o.opcdefault AND m.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND o.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d WHERE d.ord OPERATOR(pg_catalog.=) c.ord) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1) AS equality_schema FROM c ORDER BY c.ord

-- statement 29
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 30
SELECT pg_catalog.current_schema()::pg_catalog.text AS s

-- statement 31
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 32
SELECT pg_catalog.to_regclass($1) IS NOT NULL AS taken

-- statement 33
SELECT pg_catalog.count(*)::int8 AS k FROM "public"."spread_cp" AS m

-- statement 34
WITH RECURSIVE w(ord, name) AS (SELECT u.o, u.n FROM pg_catalog.unnest($2::pg_catalog.name[]) WITH ORDINALITY AS u(n, o)), c AS (SELECT w.ord, a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM w LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) w.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped LEFT JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid), d(ord, oid) AS (SELECT c.ord, COALESCE(c.elemoid, c.typoid)::pg_catalog.oid FROM c WHERE $3 AND c.typoid IS NOT NULL UNION ALL SELECT d.ord, t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT c.name, c.typ, c.typoid, c.elem, c.elemoid, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid OPERATOR(pg_catalog.=) o.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) o.opcnamespace WHERE o.opcdefault AND m.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND o.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d WHERE d.ord OPERATOR(pg_catalog.=) c.ord) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1) AS equality_schema FROM c ORDER BY c.ord

-- statement 35
SELECT EXISTS (SELECT 1 FROM "public"."spread_fp") AS e

-- statement 36
SELECT COALESCE(c.collisdeterministic, true) AS det FROM pg_catalog.pg_attribute AS a LEFT JOIN pg_catalog.pg_collation AS c ON c.oid = a.attcollation WHERE a.attrelid = $1 AND a.attname = $2

-- statement 37
SELECT COALESCE(c.collisdeterministic, true) AS det FROM pg_catalog.pg_attribute AS a LEFT JOIN pg_catalog.pg_collation AS c ON c.oid = a.attcollation WHERE a.attrelid = $1 AND a.attname = $2

-- statement 38
SELECT COALESCE(q.whole AND q.lo >= -2147483647 AND q.hi <= 2147483646 AND q.slots <= 4 * q.n + 1024 AND q.slots <= 4000000, false) AS codes, COALESCE(q.whole AND q.lo >= -2147483647 AND q.hi <= 2147483646 AND q.width * 3 <= 4 * q.n + 4096 AND q.width * 9 <= 4000000, false) AS rectangle FROM (SELECT pg_catalog.sum(r.span) AS slots, pg_catalog.sum(r.n) AS n, pg_catalog.bool_and(r.whole) AS whole, pg_catalog.min(r.lo) AS lo, pg_catalog.max(r.hi) AS hi, pg_catalog.max(r.hi) - pg_catalog.min(r.lo) + 1 AS width FROM (SELECT pg_catalog.min(f.value)::pg_catalog.numeric AS lo, pg_catalog.max(f.value)::pg_catalog.numeric AS hi, pg_catalog.max(f.value)::pg_catalog.numeric - pg_catalog.min(f.value)::pg_catalog.numeric + 1 AS span, pg_catalog.count(*) AS n, true AS whole FROM "public"."spread_fp" AS f GROUP BY f.attr) AS r) AS q

-- statement 39
SELECT 1 FROM pg_catalog.pg_attribute WHERE attrelid = $1 AND attname = 'smoothing' AND attnum > 0 AND NOT attisdropped

-- statement 40
CREATE VIEW "public"."spread_probs" AS SELECT q.key, q.classes[c.i] AS class, CASE WHEN q.ok THEN COALESCE(pg_catalog.exp(CASE c.i WHEN 1 THEN q.d1 WHEN 2 THEN q.d2 WHEN 3 THEN q.d3 END - q.lse), 0) END AS nb_prob FROM (SELECT q.*, pg_catalog.ln(COALESCE(pg_catalog.exp(q.d1), 0) + COALESCE(pg_catalog.exp(q.d2), 0) + COALESCE(pg_catalog.exp(q.d3), 0)) AS lse FROM (SELECT q.key, q.classes, q.ok, CASE WHEN q.l1 - q.mx < -700 THEN NULL ELSE q.l1 - q.mx END AS d1, CASE WHEN q.l2 - q.mx < -700 THEN NULL ELSE q.l2 - q.mx END AS d2, CASE WHEN q.l3 - q.mx < -700 THEN NULL ELSE q.l3 - q.mx END AS d3 FROM (SELECT q.*, GREATEST(q.l1, q.l2, q.l3) AS mx FROM (SELECT src."id" AS key, m.classes, (pg_catalog.cardinality(src."attributes") OPERATOR(pg_catalog.=) ANY ('{0,3}'::pg_catalog.int4[])) IS NOT FALSE AS ok, m.prior[1] + COALESCE(z.s1, 0) AS l1, m.prior[2] + COALESCE(z.s2, 0) AS l2, m.prior[3] + COALESCE(z.s3, 0) AS l3 FROM "public"."spread" AS src CROSS JOIN (SELECT m0.checked AS ready, * FROM (SELECT pg_catalog.array_agg(c.class ORDER BY c.pos) AS classes, pg_catalog.array_agg((CASE WHEN (c.class_cnt::pg_catalog.float8 / c.all_cnt) > 0 THEN pg_catalog.ln((c.class_cnt::pg_catalog.float8 / c.all_cnt)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) ORDER BY c.pos) AS prior, madnb._check_class_count(pg_catalog.count(*), 3) AS checked FROM (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "public"."spread_cp" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c) AS m0, (SELECT pg_catalog.array_agg(q.arr ORDER BY q.pos) AS lut FROM (SELECT c.pos, pg_catalog.array_agg(COALESCE(sl.lp, 0::pg_catalog.float8) ORDER BY g.slot) AS arr FROM (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "public"."spread_cp" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c CROSS JOIN (SELECT COALESCE(pg_catalog.sum(r.hi - r.lo + 1), 0)::pg_catalog.int8 + 1 AS total FROM (SELECT c.attr, pg_catalog.min(c.value)::pg_catalog.int8 AS lo, pg_catalog.max(c.value)::pg_catalog.int8 AS hi FROM (SELECT f.attr, f.value, c.pos, CASE WHEN (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) <= 1000000.0::pg_catalog.float8 THEN (CASE WHEN (f.cnt + (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8))) > 0 THEN pg_catalog.ln((f.cnt + (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)))::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) - (CASE WHEN (n.cnt + (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) * f.attr_cnt) > 0 THEN pg_catalog.ln((n.cnt + (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) * f.attr_cnt)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) ELSE (CASE WHEN (f.cnt / (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) + 1) > 0 THEN pg_catalog.ln((f.cnt / (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) + 1)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) - (CASE WHEN (n.cnt / (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) + f.attr_cnt) > 0 THEN pg_catalog.ln((n.cnt / (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) + f.attr_cnt)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) END AS lp FROM "public"."spread_fp" AS f JOIN (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "public"."spread_cp" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c ON c.class = f.class JOIN (SELECT g.class, g.attr, pg_catalog.sum(g.cnt) AS cnt FROM "public"."spread_fp" AS g GROUP BY g.class, g.attr) AS n ON n.class = f.class AND n.attr = f.attr) AS c GROUP BY c.attr) AS r) AS t CROSS JOIN LATERAL pg_catalog.generate_series(1, madnb._check_code_slots(t.total, 4000000)) AS g(slot) LEFT JOIN (SELECT c.pos, (o.base + (c.value::pg_catalog.int8 - o.lo) + 2)::pg_catalog.int4 AS slot, c.lp FROM (SELECT f.attr, f.value, c.pos, CASE WHEN (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) <= 1000000.0::pg_catalog.float8 THEN (CASE WHEN (f.cnt + (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8))) > 0 THEN pg_catalog.ln((f.cnt + (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)))::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) - (CASE WHEN (n.cnt + (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) * f.attr_cnt) > 0 THEN pg_catalog.ln((n.cnt + (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) * f.attr_cnt)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) ELSE (CASE WHEN (f.cnt / (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) + 1) > 0 THEN pg_catalog.ln((f.cnt / (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) + 1)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) - (CASE WHEN (n.cnt / (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) + f.attr_cnt) > 0 THEN pg_catalog.ln((n.cnt / (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) + f.attr_cnt)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) END AS lp FROM "public"."spread_fp" AS f JOIN (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "public"."spread_cp" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c ON c.class = f.class JOIN (SELECT g.class, g.attr, pg_catalog.sum(g.cnt) AS cnt FROM "public"."spread_fp" AS g GROUP BY g.class, g.attr) AS n ON n.class = f.class AND n.attr = f.attr) AS c JOIN (SELECT r.attr, r.lo, r.hi, (pg_catalog.sum(r.hi - r.lo + 1) OVER (ORDER BY r.attr) - (r.hi - r.lo + 1))::pg_catalog.int8 AS base FROM (SELECT c.attr, pg_catalog.min(c.value)::pg_catalog.int8 AS lo, pg_catalog.max(c.value)::pg_catalog.int8 AS hi FROM (SELECT f.attr, f.value, c.pos, CASE WHEN (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) <= 1000000.0::pg_catalog.float8 THEN (CASE WHEN (f.cnt + (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8))) > 0 THEN pg_catalog.ln((f.cnt + (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)))::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) - (CASE WHEN (n.cnt + (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) * f.attr_cnt) > 0 THEN pg_catalog.ln((n.cnt + (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) * f.attr_cnt)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) ELSE (CASE WHEN (f.cnt / (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) + 1) > 0 THEN pg_catalog.ln((f.cnt / (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) + 1)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) - (CASE WHEN (n.cnt / (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) + f.attr_cnt) > 0 THEN pg_catalog.ln((n.cnt / (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) + f.attr_cnt)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) END AS lp FROM "public"."spread_fp" AS f JOIN (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "public"."spread_cp" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c ON c.class = f.class JOIN (SELECT g.class, g.attr, pg_catalog.sum(g.cnt) AS cnt FROM "public"."spread_fp" AS g GROUP BY g.class, g.attr) AS n ON n.class = f.class AND n.attr = f.attr) AS c GROUP BY c.attr) AS r) AS o ON o.attr = c.attr) AS sl ON sl.pos = c.pos AND sl.slot = g.slot GROUP BY c.pos) AS q) AS m1, (SELECT pg_catalog.array_agg(COALESCE(o.lo, 1) ORDER BY g.a) AS lo, pg_catalog.array_agg(COALESCE(o.hi, 0) ORDER BY g.a) AS hi, pg_catalog.array_agg(COALESCE(o.base, 0) ORDER BY g.a) AS base FROM pg_catalog.generate_series(1, 3) AS g(a) LEFT JOIN (SELECT r.attr, r.lo, r.hi, (pg_catalog.sum(r.hi - r.lo + 1) OVER (ORDER BY r.attr) - (r.hi - r.lo + 1))::pg_catalog.int8 AS base FROM (SELECT c.attr, pg_catalog.min(c.value)::pg_catalog.int8 AS lo, pg_catalog.max(c.value)::pg_catalog.int8 AS hi FROM (SELECT f.attr, f.value, c.pos, CASE WHEN (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) <= 1000000.0::pg_catalog.float8 THEN (CASE WHEN (f.cnt + (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8))) > 0 THEN pg_catalog.ln((f.cnt + (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)))::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) - (CASE WHEN (n.cnt + (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) * f.attr_cnt) > 0 THEN pg_catalog.ln((n.cnt + (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) * f.attr_cnt)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) ELSE (CASE WHEN (f.cnt / (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) + 1) > 0 THEN pg_catalog.ln((f.cnt / (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) + 1)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) - (CASE WHEN (n.cnt / (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) + f.attr_cnt) > 0 THEN pg_catalog.ln((n.cnt / (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) + f.attr_cnt)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) END AS lp FROM "public"."spread_fp" AS f JOIN (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "public"."spread_cp" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c ON c.class = f.class JOIN (SELECT g.class, g.attr, pg_catalog.sum(g.cnt) AS cnt FROM "public"."spread_fp" AS g GROUP BY g.class, g.attr) AS n ON n.class = f.class AND n.attr = f.attr) AS c GROUP BY c.attr) AS r) AS o ON o.attr = g.a) AS m2 OFFSET 0) AS m CROSS JOIN LATERAL (SELECT pg_catalog.sum(m.lut[1][w.i]) AS s1, pg_catalog.sum(m.lut[2][w.i]) AS s2, pg_catalog.sum(m.lut[3][w.i]) AS s3 FROM (SELECT (CASE WHEN u.v >= m.lo[u.o::pg_catalog.int4] AND u.v <= m.hi[u.o::pg_catalog.int4] THEN (m.base[u.o::pg_catalog.int4] + (u.v - m.lo[u.o::pg_catalog.int4]))::pg_catalog.int4 + 2 ELSE 1 END) AS i FROM (SELECT pg_catalog.unnest(src."attributes") AS v, pg_catalog.unnest('{1,2,3}'::pg_catalog.int8[]) AS o) AS u WHERE u.o <= 3 OFFSET 0) AS w) AS z WHERE m.ready OFFSET 0) AS q OFFSET 0) AS q OFFSET 0) AS q OFFSET 0) AS q CROSS JOIN pg_catalog.generate_series(1, 3) AS c(i)

-- statement 41
COMMENT ON VIEW "public"."spread_probs" IS 'madnb naive Bayes class probabilities of public.spread by the model in public.spread_cp, public.spread_fp'

-- statement 42
SELECT pg_catalog.set_config('search_path', $1, true)

-- view definition of spread_probs (pg_get_viewdef)
 SELECT q.key,
    q.classes[c.i] AS class,
        CASE
            WHEN q.ok THEN COALESCE(exp(
            CASE c.i
                WHEN 1 THEN q.d1
                WHEN 2 THEN q.d2
                WHEN 3 THEN q.d3
                ELSE NULL::double precision
            END - q.lse), 0::double precision)
            ELSE NULL::double precision
        END AS nb_prob
   FROM ( SELECT q_1.key,
            q_1.classes,
            q_1.ok,
            q_1.d1,
            q_1.d2,
            q_1.d3,
            ln(COALESCE(exp(q_1.d1), 0::double precision) + COALESCE(exp(q_1.d2), 0::double precision) + COALESCE(exp(q_1.d3), 0::double precision)) AS lse
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
                        END AS d2,
                        CASE
                            WHEN (q_2.l3 - q_2.mx) < '-700'::integer::double precision THEN NULL::double precision
                            ELSE q_2.l3 - q_2.mx
                        END AS d3
                   FROM ( SELECT q_3.key,
                            q_3.classes,
                            q_3.ok,
                            q_3.l1,
                            q_3.l2,
                            q_3.l3,
                            GREATEST(q_3.l1, q_3.l2, q_3.l3) AS mx
                           FROM ( SELECT src.id AS key,
                                    m.classes,
                                    (cardinality(src.attributes) = ANY ('{0,3}'::integer[])) IS NOT FALSE AS ok,
                                    m.prior[1] + COALESCE(z.s1, 0::double precision) AS l1,
                                    m.prior[2] + COALESCE(z.s2, 0::double precision) AS l2,
                                    m.prior[3] + COALESCE(z.s3, 0::double precision) AS l3
                                   FROM spread src
                                     CROSS JOIN ( SELECT m0.checked AS ready,
    m0.classes,
    m0.prior,
    m0.checked,
    m1.lut,
    m2.lo,
    m2.hi,
    m2.base
   FROM ( SELECT array_agg(c_1.class ORDER BY c_1.pos) AS classes,
      array_agg(
    CASE
     WHEN (c_1.class_cnt::double precision / c_1.all_cnt::double precision) > 0::double precision THEN ln(c_1.class_cnt::double precision / c_1.all_cnt::double precision)
     ELSE '-Infinity'::double precision
    END ORDER BY c_1.pos) AS prior,
      _check_class_count(count(*), 3) AS checked
     FROM ( SELECT u.class,
        u.class_cnt,
        u.all_cnt,
        u.pos::integer AS pos
       FROM ( SELECT array_agg(m_1.class ORDER BY m_1.class) AS c,
          array_agg(m_1.class_cnt ORDER BY m_1.class) AS n,
          array_agg(m_1.all_cnt ORDER BY m_1.class) AS a
         FROM spread_cp m_1) s
         CROSS JOIN LATERAL UNNEST(s.c, s.n, s.a) WITH ORDINALITY u(class, class_cnt, all_cnt, pos)) c_1) m0,
    ( SELECT array_agg(q_4.arr ORDER BY q_4.pos) AS lut
     FROM ( SELECT c_1.pos,
        array_agg(COALESCE(sl.lp, 0::double precision) ORDER BY g.slot) AS arr
       FROM ( SELECT u.class,
          u.class_cnt,
          u.all_cnt,
          u.pos::integer AS pos
         FROM ( SELECT array_agg(m_1.class ORDER BY m_1.class) AS c,
            array_agg(m_1.class_cnt ORDER BY m_1.class) AS n,
            array_agg(m_1.all_cnt ORDER BY m_1.class) AS a
           FROM spread_cp m_1) s
           CROSS JOIN LATERAL UNNEST(s.c, s.n, s.a) WITH ORDINALITY u(class, class_cnt, all_cnt, pos)) c_1
         CROSS JOIN ( SELECT COALESCE(sum(r.hi - r.lo + 1), 0::numeric)::bigint + 1 AS total
         FROM ( SELECT c_2.attr,
            min(c_2.value)::bigint AS lo,
            max(c_2.value)::bigint AS hi
           FROM ( SELECT f.attr,
              f.value,
              c_3.pos,
            CASE
             WHEN COALESCE(f.smoothing, 1::double precision) <= 1000000.0::double precision THEN
             CASE
              WHEN (f.cnt::double precision + COALESCE(f.smoothing, 1::double precision)) > 0::double precision THEN ln(f.cnt::double precision + COALESCE(f.smoothing, 1::double precision))
              ELSE '-Infinity'::double precision
             END -
             CASE
              WHEN (n.cnt::double precision + COALESCE(f.smoothing, 1::double precision) * f.attr_cnt::double precision) > 0::double precision THEN ln(n.cnt::double precision + COALESCE(f.smoothing, 1::double precision) * f.attr_cnt::double precision)
              ELSE '-Infinity'::double precision
             END
             ELSE
             CASE
              WHEN (f.cnt::double precision / COALESCE(f.smoothing, 1::double precision) + 1::double precision) > 0::double precision THEN ln(f.cnt::double precision / COALESCE(f.smoothing, 1::double precision) + 1::double precision)
              ELSE '-Infinity'::double precision
             END -
             CASE
              WHEN (n.cnt::double precision / COALESCE(f.smoothing, 1::double precision) + f.attr_cnt::double precision) > 0::double precision THEN ln(n.cnt::double precision / COALESCE(f.smoothing, 1::double precision) + f.attr_cnt::double precision)
              ELSE '-Infinity'::double precision
             END
            END AS lp
             FROM spread_fp f
               JOIN ( SELECT u.class,
                u.class_cnt,
                u.all_cnt,
                u.pos::integer AS pos
               FROM ( SELECT array_agg(m_1.class ORDER BY m_1.class) AS c,
                  array_agg(m_1.class_cnt ORDER BY m_1.class) AS n,
                  array_agg(m_1.all_cnt ORDER BY m_1.class) AS a
                 FROM spread_cp m_1) s
                 CROSS JOIN LATERAL UNNEST(s.c, s.n, s.a) WITH ORDINALITY u(class, class_cnt, all_cnt, pos)) c_3 ON c_3.class = f.class
               JOIN ( SELECT g_1.class,
                g_1.attr,
                sum(g_1.cnt) AS cnt
               FROM spread_fp g_1
              GROUP BY g_1.class, g_1.attr) n ON n.class = f.class AND n.attr = f.attr) c_2
          GROUP BY c_2.attr) r) t
         CROSS JOIN LATERAL generate_series(1, _check_code_slots(t.total, 4000000)) g(slot)
         LEFT JOIN ( SELECT c_2.pos,
          (o.base + (c_2.value::bigint - o.lo) + 2)::integer AS slot,
          c_2.lp
         FROM ( SELECT f.attr,
            f.value,
            c_3.pos,
          CASE
           WHEN COALESCE(f.smoothing, 1::double precision) <= 1000000.0::double precision THEN
           CASE
            WHEN (f.cnt::double precision + COALESCE(f.smoothing, 1::double precision)) > 0::double precision THEN ln(f.cnt::double precision + COALESCE(f.smoothing, 1::double precision))
            ELSE '-Infinity'::double precision
           END -
           CASE
            WHEN (n.cnt::double precision + COALESCE(f.smoothing, 1::double precision) * f.attr_cnt::double precision) > 0::double precision THEN ln(n.cnt::double precision + COALESCE(f.smoothing, 1::double precision) * f.attr_cnt::double precision)
            ELSE '-Infinity'::double precision
           END
           ELSE
           CASE
            WHEN (f.cnt::double precision / COALESCE(f.smoothing, 1::double precision) + 1::double precision) > 0::double precision THEN ln(f.cnt::double precision / COALESCE(f.smoothing, 1::double precision) + 1::double precision)
            ELSE '-Infinity'::double precision
           END -
           CASE
            WHEN (n.cnt::double precision / COALESCE(f.smoothing, 1::double precision) + f.attr_cnt::double precision) > 0::double precision THEN ln(n.cnt::double precision / COALESCE(f.smoothing, 1::double precision) + f.attr_cnt::double precision)
            ELSE '-Infinity'::double precision
           END
          END AS lp
           FROM spread_fp f
             JOIN ( SELECT u.class,
              u.class_cnt,
              u.all_cnt,
              u.pos::integer AS pos
             FROM ( SELECT array_agg(m_1.class ORDER BY m_1.class) AS c,
                array_agg(m_1.class_cnt ORDER BY m_1.class) AS n,
                array_agg(m_1.all_cnt ORDER BY m_1.class) AS a
               FROM spread_cp m_1) s
               CROSS JOIN LATERAL UNNEST(s.c, s.n, s.a) WITH ORDINALITY u(class, class_cnt, all_cnt, pos)) c_3 ON c_3.class = f.class
             JOIN ( SELECT g_1.class,
              g_1.attr,
              sum(g_1.cnt) AS cnt
             FROM spread_fp g_1
            GROUP BY g_1.class, g_1.attr) n ON n.class = f.class AND n.attr = f.attr) c_2
           JOIN ( SELECT r.attr,
            r.lo,
            r.hi,
            (sum(r.hi - r.lo + 1) OVER (ORDER BY r.attr) - (r.hi - r.lo + 1)::numeric)::bigint AS base
           FROM ( SELECT c_3.attr,
              min(c_3.value)::bigint AS lo,
              max(c_3.value)::bigint AS hi
             FROM ( SELECT f.attr,
                f.value,
                c_4.pos,
              CASE
               WHEN COALESCE(f.smoothing, 1::double precision) <= 1000000.0::double precision THEN
               CASE
                WHEN (f.cnt::double precision + COALESCE(f.smoothing, 1::double precision)) > 0::double precision THEN ln(f.cnt::double precision + COALESCE(f.smoothing, 1::double precision))
                ELSE '-Infinity'::double precision
               END -
               CASE
                WHEN (n.cnt::double precision + COALESCE(f.smoothing, 1::double precision) * f.attr_cnt::double precision) > 0::double precision THEN ln(n.cnt::double precision + COALESCE(f.smoothing, 1::double precision) * f.attr_cnt::double precision)
                ELSE '-Infinity'::double precision
               END
               ELSE
               CASE
                WHEN (f.cnt::double precision / COALESCE(f.smoothing, 1::double precision) + 1::double precision) > 0::double precision THEN ln(f.cnt::double precision / COALESCE(f.smoothing, 1::double precision) + 1::double precision)
                ELSE '-Infinity'::double precision
               END -
               CASE
                WHEN (n.cnt::double precision / COALESCE(f.smoothing, 1::double precision) + f.attr_cnt::double precision) > 0::double precision THEN ln(n.cnt::double precision / COALESCE(f.smoothing, 1::double precision) + f.attr_cnt::double precision)
                ELSE '-Infinity'::double precision
               END
              END AS lp
               FROM spread_fp f
                 JOIN ( SELECT u.class,
                  u.class_cnt,
                  u.all_cnt,
                  u.pos::integer AS pos
                 FROM ( SELECT array_agg(m_1.class ORDER BY m_1.class) AS c,
                    array_agg(m_1.class_cnt ORDER BY m_1.class) AS n,
                    array_agg(m_1.all_cnt ORDER BY m_1.class) AS a
                   FROM spread_cp m_1) s
                   CROSS JOIN LATERAL UNNEST(s.c, s.n, s.a) WITH ORDINALITY u(class, class_cnt, all_cnt, pos)) c_4 ON c_4.class = f.class
                 JOIN ( SELECT g_1.class,
                  g_1.attr,
                  sum(g_1.cnt) AS cnt
                 FROM spread_fp g_1
                GROUP BY g_1.class, g_1.attr) n ON n.class = f.class AND n.attr = f.attr) c_3
            GROUP BY c_3.attr) r) o ON o.attr = c_2.attr) sl ON sl.pos = c_1.pos AND sl.slot = g.slot
      GROUP BY c_1.pos) q_4) m1,
    ( SELECT array_agg(COALESCE(o.lo, 1::bigint) ORDER BY g.a) AS lo,
      array_agg(COALESCE(o.hi, 0::bigint) ORDER BY g.a) AS hi,
      array_agg(COALESCE(o.base, 0::bigint) ORDER BY g.a) AS base
     FROM generate_series(1, 3) g(a)
       LEFT JOIN ( SELECT r.attr,
        r.lo,
        r.hi,
        (sum(r.hi - r.lo + 1) OVER (ORDER BY r.attr) - (r.hi - r.lo + 1)::numeric)::bigint AS base
       FROM ( SELECT c_1.attr,
          min(c_1.value)::bigint AS lo,
          max(c_1.value)::bigint AS hi
         FROM ( SELECT f.attr,
            f.value,
            c_2.pos,
          CASE
           WHEN COALESCE(f.smoothing, 1::double precision) <= 1000000.0::double precision THEN
           CASE
            WHEN (f.cnt::double precision + COALESCE(f.smoothing, 1::double precision)) > 0::double precision THEN ln(f.cnt::double precision + COALESCE(f.smoothing, 1::double precision))
            ELSE '-Infinity'::double precision
           END -
           CASE
            WHEN (n.cnt::double precision + COALESCE(f.smoothing, 1::double precision) * f.attr_cnt::double precision) > 0::double precision THEN ln(n.cnt::double precision + COALESCE(f.smoothing, 1::double precision) * f.attr_cnt::double precision)
            ELSE '-Infinity'::double precision
           END
           ELSE
           CASE
            WHEN (f.cnt::double precision / COALESCE(f.smoothing, 1::double precision) + 1::double precision) > 0::double precision THEN ln(f.cnt::double precision / COALESCE(f.smoothing, 1::double precision) + 1::double precision)
            ELSE '-Infinity'::double precision
           END -
           CASE
            WHEN (n.cnt::double precision / COALESCE(f.smoothing, 1::double precision) + f.attr_cnt::double precision) > 0::double precision THEN ln(n.cnt::double precision / COALESCE(f.smoothing, 1::double precision) + f.attr_cnt::double precision)
            ELSE '-Infinity'::double precision
           END
          END AS lp
           FROM spread_fp f
             JOIN ( SELECT u.class,
              u.class_cnt,
              u.all_cnt,
              u.pos::integer AS pos
             FROM ( SELECT array_agg(m_1.class ORDER BY m_1.class) AS c,
                array_agg(m_1.class_cnt ORDER BY m_1.class) AS n,
                array_agg(m_1.all_cnt ORDER BY m_1.class) AS a
               FROM spread_cp m_1) s
               CROSS JOIN LATERAL UNNEST(s.c, s.n, s.a) WITH ORDINALITY u(class, class_cnt, all_cnt, pos)) c_2 ON c_2.class = f.class
             JOIN ( SELECT g_1.class,
              g_1.attr,
              sum(g_1.cnt) AS cnt
             FROM spread_fp g_1
            GROUP BY g_1.class, g_1.attr) n ON n.class = f.class AND n.attr = f.attr) c_1
        GROUP BY c_1.attr) r) o ON o.attr = g.a) m2
 OFFSET 0) m
                                     CROSS JOIN LATERAL ( SELECT sum(m.lut[1][w.i]) AS s1,
    sum(m.lut[2][w.i]) AS s2,
    sum(m.lut[3][w.i]) AS s3
   FROM ( SELECT
    CASE
     WHEN u.v >= m.lo[u.o::integer] AND u.v <= m.hi[u.o::integer] THEN (m.base[u.o::integer] + (u.v - m.lo[u.o::integer]))::integer + 2
     ELSE 1
    END AS i
     FROM ( SELECT unnest(src.attributes) AS v,
        unnest('{1,2,3}'::bigint[]) AS o) u
    WHERE u.o <= 3
   OFFSET 0) w) z
                                  WHERE m.ready
                                 OFFSET 0) q_3
                         OFFSET 0) q_2
                 OFFSET 0) q_1
         OFFSET 0) q
     CROSS JOIN generate_series(1, 3) c(i);
