// The thread that drives a daemon started with MHD_USE_EPOLL (no internal thread).
#ifndef LARDER_EPOLL_LOOP_H
#define LARDER_EPOLL_LOOP_H

#include <pthread.h>
#include "larder_microhttpd.h"

/// One daemon's loop; the caller owns its memory, from start to stop.
struct larder_epoll_loop {
    struct MHD_Daemon *daemon;
    int epoll_fd;     // the daemon's, which wake_fd joins
    int wake_fd;      // an eventfd written by larder_epoll_loop_stop
    int stopping;     // set once by larder_epoll_loop_stop; read with __atomic builtins
    pthread_t thread;
};

/// Starts the loop's thread; 0 on success, else an errno.
int larder_epoll_loop_start(struct larder_epoll_loop *loop, struct MHD_Daemon *daemon);

/// Ends the loop and joins its thread; the daemon is then the caller's to stop.
void larder_epoll_loop_stop(struct larder_epoll_loop *loop);

#endif
