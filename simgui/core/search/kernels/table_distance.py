"""The L1 distance of two sum tables, on the processor's vector lanes.

SimFind's exact test adds 16 absolute differences of counts per candidate pair.
numba compiles that loop to scalar code, about 80 instructions (a subtraction,
two for the absolute value and an addition per count).  Written as LLVM vector
operations it is a load per table, one subtraction, one absolute value and one
sum across the lanes, which LLVM lowers to AVX-512, AVX2, SSE2 or NEON.  The
sum is in 64-bit integers, as the scalar loop's, so the result is the same to
the last bit.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

_I1 = ir.IntType(1)
_I8P = ir.IntType(8).as_pointer()
_I64 = ir.IntType(64)
_LANES = 16


@intrinsic
def l1_rows(typingctx, tables, a, b):
    """Sum over t of |tables[a, t] - tables[b, t]| in int64, for a C-contiguous (n, 16)
    array of int32 or int64 counts.  Rows a and b must exist (nothing is checked)."""
    if not (isinstance(tables, types.Array) and tables.ndim == 2 and tables.layout == "C"
            and tables.dtype in (types.int32, types.int64)
            and isinstance(a, types.Integer) and isinstance(b, types.Integer)):
        return None
    width = tables.dtype.bitwidth

    def codegen(context, builder, signature, args):
        array, row_a, row_b = args
        parts = context.make_array(signature.args[0])(context, builder, array)
        stride = cgutils.unpack_tuple(builder, parts.strides, 2)[0]
        base = builder.bitcast(parts.data, _I8P)
        counts = ir.VectorType(ir.IntType(width), _LANES)
        wide = ir.VectorType(_I64, _LANES)

        def row(index, index_type):
            index = context.cast(builder, index, index_type, types.intp)
            at = builder.gep(base, [builder.mul(index, stride)])
            loaded = builder.load(builder.bitcast(at, counts.as_pointer()), align=width // 8)
            return builder.sext(loaded, wide) if width < 64 else loaded

        difference = builder.sub(row(row_a, signature.args[1]), row(row_b, signature.args[2]))
        absolute = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(wide, [wide, _I1]), "llvm.abs.v16i64")
        total = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(_I64, [wide]), "llvm.vector.reduce.add.v16i64")
        # (abs of the most negative difference wraps, as the scalar loop's does)
        return builder.call(total, [builder.call(absolute, [difference, ir.Constant(_I1, 0)])])

    return types.int64(tables, a, b), codegen
