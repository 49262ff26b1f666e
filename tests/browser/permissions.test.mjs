// AddPermission and RemovePermission on the page: called from the code cell
// like any other operation, told by the event log in words, and made again
// by a replay (the journal records them like any other successful call).
import { test } from "node:test";
import assert from "node:assert/strict";
import { open, runToEnd, scrubTo } from "./harness.mjs";

test("the code cell's AddPermission and RemovePermission show in the event log, and a scrub replays them", async () => {
  const code = [
    `const { QueueUrl } = await sqs.getQueueUrl({ QueueName: "orders" });`,
    `await sqs.addPermission({ QueueUrl, Label: "PartnerSend", AWSAccountIds: ["111122223333"], Actions: ["SendMessage", "ReceiveMessage"] });`,
    `const { Attributes } = await sqs.getQueueAttributes({ QueueUrl, AttributeNames: ["Policy"] });`,
    `console.log(JSON.parse(Attributes.Policy).Statement[0].Sid);`,
    `await sqs.send(new RemovePermissionCommand({ QueueUrl, Label: "PartnerSend" }));`,
  ].join("\n");
  const { page, problems, close } = await open("index.html?scenario=process-then-delete&speed=max&autoplay=1");
  await runToEnd(page);
  await scrubTo(page, 2000);
  await page.locator("#code-text").fill(code);
  await page.locator("#code-run").click();
  await page.waitForSelector("#code-status:text('Finished')");
  assert.match(await page.locator("#code-out").textContent(), /PartnerSend/);

  const line = (type) => page.locator(`#log li[data-type='${type}']`).filter({ has: page.locator(".who", { hasText: /^your code$/ }) });
  const told = async () => [await line("permissionAdded").count(), await line("permissionRemoved").count()];
  assert.deepEqual(await told(), [1, 1]);
  assert.match(
    await line("permissionAdded").textContent(),
    /allowed account 111122223333 to call SendMessage, ReceiveMessage on orders: statement "PartnerSend" added to its Policy \(AddPermission\)/,
  );
  assert.match(await line("permissionRemoved").textContent(), /removed statement "PartnerSend" from the Policy of orders \(RemovePermission\)/);

  await scrubTo(page, 1000);
  assert.deepEqual(await told(), [0, 0], "before the code's moment, neither call has happened");
  await scrubTo(page, 12_000);
  assert.deepEqual(await told(), [1, 1], "the replay makes both calls again, once each");
  assert.deepEqual(problems, []);
  await close();
});

test("a call a queue policy refuses answers AccessDenied in the code cell, and the log says which statement denied it", async () => {
  const code = [
    `const { QueueUrl } = await sqs.createQueue({ QueueName: "guarded" });`,
    `const Policy = JSON.stringify({ Version: "2012-10-17", Statement: [{ Sid: "NoSends", Effect: "Deny", Principal: "*", Action: "sqs:SendMessage", Resource: "*" }] });`,
    `await sqs.setQueueAttributes({ QueueUrl, Attributes: { Policy } });`,
    `try { await sqs.sendMessage({ QueueUrl, MessageBody: "hi" }); } catch (e) { console.log(e.name + ": " + e.message); }`,
  ].join("\n");
  const { page, problems, close } = await open("index.html?scenario=process-then-delete&speed=max&autoplay=1");
  await runToEnd(page);
  await page.locator("#code-text").fill(code);
  await page.locator("#code-run").click();
  await page.waitForSelector("#code-status:text('Finished')");
  assert.match(
    await page.locator("#code-out").textContent(),
    /AccessDenied: User: arn:aws:iam::000000000000:root is not authorized to perform: sqs:sendmessage on resource: arn:aws:sqs:us-east-1:000000000000:guarded with an explicit deny in a resource-based policy/,
  );
  const line = page.locator("#log li[data-type='accessDecided']");
  assert.equal(await line.count(), 1);
  assert.match(await line.textContent(), /AccessDenied: statement NoSends denies account 000000000000 SendMessage on guarded: an explicit deny wins/);
  assert.deepEqual(problems, []);
  await close();
});
