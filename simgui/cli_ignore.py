"""``simgui ignore add|list|remove|clear``: the ignore list on the command line.

Pairs of files the user said are not duplicates, kept in the store
(:mod:`simgui.core.store.ignored`); the window's groups leave them apart and shows
and edits the same list in Settings.
"""

from __future__ import annotations

import json
import os

from simgui.cli_common import EXIT_OK, CommandError, _open_store, _path, require_store
from simgui.core.search.export import json_ready
from simgui.core.shown import shown_path as _shown
from simgui.core.store import Store
from simgui.core.store import ignored


def add_commands(commands, db, search) -> None:
    p = commands.add_parser(
        "ignore", help="files that are not duplicates: the ignore list",
        description="Pairs of files that are not duplicates, remembered in the store: the "
                    "groups leave them apart.  'add A B C' ignores A with B and A with C "
                    "(a group: its reference first).")
    sub = p.add_subparsers(dest="ignore_command", metavar="COMMAND", required=True)
    a = sub.add_parser("add", parents=[db], help="say that files are not duplicates of the first")
    a.add_argument("first", type=_path, metavar="PATH", help="a file (a group's reference)")
    a.add_argument("others", nargs="+", type=_path, metavar="OTHER",
                   help="files that are not duplicates of PATH")
    a.set_defaults(run=cmd_ignore_add)
    r = sub.add_parser("remove", parents=[db], help="take pairs off the ignore list")
    r.add_argument("first", type=_path, metavar="PATH")
    r.add_argument("others", nargs="+", type=_path, metavar="OTHER")
    r.set_defaults(run=cmd_ignore_remove)
    s = sub.add_parser("list", parents=[db], help="print the ignored pairs")
    s.add_argument("--json", action="store_true", help="one JSON object a line")
    s.set_defaults(run=cmd_ignore_list)
    c = sub.add_parser("clear", parents=[db], help="empty the ignore list")
    c.set_defaults(run=cmd_ignore_clear)


def _writable_store(args) -> Store:
    require_store(args)
    return Store(args.db, read_only=False)


def _pairs(args) -> list[tuple[str, str]]:
    first = os.path.abspath(args.first)
    others = [os.path.abspath(o) for o in args.others]
    if any(o == first for o in others):
        raise CommandError(f"{args.first} is named twice: a file is always a duplicate of "
                           "itself")
    return [(first, o) for o in others]


def cmd_ignore_add(args) -> int:
    pairs = _pairs(args)
    with _writable_store(args) as store:
        new = ignored.ignore(store, pairs)
    print(f"{new:,} pair{'s' if new != 1 else ''} added to the ignore list"
          + (f" ({len(pairs) - new:,} already there)." if new < len(pairs) else "."))
    return EXIT_OK


def cmd_ignore_remove(args) -> int:
    pairs = _pairs(args)
    with _writable_store(args) as store:
        gone = ignored.unignore(store, pairs)
    print(f"{gone:,} pair{'s' if gone != 1 else ''} taken off the ignore list"
          + (f" ({len(pairs) - gone:,} {'was' if len(pairs) - gone == 1 else 'were'} not on "
             "it)." if gone < len(pairs) else "."))
    return EXIT_OK


def cmd_ignore_list(args) -> int:
    with _open_store(args) as store:
        pairs = ignored.ignored_pairs(store)
    if args.json:
        for a, b in pairs:
            print(json.dumps(json_ready({"path_a": a, "path_b": b})))
        return EXIT_OK
    if not pairs:
        print("The ignore list is empty.")
    for a, b in pairs:
        print(f"{_shown(a)}\t{_shown(b)}")
    return EXIT_OK


def cmd_ignore_clear(args) -> int:
    with _writable_store(args) as store:
        n = ignored.clear(store)
    print(f"{n:,} pair{'s' if n != 1 else ''} taken off the ignore list.")
    return EXIT_OK
