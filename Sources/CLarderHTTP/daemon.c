#include "include/larder_daemon.h"

#include <stdio.h>
#include <string.h>

#include "shared_limits_callbacks.h"

static void log_trampoline(void *cls, const char *format, va_list ap) {
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
static size_t unescape_identity(void *cls, struct MHD_Connection *connection, char *value) {
    (void)cls;
    (void)connection;
    return strlen(value);
}

struct MHD_Daemon *larder_start_daemon(unsigned int flags, const struct larder_daemon_options *o,
                                       MHD_AccessHandlerCallback handler, void *handler_context) {
    struct MHD_OptionItem ops[18];
    int i = 0;
    // The logger goes first, so libmicrohttpd reports problems with the later options through it.
    if (o->log_sink != NULL) {
        ops[i++] = (struct MHD_OptionItem){MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)&log_trampoline, o->log_sink};
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
    ops[i++] = (struct MHD_OptionItem){MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t)&unescape_identity, NULL};
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

uint16_t larder_daemon_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}
