"""Apple's own App Store Server Library against `iapsim serve`: it must verify what iapsim signs, call iapsim's
App Store Server API, and find every field as `iapsim state` reports it."""
import datetime
import json
import os
import time
import unittest

import jwt
import requests
from appstoreserverlibrary.api_client import APIException, AppStoreServerAPIClient, GetTransactionHistoryVersion
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.InAppOwnershipType import InAppOwnershipType
from appstoreserverlibrary.models.Status import Status
from appstoreserverlibrary.models.TransactionHistoryRequest import ProductType, TransactionHistoryRequest
from appstoreserverlibrary.receipt_utility import ReceiptUtility
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException

from iapsim_wire import DataDirectory, Server, ServedStore, purchases, run, whole_history

SCRIPT = purchases(("consumable", 1), ("non-consumable", 1), ("subscription", 3), ("consumable", 2)) + "refund\nwait 1\n" \
    + "".join(["select consumable 1\npress Enter\nwait until \"Purchase complete\"\npress Esc\n"] * 19)


CATALOG = json.load(open(os.path.join(os.path.dirname(__file__), "../../assets/catalog.json"), encoding="utf-8"))
# Each product's price in thousandths of the catalog's currency ("¥6" is 6000), as Apple's `price` writes it.
PRICES = {p["id"]: round(float(p["price"].lstrip("¥$").replace(",", "")) * 1000) for p in CATALOG["products"]}


class AppleLibraryTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.data = DataDirectory(SCRIPT)
        cls.server = Server(cls.data)
        key = cls.data.key
        cls.client = AppStoreServerAPIClient(key["privateKey"].encode(), key["keyId"], key["issuerId"], key["bundleId"],
                                             Environment.SANDBOX)
        cls.client._base_url = cls.server.url  # the library has no option for another host; this is its one attribute
        cls.verifier = SignedDataVerifier([cls.data.root_certificate], False, Environment.SANDBOX, key["bundleId"])
        cls.state = cls.data.state()
        cls.charges = [t for t in cls.state["store"]["transactions"] if t["state"] == "purchased"]

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        cls.data.remove()

    def test_every_transaction_verifies_and_matches_state(self):
        self.assertGreaterEqual(len(self.charges), 23)
        for charge in self.charges:
            info = self.client.get_transaction_info(charge["transactionId"])
            decoded = self.verifier.verify_and_decode_signed_transaction(info.signedTransactionInfo)
            self.assertEqual(decoded.transactionId, charge["transactionId"])
            self.assertEqual(decoded.originalTransactionId, charge["original_transaction_id"])
            self.assertEqual(decoded.productId, charge["productId"])
            self.assertEqual(decoded.purchaseDate, int(charge["purchase_date_ms"]))
            self.assertEqual(decoded.originalPurchaseDate, int(charge["original_purchase_date_ms"]))
            self.assertEqual(decoded.bundleId, "com.iapsim.app")
            self.assertEqual(decoded.environment, Environment.SANDBOX)
            self.assertEqual(decoded.expiresDate, int(charge["expires_date_ms"]) if charge.get("expires_date_ms") else None)
            self.assertEqual(decoded.webOrderLineItemId, charge.get("web_order_line_item_id"))
            self.assertEqual(decoded.subscriptionGroupIdentifier, charge.get("subscription_group_identifier"))
            # What it cost, as a team's server counts revenue: the catalog's price, or a free trial's nothing.
            self.assertEqual(decoded.currency, CATALOG["currency"])
            # Bought in the storefront whose currency the prices are in: China's, as the shipped catalog is in yuan
            # (a server engineer's walk: it said USA beside CNY).
            self.assertEqual((decoded.storefront, decoded.storefrontId), ("CHN", "143465"))
            self.assertEqual(decoded.price, 0 if decoded.rawOfferDiscountType == "FREE_TRIAL" else PRICES[charge["productId"]])
            if charge.get("cancellation_reason") is not None:
                self.assertEqual(decoded.revocationDate, int(charge["cancellation_date_ms"]))
                self.assertEqual(decoded.revocationReason, int(charge["cancellation_reason"]))
            else:
                self.assertIsNone(decoded.revocationDate)

    def test_history_pages_by_twenty_in_order(self):
        first = self.charges[0]["transactionId"]
        seen, revision = [], None
        while True:
            page = self.client.get_transaction_history(first, revision, TransactionHistoryRequest(), GetTransactionHistoryVersion.V2)
            seen += [self.verifier.verify_and_decode_signed_transaction(s).transactionId for s in page.signedTransactions]
            self.assertLessEqual(len(page.signedTransactions), 20)
            revision = page.revision
            if not page.hasMore:
                break
        self.assertEqual(seen, [c["transactionId"] for c in self.charges])

    def history(self, request=None, version=None):
        """Every transaction id of the history `request` filters, page after page."""
        seen, _ = whole_history(self.client, self.verifier, self.charges[0]["transactionId"], request, version)
        return [t.transactionId for t in seen]

    def test_history_filters_as_apple_documents(self):
        """Found by QA: every filter was ignored, so a server asking for the consumables counted every charge."""
        ids = lambda keep: [c["transactionId"] for c in self.charges if keep(c)]
        kind = {p["id"]: p["type"] for p in CATALOG["products"]}
        consumables = ids(lambda c: kind[c["productId"]] == "consumable")
        self.assertTrue(0 < len(consumables) < len(self.charges))
        self.assertEqual(self.history(TransactionHistoryRequest(productTypes=[ProductType.CONSUMABLE])), consumables)
        self.assertEqual(self.history(TransactionHistoryRequest(productTypes=[ProductType.AUTO_RENEWABLE, ProductType.NON_CONSUMABLE])),
                         ids(lambda c: kind[c["productId"]] in ("subscription", "non-consumable")))
        one = self.charges[0]["productId"]
        self.assertEqual(self.history(TransactionHistoryRequest(productIds=[one])), ids(lambda c: c["productId"] == one))
        self.assertEqual(self.history(TransactionHistoryRequest(subscriptionGroupIdentifiers=["com.iapsim.vip"])),
                         ids(lambda c: c.get("subscription_group_identifier") == "com.iapsim.vip"))
        self.assertEqual(self.history(TransactionHistoryRequest(revoked=True)), ids(lambda c: c.get("cancellation_date_ms")))
        self.assertEqual(self.history(TransactionHistoryRequest(revoked=False)), ids(lambda c: not c.get("cancellation_date_ms")))
        self.assertEqual(self.history(TransactionHistoryRequest(inAppOwnershipType=InAppOwnershipType.PURCHASED)), ids(lambda c: True))
        self.assertEqual(self.history(TransactionHistoryRequest(inAppOwnershipType=InAppOwnershipType.FAMILY_SHARED)), [])
        middle = int(self.charges[len(self.charges) // 2]["purchase_date_ms"])
        self.assertEqual(self.history(TransactionHistoryRequest(startDate=middle)), ids(lambda c: int(c["purchase_date_ms"]) >= middle))
        self.assertEqual(self.history(TransactionHistoryRequest(endDate=middle)), ids(lambda c: int(c["purchase_date_ms"]) < middle))
        # Filters together: a transaction must match each.
        self.assertEqual(self.history(TransactionHistoryRequest(productTypes=[ProductType.CONSUMABLE], revoked=True)),
                         ids(lambda c: kind[c["productId"]] == "consumable" and c.get("cancellation_date_ms")))
        url = f"{self.server.url}/inApps/v2/history/{self.charges[0]['transactionId']}"
        for query, code in [("startDate=abc", 4000015), ("endDate=-1", 4000016), (f"startDate={middle}&endDate={middle}", 4000013),
                            ("productType=GADGET", 4000022), ("productId=", 4000023), ("subscriptionGroupIdentifier=", 4000024),
                            ("inAppOwnershipType=BORROWED", 4000026), ("revoked=maybe", 4000030)]:
            answer = requests.get(f"{url}?{query}", headers={"Authorization": f"Bearer {self.token()}"})
            self.assertEqual((answer.status_code, answer.json()["errorCode"]), (400, code), query)

    def test_history_v1_leaves_out_finished_consumables(self):
        """Apple's library asks for version 1 unless told otherwise (found by a server engineer: iapsim answered 404).
        Version 1 is version 2 less the consumables the app finished, but for refunded or revoked ones."""
        kind = {p["id"]: p["type"] for p in CATALOG["products"]}
        expected = [c["transactionId"] for c in self.charges
                    if kind[c["productId"]] != "consumable" or not c["finished"] or c.get("cancellation_date_ms")]
        self.assertTrue(0 < len(expected) < len(self.charges))
        self.assertTrue(any(kind[self.state_of(t)["productId"]] == "consumable" for t in expected))  # the refunded one
        # As Apple's library asks by default: version 1.
        self.assertEqual(self.history(version=GetTransactionHistoryVersion.V1), expected)

    def state_of(self, transaction_id):
        return next(c for c in self.charges if c["transactionId"] == transaction_id)

    def test_subscription_status_and_renewal_info(self):
        subscription = next(c for c in self.charges if c.get("subscription_group_identifier"))
        statuses = self.client.get_all_subscription_statuses(subscription["transactionId"])
        items = [t for group in statuses.data for t in group.lastTransactions]
        self.assertEqual(len(items), 1)
        item = items[0]
        self.assertEqual(item.originalTransactionId, subscription["original_transaction_id"])
        self.assertEqual(item.status.value if hasattr(item.status, "value") else item.status, 1)
        renewal = self.verifier.verify_and_decode_renewal_info(item.signedRenewalInfo)
        self.assertEqual(renewal.originalTransactionId, subscription["original_transaction_id"])
        self.assertEqual(renewal.autoRenewProductId, subscription["productId"])
        self.assertEqual(int(renewal.autoRenewStatus.value if hasattr(renewal.autoRenewStatus, "value") else renewal.autoRenewStatus), 1)
        self.assertEqual((renewal.renewalPrice, renewal.currency), (PRICES[renewal.autoRenewProductId], CATALOG["currency"]))
        self.assertEqual(renewal.recentSubscriptionStartDate, int(subscription["purchase_date_ms"]))

    def test_subscription_statuses_filtered_by_status(self):
        subscription = next(c for c in self.charges if c.get("subscription_group_identifier"))["transactionId"]
        active = self.client.get_all_subscription_statuses(subscription, [Status.ACTIVE, Status.BILLING_GRACE_PERIOD])
        self.assertEqual(len([t for group in active.data for t in group.lastTransactions]), 1)
        self.assertEqual(self.client.get_all_subscription_statuses(subscription, [Status.EXPIRED, Status.REVOKED]).data, [])
        url = f"{self.server.url}/inApps/v1/subscriptions/{subscription}?status=1&status=9"
        answer = requests.get(url, headers={"Authorization": f"Bearer {self.token()}"})
        self.assertEqual((answer.status_code, answer.json()["errorCode"]), (400, 4000031))

    def test_history_revision_is_opaque(self):
        first = self.charges[0]["transactionId"]
        page = self.client.get_transaction_history(first, None, TransactionHistoryRequest(), GetTransactionHistoryVersion.V2)
        self.assertTrue(page.hasMore)
        self.assertFalse(page.revision.isdigit())
        with self.assertRaises(APIException) as made_up:
            self.client.get_transaction_history(first, "20", TransactionHistoryRequest(), GetTransactionHistoryVersion.V2)
        self.assertEqual((made_up.exception.http_status_code, made_up.exception.raw_api_error), (400, 4000005))

    def test_refund_lookup_lists_the_refunded_charge(self):
        refunded = [c for c in self.charges if c.get("cancellation_reason") is not None]
        self.assertEqual(len(refunded), 1)
        history = self.client.get_refund_history(self.charges[0]["transactionId"], None)
        ids = [self.verifier.verify_and_decode_signed_transaction(s).transactionId for s in history.signedTransactions]
        self.assertEqual(ids, [refunded[0]["transactionId"]])

    def test_receipt_utility_reads_the_app_receipt(self):
        """A team's server moving off verifyReceipt: Apple's ReceiptUtility reads a transaction id out of the app receipt
        the app sends (Apple's PKCS#7 with its ASN.1 payload), and the App Store Server API knows it."""
        receipt = run("receipt", "--data-dir", self.data.path).stdout.strip()
        transaction_id = ReceiptUtility().extract_transaction_id_from_app_receipt(receipt)
        answer = requests.post(f"{self.server.url}/sandbox/verifyReceipt", data=json.dumps({"receipt-data": receipt}),
                               timeout=10).json()
        self.assertEqual(answer["status"], 0)
        self.assertEqual(transaction_id, answer["receipt"]["in_app"][0]["transaction_id"])
        # Beside each _ms date, Apple's date strings, which older servers parse (found by a server developer's walk).
        for entry in answer["receipt"]["in_app"]:
            for field in ["purchase_date", "original_purchase_date", "expires_date", "cancellation_date"]:
                if field + "_ms" not in entry:
                    continue
                moment = datetime.datetime.fromtimestamp(int(entry[field + "_ms"]) / 1000, datetime.timezone.utc)
                self.assertEqual(entry[field], moment.strftime("%Y-%m-%d %H:%M:%S Etc/GMT"))
                self.assertTrue(entry[field + "_pst"].endswith(" America/Los_Angeles"))
        info = self.client.get_transaction_info(transaction_id)
        self.assertEqual(self.verifier.verify_and_decode_signed_transaction(info.signedTransactionInfo).transactionId,
                         transaction_id)

    def test_test_notification_gives_a_token(self):
        self.assertTrue(self.client.request_test_notification().testNotificationToken)

    def test_a_tampered_transaction_is_rejected(self):
        signed = self.client.get_transaction_info(self.charges[0]["transactionId"]).signedTransactionInfo
        header, payload, signature = signed.split(".")
        claims = json.loads(jwt.utils.base64url_decode(payload))
        claims["productId"] = "com.iapsim.coins.1000"
        forged = ".".join([header, jwt.utils.base64url_encode(json.dumps(claims).encode()).decode(), signature])
        with self.assertRaises(VerificationException):
            self.verifier.verify_and_decode_signed_transaction(forged)

    def test_another_root_is_not_trusted(self):
        other = DataDirectory("launch bob\n")
        try:
            verifier = SignedDataVerifier([other.root_certificate], False, Environment.SANDBOX, "com.iapsim.app")
            signed = self.client.get_transaction_info(self.charges[0]["transactionId"]).signedTransactionInfo
            with self.assertRaises(VerificationException):
                verifier.verify_and_decode_signed_transaction(signed)
        finally:
            other.remove()

    def test_keys_certs_and_receipt_work_while_the_server_runs(self):
        """The README's walk: `serve` is up, and the team asks for a key, the root and a receipt in another terminal."""
        key = json.loads(run("keys", "--data-dir", self.data.path, "--json").stdout)
        self.assertNotEqual(key["keyId"], self.data.key["keyId"])
        self.assertEqual(key["sharedSecret"], self.data.key["sharedSecret"])
        client = AppStoreServerAPIClient(key["privateKey"].encode(), key["keyId"], key["issuerId"], key["bundleId"],
                                         Environment.SANDBOX)
        client._base_url = self.server.url
        signed = client.get_transaction_info(self.charges[0]["transactionId"]).signedTransactionInfo
        self.assertEqual(self.verifier.verify_and_decode_signed_transaction(signed).transactionId,
                         self.charges[0]["transactionId"])
        url = f"{self.server.url}/inApps/v1/transactions/{self.charges[0]['transactionId']}"
        self.assertEqual(requests.get(url, headers={"Authorization": f"Bearer {key['bearerToken']}"}).status_code, 200)
        certs = os.path.join(self.data.root, "certs-while-serving")
        run("certs", "--data-dir", self.data.path, "--out", certs)
        with open(os.path.join(certs, "iapsim-root.cer"), "rb") as f:
            self.assertEqual(f.read(), self.data.root_certificate)
        receipt = run("receipt", "--data-dir", self.data.path).stdout.strip()
        answer = requests.post(f"{self.server.url}/sandbox/verifyReceipt",
                               data=json.dumps({"receipt-data": receipt, "password": key["sharedSecret"]}), timeout=10).json()
        self.assertEqual(answer["status"], 0)

    def test_unknown_and_malformed_ids_get_apple_errors(self):
        with self.assertRaises(APIException) as unknown:
            self.client.get_transaction_info("9999999999")
        self.assertEqual((unknown.exception.http_status_code, unknown.exception.raw_api_error), (404, 4040010))
        with self.assertRaises(APIException) as malformed:
            self.client.get_transaction_info("abc")
        self.assertEqual((malformed.exception.http_status_code, malformed.exception.raw_api_error), (400, 4000006))

    def token(self, **changes):
        key = self.data.key
        claims = {"iss": key["issuerId"], "aud": "appstoreconnect-v1", "bid": key["bundleId"],
                  "iat": int(time.time()), "exp": int(time.time()) + 600}
        claims.update(changes)
        return jwt.encode({k: v for k, v in claims.items() if v is not None}, key["privateKey"], algorithm="ES256",
                          headers={"kid": key["keyId"]})

    def test_bad_bearer_tokens_get_401(self):
        url = f"{self.server.url}/inApps/v1/transactions/{self.charges[0]['transactionId']}"
        good = requests.get(url, headers={"Authorization": f"Bearer {self.token()}"})
        self.assertEqual(good.status_code, 200)
        now = int(time.time())
        other_key = AppStoreServerAPIClient  # a key iapsim never made
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        stranger = ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
        forged = jwt.encode({"iss": self.data.key["issuerId"], "aud": "appstoreconnect-v1", "exp": now + 600}, stranger,
                            algorithm="ES256", headers={"kid": self.data.key["keyId"]})
        for name, headers in [
            ("no header", {}),
            ("not bearer", {"Authorization": "Basic abc"}),
            ("garbage", {"Authorization": "Bearer not.a.jwt"}),
            ("expired", {"Authorization": f"Bearer {self.token(iat=now - 7200, exp=now - 3600)}"}),
            ("over an hour", {"Authorization": f"Bearer {self.token(exp=now + 7200)}"}),
            ("wrong audience", {"Authorization": f"Bearer {self.token(aud='someone-else')}"}),
            ("wrong issuer", {"Authorization": f"Bearer {self.token(iss='00000000-0000-0000-0000-000000000000')}"}),
            ("wrong bundle", {"Authorization": f"Bearer {self.token(bid='com.example.other')}"}),
            # Apple's JWT documentation requires the bundle id (found by a server developer's walk: it was let through).
            ("no bundle", {"Authorization": f"Bearer {self.token(bid=None)}"}),
            ("signed by another key", {"Authorization": f"Bearer {forged}"}),
        ]:
            with self.subTest(name):
                self.assertEqual(requests.get(url, headers=headers).status_code, 401)


if __name__ == "__main__":
    unittest.main()


class FinishTransactionTests(unittest.TestCase):
    """Apple's Finish Transaction: a team's server finishes a purchase the app has not, and StoreKit stops delivering
    it; an unknown or malformed id gets Apple's error and changes nothing."""

    def test_the_server_finishes_what_the_app_has_not(self):
        data = DataDirectory('fault backend-down\nlaunch alice\nselect consumable\npress Enter\nwait until "retry 1"\n'
                             'expect unfinished 1\n')
        server = Server(data)
        try:
            key = data.key
            client = AppStoreServerAPIClient(key["privateKey"].encode(), key["keyId"], key["issuerId"], key["bundleId"],
                                             Environment.SANDBOX)
            client._base_url = server.url
            unfinished = [t for t in data.state()["store"]["transactions"] if not t["finished"]]
            self.assertEqual(len(unfinished), 1)
            with self.assertRaises(APIException) as unknown:
                client.finish_transaction("9999999999")
            self.assertEqual((unknown.exception.http_status_code, unknown.exception.raw_api_error), (404, 4040010))
            with self.assertRaises(APIException) as malformed:
                client.finish_transaction("abc")
            self.assertEqual((malformed.exception.http_status_code, malformed.exception.raw_api_error), (400, 4000006))
            self.assertFalse(next(t for t in data.state()["store"]["transactions"]
                                  if t["transactionId"] == unfinished[0]["transactionId"])["finished"])
            client.finish_transaction(unfinished[0]["transactionId"])
            client.finish_transaction(unfinished[0]["transactionId"])  # finished already: the same answer
            finished = next(t for t in data.state()["store"]["transactions"] if t["transactionId"] == unfinished[0]["transactionId"])
            self.assertTrue(finished["finished"])
            # Still the customer's: the Server API reads it as before.
            self.assertTrue(client.get_transaction_info(unfinished[0]["transactionId"]).signedTransactionInfo)
        finally:
            server.stop()
            data.remove()



class UpgradedHistoryTests(ServedStore):
    """An upgrade ends the lower level's transaction (the receipt's cancellation_date, the JWS's isUpgraded), but Apple
    revoked nothing: the history's `revoked` filter goes by the JWS's revocation (found by a server engineer's walk:
    the upgraded transaction was listed as revoked, and its JWS had no revocationDate)."""

    SCRIPT = purchases(("subscription", 1)) + "wait 22d\n" + purchases(("subscription", 2)).replace("launch alice\n", "")

    def test_an_upgraded_transaction_is_not_revoked(self):
        decoded = {}
        for charge in self.charges:
            jws = self.client.get_transaction_info(charge["transactionId"]).signedTransactionInfo
            decoded[charge["transactionId"]] = self.verifier.verify_and_decode_signed_transaction(jws)
        upgraded = [t for t, d in decoded.items() if d.isUpgraded]
        self.assertEqual(len(upgraded), 1, decoded)
        self.assertIsNone(decoded[upgraded[0]].revocationDate)

        def history(request):
            return [t.transactionId for t in whole_history(self.client, self.verifier, self.charges[0]["transactionId"], request)[0]]
        self.assertEqual(history(TransactionHistoryRequest(revoked=True)), [])
        self.assertEqual(history(TransactionHistoryRequest(revoked=False)), [c["transactionId"] for c in self.charges])


class HistoryRevisionTests(ServedStore):
    """Apple sorts the history by when each transaction last changed, and a revision kept from an earlier read asks for
    what changed since: a transaction refunded after it was read comes again, with its revocation (found by a server
    engineer's walk: the history went by purchase, so a server syncing by revision never heard of the refund)."""

    SCRIPT = purchases(*[("consumable", 1)] * 22)

    def read(self, revision=None):
        return whole_history(self.client, self.verifier, self.charges[0]["transactionId"], revision=revision)

    def test_a_refund_after_the_read_comes_again(self):
        seen, revision = self.read()
        self.assertEqual([t.transactionId for t in seen], [c["transactionId"] for c in self.charges])
        refunded = self.charges[4]["transactionId"]
        self.server.stop()
        with open(os.path.join(self.data.root, "refund.iapsim"), "w") as f:
            f.write(f"launch alice\nrefund {refunded}\nwait 1\n")
        run("play", "--data-dir", self.data.path, os.path.join(self.data.root, "refund.iapsim"))
        type(self).server = Server(self.data)
        self.client._base_url = self.server.url
        since, _ = self.read(revision)
        self.assertEqual([t.transactionId for t in since], [refunded])
        self.assertIsNotNone(since[0].revocationDate)
        # From the start, the refunded one is last: it changed last.
        seen, _ = self.read()
        self.assertEqual([t.transactionId for t in seen], [c["transactionId"] for c in self.charges if c["transactionId"] != refunded] + [refunded])
