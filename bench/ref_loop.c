/*
 * The physical limit for bench/overhead.sh: the least a tool can do to time a
 * command. posix_spawnp with stdio on /dev/null, wait4 on that child,
 * CLOCK_MONOTONIC around the two. Prints one line per run:
 *   total_cpu_us wall_us maxrss_kib
 * Usage: ref_loop RUNS PROGRAM [ARGS...]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
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

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s RUNS PROGRAM [ARGS...]\n", argv[0]);
        return 1;
    }
    long runs = strtol(argv[1], NULL, 10);
    int devnull = open("/dev/null", O_RDWR);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    for (int fd = 0; fd < 3; fd++) posix_spawn_file_actions_adddup2(&fa, devnull, fd);
    static char line[128];
    for (long i = 0; i < runs; i++) {
        pid_t pid;
        int status;
        struct rusage ru;
        long long t0 = now_ns();
        if (posix_spawnp(&pid, argv[2], &fa, NULL, argv + 2, environ) != 0) return 2;
        wait4(pid, &status, 0, &ru);
        long long t1 = now_ns();
        long long cpu = (long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000LL + ru.ru_utime.tv_usec +
                        ru.ru_stime.tv_usec;
        int n = snprintf(line, sizeof line, "%lld %lld %ld\n", cpu, (t1 - t0 + 500) / 1000, ru.ru_maxrss);
        fwrite(line, 1, (size_t)n, stdout);
    }
    return 0;
}
