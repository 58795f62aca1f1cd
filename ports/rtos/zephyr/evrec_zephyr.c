/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Zephyr trace's ids and names (evrec_zephyr.h): the set-up, threads and kernel objects
 * found by address in a 256-slot table (no kernel structure is changed,
 * CONFIG_THREAD_CUSTOM_DATA stays the application's), their names in fixed tables given to the
 * run-time enums RtosTask and RtosObject. The tracing callbacks that record are in
 * evrec_zephyr_hooks.c (threads, interrupts, idle) and evrec_zephyr_objects.c (k_sem, k_mutex,
 * k_msgq, k_event). No malloc, no libc beyond memset and strlen; built with the kernel's headers.
 */
#include "evrec_zephyr_internal.h"

#include <string.h>

evrec_zephyr_state_t evrec_zt;
static const char *const kind_name[] = {"obj", "msgq", "sem", "mutex", "event"};

/* Guards the address table's inserts: a thread or object first seen in a hook (one the kernel
 * made before evrec_zephyr_init(), a K_SEM_DEFINE() object) is added there, from any context. */
static struct k_spinlock map_lock;

static void copy_name(char *dst, const char *src)
{
    size_t i = 0;
    for (; src != NULL && src[i] != '\0' && i + 1u < EVREC_ZEPHYR_NAME_LEN; i++) {
        dst[i] = src[i];
    }
    dst[i] = '\0';
}

/* "sem12": an unnamed object's name. */
static void number_name(char *dst, const char *prefix, unsigned n)
{
    char digits[6];
    unsigned k = 0;
    do {
        digits[k++] = (char)('0' + n % 10u);
        n /= 10u;
    } while (n != 0u && k < sizeof digits);
    copy_name(dst, prefix);
    size_t len = strlen(dst);
    while (k > 0u && len + 1u < EVREC_ZEPHYR_NAME_LEN) {
        dst[len++] = digits[--k];
    }
    dst[len] = '\0';
}

int evrec_zephyr_init(struct evrec_host *const *hosts, unsigned cpus)
{
    if (hosts == NULL || cpus == 0u || cpus > EVREC_ZEPHYR_MAX_CPUS) {
        return EVREC_E_ARG;
    }
    memset(&evrec_zt, 0, sizeof evrec_zt);
    for (unsigned c = 0; c < cpus; c++) {
        evrec_zt.cpu[c].host = hosts[c];
    }
    return (int)zephyr_runtime_init();
}

int evrec_zephyr_isr_name(unsigned isr_id, const char *name)
{
    if (isr_id >= EVREC_ZEPHYR_ISR_IDS || name == NULL) {
        return EVREC_E_ARG;
    }
    zephyr_RtosIsr_t isr;
    evrec_status st = zephyr_RtosIsr_alloc(name, &isr);
    if (st == EVREC_OK) {
        evrec_zt.isr_of_id[isr_id] = (uint8_t)isr;
    }
    return (int)st;
}

/* ---- address -> id ---- */

static uint32_t map_slot(const void *key)
{
    return (uint32_t)((((uintptr_t)key >> 3) * 0x9E3779B1u) & 0xFFFFFFFFu) >> 24; /* 256 slots */
}

/* The slot of `key`, or the free slot where it goes; MAP_SLOTS when the table is full. */
static uint32_t map_find(const void *key)
{
    uint32_t s = map_slot(key);
    for (uint32_t n = 0; n < MAP_SLOTS; n++, s = (s + 1u) % MAP_SLOTS) {
        const void *k = __atomic_load_n(&evrec_zt.map_key[s], __ATOMIC_ACQUIRE);
        if (k == key || k == NULL) {
            return s;
        }
    }
    return MAP_SLOTS;
}

/* The id of `key`, 0 when it has none. Lock-free: an insert publishes its key last. */
static uint16_t map_get(const void *key)
{
    uint32_t s = key != NULL ? map_find(key) : MAP_SLOTS;
    return s < MAP_SLOTS && evrec_zt.map_key[s] == key ? evrec_zt.map_value[s] : 0u;
}

static void map_put_locked(const void *key, uint16_t value)
{
    uint32_t s = map_find(key);
    if (s < MAP_SLOTS) {
        evrec_zt.map_value[s] = value;
        __atomic_store_n(&evrec_zt.map_key[s], key, __ATOMIC_RELEASE);
    }
}

static uint16_t task_add_locked(const struct k_thread *t)
{
    zephyr_RtosTask_t task = NO_TASK;
    /* Allocate first (lock-free), then fill the value's own name slot. */
    if (zephyr_RtosTask_alloc("?", &task) == EVREC_OK && task >= 1u && task <= TASK_SLOTS) {
        char *slot = evrec_zt.task_name[task - 1u];
        copy_name(slot, k_thread_name_get((struct k_thread *)(uintptr_t)t));
        if (slot[0] == '\0') {
            number_name(slot, "thread", task);
        }
        zephyr_RtosTask_runtime_names[task - 1u] = slot;
        evrec_zt.started[task] = 0u;
        evrec_zt.preempted[task] = 0u;
        evrec_zt.blocked_on[task] = 0u;
        map_put_locked(t, task);
        return task;
    }
    return NO_TASK;
}

uint16_t evrec_zephyr_task_of(const struct k_thread *t)
{
    if (t == NULL) {
        return NO_TASK;
    }
    if (t->base.prio == K_IDLE_PRIO) {
        return (uint16_t)zephyr_RtosTask_Idle;
    }
    uint16_t v = map_get(t);
    if (v != 0u && (v & MAP_OBJECT) == 0u) {
        return v;
    }
    k_spinlock_key_t key = k_spin_lock(&map_lock);
    v = map_get(t);
    if (v == 0u || (v & MAP_OBJECT) != 0u) {
        v = task_add_locked(t);
    }
    k_spin_unlock(&map_lock, key);
    return v;
}

static uint16_t object_add_locked(const void *object, int kind, const char *name)
{
    zephyr_RtosObject_t v = zephyr_RtosObject_UnknownObject;
    if (zephyr_RtosObject_alloc("?", &v) == EVREC_OK && v >= 1u && v <= OBJECT_SLOTS) {
        char *slot = evrec_zt.object_name[v - 1u];
        if (name != NULL) {
            copy_name(slot, name);
        } else {
            number_name(slot, kind_name[kind], ++evrec_zt.kind_count[kind]);
        }
        zephyr_RtosObject_runtime_names[v - 1u] = slot;
        evrec_zt.kind[v] = (uint8_t)kind;
        map_put_locked(object, (uint16_t)(MAP_OBJECT | v));
        return v;
    }
    return 0u;
}

uint16_t evrec_zephyr_object_of(const void *object, int kind)
{
    uint16_t v = map_get(object);
    if ((v & MAP_OBJECT) != 0u) {
        return (uint16_t)(v & ~MAP_OBJECT);
    }
    k_spinlock_key_t key = k_spin_lock(&map_lock);
    v = map_get(object);
    v = (v & MAP_OBJECT) != 0u ? (uint16_t)(v & ~MAP_OBJECT) : object_add_locked(object, kind, NULL);
    k_spin_unlock(&map_lock, key);
    return v;
}

int evrec_zephyr_object_name(const void *object, const char *name)
{
    if (object == NULL || name == NULL) {
        return EVREC_E_ARG;
    }
    k_spinlock_key_t key = k_spin_lock(&map_lock);
    uint16_t v = map_get(object);
    int st = EVREC_OK;
    if ((v & MAP_OBJECT) != 0u) {
        copy_name(evrec_zt.object_name[(v & ~MAP_OBJECT) - 1u], name);
    } else if (object_add_locked(object, KIND_QUEUE, name) == 0u) {
        st = EVREC_E_EXHAUSTED;
    }
    k_spin_unlock(&map_lock, key);
    return st;
}
