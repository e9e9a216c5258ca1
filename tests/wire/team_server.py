"""A team's own backend, as small as the contract allows: what `--backend URL` talks to. It keeps orders and credits
in SQLite, asks iapsim's verifyReceipt (the sandbox endpoint, with the shared secret) and credits each transaction
once, to the order's owner. Given the subscription offers key, it signs promotional offers with Apple's own
PromotionalOfferSignatureCreator. Given Apple's SignedDataVerifier, it checks a StoreKit 2 app's signed transaction
before anything else and keeps what it decoded (`server.signed`) or why it refused it (`server.unverified`), and
credits what passes from the signed transaction itself, reading no receipt. Run it: python3 team_server.py PORT VERIFY_RECEIPT_URL SHARED_SECRET DB_PATH
"""
import json
import sqlite3
import sys
import threading
import time
import urllib.parse
import urllib.request
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

COINS = {"com.iapsim.coins.60": 60, "com.iapsim.coins.300": 300, "com.iapsim.coins.980": 980}


class Ledger:
    def __init__(self, path):
        self.lock = threading.Lock()
        self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.db.executescript("""
            CREATE TABLE IF NOT EXISTS orders (id TEXT PRIMARY KEY, user TEXT NOT NULL, productId TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS credits (transactionId TEXT PRIMARY KEY, user TEXT NOT NULL, productId TEXT NOT NULL,
                                                coins INTEGER NOT NULL);""")

    def order(self, user, product):
        with self.lock:
            number = self.db.execute("SELECT COUNT(*) FROM orders").fetchone()[0] + 1
            order_id = f"TEAM-{number:06d}"
            self.db.execute("INSERT INTO orders VALUES (?, ?, ?)", (order_id, user, product))
            return order_id

    def credit(self, transaction, product, order_id, requester):
        """Once per transaction, to the order's owner (else whoever asks): (user, new)."""
        with self.lock:
            found = self.db.execute("SELECT user FROM credits WHERE transactionId = ?", (transaction,)).fetchone()
            if found:
                return found[0], False
            owner = self.db.execute("SELECT user FROM orders WHERE id = ?", (order_id,)).fetchone() if order_id else None
            user = owner[0] if owner else requester
            self.db.execute("INSERT INTO credits VALUES (?, ?, ?, ?)", (transaction, user, product, COINS.get(product, 0)))
            return user, True

    def latest(self, user):
        """The user's latest credited transaction, or None."""
        with self.lock:
            found = self.db.execute("SELECT transactionId FROM credits WHERE user = ? ORDER BY rowid DESC LIMIT 1", (user,)).fetchone()
        return found[0] if found else None

    def account(self, user):
        with self.lock:
            rows = self.db.execute("SELECT productId, coins FROM credits WHERE user = ?", (user,)).fetchall()
        return {"coins": sum(c for _, c in rows), "units": {},
                "owned": sorted({p for p, _ in rows if p not in COINS and "vip" not in p})}


class OfferSigner:
    """Apple's PromotionalOfferSignatureCreator with the app's subscription offers key (PEM) and its id. `replay`
    answers the last signature again, as a server that forgot to make a new nonce would."""

    def __init__(self, pem, key_id, bundle_id="com.iapsim.app", clock=None):
        from appstoreserverlibrary.jws_signature_creator import (IntroductoryOfferEligibilitySignatureCreator,
                                                                 PromotionalOfferV2SignatureCreator)
        from appstoreserverlibrary.promotional_offer import PromotionalOfferSignatureCreator
        self.creator = PromotionalOfferSignatureCreator(pem, key_id, bundle_id)
        # StoreKit 2's: a JWS, whose `iat` is always the wall's clock.
        self.creator_v2 = PromotionalOfferV2SignatureCreator(pem, key_id, "team-issuer", bundle_id)
        self.eligibility_creator = IntroductoryOfferEligibilitySignatureCreator(pem, key_id, "team-issuer", bundle_id)
        # StoreKit 2: the server's own word on every intro offer (True, False), or None to leave it to Apple.
        self.allow_intro = None
        self.key_id = key_id
        # Milliseconds now: the wall's, or the simulated store's when its clock runs ahead (Apple takes a signature
        # for 24 hours of its own clock).
        self.clock = clock or (lambda: int(time.time() * 1000))
        self.replay = False
        self.last = None

    def sign(self, product, offer, username, storekit=1):
        if self.replay and self.last:
            return self.last
        if storekit == 2:
            self.last = {"offerIdentifier": offer, "compactJWS": self.creator_v2.create_signature(product, offer, None)}
            return self.last
        nonce, timestamp = uuid.uuid4(), self.clock()
        signature = self.creator.create_signature(product, offer, username or "", nonce, timestamp)
        self.last = {"identifier": offer, "keyIdentifier": self.key_id, "nonce": str(nonce), "signature": signature,
                     "timestamp": timestamp}
        return self.last


def handler(ledger, verify_url, secret, offers=None, verifier=None):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def answer(self, status, body):
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def error(self, status, name, message):
            self.answer(status, {"error": name, "message": message})

        def body(self):
            if not (self.headers.get("Content-Type") or "").startswith("application/json"):
                self.error(415, "notJSON", "send JSON")
                return None
            length = int(self.headers.get("Content-Length") or 0)
            if length > 64 * 1024:
                self.error(413, "tooLarge", "over 64 KiB")
                return None
            try:
                body = json.loads(self.rfile.read(length))
                return body if isinstance(body, dict) else self.error(400, "badRequest", "not an object")
            except ValueError:
                self.error(400, "badRequest", "not JSON")
                return None

        def do_POST(self):
            if self.path == "/backend/v1/orders":
                body = self.body()
                if body is None:
                    return
                if not isinstance(body.get("user"), str) or not isinstance(body.get("productId"), str):
                    return self.error(400, "badRequest", "user and productId are strings")
                answer = {"orderId": ledger.order(body["user"], body["productId"])}
                earlier = ledger.latest(body["user"])
                if body.get("storekit") == 2 and offers is not None and offers.allow_intro is not None and earlier:
                    answer["introductoryOfferEligibility"] = offers.eligibility_creator.create_signature(
                        body["productId"], offers.allow_intro, earlier)
                return self.answer(201, answer)
            if self.path == "/backend/v1/verify":
                body = self.body()
                if body is None:
                    return
                if not all(isinstance(body.get(k), str) for k in ("receipt", "transactionId", "productId", "user")):
                    return self.error(400, "badRequest", "receipt, transactionId, productId and user are strings")
                if body.get("restore") is True and not body.get("signedTransaction"):
                    return self.error(400, "badRequest", "a restore comes with its signedTransaction")
                if body.get("signedTransaction") and verifier is not None:
                    from appstoreserverlibrary.signed_data_verifier import VerificationException, VerificationStatus
                    try:
                        signed = verifier.verify_and_decode_signed_transaction(body["signedTransaction"])
                    except VerificationException as refusal:
                        self.server.unverified.append(refusal.status)
                        check = {VerificationStatus.INVALID_APP_IDENTIFIER: "bundle",
                                 VerificationStatus.INVALID_ENVIRONMENT: "environment"}.get(refusal.status, "signature")
                        return self.answer(200, {"result": "unverified", "failedCheck": check})
                    self.server.signed.append(signed)
                    if signed.transactionId != body["transactionId"]:
                        return self.answer(200, {"result": "unverified", "failedCheck": "signature"})
                    # StoreKit 2: the checked transaction is Apple's word; no receipt is read.
                    user, new = ledger.credit(signed.originalTransactionId, signed.productId, body.get("orderId"), body["user"])
                    return self.answer(200, {"result": "credited", "appleStatus": 0, "creditedUser": user, "newlyCredited": new})
                request = urllib.request.Request(verify_url, data=json.dumps(
                    {"receipt-data": body["receipt"], "password": secret}).encode(), headers={"Content-Type": "application/json"})
                try:
                    apple = json.loads(urllib.request.urlopen(request, timeout=10).read())
                except Exception as error:  # Apple unreachable: ask again later
                    return self.error(503, "unavailable", str(error))
                status = apple["status"]
                if status != 0:
                    result = "rejected" if status in (21003, 21006, 21010) else \
                        "serverMisconfigured" if status in (21000, 21004) else "appleUnavailable"
                    return self.answer(200, {"result": result, "appleStatus": status})
                entry = next((e for e in apple["receipt"]["in_app"] if e["transaction_id"] == body["transactionId"]), None)
                if entry is None:
                    return self.answer(200, {"result": "notInReceipt", "appleStatus": 0})
                user, new = ledger.credit(entry["original_transaction_id"], entry["product_id"], body.get("orderId"), body["user"])
                return self.answer(200, {"result": "credited", "appleStatus": 0, "creditedUser": user, "newlyCredited": new})
            if self.path == "/backend/v1/offers" and offers is not None:
                body = self.body()
                if body is None:
                    return
                if not all(isinstance(body.get(k), str) for k in ("user", "productId", "offerId")):
                    return self.error(400, "badRequest", "user, productId and offerId are strings")
                return self.answer(200, offers.sign(body["productId"], body["offerId"], body.get("applicationUsername"),
                                                    body.get("storekit") or 1))
            self.error(404, "badRequest", "no such path")

        def do_GET(self):
            prefix = "/backend/v1/accounts/"
            if self.path.startswith(prefix) and len(self.path) > len(prefix):
                return self.answer(200, ledger.account(urllib.parse.unquote(self.path[len(prefix):])))
            self.error(404, "badRequest", "no such path")

    return Handler


def serve(port, verify_url, secret, db_path, offers=None, verifier=None):
    server = ThreadingHTTPServer(("127.0.0.1", port), handler(Ledger(db_path), verify_url, secret, offers, verifier))
    server.signed, server.unverified = [], []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


if __name__ == "__main__":
    port, url, secret, path = sys.argv[1:]
    serve(int(port), url, secret, path).serve_forever()
