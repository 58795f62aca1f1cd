/**
 * @file evrec_config.h
 * @brief Compile-time knobs of the recorder, each with an `#ifndef` default.
 *
 * Override with `-D` or by defining them before including any evrec header. Booleans are 0/1.
 */
#ifndef EVREC_CONFIG_H
#define EVREC_CONFIG_H

/**
 * EVREC_ENABLE (0/1, default 1): 0 compiles every record call of generated code to nothing.
 */
#ifndef EVREC_ENABLE
#define EVREC_ENABLE 1
#endif

/**
 * EVREC_SAVE_CHUNK (bytes, 64..16777215, default 512): size of the staging buffer evrec_save()
 * keeps on its stack and of the container's chunks. Larger = fewer sink calls and checksum
 * words per byte (faster), smaller = less stack on an MCU. The host build uses 16384.
 */
#ifndef EVREC_SAVE_CHUNK
#define EVREC_SAVE_CHUNK 512
#endif

/**
 * EVREC_SAVE_PLAN_OPS (entries, default 128): field-conversion steps that evrec_save() caches
 * on its stack (2 bytes each) so that it converts records without walking nested structs.
 * Event types that do not fit fall back to the table walk (same bytes, slower).
 */
#ifndef EVREC_SAVE_PLAN_OPS
#define EVREC_SAVE_PLAN_OPS 128
#endif

/**
 * EVREC_SAVE_PLAN_EVENTS (entries, default 32): event ids below this get a cached plan.
 */
#ifndef EVREC_SAVE_PLAN_EVENTS
#define EVREC_SAVE_PLAN_EVENTS 32
#endif

#endif /* EVREC_CONFIG_H */
