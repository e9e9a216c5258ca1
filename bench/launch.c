/* Starts one program on the pseudo-terminal it is given (stdin, stdout and stderr its slave, this process the session
 * leader) and writes to fd 3 how long the program took from its fork to its exit, in ms, its peak RSS in kB and its
 * exit status. A small C process forks in microseconds and the child's peak RSS is the program's own: Python forking
 * itself and GNU time's fork and exec on top had added about 5 ms to every launch measured, the floors' included. */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: launch PROGRAM [ARGUMENT...]  (on a pseudo-terminal, fd 3 open for the result)\n");
        return 2;
    }
    ioctl(0, TIOCSCTTY, 0);
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pid_t pid = fork();
    if (pid == 0) {
        close(3);
        execvp(argv[1], argv + 1);
        _exit(127);
    }
    int status = 0;
    struct rusage usage;
    if (pid < 0 || wait4(pid, &status, 0, &usage) < 0) return 1;
    clock_gettime(CLOCK_MONOTONIC, &end);
    double ms = (end.tv_sec - start.tv_sec) * 1e3 + (end.tv_nsec - start.tv_nsec) / 1e6;
    dprintf(3, "%.3f %ld %d\n", ms, usage.ru_maxrss, WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
    return 0;
}
