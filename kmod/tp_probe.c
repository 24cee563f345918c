// SPDX-License-Identifier: GPL-2.0
/*
 * Typed tracepoint probes: lookup of a built-in tracepoint by name and
 * (un)registration of a probe whose prototype the caller checked at build
 * time (tp_probe.h says why and how).
 */
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "ptscope_internal.h"
#include "tp_probe.h"

struct tp_lookup {
	const char *name;
	struct tracepoint *found;
};

/* for_each_kernel_tracepoint() callback. Context: process context. */
static void tp_match(struct tracepoint *tp, void *priv)
{
	struct tp_lookup *l = priv;

	if (!l->found && !strcmp(tp->name, l->name))
		l->found = tp;
}

/**
 * pts_tp_find() - a built-in tracepoint by "subsystem:event" or "event".
 * @name: the name; the part before a colon is not compared (struct
 *	tracepoint has no subsystem, see tp_probe.h).
 * Context: process context (walks the tracepoint section).
 * Return: the tracepoint or NULL.
 */
struct tracepoint *pts_tp_find(const char *name)
{
	struct tp_lookup l = { .name = pts_tracepoint_event(name) };

	if (!l.name)
		return NULL;
	for_each_kernel_tracepoint(tp_match, &l);
	return l.found;
}

/**
 * pts_tp_register_checked() - register a probe on a built-in tracepoint.
 * @name: "event" or "subsystem:event" (pts_tp_find()).
 * @probe: the probe; its prototype checked against the tracepoint's by
 *	PTS_TP_PROBE_CHECK() (call this through pts_tp_register()).
 * @data: the probe's first argument.
 * @tpp: receives the tracepoint on success, for pts_tp_unregister(); left
 *	alone on failure.
 * Context: process context, may sleep. Takes cpus_read_lock() (static
 * keys, static calls): the caller must not hold it (nor be a CPU hotplug
 * callback).
 * Return: 0; -ENOENT (no built-in tracepoint @name); or the error of
 * tracepoint_probe_register() (-EEXIST: this probe and data already).
 */
int pts_tp_register_checked(const char *name, void *probe, void *data,
			    struct tracepoint **tpp)
{
	struct tracepoint *tp = pts_tp_find(name);
	int err;

	if (!tp)
		return -ENOENT;
	err = tracepoint_probe_register(tp, probe, data);
	if (!err)
		*tpp = tp;
	return err;
}

/**
 * pts_tp_unregister() - undo pts_tp_register(); nothing if *@tpp is NULL.
 * @tpp: the tracepoint pts_tp_register() stored; set to NULL.
 * @probe: the same probe.
 * @data: the same data.
 *
 * Probes may still be running on other CPUs when this returns: call
 * tracepoint_synchronize_unregister() (once for several) before freeing
 * what they use.
 * Context: process context, may sleep; as pts_tp_register_checked() for
 * cpus_read_lock().
 */
void pts_tp_unregister(struct tracepoint **tpp, void *probe, void *data)
{
	if (!*tpp)
		return;
	tracepoint_probe_unregister(*tpp, probe, data);
	*tpp = NULL;
}
