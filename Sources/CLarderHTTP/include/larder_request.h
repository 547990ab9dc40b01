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

#endif
