/* Storage of the test port's fake clock. */
#include <stdint.h>

uint32_t evrec_test_clock_now;
uint32_t evrec_test_clock_step;
