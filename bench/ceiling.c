// The ceiling of Larder's stack for `make bench`: libmicrohttpd in the daemon mode Larder uses
// (poll(2), one thread or a pool, suspend/resume allowed), answering each URL from one buffer
// prepared at start. No routing beyond an exact match, no headers built per request: what
// libmicrohttpd alone costs, which Larder cannot beat.
//
// usage: ceiling PORT THREADS URL=FILE[:CONTENT-TYPE][|NAME: VALUE]... ...
//   Each URL answers 200 with the file's bytes and the given header fields (the ones Larder sends
//   with that answer, so both put the same bytes on the wire), or 304 when If-None-Match matches
//   its ETag (the given one, else a fixed one).
#include <arpa/inet.h>
#include <microhttpd.h>
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
    unsigned int flags = MHD_USE_POLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ITC;
    struct MHD_Daemon *daemon = MHD_start_daemon(
        flags, (uint16_t)port, NULL, NULL, answer, NULL,
        // A pool of one is the internal thread alone (MHD warns otherwise), as in Larder.
        MHD_OPTION_THREAD_POOL_SIZE, threads > 1 ? threads : 0u,
        MHD_OPTION_CONNECTION_TIMEOUT, 30u,
        MHD_OPTION_CONNECTION_LIMIT, 4096u,
        MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024u,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
        MHD_OPTION_END);
    if (daemon == NULL) {
        fprintf(stderr, "ceiling: cannot listen on port %d\n", port);
        return 1;
    }
    printf("ceiling listening on http://127.0.0.1:%d with %u threads\n", port, threads);
    fflush(stdout);
    pause();
    MHD_stop_daemon(daemon);
    return 0;
}
