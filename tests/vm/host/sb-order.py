#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""sb-order.py SIDEBAND.BIN: is a bundle's sideband file one stream in TSC
order (docs/bundle-format.md 3.8)? Walks struct ptscope_sb_hdr records
(u16 type, u16 size, u32 cpu, u64 tsc; include/uapi/ptscope.h) and prints
"N-records-cpus-A,B" (with "-K-out-of-TSC-order" when a record's TSC is
below the one before it). Exit 1 when out of order or a record is bad."""
import struct
import sys

data = open(sys.argv[1], 'rb').read()
off, last, back, cpus, n = 0, None, 0, set(), 0
while off + 16 <= len(data):
    typ, size, cpu, tsc = struct.unpack_from('<HHIQ', data, off)
    if size < 16 or size % 8 or off + size > len(data):
        print('bad-record-at-%d' % off)
        sys.exit(1)
    if last is not None and tsc < last:
        back += 1
    last = tsc
    cpus.add(cpu)
    n += 1
    off += size
print('%d-records-cpus-%s%s' % (n, ','.join(map(str, sorted(cpus))),
                                '-%d-out-of-TSC-order' % back if back else ''))
sys.exit(1 if back else 0)
