"""Offer codes on the wire (issue 30, item 4): a code redeemed in the App Store app reaches Apple's library as
OFFER_REDEEMED, its signed transaction an offer code's (offerType 3, the code as offerIdentifier) that names no order."""
from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest
from appstoreserverlibrary.models.NotificationTypeV2 import NotificationTypeV2

from iapsim_wire import ServedStore

DAY = 86_400_000


class OfferCodeOnTheWire(ServedStore):
    SCRIPT = "launch carol\nredeem VIPSPRING\nwait 3\nexpect credits carol 1\n"

    def test_offer_redeemed_with_the_code_and_no_order(self):
        date = int(self.charges[0]["purchase_date_ms"])
        request = NotificationHistoryRequest(startDate=date - DAY, endDate=date + DAY, notificationType=NotificationTypeV2.OFFER_REDEEMED)
        page = self.client.get_notification_history(None, request)
        decoded = [self.verifier.verify_and_decode_notification(item.signedPayload) for item in page.notificationHistory]
        self.assertEqual([(d.rawNotificationType, d.rawSubtype) for d in decoded], [("OFFER_REDEEMED", "INITIAL_BUY")])
        transaction = self.verifier.verify_and_decode_signed_transaction(decoded[0].data.signedTransactionInfo)
        self.assertEqual((transaction.rawOfferType, transaction.offerIdentifier), (3, "VIPSPRING"))
        self.assertIsNone(transaction.appAccountToken)
        self.assertIsNone(self.charges[0]["applicationUsername"])
        self.assertEqual(self.charges[0]["offer_code_ref_name"], "VIPSPRING")
