"""The ``simgui`` command line: everything on the same core API as the GUI.

Errors go to stderr as one line starting with ``simgui:`` and a non-zero exit
code (2 for bad usage or an unusable store, 1 when some files failed, 130
when cancelled).
"""

from __future__ import annotations

import argparse
import errno
import json
import math
import os
import sqlite3
import sys
import time
from collections.abc import Sequence

from simgui import __version__
from simgui.cli_common import (
    _MAX_SIZE_FACTOR, _MAX_WORKERS, EXIT_CANCELLED, EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE,
    CommandError, _batch_id, _carry_out, _exclude, _files, _write_pairs, _open_store, _override, _Parser, _path,
    _percent, _print_result, _ProgressLine, _reference_folders, _size, _size_factor,
    _threshold, _tolerances, _workers,
)
from simgui.cli_common import (  # tables for a terminal
    _output_format, _print_groups_table, _print_plan_files,
)
from simgui.core.progress import Cancelled
from simgui.core.search.export import json_ready, percent_or_none
from simgui.core.search.tolerances import (
    DEFAULT_KEY_TOLERANCE, DEFAULT_MIN_CONTENT, DEFAULT_MIN_SIMILAR_SIZE, DEFAULT_SIZE_FACTOR,
    DEFAULT_SUM_TOLERANCE, METHODS, MINHASH_DEFAULT, MINHASH_FLOOR, PICTURE_METHODS,
    SCHEME_NAMES, SIMHASH_DEFAULT_BITS, SIMHASH_MAX_BITS, Tolerances,
)
from simgui.core.store import ENV_DB, Store, StoreError, default_db_path, store_failure
from simgui.core.folders import under
from simgui.core.memory import NotEnoughMemory, keep_freed_memory
from simgui.core.store import ignored
from simgui.core.units import counted, format_bytes, format_duration, format_rate, format_share

#: The clean-up's KeepRule values, for the parser (the clean-up itself loads with the
#: commands that act: tests/test_startup.py checks the two agree)
KEEP_RULES = ("oldest", "newest", "largest", "shortest-path")

# numpy, numba and the kernels are imported in the commands that search or read (each
# imports what it uses): 'simgui --version', '--help', 'stats', 'journal' and 'undo'
# start without them, in a few dozen milliseconds (issue 25)


def build_parser() -> argparse.ArgumentParser:
    db = argparse.ArgumentParser(add_help=False)
    db.add_argument("--db", metavar="DB", type=_path,
                    help=f"store file (default: ${ENV_DB}, else simgui.sqlite3 in your data "
                         "folder; 'simgui stats' says which)")

    parser = _Parser(
        prog="simgui",
        description="Find identical and similar files, and clean them up safely. "
                    "With no command, the desktop application opens.",
        epilog="Run 'simgui COMMAND --help' for a command's options.")
    parser.add_argument("--version", action="version", version=f"simgui {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = commands.add_parser("scan", parents=[db], help="scan folders into the store",
                            description="Read every new or changed file under PATH once and "
                                        "store its sum table and content hash. Unchanged files "
                                        "are not read again.")
    p.add_argument("paths", nargs="+", metavar="PATH", type=_path, help="folder or file to scan")
    p.add_argument("--exclude", action="append", default=[], metavar="PATTERN", type=_exclude,
                   help="skip names or paths matching this glob (repeatable), e.g. '*.tmp', "
                        "or paths in which the regular expression after re: is found, e.g. "
                        "'re:/(build|dist)/'")
    p.add_argument("--min-size", type=_size, default=0, metavar="SIZE",
                   help="leave out files smaller than SIZE (e.g. 1k, 2M)")
    p.add_argument("--follow-symlinks", action="store_true",
                   help="follow symbolic links (loops are detected and skipped)")
    # always on now (the content check needs them); kept so that old scripts still run
    p.add_argument("--fingerprints", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--workers", type=_workers, default=0, metavar="N",
                   help=f"reader threads, up to {_MAX_WORKERS} (default 0: one per CPU core)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress, summary only")
    p.add_argument("--identical-only", action="store_true",
                   help="find identical copies only: read only files that share a size with "
                        "another, as far as they match (first 4 KiB, then whole); no sum "
                        "tables, so a later full scan reads them (and reuses the hashes)")
    p.set_defaults(run=cmd_scan)

    p = commands.add_parser("inspect", help="show sum tables and keys of files",
                            description="Compute the sum table and keys of each FILE "
                                        "(reads the files; needs no store).")
    p.add_argument("files", nargs="+", metavar="FILE", type=_path)
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    p.set_defaults(run=cmd_inspect)

    search = argparse.ArgumentParser(add_help=False)
    search.add_argument("--key-tolerance", type=_percent, default=DEFAULT_KEY_TOLERANCE,
                        metavar="PCT", help="how far keys may differ, in percent of the file "
                        f"size (default {DEFAULT_KEY_TOLERANCE})")
    search.add_argument("--sum-tolerance", type=_percent, default=DEFAULT_SUM_TOLERANCE,
                        metavar="PCT", help="how far sum tables may differ, in percent of the "
                        f"mean size (default {DEFAULT_SUM_TOLERANCE})")
    search.add_argument("--scheme", choices=SCHEME_NAMES, default="skew",
                        help="key scheme (default skew, the paper's standard)")
    search.add_argument("--no-extensions", action="store_true",
                        help="compare files whatever their extension (by default only files "
                             "with the same extension can be similar)")
    search.add_argument("--size-factor", type=_size_factor, default=DEFAULT_SIZE_FACTOR,
                        metavar="F", help="larger file at most F times the smaller, 1 to "
                        f"{_MAX_SIZE_FACTOR:g} (default {DEFAULT_SIZE_FACTOR})")
    search.add_argument("--method", choices=METHODS, default="paper",
                        help="paper: keys and sum tables (default); simhash: 64-bit simhash "
                             "fingerprints by Hamming distance; minhash: MinHash resemblance")
    search.add_argument("--threshold", type=_threshold, metavar="N",
                        help="simhash: differing bits allowed, 0 to "
                             f"{SIMHASH_MAX_BITS} (default "
                             f"{SIMHASH_DEFAULT_BITS}); minhash: smallest resemblance "
                             f"in percent, {MINHASH_FLOOR * 100:g} to 100 (default "
                             f"{MINHASH_DEFAULT * 100:g})")
    check = search.add_mutually_exclusive_group()
    check.add_argument("--check", type=_percent, default=DEFAULT_MIN_CONTENT, metavar="PCT",
                       help="paper's method: call a pair that is not a copy similar only if "
                            "the two files have at least PCT percent of their content in "
                            f"common, estimated from their fingerprints (default "
                            f"{DEFAULT_MIN_CONTENT:g})")
    check.add_argument("--no-check", dest="check", action="store_const", const=0.0,
                       help="paper's method as published: keys and sum tables alone decide "
                            "(unrelated compressed files of similar size then look similar)")
    search.add_argument("--override", type=_override, action="append", default=[],
                        metavar="EXT=KEY,SUM",
                        help="paper's method: fixed key and sum-table tolerances (percent) for "
                             "the files of one extension, e.g. ps=3.2,0.23 for PostScript, "
                             "whose large shared prolog makes unrelated files look alike; "
                             "repeat for more extensions")

    p = commands.add_parser("pairs", parents=[db, search], help="list similar pairs",
                            description="Every similar pair among the stored files. k identical "
                                        "copies are listed as k-1 pairs with the first copy.")
    p.add_argument("--format", choices=["csv", "json", "table"], default=None,
                   help="table on a terminal, else csv (the default when piped)")
    p.set_defaults(run=cmd_pairs)

    p = commands.add_parser("groups", parents=[db, search], help="list groups of similar files",
                            description="Groups of identical and similar files: each group has "
                                        "a reference file and members within tolerance of it.")
    p.add_argument("--format", choices=["json", "csv", "table"], default=None,
                   help="table on a terminal, else json (the default when piped)")
    p.add_argument("--reference", action="append", default=[], metavar="DIR", type=_path,
                   help="prefer files in DIR as group references (repeatable)")
    p.add_argument("--identical-only", action="store_true",
                   help="identical copies only (equal size and content hash): no similar "
                        "search, so it works on a 'scan --identical-only' store too, and the "
                        "search options do not apply")
    p.set_defaults(run=cmd_groups)

    p = commands.add_parser("similar", parents=[db, search], help="files similar to one file",
                            description="Stored files similar to FILE (scanned or not), most "
                                        "similar first.")
    p.add_argument("file", metavar="FILE", type=_path)
    p.add_argument("--format", choices=["text", "csv", "json"], default="text")
    p.set_defaults(run=cmd_similar)

    p = commands.add_parser("remove", parents=[db, search],
                            help="trash, delete, move or link the extra copies",
                            description="Act on the current groups: one file of each group "
                                        "stays, the others are trashed (default), deleted, moved "
                                        "or replaced by hard links. Every file is checked right "
                                        "before acting, and every step is journaled.")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--identical-only", action="store_true",
                       help="groups of identical copies only (equal size and content hash, "
                            "no similar search: works on a 'scan --identical-only' store "
                            "too), and act on the copies of the kept file; without it, the "
                            "similar search's groups, acting on identical copies too")
    which.add_argument("--include-similar", action="store_true",
                       help="also act on files only similar to the kept copy, after "
                            "listing each with its similarity (hard links are only ever "
                            "made for identical copies)")
    p.add_argument("--keep", choices=KEEP_RULES, default="oldest",
                   help="which file of a group stays (default oldest)")
    p.add_argument("--reference", action="append", default=[], metavar="DIR", type=_path,
                   help="protect DIR: its files are never acted on, and are kept first")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--trash", dest="action", action="store_const", const="trash",
                     help="send to the trash (default)")
    how.add_argument("--delete", dest="action", action="store_const", const="delete",
                     help="delete identical copies permanently (cannot be undone)")
    how.add_argument("--move-to", metavar="DIR", type=_path,
                     help="move into DIR, keeping relative paths")
    how.add_argument("--hardlink", dest="action", action="store_const", const="hardlink",
                     help="replace identical copies with hard links to the kept file")
    p.add_argument("--dry-run", action="store_true", help="print the plan, change nothing")
    p.add_argument("--yes", "-y", action="store_true", help="do not ask for confirmation")
    p.set_defaults(run=cmd_remove, action=None)

    p = commands.add_parser("undo", parents=[db], help="undo a clean-up batch",
                            description="Put back what a batch moved or trashed.")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--last", action="store_true", help="the last undoable batch (default)")
    which.add_argument("batch", nargs="?", type=_batch_id, metavar="BATCH_ID")
    p.set_defaults(run=cmd_undo)

    p = commands.add_parser("journal", parents=[db], help="show what clean-ups did",
                            description="Batches of file operations, newest first; with "
                                        "BATCH_ID, every file of that batch.")
    p.add_argument("batch", nargs="?", type=_batch_id, metavar="BATCH_ID")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_journal)

    p = commands.add_parser("stats", parents=[db], help="summarise the store",
                            description="Files, bytes and errors in the store, and the last "
                                        "scan.")
    p.add_argument("--json", action="store_true", help="print a JSON object")
    p.set_defaults(run=cmd_stats)
    from simgui import cli_cluster
    cli_cluster.add_commands(commands, db, search)
    from simgui import cli_folders
    cli_folders.add_commands(commands, db, search)
    from simgui import cli_ignore
    cli_ignore.add_commands(commands, db, search)
    return parser


def cmd_scan(args) -> int:
    from simgui.core.reading.scanner import ScanOptions, scan

    for path in args.paths:
        if not os.path.lexists(path):
            raise CommandError(f"no such file or folder: {path}")
    options = ScanOptions(excludes=tuple(args.exclude), min_size=args.min_size,
                          follow_symlinks=args.follow_symlinks, workers=args.workers)
    line = _ProgressLine(args.quiet)
    with _open_store(args) as store:
        try:
            rep = scan(store, args.paths, options, progress=line,
                       identical_only=args.identical_only)
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
    print(f"Scanned {counted(rep.files_found, 'file')} ({format_bytes(rep.bytes_found)}) in "
          f"{format_duration(rep.elapsed)}: {rep.files_read} read ({format_bytes(rep.bytes_read)}"
          f", {rate}), {rep.files_unchanged} unchanged, {rep.errors} unreadable, "
          f"{rep.skipped} skipped, {counted(rep.hard_links, 'hard link')}, "
          f"{rep.files_forgotten} no longer found (gone, left out, or now another name of a "
          "file read) and dropped from the store.", file=sys.stderr)
    if rep.identical is not None:
        found = rep.identical
        print(f"Identical copies: {counted(len(found.sets), 'set')}, "
              f"{counted(found.copies, 'file that is a copy', 'files that are a copy')} of "
              f"another ({counted(found.files_hashed, 'file')} hashed, "
              f"{counted(found.files_reused, 'hash', 'hashes')} reused)"
              + (". Only identical copies were looked for: 'simgui groups --identical-only' "
                 "lists them; 'simgui scan' without --identical-only reads the files for "
                 "similar ones too." if args.identical_only else "."), file=sys.stderr)
    if rep.files_fingerprinted:
        print(f"{rep.files_fingerprinted} unchanged files were read once more: an older simgui "
              "stored them without the content fingerprints that confirm similar files.",
              file=sys.stderr)
    return EXIT_SOME_FAILED if rep.errors else EXIT_OK


# -- inspect ------------------------------------------------------------------


def cmd_inspect(args) -> int:
    from simgui.core.reading.scanner import read_file
    from simgui.core.search import keys as keys_module

    failed = 0
    for path in args.files:
        if not os.path.exists(path):
            print(f"simgui: {path}: {_missing(path)}", file=sys.stderr)
            failed += 1
            continue
        if os.path.isdir(path):
            print(f"simgui: {path}: is a folder (use 'simgui scan' for folders)", file=sys.stderr)
            failed += 1
            continue
        record = read_file(os.path.realpath(path))  # a link named is followed
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
            print(json.dumps(json_ready(info)))
        else:
            _print_inspection(info)
    return EXIT_SOME_FAILED if failed else EXIT_OK


def _missing(path: str) -> str:
    """Why a path named on the command line names no file."""
    if not os.path.islink(path):
        return "no such file"
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "symbolic link loop"
    return f"symbolic link to a missing file ({os.readlink(path)})"


def _print_inspection(info: dict) -> None:
    from simgui.core.tags import DEFAULT_TAGS

    print(info["path"])
    print(f"  size       {info['size']} bytes ({format_bytes(info['size'])})")
    print(f"  keys       uniform {info['keys']['uniform']:.2f}   skew {info['keys']['skew']:.2f}"
          f"   (extension '{info['extension']}' adds {info['extension_offset']:.0f})")
    print(f"  xxh3-128   {info['content_hash']}")
    print("  sum table  " + "  ".join(f"{t:02x}:{n}" for t, n in zip(DEFAULT_TAGS,
                                                                     info["sum_table"])))


# -- pairs, groups, similar ------------------------------------------------------


def _groups(args, store: Store, tol: Tolerances, *, protecting: bool = False):
    """The stored files, their groups at ``tol``, and the checked --reference folders."""
    from simgui.core.search.ignoring import groups_without_ignored

    files, table, references = _group_table(args, store, tol, protecting=protecting)
    groups = table.groups() if table is not None else []
    # what the user said are not duplicates (simgui ignore, or the window) stays apart
    groups = groups_without_ignored(groups, ignored.ignored_pairs(store))
    return files, groups, references


def _group_table(args, store: Store, tol: Tolerances, *, protecting: bool = False):
    """The stored files, their groups at ``tol`` as a table (None when there are no
    files), and the checked --reference folders; ignored pairs not taken out."""
    from simgui.core.search.analysis import find_group_table
    from simgui.core.search.keys import SCHEMES

    files = _files(store, args)
    references = _reference_folders(args.reference, files, protecting=protecting)
    if len(files) == 0:
        return files, None, references
    table = find_group_table(files, tol, scheme=SCHEMES[args.scheme],
                             use_extensions=not args.no_extensions,
                             size_factor=args.size_factor, references=references,
                             method=args.method, overrides=dict(args.override))
    return files, table, references


def _identical_groups(args, store: Store, *, protecting: bool = False):
    """--identical-only: the files with a copy, their groups of equal size and content
    hash (simgui.core.search.identical: no similar search and no kernel, so a store
    that 'scan --identical-only' filled works too), and the checked --reference folders."""
    from simgui.core.search.ignoring import groups_without_ignored

    table, references = _identical_table(args, store, protecting=protecting)
    groups = groups_without_ignored(table.groups(), ignored.ignored_pairs(store))
    return table.files, groups, references


def _identical_references(args, store: Store, *, protecting: bool = False) -> list[str]:
    """--reference folders checked for --identical-only: each must exist, and should hold
    a stored file."""
    references = []
    for folder in args.reference:
        path = os.path.abspath(os.path.expanduser(folder))
        if not os.path.isdir(path):
            raise CommandError(f"--reference {folder}: no such folder")
        # any stored file, copy or not, under its name or with links resolved
        if not any(store.known_hashes([os.fsencode(p)]) for p in {path, os.path.realpath(path)}):
            message = f"--reference {folder}: no stored file is in it"
            if protecting:
                raise CommandError(f"{message}, so it would protect nothing; nothing was "
                                   "changed (scan it first, or check the path)")
            print(f"simgui: {message}", file=sys.stderr)
        references.append(path)
    return references


def _identical_table(args, store: Store, *, protecting: bool = False):
    """--identical-only's groups as the table (see :func:`_identical_groups`), with the
    checked --reference folders; ignored pairs not taken out."""
    from simgui.core.search.identical import identical_groups

    references = _identical_references(args, store, protecting=protecting)
    return identical_groups(store.identical_files(), references), references


def cmd_pairs(args) -> int:
    from simgui.core.search.keys import SCHEMES
    from simgui.core.search.pairs import similar_pairs

    tol = _tolerances(args)
    with _open_store(args) as store:
        files = _files(store, args)
        skip = {frozenset(os.fsencode(p) for p in pair) for pair in ignored.ignored_pairs(store)}
    found = similar_pairs(files, tol, scheme=SCHEMES[args.scheme],
                          use_extensions=not args.no_extensions, size_factor=args.size_factor,
                          method=args.method, overrides=dict(args.override))
    _write_pairs(files, found, _output_format(args.format, "csv"), skip)
    return EXIT_OK


def cmd_groups(args) -> int:
    import io

    from simgui.core.store import answers

    tol = _tolerances(args)  # the options' mistakes before the store's
    fmt = _output_format(args.format, "json")
    with _open_store(args) as store:
        question = _groups_question(args, fmt)
        # read before the files, so that an answer is never kept for a newer version
        version = None if question is None else answers.files_version(store)
        if version is not None:
            answer = answers.kept_answer(store, question, version)
            if answer is not None:  # nothing changed since it was given
                sys.stdout.write(answer)
                return EXIT_OK
        out = sys.stdout if version is None else io.StringIO()
        _write_groups(args, store, tol, fmt, out)
        if version is not None:
            answer = out.getvalue()
            sys.stdout.write(answer)
            answers.keep_answer(store, question, version, answer)
    return EXIT_OK


def _groups_question(args, fmt: str) -> str | None:
    """What ``simgui groups`` was asked, every option that shapes the answer included,
    as the key of a kept answer; None where an answer is not kept: for a terminal's
    table, and with --reference (whose folders' links may change without the store)
    or --override (which warns of extensions no file has)."""
    if fmt == "table" or args.reference or args.override:
        return None
    options = {name: value for name, value in sorted(vars(args).items())
               if name not in ("db", "run", "format")}
    return f"simgui {__version__} groups {fmt} {options!r}"


def _write_groups(args, store: Store, tol: Tolerances, fmt: str, out) -> None:
    from simgui.core.search.export import write_group_table, write_groups

    if fmt != "table" and not ignored.ignored_pairs(store):
        # written from the table's columns, without an object per file
        if args.identical_only:
            table, _ = _identical_table(args, store)
        else:
            _, table, _ = _group_table(args, store, tol)
        if table is not None:
            write_group_table(table, out, fmt)
            return
        groups = []
    elif args.identical_only:
        _, groups, _ = _identical_groups(args, store)
    else:
        _, groups, _ = _groups(args, store, tol)
    if fmt == "table":
        _print_groups_table(groups)
    else:
        write_groups(groups, out, fmt)


def cmd_similar(args) -> int:
    import numpy as np

    from simgui.core.reading.names import extension_of
    from simgui.core.reading.scanner import read_file
    from simgui.core.search import methods
    from simgui.core.search.keys import SCHEMES
    from simgui.core.search.simfind import identity_and_similarity, similar_to

    if not os.path.exists(args.file):
        raise CommandError(f"{args.file}: {_missing(args.file)}")
    if not os.path.isfile(args.file):
        raise CommandError(f"{args.file}: not a file")
    fingerprint_method = args.method != "paper"
    # a link named is followed; the file itself is never its own match, by any path
    me = os.path.realpath(args.file)
    here = os.stat(me)
    record = read_file(me)
    if record.error:
        raise CommandError(f"{args.file}: {record.error}", EXIT_SOME_FAILED)
    tol = _tolerances(args)
    with _open_store(args) as store:
        files = _files(store, args)
    extension = None if args.no_extensions else extension_of(me)
    if fingerprint_method:
        hits, difference = _similar_by_fingerprints(record, files, args.method, tol.sum,
                                                    args.size_factor, extension)
        distances = np.abs(files.tables[hits] - record.sum_table).sum(axis=1)
    else:
        fixed = dict(args.override).get(extension)  # its key and sum; the check stays
        if fixed is not None:
            tol = Tolerances(fixed.key, fixed.sum, tol.content)
        hits, distances = similar_to(record.sum_table, record.size, files, tol,
                                     scheme=SCHEMES[args.scheme], size_factor=args.size_factor,
                                     extension=extension, content_hash=record.content_hash)
        if tol.content > 0:  # the content check, as for pairs: copies need none
            copy = np.array([files.hashes[i] == record.content_hash for i in hits], bool)
            keep = (_share_with(record, files, hits) >= tol.content) | copy
            hits, distances = hits[keep], distances[keep]
    names = {me, os.path.abspath(args.file)}  # a stored path of it, whatever its inode now
    keep = np.flatnonzero(((files.devices[hits] != here.st_dev)
                           | (files.inodes[hits] != here.st_ino))
                          & np.array([files.paths[i] not in names for i in hits], bool))
    hits, distances = hits[keep], distances[keep]
    key = SCHEMES[args.scheme].key(record.sum_table)
    keys = SCHEMES[args.scheme].keys(files.tables[hits])
    identical, _ = identity_and_similarity(
        distances, files.sizes[hits], record.size,
        [files.hashes[i] == record.content_hash for i in hits])
    if args.method == "simhash":
        x = np.bitwise_xor(files.simhashes[hits], np.uint64(record.simhash))
        share = methods.share_from_bits(np.bitwise_count(x))
    elif args.method in PICTURE_METHODS:
        share = methods.method_share(args.method, difference[keep])
    else:
        share = _share_with(record, files, hits)
    sim = methods.similarity(share, identical)
    order = np.lexsort((distances, -np.nan_to_num(sim, nan=-1.0)))  # most similar first
    hits, distances, keys, identical, sim = (hits[order], distances[order], keys[order],
                                             identical[order], sim[order])
    rows = [{"path": files.paths[i], "size": int(files.sizes[i]), "identical": bool(same),
             "key_distance": round(float(abs(k - key)), 4), "sum_distance": int(d),
             "similarity": percent_or_none(float(s_))}
            for i, d, k, same, s_ in zip(hits, distances, keys, identical, sim)]
    if args.format == "json":
        for r in rows:
            print(json.dumps(json_ready(r)))
    elif args.format == "csv":
        import csv
        writer = csv.DictWriter(sys.stdout, fieldnames=list(rows[0]) if rows else
                                ["path", "size", "identical", "key_distance", "sum_distance",
                                 "similarity"])
        writer.writeheader()
        writer.writerows(rows)
    else:
        if not rows:
            print(f"No stored file is similar to {os.path.abspath(args.file)} at these "
                  "tolerances.")
        for r in rows:
            label = ("identical" if r["identical"] else "?" if r["similarity"] is None
                     else f"{format_share(r['similarity'], 2):>6} %")
            print(f"{label:>10}  {format_bytes(r['size']):>9}  {r['path']}")
    return EXIT_OK


def _share_with(record, files, hits):
    """Share of content in common (percent) of one file read now with stored files,
    from MinHash; NaN for a stored file without fingerprints."""
    import numpy as np

    from simgui.core.search import methods

    if len(hits) == 0 or files.signatures is None:
        return np.full(len(hits), np.nan)
    equal = (files.signatures[hits] == record.minhash).mean(axis=-1)
    share = methods.share_from_resemblance(equal)
    return np.where(files.fingerprinted[hits], share, np.nan)


def _similar_by_fingerprints(record, files, method: str, max_difference: float,
                             size_factor: float, extension: str | None):
    """Stored files within ``max_difference`` percent of one file by a fingerprint method
    (one comparison per stored file: a query, not a search of all pairs).  As in a
    search, files under the smallest similar size only match identical copies."""
    import numpy as np

    from simgui.core.search import methods

    if method in PICTURE_METHODS:  # pictures: any extension and size
        from simgui.core.search.pictures import similar_pictures
        return similar_pictures(record, files, max_difference,
                                rotations=method == "images-rotated")
    difference = methods.differences(method, files.simhashes, files.signatures,
                                     np.uint64(record.simhash), record.minhash)
    big = np.maximum(files.sizes, record.size)
    small = np.minimum(files.sizes, record.size)
    copy = np.array([h == record.content_hash for h in files.hashes], bool)
    ok = ((difference <= max_difference) & (big <= size_factor * small)
          & ((small >= DEFAULT_MIN_SIMILAR_SIZE) | copy))
    if extension is not None:  # copies are copies whatever their extensions
        ok &= np.array([e == extension for e in files.extensions], bool) | copy
    hits = np.flatnonzero(ok)
    return hits, difference[hits]


# -- remove, undo, journal ----------------------------------------------------


def cmd_remove(args) -> int:
    from simgui.core.cleanup import Action, KeepRule, journal, plan_removal

    action = Action.MOVE if args.move_to else Action(args.action or "trash")
    tol = _tolerances(args)  # the options' mistakes before the store's
    with _open_store(args) as store:
        if not store.read_only:  # (--dry-run on a store it cannot write: plan only)
            journal.recover(store)
        if args.identical_only:  # no similar search: a 'scan --identical-only' store too
            files, groups, references = _identical_groups(args, store, protecting=True)
        else:
            files, groups, references = _groups(args, store, tol, protecting=True)
        # moved files keep their paths below whichever scanned folder holds them
        roots = store.scanned_roots()
        if args.move_to:
            target = os.path.abspath(os.path.expanduser(args.move_to))
            made_in = target  # the folder the target is, or will be made in
            while not os.path.lexists(made_in):
                made_in = os.path.dirname(made_in)
            if not os.path.isdir(made_in):
                raise CommandError(f"--move-to {args.move_to}: {made_in} is not a folder; "
                                   "nothing was changed")
            if not os.access(made_in, os.W_OK | os.X_OK):
                raise CommandError(f"--move-to {args.move_to}: cannot write in {made_in}; "
                                   "nothing was changed")
            # (a target named through a link into a scanned folder is inside it too)
            real = os.path.realpath(target)
            inside = next((r for r in roots if under(target, [r])
                           or under(real, [os.path.realpath(r)])), None)
            if inside:
                print(f"simgui: {target} is inside the scanned folder {inside}: the next scan "
                      "there finds the moved files again", file=sys.stderr)
        # a file that is only similar holds what its kept copy does not: it is acted on
        # only when asked for, and listed with its similarity first
        identical_only = not args.include_similar
        plan = plan_removal(groups, action=action, keep=KeepRule(args.keep),
                            references=references, identical_only=identical_only,
                            target_dir=target if args.move_to else None,
                            roots=roots)
        print(plan.describe())
        if not identical_only:
            _list_similar(plan, pictures=args.method in PICTURE_METHODS)
        elif plan.left_similar:
            print(f"{_files_text(plan.left_similar)} only similar to the kept copy "
                  "left alone (--include-similar to act on them too).")
        if args.dry_run:  # every file, and what would happen to it
            _print_plan_files(plan, groups)
        return _carry_out(plan, store, files, question="Go ahead?", dry_run=args.dry_run,
                          yes=args.yes, forget=action is not Action.HARDLINK)


def _files_text(count: int) -> str:
    return "1 file" if count == 1 else f"{count:,} files"


def _list_similar(plan, pictures: bool = False) -> None:
    """Each planned file that is only similar to its kept copy, with its similarity:
    nobody should trash a merely similar file without seeing that it is one."""
    similar = [op for op in plan.operations if not op.member.identical]
    if similar:
        print(f"{_files_text(len(similar))} only similar to the kept copy (not identical), "
              + ("with how alike each looks to the group's reference (pictures compared "
                 "as seen, not by their bytes):" if pictures else
                 "with the share of content they have in common with the group's reference:"))
        for op in similar:
            value = op.member.similarity
            label = "?" if math.isnan(value) else f"{format_share(value)} %"
            print(f"  {label:>7}  {op.path}")


def cmd_undo(args) -> int:
    from simgui.core.cleanup import journal, undo

    with _open_store(args) as store:
        journal.recover(store)
        if args.batch is None and journal.last_undoable(store) is None:
            # nothing went wrong: there is nothing to put back (exit 1 means failures)
            print("Nothing to undo: no clean-up has moved files that could be put back.")
            return EXIT_OK
        try:
            result = undo(store, args.batch)
        except journal.UndoError as exc:
            raise CommandError(str(exc), EXIT_SOME_FAILED) from None
        code = _print_result(result)
        if result.results and not result.done:  # each file skipped or failed: say why
            reasons = {r.message for r in result.results}
            why = (reasons.pop() if len(reasons) == 1 else
                   f"{len(result.skipped)} skipped, {len(result.failed)} failed (why is above)")
            print("simgui: nothing was put back: " + why.replace("\n", "\\n"),
                  file=sys.stderr)
            code = EXIT_SOME_FAILED
        if result.done:  # a clean-up took them out of the store
            print("A scan of their folders lists them again (only they are read).")
        return code


def cmd_journal(args) -> int:
    from simgui.core.cleanup import journal

    with _open_store(args) as store:
        if not store.read_only:  # a store it cannot write shows a crashed batch as running
            journal.recover(store)
        if args.batch is None:
            batches = journal.batches(store)
            if args.json:
                for b in batches:
                    print(json.dumps(json_ready({
                        "id": b.id, "action": b.action, "status": b.status,
                        "created_at": b.created_at, "undo_of": b.undo_of, "counts": b.counts,
                        "description": b.description})))
                return EXIT_OK
            if not batches:
                print("No clean-up has run yet.")
            for b in batches:
                when = time.strftime("%Y-%m-%d %H:%M", time.localtime(b.created_at))
                counts = ", ".join(f"{n} {state}" for state, n in sorted(b.counts.items()))
                undo_of = f" (undo of {b.undo_of})" if b.undo_of else ""
                print(f"{b.id:>5}  {when}  {b.action:<9} {b.status:<10} {counts}{undo_of}")
            return EXIT_OK
        rows = journal.entries(store, args.batch)
        if not rows:
            raise CommandError(f"no batch {args.batch} in the journal")
        for e in rows:
            if args.json:
                print(json.dumps(json_ready({
                    "path": e.path, "state": e.state, "message": e.message, "kept": e.kept,
                    "target": e.target, "undoable": e.undoable})))
            else:
                where = f" -> {e.target}" if e.target else ""
                # (a message that names the target already, "sent to the trash: T" or
                # "moved to T", says only what happened)
                message = (e.message.removesuffix(f": {e.target}").removesuffix(
                    f" to {e.target}") if e.target else e.message)
                print(f"{e.state:<8} {e.path}{where}  {message}")
    return EXIT_OK


# -- stats --------------------------------------------------------------------


def cmd_stats(args) -> int:
    with _open_store(args) as store:
        stats = store.stats()
    if args.json:
        print(json.dumps(json_ready(stats)))
        return EXIT_OK
    print(f"Store:     {stats['store']}")
    print(f"Files:     {stats['files']} ({format_bytes(stats['bytes'])})")
    print(f"Errors:    {_files_text(stats['errors'])} could not be read")
    if stats["identity_only"]:
        print(f"Copies:    {_files_text(stats['identity_only'])} scanned with --identical-only "
              "(not searched for similar files until scanned in full)")
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


def _write_names_as_bytes() -> None:
    """Print a file name that is not UTF-8 as its bytes, as ls and find do (Python would
    raise UnicodeEncodeError on stdout, and escape it on stderr)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="surrogateescape")
        except (AttributeError, ValueError):  # not a text file (a test's), or closed
            pass


#: The kernels each command that reads or searches needs first (a module under
#: simgui/core whose kernels numba compiles on a machine's first run).
_FIRST_KERNELS = {"scan": "reading/sumtable.py", "inspect": "reading/sumtable.py",
                  **dict.fromkeys(("pairs", "groups", "similar", "remove", "folders",
                                   "cluster"), "search/simfind.py")}


def _say_if_compiling(command: str) -> None:
    """A command about to compile the kernels (the first run on a machine) says so, and
    how long it takes, instead of sitting silent: on a terminal, like the progress line
    (a script reading stderr gets only what it did before)."""
    from simgui import _kernel_cache

    module = _FIRST_KERNELS.get(command)
    if (module is not None and sys.stderr.isatty()
            and not _kernel_cache.compiled_before(module)):
        print("simgui: preparing the engine, first run only (a minute or two)...",
              file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    _write_names_as_bytes()
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        # no command: the desktop application (which keeps freed memory itself)
        from simgui.gui.app import main as gui_main

        return gui_main()
    keep_freed_memory()  # a search's temporaries, reused by the next: see core.memory
    _say_if_compiling(args.command)
    try:
        return args.run(args)
    except CommandError as exc:
        print(f"simgui: {exc}", file=sys.stderr)
        return exc.code
    except NotEnoughMemory as exc:  # a search that would not fit: said before it runs
        print(f"simgui: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except StoreError as exc:
        print(f"simgui: {exc}", file=sys.stderr)
        # files were acted on before the store failed (ResultsUnsaved): not "bad usage"
        return EXIT_SOME_FAILED if exc.files_acted_on else EXIT_USAGE
    except sqlite3.Error as exc:  # from a read no method guards (the journal's)
        path = getattr(args, "db", None) or default_db_path()
        print(f"simgui: {store_failure(path, 'reading the journal', exc)}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("simgui: interrupted", file=sys.stderr)
        return EXIT_CANCELLED
    except BrokenPipeError:
        # output piped into e.g. 'head', which stopped reading: not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
