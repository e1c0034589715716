-- Named models in the trainer's own schema (issue 17, A3).
--
-- Only madnb's owner may create in schema madnb_models, so only it could train
-- named models, and every hole was a superuser's.  A role given grant_usage now
-- trains models into a schema it may create in (madnb.train('analytics.churn',
-- ...)): their objects are its own there, and its rows of the catalog are its
-- own (row level security: a role changes only the rows of models it owns, and
-- inserts only for a schema it may create in).  The catalog is keyed by the
-- schema and the model's identifier.

ALTER TABLE madnb._models ADD COLUMN schema_name name NOT NULL DEFAULT 'madnb_models';
ALTER TABLE madnb._models ALTER COLUMN schema_name DROP DEFAULT;
ALTER TABLE madnb._models DROP CONSTRAINT _models_pkey;
ALTER TABLE madnb._models ADD PRIMARY KEY (schema_name, name);
ALTER POLICY models_insert ON madnb._models
    WITH CHECK (pg_catalog.pg_has_role(owner, 'MEMBER') AND pg_catalog.has_schema_privilege(schema_name, 'CREATE'));
