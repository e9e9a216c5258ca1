"""Get Notification History through Apple's library: every notification the store wrote, 20 a page, filtered by type,
subtype, customer or failure, each verifying as Apple's; each malformed request gets Apple's error."""
import unittest

import requests
from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest
from appstoreserverlibrary.models.NotificationTypeV2 import NotificationTypeV2
from appstoreserverlibrary.models.Subtype import Subtype

from iapsim_wire import ServedStore, apple_error, purchases

BUY_AGAIN = 'select consumable 1\npress Enter\nwait until "Purchase complete"\npress Esc\n'
DAY = 86_400_000


class NotificationHistoryTests(ServedStore):
    # alice buys 21 consumables and a subscription; bob, on the same device under his own store account, one consumable.
    SCRIPT = purchases(("consumable", 1), ("subscription", 1)) + BUY_AGAIN * 20 + "switch-user bob\n" + BUY_AGAIN

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        dates = [int(c["purchase_date_ms"]) for c in cls.charges]
        cls.start, cls.end = min(dates) - DAY, max(dates) + DAY

    def history(self, **filters):
        """Every page, decoded, with the number of pages."""
        request = NotificationHistoryRequest(startDate=self.start, endDate=self.end, **filters)
        decoded, token, pages = [], None, 0
        while True:
            page = self.client.get_notification_history(token, request)
            pages += 1
            self.assertLessEqual(len(page.notificationHistory), 20)
            decoded += [self.verifier.verify_and_decode_notification(item.signedPayload) for item in page.notificationHistory]
            if not page.hasMore:
                self.assertIsNone(page.paginationToken)
                return decoded, pages
            token = page.paginationToken

    def test_every_notification_once_in_order_twenty_a_page(self):
        decoded, pages = self.history()
        self.assertEqual(pages, 2)
        self.assertEqual(len({d.notificationUUID for d in decoded}), len(decoded))
        charged = [self.verifier.verify_and_decode_signed_transaction(d.data.signedTransactionInfo).transactionId for d in decoded]
        self.assertEqual(charged, [c["transactionId"] for c in self.charges])
        self.assertEqual([d.rawNotificationType for d in decoded].count("ONE_TIME_CHARGE"), 22)

    def test_filters_by_type_subtype_customer_and_failure(self):
        subscribed, _ = self.history(notificationType=NotificationTypeV2.SUBSCRIBED, notificationSubtype=Subtype.INITIAL_BUY)
        self.assertEqual([(d.rawNotificationType, d.rawSubtype) for d in subscribed], [("SUBSCRIBED", "INITIAL_BUY")])
        # A valid combination that matches nothing is an empty page, not an error; so are Apple's types and subtypes
        # iapsim never sends (Advanced Commerce, external purchases, a product no longer for sale).
        self.assertEqual(self.history(notificationType=NotificationTypeV2.OFFER_REDEEMED, notificationSubtype=Subtype.DOWNGRADE)[0], [])
        for kind in [NotificationTypeV2.EXTERNAL_PURCHASE_TOKEN, NotificationTypeV2.METADATA_UPDATE, NotificationTypeV2.MIGRATION,
                     NotificationTypeV2.PRICE_CHANGE, NotificationTypeV2.RESCIND_CONSENT]:
            with self.subTest(kind):
                self.assertEqual(self.history(notificationType=kind)[0], [])
        self.assertEqual(self.history(notificationType=NotificationTypeV2.EXPIRED, notificationSubtype=Subtype.PRODUCT_NOT_FOR_SALE)[0], [])
        self.assertEqual(self.history(notificationType=NotificationTypeV2.EXTERNAL_PURCHASE_TOKEN, notificationSubtype=Subtype.UNREPORTED)[0], [])
        bobs = next(c for c in self.charges if c["account"] == "bob")
        theirs, _ = self.history(transactionId=bobs["transactionId"])
        self.assertEqual([self.verifier.verify_and_decode_signed_transaction(d.data.signedTransactionInfo).transactionId
                          for d in theirs], [bobs["transactionId"]])
        self.assertEqual(self.history(transactionId="9999999999")[0], [])
        # Served without --notify: none reached a server.
        self.assertEqual(len(self.history(onlyFailures=True)[0]), len(self.charges))

    def refused(self, body, token=None):
        return apple_error(self.client.get_notification_history, token, body)

    def test_malformed_requests_get_apples_errors(self):
        start, end = self.start, self.end
        for name, body, token, expected in [
            ("no start date", NotificationHistoryRequest(endDate=end), None, (400, 4000015)),
            ("no end date", NotificationHistoryRequest(startDate=start), None, (400, 4000016)),
            ("start after end", NotificationHistoryRequest(startDate=end, endDate=start), None, (400, 4000013)),
            ("further back than 180 days", NotificationHistoryRequest(startDate=end - 200 * DAY, endDate=end), None, (400, 4000012)),
            ("a type and a transaction", NotificationHistoryRequest(startDate=start, endDate=end, transactionId=self.charges[0]["transactionId"],
                                                                    notificationType=NotificationTypeV2.REFUND), None, (400, 4000019)),
            ("a malformed transaction", NotificationHistoryRequest(startDate=start, endDate=end, transactionId="abc"), None, (400, 4000006)),
            ("a token iapsim never gave", NotificationHistoryRequest(startDate=start, endDate=end), "not-a-token", (400, 4000014)),
            # Apple: "If you provide both the notificationType and subtype, they need to be a valid combination".
            ("a subtype its type never has", NotificationHistoryRequest(startDate=start, endDate=end, notificationType=NotificationTypeV2.ONE_TIME_CHARGE,
                                                                        notificationSubtype=Subtype.UPGRADE), None, (400, 4000018)),
            ("another type's subtype", NotificationHistoryRequest(startDate=start, endDate=end, notificationType=NotificationTypeV2.SUBSCRIBED,
                                                                  notificationSubtype=Subtype.AUTO_RENEW_ENABLED), None, (400, 4000018)),
        ]:
            with self.subTest(name):
                self.assertEqual(self.refused(body, token), expected)
        # What the library would not send: a type Apple does not have.
        answer = requests.post(f"{self.server.url}/inApps/v1/notifications/history",
                               headers={"Authorization": f"Bearer {self.data.key['bearerToken']}"},
                               json={"startDate": start, "endDate": end, "notificationType": "PIZZA_DELIVERED"})
        self.assertEqual((answer.status_code, answer.json()["errorCode"]), (400, 4000018))



class NotificationHistoryAsToldTests(ServedStore):
    # alice subscribes (a free week); Apple then refunds it. No --notify: history is the only way the server hears.
    SCRIPT = purchases(("subscription", 1)) + "refund\nwait 1\n"

    def signed(self):
        page = self.client.get_notification_history(None, NotificationHistoryRequest(
            startDate=int(self.charges[0]["purchase_date_ms"]) - DAY, endDate=int(self.charges[0]["purchase_date_ms"]) + DAY))
        return [item.signedPayload for item in page.notificationHistory]

    def notifications(self):
        return [self.verifier.verify_and_decode_notification(payload) for payload in self.signed()]

    def test_the_same_bytes_at_every_read(self):
        # Never sent (no --notify): signed at the first read, then kept, as Apple keeps what it signed.
        self.assertEqual(self.signed(), self.signed())

    def test_each_notification_tells_the_records_as_they_were_when_it_was_written(self):
        decoded = self.notifications()
        self.assertEqual([d.rawNotificationType for d in decoded], ["SUBSCRIBED", "CONSUMPTION_REQUEST", "REFUND"])
        subscribed, asked, refund = decoded
        bought = self.verifier.verify_and_decode_signed_transaction(subscribed.data.signedTransactionInfo)
        refunded = self.verifier.verify_and_decode_signed_transaction(refund.data.signedTransactionInfo)
        # Subscribed, active, not yet refunded; asked about while still so; then refunded, revoked.
        self.assertEqual((subscribed.data.rawStatus, bought.revocationDate), (1, None))
        self.assertEqual((asked.data.rawStatus, self.verifier.verify_and_decode_signed_transaction(asked.data.signedTransactionInfo).revocationDate),
                         (1, None))
        self.assertEqual(refund.data.rawStatus, 5)
        self.assertIsNotNone(refunded.revocationDate)
        # Signed when written: the notification and what it carries, at the event's time, the same at every read.
        self.assertEqual(subscribed.signedDate, bought.signedDate)
        self.assertLessEqual(subscribed.signedDate, refund.signedDate)
        self.assertLess(refund.signedDate, refunded.revocationDate + DAY)
        again = self.notifications()
        self.assertEqual([(d.signedDate, d.data.rawStatus) for d in again], [(d.signedDate, d.data.rawStatus) for d in decoded])


if __name__ == "__main__":
    unittest.main()
