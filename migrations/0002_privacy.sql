-- Differential privacy (issue 4).
--
-- create_nb_prepared_data_tables gained optional named parameters (epsilon,
-- bounds, domain, smoothing).  CREATE OR REPLACE with more parameters makes a
-- new overload and keeps the old one, which would make MADlib's calls
-- ambiguous: drop the 6- and 8-argument signatures here; sql/10_training.sql
-- creates their replacements right after the migrations.
DROP FUNCTION IF EXISTS madnb.create_nb_prepared_data_tables(text, text, text, integer, text, text);
DROP FUNCTION IF EXISTS madnb.create_nb_prepared_data_tables(text, text, text, text, integer, text, text, text);

-- One row per differentially private release.  Transactional: a release whose
-- caller rolls back leaves no row here (release_id, from a sequence, then has a
-- gap), but its charge to a budget stays (see privacy_budget).
CREATE TABLE madnb.privacy_ledger (
    release_id bigserial PRIMARY KEY,
    source_oid oid NOT NULL,
    source_name text NOT NULL,
    epsilon numeric NOT NULL CHECK (epsilon > 0),
    mechanism text NOT NULL,
    parameters jsonb NOT NULL,
    released_at timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp(),
    released_by name NOT NULL DEFAULT CURRENT_USER
);
CREATE INDEX privacy_ledger_source_oid_idx ON madnb.privacy_ledger (source_oid);
COMMENT ON SEQUENCE madnb.privacy_ledger_release_id_seq IS
    'release ids; nextval is not undone by ROLLBACK, so a gap in release_id marks a release whose caller rolled back';
COMMENT ON TABLE madnb.privacy_ledger IS
    'one row per differentially private release: source relation, total epsilon, mechanism, parameters, time and role';
COMMENT ON COLUMN madnb.privacy_ledger.epsilon IS
    'total epsilon of the release, as the exact decimal the float8 argument prints as';
COMMENT ON COLUMN madnb.privacy_ledger.parameters IS
    'per-query epsilon, number of queries, bounds, domain, fixed-point encoding, sensitivities, smoothing, outputs';

-- Optional total budget per source relation.  The spent total lives in the
-- sequence named by spent_sequence, in units of 1e-12 epsilon: setval() is not
-- undone by ROLLBACK, so a charge survives its caller's rollback.
CREATE TABLE madnb.privacy_budget (
    source_oid oid PRIMARY KEY,
    source_name text NOT NULL,
    total_epsilon numeric NOT NULL CHECK (total_epsilon > 0),
    spent_sequence regclass NOT NULL,
    set_at timestamptz NOT NULL DEFAULT pg_catalog.now(),
    set_by name NOT NULL DEFAULT CURRENT_USER
);
COMMENT ON TABLE madnb.privacy_budget IS
    'optional total epsilon per training source (set with madnb.set_privacy_budget); a release that would exceed it fails before any noise is drawn';
COMMENT ON COLUMN madnb.privacy_budget.spent_sequence IS
    'sequence holding the epsilon spent, in units of 1e-12 (charges round up): not transactional, so ROLLBACK does not undo a charge';

-- Under CREATE EXTENSION (or ALTER EXTENSION UPDATE) the ledger and budgets are
-- extension members: tell pg_dump to keep their rows.
DO $madnb_config_dump$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_catalog.pg_extension WHERE extname = 'madnb') THEN
        PERFORM pg_catalog.pg_extension_config_dump('madnb.privacy_ledger', '');
        PERFORM pg_catalog.pg_extension_config_dump('madnb.privacy_ledger_release_id_seq', '');
        PERFORM pg_catalog.pg_extension_config_dump('madnb.privacy_budget', '');
    END IF;
END
$madnb_config_dump$;
