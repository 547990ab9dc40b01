// A file for large prepared bodies, sent with sendfile: unnamed, in the cache's directory when one
// is set (page cache, large folios), else an anonymous memory file (memfd).
#ifndef LARDER_ANSWER_FILE_H
#define LARDER_ANSWER_FILE_H

/// Makes later files unnamed files (O_TMPFILE) in `path`, a directory on a disk file system; called
/// once, at start. 0, or errno when the directory cannot be opened (memfds are made then).
int larder_answer_file_directory(const char *path);

/// A new unnamed file, closed on exec: in the directory set, else (or when that fails) an anonymous
/// memory file (memfd) named `name`; -1 with errno set when none can be made.
int larder_answer_file(const char *name);

#endif
