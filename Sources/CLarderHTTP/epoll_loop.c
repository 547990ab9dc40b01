// The loop waits in libmicrohttpd's own epoll_wait (MHD_run_wait with a timeout): one system call per
// turn, where a wait of our own on the daemon's epoll fd before MHD_run_wait(d, 0) made two: 2-3 % of
// a small answer's CPU at 64 busy connections (docs/performance.md). It relies on
// tools/deps/libmicrohttpd-epoll-timeout.patch: unpatched, MHD_epoll() waits again with its full
// timeout after a batch of exactly 128 events, while those connections sit unserved (bench/epoll-churn.c).
#define _GNU_SOURCE  // pthread_setname_np
#include "include/larder_epoll_loop.h"

#include "include/larder_answer_memo.h"

#include <errno.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

// At least one turn a second: the answer memo's sweep runs on the loop's turns.
static const int32_t TURN_MS = 1000;

static void *loop_main(void *argument) {
    struct larder_epoll_loop *loop = (struct larder_epoll_loop *)argument;
    pthread_setname_np(pthread_self(), "larder-http");  // in top -H and perf, not the creator's name
    while (!__atomic_load_n(&loop->stopping, __ATOMIC_ACQUIRE)) {
        if (MHD_run_wait(loop->daemon, TURN_MS) != MHD_YES) {
            // A failed epoll_ctl or epoll_wait (out of memory, say): retry without spinning, the stop still heard.
            struct pollfd wake = {.fd = loop->wake_fd, .events = POLLIN};
            (void)poll(&wake, 1, 100);
        }
        larder_memo_sweep();
    }
    return NULL;
}

int larder_epoll_loop_start(struct larder_epoll_loop *loop, struct MHD_Daemon *daemon) {
    loop->daemon = daemon;
    loop->stopping = 0;
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_EPOLL_FD);
    if (info == NULL) return EINVAL;
    loop->epoll_fd = info->epoll_fd;
    loop->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (loop->wake_fd < 0) return errno;
    // In the daemon's own epoll set with a NULL pointer, which MHD_epoll() skips: the stop's write ends
    // the wait and nothing else.
    struct epoll_event wake = {.events = EPOLLIN, .data.ptr = NULL};
    int failed = epoll_ctl(loop->epoll_fd, EPOLL_CTL_ADD, loop->wake_fd, &wake) == 0 ? 0 : errno;
    if (failed == 0) failed = pthread_create(&loop->thread, NULL, loop_main, loop);
    if (failed != 0) {
        (void)epoll_ctl(loop->epoll_fd, EPOLL_CTL_DEL, loop->wake_fd, NULL);
        close(loop->wake_fd);
    }
    return failed;
}

void larder_epoll_loop_stop(struct larder_epoll_loop *loop) {
    __atomic_store_n(&loop->stopping, 1, __ATOMIC_RELEASE);
    uint64_t one = 1;
    while (write(loop->wake_fd, &one, sizeof one) < 0 && errno == EINTR) {}
    pthread_join(loop->thread, NULL);
    (void)epoll_ctl(loop->epoll_fd, EPOLL_CTL_DEL, loop->wake_fd, NULL);
    close(loop->wake_fd);
}
