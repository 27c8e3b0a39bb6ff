"""End-to-end test of bizmsg-mock from Python, standard library only: what a Python service's
test suite does with the emulator. Run by test/mock/emulator/python.soak.test.ts (npm test), which
passes the command that starts bizmsg-mock in BIZMSG_MOCK_CMD (a JSON list)."""

import hashlib
import hmac
import http.server
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

MOCK_CMD = json.loads(os.environ["BIZMSG_MOCK_CMD"])
KINDS = [
    "message.received", "message.sent", "message.delivered", "message.read", "message.failed",
    "conversation.created", "conversation.closed", "contact.created", "contact.updated", "campaign.completed",
]
SECRET = "whsec_python"
CHECKS = 0


def check(condition, what):
    global CHECKS
    if not condition:
        raise AssertionError(what)
    CHECKS += 1


class Mock:
    """A bizmsg-mock process and what it printed at start."""

    def __init__(self, *args):
        self.process = subprocess.Popen(
            MOCK_CMD + ["--port", "0", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        self.banner = ""
        while "Try: curl" not in self.banner:
            line = self.process.stdout.readline()
            if line == "":
                raise AssertionError("bizmsg-mock exited: " + self.process.stderr.read())
            self.banner += line
        self.url = re.search(r"listening on (\S+)", self.banner).group(1)
        self.origin = self.url.rsplit("/api/v1", 1)[0]
        self.key = re.search(r"API key: (\S+)", self.banner).group(1)
        token = re.search(r"Control token: (\S+)", self.banner)
        self.token = token.group(1) if token else None
        self.port = int(self.url.split(":")[2].split("/")[0])

    def printed(self, name):
        found = re.search(name + r": (\S+)", self.banner)
        return found.group(1) if found else None

    def control(self, method, path, body=None, token=None, origin=None):
        """A call to the control API: (status, JSON answer)."""
        headers = {"content-type": "application/json"} if body is not None else {}
        if token:
            headers["authorization"] = "Bearer " + token
        data = json.dumps(body).encode() if body is not None else None
        url = (origin or self.origin) + "/_bizmsg" + path
        return call(urllib.request.Request(url, data=data, method=method, headers=headers))

    def api(self, method, path, body=None):
        """A call to the service, as the app under test makes it (Variant 1: X-API-Key)."""
        headers = {"x-api-key": self.key}
        data = None
        if body is not None:
            headers["content-type"] = "application/json"
            data = json.dumps(body).encode()
        return call(urllib.request.Request(self.url + path, data=data, method=method, headers=headers))

    def stop(self):
        self.process.terminate()
        code = self.process.wait(timeout=10)
        self.process.stdout.close()
        self.process.stderr.close()
        return code


def call(request):
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            text = response.read().decode()
            return response.status, json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        text = error.read().decode()
        return error.code, json.loads(text) if text else None


class Receiver:
    """The app's webhook endpoint: records each delivery, checks its signature, answers per path."""

    def __init__(self):
        self.received = []
        self.statuses = {}
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["content-length"]))
                receiver.received.append((self.path, self.headers.get("x-service-signature"), body))
                status = receiver.statuses.get(self.path, 200)
                self.send_response(status)
                self.send_header("content-length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = "http://127.0.0.1:%d" % self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def events(self, path=None):
        return [json.loads(body)["event"] for p, _, body in self.received if path is None or p == path]


def signed(signature, body, secret):
    digest = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return signature is not None and hmac.compare_digest(signature, "sha256=" + digest)


def message_status(state, message_id):
    return [m["status"] for m in state["messages"] if m["id"] == message_id][0]


def port_free(port):
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) != 0


def main():
    receiver = Receiver()
    seed = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
    json.dump({"variant": 1, "seed": {"contacts": [{"name": "Ada", "phone": "+4915112345678"}]}}, seed)
    seed.close()
    mock = Mock("--seed-file", seed.name, "--quiet")

    status, health = mock.control("GET", "/health")
    check(status == 200 and health["variant"] == 1 and health["baseUrl"] == mock.url, "health")

    # Variant 1 has no API to register a webhook: the control API does it, and deliveries are signed.
    status, endpoint = mock.control("POST", "/webhooks", {"url": receiver.origin + "/hooks", "events": KINDS, "secret": SECRET})
    check(status == 201 and endpoint["status"] == "active", "webhook registered in Variant 1")
    status, sent = mock.api("POST", "/messages/send", {"to": "+4915112345678", "message": "Your order shipped"})
    check(status == 200 and sent["data"]["message_id"] == "msg_1", "the app sends a message")
    mock.control("POST", "/clock/advance", {"ms": 5000})
    # conversation.created and message.sent happen at once and are POSTed side by side: either may land first.
    events = receiver.events("/hooks")
    check(sorted(events[:2]) == ["conversation.created", "message.sent"] and events[2:] == ["message.delivered", "message.read"], "lifecycle events on the clock: %r" % events)
    check(all(signed(sig, body, SECRET) for _, sig, body in receiver.received), "every delivery signed with the secret")

    # A customer writes back.
    status, inbound = mock.control("POST", "/inbound", {"from": "+4915112345678", "body": "Where is it?"})
    check(status == 201 and inbound["direction"] == "inbound", "inbound message")
    check(receiver.events("/hooks")[-1] == "message.received", "message.received delivered")
    received = json.loads(receiver.received[-1][2])["data"]
    check(received["body"] == "Where is it?" and received["from"] == "4915112345678", "message.received data")

    # The journal: what the app sent, the key redacted.
    status, journal = mock.control("GET", "/requests?method=POST&path=/messages/send")
    check(status == 200 and len(journal) == 1, "journal filtered")
    check(journal[0]["body"] == {"to": "+4915112345678", "message": "Your order shipped"}, "journal keeps the body")
    check(journal[0]["headers"]["x-api-key"] == "[REDACTED]" and mock.key not in json.dumps(journal), "journal never shows the key")

    # The whole retry schedule, in seconds, to a disabled endpoint and an e-mail.
    receiver.statuses["/down"] = 500
    status, down = mock.control("POST", "/webhooks", {"url": receiver.origin + "/down", "events": ["contact.created"], "secret": SECRET})
    status, attempts = mock.control("POST", "/events", {"event": "contact.created", "endpointId": down["id"]})
    check(status == 200 and attempts[0]["attempt"] == 1 and attempts[0]["status"] == 500 and attempts[0]["nextRetryAt"] - attempts[0]["at"] == 60000, "first attempt fails")
    for ms in (60000, 300000, 1800000, 7200000, 86400000):
        mock.control("POST", "/clock/advance", {"ms": ms})
    status, state = mock.control("GET", "/state")
    down_state = [w for w in state["webhooks"] if w["id"] == down["id"]][0]
    check(down_state["status"] == "disabled", "endpoint disabled after the 5th retry")
    check(len(receiver.events("/down")) == 6, "six attempts in all")
    check(state["emails"][0]["subject"] == "Webhook endpoint %s/down disabled" % receiver.origin, "the owner's e-mail")

    # Redeliver an attempt.
    status, deliveries = mock.control("GET", "/deliveries")
    first = deliveries[0]
    status, again = mock.control("POST", "/deliveries/%d/redeliver" % first["id"])
    check(status == 200 and again["redeliveryOf"] == first["id"] and again["request"]["body"] == first["request"]["body"], "redelivered")

    # Emit each of the 10 kinds.
    for kind in KINDS:
        status, attempts = mock.control("POST", "/events", {"event": kind, "endpointId": endpoint["id"]})
        check(status == 200 and [a["ok"] for a in attempts] == [True], "emit " + kind)

    # Faults: a status, a delay, a network error.
    mock.control("POST", "/faults", {"route": "GET /account/me", "status": 503, "code": "SERVICE_UNAVAILABLE"})
    status, body = mock.api("GET", "/account/me")
    check(status == 503 and body["error"]["code"] == "SERVICE_UNAVAILABLE", "injected status")
    mock.control("POST", "/faults", {"route": "GET /account/me", "delay": 300})
    started = time.monotonic()
    status, _ = mock.api("GET", "/account/me")
    check(status == 200 and time.monotonic() - started >= 0.29, "injected delay")
    mock.control("POST", "/faults", {"route": "GET /account/me", "networkError": True})
    try:
        mock.api("GET", "/account/me")
        check(False, "injected network error")
    except (urllib.error.URLError, ConnectionError, http.client.HTTPException):
        check(True, "injected network error")

    # Bad input: a 4xx naming the field, nothing changed.
    status, error = mock.control("POST", "/inbound", {"from": "not a phone", "body": "x"})
    check(status == 400 and error["error"]["details"] == {"from": ["must be an international number: 8 to 15 digits, not starting with 0, with or without a leading +"]}, "bad input named")

    # A stopped clock: the app's message stays `sent` however long real time goes, until advanced.
    status, stopped = mock.control("POST", "/clock/stop")
    check(status == 200 and set(stopped) == {"now"}, "clock stopped: %r" % stopped)
    status, sent = mock.api("POST", "/messages/send", {"to": "+4915112345678", "message": "Frozen"})
    frozen = sent["data"]["message_id"]
    time.sleep(1.2)  # past the 1 s a running clock takes to deliver it
    status, state = mock.control("GET", "/state")
    check(state["now"] == stopped["now"] and message_status(state, frozen) == "sent", "still sent on a stopped clock")
    status, advanced = mock.control("POST", "/clock/advance", {"ms": 1000})
    status, state = mock.control("GET", "/state")
    check(message_status(state, frozen) == "delivered" and state["now"] == advanced["now"], "advance delivers it")
    status, started = mock.control("POST", "/clock/start")
    check(status == 200 and started["now"] >= advanced["now"], "clock started")
    mock.control("POST", "/clock/stop")

    # Reset: back to the seed file, the clock running at real time again.
    status, _ = mock.control("POST", "/reset")
    status, state = mock.control("GET", "/state")
    check(status == 200 and [c["name"] for c in state["contacts"]] == ["Ada"] and state["webhooks"] == [], "reset to the seed")
    time.sleep(0.05)
    check(mock.control("GET", "/health")[1]["now"] > state["now"], "a reset lets a stopped clock run")

    # --forward-to: the `stripe listen` loop.
    forward = Mock("--forward-to", receiver.origin + "/forward", "--events", "message.received")
    secret = forward.printed("Signing secret")
    forward.control("POST", "/inbound", {"from": "+4915112345678", "body": "hi"})
    check(receiver.events("/forward") == ["message.received"], "forwarded")
    check(signed(receiver.received[-1][1], receiver.received[-1][2], secret), "signed with the printed secret")

    # SIGTERM: exit code 0, the port freed.
    check(forward.stop() == 0 and port_free(forward.port), "SIGTERM stops it")

    # emit --to, no server.
    run = subprocess.run(MOCK_CMD + ["emit", "contact.created", "--to", receiver.origin + "/once", "--secret", "s1"], capture_output=True, text=True, timeout=20)
    check(run.returncode == 0 and signed(receiver.received[-1][1], receiver.received[-1][2], "s1"), "emit --to")

    # A non-loopback bind needs the control token it prints.
    shared = Mock("--host", "0.0.0.0")
    loopback = shared.origin.replace("0.0.0.0", "127.0.0.1")
    status, _ = shared.control("GET", "/health", origin=loopback)
    check(status == 401 and shared.token, "token required")
    status, _ = shared.control("GET", "/health", token=shared.token, origin=loopback)
    check(status == 200, "token accepted")
    shared.stop()

    mock.stop()
    receiver.server.shutdown()
    os.unlink(seed.name)
    print("python e2e: %d checks passed" % CHECKS)


if __name__ == "__main__":
    import http.client  # noqa: E402 (for the network error's class)

    main()
