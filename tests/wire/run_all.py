"""Every test module in a process of its own, a few side by side: they mostly wait on `iapsim serve` and on their
notification servers, so together they take about a third of the time they take one after another. Each module's
outcome is printed in order, its whole output when it failed; exits 1 when any failed."""
import concurrent.futures
import glob
import os
import re
import subprocess
import sys
import time


def run(module):
    result = subprocess.run([sys.executable, "-m", "unittest", module], capture_output=True, text=True)
    return module, result.returncode, (result.stdout + result.stderr).strip()


def main():
    started = time.monotonic()
    modules = sorted(path[:-3] for path in glob.glob("test_*.py"))
    jobs = int(os.environ.get("IAPSIM_WIRE_JOBS", "4"))
    ran, failed = 0, []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for module, code, output in pool.map(run, modules):
            counted = re.findall(r"^Ran (\d+) tests? in ([0-9.]+s)$", output, re.MULTILINE)
            ran += int(counted[-1][0]) if counted else 0
            said = f"{counted[-1][0]} tests in {counted[-1][1]}" if counted else "no tests ran"
            print(f"{module}: {said}, {'OK' if code == 0 else 'FAILED'}", flush=True)
            if code != 0:
                failed.append(module)
                print(output, flush=True)
    print("-" * 70)
    print(f"Ran {ran} tests in {len(modules)} modules, {jobs} at a time, in {time.monotonic() - started:.1f}s")
    print(f"FAILED: {', '.join(failed)}" if failed else "OK")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
