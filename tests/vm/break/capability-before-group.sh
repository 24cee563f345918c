# SPDX-License-Identifier: GPL-2.0
# Breakage: the module asks its capabilities as before the
# twenty-fourth round: open() asks CAP_SYS_ADMIN before group
# membership, every CONFIGURE asks perfmon_capable() with an audit
# record, and physical addresses are decided by file_ns_capable() at
# each call; a group member's own capture leaves capability denials.
# Must be caught by: open_group_member_asks_no_capability,
# open_outside_group_audited, unpriv_own_capture_no_capability_denial.
. "$(dirname "$0")/lib.sh"
f=kmod/perms.c
replace $f $'\tif (pts_param_group >= 0 && !(gid_valid(gid) && in_group_p(gid)) &&' \
	$'\tif (pts_param_group >= 0 && !capable(CAP_SYS_ADMIN) &&\n\t    !(gid_valid(gid) && in_group_p(gid)) &&'
replace $f 'needs_admin ? perfmon_capable() : perfmon_capable_noaudit();' \
	'needs_admin ? perfmon_capable() : perfmon_capable();'
replace $f $'\treturn file->private_data == &pts_opener_phys;' \
	$'\treturn file_ns_capable(file, &init_user_ns, CAP_SYS_ADMIN);'
echo "break: $f asks audited capabilities first, at every CONFIGURE and every address decision"
