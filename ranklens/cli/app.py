"""``ranklens app``: the dashboard (Compare, MDE, PPI, Methods) served from the installed
package, as `mlflow ui` or `streamlit hello` serve theirs.

Before the server starts it puts ``ranklens.app.route_guard`` in front of Streamlit's own
endpoints (uploads, downloads, metrics answer only allowed people when sign-in is on) and
masks database passwords in every log record (``ranklens.store.redact``). It serves
``ranklens/app/main.py`` with Streamlit; Streamlit reads the ``.streamlit/config.toml``
beside that script (upload limit, XSRF, viewer toolbar, error details, magic off) over the
working directory's, so the settings hold wherever the command starts. ``--store`` and
``--cache-mb`` set ``RANKLENS_STORE`` and ``RANKLENS_CACHE_MB`` for the server, ``--docs``
``RANKLENS_DOCS`` (a documents collection the Compare page reads texts from); any Streamlit
option (``--server.maxUploadSize 500``, ``--theme.base dark``) passes through to
``streamlit run``. Streamlit is imported only when the command runs.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from ranklens.cli.common import PROG, Command, Parser, UsageError

MAIN_SCRIPT = Path(__file__).resolve().parents[1] / "app" / "main.py"
"""The app's main script in the installed package."""

DEFAULT_PORT = 8501
_STREAMLIT_OPTION = re.compile(r"^--[a-z][A-Za-z]*\.[a-z][A-Za-z0-9]*(=.*)?$")


class AppParser(Parser):
    """The ``app`` subcommand's parser: Streamlit's own ``--section.option`` flags pass through
    (into ``args.streamlit_options``) instead of being unknown arguments."""

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None
                         ) -> tuple[argparse.Namespace, list[str]]:
        parsed, extras = super().parse_known_args(args, namespace)
        parsed.streamlit_options = streamlit_options(extras)
        return parsed, []


def streamlit_options(extras: Sequence[str]) -> list[str]:
    """``extras`` checked to be Streamlit options (``--server.port 1`` or ``--a.b=1``), as
    given; ``UsageError`` for anything else (a typo such as ``--prot``)."""
    options: list[str] = []
    expect_value = False
    for item in extras:
        if _STREAMLIT_OPTION.match(item):
            expect_value = "=" not in item
        elif expect_value and not item.startswith("--"):
            expect_value = False
        else:
            raise UsageError(f"{PROG} app: unrecognized argument {item!r}: give ranklens's "
                             "options or Streamlit options as --section.option VALUE (see "
                             f"{PROG} app --help)")
        options.append(item)
    if expect_value:
        raise UsageError(f"{PROG} app: Streamlit option {options[-1]!r} needs a value")
    return options

HELP = "serve the dashboard (Compare, MDE, PPI++, Methods) in the browser"
DESCRIPTION = (
    "Serve the ranklens dashboard from the installed package: the bundled "
    "demo on first visit, your files by upload. Streamlit options (--server.*, --theme.*, "
    "...) pass through to 'streamlit run'.")
EPILOG = (
    "example: ranklens app --port 8600 --store ~/reports.sqlite3 "
    "--server.maxUploadSize 500")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.__class__ = AppParser  # subparsers build every parser from one class
    p.add_argument("--port", type=_port, default=DEFAULT_PORT,
                   help=f"port to listen on (default {DEFAULT_PORT})")
    p.add_argument("--host", default="localhost",
                   help="address to listen on (default localhost; 0.0.0.0 for every interface)")
    p.add_argument("--store", metavar="URL",
                   help="where share links are kept: a SQLite file or a postgresql:// URL "
                   "(sets RANKLENS_STORE; default: the user's data directory)")
    p.add_argument("--cache-mb", type=_positive, metavar="MB",
                   help="memory for parsed inputs and reports shared by the sessions "
                   "(sets RANKLENS_CACHE_MB; default 2048)")
    p.add_argument("--docs", metavar="PATH",
                   help="a documents collection on this machine (TSV, BEIR corpus.jsonl, a "
                   "table; gzip too) whose texts the Compare page shows for uploaded runs: "
                   "for collections larger than the upload limit; indexed once in one pass, "
                   "only the documents shown are read (sets RANKLENS_DOCS)")
    p.set_defaults(streamlit_options=[])


def run_app(args: argparse.Namespace) -> int:
    """Serve the app until interrupted; the exit status of the server."""
    environ = _server_environment(args)
    os.environ.update(environ)
    from streamlit.web import cli as streamlit_cli  # the command's cost, not the CLI's

    from ranklens.app import auth, route_guard
    from ranklens.store.redact import install_log_redaction

    install_log_redaction()  # no database password in the server's log, in any form
    if not route_guard.install(auth.configuration):
        print(f"{PROG} app: this Streamlit has no Starlette server, so uploads, downloads and "
              "metrics cannot be put behind sign-in; upgrade Streamlit (see SECURITY.md)",
              file=sys.stderr)

    flags = ["--server.port", str(args.port), "--server.address", args.host,
             *args.streamlit_options]
    try:
        streamlit_cli.main(["run", str(MAIN_SCRIPT), *flags], prog_name=f"{PROG} app")
    except SystemExit as done:
        return done.code if isinstance(done.code, int) else 0
    return 0


def _server_environment(args: argparse.Namespace) -> dict[str, str]:
    """The variables the server reads, checked before it starts (a bad store URL is a usage
    error here, not a broken Share button later)."""
    from ranklens.app.cache import CACHE_MB_ENV
    from ranklens.compare.query_texts import DOCS_ENV
    from ranklens.store.config import store_config
    from ranklens.store.location import STORE_PATH_ENV

    environ: dict[str, str] = {}
    if args.store is not None:
        environ[STORE_PATH_ENV] = args.store
    if args.cache_mb is not None:
        environ[CACHE_MB_ENV] = str(args.cache_mb)
    if getattr(args, "docs", None) is not None:
        docs = Path(args.docs).expanduser().resolve()
        if not docs.is_file():
            raise UsageError(f"{PROG} app --docs {args.docs}: no such file; give the path of "
                             "a documents collection (TSV, JSONL, CSV or Parquet, gzip too)")
        environ[DOCS_ENV] = str(docs)
    store_config({**os.environ, **environ})  # ValueError naming the variable
    from ranklens.app.route_guard import uploads_limit_bytes

    uploads_limit_bytes()  # RANKLENS_UPLOADS_MB: ValueError naming the variable
    return environ


def _port(text: str) -> int:
    port = _positive(text)
    if port > 65535:
        raise argparse.ArgumentTypeError(f"a port is at most 65535, not {port}")
    return port


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive number, not {value}")
    return value


COMMAND = Command(HELP, DESCRIPTION, add_arguments, run_app, epilog=EPILOG)
