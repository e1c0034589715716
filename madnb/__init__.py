"""madnb: naive Bayes inside PostgreSQL.

The Python side installs the SQL objects into a database and drives them::

    import madnb
    madnb.install("postgresql://localhost/mydb")      # or a psycopg connection / SQLAlchemy engine
    madnb.version("postgresql://localhost/mydb")

Training and scoring are SQL calls (MADlib's interface) in schema ``madnb``;
see README.md.  A named model becomes a fitted scikit-learn estimator with
``madnb.to_sklearn(conn, "adult_nb")`` (needs the ``sklearn`` extra).
"""

from ._build import build_script
from ._install import InstallError, VersionInfo, connection, install, uninstall, upgrade, version
from ._version import __version__
from .sklearn_export import to_sklearn

__all__ = [
    "InstallError",
    "VersionInfo",
    "__version__",
    "build_script",
    "connection",
    "install",
    "to_sklearn",
    "uninstall",
    "upgrade",
    "version",
]
