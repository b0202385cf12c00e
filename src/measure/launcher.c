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
 * Protocol (all integers little-endian), identical to src/measure/protocol.rs:
 *   fd 3, request:  u32 len | u8 op | u8 flags | u64 timeout_ms | u32 argc |
 *                   argc NUL-terminated words
 *   fd 4, response: u8 kind | 11 x i64 | u8 signaled | i32 code | u8 timed_out
 *   fd 5, cancel:   any byte means "kill the running command now"
 * The timed interval is CLOCK_MONOTONIC from just before posix_spawnp to just
 * after wait4; rusage comes from wait4 on exactly that child.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

enum { REQ_FD = 3, RESP_FD = 4, CANCEL_FD = 5 };
enum { OP_RUN = 0, OP_FLOOR = 1 };
enum { FINISHED = 0, SPAWN_ERROR = 1, CANCELLED = 2, FLOOR = 3, PROTOCOL_ERROR = 4 };
enum { FLAG_NULL_STDIO = 1, FLAG_NEW_GROUP = 2 };
#define RESPONSE_LEN (1 + 8 * 11 + 1 + 4 + 1)

struct response {
    uint8_t kind;
    int64_t ints[11]; /* value, start_unix_us, wall_ns, user, sys, maxrss_kib,
                         minflt, majflt, nvcsw, nivcsw, reserved */
    uint8_t signaled;
    int32_t code;
    uint8_t timed_out;
};

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

static int send_response(const struct response *r) {
    unsigned char b[RESPONSE_LEN];
    b[0] = r->kind;
    for (int i = 0; i < 11; i++) put_le(b + 1 + 8 * i, (uint64_t)r->ints[i], 8);
    b[1 + 88] = r->signaled;
    put_le(b + 1 + 88 + 1, (uint32_t)r->code, 4);
    b[1 + 88 + 5] = r->timed_out;
    return write_full(RESP_FD, b, sizeof b);
}

static uint64_t clock_ns(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* This process's own high-water RSS (VmHWM), in KiB, or -1. */
static int64_t own_peak_kib(void) {
    char buf[4096];
    int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return -1;
    buf[n] = 0;
    char *p = strstr(buf, "VmHWM:");
    if (!p) return -1;
    return strtoll(p + 6, NULL, 10);
}

/* Wait for the child, a timeout, or a cancel byte; kill the child (group) on
   timeout or cancel. Returns FINISHED or CANCELLED; sets *timed_out. */
static int await_child(pid_t pid, int group, uint64_t timeout_ms, int *timed_out) {
    int end = FINISHED;
    *timed_out = 0;
    int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (pidfd >= 0) {
        uint64_t deadline = timeout_ms ? clock_ns(CLOCK_MONOTONIC) + timeout_ms * 1000000u : 0;
        for (;;) {
            struct pollfd fds[2] = {{pidfd, POLLIN, 0}, {CANCEL_FD, POLLIN, 0}};
            int wait_ms = -1;
            if (deadline) {
                uint64_t now = clock_ns(CLOCK_MONOTONIC);
                if (now >= deadline) { *timed_out = 1; break; }
                uint64_t left = (deadline - now + 999999u) / 1000000u;
                wait_ms = left > 0x7fffffff ? 0x7fffffff : (int)left;
            }
            int n = poll(fds, 2, wait_ms);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) break; /* fall back to a plain wait4 */
            if (fds[0].revents) break;
            if (fds[1].revents) { end = CANCELLED; break; }
        }
        close(pidfd);
    }
    if (*timed_out || end == CANCELLED) kill(group ? -pid : pid, SIGKILL);
    return end;
}

static void run(char **argv, uint8_t flags, uint64_t timeout_ms, int devnull, struct response *r) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    sigset_t empty, defaults;
    int group = (flags & FLAG_NEW_GROUP) != 0;
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attr);
    if (flags & FLAG_NULL_STDIO)
        for (int fd = 0; fd < 3; fd++) posix_spawn_file_actions_adddup2(&actions, devnull, fd);
    sigemptyset(&empty);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    sigaddset(&defaults, SIGPIPE);
    sigaddset(&defaults, SIGQUIT);
    short sflags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
    if (group) {
        sflags |= POSIX_SPAWN_SETPGROUP;
        posix_spawnattr_setpgroup(&attr, 0);
    }
    posix_spawnattr_setsigmask(&attr, &empty);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setflags(&attr, sflags);

    pid_t pid;
    r->ints[1] = (int64_t)(clock_ns(CLOCK_REALTIME) / 1000u);
    uint64_t t0 = clock_ns(CLOCK_MONOTONIC);
    int rc = posix_spawnp(&pid, argv[0], &actions, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) {
        r->kind = SPAWN_ERROR;
        r->ints[0] = rc;
        return;
    }
    int timed_out;
    int end = await_child(pid, group, timeout_ms, &timed_out);
    int status;
    struct rusage ru;
    while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR) {
    }
    uint64_t t1 = clock_ns(CLOCK_MONOTONIC);
    r->kind = (uint8_t)end;
    r->ints[2] = (int64_t)(t1 - t0);
    r->ints[3] = (int64_t)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec;
    r->ints[4] = (int64_t)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec;
    r->ints[5] = ru.ru_maxrss;
    r->ints[6] = ru.ru_minflt;
    r->ints[7] = ru.ru_majflt;
    r->ints[8] = ru.ru_nvcsw;
    r->ints[9] = ru.ru_nivcsw;
    if (WIFSIGNALED(status)) {
        r->signaled = 1;
        r->code = WTERMSIG(status);
    } else {
        r->code = WEXITSTATUS(status);
    }
    r->timed_out = (uint8_t)timed_out;
}

int main(void) {
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    for (int fd = REQ_FD; fd <= CANCEL_FD; fd++)
        if (fcntl(fd, F_SETFD, FD_CLOEXEC) != 0) return 2;
    int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (devnull < 0) return 2;

    unsigned char *buf = NULL;
    size_t cap = 0;
    char **argv = NULL;
    size_t argv_cap = 0;
    for (;;) {
        unsigned char lenb[4];
        int got = read_full(REQ_FD, lenb, 4);
        if (got == 0) return 0; /* bestguess closed the pipe: done */
        if (got < 0) return 2;
        size_t len = get_u32(lenb);
        if (len + 1 > cap) {
            unsigned char *nb = realloc(buf, len + 1);
            if (!nb) return 2;
            buf = nb;
            cap = len + 1;
        }
        if (read_full(REQ_FD, buf, len) != 1) return 2;
        buf[len] = 0;

        struct response r;
        memset(&r, 0, sizeof r);
        if (len < 14) {
            r.kind = PROTOCOL_ERROR;
        } else if (buf[0] == OP_FLOOR) {
            r.kind = FLOOR;
            r.ints[0] = own_peak_kib();
        } else if (buf[0] == OP_RUN) {
            uint8_t flags = buf[1];
            uint64_t timeout_ms = get_u64(buf + 2);
            size_t argc = get_u32(buf + 10);
            if (argc + 1 > argv_cap) {
                char **na = realloc(argv, (argc + 1) * sizeof *argv);
                if (!na) return 2;
                argv = na;
                argv_cap = argc + 1;
            }
            size_t pos = 14, i = 0;
            for (; i < argc && pos < len; i++) {
                argv[i] = (char *)buf + pos;
                pos += strlen(argv[i]) + 1;
            }
            argv[i] = NULL;
            if (i != argc || argc == 0 || pos > len)
                r.kind = PROTOCOL_ERROR;
            else
                run(argv, flags, timeout_ms, devnull, &r);
        } else {
            r.kind = PROTOCOL_ERROR;
        }
        if (send_response(&r) != 0) return 2;
    }
}
