/*
 * The launcher's platform interface (see launcher.c) with POSIX alone:
 * what macOS and the BSDs have. Included into launcher.c when
 * BESTGUESS_LINUX is not defined (any system but Linux, or Linux built
 * without the `linux` feature, which is how this path is tested).
 *
 * What it does without Linux's interfaces:
 *   - spawning: posix_spawnp only (its child resets every handled signal
 *     itself before exec, which is billed to the command);
 *   - the memory floor: this process's own ru_maxrss (getrusage), in the
 *     platform's unit (KiB on Linux and FreeBSD, bytes on macOS: the tool
 *     converts it);
 *   - leftovers: no subreaper, so a command's leftovers are ended by
 *     killing its process group after the run; a process that left the
 *     group (setsid, a double fork into another group) is not reached; a
 *     hook's group is killed when the experiment ends;
 *   - no parent-death signal: if the tool is killed (SIGKILL), the run in
 *     progress goes on to its end, and this process ends at its next
 *     write to the tool;
 *   - no counters, no pinning, no run-queue delay: counters are answered
 *     EOPNOTSUPP, pinning ENOSYS (the tool refuses --cpus and says why),
 *     the delay is -1 (not measured).
 */

static void platform_init(void) {
}

static int64_t platform_peak_rss(void) {
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0) return -1;
    return (int64_t)ru.ru_maxrss;
}

static int open_event(uint32_t type, uint64_t config, int inherit) {
    (void)type, (void)config, (void)inherit;
    return -EOPNOTSUPP;
}

static int counter_guard(void) {
    return -EOPNOTSUPP;
}

static int pin_to_cpus(const unsigned char *cpus, size_t n) {
    (void)cpus, (void)n;
    return ENOSYS;
}

static void spawn_choose(void) {
    spawn_path = SPAWN_PORTABLE;
}

static int spawn_clone3(char *const argv[], char *const envp[], int null_stdio, pid_t group, pid_t *pid) {
    (void)argv, (void)envp, (void)null_stdio, (void)group, (void)pid;
    return -1;
}

static int64_t run_delay_ns(pid_t pid) {
    (void)pid;
    return -1;
}

static int children(pid_t *out, int n) {
    (void)out, (void)n;
    return -1;
}

/* Process groups of hooks, ended with the experiment. */
enum { HOOK_GROUPS_MAX = 256 };
static pid_t hook_groups[HOOK_GROUPS_MAX];
static size_t hook_group_count = 0;

/* A command's group is killed at once (what it left running ends with
   the run); a hook's is kept, to be killed when the experiment ends. A
   command that keeps the tool's group (--show-output) has no group of
   its own to kill. */
static void platform_after_run(pid_t pid, int group, int hook) {
    if (!group) return;
    if (!hook) {
        kill(-pid, SIGKILL);
    } else if (hook_group_count < HOOK_GROUPS_MAX) {
        hook_groups[hook_group_count++] = pid;
    }
}

static void platform_exit(void) {
    for (size_t i = 0; i < hook_group_count; i++) kill(-hook_groups[i], SIGKILL);
    hook_group_count = 0;
}
