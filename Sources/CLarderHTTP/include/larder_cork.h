// Corking a connection's socket around a large answer, as nginx's `tcp_nopush` does.
#ifndef LARDER_CORK_H
#define LARDER_CORK_H

#include "larder_microhttpd.h"

/// Sets TCP_CORK on the connection's socket: until it is cleared, the kernel sends only full
/// segments. Returns the socket, or -1 when it could not be set.
int larder_cork(struct MHD_Connection *connection);

/// Clears TCP_CORK on `socket` (from `larder_cork`): what is held leaves at once.
void larder_uncork(int socket);

#endif
