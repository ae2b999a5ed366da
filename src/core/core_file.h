/* core_file — files written whole or not at all, and input taken within bounds.
 *
 * Contract (writing): core_file_create opens a new file beside PATH (same
 * directory, a name no other file has, created with O_EXCL so no link is ever
 * followed; the mode of the PATH it replaces, or 0666 less the umask); the caller
 * writes through w->f; core_file_commit flushes it, fsyncs it (unless the caller
 * marked it transient), closes it (each result checked) and renames it over PATH. PATH must be a
 * regular file or absent, checked before and again just before the rename: a device, a directory, a
 * FIFO or a symbolic link at PATH is never replaced or written through. On any failure the
 * temporary is removed, PATH is left as it was, and the reason ("No space left on device", "not a
 * regular file (a directory)", ...) is put into why; the caller names the file. A reader of PATH
 * thus sees the old file or the whole new one, never a part.
 *
 * A file size limit (ulimit -f) is one more failed write: while a file is
 * open here SIGXFSZ is ignored (unless the program handles it), so that the
 * write fails with "File too large" instead of the signal ending the process.
 *
 * Contract (reading): core_file_is_regular tells whether a stream reads a
 * regular file, whose size is what is present; readers bound what they take from
 * anything else (a pipe, a FIFO, /dev/zero), which may never end.
 */
#ifndef POLYBSP_CORE_FILE_H
#define POLYBSP_CORE_FILE_H

#include <stddef.h>
#include <stdio.h>

typedef struct core_file {
    FILE *f;       /* the temporary, open for writing */
    char *tmp;     /* its name */
    char *path;    /* the file it becomes */
    int transient; /* set by the caller: commit without fsync (a placeholder soon
                      replaced, such as a trace's header at the start of a run) */
    int held_xfsz; /* core_file_hold_xfsz was called for it */
} core_file;

/* 0 when path is a regular file or absent; else -1 with the reason in why. */
int core_file_check(const char *path, char *why, size_t whylen);
/* 0 with w->f open on a new temporary beside path; else -1 with the reason. */
int core_file_create(core_file *w, const char *path, char *why, size_t whylen);
/* Makes the temporary path's content; 0, or -1 with the reason (nothing changed). */
int core_file_commit(core_file *w, char *why, size_t whylen);
/* Gives the temporary up: closed and removed. */
void core_file_discard(core_file *w);
/* The three in one: path gets exactly the len bytes of text. */
int core_file_write(const char *path, const char *text, size_t len, char *why, size_t whylen);

/* The SIGXFSZ window of core_file_create .. commit/discard, for a writer of
 * another stream (standard output): nested holds, the last release puts the
 * program's disposition back. Thread-safe. */
void core_file_hold_xfsz(void);
void core_file_release_xfsz(void);

/* 1 when f reads a regular file, 0 otherwise (also for memory streams). */
int core_file_is_regular(FILE *f);

/* Where the tools put their temporary files: $TMPDIR when set and not empty,
 * else /tmp (docs/env.md). */
const char *core_file_tmpdir(void);

#endif
