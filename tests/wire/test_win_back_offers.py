"""Win-back offers on the wire (issue 30, item 5): Apple's library reads the churned subscriber's renewal info with the
offers they may take (eligibleWinBackOfferIds), and the resubscription a StoreKit 2 app bought with one as a signed
transaction of offerType 4 (WIN_BACK_OFFER) told as OFFER_REDEEMED/RESUBSCRIBE, as Apple tells an offer redeemed."""
from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest
from appstoreserverlibrary.models.NotificationTypeV2 import NotificationTypeV2
from appstoreserverlibrary.models.OfferType import OfferType
from appstoreserverlibrary.models.Subtype import Subtype

from iapsim_wire import ServedStore

DAY = 86_400_000
LAPSED = """# storekit: 2
launch alice
select subscription
press Enter
wait until "Purchase complete"
press Esc
wait 8d
press m
press Enter
wait 0.5
press Esc
wait 31d
expect subscription com.iapsim.vip.monthly expired
"""


def renewal_infos(test):
    statuses = test.client.get_all_subscription_statuses(test.charges[0]["transactionId"])
    infos = [item.signedRenewalInfo for group in statuses.data for item in group.lastTransactions]
    return [test.verifier.verify_and_decode_renewal_info(info) for info in infos]


class LapsedSubscriber(ServedStore):
    SCRIPT = LAPSED

    def test_renewal_info_names_the_offer_she_may_take(self):
        self.assertEqual([info.eligibleWinBackOfferIds for info in renewal_infos(self)], [["vip_winback"]])


class BoughtWithTheOffer(ServedStore):
    SCRIPT = LAPSED + 'press Enter\nwait until "Purchase complete"\npress Esc\nexpect subscription com.iapsim.vip.monthly active\n'

    def test_the_resubscription_is_a_win_back_offer(self):
        last = self.charges[-1]
        transaction = self.verifier.verify_and_decode_signed_transaction(
            self.client.get_transaction_info(last["transactionId"]).signedTransactionInfo)
        self.assertEqual((transaction.offerType, transaction.offerIdentifier), (OfferType.WIN_BACK_OFFER, "vip_winback"))
        self.assertEqual(transaction.originalTransactionId, self.charges[0]["transactionId"])
        date = int(last["purchase_date_ms"])
        request = NotificationHistoryRequest(startDate=date - DAY, endDate=date + DAY, notificationType=NotificationTypeV2.OFFER_REDEEMED)
        decoded = [self.verifier.verify_and_decode_notification(item.signedPayload)
                   for item in self.client.get_notification_history(None, request).notificationHistory]
        self.assertEqual([d.subtype for d in decoded], [Subtype.RESUBSCRIBE])
        told = self.verifier.verify_and_decode_signed_transaction(decoded[0].data.signedTransactionInfo)
        self.assertEqual(told.rawOfferType, 4)
        self.assertEqual([info.eligibleWinBackOfferIds for info in renewal_infos(self)], [None])
