"""Runs a command on a pseudo-terminal repeatedly; prints median wall time (ms) and peak RSS (MB)."""
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

runs = int(sys.argv[1])
argv = sys.argv[2:]
once(argv)  # warm the page cache
samples = [once(argv) for _ in range(runs)]
print(f"{statistics.median(s[0] for s in samples):.1f} {max(s[1] for s in samples):.1f}")
