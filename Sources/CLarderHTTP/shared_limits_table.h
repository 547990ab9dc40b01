// The shared limits' table of counts per address, apart from libmicrohttpd so that
// Tests/CLarderHTTP/shared_limits_test.c can drive it alone.
#ifndef LARDER_SHARED_LIMITS_TABLE_H
#define LARDER_SHARED_LIMITS_TABLE_H

#include <pthread.h>
#include <stddef.h>

#include "include/larder_shared_limits.h"

/// The counts, under `lock`. The addresses are an open-addressing table, linear probing, deletion
/// by backward shift, sized for the connection limit (each counted address holds one slot).
struct larder_shared_limits {
    pthread_mutex_t lock;
    unsigned int total;
    unsigned int limit;
    unsigned int per_address_limit;
    size_t mask;  // the table's size - 1, a power of two past twice the limit
    struct larder_address_count {
        unsigned char address[16];  // IPv4 in the first 4 bytes; count 0: free
        unsigned char length;
        unsigned int count;
    } *table;
};

/// The slot where the key's probe run starts.
size_t larder_shared_limits_home(const struct larder_shared_limits *limits, const unsigned char *key,
                                 unsigned char length);

/// The connections counted for the key (0 when absent). Called under the lock.
unsigned int larder_shared_limits_count(const struct larder_shared_limits *limits, const unsigned char *key,
                                        unsigned char length);

/// Whether one more connection from the key fits both limits; a key of length 0 (neither IPv4 nor
/// IPv6) counts in the total only. Called under the lock.
int larder_shared_limits_admits(const struct larder_shared_limits *limits, const unsigned char *key,
                                unsigned char length);

/// Counts a started connection in. Called under the lock.
void larder_shared_limits_add(struct larder_shared_limits *limits, const unsigned char *key, unsigned char length);

/// Counts a closed connection out. Called under the lock.
void larder_shared_limits_remove(struct larder_shared_limits *limits, const unsigned char *key,
                                 unsigned char length);

#endif
