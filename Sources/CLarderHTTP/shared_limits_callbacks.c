// The accept policy callback only checks the counts; a connection is counted on
// MHD_CONNECTION_NOTIFY_STARTED and uncounted on MHD_CONNECTION_NOTIFY_CLOSED, which libmicrohttpd
// sends in pairs. Counting in the policy callback leaked: after it, libmicrohttpd can still drop the
// connection (no memory for it or its pool, its own limit) without a CLOSED. Daemons admitting at the
// same instant can overshoot the limit by at most one connection per other daemon.
#include "shared_limits_callbacks.h"

#include <netinet/in.h>
#include <string.h>

#include "shared_limits_table.h"

// The address's bytes (IPv4, or IPv6 as it is), the key; 0 for another family.
static unsigned char address_key(const struct sockaddr *address, unsigned char key[16]) {
    if (address->sa_family == AF_INET) {
        memcpy(key, &((const struct sockaddr_in *)address)->sin_addr, 4);
        return 4;
    }
    if (address->sa_family == AF_INET6) {
        memcpy(key, &((const struct sockaddr_in6 *)address)->sin6_addr, 16);
        return 16;
    }
    return 0;
}

enum MHD_Result larder_shared_limits_admit(void *cls, const struct sockaddr *address, socklen_t length) {
    (void)length;
    struct larder_shared_limits *limits = (struct larder_shared_limits *)cls;
    unsigned char key[16];
    unsigned char key_length = address_key(address, key);
    pthread_mutex_lock(&limits->lock);
    int admitted = larder_shared_limits_admits(limits, key, key_length);
    pthread_mutex_unlock(&limits->lock);
    return admitted ? MHD_YES : MHD_NO;
}

void larder_shared_limits_notify(void *cls, struct MHD_Connection *connection, void **socket_context,
                                 enum MHD_ConnectionNotificationCode code) {
    (void)socket_context;
    if (code != MHD_CONNECTION_NOTIFY_STARTED && code != MHD_CONNECTION_NOTIFY_CLOSED) return;
    struct larder_shared_limits *limits = (struct larder_shared_limits *)cls;
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    unsigned char key[16];
    unsigned char key_length = info == NULL || info->client_addr == NULL ? 0 : address_key(info->client_addr, key);
    pthread_mutex_lock(&limits->lock);
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        larder_shared_limits_add(limits, key, key_length);
    } else {
        larder_shared_limits_remove(limits, key, key_length);
    }
    pthread_mutex_unlock(&limits->lock);
}
