"""Apple's library asks iapsim what support asks Apple: a customer's purchases by the order id on their e-mail
receipt, and the app's download by any of their transactions. Unknown and malformed input gets Apple's answers and
changes nothing."""
import unittest

from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.OrderLookupStatus import OrderLookupStatus

from iapsim_wire import ServedStore, apple_error, purchases


class LookUpOrderIdTests(ServedStore):
    SCRIPT = purchases(("consumable", 1), ("non-consumable", 1), ("subscription", 1))

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


class AppTransactionInfoTests(ServedStore):
    """Get App Transaction Info: the customer's download of the app, by any of their transactions."""

    SCRIPT = purchases(("consumable", 1), ("non-consumable", 1)) + "switch-user bob\n" \
        + 'select consumable 2\npress Enter\nwait until "Purchase complete"\npress Esc\n'

    def download(self, transaction_id):
        signed = self.client.get_app_transaction_info(transaction_id).signedAppTransactionInfo
        return self.verifier.verify_and_decode_app_transaction(signed)

    def test_one_download_per_account_whichever_transaction_names_it(self):
        by_account = {}
        for charge in self.charges:
            by_account.setdefault(charge["account"], []).append(charge)
        for account, charges in by_account.items():
            downloads = [self.download(c["transactionId"]) for c in charges]
            self.assertEqual(len({d.appTransactionId for d in downloads}), 1, account)
            download = downloads[0]
            self.assertEqual(download.bundleId, "com.iapsim.app")
            self.assertEqual(download.receiptType, Environment.SANDBOX)
            # Apple: "In the sandbox testing environment, the originalApplicationVersion value is always 1.0", as the
            # receipt's original_application_version says (found by a server developer's walk: it said 1).
            self.assertEqual(download.originalApplicationVersion, "1.0")
            self.assertLessEqual(download.originalPurchaseDate, min(int(c["purchase_date_ms"]) for c in charges))
            self.assertNotIn(download.appTransactionId, [c["transactionId"] for c in self.charges])
            # Each of the account's signed transactions names the same download.
            for charge in charges:
                signed = self.client.get_transaction_info(charge["transactionId"]).signedTransactionInfo
                self.assertEqual(self.verifier.verify_and_decode_signed_transaction(signed).appTransactionId, download.appTransactionId)

    def test_unknown_and_malformed_ids_get_apple_errors(self):
        for transaction_id, expected in [("9999999999", (404, 4040010)), ("abc", (400, 4000006))]:
            with self.subTest(transaction_id):
                self.assertEqual(apple_error(self.client.get_app_transaction_info, transaction_id), expected)


if __name__ == "__main__":
    unittest.main()


class AppTransactionIdTests(ServedStore):
    """Apple takes a customer's appTransactionId wherever it takes any of their transaction ids: history, subscription
    statuses, refund history, the app's download (found by a server engineer's walk: each answered 4040010)."""

    SCRIPT = purchases(("consumable", 1), ("subscription", 1)) + "refund\nwait 1\n"

    def test_the_download_id_names_the_customer(self):
        from appstoreserverlibrary.api_client import GetTransactionHistoryVersion
        from appstoreserverlibrary.models.TransactionHistoryRequest import TransactionHistoryRequest
        first = self.charges[0]["transactionId"]
        signed = self.client.get_app_transaction_info(first).signedAppTransactionInfo
        download = self.verifier.verify_and_decode_app_transaction(signed).appTransactionId
        self.assertNotIn(download, [c["transactionId"] for c in self.charges])
        for version in (GetTransactionHistoryVersion.V1, GetTransactionHistoryVersion.V2):
            by_download = self.client.get_transaction_history(download, None, TransactionHistoryRequest(), version)
            by_charge = self.client.get_transaction_history(first, None, TransactionHistoryRequest(), version)
            self.assertEqual(len(by_download.signedTransactions), len(by_charge.signedTransactions))
        statuses = self.client.get_all_subscription_statuses(download)
        self.assertEqual(len(statuses.data), 1)
        self.assertEqual(len(self.client.get_refund_history(download, None).signedTransactions), 1)
        again = self.client.get_app_transaction_info(download).signedAppTransactionInfo
        self.assertEqual(self.verifier.verify_and_decode_app_transaction(again).appTransactionId, download)
        # A number of the download's form that no customer has is still unknown.
        self.assertEqual(apple_error(self.client.get_all_subscription_statuses, "7" + "0" * 15)[0], 404)
