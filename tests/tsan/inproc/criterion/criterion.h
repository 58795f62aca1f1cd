/* SPDX-License-Identifier: Apache-2.0 */
/* In-process stand-in for <criterion/criterion.h>, for the ThreadSanitizer build (tests/tsan):
 * Criterion's runner cannot start under TSan (its inheritable arena is mapped at an address
 * range that TSan reserves), so the threaded recorder tests are compiled unchanged against this
 * header and run as a plain program: every Test() in file order, in one process, one after the
 * other. Only what those tests use is provided: Test() (its options such as .timeout are
 * ignored: ctest's TIMEOUT applies) and the cr_assert family; a failed assertion prints the
 * expression and the location and exits with status 1. */
#ifndef EVREC_TSAN_INPROC_CRITERION_H
#define EVREC_TSAN_INPROC_CRITERION_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*evrec_inproc_fn)(void);

void evrec_inproc_register(const char *suite, const char *name, evrec_inproc_fn fn);
void evrec_inproc_fail(const char *file, int line, const char *what);

/* Test(suite, name, options...): registers the function before main() runs. */
#define Test(suite, name, ...)                                                                                    \
    static void suite##_##name(void);                                                                             \
    __attribute__((constructor)) static void suite##_##name##_register(void)                                      \
    {                                                                                                             \
        evrec_inproc_register(#suite, #name, suite##_##name);                                                     \
    }                                                                                                             \
    static void suite##_##name(void)

/* The first argument of a list (the message arguments that may follow are not printed). */
#define EVREC_INPROC_FIRST(a, ...) a
#define EVREC_INPROC_CHECK(ok, text)                                                                              \
    do {                                                                                                          \
        if (!(ok)) {                                                                                              \
            evrec_inproc_fail(__FILE__, __LINE__, text);                                                          \
        }                                                                                                         \
    } while (0)

#define cr_assert(...) EVREC_INPROC_CHECK(EVREC_INPROC_FIRST(__VA_ARGS__, 0), "cr_assert(" #__VA_ARGS__ ")")
#define cr_assert_not(...)                                                                                        \
    EVREC_INPROC_CHECK(!(EVREC_INPROC_FIRST(__VA_ARGS__, 0)), "cr_assert_not(" #__VA_ARGS__ ")")
#define cr_assert_eq(a, ...)                                                                                      \
    EVREC_INPROC_CHECK((a) == (EVREC_INPROC_FIRST(__VA_ARGS__, 0)), "cr_assert_eq(" #a ", " #__VA_ARGS__ ")")
#define cr_assert_neq(a, ...)                                                                                     \
    EVREC_INPROC_CHECK((a) != (EVREC_INPROC_FIRST(__VA_ARGS__, 0)), "cr_assert_neq(" #a ", " #__VA_ARGS__ ")")
#define cr_assert_lt(a, ...)                                                                                      \
    EVREC_INPROC_CHECK((a) < (EVREC_INPROC_FIRST(__VA_ARGS__, 0)), "cr_assert_lt(" #a ", " #__VA_ARGS__ ")")
#define cr_assert_leq(a, ...)                                                                                     \
    EVREC_INPROC_CHECK((a) <= (EVREC_INPROC_FIRST(__VA_ARGS__, 0)), "cr_assert_leq(" #a ", " #__VA_ARGS__ ")")
#define cr_assert_gt(a, ...)                                                                                      \
    EVREC_INPROC_CHECK((a) > (EVREC_INPROC_FIRST(__VA_ARGS__, 0)), "cr_assert_gt(" #a ", " #__VA_ARGS__ ")")
#define cr_assert_geq(a, ...)                                                                                     \
    EVREC_INPROC_CHECK((a) >= (EVREC_INPROC_FIRST(__VA_ARGS__, 0)), "cr_assert_geq(" #a ", " #__VA_ARGS__ ")")
#define cr_assert_null(...)                                                                                       \
    EVREC_INPROC_CHECK((EVREC_INPROC_FIRST(__VA_ARGS__, 0)) == NULL, "cr_assert_null(" #__VA_ARGS__ ")")
#define cr_assert_not_null(...)                                                                                   \
    EVREC_INPROC_CHECK((EVREC_INPROC_FIRST(__VA_ARGS__, 0)) != NULL, "cr_assert_not_null(" #__VA_ARGS__ ")")
#define cr_assert_str_eq(a, ...)                                                                                  \
    EVREC_INPROC_CHECK(strcmp((a), (EVREC_INPROC_FIRST(__VA_ARGS__, 0))) == 0,                                    \
                       "cr_assert_str_eq(" #a ", " #__VA_ARGS__ ")")
#define cr_assert_fail(...) evrec_inproc_fail(__FILE__, __LINE__, "cr_assert_fail(" #__VA_ARGS__ ")")

#endif
