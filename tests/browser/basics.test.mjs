// The basic lessons (scenarios 11–15), the neighbours that send (16–17),
// the access and encryption ones (18–20) and Lambda's poller and CloudWatch's
// alarms (21–25) as a learner plays them: each pauses
// at its checkpoint, takes the prediction the run makes true, plays to its
// end, and its recap says what the run cost in the meter's own requests.
import { test } from "node:test";
import assert from "node:assert/strict";
import { open, runToEnd } from "./harness.mjs";

/** Each scenario: its checkpoint, the choice the file's run makes true, and what its log shows. */
const LESSONS = {
  "11-redrive-back": { checkpoint: "redrive-fate", right: "They are processed and charged", log: /ops\s*asked SQS to move the messages in orders-dlq back to the queue each came from, at most 1 message a second/ },
  "12-standard-vs-fifo": { checkpoint: "exactly-once", right: /^Yes: a message not deleted/, log: /shop-fifo\s*sent A-2 again with deduplication id A-2 within 5 minutes/ },
  "13-attributes-and-size": { checkpoint: "too-big", right: /^It refuses the send/, log: /scanner\s*SendMessage failed: InvalidParameterValue: One or more parameters are invalid\. Reason: Message must be shorter than 1048576 bytes\./ },
  "14-purge": { checkpoint: "purged-in-flight", right: "It charges the order anyway", log: /ops\s*PurgeQueue failed: AWS\.SimpleQueueService\.PurgeQueueInProgress/ },
  "15-what-it-costs": { checkpoint: "cheapest", right: "short-poller's", log: /short-poller\s*asked short-polled and got nothing back/ },
  "16-sns-fan-out": { checkpoint: "refund-to-shipping", right: /^No: the filter policy/, log: /orders-topic\s*did not send .+ to shipping: the subscription's filter policy does not match it/ },
  "17-s3-notifications": { checkpoint: "first-upload", right: "images/cat.jpg", log: /bucket “uploads”\s*notified image-jobs of ObjectCreated:Put images\/cat\.jpg: S3's event JSON is stored there/ },
  "18-cross-account": { checkpoint: "after-grant", right: "It is allowed and stored", log: /partner\s*SendMessage failed: AccessDenied/ },
  "19-sse-kms-costs": { checkpoint: "more-kms", right: /^orders-1min/, log: /SQS\s*called KMS GenerateDataKey with key .* for shop-1 on orders-1min \(SSE-KMS\)/ },
  "20-kms-key-disabled": { checkpoint: "disabled-sends", right: "It fails with KMS.DisabledException", log: /shop\s*SendMessage failed: KMS\.DisabledException/ },
  "21-lambda-partial-batch": { checkpoint: "plain-retry", right: /^Yes: the whole batch comes back/, log: /charge-plain\s*threw an error in invocation 1 after 0\.4 s; Lambda deletes nothing: 4 messages return to the queue/ },
  "22-lambda-scaling": { checkpoint: "how-high", right: /^10: the mapping's MaximumConcurrency/, log: /process-orders\s*now has 5 pollers: up to 5 batches handed over at once/ },
  "23-lambda-fifo": { checkpoint: "other-group", right: /^At once: customer-B's group is not held/, log: /ledger\s*finished invocation 1 after 0\.4 s, reporting failed items; Lambda deletes the others: 2 messages return to the queue/ },
  "24-cloudwatch-alarms": { checkpoint: "age-before-fix", right: /^Yes: some order will have waited more than an hour/, log: /alarm “old-messages”\s*ALARM → OK/ },
  "25-custom-metrics": { checkpoint: "slow-alarm", right: /^Yes, after two 10 s periods of slow orders/, log: /alarm “slow-processing”\s*OK → ALARM/ },
  "28-large-payload": { checkpoint: "scan-1-back", right: /^A pointer to nothing/, log: /guide-reader\s*got .+, a pointer to nothing: GetObject report-payloads\/.+ answered NoSuchKey/ },
};

// "42 requests ≈ $0.0000168 at $0.40 per million." (or both queue types, each at its price)
// With SSE-KMS queues: " Plus 12 KMS requests (SSE-KMS) ≈ $0.000036 at $0.03 per 10,000."
// With S3 calls: " Plus 9 S3 requests ≈ $0.0000216 (4 PUT-class at $0.005 per 1,000, 4 GET at $0.0004 per 1,000, DELETE free)."
const MONEY = /^Billed: [\d,]+ requests ≈ \$0\.\d+( at \$0\.40 per million\.| at \$0\.50 per million \(FIFO\)\.|: [\d,]+ requests? to standard queues at \$0\.40 per million, [\d,]+ requests? to FIFO queues at \$0\.50 per million\.)( Plus [\d,]+ KMS requests? \(SSE-KMS\) ≈ \$0\.\d+ at \$0\.03 per 10,000\.)?( Plus [\d,]+ S3 requests? ≈ \$0\.\d+ \([\d,]+ PUT-class at \$0\.005 per 1,000, [\d,]+ GET at \$0\.0004 per 1,000, DELETE free\)\.)?$/;

for (const [stem, lesson] of Object.entries(LESSONS)) {
  test(`scenario ${stem} pauses at its checkpoint, the run proves the prediction, and the recap says what it cost`, async () => {
    const { page, problems, close } = await open(`?scenario=${stem}&speed=max`);
    try {
      await page.locator("#play").click();
      await page.waitForSelector(`[data-checkpoint='${lesson.checkpoint}']`);
      await page.locator("#checkpoint").getByRole("button", { name: lesson.right }).click();
      await page.waitForSelector("#checkpoint[data-checkpoint-result='right']");
      // Continue, or Close when the run answers it at its end (scenario 15: whose receives were emptiest).
      await page.locator("#checkpoint").getByRole("button", { name: /^(Continue|Close)\b/ }).click();
      await runToEnd(page);
      const money = page.locator("#outcome .bill");
      await money.waitFor();
      assert.match(await money.textContent(), MONEY);
      assert.match((await page.locator("#log").textContent()) ?? "", lesson.log);
      assert.equal(await page.locator("#error").isVisible(), false, "no error shown");
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
}

test("every scenario's recap, not only the new ones', says what its requests cost", async () => {
  const { page, problems, close } = await open("?scenario=01-process-then-delete&speed=max&checkpoints=off");
  try {
    await page.locator("#play").click();
    await runToEnd(page);
    assert.match(await page.locator("#outcome .bill").textContent(), MONEY);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test("the lab 'the DLQ full of good orders' plays to its end, fails as shipped, and is met by redriving after the fix", async () => {
  const { page, problems, close } = await open("?lab=dlq-of-good-orders&checkpoints=off&speed=max");
  try {
    await page.locator("#play").click();
    await runToEnd(page);
    assert.match(await page.locator("#outcome .bill").textContent(), MONEY);
    assert.match((await page.locator("#log").textContent()) ?? "", /ops\s*asked SQS to move the messages in orders-dlq back to the queue each came from, at most 10 messages a second/);
    // As shipped (the move task at 8 s, before the fix at 12 s) the check fails for the orders never charged.
    await page.locator("#check-fix").click();
    await page.locator("#goal:not([data-goal-state='checking']) #goal-result:not([hidden])").waitFor();
    assert.equal(await page.locator("#goal").getAttribute("data-goal-state"), "unmet");
    assert.deepEqual(await page.locator("#goal-conditions li[data-held='false']").evaluateAll((lis) => lis.map((li) => li.dataset.condition)), ["processedByMs"]);
    assert.equal(await page.locator("#knob-moveAt").inputValue(), "8000");
    await page.locator("#knob-moveAt").fill("15000");
    await page.locator("#knob-moveAt").press("Enter");
    await page.waitForSelector("[data-changed]:not([hidden])");
    await page.locator("#check-fix").click();
    await page.locator("#goal:not([data-goal-state='checking']) #goal-result:not([hidden])").waitFor();
    assert.equal(await page.locator("#goal").getAttribute("data-goal-state"), "met");
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});
