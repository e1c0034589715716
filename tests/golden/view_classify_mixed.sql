-- golden SQL of: SELECT madnb.create_nb_classify_view('mixed_fp', 'mixed_cp', 'mixed_test', 'id', 'attributes', 3, 'mixed_np', 'mixed_classify')
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
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 22
SELECT pg_catalog.to_regclass($1)::pg_catalog.oid::pg_catalog.int8 AS oid

-- statement 23
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 24
SELECT c.oid::pg_catalog.int8 AS oid, n.nspname::pg_catalog.text AS schema, c.relname::pg_catalog.text AS name, c.relkind::pg_catalog.text AS kind FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace WHERE c.oid OPERATOR(pg_catalog.=) $1

-- statement 25
WITH RECURSIVE w(ord, name) AS (SELECT u.o, u.n FROM pg_catalog.unnest($2::pg_catalog.name[]) WITH ORDINALITY AS u(n, o)), c AS (SELECT w.ord, a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM w LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) w.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped LEFT JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid), d(ord, oid) AS (SELECT c.ord, COALESCE(c.elemoid, c.typoid)::pg_catalog.oid FROM c WHERE $3 AND c.typoid IS NOT NULL UNION ALL SELECT d.ord, t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT c.name, c.typ, c.typoid, c.elem, c.elemoid, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid OPERATOR(pg_catalog.=) o.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) o.opcnamespace WHERE o.opcdefault AND m.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND o.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d WHERE d.ord OPERATOR(pg_catalog.=) c.ord) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1) AS equality_schema FROM c ORDER BY c.ord

-- statement 26
WITH RECURSIVE w(ord, name) AS (SELECT u.o, u.n FROM pg_catalog.unnest($2::pg_catalog.name[]) WITH ORDINALITY AS u(n, o)), c AS (SELECT w.ord, a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM w LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) w.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped LEFT JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid), d(ord, oid) AS (SELECT c.ord, COALESCE(c.elemoid, c.typoid)::pg_catalog.oid FROM c WHERE $3 AND c.typoid IS NOT NULL UNION ALL SELECT d.ord, t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT c.name, c.typ, c.typoid, c.elem, c.elemoid, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid OPERATOR(pg_catalog.=) o.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) o.opcnamespace WHERE o.opcdefault AND m.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND o.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d WHERE d.ord OPERATOR(pg_catalog.=) c.ord) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1) AS equality_schema FROM c ORDER BY c.ord

-- statement 27
WITH RECURSIVE w(ord, name) AS (SELECT u.o, u.n FROM pg_catalog.unnest($2::pg_catalog.name[]) WITH ORDINALITY AS u(n, o)), c AS (SELECT w.ord, a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM w LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) w.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped LEFT JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid), d(ord, oid) AS (SELECT c.ord, COALESCE(c.elemoid, c.typoid)::pg_catalog.oid FROM c WHERE $3 AND c.typoid IS NOT NULL UNION ALL SELECT d.ord, t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT c.name, c.typ, c.typoid, c.elem, c.elemoid, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid OPERATOR(pg_catalog.=) o.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) o.opcnamespace WHERE o.opcdefault AND m.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND o.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d WHERE d.ord OPERATOR(pg_catalog.=) c.ord) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1) AS equality_schema FROM c ORDER BY c.ord

-- statement 28
WITH RECURSIVE w(ord, name) AS (SELECT u.o, u.n FROM pg_catalog.unnest($2::pg_catalog.name[]) WITH ORDINALITY AS u(n, o)), c AS (SELECT w.ord, a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM w LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) w.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped LEFT JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid), d(ord, oid) AS (SELECT c.ord, COALESCE(c.elemoid, c.typoid)::pg_catalog.oid FROM c WHERE $3 AND c.typoid IS NOT NULL UNION ALL SELECT d.ord, t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT c.name, c.typ, c.typoid, c.elem, c.elemoid, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid OPERATOR(pg_catalog.=) o.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) o.opcnamespace WHERE o.opcdefault AND m.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND o.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d WHERE d.ord OPERATOR(pg_catalog.=) c.ord) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1) AS equality_schema FROM c ORDER BY c.ord

-- statement 29
WITH RECURSIVE w(ord, name) AS (SELECT u.o, u.n FROM pg_catalog.unnest($2::pg_catalog.name[]) WITH ORDINALITY AS u(n, o)), c AS (SELECT w.ord, a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM w LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) w.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped LEFT JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid), d(ord, oid) AS (SELECT c.ord, COALESCE(c.elemoid, c.typoid)::pg_catalog.oid FROM c WHERE $3 AND c.typoid IS NOT NULL UNION ALL SELECT d.ord, t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT c.name, c.typ, c.typoid, c.elem, c.elemoid, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid OPERATOR(pg_catalog.=) o.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) o.opcnamespace WHERE o.opcdefault AND m.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND o.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d WHERE d.ord OPERATOR(pg_catalog.=) c.ord) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1) AS equality_schema FROM c ORDER BY c.ord

-- statement 30
SELECT pg_catalog.max(a.attr)::pg_catalog.int8 AS hi, pg_catalog.min(a.attr)::pg_catalog.int8 AS lo FROM (SELECT f.attr FROM "public"."mixed_fp" AS f UNION ALL SELECT x.attr FROM "public"."mixed_np" AS x) AS a

-- statement 31
SELECT pg_catalog.obj_description($1, 'pg_class') AS c

-- statement 32
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 33
SELECT pg_catalog.to_regclass($1)::pg_catalog.oid::pg_catalog.int8 AS oid

-- statement 34
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 35
SELECT c.oid::pg_catalog.int8 AS oid, n.nspname::pg_catalog.text AS schema, c.relname::pg_catalog.text AS name, c.relkind::pg_catalog.text AS kind FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace WHERE c.oid OPERATOR(pg_catalog.=) $1

-- statement 36
WITH RECURSIVE w(ord, name) AS (SELECT u.o, u.n FROM pg_catalog.unnest($2::pg_catalog.name[]) WITH ORDINALITY AS u(n, o)), c AS (SELECT w.ord, a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM w LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) w.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped LEFT JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid), d(ord, oid) AS (SELECT c.ord, COALESCE(c.elemoid, c.typoid)::pg_catalog.oid FROM c WHERE $3 AND c.typoid IS NOT NULL UNION ALL SELECT d.ord, t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT c.name, c.typ, c.typoid, c.elem, c.elemoid, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid OPERATOR(pg_catalog.=) o.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) o.opcnamespace WHERE o.opcdefault AND m.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND o.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d WHERE d.ord OPERATOR(pg_catalog.=) c.ord) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1) AS equality_schema FROM c ORDER BY c.ord

-- statement 37
WITH RECURSIVE w(ord, name) AS (SELECT u.o, u.n FROM pg_catalog.unnest($2::pg_catalog.name[]) WITH ORDINALITY AS u(n, o)), c AS (SELECT w.ord, a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM w LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) w.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped LEFT JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid), d(ord, oid) AS (SELECT c.ord, COALESCE(c.elemoid, c.typoid)::pg_catalog.oid FROM c WHERE $3 AND c.typoid IS NOT NULL UNION ALL SELECT d.ord, t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT c.name, c.typ, c.typoid, c.elem, c.elemoid, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid OPERATOR(pg_catalog.=) o.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) o.opcnamespace WHERE o.opcdefault AND m.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND o.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d WHERE d.ord OPERATOR(pg_catalog.=) c.ord) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1) AS equality_schema FROM c ORDER BY c.ord

-- statement 38
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 39
SELECT pg_catalog.current_schema()::pg_catalog.text AS s

-- statement 40
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 41
SELECT pg_catalog.to_regclass($1) IS NOT NULL AS taken

-- statement 42
SELECT pg_catalog.count(*)::int8 AS k FROM "public"."mixed_cp" AS m

-- statement 43
WITH RECURSIVE w(ord, name) AS (SELECT u.o, u.n FROM pg_catalog.unnest($2::pg_catalog.name[]) WITH ORDINALITY AS u(n, o)), c AS (SELECT w.ord, a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM w LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) w.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped LEFT JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid), d(ord, oid) AS (SELECT c.ord, COALESCE(c.elemoid, c.typoid)::pg_catalog.oid FROM c WHERE $3 AND c.typoid IS NOT NULL UNION ALL SELECT d.ord, t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT c.name, c.typ, c.typoid, c.elem, c.elemoid, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid OPERATOR(pg_catalog.=) o.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) o.opcnamespace WHERE o.opcdefault AND m.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND o.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d WHERE d.ord OPERATOR(pg_catalog.=) c.ord) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1) AS equality_schema FROM c ORDER BY c.ord

-- statement 44
SELECT EXISTS (SELECT 1 FROM "public"."mixed_fp") AS e

-- statement 45
SELECT COALESCE(c.collisdeterministic, true) AS det FROM pg_catalog.pg_attribute AS a LEFT JOIN pg_catalog.pg_collation AS c ON c.oid = a.attcollation WHERE a.attrelid = $1 AND a.attname = $2

-- statement 46
SELECT COALESCE(c.collisdeterministic, true) AS det FROM pg_catalog.pg_attribute AS a LEFT JOIN pg_catalog.pg_collation AS c ON c.oid = a.attcollation WHERE a.attrelid = $1 AND a.attname = $2

-- statement 47
SELECT COALESCE(q.whole AND q.lo >= -2147483647 AND q.hi <= 2147483646 AND q.slots <= 4 * q.n + 1024 AND q.slots <= 4000000, false) AS codes, COALESCE(q.whole AND q.lo >= -2147483647 AND q.hi <= 2147483646 AND q.width * 3 <= 4 * q.n + 4096 AND q.width * 6 <= 4000000, false) AS rectangle FROM (SELECT pg_catalog.sum(r.span) AS slots, pg_catalog.sum(r.n) AS n, pg_catalog.bool_and(r.whole) AS whole, pg_catalog.min(r.lo) AS lo, pg_catalog.max(r.hi) AS hi, pg_catalog.max(r.hi) - pg_catalog.min(r.lo) + 1 AS width FROM (SELECT pg_catalog.min(f.value)::pg_catalog.numeric AS lo, pg_catalog.max(f.value)::pg_catalog.numeric AS hi, pg_catalog.max(f.value)::pg_catalog.numeric - pg_catalog.min(f.value)::pg_catalog.numeric + 1 AS span, pg_catalog.count(*) AS n, pg_catalog.bool_and(f.value = pg_catalog.trunc(f.value)) AS whole FROM "public"."mixed_fp" AS f GROUP BY f.attr) AS r) AS q

-- statement 48
SELECT DISTINCT x.attr FROM "public"."mixed_np" AS x WHERE x.attr IS NOT NULL

-- statement 49
SELECT 1 FROM pg_catalog.pg_attribute WHERE attrelid = $1 AND attname = 'smoothing' AND attnum > 0 AND NOT attisdropped

-- statement 50
CREATE VIEW "public"."mixed_classify" AS SELECT q.key, CASE WHEN q.ok THEN pg_catalog.array_remove(ARRAY[CASE WHEN q.l1 >= q.thr THEN q.classes[1] END, CASE WHEN q.l2 >= q.thr THEN q.classes[2] END], NULL) END AS nb_classification FROM (SELECT q.*, GREATEST(q.l1, q.l2) - 1e-12::pg_catalog.float8 * GREATEST(1::pg_catalog.float8, pg_catalog.abs(GREATEST(q.l1, q.l2))) AS thr FROM (SELECT src."id" AS key, m.classes, (pg_catalog.cardinality(src."attributes") OPERATOR(pg_catalog.=) ANY ('{0,3}'::pg_catalog.int4[])) IS NOT FALSE AS ok, m.g1 + COALESCE(m.lut1[1][s.i1], 0) + COALESCE(m.g4 - (m.g7 * (s.x2 - m.g10)) ^ 2, 0) + COALESCE(m.lut1[3][s.i3], 0) AS l1, m.g2 + COALESCE(m.lut2[1][s.i1], 0) + COALESCE(m.g13 - (m.g16 * (s.x2 - m.g19)) ^ 2, 0) + COALESCE(m.lut2[3][s.i3], 0) AS l2 FROM "public"."mixed_test" AS src JOIN (SELECT DISTINCT ON (mm.checked) mm.ready, mm.classes, mm.g[1] AS g1, mm.g[2] AS g2, mm.g[4] AS g4, mm.g[7] AS g7, mm.g[10] AS g10, mm.g[13] AS g13, mm.g[16] AS g16, mm.g[19] AS g19, mm.g[22] AS g22, mm.g[25] AS g25, mm.lut1, mm.lut2, mm.lo0, mm.hi1 FROM (SELECT m0.checked, m0.checked AND m3.whole AND madnb._check_view_model(m6.isnum IS NOT DISTINCT FROM '{f,t,f}'::pg_catalog.bool[], 'numeric attributes') AS ready, m0.classes, prior || a1 || r1 || mu1 || a2 || r2 || mu2 || nlo || nhi AS g, lut1, lut2, lo0, hi1 FROM (SELECT pg_catalog.array_agg(c.class ORDER BY c.pos) AS classes, pg_catalog.array_agg((CASE WHEN (c.class_cnt::pg_catalog.float8 / c.all_cnt) > 0 THEN pg_catalog.ln((c.class_cnt::pg_catalog.float8 / c.all_cnt)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) ORDER BY c.pos) AS prior, madnb._check_class_count(pg_catalog.count(*), 2) AS checked FROM (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "public"."mixed_cp" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c) AS m0, (SELECT pg_catalog.max(q.arr) FILTER (WHERE q.pos = 1) AS lut1, pg_catalog.max(q.arr) FILTER (WHERE q.pos = 2) AS lut2 FROM (SELECT r.pos, pg_catalog.array_agg(r.arr ORDER BY r.a) AS arr FROM (SELECT c.pos, g.a, pg_catalog.array_agg(COALESCE(x.lp, 0::pg_catalog.float8) ORDER BY s.s) AS arr FROM (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "public"."mixed_cp" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c CROSS JOIN pg_catalog.generate_series(1, 3) AS g(a) CROSS JOIN (SELECT b.hi1 - b.lo0 - 1 AS w FROM (SELECT pg_catalog.min(f.value)::pg_catalog.int8 - 1 AS lo0, pg_catalog.max(f.value)::pg_catalog.int8 + 1 AS hi1, pg_catalog.max(f.value)::pg_catalog.int8 - pg_catalog.min(f.value)::pg_catalog.int8 + 1 AS w FROM "public"."mixed_fp" AS f) AS b) AS b CROSS JOIN LATERAL pg_catalog.unnest(pg_catalog.array_fill(0, ARRAY[b.w::pg_catalog.int4])) WITH ORDINALITY AS s(z, s) LEFT JOIN (SELECT x.attr, x.pos, (x.value::pg_catalog.int8 - b.lo0)::pg_catalog.int4 AS slot, x.lp FROM (SELECT f.attr, f.value, c.pos, CASE WHEN (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) <= 1000000.0::pg_catalog.float8 THEN (CASE WHEN (f.cnt + (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8))) > 0 THEN pg_catalog.ln((f.cnt + (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)))::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) - (CASE WHEN (n.cnt + (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) * f.attr_cnt) > 0 THEN pg_catalog.ln((n.cnt + (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) * f.attr_cnt)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) ELSE (CASE WHEN (f.cnt / (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) + 1) > 0 THEN pg_catalog.ln((f.cnt / (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) + 1)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) - (CASE WHEN (n.cnt / (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) + f.attr_cnt) > 0 THEN pg_catalog.ln((n.cnt / (COALESCE(f."smoothing"::pg_catalog.float8, 1::pg_catalog.float8)) + f.attr_cnt)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) END AS lp FROM "public"."mixed_fp" AS f JOIN (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "public"."mixed_cp" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c ON c.class = f.class JOIN (SELECT g.class, g.attr, pg_catalog.sum(g.cnt) AS cnt FROM "public"."mixed_fp" AS g GROUP BY g.class, g.attr) AS n ON n.class = f.class AND n.attr = f.attr) AS x CROSS JOIN (SELECT pg_catalog.min(f.value)::pg_catalog.int8 - 1 AS lo0, pg_catalog.max(f.value)::pg_catalog.int8 + 1 AS hi1, pg_catalog.max(f.value)::pg_catalog.int8 - pg_catalog.min(f.value)::pg_catalog.int8 + 1 AS w FROM "public"."mixed_fp" AS f) AS b) AS x ON x.pos = c.pos AND x.attr = g.a AND x.slot = s.s WHERE madnb._check_code_slots(b.w::pg_catalog.int8 * 6, 4000000) > 0 GROUP BY c.pos, g.a) AS r GROUP BY r.pos) AS q) AS m1, (SELECT pg_catalog.min(f.value)::pg_catalog.int8 - 1 AS lo0, pg_catalog.max(f.value)::pg_catalog.int8 + 1 AS hi1, pg_catalog.max(f.value)::pg_catalog.int8 - pg_catalog.min(f.value)::pg_catalog.int8 + 1 AS w FROM "public"."mixed_fp" AS f) AS m2, (SELECT madnb._check_whole_values(pg_catalog.bool_and(f.value = pg_catalog.trunc(f.value))) AS whole FROM "public"."mixed_fp" AS f) AS m3, (SELECT pg_catalog.max(q.mu) FILTER (WHERE q.pos = 1) AS mu1, pg_catalog.max(q.r) FILTER (WHERE q.pos = 1) AS r1, pg_catalog.max(q.a) FILTER (WHERE q.pos = 1) AS a1, pg_catalog.max(q.mu) FILTER (WHERE q.pos = 2) AS mu2, pg_catalog.max(q.r) FILTER (WHERE q.pos = 2) AS r2, pg_catalog.max(q.a) FILTER (WHERE q.pos = 2) AS a2 FROM (SELECT c.pos, pg_catalog.array_agg(COALESCE(w.mu, 0::pg_catalog.float8) ORDER BY g.a) AS mu, pg_catalog.array_agg(COALESCE(pg_catalog.sqrt(0.5 / w.w), 0::pg_catalog.float8) ORDER BY g.a) AS r, pg_catalog.array_agg(COALESCE(-0.5 * pg_catalog.ln(2 * pg_catalog.pi() * w.w), 0::pg_catalog.float8) ORDER BY g.a) AS a FROM (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "public"."mixed_cp" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c CROSS JOIN pg_catalog.generate_series(1, 3) AS g(a) LEFT JOIN (SELECT b.attr, b.pos, b.mu, GREATEST(COALESCE(b.var, 0), CASE WHEN f.total_var > 0 THEN 1e-09 * f.total_var ELSE 1 END) AS w FROM (SELECT x.attr, c.pos, x.attr_mean AS mu, x.attr_var AS var, x.value_cnt AS cnt FROM "public"."mixed_np" AS x JOIN (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "public"."mixed_cp" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c ON c.class = x.class WHERE x.value_cnt > 0) AS b JOIN (SELECT b.attr, pg_catalog.sum(GREATEST(b.cnt - 1, 0) * COALESCE(b.var, 0) + b.cnt * (b.mu - g.gm) * (b.mu - g.gm)) / g.tot AS total_var FROM (SELECT x.attr, c.pos, x.attr_mean AS mu, x.attr_var AS var, x.value_cnt AS cnt FROM "public"."mixed_np" AS x JOIN (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "public"."mixed_cp" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c ON c.class = x.class WHERE x.value_cnt > 0) AS b JOIN (SELECT b.attr, pg_catalog.sum(b.cnt * b.mu) / pg_catalog.sum(b.cnt) AS gm, pg_catalog.sum(b.cnt) AS tot FROM (SELECT x.attr, c.pos, x.attr_mean AS mu, x.attr_var AS var, x.value_cnt AS cnt FROM "public"."mixed_np" AS x JOIN (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "public"."mixed_cp" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c ON c.class = x.class WHERE x.value_cnt > 0) AS b GROUP BY b.attr) AS g ON g.attr = b.attr GROUP BY b.attr, g.tot) AS f ON f.attr = b.attr) AS w ON w.pos = c.pos AND w.attr = g.a GROUP BY c.pos) AS q) AS m4, (SELECT pg_catalog.array_agg(COALESCE(b.lo, 0::pg_catalog.float8) ORDER BY g.a) AS nlo, pg_catalog.array_agg(COALESCE(b.hi, 0::pg_catalog.float8) ORDER BY g.a) AS nhi FROM pg_catalog.generate_series(1, 3) AS g(a) LEFT JOIN (SELECT w.attr, pg_catalog.min(w.mu) - 1e+100 * pg_catalog.sqrt(pg_catalog.min(w.w)) AS lo, pg_catalog.max(w.mu) + 1e+100 * pg_catalog.sqrt(pg_catalog.min(w.w)) AS hi FROM (SELECT b.attr, b.pos, b.mu, GREATEST(COALESCE(b.var, 0), CASE WHEN f.total_var > 0 THEN 1e-09 * f.total_var ELSE 1 END) AS w FROM (SELECT x.attr, c.pos, x.attr_mean AS mu, x.attr_var AS var, x.value_cnt AS cnt FROM "public"."mixed_np" AS x JOIN (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "public"."mixed_cp" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c ON c.class = x.class WHERE x.value_cnt > 0) AS b JOIN (SELECT b.attr, pg_catalog.sum(GREATEST(b.cnt - 1, 0) * COALESCE(b.var, 0) + b.cnt * (b.mu - g.gm) * (b.mu - g.gm)) / g.tot AS total_var FROM (SELECT x.attr, c.pos, x.attr_mean AS mu, x.attr_var AS var, x.value_cnt AS cnt FROM "public"."mixed_np" AS x JOIN (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "public"."mixed_cp" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c ON c.class = x.class WHERE x.value_cnt > 0) AS b JOIN (SELECT b.attr, pg_catalog.sum(b.cnt * b.mu) / pg_catalog.sum(b.cnt) AS gm, pg_catalog.sum(b.cnt) AS tot FROM (SELECT x.attr, c.pos, x.attr_mean AS mu, x.attr_var AS var, x.value_cnt AS cnt FROM "public"."mixed_np" AS x JOIN (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "public"."mixed_cp" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c ON c.class = x.class WHERE x.value_cnt > 0) AS b GROUP BY b.attr) AS g ON g.attr = b.attr GROUP BY b.attr, g.tot) AS f ON f.attr = b.attr) AS w GROUP BY w.attr) AS b ON b.attr = g.a) AS m5, (SELECT pg_catalog.array_agg(x.attr IS NOT NULL ORDER BY g.a) AS isnum FROM pg_catalog.generate_series(1, 3) AS g(a) LEFT JOIN (SELECT DISTINCT y.attr FROM "public"."mixed_np" AS y) AS x ON x.attr = g.a) AS m6) AS mm) AS m ON m.ready = (pg_catalog.num_nulls(src."id") >= 0) LEFT JOIN LATERAL (SELECT CASE WHEN src."attributes"[1] = pg_catalog.trunc(src."attributes"[1]) THEN (LEAST(GREATEST(src."attributes"[1], m.lo0), m.hi1) - m.lo0)::pg_catalog.int4 END AS i1, pg_catalog.float8smaller(pg_catalog.float8larger(NULLIF(src."attributes"[2]::pg_catalog.float8, 'NaN'::pg_catalog.float8), m.g22), m.g25) AS x2, CASE WHEN src."attributes"[3] = pg_catalog.trunc(src."attributes"[3]) THEN (LEAST(GREATEST(src."attributes"[3], m.lo0), m.hi1) - m.lo0)::pg_catalog.int4 END AS i3) AS s ON m.ready OFFSET 0) AS q OFFSET 0) AS q

-- statement 51
COMMENT ON VIEW "public"."mixed_classify" IS 'madnb naive Bayes classification of public.mixed_test by the model in public.mixed_cp, public.mixed_fp, public.mixed_np'

-- statement 52
SELECT pg_catalog.set_config('search_path', $1, true)

-- view definition of mixed_classify (pg_get_viewdef)
 SELECT q.key,
        CASE
            WHEN q.ok THEN array_remove(ARRAY[
            CASE
                WHEN q.l1 >= q.thr THEN q.classes[1]
                ELSE NULL::text
            END,
            CASE
                WHEN q.l2 >= q.thr THEN q.classes[2]
                ELSE NULL::text
            END], NULL::text)
            ELSE NULL::text[]
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
                    m.g1 + COALESCE(m.lut1[1][s.i1], 0::double precision) + COALESCE(m.g4 - ((m.g7 * (s.x2 - m.g10)) ^ 2::double precision), 0::double precision) + COALESCE(m.lut1[3][s.i3], 0::double precision) AS l1,
                    m.g2 + COALESCE(m.lut2[1][s.i1], 0::double precision) + COALESCE(m.g13 - ((m.g16 * (s.x2 - m.g19)) ^ 2::double precision), 0::double precision) + COALESCE(m.lut2[3][s.i3], 0::double precision) AS l2
                   FROM mixed_test src
                     JOIN ( SELECT DISTINCT ON (mm.checked) mm.ready,
                            mm.classes,
                            mm.g[1] AS g1,
                            mm.g[2] AS g2,
                            mm.g[4] AS g4,
                            mm.g[7] AS g7,
                            mm.g[10] AS g10,
                            mm.g[13] AS g13,
                            mm.g[16] AS g16,
                            mm.g[19] AS g19,
                            mm.g[22] AS g22,
                            mm.g[25] AS g25,
                            mm.lut1,
                            mm.lut2,
                            mm.lo0,
                            mm.hi1
                           FROM ( SELECT m0.checked,
                                    m0.checked AND m3.whole AND _check_view_model(NOT m6.isnum IS DISTINCT FROM '{f,t,f}'::boolean[], 'numeric attributes'::text) AS ready,
                                    m0.classes,
                                    (((((((m0.prior || m4.a1) || m4.r1) || m4.mu1) || m4.a2) || m4.r2) || m4.mu2) || m5.nlo) || m5.nhi AS g,
                                    m1.lut1,
                                    m1.lut2,
                                    m2.lo0,
                                    m2.hi1
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
       FROM mixed_cp m_1) s_1
       CROSS JOIN LATERAL UNNEST(s_1.c, s_1.n, s_1.a) WITH ORDINALITY u(class, class_cnt, all_cnt, pos)) c) m0,
                                    ( SELECT max(q_2.arr) FILTER (WHERE q_2.pos = 1) AS lut1,
    max(q_2.arr) FILTER (WHERE q_2.pos = 2) AS lut2
   FROM ( SELECT r.pos,
      array_agg(r.arr ORDER BY r.a) AS arr
     FROM ( SELECT c.pos,
        g.a,
        array_agg(COALESCE(x.lp, 0::double precision) ORDER BY s_1.s) AS arr
       FROM ( SELECT u.class,
          u.class_cnt,
          u.all_cnt,
          u.pos::integer AS pos
         FROM ( SELECT array_agg(m_1.class ORDER BY m_1.class) AS c,
            array_agg(m_1.class_cnt ORDER BY m_1.class) AS n,
            array_agg(m_1.all_cnt ORDER BY m_1.class) AS a
           FROM mixed_cp m_1) s_2
           CROSS JOIN LATERAL UNNEST(s_2.c, s_2.n, s_2.a) WITH ORDINALITY u(class, class_cnt, all_cnt, pos)) c
         CROSS JOIN generate_series(1, 3) g(a)
         CROSS JOIN ( SELECT b_1.hi1 - b_1.lo0 - 1 AS w
         FROM ( SELECT min(f.value)::bigint - 1 AS lo0,
            max(f.value)::bigint + 1 AS hi1,
            max(f.value)::bigint - min(f.value)::bigint + 1 AS w
           FROM mixed_fp f) b_1) b
         CROSS JOIN LATERAL unnest(array_fill(0, ARRAY[b.w::integer])) WITH ORDINALITY s_1(z, s)
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
           FROM mixed_fp f
             JOIN ( SELECT u.class,
              u.class_cnt,
              u.all_cnt,
              u.pos::integer AS pos
             FROM ( SELECT array_agg(m_1.class ORDER BY m_1.class) AS c,
                array_agg(m_1.class_cnt ORDER BY m_1.class) AS n,
                array_agg(m_1.all_cnt ORDER BY m_1.class) AS a
               FROM mixed_cp m_1) s_2
               CROSS JOIN LATERAL UNNEST(s_2.c, s_2.n, s_2.a) WITH ORDINALITY u(class, class_cnt, all_cnt, pos)) c_1 ON c_1.class = f.class
             JOIN ( SELECT g_1.class,
              g_1.attr,
              sum(g_1.cnt) AS cnt
             FROM mixed_fp g_1
            GROUP BY g_1.class, g_1.attr) n ON n.class = f.class AND n.attr = f.attr) x_1
           CROSS JOIN ( SELECT min(f.value)::bigint - 1 AS lo0,
            max(f.value)::bigint + 1 AS hi1,
            max(f.value)::bigint - min(f.value)::bigint + 1 AS w
           FROM mixed_fp f) b_1) x ON x.pos = c.pos AND x.attr = g.a AND x.slot = s_1.s
      WHERE _check_code_slots(b.w * 6, 4000000) > 0
      GROUP BY c.pos, g.a) r
    GROUP BY r.pos) q_2) m1,
                                    ( SELECT min(f.value)::bigint - 1 AS lo0,
    max(f.value)::bigint + 1 AS hi1,
    max(f.value)::bigint - min(f.value)::bigint + 1 AS w
   FROM mixed_fp f) m2,
                                    ( SELECT _check_whole_values(bool_and(f.value = trunc(f.value))) AS whole
   FROM mixed_fp f) m3,
                                    ( SELECT max(q_2.mu) FILTER (WHERE q_2.pos = 1) AS mu1,
    max(q_2.r) FILTER (WHERE q_2.pos = 1) AS r1,
    max(q_2.a) FILTER (WHERE q_2.pos = 1) AS a1,
    max(q_2.mu) FILTER (WHERE q_2.pos = 2) AS mu2,
    max(q_2.r) FILTER (WHERE q_2.pos = 2) AS r2,
    max(q_2.a) FILTER (WHERE q_2.pos = 2) AS a2
   FROM ( SELECT c.pos,
      array_agg(COALESCE(w.mu, 0::double precision) ORDER BY g.a) AS mu,
      array_agg(COALESCE(sqrt(0.5::double precision / w.w), 0::double precision) ORDER BY g.a) AS r,
      array_agg(COALESCE('-0.5'::numeric::double precision * ln(2::double precision * pi() * w.w), 0::double precision) ORDER BY g.a) AS a
     FROM ( SELECT u.class,
        u.class_cnt,
        u.all_cnt,
        u.pos::integer AS pos
       FROM ( SELECT array_agg(m_1.class ORDER BY m_1.class) AS c,
          array_agg(m_1.class_cnt ORDER BY m_1.class) AS n,
          array_agg(m_1.all_cnt ORDER BY m_1.class) AS a
         FROM mixed_cp m_1) s_1
         CROSS JOIN LATERAL UNNEST(s_1.c, s_1.n, s_1.a) WITH ORDINALITY u(class, class_cnt, all_cnt, pos)) c
       CROSS JOIN generate_series(1, 3) g(a)
       LEFT JOIN ( SELECT b.attr,
        b.pos,
        b.mu,
        GREATEST(COALESCE(b.var, 0::double precision),
      CASE
       WHEN f.total_var > 0::double precision THEN 0.000000001::double precision * f.total_var
       ELSE 1::double precision
      END) AS w
       FROM ( SELECT x.attr,
          c_1.pos,
          x.attr_mean AS mu,
          x.attr_var AS var,
          x.value_cnt AS cnt
         FROM mixed_np x
           JOIN ( SELECT u.class,
            u.class_cnt,
            u.all_cnt,
            u.pos::integer AS pos
           FROM ( SELECT array_agg(m_1.class ORDER BY m_1.class) AS c,
              array_agg(m_1.class_cnt ORDER BY m_1.class) AS n,
              array_agg(m_1.all_cnt ORDER BY m_1.class) AS a
             FROM mixed_cp m_1) s_1
             CROSS JOIN LATERAL UNNEST(s_1.c, s_1.n, s_1.a) WITH ORDINALITY u(class, class_cnt, all_cnt, pos)) c_1 ON c_1.class = x.class
        WHERE x.value_cnt > 0) b
         JOIN ( SELECT b_1.attr,
          sum(GREATEST(b_1.cnt - 1, 0::bigint)::double precision * COALESCE(b_1.var, 0::double precision) + b_1.cnt::double precision * (b_1.mu - g_1.gm) * (b_1.mu - g_1.gm)) / g_1.tot::double precision AS total_var
         FROM ( SELECT x.attr,
            c_1.pos,
            x.attr_mean AS mu,
            x.attr_var AS var,
            x.value_cnt AS cnt
           FROM mixed_np x
             JOIN ( SELECT u.class,
              u.class_cnt,
              u.all_cnt,
              u.pos::integer AS pos
             FROM ( SELECT array_agg(m_1.class ORDER BY m_1.class) AS c,
                array_agg(m_1.class_cnt ORDER BY m_1.class) AS n,
                array_agg(m_1.all_cnt ORDER BY m_1.class) AS a
               FROM mixed_cp m_1) s_1
               CROSS JOIN LATERAL UNNEST(s_1.c, s_1.n, s_1.a) WITH ORDINALITY u(class, class_cnt, all_cnt, pos)) c_1 ON c_1.class = x.class
          WHERE x.value_cnt > 0) b_1
           JOIN ( SELECT b_2.attr,
            sum(b_2.cnt::double precision * b_2.mu) / sum(b_2.cnt)::double precision AS gm,
            sum(b_2.cnt) AS tot
           FROM ( SELECT x.attr,
              c_1.pos,
              x.attr_mean AS mu,
              x.attr_var AS var,
              x.value_cnt AS cnt
             FROM mixed_np x
               JOIN ( SELECT u.class,
                u.class_cnt,
                u.all_cnt,
                u.pos::integer AS pos
               FROM ( SELECT array_agg(m_1.class ORDER BY m_1.class) AS c,
                  array_agg(m_1.class_cnt ORDER BY m_1.class) AS n,
                  array_agg(m_1.all_cnt ORDER BY m_1.class) AS a
                 FROM mixed_cp m_1) s_1
                 CROSS JOIN LATERAL UNNEST(s_1.c, s_1.n, s_1.a) WITH ORDINALITY u(class, class_cnt, all_cnt, pos)) c_1 ON c_1.class = x.class
            WHERE x.value_cnt > 0) b_2
          GROUP BY b_2.attr) g_1 ON g_1.attr = b_1.attr
        GROUP BY b_1.attr, g_1.tot) f ON f.attr = b.attr) w ON w.pos = c.pos AND w.attr = g.a
    GROUP BY c.pos) q_2) m4,
                                    ( SELECT array_agg(COALESCE(b.lo, 0::double precision) ORDER BY g.a) AS nlo,
    array_agg(COALESCE(b.hi, 0::double precision) ORDER BY g.a) AS nhi
   FROM generate_series(1, 3) g(a)
     LEFT JOIN ( SELECT w.attr,
      min(w.mu) - '10000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'::numeric::double precision * sqrt(min(w.w)) AS lo,
      max(w.mu) + '10000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'::numeric::double precision * sqrt(min(w.w)) AS hi
     FROM ( SELECT b_1.attr,
        b_1.pos,
        b_1.mu,
        GREATEST(COALESCE(b_1.var, 0::double precision),
      CASE
       WHEN f.total_var > 0::double precision THEN 0.000000001::double precision * f.total_var
       ELSE 1::double precision
      END) AS w
       FROM ( SELECT x.attr,
          c.pos,
          x.attr_mean AS mu,
          x.attr_var AS var,
          x.value_cnt AS cnt
         FROM mixed_np x
           JOIN ( SELECT u.class,
            u.class_cnt,
            u.all_cnt,
            u.pos::integer AS pos
           FROM ( SELECT array_agg(m_1.class ORDER BY m_1.class) AS c,
              array_agg(m_1.class_cnt ORDER BY m_1.class) AS n,
              array_agg(m_1.all_cnt ORDER BY m_1.class) AS a
             FROM mixed_cp m_1) s_1
             CROSS JOIN LATERAL UNNEST(s_1.c, s_1.n, s_1.a) WITH ORDINALITY u(class, class_cnt, all_cnt, pos)) c ON c.class = x.class
        WHERE x.value_cnt > 0) b_1
         JOIN ( SELECT b_2.attr,
          sum(GREATEST(b_2.cnt - 1, 0::bigint)::double precision * COALESCE(b_2.var, 0::double precision) + b_2.cnt::double precision * (b_2.mu - g_1.gm) * (b_2.mu - g_1.gm)) / g_1.tot::double precision AS total_var
         FROM ( SELECT x.attr,
            c.pos,
            x.attr_mean AS mu,
            x.attr_var AS var,
            x.value_cnt AS cnt
           FROM mixed_np x
             JOIN ( SELECT u.class,
              u.class_cnt,
              u.all_cnt,
              u.pos::integer AS pos
             FROM ( SELECT array_agg(m_1.class ORDER BY m_1.class) AS c,
                array_agg(m_1.class_cnt ORDER BY m_1.class) AS n,
                array_agg(m_1.all_cnt ORDER BY m_1.class) AS a
               FROM mixed_cp m_1) s_1
               CROSS JOIN LATERAL UNNEST(s_1.c, s_1.n, s_1.a) WITH ORDINALITY u(class, class_cnt, all_cnt, pos)) c ON c.class = x.class
          WHERE x.value_cnt > 0) b_2
           JOIN ( SELECT b_3.attr,
            sum(b_3.cnt::double precision * b_3.mu) / sum(b_3.cnt)::double precision AS gm,
            sum(b_3.cnt) AS tot
           FROM ( SELECT x.attr,
              c.pos,
              x.attr_mean AS mu,
              x.attr_var AS var,
              x.value_cnt AS cnt
             FROM mixed_np x
               JOIN ( SELECT u.class,
                u.class_cnt,
                u.all_cnt,
                u.pos::integer AS pos
               FROM ( SELECT array_agg(m_1.class ORDER BY m_1.class) AS c,
                  array_agg(m_1.class_cnt ORDER BY m_1.class) AS n,
                  array_agg(m_1.all_cnt ORDER BY m_1.class) AS a
                 FROM mixed_cp m_1) s_1
                 CROSS JOIN LATERAL UNNEST(s_1.c, s_1.n, s_1.a) WITH ORDINALITY u(class, class_cnt, all_cnt, pos)) c ON c.class = x.class
            WHERE x.value_cnt > 0) b_3
          GROUP BY b_3.attr) g_1 ON g_1.attr = b_2.attr
        GROUP BY b_2.attr, g_1.tot) f ON f.attr = b_1.attr) w
    GROUP BY w.attr) b ON b.attr = g.a) m5,
                                    ( SELECT array_agg(x.attr IS NOT NULL ORDER BY g.a) AS isnum
   FROM generate_series(1, 3) g(a)
     LEFT JOIN ( SELECT DISTINCT y.attr
     FROM mixed_np y) x ON x.attr = g.a) m6) mm) m ON m.ready = (num_nulls(src.id) >= 0)
                     LEFT JOIN LATERAL ( SELECT
                                CASE
                                    WHEN src.attributes[1] = trunc(src.attributes[1]) THEN (LEAST(GREATEST(src.attributes[1], m.lo0::double precision), m.hi1::double precision) - m.lo0::double precision)::integer
                                    ELSE NULL::integer
                                END AS i1,
                            float8smaller(float8larger(NULLIF(src.attributes[2], 'NaN'::double precision), m.g22), m.g25) AS x2,
                                CASE
                                    WHEN src.attributes[3] = trunc(src.attributes[3]) THEN (LEAST(GREATEST(src.attributes[3], m.lo0::double precision), m.hi1::double precision) - m.lo0::double precision)::integer
                                    ELSE NULL::integer
                                END AS i3) s ON m.ready
                 OFFSET 0) q_1
         OFFSET 0) q;
