// libmicrohttpd's header as a Swift module; Larder's C around it is the CLarderHTTP target.
#ifndef LARDER_CMICROHTTPD_SHIM_H
#define LARDER_CMICROHTTPD_SHIM_H

#include <microhttpd.h>

#endif
