"""Runs commands on a pseudo-terminal; prints each one's median wall time (ms) and peak RSS (MB), one line per command.

usage: measure.py RUNS COMMAND...            one command
       measure.py RUNS -- COMMAND -- COMMAND  several, interleaved: each round runs every command once, so a machine
                                             that speeds up or slows down during the run moves them all alike
"""
import os, pty, statistics, sys, tempfile, time

# GNU time reports the child's own peak RSS; the fork from Python would otherwise count Python's pages.
RSS_FILE = tempfile.NamedTemporaryFile(delete=False).name

def once(argv):
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update(TERM="xterm-256color", LANG="C.UTF-8",
                          COLUMNS=os.environ.get("BENCH_COLUMNS", "100"), LINES=os.environ.get("BENCH_LINES", "30"))
        os.execv("/usr/bin/time", ["/usr/bin/time", "-f", "%M", "-o", RSS_FILE] + argv)
    start = time.perf_counter()
    while True:
        try:
            if not os.read(fd, 65536):
                break
        except OSError:
            break
    _, status, usage = os.wait4(pid, 0)
    elapsed = time.perf_counter() - start
    os.close(fd)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{argv} exited with {os.waitstatus_to_exitcode(status)}")
    with open(RSS_FILE) as f:
        rss_kb = int(f.read().split()[-1])
    return elapsed * 1000, rss_kb / 1024

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
    for argv in argvs:
        once(argv)  # warm the page cache
    samples = [[] for _ in argvs]
    for _ in range(runs):
        for argv, taken in zip(argvs, samples):
            taken.append(once(argv))
    for taken in samples:
        print(f"{statistics.median(s[0] for s in taken):.1f} {max(s[1] for s in taken):.1f}")
