"""The ``madnb`` command line.

Installing: install, upgrade, uninstall, version, build-script, export-sql,
install-check; modelling (:mod:`madnb._model_cli`): train, predict, evaluate,
cross-validate, models, drop, explain, feature-importance, threshold-curve,
forget, versions, rollback; and demo, sandbox, privacy-curve.  Exit codes:
0 done, 1 the database or madnb refused (a database error's SQLSTATE in the
message), 2 a usage error (argparse's, or no database given).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import psycopg

from . import _model_cli, privacy_curve
from ._build import build_script, psql_script, write_extension_files
from ._errors import MadnbError
from ._install import CASCADE, DROP_PRIVACY_STATE, InstallError, connection, install, uninstall, upgrade, version
from ._version import __version__
from .demo import DemoError
from .report import ReportError

# libpq's own variables: with one of them set, an empty connection string connects as psql would.
LIBPQ_VARIABLES = ("PGHOST", "PGHOSTADDR", "PGPORT", "PGDATABASE", "PGUSER", "PGSERVICE")


EXAMPLES = {
    "install": "madnb install --dsn postgresql://user@host/mydb",
    "upgrade": "madnb upgrade --dsn postgresql://user@host/mydb",
    "uninstall": "madnb uninstall --dsn postgresql://user@host/mydb --cascade",
    "version": "PGHOST=localhost PGDATABASE=mydb madnb version",
    "build-script": "madnb build-script --psql -o madnb-install.sql",
    "export-sql": "madnb export-sql adult_nb --function-name public.adult_nb > adult_nb.sql",
    "demo": "madnb demo",
    "sandbox": "madnb sandbox --database sandbox",
    "privacy-curve": "madnb privacy-curve --reps 5 --only adult --out /tmp/curve",
}
"""The example each installing command's --help ends with (the model commands give theirs in madnb._model_cli)."""


class _UsageError(Exception):
    """A command line that cannot run (exit code 2)."""


def _dsn(args: argparse.Namespace) -> str:
    """--dsn, else $MADNB_DSN, else libpq's PG* variables (an empty connection string) when one is set."""
    dsn = args.dsn or os.environ.get("MADNB_DSN")
    if dsn:
        return str(dsn)
    if any(os.environ.get(v) for v in LIBPQ_VARIABLES):
        return ""
    raise _UsageError("no database given: use --dsn URL (or set MADNB_DSN, or libpq's PGHOST, PGDATABASE, ... as for psql)")


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``madnb`` command."""
    p = argparse.ArgumentParser(prog="madnb", description="naive Bayes inside PostgreSQL")
    p.add_argument("--version", action="version", version=f"madnb {__version__}")
    sub = p.add_subparsers(dest="cmd", required=True)

    def with_dsn(name: str, help: str, **kw: object) -> argparse.ArgumentParser:
        sp = sub.add_parser(name, help=help, description=help, **kw)  # type: ignore[arg-type]
        sp.add_argument("--dsn", help="libpq URL or key=value string (default: $MADNB_DSN, else libpq's PGHOST, PGDATABASE, ...)")
        return sp

    with_dsn("install", "install madnb into schema madnb of a database")
    with_dsn("upgrade", "upgrade an existing madnb installation to this version")
    un = with_dsn(
        "uninstall",
        "remove schema madnb (model tables, the privacy ledger and budgets in schema madnb_privacy are kept)",
    )
    un.add_argument("--cascade", action="store_true", help="also drop views that use madnb, and the named models (madnb.train) with what uses them")
    un.add_argument(
        "--drop-privacy-ledger",
        action="store_true",
        help="also drop the privacy ledger, the budgets and the spent counters (schema madnb_privacy)",
    )
    with_dsn("version", "show the library version and the version installed in a database")
    bs = sub.add_parser("build-script", help="write the generated install script")
    bs.add_argument("-o", "--output", type=Path, help="file to write (default: standard output)")
    bs.add_argument("--as-version", default=__version__, help=argparse.SUPPRESS)
    bs.add_argument("--extension-dir", type=Path, help="write madnb--VERSION.sql and the upgrade scripts into this folder")
    bs.add_argument(
        "--psql",
        action="store_true",
        help="a plain SQL install/upgrade script for psql -v ON_ERROR_STOP=1 -f FILE (one transaction)",
    )
    ex = with_dsn("export-sql", "print the SQL script that creates a named model's prediction and explanation functions in a database without madnb")
    ex.add_argument("model", help="the model's name (as madnb.train took it)")
    ex.add_argument(
        "--function-name", help="[schema.]name of the exported functions (default: the model's name, in schema public)"
    )
    dm = sub.add_parser("demo", help="run the demo (a throwaway local PostgreSQL unless --dsn is given)")
    dm.add_argument("--dsn", help="run in this database instead of a throwaway cluster")
    sb = sub.add_parser(
        "sandbox",
        help="start a throwaway local PostgreSQL with madnb installed, print the psql command, remove it on Ctrl-C / Ctrl-D",
    )
    sb.add_argument("--database", default="sandbox", help="the database to create (default: sandbox)")
    pc = sub.add_parser(
        "privacy-curve",
        help="accuracy against epsilon on four UCI datasets (throwaway cluster; writes privacy_curve.md and .png; needs the bench extra)",
    )
    privacy_curve.add_arguments(pc)
    _model_cli.add_parsers(sub, with_dsn)
    for name, example in EXAMPLES.items():
        sub.choices[name].epilog = "example:\n  " + example
        sub.choices[name].formatter_class = argparse.RawDescriptionHelpFormatter

    if not (sys.argv[1:] if argv is None else argv):
        p.print_help()
        return 0
    args = p.parse_args(argv)
    try:
        if args.cmd in _model_cli.COMMANDS:
            return _model_cli.run(args, _dsn(args))
        if args.cmd == "install":
            print(install(_dsn(args)))
        elif args.cmd == "upgrade":
            dsn = _dsn(args)
            pre = version(dsn)
            before, now = upgrade(dsn)
            if before != now.installed:
                print(f"upgraded from {before}: {now}")
            elif pre.build == now.build:
                print(f"madnb {now.installed} is already up to date")
            else:
                print(f"madnb {now.installed}: objects re-applied (same version, changed build)")
        elif args.cmd == "uninstall":
            dsn = _dsn(args)
            if version(dsn).installed is None and not args.drop_privacy_ledger:
                print("madnb is not installed in this database: nothing to uninstall")
                return 0
            done = str(uninstall(dsn, cascade=args.cascade, drop_privacy_state=args.drop_privacy_ledger))
            print(done.replace(f"madnb.uninstall(..., {DROP_PRIVACY_STATE})", "`madnb uninstall --drop-privacy-ledger`"))
        elif args.cmd == "version":
            print(version(_dsn(args)))
        elif args.cmd == "build-script":
            if args.extension_dir:
                for path in write_extension_files(args.extension_dir, args.as_version):
                    print(path)
                return 0
            script = psql_script(args.as_version) if args.psql else build_script(args.as_version)
            if args.output:
                args.output.parent.mkdir(parents=True, exist_ok=True)
                args.output.write_text(script, encoding="utf-8")
            else:
                sys.stdout.write(script)
        elif args.cmd == "export-sql":
            with connection(_dsn(args)) as conn:
                if version(conn).installed is None:
                    raise InstallError(
                        "madnb is not installed in this database: export-sql reads a named model from the database "
                        "madnb trained it in (the script it prints then runs in a database without madnb)"
                    )
                row = conn.execute("SELECT madnb.model_sql(%s, %s)", [args.model, args.function_name]).fetchone()
            sys.stdout.write(row[0] if row else "")
        elif args.cmd == "privacy-curve":
            return privacy_curve.run_command(args)
        elif args.cmd == "demo":
            from .demo import main as demo_main, process_started

            return demo_main(args.dsn, started=process_started())
        elif args.cmd == "sandbox":
            from .sandbox import main as sandbox_main

            return sandbox_main(args.database)
    except BrokenPipeError:  # the reader stopped (| head): no traceback, and no second error when Python flushes stdout
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except _UsageError as e:
        print(f"madnb {args.cmd}: {e}", file=sys.stderr)
        return 2
    except ReportError as e:  # matplotlib missing, or nothing to draw
        print(f"madnb {args.cmd}: {e}", file=sys.stderr)
        return 1
    except (InstallError, DemoError) as e:
        message = str(e).replace(CASCADE, "--cascade") if args.cmd == "uninstall" else str(e)
        print(f"madnb: {message}", file=sys.stderr)
        return 1
    except MadnbError as e:
        print(f"madnb: {e}", file=sys.stderr)
        return 1
    except psycopg.Error as e:
        print(f"madnb: {MadnbError.from_psycopg(e)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
