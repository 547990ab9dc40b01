// Per-request wrappers: `static inline` here, because a call out of line would cost instructions on
// every request (make bench-instructions).
#ifndef LARDER_REQUEST_H
#define LARDER_REQUEST_H

#include "larder_microhttpd.h"

static enum MHD_Result larder_count_header_bytes(void *cls, enum MHD_ValueKind kind, const char *key,
                                                 size_t key_size, const char *value, size_t value_size) {
    (void)kind;
    (void)key;
    (void)value;
    *(size_t *)cls += key_size + value_size + 4;  // as the request carried them: "name: value\r\n"
    return MHD_YES;
}

/// The bytes of the request's header fields, counted without copying them.
static inline size_t larder_header_bytes(struct MHD_Connection *connection) {
    size_t total = 0;
    MHD_get_connection_values_n(connection, MHD_HEADER_KIND, &larder_count_header_bytes, &total);
    return total;
}

/// The most names one pass picks (a lean route reads a few).
#define LARDER_PICK_MAX 8

/// One pass over a request's header fields: their bytes, as `larder_header_bytes` counts them, and the
/// first value of each of `count` names (compared without case, as `MHD_lookup_connection_value` does).
/// One walk of the list instead of one lookup per name: the lean routes' hot path.
struct larder_header_pick {
    const char *const *names;
    const size_t *lengths;
    size_t count;
    size_t bytes;
    const char *values[LARDER_PICK_MAX];
};

/// ASCII case-insensitive equality of `length` bytes (field names are ASCII tokens).
static inline int larder_same_name(const char *a, const char *b, size_t length) {
    for (size_t i = 0; i < length; i++) {
        unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
        if ((unsigned)(x - 'A') < 26u) x += 32;
        if ((unsigned)(y - 'A') < 26u) y += 32;
        if (x != y) return 0;
    }
    return 1;
}

static enum MHD_Result larder_pick_header(void *cls, enum MHD_ValueKind kind, const char *key, size_t key_size,
                                          const char *value, size_t value_size) {
    (void)kind;
    struct larder_header_pick *pick = (struct larder_header_pick *)cls;
    pick->bytes += key_size + value_size + 4;
    for (size_t i = 0; i < pick->count; i++) {
        if (pick->values[i] == NULL && pick->lengths[i] == key_size && larder_same_name(key, pick->names[i], key_size)) {
            pick->values[i] = value;
            break;
        }
    }
    return MHD_YES;
}

/// Fills `pick`'s `bytes` and `values` (NULL for a name the request does not carry).
static inline void larder_pick_headers(struct MHD_Connection *connection, struct larder_header_pick *pick) {
    pick->bytes = 0;
    for (size_t i = 0; i < LARDER_PICK_MAX; i++) pick->values[i] = NULL;
    if (pick->count > LARDER_PICK_MAX) pick->count = LARDER_PICK_MAX;
    MHD_get_connection_values_n(connection, MHD_HEADER_KIND, &larder_pick_header, pick);
}

#endif
