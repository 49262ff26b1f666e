// A queue card shows its encryption (SSE-SQS, SSE-KMS with the key's
// alias, or none) and an SSE-KMS queue's KMS requests with their cost, as
// the engine's own snapshot counts them; the recap's bill adds the KMS
// requests at KMS's price. At 400 px the badge stays inside its card.
import { test } from "node:test";
import assert from "node:assert/strict";
import { open } from "./harness.mjs";

const SCENARIO = JSON.stringify({
  title: "SSE-KMS costs",
  durationMs: 300000,
  keys: [{ alias: "alias/orders" }],
  queues: [
    { name: "kms-60s", encryption: { kmsKey: "alias/orders", dataKeyReusePeriodSeconds: 60 } },
    { name: "kms-1day", encryption: { kmsKey: "alias/orders", dataKeyReusePeriodSeconds: 86400 } },
    { name: "plain", encryption: "none" },
    { name: "default" },
  ],
  producers: [
    { name: "shop-a", queue: "kms-60s", rate: { everyMs: 2000, count: 150, body: "order {n}" } },
    { name: "shop-b", queue: "kms-1day", rate: { everyMs: 2000, count: 150, body: "order {n}" } },
  ],
  consumers: [
    { name: "worker-a", queue: "kms-60s", waitTimeSeconds: 20, processing: { fixedMs: 300 } },
    { name: "worker-b", queue: "kms-1day", waitTimeSeconds: 20, processing: { fixedMs: 300 } },
  ],
});

const HOST = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>host</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head><body><h1>Host</h1>
<queue-lab id="lab" src="kms.json" view="full"></queue-lab>
<script type="module" src="/web/queue-lab.js"></script></body></html>`;

async function openAt(width) {
  const opened = await open("host.html", {
    routes: { "host.html": { body: HOST, contentType: "text/html" }, "kms.json": SCENARIO },
    readyWhen: "h1",
    viewport: { width, height: 800 },
  });
  const { page } = opened;
  await page.waitForFunction(() => document.getElementById("lab").controls != null);
  await page.evaluate(() => document.getElementById("lab").controls.scrub(300000));
  await page.waitForFunction(() => document.getElementById("lab").shadowRoot.querySelector("#outcome:not([hidden]) .bill"));
  return opened;
}

/** Each card's badge and KMS line as drawn, and the engine's numbers for it. */
function cards(page) {
  return page.evaluate(() => {
    const el = document.getElementById("lab");
    const snap = el.controls.playground.snapshot();
    return [...el.shadowRoot.querySelectorAll("article.queue")].map((card) => {
      const q = snap.queues.find((x) => x.name === card.dataset.queue);
      const kms = card.querySelector(".q-kms");
      return { name: q.name, badge: card.querySelector(".q-sse").textContent, sse: card.querySelector(".q-sse").dataset.sse, encryption: q.encryption, kms: kms.hidden ? null : kms.textContent, requests: q.kmsRequests };
    });
  });
}

test("each card shows its encryption and the KMS requests the engine counted, and the bill adds them", async () => {
  const { page, problems, close } = await openAt(1280);
  try {
    const drawn = await cards(page);
    const byName = Object.fromEntries(drawn.map((c) => [c.name, c]));
    for (const c of drawn) assert.equal(c.sse, c.encryption, c.name);
    assert.equal(byName["kms-60s"].badge, "SSE-KMS alias/orders");
    assert.equal(byName.plain.badge, "unencrypted");
    assert.equal(byName.default.badge, "SSE-SQS");
    // A new data key each minute for five minutes, against one for the run.
    assert.deepEqual(byName["kms-60s"].requests, { generateDataKey: 5, decrypt: 10 });
    assert.deepEqual(byName["kms-1day"].requests, { generateDataKey: 1, decrypt: 2 });
    assert.equal(byName["kms-60s"].kms, "KMS: 5 GenerateDataKey · 10 Decrypt ≈ $0.000045 · data key reused 60 s");
    assert.equal(byName["kms-1day"].kms, "KMS: 1 GenerateDataKey · 2 Decrypt ≈ $0.000009 · data key reused 86400 s");
    assert.equal(byName.plain.kms, null);
    const bill = await page.evaluate(() => document.getElementById("lab").shadowRoot.querySelector("#outcome .bill").textContent);
    assert.match(bill, /Plus 18 KMS requests \(SSE-KMS\) ≈ \$0\.000054 at \$0\.03 per 10,000\.$/);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test("at 400 px every card has its encryption badge, inside the card", async () => {
  const { page, problems, close } = await openAt(400);
  try {
    const outside = await page.evaluate(() =>
      [...document.getElementById("lab").shadowRoot.querySelectorAll("article.queue")].filter((card) => {
        const sse = card.querySelector(".q-sse");
        const [badge, box] = [sse.getBoundingClientRect(), card.getBoundingClientRect()];
        return sse.textContent === "" || badge.left < box.left || badge.right > box.right;
      }).map((card) => card.dataset.queue),
    );
    assert.deepEqual(outside, []);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});
