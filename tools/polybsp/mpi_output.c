/* mpi_output — whole lines from the ranks of an Open MPI job (mpi_output.h). */
#ifndef _GNU_SOURCE   /* smpicc defines it already */
#define _GNU_SOURCE 1 /* memrchr */
#endif
#include "mpi_output.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

enum {
    AT_START = -2, /* the next bytes start a piece: a tag, or mpiexec's own text */
    OWN = -1,      /* inside mpiexec's own text, up to its newline */
    TAG_MAX = 64,  /* longer than any tag, "[J,R]<stddiag>:" with 10-digit numbers */
    READ_MAX = 1 << 16,
    QUIET_MS = 100, /* a rank's unfinished line waits this long for its end */
    MAX_RANK = 1000000,
};

typedef struct {
    char *text; /* the rank's line so far */
    size_t len, cap;
    int fd; /* its file in the output directory, or -1 */
} stream;

typedef struct {
    int fd;   /* the pipe from mpiexec, -1 once closed */
    int out;  /* this process's stdout or stderr */
    int rank; /* whose text the next bytes are: a rank, OWN or AT_START */
    char buf[TAG_MAX + READ_MAX];
    size_t kept; /* bytes at buf's start held back: a tag may continue */
    stream *ranks;
    size_t nranks;
} source;

struct mpi_output {
    const char *cmd, *dir;
    int pipes[2][2]; /* [stdout, stderr][read, write] */
    source src[2];
};

/* Writes all of it, or gives up quietly: a reader that went away (`| head`)
 * is no error of the job's. */
static void write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        p += w;
        n -= (size_t)w;
    }
}

mpi_output *mpi_output_open(const char *cmd, const char *dir)
{
    mpi_output *o = calloc(1, sizeof *o);
    if (o == NULL) {
        fprintf(stderr, "polybsp: %s: out of memory\n", cmd);
        return NULL;
    }
    o->cmd = cmd;
    o->dir = dir;
    if (dir != NULL && mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "polybsp: %s: cannot create the output directory '%s': %s\n", cmd, dir,
                strerror(errno));
        free(o);
        return NULL;
    }
    for (int k = 0; k < 2; k++) {
        if (pipe(o->pipes[k]) != 0) {
            fprintf(stderr, "polybsp: %s: cannot make a pipe: %s\n", cmd, strerror(errno));
            if (k == 1)
                close(o->pipes[0][0]), close(o->pipes[0][1]);
            free(o);
            return NULL;
        }
        o->src[k] = (source){.fd = o->pipes[k][0], .out = k + 1, .rank = AT_START};
    }
    return o;
}

void mpi_output_child(mpi_output *o)
{
    for (int k = 0; k < 2; k++) {
        dup2(o->pipes[k][1], k + 1);
        close(o->pipes[k][0]);
        close(o->pipes[k][1]);
    }
}

/* Whether p..end starts with a tag `[J,R]<NAME>:`: 1 (its rank and length
 * set), 0, or -1 when the bytes so far could still become one. */
static int tag_at(const char *p, const char *end, int *rank, size_t *len)
{
    static const char *const names[] = {"]<stdout>:", "]<stderr>:", "]<stddiag>:"};
    const char *q = p;
    long number = 0;
    for (int k = 0; k < 2; k++) { /* "[J" then ",R" */
        if (q == end)
            return -1;
        if (*q++ != "[,"[k])
            return 0;
        const char *digits = q;
        for (number = 0; q < end && *q >= '0' && *q <= '9' && q - digits < 10; q++)
            number = number * 10 + (*q - '0');
        if (q == digits && q < end)
            return 0;
    }
    size_t have = (size_t)(end - q);
    for (int k = 0; k < 3; k++) {
        size_t n = strlen(names[k]);
        if (memcmp(q, names[k], have < n ? have : n) != 0)
            continue;
        if (have < n)
            return -1;
        if (number >= MAX_RANK)
            return 0;
        *rank = (int)number;
        *len = (size_t)(q + n - p);
        return 1;
    }
    return 0;
}

/* Rank r's stream of s, made on first use; NULL when memory runs out (its
 * text then goes straight out, as mpiexec would have written it). */
static stream *stream_of(source *s, int r)
{
    if ((size_t)r >= s->nranks) {
        size_t n = s->nranks ? s->nranks : 16;
        while (n <= (size_t)r)
            n *= 2;
        stream *more = realloc(s->ranks, n * sizeof *more);
        if (more == NULL)
            return NULL;
        for (size_t k = s->nranks; k < n; k++)
            more[k] = (stream){.fd = -1};
        s->ranks = more;
        s->nranks = n;
    }
    return &s->ranks[r];
}

/* Where rank r's lines go: its file in the output directory (stdout only), or
 * this process's stdout or stderr. */
static int sink(const mpi_output *o, const source *s, stream *st, int r)
{
    if (o->dir == NULL || s->out != 1)
        return s->out;
    if (st->fd < 0) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%d.out", o->dir, r);
        st->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
        if (st->fd < 0) {
            fprintf(stderr, "polybsp: %s: cannot write '%s': %s\n", o->cmd, path, strerror(errno));
            st->fd = -2; /* said once; its lines go to stdout */
        }
    }
    return st->fd >= 0 ? st->fd : s->out;
}

/* Adds n bytes of rank r's text: writes out every line it completes and
 * keeps the rest. */
static void rank_text(const mpi_output *o, source *s, int r, const char *p, size_t n)
{
    stream *st = stream_of(s, r);
    if (st == NULL) { /* out of memory: as mpiexec would have written it */
        write_all(s->out, p, n);
        return;
    }
    const char *last = memrchr(p, '\n', n);
    if (last != NULL) {
        int fd = sink(o, s, st, r);
        write_all(fd, st->text, st->len);
        write_all(fd, p, (size_t)(last + 1 - p));
        st->len = 0;
        n -= (size_t)(last + 1 - p);
        p = last + 1;
    }
    if (st->len + n > st->cap) {
        size_t cap = st->cap ? st->cap : 256;
        while (cap < st->len + n)
            cap *= 2;
        char *more = realloc(st->text, cap);
        if (more == NULL) {
            write_all(sink(o, s, st, r), st->text, st->len);
            write_all(sink(o, s, st, r), p, n);
            st->len = 0;
            return;
        }
        st->text = more;
        st->cap = cap;
    }
    memcpy(st->text + st->len, p, n);
    st->len += n;
}

/* Passes on the pieces in s->buf[0, n); returns how many bytes were used (the
 * rest may be the start of a tag, kept for the next read). */
static size_t take(const mpi_output *o, source *s, size_t n)
{
    const char *p = s->buf, *end = s->buf + n;
    while (p < end) {
        int r = 0;
        size_t len = 0;
        if (s->rank == AT_START) {
            int t = tag_at(p, end, &r, &len);
            if (t < 0)
                break;
            s->rank = t ? r : OWN;
            p += len;
            continue;
        }
        /* The piece ends at its newline, or where the next tag starts. */
        const char *q = p, *stop = end;
        int next = 0;
        for (; q < end; q++) {
            if (*q == '\n') {
                stop = q + 1;
                next = 1;
                break;
            }
            if (*q == '[' && s->rank != OWN && (next = tag_at(q, end, &r, &len)) != 0) {
                stop = q;
                break;
            }
        }
        if (s->rank == OWN)
            write_all(s->out, p, (size_t)(stop - p));
        else
            rank_text(o, s, s->rank, p, (size_t)(stop - p));
        p = stop;
        if (next < 0)
            break; /* perhaps a tag: wait for the rest */
        if (next > 0)
            s->rank = AT_START;
    }
    return (size_t)(p - s->buf);
}

/* Reads what the pipe holds; closes it at its end. */
static void drain(const mpi_output *o, source *s)
{
    ssize_t n = read(s->fd, s->buf + s->kept, READ_MAX);
    if (n < 0 && errno == EINTR)
        return;
    if (n <= 0) {
        write_all(s->out, s->buf, s->kept); /* a tag's start that never ended */
        s->kept = 0;
        close(s->fd);
        s->fd = -1;
        return;
    }
    size_t have = s->kept + (size_t)n, used = take(o, s, have);
    if (have - used > TAG_MAX) { /* never a tag: pass it on */
        write_all(s->out, s->buf + used, have - used);
        used = have;
    }
    memmove(s->buf, s->buf + used, have - used);
    s->kept = have - used;
}

/* Writes every unfinished line; true if there was one. */
static bool flush_partial(const mpi_output *o, source *s)
{
    bool any = false;
    for (size_t r = 0; r < s->nranks; r++) {
        stream *st = &s->ranks[r];
        if (st->len > 0) {
            write_all(sink(o, s, st, (int)r), st->text, st->len);
            st->len = 0;
            any = true;
        }
    }
    return any;
}

static bool has_partial(const source *s)
{
    for (size_t r = 0; r < s->nranks; r++)
        if (s->ranks[r].len > 0)
            return true;
    return false;
}

static void release(mpi_output *o)
{
    for (int k = 0; k < 2; k++) {
        source *s = &o->src[k];
        flush_partial(o, s);
        for (size_t r = 0; r < s->nranks; r++) {
            if (s->ranks[r].fd >= 0)
                close(s->ranks[r].fd);
            free(s->ranks[r].text);
        }
        free(s->ranks);
        if (s->fd >= 0)
            close(s->fd);
    }
    free(o);
}

void mpi_output_pump(mpi_output *o, pid_t child)
{
    for (int k = 0; k < 2; k++)
        close(o->pipes[k][1]);
    /* Until mpiexec has closed both pipes. A process it started that outlives
     * it (ssh to another host) could hold them open: once mpiexec has ended,
     * what still comes within a quiet moment is all. */
    bool ended = false;
    while (o->src[0].fd >= 0 || o->src[1].fd >= 0) {
        struct pollfd fds[2];
        int nfds = 0;
        for (int k = 0; k < 2; k++)
            if (o->src[k].fd >= 0)
                fds[nfds++] = (struct pollfd){.fd = o->src[k].fd, .events = POLLIN};
        bool partial = has_partial(&o->src[0]) || has_partial(&o->src[1]);
        int ready = poll(fds, (nfds_t)nfds, partial || ended ? QUIET_MS : 1000);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0) {
            flush_partial(o, &o->src[0]);
            flush_partial(o, &o->src[1]);
            if (ended)
                break;
            siginfo_t info = {.si_pid = 0};
            ended = waitid(P_PID, (id_t)child, &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
                    info.si_pid == child;
            continue;
        }
        for (int k = 0; k < 2; k++)
            if (o->src[k].fd >= 0)
                for (int f = 0; f < nfds; f++)
                    if (fds[f].fd == o->src[k].fd && fds[f].revents != 0)
                        drain(o, &o->src[k]);
    }
    release(o);
}
