-- Privacy state in its own schema, keyed by name, written only through
-- SECURITY DEFINER functions (issue 9: A2, B6, B7).
--
-- * madnb_privacy holds the ledger, the budgets and one rollback-proof spent
--   counter (a sequence) per source.  Uninstalling madnb drops schema madnb and
--   keeps madnb_privacy, so a reinstall finds the audit record and the spent
--   budgets again; this migration then adopts the existing schema.
-- * Sources are keyed by (schema name, table name), which pg_dump/pg_restore
--   keep and which a new table reusing a dropped table's OID does not inherit.
-- * Users get no privilege here: madnb.record_private_release and
--   madnb.set_privacy_budget (sql/30_privacy.sql) write this state as its owner;
--   madnb.privacy_ledger, privacy_budget and privacy_budget_status are views.
-- * Rows of the 0002 tables (keyed by OID) move here, rekeyed by the relation's
--   current name (or the recorded name if the relation is gone).
--
-- Under CREATE EXTENSION the schema and tables are extension members (their
-- rows dumped by pg_dump through pg_extension_config_dump); `madnb uninstall`
-- detaches them before DROP EXTENSION, and a later CREATE EXTENSION adopts them.

DO $madnb_privacy_state$
DECLARE
    v_ext oid := (SELECT e.oid FROM pg_catalog.pg_extension AS e WHERE e.extname = 'madnb');
    v_rel record;
BEGIN
    IF pg_catalog.to_regnamespace('madnb_privacy') IS NULL THEN
        CREATE SCHEMA madnb_privacy;
    ELSIF v_ext IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM pg_catalog.pg_depend AS d
        WHERE d.classid = 'pg_catalog.pg_namespace'::pg_catalog.regclass
          AND d.objid = 'madnb_privacy'::pg_catalog.regnamespace AND d.deptype = 'e'
    ) THEN
        ALTER EXTENSION madnb ADD SCHEMA madnb_privacy;
    END IF;

    IF pg_catalog.to_regclass('madnb_privacy.ledger') IS NULL THEN
        CREATE TABLE madnb_privacy.ledger (
            release_id bigserial PRIMARY KEY,
            schema_name name NOT NULL,
            table_name name NOT NULL,
            epsilon numeric NOT NULL CHECK (epsilon > 0),
            mechanism text NOT NULL,
            parameters jsonb NOT NULL,
            released_at timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp(),
            released_by name NOT NULL DEFAULT SESSION_USER
        );
        CREATE INDEX ledger_source_idx ON madnb_privacy.ledger (schema_name, table_name);
    END IF;
    IF pg_catalog.to_regclass('madnb_privacy.budget') IS NULL THEN
        CREATE TABLE madnb_privacy.budget (
            schema_name name NOT NULL,
            table_name name NOT NULL,
            total_epsilon numeric NOT NULL CHECK (total_epsilon > 0),
            set_at timestamptz NOT NULL DEFAULT pg_catalog.now(),
            set_by name NOT NULL DEFAULT SESSION_USER,
            PRIMARY KEY (schema_name, table_name)
        );
    END IF;

    IF v_ext IS NOT NULL THEN
        -- adopt what a previous `madnb uninstall` left behind
        FOR v_rel IN
            SELECT c.oid, c.relkind FROM pg_catalog.pg_class AS c
            WHERE c.relnamespace = 'madnb_privacy'::pg_catalog.regnamespace AND c.relkind IN ('r', 'S')
              AND c.relname IN ('ledger', 'budget', 'ledger_release_id_seq')
              AND NOT EXISTS (
                  SELECT 1 FROM pg_catalog.pg_depend AS d
                  WHERE d.classid = 'pg_catalog.pg_class'::pg_catalog.regclass AND d.objid = c.oid AND d.deptype = 'e')
        LOOP
            EXECUTE pg_catalog.format('ALTER EXTENSION madnb ADD %s %s',
                CASE v_rel.relkind WHEN 'S' THEN 'SEQUENCE' ELSE 'TABLE' END, v_rel.oid::pg_catalog.regclass);
        END LOOP;
        PERFORM pg_catalog.pg_extension_config_dump('madnb_privacy.ledger', '');
        PERFORM pg_catalog.pg_extension_config_dump('madnb_privacy.ledger_release_id_seq', '');
        PERFORM pg_catalog.pg_extension_config_dump('madnb_privacy.budget', '');
    END IF;

    -- the 0002 tables: move their rows, rekeyed by name, then drop them
    IF (SELECT c.relkind FROM pg_catalog.pg_class AS c WHERE c.oid = pg_catalog.to_regclass('madnb.privacy_ledger')) = 'r' THEN
        CREATE TEMPORARY TABLE madnb_old_key ON COMMIT DROP AS
        SELECT k.source_oid, COALESCE(n.nspname, pg_catalog.split_part(k.source_name, '.', 1))::name AS schema_name,
               COALESCE(c.relname, pg_catalog.substr(k.source_name,
                   pg_catalog.length(pg_catalog.split_part(k.source_name, '.', 1)) + 2))::name AS table_name
        FROM (SELECT l.source_oid, l.source_name FROM madnb.privacy_ledger AS l
              UNION SELECT b.source_oid, b.source_name FROM madnb.privacy_budget AS b) AS k
        LEFT JOIN pg_catalog.pg_class AS c ON c.oid = k.source_oid
        LEFT JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace;

        INSERT INTO madnb_privacy.ledger
            (release_id, schema_name, table_name, epsilon, mechanism, parameters, released_at, released_by)
        SELECT CASE WHEN EXISTS (SELECT 1 FROM madnb_privacy.ledger AS x WHERE x.release_id = l.release_id)
                    THEN pg_catalog.nextval('madnb_privacy.ledger_release_id_seq') ELSE l.release_id END,
               k.schema_name, k.table_name, l.epsilon, l.mechanism, l.parameters, l.released_at, l.released_by
        FROM madnb.privacy_ledger AS l
        JOIN pg_temp.madnb_old_key AS k ON k.source_oid = l.source_oid AND k.schema_name IS NOT NULL
        ORDER BY l.release_id;
        -- ids continue after the old ones, rolled-back ones (gaps) included
        IF pg_catalog.pg_sequence_last_value('madnb.privacy_ledger_release_id_seq') IS NOT NULL THEN
            PERFORM pg_catalog.setval('madnb_privacy.ledger_release_id_seq',
                GREATEST((SELECT pg_catalog.max(x.release_id) FROM madnb_privacy.ledger AS x),
                         pg_catalog.pg_sequence_last_value('madnb.privacy_ledger_release_id_seq'),
                         COALESCE(pg_catalog.pg_sequence_last_value('madnb_privacy.ledger_release_id_seq'), 0)), true);
        END IF;

        INSERT INTO madnb_privacy.budget (schema_name, table_name, total_epsilon, set_at, set_by)
        SELECT k.schema_name, k.table_name, b.total_epsilon, b.set_at, b.set_by
        FROM madnb.privacy_budget AS b JOIN pg_temp.madnb_old_key AS k ON k.source_oid = b.source_oid
        ON CONFLICT (schema_name, table_name) DO NOTHING;

        -- one spent counter per source: the most of the old counter, what the
        -- ledger records, and what an existing counter already holds
        FOR v_rel IN
            SELECT k.schema_name, k.table_name,
                   'spent_' || pg_catalog.left(pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(
                       pg_catalog.length(k.schema_name)::text || ':' || k.schema_name || k.table_name, 'UTF8')), 'hex'), 40) AS seq,
                   GREATEST(
                       (SELECT pg_catalog.max(COALESCE(pg_catalog.pg_sequence_last_value(b.spent_sequence), 0))
                        FROM madnb.privacy_budget AS b JOIN pg_temp.madnb_old_key AS o ON o.source_oid = b.source_oid
                        WHERE o.schema_name = k.schema_name AND o.table_name = k.table_name),
                       (SELECT pg_catalog.sum(pg_catalog.ceil(l.epsilon * 1000000000000))
                        FROM madnb_privacy.ledger AS l
                        WHERE l.schema_name = k.schema_name AND l.table_name = k.table_name), 0)::bigint AS spent
            FROM (SELECT DISTINCT o.schema_name, o.table_name FROM pg_temp.madnb_old_key AS o) AS k
        LOOP
            IF pg_catalog.to_regclass(pg_catalog.format('madnb_privacy.%I', v_rel.seq)) IS NULL THEN
                EXECUTE pg_catalog.format('CREATE SEQUENCE madnb_privacy.%I AS bigint MINVALUE 0 START 0 NO CYCLE', v_rel.seq);
                EXECUTE pg_catalog.format('COMMENT ON SEQUENCE madnb_privacy.%I IS %L', v_rel.seq,
                    'epsilon spent on ' || v_rel.schema_name || '.' || v_rel.table_name || ' in units of 1e-12');
                IF v_ext IS NOT NULL THEN
                    -- like the counters created at run time: not a member, so pg_dump keeps its value
                    EXECUTE pg_catalog.format('ALTER EXTENSION madnb DROP SEQUENCE madnb_privacy.%I', v_rel.seq);
                END IF;
            ELSE
                v_rel.spent := GREATEST(v_rel.spent, COALESCE(pg_catalog.pg_sequence_last_value(
                    pg_catalog.format('madnb_privacy.%I', v_rel.seq)::pg_catalog.regclass), 0));
            END IF;
            IF v_rel.spent > 0 THEN
                PERFORM pg_catalog.setval(pg_catalog.format('madnb_privacy.%I', v_rel.seq)::pg_catalog.regclass, v_rel.spent, true);
            END IF;
        END LOOP;
        DROP TABLE pg_temp.madnb_old_key;

        IF v_ext IS NOT NULL THEN
            ALTER EXTENSION madnb DROP TABLE madnb.privacy_ledger;
            ALTER EXTENSION madnb DROP SEQUENCE madnb.privacy_ledger_release_id_seq;
            ALTER EXTENSION madnb DROP TABLE madnb.privacy_budget;
        END IF;
        -- CASCADE: the old spent sequences (OWNED BY the budget table) and the
        -- old privacy_budget_status view; sql/30_privacy.sql recreates the views
        DROP TABLE madnb.privacy_ledger, madnb.privacy_budget CASCADE;
    END IF;
END
$madnb_privacy_state$;

REVOKE ALL ON SCHEMA madnb_privacy FROM PUBLIC;
REVOKE ALL ON TABLE madnb_privacy.ledger, madnb_privacy.budget FROM PUBLIC;
REVOKE ALL ON SEQUENCE madnb_privacy.ledger_release_id_seq FROM PUBLIC;
COMMENT ON SCHEMA madnb_privacy IS
    'madnb privacy state (ledger, budgets, spent counters): kept by `madnb uninstall` unless --drop-privacy-ledger; written only by madnb.record_private_release and madnb.set_privacy_budget';
COMMENT ON TABLE madnb_privacy.ledger IS
    'one row per differentially private release (read it as madnb.privacy_ledger)';
COMMENT ON TABLE madnb_privacy.budget IS
    'total epsilon per training source, keyed by schema and table name (read it as madnb.privacy_budget)';
COMMENT ON SEQUENCE madnb_privacy.ledger_release_id_seq IS
    'release ids; nextval is not undone by ROLLBACK, so a gap in release_id marks a release whose caller rolled back';
