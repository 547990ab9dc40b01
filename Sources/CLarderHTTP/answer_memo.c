// The answer memo (larder_answer_memo.h). Entering Swift for a request, even one whose answer is a
// prepared response, costs some 4,000 instructions (the request's context, its fields, the route,
// the freshness, the metrics); libmicrohttpd's own work for the request is about 6,000. A memoized
// answer costs a hash of the target, one walk of the header fields and the queueing.
//
// What makes a repeat safe: an entry is made only from a GET answered with a prepared response
// that the route marked repeatable (a fresh copy, on the system clock), and it answers a later
// request only when that request is the same to the route: the same raw target byte for byte, a GET,
// and header fields the memo judges (the same Host, Accept and Accept-Encoding as the first, any
// User-Agent and Connection, an If-None-Match that is exactly the ETag); any other field (Range,
// Origin, Authorization, a body, If-Modified-Since, ...) takes the route. It stops at the end of the
// second it was made in (Date and Age change), at the copy's expiry, and at the next change to
// what it was computed from (`larder_memo_changes_bump`), whichever comes first.
//
// Each thread keeps its own table and makes its entries from its own requests, so lookups take no
// lock; an entry is counted by the table and by each request that holds it (one thread touches it).
#define _GNU_SOURCE
#include "include/larder_answer_memo.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "include/larder_cork.h"
#include "include/larder_request.h"

struct larder_memo_owner {
    struct larder_memo_callbacks swift;
    size_t max_header_bytes;
    atomic_int enabled;
    atomic_long in_flight;
    atomic_ullong answers;
};

struct larder_memo_owner *larder_memo_owner_create(struct larder_memo_callbacks callbacks, size_t max_header_bytes) {
    struct larder_memo_owner *owner = calloc(1, sizeof *owner);
    if (owner == NULL) return NULL;
    owner->swift = callbacks;
    owner->max_header_bytes = max_header_bytes;
    return owner;
}

void larder_memo_owner_destroy(struct larder_memo_owner *owner) { free(owner); }

void larder_memo_set_server(struct larder_memo_owner *owner, void *server) { owner->swift.server = server; }

void larder_memo_set_enabled(struct larder_memo_owner *owner, int enabled) {
    atomic_store_explicit(&owner->enabled, enabled != 0, memory_order_release);
}

long larder_memo_in_flight(const struct larder_memo_owner *owner) {
    return atomic_load_explicit(&owner->in_flight, memory_order_acquire);
}

unsigned long long larder_memo_answers(const struct larder_memo_owner *owner) {
    return atomic_load_explicit(&owner->answers, memory_order_relaxed);
}

struct larder_memo_changes {
    atomic_ullong count;
};

struct larder_memo_changes *larder_memo_changes_create(void) {
    struct larder_memo_changes *changes = malloc(sizeof *changes);
    if (changes != NULL) atomic_init(&changes->count, 1);
    return changes;
}

void larder_memo_changes_destroy(struct larder_memo_changes *changes) { free(changes); }

uint64_t larder_memo_changes_read(const struct larder_memo_changes *changes) {
    return atomic_load_explicit(&changes->count, memory_order_acquire);
}

void larder_memo_changes_bump(struct larder_memo_changes *changes) {
    atomic_fetch_add_explicit(&changes->count, 1, memory_order_release);
}

struct entry {
    unsigned refs;
    const struct larder_memo_owner *owner;
    uint64_t hash;
    struct MHD_Response *ok;
    struct MHD_Response *not_modified;
    const struct larder_memo_changes *changes;  // kept alive by the token
    uint64_t generation;
    int64_t valid_until;
    void *token;
    int corked;
    // Where each is in `bytes`: the target, then Host, Accept, Accept-Encoding (length -1: absent), the ETag.
    size_t target_length;
    long host_length, accept_length, encoding_length;
    size_t host_offset, accept_offset, encoding_offset, etag_offset, etag_length;
    char bytes[];
};

#define SLOTS 256
// `con_cls` of a request the memo holds: the entry's address (16-byte aligned) with these bits.
#define HELD 1u           // the memo holds this request
#define QUALIFIED 2u      // its header fields were judged: it is answered here
#define NOT_MODIFIED 4u   // If-None-Match matched: the 304
#define CORKED 8u         // its socket is corked until it completes
#define FLAGS 15u

/// A target just seen on this thread that took the route, kept so that the answer can be memoized.
struct pending {
    struct MHD_Connection *connection;
    int armed;  // Swift's access callback for this connection is running
    int get;
    size_t length;  // > LARDER_MEMO_TARGET_MAX: not kept
    uint64_t hash;
    char target[LARDER_MEMO_TARGET_MAX];
};

struct table {
    struct entry *slots[SLOTS];
    struct pending pending;
    unsigned turns;          // loop turns since the last sweep
    int64_t next_sweep;      // CLOCK_MONOTONIC_COARSE nanoseconds
};

static __thread struct table *local;
static pthread_key_t table_key;
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void drop(struct entry *entry) {
    if (--entry->refs > 0) return;
    entry->owner->swift.release(entry->token);
    free(entry);
}

// At a thread's exit: its entries go, and with them the Swift objects that keep their responses.
static void free_table(void *argument) {
    struct table *table = (struct table *)argument;
    for (int i = 0; i < SLOTS; i++) {
        if (table->slots[i] != NULL) drop(table->slots[i]);
    }
    free(table);
}

static void make_key(void) { (void)pthread_key_create(&table_key, free_table); }

static struct table *table_here(void) {
    if (local != NULL) return local;
    pthread_once(&table_once, make_key);
    struct table *table = calloc(1, sizeof *table);
    if (table == NULL) return NULL;
    if (pthread_setspecific(table_key, table) != 0) {
        free(table);
        return NULL;
    }
    local = table;
    return table;
}

static uint64_t hash_bytes(const char *bytes, size_t length) {
    uint64_t hash = 14695981039346656037ull;  // FNV-1a: targets are short, and every hit is compared in full
    for (size_t i = 0; i < length; i++) {
        hash ^= (unsigned char)bytes[i];
        hash *= 1099511628211ull;
    }
    return hash;
}

static int64_t now_nanoseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

void larder_memo_sweep(void) {
    struct table *table = local;
    // A clock read every 64 turns (an idle loop turns at least once a second).
    if (table == NULL || (++table->turns & 63) != 0) return;
    struct timespec coarse;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &coarse);
    int64_t monotonic = (int64_t)coarse.tv_sec * 1000000000 + coarse.tv_nsec;
    if (monotonic < table->next_sweep) return;
    table->next_sweep = monotonic + 1000000000;
    int64_t now = now_nanoseconds();
    for (int i = 0; i < SLOTS; i++) {
        struct entry *entry = table->slots[i];
        if (entry != NULL && (now >= entry->valid_until || entry->generation != larder_memo_changes_read(entry->changes))) {
            table->slots[i] = NULL;
            drop(entry);
        }
    }
}

static inline struct entry *held_entry(void *context) { return (struct entry *)((uintptr_t)context & ~(uintptr_t)FLAGS); }

static inline unsigned held_flags(void *context) { return (unsigned)((uintptr_t)context & FLAGS); }

/// Remembers the target of the request `connection` is making, for `larder_memo_publish`.
static void keep_pending(struct table *table, struct MHD_Connection *connection, const char *target, size_t length,
                         uint64_t hash) {
    struct pending *pending = &table->pending;  // field by field: not the 512 bytes of the target buffer
    pending->connection = connection;
    pending->armed = 0;
    pending->length = length;
    pending->hash = hash;
    memcpy(pending->target, target, length);
}

void *larder_memo_uri_log(void *cls, const char *uri, struct MHD_Connection *connection) {
    struct larder_memo_owner *owner = (struct larder_memo_owner *)cls;
    size_t length = strlen(uri);
    struct table *table = atomic_load_explicit(&owner->enabled, memory_order_relaxed) ? table_here() : NULL;
    if (table != NULL && length <= LARDER_MEMO_TARGET_MAX) {
        uint64_t hash = hash_bytes(uri, length);
        struct entry *entry = table->slots[hash % SLOTS];
        if (entry != NULL && entry->owner == owner && entry->hash == hash && entry->target_length == length &&
            memcmp(entry->bytes, uri, length) == 0) {
            entry->refs++;
            atomic_fetch_add_explicit(&owner->in_flight, 1, memory_order_relaxed);
            return (void *)((uintptr_t)entry | HELD);
        }
        keep_pending(table, connection, uri, length, hash);
    } else if (table != NULL) {
        table->pending.connection = NULL;
    }
    return owner->swift.begin(owner->swift.server, length);
}

/// What one walk of a request's header fields finds, against an entry (`judge`) or for one (`publish`).
struct scan {
    const struct entry *entry;  // NULL when collecting for a new entry
    size_t bytes;
    int refused;
    int not_modified;
    const char *host, *accept, *encoding;
    size_t host_length, accept_length, encoding_length;
};

/// The request's field (NULL: absent) is the entry's: both absent, or the same bytes.
static int same_field(const char *value, size_t length, const struct entry *entry, size_t offset, long expected) {
    if (value == NULL) return expected < 0;
    return expected >= 0 && (size_t)expected == length && memcmp(value, entry->bytes + offset, length) == 0;
}

static enum MHD_Result scan_field(void *cls, enum MHD_ValueKind kind, const char *key, size_t key_size,
                                  const char *value, size_t value_size) {
    (void)kind;
    struct scan *scan = (struct scan *)cls;
    const struct entry *entry = scan->entry;
    scan->bytes += key_size + value_size + 4;
    const char **seen = NULL;
    size_t *seen_length = NULL;
    switch (key_size) {
    case 4:
        if (larder_same_name(key, "Host", 4)) seen = &scan->host, seen_length = &scan->host_length;
        break;
    case 6:
        if (larder_same_name(key, "Accept", 6)) seen = &scan->accept, seen_length = &scan->accept_length;
        break;
    case 10:
        if (larder_same_name(key, "User-Agent", 10) || larder_same_name(key, "Connection", 10)) return MHD_YES;
        break;
    case 13:
        if (larder_same_name(key, "If-None-Match", 13)) {
            if (entry == NULL) return MHD_YES;  // the entry keeps both answers
            const char *etag = entry->bytes + entry->etag_offset;
            // Exactly the ETag, or its weak form; a list, `*` or another tag takes the route.
            if (value_size >= 2 && value[0] == 'W' && value[1] == '/') value += 2, value_size -= 2;
            if (!scan->not_modified && value_size == entry->etag_length && memcmp(value, etag, value_size) == 0) {
                scan->not_modified = 1;
                return MHD_YES;
            }
        }
        break;
    case 15:
        if (larder_same_name(key, "Accept-Encoding", 15)) seen = &scan->encoding, seen_length = &scan->encoding_length;
        break;
    }
    if (seen == NULL || *seen != NULL) {  // a field the memo does not judge, or one of its fields twice
        scan->refused = 1;
        return MHD_NO;
    }
    *seen = value;
    *seen_length = value_size;
    return MHD_YES;
}

static void walk(struct MHD_Connection *connection, struct scan *scan) {
    MHD_get_connection_values_n(connection, MHD_HEADER_KIND, &scan_field, scan);
}

/// 1 when the request is the same to the route as the one the entry was made from.
static int judge(const struct larder_memo_owner *owner, struct MHD_Connection *connection, const struct entry *entry,
                 int *not_modified) {
    struct scan scan = {.entry = entry};
    walk(connection, &scan);
    if (scan.refused || scan.bytes > owner->max_header_bytes) return 0;
    if (!same_field(scan.host, scan.host_length, entry, entry->host_offset, entry->host_length) ||
        !same_field(scan.accept, scan.accept_length, entry, entry->accept_offset, entry->accept_length) ||
        !same_field(scan.encoding, scan.encoding_length, entry, entry->encoding_offset, entry->encoding_length))
        return 0;
    *not_modified = scan.not_modified;
    return 1;
}

static int current(const struct larder_memo_owner *owner, const struct entry *entry, int64_t now) {
    return atomic_load_explicit(&owner->enabled, memory_order_relaxed) &&
           entry->generation == larder_memo_changes_read(entry->changes) && now < entry->valid_until;
}

/// The memo lets go of a request it held: Swift takes it from here, as if it had from the start, and
/// the target is pending again, so that the route's answer replaces the entry (a changed or expired one
/// would otherwise be found, and handed over, by every later request).
static void hand_over(struct larder_memo_owner *owner, struct MHD_Connection *connection, void **con_cls) {
    struct entry *entry = held_entry(*con_cls);
    size_t length = entry->target_length;
    if (local != NULL) keep_pending(local, connection, entry->bytes, length, entry->hash);
    drop(entry);
    atomic_fetch_sub_explicit(&owner->in_flight, 1, memory_order_release);
    *con_cls = owner->swift.begin(owner->swift.server, length);
}

/// Swift's access callback, with this connection's pending target armed for `larder_memo_publish`.
static enum MHD_Result to_swift(struct larder_memo_owner *owner, struct MHD_Connection *connection, const char *url,
                                const char *method, const char *version, const char *upload_data,
                                size_t *upload_data_size, void **con_cls) {
    struct table *table = local;
    if (table == NULL || table->pending.connection != connection)
        return owner->swift.access(owner->swift.server, connection, url, method, version, upload_data, upload_data_size, con_cls);
    table->pending.armed = 1;
    table->pending.get = strcmp(method, "GET") == 0;
    enum MHD_Result result =
        owner->swift.access(owner->swift.server, connection, url, method, version, upload_data, upload_data_size, con_cls);
    if (local == table) table->pending.armed = 0;
    return result;
}

enum MHD_Result larder_memo_access(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                                   const char *version, const char *upload_data, size_t *upload_data_size,
                                   void **con_cls) {
    struct larder_memo_owner *owner = (struct larder_memo_owner *)cls;
    unsigned flags = held_flags(*con_cls);
    if (!(flags & HELD))
        return to_swift(owner, connection, url, method, version, upload_data, upload_data_size, con_cls);
    struct entry *entry = held_entry(*con_cls);
    if (!(flags & QUALIFIED)) {
        // The first call: the header fields are in (answering now would close the connection).
        int not_modified = 0;
        if (strcmp(method, "GET") == 0 && judge(owner, connection, entry, &not_modified)) {
            *con_cls = (void *)((uintptr_t)entry | HELD | QUALIFIED | (not_modified ? NOT_MODIFIED : 0));
            return MHD_YES;
        }
        hand_over(owner, connection, con_cls);
        return to_swift(owner, connection, url, method, version, upload_data, upload_data_size, con_cls);
    }
    int64_t started = now_nanoseconds();
    if (*upload_data_size != 0 || !current(owner, entry, started)) {
        // Changed since (or a body after all): the route answers, given both calls it expects.
        size_t none = 0;
        hand_over(owner, connection, con_cls);
        enum MHD_Result headers = owner->swift.access(owner->swift.server, connection, url, method, version, NULL, &none, con_cls);
        if (headers != MHD_YES) return headers;
        return to_swift(owner, connection, url, method, version, upload_data, upload_data_size, con_cls);
    }
    int not_modified = (flags & NOT_MODIFIED) != 0;
    unsigned int status = not_modified ? MHD_HTTP_NOT_MODIFIED : MHD_HTTP_OK;
    if (!not_modified && entry->corked && larder_cork(connection) >= 0) {
        *con_cls = (void *)((uintptr_t)*con_cls | CORKED);
    }
    enum MHD_Result result = MHD_queue_response(connection, status, not_modified ? entry->not_modified : entry->ok);
    atomic_fetch_add_explicit(&owner->answers, 1, memory_order_relaxed);
    int64_t took = now_nanoseconds() - started;
    owner->swift.answered(entry->token, status, took > 0 ? took : 0);
    return result;
}

void larder_memo_completed(void *cls, struct MHD_Connection *connection, void **con_cls,
                           enum MHD_RequestTerminationCode code) {
    struct larder_memo_owner *owner = (struct larder_memo_owner *)cls;
    unsigned flags = held_flags(*con_cls);
    if (!(flags & HELD)) {
        owner->swift.completed(owner->swift.server, connection, con_cls, code);
        return;
    }
    if (flags & CORKED) {
        const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
        if (info != NULL) larder_uncork(info->connect_fd);
    }
    drop(held_entry(*con_cls));
    *con_cls = NULL;
    atomic_fetch_sub_explicit(&owner->in_flight, 1, memory_order_release);
}

static int pending_here(struct larder_memo_owner *owner, struct MHD_Connection *connection) {
    struct table *table = local;
    return table != NULL && table->pending.armed && table->pending.connection == connection && table->pending.get &&
           atomic_load_explicit(&owner->enabled, memory_order_relaxed);
}

static int scan_for_entry(struct larder_memo_owner *owner, struct MHD_Connection *connection, struct scan *scan) {
    *scan = (struct scan){.entry = NULL};
    walk(connection, scan);
    return !scan->refused && scan->bytes <= owner->max_header_bytes;
}

int larder_memo_wants(struct larder_memo_owner *owner, struct MHD_Connection *connection) {
    struct scan scan;
    return pending_here(owner, connection) && scan_for_entry(owner, connection, &scan);
}

int larder_memo_publish(struct larder_memo_owner *owner, struct MHD_Connection *connection,
                        const struct larder_memo_answer *answer) {
    struct scan scan;
    if (!pending_here(owner, connection) || answer->ok == NULL || answer->not_modified == NULL || answer->changes == NULL ||
        !scan_for_entry(owner, connection, &scan)) {
        owner->swift.release(answer->token);
        return 0;
    }
    struct table *table = local;
    struct pending *pending = &table->pending;
    size_t host = scan.host != NULL ? scan.host_length : 0, accept = scan.accept != NULL ? scan.accept_length : 0,
           encoding = scan.encoding != NULL ? scan.encoding_length : 0;
    struct entry *entry = malloc(sizeof *entry + pending->length + host + accept + encoding + answer->etag_length);
    if (entry == NULL) {
        owner->swift.release(answer->token);
        return 0;
    }
    *entry = (struct entry){
        .refs = 1,
        .owner = owner,
        .hash = pending->hash,
        .ok = answer->ok,
        .not_modified = answer->not_modified,
        .changes = answer->changes,
        .generation = answer->generation,
        .valid_until = answer->valid_until,
        .token = answer->token,
        .corked = answer->corked,
        .target_length = pending->length,
        .host_length = scan.host != NULL ? (long)host : -1,
        .accept_length = scan.accept != NULL ? (long)accept : -1,
        .encoding_length = scan.encoding != NULL ? (long)encoding : -1,
        .host_offset = pending->length,
        .accept_offset = pending->length + host,
        .encoding_offset = pending->length + host + accept,
        .etag_offset = pending->length + host + accept + encoding,
        .etag_length = answer->etag_length,
    };
    memcpy(entry->bytes, pending->target, pending->length);
    if (host) memcpy(entry->bytes + entry->host_offset, scan.host, host);
    if (accept) memcpy(entry->bytes + entry->accept_offset, scan.accept, accept);
    if (encoding) memcpy(entry->bytes + entry->encoding_offset, scan.encoding, encoding);
    memcpy(entry->bytes + entry->etag_offset, answer->etag, answer->etag_length);
    struct entry **slot = &table->slots[pending->hash % SLOTS];
    if (*slot != NULL) drop(*slot);
    *slot = entry;
    pending->connection = NULL;  // one entry per request
    return 1;
}
