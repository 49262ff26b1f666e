// web/page/share.js in Node: what a share link's fragment may bring into the
// page. A link is anyone's text, so unpacking it is bounded (the packed
// text's length, the bytes it inflates to) and so is what it brings in
// (recorded actions, code), each refusal saying its bound in words.
import { test } from "node:test";
import assert from "node:assert/strict";
import { deflateRawSync } from "node:zlib";
import * as share from "../../web/page/share.js";
import { MAX_LINK_ACTIONS, MAX_LINK_CODE_CHARS, MAX_PACKED_CHARS, MAX_UNPACKED_BYTES } from "../../web/run/page-limits.js";

const { pack, unpack } = share;

/** A fragment's packed run made by Node's zlib (as fast as it gets for big inputs): base64url(deflate-raw(text)). */
const packText = (text) => deflateRawSync(Buffer.from(text)).toString("base64url");

/** JSON of exactly `bytes` bytes: a run whose code is x…x. */
const runOfBytes = (bytes) => `{"code":"${"x".repeat(bytes - '{"code":""}'.length)}"}`;

test("a link's run unpacks to what was packed", async () => {
  const run = { scenario: { title: "t", durationMs: 10 }, actions: [{ t: 0, op: "SendMessage", body: { MessageBody: "é ✓" }, caller: "you" }], code: "x = 1;" };
  assert.deepEqual(await unpack(await pack(run)), run);
});

test("a run unpacking to exactly the cap opens; one byte more is refused as a damaged link naming the cap", async () => {
  const fits = runOfBytes(MAX_UNPACKED_BYTES);
  assert.equal((await unpack(packText(fits))).code.length, fits.length - 11);
  await assert.rejects(unpack(packText(runOfBytes(MAX_UNPACKED_BYTES + 1))), (e) => {
    assert.equal(e.message, "This link's run could not be read: its run is larger than 4 MiB once unpacked, more than Queuelab opens.");
    return true;
  });
});

test("a small link that would inflate to hundreds of MiB stops at the cap", async () => {
  // 256 MiB of one byte deflates to about 250 KB: the 543 KB link of 400 MB that crashed a tab, at a size a test can build.
  const bomb = packText(`{"code":"${"0".repeat(256 * 1024 * 1024)}"}`);
  assert.ok(bomb.length < 400_000, `the link is small (${bomb.length} characters)`);
  await assert.rejects(unpack(bomb), /its run is larger than 4 MiB once unpacked/);
});

test("a packed run longer than a browser's address is refused before decoding, naming the bound", async () => {
  await assert.rejects(unpack("A".repeat(MAX_PACKED_CHARS + 1)), /its run is longer than 2 MiB of text before unpacking, more than a browser's address holds/);
});

test("a run cut short or changed is still called damaged in the usual words", async () => {
  const good = await pack({ code: "x".repeat(1000) });
  for (const bad of [good.slice(0, 20), `${good}!!`, "%%%", packText("{not json")]) {
    await assert.rejects(unpack(bad), /it was cut short or changed on the way/, bad.slice(0, 30));
  }
});

test("the damaged-link message says why and what was lost", () => {
  assert.equal(
    share.damagedMessage(3, "its run is larger than 4 MiB once unpacked, more than Queuelab opens"),
    "This link is damaged (its run is larger than 4 MiB once unpacked, more than Queuelab opens): the scenario opened without your 3 actions (and any changed settings or code). Ask for a shorter run.",
  );
  assert.match(share.damagedMessage(null), /^This link is damaged \(it was cut short or changed on the way\): the scenario opened without the run's changes, actions and code\. Ask for the link again/);
});

const action = (t, i = 0) => ({ t, op: "SendMessage", body: { QueueUrl: "q", MessageBody: `m${i}` }, caller: "you" });

test("a link's recorded actions past the cap: the first ones are kept, and the page says from when the run may differ", () => {
  const actions = Array.from({ length: MAX_LINK_ACTIONS + 2 }, (_, i) => action(i < MAX_LINK_ACTIONS ? 0 : 1500, i));
  const run = share.boundedRun({ actions });
  assert.equal(run.actions.length, MAX_LINK_ACTIONS);
  assert.deepEqual(run.actions, actions.slice(0, MAX_LINK_ACTIONS));
  assert.deepEqual(run.notes, ["This link carries 20,002 recorded actions, more than a link replays (20,000): the run makes the first 20,000, so from t = 1.5 s it may differ from the run that was shared."]);

  const within = share.boundedRun({ actions: actions.slice(0, MAX_LINK_ACTIONS) });
  assert.equal(within.actions.length, MAX_LINK_ACTIONS, "up to the cap, every action is kept");
  assert.deepEqual(within.notes, []);
});

test("a link's code past the cap is not put in the code cell, saying so; code within it is", () => {
  const long = share.boundedRun({ code: "x".repeat(MAX_LINK_CODE_CHARS + 1) });
  assert.equal(long.code, null);
  assert.deepEqual(long.notes, ["This link's code is 65,537 characters, more than the code cell takes from a link (65,536), so the cell shows its own code instead."]);
  assert.equal(share.boundedRun({ code: "y".repeat(MAX_LINK_CODE_CHARS) }).code.length, MAX_LINK_CODE_CHARS);
  assert.equal(share.boundedRun({}).code, null, "no code, none shown");
});

test("entries of a link's actions that are not actions are left out, saying how many", () => {
  const run = share.boundedRun({ actions: [action(5), null, { t: "soon", op: "SendMessage" }, { t: 7 }, action(9)] });
  assert.deepEqual(run.actions, [action(5), action(9)]);
  assert.deepEqual(run.notes, ["3 of this link's recorded actions are not an action (each needs a moment t in ms and an operation op), so the run goes on without them."]);
  assert.deepEqual(share.boundedRun({ actions: "all of them" }).actions, [], "a list that is not a list brings none");
});

test("a run file larger than a link's run unpacks to is refused before it is read", async () => {
  const text = JSON.stringify({ queuelabRun: 1, stem: "01-process-then-delete", code: "z".repeat(MAX_UNPACKED_BYTES) });
  await assert.rejects(share.linkFromRunFile("http://example.test/index.html", text), /^Error: This run is larger than 4 MiB, more than Queuelab opens\.$/);
});
