"""Every notification type iapsim produces beyond a purchase's own, verified with Apple's library
(SignedDataVerifier.verify_and_decode_notification) as Notification History hands them out: a refund asked about and
declined, a refund reversed, a renewal date extended one by one and for every subscriber, with its summary."""
import unittest
import uuid

from appstoreserverlibrary.models.ConsumptionRequestReason import ConsumptionRequestReason
from appstoreserverlibrary.models.ExtendReasonCode import ExtendReasonCode
from appstoreserverlibrary.models.ExtendRenewalDateRequest import ExtendRenewalDateRequest
from appstoreserverlibrary.models.MassExtendRenewalDateRequest import MassExtendRenewalDateRequest
from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest
from appstoreserverlibrary.models.NotificationTypeV2 import NotificationTypeV2
from appstoreserverlibrary.models.Status import Status
from appstoreserverlibrary.models.Subtype import Subtype

from iapsim_wire import ServedStore, purchases

MONTHLY = "com.iapsim.vip.monthly"
YEARLY = "com.iapsim.vip.yearly"
PLUS = "com.iapsim.vip.plus"
DAY = 86_400_000


class NotificationTypeTests(ServedStore):
    # alice buys coins and Apple declines their refund; she subscribes to Yearly VIP, Apple refunds it and then reverses
    # the refund; bob, under his own store account, subscribes to Monthly VIP, whose price the team raises, and agrees to
    # it (p in Manage subscriptions); carol subscribes to VIP Plus, whose price is raised too, never agrees, and a month
    # and a bit later it has ended.
    SCRIPT = purchases(("consumable", 1)) + "refund-decline unintended-purchase\n" + purchases(("subscription", 3))[len("launch alice\n"):] \
        + "refund\nrefund-reverse\nswitch-user bob\n" + purchases(("subscription", 1))[len("launch alice\n"):] \
        + f"price-increase {MONTHLY}\npress m\npress p\nwait 1\npress Esc\nswitch-user carol\n" \
        + purchases(("subscription", 2))[len("launch alice\n"):] + f"price-increase {PLUS}\nwait 32d\n"

    def history(self, **filters):
        dates = [int(c["purchase_date_ms"]) for c in self.charges]
        request = NotificationHistoryRequest(startDate=min(dates) - DAY, endDate=max(dates) + 100 * DAY, **filters)
        decoded, token = [], None
        while True:
            page = self.client.get_notification_history(token, request)
            decoded += [self.verifier.verify_and_decode_notification(item.signedPayload) for item in page.notificationHistory]
            if not page.hasMore:
                return decoded
            token = page.paginationToken

    def one(self, notification_type, subtype=None):
        found = [d for d in self.history(notificationType=notification_type, notificationSubtype=subtype)]
        self.assertEqual(len(found), 1, [(d.rawNotificationType, d.rawSubtype) for d in found])
        return found[0]

    def charge(self, product):
        return next(c for c in self.charges if c["productId"] == product)

    def asked_about(self, charge):
        """Apple's CONSUMPTION_REQUEST about this charge (it asks about consumables and auto-renewable subscriptions)."""
        found = [d for d in self.history(notificationType=NotificationTypeV2.CONSUMPTION_REQUEST)
                 if self.verifier.verify_and_decode_signed_transaction(d.data.signedTransactionInfo).transactionId == charge["transactionId"]]
        self.assertEqual(len(found), 1)
        return found[0]

    def test_a_consumables_refund_asked_about_then_declined(self):
        coins = self.charge("com.iapsim.coins.60")
        asked = self.asked_about(coins)
        declined = self.one(NotificationTypeV2.REFUND_DECLINED)
        self.assertEqual(declined.notificationType, NotificationTypeV2.REFUND_DECLINED)
        self.assertIsNone(declined.rawSubtype)
        # The reason the customer chose on Apple's refund sheet reaches the team's server with Apple's question.
        self.assertEqual(asked.data.consumptionRequestReason, ConsumptionRequestReason.UNINTENDED_PURCHASE)
        for decoded in (asked, declined):
            transaction = self.verifier.verify_and_decode_signed_transaction(decoded.data.signedTransactionInfo)
            self.assertEqual(transaction.transactionId, coins["transactionId"])
            self.assertIsNone(transaction.revocationDate)
        types = [d.rawNotificationType for d in self.history(transactionId=coins["transactionId"])]
        self.assertLess(types.index("CONSUMPTION_REQUEST"), types.index("REFUND_DECLINED"))

    def test_a_subscriptions_refund_asked_about_first_while_it_is_active(self):
        yearly = self.charge(YEARLY)
        asked, refunded = self.asked_about(yearly), self.one(NotificationTypeV2.REFUND)
        before = self.verifier.verify_and_decode_signed_transaction(asked.data.signedTransactionInfo)
        after = self.verifier.verify_and_decode_signed_transaction(refunded.data.signedTransactionInfo)
        self.assertEqual((before.transactionId, before.revocationDate, asked.data.status), (yearly["transactionId"], None, Status.ACTIVE))
        self.assertEqual(asked.data.consumptionRequestReason, ConsumptionRequestReason.OTHER)
        self.assertIsNotNone(after.revocationDate)
        self.assertEqual(refunded.data.status, Status.REVOKED)
        self.assertLessEqual(asked.signedDate, refunded.signedDate)
        told = [(d.rawNotificationType, d.notificationUUID) for d in self.history(transactionId=yearly["transactionId"])]
        self.assertLess(told.index(("CONSUMPTION_REQUEST", asked.notificationUUID)), told.index(("REFUND", refunded.notificationUUID)))

    def test_a_refund_reversed_signs_the_transaction_without_its_revocation(self):
        yearly = self.charge(YEARLY)
        self.one(NotificationTypeV2.REFUND)
        reversed_ = self.one(NotificationTypeV2.REFUND_REVERSED)
        transaction = self.verifier.verify_and_decode_signed_transaction(reversed_.data.signedTransactionInfo)
        self.assertEqual(transaction.transactionId, yearly["transactionId"])
        self.assertIsNone(transaction.revocationDate)
        self.assertEqual(reversed_.data.status, Status.ACTIVE)
        renewal = self.verifier.verify_and_decode_renewal_info(reversed_.data.signedRenewalInfo)
        self.assertEqual(renewal.productId, YEARLY)

    def test_a_price_increase_asked_agreed_to_or_ending_the_subscription(self):
        pending = self.history(notificationType=NotificationTypeV2.PRICE_INCREASE, notificationSubtype=Subtype.PENDING)
        self.assertEqual(sorted(self.verifier.verify_and_decode_renewal_info(d.data.signedRenewalInfo).productId for d in pending),
                         [MONTHLY, PLUS])
        accepted = self.one(NotificationTypeV2.PRICE_INCREASE, Subtype.ACCEPTED)
        self.assertEqual(self.verifier.verify_and_decode_renewal_info(accepted.data.signedRenewalInfo).productId, MONTHLY)
        ended = self.one(NotificationTypeV2.EXPIRED, Subtype.PRICE_INCREASE)
        self.assertEqual(ended.data.status, Status.EXPIRED)
        renewal = self.verifier.verify_and_decode_renewal_info(ended.data.signedRenewalInfo)
        self.assertEqual((renewal.productId, renewal.rawExpirationIntent), (PLUS, 3))
        self.assertIsNone(renewal.priceIncreaseStatus)

    def test_renewal_extended_and_the_mass_extensions_summary(self):
        yearly = self.charge(YEARLY)
        answer = self.client.extend_subscription_renewal_date(yearly["transactionId"], ExtendRenewalDateRequest(
            extendByDays=7, extendReasonCode=ExtendReasonCode.SERVICE_ISSUE_OR_OUTAGE, requestIdentifier=str(uuid.uuid4())))
        extended = self.one(NotificationTypeV2.RENEWAL_EXTENDED)
        self.assertIsNone(extended.rawSubtype)
        transaction = self.verifier.verify_and_decode_signed_transaction(extended.data.signedTransactionInfo)
        self.assertEqual((transaction.originalTransactionId, transaction.expiresDate), (yearly["transactionId"], answer.effectiveDate))
        self.assertEqual(self.verifier.verify_and_decode_renewal_info(extended.data.signedRenewalInfo).renewalDate, answer.effectiveDate)

        identifier = str(uuid.uuid4())
        self.client.extend_renewal_date_for_all_active_subscribers(MassExtendRenewalDateRequest(
            extendByDays=3, extendReasonCode=ExtendReasonCode.SERVICE_ISSUE_OR_OUTAGE, requestIdentifier=identifier,
            storefrontCountryCodes=["CHN"], productId=MONTHLY))
        summary = self.one(NotificationTypeV2.RENEWAL_EXTENSION, Subtype.SUMMARY)
        self.assertIsNone(summary.data)
        self.assertEqual((summary.summary.productId, summary.summary.requestIdentifier, summary.summary.storefrontCountryCodes,
                          summary.summary.succeededCount, summary.summary.failedCount), (MONTHLY, identifier, ["CHN"], 1, 0))
        self.assertEqual(summary.summary.bundleId, self.data.key["bundleId"])
        monthly = [d for d in self.history(notificationType=NotificationTypeV2.RENEWAL_EXTENDED)
                   if self.verifier.verify_and_decode_renewal_info(d.data.signedRenewalInfo).productId == MONTHLY]
        self.assertEqual(len(monthly), 1)


if __name__ == "__main__":
    unittest.main()


class DowngradeTakenBackTests(ServedStore):
    # alice subscribes to VIP Plus, asks for Monthly VIP at the renewal, then buys VIP Plus again before it comes.
    SCRIPT = purchases(("subscription", 2)) + "select subscription 1\npress Enter\n" \
        + 'wait until "Your plan changes at the next renewal"\npress Esc\n' + purchases(("subscription", 2))[len("launch alice\n"):]

    def test_the_downgrade_taken_back_is_a_renewal_preference_change_without_a_subtype(self):
        dates = [int(c["purchase_date_ms"]) for c in self.charges]
        request = NotificationHistoryRequest(startDate=min(dates) - DAY, endDate=max(dates) + DAY,
                                             notificationType=NotificationTypeV2.DID_CHANGE_RENEWAL_PREF)
        page = self.client.get_notification_history(None, request)
        decoded = [self.verifier.verify_and_decode_notification(item.signedPayload) for item in page.notificationHistory]
        self.assertEqual([d.rawSubtype for d in decoded], ["DOWNGRADE", None])
        # VIP Plus renews as VIP Plus again (a notification never sent is signed with the records as they are when asked).
        renewal = self.verifier.verify_and_decode_renewal_info(decoded[-1].data.signedRenewalInfo)
        self.assertEqual((renewal.productId, renewal.autoRenewProductId), (PLUS, PLUS))
