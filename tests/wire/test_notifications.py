"""App Store Server Notifications V2 from `iapsim serve --notify URL`: Apple's own library must accept what iapsim
POSTs, given iapsim's root certificate."""
import http.server
import json
import queue
import threading
import unittest

from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.api_client import AppStoreServerAPIClient
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException

from iapsim_wire import DataDirectory, Server, purchases


class Receiver:
    """A team's notification endpoint on 127.0.0.1 at a free port: it keeps each body and its content type, answers 200."""

    def __init__(self):
        received = self.received = queue.Queue()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                received.put((self.path, self.headers.get("Content-Type"), json.loads(body)))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/notifications"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def next(self):
        return self.received.get(timeout=30)

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


class NotificationTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.data = DataDirectory(purchases(("consumable", 1)))
        cls.receiver = Receiver()
        cls.server = Server(cls.data, "--notify", cls.receiver.url)
        key = cls.data.key
        cls.client = AppStoreServerAPIClient(key["privateKey"].encode(), key["keyId"], key["issuerId"], key["bundleId"],
                                             Environment.SANDBOX)
        cls.client._base_url = cls.server.url
        cls.verifier = SignedDataVerifier([cls.data.root_certificate], False, Environment.SANDBOX, key["bundleId"])

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        cls.receiver.stop()
        cls.data.remove()

    def test_the_test_notification_verifies_with_apples_library(self):
        self.client.request_test_notification()
        path, content_type, body = self.receiver.next()
        self.assertEqual(path, "/notifications")
        self.assertEqual(content_type, "application/json")
        decoded = self.verifier.verify_and_decode_notification(body["signedPayload"])
        self.assertEqual(decoded.rawNotificationType, "TEST")
        self.assertTrue(decoded.notificationUUID)
        self.assertEqual(decoded.data.bundleId, "com.iapsim.app")
        self.assertEqual(decoded.data.environment, Environment.SANDBOX)
        header, payload, signature = body["signedPayload"].split(".")
        with self.assertRaises(VerificationException):
            self.verifier.verify_and_decode_notification(".".join([header, payload[:-4] + "AAAA", signature]))


if __name__ == "__main__":
    unittest.main()
