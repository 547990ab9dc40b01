// Starting a daemon with Larder's options, passed to MHD as one MHD_OPTION_ARRAY.
#ifndef LARDER_DAEMON_H
#define LARDER_DAEMON_H

#include "larder_microhttpd.h"
#include "larder_shared_limits.h"

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

/// Starts a daemon with `o`'s options (MHD_start_daemon is variadic); NULL when MHD refuses.
struct MHD_Daemon *larder_start_daemon(unsigned int flags, const struct larder_daemon_options *o,
                                       MHD_AccessHandlerCallback handler, void *handler_context);

/// The port the daemon really listens on (the answer to `--port 0`), or 0 if unknown.
uint16_t larder_daemon_port(struct MHD_Daemon *daemon);

#endif
