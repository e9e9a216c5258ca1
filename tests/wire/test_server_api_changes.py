"""Apple's library tells iapsim what a team's server tells Apple: a customer's account token on a purchase made outside
the app. Each bad request gets Apple's error body and changes nothing."""
import unittest
import uuid

from appstoreserverlibrary.api_client import APIException
from appstoreserverlibrary.models.UpdateAppAccountTokenRequest import UpdateAppAccountTokenRequest

from iapsim_wire import DataDirectory, Server, apple_client, apple_verifier, purchases


class ServerAPIChangeTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # The subscription renews once (its week of trial ends), so its chain has an original and a renewal.
        cls.data = DataDirectory(purchases(("subscription", 1), ("consumable", 1)) + "wait 8d\n")
        cls.server = Server(cls.data)
        cls.client = apple_client(cls.data, cls.server)
        cls.verifier = apple_verifier(cls.data)

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        cls.data.remove()

    def charges(self):
        return [t for t in self.data.state()["store"]["transactions"] if t["state"] == "purchased"]

    def token_of(self, transaction_id):
        signed = self.client.get_transaction_info(transaction_id).signedTransactionInfo
        return self.verifier.verify_and_decode_signed_transaction(signed).appAccountToken

    def refused(self, call, *arguments):
        with self.assertRaises(APIException) as refusal:
            call(*arguments)
        return refusal.exception.http_status_code, refusal.exception.raw_api_error

    def test_the_token_reaches_every_transaction_of_the_original_and_bad_requests_change_nothing(self):
        chain = [c for c in self.charges() if c.get("subscription_group_identifier")]
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
        ]:
            with self.subTest(name):
                self.assertEqual(self.refused(set_token, *arguments), expected)
        self.assertEqual(self.token_of(renewal), first)
        self.assertEqual(self.data.state()["store"], before["store"])
        self.client.set_app_account_token(original, UpdateAppAccountTokenRequest(second))
        self.assertEqual(self.token_of(renewal), second)
        consumable = next(c for c in self.charges() if not c.get("subscription_group_identifier"))
        self.assertNotEqual(self.token_of(consumable["transactionId"]), second)


if __name__ == "__main__":
    unittest.main()
