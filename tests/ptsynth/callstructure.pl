#!/usr/bin/perl
# Compares the call structure of a ptsynth ground truth with a ptscope
# decode text listing (docs/output-formats.md, `.txt`):
#   callstructure.pl GROUND_TRUTH EXE_COPY EXE_PATH DECODE.txt [NAMES]
# Functions of interest are the executable's own function symbols (nm).
# NAMES: the unstripped twin of a stripped executable (the same code,
# with its symbol table): the names come from it, and in the listing an
# unnamed function of the executable, "[unknown] 0xADDR (EXE)", is the
# twin's function at ADDR (so the decoder's function starts are checked
# too: a start that is no function's is compared as no function). The
# decoder names code of no symbol by the address where it was entered
# ("[unknown] 0xADDR (EXE)"), an unnamed function (a stripped object's
# FDE) by its start.
# From the ground truth: every CALL whose target is such a function
# starts a frame (the return address is the call's IP + SIZE); a RET pops
# to the frame whose return address it reaches (longjmp and exceptions
# unwind several; with the stack pointer recorded at each CALL, frames
# whose stack was released are dropped at the next call); a jump (or a
# taken conditional branch) to a function's entry replaces the top frame
# (tail calls, PLT stubs), one between a function and its cold part
# (foo.cold) keeps it, and one out of the top frame's function to no
# entry leaves a frame of no function of interest (the timeline names it
# foo+0xNN). A signal handler (tracing enabled elsewhere
# than where the thread left for the kernel: after its system call, or
# where it was interrupted) is a frame nested where the signal was
# delivered; tracing enabled again where that delivery left (after
# rt_sigreturn) ends it and every frame above it (a handler that left by
# siglongjmp is gone by its stack pointer, as other released frames).
# From the listing: every "call >" line. Both give a sequence of
# (function, number of open frames of interest, those frames' names from
# the outermost): they must be equal, frame by frame. The total number of
# calls must match in any case. Exit 0 on match.
use strict;
use warnings;
no warnings qw(portable);

my ($gt_path, $exe_copy, $exe_path, $txt, $names) = @ARGV;
die "usage: $0 GT EXE_COPY EXE_PATH DECODE.txt [NAMES]\n" unless defined $txt;

# Load bias of the executable: its first image section in the ground
# truth (its code mapping), start - pgoff, less p_vaddr - p_offset of the
# executable PT_LOAD in the bytes it maps (GNU ld's PIE layout has
# p_vaddr == p_offset; lld packs its segments in the file, so its code
# begins mid-page at a higher p_vaddr); a non-PIE executable has none.
my ($bias, $map_off, $map_len);
open(my $g, '<', $gt_path) or die "$gt_path: $!\n";
while (<$g>) {
	if (/^m (\S+) (\S+) (\S+) objects(\S+)$/ && $4 eq $exe_path && !defined $bias) {
		$bias = hex($1) - hex($3);
		($map_off, $map_len) = (hex($3), hex($2) - hex($1));
	}
}
close $g;
die "no image section of $exe_path in $gt_path\n" unless defined $bias;
{
	open(my $r, '-|', 'readelf', '-lW', $exe_copy) or die "readelf: $!\n";
	while (<$r>) {
		# "LOAD OFFSET VADDR PADDR FILESZ MEMSZ FLAGS ALIGN"
		next unless /^\s*LOAD\s+(0x\S+)\s+(0x\S+)\s+\S+\s+(0x\S+)\s+\S+\s+(.*\S)\s+0x\S+$/;
		my ($off, $va, $fsz, $fl) = (hex($1), hex($2), hex($3), $4);
		next unless $fl =~ /E/ && $fsz && $off < $map_off + $map_len && $map_off < $off + $fsz;
		$bias -= $va - $off;
		last;
	}
	close $r;
}
# A non-PIE executable (ELF e_type ET_EXEC) is linked at its addresses.
{
	open(my $e, '<:raw', $exe_copy) or die "$exe_copy: $!\n";
	read($e, my $hdr, 18) == 18 or die "$exe_copy: not an ELF file\n";
	$bias = 0 if unpack('v', substr($hdr, 16, 2)) == 2;
}

my %sym;	# runtime entry address -> name
my %size;	# runtime entry address -> size in bytes (nm -S), where known
# Names as the decoder prints them: demangled (nm -C uses libiberty, as
# the decoder does). C++ constructor/destructor variants (C1/C2, D0/D1/D2)
# demangle alike and are one name here; a mangled name in the listing is
# mapped to its demangled form.
my (%mangled, %demangled);	# address -> names
my %sized;	# address -> demangled name -> 1 when nm gives it a size
for my $demangle (0, 1) {
	my @cmd = ('nm', '-S', '--defined-only', ($demangle ? ('-C') : ()), $names // $exe_copy);
	open(my $nm, '-|', @cmd) or die "nm: $!\n";
	while (<$nm>) {
		chomp;
		# "ADDR SIZE TYPE NAME", or "ADDR TYPE NAME" for a symbol of no size
		my ($a, $z, $t, $n) = /^(\S+) (\S+) (\S) (.*)$/ ? ($1, $2, $3, $4) :
				      /^(\S+) (\S) (.*)$/ ? ($1, undef, $2, $3) : ();
		next unless defined $n && $t =~ /^[tTwWi]$/;
		push @{($demangle ? \%demangled : \%mangled)->{hex($a) + $bias}}, $n;
		$size{hex($a) + $bias} = hex($z) if defined $z && hex($z);
		$sized{hex($a) + $bias}{$n} = 1 if $demangle && defined $z && hex($z);
	}
	close $nm;
}
my %canon;	# any name -> the name compared
for my $k (keys %demangled) {
	# a function's sized symbol before a label at its address (lld's
	# __preinit_array_end at _start), as the decoder picks; then by name
	my $z = $sized{$k} // {};
	my ($d) = sort { ($z->{$b} // 0) <=> ($z->{$a} // 0) or $a cmp $b } @{$demangled{$k}};
	$sym{$k} = $d;
	$canon{$_} = $_ for @{$demangled{$k}};
	$canon{$_} //= $d for @{$mangled{$k} // []};
}
my %interesting = map { $_ => 1 } keys %canon;
# The executable's functions of known size, by entry address, for
# fn_at: the entry of the function holding an address.
my @starts = sort { $a <=> $b } grep { defined $sym{$_} } keys %size;
sub fn_at {
	my ($ip) = @_;
	my ($lo, $hi) = (0, scalar(@starts));
	while ($lo < $hi) {	# the last start at or below ip
		my $mid = ($lo + $hi) >> 1;
		if ($starts[$mid] <= $ip) { $lo = $mid + 1; } else { $hi = $mid; }
	}
	return undef unless $lo;
	my $s = $starts[$lo - 1];
	return $ip < $s + $size{$s} ? $s : undef;
}
(my $exe_base = $exe_path) =~ s{.*/}{};
# The function a cold part belongs to: "foo" of "foo.cold", "foo.cold.1",
# "foo(int) [clone .cold]"; any other name is its own.
sub hot_part {
	my ($n) = @_;
	$n =~ s/(?:\.cold(?:\.\d+)?| \[clone \.cold(?:\.\d+)?\])$//;
	return $n;
}

# Ground truth, per thread ("t TID" records switch threads). A frame is
# [return address, name of interest or undef, stack pointer after its
# call (the slot of its return address), resume IP of the signal delivery
# that opened it (handlers), entry address of the function named, a call
# to a label just ahead, the slot above which its own stack's frames lie
# when that is not its return slot (below)].
#
# Stack switches (swapcontext, a runtime's own): a RET records the slot
# it read its target from (ptsynth; none in older bundles). The frame it
# ends is the one whose call saved that address in that slot: a RET to
# an address an open frame saved in another slot is no return of that
# frame (another coroutine's call from the same place). A RET that ends
# a frame below the top one leaves the frames above it on a stack of
# their own, kept (a "left" stack, whose first frame ran in place of the
# switch call that started it); a RET that reads a slot of a frame of a
# left stack resumes that stack: its frames run again in place of the
# top frame (the switch call that resumed it), its first frame returning
# where that call would. A stack's code first entered by a RET to a
# function (makecontext's entry) runs in place of the switch call as a
# jump, its frames on their own stack above the slot the RET read.
# Switches that return by a jump (`pop %r8; jmp *%r8`: Boost.Context's
# jump_fcontext) do the same with an indirect JMP, whose record gives the
# slot just below its stack pointer (ptsynth; none in older bundles): a
# JMP to the address a call saved in that slot is taken as a RET that
# read it, and one to a function's first byte (a fiber's first entry)
# runs that function's frames above its stack pointer.
my %gst;
my (@gt_seq, @gt_frames);
my $tid = 'first';
my $gt_calls = 0;

# Stacks of a runtime's own (Go's: a goroutine's stack, a block of the
# heap, and the thread's scheduler stack, g0). A frame entered by a
# switch onto a stack of its own (a JMP or RET to a function's first
# byte whose frames lie above the slot it read, away from the frame it
# takes the place of: gogo's first entry into a goroutine, makecontext's
# into a context) begins that stack: its element 6, the slot above which
# the stack's frames lie, is not its own return slot. switched_base
# gives the newest such frame's index, undef when there is none (a PLT
# stub's or a tail call's JMP to a first byte reads the frame's own
# return slot: no stack of its own).
sub switched_base {
	my ($stack) = @_;
	for (my $i = $#$stack; $i >= 0; $i--) {
		my $f = $stack->[$i];
		return $i if defined $f->[6] && defined $f->[2] && $f->[6] != $f->[2];
	}
	return undef;
}

# A switch away from a stack whose frames stay open under a call on
# another stack (element 7 of the frame that call pushed), by a JMP or
# a RET that enters or resumes another stack: Go's
# mcall(park_m), newstack's gopreempt_m, goexit0 run the scheduler on g0
# from g0.sched.sp, over the scheduler frames of the round before, and
# its gogo then enters or resumes another goroutine. The switched
# stack's frames below that call become a left stack (gogo resumes them
# by a JMP to the address their call of mcall or morestack saved, in
# that slot), and the frames below them whose slots lie at or below the
# call's are released (or one word above it: mcall pushes its function's
# argument slot at g0.sched.sp - 8, over the return address a call there
# saved, and calls below it): the thread's stack is the scheduler's frames
# from that call up (Go's traceback stops at mcall: runtime/traceback.go
# joins a goroutine's frames only under systemstack and morestack).
sub unjoin {
	my ($st) = @_;
	my $stack = $st->{stack};
	my $b = switched_base($stack);
	return unless defined $b;
	my ($j) = grep { $stack->[$_][7] } $b + 1 .. $#$stack;
	return unless defined $j;
	my $k = $b;
	$k-- while $k > 0 && defined $stack->[$k - 1][2] && $stack->[$k - 1][2] <= $stack->[$j][2] + 8;
	push @{$st->{left}}, [map { [@$_] } @$stack[$b .. $j - 1]];
	$stack->[$j][7] = undef;
	splice(@$stack, $k, $j - $k);
}

# Execution arrives at ip: apply the pending call, jump or return.
sub arrive {
	my ($st, $ip) = @_;
	my $stack = $st->{stack};
	if (defined $st->{call}) {
		# A handler's frame lies just above its first call's return slot.
		$stack->[-1][2] = $st->{sp} + 8
			if defined $st->{sp} && @$stack && defined $stack->[-1][3] &&
			   !defined $stack->[-1][2];
		# Frames whose return-address slot is at or below this call's
		# are gone (their stack was released: longjmp, exceptions);
		# but not those of a stack of its own when the call is made
		# above that stack's frames, on another stack: Go's systemstack,
		# morestack and mcall move the stack pointer to the scheduler
		# stack (g0) and call there, the goroutine's frames staying
		# where they are (systemstack returns to them; gogo resumes
		# them), and go on under the call, as Go's traceback joins them
		# (runtime/traceback.go, _TraceJumpStack). Only a call that the
		# top frame's own code makes (systemstack's, morestack's and
		# mcall's own CALL): one from another function's code, where
		# a jump or a RET took the top frame (a longjmp or a
		# siglongjmp out of a coroutine back to main's stack, a
		# goroutine's function's RET to goexit), is made on a stack
		# that the jump restored, and the frames above its slot were
		# released.
		my $b = switched_base($stack);
		my $by = defined $st->{sp} && @$stack && defined $stack->[-1][4] &&
			 (fn_at($st->{call} - 1) // -1) == $stack->[-1][4];
		my $join = $by && defined $b && defined $st->{sp} && $stack->[$b][6] <= $st->{sp};
		if (defined $st->{sp} && !$join) {
			pop @$stack while @$stack && defined $stack->[-1][2] &&
					  ($stack->[-1][6] // $stack->[-1][2]) <= $st->{sp};
			# a left stack whose slot this call reuses is gone
			@{$st->{left}} = grep {
				my $c = $_;
				!grep { defined $c->[$_][2] && $c->[$_][2] == $st->{sp} } 1 .. $#$c
			} @{$st->{left} // []};
		}
		my $name = $sym{$ip};
		if (defined $name) {
			my @path = map { $_->[1] } grep { defined $_->[1] } @$stack;
			push @gt_seq, join("\t", $st->{tid}, $name, scalar(@path), join('>', @path));
			push @gt_frames, "$st->{tid}\t" . join(';', @path, $name);
		}
		# A call to a label just ahead (a retpoline thunk's `call 1f`,
		# the get-PC idiom's `call 1f; 1: pop`) plants a slot its own
		# code uses: flagged, for a RET to no open frame's address.
		my $ahead = $ip >= $st->{call} && $ip <= $st->{call} + 32;
		push @$stack, [$st->{call}, $name, $st->{sp}, undef, $ip, $ahead, undef, $join];
		undef $st->{call};
	}
	# An indirect JMP to the address a call saved, in the slot just below
	# its stack pointer (the slot a `pop %r8; jmp *%r8` popped: Boost's
	# jump_fcontext and other switches that return by a jump), is that
	# frame's return: taken as a RET that read the slot.
	if ($st->{jump} && defined $st->{jslot}) {
		my $slot = $st->{jslot};
		if (grep({ $_->[0] == $ip && defined $_->[2] && $_->[2] == $slot } @$stack)) {
			@$st{qw(jump ret rslot)} = (0, 1, $slot);
			undef $st->{jslot};
		} elsif (grep({ my $c = $_; grep { $c->[$_][0] == $ip && defined $c->[$_][2] &&
					      $c->[$_][2] == $slot } 1 .. $#$c } @{$st->{left} // []})) {
			unjoin($st);
			@$st{qw(jump ret rslot)} = (0, 1, $slot);
			undef $st->{jslot};
		} elsif (defined(my $b = switched_base($stack))) {
			# A stack of its own that its runtime copied (Go's
			# copystack, when morestack grows a goroutine's stack,
			# moves every frame of it by one delta and gogo resumes
			# the function at the address its call of morestack
			# saved, now in the moved slot): a JMP to the address an
			# open frame of that stack saved, no other having saved
			# it in this slot, moves the stack's frames by the delta
			# and is that frame's return. Only a frame whose callee
			# called on the other stack (morestack's call of newstack
			# on g0, above the base): a JMP to the return address of
			# an open frame whose callees ran on its own stack (a jump
			# table's case label just after a recursive call) is no
			# return.
			my $i;
			for ($i = $#$stack; $i > $b; $i--) {
				last if $stack->[$i][0] == $ip && defined $stack->[$i][2];
			}
			if ($i > $b && $i < $#$stack && defined $stack->[$i + 1][2] &&
			    $stack->[$i + 1][2] >= $stack->[$b][6]) {
				my $delta = $slot - $stack->[$i][2];
				$_->[2] += $delta for @$stack[$b + 1 .. $i];
				$stack->[$b][6] += $delta;
				@$st{qw(jump ret rslot)} = (0, 1, $slot);
				undef $st->{jslot};
			}
		}
	}
	if ($st->{jump}) {
		# A jump (or a taken conditional branch) to another function's
		# entry replaces the top frame, as the timeline does (tail calls,
		# PLT stubs, ld.so -> _start); but not one between a function
		# and its cold part (foo.cold, a symbol of its own that GCC
		# splits off): the frame goes on as the same call of foo.
		my $name = $sym{$ip};
		my $at = fn_at($ip);
		my $in = defined $at ? $sym{$at} : $name;
		if (defined $in && @$stack && defined $stack->[-1][1] &&
		    hot_part($in) eq $stack->[-1][1]) {
			# stays foo's frame
		} elsif (defined $name) {
			# a first entry into a stack of its own (not a tail
			# call's, a PLT stub's JMP, which reads the frame's own
			# return slot)
			unjoin($st)
				if defined $st->{jslot} && @$stack && defined $stack->[-1][2] &&
				   $st->{jslot} + 8 != $stack->[-1][2];
			if (@$stack) { @{$stack->[-1]}[1, 4] = ($name, $ip); }
			else { push @$stack, [-1, $name, undef, undef, $ip]; }
			# entered by an indirect JMP (a switch's first entry into a
			# fiber): its own frames lie above the jump's stack pointer
			$stack->[-1][6] = $st->{jslot} + 8 if defined $st->{jslot};
		} elsif (@$stack && defined $stack->[-1][1] && defined $stack->[-1][4] &&
			 $size{$stack->[-1][4]}) {
			# Out of the top frame's function, not to an entry (into
			# another function's middle, back from a cold part, to a
			# PLT stub): the frame now runs code that is no function
			# entered at its first byte, as the timeline names it
			# (foo+0x1c): no frame of interest from here on. (Only
			# where the function's size is known: crtstuff's
			# frame_dummy has none.)
			my $at = fn_at($ip);
			undef $stack->[-1][1] unless defined $at && $at == $stack->[-1][4];
		}
		$st->{jump} = 0;
		undef $st->{jslot};
	}
	if ($st->{ret}) {
		my $i;
		my $slot = $st->{rslot};
		for ($i = $#$stack; $i >= 0; $i--) {
			next unless $stack->[$i][0] == $ip;
			# by its slot where both are known
			next if defined $slot && defined $stack->[$i][2] && $stack->[$i][2] != $slot;
			# the frames above it go on on a stack of their own
			push @{$st->{left}}, [map { [@$_] } @$stack[$i .. $#$stack]]
				if defined $slot && $i < $#$stack;
			splice(@$stack, $i);
			last;
		}
		# A RET that reads the slot of a left stack's frame resumes it.
		if ($i < 0 && defined $slot && @$stack) {
			LEFT: for my $c (reverse 0 .. $#{$st->{left} // []}) {
				my $chain = $st->{left}[$c];
				for my $k (1 .. $#$chain) {
					next unless defined $chain->[$k][2] && $chain->[$k][2] == $slot &&
						    $chain->[$k][0] == $ip;
					splice(@{$st->{left}}, $c, 1);
					unjoin($st);
					my $top = pop @$stack;
					my @res = @$chain[0 .. $k - 1];
					$res[0][6] //= $res[0][2];
					@{$res[0]}[0, 2] = @{$top}[0, 2];
					push @$stack, @res;
					$i = 0;
					last LEFT;
				}
			}
		}
		# A RET to no open frame's return address. After a call to a
		# label just ahead (a retpoline thunk: `call 1f; ...; 1: mov
		# %reg,(%rsp); ret`) it consumes that call's slot and goes on
		# in the frame below, now running the target: as a jump to it
		# from that frame. Otherwise it consumed a slot the frame's
		# code pushed (`push; ret`, a context switch's RET), and the
		# top frame goes on at the target: as a jump to it, as the
		# timeline takes it. A signal handler's RET to __restore_rt (a
		# frame with a resume IP) leaves the handler frame to
		# rt_sigreturn.
		if ($i < 0 && @$stack && !defined $stack->[-1][3]) {
			pop @$stack if $stack->[-1][5];
			my $name = $sym{$ip};
			# a function entered by the RET (makecontext's, push+ret):
			# its own frames lie above the slot read (another stack,
			# or within the frame's)
			unjoin($st)
				if defined $slot && defined $name && @$stack && !$stack->[-1][5] &&
				   defined $stack->[-1][2] && $slot + 8 != $stack->[-1][2];
			$stack->[-1][6] = $slot + 8
				if defined $slot && defined $name && @$stack && !$stack->[-1][5];
			if (defined $name && @$stack) {
				@{$stack->[-1]}[1, 4] = ($name, $ip);
			} elsif (@$stack && !$stack->[-1][5]) {
				my $at = fn_at($ip);
				undef $stack->[-1][1]
					unless defined $at && defined $stack->[-1][4] && $at == $stack->[-1][4];
			}
		}
		$st->{ret} = 0;
	}
}

open($g, '<', $gt_path) or die "$gt_path: $!\n";
while (<$g>) {
	if (/^t (\S+)/) {
		my $n = hex($1);
		# the first thread's records before its "t" belong to it
		if ($tid eq 'first' && $gst{first}) {
			$gst{$n} = delete $gst{first};
			$gst{$n}{tid} = $n;
			s/^first\t/$n\t/ for @gt_seq, @gt_frames;
		}
		$tid = $n;
		next;
	}
	my $st = $gst{$tid} //= { stack => [], tid => $tid };
	my $stack = $st->{stack};
	if (/^d (\S+)/) { $st->{resume} = hex($1) + 2; next; }	# SYSCALL is 2 bytes
	if (/^a (\S+)/) {
		# interrupted before the instruction at IP: execution had got there
		arrive($st, hex($1));
		$st->{resume} = hex($1);
		next;
	}
	if (/^e (\S+)/) {
		my $ip = hex($1);
		my $left = $st->{resume};
		undef $st->{resume};
		# back where the thread left for the kernel
		next if defined $left && $ip == $left;
		my $name = $sym{$ip};
		if (!defined $left) {
			# the trace starts here (the frame-by-frame listing has it)
			push @gt_frames, "$st->{tid}\t$name" if defined $name && !@$stack;
			push @$stack, [-1, $name, undef, undef, $ip] unless @$stack;
			next;
		}
		# Back where a signal delivery left (rt_sigreturn): its handler
		# and everything above it end.
		my $back;
		for (my $i = $#$stack; $i >= 0; $i--) {
			next unless defined $stack->[$i][3] && $stack->[$i][3] == $ip;
			splice(@$stack, $i);
			$back = 1;
			last;
		}
		next if $back;
		# Elsewhere: a handler (a trace_begin in the timeline, not a call).
		if (defined $name) {
			my @open = map { $_->[1] } grep { defined $_->[1] } @$stack;
			push @gt_frames, "$st->{tid}\t" . join(';', @open, $name);
		}
		push @$stack, [-1, $name, undef, $left, $ip];
		next;
	}
	next unless /^i (\S+) (\S+)(?: (\S+))?(?: (\S+))?/;
	my ($ip, $class, $size, $sp) = (hex($1), $2, $3, defined $4 ? hex($4) : undef);
	arrive($st, $ip);
	if ($class eq 'call' || $class eq 'call-ind') {
		$st->{call} = $ip + $size;
		$st->{sp} = $sp;
		$gt_calls++;
	}
	if ($class eq 'ret') {
		$st->{ret} = 1;
		$st->{rslot} = $sp;
	}
	$st->{jump} = 1 if $class eq 'jmp' || $class eq 'jmp-ind' || $class eq 'jcc';
	$st->{jslot} = $sp if $class eq 'jmp-ind';
}
close $g;
# Decode listing: "ts cpu pid/tid depth kind event", event "> name+0xOFF (obj)".
my (@tl_seq, @tl_frames, %frames);
my $tl_calls = 0;
open(my $t, '<', $txt) or die "$txt: $!\n";
while (<$t>) {
	next if /^#/;
	my ($ts, $cpu, $pt, $depth, $kind, $rest) = split(' ', $_, 6);
	next unless defined $rest && $rest =~ /^> (.*)$/;
	my $name = $1;
	my ($ltid) = $pt =~ m{/(\d+)$};
	next unless defined $ltid;
	my $frames = $frames{$ltid} //= [];
	# Frames the timeline inferred (a return past its known stack) are
	# its own guesses: they never count as frames of interest.
	my $inferred = $name =~ s/\s*\[(inferred|synthetic)\]\s*$//;
	my $obj = $name =~ s/ \(([^()]*)\)\s*$// ? $1 : '';
	# Only entries of the executable's own functions (no offset: the
	# .txt writes none at offset 0): PLT stubs show as _init+0xNN,
	# other objects have their own _init.
	my $entry = $name !~ /\+0x[0-9a-fA-F]+$/ && $obj eq $exe_base;
	$name =~ s/\+0x[0-9a-fA-F]+$//;
	# a stripped executable's function, named by its address (NAMES)
	$name = $sym{hex($1)} // $name
		if defined $names && $entry && $name =~ /^\[unknown\] 0x([0-9a-f]+)$/;
	$name .= "\@$obj" unless $entry;
	$name = "[inferred] $name" if $inferred;
	$#$frames = $depth - 1 if $depth <= $#$frames + 1;
	if ($kind eq 'call') {
		$tl_calls++;
		if ($entry && $interesting{$name}) {
			my @path = map { $canon{$_} } grep { defined $_ && $interesting{$_} } @$frames;
			push @tl_seq, join("\t", $ltid, $canon{$name}, scalar(@path), join('>', @path));
			push @tl_frames, "$ltid\t" . join(';', @path, $canon{$name});
		}
	}
	if ($kind eq 'trace_begin' && $entry && $interesting{$name}) {
		my @open = map { $canon{$_} } grep { defined $_ && $interesting{$_} } @$frames;
		push @tl_frames, "$ltid\t" . join(';', @open, $canon{$name});
	}
	$frames->[$depth] = $name;
}
close $t;

# Compare thread by thread, in order of first appearance.
my $by_tid = sub {
	my (%seen, @order, %per);
	for (@_) {
		my ($tid, $rest) = split(/\t/, $_, 2);
		push @order, $tid unless $seen{$tid}++;
		push @{$per{$tid}}, $rest;
	}
	return map { my $k = $_; map { "$k\t$_" } @{$per{$k}} } sort { $a <=> $b } @order;
};
# A ground truth without "t" records (one thread) belongs to the
# timeline's first thread.
if (!grep { !/^first\t/ } @gt_seq, @gt_frames) {
	my ($t0) = map { (split /\t/, $_)[0] } @tl_seq, @tl_frames;
	if (defined $t0) { s/^first\t/$t0\t/ for @gt_seq, @gt_frames; }
}
@gt_seq = $by_tid->(@gt_seq);
@tl_seq = $by_tid->(@tl_seq);

# PTS_CALLSTRUCTURE_FRAMES=PREFIX: also write, thread by thread, the stack
# of the executable's frames at each call into one of its functions and
# at each signal handler's entry (the callee or handler last), from the
# ground truth to PREFIX.gt and from the timeline to PREFIX.tl, for a
# frame-by-frame comparison (tests/fidelity).
if (my $prefix = $ENV{PTS_CALLSTRUCTURE_FRAMES}) {
	for (['gt', \@gt_frames], ['tl', \@tl_frames]) {
		open(my $o, '>', "$prefix.$_->[0]") or die "$prefix.$_->[0]: $!\n";
		print $o "$_\n" for $by_tid->(@{$_->[1]});
		close $o or die "$prefix.$_->[0]: $!\n";
	}
}

# PTS_CALLSTRUCTURE_DEPTH: "abs" (default) compares the depth counted
# from the start of the trace and the open frames of interest, "main" the
# depth and frames below main (ld.so and libc start-up frames above it
# left out), "0" the function sequence only.
my $strip = sub { map { join "\t", (split /\t/, $_)[0, 1] } @_ };
my $mode = $ENV{PTS_CALLSTRUCTURE_DEPTH} // 'abs';
my $rel = sub {
	my @s = @_;
	my (%m, %seen_main, %first);
	for (@s) {
		my ($t, $n, $d) = split /\t/;
		$m{$t} = $d if !defined $m{$t} && $n eq 'main';
	}
	# Depth below main (threads without main: below their first call);
	# calls before main are start-up code and show as "-".
	return map {
		my ($t, $n, $d, $p) = split /\t/, $_, 4;
		my @p = split />/, $p // '';
		$seen_main{$t} ||= $n eq 'main';
		my $base = defined $m{$t} ? $m{$t} : ($first{$t} //= $d);
		(defined $m{$t} && !$seen_main{$t}) ? "$t\t$n\t-" :
			"$t\t$n\t" . ($d - $base) . "\t" . join('>', @p[$base .. $#p]);
	} @s;
};
my (@a, @b);
if ($mode eq 'abs') { @a = @gt_seq; @b = @tl_seq; }
elsif ($mode eq 'main') { @a = $rel->(@gt_seq); @b = $rel->(@tl_seq); }
else { @a = $strip->(@gt_seq); @b = $strip->(@tl_seq); }
my $what = $mode eq 'abs' ? 'function sequence, depth and open frames' :
	   $mode eq 'main' ? 'function sequence, depth and open frames below main' :
	   'function sequence';
for my $i (0 .. ($#a > $#b ? $#a : $#b)) {
	my ($x, $y) = ($a[$i] // '(end)', $b[$i] // '(end)');
	next if $x eq $y;
	s/\t/ /g for $x, $y;
	print "call $i differs: ground truth '$x', timeline '$y' ($what)\n";
	exit 1;
}
if ($gt_calls != $tl_calls) {
	print "ground truth has $gt_calls calls, the timeline $tl_calls call slices\n";
	exit 1;
}
my %nt = map { (split /\t/, $_)[0] => 1 } @a;
printf "%d calls; %d into the executable's functions in %d thread(s): %s match\n", $gt_calls,
	scalar(@a), scalar(keys %nt), $what;
exit 0;
