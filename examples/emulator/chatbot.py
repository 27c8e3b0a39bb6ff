"""A chatbot in Python (standard library only), the app under test of test_chatbot.py: it greets
every sign-up with the `welcome` template and answers every message a customer writes. It talks
to the Business Messaging Service (Variant 2) at BIZMSG_BASE_URL with BIZMSG_API_KEY, and takes
the service's webhooks at POST /webhooks, signed with BIZMSG_WEBHOOK_SECRET.

Run: BIZMSG_BASE_URL=... BIZMSG_API_KEY=... BIZMSG_WEBHOOK_SECRET=... PORT=3000 python3 chatbot.py"""

import hashlib
import hmac
import http.server
import json
import os
import urllib.error
import urllib.request

BASE_URL = os.environ["BIZMSG_BASE_URL"]
API_KEY = os.environ["BIZMSG_API_KEY"]
SECRET = os.environ["BIZMSG_WEBHOOK_SECRET"].encode()


def service(method, path, body):
    """One call to the service; raises urllib.error.HTTPError on an error answer."""
    request = urllib.request.Request(
        BASE_URL + path,
        data=json.dumps(body).encode(),
        method=method,
        headers={"authorization": "Bearer " + API_KEY, "content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())["data"]


def send(to, content):
    kind = "template" if "name" in content else "text"
    return service("POST", "/messages/send", {"to": to, "messaging_account_id": 1, "type": kind, "content": content})


class Chatbot(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", 0)))
        if self.path == "/signup":
            user = json.loads(body)
            contact = service("POST", "/contacts", {"name": user["name"], "phone": user["phone"]})
            send(contact["phone"], {"name": "welcome", "language": "en", "components": []})
            return self.answer(201, {"contact": contact["id"]})
        if self.path == "/webhooks":
            # The signature covers the raw bytes: check it before parsing, in constant time.
            expected = "sha256=" + hmac.new(SECRET, body, hashlib.sha256).hexdigest()
            if not hmac.compare_digest(self.headers.get("x-service-signature", ""), expected):
                return self.answer(401, {"error": "bad signature"})
            event = json.loads(body)
            if event["event"] == "message.received":
                try:
                    send("+" + event["data"]["from"], {"body": "Thanks! We got: " + event["data"]["body"]})
                except urllib.error.HTTPError as error:
                    # Not handled: a non-2xx makes the service deliver the event again later.
                    return self.answer(500, {"error": "reply failed with %d" % error.code})
            return self.answer(200, {"received": True})
        self.answer(404, {"error": "no route"})

    def answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    http.server.ThreadingHTTPServer(("127.0.0.1", int(os.environ.get("PORT", 3000))), Chatbot).serve_forever()
