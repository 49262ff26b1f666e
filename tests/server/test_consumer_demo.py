"""The lesson's consumer script, unchanged but for its endpoint, shows
the duplicate delivery it teaches: both workers hold order A-1001."""

import os
import subprocess
import sys
import unittest

from harness import Server


class ConsumerDemo(unittest.TestCase):
    def test_both_workers_receive_order_a_1001_when_work_outlasts_the_visibility_timeout(self):
        with Server() as server:
            env = dict(os.environ, SQS_ENDPOINT=server.url)
            script = os.path.join(os.path.dirname(__file__), "consumer_demo.py")
            out = subprocess.run(
                [sys.executable, script], env=env, capture_output=True, text=True, check=True
            ).stdout
            self.assertIn("worker-1 received order A-1001", out)
            self.assertIn("worker-2 received order A-1001", out)
            # The server saw the same: each worker's receive, named by its access key.
            calls = server.control("journal")["calls"]
            receivers = {c["caller"] for c in calls if c["op"] == "ReceiveMessage"}
            self.assertEqual(receivers, {"worker-1", "worker-2"})
            self.assertEqual(server.stop(), 0)
