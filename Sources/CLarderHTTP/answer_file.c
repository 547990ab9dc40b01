// memfd_create and O_TMPFILE are declared only under _GNU_SOURCE, which Swift's Glibc module does not define.
//
// Why a file on disk first: `sendfile` from a memory file reads its 4 KiB pages one by one (shmem has
// no large folios unless transparent huge pages are on for it, which Debian leaves off), while a disk
// file written with write() sits in the page cache in large folios, read in batches: a one-year CSV
// of 346 KB cost some 1.3 x nginx's CPU per answer from a memory file and about nginx's from the
// page cache (docs/performance.md).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <sys/mman.h>

#include "larder_answer_file.h"

static atomic_int directory = -1;

int larder_answer_file_directory(const char *path) {
    int opened = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (opened < 0) return errno;
    // Never closed: a file being made now may be using the one before (set once, at start).
    atomic_store(&directory, opened);
    return 0;
}

int larder_answer_file(const char *name) {
    int in = atomic_load(&directory);
    if (in >= 0) {
        // No access times: every sendfile() of an answer would otherwise check whether to write one (1 %
        // of a one-year CSV's CPU). Allowed for the file's owner, which the process is; EPERM elsewhere.
        const int flags = O_TMPFILE | O_RDWR | O_CLOEXEC;
        int file = openat(in, ".", flags | O_NOATIME, 0600);
        if (file < 0 && errno == EPERM) file = openat(in, ".", flags, 0600);
        if (file >= 0) return file;
    }
    return memfd_create(name, MFD_CLOEXEC);
}
