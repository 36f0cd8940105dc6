"""keep_freed_memory keeps a search's freed temporaries in the process for the next one;
handing_freed_memory_back hands them back while a build runs, then keeps them again."""

import subprocess
import sys

import pytest

SCRIPT = r"""
import os
import sys
import numpy as np
from simgui.core.memory import handing_freed_memory_back, keep_freed_memory

def resident_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20

def freed_and_resident():
    before = resident_mb()
    arrays = [np.ones(n) for n in (3_000_000, 2_000_000, 1_000_000, 3_500_000)]  # 76 MB
    del arrays
    return resident_mb() - before

# asked twice, as the window started from the command line does
kept = keep_freed_memory() and keep_freed_memory() if sys.argv[1] != "default" else None
if sys.argv[1] == "build":
    with handing_freed_memory_back():
        with handing_freed_memory_back():  # (one inside another: the outer one restores)
            pass
        during = freed_and_resident()
    print(kept, during, freed_and_resident())  # handed back, then kept again
else:
    print(kept, freed_and_resident())
"""


def freed_and_still_resident(mode: str) -> tuple[str, float, ...]:
    out = subprocess.run([sys.executable, "-c", SCRIPT, mode], capture_output=True, text=True,
                         check=True).stdout.split()
    return (out[0], *map(float, out[1:]))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc only")
def test_freed_blocks_stay_for_reuse_only_when_asked():
    kept, resident = freed_and_still_resident("keep")
    if kept != "True":
        pytest.skip("this C library has no mallopt (not glibc)")
    assert resident > 60  # the 76 MB freed stayed mapped, ready for the next search
    _, resident = freed_and_still_resident("default")
    assert resident < 30  # glibc's default hands large blocks back at once


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc only")
def test_a_build_hands_freed_blocks_back_then_they_are_kept_again():
    kept, during, after = freed_and_still_resident("build")
    if kept != "True":
        pytest.skip("this C library has no mallopt (not glibc)")
    assert during < 30  # handed back as they were freed
    assert after > 60  # kept again once the build is over
