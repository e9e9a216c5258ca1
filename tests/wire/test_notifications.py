"""App Store Server Notifications V2 from `iapsim serve --notify URL`: Apple's own library must accept what iapsim
POSTs, given iapsim's root certificate."""
import http.server
import json
import queue
import threading
import time
import unittest

from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.api_client import AppStoreServerAPIClient
from appstoreserverlibrary.models.SendAttemptResult import SendAttemptResult
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException

from iapsim_wire import DataDirectory, Server, apple_error, purchases


class Receiver:
    """A team's notification endpoint on 127.0.0.1 at a free port: it keeps each body and its content type, answers
    `status` (200 unless a test changes it)."""

    def __init__(self):
        received = self.received = queue.Queue()
        self.status = 200
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                received.put((self.path, self.headers.get("Content-Type"), json.loads(body)))
                self.send_response(receiver.status)
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

    def status_once_attempted(self, token):
        """Get Test Notification Status, once the attempt the receiver saw is written down."""
        for _ in range(100):
            status = self.client.get_test_notification_status(token)
            if status.sendAttempts:
                return status
            time.sleep(0.1)
        self.fail("no attempt written down")

    def test_the_test_notifications_status_tells_each_attempt(self):
        token = self.client.request_test_notification().testNotificationToken
        _, _, body = self.receiver.next()
        status = self.status_once_attempted(token)
        self.assertEqual(status.signedPayload, body["signedPayload"])
        self.assertEqual(self.verifier.verify_and_decode_notification(status.signedPayload).rawNotificationType, "TEST")
        self.assertEqual([a.sendAttemptResult for a in status.sendAttempts], [SendAttemptResult.SUCCESS])
        self.receiver.status = 500
        try:
            refused = self.client.request_test_notification().testNotificationToken
            self.receiver.next()
            status = self.status_once_attempted(refused)
        finally:
            self.receiver.status = 200
        self.assertEqual([a.sendAttemptResult for a in status.sendAttempts], [SendAttemptResult.UNSUCCESSFUL_HTTP_RESPONSE_CODE])
        self.assertTrue(status.signedPayload)

    def test_a_team_server_without_tls_at_an_https_url_is_a_tls_issue(self):
        data = DataDirectory(purchases(("consumable", 1)))
        self.addCleanup(data.remove)
        # The receiver speaks plain HTTP; the URL says https, so the handshake fails.
        server = Server(data, "--notify", self.receiver.url.replace("http://", "https://"))
        self.addCleanup(server.stop)
        key = data.key
        client = AppStoreServerAPIClient(key["privateKey"].encode(), key["keyId"], key["issuerId"], key["bundleId"], Environment.SANDBOX)
        client._base_url = server.url
        token = client.request_test_notification().testNotificationToken
        for _ in range(100):
            status = client.get_test_notification_status(token)
            if status.sendAttempts:
                break
            time.sleep(0.1)
        self.assertEqual([a.sendAttemptResult for a in status.sendAttempts], [SendAttemptResult.TLS_ISSUE])

    def test_a_malformed_or_unknown_token_gets_apples_error(self):
        for token, expected in [("not-a-token", (400, 4000020)),
                                ("00000000-0000-0000-0000-000000000000_1700000000000", (404, 4040008))]:
            with self.subTest(token):
                self.assertEqual(apple_error(self.client.get_test_notification_status, token), expected)


class NotificationFaultTests(unittest.TestCase):
    """`iapsim serve --fault notification-…`: what a team's server must survive, as Apple's library sees it."""

    def serve(self, fault):
        data = DataDirectory(purchases(("consumable", 1)))
        receiver = Receiver()
        server = Server(data, "--notify", receiver.url, "--fault", fault)
        self.addCleanup(data.remove)
        self.addCleanup(receiver.stop)
        self.addCleanup(server.stop)
        key = data.key
        client = AppStoreServerAPIClient(key["privateKey"].encode(), key["keyId"], key["issuerId"], key["bundleId"], Environment.SANDBOX)
        client._base_url = server.url
        return receiver, client, SignedDataVerifier([data.root_certificate], False, Environment.SANDBOX, key["bundleId"])

    def attempts(self, client, token, count):
        for _ in range(100):
            status = client.get_test_notification_status(token)
            if len(status.sendAttempts or []) >= count:
                return status
            time.sleep(0.1)
        self.fail(f"fewer than {count} attempts written down")

    def test_delivered_twice_the_same_notification_uuid_and_bytes(self):
        receiver, client, verifier = self.serve("notification-twice:once")
        token = client.request_test_notification().testNotificationToken
        bodies = [receiver.next()[2]["signedPayload"], receiver.next()[2]["signedPayload"]]
        self.assertEqual(bodies[0], bodies[1])
        self.assertEqual(verifier.verify_and_decode_notification(bodies[0]).rawNotificationType, "TEST")
        status = self.attempts(client, token, 2)
        self.assertEqual([a.sendAttemptResult for a in status.sendAttempts], [SendAttemptResult.SUCCESS] * 2)

    def test_lost_never_reaches_the_server_yet_apple_counts_it_sent(self):
        receiver, client, verifier = self.serve("notification-lost:once")
        token = client.request_test_notification().testNotificationToken
        status = self.attempts(client, token, 1)
        self.assertEqual([a.sendAttemptResult for a in status.sendAttempts], [SendAttemptResult.SUCCESS])
        self.assertEqual(verifier.verify_and_decode_notification(status.signedPayload).rawNotificationType, "TEST")
        with self.assertRaises(queue.Empty):
            receiver.received.get(timeout=1)
        # The next one is not lost.
        client.request_test_notification()
        self.assertEqual(verifier.verify_and_decode_notification(receiver.next()[2]["signedPayload"]).rawNotificationType, "TEST")


if __name__ == "__main__":
    unittest.main()
