// Reproducer for libmicrohttpd's epoll stall, server and clients in one process.
//
//   epoll-churn MODE burst N [LIMIT]
//                                 N idle keep-alive connections; while a slow request holds the
//                                 daemon's thread for 300 ms, one request goes out on each of the
//                                 N; prints how long the slowest answer took. With LIMIT (seconds),
//                                 exits 1 when an answer is lost or the slowest took longer.
//   epoll-churn MODE churn WAVES  waves of 300 new connections (three rounds of one request on
//                                 each, sent before reading; answers awaited 3 s) while BUSY
//                                 (environment, default 16) keep-alive connections run requests
//                                 flat out; prints connections lost, and the longest gap of the
//                                 busy ones.
//   MODE: poll   (MHD_USE_POLL_INTERNAL_THREAD, what Larder used)
//         epoll  (MHD_USE_EPOLL_INTERNAL_THREAD)
//         ext    (MHD_USE_EPOLL driven from our own thread: poll(2) on MHD's epoll fd, then
//                 MHD_run_wait(daemon, 0), Larder's loop until 2026-11-29; since then it waits
//                 in MHD_epoll() as `epoll` does, on the patched library)
//
// The cause, in daemon.c MHD_epoll(): the wait timeout is computed once, before the loop
// `while (MAX_EVENTS == num_events) epoll_wait(..., MAX_EVENTS, timeout_ms)`. When one call
// returns exactly MAX_EVENTS (128) events, the loop calls epoll_wait again with the same timeout,
// and if nothing else is ready by then it sleeps up to the nearest connection timeout (or forever)
// while the 128 connections it just learnt of sit unserved in the eready list. Their requests
// were edge-triggered events already consumed, so only some unrelated new event (or a timeout)
// wakes it. `burst 128` stalls every time; 127 and 129 never do; `ext` never does, because there
// MHD_epoll is called with a zero timeout and the blocking wait is ours. With the patch that
// tools/deps/libmicrohttpd.sh applies (tools/deps/libmicrohttpd-epoll-timeout.patch: a zero timeout for
// every epoll_wait after the first), `epoll burst 128` answers as promptly as the others; `make
// epoll-churn` checks that (docs/libmicrohttpd-epoll-patch.md).
//
// build: gcc -O2 -pthread -o epoll-churn bench/epoll-churn.c
//          $(PKG_CONFIG_PATH=.build/libmicrohttpd/lib/pkgconfig pkg-config --cflags --libs --static libmicrohttpd)
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static struct MHD_Response *ok;
static uint16_t port;
static atomic_bool stopping;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url,
                              const char *method, const char *version, const char *upload_data,
                              size_t *upload_data_size, void **con_cls) {
    (void)cls; (void)method; (void)version; (void)upload_data; (void)upload_data_size;
    if (*con_cls == NULL) {  // headers-only first call: answer on the second (as Larder does)
        *con_cls = (void *)1;
        return MHD_YES;
    }
    // Holds the daemon's only thread, so the burst's requests are all ready at its next wait.
    if (strcmp(url, "/slow") == 0) usleep(300 * 1000);
    return MHD_queue_response(connection, MHD_HTTP_OK, ok);
}

// The `ext` mode's loop: the blocking wait is ours, MHD only ever runs with a zero timeout.
static void *external_loop(void *arg) {
    struct MHD_Daemon *daemon = arg;
    int epoll_fd = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_EPOLL_FD)->epoll_fd;
    while (!atomic_load(&stopping)) {
        uint64_t timeout = 0;
        int wait = MHD_get_timeout64(daemon, &timeout) == MHD_YES ? (int)(timeout > 1000 ? 1000 : timeout) : 1000;
        struct pollfd p = {.fd = epoll_fd, .events = POLLIN};
        poll(&p, 1, wait);
        MHD_run_wait(daemon, 0);
    }
    return NULL;
}

static int connect_to_server(double timeout) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    struct timeval tv = {.tv_sec = (time_t)timeout, .tv_usec = (suseconds_t)((timeout - (int)timeout) * 1e6)};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) { close(fd); return -1; }
    return fd;
}

static int send_request(int fd, const char *path) {
    char line[128];
    int n = snprintf(line, sizeof line, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", path);
    return send(fd, line, (size_t)n, MSG_NOSIGNAL) == n ? 0 : -1;
}

// Reads one whole answer (headers and the 2-byte body); -1 on timeout or close.
static int read_answer(int fd) {
    char buffer[4096];
    size_t have = 0;
    for (;;) {
        ssize_t n = recv(fd, buffer + have, sizeof buffer - 1 - have, 0);
        if (n <= 0) return -1;
        have += (size_t)n;
        buffer[have] = '\0';
        char *end = strstr(buffer, "\r\n\r\n");
        if (end != NULL && (size_t)(end + 4 - buffer) + 2 <= have) return 0;
    }
}

// Returns whether every answer came, the slowest within `limit` seconds (no limit when negative).
static bool burst(int count, double limit) {
    int *fds = calloc((size_t)count, sizeof *fds);
    for (int i = 0; i < count; i++) {  // open and use each once, so all are accepted and idle
        fds[i] = connect_to_server(30);
        if (fds[i] < 0 || send_request(fds[i], "/") != 0 || read_answer(fds[i]) != 0) { puts("setup failed"); exit(1); }
    }
    int slow = connect_to_server(30);
    send_request(slow, "/slow");
    usleep(100 * 1000);  // the daemon is now inside the slow handler
    for (int i = 0; i < count; i++) send_request(fds[i], "/");
    double start = now(), slowest = 0;
    int lost = 0;
    for (int i = 0; i < count; i++) {
        if (read_answer(fds[i]) != 0) lost++;
        double took = now() - start;
        if (took > slowest) slowest = took;
    }
    read_answer(slow);
    bool prompt = lost == 0 && (limit < 0 || slowest <= limit);
    printf("burst %d: slowest answer %.3f s after the requests, %d lost", count, slowest, lost);
    if (limit >= 0) printf(prompt ? " (ok: within %.0f s)" : " (FAILED: more than %.0f s, or lost)", limit);
    printf("\n");
    for (int i = 0; i < count; i++) close(fds[i]);
    close(slow);
    free(fds);
    return prompt;
}

static _Atomic double worst_gap;

// One busy keep-alive client, like a wrk connection: request, answer, again.
static void *busy_client(void *arg) {
    (void)arg;
    int fd = connect_to_server(10);
    double last = now();
    while (!atomic_load(&stopping)) {
        if (send_request(fd, "/") != 0 || read_answer(fd) != 0) { close(fd); fd = connect_to_server(10); }
        double t = now();
        if (t - last > atomic_load(&worst_gap)) atomic_store(&worst_gap, t - last);
        last = t;
    }
    close(fd);
    return NULL;
}

static void churn(int waves) {
    int busy_count = getenv("BUSY") != NULL ? atoi(getenv("BUSY")) : 16;
    pthread_t busy[256];
    if (busy_count > 256) busy_count = 256;
    for (int i = 0; i < busy_count; i++) pthread_create(&busy[i], NULL, busy_client, NULL);
    int lost = 0, slow_waves = 0;
    double slowest_wave = 0;
    for (int wave = 0; wave < waves; wave++) {
        int fds[300];
        double start = now();
        for (int i = 0; i < 300; i++) fds[i] = connect_to_server(3);
        // Three rounds on the same connections, each request sent before any answer is read:
        // bursts of up to 300 ready connections, as in ConcurrencyTests' churn test.
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 300; i++) {
                if (fds[i] >= 0 && send_request(fds[i], "/") != 0) { lost++; close(fds[i]); fds[i] = -1; }
            }
            for (int i = 0; i < 300; i++) {
                if (fds[i] >= 0 && read_answer(fds[i]) != 0) { lost++; close(fds[i]); fds[i] = -1; }
            }
        }
        for (int i = 0; i < 300; i++) if (fds[i] >= 0) close(fds[i]);
        double took = now() - start;
        if (took > 1) slow_waves++;
        if (took > slowest_wave) slowest_wave = took;
    }
    atomic_store(&stopping, true);
    for (int i = 0; i < busy_count; i++) pthread_join(busy[i], NULL);
    printf("churn %d waves of 300: %d connections lost (no answer in 3 s), %d waves over 1 s, "
           "slowest wave %.2f s, longest gap of a busy connection %.2f s\n",
           waves, lost, slow_waves, slowest_wave, atomic_load(&worst_gap));
}

int main(int argc, char **argv) {
    if (argc != 4 && !(argc == 5 && strcmp(argv[2], "burst") == 0)) {
        fprintf(stderr, "usage: %s poll|epoll|ext burst N [LIMIT] | churn WAVES\n", argv[0]);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    struct rlimit limit = {65536, 65536};
    setrlimit(RLIMIT_NOFILE, &limit);
    ok = MHD_create_response_from_buffer(2, "ok", MHD_RESPMEM_PERSISTENT);
    unsigned int flags = MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ITC | MHD_USE_ERROR_LOG;
    if (strcmp(argv[1], "poll") == 0) flags |= MHD_USE_POLL_INTERNAL_THREAD;
    else if (strcmp(argv[1], "epoll") == 0) flags |= MHD_USE_EPOLL_INTERNAL_THREAD;
    else flags |= MHD_USE_EPOLL;
    struct MHD_Daemon *daemon = MHD_start_daemon(
        flags, 0, NULL, NULL, &answer, NULL,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)30,  // Larder's default: the stall's ceiling
        MHD_OPTION_CONNECTION_LIMIT, (unsigned int)4096,
        MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned int)1024, MHD_OPTION_END);
    if (daemon == NULL) { fputs("cannot start\n", stderr); return 1; }
    port = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT)->port;
    pthread_t loop;
    if ((flags & MHD_USE_INTERNAL_POLLING_THREAD) == 0) pthread_create(&loop, NULL, external_loop, daemon);
    bool passed = true;
    if (strcmp(argv[2], "burst") == 0) passed = burst(atoi(argv[3]), argc == 5 ? atof(argv[4]) : -1);
    else churn(atoi(argv[3]));
    atomic_store(&stopping, true);
    if ((flags & MHD_USE_INTERNAL_POLLING_THREAD) == 0) pthread_join(loop, NULL);
    MHD_stop_daemon(daemon);
    return passed ? 0 : 1;
}
