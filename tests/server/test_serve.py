"""`queuelab serve` as a program: keeping a run across `kill -9`,
stopping gracefully, refusing bad starts in words, its help, and the
control API's refusals."""

import json
import socket
import subprocess
import tempfile
import threading
import unittest
import urllib.error
import urllib.request

from harness import BIN, Server


def run(*args):
    return subprocess.run([str(BIN), *args], capture_output=True, text=True, timeout=60)


class Persistence(unittest.TestCase):
    def test_a_message_answered_200_survives_kill_9_and_a_restart(self):
        with tempfile.TemporaryDirectory() as data:
            with Server("--data", data) as server:
                sqs = server.client()
                url = sqs.create_queue(QueueName="kept")["QueueUrl"]
                ids = [sqs.send_message(QueueUrl=url, MessageBody=f"m{i}")["MessageId"] for i in range(3)]
                fifo = sqs.create_queue(QueueName="kept.fifo", Attributes={"FifoQueue": "true"})
                sqs.send_message(
                    QueueUrl=fifo["QueueUrl"], MessageBody="f", MessageGroupId="g",
                    MessageDeduplicationId="d",
                )
                server.kill9()
            with Server("--data", data) as server:
                sqs = server.client()
                got = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]
                self.assertEqual(sorted(m["MessageId"] for m in got), sorted(ids))
                # Deduplication state came back too: the same id is still a duplicate.
                fifo_url = sqs.get_queue_url(QueueName="kept.fifo")["QueueUrl"]
                sqs.send_message(
                    QueueUrl=fifo_url, MessageBody="f", MessageGroupId="g",
                    MessageDeduplicationId="d",
                )
                attrs = sqs.get_queue_attributes(
                    QueueUrl=fifo_url, AttributeNames=["ApproximateNumberOfMessages"]
                )
                self.assertEqual(attrs["Attributes"]["ApproximateNumberOfMessages"], "1")
                self.assertEqual(server.stop(), 0)

    def test_a_received_message_stays_hidden_across_a_restart_until_its_timeout(self):
        with tempfile.TemporaryDirectory() as data:
            with Server("--data", data) as server:
                sqs = server.client()
                url = sqs.create_queue(QueueName="hidden", Attributes={"VisibilityTimeout": "600"})["QueueUrl"]
                sqs.send_message(QueueUrl=url, MessageBody="in flight")
                sqs.receive_message(QueueUrl=url)
                self.assertEqual(server.stop(), 0)
            with Server("--data", data) as server:
                sqs = server.client()
                self.assertNotIn("Messages", sqs.receive_message(QueueUrl=url))
                server.advance(600_000)
                self.assertEqual(sqs.receive_message(QueueUrl=url)["Messages"][0]["Body"], "in flight")

    def test_a_data_folder_refuses_another_scenario(self):
        with tempfile.TemporaryDirectory() as data:
            with Server("--data", data) as server:
                server.stop()
            scenario = str(BIN.parents[2] / "web/scenarios/02-slow-consumer-duplicate.json")
            refused = run("serve", "--port", "0", "--data", data, "--scenario", scenario)
            self.assertEqual(refused.returncode, 2)
            self.assertIn("holds a run started from another scenario", refused.stderr)


class Lifecycle(unittest.TestCase):
    def test_a_waiting_long_poll_is_answered_empty_when_the_server_stops(self):
        with Server() as server:
            sqs = server.client()
            url = sqs.create_queue(QueueName="waiting")["QueueUrl"]
            answers = []
            poll = threading.Thread(
                target=lambda: answers.append(sqs.receive_message(QueueUrl=url, WaitTimeSeconds=20))
            )
            poll.start()
            while server.control("status")["waitingPolls"] == 0:
                pass
            self.assertEqual(server.stop(), 0)
            poll.join()
            self.assertNotIn("Messages", answers[0])
            self.assertEqual(answers[0]["ResponseMetadata"]["HTTPStatusCode"], 200)

    def test_a_port_in_use_is_refused_in_words(self):
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            port = taken.getsockname()[1]
            refused = run("serve", "--port", str(port))
        self.assertEqual(refused.returncode, 2)
        self.assertIn(f"127.0.0.1:{port} is in use", refused.stderr)
        self.assertIn("--port", refused.stderr)

    def test_a_bad_flag_is_refused_in_words(self):
        refused = run("serve", "--speed", "0")
        self.assertEqual(refused.returncode, 2)
        self.assertIn("0 is outside 0.01 to 10000", refused.stderr)
        refused = run("serve", "--scenario", "/nonexistent.json")
        self.assertIn("cannot read the scenario /nonexistent.json", refused.stderr)

    def test_the_help_explains_every_flag(self):
        help_text = run("serve", "--help").stdout
        for flag in ["--host", "--port", "--region", "--account", "--speed", "--scenario",
                     "--seed", "--data", "--web"]:
            self.assertIn(flag, help_text)

    def test_a_scenario_starts_with_its_queues(self):
        scenario = str(BIN.parents[2] / "web/scenarios/02-slow-consumer-duplicate.json")
        with Server("--scenario", scenario, "--speed", "50") as server:
            urls = server.client().list_queues()["QueueUrls"]
            self.assertEqual(urls, [f"{server.url}/000000000000/orders"])


class Callers(unittest.TestCase):
    def test_an_access_key_of_twelve_digits_calls_as_that_account_and_needs_the_queues_permission(self):
        with Server() as server:
            owner, partner = server.client(), server.client(caller="111111111111")
            url = owner.create_queue(QueueName="shared")["QueueUrl"]
            with self.assertRaises(partner.exceptions.ClientError) as refused:
                partner.send_message(QueueUrl=url, MessageBody="from a partner")
            self.assertEqual(refused.exception.response["Error"]["Code"], "AccessDenied")
            owner.add_permission(
                QueueUrl=url, Label="partner", AWSAccountIds=["111111111111"], Actions=["SendMessage"]
            )
            partner.send_message(QueueUrl=url, MessageBody="from a partner")
            calls = server.control("journal")["calls"]
            self.assertEqual(calls[-1]["principal"], "111111111111")

    def test_the_same_seed_and_calls_give_the_same_ids(self):
        ids = []
        for _ in range(2):
            with Server("--seed", "42") as server:
                sqs = server.client()
                url = sqs.create_queue(QueueName="seeded")["QueueUrl"]
                ids.append(sqs.send_message(QueueUrl=url, MessageBody="x")["MessageId"])
        self.assertEqual(ids[0], ids[1])


class Control(unittest.TestCase):
    def test_advance_pause_and_resume_move_virtual_time_as_asked(self):
        with Server() as server:
            paused = server.control("pause", "POST")
            self.assertTrue(paused["paused"])
            jumped = server.advance(30_000)
            self.assertEqual(jumped["now"], paused["now"] + 30_000)
            self.assertEqual(server.control("status")["now"], jumped["now"])
            self.assertFalse(server.control("resume", "POST")["paused"])

    def test_the_events_stream_shows_a_call_as_it_happens(self):
        with Server() as server:
            stream = urllib.request.urlopen(server.url + "/_queuelab/events", timeout=30)
            sqs = server.client()
            url = sqs.create_queue(QueueName="streamed")["QueueUrl"]
            sent = sqs.send_message(QueueUrl=url, MessageBody="x")["MessageId"]
            for line in stream:
                if line.startswith(b"data:") and sent.encode() in line:
                    break
            stream.close()

    def test_the_live_journal_streams_the_calls_with_the_runs_moment(self):
        with Server() as server:
            server.client().create_queue(QueueName="journaled")
            stream = urllib.request.urlopen(server.url + "/_queuelab/journal/live", timeout=30)
            for line in stream:
                if line.startswith(b"data:"):
                    journal = json.loads(line[5:])
                    break
            stream.close()
            self.assertEqual(journal["calls"][0]["op"], "CreateQueue")
            self.assertGreaterEqual(journal["now"], journal["calls"][0]["t"])

    def test_a_bad_advance_is_refused_naming_its_parameter(self):
        with Server() as server:
            with self.assertRaises(urllib.error.HTTPError) as refused:
                server.control("advance?ms=soon", "POST")
            self.assertEqual(refused.exception.code, 400)
            self.assertIn(b"ms must be a whole number", refused.exception.read())
