"""The AWS CLI (v1, from PyPI) against `queuelab serve`, unchanged but
for `--endpoint-url`: over the JSON protocol it speaks today, and over
the query protocol its older versions spoke."""

import json
import os
import pathlib
import subprocess
import sys
import unittest

from harness import Server, query_model

AWS = pathlib.Path(sys.executable).parent / "aws"


class AwsCli:
    wire = "json"

    def aws(self, *args):
        env = dict(
            os.environ,
            AWS_ACCESS_KEY_ID="cli-user",
            AWS_SECRET_ACCESS_KEY="anything",
            AWS_DEFAULT_REGION="us-east-1",
        )
        if self.wire == "query":
            env["AWS_DATA_PATH"] = query_model()
        out = subprocess.run(
            [str(AWS), "sqs", *args, "--endpoint-url", self.server.url, "--output", "json"],
            env=env, capture_output=True, text=True, check=True,
        ).stdout
        return json.loads(out) if out.strip() else None

    def setUp(self):
        self.server = Server()

    def tearDown(self):
        self.assertEqual(self.server.stop(), 0)

    def test_the_cli_creates_sends_receives_reads_attributes_and_deletes(self):
        url = self.aws("create-queue", "--queue-name", "cli-orders",
                       "--attributes", "VisibilityTimeout=45")["QueueUrl"]
        self.assertEqual(url, f"{self.server.url}/000000000000/cli-orders")
        sent = self.aws("send-message", "--queue-url", url, "--message-body", "order A-1001")
        got = self.aws("receive-message", "--queue-url", url, "--attribute-names", "All")
        message = got["Messages"][0]
        self.assertEqual((message["MessageId"], message["Body"]), (sent["MessageId"], "order A-1001"))
        attrs = self.aws("get-queue-attributes", "--queue-url", url, "--attribute-names", "All")
        self.assertEqual(attrs["Attributes"]["VisibilityTimeout"], "45")
        self.assertEqual(attrs["Attributes"]["ApproximateNumberOfMessagesNotVisible"], "1")
        self.aws("delete-message", "--queue-url", url, "--receipt-handle", message["ReceiptHandle"])
        attrs = self.aws("get-queue-attributes", "--queue-url", url,
                         "--attribute-names", "ApproximateNumberOfMessagesNotVisible")
        self.assertEqual(attrs["Attributes"]["ApproximateNumberOfMessagesNotVisible"], "0")
        callers = {c["caller"] for c in self.server.control("journal")["calls"]}
        self.assertEqual(callers, {"cli-user"})


class AwsCliJson(AwsCli, unittest.TestCase):
    wire = "json"


class AwsCliQuery(AwsCli, unittest.TestCase):
    wire = "query"
