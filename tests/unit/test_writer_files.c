// SPDX-License-Identifier: GPL-2.0
/*
 * What every writer does with its file: format from the name, output to
 * PATH.tmp.PID renamed over PATH only by a successful close, nothing left
 * behind by a failed one, write errors (a full disk) reported with errno
 * and a message, and the null sink touching nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"
#include "writer_testlib.h"

static void format_follows_the_file_extension(void)
{
	CU_ASSERT_EQUAL(pts_format_from_path("out.fxt"), PTS_FMT_FXT);
	CU_ASSERT_EQUAL(pts_format_from_path("dir.v2/out.json"), PTS_FMT_JSON);
	CU_ASSERT_EQUAL(pts_format_from_path("out.txt"), PTS_FMT_TXT);
	CU_ASSERT_EQUAL(pts_format_from_path("a.b.folded"), PTS_FMT_FOLDED);
	CU_ASSERT_EQUAL(pts_format_from_path("dir.fxt/out"), PTS_FMT_NONE);
	CU_ASSERT_EQUAL(pts_format_from_path("out.perfetto"), PTS_FMT_NONE);
	CU_ASSERT_EQUAL(pts_format_from_path("out"), PTS_FMT_NONE);
}

static void format_words_name_every_format_and_reject_others(void)
{
	CU_ASSERT_EQUAL(pts_format_from_name("fxt"), PTS_FMT_FXT);
	CU_ASSERT_EQUAL(pts_format_from_name("json"), PTS_FMT_JSON);
	CU_ASSERT_EQUAL(pts_format_from_name("txt"), PTS_FMT_TXT);
	CU_ASSERT_EQUAL(pts_format_from_name("folded"), PTS_FMT_FOLDED);
	CU_ASSERT_EQUAL(pts_format_from_name("null"), PTS_FMT_NONE);
	CU_ASSERT_EQUAL(pts_format_from_name("FXT"), PTS_FMT_FXT);
	CU_ASSERT_EQUAL(pts_format_from_name("Json"), PTS_FMT_JSON);
	CU_ASSERT_EQUAL(pts_format_from_name("perfetto"), -1);
	CU_ASSERT_EQUAL(pts_format_from_name(""), -1);
}

static const char *tmp_name(const char *path)
{
	static char buf[600];

	snprintf(buf, sizeof(buf), "%s.tmp.%ld", path, (long)getpid());
	return buf;
}

static void output_appears_under_its_name_only_after_a_successful_close(void)
{
	struct pts_tl_rec rec = wt_rec(PTS_TL_PROCESS, PTS_TLK_NONE, 0, 1, 0, 0, "p");
	const char *path = wt_path("late.txt");
	struct pts_writer *w;
	struct pts_err err;
	char *text;

	CU_ASSERT_EQUAL_FATAL(pts_writer_open(path, PTS_FMT_TXT, &w, &err), 0);
	wt_emit(w, &rec);
	CU_ASSERT_EQUAL(access(path, F_OK), -1);
	CU_ASSERT_EQUAL(access(tmp_name(path), F_OK), 0);
	CU_ASSERT_EQUAL(pts_writer_close(w, true, &err), 0);
	CU_ASSERT_EQUAL(access(tmp_name(path), F_OK), -1);
	text = bt_read_file(path, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "# process 1 p\n"));
	free(text);
}

static void failed_close_removes_the_temporary_and_keeps_the_old_output(void)
{
	struct pts_tl_rec rec = wt_rec(PTS_TL_PROCESS, PTS_TLK_NONE, 0, 1, 0, 0, "p");
	const char *path = wt_path("keep.json");
	struct pts_writer *w;
	struct pts_err err;
	FILE *f = fopen(path, "w");
	char *text;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("old", f);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(pts_writer_open(path, PTS_FMT_JSON, &w, &err), 0);
	wt_emit(w, &rec);
	CU_ASSERT_EQUAL(pts_writer_close(w, false, &err), 0);
	CU_ASSERT_EQUAL(access(tmp_name(path), F_OK), -1);
	text = bt_read_file(path, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_STRING_EQUAL(text, "old");
	free(text);
}

static void missing_directory_fails_with_enoent_naming_the_file(void)
{
	const char *path = wt_path("no/such/dir/out.fxt");
	struct pts_writer *w;
	struct pts_err err;

	CU_ASSERT_EQUAL(pts_writer_open(path, PTS_FMT_FXT, &w, &err), -ENOENT);
	CU_ASSERT_PTR_NULL(w);
	CU_ASSERT_EQUAL(err.code, -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "no/such/dir/out.fxt"));
}

static void full_disk_is_reported_as_enospc_and_sticks(void)
{
	/* /dev/full fails every write with ENOSPC, like a full file system */
	struct pts_tl_rec rec = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 0, 1, 1, 0, "f");
	int saved = dup(STDOUT_FILENO), full = open("/dev/full", O_WRONLY);
	struct pts_writer *w;
	struct pts_err err;
	int rc = 0, i;

	if (full < 0) {
		CU_PASS("no /dev/full here");
		close(saved);
		return;
	}
	fflush(stdout);
	dup2(full, STDOUT_FILENO);
	close(full);
	CU_ASSERT_EQUAL_FATAL(pts_writer_open("-", PTS_FMT_TXT, &w, &err), 0);
	/* enough lines to overflow the output buffer at least once */
	for (i = 0; i < 100000 && !rc; i++) {
		rec.ts_ns = (uint64_t)i;
		rec.type = i % 2 ? PTS_TL_END : PTS_TL_BEGIN;
		rc = pts_writer_emit(w, &rec, &err);
	}
	dup2(saved, STDOUT_FILENO);
	close(saved);
	CU_ASSERT_EQUAL(rc, -ENOSPC);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "No space left"));
	/* later calls keep failing the same way, and close reports it */
	CU_ASSERT_EQUAL(pts_writer_emit(w, &rec, &err), -ENOSPC);
	CU_ASSERT_EQUAL(pts_writer_close(w, true, &err), -ENOSPC);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "No space left"));
}

static void device_path_is_written_directly_not_replaced(void)
{
	/* a temporary file renamed over /dev/null would replace the device */
	struct pts_tl_rec rec = wt_rec(PTS_TL_PROCESS, PTS_TLK_NONE, 0, 1, 0, 0, "p");
	struct pts_writer *w;
	struct pts_err err;
	struct stat st;

	CU_ASSERT_EQUAL_FATAL(pts_writer_open("/dev/null", PTS_FMT_JSON, &w, &err), 0);
	wt_emit(w, &rec);
	CU_ASSERT_EQUAL(access(tmp_name("/dev/null"), F_OK), -1);
	CU_ASSERT_EQUAL(pts_writer_close(w, true, &err), 0);
	CU_ASSERT_EQUAL_FATAL(stat("/dev/null", &st), 0);
	CU_ASSERT(S_ISCHR(st.st_mode));
	CU_ASSERT_EQUAL(access(tmp_name("/dev/null"), F_OK), -1);
}

static void null_sink_accepts_records_and_creates_no_file(void)
{
	struct pts_tl_rec rec = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 0, 1, 1, 0, "f");
	const char *path = wt_path("bench.out");
	struct pts_writer *w;
	struct pts_err err;

	CU_ASSERT_EQUAL_FATAL(pts_writer_open(path, PTS_FMT_NONE, &w, &err), 0);
	CU_ASSERT_EQUAL(pts_writer_emit(w, &rec, &err), 0);
	CU_ASSERT_EQUAL(pts_writer_close(w, true, &err), 0);
	CU_ASSERT_EQUAL(access(path, F_OK), -1);
	CU_ASSERT_EQUAL(access(tmp_name(path), F_OK), -1);
}

static void time_going_back_on_a_thread_is_refused(void)
{
	struct pts_tl_rec a = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 50, 1, 1, 0, "f");
	struct pts_tl_rec b = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 49, 1, 1, 0, NULL);
	struct pts_writer *w;
	struct pts_err err;

	CU_ASSERT_EQUAL_FATAL(pts_writer_open(wt_path("back.json"), PTS_FMT_JSON, &w, &err), 0);
	CU_ASSERT_EQUAL(pts_writer_emit(w, &a, &err), 0);
	CU_ASSERT_EQUAL(pts_writer_emit(w, &b, &err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "back in time"));
	CU_ASSERT_EQUAL(pts_writer_close(w, false, &err), 0);
}

static int cleanup(void)
{
	wt_cleanup();
	return 0;
}

PTS_SUITE(writer_files, NULL, cleanup,
	  PTS_TEST(format_follows_the_file_extension),
	  PTS_TEST(format_words_name_every_format_and_reject_others),
	  PTS_TEST(output_appears_under_its_name_only_after_a_successful_close),
	  PTS_TEST(failed_close_removes_the_temporary_and_keeps_the_old_output),
	  PTS_TEST(missing_directory_fails_with_enoent_naming_the_file),
	  PTS_TEST(full_disk_is_reported_as_enospc_and_sticks),
	  PTS_TEST(device_path_is_written_directly_not_replaced),
	  PTS_TEST(null_sink_accepts_records_and_creates_no_file),
	  PTS_TEST(time_going_back_on_a_thread_is_refused))
