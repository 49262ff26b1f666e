// Untrusted text stays text: every field a scenario file, a link, a learner's
// code or an SQS error can put on screen is shown literally, on the page and
// inside a <queue-lab>, and never becomes markup. Each payload would add an
// <img> that counts its runs in window.__xss, and a <b>.
import { test } from "node:test";
import assert from "node:assert/strict";
import { open, runToEnd } from "./harness.mjs";

const EVIL = `<img src=x onerror="window.__xss=(window.__xss||0)+1"><b>bold</b>`;
// Message group ids allow no spaces: the same tags without them.
const EVIL_ID = `<img/src/onerror=window.__xss=(window.__xss||0)+1><b>bold</b>`;

/** Fails if any untrusted text became markup, in the page or any element's shadow root. */
async function assertInert(page, what) {
  const found = await page.evaluate(() => {
    const roots = [document, ...[...document.querySelectorAll("queue-lab")].map((el) => el.shadowRoot)];
    const all = (sel) => roots.flatMap((r) => [...r.querySelectorAll(sel)]);
    return { xss: window.__xss ?? null, imgs: all("img").length, bolds: all("b").filter((b) => b.textContent === "bold").length };
  });
  assert.deepEqual(found, { xss: null, imgs: 0, bolds: 0 }, `${what}: no markup was made from untrusted text`);
}

/** Asserts that each [selector, text] under `host` (a lab root: #lab or an element) shows `text` literally. */
async function assertShown(page, host, checks) {
  for (const [sel, text] of checks) {
    const shown = await page.locator(`${host} ${sel}`).first().textContent();
    assert.ok(shown.includes(text), `${host} ${sel} shows the text literally: ${JSON.stringify(shown.slice(0, 200))}`);
  }
}

/** A FIFO run whose every display field is a payload; at its end one message is in flight. */
function evilScenario() {
  return {
    title: EVIL,
    summary: EVIL,
    seed: 1,
    durationMs: 5000,
    queues: [{ name: "orders.fifo", contentBasedDeduplication: true }],
    producers: [{
      name: EVIL,
      queue: "orders.fifo",
      sends: [0, 1, 2].map((i) => ({ atMs: i * 10, body: `${EVIL} #${i}`, groupId: EVIL_ID, attributes: { note: EVIL } })),
    }],
    // A worker cannot share the producer's name: the same payload, told apart.
    consumers: [{ name: `${EVIL} w`, queue: "orders.fifo", waitTimeSeconds: 20, processing: { fixedMs: 2000 }, sideEffect: EVIL, behaviour: { failsOn: [`${EVIL} never`] } }],
    alarms: [{ name: EVIL, queue: "orders.fifo", threshold: 1 }],
    narration: [{ atMs: 0, text: EVIL }],
  };
}

test("scenario fields show as text on the page and in an element: title, summary, narration, names, group ids, bodies, side effects, attribute values in peek", async () => {
  const scenario = evilScenario();
  const { page, problems, close } = await open("?scenario=01-process-then-delete&speed=max&autoplay=1", {
    routes: { "web/scenarios/01-process-then-delete.json": JSON.stringify(scenario) },
  });
  await runToEnd(page);
  // The same scenario in a full-view element, inline.
  await page.evaluate(async (text) => {
    await import("./web/queue-lab.js");
    const el = document.createElement("queue-lab");
    el.id = "evil-element";
    for (const [k, v] of Object.entries({ view: "full", speed: "max", autoplay: "" })) el.setAttribute(k, v);
    const script = document.createElement("script");
    script.type = "application/json";
    script.textContent = text;
    el.append(script);
    document.body.prepend(el);
  }, JSON.stringify(scenario));
  await page.waitForSelector("#evil-element[data-finished='true']");

  const fields = [
    ["#title", EVIL],
    ["#summary", EVIL],
    ["#narration", EVIL],
    ["[data-producer] .p-name", EVIL],
    ["[data-consumer] .c-name", EVIL],
    ["[data-consumer] .c-traits", EVIL], // fails on …
    ["[data-consumer] .c-fx-l", EVIL], // its side effect's name
    ["#ledger", EVIL],
    ["[data-group] .g-name", EVIL_ID],
    [".q-alarm", EVIL],
    [".token .tk-label", EVIL],
    ["#log", EVIL_ID],
    ["#settings", EVIL], // a fieldset per consumer, by name
  ];
  for (const host of ["#lab", "#evil-element"]) {
    await assertShown(page, host, fields);
    await page.locator(`${host} #rows .token[data-state='in-flight']`).first().click();
    await assertShown(page, host, [["#peek .attrs", EVIL], ["#peek .peek-body", EVIL], ["#peek .facts", EVIL_ID]]);
    await page.locator(`${host} #peek button.close`).click();
  }
  await page.waitForFunction((t) => document.querySelector("#scenario option")?.textContent.includes(t), EVIL);
  await assertInert(page, "scenario fields");
  assert.deepEqual(problems, []);
  await close();
});

test("error messages, code output and the caller's name show as text: link parameters, attributes, SQS errors, the JSON editor", async () => {
  const { page, problems, close } = await open(`?scenario=01-process-then-delete&speed=${encodeURIComponent(EVIL)}`);
  await assertShown(page, "#lab", [["#error-text", `speed="${EVIL}" is not a speed`]]);
  await assertInert(page, "a link's speed");

  // The code cell's console, and an SQS error that echoes its input.
  await page.locator("#code-text").fill([
    `console.log(${JSON.stringify(EVIL)});`,
    `const { QueueUrl } = await sqs.getQueueUrl({ QueueName: "orders" });`,
    `await sqs.getQueueAttributes({ QueueUrl, AttributeNames: [${JSON.stringify(EVIL)}] });`,
  ].join("\n"));
  await page.locator("#code-run").click();
  await page.waitForSelector("#code-status:text('Failed.')");
  await assertShown(page, "#lab", [["#code-out .out-log", EVIL], ["#code-out .out-error", `Unknown Attribute ${EVIL}`]]);
  await assertInert(page, "code output");

  // A manual send under a caller name that is a payload: the log and the producer card name it.
  await page.locator("#manual-panel summary").click();
  await page.locator("#m-caller").fill(EVIL);
  await page.locator("#manual").getByRole("button", { name: "SendMessage" }).click();
  await page.waitForSelector(`#log li[data-type='sent']:has-text("bold")`);
  await assertShown(page, "#lab", [["#log li[data-type='sent']:has-text('bold') .who", EVIL], ["[data-producer].manual .p-name", EVIL]]);
  await assertInert(page, "the caller's name");

  // The JSON editor: the engine's error names the unknown field.
  await page.locator("#json-panel summary").click();
  await page.locator("#json-text").fill(JSON.stringify({ title: "x", durationMs: 1000, queues: [], [EVIL]: 1 }));
  await page.getByRole("button", { name: "Run this scenario" }).click();
  await assertShown(page, "#lab", [["#error-text", `unknown field \`${EVIL}\``]]);
  await assertInert(page, "the JSON editor's error");

  // Elements whose attributes or inline scenario echo a payload in their error box.
  const elements = {
    "bad-scenario": { attrs: { scenario: EVIL } },
    "bad-controls": { attrs: { scenario: "slow-consumer", controls: EVIL } },
    "bad-field": { attrs: {}, inline: JSON.stringify({ title: "x", durationMs: 1000, queues: [], [EVIL]: 1 }) },
  };
  await page.evaluate(async (specs) => {
    await import("./web/queue-lab.js");
    for (const [id, { attrs, inline }] of Object.entries(specs)) {
      const el = document.createElement("queue-lab");
      el.id = id;
      for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
      if (inline) el.append(Object.assign(document.createElement("script"), { type: "application/json", textContent: inline }));
      document.body.prepend(el);
    }
  }, elements);
  for (const id of Object.keys(elements)) {
    await page.locator(`#${id}`).scrollIntoViewIfNeeded(); // an element starts once in view
    const text = await page.waitForFunction((i) => {
      // What the element shows (its style sheet aside), once the payload is in it.
      const shown = [...document.getElementById(i).shadowRoot.children].filter((n) => n.localName !== "style").map((n) => n.textContent).join("");
      return shown.includes("bold") && shown;
    }, id).then((h) => h.jsonValue());
    assert.ok(text.includes(EVIL), `#${id} shows the payload literally: ${text.slice(0, 200)}`);
  }
  await assertInert(page, "element error boxes");
  assert.deepEqual(problems, []);
  await close();
});
