// libmicrohttpd's header, and the version Larder needs of it.
#ifndef LARDER_MICROHTTPD_H
#define LARDER_MICROHTTPD_H

#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

#if MHD_VERSION < 0x01000000
#error "Larder needs libmicrohttpd 1.0 or later (MHD_OPTION_CLIENT_DISCIPLINE_LVL and its strict parser)"
#endif

#endif
