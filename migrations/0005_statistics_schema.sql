-- Statistics kept by training (issue 10, point 3).
--
-- create_nb_prepared_data_tables is "release the statistics, then derive the
-- model"; it keeps the statistics it released in a table of schema
-- madnb_statistics (named in the feature table's comment), so that a later
-- update can add new statistics without reading the old data again.  They do
-- not go next to the model tables: MADlib's interface creates exactly the tables
-- it is asked for in the caller's schema.
--
-- Roles given madnb.grant_usage may create tables here (each table belongs to
-- whoever trained the model and grants nothing to anybody else); nothing is
-- granted to PUBLIC, so the schema is not a place where anyone may plant
-- objects.  madnb always qualifies the names it writes here and never reads a
-- table it did not name itself.  Like the model
-- tables, the kept statistics belong to the user: `madnb uninstall` detaches
-- the schema from the extension and keeps it; a later CREATE EXTENSION adopts it.

DO $madnb_statistics_schema$
DECLARE
    v_ext oid := (SELECT e.oid FROM pg_catalog.pg_extension AS e WHERE e.extname = 'madnb');
BEGIN
    IF pg_catalog.to_regnamespace('madnb_statistics') IS NULL THEN
        CREATE SCHEMA madnb_statistics;
    ELSIF v_ext IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM pg_catalog.pg_depend AS d
        WHERE d.classid = 'pg_catalog.pg_namespace'::pg_catalog.regclass
          AND d.objid = 'madnb_statistics'::pg_catalog.regnamespace AND d.deptype = 'e'
    ) THEN
        ALTER EXTENSION madnb ADD SCHEMA madnb_statistics;
    END IF;
END
$madnb_statistics_schema$;

COMMENT ON SCHEMA madnb_statistics IS
    'madnb: the statistics tables kept by create_nb_prepared_data_tables (each named in its model''s feature table comment)';
