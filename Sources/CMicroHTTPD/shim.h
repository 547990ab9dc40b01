// Wrappers around libmicrohttpd's variadic calls, which Swift cannot import.
#ifndef LARDER_CMICROHTTPD_SHIM_H
#define LARDER_CMICROHTTPD_SHIM_H

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
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

/// The daemon options Larder sets, passed to MHD as one MHD_OPTION_ARRAY.
struct larder_daemon_options {
    unsigned int thread_pool_size;
    unsigned int connection_timeout_seconds;
    unsigned int connection_limit;
    unsigned int per_ip_connection_limit;
    size_t connection_memory_limit;
    unsigned int listen_backlog;
    const struct sockaddr *bind_address;
    MHD_RequestCompletedCallback completed;
    void *completed_context;
    void *(*uri_log)(void *context, const char *uri, struct MHD_Connection *connection);
    void *uri_log_context;
    struct larder_log_sink *log_sink;
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
    struct MHD_OptionItem ops[16];
    int i = 0;
    // The logger goes first, so libmicrohttpd reports problems with the later options through it.
    if (o->log_sink != NULL) {
        ops[i++] = (struct MHD_OptionItem){MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)&larder_mhd_log_trampoline, o->log_sink};
    }
    ops[i++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)o->connection_timeout_seconds, NULL};
    ops[i++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_LIMIT, (intptr_t)o->connection_limit, NULL};
    ops[i++] = (struct MHD_OptionItem){MHD_OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t)o->per_ip_connection_limit, NULL};
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
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_context,
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

/// The thread that drives a daemon started with MHD_USE_EPOLL (no internal thread). The blocking
/// wait is ours: libmicrohttpd's own MHD_epoll() computes its timeout once and, when an epoll_wait
/// returns exactly 128 events, waits again with that full timeout while the 128 connections it
/// just learnt of sit unserved (bench/epoll-churn.c). Called with a zero timeout it never sleeps.
struct larder_epoll_loop {
    struct MHD_Daemon *daemon;
    int wake_fd;  // an eventfd written by larder_epoll_loop_stop
    pthread_t thread;
};

static void *larder_epoll_loop_main(void *argument) {
    struct larder_epoll_loop *loop = (struct larder_epoll_loop *)argument;
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
