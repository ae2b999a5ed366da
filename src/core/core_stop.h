/* core_stop — what to remove if the user stops the program.
 *
 * Contract: core_stop_remove registers a path, a file or a directory (empty by
 * the time it is removed), to remove if SIGINT, SIGTERM or SIGHUP arrives
 * before core_stop_forget; the handler removes the registered paths, the
 * latest first (a directory's files before it), then the signal takes the
 * course it had before: the handler installed before, or the default action. A
 * signal that was ignored is left alone. The first registration installs the
 * handler, the last forget puts back what was there, so uses nest. For the
 * tools' temporary files; registered and forgotten from one thread, outside
 * any SPMD section. A file written whole (core_file) at a registered path has
 * its temporary removed too. A run that stops on an error removes them too
 * (core_stop_cleanup).
 */
#ifndef POLYBSP_CORE_STOP_H
#define POLYBSP_CORE_STOP_H

/* A handle for core_stop_forget, or -1 (nothing registered) when the table is
 * full or the path too long: the file then stays after a stop, as before. */
int core_stop_remove(const char *path, int is_dir);
void core_stop_forget(int handle);
/* What the handler writes to stderr about handle's path: removed when it went,
 * kept when it could not (a directory with files in it); either may be NULL
 * (nothing said). The strings must live until core_stop_forget. */
void core_stop_say(int handle, const char *removed, const char *kept);
/* Removes every registered path now, as a stop would, without stopping:
 * for a program that ends on an error instead (core_error.h: a fatal report,
 * a crash, exit inside a run), which leaves by _exit or the signal.
 * Async-signal-safe. */
void core_stop_cleanup(void);
/* core_file's temporary beside a registered path (tmp, or NULL once it is
 * renamed or removed) goes with the path; nothing for a path not registered.
 * May be called from any thread while the registrations do not change. */
void core_stop_temp(const char *path, const char *tmp);

#endif
