"""Bad input over the wire: each gets Apple's error shape and status, the server keeps serving, and nothing in the
databases changes. The backend's faults reach the wire as real responses."""
import json
import socket
import time
import unittest

import requests

from iapsim_wire import DataDirectory, Server, purchases, run


class BadInputTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.data = DataDirectory(purchases(("non-consumable", 1), ("subscription", 3)))
        cls.receipt = run("receipt", "--data-dir", cls.data.path).stdout.strip()
        cls.before = cls.data.state()
        cls.server = Server(cls.data)

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        cls.data.remove()

    def verify(self, body, **options):
        return requests.post(f"{self.server.url}/sandbox/verifyReceipt", data=body, timeout=10, **options)

    def test_a_good_receipt_verifies(self):
        answer = self.verify(json.dumps({"receipt-data": self.receipt}))
        self.assertEqual(answer.status_code, 200)
        self.assertEqual(answer.headers["content-type"], "application/json")
        body = answer.json()
        self.assertEqual(body["status"], 0)
        self.assertEqual(body["environment"], "Sandbox")
        bought = {t["productId"] for t in self.before["store"]["transactions"] if t["state"] == "purchased"}
        self.assertEqual(len(bought), 2)
        self.assertEqual({e["product_id"] for e in body["receipt"]["in_app"]}, bought)

    def test_an_unknown_route_is_named_with_the_routes_there_are(self):
        for method, path in (("GET", "/nope"), ("POST", "/inApps/v1/nope"), ("GET", "/verifyreceipt")):
            with self.subTest(f"{method} {path}"):
                answer = requests.request(method, f"{self.server.url}{path}", timeout=10)
                self.assertEqual(answer.status_code, 404)
                self.assertTrue(answer.headers["content-type"].startswith("text/plain"))
                self.assertEqual(answer.text.count("\n"), 1)
                for words in (f"{method} {path}", "/verifyReceipt", "/inApps/v1/", "/backend/v1/"):
                    self.assertIn(words, answer.text)
        long = requests.get(f"{self.server.url}/{'x' * 5000}", timeout=10)
        self.assertEqual((long.status_code, long.text.count("\n")), (404, 1))
        self.assertLess(len(long.text), 600)
        self.assertIn("/verifyReceipt", long.text)
        self.assertEqual(self.data.state(), self.before)

    def test_production_sends_a_sandbox_receipt_to_sandbox(self):
        answer = requests.post(f"{self.server.url}/verifyReceipt", data=json.dumps({"receipt-data": self.receipt}), timeout=10)
        self.assertEqual(answer.json()["status"], 21007)

    def test_bad_requests_get_21000_and_change_nothing(self):
        garbage = {
            "not JSON": b"{receipt-data",
            "form-encoded": b"receipt-data=abc",
            "JSON but no receipt-data": json.dumps({"password": "x"}).encode(),
            "a JSON array": b"[1, 2]",
            "10 MB": b"x" * (10 << 20),
            "empty": b"",
        }
        for name, body in garbage.items():
            with self.subTest(name):
                answer = self.verify(body, headers={"Content-Type": "text/plain"})
                self.assertEqual(answer.status_code, 200)
                self.assertEqual(answer.json()["status"], 21000)
        with self.subTest("GET"):
            self.assertEqual(requests.get(f"{self.server.url}/verifyReceipt", timeout=10).json(), {"status": 21000})
        with self.subTest("a receipt that is not one"):
            self.assertEqual(self.verify(json.dumps({"receipt-data": "bm90IGEgcmVjZWlwdA=="})).json()["status"], 21002)
        with self.subTest("a receipt signed by someone else"):
            forged = self.receipt[:-8] + ("AAAAAAAA" if not self.receipt.endswith("AAAAAAAA") else "BBBBBBBB")
            self.assertIn(self.verify(json.dumps({"receipt-data": forged})).json()["status"], (21002, 21003))
        self.assertEqual(self.data.state(), self.before)
        self.test_a_good_receipt_verifies()

    def test_a_slow_client_does_not_hold_up_others(self):
        slow = socket.create_connection(("127.0.0.1", self.server.port))
        try:
            slow.sendall(b"POST /verifyReceipt HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n{\"receipt-d")
            started = time.monotonic()
            self.test_a_good_receipt_verifies()
            self.assertLess(time.monotonic() - started, 5)
        finally:
            slow.close()
        self.test_a_good_receipt_verifies()

    def test_unknown_paths_and_methods(self):
        self.assertEqual(requests.get(f"{self.server.url}/inApps/v1/nothing", timeout=10).status_code, 404)
        self.assertEqual(requests.delete(f"{self.server.url}/verifyReceipt", timeout=10).status_code in (404, 405), True)


class WireFaultTests(unittest.TestCase):
    """The backend faults armed on `iapsim serve` answer a team's server as real responses."""

    @classmethod
    def setUpClass(cls):
        cls.data = DataDirectory(purchases(("non-consumable", 1)))
        cls.body = json.dumps({"receipt-data": run("receipt", "--data-dir", cls.data.path).stdout.strip()})

    @classmethod
    def tearDownClass(cls):
        cls.data.remove()

    def serve_with(self, fault):
        server = Server(self.data, "--fault", fault)
        self.addCleanup(server.stop)
        return lambda: requests.post(f"{server.url}/sandbox/verifyReceipt", data=self.body, timeout=40)

    def test_5xx_once_then_served(self):
        verify = self.serve_with("backend-5xx=502:once")
        self.assertEqual(verify().status_code, 502)
        self.assertEqual(verify().json()["status"], 0)

    def test_down_is_503(self):
        verify = self.serve_with("backend-down:once")
        self.assertEqual(verify().status_code, 503)
        self.assertEqual(verify().json()["status"], 0)

    def test_slow_holds_the_answer(self):
        verify = self.serve_with("backend-slow=2:once")
        started = time.monotonic()
        self.assertEqual(verify().json()["status"], 0)
        self.assertGreaterEqual(time.monotonic() - started, 2)

    def test_server_api_meets_them_after_the_token_and_before_the_request(self):
        bought = self.data.state()["store"]["transactions"][0]["transactionId"]
        server = Server(self.data, "--fault", "backend-down:once", "--fault", "backend-5xx=502:once")
        self.addCleanup(server.stop)
        token = {"Authorization": f"Bearer {self.data.key['bearerToken']}"}

        def get(transaction, headers=token):
            return requests.get(f"{server.url}/inApps/v1/transactions/{transaction}", headers=headers, timeout=40)

        self.assertEqual(get(bought, headers={}).status_code, 401)
        self.assertEqual(get("not-a-number").status_code, 503)
        self.assertEqual(get("not-a-number").status_code, 502)
        self.assertEqual(get("not-a-number").json()["errorCode"], 4000006)
        self.assertEqual(get(bought).status_code, 200)

    def test_forced_status(self):
        verify = self.serve_with("verify-status=21005:once")
        self.assertEqual(verify().json()["status"], 21005)
        self.assertEqual(verify().json()["status"], 0)


if __name__ == "__main__":
    unittest.main()
