"""End-to-end tests of chatbot.py against bizmsg-mock, standard library only. The mock runs in
its own process (as the real service would), and the tests steer and inspect it through its
control API under /_bizmsg/.

Run: python3 -m unittest test_chatbot   (BIZMSG_MOCK, a JSON list, is the command that starts
the mock; by default ["npx", "bizmsg-mock"])"""

import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
MOCK = json.loads(os.environ.get("BIZMSG_MOCK", '["npx", "bizmsg-mock"]'))
SECRET = "whsec_chatbot"
CUSTOMER = "+4915112345678"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http(method, url, body=None):
    data = json.dumps(body).encode() if body is not None else None
    headers = {"content-type": "application/json"} if body is not None else {}
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        text = response.read()
        return json.loads(text) if text else None


class ChatbotTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        app_port = free_port()
        # Seed data the mock starts with, and returns to on every reset: the chatbot's endpoint.
        seed = {"seed": {"webhooks": [{"url": "http://127.0.0.1:%d/webhooks" % app_port, "events": ["message.received"], "secret": SECRET}]}}
        cls.seed_file = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
        json.dump(seed, cls.seed_file)
        cls.seed_file.close()
        cls.mock = subprocess.Popen(MOCK + ["--port", "0", "--variant", "2", "--quiet", "--seed-file", cls.seed_file.name], stdout=subprocess.PIPE, text=True)
        banner = ""
        while "Try: curl" not in banner:
            banner += cls.mock.stdout.readline()
        cls.base_url = re.search(r"listening on (\S+)", banner).group(1)
        cls.control = cls.base_url.replace("/api/v1", "/_bizmsg")
        env = dict(os.environ, BIZMSG_BASE_URL=cls.base_url, BIZMSG_API_KEY=re.search(r"API key: (\S+)", banner).group(1), BIZMSG_WEBHOOK_SECRET=SECRET, PORT=str(app_port))
        cls.app = subprocess.Popen([sys.executable, os.path.join(HERE, "chatbot.py")], env=env)
        cls.app_url = "http://127.0.0.1:%d" % app_port
        for _ in range(50):
            try:
                socket.create_connection(("127.0.0.1", app_port), timeout=0.1).close()
                break
            except OSError:
                time.sleep(0.1)

    @classmethod
    def tearDownClass(cls):
        cls.app.terminate()
        cls.mock.terminate()
        cls.app.wait()
        cls.mock.wait()
        cls.mock.stdout.close()
        os.unlink(cls.seed_file.name)

    def setUp(self):
        http("POST", self.control + "/reset")

    def sent(self):
        """What the chatbot sent through the service, from the mock's request journal."""
        journal = http("GET", self.control + "/requests?method=POST&path=/messages/send")
        return [entry["body"]["content"] for entry in journal if entry["status"] == 200]

    def test_greets_a_new_signup_with_the_welcome_template(self):
        http("POST", self.app_url + "/signup", {"name": "Ada", "phone": CUSTOMER})
        self.assertEqual(self.sent(), [{"name": "welcome", "language": "en", "components": []}])
        contacts = http("GET", self.control + "/state")["contacts"]
        self.assertEqual([(c["name"], c["phone"]) for c in contacts], [("Ada", CUSTOMER)])

    def test_answers_what_a_customer_writes(self):
        # A customer writes: the mock delivers message.received, signed, to the chatbot.
        http("POST", self.control + "/inbound", {"from": CUSTOMER, "body": "Where is my order?"})
        self.assertEqual(self.sent(), [{"body": "Thanks! We got: Where is my order?"}])

    def test_retries_a_delivery_the_chatbot_could_not_handle(self):
        # The service fails the reply once: the chatbot answers 500, and the delivery is retried a minute later.
        http("POST", self.control + "/faults", {"route": "POST /messages/send", "status": 502})
        http("POST", self.control + "/inbound", {"from": CUSTOMER, "body": "Hello?"})
        self.assertEqual(self.sent(), [])
        attempt = http("GET", self.control + "/deliveries")[-1]
        self.assertEqual((attempt["status"], attempt["nextRetryAt"] - attempt["at"]), (500, 60000))
        http("POST", self.control + "/clock/advance", {"ms": 60000})
        self.assertEqual(self.sent(), [{"body": "Thanks! We got: Hello?"}])


if __name__ == "__main__":
    unittest.main()
