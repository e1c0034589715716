"""The ground every stage stands on: the ``plpy`` interface and the SQL it accepts (:mod:`.spi`), SQL
builders (:mod:`.sql`), identifiers parsed and resolved on the caller's search_path (:mod:`.names`), and
errors that carry a SQLSTATE (:mod:`.errors`, with :func:`.errors.entry_point`, which every SQL-callable
function goes through).  Nothing here knows naive Bayes."""
