"""Search: stored sum tables and fingerprints become pairs, groups and counts at any tolerance.

``keys`` and ``simfind`` are the paper's method (``kernels`` holds the numba and
LLVM helpers only SimFind uses); ``hamming_index`` and ``methods`` the simhash
and MinHash methods; ``tolerance_stats`` and ``analysis`` the live sliders;
``groups`` and ``export`` what a user reads; ``differences`` where two files differ.
"""
