-- Versions of named models (issue 22, point 4).
--
-- Every madnb.train (and replace), madnb.update, madnb.forget and
-- madnb.rollback_model makes a new version of a named model.  A version is kept
-- as its statistics: a copy of the statistics table the model was derived from
-- (schema madnb_statistics, owned by the model's owner, as the kept statistics
-- are), and one row here saying who made it, how and from what, with what
-- madnb.rollback_model needs to derive the model again from those statistics
-- (kind, label, features and parameters, the table whose columns it was trained
-- on).  madnb._models.version is the model's current version.  Row level
-- security as on madnb._models: everyone with access reads; a role writes only
-- the rows of models it owns (a member of the owning role may).  Models trained
-- before this migration are at version 1 with no stored version: their next
-- change records version 2.

CREATE TABLE madnb._model_versions (
    schema_name name NOT NULL,
    name text NOT NULL,
    version integer NOT NULL,
    operation text NOT NULL,
    source text NOT NULL,
    rows bigint NOT NULL,
    training_rows bigint NOT NULL,
    classes text[] NOT NULL,
    statistics text NOT NULL,
    model jsonb NOT NULL,
    owner name NOT NULL DEFAULT CURRENT_USER,
    created_at timestamptz NOT NULL DEFAULT pg_catalog.statement_timestamp(),
    created_by name NOT NULL DEFAULT SESSION_USER,
    PRIMARY KEY (schema_name, name, version)
);
COMMENT ON TABLE madnb._model_versions IS
    'internal: one row per version of a named model (written by madnb.train, update, forget, rollback_model, drop_model; read madnb.model_versions)';

ALTER TABLE madnb._model_versions ENABLE ROW LEVEL SECURITY;
CREATE POLICY model_versions_read ON madnb._model_versions FOR SELECT USING (true);
CREATE POLICY model_versions_insert ON madnb._model_versions FOR INSERT
    WITH CHECK (pg_catalog.pg_has_role(owner, 'MEMBER') AND pg_catalog.has_schema_privilege(schema_name, 'CREATE'));
CREATE POLICY model_versions_delete ON madnb._model_versions FOR DELETE USING (pg_catalog.pg_has_role(owner, 'MEMBER'));
REVOKE ALL ON madnb._model_versions FROM PUBLIC;

ALTER TABLE madnb._models ADD COLUMN version integer NOT NULL DEFAULT 1;
