/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Typed tracepoint probes (tp_probe.c): find a built-in tracepoint by name
 * and register a probe on it whose prototype is checked at build time.
 *
 * A tracepoint calls its probes through a pointer of its own prototype,
 * void (*)(void *data, TP_PROTO...). A probe of any other prototype is
 * undefined behaviour in C and traps on a kernel built with clang kCFI,
 * which checks the prototype at every indirect call. The only way to get
 * the prototype right for every kernel the module is built against is to
 * take it from that kernel's own trace header: the caller includes the
 * header that declares the tracepoint (<trace/events/sched.h>, ...),
 * whose DECLARE_TRACE() defines check_trace_callback_type_<event>(), a
 * function taking exactly the probe type, and PTS_TP_PROBE_CHECK() turns a
 * mismatch into a build error (not only a warning).
 *
 * Lookup: tracepoints of built-in code only (for_each_kernel_tracepoint();
 * modules' tracepoints are not searched). struct tracepoint carries the
 * event name only; built-in event names are unique (each defines the
 * global symbol __tracepoint_<event>).
 */
#ifndef PTSCOPE_TP_PROBE_H
#define PTSCOPE_TP_PROBE_H

#include <linux/build_bug.h>
#include <linux/tracepoint.h>

/*
 * __PTS_TP_CHECK(event, ftype, name) - build error @name unless the
 * function type @ftype is that of a probe of tracepoint @event (a bare
 * event name: sched_switch) in the kernel being built against. The
 * parameter of check_trace_callback_type_<event>() is the probe pointer
 * type; a parameter of function type @ftype is adjusted to that pointer.
 */
#define __PTS_TP_CHECK(event, ftype, name)					\
	static_assert(__builtin_types_compatible_p(				\
		typeof(check_trace_callback_type_##event), void (ftype)),	\
		name " does not have the prototype of tracepoint " #event)

/*
 * PTS_TP_PROBE_CHECK(event, probe) - build error unless the function
 * @probe has the prototype of tracepoint @event. A declaration: use at
 * file scope or at the start of a block.
 */
#define PTS_TP_PROBE_CHECK(event, probe)					\
	__PTS_TP_CHECK(event, typeof(probe), #probe)

/*
 * pts_tp_register(event, probe, data, tpp) - PTS_TP_PROBE_CHECK(), then
 * pts_tp_register_checked(); see there.
 */
#define pts_tp_register(event, probe, data, tpp) ({			\
	__PTS_TP_CHECK(event, typeof(probe), #probe);			\
	pts_tp_register_checked(#event, (void *)(probe), (data), (tpp));	\
})

struct tracepoint *pts_tp_find(const char *name);
int pts_tp_register_checked(const char *name, void *probe, void *data,
			    struct tracepoint **tpp);
void pts_tp_unregister(struct tracepoint **tpp, void *probe, void *data);

#endif /* PTSCOPE_TP_PROBE_H */
