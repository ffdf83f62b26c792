/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/linux/jump_label.h (what include/linux/static_key.h
 * includes): a static key is a plain boolean, flipped at "boot".
 */
#ifndef SHIM_LINUX_JUMP_LABEL_H
#define SHIM_LINUX_JUMP_LABEL_H

#include <linux/compiler.h>

struct static_key_false {
	bool enabled;
};
struct static_key_true {
	bool enabled;
};
#define DEFINE_STATIC_KEY_FALSE(name) struct static_key_false name = { false }
#define DEFINE_STATIC_KEY_TRUE(name) struct static_key_true name = { true }
#define DECLARE_STATIC_KEY_FALSE(name) extern struct static_key_false name
#define DECLARE_STATIC_KEY_TRUE(name) extern struct static_key_true name
#define static_branch_enable(k) ((k)->enabled = true)
#define static_branch_disable(k) ((k)->enabled = false)
#define static_branch_unlikely(k) unlikely((k)->enabled)
#define static_branch_likely(k) likely((k)->enabled)
#define static_key_enabled(k) ((k)->enabled)

#endif
