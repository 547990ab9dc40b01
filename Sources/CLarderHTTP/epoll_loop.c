// The blocking wait is ours: libmicrohttpd's own MHD_epoll() computes its timeout once and, when an
// epoll_wait returns exactly 128 events, waits again with that full timeout while the 128 connections
// it just learnt of sit unserved (bench/epoll-churn.c). Called with a zero timeout it never sleeps.
#define _GNU_SOURCE  // pthread_setname_np
#include "include/larder_epoll_loop.h"

#include "include/larder_answer_memo.h"

#include <errno.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

static void *loop_main(void *argument) {
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
        larder_memo_sweep();
    }
    return NULL;
}

int larder_epoll_loop_start(struct larder_epoll_loop *loop, struct MHD_Daemon *daemon) {
    loop->daemon = daemon;
    loop->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (loop->wake_fd < 0) return errno;
    int failed = pthread_create(&loop->thread, NULL, loop_main, loop);
    if (failed != 0) close(loop->wake_fd);
    return failed;
}

void larder_epoll_loop_stop(struct larder_epoll_loop *loop) {
    uint64_t one = 1;
    while (write(loop->wake_fd, &one, sizeof one) < 0 && errno == EINTR) {}
    pthread_join(loop->thread, NULL);
    close(loop->wake_fd);
}
