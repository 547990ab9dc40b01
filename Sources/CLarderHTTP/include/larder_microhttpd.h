// libmicrohttpd's header, and the version Larder needs of it.
#ifndef LARDER_MICROHTTPD_H
#define LARDER_MICROHTTPD_H

#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

// 1.0.10: the 1.0.x releases before it let request smuggling, crashes and a suspend/resume assertion
// through (docs/architecture.md). An older one is found when pkg-config finds the system's (Debian 12's
// libmicrohttpd-dev is 0.9.75): the message names the two commands that give the pinned build.
#if MHD_VERSION < 0x01001000
#error "Larder needs libmicrohttpd 1.0.10: run `make deps`, then `export PKG_CONFIG_PATH=$PWD/.build/libmicrohttpd/lib/pkgconfig` before swift build or swift test (docs/testing.md)"
#endif

#endif
