"""Work shared with forked processes (simgui.core.reading.forked): the same results as one
process, failures said by the parent, a child that dies made up for, children ended when
the work is left early, and no fork where it is not safe."""

import errno
import os
import sys
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simgui.core.reading import forked

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="processes are forked on Linux only")


def squares(part):
    """The work: i*i in 8 bytes, or an OSError for every i divisible by 7."""
    for i in part:
        yield (i, OSError(errno.EIO, f"no {i}")) if i % 7 == 0 else (i, i * i)


def encode(value: int) -> bytes:
    return value.to_bytes(8, "big")


def decode(data: bytes) -> int:
    return int.from_bytes(data, "big")


def as_dict(results):
    """i -> result, an OSError as its message (OSErrors are not equal to equal ones)."""
    return {i: str(r) if isinstance(r, OSError) else r for i, r in results}


def no_children_left() -> bool:
    try:
        os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 10_000), unique=True, max_size=60), st.integers(1, 4))
def test_shared_gives_what_one_process_gives(which, processes):
    got = list(forked.shared(squares, which, processes, 8, encode, decode))
    assert len(got) == len(which)
    assert as_dict(got) == as_dict(squares(which))  # failures too, said by the parent
    assert no_children_left()


def test_what_a_child_that_died_did_not_write_the_parent_does():
    parent = os.getpid()

    def dies_half_way(part):
        for k, i in enumerate(part):
            if os.getpid() != parent and k == len(part) // 2:
                os._exit(3)  # a child killed half-way: it wrote nothing
            yield i, i * i

    which = list(range(1, 200))
    got = as_dict(forked.shared(dies_half_way, which, 3, 8, encode, decode))
    assert got == {i: i * i for i in which}
    assert no_children_left()


def test_leaving_early_ends_the_children():
    parent = os.getpid()
    blocked, unwritten = os.pipe()  # never written: a child reading it waits until ended

    def child_waits(part):
        for i in part:
            if os.getpid() != parent:
                os.read(blocked, 1)
            yield i, i

    results = forked.shared(child_waits, list(range(10)), 3, 8, encode, decode)
    assert next(results) == (0, 0)  # the parent's own share comes first
    results.close()  # a cancelled stage
    assert no_children_left()
    os.close(blocked)
    os.close(unwritten)


def test_no_fork_beside_another_python_thread():
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert not forked.can_fork()
    finally:
        release.set()
        other.join()


def test_no_fork_where_qt_is_loaded(monkeypatch):
    monkeypatch.setitem(sys.modules, "PySide6", sys.modules.get("PySide6", object()))
    assert not forked.can_fork()


def test_no_fork_where_children_s_ends_are_ignored():
    """(An ignored SIGCHLD, inherited from whoever started the process, reaps children
    itself: waiting for one would fail.)"""
    import signal

    before = signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    try:
        assert not forked.can_fork()
    finally:
        signal.signal(signal.SIGCHLD, before)


def test_where_no_process_can_be_had_the_parent_does_the_share(monkeypatch):
    real_fork, forks = os.fork, []

    def fork_once():
        forks.append(1)
        if len(forks) > 1:
            raise OSError(errno.EAGAIN, "no more processes")
        return real_fork()

    monkeypatch.setattr(os, "fork", fork_once)
    which = list(range(1, 100))
    got = as_dict(forked.shared(squares, which, 3, 8, encode, decode))
    assert len(forks) == 2 and got == as_dict(squares(which))
    assert no_children_left()


@pytest.mark.parametrize("fault", ["another file", "another width"])
def test_a_record_that_is_not_the_file_s_own_is_read_again_by_the_parent(fault):
    """A child's records are matched to files by position: one whose file or width is not
    what was asked is never taken (a wrong hash on a wrong file would make false copies)."""
    parent = os.getpid()

    def faulty(part):
        results = squares(part)
        if os.getpid() != parent and fault == "another file":
            next(results)  # a child that skips its first file: every record one off
        yield from results

    def wide(value):
        return encode(value) + (b"!" if os.getpid() != parent else b"")

    which = list(range(1, 60))
    got = as_dict(forked.shared(faulty, which, 2, 8,
                                wide if fault == "another width" else encode, decode))
    assert got == as_dict(squares(which))
    assert no_children_left()
