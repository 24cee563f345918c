#!/usr/bin/env bash
# The reader's fixture manifest must be exactly the worked example printed in
# docs/bundle-format.md section 6, so the document and the tested bytes
# cannot drift apart.
set -eu
cd "$(dirname "$0")/../.."
doc=$(awk '/^```json$/{f=1; next} /^```$/{if (f) exit} f' docs/bundle-format.md)
fix=$(cat tests/golden/bundle/example.ptscope/manifest.json)
if [ "$doc" != "$fix" ]; then
	echo "tests/golden/bundle/example.ptscope/manifest.json differs from docs/bundle-format.md section 6"
	diff <(printf '%s\n' "$doc") <(printf '%s\n' "$fix") || true
	exit 1
fi
echo "bundle fixture matches the document's example"
