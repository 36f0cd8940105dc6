"""Exact Hamming-distance search over 64-bit fingerprints: permuted block tables.

The method of Manku, Jain and Das Sarma ("Detecting Near-Duplicates for Web
Crawling", WWW 2007).  The 64 bits are split into ``num_blocks`` contiguous
blocks; two fingerprints within distance ``d`` differ in at most ``d`` blocks,
so they agree on some ``num_blocks - d`` of them.  There is one table per
choice of those leading blocks, ``C(num_blocks, d)`` tables, each a sorted
uint64 array of the fingerprints with their bits permuted so the chosen blocks
lead.  A batch of queries is deduplicated, permuted and sorted the same way
per table; each query's range of entries sharing its leading bits is found
through a bucket directory plus binary search (so the sorted queries walk the
table forwards), and each candidate is checked by XOR and popcount.  The
answers are exact.

``HammingIndex`` is the incremental set; ``hamming_pairs`` finds all close
pairs of one array.  Kernels are numba, single-threaded, and release the GIL.
"""

from __future__ import annotations

import itertools

import numpy as np
from numba import njit

from simgui.core.search.simfind import _lower_bound
from simgui.core.reading.sumtable import _popcount

__all__ = ["HammingIndex", "hamming_pairs"]

# C(64, 32) tables would never finish building; this bound keeps a typo from
# eating all memory (C(13, 10) = 286, C(20, 6) = 38760 still pass).
MAX_TABLES = 50_000

_ALL = (1 << 64) - 1


# --------------------------------------------------------------------------- kernels


@njit(cache=True, nogil=True)
def _perm(x, src, msk, dst, nseg):
    y = np.uint64(0)
    for s in range(nseg):
        y |= ((x >> src[s]) & msk[s]) << dst[s]
    return y


@njit(cache=True, nogil=True)
def _agree(x, bmask):
    """Bit i set when block i of the (unpermuted) XOR ``x`` is zero."""
    a = np.uint64(0)
    for i in range(bmask.shape[0]):
        if x & bmask[i] == 0:
            a |= np.uint64(1) << np.uint64(i)
    return a


@njit(cache=True, nogil=True)
def _permute_into(vals, src, msk, dst, nseg, out):
    for i in range(vals.shape[0]):
        out[i] = _perm(vals[i], src, msk, dst, nseg)


@njit(cache=True, nogil=True)
def _repermute_into(vals, src_a, msk_a, dst_a, nseg_a, src_b, msk_b, dst_b, nseg_b, out):
    """Table a's entries in table b's bit order (undo a, apply b)."""
    for i in range(vals.shape[0]):
        x = _perm(vals[i], dst_a, msk_a, src_a, nseg_a)
        out[i] = _perm(x, src_b, msk_b, dst_b, nseg_b)


@njit(cache=True, nogil=True)
def _sift(a, lo, root, n):
    v = a[lo + root]
    while True:
        child = 2 * root + 1
        if child >= n:
            break
        if child + 1 < n and a[lo + child + 1] > a[lo + child]:
            child += 1
        if a[lo + child] <= v:
            break
        a[lo + root] = a[lo + child]
        root = child
    a[lo + root] = v


@njit(cache=True, nogil=True)
def _sort_range(a, lo, hi):
    """Sort ``a[lo:hi]`` in place: insertion sort when short, else heapsort.

    Not ``ndarray.sort``: in numba that adds seconds of compile time to every
    kernel using it, and the ranges sorted here are nearly always short.
    """
    n = hi - lo
    if n <= 24:
        for u in range(lo + 1, hi):
            v = a[u]
            w = u - 1
            while w >= lo and a[w] > v:
                a[w + 1] = a[w]
                w -= 1
            a[w + 1] = v
        return
    for root in range(n // 2 - 1, -1, -1):
        _sift(a, lo, root, n)
    for end in range(n - 1, 0, -1):
        v = a[lo]
        a[lo] = a[lo + end]
        a[lo + end] = v
        _sift(a, lo, 0, end)


@njit(cache=True, nogil=True)
def _sort_runs(a, prefix):
    """Fully sort ``a``, which is already sorted on the bits of ``prefix``.

    Runs of equal prefix are short when the prefix is wide, so this is nearly
    linear, which is why derived tables are cheaper than a fresh sort.
    """
    n = a.shape[0]
    i = 0
    while i < n:
        key = a[i] & prefix
        j = i + 1
        while j < n and (a[j] & prefix) == key:
            j += 1
        if j - i > 1:
            _sort_range(a, i, j)
        i = j


@njit(cache=True, nogil=True)
def _merge(a, b, out):
    """Sorted union of two disjoint sorted arrays."""
    i = 0
    j = 0
    k = 0
    na = a.shape[0]
    nb = b.shape[0]
    while i < na and j < nb:
        if a[i] < b[j]:
            out[k] = a[i]
            i += 1
        else:
            out[k] = b[j]
            j += 1
        k += 1
    while i < na:
        out[k] = a[i]
        i += 1
        k += 1
    while j < nb:
        out[k] = b[j]
        j += 1
        k += 1


@njit(cache=True, nogil=True)
def _difference(a, b, out):
    """Sorted ``a`` minus sorted ``b`` (a subset of ``a``)."""
    j = 0
    k = 0
    nb = b.shape[0]
    for i in range(a.shape[0]):
        if j < nb and a[i] == b[j]:
            j += 1
        else:
            out[k] = a[i]
            k += 1


@njit(cache=True, nogil=True)
def _bucket(p, tbits):
    # two shifts so that tbits == 0 never shifts by 64
    return (p >> np.uint64(1)) >> np.uint64(63 - tbits)


@njit(cache=True, nogil=True)
def _build_dir(tab, tbits, out):
    out[:] = 0
    for i in range(tab.shape[0]):
        out[_bucket(tab[i], tbits) + np.uint64(1)] += 1
    for i in range(out.shape[0] - 1):
        out[i + 1] += out[i]


@njit(cache=True, nogil=True)
def _sweep(row, dirrow, tbits, pq, src, msk, dst, nseg, him, cmask, lowmask, bmask, maxd,
           first_only, start, hit_q, hit_v, k):
    """Probe one table with its sorted permuted queries ``pq[start:]``.

    Appends (query, match) pairs, unpermuted, to ``hit_q``/``hit_v`` at ``k``,
    each match only from the first table (in table order) whose leading
    blocks it shares with the query, so no pair comes twice; ``first_only``
    stops at one match per query and table.  Sorted queries walk the table
    and its directory forwards, which the prefetcher follows; in query order
    every probe was two cache misses.  Returns ``(next, k)``: ``next <
    len(pq)`` is the query whose hits did not fit.
    """
    d = np.uint64(maxd)
    cap = hit_q.shape[0]
    nq = pq.shape[0]
    for i in range(start, nq):
        p = pq[i]
        key = p & him
        b = _bucket(p, tbits)
        hi = dirrow[b + np.uint64(1)]
        j = _lower_bound(row, dirrow[b], hi, key)
        k_query = k
        while j < hi and (row[j] & him) == key:
            if _popcount(row[j] ^ p) <= d:
                # undoing the permutation of an XOR gives the XOR of the
                # originals: the permutation is linear
                xo = _perm(row[j] ^ p, dst, msk, src, nseg)
                if _agree(xo, bmask) & lowmask == cmask:
                    if k < cap:
                        x = _perm(p, dst, msk, src, nseg)
                        hit_q[k] = x
                        hit_v[k] = x ^ xo
                    k += 1
                    if first_only:
                        break
            j += 1
        if k > cap:
            return i, k_query
    return nq, k


@njit(cache=True, nogil=True)
def _collate(hit_q, queries):
    """``(offsets, group)`` for hits sorted by (query, match): query i matched
    hits ``offsets[g]:offsets[g + 1]`` with ``g = group[i]``, none if ``g < 0``."""
    k = hit_q.shape[0]
    ngroup = 0
    for h in range(k):
        if h == 0 or hit_q[h] != hit_q[h - 1]:
            ngroup += 1
    keys = np.empty(ngroup, np.uint64)
    offsets = np.empty(ngroup + 1, np.int64)
    g = 0
    for h in range(k):
        if h == 0 or hit_q[h] != hit_q[h - 1]:
            keys[g] = hit_q[h]
            offsets[g] = h
            g += 1
    offsets[ngroup] = k
    group = np.full(queries.shape[0], -1, np.int64)
    if ngroup == 0:
        return offsets, group
    tbits = 0
    while (2 << tbits) <= ngroup and tbits < 62:
        tbits += 1
    dirrow = np.empty((1 << tbits) + 1, np.int64)
    _build_dir(keys, tbits, dirrow)
    for i in range(queries.shape[0]):
        x = queries[i]
        b = _bucket(x, tbits)
        hi = dirrow[b + np.uint64(1)]
        j = _lower_bound(keys, dirrow[b], hi, x)
        if j < hi and keys[j] == x:
            group[i] = j
    return offsets, group


@njit(cache=True, nogil=True)
def _table_pairs(tab, src, msk, dst, nseg, himask, cmask, lowmask, bmask, maxd, uniq,
                 start, out_a, out_b, count):
    """Close pairs within runs of equal leading bits of one table, from entry
    ``start`` on, as indices into ``uniq`` appended at ``count``.

    Returns ``(next, count)``; ``next < len(tab)`` is the run that did not
    fit (grow the buffers and call again from there).
    """
    d = np.uint64(maxd)
    n = tab.shape[0]
    cap = out_a.shape[0]
    i = start
    while i < n:
        key = tab[i] & himask
        j = i + 1
        while j < n and (tab[j] & himask) == key:
            j += 1
        count_run = count
        for a in range(i, j):
            pa = tab[a]
            for c in range(a + 1, j):
                xr = pa ^ tab[c]
                if _popcount(xr) <= d:
                    # undoing the permutation of an XOR gives the XOR of the
                    # originals: the permutation is linear
                    xo = _perm(xr, dst, msk, src, nseg)
                    if _agree(xo, bmask) & lowmask == cmask:
                        if count < cap:
                            va = _perm(pa, dst, msk, src, nseg)
                            ia = _lower_bound(uniq, 0, uniq.shape[0], va)
                            ib = _lower_bound(uniq, 0, uniq.shape[0], va ^ xo)
                            out_a[count] = min(ia, ib)
                            out_b[count] = max(ia, ib)
                        count += 1
        if count > cap:
            return i, count_run
        i = j
    return n, count


@njit(cache=True, nogil=True)
def _expand_pairs(ua, ub, counts, starts, order, n):
    """Index pairs of the input from pairs of unique values, as keys i*n+j."""
    total = 0
    for u in range(counts.shape[0]):
        total += counts[u] * (counts[u] - 1) // 2
    for e in range(ua.shape[0]):
        total += counts[ua[e]] * counts[ub[e]]
    keys = np.empty(total, np.int64)
    k = 0
    for u in range(counts.shape[0]):
        s = starts[u]
        for x in range(s, s + counts[u]):
            for y in range(x + 1, s + counts[u]):
                i = order[x]
                j = order[y]
                keys[k] = min(i, j) * n + max(i, j)
                k += 1
    for e in range(ua.shape[0]):
        sa = starts[ua[e]]
        sb = starts[ub[e]]
        for x in range(sa, sa + counts[ua[e]]):
            for y in range(sb, sb + counts[ub[e]]):
                i = order[x]
                j = order[y]
                keys[k] = min(i, j) * n + max(i, j)
                k += 1
    return keys


@njit(cache=True, nogil=True)
def _decode_pairs(keys, fps, n):
    m = keys.shape[0]
    pairs = np.empty((m, 2), np.int64)
    dist = np.empty(m, np.int64)
    for e in range(m):
        i = keys[e] // n
        j = keys[e] - i * n
        pairs[e, 0] = i
        pairs[e, 1] = j
        dist[e] = np.int64(_popcount(fps[i] ^ fps[j]))
    return pairs, dist


# --------------------------------------------------------------------------- layout


def _num_tables(b, d):
    """C(b, d), or MAX_TABLES + 1 once it is known to be larger."""
    ntab = 1
    for i in range(min(d, b - d)):  # C(b, 1), C(b, 2), ... only grow up to b/2
        ntab = ntab * (b - i) // (i + 1)
        if ntab > MAX_TABLES:
            return MAX_TABLES + 1
    return ntab


def _check_params(num_blocks, max_distance):
    for name, v in (("num_blocks", num_blocks), ("max_distance", max_distance)):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"{name} must be an int, not {type(v).__name__}")
    b, d = int(num_blocks), int(max_distance)
    if d < 0:
        raise ValueError(f"max_distance must be >= 0, got {d}")
    if b > 64:
        raise ValueError(f"num_blocks must be <= 64, got {b}")
    if b <= d:
        raise ValueError(f"num_blocks ({b}) must exceed max_distance ({d})")
    if _num_tables(b, d) > MAX_TABLES:
        raise ValueError(f"num_blocks={b}, max_distance={d} needs more than "
                         f"{MAX_TABLES} tables; use fewer blocks")
    return b, d


class _Layout:
    """Block geometry, table permutations and the order tables are built in.

    Table t's leading blocks are the t-th ``combinations(range(b), b - d)``;
    that fixed order is what the "first agreeing table" dedupe rule uses.  Any
    order of the leading blocks inside a table is equally valid, so tables are
    grouped by a pair of blocks they both lead with: one table of each group is
    sorted from scratch and the others are derived from it by re-sorting runs
    of equal leading pair, which costs little.
    """

    def __init__(self, b, d):
        self.b, self.d = b, d
        k = b - d
        base, extra = divmod(64, b)
        widths = [base + 1 if i < extra else base for i in range(b)]
        starts = list(itertools.accumulate([0] + widths[:-1]))
        shift = [64 - starts[i] - widths[i] for i in range(b)]
        self.bmask = np.array([((1 << widths[i]) - 1) << shift[i] for i in range(b)], np.uint64)
        combos = list(itertools.combinations(range(b), k))
        ntab = len(combos)

        # group tables by a leading pair, greedily; ties go to the
        # lexicographically first pair, so table 0 leads with (0, 1) and
        # stays the identity permutation (its table is the sorted set)
        group = [None] * ntab
        if k >= 2:
            member = np.zeros((ntab, b), np.int64)
            for t, combo in enumerate(combos):
                member[t, list(combo)] = 1
            left = np.ones(ntab, bool)
            while left.any():
                cover = (member * left[:, None]).T @ member  # tables leading with x and y
                np.fill_diagonal(cover, 0)
                x, y = divmod(int(np.argmax(cover)), b)
                hit = left & (member[:, x] == 1) & (member[:, y] == 1)
                for t in np.flatnonzero(hit):
                    group[t] = (x, y)
                left &= ~hit

        orders, self.parent, self.build_order = [], [-1] * ntab, []
        prefix = [0] * ntab
        members = {}
        for t, combo in enumerate(combos):
            lead = list(combo)
            if group[t] is not None:
                lead = list(group[t]) + [x for x in combo if x not in group[t]]
                members.setdefault(group[t], []).append(t)
            orders.append(lead + [x for x in range(b) if x not in combo])
        for t in range(ntab):
            if group[t] is None:
                self.build_order.append(t)
            elif members[group[t]][0] == t:
                self.build_order.append(t)
                x, y = group[t]
                bits = widths[x] + widths[y]
                for u in members[group[t]][1:]:
                    self.parent[u] = t
                    prefix[u] = _ALL ^ ((1 << (64 - bits)) - 1)
                    self.build_order.append(u)

        maxseg = b
        self.src = np.zeros((ntab, maxseg), np.uint64)
        self.msk = np.zeros((ntab, maxseg), np.uint64)
        self.dst = np.zeros((ntab, maxseg), np.uint64)
        self.nseg = np.zeros(ntab, np.int64)
        lead_bits = []
        for t, order in enumerate(orders):
            segs = []  # [src_start, width, dst_start]; adjacent blocks merge
            pos = 0
            for blk in order:
                if segs and segs[-1][0] + segs[-1][1] == starts[blk]:
                    segs[-1][1] += widths[blk]
                else:
                    segs.append([starts[blk], widths[blk], pos])
                pos += widths[blk]
            for s, (ss, w, ds) in enumerate(segs):
                self.src[t, s] = 64 - ss - w
                self.dst[t, s] = 64 - ds - w
                self.msk[t, s] = (1 << w) - 1
            self.nseg[t] = len(segs)
            lead_bits.append(sum(widths[x] for x in combos[t]))
        self.ntab = ntab
        self.min_lead = min(lead_bits)
        self.himask = np.array([_ALL ^ ((1 << (64 - L)) - 1) for L in lead_bits], np.uint64)
        self.prefix = np.array(prefix, np.uint64)
        self.cmask = np.array([sum(1 << x for x in c) for c in combos], np.uint64)
        self.lowmask = np.array([(1 << (max(c) + 1)) - 1 for c in combos], np.uint64)
        assert self.nseg[0] == 1 and self.src[0, 0] == 0  # table 0 is the identity

    def args(self, t):
        return self.src[t], self.msk[t], self.dst[t], self.nseg[t]

    def tables(self, vals):
        """Yield ``(t, table)`` in build order for sorted distinct ``vals``.

        A group's first table stays alive only while its group is built.
        """
        root = None
        for t in self.build_order:
            p = self.parent[t]
            out = np.empty(vals.shape[0], np.uint64)
            if t == 0:
                out[:] = vals
            elif p < 0:
                _permute_into(vals, *self.args(t), out)
                out.sort()
            else:
                _repermute_into(root, *self.args(p), *self.args(t), out)
                _sort_runs(out, self.prefix[t])
            if p < 0:
                root = out
            yield t, out


def _sorted_unique(a):
    # np.unique is several times slower than this on uint64 (numpy 2.x)
    a = np.sort(a)
    if a.shape[0] > 1:
        keep = np.empty(a.shape[0], bool)
        keep[0] = True
        np.not_equal(a[1:], a[:-1], out=keep[1:])
        a = a[keep]
    return a


def _as_fps(x, name="fingerprints"):
    """A contiguous 1-D uint64 array, refusing anything that would not round-trip."""
    if not isinstance(x, np.ndarray):
        a = np.asarray(x)
        if a.dtype.kind not in "ui" and a.ndim == 1 and a.size:
            # Python ints above 2**63 make numpy choose float64; keep them exact
            seq = list(x)
            if all(isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))
                   for v in seq):
                try:
                    a = np.array(seq, dtype=np.uint64)
                except OverflowError as e:
                    raise ValueError(f"{name} must fit in 64 unsigned bits") from e
    else:
        a = x
    if a.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got shape {a.shape}")
    if a.size == 0:
        return np.empty(0, np.uint64)
    if a.dtype.kind not in "ui":
        raise TypeError(f"{name} must be unsigned 64-bit integers, got {a.dtype}")
    if a.dtype.kind == "i" and (a < 0).any():
        raise ValueError(f"{name} must not be negative")
    return np.ascontiguousarray(a, dtype=np.uint64)


# --------------------------------------------------------------------------- index


class HammingIndex:
    """A set of 64-bit fingerprints answering "which are within max_distance of q?".

    ``C(num_blocks, max_distance)`` tables of ``len(self)`` uint64 each, plus a
    bucket directory per table of about ``len(self) / 2`` offsets.  More
    blocks mean more tables (memory, insert time) but shorter candidate runs.
    Each ``add``/``remove`` batch is merged into the sorted tables in time
    linear in the index size, so pass batches, not single values.  Queries
    may run in several threads, also while one thread mutates (they see the
    set before or after the change); mutations must not run concurrently
    with each other.
    """

    def __init__(self, num_blocks: int, max_distance: int):
        b, d = _check_params(num_blocks, max_distance)
        self._lay = _Layout(b, d)
        self.num_blocks, self.max_distance = b, d
        self._publish(np.empty((self._lay.ntab, 0), np.uint64))

    @property
    def num_tables(self) -> int:
        return self._lay.ntab

    @property
    def fingerprints(self) -> np.ndarray:
        """The stored fingerprints, sorted ascending (a copy)."""
        return self._state[0][0].copy()

    def __len__(self) -> int:
        return self._state[0].shape[1]

    def __repr__(self) -> str:
        return (f"HammingIndex(num_blocks={self.num_blocks}, max_distance="
                f"{self.max_distance}) with {len(self)} fingerprints")

    def _publish(self, tables):
        """Build the directories and swap in the new state in one assignment,
        so a concurrent query never pairs tables with stale directories."""
        n = tables.shape[1]
        # about two entries per bucket: one probe into the directory, then a
        # short binary search, instead of ~20 cache-missing steps
        tbits = max(0, min(n.bit_length() - 1, self._lay.min_lead, 62))
        dirs = np.empty((self._lay.ntab, (1 << tbits) + 1), np.int32 if n < 2**31 else np.int64)
        for t in range(self._lay.ntab):
            _build_dir(tables[t], tbits, dirs[t])
        self._state = (tables, dirs, tbits)

    def _present(self, old, vals):
        """Mask of sorted ``vals`` that are in the sorted set ``old``."""
        if old.shape[0] == 0:
            return np.zeros(vals.shape[0], bool)
        idx = np.searchsorted(old, vals)
        return old[np.minimum(idx, old.shape[0] - 1)] == vals

    def add(self, fps) -> None:
        """Add fingerprints; ones already present (or repeated) are ignored."""
        old = self._state[0]
        new = _sorted_unique(_as_fps(fps))
        new = new[~self._present(old[0], new)]
        if new.shape[0] == 0:
            return
        n = old.shape[1]
        tables = np.empty((self._lay.ntab, n + new.shape[0]), np.uint64)
        for t, tab in self._lay.tables(new):
            if n:
                _merge(old[t], tab, tables[t])
            else:
                tables[t] = tab
        self._publish(tables)

    def remove(self, fps) -> None:
        """Remove fingerprints; absent ones are ignored."""
        old = self._state[0]
        gone = _sorted_unique(_as_fps(fps))
        gone = gone[self._present(old[0], gone)]
        if gone.shape[0] == 0:
            return
        tables = np.empty((self._lay.ntab, old.shape[1] - gone.shape[0]), np.uint64)
        for t, tab in self._lay.tables(gone):
            _difference(old[t], tab, tables[t])
        self._publish(tables)

    def _search(self, queries, first_only):
        """``(values, offsets, group)`` as in ``_collate`` for the queries."""
        q = _as_fps(queries, "queries")
        tables, dirs, tbits = self._state
        lay = self._lay
        hit_q = np.empty(max(1024, q.shape[0]), np.uint64)
        hit_v = np.empty(max(1024, q.shape[0]), np.uint64)
        k = 0
        if tables.shape[1] and q.shape[0]:
            for t, pq in lay.tables(_sorted_unique(q)):
                start = 0
                while True:
                    # the buffers grow out here: a reallocation inside the
                    # probe loop made it markedly slower
                    start, k = _sweep(tables[t], dirs[t], tbits, pq, *lay.args(t), lay.himask[t],
                                      lay.cmask[t], lay.lowmask[t], lay.bmask,
                                      self.max_distance, first_only, start, hit_q, hit_v, k)
                    if start == pq.shape[0]:
                        break
                    hit_q = np.concatenate([hit_q[:k], np.empty(hit_q.shape[0] * 2, np.uint64)])
                    hit_v = np.concatenate([hit_v[:k], np.empty(hit_v.shape[0] * 2, np.uint64)])
        order = np.lexsort((hit_v[:k], hit_q[:k]))
        values = hit_v[order]
        offsets, group = _collate(hit_q[order], q)
        return values, offsets, group

    def find_first(self, queries) -> tuple[np.ndarray, np.ndarray]:
        """``(matches, found)``: for each query some stored fingerprint within
        max_distance (0 where ``found`` is False)."""
        values, offsets, group = self._search(queries, True)
        found = group >= 0
        matches = np.zeros(group.shape[0], np.uint64)
        matches[found] = values[offsets[group[found]]]
        return matches, found

    def find_all(self, queries) -> list[np.ndarray]:
        """For each query, the stored fingerprints within max_distance, sorted
        ascending: views into one buffer, and one shared read-only empty array
        for every query without a match."""
        values, offsets, group = self._search(queries, False)
        # one shared empty array: a view per query without a match would cost
        # more than the whole search
        empty = np.empty(0, np.uint64)
        empty.flags.writeable = False
        out = [empty] * group.shape[0]
        hit = np.flatnonzero(group >= 0)
        lo = offsets[group[hit]]
        hi = offsets[group[hit] + 1]
        for i, a, b in zip(hit.tolist(), lo.tolist(), hi.tolist()):
            out[i] = values[a:b]
        return out


# --------------------------------------------------------------------------- all pairs


def _default_blocks(n, d):
    """Block count minimising tables * (n + n^2 / 2^lead_bits).

    That is a table build per fingerprint plus two per expected candidate
    pair.  The benchmark measured a candidate check at about 1/20 of a table
    build per fingerprint on uniform random fingerprints, so candidates are
    weighted some 40 times too heavily: a margin for real fingerprints, whose
    biased or clustered bits make short leading prefixes crowded.
    """
    best, best_cost = None, None
    for b in range(d + 1, min(64, d + 12) + 1):
        ntab = _num_tables(b, d)
        if ntab > MAX_TABLES:
            break
        lead = sum(sorted(64 // b + (i < 64 % b) for i in range(b))[: b - d])
        cost = ntab * (n + n * n / 2.0 ** lead)
        if best_cost is None or cost < best_cost:
            best, best_cost = b, cost
    return best


def hamming_pairs(fps, max_distance: int, num_blocks: int | None = None
                  ) -> tuple[np.ndarray, np.ndarray]:
    """All pairs ``i < j`` with ``popcount(fps[i] ^ fps[j]) <= max_distance``.

    Returns ``(pairs, distances)``: int64 ``(m, 2)`` sorted lexicographically,
    each pair once, and int64 ``(m,)``.  Equal values at different indices are
    pairs at distance 0; the work is linear in the output for them, but ``k``
    equal values still make ``k(k-1)/2`` pairs, so collapse duplicates first
    if that matters.  The default ``num_blocks`` minimises a cost model (see
    ``_default_blocks``): for distance 3 it is 5 blocks, 10 tables, from
    10^5 to 10^7 fingerprints.  On uniform random fingerprints the benchmark
    found 4 blocks 1.6x faster at 10^6 and 1.3x slower at 4*10^6, and 6 blocks
    slower throughout; 5 keeps a 25-bit leading prefix, where 4 blocks have 16
    bits and degrade quadratically on crowded prefixes.  Memory: two tables of
    the distinct values at a time.
    """
    fps = _as_fps(fps)
    n = fps.shape[0]
    if num_blocks is None:
        # validate max_distance alone first, so its errors name it
        ok = isinstance(max_distance, (int, np.integer)) and not isinstance(max_distance, bool)
        if ok and max_distance >= 64:
            raise ValueError(f"max_distance must be below 64, got {max_distance}")
        _check_params(int(max_distance) + 1 if ok else 1, max_distance)
        num_blocks = _default_blocks(n, int(max_distance))
    b, d = _check_params(num_blocks, max_distance)
    if n < 2:
        return np.empty((0, 2), np.int64), np.empty(0, np.int64)
    # group equal values: pairs are searched among distinct values only and
    # expanded to index pairs at the end, so duplicates cost only their output
    order = np.argsort(fps)
    srt = fps[order]
    first = np.empty(n, bool)
    first[0] = True
    np.not_equal(srt[1:], srt[:-1], out=first[1:])
    starts = np.flatnonzero(first)
    uniq = srt[starts]
    counts = np.diff(np.append(starts, n))
    del srt, first
    lay = _Layout(b, d)
    out_a = np.empty(1024, np.int64)
    out_b = np.empty(1024, np.int64)
    count = 0
    if uniq.shape[0] > 1:
        for t, tab in lay.tables(uniq):
            start = 0
            while True:
                start, count = _table_pairs(
                    tab, *lay.args(t), lay.himask[t], lay.cmask[t], lay.lowmask[t],
                    lay.bmask, d, uniq, start, out_a, out_b, count)
                if start == tab.shape[0]:
                    break
                out_a = np.concatenate([out_a[:count], np.empty(2 * out_a.shape[0], np.int64)])
                out_b = np.concatenate([out_b[:count], np.empty(2 * out_b.shape[0], np.int64)])
    keys = _expand_pairs(out_a[:count], out_b[:count], counts.astype(np.int64),
                         starts.astype(np.int64), order.astype(np.int64), n)
    keys.sort()
    return _decode_pairs(keys, fps, n)
