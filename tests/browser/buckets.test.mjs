// S3 buckets on the stage (web/views/stage/buckets.js): a card per bucket
// with an arrow per notification to its queue, counting what the queue
// took, and a broken arrow with S3's words when the bucket's
// configuration is refused (here: its queue deleted from the code cell
// before the configuration is saved).
import { test } from "node:test";
import assert from "node:assert/strict";
import { open, runToEnd } from "./harness.mjs";
import { neighbourQueue } from "../node/neighbours-policy.mjs";

const scenario = {
  title: "S3 event notifications",
  durationMs: 6000,
  queues: [neighbourQueue("image-jobs"), neighbourQueue("thumbs")],
  buckets: [
    { name: "uploads", notifications: [{ queue: "image-jobs", events: ["s3:ObjectCreated:*"], prefix: "images/", suffix: ".jpg" }],
      objects: [{ atMs: 1000, put: "images/cat.jpg", sizeBytes: 2048 }, { atMs: 2000, put: "docs/readme.txt" }] },
    { name: "thumbnails", configuredAtMs: 1500, notifications: [{ queue: "thumbs", events: ["s3:ObjectCreated:*"] }],
      objects: [{ atMs: 3000, put: "small/cat.jpg" }] },
  ],
};

test("a bucket's arrow counts the notifications its queue took, and breaks with S3's words when the configuration is refused", async () => {
  const { page, problems, close } = await open("?scenario=process-then-delete&speed=max", {
    routes: { "scenarios/01-process-then-delete.json": JSON.stringify(scenario) },
  });
  await page.locator("#code-text").fill('const { QueueUrl } = await sqs.getQueueUrl({ QueueName: "thumbs" });\nawait sqs.deleteQueue({ QueueUrl });');
  await page.locator("#code-run").click();
  if (await page.locator("#code-confirm-run").isVisible()) await page.locator("#code-confirm-run").click();
  await page.waitForSelector("#code-status:text('Finished')");
  await page.locator("#play").click();
  await runToEnd(page);
  const uploads = page.locator("[data-bucket='uploads']");
  const whole = uploads.locator(".b-arrow[data-queue='image-jobs']");
  assert.equal(await whole.evaluate((el) => el.classList.contains("broken")), false);
  assert.equal(await whole.locator(".b-arrow-count").textContent(), "1 notification");
  const broken = page.locator("[data-bucket='thumbnails'] .b-arrow[data-queue='thumbs']");
  assert.equal(await broken.evaluate((el) => el.classList.contains("broken")), true);
  assert.match(
    await broken.locator(".b-arrow-why").textContent(),
    /^InvalidArgument: Unable to validate the following destination configurations: arn:aws:sqs:[^:]+:\d{12}:thumbs \(AWS\.SimpleQueueService\.NonExistentQueue: /,
  );
  assert.match(await page.locator("#log").textContent(), /S3 refused its notification configuration/);
  // No producer card "sending by hand" for a bucket.
  assert.equal(await page.locator(".producer:has-text('uploads')").count(), 0);
  assert.deepEqual(problems, []);
  await close();
});
