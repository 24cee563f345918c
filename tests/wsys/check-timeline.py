#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare `ptscope decode` text listings of a whole-system trace with the
events QEMU logged (qemu-trace's events.txt, derived from the log, not
from any decoder).

Usage: check-timeline.py EVENTS.TXT INIT-ELF BOTH.TXT USER.TXT KERNEL.TXT

both   (RTIT_CTL.User+OS): every syscall, exception and interrupt of the
       task, in order, is a kernel frame (kind syscall, exception or
       interrupt, as the log says) named after the kallsyms symbol
       of its handler; one from user mode sits directly under a user frame
       of the function it interrupted, one from kernel mode under a kernel
       frame.
user   (User only): the same user-mode events, in order, are synthetic
       slices, [syscall] for SYSCALL and [interrupted] otherwise, directly
       under the user frame of the function they interrupted.
kernel (OS only): every return to user mode opens a [user] slice (kind
       sysret or iret); every entry from user mode starts a kernel frame
       named after its handler at depth 0 (no inferred frame encloses it);
       interrupts and exceptions in kernel mode are frames of that kind
       named after their handler, in order.
Exit status 0 when all hold; 1 with the first differences otherwise.
Test-only fault injection: WSYS_BREAK=fault-as-call makes the check treat
the decoder's first page-fault frame as if it had been a call (the rule a
wrong timeline would apply), which must fail the check.
"""
import bisect
import os
import subprocess
import sys


def user_symbols(elf):
    out = subprocess.run(["nm", "-n", "--defined-only", elf], capture_output=True,
                         text=True, check=True).stdout
    syms = []
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "tTwW":
            syms.append((int(f[0], 16), f[2]))
    syms.sort()
    return syms


def sym_at(syms, addr):
    i = bisect.bisect_right(syms, (addr, "\xff")) - 1
    return syms[i][1] if i >= 0 else "?"


def same_function(syms, name, addr):
    """name is (an alias of) the function containing addr."""
    i = bisect.bisect_right(syms, (addr, "\xff")) - 1
    if i < 0:
        return False
    start = syms[i][0]
    return any(a == start and n == name for a, n in syms)


def read_events(path):
    ev = []
    for line in open(path):
        if line.startswith("#"):
            continue
        kind, ring, at, handler, vec, uvis = line.split()
        ev.append(dict(kind=kind, ring=int(ring), at=int(at, 16), handler=handler,
                       uvis=uvis == "1"))
    return ev


def frames(path):
    """Yield (kind, name, flags, parent) for each BEGIN ('>') record, parent
    being (name, flags) of the enclosing frame or None."""
    stack = {}
    for line in open(path):
        if line.startswith("#"):
            continue
        f = line.split()
        if len(f) < 7 or f[3] == "-":
            continue
        depth, kind, arrow = int(f[3]), f[4], f[5]
        rest = " ".join(f[6:])
        name = rest.split()[0]
        flags = set(x for x in rest.split() if x.startswith("["))
        if arrow == ">":
            parent = stack.get(depth - 1) if depth > 0 else None
            stack[depth] = (name, flags)
            for d in [d for d in stack if d > depth]:
                del stack[d]
            yield kind, name, flags, parent
        elif arrow == "<":
            for d in [d for d in stack if d >= depth]:
                del stack[d]


def func(name):
    return name.split("+")[0]


def is_user(flags):
    return "[kernel]" not in flags and "[synthetic]" not in flags


errors = []


def fail(scope, msg):
    errors.append("%s: %s" % (scope, msg))


def compare(scope, exp, got, describe):
    if len(exp) != len(got):
        fail(scope, "%d events expected, %d in the timeline" % (len(exp), len(got)))
    for i, (e, g) in enumerate(zip(exp, got)):
        msg = describe(e, g)
        if msg:
            fail(scope, "event %d (%s at %#x, ring %d): %s" % (i, e["kind"], e["at"], e["ring"], msg))
            break


def main():
    if len(sys.argv) != 6:
        sys.stderr.write(__doc__)
        return 2
    events, elf, both, user, kernel = sys.argv[1:]
    ev = read_events(events)
    syms = user_symbols(elf)
    brk = os.environ.get("WSYS_BREAK", "")
    entries = [e for e in ev if e["kind"] != "return"]

    # ---- both ----
    got = []
    broken = False
    for kind, name, flags, parent in frames(both):
        if "[synthetic]" in flags or "[kernel]" not in flags:
            continue
        if (brk == "fault-as-call" and not broken and kind in ("interrupt", "exception")
                and func(name) == "asm_exc_page_fault"):
            got.append(("call", name, parent))	# what the wrong rule gives
            broken = True
            continue
        if kind in ("syscall", "interrupt", "exception"):
            got.append((kind, name, parent))

    def d_both(e, g):
        kind, name, parent = g
        want = e["kind"]	# syscall, exception or interrupt
        if kind != want:
            return "timeline kind %s, expected %s" % (kind, want)
        if func(name) != e["handler"]:
            return "timeline frame %s, expected handler %s" % (name, e["handler"])
        if parent is None:
            return "kernel frame %s has no enclosing frame" % name
        if e["ring"] == 3:
            if not is_user(parent[1]):
                return "encloses %s %s, expected a user frame" % (parent[0], sorted(parent[1]))
            if not same_function(syms, func(parent[0]), e["at"]):
                return "under user frame %s, expected %s" % (parent[0], sym_at(syms, e["at"]))
        elif "[kernel]" not in parent[1]:
            return "under %s, expected a kernel frame" % parent[0]
        return None

    compare("both", entries, got, d_both)
    n_both = len(got)

    # ---- user ----
    exp = [e for e in entries if e["ring"] == 3 and e["uvis"]]
    got = [(kind, name, parent) for kind, name, flags, parent in frames(user)
           if "[synthetic]" in flags and name in ("[syscall]", "[interrupted]")]

    def d_user(e, g):
        kind, name, parent = g
        want = "[syscall]" if e["kind"] == "syscall" else "[interrupted]"
        if name != want:
            return "timeline slice %s (%s), expected %s" % (name, kind, want)
        if parent is None or not is_user(parent[1]):
            return "slice not under a user frame (%s)" % (parent,)
        if not same_function(syms, func(parent[0]), e["at"]):
            return "under user frame %s, expected %s" % (parent[0], sym_at(syms, e["at"]))
        return None

    compare("user", exp, got, d_user)
    n_user = len(got)

    # ---- kernel ----
    rets = [e for e in ev if e["kind"] == "return"]
    got_user = [k for k, name, flags, parent in frames(kernel)
                if name == "[user]" and k in ("sysret", "iret")]
    if len(got_user) != len(rets):
        fail("kernel", "%d returns to user mode expected, %d [user] slices opened by sysret/iret"
             % (len(rets), len(got_user)))
    got = []
    first = True
    # The window may open in user mode with an entry as its first event:
    # then the kernel-only trace starts at that entry, which is an event.
    # Otherwise it starts inside the kernel, where no event happened.
    starts_at_entry = bool(ev) and ev[0]["kind"] != "return" and ev[0]["ring"] == 3
    for kind, name, flags, parent in frames(kernel):
        if "[kernel]" not in flags or "[synthetic]" in flags:
            continue
        if first and kind == "trace_begin":
            first = False
            if not starts_at_entry:
                continue
        if kind in ("interrupt", "exception", "syscall") or (
                kind == "trace_begin" and func(name) != "__switch_to_asm"):
            got.append((kind, name, parent))

    def d_kernel(e, g):
        kind, name, parent = g
        if func(name) != e["handler"]:
            return "timeline frame %s (%s), expected handler %s" % (name, kind, e["handler"])
        if e["ring"] == 3 and kind != "trace_begin":
            return "entry from user mode is a %s frame, expected trace_begin" % kind
        # Nothing ran in the kernel below an entry from user mode: no
        # frame (an inferred one from a later return) may enclose it.
        if e["ring"] == 3 and parent is not None:
            return "entry from user mode %s is enclosed by %s %s, expected depth 0" % (
                name, parent[0], " ".join(sorted(parent[1])))
        if e["ring"] == 0 and kind != e["kind"]:
            return "kernel-mode %s is a %s frame" % (e["kind"], kind)
        return None

    compare("kernel", entries, got, d_kernel)

    counts = {}
    for e in entries:
        key = "%s-ring%d" % (e["kind"], e["ring"])
        counts[key] = counts.get(key, 0) + 1
    print("check-timeline: ground truth %s, %d returns to user mode" %
          (", ".join("%s %d" % kv for kv in sorted(counts.items())), len(rets)))
    print("check-timeline: both %d kernel frames, user %d synthetic slices (%d user-mode "
          "events visible in user scope), kernel %d [user] slices" %
          (n_both, n_user, len(exp), len(got_user)))
    for e in errors:
        print("check-timeline: FAIL " + e)
    if not errors:
        print("check-timeline: PASS (both, user, kernel)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
