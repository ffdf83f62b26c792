/* SPDX-License-Identifier: GPL-2.0 */
/* Stands for include/linux/init.h: initcalls and boot parameters, not registered. */
#ifndef SHIM_LINUX_INIT_H
#define SHIM_LINUX_INIT_H

#define subsys_initcall(fn)
#define early_param(str, fn)
#define __setup(str, fn)

#endif
