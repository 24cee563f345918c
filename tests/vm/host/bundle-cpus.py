#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bundle-cpus.py BUNDLE OUTDIR: one bundle per CPU of BUNDLE, for decoding
each CPU's trace on its own (check-bundles.sh, bundle_timeline_matches_sim).

For every CPU of the manifest's "cpus" that has a trace file, makes
OUTDIR/cpuN.ptscope: the manifest with that CPU alone in "cpus", every
other entry of BUNDLE a symbolic link to the original (the kernel text is
tens of MB). Prints "N OUTDIR/cpuN.ptscope" a line, in the manifest's
order; nothing when the manifest lists no CPU with a file.

Why: `ptscope decode --insn-list` of a bundle lists the instructions of
every CPU in the order the time merge advances the CPUs' decoders, which
decode one event ahead of what the merge hands on, so the list switches
CPU where the merge pulls, not at round boundaries; and where it pulls
depends on how the two CPUs' ticks interleave in time (docs/testing-vm.md,
"The timeline check, one CPU at a time")."""
import json
import os
import sys

src, out = sys.argv[1], sys.argv[2]
with open(os.path.join(src, 'manifest.json')) as f:
    m = json.load(f)
os.makedirs(out, exist_ok=True)
for c in m.get('cpus', []):
    if not c.get('file'):
        continue
    d = os.path.join(out, 'cpu%d.ptscope' % c['cpu'])
    os.makedirs(d, exist_ok=True)
    for e in os.listdir(src):
        if e == 'manifest.json' or os.path.lexists(os.path.join(d, e)):
            continue
        os.symlink(os.path.abspath(os.path.join(src, e)), os.path.join(d, e))
    one = dict(m)
    one['cpus'] = [c]
    with open(os.path.join(d, 'manifest.json'), 'w') as f:
        json.dump(one, f, indent=2)
    print(c['cpu'], d)
