#!/usr/bin/env bash
# Extracts checkpatch.pl (and the two data files it reads) from Debian's
# linux-source-6.1 package into DIR, without installing the package.
# Usage: get-checkpatch.sh DIR
set -euo pipefail
dir=${1:?usage: get-checkpatch.sh DIR}
[ -x "$dir/checkpatch.pl" ] && exit 0
mkdir -p "$dir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
( cd "$tmp" && apt-get download -q linux-source-6.1 >/dev/null )
deb=$(ls "$tmp"/linux-source-6.1_*.deb)
dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/src/linux-source-6.1.tar.xz |
	tar -xJ -C "$tmp" linux-source-6.1/scripts/checkpatch.pl \
		linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch
cp "$tmp"/linux-source-6.1/scripts/{checkpatch.pl,spelling.txt,const_structs.checkpatch} "$dir/"
chmod +x "$dir/checkpatch.pl"
