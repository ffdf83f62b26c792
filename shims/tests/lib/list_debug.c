// SPDX-License-Identifier: GPL-2.0
/*
 * CONFIG_DEBUG_LIST (shims/sim/lib/list_debug.c), self-tests:
 *
 *   list_debug      CONFIG_DEBUG_LIST, reported at the call site
 *
 * Each report names the call site: this file and the line.
 */
#include "../sim_checks.h"

/* ---- list_debug ---- */

static void list_debug_double_add_reported_at_call_site(void **state)
{
	LIST_HEAD(head);
	struct list_head node;

	(void)state;
	list_add(&node, &head);
	check_site = __LINE__ + 1;
	list_add(&node, &head);
	assert_one_report("list_add double add");
}

static void list_debug_double_del_reported_at_call_site(void **state)
{
	LIST_HEAD(head);
	struct list_head node;

	(void)state;
	list_add_tail(&node, &head);
	list_del(&node);
	check_site = __LINE__ + 1;
	list_del(&node);
	assert_one_report("list_del corruption");
	assert_non_null(strstr(sim_warns[0].msg, "LIST_POISON1"));
	assert_true(list_empty(&head));
}

const struct CMUnitTest sim_checks_list_debug[] = {
	cmocka_unit_test_setup(list_debug_double_add_reported_at_call_site,
			       check_setup),
	cmocka_unit_test_setup(list_debug_double_del_reported_at_call_site,
			       check_setup),
};
const size_t sim_checks_list_debug_nr = ARRAY_SIZE(sim_checks_list_debug);
