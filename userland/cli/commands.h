/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Subcommands of the ptscope command. Each takes the subcommand's own
 * argv (argv[0] is the subcommand name) and returns the process exit
 * status: 0 success, 1 failure, 2 usage error.
 */
#ifndef PTS_CLI_COMMANDS_H
#define PTS_CLI_COMMANDS_H

int cmd_caps(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_attach(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_trigger(int argc, char **argv);
int cmd_status(int argc, char **argv);
/* userland/cli/cmd_decode.c; main.c carries a weak fallback. */
int cmd_decode(int argc, char **argv);

#endif
