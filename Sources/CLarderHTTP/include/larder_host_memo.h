// The last Host value a loop thread saw its server allow: a keep-alive client sends the same Host on
// every request, and checking it anew (its RFC 3986 shape, then the allowlist) cost each request some
// 450 instructions (make bench-instructions).
#ifndef LARDER_HOST_MEMO_H
#define LARDER_HOST_MEMO_H

#include <stddef.h>

/// Longer values are never remembered (they are checked every time).
#define LARDER_HOST_MEMO_MAX 128

/// 1 when `value` (`length` bytes) is the value this thread last remembered for `owner` (the server
/// whose allowlist allowed it), else 0.
int larder_host_memo_hit(const void *owner, const char *value, size_t length);

/// Remembers `value` as allowed by `owner`'s allowlist, for this thread (an allowlist never changes
/// while its server runs, and each loop thread serves one server).
void larder_host_memo_keep(const void *owner, const char *value, size_t length);

#endif
