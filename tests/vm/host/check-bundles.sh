#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# check-bundles.sh DECODER BUNDLE_DIR SIM_DOC TIMELINE_SKIP_REASON
# Decodes every bundle the guest sent back; prints "name verdict detail"
# lines for run.sh (bundle_decodes, bundle_timeline_matches_sim).
set -u
echo "bundle_decodes SKIP decoding of copied-back bundles not wired to the decoder's interface yet"
echo "bundle_timeline_matches_sim SKIP ${4:-the simulated unit's timeline check is not written yet}"
