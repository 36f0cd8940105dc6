"""``simgui folders``: similar folders (backups of backups) from the file groups.

Lists the top-most pairs of alike folders, most bytes to free first, and with
``--diff A B`` each file of two folders and its status in the other.  The figures
are :mod:`simgui.core.search.similar_folders`'s (see docs/similar-folders.md).
"""

from __future__ import annotations

import csv
import json
import os
import sys
from typing import TYPE_CHECKING

from simgui.cli_common import (
    EXIT_OK, EXIT_SOME_FAILED, CommandError, _files, _open_store, _path, _percent, _tolerances,
)
from simgui.core.search.export import json_ready
from simgui.core.search.tolerances import DEFAULT_MIN_FOLDER_SIMILARITY
from simgui.core.units import format_bytes, format_share

if TYPE_CHECKING:
    from simgui.core.search.similar_folders import FolderIndex, FolderPair
# the search's modules load numba: imported in the commands that search, so that the
# parser (every command's start) stays light

DIFF_FIELDS = ["side", "path", "relative", "size", "status", "similarity", "match"]


def add_commands(commands, db, search) -> None:
    p = commands.add_parser(
        "folders", parents=[db, search], help="list similar folders (backups of backups)",
        description="Pairs of folders whose files are identical or similar to each other's, "
                    "top-most first (x/photos and y/photos are folded under x and y), most "
                    "bytes to free first. similarity: the share of both folders' bytes that "
                    "is in the other; a_in_b, b_in_a: the share of one folder's bytes that "
                    "is in the other. A file with an identical copy there counts whole, one "
                    "with only similar files there at its similarity to the most similar "
                    "(through the group's reference: the lower of the two files' "
                    "similarities to it), so 100 % means identical copies of every file.")
    p.add_argument("--min-similarity", type=_percent, default=DEFAULT_MIN_FOLDER_SIMILARITY,
                   metavar="PCT", help="list pairs at least PCT percent alike (default "
                   f"{DEFAULT_MIN_FOLDER_SIMILARITY:g})")
    p.add_argument("--format", choices=["table", "csv", "json"], default="table")
    p.add_argument("--diff", nargs=2, metavar=("A", "B"), type=_path,
                   help="each file of folders A and B and its status in the other: "
                        "identical, similar or only")
    p.add_argument("--trash", metavar="FOLDER", type=_path,
                   help="send every scanned file of FOLDER to the trash, each only if an "
                        "identical copy outside FOLDER stays (compared byte for byte right "
                        "before acting; 'simgui undo' puts them back); refused if one file "
                        "has no such copy")
    p.add_argument("--move", metavar="FOLDER", type=_path,
                   help="with --to DIR: move every scanned file of FOLDER to DIR/<its name>/..., "
                        "on the same terms as --trash")
    p.add_argument("--to", metavar="DIR", type=_path, help="where --move puts the folder")
    p.add_argument("--merge", metavar="A", type=_path,
                   help="with --into B: copy into B every file of A whose content B lacks "
                        "(each verified byte for byte; a file only similar to B's version is "
                        "kept beside it as 'name (from A).ext' unless --prefer-a), then send A's "
                        "files to the trash, each compared with its copy in B first; one "
                        "batch that 'simgui undo' puts back")
    p.add_argument("--into", metavar="B", type=_path, help="the folder --merge copies into")
    p.add_argument("--prefer-a", metavar="PATH", type=_path, action="append", default=[],
                   help="with --merge: a file of A only similar to one of B whose version "
                        "wins (B's version goes to the trash); repeat for more")
    p.add_argument("--reference", action="append", default=[], metavar="DIR", type=_path,
                   help="protect DIR: --trash, --move and --merge refuse to touch a file in "
                        "it (repeatable)")
    p.add_argument("--dry-run", action="store_true", help="with --trash, --move or --merge: "
                   "print the plan, change nothing")
    p.add_argument("--yes", "-y", action="store_true", help="with --trash, --move or --merge: "
                   "do not ask for confirmation")
    p.set_defaults(run=cmd_folders)


def folder_index(args, store) -> FolderIndex | None:
    """The folders of the stored files, matched through their groups at the options'
    tolerances (None: the store holds no file)."""
    from simgui.core.search.analysis import Analysis, SearchSettings
    from simgui.core.search.keys import SCHEMES
    from simgui.core.search.similar_folders import FolderIndex

    tol = _tolerances(args)
    files = _files(store, args)
    if len(files) == 0:
        return None
    # as find_groups builds them, but kept as the table (one path per file)
    settings = SearchSettings(SCHEMES[args.scheme], not args.no_extensions, args.size_factor,
                              method=args.method,
                              overrides=tuple((e, t.key, t.sum) for e, t in args.override))
    groups = Analysis.build(files, settings, ceiling=tol).groups(tol)
    return FolderIndex(groups)


def cmd_folders(args) -> int:
    from simgui.core.search.similar_folders import FIELDS

    _tolerances(args)  # the options' mistakes before the store's
    acts = [name for name, on in (("--diff", args.diff), ("--trash", args.trash),
                                  ("--move", args.move), ("--merge", args.merge)) if on]
    if len(acts) > 1:
        raise CommandError(f"{' and '.join(acts)}: one at a time")
    if bool(args.move) != bool(args.to):
        raise CommandError("--move FOLDER and --to DIR go together")
    if bool(args.merge) != bool(args.into):
        raise CommandError("--merge A and --into B go together")
    if args.prefer_a and not args.merge:
        raise CommandError("--prefer-a is for --merge")
    with _open_store(args) as store:
        if args.trash or args.move:
            return _trash(args, store)
        if args.merge:
            return _merge(args, store)
        index = folder_index(args, store)
    if args.diff:
        return _diff(index, *args.diff, args.format)
    pairs = index.pairs(args.min_similarity) if index is not None else []
    if args.format == "csv":
        writer = csv.DictWriter(sys.stdout, fieldnames=FIELDS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(p.row() for p in pairs)
    elif args.format == "json":
        for p in pairs:
            print(json.dumps(json_ready({**p.row(), "nested": p.nested,
                                         "bytes_to_free": p.bytes_to_free,
                                         "folded": [json_ready({"folder_a": c.a,
                                                                "folder_b": c.b})
                                                    for c in p.children]})))
    else:
        _print_table(pairs, args.min_similarity)
    return EXIT_OK


def _print_table(pairs: list[FolderPair], min_similarity: float) -> None:
    if not pairs:
        print(f"No two folders are {min_similarity:g} % alike or more.")
        return
    print(f"{'SIMILAR':>8} {'A IN B':>7} {'B IN A':>7} {'FILES A':>8} {'FILES B':>8} "
          f"{'TO FREE':>10}  FOLDERS")
    for p in pairs:
        folded = f"  (+{len(p.children)} alike below)" if p.children else ""
        print(f"{format_share(p.similarity):>6} % {format_share(p.a_in_b):>5} % "
              f"{format_share(p.b_in_a):>5} % {p.files_a:>8} "
              f"{p.files_b:>8} {format_bytes(p.bytes_to_free):>10}  A {p.a}"
              f"{' (without B)' if p.nested else ''}")
        print(f"{'':>55}  B {p.b}{folded}")


def _diff(index: FolderIndex | None, a: str, b: str, fmt: str) -> int:
    for folder in (a, b):
        if index is None or os.path.abspath(folder) not in index.ids:
            raise CommandError(f"--diff {folder}: no scanned file is in this folder")
    if os.path.abspath(a) == os.path.abspath(b):
        raise CommandError("--diff: the two folders are the same")
    statuses = index.diff(a, b)
    rows = [{"side": s.side, "path": s.path, "relative": s.relative, "size": s.size,
             "status": s.status, "similarity": round(s.similarity, 2), "match": s.match}
            for s in statuses]
    if fmt == "csv":
        writer = csv.DictWriter(sys.stdout, fieldnames=DIFF_FIELDS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    elif fmt == "json":
        for r in rows:
            print(json.dumps(json_ready(r)))
    else:
        pair = index.compare(a, b)  # (in its own order: the more contained folder first)
        a_in_b, b_in_a = ((pair.b_in_a, pair.a_in_b) if pair.a != os.path.abspath(a)
                          else (pair.a_in_b, pair.b_in_a))
        print(f"A {os.path.abspath(a)}\nB {os.path.abspath(b)}\n{format_share(pair.similarity)} % "
              f"alike: {format_share(a_in_b)} % of A is in B, {format_share(b_in_a)} % of B "
              "is in A")
        for r in rows:
            status = (f"similar {format_share(r['similarity'])} %" if r["status"] == "similar"
                      else r["status"])
            print(f"{r['side'].upper()}  {status:<15} {format_bytes(r['size']):>10}  "
                  f"{r['relative']}")
    return EXIT_OK


def _trash(args, store) -> int:
    """``--trash FOLDER`` (or ``--move FOLDER --to DIR``): the folder's files to the trash
    (or DIR), as one journaled batch."""
    from simgui.cli_common import _carry_out
    from simgui.core.cleanup.folder_removal import plan_folder_removal

    option = "--trash" if args.trash else "--move"
    index = _index_to_act(args, store)
    folder = os.path.abspath(args.trash or args.move)
    if index is None or folder not in index.ids:
        raise CommandError(f"{option} {args.trash or args.move}: no scanned file is in this "
                           "folder")
    plan = plan_folder_removal(index, folder, roots=store.scanned_roots(),
                               references=args.reference,
                               move_to=None if args.trash else args.to)
    if plan.refused:
        print(f"simgui: {folder} is not {'trashed' if args.trash else 'moved'}: "
              f"{plan.refused[0].reason}", file=sys.stderr)
        return EXIT_SOME_FAILED
    print(plan.describe())
    question = (f"Send {folder} to the trash?" if args.trash
                else f"Move {folder} to {plan.target_dir}?")
    return _carry_out(plan, store, index.table.files, question=question,
                      dry_run=args.dry_run, yes=args.yes)


def _index_to_act(args, store) -> FolderIndex | None:
    """The folder index for a clean-up: the store must be writable (it journals the
    batch) unless --dry-run, and an interrupted batch is settled first."""
    from simgui.core.cleanup import journal

    if store.read_only and not args.dry_run:
        raise CommandError(f"cannot write the store {store.path}, which journals the clean-up; "
                           "nothing was changed (--dry-run shows the plan)")
    if not store.read_only:
        journal.recover(store)
    return folder_index(args, store)


def _merge(args, store) -> int:
    """``--merge A --into B [--prefer-a PATH ...]``: one journaled batch (copies into B,
    then A to the trash), asked first; 'simgui undo' puts it back."""
    from simgui.cli_common import _carry_out
    from simgui.core.cleanup.folder_merge import execute_merge, plan_merge, trashed_paths

    index = _index_to_act(args, store)
    a, b = os.path.abspath(args.merge), os.path.abspath(args.into)
    for option, folder in (("--merge", a), ("--into", b)):
        if index is None or folder not in index.ids:
            raise CommandError(f"{option} {folder}: no scanned file is in this folder")
    plan = plan_merge(index, a, b, roots=store.scanned_roots(), prefer_a=args.prefer_a,
                      references=args.reference)
    if plan.refused:
        print(f"simgui: {plan.describe()}", file=sys.stderr)
        return EXIT_SOME_FAILED
    print(plan.describe())
    if args.dry_run:
        for s in plan.steps:
            where = f" -> {s.target} ({s.why})" if s.target else ""
            print(f"  {s.kind:<8} {s.path}{where}")
        return EXIT_OK
    return _carry_out(plan, store, index.table.files, question=f"Merge {a} into {b}?",
                      dry_run=False, yes=args.yes, run=execute_merge,
                      gone=lambda result: trashed_paths(plan, result), all_or_nothing=True)
