/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The field a BAD_TRIGGER or RESERVED_NONZERO refusal names. The module
 * refuses many fields with those two reasons, so its reason_arg is the
 * byte offset of the field in the struct passed (docs/abi.md,
 * "reason_arg"), and the value is the caller's own: this names the field
 * and reads the value from the struct the call sent. Pure.
 */
#ifndef PTS_CAPTURE_REASON_FIELD_H
#define PTS_CAPTURE_REASON_FIELD_H

#include <stddef.h>

struct ptscope_hdr;

/*
 * For a refusal of the call `what` ("CONFIGURE", "START", ...) whose
 * header is hdr, the first member of the struct sent (hdr->size bytes,
 * as the caller filled them in): "field trigger.hotkey = '!'",
 * "field reserved[3] = 0x1", "bytes from offset 456 on (uprobe.fd), which
 * this module does not know". Returns buf, or NULL when the reason is
 * not one of the two or reason_arg names no field of that struct.
 */
const char *pts_reason_field(const char *what, const struct ptscope_hdr *hdr, char *buf,
			     size_t len);

#endif /* PTS_CAPTURE_REASON_FIELD_H */
