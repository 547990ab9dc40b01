// The shared-limits table (Sources/CLarderHTTP/shared_limits.c) on its own: insert, delete with
// backward shift, wrap-around at the table's end, a full table. `make test-c` builds it with the
// target's warning flags and runs it; it prints each case and exits 1 when any fails.
#include <stdio.h>
#include <string.h>

#include "../../Sources/CLarderHTTP/shared_limits_table.h"

static int failures = 0;

#define CHECK(condition)                                                        \
    do {                                                                        \
        if (!(condition)) {                                                     \
            fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #condition); \
            failures++;                                                         \
        }                                                                       \
    } while (0)

struct key {
    unsigned char bytes[4];
};

// The n-th IPv4 address after `*next` (10.x.y.z) whose probe run starts at `home`.
static struct key key_at(const struct larder_shared_limits *limits, size_t home, unsigned int *next) {
    for (;; (*next)++) {
        struct key key = {{10, (unsigned char)(*next >> 16), (unsigned char)(*next >> 8), (unsigned char)*next}};
        if (larder_shared_limits_home(limits, key.bytes, 4) == home) {
            (*next)++;
            return key;
        }
    }
}

static unsigned int count(const struct larder_shared_limits *limits, struct key key) {
    return larder_shared_limits_count(limits, key.bytes, 4);
}

static int holds(const struct larder_shared_limits *limits, size_t slot, struct key key) {
    return limits->table[slot].count != 0 && limits->table[slot].length == 4
        && memcmp(limits->table[slot].address, key.bytes, 4) == 0;
}

static size_t used(const struct larder_shared_limits *limits) {
    size_t slots = 0;
    for (size_t slot = 0; slot <= limits->mask; slot++) slots += limits->table[slot].count != 0;
    return slots;
}

static void insert(void) {
    struct larder_shared_limits *limits = larder_shared_limits_create(8, 2);
    unsigned int next = 0;
    struct key a = key_at(limits, 3, &next), b = key_at(limits, 3, &next);
    larder_shared_limits_add(limits, a.bytes, 4);
    larder_shared_limits_add(limits, a.bytes, 4);
    larder_shared_limits_add(limits, b.bytes, 4);
    CHECK(limits->total == 3);
    CHECK(count(limits, a) == 2 && count(limits, b) == 1);
    CHECK(holds(limits, 3, a) && holds(limits, 4, b));  // b probes on past a's slot
    CHECK(used(limits) == 2);
    CHECK(!larder_shared_limits_admits(limits, a.bytes, 4));  // its 2 per address
    CHECK(larder_shared_limits_admits(limits, b.bytes, 4));
    larder_shared_limits_add(limits, NULL, 0);  // neither IPv4 nor IPv6: in the total only
    CHECK(limits->total == 4 && used(limits) == 2);
    larder_shared_limits_destroy(limits);
}

static void delete_with_backward_shift(void) {
    struct larder_shared_limits *limits = larder_shared_limits_create(8, 0);
    unsigned int next = 0;
    // a, e at their homes 5 and 6; c and d (home 5) pushed to 7 and 8.
    struct key a = key_at(limits, 5, &next), e = key_at(limits, 6, &next);
    struct key c = key_at(limits, 5, &next), d = key_at(limits, 5, &next);
    struct key keys[] = {a, e, c, d};
    for (int i = 0; i < 4; i++) larder_shared_limits_add(limits, keys[i].bytes, 4);
    CHECK(holds(limits, 5, a) && holds(limits, 6, e) && holds(limits, 7, c) && holds(limits, 8, d));
    larder_shared_limits_remove(limits, a.bytes, 4);
    // c moves back to its home; e stays at its own; d fills c's old slot; 8 is free again.
    CHECK(holds(limits, 5, c) && holds(limits, 6, e) && holds(limits, 7, d) && limits->table[8].count == 0);
    CHECK(count(limits, a) == 0 && count(limits, c) == 1 && count(limits, d) == 1 && count(limits, e) == 1);
    CHECK(used(limits) == 3 && limits->total == 3);
    // A second connection of c keeps its slot until both have closed.
    larder_shared_limits_add(limits, c.bytes, 4);
    larder_shared_limits_remove(limits, c.bytes, 4);
    CHECK(count(limits, c) == 1 && holds(limits, 5, c));
    larder_shared_limits_remove(limits, c.bytes, 4);
    larder_shared_limits_remove(limits, e.bytes, 4);
    CHECK(holds(limits, 5, d) && count(limits, d) == 1 && used(limits) == 1);
    larder_shared_limits_remove(limits, d.bytes, 4);
    CHECK(used(limits) == 0 && limits->total == 0);
    larder_shared_limits_destroy(limits);
}

static void wrap_around(void) {
    struct larder_shared_limits *limits = larder_shared_limits_create(8, 0);
    size_t last = limits->mask;
    unsigned int next = 0;
    // a and b start at the last slot, b wraps to slot 0; c (home 0) goes to 1.
    struct key a = key_at(limits, last, &next), b = key_at(limits, last, &next), c = key_at(limits, 0, &next);
    larder_shared_limits_add(limits, a.bytes, 4);
    larder_shared_limits_add(limits, b.bytes, 4);
    larder_shared_limits_add(limits, c.bytes, 4);
    CHECK(holds(limits, last, a) && holds(limits, 0, b) && holds(limits, 1, c));
    CHECK(count(limits, b) == 1 && count(limits, c) == 1);
    larder_shared_limits_remove(limits, a.bytes, 4);
    // The shift crosses the end: b back to the last slot, c to its home.
    CHECK(holds(limits, last, b) && holds(limits, 0, c) && limits->table[1].count == 0);
    CHECK(count(limits, a) == 0 && count(limits, b) == 1 && count(limits, c) == 1);
    larder_shared_limits_destroy(limits);
}

static void full_table(void) {
    struct larder_shared_limits *limits = larder_shared_limits_create(8, 0);
    size_t size = limits->mask + 1;
    CHECK(size == 16);
    struct key keys[17];
    unsigned int next = 0;
    for (size_t i = 0; i < 17; i++) keys[i] = key_at(limits, i % size, &next);
    for (size_t i = 0; i < 8; i++) larder_shared_limits_add(limits, keys[i].bytes, 4);
    CHECK(!larder_shared_limits_admits(limits, keys[8].bytes, 4));  // the total is at the limit
    // Daemons admitting at the same instant overshoot the limit: every slot taken.
    for (size_t i = 8; i < size; i++) larder_shared_limits_add(limits, keys[i].bytes, 4);
    CHECK(used(limits) == size);
    // One more address: counted in the total, not in the table, and a lookup still ends.
    larder_shared_limits_add(limits, keys[16].bytes, 4);
    CHECK(limits->total == 17 && count(limits, keys[16]) == 0 && used(limits) == size);
    larder_shared_limits_remove(limits, keys[16].bytes, 4);
    CHECK(limits->total == 16 && used(limits) == size);
    for (size_t i = 0; i < size; i++) CHECK(count(limits, keys[i]) == 1);
    larder_shared_limits_remove(limits, keys[0].bytes, 4);
    CHECK(used(limits) == size - 1 && count(limits, keys[0]) == 0);
    for (size_t i = 1; i < size; i++) CHECK(count(limits, keys[i]) == 1);
    larder_shared_limits_destroy(limits);
}

int main(void) {
    struct {
        const char *name;
        void (*run)(void);
    } cases[] = {
        {"insert", insert},
        {"delete with backward shift", delete_with_backward_shift},
        {"wrap-around at the table's end", wrap_around},
        {"a full table", full_table},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int before = failures;
        cases[i].run();
        printf("%s shared limits: %s\n", failures == before ? "ok    " : "FAILED", cases[i].name);
    }
    return failures == 0 ? 0 : 1;
}
