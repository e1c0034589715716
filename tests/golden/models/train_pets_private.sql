-- golden SQL of: SELECT madnb.train('pets_dp', 'pets', 'species', exclude => ARRAY['id'], categorical => ARRAY['legs'], epsilon => 1, bounds => '{"weight": [0, 20], "age": [0, 10]}', domain => '{"species": ["cat", "dog", "fish"], "colour": ["black", "white", "ginger"], "legs": [0, 2, 4], "indoor": [true, false]}')
-- regenerate: MADNB_REGEN_GOLDEN=1 .venv/bin/pytest tests/test_golden_sql.py

-- statement 1
SELECT pg_catalog.current_setting('search_path') AS p, pg_catalog.current_setting('extra_float_digits') AS f, pg_catalog.current_setting('DateStyle') AS d

-- statement 2
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 3
SELECT n.oid IS NOT NULL AS found, pg_catalog.has_schema_privilege(n.oid, 'CREATE') AS ok, (SELECT r.rolname::pg_catalog.text FROM pg_catalog.pg_roles AS r WHERE NOT r.rolsuper AND r.rolname OPERATOR(pg_catalog.<>) CURRENT_USER AND pg_catalog.has_schema_privilege(r.oid, n.oid, 'CREATE') ORDER BY r.rolname LIMIT 1) AS other, pg_catalog.has_schema_privilege('public', n.oid, 'CREATE') AS everyone FROM (SELECT 1) AS one LEFT JOIN pg_catalog.pg_namespace AS n ON n.nspname OPERATOR(pg_catalog.=) $1

-- statement 4
SELECT pg_catalog.pg_advisory_xact_lock(1835101548, pg_catalog.hashtext($1))

-- statement 5
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 6
SELECT pg_catalog.to_regclass($1)::pg_catalog.oid::pg_catalog.int8 AS oid

-- statement 7
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 8
SELECT c.oid::pg_catalog.int8 AS oid, n.nspname::pg_catalog.text AS schema, c.relname::pg_catalog.text AS name, c.relkind::pg_catalog.text AS kind FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace WHERE c.oid OPERATOR(pg_catalog.=) $1

-- statement 9
WITH RECURSIVE d(top, oid, depth) AS (SELECT a.atttypid, a.atttypid, 0 FROM pg_catalog.pg_attribute AS a WHERE a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped UNION SELECT d.top, t.typbasetype, d.depth OPERATOR(pg_catalog.+) 1 FROM d JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT a.attname::pg_catalog.text AS name, b.oid::pg_catalog.int8 AS base, (b.typtype OPERATOR(pg_catalog.=) 'e') AS enum, b.typname::pg_catalog.text AS base_name, pg_catalog.format_type(b.oid, NULL) AS base_sql, (b.typnamespace OPERATOR(pg_catalog.=) 'pg_catalog'::pg_catalog.regnamespace AND b.typtype OPERATOR(pg_catalog.<>) 'e') AS builtin FROM pg_catalog.pg_attribute AS a JOIN LATERAL (SELECT d.oid FROM d WHERE d.top OPERATOR(pg_catalog.=) a.atttypid ORDER BY d.depth DESC LIMIT 1) AS bo ON true JOIN pg_catalog.pg_type AS b ON b.oid OPERATOR(pg_catalog.=) bo.oid WHERE a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped ORDER BY a.attnum

-- statement 10
SELECT a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type t ON t.oid OPERATOR(pg_catalog.=) a.atttypid WHERE a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) $2 AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped

-- statement 11
WITH RECURSIVE d(oid) AS (SELECT $1 UNION ALL SELECT t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT n.nspname::pg_catalog.text AS schema FROM pg_catalog.pg_opclass AS c JOIN pg_catalog.pg_am AS a ON a.oid OPERATOR(pg_catalog.=) c.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) c.opcnamespace WHERE c.opcdefault AND a.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND c.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1

-- statement 12
SELECT c.collname::pg_catalog.text AS coll FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_collation c ON c.oid OPERATOR(pg_catalog.=) a.attcollation WHERE a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) $2 AND NOT c.collisdeterministic

-- statement 13
SELECT a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type t ON t.oid OPERATOR(pg_catalog.=) a.atttypid WHERE a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) $2 AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped

-- statement 14
WITH RECURSIVE d(oid) AS (SELECT $1 UNION ALL SELECT t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT n.nspname::pg_catalog.text AS schema FROM pg_catalog.pg_opclass AS c JOIN pg_catalog.pg_am AS a ON a.oid OPERATOR(pg_catalog.=) c.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) c.opcnamespace WHERE c.opcdefault AND a.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND c.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1

-- statement 15
SELECT a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type t ON t.oid OPERATOR(pg_catalog.=) a.atttypid WHERE a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) $2 AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped

-- statement 16
WITH RECURSIVE d(oid) AS (SELECT $1 UNION ALL SELECT t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT n.nspname::pg_catalog.text AS schema FROM pg_catalog.pg_opclass AS c JOIN pg_catalog.pg_am AS a ON a.oid OPERATOR(pg_catalog.=) c.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) c.opcnamespace WHERE c.opcdefault AND a.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND c.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1

-- statement 17
SELECT a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type t ON t.oid OPERATOR(pg_catalog.=) a.atttypid WHERE a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) $2 AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped

-- statement 18
WITH RECURSIVE d(oid) AS (SELECT $1 UNION ALL SELECT t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT n.nspname::pg_catalog.text AS schema FROM pg_catalog.pg_opclass AS c JOIN pg_catalog.pg_am AS a ON a.oid OPERATOR(pg_catalog.=) c.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) c.opcnamespace WHERE c.opcdefault AND a.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND c.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1

-- statement 19
SELECT a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type t ON t.oid OPERATOR(pg_catalog.=) a.atttypid WHERE a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) $2 AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped

-- statement 20
WITH RECURSIVE d(oid) AS (SELECT $1 UNION ALL SELECT t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT n.nspname::pg_catalog.text AS schema FROM pg_catalog.pg_opclass AS c JOIN pg_catalog.pg_am AS a ON a.oid OPERATOR(pg_catalog.=) c.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) c.opcnamespace WHERE c.opcdefault AND a.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND c.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1

-- statement 21
SELECT a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type t ON t.oid OPERATOR(pg_catalog.=) a.atttypid WHERE a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) $2 AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped

-- statement 22
WITH RECURSIVE d(oid) AS (SELECT $1 UNION ALL SELECT t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) SELECT n.nspname::pg_catalog.text AS schema FROM pg_catalog.pg_opclass AS c JOIN pg_catalog.pg_am AS a ON a.oid OPERATOR(pg_catalog.=) c.opcmethod JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) c.opcnamespace WHERE c.opcdefault AND a.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) AND c.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d) AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1

-- statement 23
WITH RECURSIVE d(oid, base, typtype) AS (SELECT t.oid, t.typbasetype, t.typtype FROM pg_catalog.pg_type AS t WHERE t.oid OPERATOR(pg_catalog.=) $1 UNION ALL SELECT t.oid, t.typbasetype, t.typtype FROM d JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) d.base) SELECT d.oid::pg_catalog.int8 AS b, d.typtype::pg_catalog.text AS k FROM d WHERE d.base OPERATOR(pg_catalog.=) 0

-- statement 24
CREATE TEMPORARY TABLE "pg_temp"."madnb_column_domain_<hex1>" (attr pg_catalog.int4, value pg_catalog.text) ON COMMIT DROP

-- statement 25
INSERT INTO "pg_temp"."madnb_column_domain_<hex1>" (attr, value) SELECT DISTINCT m.o, CASE m.o WHEN 0 THEN r.v WHEN 1 THEN (((r.v)::pg_catalog.text)::pg_catalog.text COLLATE pg_catalog."C") WHEN 2 THEN (((r.v)::pg_catalog.int4)::pg_catalog.text COLLATE pg_catalog."C") WHEN 4 THEN (((r.v)::pg_catalog.bool)::pg_catalog.text COLLATE pg_catalog."C") END FROM ROWS FROM (pg_catalog.unnest($1::pg_catalog.text[]), pg_catalog.unnest($2::pg_catalog.text[])) AS r(a, v) JOIN ROWS FROM (pg_catalog.unnest($3::pg_catalog.text[]), pg_catalog.unnest($4::pg_catalog.int4[])) AS m(a, o) ON m.a OPERATOR(pg_catalog.=) r.a

-- statement 26
SELECT c.collname::pg_catalog.text AS coll FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_collation c ON c.oid OPERATOR(pg_catalog.=) a.attcollation WHERE a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) $2 AND NOT c.collisdeterministic

-- statement 27
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 28
SELECT pg_catalog.to_regclass($1)::pg_catalog.oid::pg_catalog.int8 AS oid

-- statement 29
SELECT pg_catalog.set_config('search_path', $1, true)

-- statement 30
SELECT c.oid::pg_catalog.int8 AS oid, n.nspname::pg_catalog.text AS schema, c.relname::pg_catalog.text AS name, c.relkind::pg_catalog.text AS kind FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace WHERE c.oid OPERATOR(pg_catalog.=) $1

-- statement 31
SELECT a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type t ON t.oid OPERATOR(pg_catalog.=) a.atttypid WHERE a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) $2 AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped

-- statement 32
SELECT a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, a.atttypid::pg_catalog.int8 AS typoid, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0      THEN t.typelem::pg_catalog.int8 END AS elemoid FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type t ON t.oid OPERATOR(pg_catalog.=) a.atttypid WHERE a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) $2 AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped

-- statement 33
SELECT m.kind, m.source, m.label, m.label_type, m.features::pg_catalog.text AS features, m.classes, m.smoothing, m.training_rows, m.parameters::pg_catalog.text AS parameters, m.statistics, m.functions, m.tables, m.owner::pg_catalog.text AS owner FROM madnb._models AS m WHERE m.schema_name OPERATOR(pg_catalog.=) $1 AND m.name OPERATOR(pg_catalog.=) $2

-- statement 34
SELECT p.oid::pg_catalog.regprocedure::pg_catalog.text AS f, pg_catalog.md5(p.prosrc) AS h FROM pg_catalog.pg_proc AS p WHERE p.pronamespace OPERATOR(pg_catalog.=) pg_catalog.to_regnamespace($1) AND p.proname::pg_catalog.text OPERATOR(pg_catalog.=) ANY ($2)

-- statement 35
SELECT pg_catalog.to_regclass(pg_catalog.quote_ident($1) OPERATOR(pg_catalog.||) '.' OPERATOR(pg_catalog.||) pg_catalog.quote_ident($2)) IS NOT NULL AS t

-- statement 36
SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_class c WHERE c.oid OPERATOR(pg_catalog.=) $1 AND c.relkind OPERATOR(pg_catalog.=) 'p' AND EXISTS (SELECT 1 FROM pg_catalog.pg_partition_tree(c.oid) p JOIN pg_catalog.pg_foreign_table f ON f.ftrelid OPERATOR(pg_catalog.=) p.relid)) AS s

-- statement 37
CREATE TEMPORARY TABLE pg_temp."madnb_domain_<hex2>" (o pg_catalog.int4 NOT NULL, cls character varying(8), v text) ON COMMIT DROP

-- statement 38
SELECT pg_catalog.array_agg(DISTINCT d.attr ORDER BY d.attr) FILTER (WHERE d.attr < 0 OR d.attr > 5 OR NOT (d.attr = 0 OR d.attr = ANY ('{1,2,4}'::pg_catalog.int4[]))) AS bad, pg_catalog.count(*) FILTER (WHERE d.attr IS NULL OR d.value IS NULL) AS nulls FROM "pg_temp"."madnb_column_domain_<hex1>" AS d

-- statement 39
WITH RECURSIVE d(oid, depth) AS (SELECT pg_catalog.to_regtype($1)::pg_catalog.oid, 0 UNION ALL SELECT t.typbasetype, d.depth OPERATOR(pg_catalog.+) 1 FROM d JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0::pg_catalog.oid) SELECT (b.typnamespace OPERATOR(pg_catalog.=) 'pg_catalog'::pg_catalog.regnamespace AND b.typtype OPERATOR(pg_catalog.<>) 'e') AS builtin FROM (SELECT d.oid FROM d ORDER BY d.depth DESC LIMIT 1) AS x JOIN pg_catalog.pg_type AS b ON b.oid OPERATOR(pg_catalog.=) x.oid

-- statement 40
WITH RECURSIVE d(oid, depth) AS (SELECT pg_catalog.to_regtype($1)::pg_catalog.oid, 0 UNION ALL SELECT t.typbasetype, d.depth OPERATOR(pg_catalog.+) 1 FROM d JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0::pg_catalog.oid) SELECT (b.typnamespace OPERATOR(pg_catalog.=) 'pg_catalog'::pg_catalog.regnamespace AND b.typtype OPERATOR(pg_catalog.<>) 'e') AS builtin FROM (SELECT d.oid FROM d ORDER BY d.depth DESC LIMIT 1) AS x JOIN pg_catalog.pg_type AS b ON b.oid OPERATOR(pg_catalog.=) x.oid

-- statement 41
INSERT INTO pg_temp."madnb_domain_<hex2>" (o, cls, v) SELECT DISTINCT d.attr::pg_catalog.int4, CASE WHEN d.attr = 0 THEN (CASE WHEN pg_catalog.num_nulls(d.value) OPERATOR(pg_catalog.=) 0 THEN pg_catalog.format('%s'::pg_catalog.text, d.value) END)::character varying(8) END, CASE WHEN d.attr > 0 THEN (CASE WHEN pg_catalog.num_nulls(d.value) OPERATOR(pg_catalog.=) 0 THEN pg_catalog.format('%s'::pg_catalog.text, d.value) END)::text END FROM "pg_temp"."madnb_column_domain_<hex1>" AS d

-- statement 42
SELECT pg_catalog.count(*) FILTER (WHERE d.o = 0) AS classes, pg_catalog.array_agg(DISTINCT d.o) FILTER (WHERE d.o > 0) AS attrs FROM pg_temp."madnb_domain_<hex2>" AS d

-- statement 43
CREATE TEMPORARY TABLE pg_temp."madnb_kept_<hex3>" (cls character varying(8), attr pg_catalog.int4 NOT NULL, value text, n pg_catalog.numeric, nv pg_catalog.int8, mean pg_catalog.float8, mean_lo pg_catalog.float8, var pg_catalog.float8, s1 pg_catalog.numeric, s2 pg_catalog.numeric)

-- statement 44
SELECT madnb._create_kept_statistics($1, $2::pg_catalog.regclass, CURRENT_USER)

-- statement 45
DROP TABLE pg_temp."madnb_kept_<hex3>"

-- statement 46
SELECT madnb.record_private_release($1::pg_catalog.oid::pg_catalog.regclass, $2::pg_catalog.numeric, $3::pg_catalog.jsonb) AS release_id

-- statement 47
INSERT INTO "madnb_statistics"."madnb_models.pets_dp" (cls, attr, value, n, s1, s2) SELECT x.cls, x.o, x.v, CASE WHEN x.o = ANY ('{3,5}'::pg_catalog.int4[]) THEN NULL ELSE madnb.dp_laplace(COALESCE(e.n, 0), 1, 0.125::pg_catalog.float8) END AS n, CASE WHEN x.o = ANY ('{3,5}'::pg_catalog.int4[]) THEN madnb.dp_laplace(COALESCE(e.s1, 0), 1048576, 0.125::pg_catalog.float8) END AS s1, CASE WHEN x.o = ANY ('{3,5}'::pg_catalog.int4[]) THEN madnb.dp_laplace(COALESCE(e.s2, 0), 1099511627776, 0.125::pg_catalog.float8) END AS s2 FROM (SELECT c.cls, 0::pg_catalog.int4 AS o, NULL::text AS v FROM pg_temp."madnb_domain_<hex2>" AS c WHERE c.o = 0 UNION ALL SELECT c.cls, a.o, a.v FROM pg_temp."madnb_domain_<hex2>" AS c JOIN pg_temp."madnb_domain_<hex2>" AS a ON a.o > 0 WHERE c.o = 0 UNION ALL SELECT c.cls, g.o, NULL::text FROM pg_temp."madnb_domain_<hex2>" AS c CROSS JOIN pg_catalog.unnest('{3,5}'::pg_catalog.int4[]) AS g(o) WHERE c.o = 0) AS x LEFT JOIN (SELECT t."species" AS cls, (u.o - 1)::pg_catalog.int4 AS o, CASE WHEN u.o = ANY ('{2,3,5}'::pg_catalog.int4[]) THEN u.val END AS v, pg_catalog.count(*) AS n, pg_catalog.sum((CASE WHEN u.o = ANY ('{4,6}'::pg_catalog.int4[]) AND u.x IS NOT NULL THEN LEAST(GREATEST(pg_catalog.round((LEAST(GREATEST(u.x, ('{NULL,NULL,NULL,0.0,NULL,0.0}'::pg_catalog.float8[])[u.o]), ('{NULL,NULL,NULL,20.0,NULL,10.0}'::pg_catalog.float8[])[u.o]) - ('{NULL,NULL,NULL,10.0,NULL,5.0}'::pg_catalog.float8[])[u.o]) * ('{NULL,NULL,NULL,104857.6,NULL,209715.2}'::pg_catalog.float8[])[u.o]), -1048576), 1048576)::pg_catalog.int8 END)) AS s1, pg_catalog.sum((CASE WHEN u.o = ANY ('{4,6}'::pg_catalog.int4[]) AND u.x IS NOT NULL THEN LEAST(GREATEST(pg_catalog.round((LEAST(GREATEST(u.x, ('{NULL,NULL,NULL,0.0,NULL,0.0}'::pg_catalog.float8[])[u.o]), ('{NULL,NULL,NULL,20.0,NULL,10.0}'::pg_catalog.float8[])[u.o]) - ('{NULL,NULL,NULL,10.0,NULL,5.0}'::pg_catalog.float8[])[u.o]) * ('{NULL,NULL,NULL,104857.6,NULL,209715.2}'::pg_catalog.float8[])[u.o]), -1048576), 1048576)::pg_catalog.int8 END) * (CASE WHEN u.o = ANY ('{4,6}'::pg_catalog.int4[]) AND u.x IS NOT NULL THEN LEAST(GREATEST(pg_catalog.round((LEAST(GREATEST(u.x, ('{NULL,NULL,NULL,0.0,NULL,0.0}'::pg_catalog.float8[])[u.o]), ('{NULL,NULL,NULL,20.0,NULL,10.0}'::pg_catalog.float8[])[u.o]) - ('{NULL,NULL,NULL,10.0,NULL,5.0}'::pg_catalog.float8[])[u.o]) * ('{NULL,NULL,NULL,104857.6,NULL,209715.2}'::pg_catalog.float8[])[u.o]), -1048576), 1048576)::pg_catalog.int8 END)) AS s2 FROM "public"."pets" AS t CROSS JOIN LATERAL (VALUES (NULL::pg_catalog.text, 1, NULL::pg_catalog.float8), (((t."colour")::pg_catalog.text COLLATE pg_catalog."C"), 2, NULL), (((t."legs")::pg_catalog.text COLLATE pg_catalog."C"), 3, NULL), (NULL, 4, CASE WHEN (t."weight")::pg_catalog.float8 OPERATOR(pg_catalog.=) 'NaN'::pg_catalog.float8 THEN NULL ELSE (t."weight")::pg_catalog.float8 END), (((t."indoor")::pg_catalog.text COLLATE pg_catalog."C"), 5, NULL), (NULL, 6, CASE WHEN (t."age")::pg_catalog.numeric IS NOT NULL AND (t."age")::pg_catalog.numeric OPERATOR(pg_catalog.<>) 'NaN'::pg_catalog.numeric THEN (LEAST(GREATEST((t."age")::pg_catalog.numeric, '0.0'::pg_catalog.numeric), '10.0'::pg_catalog.numeric))::pg_catalog.float8 END)) AS u(val, o, x) WHERE t."species" IS NOT NULL AND u.o <= 6 GROUP BY 1, 2, 3) AS e ON e.cls = x.cls AND e.o = x.o AND ARRAY[e.v::text] OPERATOR(pg_catalog.=) ARRAY[x.v::text]

-- statement 48
SELECT pg_catalog.to_char(pg_catalog.statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t

-- statement 49
SELECT pg_catalog.md5(COALESCE(pg_catalog.string_agg(x.c, E'\n' ORDER BY x.c COLLATE "C"), '')) AS f FROM (SELECT pg_catalog.format('%s %L %L', d.o, d.cls, d.v) AS c FROM pg_temp."madnb_domain_<hex2>" AS d) AS x

-- statement 50
DROP TABLE pg_temp."madnb_domain_<hex2>"

-- statement 51
COMMENT ON TABLE "madnb_statistics"."madnb_models.pets_dp" IS 'madnb statistics {"bounds": [[3, 0.0, 20.0], [5, 0.0, 10.0]], "class_type": "character varying(8)", "created_at": "<created_at>", "delta": 0.0, "domain": "given as jsonb", "domain_fingerprint": "b657fffa32774b3baa07c977ea1fdb11", "element_type": "text", "epsilon": "1", "epsilon_per_query": 0.125, "fixed_point_bits": 20, "fixed_point_scale": 1048576, "format": 1, "guarantee": "epsilon 1-differentially private (add or remove one row) with respect to the public domain given as jsonb", "id": "<id>", "mode": "private", "num_attrs": 5, "numeric": [3, 5], "release_id": "<release_id>", "source": "public.pets"}'

-- statement 52
DROP TABLE IF EXISTS "pg_temp"."madnb_column_domain_<hex1>"

-- statement 53
SELECT pg_catalog.to_regclass($1)::pg_catalog.oid::pg_catalog.int8 AS o

-- statement 54
CREATE TABLE "madnb_models"."pets_dp_class_priors" (class character varying(8), class_cnt pg_catalog.int8, all_cnt pg_catalog.int8)

-- statement 55
CREATE TABLE "madnb_models"."pets_dp_feature_probs" (class character varying(8), attr pg_catalog.int4, value text, cnt pg_catalog.int8, attr_cnt pg_catalog.int8, smoothing pg_catalog.float8)

-- statement 56
CREATE TABLE "madnb_models"."pets_dp_numeric_stats" (class character varying(8), attr pg_catalog.int4, attr_mean pg_catalog.float8, attr_var pg_catalog.float8, value_cnt pg_catalog.int8)

-- statement 57
WITH cc0 AS (SELECT x.cls, LEAST(GREATEST(x.n, 0), 1125899906842624::pg_catalog.numeric) AS c FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."madnb_models.pets_dp" AS s) AS x WHERE x.o = 0),
cc AS (SELECT cc0.cls, (CASE WHEN pg_catalog.sum(cc0.c) OVER () > 0 THEN cc0.c ELSE 1 END)::pg_catalog.int8 AS class_cnt FROM cc0),
cp AS (SELECT cc.cls AS class, cc.class_cnt, LEAST(pg_catalog.sum(cc.class_cnt) OVER (), 9223372036854775807)::pg_catalog.int8 AS all_cnt FROM cc),
ac AS (SELECT d.o, pg_catalog.count(DISTINCT d.v)::pg_catalog.int8 AS attr_cnt FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."madnb_models.pets_dp" AS s) AS d WHERE d.o > 0 AND d.v IS NOT NULL GROUP BY d.o),
fp AS (SELECT x.cls AS class, x.o AS attr, x.v AS value, LEAST(GREATEST(x.n, 0), 1125899906842624::pg_catalog.numeric)::pg_catalog.int8 AS cnt, ac.attr_cnt FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."madnb_models.pets_dp" AS s) AS x JOIN ac ON ac.o = x.o WHERE x.o > 0 AND x.v IS NOT NULL),
nm AS (SELECT x.cls, x.o, cc.class_cnt, b.lo, b.hi, b.mid, b.half, GREATEST(cc.class_cnt, 1)::pg_catalog.float8 AS nn, LEAST(GREATEST(x.s1, -(2097152::pg_catalog.numeric * GREATEST(cc.class_cnt, 1))), (2097152::pg_catalog.numeric * GREATEST(cc.class_cnt, 1)))::pg_catalog.float8 / 1048576.0 AS m1, LEAST(GREATEST(x.s2, -(2199023255552::pg_catalog.numeric * GREATEST(cc.class_cnt, 1))), (2199023255552::pg_catalog.numeric * GREATEST(cc.class_cnt, 1)))::pg_catalog.float8 / 1099511627776.0 AS m2 FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."madnb_models.pets_dp" AS s) AS x JOIN cc ON cc.cls = x.cls JOIN (VALUES (3, 0.0::pg_catalog.float8, 20.0::pg_catalog.float8, 10.0::pg_catalog.float8, 10.0::pg_catalog.float8), (5, 0.0::pg_catalog.float8, 10.0::pg_catalog.float8, 5.0::pg_catalog.float8, 5.0::pg_catalog.float8)) AS b(o, lo, hi, mid, half) ON b.o = x.o),
nm2 AS (SELECT nm.*, CASE WHEN nm.class_cnt = 0 THEN nm.mid ELSE LEAST(GREATEST(nm.mid + nm.half * nm.m1 / nm.nn, nm.lo), nm.hi) END AS mean, LEAST(nm.half * nm.half, pg_catalog.sqrt(2::pg_catalog.float8) * nm.half * nm.half / (0.125::pg_catalog.float8 * nm.nn)) AS floor FROM nm),
np AS (SELECT nm2.cls AS class, nm2.o AS attr, nm2.mean AS attr_mean, CASE WHEN nm2.class_cnt = 0 THEN nm2.half * nm2.half ELSE LEAST(GREATEST(nm2.half * nm2.half * nm2.m2 / nm2.nn - (nm2.mean - nm2.mid) * (nm2.mean - nm2.mid), nm2.floor), nm2.half * nm2.half) END AS attr_var, nm2.class_cnt AS value_cnt FROM nm2)
 INSERT INTO "madnb_models"."pets_dp_class_priors" (class, class_cnt, all_cnt) SELECT class, class_cnt, all_cnt FROM cp ORDER BY class

-- statement 58
WITH cc0 AS (SELECT x.cls, LEAST(GREATEST(x.n, 0), 1125899906842624::pg_catalog.numeric) AS c FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."madnb_models.pets_dp" AS s) AS x WHERE x.o = 0),
cc AS (SELECT cc0.cls, (CASE WHEN pg_catalog.sum(cc0.c) OVER () > 0 THEN cc0.c ELSE 1 END)::pg_catalog.int8 AS class_cnt FROM cc0),
cp AS (SELECT cc.cls AS class, cc.class_cnt, LEAST(pg_catalog.sum(cc.class_cnt) OVER (), 9223372036854775807)::pg_catalog.int8 AS all_cnt FROM cc),
ac AS (SELECT d.o, pg_catalog.count(DISTINCT d.v)::pg_catalog.int8 AS attr_cnt FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."madnb_models.pets_dp" AS s) AS d WHERE d.o > 0 AND d.v IS NOT NULL GROUP BY d.o),
fp AS (SELECT x.cls AS class, x.o AS attr, x.v AS value, LEAST(GREATEST(x.n, 0), 1125899906842624::pg_catalog.numeric)::pg_catalog.int8 AS cnt, ac.attr_cnt FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."madnb_models.pets_dp" AS s) AS x JOIN ac ON ac.o = x.o WHERE x.o > 0 AND x.v IS NOT NULL),
nm AS (SELECT x.cls, x.o, cc.class_cnt, b.lo, b.hi, b.mid, b.half, GREATEST(cc.class_cnt, 1)::pg_catalog.float8 AS nn, LEAST(GREATEST(x.s1, -(2097152::pg_catalog.numeric * GREATEST(cc.class_cnt, 1))), (2097152::pg_catalog.numeric * GREATEST(cc.class_cnt, 1)))::pg_catalog.float8 / 1048576.0 AS m1, LEAST(GREATEST(x.s2, -(2199023255552::pg_catalog.numeric * GREATEST(cc.class_cnt, 1))), (2199023255552::pg_catalog.numeric * GREATEST(cc.class_cnt, 1)))::pg_catalog.float8 / 1099511627776.0 AS m2 FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."madnb_models.pets_dp" AS s) AS x JOIN cc ON cc.cls = x.cls JOIN (VALUES (3, 0.0::pg_catalog.float8, 20.0::pg_catalog.float8, 10.0::pg_catalog.float8, 10.0::pg_catalog.float8), (5, 0.0::pg_catalog.float8, 10.0::pg_catalog.float8, 5.0::pg_catalog.float8, 5.0::pg_catalog.float8)) AS b(o, lo, hi, mid, half) ON b.o = x.o),
nm2 AS (SELECT nm.*, CASE WHEN nm.class_cnt = 0 THEN nm.mid ELSE LEAST(GREATEST(nm.mid + nm.half * nm.m1 / nm.nn, nm.lo), nm.hi) END AS mean, LEAST(nm.half * nm.half, pg_catalog.sqrt(2::pg_catalog.float8) * nm.half * nm.half / (0.125::pg_catalog.float8 * nm.nn)) AS floor FROM nm),
np AS (SELECT nm2.cls AS class, nm2.o AS attr, nm2.mean AS attr_mean, CASE WHEN nm2.class_cnt = 0 THEN nm2.half * nm2.half ELSE LEAST(GREATEST(nm2.half * nm2.half * nm2.m2 / nm2.nn - (nm2.mean - nm2.mid) * (nm2.mean - nm2.mid), nm2.floor), nm2.half * nm2.half) END AS attr_var, nm2.class_cnt AS value_cnt FROM nm2)
 INSERT INTO "madnb_models"."pets_dp_feature_probs" (class, attr, value, cnt, attr_cnt, smoothing) SELECT class, attr, value, cnt, attr_cnt, 1.0::pg_catalog.float8 FROM fp ORDER BY attr, value, class

-- statement 59
WITH cc0 AS (SELECT x.cls, LEAST(GREATEST(x.n, 0), 1125899906842624::pg_catalog.numeric) AS c FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."madnb_models.pets_dp" AS s) AS x WHERE x.o = 0),
cc AS (SELECT cc0.cls, (CASE WHEN pg_catalog.sum(cc0.c) OVER () > 0 THEN cc0.c ELSE 1 END)::pg_catalog.int8 AS class_cnt FROM cc0),
cp AS (SELECT cc.cls AS class, cc.class_cnt, LEAST(pg_catalog.sum(cc.class_cnt) OVER (), 9223372036854775807)::pg_catalog.int8 AS all_cnt FROM cc),
ac AS (SELECT d.o, pg_catalog.count(DISTINCT d.v)::pg_catalog.int8 AS attr_cnt FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."madnb_models.pets_dp" AS s) AS d WHERE d.o > 0 AND d.v IS NOT NULL GROUP BY d.o),
fp AS (SELECT x.cls AS class, x.o AS attr, x.v AS value, LEAST(GREATEST(x.n, 0), 1125899906842624::pg_catalog.numeric)::pg_catalog.int8 AS cnt, ac.attr_cnt FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."madnb_models.pets_dp" AS s) AS x JOIN ac ON ac.o = x.o WHERE x.o > 0 AND x.v IS NOT NULL),
nm AS (SELECT x.cls, x.o, cc.class_cnt, b.lo, b.hi, b.mid, b.half, GREATEST(cc.class_cnt, 1)::pg_catalog.float8 AS nn, LEAST(GREATEST(x.s1, -(2097152::pg_catalog.numeric * GREATEST(cc.class_cnt, 1))), (2097152::pg_catalog.numeric * GREATEST(cc.class_cnt, 1)))::pg_catalog.float8 / 1048576.0 AS m1, LEAST(GREATEST(x.s2, -(2199023255552::pg_catalog.numeric * GREATEST(cc.class_cnt, 1))), (2199023255552::pg_catalog.numeric * GREATEST(cc.class_cnt, 1)))::pg_catalog.float8 / 1099511627776.0 AS m2 FROM (SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM "madnb_statistics"."madnb_models.pets_dp" AS s) AS x JOIN cc ON cc.cls = x.cls JOIN (VALUES (3, 0.0::pg_catalog.float8, 20.0::pg_catalog.float8, 10.0::pg_catalog.float8, 10.0::pg_catalog.float8), (5, 0.0::pg_catalog.float8, 10.0::pg_catalog.float8, 5.0::pg_catalog.float8, 5.0::pg_catalog.float8)) AS b(o, lo, hi, mid, half) ON b.o = x.o),
nm2 AS (SELECT nm.*, CASE WHEN nm.class_cnt = 0 THEN nm.mid ELSE LEAST(GREATEST(nm.mid + nm.half * nm.m1 / nm.nn, nm.lo), nm.hi) END AS mean, LEAST(nm.half * nm.half, pg_catalog.sqrt(2::pg_catalog.float8) * nm.half * nm.half / (0.125::pg_catalog.float8 * nm.nn)) AS floor FROM nm),
np AS (SELECT nm2.cls AS class, nm2.o AS attr, nm2.mean AS attr_mean, CASE WHEN nm2.class_cnt = 0 THEN nm2.half * nm2.half ELSE LEAST(GREATEST(nm2.half * nm2.half * nm2.m2 / nm2.nn - (nm2.mean - nm2.mid) * (nm2.mean - nm2.mid), nm2.floor), nm2.half * nm2.half) END AS attr_var, nm2.class_cnt AS value_cnt FROM nm2)
 INSERT INTO "madnb_models"."pets_dp_numeric_stats" (class, attr, attr_mean, attr_var, value_cnt) SELECT class, attr, attr_mean, attr_var, value_cnt FROM np ORDER BY class, attr

-- statement 60
COMMENT ON TABLE "madnb_models"."pets_dp_class_priors" IS 'madnb class priors trained from public.pets; noisy class counts clamped at 0; epsilon 1-differentially private (add or remove one row) with respect to the public domain given as jsonb; release <release_id> of madnb.privacy_ledger; derived from statistics "madnb_statistics"."madnb_models.pets_dp" (id <uuid>)'

-- statement 61
COMMENT ON TABLE "madnb_models"."pets_dp_feature_probs" IS 'madnb categorical feature counts trained from public.pets; noisy counts clamped at 0, attr_cnt = size of the attribute''s domain; P(value|class) = (cnt + smoothing) / (sum of cnt over the attribute''s values + smoothing * attr_cnt); epsilon 1-differentially private (add or remove one row) with respect to the public domain given as jsonb; release <release_id> of madnb.privacy_ledger; numAttrs = 5; derived from statistics "madnb_statistics"."madnb_models.pets_dp" (id <uuid>)'

-- statement 62
COMMENT ON TABLE "madnb_models"."pets_dp_numeric_stats" IS 'madnb Gaussian parameters trained from public.pets: mean and variance from noisy sums of values clipped to public bounds, over the noisy class count (value_cnt); epsilon 1-differentially private (add or remove one row) with respect to the public domain given as jsonb; release <release_id> of madnb.privacy_ledger; derived from statistics "madnb_statistics"."madnb_models.pets_dp" (id <uuid>)'

-- statement 63
ANALYZE "madnb_models"."pets_dp_feature_probs"

-- statement 64
ANALYZE "madnb_models"."pets_dp_class_priors"

-- statement 65
ANALYZE "madnb_models"."pets_dp_numeric_stats"

-- statement 66
SELECT COALESCE(pg_catalog.sum(c.class_cnt), 0)::pg_catalog.int8 AS n FROM "madnb_models"."pets_dp_class_priors" AS c

-- statement 67
SELECT pg_catalog.obj_description(pg_catalog.to_regclass($1), 'pg_class') AS c

-- statement 68
COMMENT ON TABLE "madnb_models"."pets_dp_feature_probs" IS 'madnb model pets_dp: madnb categorical feature counts trained from public.pets; noisy counts clamped at 0, attr_cnt = size of the attribute''s domain; P(value|class) = (cnt + smoothing) / (sum of cnt over the attribute''s values + smoothing * attr_cnt); epsilon 1-differentially private (add or remove one row) with respect to the public domain given as jsonb; release <release_id> of madnb.privacy_ledger; numAttrs = 5; derived from statistics "madnb_statistics"."madnb_models.pets_dp" (id <uuid>)'

-- statement 69
GRANT SELECT ON "madnb_models"."pets_dp_feature_probs" TO PUBLIC

-- statement 70
SELECT pg_catalog.obj_description(pg_catalog.to_regclass($1), 'pg_class') AS c

-- statement 71
COMMENT ON TABLE "madnb_models"."pets_dp_class_priors" IS 'madnb model pets_dp: madnb class priors trained from public.pets; noisy class counts clamped at 0; epsilon 1-differentially private (add or remove one row) with respect to the public domain given as jsonb; release <release_id> of madnb.privacy_ledger; derived from statistics "madnb_statistics"."madnb_models.pets_dp" (id <uuid>)'

-- statement 72
GRANT SELECT ON "madnb_models"."pets_dp_class_priors" TO PUBLIC

-- statement 73
SELECT pg_catalog.obj_description(pg_catalog.to_regclass($1), 'pg_class') AS c

-- statement 74
COMMENT ON TABLE "madnb_models"."pets_dp_numeric_stats" IS 'madnb model pets_dp: madnb Gaussian parameters trained from public.pets: mean and variance from noisy sums of values clipped to public bounds, over the noisy class count (value_cnt); epsilon 1-differentially private (add or remove one row) with respect to the public domain given as jsonb; release <release_id> of madnb.privacy_ledger; derived from statistics "madnb_statistics"."madnb_models.pets_dp" (id <uuid>)'

-- statement 75
GRANT SELECT ON "madnb_models"."pets_dp_numeric_stats" TO PUBLIC

-- statement 76
SELECT pg_catalog.count(*)::pg_catalog.int8 AS k FROM "madnb_models"."pets_dp_class_priors" AS m

-- statement 77
SELECT EXISTS (SELECT 1 FROM "madnb_models"."pets_dp_feature_probs") AS e

-- statement 78
SELECT pg_catalog.textin(pg_catalog.array_out(m0.classes)) AS classes_text, ARRAY(SELECT (u.c)::pg_catalog.text FROM pg_catalog.unnest(m0.classes) WITH ORDINALITY AS u(c, i) ORDER BY u.i) AS class_texts, m0.prior, m1.lut1, m1.lut2, m1.lut3, m2.js1::pg_catalog.text AS js1, m2.js2::pg_catalog.text AS js2, m2.js4::pg_catalog.text AS js4, m3.a1, m3.r1, m3.mu1, m3.a2, m3.r2, m3.mu2, m3.a3, m3.r3, m3.mu3, m4.nlo, m4.nhi FROM (SELECT pg_catalog.array_agg(c.class ORDER BY c.pos) AS classes, pg_catalog.array_agg((CASE WHEN (c.class_cnt::pg_catalog.float8 / c.all_cnt) > 0 THEN pg_catalog.ln((c.class_cnt::pg_catalog.float8 / c.all_cnt)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) ORDER BY c.pos) AS prior, madnb._check_class_count(pg_catalog.count(*), 3) AS checked FROM (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "madnb_models"."pets_dp_class_priors" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c) AS m0, (SELECT pg_catalog.max(q.arr) FILTER (WHERE q.pos = 1) AS lut1, pg_catalog.max(q.arr) FILTER (WHERE q.pos = 2) AS lut2, pg_catalog.max(q.arr) FILTER (WHERE q.pos = 3) AS lut3 FROM (SELECT r.pos, pg_catalog.array_agg(r.arr ORDER BY r.a) AS arr FROM (SELECT c.pos, g.a, pg_catalog.array_agg(COALESCE(x.lp, 0::pg_catalog.float8) ORDER BY s.s) AS arr FROM (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "madnb_models"."pets_dp_class_priors" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c CROSS JOIN pg_catalog.generate_series(1, 5) AS g(a) CROSS JOIN (SELECT pg_catalog.max(r.rank) AS w FROM (SELECT d.attr, u.value, u.rank::pg_catalog.int4 AS rank FROM (SELECT f.attr, pg_catalog.array_agg(DISTINCT f.value) AS vals FROM "madnb_models"."pets_dp_feature_probs" AS f GROUP BY f.attr) AS d CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(d.vals)) WITH ORDINALITY AS u(value, rank)) AS r) AS b CROSS JOIN LATERAL pg_catalog.generate_series(1, b.w) AS s(s) LEFT JOIN (SELECT c.attr, c.pos, r.rank AS slot, c.lp FROM (SELECT f.attr, f.value, c.pos, CASE WHEN 1.0::pg_catalog.float8 <= 1000000.0::pg_catalog.float8 THEN (CASE WHEN (f.cnt + 1.0::pg_catalog.float8) > 0 THEN pg_catalog.ln((f.cnt + 1.0::pg_catalog.float8)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) - (CASE WHEN (n.cnt + 1.0::pg_catalog.float8 * f.attr_cnt) > 0 THEN pg_catalog.ln((n.cnt + 1.0::pg_catalog.float8 * f.attr_cnt)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) ELSE (CASE WHEN (f.cnt / 1.0::pg_catalog.float8 + 1) > 0 THEN pg_catalog.ln((f.cnt / 1.0::pg_catalog.float8 + 1)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) - (CASE WHEN (n.cnt / 1.0::pg_catalog.float8 + f.attr_cnt) > 0 THEN pg_catalog.ln((n.cnt / 1.0::pg_catalog.float8 + f.attr_cnt)::pg_catalog.float8) ELSE '-Infinity'::pg_catalog.float8 END) END AS lp FROM "madnb_models"."pets_dp_feature_probs" AS f JOIN (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "madnb_models"."pets_dp_class_priors" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c ON c.class = f.class JOIN (SELECT g.class, g.attr, pg_catalog.sum(g.cnt) AS cnt FROM "madnb_models"."pets_dp_feature_probs" AS g GROUP BY g.class, g.attr) AS n ON n.class = f.class AND n.attr = f.attr) AS c JOIN (SELECT d.attr, u.value, u.rank::pg_catalog.int4 AS rank FROM (SELECT f.attr, pg_catalog.array_agg(DISTINCT f.value) AS vals FROM "madnb_models"."pets_dp_feature_probs" AS f GROUP BY f.attr) AS d CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(d.vals)) WITH ORDINALITY AS u(value, rank)) AS r ON r.attr = c.attr AND r.value = c.value) AS x ON x.pos = c.pos AND x.attr = g.a AND x.slot = s.s WHERE madnb._check_code_slots(b.w::pg_catalog.int8 * 15, 4000000) > 0 GROUP BY c.pos, g.a) AS r GROUP BY r.pos) AS q) AS m1, (SELECT pg_catalog.jsonb_object_agg((r.value)::pg_catalog.text, r.rank) FILTER (WHERE r.attr = 1) AS js1, pg_catalog.jsonb_object_agg((r.value)::pg_catalog.text, r.rank) FILTER (WHERE r.attr = 2) AS js2, pg_catalog.jsonb_object_agg((r.value)::pg_catalog.text, r.rank) FILTER (WHERE r.attr = 4) AS js4 FROM (SELECT d.attr, u.value, u.rank::pg_catalog.int4 AS rank FROM (SELECT f.attr, pg_catalog.array_agg(DISTINCT f.value) AS vals FROM "madnb_models"."pets_dp_feature_probs" AS f GROUP BY f.attr) AS d CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(d.vals)) WITH ORDINALITY AS u(value, rank)) AS r) AS m2, (SELECT pg_catalog.max(q.mu) FILTER (WHERE q.pos = 1) AS mu1, pg_catalog.max(q.r) FILTER (WHERE q.pos = 1) AS r1, pg_catalog.max(q.a) FILTER (WHERE q.pos = 1) AS a1, pg_catalog.max(q.mu) FILTER (WHERE q.pos = 2) AS mu2, pg_catalog.max(q.r) FILTER (WHERE q.pos = 2) AS r2, pg_catalog.max(q.a) FILTER (WHERE q.pos = 2) AS a2, pg_catalog.max(q.mu) FILTER (WHERE q.pos = 3) AS mu3, pg_catalog.max(q.r) FILTER (WHERE q.pos = 3) AS r3, pg_catalog.max(q.a) FILTER (WHERE q.pos = 3) AS a3 FROM (SELECT c.pos, pg_catalog.array_agg(COALESCE(w.mu, 0::pg_catalog.float8) ORDER BY g.a) AS mu, pg_catalog.array_agg(COALESCE(pg_catalog.sqrt(0.5 / w.w), 0::pg_catalog.float8) ORDER BY g.a) AS r, pg_catalog.array_agg(COALESCE(-0.5 * pg_catalog.ln(2 * pg_catalog.pi() * w.w), 0::pg_catalog.float8) ORDER BY g.a) AS a FROM (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "madnb_models"."pets_dp_class_priors" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c CROSS JOIN pg_catalog.generate_series(1, 5) AS g(a) LEFT JOIN (SELECT b.attr, b.pos, b.mu, GREATEST(COALESCE(b.var, 0), CASE WHEN f.total_var > 0 THEN 1e-09 * f.total_var ELSE 1 END) AS w FROM (SELECT x.attr, c.pos, x.attr_mean AS mu, x.attr_var AS var, x.value_cnt AS cnt FROM "madnb_models"."pets_dp_numeric_stats" AS x JOIN (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "madnb_models"."pets_dp_class_priors" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c ON c.class = x.class WHERE x.value_cnt > 0) AS b JOIN (SELECT b.attr, pg_catalog.sum(GREATEST(b.cnt - 1, 0) * COALESCE(b.var, 0) + b.cnt * (b.mu - g.gm) * (b.mu - g.gm)) / g.tot AS total_var FROM (SELECT x.attr, c.pos, x.attr_mean AS mu, x.attr_var AS var, x.value_cnt AS cnt FROM "madnb_models"."pets_dp_numeric_stats" AS x JOIN (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "madnb_models"."pets_dp_class_priors" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c ON c.class = x.class WHERE x.value_cnt > 0) AS b JOIN (SELECT b.attr, pg_catalog.sum(b.cnt * b.mu) / pg_catalog.sum(b.cnt) AS gm, pg_catalog.sum(b.cnt) AS tot FROM (SELECT x.attr, c.pos, x.attr_mean AS mu, x.attr_var AS var, x.value_cnt AS cnt FROM "madnb_models"."pets_dp_numeric_stats" AS x JOIN (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "madnb_models"."pets_dp_class_priors" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c ON c.class = x.class WHERE x.value_cnt > 0) AS b GROUP BY b.attr) AS g ON g.attr = b.attr GROUP BY b.attr, g.tot) AS f ON f.attr = b.attr) AS w ON w.pos = c.pos AND w.attr = g.a GROUP BY c.pos) AS q) AS m3, (SELECT pg_catalog.array_agg(COALESCE(b.lo, 0::pg_catalog.float8) ORDER BY g.a) AS nlo, pg_catalog.array_agg(COALESCE(b.hi, 0::pg_catalog.float8) ORDER BY g.a) AS nhi FROM pg_catalog.generate_series(1, 5) AS g(a) LEFT JOIN (SELECT w.attr, pg_catalog.min(w.mu) - 1e+100 * pg_catalog.sqrt(pg_catalog.min(w.w)) AS lo, pg_catalog.max(w.mu) + 1e+100 * pg_catalog.sqrt(pg_catalog.min(w.w)) AS hi FROM (SELECT b.attr, b.pos, b.mu, GREATEST(COALESCE(b.var, 0), CASE WHEN f.total_var > 0 THEN 1e-09 * f.total_var ELSE 1 END) AS w FROM (SELECT x.attr, c.pos, x.attr_mean AS mu, x.attr_var AS var, x.value_cnt AS cnt FROM "madnb_models"."pets_dp_numeric_stats" AS x JOIN (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "madnb_models"."pets_dp_class_priors" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c ON c.class = x.class WHERE x.value_cnt > 0) AS b JOIN (SELECT b.attr, pg_catalog.sum(GREATEST(b.cnt - 1, 0) * COALESCE(b.var, 0) + b.cnt * (b.mu - g.gm) * (b.mu - g.gm)) / g.tot AS total_var FROM (SELECT x.attr, c.pos, x.attr_mean AS mu, x.attr_var AS var, x.value_cnt AS cnt FROM "madnb_models"."pets_dp_numeric_stats" AS x JOIN (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "madnb_models"."pets_dp_class_priors" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c ON c.class = x.class WHERE x.value_cnt > 0) AS b JOIN (SELECT b.attr, pg_catalog.sum(b.cnt * b.mu) / pg_catalog.sum(b.cnt) AS gm, pg_catalog.sum(b.cnt) AS tot FROM (SELECT x.attr, c.pos, x.attr_mean AS mu, x.attr_var AS var, x.value_cnt AS cnt FROM "madnb_models"."pets_dp_numeric_stats" AS x JOIN (SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM (SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM "madnb_models"."pets_dp_class_priors" AS m) AS s CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos)) AS c ON c.class = x.class WHERE x.value_cnt > 0) AS b GROUP BY b.attr) AS g ON g.attr = b.attr GROUP BY b.attr, g.tot) AS f ON f.attr = b.attr) AS w GROUP BY w.attr) AS b ON b.attr = g.a) AS m4, (SELECT pg_catalog.array_agg(x.attr IS NOT NULL ORDER BY g.a) AS isnum FROM pg_catalog.generate_series(1, 5) AS g(a) LEFT JOIN (SELECT DISTINCT y.attr FROM "madnb_models"."pets_dp_numeric_stats" AS y) AS x ON x.attr = g.a) AS m5

-- statement 79
CREATE OR REPLACE FUNCTION "madnb_models"."pets_dp_predict"("colour" pg_catalog.text DEFAULT NULL, "legs" pg_catalog.int4 DEFAULT NULL, "weight" pg_catalog.float8 DEFAULT NULL, "indoor" pg_catalog.bool DEFAULT NULL, "age" pg_catalog.numeric DEFAULT NULL) RETURNS character varying(8) LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT (E''{cat,dog,fish}''::character varying(8)[])[madnb._nb_best(ARRAY[
 ''-0.3953127366441464''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE((''{-0.9162907318741551,-1.897119984885881,-0.7985076962177713}''::pg_catalog.float8[])[(E''{"black": 1, "white": 3, "ginger": 2}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-1.3083328196501784,NULL,-0.5663954749208013,NULL,-1.8191584434161694}''::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, ''-1''::pg_catalog.int8), ''5''::pg_catalog.int8) OPERATOR(pg_catalog.-) ''-1''::pg_catalog.int8)::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-2.6862774114453827''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.12076455341685549''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-5.855251074756629e+100''::pg_catalog.float8), ''5.855251074756629e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''3.29218662146366''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-0.13353139262452252,-2.0794415416798357}''::pg_catalog.float8[])[(E''{"true": 2, "false": 1}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($4)::pg_catalog.text COLLATE pg_catalog."C"))::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-1.9931302308854373''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.24152910683371098''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($5)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($5)::pg_catalog.float8 END, ''-2.9276255373783146e+100''::pg_catalog.float8), ''2.9276255373783146e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''3.5671638719963306''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8),
 ''-1.3268709406490897''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE((''{-4.060443010546419,-0.23180161405732402,-1.6625477377480484}''::pg_catalog.float8[])[(E''{"black": 1, "white": 3, "ginger": 2}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-3.4965075614664802,NULL,-0.16430305129127643,NULL,-2.11021320034659}''::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, ''-1''::pg_catalog.int8), ''5''::pg_catalog.int8) OPERATOR(pg_catalog.-) ''-1''::pg_catalog.int8)::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-3.1520565134478544''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.07579737856377818''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-5.855251074756629e+100''::pg_catalog.float8), ''5.855251074756629e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''0.11904863210824779''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-0.18232155679395468,-1.791759469228055}''::pg_catalog.float8[])[(E''{"true": 2, "false": 1}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($4)::pg_catalog.text COLLATE pg_catalog."C"))::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-2.458909332887909''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.15159475712755635''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($5)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($5)::pg_catalog.float8 END, ''-2.9276255373783146e+100''::pg_catalog.float8), ''2.9276255373783146e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''0.0''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8),
 ''-2.793208009442517''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE((''{-2.197224577336219,-0.30010459245033827,-1.9095425048844386}''::pg_catalog.float8[])[(E''{"black": 1, "white": 3, "ginger": 2}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-3.6635616461296463,NULL,-1.2656663733312756,NULL,-0.3677247801253172}''::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, ''-1''::pg_catalog.int8), ''5''::pg_catalog.int8) OPERATOR(pg_catalog.-) ''-1''::pg_catalog.int8)::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-3.2215236261987186''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.07071067811865475''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-5.855251074756629e+100''::pg_catalog.float8), ''5.855251074756629e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''0.0''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-0.693147180559945,-0.693147180559945}''::pg_catalog.float8[])[(E''{"true": 2, "false": 1}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($4)::pg_catalog.text COLLATE pg_catalog."C"))::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-2.528376445638773''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.1414213562373095''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($5)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($5)::pg_catalog.float8 END, ''-2.9276255373783146e+100''::pg_catalog.float8), ''2.9276255373783146e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''0.0''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
])]'

-- statement 80
COMMENT ON FUNCTION "madnb_models"."pets_dp_predict"(pg_catalog.text, pg_catalog.int4, pg_catalog.float8, pg_catalog.bool, pg_catalog.numeric) IS 'madnb model pets_dp: the predicted class (the first class within 1e-12 of the best log-likelihood, as the classify view''s first class) of the feature values (each NULL, a missing value, unless given)'

-- statement 81
CREATE OR REPLACE FUNCTION "madnb_models"."pets_dp_predict_proba"("colour" pg_catalog.text DEFAULT NULL, "legs" pg_catalog.int4 DEFAULT NULL, "weight" pg_catalog.float8 DEFAULT NULL, "indoor" pg_catalog.bool DEFAULT NULL, "age" pg_catalog.numeric DEFAULT NULL) RETURNS pg_catalog.jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT madnb._nb_proba_jsonb(ARRAY[
 ''-0.3953127366441464''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE((''{-0.9162907318741551,-1.897119984885881,-0.7985076962177713}''::pg_catalog.float8[])[(E''{"black": 1, "white": 3, "ginger": 2}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-1.3083328196501784,NULL,-0.5663954749208013,NULL,-1.8191584434161694}''::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, ''-1''::pg_catalog.int8), ''5''::pg_catalog.int8) OPERATOR(pg_catalog.-) ''-1''::pg_catalog.int8)::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-2.6862774114453827''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.12076455341685549''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-5.855251074756629e+100''::pg_catalog.float8), ''5.855251074756629e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''3.29218662146366''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-0.13353139262452252,-2.0794415416798357}''::pg_catalog.float8[])[(E''{"true": 2, "false": 1}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($4)::pg_catalog.text COLLATE pg_catalog."C"))::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-1.9931302308854373''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.24152910683371098''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($5)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($5)::pg_catalog.float8 END, ''-2.9276255373783146e+100''::pg_catalog.float8), ''2.9276255373783146e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''3.5671638719963306''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8),
 ''-1.3268709406490897''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE((''{-4.060443010546419,-0.23180161405732402,-1.6625477377480484}''::pg_catalog.float8[])[(E''{"black": 1, "white": 3, "ginger": 2}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-3.4965075614664802,NULL,-0.16430305129127643,NULL,-2.11021320034659}''::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, ''-1''::pg_catalog.int8), ''5''::pg_catalog.int8) OPERATOR(pg_catalog.-) ''-1''::pg_catalog.int8)::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-3.1520565134478544''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.07579737856377818''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-5.855251074756629e+100''::pg_catalog.float8), ''5.855251074756629e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''0.11904863210824779''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-0.18232155679395468,-1.791759469228055}''::pg_catalog.float8[])[(E''{"true": 2, "false": 1}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($4)::pg_catalog.text COLLATE pg_catalog."C"))::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-2.458909332887909''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.15159475712755635''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($5)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($5)::pg_catalog.float8 END, ''-2.9276255373783146e+100''::pg_catalog.float8), ''2.9276255373783146e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''0.0''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8),
 ''-2.793208009442517''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE((''{-2.197224577336219,-0.30010459245033827,-1.9095425048844386}''::pg_catalog.float8[])[(E''{"black": 1, "white": 3, "ginger": 2}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-3.6635616461296463,NULL,-1.2656663733312756,NULL,-0.3677247801253172}''::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, ''-1''::pg_catalog.int8), ''5''::pg_catalog.int8) OPERATOR(pg_catalog.-) ''-1''::pg_catalog.int8)::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-3.2215236261987186''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.07071067811865475''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-5.855251074756629e+100''::pg_catalog.float8), ''5.855251074756629e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''0.0''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-0.693147180559945,-0.693147180559945}''::pg_catalog.float8[])[(E''{"true": 2, "false": 1}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($4)::pg_catalog.text COLLATE pg_catalog."C"))::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-2.528376445638773''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.1414213562373095''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($5)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($5)::pg_catalog.float8 END, ''-2.9276255373783146e+100''::pg_catalog.float8), ''2.9276255373783146e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''0.0''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
], E''{"cat","dog","fish"}''::pg_catalog.text[])'

-- statement 82
COMMENT ON FUNCTION "madnb_models"."pets_dp_predict_proba"(pg_catalog.text, pg_catalog.int4, pg_catalog.float8, pg_catalog.bool, pg_catalog.numeric) IS 'madnb model pets_dp: jsonb {class: probability} of the feature values (each NULL, a missing value, unless given)'

-- statement 83
CREATE OR REPLACE FUNCTION "madnb_models"."pets_dp_predict_proba_array"("colour" pg_catalog.text DEFAULT NULL, "legs" pg_catalog.int4 DEFAULT NULL, "weight" pg_catalog.float8 DEFAULT NULL, "indoor" pg_catalog.bool DEFAULT NULL, "age" pg_catalog.numeric DEFAULT NULL) RETURNS pg_catalog.float8[] LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT madnb._nb_proba(ARRAY[
 ''-0.3953127366441464''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE((''{-0.9162907318741551,-1.897119984885881,-0.7985076962177713}''::pg_catalog.float8[])[(E''{"black": 1, "white": 3, "ginger": 2}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-1.3083328196501784,NULL,-0.5663954749208013,NULL,-1.8191584434161694}''::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, ''-1''::pg_catalog.int8), ''5''::pg_catalog.int8) OPERATOR(pg_catalog.-) ''-1''::pg_catalog.int8)::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-2.6862774114453827''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.12076455341685549''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-5.855251074756629e+100''::pg_catalog.float8), ''5.855251074756629e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''3.29218662146366''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-0.13353139262452252,-2.0794415416798357}''::pg_catalog.float8[])[(E''{"true": 2, "false": 1}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($4)::pg_catalog.text COLLATE pg_catalog."C"))::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-1.9931302308854373''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.24152910683371098''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($5)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($5)::pg_catalog.float8 END, ''-2.9276255373783146e+100''::pg_catalog.float8), ''2.9276255373783146e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''3.5671638719963306''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8),
 ''-1.3268709406490897''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE((''{-4.060443010546419,-0.23180161405732402,-1.6625477377480484}''::pg_catalog.float8[])[(E''{"black": 1, "white": 3, "ginger": 2}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-3.4965075614664802,NULL,-0.16430305129127643,NULL,-2.11021320034659}''::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, ''-1''::pg_catalog.int8), ''5''::pg_catalog.int8) OPERATOR(pg_catalog.-) ''-1''::pg_catalog.int8)::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-3.1520565134478544''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.07579737856377818''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-5.855251074756629e+100''::pg_catalog.float8), ''5.855251074756629e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''0.11904863210824779''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-0.18232155679395468,-1.791759469228055}''::pg_catalog.float8[])[(E''{"true": 2, "false": 1}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($4)::pg_catalog.text COLLATE pg_catalog."C"))::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-2.458909332887909''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.15159475712755635''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($5)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($5)::pg_catalog.float8 END, ''-2.9276255373783146e+100''::pg_catalog.float8), ''2.9276255373783146e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''0.0''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8),
 ''-2.793208009442517''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE((''{-2.197224577336219,-0.30010459245033827,-1.9095425048844386}''::pg_catalog.float8[])[(E''{"black": 1, "white": 3, "ginger": 2}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-3.6635616461296463,NULL,-1.2656663733312756,NULL,-0.3677247801253172}''::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, ''-1''::pg_catalog.int8), ''5''::pg_catalog.int8) OPERATOR(pg_catalog.-) ''-1''::pg_catalog.int8)::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-3.2215236261987186''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.07071067811865475''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-5.855251074756629e+100''::pg_catalog.float8), ''5.855251074756629e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''0.0''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-0.693147180559945,-0.693147180559945}''::pg_catalog.float8[])[(E''{"true": 2, "false": 1}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($4)::pg_catalog.text COLLATE pg_catalog."C"))::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-2.528376445638773''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.1414213562373095''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($5)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($5)::pg_catalog.float8 END, ''-2.9276255373783146e+100''::pg_catalog.float8), ''2.9276255373783146e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''0.0''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
])'

-- statement 84
COMMENT ON FUNCTION "madnb_models"."pets_dp_predict_proba_array"(pg_catalog.text, pg_catalog.int4, pg_catalog.float8, pg_catalog.bool, pg_catalog.numeric) IS 'madnb model pets_dp: float8[] of class probabilities in the order of madnb.model_classes of the feature values (each NULL, a missing value, unless given)'

-- statement 85
CREATE OR REPLACE FUNCTION "madnb_models"."pets_dp_predict"(r anyelement) RETURNS character varying(8) LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT "madnb_models"."pets_dp_predict"("colour" => ($1)."colour", "legs" => ($1)."legs", "weight" => ($1)."weight", "indoor" => ($1)."indoor", "age" => ($1)."age")'

-- statement 86
COMMENT ON FUNCTION "madnb_models"."pets_dp_predict"(anyelement) IS 'madnb model pets_dp: the predicted class (the first class within 1e-12 of the best log-likelihood, as the classify view''s first class) of a row holding the feature columns'

-- statement 87
CREATE OR REPLACE FUNCTION "madnb_models"."pets_dp_predict_proba"(r anyelement) RETURNS pg_catalog.jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT "madnb_models"."pets_dp_predict_proba"("colour" => ($1)."colour", "legs" => ($1)."legs", "weight" => ($1)."weight", "indoor" => ($1)."indoor", "age" => ($1)."age")'

-- statement 88
COMMENT ON FUNCTION "madnb_models"."pets_dp_predict_proba"(anyelement) IS 'madnb model pets_dp: jsonb {class: probability} of a row holding the feature columns'

-- statement 89
CREATE OR REPLACE FUNCTION "madnb_models"."pets_dp_predict_proba_array"(r anyelement) RETURNS pg_catalog.float8[] LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT "madnb_models"."pets_dp_predict_proba_array"("colour" => ($1)."colour", "legs" => ($1)."legs", "weight" => ($1)."weight", "indoor" => ($1)."indoor", "age" => ($1)."age")'

-- statement 90
COMMENT ON FUNCTION "madnb_models"."pets_dp_predict_proba_array"(anyelement) IS 'madnb model pets_dp: float8[] of class probabilities in the order of madnb.model_classes of a row holding the feature columns'

-- statement 91
SELECT p.oid::pg_catalog.regprocedure::pg_catalog.text AS f, pg_catalog.md5(p.prosrc) AS h FROM pg_catalog.pg_proc AS p WHERE p.pronamespace OPERATOR(pg_catalog.=) pg_catalog.to_regnamespace($1) AND p.proname::pg_catalog.text OPERATOR(pg_catalog.=) ANY ($2)

-- statement 92
INSERT INTO madnb._models (name, kind, source, label, label_type, features, classes, training_rows, smoothing, privacy, statistics, parameters, functions, tables, schema_name) VALUES ($1, $2, $3, $4, $5, $6::pg_catalog.jsonb, $7, $8, $9, $10::pg_catalog.jsonb, $11, $12::pg_catalog.jsonb, $13, ARRAY(SELECT pg_catalog.to_regclass(u.t)::pg_catalog.text FROM pg_catalog.unnest($14) WITH ORDINALITY AS u(t, i) ORDER BY u.i), $15)

-- statement 93
SELECT pg_catalog.set_config('search_path', $1, true)
