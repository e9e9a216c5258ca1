"""Extending renewal dates through Apple's library: one subscription, or every active subscriber of a product, with
the status of that request. The store moves each expiry, so `iapsim state` (what the app sees) and the signed renewal
info say the new date; each bad request gets Apple's error and moves nothing."""
import unittest
import uuid

import requests
from appstoreserverlibrary.models.ExtendReasonCode import ExtendReasonCode
from appstoreserverlibrary.models.ExtendRenewalDateRequest import ExtendRenewalDateRequest
from appstoreserverlibrary.models.MassExtendRenewalDateRequest import MassExtendRenewalDateRequest

from iapsim_wire import DataDirectory, Server, apple_client, apple_error, apple_verifier, purchases

MONTHLY = "com.iapsim.vip.monthly"
DAY = 86_400_000
# alice subscribes and buys coins; bob, under his own store account, subscribes too.
SCRIPT = purchases(("subscription", 1), ("consumable", 1)) + "switch-user bob\n" \
    + 'select subscription 1\npress Enter\nwait until "Purchase complete"\npress Esc\n'


def request(days, identifier=None, reason=ExtendReasonCode.CUSTOMER_SATISFACTION):
    return ExtendRenewalDateRequest(extendByDays=days, extendReasonCode=reason,
                                    requestIdentifier=identifier if identifier is not None else str(uuid.uuid4()))


class SubscriptionExtensionTests(unittest.TestCase):
    def setUp(self):
        self.data = DataDirectory(SCRIPT)
        self.server = Server(self.data)
        self.client = apple_client(self.data, self.server)
        self.verifier = apple_verifier(self.data)

    def tearDown(self):
        self.server.stop()
        self.data.remove()

    def expiries(self):
        """Each account's subscription expiry, as `iapsim state` reports what the store (and so the app) holds."""
        accounts = self.data.state()["accounts"]
        return {user: int(held["subscriptions"][0]["expires_date_ms"]) for user, held in accounts.items() if held["subscriptions"]}

    def original(self, account):
        return next(t for t in self.data.state()["store"]["transactions"]
                    if t["account"] == account and t.get("subscription_group_identifier"))["transactionId"]

    def test_one_subscription_twice_a_year_each_request_once(self):
        original, before = self.original("alice"), self.expiries()
        first = request(30)
        answer = self.client.extend_subscription_renewal_date(original, first)
        self.assertTrue(answer.success)
        self.assertEqual((answer.originalTransactionId, answer.effectiveDate), (original, before["alice"] + 30 * DAY))
        self.assertEqual(self.expiries(), {**before, "alice": before["alice"] + 30 * DAY})
        status = self.client.get_all_subscription_statuses(original).data[0].lastTransactions[0]
        self.assertEqual(self.verifier.verify_and_decode_renewal_info(status.signedRenewalInfo).renewalDate, answer.effectiveDate)
        self.assertEqual(self.verifier.verify_and_decode_signed_transaction(status.signedTransactionInfo).expiresDate, answer.effectiveDate)
        # The same request again is the same extension.
        self.assertEqual(self.client.extend_subscription_renewal_date(original, first).effectiveDate, answer.effectiveDate)
        self.assertEqual(self.expiries()["alice"], answer.effectiveDate)
        self.assertEqual(self.client.extend_subscription_renewal_date(original, request(1)).effectiveDate, answer.effectiveDate + DAY)
        self.assertEqual(apple_error(self.client.extend_subscription_renewal_date, original, request(1)), (403, 4030005))
        self.assertEqual(self.expiries()["alice"], answer.effectiveDate + DAY)

    def test_bad_requests_move_nothing(self):
        original, before = self.original("alice"), self.expiries()
        coins = next(t for t in self.data.state()["store"]["transactions"] if t["productId"].startswith("com.iapsim.coins"))
        extend = self.client.extend_subscription_renewal_date
        for name, arguments, expected in [
            ("no days", (original, request(0)), (400, 4000009)),
            ("over 90 days", (original, request(91)), (400, 4000009)),
            ("no request identifier", (original, request(5, identifier="")), (400, 4000011)),
            ("malformed", ("abc", request(5)), (400, 4000008)),
            ("unknown", ("9999999999", request(5)), (404, 4040005)),
            ("not a subscription", (coins["transactionId"], request(5)), (403, 4030004)),
        ]:
            with self.subTest(name):
                self.assertEqual(apple_error(extend, *arguments), expected)
        answer = requests.put(f"{self.server.url}/inApps/v1/subscriptions/extend/{original}",
                              headers={"Authorization": f"Bearer {self.data.key['bearerToken']}"},
                              json={"extendByDays": 5, "extendReasonCode": 7, "requestIdentifier": "r"})
        self.assertEqual((answer.status_code, answer.json()["errorCode"]), (400, 4000010))
        self.assertEqual(self.expiries(), before)

    def test_every_active_subscriber_and_the_requests_status(self):
        before = self.expiries()
        self.assertEqual(set(before), {"alice", "bob"})
        mass = MassExtendRenewalDateRequest(extendByDays=5, extendReasonCode=ExtendReasonCode.SERVICE_ISSUE_OR_OUTAGE,
                                            requestIdentifier=str(uuid.uuid4()), productId=MONTHLY)
        self.assertEqual(self.client.extend_renewal_date_for_all_active_subscribers(mass).requestIdentifier, mass.requestIdentifier)
        status = self.client.get_status_of_subscription_renewal_date_extensions(mass.requestIdentifier, MONTHLY)
        self.assertEqual((status.requestIdentifier, status.complete, status.succeededCount, status.failedCount),
                         (mass.requestIdentifier, True, 2, 0))
        extended = {user: expiry + 5 * DAY for user, expiry in before.items()}
        self.assertEqual(self.expiries(), extended)
        self.client.extend_renewal_date_for_all_active_subscribers(mass)  # sent again: extends no one further
        self.assertEqual(self.expiries(), extended)
        elsewhere = MassExtendRenewalDateRequest(extendByDays=5, extendReasonCode=ExtendReasonCode.OTHER,
                                                 requestIdentifier=str(uuid.uuid4()), productId=MONTHLY, storefrontCountryCodes=["FRA"])
        self.client.extend_renewal_date_for_all_active_subscribers(elsewhere)
        self.assertEqual(self.client.get_status_of_subscription_renewal_date_extensions(elsewhere.requestIdentifier, MONTHLY)
                         .succeededCount, 0)
        self.assertEqual(self.expiries(), extended)
        for name, body, expected in [
            ("a product that is not a subscription", MassExtendRenewalDateRequest(
                extendByDays=5, extendReasonCode=ExtendReasonCode.OTHER, requestIdentifier="r", productId="com.iapsim.noads"), (400, 4000023)),
            ("a storefront that is not a code", MassExtendRenewalDateRequest(
                extendByDays=5, extendReasonCode=ExtendReasonCode.OTHER, requestIdentifier="r", productId=MONTHLY,
                storefrontCountryCodes=["usa"]), (400, 4000028)),
            ("over 90 days", MassExtendRenewalDateRequest(
                extendByDays=91, extendReasonCode=ExtendReasonCode.OTHER, requestIdentifier="r", productId=MONTHLY), (400, 4000009)),
        ]:
            with self.subTest(name):
                self.assertEqual(apple_error(self.client.extend_renewal_date_for_all_active_subscribers, body), expected)
        self.assertEqual(apple_error(self.client.get_status_of_subscription_renewal_date_extensions, "never-asked", MONTHLY),
                         (404, 4040009))
        self.assertEqual(self.expiries(), extended)


if __name__ == "__main__":
    unittest.main()
