// A memory file (memfd) for large prepared bodies, sent with sendfile.
#ifndef LARDER_MEMORY_FILE_H
#define LARDER_MEMORY_FILE_H

/// A new anonymous memory file, closed on exec; -1 with errno set when none can be made.
int larder_memory_file(const char *name);

#endif
