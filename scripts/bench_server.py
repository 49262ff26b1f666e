"""boto3 against `queuelab serve` and moto's server, in the same run
(scripts/bench-server.sh starts both; docs/benchmarks.md has the figures).

For each server: send→receive→delete cycles per second (one client, one
at a time), long-poll wake-up latency (a receive waiting with
WaitTimeSeconds, then a send from another client: the time from the send
leaving to the receive returning, median of 20), and the server's
resident memory with 1,000,000 messages stored (sent in batches of ten
from 8 threads; 100-byte bodies), or with as many as it stored within
the budget (300 s unless `--budget` says otherwise).

    python bench_server.py NAME=URL:PID [NAME=URL:PID ...] [--messages N] [--budget S]
"""

import argparse
import statistics
import threading
import time

import boto3
import botocore.config

BODY = "x" * 100


def client(url):
    return boto3.client(
        "sqs",
        endpoint_url=url,
        region_name="us-east-1",
        aws_access_key_id="bench",
        aws_secret_access_key="bench",
        config=botocore.config.Config(max_pool_connections=16, retries={"max_attempts": 0}),
    )


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def cycles_per_second(url, n=1000):
    sqs = client(url)
    queue = sqs.create_queue(QueueName="bench-cycles")["QueueUrl"]
    start = time.perf_counter()
    for i in range(n):
        sqs.send_message(QueueUrl=queue, MessageBody=BODY)
        got = sqs.receive_message(QueueUrl=queue)["Messages"][0]
        sqs.delete_message(QueueUrl=queue, ReceiptHandle=got["ReceiptHandle"])
    return n / (time.perf_counter() - start)


def wake_up_ms(url, rounds=20):
    sender, receiver = client(url), client(url)
    queue = sender.create_queue(QueueName="bench-long-poll")["QueueUrl"]
    latencies = []
    for _ in range(rounds):
        returned = {}

        def wait():
            got = receiver.receive_message(QueueUrl=queue, WaitTimeSeconds=10)
            returned["at"] = time.perf_counter()
            for m in got.get("Messages", []):
                receiver.delete_message(QueueUrl=queue, ReceiptHandle=m["ReceiptHandle"])

        waiting = threading.Thread(target=wait)
        waiting.start()
        time.sleep(0.3)  # the receive is waiting on the server by now
        sent = time.perf_counter()
        sender.send_message(QueueUrl=queue, MessageBody="wake up")
        waiting.join()
        latencies.append((returned["at"] - sent) * 1000)
    return statistics.median(latencies)


def fill(url, pid, messages, budget_s, threads=8):
    sqs = client(url)
    queue = sqs.create_queue(QueueName="bench-stored")["QueueUrl"]
    before = rss_mib(pid)
    per_thread = messages // threads // 10
    start = time.perf_counter()
    sent = [0] * threads

    def send(k):
        own = client(url)
        entries = [{"Id": str(i), "MessageBody": BODY} for i in range(10)]
        for _ in range(per_thread):
            if time.perf_counter() - start > budget_s:
                return
            own.send_message_batch(QueueUrl=queue, Entries=entries)
            sent[k] += 10

    workers = [threading.Thread(target=send, args=(k,)) for k in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    seconds = time.perf_counter() - start
    stored = sqs.get_queue_attributes(QueueUrl=queue, AttributeNames=["ApproximateNumberOfMessages"])
    stored = int(stored["Attributes"]["ApproximateNumberOfMessages"])
    return {"stored": stored, "seconds": seconds, "rss_before": before, "rss_after": rss_mib(pid)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("servers", nargs="+", help="NAME=URL:PID")
    parser.add_argument("--messages", type=int, default=1_000_000)
    parser.add_argument("--budget", type=int, default=300, help="seconds each server gets to store them")
    args = parser.parse_args()
    for spec in args.servers:
        name, rest = spec.split("=", 1)
        url, pid = rest.rsplit(":", 1)
        cycles = cycles_per_second(url)
        wake = wake_up_ms(url)
        filled = fill(url, int(pid), args.messages, args.budget)
        print(
            f"{name}: {cycles:.0f} cycles/s; long-poll wake-up {wake:.1f} ms (median); "
            f"{filled['stored']:,} messages stored in {filled['seconds']:.0f} s "
            f"({filled['stored'] / filled['seconds']:.0f}/s), resident memory "
            f"{filled['rss_before']:.0f} MiB → {filled['rss_after']:.0f} MiB",
            flush=True,
        )


if __name__ == "__main__":
    main()
