/* core_file — atomic replacement of a file, and what a reader may trust (see core_file.h). */
#include "core/core_file.h"

#include "core/core_stop.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *kind_of(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISLNK(mode))
        return "a symbolic link";
    if (S_ISSOCK(mode))
        return "a socket";
    return "of an unknown kind";
}

/* A write past a file size limit (ulimit -f) raises SIGXFSZ, whose default
 * action ends the process at once: no line, and the temporary left behind.
 * While any file of ours is open the signal is ignored, unless the program
 * handles it itself, so that the write fails with EFBIG ("File too large") and
 * takes the error path of any failed write; the last file to close puts the
 * program's disposition back. */
static pthread_mutex_t xfsz_lock = PTHREAD_MUTEX_INITIALIZER;
static int xfsz_files;              /* files open between create and commit/discard */
static struct sigaction xfsz_saved; /* the disposition before the first of them */

void core_file_hold_xfsz(void)
{
    pthread_mutex_lock(&xfsz_lock);
    if (xfsz_files++ == 0) {
        struct sigaction ignore = {.sa_handler = SIG_IGN};
        sigemptyset(&ignore.sa_mask);
        sigaction(SIGXFSZ, NULL, &xfsz_saved);
        if (xfsz_saved.sa_handler == SIG_DFL)
            sigaction(SIGXFSZ, &ignore, NULL);
    }
    pthread_mutex_unlock(&xfsz_lock);
}

void core_file_release_xfsz(void)
{
    pthread_mutex_lock(&xfsz_lock);
    if (xfsz_files > 0 && --xfsz_files == 0 && xfsz_saved.sa_handler == SIG_DFL)
        sigaction(SIGXFSZ, &xfsz_saved, NULL);
    pthread_mutex_unlock(&xfsz_lock);
}

static int fail(char *why, size_t whylen, int err)
{
    snprintf(why, whylen, "%s", strerror(err));
    return -1;
}

/* lstat: a symbolic link at path is refused rather than followed or replaced,
 * so that writing never lands anywhere but at path itself. */
static int check(const char *path, struct stat *st, int *exists, char *why, size_t whylen)
{
    *exists = 0;
    if (lstat(path, st) != 0)
        return errno == ENOENT ? 0 : fail(why, whylen, errno);
    *exists = 1;
    if (S_ISREG(st->st_mode))
        return 0;
    snprintf(why, whylen, "not a regular file (%s)", kind_of(st->st_mode));
    return -1;
}

int core_file_check(const char *path, char *why, size_t whylen)
{
    struct stat st;
    int exists;
    return check(path, &st, &exists, why, whylen);
}

/* The temporary's name: path followed by six letters that differ between calls,
 * processes and runs; O_EXCL settles any collision, and a few tries get past it.
 * (mkstemp would do, but creates the file 0600 whatever the umask says.) */
static int open_unique(char *tmp, size_t at, int mode)
{
    static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    static atomic_uint calls;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    uint64_t x = (uint64_t)now.tv_nsec ^ ((uint64_t)now.tv_sec << 20) ^ ((uint64_t)getpid() << 32) ^
                 (uint64_t)(uintptr_t)tmp;
    for (int attempt = 0; attempt < 100; attempt++) {
        x += 0x9E3779B97F4A7C15u * (1 + atomic_fetch_add(&calls, 1));
        uint64_t bits = x ^ (x >> 29);
        for (int i = 0; i < 6; i++, bits /= 62)
            tmp[at + i] = letters[bits % 62];
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

int core_file_create(core_file *w, const char *path, char *why, size_t whylen)
{
    memset(w, 0, sizeof *w);
    struct stat st;
    int exists;
    if (path[0] == '\0')
        return fail(why, whylen, ENOENT);
    if (check(path, &st, &exists, why, whylen) < 0)
        return -1;
    size_t len = strlen(path);
    w->path = strdup(path);
    w->tmp = malloc(len + 8);
    if (!w->path || !w->tmp) {
        core_file_discard(w);
        return fail(why, whylen, ENOMEM);
    }
    memcpy(w->tmp, path, len);
    memcpy(w->tmp + len, ".XXXXXX", 8);
    core_file_hold_xfsz(); /* released by core_file_discard, which every path reaches */
    w->held_xfsz = 1;
    int fd = open_unique(w->tmp, len + 1, 0666);
    if (fd < 0) {
        int err = errno;
        free(w->tmp);
        w->tmp = NULL;
        core_file_discard(w);
        return fail(why, whylen, err);
    }
    core_stop_temp(path, w->tmp); /* a stop now removes it with the path, if registered */
    if (exists)
        (void)fchmod(fd, st.st_mode & 07777); /* best effort: the content matters more */
    w->f = fdopen(fd, "w");
    if (!w->f) {
        int err = errno;
        close(fd);
        core_file_discard(w);
        return fail(why, whylen, err);
    }
    return 0;
}

int core_file_commit(core_file *w, char *why, size_t whylen)
{
    int err = 0;
    if (fflush(w->f) != 0 || ferror(w->f) || (!w->transient && fsync(fileno(w->f)) != 0))
        err = errno ? errno : EIO;
    if (fclose(w->f) != 0 && !err)
        err = errno;
    w->f = NULL;
    int rc = err ? fail(why, whylen, err) : 0;
    if (rc == 0) {
        struct stat st;
        int exists;
        rc = check(w->path, &st, &exists, why, whylen);
    }
    if (rc == 0 && rename(w->tmp, w->path) != 0)
        rc = fail(why, whylen, errno);
    if (rc == 0) {
        free(w->tmp); /* renamed: nothing to remove */
        w->tmp = NULL;
    }
    core_file_discard(w);
    return rc;
}

void core_file_discard(core_file *w)
{
    if (w->f)
        fclose(w->f);
    if (w->tmp)
        unlink(w->tmp);
    if (w->path)
        core_stop_temp(w->path, NULL); /* after the unlink: a stop between removes nothing twice */
    free(w->tmp);
    free(w->path);
    if (w->held_xfsz)
        core_file_release_xfsz();
    memset(w, 0, sizeof *w);
}

int core_file_write(const char *path, const char *text, size_t len, char *why, size_t whylen)
{
    core_file w;
    if (core_file_create(&w, path, why, whylen) < 0)
        return -1;
    errno = 0;
    if (fwrite(text, 1, len, w.f) != len) {
        int err = errno ? errno : EIO;
        core_file_discard(&w);
        return fail(why, whylen, err);
    }
    return core_file_commit(&w, why, whylen);
}

int core_file_is_regular(FILE *f)
{
    struct stat st;
    int fd = fileno(f);
    return fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

const char *core_file_tmpdir(void)
{
    const char *tmp = getenv("TMPDIR");
    return tmp && *tmp ? tmp : "/tmp";
}
