#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Boot the whole-system trace VM and log the workload's execution.

Usage: qemu-run.py VMLINUZ INITRAMFS OUTDIR

Boots VMLINUZ (nokaslr, one CPU, TCG) with INITRAMFS whose /init is
tests/wsys/wsys-init.c, and drives QEMU's HMP monitor from the guest's
serial markers: at WSYS-READY it sends `log exec,nochain,int,in_asm`
(log file OUTDIR/qemu.log, set by -D) and types "g"; at WSYS-END it
sends `log none` and types "h". Writes OUTDIR/console.txt (serial, \\r
stripped) and OUTDIR/kallsyms (the guest's text symbols). Exit status 0
on success, 1 with a message otherwise.
"""
import os
import socket
import subprocess
import sys
import time


def main():
    if len(sys.argv) != 4:
        sys.stderr.write(__doc__)
        return 2
    vmlinuz, initrd, out = sys.argv[1:]
    os.makedirs(out, exist_ok=True)
    mon_path = os.path.join(out, "mon.sock")
    log_path = os.path.join(out, "qemu.log")
    for p in (mon_path, log_path):
        if os.path.exists(p):
            os.unlink(p)
    cmd = ["qemu-system-x86_64", "-machine", "q35", "-accel", "tcg", "-cpu", "max",
           "-m", "256", "-smp", "1", "-kernel", vmlinuz, "-initrd", initrd,
           "-append", "console=ttyS0 nokaslr quiet panic=-1 oops=panic",
           "-display", "none", "-nodefaults", "-no-reboot", "-net", "none",
           "-serial", "stdio", "-monitor", "unix:%s,server,nowait" % mon_path,
           "-D", log_path]
    q = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=open(os.path.join(out, "qemu.stderr"), "wb"))
    mon = None
    for _ in range(100):
        try:
            mon = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            mon.connect(mon_path)
            break
        except OSError:
            mon = None
            time.sleep(0.05)
    if mon is None:
        q.kill()
        print("qemu-run: cannot connect to the monitor socket %s" % mon_path)
        return 1

    def hmp(line):
        mon.sendall((line + "\n").encode())
        # Wait for the monitor prompt after the command's echo: the command
        # has taken effect when the next prompt appears.
        buf = b""
        mon.settimeout(10)
        while not buf.rstrip().endswith(b"(qemu)") or line.encode() not in buf:
            chunk = mon.recv(4096)
            if not chunk:
                break
            buf += chunk

    def typ(s):
        q.stdin.write(s.encode())
        q.stdin.flush()

    console = open(os.path.join(out, "console.txt"), "w")
    ksyms = open(os.path.join(out, "kallsyms"), "w")
    in_syms = False
    ok = False
    t0 = time.time()
    times = {}
    for raw in q.stdout:
        line = raw.decode(errors="replace").replace("\r", "").rstrip("\n")
        if in_syms:
            if line == "WSYS-KALLSYMS-END":
                in_syms = False
                ok = True
            else:
                ksyms.write(line + "\n")
            continue
        console.write(line + "\n")
        if line == "WSYS-READY":
            times["ready"] = time.time() - t0
            hmp("log exec,nochain,int,in_asm")
            typ("g\n")
        elif line == "WSYS-END":
            hmp("log none")
            times["end"] = time.time() - t0
            typ("h\n")
        elif line == "WSYS-KALLSYMS-BEGIN":
            in_syms = True
    q.wait()
    console.close()
    ksyms.close()
    times["exit"] = time.time() - t0
    print("qemu-run: boot %.1f s, window %.1f s, total %.1f s" %
          (times.get("ready", -1), times.get("end", -1) - times.get("ready", 0), times["exit"]))
    if not ok:
        print("qemu-run: the guest did not finish (see %s/console.txt)" % out)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
