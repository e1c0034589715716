-- Named models (issue 12): the schema their objects live in and the catalog.
--
-- madnb.train(model, source, label, ...) keeps everything of a model in schema
-- madnb_models: MADlib's three model tables <model>_class_priors,
-- <model>_feature_probs, <model>_numeric_stats, and the generated prediction
-- functions <model>_predict, <model>_predict_proba, <model>_predict_proba_array;
-- its statistics table goes to madnb_statistics as training's always do.  One
-- row per model in madnb._models describes it (madnb.models is the view users
-- read).  Every object belongs to the role that trained the model; row level
-- security lets a role change only the rows of models it owns (a member of the
-- owning role may), while everyone with access reads the whole catalog.
--
-- Nothing is granted to PUBLIC: madnb.grant_usage gives a role USAGE on
-- madnb_models and SELECT on the catalog (never CREATE: see sql/30_privacy.sql).
-- Like madnb_statistics, the schema holds the user's models: `madnb uninstall`
-- keeps them.

DO $madnb_models_schema$
DECLARE
    v_ext oid := (SELECT e.oid FROM pg_catalog.pg_extension AS e WHERE e.extname = 'madnb');
BEGIN
    IF pg_catalog.to_regnamespace('madnb_models') IS NULL THEN
        CREATE SCHEMA madnb_models;
    ELSIF v_ext IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM pg_catalog.pg_depend AS d
        WHERE d.classid = 'pg_catalog.pg_namespace'::pg_catalog.regclass
          AND d.objid = 'madnb_models'::pg_catalog.regnamespace AND d.deptype = 'e'
    ) THEN
        ALTER EXTENSION madnb ADD SCHEMA madnb_models;
    END IF;
END
$madnb_models_schema$;

COMMENT ON SCHEMA madnb_models IS
    'madnb: named models made by madnb.train (model tables and generated prediction functions, one set per model; see madnb.models)';

CREATE TABLE madnb._models (
    name text PRIMARY KEY,
    kind text NOT NULL,
    source text NOT NULL,
    label text NOT NULL,
    label_type text NOT NULL,
    features jsonb NOT NULL,
    classes text[] NOT NULL,
    training_rows bigint NOT NULL,
    smoothing float8 NOT NULL,
    privacy jsonb,
    statistics text NOT NULL,
    owner name NOT NULL DEFAULT CURRENT_USER,
    created_at timestamptz NOT NULL DEFAULT pg_catalog.statement_timestamp(),
    created_by name NOT NULL DEFAULT SESSION_USER
);
COMMENT ON TABLE madnb._models IS
    'internal: one row per named model (written by madnb.train and madnb.drop_model; read madnb.models)';

ALTER TABLE madnb._models ENABLE ROW LEVEL SECURITY;
CREATE POLICY models_read ON madnb._models FOR SELECT USING (true);
CREATE POLICY models_insert ON madnb._models FOR INSERT WITH CHECK (pg_catalog.pg_has_role(owner, 'MEMBER'));
CREATE POLICY models_update ON madnb._models FOR UPDATE
    USING (pg_catalog.pg_has_role(owner, 'MEMBER')) WITH CHECK (pg_catalog.pg_has_role(owner, 'MEMBER'));
CREATE POLICY models_delete ON madnb._models FOR DELETE USING (pg_catalog.pg_has_role(owner, 'MEMBER'));
