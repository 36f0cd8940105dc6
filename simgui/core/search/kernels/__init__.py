"""Low-level helpers of SimFind's kernels: radix sort, vector-lane filters and distances,
cache-line hints, and data pointers numba does not reference-count."""
