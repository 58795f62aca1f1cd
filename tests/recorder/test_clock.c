/* SPDX-License-Identifier: Apache-2.0 */
/* Storage of the test port's fake clock and pause hook. */
#include <stdint.h>

uint32_t evrec_test_clock_now;
uint32_t evrec_test_clock_step;
void (*volatile evrec_test_pause_hook)(int where);
