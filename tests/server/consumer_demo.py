"""A two-thread consumer whose work outlasts its queue's visibility
timeout, as an SQS lesson's boto3 script writes it: the queue `orders`
hides a received message for 2 s, each worker takes 3.5 s to process
order A-1001, so the order is handed to the second worker while the
first still holds it (SQS's at-least-once delivery).

The endpoint is the only line a learner changes: moto's server in the
lesson, `queuelab serve` here (SQS_ENDPOINT, default moto's address).
Each worker signs with its own access key, which Queuelab shows as the
caller's name.
"""

import os
import threading
import time

import boto3

ENDPOINT = os.environ.get("SQS_ENDPOINT", "http://127.0.0.1:5000")


def client(name):
    return boto3.client(
        "sqs",
        endpoint_url=ENDPOINT,
        region_name="us-east-1",
        aws_access_key_id=name,
        aws_secret_access_key="demo",
    )


def worker(name, queue_url, log):
    sqs = client(name)
    got = sqs.receive_message(QueueUrl=queue_url, WaitTimeSeconds=20, MaxNumberOfMessages=1)
    for message in got.get("Messages", []):
        log.append(f"{name} received {message['Body']}")
        time.sleep(3.5)  # the work: longer than the visibility timeout
        sqs.delete_message(QueueUrl=queue_url, ReceiptHandle=message["ReceiptHandle"])
        log.append(f"{name} deleted {message['Body']}")


def main():
    sqs = client("producer")
    queue_url = sqs.create_queue(QueueName="orders", Attributes={"VisibilityTimeout": "2"})["QueueUrl"]
    log = []
    workers = [
        threading.Thread(target=worker, args=(name, queue_url, log))
        for name in ("worker-1", "worker-2")
    ]
    workers[0].start()
    time.sleep(0.2)
    workers[1].start()
    sqs.send_message(QueueUrl=queue_url, MessageBody="order A-1001")
    for w in workers:
        w.join()
    for line in log:
        print(line)


if __name__ == "__main__":
    main()
