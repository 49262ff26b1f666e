// "Code never runs without a click": code that arrives in a <queue-lab>'s
// script child, its code attribute or a share link is shown in the editor
// and runs only on Run. Absence is proven after a deterministic end (the
// run played to its scenario's end), never after a sleep, and every test
// then presses Run to show its sentinel would have caught a run.
import { test } from "node:test";
import assert from "node:assert/strict";
import { hookState, open, runToEnd, scrubTo } from "./harness.mjs";
import { pack } from "../../web/page/share.js";

/** Code that counts its runs in `globalThis[key]`. */
const counting = (key) => `globalThis.${key} = (globalThis.${key} ?? 0) + 1;`;
const runs = (page, key) => page.evaluate((k) => globalThis[k], key);

/** Presses a code cell's Run (inside `host`, or the page's) and waits for the code to finish. */
async function pressRun(page, host = "") {
  await page.locator(`${host} #code-run`.trim()).click();
  await page.waitForSelector(`${host} #code-status:text('Finished')`.trim());
}

test("code in a <queue-lab>'s script child or code attribute is shown, not run, even after the run plays to its end", async () => {
  const { page, problems, close } = await open("web/examples/course.html", { readyWhen: "article" });
  for (const via of ["script", "attribute"]) {
    const id = `code-${via}`;
    const code = counting(`ran_${via}`);
    await page.evaluate(({ id, via, code }) => {
      const el = document.createElement("queue-lab");
      el.id = id;
      for (const [k, v] of Object.entries({ scenario: "process-then-delete", speed: "max", autoplay: "", editor: "" })) el.setAttribute(k, v);
      if (via === "attribute") el.setAttribute("code", code);
      else el.innerHTML = `<script type="text/plain">${code}</script>`;
      document.querySelector("article").prepend(el);
      el.scrollIntoView(); // an element starts once in view
    }, { id, via, code });
    // The deterministic end: the element played its scenario to the last millisecond.
    await page.waitForSelector(`#${id}[data-finished='true']`);
    assert.equal(await page.locator(`#${id} #code-text`).inputValue(), code, `the ${via}'s code is in the editor`);
    assert.equal(await runs(page, `ran_${via}`), undefined, `the ${via}'s code did not run by itself`);
    await pressRun(page, `#${id}`);
    assert.equal(await runs(page, `ran_${via}`), 1, "Run runs it, once");
  }
  assert.deepEqual(problems, []);
  await close();
});

test("code in an autoplaying share link runs only on Run, and a scrub replays its requests without running it again", async () => {
  const body = "sent by the code cell";
  const code = [
    counting("ran"),
    `const { QueueUrl } = await sqs.getQueueUrl({ QueueName: "orders" });`,
    `await sqs.sendMessage({ QueueUrl, MessageBody: ${JSON.stringify(body)} });`,
    `console.log("ran once");`,
  ].join("\n");
  const { page, close } = await open(`index.html?scenario=process-then-delete&speed=max&autoplay=1&run=${await pack({ code })}`);
  await runToEnd(page);
  assert.equal(await page.locator("#code-text").inputValue(), code, "the link's code is in the editor");
  assert.equal(await runs(page, "ran"), undefined, "and did not run while the link's run played to its end");

  // What the code sent, as the log tells it (the log is rebuilt on every replay).
  const sentByCode = () => page.locator("#log li[data-type='sent']").filter({ has: page.locator(".who", { hasText: /^your code$/ }) }).count();
  // Run from 2 s, so that scrubbing to 1 s is before the code's requests.
  await scrubTo(page, 2000);
  // Code from a link asks before its first run (link-code.test.mjs holds that); say yes.
  await page.locator("#code-run").click();
  await page.locator("#code-confirm-run").click();
  await page.waitForSelector("#code-status:text('Finished')");
  await runToEnd(page);
  assert.equal(await runs(page, "ran"), 1);
  assert.match(await page.locator("#code-out").textContent(), /ran once/);
  assert.equal(await sentByCode(), 1);
  const live = await hookState(page);
  assert.ok(live.tokens.length > 4, "the code's message joined the scenario's four");

  await scrubTo(page, 1000);
  assert.equal(await page.locator("[data-message-id]", { hasText: body }).count(), 0, "before its moment, the code's message does not exist");
  assert.equal(await sentByCode(), 0);
  await scrubTo(page, 12_000);
  assert.deepEqual(await hookState(page), live, "back at the end: the same state as when the code's requests were live");
  assert.equal(await sentByCode(), 1, "its recorded send was replayed once");
  assert.equal(await runs(page, "ran"), 1, "by the replay, not by running the code again");
  await close();
});

test("the code cell acts as another account by its client's access key, and a scrub replays it as that account", async () => {
  const code = [
    `const partner = new SQSClient({ region: "us-east-1", credentials: { accessKeyId: "AKIA111111111111", secretAccessKey: "x" } });`,
    `const { QueueUrl } = await sqs.getQueueUrl({ QueueName: "orders" });`,
    `await sqs.addPermission({ QueueUrl, Label: "partner", AWSAccountIds: ["111111111111"], Actions: ["SendMessage"] });`,
    `await partner.send(new SendMessageCommand({ QueueUrl, MessageBody: "from the partner" }));`,
    `console.log("sent as the partner");`,
  ].join("\n");
  const { page, problems, close } = await open("index.html?scenario=process-then-delete&speed=max");
  await page.locator("#code-text").fill(code);
  await scrubTo(page, 2000); // so that 1 s is before the code's requests
  await pressRun(page);
  assert.match(await page.locator("#code-out").textContent(), /sent as the partner/);
  assert.match(await page.locator("#code-account").textContent(), /AKIA111111111111.*account 111111111111/, "the cell says how to act as another account");
  await runToEnd(page);
  const sentByPartner = () => page.locator("#log li[data-type='sent']").filter({ has: page.locator(".who", { hasText: /^account 111111111111$/ }) }).count();
  assert.equal(await sentByPartner(), 1, "the log names the partner's account");
  await scrubTo(page, 1000);
  assert.equal(await sentByPartner(), 0);
  await scrubTo(page, 12_000);
  assert.equal(await sentByPartner(), 1, "the replay made the send as the partner again");
  assert.deepEqual(problems, []);
  await close();
});

test("the code cell's SNS and S3 clients make a topic and a bucket the stage draws, and a scrub replays them", async () => {
  const code = [
    `import { SNSClient, CreateTopicCommand } from "@aws-sdk/client-sns";`,
    `const { QueueUrl } = await sqs.getQueueUrl({ QueueName: "orders" });`,
    `const QueueArn = "arn:aws:sqs:us-east-1:000000000000:orders";`,
    `const { TopicArn } = await new SNSClient({}).send(new CreateTopicCommand({ Name: "news" }));`,
    `await sqs.setQueueAttributes({ QueueUrl, Attributes: { Policy: JSON.stringify({ Statement: [`,
    `  { Effect: "Allow", Principal: { Service: "sns.amazonaws.com" }, Action: "sqs:SendMessage", Resource: QueueArn, Condition: { ArnEquals: { "aws:SourceArn": TopicArn } } },`,
    `  { Effect: "Allow", Principal: { Service: "s3.amazonaws.com" }, Action: "sqs:SendMessage", Resource: QueueArn }] }) } });`,
    `await sns.subscribe({ TopicArn, Protocol: "sqs", Endpoint: QueueArn });`,
    `const { MessageId } = await sns.publish({ TopicArn, Message: "from the topic" });`,
    `await s3.createBucket({ Bucket: "uploads" });`,
    `await s3.putBucketNotificationConfiguration({ Bucket: "uploads", NotificationConfiguration: { QueueConfigurations: [{ QueueArn, Events: ["s3:ObjectCreated:*"] }] } });`,
    `const { ETag } = await s3.send(new PutObjectCommand({ Bucket: "uploads", Key: "a.txt", Body: "hi" }));`,
    `console.log("published", MessageId.length, "put", ETag);`,
  ].join("\n");
  const { page, problems, close } = await open("index.html?scenario=process-then-delete&speed=max");
  await page.locator("#code-text").fill(code);
  await scrubTo(page, 2000);
  await pressRun(page);
  assert.match(await page.locator("#code-out").textContent(), /published 36 put "49f68a5c8493ec2c0bf489821c21fc3b"/);
  await runToEnd(page);
  const published = () => page.locator("#log li[data-type='topicPublished']").count();
  assert.equal(await published(), 1, "the log tells of the publish");
  assert.equal(await page.locator("#topics").getByText("news").count() > 0, true, "the stage draws the topic");
  assert.equal(await page.locator("#buckets").getByText("uploads").count() > 0, true, "and the bucket");
  await scrubTo(page, 1000);
  assert.equal(await published(), 0);
  await scrubTo(page, 12_000);
  assert.equal(await published(), 1, "the replay published again");
  assert.deepEqual(problems, []);
  await close();
});

test("sleep(ms) in the code cell wakes at exactly ms of virtual time later, even at full speed", async () => {
  const code = [`await sleep(1500);`, `console.log("woke");`, `await sleep(4000);`, `console.log("woke again");`].join("\n");
  const { page, problems, close } = await open("index.html?scenario=process-then-delete&speed=max");
  await page.locator("#code-text").fill(code);
  await scrubTo(page, 2000);
  await pressRun(page);
  const lines = await page.locator("#code-out li").evaluateAll((ls) => ls.map((l) => l.textContent));
  assert.deepEqual(lines.filter((l) => l.includes("woke")), ["3.5 swoke", "7.5 swoke again"]);
  assert.deepEqual(problems, []);
  await close();
});

test("Date.now() in the code cell moves with virtual time, so a deadline the code computes passes when the run reaches it", async () => {
  const code = [`const began = Date.now();`, `await sleep(4000);`, `console.log("waited", Date.now() - began, new Date().getTime() - began, new Date(0).getTime());`].join("\n");
  const { page, problems, close } = await open("index.html?scenario=process-then-delete&speed=max");
  await page.locator("#code-text").fill(code);
  await scrubTo(page, 2000);
  await pressRun(page);
  const lines = await page.locator("#code-out li").evaluateAll((ls) => ls.map((l) => l.textContent));
  // At full speed the wall clock barely moves; virtual time moved 4 s. A Date given a time is the real Date's.
  assert.deepEqual(lines, ["6.0 swaited 4000 4000 0"]);
  assert.deepEqual(problems, []);
  await close();
});
