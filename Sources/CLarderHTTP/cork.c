// TCP_CORK around a large answer. libmicrohttpd sends with TCP_NODELAY and no cork, so a body larger
// than the socket's buffer leaves in whatever pieces the buffer frees, each pushed at once: on this
// machine a 346 KB answer cost twice the CPU of the same bytes corked (docs/performance.md).
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include "larder_cork.h"

int larder_cork(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (info == NULL) return -1;
    int socket = info->connect_fd;
    int on = 1;
    return setsockopt(socket, IPPROTO_TCP, TCP_CORK, &on, sizeof on) == 0 ? socket : -1;
}

void larder_uncork(int socket) {
    int off = 0;
    (void)setsockopt(socket, IPPROTO_TCP, TCP_CORK, &off, sizeof off);
}
