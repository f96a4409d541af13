"""``python -m tests.pinned --write [WORD ...]``: regenerate the pinned outputs.

Without ``--write`` it only checks: prints the pins that differ from their files and exits 1
when one does. ``WORD`` limits either to the pins whose file name contains it.
"""

from __future__ import annotations

import argparse
import sys

from tests.pinned import GOLDEN, produce, producers, quiet


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.pinned")
    parser.add_argument("--write", action="store_true", help="write the pins (default: check)")
    parser.add_argument("words", nargs="*", help="only pins whose file name contains a word")
    args = parser.parse_args(argv)
    names = [n for n in producers() if not args.words or any(w in n for w in args.words)]
    GOLDEN.mkdir(parents=True, exist_ok=True)
    differ = []
    for name in names:
        with quiet():
            text = produce(name)
        path = GOLDEN / name
        if args.write:
            path.write_bytes(text.encode("utf-8"))
            print(f"wrote {path.relative_to(GOLDEN.parents[1])}")
        elif not path.exists() or path.read_bytes() != text.encode("utf-8"):
            differ.append(name)
            print(f"differs: {name}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
