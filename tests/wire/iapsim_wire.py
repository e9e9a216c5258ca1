"""What the wire tests share: a data directory with purchases made through the app, and `iapsim serve` on it."""
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
import unittest

BINARY = os.environ.get("IAPSIM_BINARY", ".build/debug/iapsim")


def run(*args, check=True):
    result = subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=300)
    if check and result.returncode != 0:
        raise AssertionError(f"iapsim {' '.join(args)} failed ({result.returncode}): {result.stderr.strip()}")
    return result


class DataDirectory:
    """A fresh data directory with the purchases `script` makes, a key and the certificates."""

    def __init__(self, script):
        self.root = tempfile.mkdtemp(prefix="iapsim-wire-")
        self.path = os.path.join(self.root, "data")
        script_path = os.path.join(self.root, "setup.iapsim")
        with open(script_path, "w") as f:
            f.write(script)
        run("play", "--data-dir", self.path, script_path)
        self.key = json.loads(run("keys", "--data-dir", self.path, "--json").stdout)
        certs = os.path.join(self.root, "certs")
        run("certs", "--data-dir", self.path, "--out", certs)
        with open(os.path.join(certs, "iapsim-root.cer"), "rb") as f:
            self.root_certificate = f.read()

    def state(self):
        return json.loads(run("state", "--data-dir", self.path).stdout)

    def remove(self):
        shutil.rmtree(self.root, ignore_errors=True)


class Server:
    """`iapsim serve` on a free port, until stopped."""

    def __init__(self, data, *options):
        self.process = subprocess.Popen([BINARY, "serve", "--data-dir", data.path, "--port", "0", *options],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if not match:
            self.process.kill()
            raise AssertionError(f"iapsim serve did not start: {line!r} {self.process.stderr.read()!r}")
        self.port = int(match.group(1))
        self.url = f"http://127.0.0.1:{self.port}"

    def stop(self):
        self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise AssertionError("iapsim serve did not stop on SIGINT")
        finally:
            self.process.stdout.close()
            self.process.stderr.close()


def purchases(*steps):
    """A script: alice launches, then each (kind, ordinal) is bought and its sheet closed."""
    lines = ["launch alice"]
    for kind, ordinal in steps:
        lines += [f"select {kind} {ordinal}", "press Enter", 'wait until "Purchase complete"', "press Esc"]
    return "\n".join(lines) + "\n"


def apple_client(data, server):
    """Apple's own client with the data directory's key, calling `server` instead of Apple's hosts."""
    from appstoreserverlibrary.api_client import AppStoreServerAPIClient
    from appstoreserverlibrary.models.Environment import Environment
    key = data.key
    client = AppStoreServerAPIClient(key["privateKey"].encode(), key["keyId"], key["issuerId"], key["bundleId"],
                                     Environment.SANDBOX)
    client._base_url = server.url  # the library has no option for another host; this is its one attribute
    return client


def apple_verifier(data):
    """Apple's own verifier, trusting the data directory's root instead of Apple's."""
    from appstoreserverlibrary.models.Environment import Environment
    from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier
    return SignedDataVerifier([data.root_certificate], False, Environment.SANDBOX, data.key["bundleId"])


def verifier_for(root, data):
    """Apple's own verifier trusting the root `iapsim certs` writes for the data directory at `data` (into `root`)."""
    from appstoreserverlibrary.models.Environment import Environment
    from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier
    run("certs", "--data-dir", data, "--out", os.path.join(root, "certs"))
    with open(os.path.join(root, "certs", "iapsim-root.cer"), "rb") as f:
        return SignedDataVerifier([f.read()], False, Environment.SANDBOX, "com.iapsim.app")


class ServedStore(unittest.TestCase):
    """Tests on one data directory made by the class's SCRIPT and served for the whole class: Apple's client and
    verifier for it, and the store's charges (purchased transactions) as `iapsim state` lists them."""
    SCRIPT = "launch alice\n"

    @classmethod
    def setUpClass(cls):
        cls.data = DataDirectory(cls.SCRIPT)
        cls.server = Server(cls.data)
        cls.client = apple_client(cls.data, cls.server)
        cls.verifier = apple_verifier(cls.data)
        cls.charges = [t for t in cls.data.state()["store"]["transactions"] if t["state"] == "purchased"]

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        cls.data.remove()


def whole_history(client, verifier, transaction_id, request=None, version=None, revision=None):
    """Get Transaction History page after page from `revision` (version 2 unless told): every transaction decoded, in
    order, and the last revision given."""
    from appstoreserverlibrary.api_client import GetTransactionHistoryVersion
    from appstoreserverlibrary.models.TransactionHistoryRequest import TransactionHistoryRequest
    seen = []
    while True:
        page = client.get_transaction_history(transaction_id, revision, request or TransactionHistoryRequest(),
                                              version or GetTransactionHistoryVersion.V2)
        seen += [verifier.verify_and_decode_signed_transaction(s) for s in page.signedTransactions]
        revision = page.revision
        if not page.hasMore:
            return seen, revision


def apple_error(call, *arguments):
    """The HTTP status and Apple's error code of a call Apple's library reports as refused; an AssertionError if it was
    not."""
    from appstoreserverlibrary.api_client import APIException
    try:
        call(*arguments)
    except APIException as refusal:
        return refusal.http_status_code, refusal.raw_api_error
    raise AssertionError(f"{call.__name__}{arguments} was not refused")


def live_app(test, root, width, *arguments):
    """The real app in a tmux of its own, `width` columns wide, killed when `test` ends; answers (tmux, wait_for)."""
    sock = os.path.join(root, "tmux.sock")
    tmux = lambda *args: subprocess.run(["tmux", "-S", sock, "-f", "/dev/null", *args], capture_output=True, text=True)
    test.addCleanup(tmux, "kill-server")
    tmux("new-session", "-d", "-x", str(width), "-y", "30", "-e", "LANG=C.UTF-8", "-e", "TERM=xterm-256color",
         "exec " + " ".join([BINARY, *arguments]))

    def wait_for(text, seconds=20):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            screen = tmux("capture-pane", "-p").stdout
            if text in screen:
                return screen
            time.sleep(0.05)
        test.fail(f"never saw {text!r}:\n{tmux('capture-pane', '-p').stdout}")

    return tmux, wait_for
