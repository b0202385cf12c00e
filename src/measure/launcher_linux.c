/*
 * The launcher's platform interface (see launcher.c) on Linux: the
 * measurement path as Linux allows it. Included into launcher.c when
 * BESTGUESS_LINUX is defined.
 */
#include <dirent.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

/* Append a decimal number to a path (no stdio: it would grow the launcher). */
static char *put_decimal(char *p, long v) {
    char digits[24];
    int n = 0;
    do digits[n++] = (char)('0' + v % 10); while ((v /= 10) > 0);
    while (n) *p++ = digits[--n];
    *p = 0;
    return p;
}

static char *put_text(char *p, const char *t) {
    while (*t) *p++ = *t++;
    *p = 0;
    return p;
}

/* Orphans of the commands come to this process (see end_leftovers); if the
   tool dies, cancel (SIGUSR1). */
static void platform_init(void) {
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    prctl(PR_SET_PDEATHSIG, SIGUSR1, 0, 0, 0);
}

/* This process's own high-water RSS (VmHWM), in KiB, or -1. */
static int64_t platform_peak_rss(void) {
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

static int open_event(uint32_t type, uint64_t config, int inherit) {
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = type;
    a.config = config;
    a.disabled = 1;
    a.inherit = (unsigned)inherit;
    a.enable_on_exec = (unsigned)inherit;
    a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    long fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    return fd < 0 ? -errno : (int)fd;
}

static int counter_guard(void) {
    int fd = open_event(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, 0);
    return fd >= 0 ? fd : open_event(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 0);
}

/* sched_setaffinity on this process; commands inherit it. */
static int pin_to_cpus(const unsigned char *cpus, size_t n) {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (size_t i = 0; i < n; i++) {
        uint32_t cpu = get_u32(cpus + 4 * i);
        if (cpu >= CPU_SETSIZE) return EINVAL;
        CPU_SET(cpu, &set);
    }
    return sched_setaffinity(0, sizeof set, &set) != 0 ? errno : 0;
}

/*
 * Run-queue delay: the time a command's process spent runnable but not
 * running, waiting for a CPU (the second field of /proc/PID/schedstat, in
 * ns; kept by the scheduler whenever CONFIG_SCHED_INFO is built in, with no
 * sysctl to enable). It is read from the zombie, after the clock has
 * stopped and before wait4 reaps it (waitid with WNOWAIT leaves it in
 * place). What it covers: the command's own process, that is its main
 * thread. Other threads are released as they exit, and children are
 * reaped by the command, so their waits are gone by then; the kernel keeps
 * no sum of them (taskstats' tgid sum needs CAP_NET_ADMIN and skips the
 * zombie leader). -1 where the file cannot be read (no CONFIG_SCHED_INFO,
 * no /proc).
 */
static int proc_fd = -2; /* /proc, opened at the first read; -1: none */

static int64_t run_delay_ns(pid_t pid) {
    if (proc_fd == -2) proc_fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (proc_fd < 0) return -1;
    char path[32], buf[128];
    put_text(put_decimal(path, (long)pid), "/schedstat");
    int fd = openat(proc_fd, path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return -1;
    buf[n] = 0;
    /* "runtime run_delay timeslices\n" */
    char *p = buf, *end;
    strtoull(p, &end, 10);
    if (end == p || *end != ' ') return -1;
    p = end + 1;
    unsigned long long delay = strtoull(p, &end, 10);
    if (end == p || delay > (unsigned long long)INT64_MAX) return -1;
    return (int64_t)delay;
}

/* Parse decimal pids from text; returns how many were stored. */
static int parse_pids(const char *text, pid_t *out, int n, int have) {
    const char *p = text;
    while (*p && have < n) {
        while (*p && (*p < '0' || *p > '9')) p++;
        if (!*p) break;
        long v = strtol(p, (char **)&p, 10);
        if (v > 0) out[have++] = (pid_t)v;
    }
    return have;
}

/* The launcher's live children: from /proc/self/task/PID/children, or by
   scanning /proc for processes whose parent is the launcher. */
static int children(pid_t *out, int n) {
    char path[64], buf[8192];
    pid_t me = getpid();
    put_text(put_decimal(put_text(path, "/proc/self/task/"), me), "/children");
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        size_t got = 0;
        ssize_t r;
        while (got < sizeof buf - 1 && (r = read(fd, buf + got, sizeof buf - 1 - got)) > 0)
            got += (size_t)r;
        close(fd);
        buf[got] = 0;
        return parse_pids(buf, out, n, 0);
    }
    DIR *d = opendir("/proc");
    if (!d) return -1;
    int have = 0;
    struct dirent *e;
    while (have < n && (e = readdir(d)) != NULL) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9' || strlen(e->d_name) > 20) continue;
        put_text(put_text(put_text(path, "/proc/"), e->d_name), "/stat");
        int sfd = open(path, O_RDONLY | O_CLOEXEC);
        if (sfd < 0) continue;
        ssize_t r = read(sfd, buf, sizeof buf - 1);
        close(sfd);
        if (r <= 0) continue;
        buf[r] = 0;
        /* "pid (comm) state ppid ...": comm may hold anything, so start
           after its last ')'. */
        char *q = strrchr(buf, ')');
        if (!q || q[1] != ' ' || !q[2] || q[3] != ' ') continue;
        if (strtol(q + 4, NULL, 10) == (long)me) out[have++] = (pid_t)strtol(e->d_name, NULL, 10);
    }
    closedir(d);
    return have;
}

/* The subreaper finds everything a run left (end_leftovers). */
static void platform_after_run(pid_t pid, int group, int hook) {
    (void)pid, (void)group, (void)hook;
}

static void platform_exit(void) {
}

/*
 * The spawn. Everything a child does between its creation and its execve
 * is CPU time billed to the command it becomes, so the child does as
 * little as possible: clone3 with CLONE_VM | CLONE_VFORK (no copy of the
 * address space; this process waits until the child has exec'd) and
 * CLONE_CLEAR_SIGHAND (Linux 5.5: the kernel resets every handled signal
 * to its default; glibc's posix_spawn child does that itself, one
 * rt_sigaction per signal, ~117 system calls per run). The child then only
 * joins its process group, puts its stdio on /dev/null (unless
 * --show-output) and calls execve, searching PATH itself (see
 * exec_search). What it inherits needs no work:
 *   - signal dispositions: this process handles, never ignores, the
 *     signals a command must get at their default (SIGINT, SIGTERM,
 *     SIGHUP, SIGQUIT: see on_ignored), and leaves SIGPIPE and SIGXFSZ at
 *     their default (set in main), so CLONE_CLEAR_SIGHAND and execve reset
 *     them all;
 *   - the signal mask: this process never blocks a signal (main empties
 *     its mask once);
 *   - the CPU affinity (--cpus), set on this process;
 *   - the counters, opened on this process with inherit and
 *     enable_on_exec: they start counting at the child's execve, as with
 *     posix_spawn;
 *   - the environment (envp, with its padding) is execve's argument.
 * An error before or in execve is stored by the child in spawn_child.err
 * (CLONE_VM: it is this process's memory) before it exits; the parent,
 * resumed once the child has exec'd or exited, reads it, reaps the child
 * and reports the error as posix_spawnp reports its own (glibc does the
 * same). The child runs on child_stack, never on this process's stack.
 *
 * posix_spawnp is the fallback: when clone3 with these flags is refused at
 * start (ENOSYS before Linux 5.3 or under a seccomp filter, EINVAL before
 * 5.5, EPERM under some sandboxes), on architectures without the clone3
 * entry below, and when BESTGUESS_SPAWN=posix_spawn asks for it (to test
 * that path). --limits says which is in use.
 */
#if defined(__x86_64__)
#ifndef CLONE_CLEAR_SIGHAND
#define CLONE_CLEAR_SIGHAND 0x100000000ULL
#endif
#ifndef SYS_clone3
#define SYS_clone3 435
#endif
/* struct clone_args of linux/sched.h, its first version (64 bytes). */
struct clone_args_v0 {
    uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
};

/* The child's work, set by the parent before each clone. */
static struct {
    char *const *argv;
    char *const *envp;
    int null_stdio;
    pid_t group;
    volatile int err; /* the child's errno, 0 once it has exec'd */
} spawn_child;

/* The child's stack. 16 KiB: exec_search's buffer and a few frames; only
   the pages touched count towards this process's peak RSS. */
static unsigned char child_stack[16384] __attribute__((aligned(64)));

/* clone3 whose child calls fn(arg) on child_stack and never returns:
   both live in the one asm statement, so the child never runs in a C
   frame of the parent. Returns the child's pid, or -errno. */
static long clone3_run(struct clone_args_v0 *args, void (*fn)(void *), void *arg) {
    register long rax __asm__("rax") = SYS_clone3;
    register long rdi __asm__("rdi") = (long)args;
    register long rsi __asm__("rsi") = (long)sizeof *args;
    register long r12 __asm__("r12") = (long)fn;
    register long r13 __asm__("r13") = (long)arg;
    __asm__ volatile("syscall\n\t"
                     "test %%rax, %%rax\n\t"
                     "jnz 1f\n\t"
                     /* The child: on child_stack (16-byte aligned at its
                        top, as a call needs), no frame to return to. */
                     "xor %%ebp, %%ebp\n\t"
                     "mov %%r13, %%rdi\n\t"
                     "call *%%r12\n\t"
                     "hlt\n"
                     "1:"
                     : "+r"(rax)
                     : "r"(rdi), "r"(rsi), "r"(r12), "r"(r13)
                     : "rcx", "r11", "cc", "memory");
    return rax;
}

/* execve of `file` as posix_spawnp finds it (glibc's __execvpex): a name
   with a '/' as is; otherwise each PATH entry in turn (an empty one is the
   current directory), going on past ENOENT, ENOTDIR, ESTALE, ENODEV,
   ETIMEDOUT and EACCES (reported if nothing else ran), stopping at any
   other error. Like posix_spawnp and unlike execvp, a file without #! is
   not handed to /bin/sh: ENOEXEC is the error. Returns only on failure,
   with errno set. */
static void exec_search(const char *file, char *const argv[], char *const envp[]) {
    if (*file == 0) {
        errno = ENOENT;
        return;
    }
    if (strchr(file, '/')) {
        execve(file, argv, envp);
        return;
    }
    size_t file_len = strlen(file);
    if (file_len > NAME_MAX) {
        errno = ENAMETOOLONG;
        return;
    }
    char buffer[PATH_MAX + NAME_MAX + 2];
    int eacces = 0;
    for (const char *p = search_path;;) {
        const char *end = strchrnul(p, ':');
        size_t dir_len = (size_t)(end - p);
        if (dir_len < PATH_MAX) {
            memcpy(buffer, p, dir_len);
            size_t at = dir_len;
            if (dir_len) buffer[at++] = '/';
            memcpy(buffer + at, file, file_len + 1);
            execve(buffer, argv, envp);
            switch (errno) {
            case EACCES:
                eacces = 1;
                break;
            case ENOENT:
            case ESTALE:
            case ENOTDIR:
            case ENODEV:
            case ETIMEDOUT:
                break;
            default:
                return;
            }
        }
        if (*end == 0) break;
        p = end + 1;
    }
    errno = eacces ? EACCES : ENOENT;
}

static void spawn_child_main(void *unused) {
    (void)unused;
    if (setpgid(0, spawn_child.group) != 0) goto failed;
    if (spawn_child.null_stdio)
        for (int fd = 0; fd < 3; fd++)
            if (dup2(devnull_fd, fd) < 0) goto failed;
    exec_search(spawn_child.argv[0], spawn_child.argv, spawn_child.envp);
failed:
    spawn_child.err = errno ? errno : EINTR;
    _exit(127);
}

static void probe_child_main(void *unused) {
    (void)unused;
    _exit(0);
}

static long clone3_vfork(void (*fn)(void *)) {
    struct clone_args_v0 args;
    memset(&args, 0, sizeof args);
    args.flags = CLONE_VM | CLONE_VFORK | CLONE_CLEAR_SIGHAND;
    args.exit_signal = SIGCHLD;
    args.stack = (uint64_t)(uintptr_t)child_stack;
    args.stack_size = sizeof child_stack;
    return clone3_run(&args, fn, NULL);
}

static int clone3_refused(long rc) {
    return rc == -ENOSYS || rc == -EINVAL || rc == -EPERM;
}

/* Spawn argv with clone3: 0 and *pid, or the errno; -1 if the kernel
   refused clone3 itself (posix_spawnp is used from then on). */
static int spawn_clone3(char *const argv[], char *const envp[], int null_stdio, pid_t group, pid_t *pid) {
    spawn_child.argv = argv;
    spawn_child.envp = envp;
    spawn_child.null_stdio = null_stdio;
    spawn_child.group = group;
    spawn_child.err = 0;
    long rc = clone3_vfork(spawn_child_main);
    if (clone3_refused(rc)) {
        spawn_path = SPAWN_REFUSED;
        spawn_refused_errno = (int)-rc;
        return -1;
    }
    if (rc < 0) return (int)-rc;
    int err = spawn_child.err;
    if (err) {
        int status;
        while (waitpid((pid_t)rc, &status, 0) < 0 && errno == EINTR) {
        }
        return err;
    }
    *pid = (pid_t)rc;
    return 0;
}

/* Whether the kernel takes clone3 with these flags: one child that exits
   at once, before anything is measured. Only a refusal of the call itself
   (ENOSYS, EINVAL, EPERM) chooses posix_spawnp: an error that posix_spawnp
   would meet as well (EAGAIN at the process limit, ulimit -u; ENOMEM) is
   left for the spawns to report (the first of which still falls back if
   the kernel then refuses the call). */
static void spawn_choose(void) {
    long rc = clone3_vfork(probe_child_main);
    if (rc < 0 && !clone3_refused(rc)) {
        spawn_path = SPAWN_CLONE3;
        return;
    }
    if (rc < 0) {
        spawn_path = SPAWN_REFUSED;
        spawn_refused_errno = (int)-rc;
        return;
    }
    int status;
    while (waitpid((pid_t)rc, &status, 0) < 0 && errno == EINTR) {
    }
    spawn_path = SPAWN_CLONE3;
}
#else
static int spawn_clone3(char *const argv[], char *const envp[], int null_stdio, pid_t group, pid_t *pid) {
    (void)argv, (void)envp, (void)null_stdio, (void)group, (void)pid;
    return -1;
}
static void spawn_choose(void) {
    spawn_path = SPAWN_NO_CLONE3;
}
#endif
