"""The ``ranklens`` command: ``compare``, ``evaluate``, ``mde``, ``ppi`` and ``app``.

This module collects the input (arguments, file paths) and shows the results; the thinking is
in the library (``ranklens.compare``, ``ranklens.metrics``, ``ranklens.plan``, ``ranklens.ppi``),
the words in each feature's ``text`` and ``html`` modules.

Exit status: 0 on success; 2 with a one-line message on stderr on bad usage or bad input (a
file that cannot be read, an unknown metric, a missing column). Never a traceback for those.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from ranklens import io
from ranklens._lazy import lazy_names
from ranklens.cli.common import PROG, Command, Parser, Status, UsageError, silence_stdout

__all__ = ["PROG", "Status", "UsageError", "build_parser", "main", "render_report"]

# subcommand -> the module whose ``COMMAND`` (a `Command`) it is; a command imports only its own
# module (``ranklens evaluate`` does not pay for pandas and the comparison pipeline)
SUBCOMMANDS = {
    "compare": "ranklens.cli.compare",
    "evaluate": "ranklens.cli.evaluate",
    "mde": "ranklens.cli.plan",
    "ppi": "ranklens.cli.ppi",
    "plan-labels": "ranklens.cli.plan_labels",
    "app": "ranklens.cli.app",
}
# commands that do no linear algebra: OpenBLAS's worker threads, started with numpy, spin
# waiting for work and take a CPU from the reader's threads (on 2 CPUs, 8% of `evaluate`'s
# wall time on the big case); set before numpy loads, and only when the user has not chosen
NO_BLAS_THREADS = {"evaluate"}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The ``ranklens`` parser with every subcommand, or with ``only`` that one."""
    parser = Parser(prog=PROG, description="Is ranking run B really better than run A, and "
                     "where? trec_eval-exact metrics per query, then paired statistics.")
    parser.add_argument("--version", action=_Version, nargs=0,
                        help="show the program's version number and exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True,
                                     parser_class=Parser)
    for name, module in SUBCOMMANDS.items():
        if only is None or name == only:
            command: Command = importlib.import_module(module).COMMAND
            p = commands.add_parser(name, help=command.help, description=command.description,
                                    usage=command.usage, epilog=command.epilog)
            command.add_arguments(p)
            p.set_defaults(handler=command.run)
    return parser


class _Version(argparse.Action):
    """``--version``, the installed version read only when asked (``importlib.metadata`` costs
    more to import than ``ranklens evaluate``'s scoring of a small run)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from ranklens import __version__

        sys.stdout.write(f"{PROG} {__version__}\n")
        parser.exit()


# the report renderer loads with the compare command's module, only when asked for
__getattr__, __dir__ = lazy_names(__name__, globals(), {"render_report": "ranklens.cli.compare"})


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 success, 2 bad usage or input)."""
    try:
        arguments = list(sys.argv[1:] if argv is None else argv)
        only = arguments[0] if arguments and arguments[0] in SUBCOMMANDS else None
        if only in NO_BLAS_THREADS and "numpy" not in sys.modules:
            os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
        args = build_parser(only).parse_args(arguments)
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

