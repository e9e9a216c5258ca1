"""Billing plans on the wire (issue 30, item 6): a month of Yearly VIP's plan "monthly with a 12-month commitment" as
Apple's library reads it: the signed transaction's billingPlanType MONTHLY with its commitmentInfo (App Store Server
API 1.21), and the renewal info's renewalBillingPlanType and commitmentInfo."""
from appstoreserverlibrary.models.AutoRenewStatus import AutoRenewStatus
from appstoreserverlibrary.models.BillingPlanType import BillingPlanType
from appstoreserverlibrary.models.RenewalBillingPlanType import RenewalBillingPlanType

from iapsim_wire import ServedStore


class SecondMonthOfACommitment(ServedStore):
    SCRIPT = """# storekit: 2
launch alice
select subscription 3
press o
press Enter
wait until "Purchase complete"
press Esc
wait 31d
expect subscription com.iapsim.vip.yearly active
"""

    def test_transaction_and_renewal_info_say_the_commitment(self):
        first, second = self.charges[0], self.charges[-1]
        transaction = self.verifier.verify_and_decode_signed_transaction(
            self.client.get_transaction_info(second["transactionId"]).signedTransactionInfo)
        self.assertEqual(transaction.billingPlanType, BillingPlanType.MONTHLY)
        info = transaction.commitmentInfo
        self.assertEqual((info.billingPeriodNumber, info.totalBillingPeriods, info.commitmentPrice), (2, 12, 336000))
        self.assertGreater(info.commitmentExpiresDate, transaction.expiresDate)
        statuses = self.client.get_all_subscription_statuses(first["transactionId"])
        renewal = self.verifier.verify_and_decode_renewal_info(statuses.data[0].lastTransactions[0].signedRenewalInfo)
        self.assertEqual(renewal.renewalBillingPlanType, RenewalBillingPlanType.MONTHLY)
        self.assertEqual(renewal.commitmentInfo.commitmentAutoRenewStatus, AutoRenewStatus.ON)
        self.assertEqual(renewal.commitmentInfo.commitmentRenewalDate, info.commitmentExpiresDate)
        self.assertEqual(renewal.commitmentInfo.commitmentRenewalPrice, 336000)
