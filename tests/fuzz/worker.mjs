// A fuzzing worker thread: runs corpus inputs, then generated inputs
// [start, end), and reports failures to the pool (pool.mjs). Its progress
// is in shared memory, so the pool's watchdog sees a hung input even while
// this thread is stuck inside wasm.
import { parentPort, workerData } from "node:worker_threads";
import { readFileSync } from "node:fs";
import { generate } from "./inputs.mjs";
import { execute, FuzzFailure } from "./run.mjs";

const { pkg, seed, start, end, deadline, items, sampleEvery, keepDigests, shipped, progress } = workerData;
// [0] the input running now (-1 - k for corpus item k), [1] inputs done, [2] calls made (steps)
const shared = new BigInt64Array(progress);
const wasm = new WebAssembly.Module(readFileSync(new URL("queuelab_bg.wasm", pkg)));

let copies = 0;
/** A fresh copy of the glue and its own instance (after a trap the old one is broken). */
async function instantiate() {
  const glue = await import(`${new URL("queuelab.js", pkg)}?fuzz=${process.pid}-${start}-${copies++}`);
  glue.initSync({ module: wasm });
  return glue;
}

let glue = await instantiate();
const operations = glue.operations();

async function one(input, label) {
  try {
    const first = await execute(input, glue);
    Atomics.add(shared, 2, BigInt(first.steps));
    if (sampleEvery && label.index % sampleEvery === 0) {
      const again = await execute(input, glue);
      if (again.digest !== first.digest) throw new FuzzFailure("invariant", "the same input gave different bytes on a second run (determinism)", again.steps);
      if (keepDigests) parentPort.postMessage({ type: "digest", index: label.index, name: label.name, digest: first.digest });
    }
  } catch (e) {
    const f = e instanceof FuzzFailure ? e : new FuzzFailure("invariant", `the fuzzer itself failed: ${e?.stack ?? e}`);
    parentPort.postMessage({ type: "failure", ...label, kind: f.kind, message: f.message, input });
    if (f.kind === "trap") glue = await instantiate();
  }
  Atomics.add(shared, 1, 1n);
}

for (let k = 0; k < items.length; k++) {
  Atomics.store(shared, 0, BigInt(-1 - k));
  await one(items[k].input, { name: items[k].name, index: -1 - k });
}
// A trapped instance's memory stays with its copy of the glue (modules are
// never unloaded), so after a few traps the thread asks to be replaced.
const RECYCLE_AFTER = 16;
for (let i = start; i < end && Date.now() < deadline; i++) {
  Atomics.store(shared, 0, BigInt(i));
  await one(generate(seed, i, { operations, shipped }), { index: i });
  if (copies > RECYCLE_AFTER && i + 1 < end) {
    parentPort.postMessage({ type: "recycle", next: i + 1 });
    process.exit(0);
  }
}
parentPort.postMessage({ type: "done" });
