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

from simgui.cli_common import (
    EXIT_OK, EXIT_SOME_FAILED, CommandError, _files, _open_store, _path, _percent, _tolerances,
)
from simgui.core.search.analysis import Analysis, SearchSettings
from simgui.core.search.export import json_ready
from simgui.core.search.keys import SCHEMES
from simgui.core.search.similar_folders import (
    DEFAULT_MIN_SIMILARITY, FIELDS, FolderIndex, FolderPair,
)
from simgui.core.units import format_bytes

DIFF_FIELDS = ["side", "path", "relative", "size", "status", "similarity", "match"]


def add_commands(commands, db, search) -> None:
    p = commands.add_parser(
        "folders", parents=[db, search], help="list similar folders (backups of backups)",
        description="Pairs of folders whose files are identical or similar to each other's, "
                    "top-most first (x/photos and y/photos are folded under x and y), most "
                    "bytes to free first. similarity: the share of both folders' bytes with "
                    "a match in the other; a_in_b, b_in_a: the share of one folder's bytes "
                    "with a match in the other.")
    p.add_argument("--min-similarity", type=_percent, default=DEFAULT_MIN_SIMILARITY,
                   metavar="PCT", help="list pairs at least PCT percent alike (default "
                   f"{DEFAULT_MIN_SIMILARITY:g})")
    p.add_argument("--format", choices=["table", "csv", "json"], default="table")
    p.add_argument("--diff", nargs=2, metavar=("A", "B"), type=_path,
                   help="each file of folders A and B and its status in the other: "
                        "identical, similar or only")
    p.add_argument("--trash", metavar="FOLDER", type=_path,
                   help="send every scanned file of FOLDER to the trash, each only if an "
                        "identical copy outside FOLDER stays (compared byte for byte right "
                        "before acting; 'simgui undo' puts them back); refused if one file "
                        "has no such copy")
    p.add_argument("--dry-run", action="store_true", help="with --trash: print the plan, "
                   "change nothing")
    p.add_argument("--yes", "-y", action="store_true", help="with --trash: do not ask for "
                   "confirmation")
    p.set_defaults(run=cmd_folders)


def folder_index(args, store) -> FolderIndex | None:
    """The folders of the stored files, matched through their groups at the options'
    tolerances (None: the store holds no file)."""
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
    _tolerances(args)  # the options' mistakes before the store's
    if args.trash and args.diff:
        raise CommandError("--trash and --diff: one at a time")
    with _open_store(args) as store:
        if args.trash:
            return _trash(args, store)
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
        print(f"{p.similarity:6.1f} % {p.a_in_b:5.1f} % {p.b_in_a:5.1f} % {p.files_a:>8} "
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
        pair = index.compare(a, b)
        print(f"A {pair.a}\nB {pair.b}\n{pair.similarity:.1f} % alike: {pair.a_in_b:.1f} % of "
              f"A is in B, {pair.b_in_a:.1f} % of B is in A")
        for r in rows:
            status = (f"similar {r['similarity']:.1f} %" if r["status"] == "similar"
                      else r["status"])
            print(f"{r['side'].upper()}  {status:<15} {format_bytes(r['size']):>10}  "
                  f"{r['relative']}")
    return EXIT_OK


def _trash(args, store) -> int:
    """``--trash FOLDER``: the folder's files to the trash, as one journaled batch."""
    from simgui.cli_common import _carry_out
    from simgui.core.cleanup import journal
    from simgui.core.cleanup.folder_removal import plan_folder_removal

    if store.read_only and not args.dry_run:
        raise CommandError(f"cannot write the store {store.path}, which journals the clean-up; "
                           "nothing was changed (--dry-run shows the plan)")
    if not store.read_only:
        journal.recover(store)
    index = folder_index(args, store)
    folder = os.path.abspath(args.trash)
    if index is None or folder not in index.ids:
        raise CommandError(f"--trash {args.trash}: no scanned file is in this folder")
    plan = plan_folder_removal(index, folder, roots=store.scanned_roots())
    if plan.refused:
        print(f"simgui: {folder} is not trashed: {plan.refused[0].reason}", file=sys.stderr)
        return EXIT_SOME_FAILED
    print(plan.describe())
    return _carry_out(plan, store, index.table.files, question=f"Send {folder} to the trash?",
                      dry_run=args.dry_run, yes=args.yes)
