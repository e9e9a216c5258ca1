"""Promotional offers (issue 30, item 3): a team's server signs with Apple's own PromotionalOfferSignatureCreator
(StoreKit 1) or PromotionalOfferV2SignatureCreator (StoreKit 2's JWS) and the .storekit file's subscriptionOffersKeyPair,
and iapsim's store, checking with that key pair, sells the offer; the same signature a second time is refused as Apple
refuses it, SKErrorInvalidSignature."""
import base64
import json
import os
import shutil
import tempfile
import time
import unittest
from datetime import datetime

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

import team_server
from iapsim_wire import live_app, run, verifier_for
from test_backend_contract import free_port

PRODUCT = "org.team.vip.monthly"


def storekit_file(key_id, private_der):
    """A format 4 .storekit file: one monthly subscription with the promotional offer `comeback` (0.99 a month for 3
    months), and the offers key pair as Xcode keeps it (base64 PKCS#8)."""
    offer = {"internalID": "7301", "offerID": "comeback", "paymentMode": "payAsYouGo", "numberOfPeriods": 3,
             "subscriptionPeriod": "P1M", "displayPrice": "0.99", "referenceName": "Come back"}
    subscription = {"productID": PRODUCT, "referenceName": "VIP Monthly", "type": "RecurringSubscription", "displayPrice": "4.99",
                    "familyShareable": False, "groupNumber": 1, "internalID": "7201", "recurringSubscriptionPeriod": "P1M",
                    "subscriptionGroupID": "70000001", "adHocOffers": [offer], "codeOffers": [],
                    "localizations": [{"locale": "en_US", "displayName": "VIP Monthly", "description": "VIP, monthly"}]}
    return {"identifier": "TEAM0001", "products": [], "settings": {"_storefront": "USA", "_locale": "en_US"},
            "subscriptionGroups": [{"id": "70000001", "name": "VIP", "localizations": [], "subscriptions": [subscription]}],
            "subscriptionOffersKeyPair": {"id": key_id, "privateKey": base64.b64encode(private_der).decode()},
            "version": {"major": 4, "minor": 0}}


def offers_key():
    """A subscription offers key pair: (base64 PKCS#8 DER as a .storekit file keeps it, PEM as a team's server loads it)."""
    key = ec.generate_private_key(ec.SECP256R1())
    return (key.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()),
            key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))


def with_team_server(test, root, data, catalog, signer, storekit):
    """The app live on `data`, serving the wire, with a team's server signing through `signer` as its backend (in
    StoreKit 2 checking each signed transaction with Apple's SignedDataVerifier, as a StoreKit 2 server does)."""
    if not os.path.exists(data):
        os.makedirs(data)
    secret = json.loads(run("keys", "--data-dir", data, "--json").stdout)["sharedSecret"]
    serve_port, team_port = free_port(), free_port()
    team = team_server.serve(team_port, f"http://127.0.0.1:{serve_port}/sandbox/verifyReceipt", secret,
                             os.path.join(root, "team.sqlite"), offers=signer,
                             verifier=verifier_for(root, data) if storekit == 2 else None)
    test.addCleanup(team.server_close)
    test.addCleanup(team.shutdown)
    return live_app(test, root, 120, "--data-dir", data, "--catalog", catalog, "--user", "alice", "--serve", str(serve_port),
                    "--backend", f"http://127.0.0.1:{team_port}", "--storekit", str(storekit))


def subscribe_then_refunded(tmux, wait_for):
    """alice subscribes in the app and Apple refunds it (`r` in the inspector): she subscribed to the group."""
    tmux("send-keys", "Enter")
    wait_for("Purchase complete")
    tmux("send-keys", "Escape", "i")
    wait_for("Timeline")
    tmux("send-keys", "r")
    wait_for("Apple: tx")  # Apple's answer: the transaction it refunded
    tmux("send-keys", "Escape")
    wait_for("Refunded")


def quit_then_state(tmux, data, catalog):
    """Quits the app, and answers `iapsim state` once it is gone."""
    tmux("send-keys", "Escape", "q")
    for _ in range(200):
        if tmux("has-session").returncode != 0:
            break
        time.sleep(0.05)
    return json.loads(run("state", "--data-dir", data, "--catalog", catalog).stdout)


class PromotionalOfferSignedByApplesLibrary(unittest.TestCase):
    def test_the_library_signs_and_the_store_sells_then_refuses_the_replay(self):
        # alice subscribes, cancels, and the month runs out: a lapsed subscriber, whom promotional offers are for.
        self.sells_then_refuses_the_replay(1, "press m\npress Enter\nwait 0.5\npress Esc\nwait 32d\n", "expired")

    def test_storekit_2_the_librarys_jws_sells_and_its_replay_is_refused(self):
        # Live on a new data directory, so that the store's clock is the wall's, which Apple's V2 creator signs `iat` with.
        self.sells_then_refuses_the_replay(2, None, None)

    def sells_then_refuses_the_replay(self, storekit, lapse, state):
        root = tempfile.mkdtemp(prefix="iapsim-offers-")
        self.addCleanup(shutil.rmtree, root, True)
        der, pem = offers_key()
        catalog = os.path.join(root, "Team.storekit")
        with open(catalog, "w") as f:
            json.dump(storekit_file("TEAMKEY001", der), f)
        data = os.path.join(root, "data")
        store_now = time.time()
        if lapse:
            setup = os.path.join(root, "lapse.iapsim")
            with open(setup, "w") as f:
                f.write("launch alice\nselect subscription\npress Enter\nwait until \"Purchase complete\"\npress Esc\n"
                        f"{lapse}expect subscription {PRODUCT} {state}\n")
            run("play", "--data-dir", data, "--catalog", catalog, setup)
            # The store's clock went on in the script: the server signs on it, as a server beside Apple's clock does.
            store_now = datetime.fromisoformat(json.loads(run("state", "--data-dir", data, "--catalog", catalog).stdout)["asOf"]
                                               .replace("Z", "+00:00")).timestamp()
        started = time.time()
        signer = team_server.OfferSigner(pem, "TEAMKEY001", clock=lambda: int((store_now + time.time() - started) * 1000))
        tmux, wait_for = with_team_server(self, root, data, catalog, signer, storekit)
        wait_for("VIP Monthly")
        if not lapse:
            subscribe_then_refunded(tmux, wait_for)
        tmux("send-keys", "o")
        wait_for("Offer comeback: $0.99/month ×3")
        tmux("send-keys", "Enter")
        wait_for("Purchase complete")
        tmux("send-keys", "Escape")
        if storekit == 2:
            self.assertIn("compactJWS", signer.last)
        # The same signature again (a server that reuses its nonce): Apple takes a nonce once.
        signer.replay = True
        tmux("send-keys", "Enter")
        # StoreKit's error by the name the app's StoreKit gives it.
        wait_for("SKErrorInvalidSignature" if storekit == 1 else "Product.PurchaseError.invalidOfferSignature")
        wait_for("The offer could not be applied")
        state = quit_then_state(tmux, data, catalog)
        offered = [t for t in state["store"]["transactions"] if t.get("promotional_offer_id") == "comeback"]
        self.assertEqual(len(offered), 1, state["store"]["transactions"])
        self.assertEqual(offered[0]["state"], "purchased")
        refused = [t for t in state["store"]["transactions"] if t["error"] == "invalid-signature"]
        self.assertEqual(len(refused), 1)


class IntroductoryOfferEligibilitySignedByApplesLibrary(unittest.TestCase):
    def test_the_server_gives_a_second_trial_apple_would_not(self):
        """alice had VIP Monthly's free week, and Apple refunded it: by Apple's rule (once per group per Apple ID) she has
        no second trial. Her team's server signs allowIntroductoryOffer with Apple's own
        IntroductoryOfferEligibilitySignatureCreator, and the store, honouring it, gives her the week again. Live, on a
        new data directory, whose store clock is the wall's."""
        root = tempfile.mkdtemp(prefix="iapsim-eligibility-")
        self.addCleanup(shutil.rmtree, root, True)
        der, pem = offers_key()
        file = storekit_file("TEAMKEY001", der)
        file["subscriptionGroups"][0]["subscriptions"][0]["introductoryOffer"] = {
            "internalID": "7302", "paymentMode": "free", "subscriptionPeriod": "P1W", "numberOfPeriods": 1}
        catalog = os.path.join(root, "Team.storekit")
        with open(catalog, "w") as f:
            json.dump(file, f)
        data = os.path.join(root, "data")
        signer = team_server.OfferSigner(pem, "TEAMKEY001")
        tmux, wait_for = with_team_server(self, root, data, catalog, signer, 2)
        wait_for("VIP Monthly")
        subscribe_then_refunded(tmux, wait_for)
        signer.allow_intro = True
        tmux("send-keys", "Enter")
        wait_for("Purchase complete")
        tmux("send-keys", "Escape")
        wait_for("Trial until")
        state = quit_then_state(tmux, data, catalog)
        charges = [t for t in state["store"]["transactions"] if t["productId"] == PRODUCT and t["state"] == "purchased"]
        self.assertEqual([t.get("is_trial_period") for t in charges], ["true", "true"], charges)
        self.assertEqual(charges[1]["originalTransactionId"], charges[0]["transactionId"])


if __name__ == "__main__":
    unittest.main()
