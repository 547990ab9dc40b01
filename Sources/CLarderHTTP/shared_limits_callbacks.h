// The shared limits as libmicrohttpd's accept policy and connection notifier (larder_start_daemon).
#ifndef LARDER_SHARED_LIMITS_CALLBACKS_H
#define LARDER_SHARED_LIMITS_CALLBACKS_H

#include "include/larder_microhttpd.h"

/// The accept policy: MHD_NO past the total or the address's limit; counts nothing.
enum MHD_Result larder_shared_limits_admit(void *cls, const struct sockaddr *address, socklen_t length);

/// Counts a connection in on MHD_CONNECTION_NOTIFY_STARTED, out on MHD_CONNECTION_NOTIFY_CLOSED.
void larder_shared_limits_notify(void *cls, struct MHD_Connection *connection, void **socket_context,
                                 enum MHD_ConnectionNotificationCode code);

#endif
