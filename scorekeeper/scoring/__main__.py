"""Score one match from the command line.

    python -m scorekeeper.scoring [FILE]

Reads one match (RULES.md 1.1) as JSON from FILE, or from standard input
when FILE is missing or "-", and prints score_match's result as JSON.
Exit status: 0 on success; 2 for an invalid match, malformed JSON or an
unreadable file (the reason goes to standard error, one plain line).
"""

from __future__ import annotations

import argparse
import json
import sys

from . import InvalidHand, score_match

EXIT_INVALID = 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m scorekeeper.scoring",
        description="Score one card-game match (JSON, see RULES.md) and print the result as JSON.",
        epilog="Exit status: 0 when scored, 2 for an invalid match, malformed JSON or an unreadable file.",
    )
    parser.add_argument(
        "file",
        nargs="?",
        default="-",
        metavar="FILE",
        help='the match as a JSON file; standard input when omitted or "-"',
    )
    return parser


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _fail(message: str) -> int:
    print(_one_line(message), file=sys.stderr)
    return EXIT_INVALID


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.buffer.read().decode("utf-8-sig")
    with open(path, encoding="utf-8-sig") as handle:
        return handle.read()


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    source = "standard input" if args.file == "-" else args.file
    try:
        text = _read(args.file)
    except OSError as error:
        return _fail(f"Cannot read {source}: {error.strerror or error}")
    except UnicodeDecodeError:
        return _fail(f"Cannot read {source}: it is not UTF-8 text")
    try:
        match = json.loads(text)
    except json.JSONDecodeError as error:
        return _fail(f"Not valid JSON: line {error.lineno} column {error.colno}: {error.msg}")
    except RecursionError:
        return _fail("Not valid JSON: nested too deeply")
    try:
        result = score_match(match)
    except InvalidHand as error:
        return _fail(str(error))
    json.dump(result, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
