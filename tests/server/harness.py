"""Starting `queuelab serve` for a test, as a user would, and talking to it.

`Server(...)` starts the binary on a free port (`--port 0`) and reads the
address from the line it prints first; `stop()` sends SIGTERM (a graceful
stop), `kill9()` kills it outright. `client()` makes a boto3 SQS client
for it, over SQS's JSON protocol (boto3's own) or, with
`wire="query"`, the query protocol: botocore reads the service model
from `AWS_DATA_PATH` first, and the folder `query_model()` names holds
SQS's last query-protocol model (setup.sh extracts it from botocore
1.34.89's wheel).
"""

import json
import os
import pathlib
import signal
import subprocess
import tempfile
import urllib.request

import boto3
import botocore.config
import botocore.session

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = pathlib.Path(os.environ.get("QUEUELAB_BIN", ROOT / "target/debug/queuelab"))


def query_model():
    """The folder to put on botocore's data path for the query protocol."""
    return str(ROOT / "target/pyenv/query-model")


class Server:
    def __init__(self, *args, binary=BIN):
        self.args = ["serve", "--port", "0", *args]
        self.binary = str(binary)
        self.start()

    def start(self):
        # Its log goes to a file: a pipe nobody reads could fill and stop it.
        self.log = tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen(
            [self.binary, *self.args], stdout=subprocess.PIPE, stderr=self.log, text=True
        )
        line = self.proc.stdout.readline()
        if not line.startswith("Queuelab SQS endpoint: "):
            self.proc.wait(timeout=60)
            self.log.seek(0)
            raise RuntimeError(f"the server did not start: {line!r} {self.log.read()}")
        self.url = line.split(": ", 1)[1].strip().rstrip("/")

    def client(self, caller="learner", wire="json", **kwargs):
        session = botocore.session.Session()
        if wire == "query":
            session.set_config_variable("data_path", query_model())
        client = boto3.Session(botocore_session=session).client(
            "sqs",
            endpoint_url=self.url,
            region_name="us-east-1",
            aws_access_key_id=caller,
            aws_secret_access_key="anything",
            config=botocore.config.Config(retries={"max_attempts": 1}),
            **kwargs,
        )
        assert client.meta.service_model.protocol == wire
        return client

    def control(self, path, method="GET"):
        request = urllib.request.Request(self.url + "/_queuelab/" + path, method=method)
        with urllib.request.urlopen(request) as answer:
            return json.loads(answer.read())

    def advance(self, ms):
        return self.control(f"advance?ms={ms}", "POST")

    def stop(self):
        """A graceful stop (SIGTERM); its exit code."""
        self.proc.send_signal(signal.SIGTERM)
        return self.wait()

    def kill9(self):
        self.proc.kill()
        self.wait()

    def wait(self):
        code = self.proc.wait(timeout=60)
        self.proc.stdout.close()
        self.log.close()
        return code

    def __enter__(self):
        return self

    def __exit__(self, *_):
        if self.proc.poll() is None:
            self.kill9()
