// The answer memo: a later request for a target just answered from a prepared response is answered
// here, in C, without entering Swift, while that answer is still the one the route would give.
#ifndef LARDER_ANSWER_MEMO_H
#define LARDER_ANSWER_MEMO_H

#include <stdatomic.h>
#include <stdint.h>

#include "larder_microhttpd.h"

/// Longest request target the memo keeps (longer ones always take the route).
#define LARDER_MEMO_TARGET_MAX 512

/// Swift's side of a server: its callbacks, each passed `server`.
struct larder_memo_callbacks {
    void *server;
    /// Starts Swift's request context (what libmicrohttpd keeps as `con_cls`) for a target of that length.
    void *(*begin)(void *server, size_t target_length);
    MHD_AccessHandlerCallback access;
    MHD_RequestCompletedCallback completed;
    /// Told of each answer the memo gave (metrics): the entry's token, the status, the nanoseconds it took.
    void (*answered)(void *token, unsigned int status, int64_t nanoseconds);
    /// Lets go of an entry's token (a retained Swift object) when the entry is dropped.
    void (*release)(void *token);
};

/// One server's memo: its callbacks, whether it may answer, and its counts.
struct larder_memo_owner;

/// A memo for a server whose requests may carry at most `max_header_bytes` of header fields (as
/// Larder counts them); off until `larder_memo_set_enabled`. NULL when out of memory.
struct larder_memo_owner *larder_memo_owner_create(struct larder_memo_callbacks callbacks, size_t max_header_bytes);

/// Frees it, once its daemons are stopped.
void larder_memo_owner_destroy(struct larder_memo_owner *owner);

/// Sets the `server` passed to the callbacks (the Swift server, retained while its daemons run).
void larder_memo_set_server(struct larder_memo_owner *owner, void *server);

/// Turns answering on (nonzero) or off; off, every request takes the route (access logging, a stop).
void larder_memo_set_enabled(struct larder_memo_owner *owner, int enabled);

/// Requests the memo holds now, between their request line and their completion.
long larder_memo_in_flight(const struct larder_memo_owner *owner);

/// Answers the memo has given.
unsigned long long larder_memo_answers(const struct larder_memo_owner *owner);

/// What a route's prepared answer lets the memo repeat, and for how long.
struct larder_memo_answer {
    struct MHD_Response *ok;
    struct MHD_Response *not_modified;
    /// The `ETag` the answers carry, as sent (quoted).
    const char *etag;
    size_t etag_length;
    /// Nonzero: the 200 goes corked (`larder_cork`), as the route's would.
    int corked;
    /// What counts the changes to what the answer was computed from, and its count then.
    const struct larder_memo_changes *changes;
    uint64_t generation;
    /// The answer holds until this instant (CLOCK_REALTIME, nanoseconds since 1970), exclusive.
    int64_t valid_until;
    /// A retained Swift object the entry owns (released through `release`), passed to `answered`.
    void *token;
};

/// Counts the changes to what a set of answers is computed from (one per cache): an entry answers
/// only while the count is the one its answer was computed under.
struct larder_memo_changes;

/// A count at 1; NULL when out of memory.
struct larder_memo_changes *larder_memo_changes_create(void);

void larder_memo_changes_destroy(struct larder_memo_changes *changes);

/// The count now: read before what an answer is computed from.
uint64_t larder_memo_changes_read(const struct larder_memo_changes *changes);

/// After any change to what the answers are computed from (new data, a refresh's outcome).
void larder_memo_changes_bump(struct larder_memo_changes *changes);

/// libmicrohttpd's callbacks when the memo is on; `cls` is the owner.
void *larder_memo_uri_log(void *cls, const char *uri, struct MHD_Connection *connection);
enum MHD_Result larder_memo_access(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                                   const char *version, const char *upload_data, size_t *upload_data_size,
                                   void **con_cls);
void larder_memo_completed(void *cls, struct MHD_Connection *connection, void **con_cls,
                           enum MHD_RequestTerminationCode code);

/// Drops this thread's entries that can no longer answer (expired, or changed since), so that an
/// entry keeps its answer's bytes alive a second or so past its use, not until its slot is reused.
/// Called by the loop after each turn; does the work at most about once a second.
void larder_memo_sweep(void);

/// 1 when the request now being answered on `connection` (called from inside Swift's access callback)
/// is one the memo could repeat: a GET, of a target it kept, with header fields it judges.
int larder_memo_wants(struct larder_memo_owner *owner, struct MHD_Connection *connection);

/// Keeps `answer` for the request now being answered on `connection` (called from inside Swift's
/// access callback): 1 when kept; 0 when this request cannot be repeated (not a GET, a header the memo
/// does not judge, a target too long), and the token is then released.
int larder_memo_publish(struct larder_memo_owner *owner, struct MHD_Connection *connection,
                        const struct larder_memo_answer *answer);

#endif
