# SPDX-License-Identifier: GPL-2.0
# Breakage: poll() says POLLRDBAND (a sideband ring half full) to every
# opener, as before the twenty-sixth round: a group member learns how
# busy another user's traced CPUs are.
# Must be caught by: unpriv_other_users_capture (poll).
. "$(dirname "$0")/lib.sh"
f=kmod/main.c
replace $f $'\tif (pts_sideband_ready() && pts_perm_may_watch())' $'\tif (pts_sideband_ready())'
echo "break: $f reports the sideband's fill to every opener"
