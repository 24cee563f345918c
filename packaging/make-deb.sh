#!/usr/bin/env bash
# make deb: builds the ptscope and ptscope-dkms packages with Debian's own
# tools (dpkg-buildpackage, debhelper, dh-dkms) from a copy of the source
# tree in OUTDIR, so the working tree gets no debian/ build files, then
# runs lintian when it is installed: every tag it reports must be one that
# docs/packaging.md ("Lintian") explains, else this fails.
#
#   make-deb.sh OUTDIR      (OUTDIR/*.deb; the copy in OUTDIR/ptscope-VERSION)
#
# Exit status: 0 built (and lintian-clean but for explained tags), 1 failure.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$1
version=$(sed -n 's/^#define PTS_VERSION "\(.*\)"/\1/p' userland/lib/util/version.h)
deb_version=$(dpkg-parsechangelog -S Version 2> /dev/null || sed -n '1s/^ptscope (\([^)]*\)).*/\1/p' debian/changelog)
[ "$deb_version" = "$version" ] ||
	{ echo "make deb: debian/changelog is at $deb_version, the sources at $version (userland/lib/util/version.h)" >&2; exit 1; }
for tool in dpkg-buildpackage dh dh_dkms; do
	command -v "$tool" > /dev/null || { echo "make deb: $tool not found: apt-get install" \
		"dpkg-dev debhelper dh-dkms (and the Build-Depends of debian/control)" >&2; exit 1; }
done

rm -rf "$out"
src=$out/ptscope-$version
mkdir -p "$src"
# the files git knows (tracked, or new and not ignored); else all but build/
if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
	git ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
		tar --null -T - -cf - | tar -xf - -C "$src"
else
	tar --exclude=./build --exclude=./.git -cf - . | tar -xf - -C "$src"
fi

echo "make deb: dpkg-buildpackage in $src"
(cd "$src" && dpkg-buildpackage -b -us -uc -j2) > "$out/build.log" 2>&1 ||
	{ tail -40 "$out/build.log"; echo "make deb: dpkg-buildpackage failed (all of it in $out/build.log)" >&2; exit 1; }
ls "$out"/*.deb

if ! command -v lintian > /dev/null; then
	echo "make deb: lintian not installed: packages not checked (apt-get install lintian)"
	exit 0
fi
changes=$(ls "$out"/ptscope_"$version"_*.changes)
lintian --info --display-info --pedantic "$changes" > "$out/lintian.log" 2>&1 || true
# every tag lintian reports must be listed, in backquotes, in docs/packaging.md
unexplained=$(sed -n 's/^[EWIPX]: [^ ]*: \([a-z0-9][a-z0-9.+-]*\).*/\1/p' "$out/lintian.log" | sort -u |
	while read -r tag; do grep -q "\`$tag\`" docs/packaging.md || echo "$tag"; done)
if [ -n "$unexplained" ]; then
	cat "$out/lintian.log"
	echo "make deb: lintian tags not explained in docs/packaging.md: $unexplained" >&2
	exit 1
fi
echo "make deb: lintian: $(grep -c '^[EWIPX]: ' "$out/lintian.log" || true) tags, each explained in docs/packaging.md"
