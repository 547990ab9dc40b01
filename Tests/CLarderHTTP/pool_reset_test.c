/* `make test-c`: libmicrohttpd's connection pool as Larder builds it (tools/deps/libmicrohttpd-pool-reset.patch).
 * A pool starts zeroed, so nothing of another connection's freed pool is ever seen through a new one; after that it
 * is not cleared again (not at the reset between two requests, nor when a block is freed), so a request costs what
 * it used, not the pool's 32 KiB. The pool's functions are internal to the library but linked from its static
 * archive; their prototypes are libmicrohttpd 1.0.10's src/microhttpd/memorypool.h. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct MemoryPool;
void MHD_init_mem_pools_(void);
struct MemoryPool *MHD_pool_create(size_t max);
void MHD_pool_destroy(struct MemoryPool *pool);
void *MHD_pool_allocate(struct MemoryPool *pool, size_t size, bool from_end);
size_t MHD_pool_get_free(struct MemoryPool *pool);
void MHD_pool_deallocate(struct MemoryPool *pool, void *block, size_t block_size);
void *MHD_pool_reset(struct MemoryPool *pool, void *keep, size_t copy_bytes, size_t new_size);

static int failures;

#define CHECK(condition, ...)                                                                                          \
    do {                                                                                                               \
        if (!(condition)) {                                                                                            \
            fprintf(stderr, "pool_reset_test:%d: ", __LINE__);                                                          \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fputc('\n', stderr);                                                                                       \
            failures++;                                                                                                \
        }                                                                                                              \
    } while (0)

static size_t nonzero(const uint8_t *bytes, size_t count) {
    size_t found = 0;
    for (size_t i = 0; i < count; i++) found += bytes[i] != 0;
    return found;
}

/* Connections come and go: each new pool reads all zero, though the heap hands it the memory of pools just freed
 * that were filled with data (a 32 KiB pool comes from malloc, which does not clear). */
static void new_pools_start_zeroed(size_t size) {
    for (int connection = 0; connection < 50; connection++) {
        struct MemoryPool *pool = MHD_pool_create(size);
        CHECK(pool != NULL, "MHD_pool_create(%zu) failed", size);
        if (pool == NULL) return;
        size_t free_bytes = MHD_pool_get_free(pool);
        uint8_t *all = MHD_pool_allocate(pool, free_bytes, false);
        if (all == NULL || nonzero(all, free_bytes) != 0) {
            CHECK(false, "connection %d: a new pool of %zu bytes holds %zu bytes of an earlier one", connection, size,
                  all ? nonzero(all, free_bytes) : 0);
            MHD_pool_destroy(pool);
            return;
        }
        if (all) memset(all, 0xA5, free_bytes);
        MHD_pool_destroy(pool);
    }
}

/* The reset between two requests keeps the bytes it is asked to keep (a pipelined request's start) and writes
 * nothing else: a marker the request left in its read buffer, and one in a freed reply block, are still there. */
static void reset_writes_only_what_it_keeps(size_t size) {
    struct MemoryPool *pool = MHD_pool_create(size);
    if (pool == NULL) return;
    size_t read_size = size / 2;
    uint8_t *read_buffer = MHD_pool_allocate(pool, read_size, false);
    uint8_t *reply = MHD_pool_allocate(pool, 4096, true);
    CHECK(read_buffer && reply, "allocations failed");
    if (!(read_buffer && reply)) return;
    memcpy(read_buffer + read_size - 8, "NEXTREQ", 8);
    read_buffer[100] = 0x7E;
    reply[10] = 0x7F;
    MHD_pool_deallocate(pool, reply, 4096);
    CHECK(reply[10] == 0x7F, "freeing a block of 4096 bytes cleared it");
    uint8_t *kept = MHD_pool_reset(pool, read_buffer + read_size - 8, 8, read_size);
    CHECK(memcmp(kept, "NEXTREQ", 8) == 0, "the reset lost the 8 bytes it was asked to keep");
    CHECK(kept[100] == 0x7E, "the reset cleared the request's bytes: a request pays for the whole pool again");
    CHECK(reply[10] == 0x7F, "the reset cleared the pool's end");
    MHD_pool_destroy(pool);
}

int main(void) {
    MHD_init_mem_pools_();
    /* Larder's pool (32 KiB: malloc'd), and a larger one (mmap'd). */
    size_t sizes[] = {32 * 1024, 96 * 1024};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        new_pools_start_zeroed(sizes[i]);
        reset_writes_only_what_it_keeps(sizes[i]);
    }
    if (failures) {
        fprintf(stderr, "pool_reset_test: %d failures\n", failures);
        return 1;
    }
    printf("pool_reset_test: pools of 32 and 96 KiB: each new one zeroed, never cleared again by a reset or a free\n");
    return 0;
}
