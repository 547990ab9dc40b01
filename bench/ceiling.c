// The ceiling of Larder's stack for `make bench`: libmicrohttpd in the daemon mode Larder uses
// (its loop from Sources/CLarderHTTP, one thread or several, suspend/resume allowed),
// answering each URL from one buffer prepared at start. No routing beyond an exact match, no
// headers built per request: what libmicrohttpd alone costs, which Larder cannot beat.
//
// usage: ceiling PORT THREADS[:MODE] URL=FILE[:CONTENT-TYPE][|NAME: VALUE]... ...
//   MODE: `own` (default: Larder's; one daemon on Larder's epoll loop, or one per thread on a shared
//   SO_REUSEPORT port), `library` (libmicrohttpd's epoll thread or pool) or `poll` (its poll(2) pool).
//   CEILING_MEMORY_LIMIT: libmicrohttpd's per-connection memory pool in bytes (default 32 KiB, Larder's).
//   Each URL answers 200 with the file's bytes and the given header fields (the ones Larder sends
//   with that answer, so both put the same bytes on the wire), or 304 when If-None-Match matches
//   its ETag (the given one, else a fixed one).
#include <arpa/inet.h>
#include "../Sources/CLarderHTTP/include/CLarderHTTP.h"
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

struct route {
    char *url;
    char etag[128];
    struct MHD_Response *ok;
    struct MHD_Response *not_modified;
};

static struct route routes[16];
static int route_count;

static struct route *find(const char *url) {
    for (int i = 0; i < route_count; i++) {
        if (strcmp(routes[i].url, url) == 0) return &routes[i];
    }
    return NULL;
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url,
                              const char *method, const char *version, const char *upload_data,
                              size_t *upload_data_size, void **con_cls) {
    (void)cls; (void)method; (void)version; (void)upload_data; (void)upload_data_size;
    // Queueing on the headers-only first call makes 0.9.75 close the connection (as in Larder).
    if (*con_cls == NULL) {
        *con_cls = (void *)1;
        return MHD_YES;
    }
    struct route *route = find(url);
    if (route == NULL) route = &routes[0];
    const char *match = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "If-None-Match");
    if (match != NULL && strcmp(match, route->etag) == 0) {
        return MHD_queue_response(connection, MHD_HTTP_NOT_MODIFIED, route->not_modified);
    }
    return MHD_queue_response(connection, MHD_HTTP_OK, route->ok);
}

static void *load(const char *path, size_t *size) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) { perror(path); exit(1); }
    fseek(file, 0, SEEK_END);
    *size = (size_t)ftell(file);
    fseek(file, 0, SEEK_SET);
    void *bytes = malloc(*size > 0 ? *size : 1);
    if (*size > 0 && fread(bytes, 1, *size, file) != *size) { perror(path); exit(1); }
    fclose(file);
    return bytes;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s PORT THREADS URL=FILE[:CONTENT-TYPE] ...\n", argv[0]);
        return 64;
    }
    signal(SIGPIPE, SIG_IGN);
    int port = atoi(argv[1]);
    unsigned int threads = (unsigned int)atoi(argv[2]);
    for (int i = 3; i < argc && route_count < 16; i++) {
        char *spec = strdup(argv[i]);
        char *equals = strchr(spec, '=');
        if (equals == NULL) { fprintf(stderr, "bad route %s\n", argv[i]); return 64; }
        *equals = '\0';
        char *path = equals + 1;
        char *fields = strchr(path, '|');
        if (fields != NULL) *fields++ = '\0';
        char *type = strchr(path, ':');
        if (type != NULL) *type++ = '\0';
        struct route *route = &routes[route_count];
        route->url = spec;
        size_t size;
        void *bytes = load(path, &size);
        snprintf(route->etag, sizeof route->etag, "\"ceiling-%d-%zu\"", route_count, size);
        route->ok = MHD_create_response_from_buffer(size, bytes, MHD_RESPMEM_PERSISTENT);
        route->not_modified = MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
        int has_etag = 0;
        while (fields != NULL) {
            char *next = strchr(fields, '|');
            if (next != NULL) *next++ = '\0';
            char *colon = strchr(fields, ':');
            if (colon == NULL) { fprintf(stderr, "bad header field %s\n", fields); return 64; }
            *colon = '\0';
            const char *value = colon + 1 + strspn(colon + 1, " ");
            MHD_add_response_header(route->ok, fields, value);
            if (strcasecmp(fields, "Content-Type") != 0) MHD_add_response_header(route->not_modified, fields, value);
            if (strcasecmp(fields, "ETag") == 0) {
                snprintf(route->etag, sizeof route->etag, "%s", value);
                has_etag = 1;
            }
            fields = next;
        }
        if (!has_etag) {
            MHD_add_response_header(route->ok, "ETag", route->etag);
            MHD_add_response_header(route->not_modified, "ETag", route->etag);
        }
        MHD_add_response_header(route->ok, "Content-Type", type != NULL ? type : "application/json");
        route_count++;
    }
    // Loopback only, like Larder's default bind address.
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const char *mode = strchr(argv[2], ':') != NULL ? strchr(argv[2], ':') + 1 : "own";
    int library = strcmp(mode, "library") == 0, poll_pool = strcmp(mode, "poll") == 0;
    unsigned int daemons = (library || poll_pool || threads < 2) ? 1 : threads;
    unsigned int flags = (library ? MHD_USE_EPOLL_INTERNAL_THREAD : poll_pool ? MHD_USE_POLL_INTERNAL_THREAD : MHD_USE_EPOLL)
        | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ITC;
    struct larder_daemon_options options = {
        .thread_pool_size = (library || poll_pool) ? threads : 1,
        .connection_timeout_seconds = 30,
        .connection_limit = 4096,
        .per_ip_connection_limit = 0,
        // Larder's default; CEILING_MEMORY_LIMIT (bytes) tries another.
        .connection_memory_limit = getenv("CEILING_MEMORY_LIMIT") != NULL ? (size_t)atol(getenv("CEILING_MEMORY_LIMIT")) : 32 * 1024,
        .listen_backlog = 1024,
        .reuse_address = daemons > 1,
        .bind_address = (struct sockaddr *)&address,
        // Several daemons count their connections together, as Larder's do.
        .shared_limits = daemons > 1 ? larder_shared_limits_create(4096, 0) : NULL,
    };
    static struct larder_epoll_loop loops[64];
    struct MHD_Daemon *daemon = NULL;
    for (unsigned int i = 0; i < daemons && i < 64; i++) {
        daemon = larder_start_daemon(flags, &options, answer, NULL);
        if (daemon == NULL) {
            fprintf(stderr, "ceiling: cannot listen on port %d\n", port);
            return 1;
        }
        if (!library && !poll_pool && larder_epoll_loop_start(&loops[i], daemon) != 0) {
            fprintf(stderr, "ceiling: cannot start a loop\n");
            return 1;
        }
        // The next daemons bind the port the first one got (port 0).
        larder_sockaddr_set_port((struct sockaddr *)&address, larder_daemon_port(daemon));
    }
    printf("ceiling listening on http://127.0.0.1:%d with %u threads (%s)\n", port, threads, mode);
    fflush(stdout);
    pause();
    return 0;
}
