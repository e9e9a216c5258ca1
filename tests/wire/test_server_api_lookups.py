"""Apple's library asks iapsim what support asks Apple: a customer's purchases by the order id on their e-mail
receipt. Unknown and malformed input gets Apple's answers and changes nothing."""
import unittest

from appstoreserverlibrary.models.OrderLookupStatus import OrderLookupStatus

from iapsim_wire import DataDirectory, Server, apple_client, apple_verifier, purchases


class LookUpOrderIdTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.data = DataDirectory(purchases(("consumable", 1), ("non-consumable", 1), ("subscription", 1)))
        cls.server = Server(cls.data)
        cls.client = apple_client(cls.data, cls.server)
        cls.verifier = apple_verifier(cls.data)
        cls.charges = [t for t in cls.data.state()["store"]["transactions"] if t["state"] == "purchased"]

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        cls.data.remove()

    def test_each_charge_is_found_by_its_order_id(self):
        self.assertEqual(len(self.charges), 3)
        orders = [c["appleOrderId"] for c in self.charges]
        self.assertEqual(len(set(orders)), 3)
        for charge in self.charges:
            order = charge["appleOrderId"]
            self.assertRegex(order, r"^[A-Z0-9]{10}$")
            self.assertNotEqual(order, charge["applicationUsername"])
            answer = self.client.look_up_order_id(order)
            self.assertEqual(answer.status, OrderLookupStatus.VALID)
            decoded = [self.verifier.verify_and_decode_signed_transaction(s) for s in answer.signedTransactions]
            self.assertEqual([(d.transactionId, d.productId) for d in decoded], [(charge["transactionId"], charge["productId"])])

    def test_an_order_id_apple_never_gave_is_invalid_and_changes_nothing(self):
        before = self.data.state()
        for order in ["ZZZZZZZZZZ", "not-an-order", self.charges[0]["applicationUsername"], self.charges[0]["transactionId"]]:
            with self.subTest(order):
                answer = self.client.look_up_order_id(order)
                self.assertEqual(answer.status, OrderLookupStatus.INVALID)
                self.assertIsNone(answer.signedTransactions)
        self.assertEqual(self.data.state()["store"], before["store"])


if __name__ == "__main__":
    unittest.main()
