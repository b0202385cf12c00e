/*
 * The physical limits for bench/overhead.sh: the least a tool can do to time
 * a command. Two loops, each with wait4 on the child and CLOCK_MONOTONIC
 * around spawn and reap:
 *   (default) posix_spawnp with stdio on /dev/null;
 *   --vfork   vfork + execve, the child doing nothing but execve (this
 *             process puts its own stdio on /dev/null once, and writes its
 *             lines to a saved copy of standard output).
 * Prints one line per run:
 *   total_cpu_us wall_us maxrss_kib
 * Usage: ref_loop [--vfork] RUNS PROGRAM [ARGS...]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The child execs at once; in a function of its own so that nothing of
   main's frame is live across vfork. */
static __attribute__((noinline)) pid_t spawn_vfork(char **argv) {
    pid_t pid = vfork();
    if (pid == 0) {
        execve(argv[0], argv, environ);
        _exit(127);
    }
    return pid;
}

int main(int argc, char **argv) {
    int use_vfork = argc > 1 && strcmp(argv[1], "--vfork") == 0;
    if (use_vfork) {
        argv++;
        argc--;
    }
    if (argc < 3) {
        fprintf(stderr, "usage: %s [--vfork] RUNS PROGRAM [ARGS...]\n", argv[0]);
        return 1;
    }
    long runs = strtol(argv[1], NULL, 10);
    int devnull = open("/dev/null", O_RDWR);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    for (int fd = 0; fd < 3; fd++) posix_spawn_file_actions_adddup2(&fa, devnull, fd);
    FILE *out = stdout;
    if (use_vfork) {
        out = fdopen(fcntl(1, F_DUPFD_CLOEXEC, 3), "w");
        for (int fd = 0; fd < 3; fd++) dup2(devnull, fd);
    }
    static char line[128];
    for (long i = 0; i < runs; i++) {
        pid_t pid;
        int status;
        struct rusage ru;
        long long t0 = now_ns();
        if (use_vfork) {
            pid = spawn_vfork(argv + 2);
            if (pid < 0) return 2;
        } else if (posix_spawnp(&pid, argv[2], &fa, NULL, argv + 2, environ) != 0) {
            return 2;
        }
        wait4(pid, &status, 0, &ru);
        long long t1 = now_ns();
        if (!WIFEXITED(status) || WEXITSTATUS(status) == 127) return 2;
        long long cpu = (long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000LL + ru.ru_utime.tv_usec +
                        ru.ru_stime.tv_usec;
        int n = snprintf(line, sizeof line, "%lld %lld %ld\n", cpu, (t1 - t0 + 500) / 1000, ru.ru_maxrss);
        fwrite(line, 1, (size_t)n, out);
    }
    fflush(out);
    return 0;
}
