// The live view: the page watching a running `queuelab serve`
// (web/page/live.js). The test starts the server, opens the page with
// ?server=, and drives the server as a boto3 consumer would (the calls of
// tests/server/consumer_demo.py, sent here as raw JSON-protocol requests
// whose access keys name the callers, then the script itself with boto3): the page shows each call as it
// happens, without a reload, by making the server's calls again in its
// own engine. Also the "Watch this server" button of the page the server
// serves itself.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createInterface } from "node:readline";
import { artifacts, baseUrl, open, root, scaled } from "./harness.mjs";

const binary = `${root}target/debug/queuelab`;
let server;
let endpoint; // "http://127.0.0.1:PORT/"

/** Starts `queuelab serve` on a free port; resolves to the process and the endpoint it names ("http://127.0.0.1:PORT/"). */
async function serve() {
  const proc = spawn(binary, ["serve", "--port", "0", "--web", root], { cwd: root, stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, RUST_LOG: "warn" } });
  // Its first line on stdout names the endpoint.
  const first = await new Promise((resolve, reject) => {
    createInterface({ input: proc.stdout }).once("line", resolve);
    proc.once("exit", (code) => reject(new Error(`queuelab serve exited (${code}) before naming its endpoint`)));
  });
  const named = first.match(/http:\/\/\S+/)?.[0];
  assert.ok(named, `the first line names the endpoint: ${first}`);
  return { proc, endpoint: named };
}

before(async () => {
  if (!existsSync(binary)) {
    const built = spawnSync("cargo", ["build", "-p", "queuelab-server"], { cwd: root, stdio: "inherit" });
    assert.equal(built.status, 0, "cargo build -p queuelab-server");
  }
  ({ proc: server, endpoint } = await serve());
});

after(() => server?.kill("SIGTERM"));

/** One SQS call over the JSON protocol, as an SDK signs it with access key `caller`; resolves to the answer's JSON. */
async function sqs(op, body, caller) {
  const res = await fetch(endpoint, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-amz-json-1.0",
      "X-Amz-Target": `AmazonSQS.${op}`,
      Authorization: `AWS4-HMAC-SHA256 Credential=${caller}/20261203/us-east-1/sqs/aws4_request, SignedHeaders=host;x-amz-date, Signature=0`,
    },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  assert.ok(res.ok, `${op} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

/** The words a consumer's card shows for what it holds. */
const heldBy = (page, name) => page.locator(`[data-consumer='${name}'] .held`);

test("the page follows the server live: the queue, the message, and worker-1 and worker-2 both holding it", async () => {
  const { page, problems, close } = await open(`?server=${encodeURIComponent(endpoint)}`);
  const banner = page.locator("#live-banner");
  await assert.doesNotReject(banner.filter({ hasText: `Watching the SQS endpoint at ${endpoint.replace(/\/$/, "")} (live)` }).waitFor());
  await page.waitForSelector("#live-banner[data-state='following']");

  // Every call below is made after the page opened: each appears without a reload.
  const { QueueUrl } = await sqs("CreateQueue", { QueueName: "orders", Attributes: { VisibilityTimeout: "2" } }, "shop");
  await page.waitForSelector("#rows [data-queue='orders']");
  await sqs("SendMessage", { QueueUrl, MessageBody: "order A-1001" }, "shop");
  await page.locator("#rows [data-queue='orders'] .token").first().waitFor();

  // Two workers long-poll; worker-1 gets the order, and works on it longer than its visibility timeout (2 s).
  const receive = (caller) => sqs("ReceiveMessage", { QueueUrl, WaitTimeSeconds: 20 }, caller);
  const [first, second] = [receive("worker-1"), receive("worker-2")];
  const one = (await first).Messages?.[0];
  assert.equal(one?.Body, "order A-1001");
  await heldBy(page, "worker-1").filter({ hasText: "A-1001" }).waitFor();
  // At 2 s the message is visible again: worker-2's poll gets it while worker-1 still works.
  const two = (await second).Messages?.[0];
  assert.equal(two?.Body, "order A-1001", "the duplicate delivery");
  await heldBy(page, "worker-2").filter({ hasText: "A-1001" }).waitFor();
  assert.match(await heldBy(page, "worker-1").textContent(), /A-1001/, "worker-1 still holds it: it never deleted it");
  await page.locator("#dup-banner", { hasText: "held by worker-1 and worker-2" }).waitFor();
  await page.screenshot({ path: `${artifacts}live-1280.png` });
  await page.setViewportSize({ width: 400, height: 900 });
  await page.screenshot({ path: `${artifacts}live-400.png`, fullPage: false });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Scrubbed back, the view says so and offers the way back; it follows again after.
  await page.locator("#timeline").fill("0");
  await page.waitForSelector("#live-banner[data-state='scrubbed']");
  await page.locator("#back-to-live").click();
  await page.waitForSelector("#live-banner[data-state='following']");

  // worker-1 finishes (3.5 s of work) and deletes with its receipt handle; worker-2 deletes: the message leaves.
  await sqs("DeleteMessage", { QueueUrl, ReceiptHandle: two.ReceiptHandle }, "worker-2");
  await page.locator("#tray .token").first().waitFor();
  assert.equal(await heldBy(page, "worker-2").count(), 0);

  // Paused on the server: the banner says so, and once the page has played to the server's moment it shows the server's state exactly.
  const paused = await (await fetch(`${endpoint}_queuelab/pause`, { method: "POST" })).json();
  await page.waitForSelector("#live-banner[data-state='paused']");
  await page.waitForFunction((t) => document.getElementById("lab").playground.now() === t, paused.now);
  const mine = await page.evaluate(() => JSON.stringify(document.getElementById("lab").playground.snapshot({})));
  assert.equal(mine, await (await fetch(`${endpoint}_queuelab/snapshot`)).text(), "the page's run is the server's run");
  await fetch(`${endpoint}_queuelab/resume`, { method: "POST" });

  // The page sends nothing of its own: its actions are off, saying why.
  assert.equal(await page.locator(".tinker").isHidden(), true);
  assert.match(await banner.textContent(), /Send yours to http:\/\/127\.0\.0\.1:\d+ with boto3/);
  assert.deepEqual(problems, []);
  await close();
});

test("the page follows the lesson's boto3 consumer script as it runs: worker-2 receives A-1001 while worker-1 still holds it", async () => {
  // A server of its own, so the script's run is the only one on it.
  const own = await serve();
  const { page, problems, close } = await open(`?server=${encodeURIComponent(own.endpoint)}`);
  await page.waitForSelector("#live-banner[data-state='following']");
  // tests/server/consumer_demo.py, unchanged but for its endpoint, with boto3 from scripts/setup.sh's environment.
  const script = spawn(`${root}target/pyenv/bin/python`, [`${root}tests/server/consumer_demo.py`], {
    env: { ...process.env, SQS_ENDPOINT: own.endpoint.replace(/\/$/, "") },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  script.stdout.on("data", (chunk) => (out += chunk));
  const [code] = await new Promise((resolve) => script.once("exit", (...args) => resolve(args)));
  assert.equal(code, 0, "the script ran");
  assert.match(out, /worker-2 received order A-1001/);
  // The page made the script's calls again as they came: its log says the duplicate delivery.
  await page.locator("#log", { hasText: /worker-2 received A-1001 \(receive #2\)/ }).waitFor();
  await page.locator("#log", { hasText: /worker-1 received A-1001/ }).waitFor();
  assert.deepEqual(problems, []);
  await close();
  own.proc.kill("SIGTERM");
});

test("a server that does not answer is said to be lost and asked again, and the page keeps answering; one that is no Queuelab server, or no address, is refused in words", async () => {
  // A server that never answers: the port of a closed listener.
  const { page, problems, close } = await open(`?server=${encodeURIComponent("http://127.0.0.1:9")}`);
  await page.waitForSelector("#live-banner[data-state='lost']");
  assert.match(await page.locator("#live-state").textContent(), /Connection lost — retrying in \d+ s\./);
  await page.locator("#play").click({ timeout: scaled(5000) }); // the tab answers
  assert.deepEqual(problems, []);
  await close();
  // A server that answers, but is no Queuelab server (the static server these tests use): said, and not asked again.
  const other = await open(`?server=${encodeURIComponent(baseUrl)}`);
  await other.page.waitForSelector("#live-banner[data-state='stopped']");
  assert.match(await other.page.locator("#live-state").textContent(), /not as a Queuelab server: GET \/_queuelab\/journal answered 404/);
  await other.close();
  // An address that is no URL: refused in words.
  const bad = await open("?server=localhost-9324");
  assert.match(await bad.page.locator("#error-text").textContent(), /\?server=localhost-9324 is not a URL: give the address queuelab serve printed/);
  await bad.close();
});

test("the page the server serves offers Watch this server, which opens its live view", async () => {
  const { page, problems, close } = await open("", { base: endpoint });
  await page.locator("#watch-server").click();
  await page.waitForURL(/\?server=/);
  const origin = new URL(endpoint).origin;
  assert.equal(new URL(page.url()).searchParams.get("server"), origin);
  await page.locator("#live-banner", { hasText: `Watching the SQS endpoint at ${origin} (live)` }).waitFor();
  await page.waitForSelector("#live-banner[data-state='following']");
  assert.deepEqual(problems, []);
  await close();
});
