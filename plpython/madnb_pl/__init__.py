"""madnb's server-side Python: runs inside PostgreSQL's PL/Python.

Standard library only (the database server's Python may have nothing else).
Every function that talks to the database takes ``plpy`` as its first argument,
so the SQL it builds can be tested outside the server.  The SQL functions in
``sql/`` are thin: a generated prelude loads this package, then one call into
:mod:`madnb_pl.api`.
"""

# Replaced by the loader with the hash of the installed build.
BUILD = "source"
