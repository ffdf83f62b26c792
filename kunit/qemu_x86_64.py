# SPDX-License-Identifier: GPL-2.0
#
# kunit.py --qemu_config for kunit/run --arch=x86_64: kunit.py's own
# x86_64 config (tools/testing/kunit/qemu_configs/x86_64.py) with the
# console moved from the 8250 driver to x86's early serial console.
#
# Why: 6.1 without the -rt queue's printk/console work writes to the
# console from console_emit_next_record() with IRQs off, and
# serial8250_console_write() then takes the port's spinlock_t, a sleeping
# lock on PREEMPT_RT: "BUG: sleeping function called from invalid
# context at kernel/locking/spinlock_rt.c:46" for whichever printk() comes
# first in each second (__might_resched()'s rate limit), a test's own
# KUnit lines included.  arch/x86/kernel/early_printk.c writes COM1 with
# port I/O and no lock; "keep" keeps it as the console for the whole
# boot, and without CONFIG_SERIAL_8250_CONSOLE no ttyS0 console takes
# over.  The bytes reach qemu's -serial stdio as before.
#
# kunit.py loads this file as if it sat in its qemu_configs/ directory.
# pylint: disable=import-error,relative-beyond-top-level
from ..qemu_config import QemuArchParams

QEMU_ARCH = QemuArchParams(
    linux_arch='x86_64',
    kconfig='''
CONFIG_SERIAL_8250=y
# CONFIG_SERIAL_8250_CONSOLE is not set
CONFIG_EARLY_PRINTK=y''',
    qemu_arch='x86_64',
    kernel_path='arch/x86/boot/bzImage',
    kernel_command_line='earlyprintk=serial,ttyS0,115200,keep',
    extra_qemu_params=['-bios', 'qboot.rom'])
