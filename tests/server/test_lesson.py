"""A scripted SQS lesson through boto3, unchanged but for its endpoint:
every operation, FIFO, a dead-letter queue and long polling, against
`queuelab serve`. It runs twice: over SQS's JSON protocol (what boto3
speaks today) and over the query protocol (what older SDKs, the AWS
CLI's older versions and many tutorials speak)."""

import threading
import unittest

from harness import Server


class Lesson:
    wire = "json"

    @classmethod
    def setUpClass(cls):
        cls.server = Server("--seed", "7")
        cls.sqs = cls.server.client(wire=cls.wire)

    @classmethod
    def tearDownClass(cls):
        assert cls.server.stop() == 0

    def queue(self, name, **attributes):
        attributes = {k: str(v) for k, v in attributes.items()}
        return self.sqs.create_queue(QueueName=name, Attributes=attributes)["QueueUrl"]

    def test_a_queue_is_created_found_listed_and_named_at_this_server(self):
        url = self.queue("lesson-orders")
        self.assertEqual(url, f"{self.server.url}/000000000000/lesson-orders")
        self.assertEqual(self.sqs.get_queue_url(QueueName="lesson-orders")["QueueUrl"], url)
        self.assertIn(url, self.sqs.list_queues(QueueNamePrefix="lesson-")["QueueUrls"])

    def test_attributes_are_read_and_set(self):
        url = self.queue("lesson-attributes", VisibilityTimeout=5)
        self.sqs.set_queue_attributes(QueueUrl=url, Attributes={"DelaySeconds": "3"})
        got = self.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
        self.assertEqual((got["VisibilityTimeout"], got["DelaySeconds"]), ("5", "3"))
        self.assertTrue(got["QueueArn"].endswith(":000000000000:lesson-attributes"))

    def test_tags_are_added_listed_and_removed(self):
        url = self.queue("lesson-tags")
        self.sqs.tag_queue(QueueUrl=url, Tags={"team": "payments", "env": "lab"})
        self.sqs.untag_queue(QueueUrl=url, TagKeys=["env"])
        self.assertEqual(self.sqs.list_queue_tags(QueueUrl=url)["Tags"], {"team": "payments"})

    def test_a_permission_is_added_and_removed(self):
        url = self.queue("lesson-permissions")
        self.sqs.add_permission(
            QueueUrl=url, Label="lab", AWSAccountIds=["111111111111"], Actions=["SendMessage"]
        )
        policy = self.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["Policy"])
        self.assertIn('"Sid":"lab"', policy["Attributes"]["Policy"].replace(" ", ""))
        self.sqs.remove_permission(QueueUrl=url, Label="lab")

    def test_a_message_is_sent_received_with_its_attributes_and_deleted(self):
        url = self.queue("lesson-messages")
        sent = self.sqs.send_message(
            QueueUrl=url,
            MessageBody="order A-1001 & co",
            MessageAttributes={
                "kind": {"DataType": "String", "StringValue": "order"},
                "blob": {"DataType": "Binary", "BinaryValue": b"\x01\x02"},
            },
        )
        got = self.sqs.receive_message(
            QueueUrl=url, AttributeNames=["All"], MessageAttributeNames=["All"]
        )["Messages"][0]
        self.assertEqual(got["MessageId"], sent["MessageId"])
        self.assertEqual(got["Body"], "order A-1001 & co")
        self.assertEqual(got["MessageAttributes"]["blob"]["BinaryValue"], b"\x01\x02")
        self.assertEqual(got["Attributes"]["ApproximateReceiveCount"], "1")
        self.sqs.delete_message(QueueUrl=url, ReceiptHandle=got["ReceiptHandle"])
        self.assertNotIn("Messages", self.sqs.receive_message(QueueUrl=url))

    def test_batches_send_change_visibility_and_delete_and_report_a_failed_entry(self):
        url = self.queue("lesson-batches")
        entries = [{"Id": str(i), "MessageBody": f"m{i}"} for i in range(3)]
        entries.append({"Id": "late", "MessageBody": "x", "DelaySeconds": 901})
        sent = self.sqs.send_message_batch(QueueUrl=url, Entries=entries)
        self.assertEqual(len(sent["Successful"]), 3)
        self.assertEqual(sent["Failed"][0]["Id"], "late")
        self.assertEqual(sent["Failed"][0]["Code"], "InvalidParameterValue")
        got = self.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]
        handles = [{"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]} for i, m in enumerate(got)]
        changed = self.sqs.change_message_visibility_batch(
            QueueUrl=url, Entries=[dict(h, VisibilityTimeout=60) for h in handles]
        )
        self.assertEqual(len(changed["Successful"]), len(got))
        deleted = self.sqs.delete_message_batch(QueueUrl=url, Entries=handles)
        self.assertEqual(len(deleted["Successful"]), len(got))

    def test_a_message_comes_back_when_its_visibility_timeout_ends(self):
        url = self.queue("lesson-visibility", VisibilityTimeout=30)
        self.sqs.send_message(QueueUrl=url, MessageBody="slow work")
        first = self.sqs.receive_message(QueueUrl=url)["Messages"][0]
        self.sqs.change_message_visibility(
            QueueUrl=url, ReceiptHandle=first["ReceiptHandle"], VisibilityTimeout=40
        )
        self.assertNotIn("Messages", self.sqs.receive_message(QueueUrl=url))
        # Skip the wait instead of sleeping through it.
        self.server.advance(41_000)
        again = self.sqs.receive_message(QueueUrl=url, AttributeNames=["ApproximateReceiveCount"])
        self.assertEqual(again["Messages"][0]["Attributes"]["ApproximateReceiveCount"], "2")
        self.assertNotEqual(again["Messages"][0]["ReceiptHandle"], first["ReceiptHandle"])

    def test_a_long_poll_is_answered_when_a_message_arrives(self):
        url = self.queue("lesson-long-poll")
        later = threading.Timer(0.3, lambda: self.sqs.send_message(QueueUrl=url, MessageBody="hi"))
        later.start()
        got = self.sqs.receive_message(QueueUrl=url, WaitTimeSeconds=20)
        later.join()
        self.assertEqual(got["Messages"][0]["Body"], "hi")

    def test_a_long_poll_on_an_empty_queue_ends_empty_when_its_wait_ends(self):
        url = self.queue("lesson-empty-poll")
        got = self.sqs.receive_message(QueueUrl=url, WaitTimeSeconds=1)
        self.assertNotIn("Messages", got)

    def test_a_fifo_queue_keeps_a_groups_order_and_drops_a_duplicate(self):
        url = self.queue("lesson.fifo", FifoQueue="true")
        for body, dedup in [("first", "a"), ("second", "b"), ("first again", "a")]:
            self.sqs.send_message(
                QueueUrl=url, MessageBody=body, MessageGroupId="g", MessageDeduplicationId=dedup
            )
        got = self.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]
        self.assertEqual([m["Body"] for m in got], ["first", "second"])

    def test_a_message_received_too_often_moves_to_the_dead_letter_queue_and_back(self):
        dlq = self.queue("lesson-dlq")
        dlq_arn = self.sqs.get_queue_attributes(QueueUrl=dlq, AttributeNames=["QueueArn"])
        dlq_arn = dlq_arn["Attributes"]["QueueArn"]
        policy = '{"deadLetterTargetArn":"%s","maxReceiveCount":"1"}' % dlq_arn
        url = self.queue("lesson-source", VisibilityTimeout=1, RedrivePolicy=policy)
        self.sqs.send_message(QueueUrl=url, MessageBody="poison")
        self.sqs.receive_message(QueueUrl=url)
        self.server.advance(1_500)
        self.assertNotIn("Messages", self.sqs.receive_message(QueueUrl=url))
        self.assertEqual(self.sqs.list_dead_letter_source_queues(QueueUrl=dlq)["queueUrls"], [url])
        source_arn = dlq_arn.replace("lesson-dlq", "lesson-source")
        self.sqs.start_message_move_task(SourceArn=dlq_arn, DestinationArn=source_arn)
        self.server.advance(2_000)
        moved = self.sqs.list_message_move_tasks(SourceArn=dlq_arn)["Results"][0]
        self.assertEqual((moved["Status"], moved["ApproximateNumberOfMessagesMoved"]), ("COMPLETED", 1))

    def test_a_running_move_task_is_cancelled(self):
        dlq = self.queue("lesson-dlq-2")
        arn = self.sqs.get_queue_attributes(QueueUrl=dlq, AttributeNames=["QueueArn"])
        arn = arn["Attributes"]["QueueArn"]
        policy = '{"deadLetterTargetArn":"%s","maxReceiveCount":"5"}' % arn
        self.queue("lesson-source-2", RedrivePolicy=policy)
        for i in range(5):
            self.sqs.send_message(QueueUrl=dlq, MessageBody=f"m{i}")
        task = self.sqs.start_message_move_task(SourceArn=arn, MaxNumberOfMessagesPerSecond=1)
        cancelled = self.sqs.cancel_message_move_task(TaskHandle=task["TaskHandle"])
        self.assertIn("ApproximateNumberOfMessagesMoved", cancelled)

    def test_a_purge_empties_and_a_deleted_queue_is_gone(self):
        url = self.queue("lesson-purge")
        self.sqs.send_message(QueueUrl=url, MessageBody="x")
        self.sqs.purge_queue(QueueUrl=url)
        self.assertNotIn("Messages", self.sqs.receive_message(QueueUrl=url))
        self.sqs.delete_queue(QueueUrl=url)
        with self.assertRaises(self.sqs.exceptions.QueueDoesNotExist):
            self.sqs.get_queue_url(QueueName="lesson-purge")

    def test_an_invalid_value_is_refused_with_sqss_error(self):
        url = self.queue("lesson-errors")
        with self.assertRaises(self.sqs.exceptions.ClientError) as refused:
            self.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=11)
        self.assertEqual(refused.exception.response["Error"]["Code"], "InvalidParameterValue")


class JsonLesson(Lesson, unittest.TestCase):
    wire = "json"


class QueryLesson(Lesson, unittest.TestCase):
    wire = "query"
