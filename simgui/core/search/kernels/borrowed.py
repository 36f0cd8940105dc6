"""Borrowed data pointers, for arrays handed to helpers inside numba's hottest loops.

numba counts references to arrays: a helper that takes an array (inlined or
called) takes a reference when it starts and drops it when it ends, two atomic
memory operations per array, and LLVM cannot remove them when a loop lies in
between.  SimFind's scans run millions of times per search, each with three
arrays: the counting was a tenth of the search's time.  A pointer to the data is
not counted, so helpers that take one cost nothing to call.  The array must stay
alive while the pointer is used (the caller holds it), and nothing checks
bounds (numba does not either, by default).
"""

from __future__ import annotations

from numba import types
from numba.extending import intrinsic


@intrinsic
def data_pointer(typingctx, array):
    """A pointer to the first element of a C-contiguous array, indexable as
    ``pointer[i]`` (reads and writes) by the array's flat index."""
    if not (isinstance(array, types.Array) and array.layout == "C"):
        return None

    def codegen(context, builder, signature, args):
        return context.make_array(signature.args[0])(context, builder, args[0]).data

    return types.CPointer(array.dtype)(array), codegen
