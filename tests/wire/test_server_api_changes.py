"""Apple's library tells iapsim what a team's server tells Apple: a customer's account token on a purchase made outside
the app, what the customer consumed of a purchase they want refunded. Each bad request gets Apple's error body and
changes nothing."""
import json
import unittest
import uuid
import warnings

import requests

from appstoreserverlibrary.models.AccountTenure import AccountTenure
from appstoreserverlibrary.models.ConsumptionRequest import ConsumptionRequest
from appstoreserverlibrary.models.ConsumptionRequestV1 import ConsumptionRequestV1
from appstoreserverlibrary.models.ConsumptionStatus import ConsumptionStatus
from appstoreserverlibrary.models.DeliveryStatus import DeliveryStatus
from appstoreserverlibrary.models.DeliveryStatusV1 import DeliveryStatusV1
from appstoreserverlibrary.models.LifetimeDollarsPurchased import LifetimeDollarsPurchased
from appstoreserverlibrary.models.LifetimeDollarsRefunded import LifetimeDollarsRefunded
from appstoreserverlibrary.models.Platform import Platform
from appstoreserverlibrary.models.PlayTime import PlayTime
from appstoreserverlibrary.models.RefundPreference import RefundPreference
from appstoreserverlibrary.models.UpdateAppAccountTokenRequest import UpdateAppAccountTokenRequest
from appstoreserverlibrary.models.UserStatus import UserStatus

from iapsim_wire import ServedStore, apple_error, purchases

# Version 1 is what is being tested.
warnings.filterwarnings("ignore", "send_consumption_data is deprecated", DeprecationWarning)


class ServerAPIChangeTests(ServedStore):
    SCRIPT = purchases(("subscription", 1), ("consumable", 1), ("non-consumable", 1)) + "wait 8d\n"

    def current_charges(self):
        return [t for t in self.data.state()["store"]["transactions"] if t["state"] == "purchased"]

    def token_of(self, transaction_id):
        signed = self.client.get_transaction_info(transaction_id).signedTransactionInfo
        return self.verifier.verify_and_decode_signed_transaction(signed).appAccountToken

    def test_the_token_reaches_every_transaction_of_the_original_and_bad_requests_change_nothing(self):
        chain = [c for c in self.current_charges() if c.get("subscription_group_identifier")]
        self.assertEqual(len(chain), 2)
        original, renewal = chain[0]["transactionId"], chain[1]["transactionId"]
        self.assertEqual(chain[1]["original_transaction_id"], original)
        first, second = str(uuid.uuid4()), str(uuid.uuid4())
        self.client.set_app_account_token(original, UpdateAppAccountTokenRequest(first))
        self.assertEqual([self.token_of(original), self.token_of(renewal)], [first, first])
        before = self.data.state()
        set_token = self.client.set_app_account_token
        for name, arguments, expected in [
            ("a renewal is not an original", (renewal, UpdateAppAccountTokenRequest(second)), (400, 4000187)),
            ("unknown", ("9999999999", UpdateAppAccountTokenRequest(second)), (404, 4040010)),
            ("malformed", ("abc", UpdateAppAccountTokenRequest(second)), (400, 4000008)),
            ("not a UUID", (original, UpdateAppAccountTokenRequest("not-a-uuid")), (400, 4000183)),
            # The endpoint's one field has its own error, whatever is wrong with it (a server engineer's walk).
            ("a number", (original, UpdateAppAccountTokenRequest(12345)), (400, 4000183)),
            ("left out", (original, UpdateAppAccountTokenRequest(None)), (400, 4000183)),
        ]:
            with self.subTest(name):
                self.assertEqual(apple_error(set_token, *arguments), expected)
        self.assertEqual(self.token_of(renewal), first)
        self.assertEqual(self.data.state()["store"], before["store"])
        self.client.set_app_account_token(original, UpdateAppAccountTokenRequest(second))
        self.assertEqual(self.token_of(renewal), second)
        consumable = next(c for c in self.current_charges() if not c.get("subscription_group_identifier"))
        self.assertNotEqual(self.token_of(consumable["transactionId"]), second)

    def consumption_of(self, transaction_id):
        kept = next(t for t in self.data.state()["store"]["transactions"] if t["transactionId"] == transaction_id).get("consumption")
        return kept and json.loads(kept)

    def test_consumption_information_is_kept_and_bad_bodies_are_refused(self):
        charges = self.current_charges()
        consumable = next(c for c in charges if c["productId"].startswith("com.iapsim.coins"))["transactionId"]
        non_consumable = next(c for c in charges if c["productId"] == "com.iapsim.noads")["transactionId"]
        v2 = ConsumptionRequest(customerConsented=True, sampleContentProvided=False, deliveryStatus=DeliveryStatus.DELIVERED,
                                consumptionPercentage=25000, refundPreference=RefundPreference.GRANT_PRORATED)
        self.client.send_consumption_information(consumable, v2)  # 202: the library raises on anything else
        self.assertEqual(self.consumption_of(consumable),
                         {"customerConsented": True, "sampleContentProvided": False, "deliveryStatus": "DELIVERED",
                          "consumptionPercentage": 25000, "refundPreference": "GRANT_PRORATED"})
        v1 = ConsumptionRequestV1(customerConsented=True, consumptionStatus=ConsumptionStatus.FULLY_CONSUMED,
                                  platform=Platform.APPLE, sampleContentProvided=True,
                                  deliveryStatus=DeliveryStatusV1.DELIVERED_AND_WORKING_PROPERLY, appAccountToken="",
                                  accountTenure=AccountTenure.THIRTY_DAYS_TO_NINETY_DAYS, playTime=PlayTime.ONE_TO_SIX_HOURS,
                                  lifetimeDollarsRefunded=LifetimeDollarsRefunded.ZERO_DOLLARS,
                                  lifetimeDollarsPurchased=LifetimeDollarsPurchased.ZERO_DOLLARS, userStatus=UserStatus.ACTIVE)
        self.client.send_consumption_data(consumable, v1)
        self.assertEqual(self.consumption_of(consumable)["consumptionStatus"], 3)
        before = self.data.state()["store"]
        not_consented = ConsumptionRequest(customerConsented=False, sampleContentProvided=False,
                                           deliveryStatus=DeliveryStatus.DELIVERED)
        prorated_without_share = ConsumptionRequest(customerConsented=True, sampleContentProvided=False,
                                                    deliveryStatus=DeliveryStatus.DELIVERED,
                                                    refundPreference=RefundPreference.GRANT_PRORATED)
        v1_bad_token = ConsumptionRequestV1(**{**{k: getattr(v1, k) for k in ["customerConsented", "consumptionStatus", "platform",
                                                                             "sampleContentProvided", "deliveryStatus", "accountTenure",
                                                                             "playTime", "lifetimeDollarsRefunded",
                                                                             "lifetimeDollarsPurchased", "userStatus"]},
                                               "appAccountToken": "not-a-uuid"})
        for name, call, arguments, expected in [
            ("not consented", self.client.send_consumption_information, (consumable, not_consented), (400, 4000035)),
            ("prorated without a share", self.client.send_consumption_information, (consumable, prorated_without_share),
             (400, 4000000)),
            ("v1: a token that is not a UUID", self.client.send_consumption_data, (consumable, v1_bad_token), (400, 4000033)),
            ("v1: not a consumable or a subscription", self.client.send_consumption_data, (non_consumable, v1), (400, 4000047)),
            ("unknown", self.client.send_consumption_information, ("9999999999", v2), (404, 4040010)),
            ("malformed", self.client.send_consumption_information, ("abc", v2), (400, 4000006)),
        ]:
            with self.subTest(name):
                self.assertEqual(apple_error(call, *arguments), expected)
        # What the library would not send: a delivery status Apple does not know, a v1 code out of its range.
        url = f"{self.server.url}/inApps/v2/transactions/consumption/{consumable}"
        headers = {"Authorization": f"Bearer {self.data.key['bearerToken']}"}
        answer = requests.put(url, headers=headers, json={"customerConsented": True, "sampleContentProvided": False,
                                                          "deliveryStatus": "LOST_IN_THE_MAIL"})
        self.assertEqual((answer.status_code, answer.json()["errorCode"]), (400, 4000036))
        body = {**json.loads(json.dumps(self.consumption_of(consumable))), "playTime": 9}
        answer = requests.put(url.replace("/v2/", "/v1/"), headers=headers, json=body)
        self.assertEqual((answer.status_code, answer.json()["errorCode"]), (400, 4000040))
        self.assertEqual(self.data.state()["store"], before)


if __name__ == "__main__":
    unittest.main()


class FamilyTokenTests(ServedStore):
    """A transaction bob holds through Family Sharing is refused by Set App Account Token, as Apple refuses it (found
    by a server engineer's walk: it was taken, and every transaction of the family member then carried the token)."""

    SCRIPT = "launch alice\napple-id sandbox-1\nfamily sandbox-1 sandbox-2\nwait until Coins\n" \
        + purchases(("non-consumable", 1)).replace("launch alice\n", "") \
        + 'device tablet bob\napple-id sandbox-2\nwait until Coins\nrestore\nwait until "Purchases restored (1)"\npress Esc\n'

    def test_a_family_shared_transaction_takes_no_token(self):
        transactions = self.data.state()["store"]["transactions"]
        shared = [t for t in transactions if t.get("in_app_ownership_type") == "FAMILY_SHARED" and t["state"] == "purchased"]
        self.assertEqual(len(shared), 1, transactions)
        before = self.data.state()
        self.assertEqual(apple_error(self.client.set_app_account_token, shared[0]["transactionId"],
                                     UpdateAppAccountTokenRequest(str(uuid.uuid4()))), (400, 4000185))
        self.assertEqual(self.data.state()["store"], before["store"])
