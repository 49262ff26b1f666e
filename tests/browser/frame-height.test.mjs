// The host page's line of the iframe snippet (web/page/frame-height.js,
// HOST_SNIPPET) sizes a Queuelab iframe to the height the embed view posts.
// Issue 25: it trusted any frame's height message, so a hostile child of a
// course page could set itself (or be set) 1e9 px tall. Now only a frame of
// Queuelab's own origin is heard, and a height is clamped to
// MAX_EMBED_HEIGHT.
import { test } from "node:test";
import assert from "node:assert/strict";
import { baseUrl, open } from "./harness.mjs";
import { HEIGHT_MESSAGE, MAX_EMBED_HEIGHT } from "../../web/page/frame-height.js";

const html = (body) => ({ body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title></head><body>${body}</body></html>`, contentType: "text/html" });

/** A course page with the snippet, a Queuelab-origin frame and two hostile ones (another origin; a sandboxed one, origin "null"). */
async function coursePage() {
  // The snippet as the Embed… dialog gives it: made in a page of Queuelab's origin.
  const { page: made, close: closeMade } = await open("web/page/frame-height.js", { readyWhen: "body" });
  const snippet = await made.evaluate(async () => (await import("/web/page/frame-height.js")).HOST_SNIPPET);
  await closeMade();
  const other = baseUrl.replace("127.0.0.1", "localhost");
  const course = html(`
    <iframe id="lab" src="${baseUrl}queuelab-frame.html" style="border:0"></iframe>
    <iframe id="elsewhere" src="${other}hostile.html" style="border:0"></iframe>
    <iframe id="sandboxed" sandbox="allow-scripts" srcdoc="<p>ad</p>" style="border:0"></iframe>
    ${snippet}`);
  const opened = await open("course.html", {
    routes: { "course.html": course, "queuelab-frame.html": html("<p>lab</p>"), "hostile.html": html("<p>hostile</p>") },
    readyWhen: "iframe#sandboxed",
  });
  await opened.page.waitForFunction(() => [...document.querySelectorAll("iframe")].every((f) => f.contentWindow.length === 0));
  return opened;
}

/** Posts a height message from the frame whose element has `id`, then waits for it to be handled. */
async function post(page, id, height) {
  await frameOf(page, id).evaluate(({ type, height }) => parent.postMessage({ type, height }, "*"), { type: HEIGHT_MESSAGE, height });
  // A message from the page itself is handled after the one posted before it.
  await page.evaluate(() => new Promise((done) => { addEventListener("message", function once(e) { if (e.data === "flush") { removeEventListener("message", once); done(); } }); postMessage("flush", "*"); }));
}

function frameOf(page, id) {
  const urls = { lab: "queuelab-frame.html", elsewhere: "hostile.html", sandboxed: "about:srcdoc" };
  return page.frames().find((f) => f.url().endsWith(urls[id]));
}

const heights = (page) => page.evaluate(() => Object.fromEntries([...document.querySelectorAll("iframe")].map((f) => [f.id, f.getBoundingClientRect().height])));

test("the host line ignores a height posted by a frame of another origin than Queuelab's", async () => {
  const { page, problems, close } = await coursePage();
  const before = await heights(page);
  await post(page, "elsewhere", 1e9);
  await post(page, "sandboxed", 1e9);
  assert.deepEqual(await heights(page), before, "neither hostile frame was resized");
  await post(page, "lab", 640);
  assert.equal((await heights(page)).lab, 640, "Queuelab's frame is");
  assert.deepEqual(problems, []);
  await close();
});

test("the host line clamps a Queuelab frame's height to MAX_EMBED_HEIGHT and ignores one that is no number", async () => {
  const { page, close } = await coursePage();
  assert.equal(MAX_EMBED_HEIGHT, 20_000);
  await post(page, "lab", 1e9);
  assert.equal((await heights(page)).lab, MAX_EMBED_HEIGHT);
  await post(page, "lab", 500);
  for (const bad of ["1e9", null, -5, Infinity]) await post(page, "lab", bad);
  assert.equal((await heights(page)).lab, 500, "a height that is no finite number >= 0 changes nothing");
  await close();
});
