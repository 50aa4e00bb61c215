// epoll, eventfd, CPU affinity and thread names for HTTPServer's event loops (Linux only;
// not in Swift's Glibc module). No _GNU_SOURCE here: it would make the system headers'
// definitions differ from the ones Glibc and Dispatch import.
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/// CPUs this process may run on (`taskset -c 0` gives 1); 0 when it cannot be read.
static inline int cepoll_allowed_cpu_count(void) {
    unsigned long mask[1024 / (8 * sizeof(unsigned long))] = {0};
    long bytes = syscall(SYS_sched_getaffinity, 0, sizeof(mask), mask);
    if (bytes <= 0) return 0;
    int count = 0;
    for (unsigned long i = 0; i < (unsigned long)bytes / sizeof(unsigned long); i++) count += __builtin_popcountl(mask[i]);
    return count;
}

/// Names the calling thread (as seen in top -H and perf); at most 15 bytes are kept.
static inline void cepoll_set_thread_name(const char *name) {
    prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}
#endif
