"""SimFind's one-word filter, eight words at a time on the processor's vector lanes.

A filter word holds eight bytes, each a quantised projection of a file.  A file
passes for a query when, in every byte, ``(word - query) mod 256 <= limit``:
byte-wise, with no carry from one byte to the next.  (The query holds the
querying file's bytes less a window's half-width D, the limit 2D, or 255 for a
byte that must not count.)

numba compiles a per-byte loop, or the same test done within one 64-bit word
with carry masks, to about a dozen vector instructions a word.  The test written
directly as LLVM vector operations takes three (a byte-wise subtraction, a
saturating subtraction of the limit, a comparison with zero) and hands back a
bit per word: the search's scans run two to three times faster.  LLVM lowers
them to whatever the processor has (AVX-512, AVX2, SSE2 or NEON).
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

_I8 = ir.IntType(8)
_I32 = ir.IntType(32)
_I64 = ir.IntType(64)
_WORDS = ir.VectorType(_I64, 8)
_BYTES = ir.VectorType(_I8, 64)


@intrinsic
def near8(typingctx, words, start, query, limit):
    """Bit j (of a uint64) set when ``words[start + j]`` passes, for j = 0 .. 7.

    ``words`` is a C-contiguous uint64 array, or a pointer to one's data
    (simgui.core.search.kernels.borrowed); ``words[start : start + 8]`` must lie inside it (the
    caller masks off the bits of words it did not mean to test)."""
    pointer = isinstance(words, types.CPointer) and words.dtype == types.uint64
    if not (pointer or (isinstance(words, types.Array) and words.dtype == types.uint64
                        and words.ndim == 1 and words.layout == "C")):
        return None

    def codegen(context, builder, signature, args):
        array, first, q, lim = args
        data = (array if pointer
                else context.make_array(signature.args[0])(context, builder, array).data)
        at = builder.bitcast(builder.gep(data, [first]), _BYTES.as_pointer())
        loaded = builder.load(at, align=8)

        def every_word(value):  # the word repeated eight times, seen as 64 bytes
            one = builder.insert_element(ir.Constant(_WORDS, ir.Undefined), value,
                                         ir.Constant(_I32, 0))
            eight = builder.shuffle_vector(one, ir.Constant(_WORDS, ir.Undefined),
                                           ir.Constant(ir.VectorType(_I32, 8), [0] * 8))
            return builder.bitcast(eight, _BYTES)

        offset = builder.sub(loaded, every_word(q))  # byte-wise, mod 256
        usub_sat = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(_BYTES, [_BYTES, _BYTES]), "llvm.usub.sat.v64i8")
        over = builder.bitcast(builder.call(usub_sat, [offset, every_word(lim)]), _WORDS)
        passed = builder.icmp_unsigned("==", over, ir.Constant(_WORDS, [0] * 8))
        return builder.zext(builder.bitcast(passed, _I8), _I64)

    return types.uint64(words, types.uint64, types.uint64, types.uint64), codegen
