#include "shared_limits_table.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct larder_shared_limits *larder_shared_limits_create(unsigned int limit, unsigned int per_address_limit) {
    struct larder_shared_limits *limits = calloc(1, sizeof *limits);
    if (limits == NULL) return NULL;
    size_t size = 16;
    while (size < (size_t)limit * 2) size *= 2;
    limits->table = calloc(size, sizeof *limits->table);
    if (limits->table == NULL) {
        free(limits);
        return NULL;
    }
    limits->mask = size - 1;
    limits->limit = limit;
    limits->per_address_limit = per_address_limit;
    pthread_mutex_init(&limits->lock, NULL);
    return limits;
}

void larder_shared_limits_destroy(struct larder_shared_limits *limits) {
    pthread_mutex_destroy(&limits->lock);
    free(limits->table);
    free(limits);
}

size_t larder_shared_limits_home(const struct larder_shared_limits *limits, const unsigned char *key,
                                 unsigned char length) {
    uint32_t hash = 2166136261u;  // FNV-1a
    for (unsigned char i = 0; i < length; i++) hash = (hash ^ key[i]) * 16777619u;
    return hash & limits->mask;
}

// The slot holding the key, else the first free slot of its probe run, else (a table with no free
// slot: daemons admitting at the same instant can overshoot the limit) the table's size.
static size_t slot_of(const struct larder_shared_limits *limits, const unsigned char *key, unsigned char length) {
    size_t slot = larder_shared_limits_home(limits, key, length);
    for (size_t probed = 0; probed <= limits->mask; probed++) {
        const struct larder_address_count *entry = &limits->table[slot];
        if (entry->count == 0 || (entry->length == length && memcmp(entry->address, key, length) == 0)) return slot;
        slot = (slot + 1) & limits->mask;
    }
    return limits->mask + 1;
}

unsigned int larder_shared_limits_count(const struct larder_shared_limits *limits, const unsigned char *key,
                                        unsigned char length) {
    if (length == 0) return 0;
    size_t slot = slot_of(limits, key, length);
    return slot > limits->mask ? 0 : limits->table[slot].count;
}

int larder_shared_limits_admits(const struct larder_shared_limits *limits, const unsigned char *key,
                                unsigned char length) {
    return limits->total < limits->limit
        && (length == 0 || limits->per_address_limit == 0
            || larder_shared_limits_count(limits, key, length) < limits->per_address_limit);
}

void larder_shared_limits_add(struct larder_shared_limits *limits, const unsigned char *key, unsigned char length) {
    limits->total++;
    if (length == 0) return;
    size_t slot = slot_of(limits, key, length);
    if (slot > limits->mask) return;  // a full table: this address goes uncounted, the total still holds
    struct larder_address_count *entry = &limits->table[slot];
    if (entry->count == 0) {
        memcpy(entry->address, key, length);
        entry->length = length;
    }
    entry->count++;
}

void larder_shared_limits_remove(struct larder_shared_limits *limits, const unsigned char *key,
                                 unsigned char length) {
    if (limits->total > 0) limits->total--;
    if (length == 0) return;
    size_t slot = slot_of(limits, key, length);
    if (slot > limits->mask || limits->table[slot].count == 0) return;
    if (--limits->table[slot].count > 0) return;
    // Backward-shift deletion: later entries of the probe run move into the gap, so no lookup
    // stops early at it.
    size_t gap = slot, next = (slot + 1) & limits->mask;
    while (limits->table[next].count != 0) {
        const struct larder_address_count *entry = &limits->table[next];
        size_t home = larder_shared_limits_home(limits, entry->address, entry->length);
        // Movable unless its home lies cyclically in (gap, next].
        if (((next - home) & limits->mask) >= ((next - gap) & limits->mask)) {
            limits->table[gap] = limits->table[next];
            limits->table[next].count = 0;
            gap = next;
        }
        next = (next + 1) & limits->mask;
    }
}
