// SPDX-License-Identifier: GPL-2.0
/*
 * The cleanup, code-motion and rename patches of the series:
 *
 *   03 "net: napi_schedule_rps() cleanup" (upstream 8fcb76b934da): the
 *      return value nobody used is dropped, and
 *   09 "net: move skb_defer_free_flush() up" (upstream e6f50edfef04):
 *      pure code motion,
 *
 * are behaviour-equivalent: no test can observe them, and their
 * reversions are equivalent mutants (the hunk matrix checks that leaving
 * them out changes no suite's result).  What is observable is patch 15,
 * "net: Rename rps_lock to backlog_lock." (upstream 765b11f8f4e2): after
 * it, the input_pkt_queue lock helpers are backlog_lock_irq_save(),
 * backlog_lock_irq_disable(), backlog_unlock_irq_restore() and
 * backlog_unlock_irq_enable(), and no rps_lock_*() / rps_unlock_*()
 * definition remains in net/core/dev.c.
 *
 * Both sets of names are optional entries of kernel-src/manifest, so the
 * suite builds on every tree and reads what the tree has from
 * extracted/present.h.  Expected to fail on base (the old names only).
 */
#include "support/napitest.h"

/*
 * V4 (patch 15): the backlog lock helpers carry their new names and the
 * old rps_lock_* names are gone.  The same in every configuration: the
 * definitions are extracted with their conditionals, whatever is enabled.
 */
static void v4_backlog_lock_renamed(void **state)
{
	(void)state;
	require_definition(backlog_lock_irq_save);
	require_definition(backlog_lock_irq_disable);
	require_definition(backlog_unlock_irq_restore);
	require_definition(backlog_unlock_irq_enable);

	if (EXTRACTED_HAVE_rps_lock_irqsave ||
	    EXTRACTED_HAVE_rps_lock_irq_disable ||
	    EXTRACTED_HAVE_rps_unlock_irq_restore ||
	    EXTRACTED_HAVE_rps_unlock_irq_enable)
		fail_msg("rps_lock_*() still defined in %s", EXTRACTED_TREE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(v4_backlog_lock_renamed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
