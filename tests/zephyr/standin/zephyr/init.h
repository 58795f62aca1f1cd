/* SPDX-License-Identifier: Apache-2.0 */
/* A stand-in for Zephyr's <zephyr/init.h>: SYS_INIT(fn, level, priority) becomes a function
 * standin_sys_init_<fn>() that the test calls where the kernel would run fn at boot. */
#ifndef STANDIN_ZEPHYR_INIT_H
#define STANDIN_ZEPHYR_INIT_H

#define SYS_INIT(fn, level, prio)                                                                                 \
    int standin_sys_init_##fn(void);                                                                              \
    int standin_sys_init_##fn(void)                                                                               \
    {                                                                                                             \
        return fn();                                                                                              \
    }                                                                                                             \
    extern int standin_sys_init_##fn##_end /* takes the `;` */

#endif /* STANDIN_ZEPHYR_INIT_H */
