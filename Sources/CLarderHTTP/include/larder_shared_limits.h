// The connection limit and the per-address limit across several daemons (one per loop, sharing a
// port through SO_REUSEPORT), which libmicrohttpd counts per daemon only.
#ifndef LARDER_SHARED_LIMITS_H
#define LARDER_SHARED_LIMITS_H

/// The shared counts: opaque outside shared_limits.c.
struct larder_shared_limits;

/// A table for `limit` connections, `per_address_limit` from one address (0: no such limit); NULL without memory.
struct larder_shared_limits *larder_shared_limits_create(unsigned int limit, unsigned int per_address_limit);

/// Frees the table, once every daemon using it has stopped.
void larder_shared_limits_destroy(struct larder_shared_limits *limits);

#endif
