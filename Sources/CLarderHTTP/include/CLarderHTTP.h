// Larder's C around libmicrohttpd: the answer memo, the daemon's options, the connection limits shared by several
// daemons, the epoll loop's thread, the Host memo, corking large answers, the files that hold them,
// and wrappers for MHD's variadic calls, which Swift cannot import.
#ifndef LARDER_CLARDERHTTP_H
#define LARDER_CLARDERHTTP_H

#include "larder_answer_memo.h"
#include "larder_cork.h"
#include "larder_daemon.h"
#include "larder_epoll_loop.h"
#include "larder_host_memo.h"
#include "larder_listen_address.h"
#include "larder_answer_file.h"
#include "larder_request.h"
#include "larder_shared_limits.h"

#endif
