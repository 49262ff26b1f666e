"""`pip install` of the wheel into a fresh virtual environment gives the
`queuelab` command, which serves SQS (and the page, when it was built in)."""

import pathlib
import subprocess
import sys
import tempfile
import unittest
import urllib.request

from harness import ROOT, Server


class Wheel(unittest.TestCase):
    def test_the_wheel_installs_into_a_fresh_environment_and_serves_sqs(self):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = pathlib.Path(tmp)
            subprocess.run([str(ROOT / "scripts/build-wheel.sh"), "--dev", str(tmp / "wheels")], check=True)
            wheel = next((tmp / "wheels").glob("queuelab-*.whl"))
            subprocess.run([sys.executable, "-m", "venv", str(tmp / "venv")], check=True)
            pip = tmp / "venv/bin/pip"
            subprocess.run([str(pip), "install", "--quiet", "--no-index", str(wheel)], check=True)
            with Server(binary=tmp / "venv/bin/queuelab") as server:
                sqs = server.client()
                url = sqs.create_queue(QueueName="from-the-wheel")["QueueUrl"]
                sqs.send_message(QueueUrl=url, MessageBody="hello")
                self.assertEqual(sqs.receive_message(QueueUrl=url)["Messages"][0]["Body"], "hello")
                if (ROOT / "web/pkg/queuelab_bg.wasm").is_file():
                    page = urllib.request.urlopen(server.url + "/").read().decode()
                    self.assertIn("<title>Queuelab", page)
                    wasm = urllib.request.urlopen(server.url + "/web/pkg/queuelab_bg.wasm")
                    self.assertEqual(wasm.status, 200)
                self.assertEqual(server.stop(), 0)
