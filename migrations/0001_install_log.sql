-- Which madnb versions were installed into this database, and when.
CREATE TABLE madnb.install_log (
    version text NOT NULL,
    installed_at timestamptz NOT NULL DEFAULT pg_catalog.now(),
    installed_by name NOT NULL DEFAULT CURRENT_USER
);
COMMENT ON TABLE madnb.install_log IS 'one row per madnb install or upgrade run: version, time, role';
