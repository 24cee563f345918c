#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""sb-order.py SIDEBAND.BIN: is a bundle's sideband file one stream in TSC
order (docs/bundle-format.md 3.8)? Walks struct ptscope_sb_hdr records
(u16 type, u16 size, u32 cpu, u64 tsc; include/uapi/ptscope.h) and prints
"N-records-cpus-A,B" (with "-K-out-of-TSC-order" when a record's TSC is
below the one before it). Exit 1 when out of order or a record is bad.

"-interleaved" follows when two CPUs' records overlap in time (the TSC
spans from each one's first record to its last overlap): then no file
that puts one CPU's ring after another's, each in order but not merged,
is in TSC order, so only such a file tells a merge from a concatenation."""
import struct
import sys

data = open(sys.argv[1], 'rb').read()
off, last, back, cpus, n = 0, None, 0, {}, 0
while off + 16 <= len(data):
    typ, size, cpu, tsc = struct.unpack_from('<HHIQ', data, off)
    if size < 16 or size % 8 or off + size > len(data):
        print('bad-record-at-%d' % off)
        sys.exit(1)
    if last is not None and tsc < last:
        back += 1
    last = tsc
    lo, hi = cpus.get(cpu, (tsc, tsc))
    cpus[cpu] = (min(lo, tsc), max(hi, tsc))
    n += 1
    off += size
spans = list(cpus.values())
interleaved = any(a[0] < b[1] and b[0] < a[1]
                  for i, a in enumerate(spans) for b in spans[i + 1:])
print('%d-records-cpus-%s%s%s' % (n, ','.join(map(str, sorted(cpus))),
                                  '-%d-out-of-TSC-order' % back if back else '',
                                  '-interleaved' if interleaved else ''))
sys.exit(1 if back else 0)
