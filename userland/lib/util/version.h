/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The version of ptscope and of the tools built with it: what
 * `ptscope --version` prints and what every bundle they write records as
 * its "producer" ("ptscope 0.1", "ptsynth 0.1": docs/bundle-format.md).
 */
#ifndef PTS_UTIL_VERSION_H
#define PTS_UTIL_VERSION_H

#define PTS_VERSION "0.1"

#endif
