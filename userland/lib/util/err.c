// SPDX-License-Identifier: GPL-2.0
#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int pts_err_set(struct pts_err *err, int code, const char *fmt, ...)
{
	int neg = code < 0 ? code : -code;
	va_list ap;

	if (!err)
		return neg;
	err->code = neg;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return neg;
}

void pts_err_clear(struct pts_err *err)
{
	if (!err)
		return;
	err->code = 0;
	err->msg[0] = '\0';
}
