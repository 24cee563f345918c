#!/usr/bin/env python3
"""Decoder fidelity (docs/fidelity.md): for each stream, compare what
`ptscope decode` reports with two independent decoders and the ground truth.

  (a) instructions: `ptscope decode --insn-list` against libipt's instruction
      flow decoder (`ptsynth check --insn-list`, pt_insn_*), same bytes, same
      images;
  (b) calls, returns, system calls, asynchronous disables (interrupts) and
      trace begins/ends of the timeline against `perf script --itrace=cre`
      on a perf.data of the same bytes (../shared/tools/mkperfdata.py);
  (c) frame by frame: the stack of the executable's frames at each call into
      one of its functions (and each handler entry), timeline against the
      reference encoder's ground truth (tests/ptsynth/callstructure.pl).

Each difference is counted by diff(1) over the two sequences (an added or
removed line is one difference). A stream with differences passes only when
the allow-list names that stream and check with the reason: a known defect
("known, issue 13 item N: ..."), a justified difference ("right: ...",
"model: ...") or one whose right answer is not settled ("open: ..."). An
entry whose check shows no difference fails too, whatever its kind, so
that the list shrinks as defects are fixed and says nothing that no longer
happens, unless it says that its difference "varies" from run to run
(thread interleaving, where a signal or an interrupt lands, the window of
a whole-system trace). A reason that says "exactly N" passes only with N
differences (a count the program fixes, such as its calls beyond the
timeline's depth). A reason that says "varies" and "at most N" passes
only with N differences or fewer: a stream whose count moves from run to
run still fails when a decoder loses what the count would otherwise hide.

Usage: fidelity.py --build DIR --work DIR --allow FILE [--shared DIR]
                   [--bundle NAME=DIR[:EXE[:NAMES]]]... [--snapshot NAME=DIR:EXE:FRACTION]...
                   [--dynamorio] [--synth-example]
Prints the table, and writes it as Markdown to WORK/table.md (docs/fidelity.md).
Exit 0 when every difference is explained, 1 otherwise.
PTS_FIDELITY_BREAK=drop-last-insn removes our last instruction,
PTS_FIDELITY_BREAK=drop-a-call our first call (the check's own tests: it
must then fail, and say where).

A difference of (b) is shown where it is: perf's events and the
timeline's (index, time, kind, addresses, symbol), perf's instruction
there, the same instruction in libipt's list and the ground truth's
records around it, so that a failure in CI's log can be read without
the bundle (which a fresh capture does not keep).
"""
import argparse
import bisect
import json
import os
import re
import shutil
import struct
import subprocess
import sys

KERNEL_HALF = 0xffff800000000000
CHECKS = ('insns', 'calls', 'returns', 'events', 'perf-errors', 'nesting')


def run(cmd, out=None, ok=(0,)):
    """Run cmd; stdout to the file `out` (or captured). Returns the process."""
    with open(out, 'w') if out else open(os.devnull, 'w') as f:
        p = subprocess.run(cmd, stdout=f if out else subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    if p.returncode not in ok:
        raise RuntimeError('%s: exit %d: %s' % (' '.join(cmd), p.returncode,
                                                (p.stderr or '').strip()[-400:]))
    return p


def write_lines(path, lines):
    with open(path, 'w') as f:
        f.writelines(l + '\n' for l in lines)


def diff_hunks(a, b):
    """diff(1) of two files as hunks: [(first line number in a, lines of a,
    lines of b, 0-based index in b of its first line or where a's lines
    would be)]."""
    p = subprocess.run(['diff', a, b], stdout=subprocess.PIPE, text=True)
    hunks = []
    for line in p.stdout.splitlines():
        if line[:1].isdigit():
            m = re.match(r'(\d+)(?:,\d+)?([acd])(\d+)', line)
            at_b = int(m.group(3)) - (m.group(2) != 'd')
            hunks.append((int(m.group(1)), [], [], at_b))
        elif line[:2] == '< ':
            hunks[-1][1].append(line[2:])
        elif line[:2] == '> ':
            hunks[-1][2].append(line[2:])
    return hunks


def diff_count(a, b):
    """diff(1) of two files: (differences by the first word of each line,
    the first differing hunk as text)."""
    p = subprocess.run(['diff', a, b], stdout=subprocess.PIPE, text=True)
    per, first = {}, []
    for line in p.stdout.splitlines():
        if line[:2] in ('< ', '> '):
            kind = line[2:].split(' ', 1)[0].split('\t', 1)[0]
            per[kind] = per.get(kind, 0) + 1
        if len(first) < 6:
            first.append(line)
    return per, ' | '.join(first)


# ---- (b) event sequences --------------------------------------------------

PERF_LINE = re.compile(r'branches:\S*:\s+(.*?)\s+([0-9a-f]+) (\S+).*=>\s+([0-9a-f]+)\s')
# a RET of a retpoline thunk goes to an indirect branch's target
RETPOLINE = '__x86_indirect_thunk_'
# GCC's return thunk (-mfunction-return=thunk) calls its own middle; its
# RET is the return of the function that jumped to it
RETURN_THUNK = '__x86_return_thunk'


# IPs of the trace starts perf printed right after a decode error
# (perf_events fills it): it resynchronised there, at a FUP, and may have
# lost the asynchronous disable that FUP belonged to, so a later trace
# start at that IP pairs with nothing it showed. (When it resynchronised
# at a later PSB instead, the disable is in the stretch counted as lost:
# compare() pairs the trace start with the timeline's side of it.)
RESYNC_IPS = set()


def perf_brief(line):
    """perf's line without the objects' paths and the padding."""
    return ' '.join(re.sub(r' \(/[^)]*\)', '', line).split())


def perf_events(path, enables=None, namer=None):
    """perf script --itrace=cre -F +flags -> (tokens, number of decode errors).

    Tokens: 'call TO', 'return', 'syscall AT', 'async AT', 'begin TO'. AT
    is what the timeline's slice is at: in user scope the
    [syscall]/[interrupted] slice sits at the user IP the trace left from
    (perf's FROM), in kernel scope the kernel frame starts at the entry
    (perf's TO). A trace start that resumes where some disable left off
    (after a system call: FROM + 2; after an asynchronous disable: FROM; of
    any thread, since perf's one task sees the switches of several) is no
    token: the timeline shows it as the end of the [syscall] or
    [interrupted] slice, or as the thread running on, not as a begin.

    perf.data made by mkperfdata.py has one task, so perf sees the threads
    of a reference-encoder bundle as one. `enables`, the ground truth's
    (enable IP, thread) in order, gives each token its thread back: a
    trace start at an IP is the next enable there. Tokens are (thread,
    text, IP perf was at: the branch's, or a trace start's target, the
    function of a RET, perf's line without its paths: what a failure
    shows).

    A RET of a retpoline thunk is no return token: the timeline shows its
    target in place of the thunk (a jump). Nor is the CALL of a return
    thunk into its own middle a call token: the timeline shows the thunk
    as the return of the function that jumped to it (its RET, the return
    token), nor a CALL of its own next instruction (the get-PC idiom,
    which pops its slot: the decoder gives it no call). They are counted
    apart (third value returned). namer(ip, perf's name) names code perf cannot (kernel
    text given as raw bytes).
    """
    toks, errors, pending, thunk = [], 0, {}, 0
    tid, pos, after_error = 0, 0, False
    with open(path) as f:
        for line in f:
            if 'instruction trace error' in line:
                errors += 1
                toks.append((tid, 'error', None, '', perf_brief(line)))
                after_error = True
                continue
            m = PERF_LINE.search(line)
            if not m:
                continue
            flags, frm, to = m.group(1).split(), int(m.group(2), 16), int(m.group(4), 16)
            if after_error and flags[:2] == ['tr', 'strt']:
                RESYNC_IPS.add(to)
            after_error = False
            fname = m.group(3).split('+', 1)[0]
            if namer:
                fname = namer(frm, fname)
            if flags[:2] == ['tr', 'strt'] and enables:
                nxt = next((i for i in range(pos, min(pos + 64, len(enables)))
                            if enables[i][0] == to), None)
                if nxt is not None:
                    tid, pos = enables[nxt][1], nxt + 1
            n = len(toks)
            if flags[:1] == ['call'] and (fname == RETURN_THUNK or to == frm + 5):
                # a return thunk's CALL, or a CALL of its own next
                # instruction (get-PC: `call 1f; 1: pop`), which the
                # decoder gives no call (nothing returns to it)
                thunk += 1
            elif flags[:1] == ['call']:
                toks.append('call %x' % to)
            elif flags[:1] == ['return'] and fname.startswith(RETPOLINE):
                thunk += 1
            elif flags[:1] == ['return']:
                toks.append('return')
            elif flags[:2] == ['tr', 'strt']:
                if pending.get(to):
                    pending[to] -= 1
                else:
                    toks.append('begin %x' % to)
            elif flags[:2] == ['tr', 'end']:
                kind = flags[2] if len(flags) > 2 else ''
                if kind == 'syscall':
                    toks.append('syscall %x' % frm)
                    # SYSCALL, SYSENTER and INT n are 2 bytes
                    pending[frm + 2] = pending.get(frm + 2, 0) + 1
                elif kind in ('async', ''):
                    # an asynchronous disable, or one with no branch (the
                    # end of a window): where the trace stops (the timeline's
                    # [interrupted] or trace_end slice)
                    toks.append('async %x' % frm)
                    pending[frm] = pending.get(frm, 0) + 1
                # else a return to the untraced ring (iret, sysret): the
                # timeline ends the kernel frame with that kind, no token
            elif flags[:1] == ['syscall']:
                toks.append('syscall %x' % to)
            elif flags[:2] == ['hw', 'int']:
                toks.append('async %x' % to)
            # where perf was: the branch's IP, or for a trace start its target
            toks[n:] = [(tid, t, frm or to, fname, perf_brief(line)) for t in toks[n:]]
    return toks, errors, thunk


OURS_BEGIN = {'call': 'call', 'trace_begin': 'begin', 'syscall': 'syscall',
              'interrupt': 'async', 'exception': 'async', 'trace_end': 'async'}


def ours_json_by_time(path):
    """ptscope's .json timeline -> ((ts, index), thread, token, detail),
    tokens as perf_events gives them, in the order of the file (time order
    within each thread). The detail (the slice's time, kind, name and
    address) is what a failure shows."""
    with open(path) as f:
        evs = json.load(f)['traceEvents']
    out = []
    for i, e in enumerate(evs):
        args = e.get('args', {})
        if e['ph'] == 'B' and args.get('kind') in OURS_BEGIN and 'addr' in args:
            tok = '%s %x' % (OURS_BEGIN[args['kind']], int(args['addr'], 16))
            what = 'begin %s' % args['kind']
        elif e['ph'] == 'E' and e.get('end_kind') == 'return':
            tok, what = 'return', 'end return'
        else:
            continue
        detail = 'ts %.6f tid %s %s %s at %s' % (e.get('ts', 0), e.get('tid', 0), what,
                                              e.get('name', '?'), args.get('addr', '?'))
        out.append(((e.get('ts', 0), i), e.get('tid', 0), tok, detail))
    return out


def by_thread(toks):
    """Tokens thread by thread (threads in order of first token); with
    one thread key, in their order. Tokens are (thread, text[, more])."""
    order, per = [], {}
    for t in toks:
        if t[0] not in per:
            order.append(t[0])
            per[t[0]] = []
        per[t[0]].append(t[1:])
    return [x for k in order for x in per[k]]


def perf_offpath(lipt, perf_insns):
    """Where perf's own instruction flow is not libipt's: a list of
    (first, last) 0-based indices into perf's instruction list (perf
    walked code libipt did not, or skipped code libipt walked: then the
    interval is the point where perf resumed), and a function from an
    index into perf's list to the same instruction's index into libipt's
    (None where perf walked code libipt did not)."""
    # same: (perf index that starts a common run, libipt's index - perf's)
    bad, walked, same = [], [], [(0, 0)]
    p = subprocess.run(['diff', lipt, perf_insns], stdout=subprocess.PIPE, text=True)
    for line in p.stdout.splitlines():
        m = re.match(r'\d+(?:,(\d+))?([acd])(\d+)(?:,(\d+))?$', line)
        if m:
            lo = int(m.group(3))
            hi = int(m.group(4) or lo)
            # 'd': perf lacks lines after its line lo (0-based lo - 1)
            bad.append((lo - 1, lo) if m.group(2) == 'd' else (lo - 1, hi - 1))
            if m.group(2) != 'd':
                walked.append((lo - 1, hi - 1))
            a_end = int(m.group(1) or re.match(r'\d+', line).group(0))
            b_end = lo if m.group(2) == 'd' else hi
            same.append((b_end, a_end - b_end))
    starts = [s for s, _ in same]

    def to_libipt(i):
        if any(lo <= i <= hi for lo, hi in walked):
            return None
        return i + same[bisect.bisect_right(starts, i) - 1][1]
    return bad, to_libipt


def perf_positions(toks, perf_insns):
    """For each perf token, the index in perf's instruction list of the
    instruction it comes from (the next one at its IP)."""
    with open(perf_insns) as f:
        ips = [int(l, 16) for l in f if l.strip()]
    where = {}
    for i, ip in enumerate(ips):
        where.setdefault(ip, []).append(i)
    pos, cur = [], 0
    for _, tok, ip, *_ in toks:
        lst = where.get(ip, []) if ip is not None else []
        k = bisect.bisect_left(lst, cur)
        # an asynchronous disable's IP is where the thread resumes, maybe
        # much later: it stays where the last branch was
        if k < len(lst) and not tok.startswith('async'):
            cur = lst[k]
        pos.append(cur)
    return pos


# ---- streams ----------------------------------------------------------------

class Stream:
    """One trace: how to list libipt's and our instructions, make perf.data,
    and (for reference-encoder bundles) compare nesting."""

    def __init__(self, name, desc):
        self.name, self.desc = name, desc
        self.res = {}		# check -> count of differences (None: not run)
        self.info = {}		# figures for the table
        self.notes = {}		# check -> where its first difference is

    def compare(self, tool, work):
        d = os.path.join(work, self.name)
        os.makedirs(d, exist_ok=True)
        # (a)
        lipt, ours = os.path.join(d, 'libipt.insns'), os.path.join(d, 'ours.insns')
        self.libipt_list(tool, lipt)
        js = os.path.join(d, 'ours.json')
        self.decode(tool, ['--insn-list', ours, '-o', js])
        if os.environ.get('PTS_FIDELITY_BREAK') == 'drop-last-insn':
            # the check's own test: the shape of a decoder losing the end
            with open(ours) as f:
                lines = f.readlines()
            with open(ours, 'w') as f:
                f.writelines(lines[:-1])
        per, first = diff_count(lipt, ours)
        self.info['insns'] = sum(1 for _ in open(lipt))
        self.info['ours_insns'] = sum(1 for _ in open(ours))
        self.res['insns'] = sum(per.values())
        if per:
            self.notes['insns'] = first
        # (b)
        if tool.perf:
            data = os.path.join(d, 'perf.data')
            self.perf_data(tool, data)
            ptxt = os.path.join(d, 'perf.txt')
            run(['perf', 'script', '-f', '-i', data, '--itrace=cre', '-F', '+flags'], ptxt)
            RESYNC_IPS.clear()
            ptoks, self.res['perf-errors'], self.info['thunk'] = \
                perf_events(ptxt, self.enables(), self.namer())
            pins = os.path.join(d, 'perf.insns')
            p = run(['perf', 'script', '-f', '-i', data, '--itrace=i0ns', '-F', 'ip'])
            write_lines(pins, [l.strip() for l in p.stdout.splitlines() if l.strip()])
            pos = perf_positions(ptoks, pins)
            bad, to_libipt = perf_offpath(lipt, pins)
            self.info['perf_insns'] = len(pos) and sum(1 for _ in open(pins))
            otoks = [t[1:] for t in ours_json_by_time(js)]
            if len({t[0] for t in ptoks}) < 2:
                # one thread, or none known: ours in time order, no threads
                otoks = [(0,) + t[2:] for t in sorted(ours_json_by_time(js))]
            # positions follow the tokens through the regrouping by thread
            ptoks = by_thread([(t[0], t[1], p, t[3], t[4]) for t, p in zip(ptoks, pos)])
            pos, fnames, plines = [x[1] for x in ptoks], [x[2] for x in ptoks], \
                [x[3] for x in ptoks]
            otoks = by_thread(otoks)
            if os.environ.get('PTS_FIDELITY_BREAK') == 'drop-a-call':
                # the check's own test: a call the timeline lost
                del otoks[next(k for k, t in enumerate(otoks) if t[0].startswith('call '))]
            ptoks, otoks, olines = [x[0] for x in ptoks], [t[0] for t in otoks], \
                [t[1] for t in otoks]
            unmatched = {}	# function -> perf returns the timeline lacks
            write_lines(os.path.join(d, 'perf.ev'), ptoks)
            write_lines(os.path.join(d, 'ours.ev'), otoks)
            per, resync, where = {}, 0, []
            # IP -> disables (asynchronous, system calls) the timeline
            # showed where perf had lost its way: the trace start that
            # resumes there pairs with nothing perf showed
            lost_disables = {}
            hf = open(os.path.join(d, 'perf.hunks'), 'w')
            for at, pa, pb, ob in diff_hunks(os.path.join(d, 'perf.ev'),
                                             os.path.join(d, 'ours.ev')):
                hf.write(''.join(['< %s\n' % x for x in pa] + ['> %s\n' % x for x in pb]) + '--\n')
                # Branch events count only where perf's instruction flow is
                # libipt's: elsewhere perf followed a wrong path (and
                # noticed it with a decode error, or not) or skipped code
                # while it resynchronised. What it lost there is "lost".
                first_tok = at - 1 if pa else at	# 0-based; 'a' hunks insert after line at
                lo = pos[max(first_tok - 1, 0)] if pos else 0
                # The event after the hunk is a branch at perf's instruction
                # hi whose target is the instruction after it: where perf
                # took a wrong target (a RET that perf's return stack sent
                # elsewhere), the hunk's neighbour is off the path too. An
                # insertion past perf's last event reaches perf's end.
                hi = pos[first_tok + len(pa)] + 1 if first_tok + len(pa) < len(pos) else 1 << 62
                begins = [int(t.split()[1], 16) for t in pa if t.startswith('begin ')]
                lost_disable = pa and not pb and len(begins) == len(pa) and all(
                    ip in RESYNC_IPS or lost_disables.get(ip) for ip in begins)
                if 'error' in pa or lost_disable or \
                        any(b_lo <= hi and lo <= b_hi for b_lo, b_hi in bad):
                    resync += len(pa) + len(pb) - pa.count('error')
                    for ip in begins if lost_disable else []:
                        if lost_disables.get(ip):
                            lost_disables[ip] -= 1
                    for t in pb:
                        kind, _, ip = t.partition(' ')
                        if kind in ('async', 'syscall'):
                            # a system call resumes after its 2 bytes
                            ip = int(ip, 16) + (2 if kind == 'syscall' else 0)
                            lost_disables[ip] = lost_disables.get(ip, 0) + 1
                    continue
                for tok in pa + pb:
                    k = tok.split(' ', 1)[0]
                    per[k] = per.get(k, 0) + 1
                for i, tok in enumerate(pa):
                    if tok == 'return':
                        f = fnames[first_tok + i]
                        unmatched[f] = unmatched.get(f, 0) + 1
                if len(where) < 3:
                    where.append(self.where(first_tok, len(pa), ob, len(pb), plines,
                                            olines, pos, to_libipt))
            hf.close()
            self.info['calls'] = sum(1 for t in ptoks if t.startswith('call'))
            self.info['returns'] = sum(1 for t in ptoks if t == 'return')
            self.info['resync'] = resync
            self.res['calls'] = per.get('call', 0)
            self.res['returns'] = per.get('return', 0)
            self.res['events'] = sum(v for k, v in per.items() if k not in ('call', 'return'))
            if where:
                top = sorted(unmatched.items(), key=lambda x: -x[1])[:4]
                text = '\n'.join(where) + (
                    '\n    perf returns the timeline lacks, by function: ' +
                    ', '.join('%s %d' % x for x in top) if top else '')
                for c in ('calls', 'returns', 'events'):
                    self.notes[c] = text
            errs = [l for t, l in zip(ptoks, plines) if t == 'error']
            if errs:
                self.notes['perf-errors'] = 'perf: ' + errs[0]
        # (c)
        self.nesting(tool, d)

    def nesting(self, tool, d):
        pass

    def where(self, i, n, j, m, plines, olines, pos, to_libipt):
        """A difference of (b) as a failure shows it: perf's events i..i+n
        and the timeline's j..j+m (0-based), each with the event before
        them, perf's instruction there and, when the stream has one, the
        ground truth's records at that instruction."""
        out = ['    at perf event %d of %d, timeline event %d of %d:'
               % (i + 1, len(plines), j + 1, len(olines))]
        for k in range(max(i - 1, 0), min(i + max(n, 1), len(plines))):
            out.append('      perf %s %6d: %s' % ('<' if k >= i and n else ' ', k + 1, plines[k]))
        for k in range(max(j - 1, 0), min(j + max(m, 1), len(olines))):
            if k == j and not m:
                out.append('      ours >         (nothing before the next one)')
            out.append('      ours %s %6d: %s' % ('>' if k >= j and m else ' ', k + 1, olines[k]))
        at = pos[min(i, len(pos) - 1)] if pos else None
        lipt = to_libipt(at) if at is not None else None
        if at is not None:
            out.append('      perf instruction %d: %s' % (at + 1, 'libipt instruction %d'
                                                          % (lipt + 1) if lipt is not None
                                                          else 'not on libipt\'s path'))
        truth = self.truth_near(lipt) if lipt is not None else None
        if truth:
            out.append('      ground truth: ' + ' | '.join(truth))
        return '\n'.join(out)

    def truth_near(self, insn):
        """Records of the ground truth around its instruction `insn`."""
        return None

    def enables(self):
        return None

    def namer(self):
        return None


class Bundle(Stream):
    """A reference-encoder bundle (ptsynth run, qemu-trace) with its ground truth."""

    def __init__(self, name, path, exe, desc, names=None):
        super().__init__(name, desc)
        self.path, self.exe, self.names = path, exe, names
        with open(os.path.join(path, 'manifest.json')) as f:
            self.manifest = json.load(f)

    def namer(self):
        """Kernel addresses named from the bundle's kallsyms, when it has
        one (perf sees the kernel text as raw bytes)."""
        ks = os.path.join(self.path, 'kernel', 'kallsyms')
        if not os.path.exists(ks):
            return None
        syms = []
        with open(ks) as f:
            for line in f:
                p = line.split()
                if len(p) >= 3:
                    syms.append((int(p[0], 16), p[2]))
        syms.sort()
        addrs = [a for a, _ in syms]

        def name(ip, perf_name):
            i = bisect.bisect_right(addrs, ip) - 1
            return syms[i][1] if ip >= KERNEL_HALF and i >= 0 else perf_name
        return name

    def enables(self):
        """(IP, thread) of every enable of the ground truth, in order."""
        out, tid = [], 0
        with open(os.path.join(self.path, 'ground-truth.txt')) as f:
            for line in f:
                if line.startswith('t '):
                    tid = int(line.split()[1], 16)
                elif line.startswith('e '):
                    out.append((int(line.split()[1], 16), tid))
        # before its first "t" record the trace runs the first thread
        first = next((t for _, t in out if t), 0)
        return [(ip, t or first) for ip, t in out]

    def truth_near(self, insn):
        # libipt's instructions are the ground truth's "i" records (ptsynth
        # check compares them): the records from 3 before to 3 after
        gt = os.path.join(self.path, 'ground-truth.txt')
        if not os.path.exists(gt):
            return None
        with open(gt) as f:
            lines = f.read().splitlines()
        n = -1
        for k, l in enumerate(lines):
            n += l.startswith('i ')
            if n == insn:
                return ['%d: %s' % (x + 1, lines[x])
                        for x in range(max(k - 3, 0), min(k + 4, len(lines)))]
        return None

    def libipt_list(self, tool, out):
        # ptsynth check also compares libipt with the ground truth: the
        # oracles must agree (a snapshot's cut ground truth is not checked
        # here; its nesting comparison is).
        p = run([tool.ptsynth, 'check', '--insn-list', out, self.path], ok=(0, 1))
        if p.returncode and not isinstance(self, Snapshot):
            raise RuntimeError('libipt does not give the ground truth (the reference is '
                               'wrong, see 40-ptsynth-selfcheck): ' + p.stderr.strip())

    def decode(self, tool, args):
        run([tool.ptscope, 'decode', self.path] + args, ok=(0, 3))

    def images(self):
        gt = os.path.join(self.path, 'ground-truth.txt')
        with open(gt) as f:
            for line in f:
                if line.startswith('m '):
                    _, start, end, pgoff, file = line.split()
                    yield (os.path.abspath(os.path.join(self.path, file)), int(start, 16),
                           int(pgoff, 16), int(end, 16) - int(start, 16))

    def perf_data(self, tool, out):
        m, t = self.manifest, self.manifest['timing']
        ctl = int(m['config']['rtit_ctl'], 16)
        proc = (m.get('processes') or [{}])[0]
        pid, comm = proc.get('pid', 1), proc.get('comm') or 'prog'
        cmd = [sys.executable, tool.mkperfdata, '-o', out, '--pt',
               os.path.join(self.path, m['cpus'][0]['file']), '--cpu', '0',
               '--pid', str(pid), '--comm', comm,
               '--cpu-model', '%d/%d/%d' % (m['cpu']['family'], m['cpu']['model'],
                                            m['cpu']['stepping']),
               '--mtc-freq', str(t['mtc_freq']), '--nom-freq', str(t['nom_freq']),
               '--tsc-ctc', '%d/%d' % (int(t['cpuid_15'][1], 16), int(t['cpuid_15'][0], 16))]
        cmd += [] if ctl & (1 << 10) else ['--no-tsc']
        cmd += [] if ctl & (1 << 9) else ['--no-mtc']
        cmd += ['--cyc'] if ctl & (1 << 1) else []
        cmd += ['--noretcomp'] if ctl & (1 << 11) else []
        for path, start, pgoff, size in self.images():
            if start >= KERNEL_HALF:
                # kernel text (whole-system bundles): perf reads it from
                # the kcore directory mkperfdata.py makes (raw bytes)
                assert pgoff == 0
                cmd += ['--kernel-image', '%s:%#x' % (path, start)]
            else:
                cmd += ['--image', '%s:%#x:%#x:%#x' % (path, start, pgoff, size)]
        run(cmd)

    def nesting(self, tool, d):
        if not self.exe:
            return
        exe = os.path.realpath(self.exe)
        txt = os.path.join(d, 'ours.txt')
        self.decode(tool, ['-o', txt])
        env = dict(os.environ, PTS_CALLSTRUCTURE_FRAMES=os.path.join(d, 'frames'))
        subprocess.run(['perl', tool.callstructure, os.path.join(self.path, 'ground-truth.txt'),
                        self.path + '/objects' + exe, exe, txt] +
                       ([self.names] if self.names else []), env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        gt, tl = os.path.join(d, 'frames.gt'), os.path.join(d, 'frames.tl')
        if not os.path.exists(gt):
            raise RuntimeError('callstructure.pl wrote no frames for ' + self.name)
        _, first = diff_count(gt, tl)
        self.info['frames'] = sum(1 for _ in open(gt))
        # A comparison of nothing passes whatever the decoder does: a
        # stream with an executable to compare must have stacks of it
        # (an executable named wrong, symbols that did not load, a bias
        # read wrong all gave 0 with 0 before: docs/fidelity.md).
        if not self.info['frames']:
            raise RuntimeError('(c) compared 0 stacks: no call into a function of %s in the '
                               'ground truth (name no executable for a stream without '
                               'its frames)' % self.exe)
        self.res['nesting'] = _changed(gt, tl)
        if self.res['nesting']:
            self.notes['nesting'] = first


def _changed(a, b):
    """Stacks that differ: per diff hunk, the larger of its two sides."""
    p = subprocess.run(['diff', a, b], stdout=subprocess.PIPE, text=True)
    n, la, lb = 0, 0, 0
    for line in p.stdout.splitlines() + ['@']:
        if line.startswith('< '):
            la += 1
        elif line.startswith('> '):
            lb += 1
        elif line != '---':
            n += max(la, lb)
            la = lb = 0
    return n


# ground-truth classes whose outcome or target only trace can tell
NEEDS_TRACE = ('jcc', 'ret', 'jmp-ind', 'call-ind', 'far')


class Snapshot(Bundle):
    """A reference-encoder bundle cut at a PSB: a trace that stops while
    tracing is enabled, without a disable, as every snapshot does."""

    def __init__(self, name, src, exe, fraction, work, desc):
        dst = os.path.join(work, name + '.ptscope')
        shutil.rmtree(dst, ignore_errors=True)
        os.makedirs(dst)
        for f in os.listdir(src):
            if f not in ('manifest.json', 'cpu0.pt', 'ground-truth.txt'):
                os.symlink(os.path.abspath(os.path.join(src, f)), os.path.join(dst, f))
        with open(os.path.join(src, 'ground-truth.txt')) as f:
            gt = f.readlines()
        size = os.path.getsize(os.path.join(src, 'cpu0.pt'))
        psbs = [int(l.split()[1], 16) for l in gt if l.startswith('p ')]
        cut = min((p for p in psbs if p > 0), key=lambda p: abs(p - fraction * size))
        with open(os.path.join(src, 'cpu0.pt'), 'rb') as f:
            data = f.read()[:cut]
        with open(os.path.join(dst, 'cpu0.pt'), 'wb') as f:
            f.write(data)
        # The ground truth up to the cut (what ran while those bytes were
        # written), then the instructions a decoder walks through after the
        # last packet without needing trace, up to and including the first
        # that needs some (docs/decode.md: libipt's decoders walk that far;
        # they did run).
        with open(os.path.join(dst, 'ground-truth.txt'), 'w') as f:
            past, walking = False, True
            for l in gt:
                if not past and l.startswith('p ') and int(l.split()[1], 16) == cut:
                    past = True
                if not past or l[0] in 'mw#':
                    f.write(l)
                elif walking and l.startswith('i '):
                    f.write(l)
                    walking = l.split()[2] not in NEEDS_TRACE
        with open(os.path.join(src, 'manifest.json')) as f:
            m = json.load(f)
        m['cpus'][0]['size'] = m['cpus'][0]['head'] = cut
        m['ground_truth']['size'] = os.path.getsize(os.path.join(dst, 'ground-truth.txt'))
        with open(os.path.join(dst, 'manifest.json'), 'w') as f:
            json.dump(m, f, indent=2)
        super().__init__(name, dst, exe, desc + ' (cut at byte %d of %d)' % (cut, size))


class Raw(Stream):
    """A raw stream with its code: libipt-encoded streams, real captures."""

    def __init__(self, name, desc, pt, images, decode_args, perf_args, cpu_model=None):
        super().__init__(name, desc)
        self.pt, self.imgs = pt, images		# images: (path, vaddr, pgoff, size)
        self.decode_args, self.perf_args, self.cpu_model = decode_args, perf_args, cpu_model

    def libipt_list(self, tool, out):
        cmd = [tool.ptsynth, 'check', '--pt', self.pt, '--insn-list', out]
        for path, vaddr, pgoff, size in self.imgs:
            cmd += ['--image', '%s:%#x:%#x:%#x' % (path, vaddr, pgoff, size)]
        if self.cpu_model:
            cmd += ['--cpu-model', self.cpu_model]
        run(cmd)

    def decode(self, tool, args):
        run([tool.ptscope, 'decode', '--pt', self.pt] + self.decode_args + args, ok=(0, 3))

    def perf_data(self, tool, out):
        run([sys.executable, tool.mkperfdata, '-o', out, '--pt', self.pt] + self.perf_args)


def elf_exec_segments(path):
    """Executable PT_LOAD segments of an ELF64: (vaddr, offset, filesz)."""
    with open(path, 'rb') as f:
        h = f.read(64)
        phoff, = struct.unpack_from('<Q', h, 32)
        phentsize, phnum = struct.unpack_from('<HH', h, 54)
        f.seek(phoff)
        ph = f.read(phentsize * phnum)
    for i in range(phnum):
        typ, flags, off, vaddr, _, filesz = struct.unpack_from('<IIQQQQ', ph, i * phentsize)
        if typ == 1 and flags & 1:
            yield vaddr, off, filesz


# ---- the table and the allow-list ----------------------------------------

def read_allow(path):
    allow = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            parts = line.split(None, 2)
            if len(parts) < 3 or parts[1] not in CHECKS:
                sys.exit('%s:%d: want "STREAM CHECK REASON", CHECK one of %s'
                         % (path, n, ', '.join(CHECKS)))
            allow[(parts[0], parts[1])] = parts[2]
    return allow


def fmt(v):
    return '-' if v is None else str(v)


def report(streams, allow, markdown=None):
    hdr = ('stream', 'insns', 'insn diff', 'calls', 'returns', 'thunk RETs', 'call diff',
           'ret diff', 'event diff', 'perf errs', 'lost', 'frames', 'nest diff')
    rows = []
    for s in streams:
        r, i = s.res, s.info
        rows.append((s.name, fmt(i.get('insns')), fmt(r.get('insns')), fmt(i.get('calls')),
                     fmt(i.get('returns')), fmt(i.get('thunk')), fmt(r.get('calls')),
                     fmt(r.get('returns')),
                     fmt(r.get('events')), fmt(r.get('perf-errors')), fmt(i.get('resync')),
                     fmt(i.get('frames')),
                     fmt(r.get('nesting'))))
    if markdown:
        with open(markdown, 'w') as f:
            for x in [hdr, ['---'] * len(hdr)] + rows:
                f.write('| ' + ' | '.join(x) + ' |\n')
    w = [max(len(x[c]) for x in rows + [hdr]) for c in range(len(hdr))]
    line = lambda x: '  '.join(v.rjust(w[c]) if c else v.ljust(w[c]) for c, v in enumerate(x))
    print('fidelity: ' + line(hdr))
    for x in rows:
        print('fidelity: ' + line(x))
    bad = 0
    ran = {s.name for s in streams}
    for s in streams:
        for c in CHECKS:
            v = s.res.get(c)
            why = allow.get((s.name, c))
            exact = re.search(r'\bexactly (\d+)\b', why or '')
            most = re.search(r'\bat most (\d+)\b', why or '')
            if v and most and v > int(most.group(1)):
                # a count that varies, bounded: more is a decoder that lost more
                n = s.notes.get(c, '')
                print('  UNEXPLAINED %s %s: %d differences, the allow-list says at most %s; '
                      'first:%s' % (s.name, c, v, most.group(1), ('\n' if '\n' in n else ' ') + n))
                bad += 1
            elif v and exact and v != int(exact.group(1)):
                # a count the program fixes: more or fewer is a change
                n = s.notes.get(c, '')
                print('  UNEXPLAINED %s %s: %d differences, the allow-list says exactly %s; '
                      'first:%s' % (s.name, c, v, exact.group(1), ('\n' if '\n' in n else ' ') + n))
                bad += 1
            elif v and why:
                print('  %s %s: %d, %s' % (s.name, c, v, why))
            elif v:
                n = s.notes.get(c, '')
                print('  UNEXPLAINED %s %s: %d differences; first:%s'
                      % (s.name, c, v, ('\n' if '\n' in n else ' ') + n))
                bad += 1
            elif why and v == 0 and 'varies' not in why:
                # a difference that no longer shows: its entry must go
                print('  STALE %s %s: no difference any more: remove "%s" from the allow-list'
                      % (s.name, c, why))
                bad += 1
            elif why and v == 0:
                print('  %s %s: no difference this run (allowed: %s)' % (s.name, c, why))
    for (name, c), why in allow.items():
        if name not in ran:
            print('  (not run here: %s %s)' % (name, c))
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--build', required=True)
    ap.add_argument('--work', required=True)
    ap.add_argument('--allow', required=True)
    ap.add_argument('--shared')
    ap.add_argument('--bundle', action='append', default=[])
    ap.add_argument('--snapshot', action='append', default=[])
    ap.add_argument('--dynamorio', action='store_true')
    ap.add_argument('--synth-example', action='store_true')
    a = ap.parse_args()

    here = os.path.dirname(os.path.abspath(__file__))

    class Tools:
        ptscope = os.path.join(a.build, 'ptscope')
        ptsynth = os.path.join(a.build, 'ptsynth')
        callstructure = os.path.join(here, '..', 'ptsynth', 'callstructure.pl')
        mkperfdata = os.path.join(a.shared, 'tools', 'mkperfdata.py') if a.shared else None
        perf = bool(a.shared) and shutil.which('perf') is not None
    os.makedirs(a.work, exist_ok=True)
    streams = []
    for spec in a.bundle:
        name, rest = spec.split('=', 1)
        path, _, exe = rest.partition(':')
        exe, _, names = exe.partition(':')
        streams.append(Bundle(name, path, exe or None, 'reference encoder', names or None))
    for spec in a.snapshot:
        name, rest = spec.split('=', 1)
        path, exe, frac = rest.split(':')
        streams.append(Snapshot(name, path, exe, float(frac), a.work,
                                'reference encoder, snapshot end'))
    if a.dynamorio:
        r = os.path.join(a.shared, 'data', 'real', 'dynamorio-hello')
        streams.append(Raw('dynamorio-hello', 'real capture (perf, Skylake-SP)',
                           os.path.join(r, 'pt.bin'),
                           [(os.path.join(r, 'hello'), 0x401000, 0x1000, 0x27)],
                           ['--cpu', '9', '--elf', os.path.join(r, 'hello'), '--cpu-model',
                            '6/85/4', '--mtc-freq', '3', '--nom-freq', '37', '--cpuid-15',
                            '2,308', '--scope', 'user'],
                           ['--cpu', '9', '--image', os.path.join(r, 'hello') + ':0x401000:0x1000:0x27',
                            '--pid', '223991', '--comm', 'hello', '--cpu-model', '6/85/4',
                            '--mtc-freq', '3', '--nom-freq', '37', '--tsc-ctc', '308/2'],
                           '6/85/4'))
    if a.synth_example:
        streams += synth_example(a.shared, a.work)
    bad = 0
    for s in streams:
        try:
            s.compare(Tools, a.work)
        except (RuntimeError, OSError) as e:
            print('  ERROR %s: %s' % (s.name, e))
            bad += 1
    if not Tools.perf:
        print('fidelity: perf comparison skipped: %s' % (
            'no ../shared (mkperfdata.py)' if not a.shared else 'perf not installed'))
    bad += report(streams, read_allow(a.allow), os.path.join(a.work, 'table.md'))
    print('fidelity: %d streams, %s' % (len(streams),
                                         'every difference explained' if not bad
                                         else '%d unexplained or stale' % bad))
    return 1 if bad else 0


def synth_example(shared, work):
    """The libipt-encoded streams of ../shared/tools/synth-example: user
    scope, and user + kernel scope over the kernel stub."""
    x = os.path.join(shared, 'tools', 'synth-example')
    d = os.path.abspath(os.path.join(work, 'synth-example'))
    os.makedirs(d, exist_ok=True)
    run(['as', '-o', d + '/prog.o', x + '/prog.S'])
    run(['ld', '-static', '-Ttext=0x401000', '-e', '_start', '-o', d + '/prog', d + '/prog.o'])
    run(['as', '-o', d + '/kernel.o', x + '/kernel.S'])
    run(['ld', '-static', '-Ttext=0xffffffff81000000', '-e', 'entry_SYSCALL_64', '-o',
         d + '/kernel.elf', d + '/kernel.o'])
    run(['cc', '-O2', '-o', d + '/gen', x + '/gen.c', '-lipt'])

    def sym(elf, name):
        out = run(['nm', elf]).stdout.split('\n')
        return next(l.split()[0] for l in out if l.endswith(' ' + name))
    start, after, f3 = (sym(d + '/prog', s) for s in ('_start', 'after_syscall', 'f3'))
    kentry = sym(d + '/kernel.elf', 'entry_SYSCALL_64')
    run([d + '/gen', 'user', '0x' + start, '0x' + after, '0x' + f3], d + '/user.pt')
    run([d + '/gen', 'kernel', '0x' + start, '0x' + after, '0x' + f3, '0x' + kentry],
        d + '/kern.pt')
    imgs = [(d + '/prog', v, o, s) for v, o, s in elf_exec_segments(d + '/prog')]
    kimgs = [(d + '/kernel.elf', v, o, s) for v, o, s in elf_exec_segments(d + '/kernel.elf')]
    perf = ['--cpu', '0', '--image', '%s/prog:0x%s' % (d, start), '--pid', '4242', '--comm',
            'prog', '--no-mtc', '--nom-freq', '37']
    return [Raw('synth-user', 'libipt encoder, user scope', d + '/user.pt', imgs,
                ['--elf', d + '/prog', '--nom-freq', '37', '--scope', 'user'], perf),
            Raw('synth-kernel', 'libipt encoder, user + kernel', d + '/kern.pt', imgs + kimgs,
                ['--elf', d + '/prog', '--elf', d + '/kernel.elf', '--nom-freq', '37',
                 '--scope', 'both'], perf + ['--kernel-image', d + '/kernel.elf'])]


if __name__ == '__main__':
    sys.exit(main())
