"""The backend contract (docs/backend-contract.yaml): the built-in backend and a team's own server (team_server.py)
answer it alike, every answer fits its schema, and the app with --backend drives a team's server through a purchase."""
import json
import os
import shutil
import socket
import tempfile
import time
import unittest
import urllib.request

import jsonschema
import requests
import yaml
from openapi_spec_validator import validate

import team_server
from iapsim_wire import DataDirectory, Server, live_app, purchases, run, verifier_for

CONTRACT = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "backend-contract.yaml")
with open(CONTRACT) as f:
    SPEC = yaml.safe_load(f)


def check(body, schema):
    """The answer fits the contract's named schema."""
    validator = jsonschema.Draft202012Validator({"$ref": f"#/components/schemas/{schema}", "components": SPEC["components"]})
    validator.validate(body)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class TheContract(unittest.TestCase):
    def test_the_file_is_valid_openapi(self):
        validate(SPEC)


class Contract:
    """The checks every implementation passes; `backend` is the URL the contract's paths hang off."""
    backend = None
    data = None

    def post(self, path, body, **options):
        return requests.post(f"{self.backend}/backend/v1/{path}", json=body, timeout=15, **options)

    def test_order_verify_replay_account(self):
        bought = [t for t in self.data.state()["store"]["transactions"] if t["state"] == "purchased"][0]
        order = self.post("orders", {"user": "alice", "productId": bought["productId"]})
        self.assertEqual(order.status_code, 201)
        self.assertEqual(order.headers["content-type"].split(";")[0], "application/json")
        check(order.json(), "OrderResponse")
        request = {"receipt": self.receipt, "transactionId": bought["transactionId"], "productId": bought["productId"],
                   "orderId": order.json()["orderId"], "user": "alice"}
        first = self.post("verify", request)
        self.assertEqual(first.status_code, 200)
        check(first.json(), "VerifyResponse")
        self.assertEqual((first.json()["result"], first.json()["creditedUser"]), ("credited", "alice"))
        replay = self.post("verify", request).json()
        check(replay, "VerifyResponse")
        self.assertEqual((replay["result"], replay["newlyCredited"]), ("credited", False))
        account = requests.get(f"{self.backend}/backend/v1/accounts/alice", timeout=15)
        self.assertEqual(account.status_code, 200)
        check(account.json(), "Account")
        self.assertIn(bought["productId"], account.json()["owned"])

    def test_a_transaction_not_in_the_receipt(self):
        answer = self.post("verify", {"receipt": self.receipt, "transactionId": "1999999999", "productId": "x", "user": "alice"})
        check(answer.json(), "VerifyResponse")
        self.assertEqual(answer.json()["result"], "notInReceipt")

    def test_a_receipt_apple_cannot_read_is_asked_again(self):
        # 21002: "malformed or the service experienced a temporary issue. Try again." Money may have been paid: a server
        # that keeps a queue (the built-in backend) answers pending, one that does not appleUnavailable; never final.
        for _ in range(2):
            answer = self.post("verify", {"receipt": "bm90IGEgcmVjZWlwdA==", "transactionId": "1", "productId": "x", "user": "alice"})
            check(answer.json(), "VerifyResponse")
            self.assertIn(answer.json()["result"], ("pending", "appleUnavailable"))
            self.assertEqual(answer.json()["appleStatus"], 21002)

    def test_bad_input_gets_the_error_body(self):
        cases = {
            "not JSON": (lambda: requests.post(f"{self.backend}/backend/v1/orders", data=b"{user", timeout=15,
                                               headers={"Content-Type": "application/json"}), 400),
            "not an object's fields": (lambda: self.post("orders", {"user": 5, "productId": "x"}), 400),
            "a field missing": (lambda: self.post("verify", {"receipt": "x"}), 400),
            "a restore without its signed transaction": (lambda: self.post("verify", {"receipt": "", "transactionId": "1", "productId": "x",
                                                                                      "user": "alice", "restore": True}), 400),
            "text/plain": (lambda: requests.post(f"{self.backend}/backend/v1/orders", data=b"{}", timeout=15,
                                                 headers={"Content-Type": "text/plain"}), 415),
            "over 64 KiB": (lambda: self.post("verify", {"receipt": "x" * (100 << 10), "transactionId": "1", "productId": "x",
                                                         "user": "alice"}), 413),
        }
        for name, (send, status) in cases.items():
            with self.subTest(name):
                answer = send()
                self.assertEqual(answer.status_code, status)
                check(answer.json(), "Error")


class BuiltInBackend(Contract, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.data = DataDirectory(purchases(("non-consumable", 1)))
        cls.receipt = run("receipt", "--data-dir", cls.data.path).stdout.strip()
        cls.server = Server(cls.data)
        cls.backend = cls.server.url

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        cls.data.remove()

    def test_one_app_account_token_per_user(self):
        token = lambda user: requests.get(f"{self.backend}/backend/v1/accounts/{user}/appAccountToken", timeout=15)
        first, again, other = token("alice"), token("alice"), token("bob")
        self.assertEqual((first.status_code, other.status_code), (200, 200))
        schema = SPEC["paths"]["/backend/v1/accounts/{user}/appAccountToken"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
        jsonschema.validate(first.json(), schema)
        self.assertEqual(first.json(), again.json())
        self.assertNotEqual(first.json(), other.json())
        self.assertEqual(token("x" * 25).status_code, 400)  # the login screen's rule: 1 to 24

    def test_offers_signed_for_either_storekit(self):
        """StoreKit 1's SKPaymentDiscount, or StoreKit 2's JWS as Apple's PromotionalOfferV2SignatureCreator makes it:
        ES256 under the offers key's id, with Apple's claims."""
        import jwt
        from cryptography.hazmat.primitives import serialization
        keys = json.loads(run("keys", "--data-dir", self.data.path, "--json").stdout)
        asked = {"user": "alice", "productId": "com.iapsim.vip.monthly", "offerId": "vip_comeback", "applicationUsername": "order-1"}
        one = self.post("offers", asked)
        self.assertEqual(one.status_code, 200)
        check(one.json(), "PaymentDiscount")
        self.assertEqual(one.json()["keyIdentifier"], keys["offersKeyId"])
        two = self.post("offers", dict(asked, storekit=2))
        self.assertEqual(two.status_code, 200)
        check(two.json(), "SignedPromotionalOffer")
        self.assertEqual(two.json()["offerIdentifier"], "vip_comeback")
        token = two.json()["compactJWS"]
        self.assertEqual(jwt.get_unverified_header(token)["kid"], keys["offersKeyId"])
        public = serialization.load_pem_private_key(keys["offersPrivateKey"].encode(), None).public_key()
        # Signed at the store's time, which a script ran ahead of the wall's.
        claims = jwt.decode(token, public, algorithms=["ES256"], audience="promotional-offer", options={"verify_iat": False})
        self.assertEqual((claims["bid"], claims["productId"], claims["offerIdentifier"]),
                         (keys["bundleId"], "com.iapsim.vip.monthly", "vip_comeback"))
        self.assertIsInstance(claims["iat"], (int, float))
        self.assertEqual(len(claims["nonce"]), 36)
        self.assertEqual(self.post("offers", dict(asked, storekit=3)).status_code, 400)

    def test_alarms_and_replays_are_kept_for_support(self):
        alarm = {"device": "phone", "user": "alice", "kind": "receipt-empty", "transactionId": "1000000001",
                 "text": "tx 1000000001 paid, but the app receipt is empty", "raisedAt": "2027-01-15T08:00:03Z"}
        for _ in range(2):  # sent again (its answer lost): kept once
            answer = self.post("alarms", {"alarms": [alarm]})
            self.assertEqual((answer.status_code, answer.json()), (200, {"received": 1}))
        self.assertEqual(self.post("alarms", {"alarms": [dict(alarm, kind="")]}).status_code, 400)
        self.assertEqual(self.post("alarms", {"alarms": [dict(alarm, text="x" * 2001)]}).status_code, 400)
        bought = [t for t in self.data.state()["store"]["transactions"] if t["state"] == "purchased"][0]
        request = {"receipt": self.receipt, "transactionId": bought["transactionId"], "productId": bought["productId"],
                   "user": "alice", "receiptHash": "0123456789abcdef"}
        self.assertEqual(self.post("verify", request).json()["result"], "credited")
        self.assertEqual(self.post("verify", dict(request, user="bob")).json()["result"], "credited")
        backend = self.data.state()["backend"]
        self.assertEqual([(a["kind"], a["user"]) for a in backend["clientAlarms"]], [("receipt-empty", "alice")])
        self.assertEqual([(r["transactionId"], r["user"], r["firstUser"]) for r in backend["receiptReplays"]],
                         [(bought["transactionId"], "bob", "alice")])


class TeamBackend(Contract, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.data = DataDirectory(purchases(("non-consumable", 1)))
        cls.receipt = run("receipt", "--data-dir", cls.data.path).stdout.strip()
        cls.server = Server(cls.data)
        port = free_port()
        cls.team = team_server.serve(port, f"{cls.server.url}/sandbox/verifyReceipt", cls.data.key["sharedSecret"],
                                     os.path.join(cls.data.root, "team.sqlite"))
        cls.backend = f"http://127.0.0.1:{port}"

    @classmethod
    def tearDownClass(cls):
        cls.team.shutdown()
        cls.team.server_close()
        cls.server.stop()
        cls.data.remove()


class AppWithTeamBackend(unittest.TestCase):
    """The keyboard walk against a team's server: the app buys, the team's server verifies with iapsim's
    verifyReceipt (served by the same app) and credits alice once; the built-in backend is never asked."""

    def test_a_purchase_through_a_team_server(self):
        root = tempfile.mkdtemp(prefix="iapsim-team-")
        self.addCleanup(shutil.rmtree, root, True)
        data = os.path.join(root, "data")
        os.mkdir(data)  # keys takes a data folder that exists: a mistyped one is refused, not made
        secret = json.loads(run("keys", "--data-dir", data, "--json").stdout)["sharedSecret"]
        serve_port, team_port = free_port(), free_port()
        team = team_server.serve(team_port, f"http://127.0.0.1:{serve_port}/sandbox/verifyReceipt", secret,
                                 os.path.join(root, "team.sqlite"))
        self.addCleanup(team.server_close)
        self.addCleanup(team.shutdown)
        tmux, wait_for = live_app(self, root, 110, "--data-dir", data, "--user", "alice", "--serve", str(serve_port),
                                  "--backend", f"http://127.0.0.1:{team_port}")

        wait_for(f"serving 127.0.0.1:{serve_port}")
        wait_for("60 Coins")
        tmux("send-keys", "Enter")
        wait_for("Purchase complete")
        wait_for("Balance 60 coins")
        tmux("send-keys", "Escape", "i")
        wait_for("backend: POST /backend/v1/verify → 200")
        wait_for("wire: POST /sandbox/verifyReceipt → 200")
        # The built-in ledger is not the one in use: the inspector names the team's server instead of listing it.
        screen = wait_for("credits kept by your server:")
        self.assertIn(f"http://127.0.0.1:{team_port}", screen)
        tmux("send-keys", "Escape", "q")
        for _ in range(200):
            if tmux("has-session").returncode != 0:
                break
            time.sleep(0.05)
        account = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{team_port}/backend/v1/accounts/alice", timeout=10).read())
        self.assertEqual(account["coins"], 60)
        state = json.loads(run("state", "--data-dir", data).stdout)
        self.assertEqual(state["backend"]["credits"], [])
        self.assertTrue(all(t["finished"] for t in state["store"]["transactions"]))



class StoreKit2WithTeamBackend(unittest.TestCase):
    """StoreKit 2 against a team's server that checks each signed transaction with Apple's own SignedDataVerifier,
    trusting the data directory's root: iapsim's jwsRepresentation passes it, and the one the fault spoils is refused
    for the reason iapsim gives (failedCheck), credited by nobody and never finished."""

    def team_app(self, *faults):
        root = tempfile.mkdtemp(prefix="iapsim-sk2-team-")
        self.addCleanup(shutil.rmtree, root, True)
        data = os.path.join(root, "data")
        os.mkdir(data)
        secret = json.loads(run("keys", "--data-dir", data, "--json").stdout)["sharedSecret"]
        verifier = verifier_for(root, data)
        serve_port, team_port = free_port(), free_port()
        team = team_server.serve(team_port, f"http://127.0.0.1:{serve_port}/sandbox/verifyReceipt", secret,
                                 os.path.join(root, "team.sqlite"), verifier=verifier)
        self.addCleanup(team.server_close)
        self.addCleanup(team.shutdown)
        arguments = ["--data-dir", data, "--user", "alice", "--storekit", "2", "--serve", str(serve_port),
                     "--backend", f"http://127.0.0.1:{team_port}"]
        for fault in faults:
            arguments += ["--fault", fault]
        tmux, wait_for = live_app(self, root, 110, *arguments)
        wait_for(f"serving 127.0.0.1:{serve_port}")
        wait_for("60 Coins")
        tmux("send-keys", "Enter")
        return team, data, wait_for

    def test_apple_verifier_accepts_the_signed_transaction(self):
        team, data, wait_for = self.team_app()
        wait_for("Purchase complete")
        wait_for("Balance 60 coins")
        state = json.loads(run("state", "--data-dir", data).stdout)
        paid = [t for t in state["store"]["transactions"] if t["state"] == "purchased"]
        self.assertEqual([(t.transactionId, t.productId, t.bundleId, t.rawEnvironment) for t in team.signed],
                         [(paid[0]["transactionId"], "com.iapsim.coins.60", "com.iapsim.app", "Sandbox")])

    def test_a_signed_transaction_for_another_app_is_refused_and_nothing_is_lost(self):
        team, data, wait_for = self.team_app("unverified-transaction=bundle")
        wait_for("Confirming payment")
        deadline = time.monotonic() + 20
        while not team.unverified and time.monotonic() < deadline:
            time.sleep(0.05)
        from appstoreserverlibrary.signed_data_verifier import VerificationStatus
        self.assertEqual(team.unverified[0], VerificationStatus.INVALID_APP_IDENTIFIER)
        self.assertEqual(team.signed, [])
        state = json.loads(run("state", "--data-dir", data).stdout)
        self.assertEqual([t["finished"] for t in state["store"]["transactions"]], [False])


if __name__ == "__main__":
    unittest.main()
