"""Runs commands on a pseudo-terminal; prints each one's median wall time (ms) and peak RSS (MB), one line per command.

usage: measure.py RUNS COMMAND...            one command
       measure.py RUNS -- COMMAND -- COMMAND  several, interleaved: each round runs every command once, so a machine
                                             that speeds up or slows down during the run moves them all alike
"""
import os, statistics, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
LAUNCH = os.path.join(HERE, "..", ".build-bench", "launch")

def launcher():
    """bench/launch.c, built beside the benchmark's other programs when missing or older than its source."""
    source = os.path.join(HERE, "launch.c")
    if not os.path.exists(LAUNCH) or os.path.getmtime(LAUNCH) < os.path.getmtime(source):
        os.makedirs(os.path.dirname(LAUNCH), exist_ok=True)
        subprocess.run(["cc", "-O2", "-o", LAUNCH, source], check=True)
    return LAUNCH

def once(argv):
    """One launch on a new pseudo-terminal: the wall time from the program's fork to its exit (ms) and its peak RSS
    (MB), both taken by bench/launch.c, which Python starts without copying itself (posix_spawn)."""
    master, slave = os.openpty()
    result_read, result_write = os.pipe()
    env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8",
               COLUMNS=os.environ.get("BENCH_COLUMNS", "100"), LINES=os.environ.get("BENCH_LINES", "30"))
    pid = os.posix_spawn(LAUNCH, [LAUNCH] + argv, env, setsid=True, file_actions=[
        (os.POSIX_SPAWN_DUP2, slave, 0), (os.POSIX_SPAWN_DUP2, slave, 1), (os.POSIX_SPAWN_DUP2, slave, 2),
        (os.POSIX_SPAWN_DUP2, result_write, 3)])
    os.close(slave)
    os.close(result_write)
    while True:
        try:
            if not os.read(master, 65536):
                break
        except OSError:
            break
    os.waitpid(pid, 0)
    os.close(master)
    with os.fdopen(result_read) as result:
        line = result.read().split()
    if len(line) != 3:
        sys.exit(f"{argv}: bench/launch.c reported nothing")
    elapsed, rss_kb, status = float(line[0]), int(line[1]), int(line[2])
    if status != 0:
        sys.exit(f"{argv} exited with {status}")
    return elapsed, rss_kb / 1024

def commands(args):
    if not args or args[0] != "--":
        return [args]
    found, current = [], None
    for arg in args:
        if arg == "--":
            current = []
            found.append(current)
        else:
            current.append(arg)
    return found

if __name__ == "__main__":
    runs = int(sys.argv[1])
    argvs = commands(sys.argv[2:])
    launcher()
    for argv in argvs:
        once(argv)  # warm the page cache
    samples = [[] for _ in argvs]
    for _ in range(runs):
        for argv, taken in zip(argvs, samples):
            taken.append(once(argv))
    for taken in samples:
        print(f"{statistics.median(s[0] for s in taken):.1f} {max(s[1] for s in taken):.1f}")
