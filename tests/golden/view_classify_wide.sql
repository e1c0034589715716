-- golden SQL of: SELECT madnb.create_nb_classify_view('wide_fp', 'wide_cp', 'wide', 'id', 'attributes', 130, 'wide_classify')
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
SELECT pg_catalog.max(a.attr)::pg_catalog.int8 AS hi, pg_catalog.min(a.attr)::pg_catalog.int8 AS lo FROM (SELECT f.attr FROM "public"."wide_fp" AS f) AS a

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
SELECT pg_catalog.count(*)::int8 AS k FROM "public"."wide_cp" AS m

-- statement 34
WITH RECURSIVE w(ord, name) AS (SELECT u.o, u.n FROM pg_catalog.unnest($2::pg_catalog.name[]) WITH ORDINALITY AS u(n, o)), c AS (SELECT w.ord, a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM w LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) w.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped LEFT JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid), d(ord, oid) AS (SELECT c.ord, COALESCE(c.elemoid, c.typoid)::pg_catalog.oid FROM c WHERE $3 AND c.typoid IS NOT NULL UNION ALL SELECT d.ord, t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT c.name, c.typ, c.typoid, c.elem, c.elemoid, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid OPERATOR(pg_catalog.=) o.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) o.opcnamespace WHERE o.opcdefault AND m.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND o.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d WHERE d.ord OPERATOR(pg_catalog.=) c.ord) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1) AS equality_schema FROM c ORDER BY c.ord

-- statement 35
SELECT EXISTS (SELECT 1 FROM "public"."wide_fp") AS e

-- statement 36
SELECT COALESCE(c.collisdeterministic, true) AS det FROM pg_catalog.pg_attribute AS a LEFT JOIN pg_catalog.pg_collation AS c ON c.oid = a.attcollation WHERE a.attrelid = $1 AND a.attname = $2

-- statement 37
SELECT COALESCE(c.collisdeterministic, true) AS det FROM pg_catalog.pg_attribute AS a LEFT JOIN pg_catalog.pg_collation AS c ON c.oid = a.attcollation WHERE a.attrelid = $1 AND a.attname = $2

-- statement 38
SELECT COALESCE(q.whole AND q.lo >= -2147483647 AND q.hi <= 2147483646 AND q.slots <= 4 * q.n + 1024 AND q.slots <= 4000000, false) AS codes, COALESCE(q.whole AND q.lo >= -2147483647 AND q.hi <= 2147483646 AND q.width * 130 <= 4 * q.n + 4096 AND q.width * 260 <= 4000000, false) AS rectangle FROM (SELECT pg_catalog.sum(r.span) AS slots, pg_catalog.sum(r.n) AS n, pg_catalog.bool_and(r.whole) AS whole, pg_catalog.min(r.lo) AS lo, pg_catalog.max(r.hi) AS hi, pg_catalog.max(r.hi) - pg_catalog.min(r.lo) + 1 AS width FROM (SELECT pg_catalog.min(f.value)::pg_catalog.numeric AS lo, pg_catalog.max(f.value)::pg_catalog.numeric AS hi, pg_catalog.max(f.value)::pg_catalog.numeric - pg_catalog.min(f.value)::pg_catalog.numeric + 1 AS span, pg_catalog.count(*) AS n, true AS whole FROM "public"."wide_fp" AS f GROUP BY f.attr) AS r) AS q

-- statement 39
SELECT 1 FROM pg_catalog.pg_attribute WHERE attrelid = $1 AND attname = 'smoothing' AND attnum > 0 AND NOT attisdropped

-- statement 40
CREATE VIEW "public"."wide_classify" AS SELECT q.key, CASE WHEN q.ok THEN pg_catalog.array_remove(ARRAY[CASE WHEN q.l1 >= q.thr THEN q.classes[1] END, CASE WHEN q.l2 >= q.thr THEN q.classes[2] END], NULL) END AS nb_classification FROM (SELECT q.*, GREATEST(q.l1, q.l2) - 1e-12::pg_catalog.float8 * GREATEST(1::pg_catalog.float8, pg_catalog.abs(GREATEST(q.l1, q.l2))) AS thr FROM (SELECT src."id" AS key, m.classes, (pg_catalog.cardinality(src."attributes") OPERATOR(pg_catalog.=) ANY ('{0,130}'::pg_catalog.int4[])) IS NOT FALSE AS ok, m.prior[1] + COALESCE(z.s1, 0) AS l1, m.prior[2] + COALESCE(z.s2, 0) AS l2 FROM "public"."wide" AS src CROSS JOIN (SELECT m0.checked AS ready, * FROM (SELECT pg_catalog.array_agg(c.class ORDER BY c.pos) AS classes, pg_catalog.array_agg((CASE WHEN (c.class_cnt::pg_catalog.float8 / c.all_cnt) > 0 THEN pg_catalog.ln((c.class_cnt::pg_catalog.float8 / c.all_cnt)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) ORDER BY c.pos) AS prior, madnb._check_class_count(pg_catalog.count(*), 2) AS checked FROM (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "public"."wide_cp" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c) AS m0, (SELECT pg_catalog.max(q.arr) FILTER (WHERE q.pos = 1) AS lut1, pg_catalog.max(q.arr) FILTER (WHERE q.pos = 2) AS lut2 FROM (SELECT r.pos, pg_catalog.array_agg(e.lp ORDER BY r.a, e.s) AS arr FROM (SELECT c.pos, g.a, pg_catalog.array_agg(COALESCE(x.lp, 0::pg_catalog.float8) ORDER BY s.s) AS arr FROM (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "public"."wide_cp" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c CROSS JOIN pg_catalog.generate_series(1, 130) AS g(a) CROSS JOIN (SELECT b.hi1 - b.lo0 - 1 AS w FROM (SELECT pg_catalog.min(f.value)::pg_catalog.int8 - 1 AS lo0, pg_catalog.max(f.value)::pg_catalog.int8 + 1 AS hi1, pg_catalog.max(f.value)::pg_catalog.int8 - pg_catalog.min(f.value)::pg_catalog.int8 + 1 AS w FROM "public"."wide_fp" AS f) AS b) AS b CROSS JOIN LATERAL pg_catalog.unnest(pg_catalog.array_fill(0, ARRAY[b.w::pg_catalog.int4])) WITH ORDINALITY AS s(z, s) LEFT JOIN (SELECT x.attr, x.pos, (x.value::pg_catalog.int8 - b.lo0)::pg_catalog.int4 AS slot, x.lp FROM (SELECT f.attr, f.value, c.pos, CASE WHEN (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) <= 1000000.0::pg_catalog.float8 THEN (CASE WHEN (f.cnt + (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8))) > 0 THEN pg_catalog.ln((f.cnt + (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)))::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) - (CASE WHEN (n.cnt + (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) * f.attr_cnt) > 0 THEN pg_catalog.ln((n.cnt + (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) * f.attr_cnt)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) ELSE (CASE WHEN (f.cnt / (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) + 1) > 0 THEN pg_catalog.ln((f.cnt / (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) + 1)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) - (CASE WHEN (n.cnt / (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) + f.attr_cnt) > 0 THEN pg_catalog.ln((n.cnt / (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) + f.attr_cnt)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) END AS lp FROM "public"."wide_fp" AS f JOIN (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "public"."wide_cp" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c ON c.class = f.class JOIN (SELECT g.class, g.attr, pg_catalog.sum(g.cnt) AS cnt FROM "public"."wide_fp" AS g GROUP BY g.class, g.attr) AS n ON n.class = f.class AND n.attr = f.attr) AS x CROSS JOIN (SELECT pg_catalog.min(f.value)::pg_catalog.int8 - 1 AS lo0, pg_catalog.max(f.value)::pg_catalog.int8 + 1 AS hi1, pg_catalog.max(f.value)::pg_catalog.int8 - pg_catalog.min(f.value)::pg_catalog.int8 + 1 AS w FROM "public"."wide_fp" AS f) AS b) AS x ON x.pos = c.pos AND x.attr = g.a AND x.slot = s.s WHERE madnb._check_code_slots(b.w::pg_catalog.int8 * 260, 4000000) > 0 GROUP BY c.pos, g.a) AS r CROSS JOIN LATERAL pg_catalog.unnest(r.arr) WITH ORDINALITY AS e(lp, s) GROUP BY r.pos) AS q) AS m1, (SELECT pg_catalog.min(f.value)::pg_catalog.int8 - 1 AS lo0, pg_catalog.max(f.value)::pg_catalog.int8 + 1 AS hi1, pg_catalog.max(f.value)::pg_catalog.int8 - pg_catalog.min(f.value)::pg_catalog.int8 + 1 AS w FROM "public"."wide_fp" AS f) AS m2 OFFSET 0) AS m CROSS JOIN LATERAL (SELECT pg_catalog.sum(m.lut1[w.i]) AS s1, pg_catalog.sum(m.lut2[w.i]) AS s2 FROM (SELECT (CASE WHEN u.v > m.lo0 AND u.v < m.hi1 THEN ((u.o - 1) * m.w + (u.v - m.lo0))::pg_catalog.int4 END) AS i FROM (SELECT pg_catalog.unnest(src."attributes") AS v, pg_catalog.unnest('{1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79,80,81,82,83,84,85,86,87,88,89,90,91,92,93,94,95,96,97,98,99,100,101,102,103,104,105,106,107,108,109,110,111,112,113,114,115,116,117,118,119,120,121,122,123,124,125,126,127,128,129,130}'::pg_catalog.int8[]) AS o) AS u WHERE u.o <= 130 OFFSET 0) AS w) AS z WHERE m.ready OFFSET 0) AS q OFFSET 0) AS q

-- statement 41
COMMENT ON VIEW "public"."wide_classify" IS 'madnb naive Bayes classification of public.wide by the model in public.wide_cp, public.wide_fp'

-- statement 42
SELECT pg_catalog.set_config('search_path', $1, true)

-- view definition of wide_classify (pg_get_viewdef)
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
                           FROM ( SELECT array_agg(c.class ORDER BY c.pos) AS classes,
                                    array_agg(
CASE
 WHEN (c.class_cnt::double precision / c.all_cnt::double precision) > 0::double precision THEN ln(c.class_cnt::double precision / c.all_cnt::double precision)
 ELSE '-Infinity'::double precision
END ORDER BY c.pos) AS prior,
                                    _check_class_count(count(*), 2) AS checked
                                   FROM ( SELECT u.class,
    u.class_cnt,
    u.all_cnt,
    u.pos::integer AS pos
   FROM ( SELECT array_agg(m_1.class ORDER BY m_1.class) AS c,
      array_agg(m_1.class_cnt ORDER BY m_1.class) AS n,
      array_agg(m_1.all_cnt ORDER BY m_1.class) AS a
     FROM wide_cp m_1) s
     CROSS JOIN LATERAL UNNEST(s.c, s.n, s.a) WITH ORDINALITY u(class, class_cnt, all_cnt, pos)) c) m0,
                            ( SELECT max(q_2.arr) FILTER (WHERE q_2.pos = 1) AS lut1,
                                    max(q_2.arr) FILTER (WHERE q_2.pos = 2) AS lut2
                                   FROM ( SELECT r.pos,
    array_agg(e.lp ORDER BY r.a, e.s) AS arr
   FROM ( SELECT c.pos,
      g.a,
      array_agg(COALESCE(x.lp, 0::double precision) ORDER BY s.s) AS arr
     FROM ( SELECT u.class,
        u.class_cnt,
        u.all_cnt,
        u.pos::integer AS pos
       FROM ( SELECT array_agg(m_1.class ORDER BY m_1.class) AS c,
          array_agg(m_1.class_cnt ORDER BY m_1.class) AS n,
          array_agg(m_1.all_cnt ORDER BY m_1.class) AS a
         FROM wide_cp m_1) s_1
         CROSS JOIN LATERAL UNNEST(s_1.c, s_1.n, s_1.a) WITH ORDINALITY u(class, class_cnt, all_cnt, pos)) c
       CROSS JOIN generate_series(1, 130) g(a)
       CROSS JOIN ( SELECT b_1.hi1 - b_1.lo0 - 1 AS w
       FROM ( SELECT min(f.value)::bigint - 1 AS lo0,
          max(f.value)::bigint + 1 AS hi1,
          max(f.value)::bigint - min(f.value)::bigint + 1 AS w
         FROM wide_fp f) b_1) b
       CROSS JOIN LATERAL unnest(array_fill(0, ARRAY[b.w::integer])) WITH ORDINALITY s(z, s)
       LEFT JOIN ( SELECT x_1.attr,
        x_1.pos,
        (x_1.value::bigint - b_1.lo0)::integer AS slot,
        x_1.lp
       FROM ( SELECT f.attr,
          f.value,
          c_1.pos,
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
         FROM wide_fp f
           JOIN ( SELECT u.class,
            u.class_cnt,
            u.all_cnt,
            u.pos::integer AS pos
           FROM ( SELECT array_agg(m_1.class ORDER BY m_1.class) AS c,
              array_agg(m_1.class_cnt ORDER BY m_1.class) AS n,
              array_agg(m_1.all_cnt ORDER BY m_1.class) AS a
             FROM wide_cp m_1) s_1
             CROSS JOIN LATERAL UNNEST(s_1.c, s_1.n, s_1.a) WITH ORDINALITY u(class, class_cnt, all_cnt, pos)) c_1 ON c_1.class = f.class
           JOIN ( SELECT g_1.class,
            g_1.attr,
            sum(g_1.cnt) AS cnt
           FROM wide_fp g_1
          GROUP BY g_1.class, g_1.attr) n ON n.class = f.class AND n.attr = f.attr) x_1
         CROSS JOIN ( SELECT min(f.value)::bigint - 1 AS lo0,
          max(f.value)::bigint + 1 AS hi1,
          max(f.value)::bigint - min(f.value)::bigint + 1 AS w
         FROM wide_fp f) b_1) x ON x.pos = c.pos AND x.attr = g.a AND x.slot = s.s
    WHERE _check_code_slots(b.w * 260, 4000000) > 0
    GROUP BY c.pos, g.a) r
     CROSS JOIN LATERAL unnest(r.arr) WITH ORDINALITY e(lp, s)
  GROUP BY r.pos) q_2) m1,
                            ( SELECT min(f.value)::bigint - 1 AS lo0,
                                    max(f.value)::bigint + 1 AS hi1,
                                    max(f.value)::bigint - min(f.value)::bigint + 1 AS w
                                   FROM wide_fp f) m2
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
                 OFFSET 0) q_1
         OFFSET 0) q;
