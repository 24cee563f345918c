# Hand-written ground truths for the ground-truth reader
# (tests/ptsynth/callstructure.pl), sourced by the 44-callstructure-*
# checks: a tiny program whose functions' addresses the hand-written
# records name, so that the reader can name the frames.
#
# handgt_prog DIR NAME...: builds DIR/prog (not PIE: no load bias), main
#   calling each function NAME (noinline, 64 bytes of NOPs); sets a shell
#   variable per NAME and main to its address (hex, no 0x) and
#   handgt_head to a ground truth's first lines (thread 1, the
#   executable's code mapping).
# hx ADDR N: ADDR (hex) + N, in hex.

hx() { printf '%x' $((0x$1 + $2)); }

handgt_prog() {
	local dir=$1 f off va sz
	shift
	{
		echo '#define F(n) __attribute__((noinline)) void n(void) { __asm__ volatile(".fill 64, 1, 0x90"); }'
		for f in "$@"; do echo "F($f)"; done
		echo 'int main(void) {'
		for f in "$@"; do echo "	$f();"; done
		echo '	return 0; }'
	} > "$dir/prog.c"
	gcc -O1 -no-pie -o "$dir/prog" "$dir/prog.c"
	for f in main "$@"; do
		eval "$f=\$(nm \"\$dir/prog\" | awk -v n=\"\$f\" '\$3 == n { print \$1 }')"
	done
	read -r off va sz < <(readelf -lW "$dir/prog" |
		awk '$1 == "LOAD" && / E / { print $2, $3, $5; exit }')
	handgt_head="# ptsynth ground truth 1
t 1
m $(printf '%x %x %x' $((va & ~0xfff)) $(((va + sz + 0xfff) & ~0xfff)) $((off & ~0xfff))) objects/prog"
}
