// memfd_create is declared only under _GNU_SOURCE, which Swift's Glibc module does not define.
#define _GNU_SOURCE
#include <sys/mman.h>

#include "larder_memory_file.h"

int larder_memory_file(const char *name) {
    return memfd_create(name, MFD_CLOEXEC);
}
