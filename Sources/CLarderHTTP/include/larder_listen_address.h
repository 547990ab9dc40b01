// The listening address: whether another process listens there, and setting its port.
#ifndef LARDER_LISTEN_ADDRESS_H
#define LARDER_LISTEN_ADDRESS_H

#include <stdint.h>
#include <sys/socket.h>

/// 0 when nothing listens on the address, else the errno of binding it (EADDRINUSE).
int larder_address_is_free(const struct sockaddr *address);

/// Sets the port of an IPv4 or IPv6 socket address.
void larder_sockaddr_set_port(struct sockaddr *address, uint16_t port);

#endif
