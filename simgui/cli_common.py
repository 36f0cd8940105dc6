"""What the command line's commands share: exit codes, the one-line error, argument
types, opening the store, the progress line, the search options as tolerances, and
asking before acting.

``simgui.cli`` and the command modules hooked into its parser (``cli_folders``,
``cli_cluster``, ``cli_ignore``) import these from here, so that no command module
imports ``cli`` back.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time

from simgui.core.progress import Progress
from simgui.core.reading.names import exclude_pattern
from simgui.core.search.tolerances import (
    DEFAULT_MIN_CONTENT, MINHASH_FLOOR, PICTURE_METHODS, SIMHASH_MAX_BITS, Tolerances,
    parse_override,
)
from simgui.core.store import Store
from simgui.core.units import (
    format_bytes, format_duration, format_rate, format_share, parse_number, parse_percent,
    parse_size, parse_whole,
)

EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE, EXIT_CANCELLED = 0, 1, 2, 130


class CommandError(Exception):
    """A one-line message for stderr, and the exit code to leave with."""

    def __init__(self, message: str, code: int = EXIT_USAGE):
        super().__init__(message)
        self.code = code


_MAX_WORKERS = 256  # reading threads, as the window's settings allow
_MAX_SIZE_FACTOR = 100.0  # as the window allows
_MAX_BATCH_ID = 2**63 - 1  # SQLite's largest row id


def _argument(parse, *bounds):
    """An argparse type from a parser of the core (``units``, ``simfind.parse_override``):
    its ValueError, which says what is accepted, is the usage error."""
    def convert(text: str):
        try:
            return parse(text, *bounds)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    return convert


_workers = _argument(parse_whole, 0, _MAX_WORKERS)
_size_factor = _argument(parse_number, 1.0, _MAX_SIZE_FACTOR)
_batch_id = _argument(parse_whole, 1, _MAX_BATCH_ID)
_size = _argument(parse_size)
_percent = _argument(parse_percent)
_override = _argument(parse_override)  # EXT=KEY,SUM (percent each)
_exclude = _argument(exclude_pattern)  # a glob, or re:EXPR


def _threshold(text: str) -> float:
    """--threshold: a number; its range depends on --method, so ``_tolerances`` checks it."""
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"not a number: {text!r} (simhash: 0 to {SIMHASH_MAX_BITS} bits; "
            f"minhash: {MINHASH_FLOOR * 100:g} to 100 percent)") from None


def _path(text: str) -> str:
    """A path argument, never empty: an unset shell variable ('--move-to "$DIR"') must not
    quietly mean no path, and so another action, store or folder."""
    if not text:
        raise argparse.ArgumentTypeError("an empty path (is a shell variable unset?)")
    return text


class _Parser(argparse.ArgumentParser):
    """argparse's usage errors in simgui's style: one line, ``simgui: ...``, exit 2
    (argparse itself prints the whole usage first)."""

    def error(self, message: str):
        command = self.prog.partition(" ")[2]
        message = " ".join(message.removeprefix("argument ").split())
        self.exit(EXIT_USAGE, f"simgui: {message}; see 'simgui {command + ' ' if command else ''}"
                              "--help'\n")


def require_store(args) -> None:
    """Raise CommandError unless the store of ``--db`` (or the default one) exists: only
    ``scan`` makes one, so a typing mistake or a command before any scan makes none."""
    if args.db:
        if not os.path.exists(args.db):
            raise CommandError(f"no store at {args.db} ('simgui scan --db {args.db} FOLDER' "
                               "makes one)")
        return
    from simgui.core.store.database import default_db_path

    default = default_db_path()
    if not default.exists():
        raise CommandError(f"no store yet at {default} ('simgui scan FOLDER' makes one)")


def _open_store(args) -> Store:
    """The store of ``--db`` (or the default one).  Only ``scan`` creates one: any other
    command given a path where there is no store says so, rather than reading an empty
    store made by a typing mistake."""
    if args.command not in ("scan", "import"):
        require_store(args)
    # the reading commands read a store they cannot write; the others must write it
    writes = args.command in ("scan", "undo") or (args.command == "remove"
                                                  and not args.dry_run)
    return Store(args.db, read_only=None if not writes else False)


# -- scan ---------------------------------------------------------------------


class _ProgressLine:
    """Progress on stderr: one rewritten line on a terminal, a line every few seconds otherwise."""

    #: the line last drawn, ended before a result is printed (see _print_result)
    drawn: "_ProgressLine | None" = None

    def __init__(self, quiet: bool):
        self.quiet = quiet
        self.tty = sys.stderr.isatty()
        self.last = 0.0
        self.width = 0

    def __call__(self, p: Progress) -> bool:
        if self.quiet or p.phase == "done":
            return True
        _ProgressLine.drawn = self
        if not self._due():
            return True
        if p.phase == "walking":
            text = f"Looking for files: {p.files_done} found"
        else:
            doing = "Reading" if p.phase == "reading" else p.phase.capitalize()  # e.g. Trash
            text = (f"{doing} {p.files_done}/{p.files_total} files, "
                    f"{format_bytes(p.bytes_done)} of {format_bytes(p.bytes_total or 0)}, "
                    f"{format_rate(p.rate)}")
            if p.seconds_left is not None:
                text += f", {format_duration(p.seconds_left)} left"
        self._draw(text)
        return True

    def say(self, text: str, last: bool = False) -> None:
        """Any progress text (the cluster's tasks); ``last`` draws it even between ticks."""
        if not self.quiet and (self._due() or last):
            self._draw(text)

    def _due(self) -> bool:
        """On a terminal always; in a log, every 2 s."""
        now = time.monotonic()
        if not self.tty and now - self.last < 2.0:
            return False
        self.last = now
        return True

    def _draw(self, text: str) -> None:
        if self.tty:
            sys.stderr.write("\r" + text.ljust(self.width))
            self.width = len(text)
        else:
            sys.stderr.write(text + "\n")
        sys.stderr.flush()

    def clear(self) -> None:
        if self.tty and self.width:
            sys.stderr.write("\r" + " " * self.width + "\r")
            sys.stderr.flush()


def _tolerances(args) -> Tolerances:
    """The paper's tolerances, or for another method its threshold as a difference in
    percent in the sum-table tolerance's place."""
    if args.size_factor < 1:
        raise CommandError("--size-factor must be at least 1")
    threshold = getattr(args, "threshold", None)
    method = getattr(args, "method", "paper")
    check = getattr(args, "check", DEFAULT_MIN_CONTENT)
    if not 0 <= check <= 100:
        raise CommandError("--check is a share of content from 0 to 100 percent")
    if getattr(args, "override", None):
        if method != "paper":
            raise CommandError("--override is for the paper's method; the fingerprint methods "
                               "take --threshold")
        if args.no_extensions:
            raise CommandError("--override sets tolerances per extension: it cannot be used "
                               "with --no-extensions")
    if method == "paper":
        if threshold is not None:
            raise CommandError("--threshold is for --method simhash or minhash; the paper's "
                               "method takes --key-tolerance and --sum-tolerance")
        return Tolerances(args.key_tolerance, args.sum_tolerance, check)
    from simgui.core.search import methods  # numba: only for the fingerprint methods

    if method == "simhash":
        bits = methods.DEFAULT_THRESHOLD[method] if threshold is None else threshold
        if not (math.isfinite(bits) and float(bits).is_integer()
                and 0 <= bits <= SIMHASH_MAX_BITS):
            raise CommandError(f"--threshold for simhash is a whole number of bits from 0 to "
                               f"{SIMHASH_MAX_BITS}")
        return Tolerances(args.key_tolerance, methods.threshold_difference(method, bits))
    if method in PICTURE_METHODS:  # differing bits of the pictures' hashes
        bits = methods.DEFAULT_THRESHOLD[method] if threshold is None else threshold
        top = methods.CEILING_THRESHOLD[method]
        if not (math.isfinite(bits) and float(bits).is_integer() and 0 <= bits <= top):
            raise CommandError(f"--threshold for {method} is a whole number of bits from 0 "
                               f"to {top}")
        return Tolerances(args.key_tolerance, methods.threshold_difference(method, bits))
    resemblance = methods.DEFAULT_THRESHOLD[method] if threshold is None else threshold
    if not (math.isfinite(resemblance) and MINHASH_FLOOR * 100 <= resemblance <= 100):
        raise CommandError(f"--threshold for minhash is a resemblance from "
                           f"{MINHASH_FLOOR * 100:g} to 100 percent")
    return Tolerances(args.key_tolerance, methods.threshold_difference(method, resemblance))


def _files(store: Store, args):
    files = store.files()
    unread = store.identity_only()
    if unread:  # (else "no groups" would say something untrue of them)
        print(f"simgui: {unread:,} stored file{'s were' if unread != 1 else ' was'} scanned "
              "with --identical-only, not read for a similar search: they are left out here "
              "('simgui scan FOLDER' reads them; --identical-only finds their copies)",
              file=sys.stderr)
    overridden = {ext for ext, _ in getattr(args, "override", ())}
    for ext in sorted(overridden - set(files.extensions) if overridden else ()):
        print(f"simgui: no stored file has the extension .{ext}: --override {ext}=... "
              f"changes nothing", file=sys.stderr)
    needs = args.method if args.method != "paper" else "content check" if args.check else None
    if needs and len(files) and not files.fingerprinted.all():
        from simgui.core.search.analysis import MissingFingerprints

        missing = MissingFingerprints(int((~files.fingerprinted).sum()), needs)
        raise CommandError(f"{missing} ('simgui scan FOLDER' reads them once more"
                           + (", or --no-check)" if needs == "content check" else ")"))
    return files


def _reference_folders(folders, files, *, protecting: bool) -> list[str]:
    """The --reference folders, absolute, checked: each must be a folder, and one that
    holds no stored file (under its name or with links resolved) is an error when it is
    to protect files (a mistyped or unscanned path would protect nothing), else a
    warning."""
    from simgui.core.search.analysis import in_folders

    checked = []
    for folder in folders:
        path = os.path.abspath(os.path.expanduser(folder))
        if not os.path.isdir(path):
            raise CommandError(f"--reference {folder}: no such folder")
        if not in_folders(files.paths, [path], resolve_links=True).any():
            message = f"--reference {folder}: no stored file is in it"
            if protecting:
                raise CommandError(f"{message}, so it would protect nothing; nothing was "
                                   "changed (scan it first, or check the path)")
            print(f"simgui: {message}", file=sys.stderr)
        checked.append(path)  # grouping and clean-up resolve its links themselves
    return checked


def _confirm(question: str) -> bool:
    if not sys.stdin.isatty():
        raise CommandError("refusing to act without confirmation: add --yes (or --dry-run)")
    return input(f"{question} [y/N] ").strip().lower() in ("y", "yes")


def _print_result(result) -> int:
    if _ProgressLine.drawn is not None:  # "Batch 3 (trash)" starts a line of its own
        _ProgressLine.drawn.clear()
        _ProgressLine.drawn = None
    print(result.describe())
    return EXIT_SOME_FAILED if result.failed else EXIT_OK


def _carry_out(plan, store: Store, files, *, question: str, dry_run: bool, yes: bool,
               forget: bool = True, run=None, gone=None, all_or_nothing: bool = False) -> int:
    """Ask, then run a clean-up ``plan`` as one journaled batch (an interrupted one is
    settled before the interruption goes on), print what happened, and drop the files
    that left their paths from the store (``forget``), as a rescan would.

    ``run(plan, store, progress=...)`` acts (default: the clean-up's ``execute``);
    ``gone(result)`` names the paths that left (default: those acted on);
    ``all_or_nothing``: a step left undone (skipped, not only failed) exits 1 too, for
    a plan whose steps belong together (a folder merge)."""
    from simgui.core.cleanup import execute, journal
    from simgui.core.store import StoreError

    if dry_run or not plan.operations:
        return EXIT_OK
    if not yes and not _confirm(question):
        print("Nothing was changed.")
        return EXIT_OK
    try:
        result = (run or execute)(plan, store, progress=_ProgressLine(False))
    except KeyboardInterrupt:
        journal.recover(store)
        raise
    code = _print_result(result)  # first: the files were acted on, whatever follows
    if forget:
        left = gone(result) if gone is not None else {r.path for r in result.done}
        try:
            store.forget_files(i for i, p in zip(files.ids.tolist(), files.paths) if p in left)
        except StoreError as exc:
            print(f"simgui: {exc}; the next scan updates the store", file=sys.stderr)
    if all_or_nothing and len(result.done) < len(result.results):
        return EXIT_SOME_FAILED
    return code


PAIR_FIELDS = ["path_a", "path_b", "identical", "key_distance", "sum_distance", "similarity",
               "size_a", "size_b"]


def _write_pairs(files, found, fmt: str, skip=frozenset()) -> None:
    """``found`` (a core.search.pairs.PairTable over ``files``) as CSV or JSON lines, as
    ``simgui pairs`` and ``simgui cluster pairs`` print them; ``skip``: pairs of paths (as
    frozensets of bytes) left out, the ignore list."""
    import csv
    import json

    from simgui.core.search.export import json_ready, percent_or_none

    rows = [{"path_a": files.paths[a], "path_b": files.paths[b], "identical": same,
             "key_distance": round(kd, 4), "sum_distance": sd,
             "similarity": percent_or_none(sm),
             "size_a": int(files.sizes[a]), "size_b": int(files.sizes[b])}
            for (a, b), kd, sd, same, sm in zip(found.pairs.tolist(),
                                                found.key_distance.tolist(),
                                                found.sum_distance.tolist(),
                                                found.identical.tolist(),
                                                found.similarity.tolist())
            if not skip or frozenset((os.fsencode(files.paths[a]),
                                      os.fsencode(files.paths[b]))) not in skip]
    if fmt == "json":
        for row in rows:
            print(json.dumps(json_ready(row)))
    elif fmt == "table":
        _print_pairs_table(rows)
    else:
        writer = csv.DictWriter(sys.stdout, fieldnames=PAIR_FIELDS)
        writer.writeheader()
        writer.writerows(rows)


# -- tables for a terminal (groups, pairs, remove --dry-run) ----------------------------


def _output_format(requested: str | None, default: str) -> str:
    """--format as given; without it a readable table on a terminal, and on a pipe or in
    a file the format scripts have always read (``default``)."""
    if requested is not None:
        return requested
    isatty = getattr(sys.stdout, "isatty", None)
    return "table" if isatty is not None and isatty() else default


def _match_text(identical: bool, similarity: float | None) -> str:
    """"identical", "similar 87.3 %", or "similar ?" where the share is unknown."""
    if identical:
        return "identical"
    if similarity is None or (isinstance(similarity, float) and math.isnan(similarity)):
        return "similar ?"
    return f"similar {format_share(similarity)} %"


def _print_table_rows(blocks) -> None:
    """Numbered blocks of (match, size, path) lines: the number and the first line's match
    on the block's first line, the paths in one column, so a long name never breaks it."""
    for number, lines in blocks:
        for i, (match, size, path) in enumerate(lines):
            left = f"{number:>5}" if i == 0 else " " * 5
            print(f"{left}  {match:<16}{format_bytes(size):>10}  {path}")


def _print_groups_table(groups) -> None:
    """``simgui groups`` on a terminal: a header line per group (its files and the bytes
    its other files take), then the reference and each member with how it matches."""
    groups = list(groups)
    if not groups:
        print("No groups: no two stored files are identical or similar at these settings.")
        return
    print(f"{'group':>5}  {'match':<16}{'size':>10}  file")
    for g in groups:
        lines = [("reference", g.reference.size, g.reference.path)]
        lines += [(_match_text(m.identical, m.similarity), m.size, m.path) for m in g.members]
        _print_table_rows([(g.id, lines)])
    files = sum(len(g.files) for g in groups)
    print(f"{len(groups):,} group{'s' if len(groups) != 1 else ''}, {files:,} files, "
          f"{format_bytes(sum(g.size for g in groups))} in the files besides the references")


def _print_pairs_table(rows: list[dict]) -> None:
    """``simgui pairs`` on a terminal: each pair on two lines, numbered, its match first."""
    if not rows:
        print("No pairs: no two stored files are identical or similar at these settings.")
        return
    print(f"{'pair':>5}  {'match':<16}{'size':>10}  file")
    for number, r in enumerate(rows, 1):
        _print_table_rows([(number, [(_match_text(r["identical"], r["similarity"]),
                                      r["size_a"], r["path_a"]),
                                     ("", r["size_b"], r["path_b"])])])
    print(f"{len(rows):,} pair{'s' if len(rows) != 1 else ''}")


def _same_content(a, b) -> bool:
    """Two group members with the same bytes (size and content hash), as the plan judges."""
    return bool(a.content_hash) and a.size == b.size and a.content_hash == b.content_hash


def _print_plan_files(plan, groups) -> None:
    """``simgui remove --dry-run``: every file of every group and what would happen to it
    (keep, the action, or leave), how it matches the copy kept, and, where the copy that
    justifies the action is not the group's kept file, that copy."""
    ops = {op.path: op for op in plan.operations}
    refused = {r.group_id: r.reason for r in plan.refused}
    for g in groups:
        kept = plan.kept.get(g.id)
        head = (f"refused: {refused[g.id]}" if g.id in refused
                else f"keep {kept.path}" if kept is not None else "nothing to do")
        print(f"Group {g.id}: {head}")
        for m in g.files:
            op = ops.get(m.path)
            extra = ""
            if op is not None:
                what, same = op.action.value, _same_content(m, op.kept)
                extra = f"  -> {op.target}" if op.target else ""
                if kept is None or op.kept.path != kept.path:
                    extra += f"  (kept copy: {op.kept.path})"
            else:
                what = "keep" if kept is not None and m.path == kept.path else "leave"
                same = _same_content(m, kept) if kept is not None else m.identical
            against = op.kept if op is not None else kept
            if what == "keep":
                match = ""
            elif kept is None and m is g.reference:
                match = "reference"
            elif same or against is None or against.path == g.reference.path:
                match = _match_text(same, m.similarity)
            else:  # its similarity was measured against the group's reference, not this
                match = "similar"
                extra += ("  (the group's reference)" if m is g.reference else
                          f"  ({_match_text(m.identical, m.similarity)} to the group's "
                          f"reference {g.reference.path})")
            print(f"  {what:<9}{match:<17}{m.path}{extra}")
    print("Dry run: nothing was changed.")
