// Wrappers around libmicrohttpd's variadic calls, which Swift cannot import.
#ifndef LARDER_CMICROHTTPD_SHIM_H
#define LARDER_CMICROHTTPD_SHIM_H

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <unistd.h>
#include <microhttpd.h>

#if MHD_VERSION < 0x01000000
#error "Larder needs libmicrohttpd 1.0 or later (MHD_OPTION_CLIENT_DISCIPLINE_LVL and its strict parser)"
#endif

/// Receives one formatted libmicrohttpd log line.
typedef void (*larder_log_fn)(void *context, const char *message);

/// Where libmicrohttpd's log lines go; owned by the Swift server, alive as long as the daemon.
struct larder_log_sink {
    larder_log_fn fn;
    void *context;
};

struct larder_shared_limits;
static enum MHD_Result larder_shared_limits_admit(void *cls, const struct sockaddr *address, socklen_t length);
static void larder_shared_limits_notify(void *cls, struct MHD_Connection *connection, void **socket_context,
                                        enum MHD_ConnectionNotificationCode code);

/// The daemon options Larder sets, passed to MHD as one MHD_OPTION_ARRAY.
struct larder_daemon_options {
    unsigned int thread_pool_size;
    unsigned int connection_timeout_seconds;
    unsigned int connection_limit;
    unsigned int per_ip_connection_limit;
    size_t connection_memory_limit;
    unsigned int listen_backlog;
    /// Nonzero: SO_REUSEPORT on the listening socket, so several daemons can listen on one port.
    int reuse_address;
    const struct sockaddr *bind_address;
    MHD_RequestCompletedCallback completed;
    void *completed_context;
    void *(*uri_log)(void *context, const char *uri, struct MHD_Connection *connection);
    void *uri_log_context;
    struct larder_log_sink *log_sink;
    /// When set, the connection limits shared by several daemons (larder_shared_limits): the
    /// daemon's own per-address limit is then off.
    struct larder_shared_limits *shared_limits;
};

static void larder_mhd_log_trampoline(void *cls, const char *format, va_list ap) {
    char line[512];
    vsnprintf(line, sizeof line, format, ap);
    size_t length = strlen(line);
    while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r')) {
        line[--length] = '\0';
    }
    struct larder_log_sink *sink = (struct larder_log_sink *)cls;
    sink->fn(sink->context, line);
}

// Leaves the URL and query arguments percent-encoded: Larder decodes them itself, segment by
// segment, so an encoded '/' or NUL is seen and judged instead of silently decoded by MHD.
static size_t larder_unescape_identity(void *cls, struct MHD_Connection *connection, char *value) {
    (void)cls;
    (void)connection;
    return strlen(value);
}

static inline struct MHD_Daemon *larder_start_daemon(unsigned int flags,
                                                     const struct larder_daemon_options *o,
                                                     MHD_AccessHandlerCallback handler,
                                                     void *handler_context) {
    struct MHD_OptionItem ops[18];
    int i = 0;
    // The logger goes first, so libmicrohttpd reports problems with the later options through it.
    if (o->log_sink != NULL) {
        ops[i++] = (struct MHD_OptionItem){MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)&larder_mhd_log_trampoline, o->log_sink};
    }
    ops[i++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)o->connection_timeout_seconds, NULL};
    ops[i++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_LIMIT, (intptr_t)o->connection_limit, NULL};
    ops[i++] = (struct MHD_OptionItem){MHD_OPTION_PER_IP_CONNECTION_LIMIT,
                                       (intptr_t)(o->shared_limits != NULL ? 0 : o->per_ip_connection_limit), NULL};
    if (o->shared_limits != NULL) {
        ops[i++] = (struct MHD_OptionItem){MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)&larder_shared_limits_notify,
                                           o->shared_limits};
    }
    ops[i++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)o->connection_memory_limit, NULL};
    ops[i++] = (struct MHD_OptionItem){MHD_OPTION_LISTEN_BACKLOG_SIZE, (intptr_t)o->listen_backlog, NULL};
    ops[i++] = (struct MHD_OptionItem){MHD_OPTION_SIGPIPE_HANDLED_BY_APP, 1, NULL};
    // Level 1, the strictest the RFCs allow a server: beyond the default's 400s (two Hosts, two
    // different Content-Lengths, whitespace before a colon, bare CR) it also refuses what a parser
    // in front may read differently: a repeated Content-Length, Content-Length with chunked,
    // obs-fold, bare LF line ends. Level 2 would break the RFCs (chunk-extension whitespace).
    ops[i++] = (struct MHD_OptionItem){MHD_OPTION_CLIENT_DISCIPLINE_LVL, 1, NULL};
    if (o->thread_pool_size > 1) {  // a pool of one is the internal thread alone; MHD warns otherwise
        ops[i++] = (struct MHD_OptionItem){MHD_OPTION_THREAD_POOL_SIZE, (intptr_t)o->thread_pool_size, NULL};
    }
    ops[i++] = (struct MHD_OptionItem){MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t)&larder_unescape_identity, NULL};
    if (o->reuse_address) {
        ops[i++] = (struct MHD_OptionItem){MHD_OPTION_LISTENING_ADDRESS_REUSE, 1, NULL};
    }
    if (o->bind_address != NULL) {
        ops[i++] = (struct MHD_OptionItem){MHD_OPTION_SOCK_ADDR, 0, (void *)o->bind_address};
    }
    if (o->completed != NULL) {
        ops[i++] = (struct MHD_OptionItem){MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)o->completed, o->completed_context};
    }
    if (o->uri_log != NULL) {
        ops[i++] = (struct MHD_OptionItem){MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)o->uri_log, o->uri_log_context};
    }
    ops[i++] = (struct MHD_OptionItem){MHD_OPTION_END, 0, NULL};
    MHD_AcceptPolicyCallback admit = o->shared_limits != NULL ? &larder_shared_limits_admit : NULL;
    return MHD_start_daemon(flags, 0, admit, o->shared_limits, handler, handler_context,
                            MHD_OPTION_ARRAY, ops, MHD_OPTION_END);
}

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

/// The port the daemon really listens on (the answer to `--port 0`), or 0 if unknown.
static inline uint16_t larder_daemon_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// The connection limit and the per-address limit across several daemons (one per loop, sharing
/// a port through SO_REUSEPORT), which libmicrohttpd counts per daemon only. The accept policy
/// callback only checks the counts; a connection is counted on MHD_CONNECTION_NOTIFY_STARTED and
/// uncounted on MHD_CONNECTION_NOTIFY_CLOSED, which libmicrohttpd sends in pairs. Counting in the
/// policy callback leaked: after it, libmicrohttpd can still drop the connection (no memory for it
/// or its pool, its own limit) without a CLOSED. Daemons admitting at the same instant can overshoot
/// the limit by at most one connection per other daemon. The addresses are an open-addressing table, linear probing,
/// deletion by backward shift, sized for the connection limit (each counted address holds one).
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

/// A table for `limit` connections, `per_address_limit` from one address (0: no such limit); NULL without memory.
static inline struct larder_shared_limits *larder_shared_limits_create(unsigned int limit, unsigned int per_address_limit) {
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

/// Frees the table, once every daemon using it has stopped.
static inline void larder_shared_limits_destroy(struct larder_shared_limits *limits) {
    pthread_mutex_destroy(&limits->lock);
    free(limits->table);
    free(limits);
}

/// The address's bytes (IPv4, or IPv6 as it is), the key; 0 for another family.
static inline unsigned char larder_address_key(const struct sockaddr *address, unsigned char key[16]) {
    if (address->sa_family == AF_INET) {
        memcpy(key, &((const struct sockaddr_in *)address)->sin_addr, 4);
        return 4;
    }
    if (address->sa_family == AF_INET6) {
        memcpy(key, &((const struct sockaddr_in6 *)address)->sin6_addr, 16);
        return 16;
    }
    return 0;
}

/// The slot holding the key, or the free slot where it would go. Called under the lock.
static inline size_t larder_shared_limits_slot(const struct larder_shared_limits *limits, const unsigned char *key,
                                               unsigned char length) {
    uint32_t hash = 2166136261u;  // FNV-1a
    for (unsigned char i = 0; i < length; i++) hash = (hash ^ key[i]) * 16777619u;
    size_t slot = hash & limits->mask;
    while (limits->table[slot].count != 0
           && (limits->table[slot].length != length || memcmp(limits->table[slot].address, key, length) != 0)) {
        slot = (slot + 1) & limits->mask;
    }
    return slot;
}

static inline size_t larder_shared_limits_home(const struct larder_shared_limits *limits, size_t slot) {
    uint32_t hash = 2166136261u;
    for (unsigned char i = 0; i < limits->table[slot].length; i++) hash = (hash ^ limits->table[slot].address[i]) * 16777619u;
    return hash & limits->mask;
}

static enum MHD_Result larder_shared_limits_admit(void *cls, const struct sockaddr *address, socklen_t length) {
    (void)length;
    struct larder_shared_limits *limits = (struct larder_shared_limits *)cls;
    unsigned char key[16];
    unsigned char key_length = larder_address_key(address, key);
    pthread_mutex_lock(&limits->lock);
    int admitted = limits->total < limits->limit
        && (key_length == 0 || limits->per_address_limit == 0
            || limits->table[larder_shared_limits_slot(limits, key, key_length)].count < limits->per_address_limit);
    pthread_mutex_unlock(&limits->lock);
    return admitted ? MHD_YES : MHD_NO;
}

/// Counts a started connection in. Called under the lock.
static void larder_shared_limits_add(struct larder_shared_limits *limits, const unsigned char *key, unsigned char key_length) {
    limits->total++;
    if (key_length == 0) return;
    struct larder_address_count *entry = &limits->table[larder_shared_limits_slot(limits, key, key_length)];
    if (entry->count == 0) {
        memcpy(entry->address, key, key_length);
        entry->length = key_length;
    }
    entry->count++;
}

/// Counts a closed connection out. Called under the lock.
static void larder_shared_limits_remove(struct larder_shared_limits *limits, const unsigned char *key,
                                        unsigned char key_length) {
    if (limits->total > 0) limits->total--;
    if (key_length == 0) return;
    size_t slot = larder_shared_limits_slot(limits, key, key_length);
    if (limits->table[slot].count > 1) {
        limits->table[slot].count--;
    } else if (limits->table[slot].count == 1) {
        // Backward-shift deletion: later entries of the probe run move into the gap.
        limits->table[slot].count = 0;
        size_t gap = slot, next = (slot + 1) & limits->mask;
        while (limits->table[next].count != 0) {
            size_t home = larder_shared_limits_home(limits, next);
            // Movable unless its home lies cyclically in (gap, next].
            if (((next - home) & limits->mask) >= ((next - gap) & limits->mask)) {
                limits->table[gap] = limits->table[next];
                limits->table[next].count = 0;
                gap = next;
            }
            next = (next + 1) & limits->mask;
        }
    }
}

static void larder_shared_limits_notify(void *cls, struct MHD_Connection *connection, void **socket_context,
                                        enum MHD_ConnectionNotificationCode code) {
    (void)socket_context;
    if (code != MHD_CONNECTION_NOTIFY_STARTED && code != MHD_CONNECTION_NOTIFY_CLOSED) return;
    struct larder_shared_limits *limits = (struct larder_shared_limits *)cls;
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    unsigned char key[16];
    unsigned char key_length = info == NULL || info->client_addr == NULL ? 0 : larder_address_key(info->client_addr, key);
    pthread_mutex_lock(&limits->lock);
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        larder_shared_limits_add(limits, key, key_length);
    } else {
        larder_shared_limits_remove(limits, key, key_length);
    }
    pthread_mutex_unlock(&limits->lock);
}

/// 0 when nothing listens on the address, else the errno of binding it (EADDRINUSE). Daemons that
/// share a port with SO_REUSEPORT would join another process's group on it instead of failing:
/// this bind, without SO_REUSEPORT, fails while any socket listens there. SO_REUSEADDR as
/// libmicrohttpd sets it, so connections of a stopped server left in TIME_WAIT do not count.
static inline int larder_address_is_free(const struct sockaddr *address) {
    socklen_t length = address->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
    int probe = socket(address->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (probe < 0) return errno;
    int on = 1;
    setsockopt(probe, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (address->sa_family == AF_INET6) setsockopt(probe, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof on);
    int failed = bind(probe, address, length) == 0 ? 0 : errno;
    close(probe);
    return failed;
}

/// Sets the port of an IPv4 or IPv6 socket address (the same offset in both).
static inline void larder_sockaddr_set_port(struct sockaddr *address, uint16_t port) {
    ((struct sockaddr_in *)address)->sin_port = htons(port);
}

/// The thread that drives a daemon started with MHD_USE_EPOLL (no internal thread). The blocking
/// wait is ours: libmicrohttpd's own MHD_epoll() computes its timeout once and, when an epoll_wait
/// returns exactly 128 events, waits again with that full timeout while the 128 connections it
/// just learnt of sit unserved (bench/epoll-churn.c). Called with a zero timeout it never sleeps.
struct larder_epoll_loop {
    struct MHD_Daemon *daemon;
    int wake_fd;  // an eventfd written by larder_epoll_loop_stop
    pthread_t thread;
};

// glibc declares it only under _GNU_SOURCE, which an includer may have left undefined.
extern int pthread_setname_np(pthread_t thread, const char *name);

static void *larder_epoll_loop_main(void *argument) {
    struct larder_epoll_loop *loop = (struct larder_epoll_loop *)argument;
    pthread_setname_np(pthread_self(), "larder-http");  // in top -H and perf, not the creator's name
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(loop->daemon, MHD_DAEMON_INFO_EPOLL_FD);
    struct pollfd fds[2] = {{.fd = info->epoll_fd, .events = POLLIN}, {.fd = loop->wake_fd, .events = POLLIN}};
    for (;;) {
        // Resumes and new work wake the epoll fd through MHD's ITC; the 1 s cap is only a backstop.
        uint64_t timeout = 1000;
        int wait = 1000;
        if (MHD_get_timeout64(loop->daemon, &timeout) == MHD_YES && timeout < 1000) wait = (int)timeout;
        if (poll(fds, 2, wait) < 0 && errno != EINTR) break;
        if (fds[1].revents != 0) break;
        MHD_run_wait(loop->daemon, 0);
    }
    return NULL;
}

/// Starts the loop's thread; 0 on success, else an errno.
static inline int larder_epoll_loop_start(struct larder_epoll_loop *loop, struct MHD_Daemon *daemon) {
    loop->daemon = daemon;
    loop->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (loop->wake_fd < 0) return errno;
    int failed = pthread_create(&loop->thread, NULL, larder_epoll_loop_main, loop);
    if (failed != 0) close(loop->wake_fd);
    return failed;
}

/// Ends the loop and joins its thread; the daemon is then the caller's to stop.
static inline void larder_epoll_loop_stop(struct larder_epoll_loop *loop) {
    uint64_t one = 1;
    while (write(loop->wake_fd, &one, sizeof one) < 0 && errno == EINTR) {}
    pthread_join(loop->thread, NULL);
    close(loop->wake_fd);
}

#endif
