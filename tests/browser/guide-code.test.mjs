// The patterns guide's code on the full page: the code cell's picker puts
// a pattern's code in the editor with its pattern's scenario, never runs
// it by itself, and Run plays it: request-response as the guide writes it
// fails as the guide's code does on AWS (its second request asks for a
// reply queue of a name deleted less than 60 s before), and fixed runs to
// its end.
import { test } from "node:test";
import assert from "node:assert/strict";
import { open } from "./harness.mjs";

test("the cell's picker loads the guide's request-response with its scenario; as written it fails with QueueDeletedRecently, fixed it finishes", async () => {
  const { page, problems, close } = await open("index.html?scenario=process-then-delete&speed=max&checkpoints=off");
  const pick = async (label) => {
    await page.locator("#code-example").selectOption({ label });
    await page.waitForSelector(`#code-status:text('is in the editor')`);
  };
  await pick("Request-response, as the guide writes it");
  assert.equal(await page.locator("#scenario").inputValue(), "26-request-response", "its pattern's scenario is loaded");
  assert.match(await page.locator("#code-text").inputValue(), /^\/\/ The patterns guide's request-response, as written/);
  assert.equal(await page.locator("#code-out li").count(), 0, "shown, not run");
  assert.equal(await page.locator("#code-example").inputValue(), "", "the picker is ready for another choice");

  await page.locator("#code-run").click();
  await page.waitForSelector("#code-status:text('Failed.')");
  assert.match(await page.locator("#code-out .out-error").last().textContent(), /QueueDeletedRecently/);

  await pick("Request-response, fixed");
  assert.match(await page.locator("#code-text").inputValue(), /^\/\/ The patterns guide's request-response, fixed/);
  await page.locator("#code-run").click();
  await page.waitForSelector("#code-status:text('Finished')");
  assert.equal(await page.locator("#code-out .out-error").count(), 0, "no error: one reply queue, kept");
  assert.deepEqual(problems, []);
  await close();
});
