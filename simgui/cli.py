"""The ``simgui`` command line: everything on the same core API as the GUI.

Errors go to stderr as one line starting with ``simgui:`` and a non-zero exit
code (2 for bad usage or an unusable store, 1 when some files failed, 130
when cancelled).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence

from simgui import __version__
from simgui.core import keys as keys_module
from simgui.core.progress import Cancelled, Progress
from simgui.core.scanner import ScanOptions, read_file, scan
from simgui.core.store import ENV_DB, Store, StoreError, default_db_path
from simgui.core.units import format_bytes, format_duration, format_rate, parse_size

EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE, EXIT_CANCELLED = 0, 1, 2, 130


class CommandError(Exception):
    """A one-line message for stderr, and the exit code to leave with."""

    def __init__(self, message: str, code: int = EXIT_USAGE):
        super().__init__(message)
        self.code = code


def _size(text: str) -> int:
    try:
        return parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def build_parser() -> argparse.ArgumentParser:
    db = argparse.ArgumentParser(add_help=False)
    db.add_argument("--db", metavar="DB",
                    help=f"store file (default: ${ENV_DB}, else {default_db_path()})")

    parser = argparse.ArgumentParser(
        prog="simgui",
        description="Find identical and similar files, and clean them up safely.",
        epilog="Run 'simgui COMMAND --help' for a command's options.")
    parser.add_argument("--version", action="version", version=f"simgui {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = commands.add_parser("scan", parents=[db], help="scan folders into the store",
                            description="Read every new or changed file under PATH once and "
                                        "store its sum table and content hash. Unchanged files "
                                        "are not read again.")
    p.add_argument("paths", nargs="+", metavar="PATH", help="folder or file to scan")
    p.add_argument("--exclude", action="append", default=[], metavar="PATTERN",
                   help="skip names or paths matching this glob (repeatable), e.g. '*.tmp'")
    p.add_argument("--min-size", type=_size, default=0, metavar="SIZE",
                   help="leave out files smaller than SIZE (e.g. 1k, 2M)")
    p.add_argument("--follow-symlinks", action="store_true",
                   help="follow symbolic links (loops are detected and skipped)")
    p.add_argument("--workers", type=int, default=0, metavar="N",
                   help="reader threads (default: one per CPU core)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress, summary only")
    p.set_defaults(run=cmd_scan)

    p = commands.add_parser("inspect", help="show sum tables and keys of files",
                            description="Compute the sum table and keys of each FILE "
                                        "(reads the files; needs no store).")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    p.set_defaults(run=cmd_inspect)

    p = commands.add_parser("stats", parents=[db], help="summarise the store",
                            description="Files, bytes and errors in the store, and the last "
                                        "scan.")
    p.add_argument("--json", action="store_true", help="print a JSON object")
    p.set_defaults(run=cmd_stats)
    return parser


def _open_store(args) -> Store:
    return Store(args.db) if args.db else Store()


# -- scan ---------------------------------------------------------------------


class _ProgressLine:
    """Progress on stderr: one rewritten line on a terminal, a line every few seconds otherwise."""

    def __init__(self, quiet: bool):
        self.quiet = quiet
        self.tty = sys.stderr.isatty()
        self.last = 0.0
        self.width = 0

    def __call__(self, p: Progress) -> bool:
        if self.quiet or p.phase == "done":
            return True
        now = time.monotonic()
        if not self.tty and now - self.last < 2.0:
            return True
        self.last = now
        if p.phase == "walking":
            text = f"Looking for files: {p.files_done} found"
        else:
            text = (f"Reading {p.files_done}/{p.files_total} files, "
                    f"{format_bytes(p.bytes_done)} of {format_bytes(p.bytes_total or 0)}, "
                    f"{format_rate(p.rate)}")
            if p.seconds_left is not None:
                text += f", {format_duration(p.seconds_left)} left"
        if self.tty:
            sys.stderr.write("\r" + text.ljust(self.width))
            self.width = len(text)
        else:
            sys.stderr.write(text + "\n")
        sys.stderr.flush()
        return True

    def clear(self) -> None:
        if self.tty and self.width:
            sys.stderr.write("\r" + " " * self.width + "\r")
            sys.stderr.flush()


def cmd_scan(args) -> int:
    for path in args.paths:
        if not os.path.lexists(path):
            raise CommandError(f"no such file or folder: {path}")
    if args.workers < 0:
        raise CommandError("--workers must be 0 (automatic) or more")
    options = ScanOptions(excludes=tuple(args.exclude), min_size=args.min_size,
                          follow_symlinks=args.follow_symlinks, workers=args.workers)
    line = _ProgressLine(args.quiet)
    with _open_store(args) as store:
        try:
            rep = scan(store, args.paths, options, progress=line)
        except Cancelled:
            line.clear()
            print("simgui: scan cancelled; what was read is saved, and scanning again "
                  "resumes from there", file=sys.stderr)
            return EXIT_CANCELLED
    line.clear()
    for path, kind, message in rep.issues[:20]:
        print(f"  {kind}: {path}: {message}", file=sys.stderr)
    if len(rep.issues) > 20:
        print(f"  ... and {len(rep.issues) - 20} more (see 'simgui stats')", file=sys.stderr)
    rate = format_rate(rep.bytes_read / rep.elapsed) if rep.elapsed > 0 else "-"
    print(f"Scanned {rep.files_found} files ({format_bytes(rep.bytes_found)}) in "
          f"{format_duration(rep.elapsed)}: {rep.files_read} read ({format_bytes(rep.bytes_read)}"
          f", {rate}), {rep.files_unchanged} unchanged, {rep.errors} unreadable, "
          f"{rep.skipped} skipped, {rep.hard_links} hard links, "
          f"{rep.files_forgotten} gone since last scan.", file=sys.stderr)
    return EXIT_SOME_FAILED if rep.errors else EXIT_OK


# -- inspect ------------------------------------------------------------------


def cmd_inspect(args) -> int:
    failed = 0
    for path in args.files:
        if not os.path.lexists(path):
            print(f"simgui: {path}: no such file", file=sys.stderr)
            failed += 1
            continue
        if os.path.isdir(path):
            print(f"simgui: {path}: is a folder (use 'simgui scan' for folders)", file=sys.stderr)
            failed += 1
            continue
        record = read_file(path)
        if record.error:
            print(f"simgui: {path}: {record.error}", file=sys.stderr)
            failed += 1
            continue
        table = [int(x) for x in record.sum_table]
        info = {
            "path": os.path.abspath(path),
            "size": record.size,
            "extension": record.extension,
            "sum_table": table,
            "keys": {name: keys_module.SCHEMES[name].key(table) for name in ("uniform", "skew")},
            "extension_offset": keys_module.extension_offset(record.extension),
            "content_hash": record.content_hash.hex(),
        }
        if args.json:
            print(json.dumps(info))
        else:
            _print_inspection(info)
    return EXIT_SOME_FAILED if failed else EXIT_OK


def _print_inspection(info: dict) -> None:
    from simgui.core.tags import DEFAULT_TAGS

    print(info["path"])
    print(f"  size       {info['size']} bytes ({format_bytes(info['size'])})")
    print(f"  keys       uniform {info['keys']['uniform']:.2f}   skew {info['keys']['skew']:.2f}"
          f"   (extension '{info['extension']}' adds {info['extension_offset']:.0f})")
    print(f"  xxh3-128   {info['content_hash']}")
    print("  sum table  " + "  ".join(f"{t:02x}:{n}" for t, n in zip(DEFAULT_TAGS,
                                                                     info["sum_table"])))


# -- stats --------------------------------------------------------------------


def cmd_stats(args) -> int:
    with _open_store(args) as store:
        stats = store.stats()
    if args.json:
        print(json.dumps(stats))
        return EXIT_OK
    print(f"Store:     {stats['store']}")
    print(f"Files:     {stats['files']} ({format_bytes(stats['bytes'])})")
    print(f"Errors:    {stats['errors']} files could not be read")
    last = stats["last_scan"]
    if last is None:
        print("Last scan: never (run 'simgui scan FOLDER')")
    else:
        print(f"Last scan: {last['started_at']}, {last['status']}, "
              f"{last['files_read']} files read, {last['files_unchanged']} unchanged, "
              f"{last['errors']} errors, {last['skipped']} skipped")
        print(f"           of {', '.join(last['roots'])}")
    return EXIT_OK


# -- entry point --------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_OK
    try:
        return args.run(args)
    except CommandError as exc:
        print(f"simgui: {exc}", file=sys.stderr)
        return exc.code
    except StoreError as exc:
        print(f"simgui: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("simgui: interrupted", file=sys.stderr)
        return EXIT_CANCELLED
    except BrokenPipeError:
        # output piped into e.g. 'head', which stopped reading: not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
