"""The ``ranklens`` command: ``compare``, ``evaluate``, ``mde``, ``ppi`` and ``app``.

This module collects the input (arguments, file paths) and shows the results; the thinking is
in the library (``ranklens.compare``, ``ranklens.metrics``, ``ranklens.plan``, ``ranklens.ppi``),
the words in each feature's ``text`` and ``html`` modules.

Exit status: 0 on success; 2 with a one-line message on stderr on bad usage or bad input (a
file that cannot be read, an unknown metric, a missing column). Never a traceback for those.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ranklens import __version__, io
from ranklens.cli.app import add_app
from ranklens.cli.common import PROG, Parser, Status, UsageError, silence_stdout
from ranklens.cli.compare import add_compare, render_report
from ranklens.cli.evaluate import add_evaluate
from ranklens.cli.plan import add_mde
from ranklens.cli.ppi import add_ppi

__all__ = ["PROG", "Status", "UsageError", "build_parser", "main", "render_report"]


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog=PROG, description="Is ranking run B really better than run A, and "
                     "where? trec_eval-exact metrics per query, then paired statistics.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True,
                                     parser_class=Parser)
    add_compare(commands)
    add_evaluate(commands)
    add_mde(commands)
    add_ppi(commands)
    add_app(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 success, 2 bad usage or input)."""
    try:
        args = build_parser().parse_args(argv)
        code: int = args.handler(args)
        return code
    except SystemExit as done:  # --help, --version
        return done.code if isinstance(done.code, int) else 0
    except BrokenPipeError:  # `ranklens ... | head`: the reader has what it wanted
        silence_stdout()
        return 0
    except (UsageError, io.InputError, ValueError, OSError) as error:
        message = " ".join(str(error).split()) or type(error).__name__
        prefix = "" if isinstance(error, UsageError) and message.startswith(PROG) else \
            f"{PROG}: error: "
        print(f"{prefix}{message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130

