#include "include/larder_listen_address.h"

#include <errno.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <unistd.h>

// Daemons that share a port with SO_REUSEPORT would join another process's group on it instead of
// failing: this bind, without SO_REUSEPORT, fails while any socket listens there. SO_REUSEADDR as
// libmicrohttpd sets it, so connections of a stopped server left in TIME_WAIT do not count.
int larder_address_is_free(const struct sockaddr *address) {
    socklen_t length = address->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
    int probe = socket(address->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (probe < 0) return errno;
    int on = 1;
    setsockopt(probe, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (address->sa_family == AF_INET6) setsockopt(probe, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof on);
    int failed = bind(probe, address, length) == 0 ? 0 : errno;
    close(probe);
    return failed;
}

// The port sits at the same offset in sockaddr_in and sockaddr_in6.
void larder_sockaddr_set_port(struct sockaddr *address, uint16_t port) {
    ((struct sockaddr_in *)address)->sin_port = htons(port);
}
