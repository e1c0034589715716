-- The columns of madnb's internal tables, said once (the public views over them
-- carry their own comments). Users read these tables through madnb.models,
-- madnb.privacy_ledger, madnb.privacy_budget and madnb.privacy_budget_status; only madnb's functions write them.

COMMENT ON COLUMN madnb._migrations.name IS 'the migration file (migrations/NNNN_*.sql) that ran';
COMMENT ON COLUMN madnb._migrations.sha256 IS 'the hash of the file as it ran: a released migration never changes';
COMMENT ON COLUMN madnb._migrations.applied_at IS 'when it ran';

COMMENT ON COLUMN madnb._models.name IS 'the model''s identifier: its objects'' names start with it, in schema schema_name';
COMMENT ON COLUMN madnb._models.schema_name IS 'the schema of the model''s objects: madnb_models, or the schema its owner trained it into';
COMMENT ON COLUMN madnb._models.kind IS 'the kind of naive Bayes (see madnb.models.kind)';
COMMENT ON COLUMN madnb._models.source IS 'the table or view it was trained from, as schema.name when trained';
COMMENT ON COLUMN madnb._models.label IS 'the label column';
COMMENT ON COLUMN madnb._models.label_type IS 'the label''s type (format_type): what <model>_predict returns';
COMMENT ON COLUMN madnb._models.features IS 'the features in order: [{name, role, type}]';
COMMENT ON COLUMN madnb._models.classes IS 'the classes as text, in the order of <model>_predict_proba_array';
COMMENT ON COLUMN madnb._models.training_rows IS 'labelled rows it was trained on (private models: from the noisy class counts)';
COMMENT ON COLUMN madnb._models.smoothing IS 'the Laplace smoothing used (alpha for the kinds that take one)';
COMMENT ON COLUMN madnb._models.privacy IS 'NULL for an exact model; else epsilon, delta, release_id, guarantee, domain, bounds';
COMMENT ON COLUMN madnb._models.functions IS 'the prediction functions training created (regprocedure text): what drop_model drops';
COMMENT ON COLUMN madnb._models.tables IS 'the model tables training created (regclass text): what drop_model drops, with the statistics table';
COMMENT ON COLUMN madnb._models.statistics IS 'its statistics table in madnb_statistics (quoted schema.name)';
COMMENT ON COLUMN madnb._models.parameters IS 'the kind''s parameters from madnb.train''s options';
COMMENT ON COLUMN madnb._models.owner IS 'the role owning its objects (row level security: it and its members write the row)';
COMMENT ON COLUMN madnb._models.created_at IS 'when it was trained';
COMMENT ON COLUMN madnb._models.created_by IS 'the session user who trained it';
COMMENT ON COLUMN madnb._models.weight IS 'the column of sample weights the model was trained with (madnb.train''s weight), NULL when unweighted';

COMMENT ON COLUMN madnb_privacy.budget.schema_name IS 'the source''s schema';
COMMENT ON COLUMN madnb_privacy.budget.table_name IS 'the source''s table';
COMMENT ON COLUMN madnb_privacy.budget.total_epsilon IS 'the total epsilon private releases of the source may spend';
COMMENT ON COLUMN madnb_privacy.budget.set_at IS 'when the budget was set';
COMMENT ON COLUMN madnb_privacy.budget.set_by IS 'the session user who set it';

COMMENT ON COLUMN madnb_privacy.ledger.release_id IS 'the release''s id; a gap marks a release whose caller rolled back (its charge stays)';
COMMENT ON COLUMN madnb_privacy.ledger.schema_name IS 'the source''s schema';
COMMENT ON COLUMN madnb_privacy.ledger.table_name IS 'the source''s table';
COMMENT ON COLUMN madnb_privacy.ledger.epsilon IS 'the epsilon the release spent';
COMMENT ON COLUMN madnb_privacy.ledger.mechanism IS 'the noise mechanism';
COMMENT ON COLUMN madnb_privacy.ledger.parameters IS 'the release''s parameters (attributes, bounds, domain, delta, outputs)';
COMMENT ON COLUMN madnb_privacy.ledger.released_at IS 'when it was charged';
COMMENT ON COLUMN madnb_privacy.ledger.released_by IS 'the session user who released';
