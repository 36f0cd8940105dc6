"""``simgui cluster scan|pairs|groups`` and ``simgui import``: the command line of
simgui.cluster (a Dask cluster for file server fleets; the ``cluster`` extra).

Without Dask or pyarrow installed each command says in one line how to install them.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys

from simgui.cli_common import (
    EXIT_CANCELLED, EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE, CommandError, _argument, _path,
    _ProgressLine,
    _size, _tolerances,
)
from simgui.core.units import counted, format_bytes, format_duration, parse_whole

_MAX_LOCAL_WORKERS = 1024
_local_workers = _argument(parse_whole, 1, _MAX_LOCAL_WORKERS)


def add_commands(commands, db, search) -> None:
    where = argparse.ArgumentParser(add_help=False)
    which = where.add_mutually_exclusive_group()
    which.add_argument("--scheduler", metavar="ADDRESS",
                       help="join a running Dask cluster (e.g. tcp://head:8786); every worker "
                            "must see the files under the same paths")
    which.add_argument("--local", type=_local_workers, metavar="N",
                       help="start a cluster of N worker processes on this machine (the "
                            "default, one per CPU core)")
    where.add_argument("--quiet", "-q", action="store_true", help="no progress")

    p = commands.add_parser("cluster", help="scan and search a file server fleet on Dask",
                            description="Scan folders on a Dask cluster into a Parquet dataset, "
                                        "and search it there with the local search's own "
                                        "kernels (needs the 'cluster' extra: "
                                        "pip install 'simgui[cluster]').")
    sub = p.add_subparsers(dest="cluster_command", metavar="COMMAND", required=True)

    s = sub.add_parser("scan", parents=[where], help="scan folders into a dataset",
                       description="Read every new or changed file under PATH once on the "
                                   "cluster's workers (sum table, content hash, fingerprints) "
                                   "into the dataset DIR; unchanged files are not read again.")
    s.add_argument("--out", required=True, metavar="DIR", type=_path,
                   help="the dataset folder (on storage every worker can write)")
    s.add_argument("paths", nargs="+", metavar="PATH", type=_path, help="folder or file to scan")
    s.add_argument("--exclude", action="append", default=[], metavar="PATTERN",
                   help="skip names or paths matching this glob (repeatable)")
    s.add_argument("--min-size", type=_size, default=0, metavar="SIZE",
                   help="leave out files smaller than SIZE (e.g. 1k, 2M)")
    s.add_argument("--follow-symlinks", action="store_true", help="follow symbolic links")
    s.set_defaults(run=cmd_cluster_scan)

    for name, helps, default in (("pairs", "list similar pairs of a dataset", "csv"),
                                 ("groups", "list groups of similar files of a dataset",
                                  "json")):
        s = sub.add_parser(name, parents=[where, search], help=helps,
                           description=f"What 'simgui {name}' lists, for the files of the "
                                       "dataset DIR, searched on the cluster.")
        s.add_argument("dataset", metavar="DIR", type=_path, help="the dataset folder")
        s.add_argument("--format", choices=["csv", "json"], default=default)
        if name == "groups":
            s.add_argument("--reference", action="append", default=[], metavar="DIR",
                           type=_path, help="prefer files in DIR as group references")
        s.set_defaults(run=cmd_cluster_pairs if name == "pairs" else cmd_cluster_groups)

    p = commands.add_parser("import", parents=[db], help="bring a cluster dataset into the store",
                            description="Save the files of the dataset DIR (made by 'simgui "
                                        "cluster scan') into the store, so the window and "
                                        "'simgui remove' can review and clean them up.")
    p.add_argument("dataset", metavar="DIR", type=_path, help="the dataset folder")
    p.add_argument("--under", metavar="PATH", type=_path,
                   help="only the files at or under PATH")
    p.set_defaults(run=cmd_import)


def _require(*, dask: bool = True) -> None:
    from simgui.cluster import ClusterUnavailable, require

    try:
        if dask:
            require()
        else:
            import pyarrow.parquet  # noqa: F401
    except ClusterUnavailable as exc:
        raise CommandError(str(exc)) from None
    except ImportError:
        from simgui.cluster import INSTALL_HINT
        raise CommandError(f"importing a dataset needs pyarrow: {INSTALL_HINT}") from None


@contextlib.contextmanager
def _client(args):
    """A Dask client: of the cluster at --scheduler, or of a local cluster."""
    from distributed import Client, LocalCluster

    if args.scheduler:
        try:
            client = Client(args.scheduler, timeout="20s")
        except (OSError, TimeoutError, ValueError) as exc:
            raise CommandError(f"cannot reach the Dask scheduler at {args.scheduler}: "
                               f"{exc}") from None
        with client:
            yield client
        return
    import logging  # (not at the top: every command's start would pay for it)

    n = args.local or os.cpu_count() or 1
    with LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                      dashboard_address=":0", silence_logs=logging.ERROR) as cluster, \
            Client(cluster) as client:
        yield client


def cmd_cluster_scan(args) -> int:
    _require()
    from simgui.cluster.scan import scan
    from simgui.core.reading.scanner import ScanOptions

    for path in args.paths if not args.scheduler else ():  # else the workers say
        if not os.path.lexists(path):
            raise CommandError(f"no such file or folder: {path}")
    if os.path.exists(args.out) and not os.path.isdir(args.out):
        raise CommandError(f"--out {args.out}: not a folder")
    options = ScanOptions(excludes=tuple(args.exclude), min_size=args.min_size,
                          follow_symlinks=args.follow_symlinks, fingerprints=True)
    line = _ProgressLine(args.quiet)

    def progress(done, total, rep):
        line.say(f"Scanning: {done}/{total} tasks, {rep.files_found} files, {rep.files_read} "
                 f"read ({format_bytes(rep.bytes_read)}), {rep.files_unchanged} unchanged",
                 done == total)

    with _client(args) as client:
        try:
            rep = scan(client, args.paths, args.out, options, progress)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        except KeyboardInterrupt:
            line.clear()
            print("simgui: scan cancelled; the dataset is as it was", file=sys.stderr)
            return EXIT_CANCELLED
    line.clear()
    for path, kind, message in rep.issues[:20]:
        print(f"  {kind}: {path}: {message}", file=sys.stderr)
    if len(rep.issues) > 20:
        print(f"  ... and {len(rep.issues) - 20} more", file=sys.stderr)
    print(f"Scanned {counted(rep.files_found, 'file')} ({format_bytes(rep.bytes_found)}) in "
          f"{format_duration(rep.elapsed)} as {counted(rep.tasks, 'task')}: {rep.files_read} "
          f"read ({format_bytes(rep.bytes_read)}), {rep.files_unchanged} unchanged, "
          f"{rep.errors} unreadable, {rep.skipped} skipped, "
          f"{counted(rep.hard_links, 'hard link')}; dataset "
          f"{args.out}", file=sys.stderr)
    return EXIT_SOME_FAILED if rep.errors else EXIT_OK


def _found(args):
    _require()
    from simgui.cluster import search as cluster_search
    from simgui.cluster.dataset import Dataset, DatasetError

    tol = _tolerances(args)  # the options' mistakes first, as the local commands
    if args.method not in cluster_search.CLUSTER_METHODS:
        raise CommandError(f"--method {args.method} is not available on the cluster yet (a "
                           f"dataset holds no picture hashes): use "
                           f"{', '.join(cluster_search.CLUSTER_METHODS)}")
    try:
        Dataset.open(args.dataset)
    except DatasetError as exc:
        raise CommandError(str(exc)) from None
    search = cluster_search.Search(
        tolerances=tol, scheme=args.scheme, use_extensions=not args.no_extensions,
        size_factor=args.size_factor, method=args.method, overrides=tuple(args.override))
    line = _ProgressLine(args.quiet)
    with _client(args) as client:
        try:
            found = cluster_search.find(
                client, args.dataset, search,
                lambda stage, done, total: line.say(
                    f"{stage.capitalize()}: {done}/{total} tasks", done == total))
        except (cluster_search.MissingFingerprints, ValueError) as exc:
            raise CommandError(str(exc)) from None
    line.clear()
    return search, found


def cmd_cluster_pairs(args) -> int:
    from simgui.cli_common import _write_pairs

    _, found = _found(args)
    _write_pairs(found.files, found.pairs, args.format)  # the rows of `simgui pairs`
    return EXIT_OK


def cmd_cluster_groups(args) -> int:
    from simgui.cli_common import _reference_folders
    from simgui.cluster.search import groups
    from simgui.core.search.export import write_groups

    search, found = _found(args)
    references = _reference_folders(args.reference, found.files, protecting=False)
    write_groups(groups(found, search, references), sys.stdout, args.format)
    return EXIT_OK


def cmd_import(args) -> int:
    _require(dask=False)
    from simgui.cluster.dataset import Dataset, DatasetError
    from simgui.cluster.importing import import_dataset
    from simgui.core.store import Store

    try:
        dataset = Dataset.open(args.dataset)
    except DatasetError as exc:
        raise CommandError(str(exc)) from None
    if args.under and not any(os.path.abspath(args.under) == r or os.path.abspath(
            args.under).startswith(r.rstrip("/") + "/") or r.startswith(
            os.path.abspath(args.under).rstrip("/") + "/") for r in dataset.roots):
        raise CommandError(f"--under {args.under}: the dataset holds nothing there (its "
                           f"folders: {', '.join(dataset.roots)})")
    with Store(args.db, read_only=False) as store:
        rep = import_dataset(store, dataset, args.under)
    print(f"Imported {rep.files} files ({format_bytes(rep.bytes)}, {rep.errors} unreadable) "
          f"from {args.dataset} into {store.path}; {rep.forgotten} files no longer in the "
          "dataset were dropped from the store.", file=sys.stderr)
    return EXIT_OK


__all__ = ["add_commands", "cmd_cluster_scan", "cmd_cluster_pairs", "cmd_cluster_groups",
           "cmd_import", "EXIT_USAGE"]
