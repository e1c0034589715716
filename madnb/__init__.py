"""madnb: naive Bayes inside PostgreSQL.

The Python side installs the SQL objects into a database and drives them::

    import madnb
    madnb.install("postgresql://localhost/mydb")      # or a psycopg connection / SQLAlchemy engine
    madnb.version("postgresql://localhost/mydb")

Training and scoring are SQL calls (MADlib's interface) in schema ``madnb``;
see README.md.  A named model becomes a fitted scikit-learn estimator with
``madnb.to_sklearn(conn, "adult_nb")`` (needs the ``sklearn`` extra).
``madnb.NaiveBayes(conn).fit("adult", "income")`` trains, predicts and
evaluates from Python with scikit-learn's estimator interface, the work done
in the database (docs/python.md); ``.evaluate(..., curves=True).plot()`` and
``.report("report.html")`` draw the curves the database computed (``madnb.report``).
``madnb.private_predict([server1, server2], "adult_nb", rows)`` classifies rows
with a model two or more servers hold, none of them seeing a row
(docs/private_prediction.md).
"""

from . import report
from ._build import build_script
from ._errors import MadnbError
from ._install import InstallError, VersionInfo, connection, install, uninstall, upgrade, version
from ._progress import Reporter
from ._version import __version__
from .estimator import CrossValidation, Evaluation, GridSearch, NaiveBayes
from .private_predict import PrivatePredictionError, private_predict
from .sklearn_export import to_sklearn

__all__ = [
    "CrossValidation",
    "Evaluation",
    "GridSearch",
    "InstallError",
    "MadnbError",
    "NaiveBayes",
    "PrivatePredictionError",
    "Reporter",
    "VersionInfo",
    "__version__",
    "build_script",
    "connection",
    "install",
    "private_predict",
    "report",
    "to_sklearn",
    "uninstall",
    "upgrade",
    "version",
]
