/*
 * bestguess launcher: spawns and measures commands on behalf of bestguess.
 *
 * Why C: on Linux a command's reported max RSS can never be below the peak
 * RSS of the process that spawned it (execve copies the old address space's
 * high-water mark). This program is linked statically and does almost
 * nothing else, so its own peak RSS (~0.7 MB) stays below that of even
 * /bin/true (~1.1 MB); no Rust binary built with the stable toolchain gets
 * that small (measured: 1.9 MB dynamic, 1.2 MB static).
 *
 * Protocol (all integers little-endian), read by src/measure/protocol/.
 * Every constant named here in capitals (descriptors, ops, response kinds,
 * flags, slots, limits, PROTOCOL_VERSION) comes from launcher_protocol.h,
 * which build.rs writes from src/measure/protocol/consts.rs: one definition
 * for both sides, so they cannot disagree and still build.
 * Hello: at start, before reading any request, u32 HELLO_MAGIC |
 *   u32 PROTOCOL_VERSION on RESPONSE_FD. The tool refuses a launcher whose
 *   hello differs (one built from other sources than the tool).
 * Requests on REQUEST_FD, each `u32 len | u8 op | body`:
 *   OP_FLOOR     report this process's peak RSS (VmHWM) in KiB
 *   OP_PROGRAMS  u32 count, then per program: u8 flags | u32 argc |
 *                argc NUL-terminated words. Replaces the program table.
 *   OP_BATCH     u8 stop_on_failure | u64 timeout_us | u32 count |
 *                count x u32 program index. Runs the steps in order.
 *   OP_SETUP     measurement extras for programs flagged FLAG_MEASURED (the
 *                commands, not the hooks); see "Extras" below. Sent at most
 *                once, before the first batch, only when one is asked for.
 * Responses on RESPONSE_FD, fixed size (RESPONSE_LEN): u8 kind | INTS x i64
 *   (SLOT_*) | u8 signaled | i32 code | u8 timed_out. FLOOR and PROGRAMS
 *   get one; a BATCH gets one
 *   per step it ran, and ends early after a spawn error, a cancel, or (with
 *   stop_on_failure) a run that did not exit 0 — the rules the tool applies
 *   too, so both sides agree where a batch ends.
 * Batching matters: the launcher goes straight from one run to the next
 * instead of waiting for a request per run (two cross-process wake-ups, ~80 us
 * per run on a VM). Each response is written the moment its run ends; the
 * tool sleeps through a batch rather than being woken per response (storing
 * results on the other core while a command runs cost 6-9 % CPU time on a
 * 2-vCPU VM).
 * SIGUSR1: kill the running command now, start no other.
 *
 * Extras (OP_SETUP body): u32 ncounters, ncounters x (u32 type | u64
 *   config) perf events | u32 ncpus, ncpus x u32 cpu | u8 pad_env | u64 seed
 *   | NUL-terminated metrics file path (empty: none). Answered by a fixed
 *   response of kind SET_UP followed by an extra frame (u32 len | body):
 *   ncounters x i32 errno (0 = opened) | i32 affinity errno | i32 metrics
 *   file errno. Once set up, every FINISHED response of a FLAG_MEASURED program
 *   is followed by an extra frame: u32 env padding | ncounters x (u64 value |
 *   u64 time enabled | u64 time running) | u32 metrics length | u8 state
 *   (METRICS_WHOLE, METRICS_CUT at METRICS_MAX, METRICS_NOT_A_FILE: not
 *   read, METRICS_REMOVED, or its directory) | the bytes the command wrote to its
 *   metrics file (at most METRICS_MAX). A FLAG_MEASURED run whose metrics file
 *   cannot be made afresh (a command removed its directory and the
 *   directory cannot be made again) is not started: METRICS_ERROR, the
 *   errno in ints[SLOT_VALUE], ends the batch.
 * Counters are opened once, on this process, disabled, inherited and
 *   enabled on exec: a spawned command's copy starts counting at its exec
 *   and every process it starts inherits it; at exit the copies' counts are
 *   folded back into this process's events, read before the spawn and
 *   after the reap (the difference is the run's count). This process never
 *   execs, so its own work is never counted. (Opening and closing four
 *   software counters per run instead cost ~400 us per run on a 2-vCPU
 *   VM.) Whatever a command leaves running is killed after it (see
 *   end_leftovers), so its counts fold back before the next run's first
 *   read; when a hook leaves processes running (kept on purpose), the
 *   counters are reopened, so that those cannot count into later runs.
 * Pinning: sched_setaffinity on this process; commands inherit it.
 * Env padding: FLAG_MEASURED programs get BESTGUESS_ENV_PAD=<n x 'x'> with n in
 *   0..PAD_MAX from SplitMix64(seed) per padded spawn (Mytkowicz et al. 2009).
 * Metrics file: made afresh (unlinked, created empty, its directory made
 *   again if a command removed it) before each FLAG_MEASURED spawn and named by
 *   BESTGUESS_METRICS in the command's environment; read back after, only
 *   if it is then a regular file. Both opens are
 *   non-blocking: a command that replaced the file with a FIFO (whose open
 *   waits for the other end) or a device cannot stall this process, which
 *   must stay free to answer a cancel.
 * Spawning: see "The spawn" below (clone3 with a child that does almost
 *   nothing before execve; posix_spawnp where the kernel refuses that).
 *   The FLOOR response says which: ints[SLOT_SPAWN_PATH] = SPAWN_*,
 *   ints[SLOT_SPAWN_ERRNO] = the errno with which the kernel refused clone3
 *   (SPAWN_REFUSED).
 * The timed interval is CLOCK_MONOTONIC from just before the spawn to the
 * moment waitid (WNOWAIT) says the child has ended; rusage comes from the
 * wait4 that then reaps exactly that child.
 */
#ifdef BESTGUESS_LINUX
#define _GNU_SOURCE
#elif defined(__linux__)
/* The portable path built on Linux: POSIX and the BSD interfaces that
   macOS and FreeBSD have (wait4), no GNU extension, so that what builds
   here uses nothing those systems lack. (On macOS and the BSDs nothing is
   defined: their headers then show everything.) */
#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h> /* rename (no stdio stream is used) */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The protocol's constants (written by build.rs, after the system headers
   so that no name of theirs can clash). */
#include "launcher_protocol.h"

extern char **environ;

struct response {
    uint8_t kind;
    int64_t ints[INTS]; /* by SLOT_*: value, start_unix_us, wall_ns, user,
                           sys, maxrss_kib, minflt, majflt, nvcsw, nivcsw,
                           run_delay_ns (-1: not measured) */
    uint8_t signaled;
    int32_t code;
    uint8_t timed_out;
};

/*
 * The platform interface: everything this program does that POSIX does
 * not offer, implemented twice. launcher_linux.c uses Linux's interfaces
 * (clone3, /proc, perf events, sched_setaffinity, prctl): the measurement
 * path as it is on Linux. launcher_posix.c uses POSIX alone (posix_spawn,
 * wait4, process groups), for macOS and the BSDs, and for Linux built
 * without the `linux` feature. BESTGUESS_LINUX (set by build.rs) chooses.
 * Both are included into this one translation unit, so the compiler sees
 * every call whole, as when the code was one file.
 */
struct counter_read {
    uint64_t value, enabled, running;
};
/* Once at start: adopt orphans (subreaper), die with the tool. */
static void platform_init(void);
/* This process's peak RSS, in ru_maxrss's unit (KiB on Linux), or -1. */
static int64_t platform_peak_rss(void);
/* A counter of this process, disabled, inherited and enabled at exec when
   `inherit`: its descriptor, or -errno. */
static int open_event(uint32_t type, uint64_t config, int inherit);
/* The event that keeps the kernel from swapping this process's counter
   context with a command's (see setup_extras): its descriptor, or -errno
   (then no counter is opened). */
static int counter_guard(void);
/* Pin this process (and so every command) to `n` CPUs given as u32 LE:
   0 or the errno. */
static int pin_to_cpus(const unsigned char *cpus, size_t n);
/* Choose the spawn path once (spawn_path, below). */
static void spawn_choose(void);
/* Spawn with the fast path: 0 and *pid, or the errno; -1 when the path is
   refused (posix_spawnp is used from then on). */
static int spawn_clone3(char *const argv[], char *const envp[], int null_stdio, pid_t group, pid_t *pid);
/* The run-queue delay of the ended (not yet reaped) child, ns, or -1. */
static int64_t run_delay_ns(pid_t pid);
/* This process's live children (at most n), or -1 when it cannot tell. */
static int children(pid_t *out, int n);
/* After a run is reaped: what else ends with it (`hook`: a hook's run,
   whose processes are kept until the experiment ends). */
static void platform_after_run(pid_t pid, int group, int hook);
/* When the experiment ends: what the hooks kept. */
static void platform_exit(void);

/* 1 = read n bytes, 0 = end of input before the first byte, -1 = error. */
static int read_full(int fd, void *buf, size_t n) {
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, (char *)buf + got, n - got);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return -1;
        if (r == 0) return got == 0 ? 0 : -1;
        got += (size_t)r;
    }
    return 1;
}

static int write_full(int fd, const void *buf, size_t n) {
    size_t put = 0;
    while (put < n) {
        ssize_t w = write(fd, (const char *)buf + put, n - put);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        put += (size_t)w;
    }
    return 0;
}

static uint64_t get_u64(const unsigned char *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}

static uint32_t get_u32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_le(unsigned char *p, uint64_t v, int n) {
    for (int i = 0; i < n; i++) p[i] = (unsigned char)(v >> (8 * i));
}

/* Each response is written as soon as its run ends: once in the pipe it is
   safe even if this process dies. (bestguess sleeps through a batch rather
   than being woken per response; the pipe is made large enough for a
   whole batch.) */
static int send_response(const struct response *r) {
    unsigned char b[RESPONSE_LEN];
    b[0] = r->kind;
    for (int i = 0; i < INTS; i++) put_le(b + 1 + 8 * i, (uint64_t)r->ints[i], 8);
    b[1 + 8 * INTS] = r->signaled;
    put_le(b + 1 + 8 * INTS + 1, (uint32_t)r->code, 4);
    b[1 + 8 * INTS + 5] = r->timed_out;
    return write_full(RESPONSE_FD, b, sizeof b);
}

static uint64_t clock_ns(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * Measurement extras (op 4 SETUP). Nothing here is touched, and nothing
 * costs anything, until SETUP asks for it; buffers are allocated then.
 */
static int extras = 0; /* SETUP received: FLAG_MEASURED programs get extras */
static uint32_t counter_type[MAX_COUNTERS];
static uint64_t counter_config[MAX_COUNTERS];
static int counter_fd[MAX_COUNTERS]; /* -1: could not be opened */
static size_t counter_count = 0;
static int guard_fd = -1;
static struct counter_read before[MAX_COUNTERS];
static int pad_env = 0;
static uint64_t pad_state = 0;
static char *pad_var = NULL; /* "BESTGUESS_ENV_PAD=" then PAD_MAX x 'x' */
static size_t pad_at = 0;    /* where the value's NUL is now */
static uint32_t pad_len = 0;
static char *metrics_path = NULL;
static char *metrics_var = NULL;

/* A directory a command left at metrics_path, moved aside within the
   experiment's own directory (removed with it at the end), so that the
   path is free: `metrics.left-N`. 0 or the errno. */
static unsigned long metrics_aside = 0;
static int move_metrics_dir_aside(void) {
    size_t n = strlen(metrics_path);
    char *aside = malloc(n + sizeof ".left-" + 20);
    if (!aside) return ENOMEM;
    int err = EEXIST;
    for (int attempt = 0; attempt < 100 && err; attempt++) {
        char digits[21];
        size_t d = sizeof digits;
        unsigned long v = metrics_aside++;
        digits[--d] = 0;
        do digits[--d] = (char)('0' + v % 10); while ((v /= 10) && d);
        memcpy(aside, metrics_path, n);
        strcpy(aside + n, ".left-");
        strcat(aside, digits + d);
        err = rename(metrics_path, aside) == 0 ? 0 : errno;
        if (err != EEXIST && err != ENOTEMPTY) break;
    }
    free(aside);
    return err;
}

/* The metrics file's directory as the experiment made it, whatever a
   command did to it: made again (0700) when it was removed, with its mode
   set back when changed, and anything else left at its path (a file, a
   symbolic link) removed first. A directory there that another user owns
   (made after a command removed ours, in a shared TMPDIR) is refused:
   EPERM. 0 or the errno. */
static int fresh_metrics_dir(void) {
    char *slash = strrchr(metrics_path, '/');
    if (!slash || slash == metrics_path) return 0;
    *slash = 0; /* metrics_path is now the directory's path */
    int err = 0;
    for (int attempt = 0; attempt < 3; attempt++) {
        struct stat st;
        if (lstat(metrics_path, &st) != 0) {
            err = errno;
            if (err != ENOENT) break;
            if (mkdir(metrics_path, 0700) == 0) {
                err = 0;
                break;
            }
            err = errno;
            if (err != EEXIST) break;
            continue; /* made meanwhile: look again */
        }
        if (S_ISDIR(st.st_mode)) {
            err = st.st_uid != geteuid() ? EPERM : 0;
            if (!err && (st.st_mode & 07777) != 0700 && chmod(metrics_path, 0700) != 0) err = errno;
            break;
        }
        err = unlink(metrics_path) == 0 ? EAGAIN : errno;
        if (err != EAGAIN) break;
    }
    *slash = '/';
    return err;
}

/* An empty regular file at metrics_path, whatever a command left there (a
   FIFO, a symbolic link, a directory) or did to its directory (removed it,
   replaced it): the directory is this experiment's own. Never blocks (a
   FIFO's open would wait for a reader). 0 or the errno. */
static int fresh_metrics_file(void) {
    int dir_error = fresh_metrics_dir();
    if (dir_error) return dir_error;
    if (unlink(metrics_path) != 0 && (errno == EISDIR || errno == EPERM)) {
        int err = move_metrics_dir_aside();
        if (err) return err;
    }
    int fd = open(metrics_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW, 0600);
    if (fd < 0) return errno;
    close(fd);
    return 0;
}
static char **measured_env = NULL; /* environ without our two variables, plus them */
static unsigned char *extra_buf = NULL;
static size_t extra_len = 0;

#define PAD_NAME "BESTGUESS_ENV_PAD="
#define METRICS_NAME "BESTGUESS_METRICS="

static uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static void read_counters(struct counter_read *into) {
    for (size_t i = 0; i < counter_count; i++) {
        memset(&into[i], 0, sizeof into[i]);
        if (counter_fd[i] >= 0 && read(counter_fd[i], &into[i], sizeof into[i]) != (ssize_t)sizeof into[i])
            memset(&into[i], 0, sizeof into[i]);
    }
}

/* Close and reopen every counter: processes still holding inherited
   copies of the old ones no longer count into them. */
static void reopen_counters(void) {
    for (size_t i = 0; i < counter_count; i++) {
        if (counter_fd[i] < 0) continue;
        close(counter_fd[i]);
        int fd = open_event(counter_type[i], counter_config[i], 1);
        counter_fd[i] = fd < 0 ? -1 : fd;
    }
}

static int starts_with(const char *s, const char *prefix) {
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void put_i32(unsigned char **p, int32_t v) {
    put_le(*p, (uint32_t)v, 4);
    *p += 4;
}

/* Parse SETUP, open what it asks for, and send the reply frame. */
static int setup_extras(const unsigned char *body, size_t len) {
    size_t pos = 0;
    if (len < 4) return -1;
    size_t n = get_u32(body);
    pos = 4;
    if (n > MAX_COUNTERS || len < pos + 12 * n + 4) return -1;
    for (size_t i = 0; i < counter_count; i++)
        if (counter_fd[i] >= 0) close(counter_fd[i]);
    counter_count = 0;
    unsigned char reply[4 + 4 * MAX_COUNTERS + 8];
    unsigned char *out = reply + 4;
    /* A disabled event of this process that children do not inherit: it
       keeps the kernel from treating a command's counter context as a
       clone of this one. Otherwise, when a child is switched in on the
       launcher's CPU, the two contexts can be swapped wholesale (the
       kernel's context-switch shortcut) and this process's own events end
       up on the command, dying with it. Measured on Linux 6.18 without
       it: 26 of 30 runs of /bin/true read 0. */
    if (n > 0 && guard_fd < 0) guard_fd = counter_guard();
    for (size_t i = 0; i < n; i++) {
        uint32_t type = get_u32(body + pos);
        uint64_t config = get_u64(body + pos + 4);
        pos += 12;
        /* Without the guard the counts would be wrong: open nothing. */
        int fd = guard_fd < 0 ? guard_fd : open_event(type, config, 1);
        counter_type[i] = type;
        counter_config[i] = config;
        counter_fd[i] = fd < 0 ? -1 : fd;
        put_i32(&out, fd < 0 ? -fd : 0);
    }
    counter_count = n;

    size_t ncpus = get_u32(body + pos);
    pos += 4;
    if (len < pos + 4 * ncpus + 9) return -1;
    int affinity_error = ncpus > 0 ? pin_to_cpus(body + pos, ncpus) : 0;
    pos += 4 * ncpus;
    put_i32(&out, affinity_error);

    pad_env = body[pos];
    pad_state = get_u64(body + pos + 1);
    pos += 9;
    if (pad_env && !pad_var) {
        pad_var = malloc(sizeof PAD_NAME + PAD_MAX);
        if (!pad_var) return -1;
        memcpy(pad_var, PAD_NAME, sizeof PAD_NAME - 1);
        memset(pad_var + sizeof PAD_NAME - 1, 'x', PAD_MAX);
        pad_at = sizeof PAD_NAME - 1 + PAD_MAX;
        pad_var[pad_at] = 0;
    }

    const char *path = (const char *)body + pos;
    if (memchr(path, 0, len - pos) == NULL) return -1;
    int metrics_error = 0;
    free(metrics_path);
    free(metrics_var);
    metrics_path = metrics_var = NULL;
    if (*path) {
        metrics_path = strdup(path);
        metrics_var = malloc(sizeof METRICS_NAME + strlen(path));
        if (!metrics_path || !metrics_var) return -1;
        strcpy(metrics_var, METRICS_NAME);
        strcat(metrics_var, path);
        metrics_error = fresh_metrics_file();
    }
    put_i32(&out, metrics_error);

    /* The environment of FLAG_MEASURED programs: ours, without stale copies of
       the two variables (a bestguess measuring bestguess), plus them. */
    size_t envc = 0;
    while (environ[envc]) envc++;
    free(measured_env);
    measured_env = malloc((envc + 3) * sizeof *measured_env);
    if (!measured_env) return -1;
    size_t k = 0;
    for (size_t i = 0; i < envc; i++)
        if (!starts_with(environ[i], PAD_NAME) && !starts_with(environ[i], METRICS_NAME))
            measured_env[k++] = environ[i];
    if (metrics_var) measured_env[k++] = metrics_var;
    if (pad_env) measured_env[k++] = pad_var;
    measured_env[k] = NULL;

    if (!extra_buf) extra_buf = malloc(4 + EXTRA_FRAME_MAX);
    if (!extra_buf) return -1;
    extras = 1;

    struct response r;
    memset(&r, 0, sizeof r);
    r.kind = SET_UP;
    if (send_response(&r) != 0) return -2;
    put_le(reply, (uint32_t)(out - reply - 4), 4);
    return write_full(RESPONSE_FD, reply, (size_t)(out - reply)) == 0 ? 0 : -2;
}

/* Before a FLAG_MEASURED spawn: an empty metrics file, this run's padding, the
   counters' starting values (all outside the timed interval). 0, or the
   errno with which the metrics file could not be made afresh (the run is
   then not started: its values would be lost). */
static int extras_before(void) {
    if (metrics_path) {
        int err = fresh_metrics_file();
        if (err) return err;
    }
    if (pad_env) {
        pad_var[pad_at] = 'x';
        pad_len = (uint32_t)(splitmix64(&pad_state) % (PAD_MAX + 1));
        pad_at = sizeof PAD_NAME - 1 + pad_len;
        pad_var[pad_at] = 0;
    }
    read_counters(before);
    return 0;
}

/* After the reap: build the extra frame that follows the run's response. */
static void extras_after(void) {
    struct counter_read after[MAX_COUNTERS];
    read_counters(after);
    unsigned char *p = extra_buf + 4;
    put_le(p, pad_env ? pad_len : 0xffffffffu, 4);
    p += 4;
    for (size_t i = 0; i < counter_count; i++) {
        /* A counter that failed to reopen reads 0 after: "not counted". */
        int ok = after[i].enabled >= before[i].enabled && after[i].enabled > 0;
        put_le(p, ok ? after[i].value - before[i].value : 0, 8);
        put_le(p + 8, ok ? after[i].enabled - before[i].enabled : 0, 8);
        put_le(p + 16, ok ? after[i].running - before[i].running : 0, 8);
        p += 24;
    }
    size_t got = 0;
    int state = METRICS_WHOLE;
    if (metrics_path) {
        int fd = open(metrics_path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        struct stat st;
        if (fd < 0 && (errno == ENOENT || errno == ENOTDIR)) {
            state = METRICS_REMOVED; /* removed, or its directory */
        } else if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
            state = METRICS_NOT_A_FILE;
        } else if (fd >= 0) {
            ssize_t r;
            while (got < METRICS_MAX && ((r = read(fd, p + 5 + got, METRICS_MAX - got)) > 0 || (r < 0 && errno == EINTR)))
                if (r > 0) got += (size_t)r;
            char one;
            state = got == METRICS_MAX && read(fd, &one, 1) == 1 ? METRICS_CUT : METRICS_WHOLE;
        }
        if (fd >= 0) close(fd);
    }
    put_le(p, got, 4);
    p[4] = (unsigned char)state;
    p += 5 + got;
    extra_len = (size_t)(p - extra_buf);
    put_le(extra_buf, extra_len - 4, 4);
}

/*
 * Waiting: the hot path is a plain wait4 on the child, exactly like the
 * minimal timing loop of bench/ref_loop.c (a pidfd + poll wake-up measured 2-4 % extra wall time on
 * /bin/true). A timeout arrives as SIGALRM (setitimer) and a cancel as
 * SIGUSR1 (sent by bestguess's SIGINT/SIGTERM handler); both handlers kill
 * the running child's process group. The child is first waited for with
 * WNOWAIT, so it stays a zombie (its pid cannot be reused) until the signals
 * are blocked and child_pid is cleared; only then is it reaped.
 */
static volatile sig_atomic_t child_pid = 0;
static volatile sig_atomic_t child_group = 0;
static volatile sig_atomic_t timed_out_flag = 0;
static volatile sig_atomic_t cancelled_flag = 0;

static void kill_child(void) {
    pid_t pid = (pid_t)child_pid;
    if (pid > 0) kill(child_group ? -pid : pid, SIGKILL);
}

/* Only the timer's SIGALRM times a run out (the kernel's, si_code > 0):
   a command that sent SIGALRM to its parent had been recorded as timed
   out, killed, without any --timeout. */
static void on_alarm(int sig, siginfo_t *info, void *context) {
    (void)sig;
    (void)context;
    if (info && info->si_code <= 0) return;
    timed_out_flag = 1;
    kill_child();
}

/* The tool's pid: only it cancels (its SIGUSR1, or the kernel's on its
   death, PR_SET_PDEATHSIG, sent in its name). A command that sent SIGUSR1
   to its parent had stopped the experiment as if interrupted. */
static pid_t tool_pid = 0;

static void on_cancel(int sig, siginfo_t *info, void *context) {
    (void)sig;
    (void)context;
    if (info && info->si_code == SI_USER && info->si_pid != tool_pid) return;
    cancelled_flag = 1;
    kill_child();
}

static void set_timer(uint64_t us) {
    struct itimerval t;
    memset(&t, 0, sizeof t);
    t.it_value.tv_sec = (time_t)(us / 1000000u);
    t.it_value.tv_usec = (suseconds_t)(us % 1000000u);
    setitimer(ITIMER_REAL, &t, NULL);
}

/*
 * Leftovers. The launcher is a child subreaper (PR_SET_CHILD_SUBREAPER): a
 * process that a command started and that outlived its parent is
 * re-parented to the launcher, even if it left the command's process group
 * or session (setsid). After each command's run (warmups and timed runs,
 * also after a timeout or a cancel), every process that is then a child of
 * the launcher is killed (SIGKILL) and reaped, and again for the processes
 * that were re-parented by those deaths, until none is left. Hooks are the
 * exception: what a hook leaves running (a server started by --setup) is
 * kept, up to KEEP_MAX processes, so that the runs can use it and
 * --cleanup can stop it; whatever is kept still when the tool closes the
 * pipe (the experiment ended, or was interrupted before --cleanup) is
 * ended then. The fast path is one waitpid(-1, WNOHANG) that
 * fails with ECHILD when the launcher has no child at all.
 */
enum { KEEP_MAX = 256, LIST_MAX = 256 };
static pid_t keep[KEEP_MAX];
static size_t keep_count = 0;

static int is_kept(pid_t p) {
    for (size_t i = 0; i < keep_count; i++)
        if (keep[i] == p) return 1;
    return 0;
}

static void forget(pid_t p) {
    for (size_t i = 0; i < keep_count; i++)
        if (keep[i] == p) {
            keep[i] = keep[--keep_count];
            return;
        }
}



/* End (or, after a hook, keep) every process left behind. */
static void end_leftovers(int hook) {
    for (;;) {
        int st;
        pid_t p = waitpid(-1, &st, WNOHANG);
        if (p > 0) { /* a zombie: reaped */
            forget(p);
            continue;
        }
        if (p < 0) return; /* ECHILD: no child left at all */
        pid_t list[LIST_MAX];
        int n = children(list, LIST_MAX);
        int killed = 0;
        for (int i = 0; i < n; i++) {
            if (is_kept(list[i])) continue;
            if (hook) {
                if (keep_count < KEEP_MAX) keep[keep_count++] = list[i];
                continue;
            }
            kill(list[i], SIGKILL);
            killed++;
        }
        if (!killed) return;
        for (int i = 0; i < n; i++)
            if (!is_kept(list[i]))
                while (waitpid(list[i], &st, 0) < 0 && errno == EINTR) {
                }
    }
}

/* How commands are spawned (the FLOOR response says it): the fast path
   (clone3, launcher_linux.c), or posix_spawnp because it was forced, the
   kernel refused the fast path, this architecture has none, or this is
   the portable build. */
static int spawn_path = SPAWN_NO_CLONE3;
static int spawn_refused_errno = 0;

/* The tool's process group (the terminal's foreground group, if any). */
static pid_t tool_group = 0;
static int devnull_fd = -1;
/* PATH as posix_spawnp reads it: this process's, or glibc's default. */
static const char *search_path = "/bin:/usr/bin";

#ifdef BESTGUESS_LINUX
#include "launcher_linux.c"
#else
#include "launcher_posix.c"
#endif

/*
 * The posix_spawnp settings, built once (spawn_setup) and shared by every
 * run: building them per run cost six getrlimit calls (glibc checks each
 * dup2 target against the descriptor limit) and two allocations per
 * command. Index [null_stdio] for the file actions, [own_group] for the
 * attributes.
 */
static posix_spawn_file_actions_t spawn_actions[2];
static posix_spawnattr_t spawn_attrs[2];

static void spawn_setup(int devnull) {
    sigset_t empty, defaults;
    sigemptyset(&empty);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    sigaddset(&defaults, SIGPIPE);
    sigaddset(&defaults, SIGQUIT);
    sigaddset(&defaults, SIGHUP);
    sigaddset(&defaults, SIGXFSZ);
    for (int null_stdio = 0; null_stdio < 2; null_stdio++) {
        posix_spawn_file_actions_init(&spawn_actions[null_stdio]);
        if (null_stdio)
            for (int fd = 0; fd < 3; fd++)
                posix_spawn_file_actions_adddup2(&spawn_actions[null_stdio], devnull, fd);
    }
    /* A group of its own, or (--show-output) the tool's group, which has
       the terminal; never the launcher's (see main). */
    short sflags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP;
    for (int own_group = 0; own_group < 2; own_group++) {
        posix_spawnattr_t *attr = &spawn_attrs[own_group];
        posix_spawnattr_init(attr);
        posix_spawnattr_setpgroup(attr, own_group ? 0 : tool_group);
        posix_spawnattr_setsigmask(attr, &empty);
        posix_spawnattr_setsigdefault(attr, &defaults);
        posix_spawnattr_setflags(attr, sflags);
    }
}

static void run(char **argv, uint8_t flags, uint64_t timeout_us, struct response *r) {
    if (cancelled_flag) { /* bestguess is stopping: start nothing new */
        r->kind = CANCELLED;
        return;
    }
    int group = (flags & FLAG_NEW_GROUP) != 0;
    const posix_spawn_file_actions_t *actions = &spawn_actions[(flags & FLAG_NULL_STDIO) != 0];
    const posix_spawnattr_t *attr = &spawn_attrs[group];

    int measured = extras && (flags & FLAG_MEASURED);
    char **envp = environ;
    if (measured) {
        int err = extras_before();
        if (err) {
            r->kind = METRICS_ERROR;
            r->ints[SLOT_VALUE] = err;
            return;
        }
        envp = measured_env;
    }
    pid_t pid;
    timed_out_flag = 0;
    /* No signal is blocked around the spawn (that cost four sigprocmask
       calls per run): a cancel that comes before child_pid is set finds no
       child to kill, so the flag is checked once it is set; one that comes
       after kills the child itself. Killing twice is harmless. The timer
       is armed only once child_pid is set. */
    child_group = group;
    r->ints[SLOT_START] = (int64_t)(clock_ns(CLOCK_REALTIME) / 1000u);
    uint64_t t0 = clock_ns(CLOCK_MONOTONIC);
    int rc = -1;
    if (spawn_path == SPAWN_CLONE3)
        rc = spawn_clone3(argv, envp, (flags & FLAG_NULL_STDIO) != 0, group ? 0 : tool_group, &pid);
    if (rc < 0) rc = posix_spawnp(&pid, argv[0], actions, attr, argv, envp);
    if (rc != 0) {
        r->kind = SPAWN_ERROR;
        r->ints[SLOT_VALUE] = rc;
        return;
    }
    child_pid = pid;
    if (cancelled_flag) kill_child();
    if (timeout_us) set_timer(timeout_us);
    siginfo_t info;
    while (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
    }
    /* The command has ended: the clock stops here, before anything this
       process does about it (the timer, the run-queue delay, the reap). */
    uint64_t t1 = clock_ns(CLOCK_MONOTONIC);
    /* The child is a zombie until wait4 (WNOWAIT above): a handler that
       still sees its pid kills nothing else. A timer that fires now finds
       a run that ended by itself, which did not time out (below). */
    child_pid = 0;
    if (timeout_us) set_timer(0);
    r->ints[SLOT_RUN_DELAY_NS] = (flags & FLAG_MEASURED) ? run_delay_ns(pid) : -1;
    int status;
    struct rusage ru;
    while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR) {
    }
    if (measured) extras_after();
    size_t kept = keep_count;
    platform_after_run(pid, group, !(flags & FLAG_MEASURED));
    end_leftovers(!(flags & FLAG_MEASURED));
    /* A hook left processes running (a server for the commands): they hold
       inherited counters, which must not count into later runs. */
    if (keep_count > kept) reopen_counters();
    /* Timed out: the timer fired and its SIGKILL ended the run. A run that
       exited by itself just before the timer fired had been marked timed
       out beside exit code 0 and no signal. */
    int timed_out = timed_out_flag && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
    /* A run that ended by itself is a measurement even if a cancel came in
       meanwhile; one that a signal ended while the tool was stopping (our
       SIGKILL, or the terminal's SIGINT under --show-output) is not. */
    r->kind = (uint8_t)(cancelled_flag && WIFSIGNALED(status) ? CANCELLED : FINISHED);
    r->ints[SLOT_WALL_NS] = (int64_t)(t1 - t0);
    r->ints[SLOT_USER_US] = (int64_t)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec;
    r->ints[SLOT_SYSTEM_US] = (int64_t)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec;
    r->ints[SLOT_MAXRSS] = ru.ru_maxrss;
    r->ints[SLOT_MINOR_FAULTS] = ru.ru_minflt;
    r->ints[SLOT_MAJOR_FAULTS] = ru.ru_majflt;
    r->ints[SLOT_VOLUNTARY_CSW] = ru.ru_nvcsw;
    r->ints[SLOT_INVOLUNTARY_CSW] = ru.ru_nivcsw;
    if (WIFSIGNALED(status)) {
        r->signaled = 1;
        r->code = WTERMSIG(status);
    } else {
        r->code = WEXITSTATUS(status);
    }
    r->timed_out = (uint8_t)timed_out;
}

/* The program table: argv arrays pointing into their own copy of the
   PROGRAMS request. */
static unsigned char *table_buf = NULL;
static char **table_words = NULL;
static size_t *table_start = NULL; /* index into table_words per program */
static uint8_t *table_flags = NULL;
static size_t table_count = 0;

static int define_programs(const unsigned char *body, size_t len) {
    free(table_buf);
    free(table_words);
    free(table_start);
    free(table_flags);
    table_buf = NULL;
    table_words = NULL;
    table_start = NULL;
    table_flags = NULL;
    table_count = 0;
    if (len < 4) return -1;
    size_t count = get_u32(body);
    table_buf = malloc(len + 1);
    table_start = calloc(count + 1, sizeof *table_start);
    table_flags = calloc(count + 1, 1);
    if (!table_buf || !table_start || !table_flags) return -1;
    memcpy(table_buf, body, len);
    table_buf[len] = 0;
    /* First pass: count words to size the pointer array. */
    size_t pos = 4, words = 0;
    for (size_t p = 0; p < count; p++) {
        if (pos + 5 > len) return -1;
        size_t argc = get_u32(table_buf + pos + 1);
        if (argc == 0) return -1;
        pos += 5;
        for (size_t w = 0; w < argc; w++) {
            if (pos >= len) return -1;
            pos += strlen((char *)table_buf + pos) + 1;
        }
        if (pos > len) return -1;
        words += argc + 1;
    }
    table_words = malloc((words + 1) * sizeof *table_words);
    if (!table_words) return -1;
    pos = 4;
    size_t k = 0;
    for (size_t p = 0; p < count; p++) {
        table_flags[p] = table_buf[pos];
        size_t argc = get_u32(table_buf + pos + 1);
        pos += 5;
        table_start[p] = k;
        for (size_t w = 0; w < argc; w++) {
            table_words[k++] = (char *)table_buf + pos;
            pos += strlen((char *)table_buf + pos) + 1;
        }
        table_words[k++] = NULL;
    }
    table_count = count;
    return 0;
}

static int run_batch(const unsigned char *body, size_t len) {
    if (len < 13) return -1;
    int stop_on_failure = body[0];
    uint64_t timeout_us = get_u64(body + 1);
    size_t count = get_u32(body + 9);
    if (len < 13 + 4 * count) return -1;
    for (size_t i = 0; i < count; i++) {
        size_t prog = get_u32(body + 13 + 4 * i);
        struct response r;
        memset(&r, 0, sizeof r);
        if (prog >= table_count) {
            r.kind = PROTOCOL_ERROR;
        } else {
            run(table_words + table_start[prog], table_flags[prog], timeout_us, &r);
        }
        if (send_response(&r) != 0) return -1;
        if (r.kind == FINISHED && extras && (table_flags[prog] & FLAG_MEASURED) &&
            write_full(RESPONSE_FD, extra_buf, extra_len) != 0)
            return -1;
        int failed = r.kind == FINISHED && (r.signaled || r.code != 0 || r.timed_out);
        if (r.kind != FINISHED || (stop_on_failure && failed)) break;
    }
    return 0;
}

/* SIGINT, SIGTERM, SIGHUP and SIGQUIT do nothing to this process. Handled
   rather than ignored: a command inherits an ignored signal as ignored,
   and a handled one at its default (see "The spawn"). */
static void on_ignored(int sig) {
    (void)sig;
}

int main(void) {
    /* The tool decides what a termination signal means (it sends SIGUSR1);
       Ctrl-C or the quit key sent to the process group, or a hangup, must not kill
       the launcher while it holds completed results. */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sa.sa_handler = on_ignored;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sigaction(SIGQUIT, &sa, NULL);
    /* What commands inherit on the clone3 path: these two at their
       default, and no signal blocked. */
    signal(SIGPIPE, SIG_DFL);
    signal(SIGXFSZ, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    /* Orphans of the commands come to this process (see end_leftovers). */
    platform_init();
    /* A process group of its own: a signal from the terminal (Ctrl-C, the
       quit key, a hangup) reaches the tool, which decides, and never a
       command the launcher is spawning — between fork and its own setpgid
       that command would still be in the launcher's group, and could die
       of the signal before exec. If the tool dies, cancel (SIGUSR1). */
    tool_group = getpgrp();
    tool_pid = getppid();
    setpgid(0, 0);
    sa.sa_flags = SA_RESTART | SA_SIGINFO;
    sa.sa_sigaction = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
    sa.sa_sigaction = on_cancel;
    sigaction(SIGUSR1, &sa, NULL);
    for (int fd = REQUEST_FD; fd <= RESPONSE_FD; fd++)
        if (fcntl(fd, F_SETFD, FD_CLOEXEC) != 0) return 2;
    int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (devnull < 0) return 2;
    devnull_fd = devnull;
    spawn_setup(devnull);
    const char *path = getenv("PATH");
    if (path) search_path = path;
    const char *forced = getenv("BESTGUESS_SPAWN");
    if (forced && strcmp(forced, "posix_spawn") == 0) spawn_path = SPAWN_FORCED;
    else spawn_choose();
    /* The hello, before anything is read (see "Hello" at the top). */
    unsigned char hello[8];
    put_le(hello, HELLO_MAGIC, 4);
    put_le(hello + 4, PROTOCOL_VERSION, 4);
    if (write_full(RESPONSE_FD, hello, sizeof hello) != 0) return 2;

    unsigned char *buf = NULL;
    size_t cap = 0;
    for (;;) {
        unsigned char lenb[4];
        int got = read_full(REQUEST_FD, lenb, 4);
        if (got == 0) { /* bestguess closed the pipe: done */
            /* What the hooks kept for the runs ends with the experiment, as
               every other process a run started (a server a --setup left
               had outlived an interrupted experiment, whose --cleanup never
               ran, under PID 1). */
            keep_count = 0;
            end_leftovers(0);
            platform_exit();
            return 0;
        }
        if (got < 0) return 2;
        size_t len = get_u32(lenb);
        if (len + 1 > cap) {
            unsigned char *nb = realloc(buf, len + 1);
            if (!nb) return 2;
            buf = nb;
            cap = len + 1;
        }
        if (read_full(REQUEST_FD, buf, len) != 1) return 2;
        buf[len] = 0;

        struct response r;
        memset(&r, 0, sizeof r);
        if (len >= 1 && buf[0] == OP_FLOOR) {
            r.kind = FLOOR;
            r.ints[SLOT_VALUE] = platform_peak_rss();
            r.ints[SLOT_SPAWN_PATH] = spawn_path;
            r.ints[SLOT_SPAWN_ERRNO] = spawn_refused_errno;
        } else if (len >= 1 && buf[0] == OP_PROGRAMS) {
            r.kind = define_programs(buf + 1, len - 1) == 0 ? DEFINED : PROTOCOL_ERROR;
        } else if (len >= 1 && buf[0] == OP_SETUP) {
            int rc = setup_extras(buf + 1, len - 1);
            if (rc == 0) continue;
            if (rc == -2) return 2;
            r.kind = PROTOCOL_ERROR;
        } else if (len >= 1 && buf[0] == OP_BATCH) {
            if (run_batch(buf + 1, len - 1) == 0) continue;
            r.kind = PROTOCOL_ERROR;
        } else {
            r.kind = PROTOCOL_ERROR;
        }
        if (send_response(&r) != 0) return 2;
    }
}
