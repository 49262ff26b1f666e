// Runs fuzz inputs in worker threads (worker.mjs) under a watchdog, and
// gathers the figures. Used by the test (a bounded count) and by
// scripts/fuzz.sh (any count, or minutes).
//
// The watchdog: each worker publishes, in shared memory, the input it is
// running and how many it has finished. If that count does not move for
// `hangMs`, the input is recorded as a hang (with the input), the thread is
// terminated and a new one carries on after it. The threshold is a tool's
// setting, not a test assertion: a slow machine may need a larger one.

import { Worker } from "node:worker_threads";
import { readFileSync, readdirSync } from "node:fs";
import { generate } from "./inputs.mjs";

const ROOT = new URL("../../", import.meta.url);
export const CORPUS_DIR = new URL("tests/fuzz/corpus/", ROOT);

/** The texts of the shipped scenarios (web/scenarios/*.json, not the schema or index). */
export function shippedScenarios() {
  const dir = new URL("web/scenarios/", ROOT);
  return readdirSync(dir)
    .filter((f) => /^\d+-.*\.json$/.test(f))
    .sort()
    .map((f) => readFileSync(new URL(f, dir), "utf8"));
}

/** The corpus: [{ name, input }] from tests/fuzz/corpus/*.json, in name order. */
export function readCorpus(dir = CORPUS_DIR) {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => ({ name: f, input: JSON.parse(readFileSync(new URL(f, dir), "utf8")).input }));
}

/**
 * Fuzzes. Options: `seed`; `count` inputs (split among `workers`) or
 * `minutes`; `items` (corpus entries, run first); `hangMs`; `sampleEvery`
 * (every n-th input runs twice for determinism); `keepDigests` (the
 * figures then list each sampled input's digest, `{ index, name, digest }`
 * in input order, for a test to hold to a golden file); `pkg` (URL of the wasm
 * package directory); `onFailure(failure)`; `onProgress(figures)` every
 * `progressMs`. Resolves to the figures: { tried, calls (steps run, a
 * failing input's not counted), traps, hangs, invariant, crashes, failures,
 * seconds, perSecond }.
 */
export async function fuzz({ seed = 1, count = Infinity, minutes = null, workers = 1, items = [], hangMs = 10_000, sampleEvery = 50, keepDigests = false, pkg = new URL("web/pkg/", ROOT), onFailure = () => {}, onProgress = null, progressMs = 10_000 } = {}) {
  const shipped = shippedScenarios();
  const began = Date.now();
  const deadline = minutes == null ? Number.MAX_SAFE_INTEGER : began + minutes * 60_000;
  const figures = { tried: 0, calls: 0, traps: 0, hangs: 0, invariant: 0, crashes: 0, failures: [], digests: [] };
  const operations = await glueOperations(pkg); // to redraw a hung input here

  const record = (f) => {
    figures.failures.push(f);
    if (f.kind === "trap") figures.traps++;
    else if (f.kind === "hang") figures.hangs++;
    else if (f.kind === "crash") figures.crashes++;
    else figures.invariant++;
    onFailure(f);
  };

  const inputAt = (index, pending) => (index < 0 ? pending[-1 - index]?.input : generate(seed, index, { operations, shipped }));

  // One slot per worker: a range of input numbers, respawned after a hang, a crash or a recycle.
  const perWorker = Number.isFinite(count) ? Math.ceil(count / workers) : 2 ** 40;
  const slots = Array.from({ length: workers }, (_, w) => ({ start: w * perWorker, end: Number.isFinite(count) ? Math.min(count, (w + 1) * perWorker) : (w + 1) * perWorker, items: w === 0 ? items : [] }));

  const runSlot = (slot) =>
    new Promise((resolve) => {
      const progress = new SharedArrayBuffer(24);
      const shared = new BigInt64Array(progress); // see worker.mjs
      shared[0] = BigInt(slot.start);
      const worker = new Worker(new URL("./worker.mjs", import.meta.url), { workerData: { pkg: pkg.href, seed, start: slot.start, end: slot.end, deadline, items: slot.items, sampleEvery, keepDigests, shipped, progress } });
      let done = 0;
      let calls = 0;
      let movedAt = Date.now();
      let finished = false;
      const counted = () => {
        const now = Number(Atomics.load(shared, 1));
        const made = Number(Atomics.load(shared, 2));
        figures.tried += now - done;
        figures.calls += made - calls;
        done = now;
        calls = made;
      };
      const next = (after) => {
        if (finished) return;
        finished = true;
        clearInterval(watchdog);
        counted();
        if (after == null) return resolve();
        // Carry on after `after` (an input number, or -1 - k for corpus item k).
        const rest = after < 0 ? { ...slot, items: slot.items.slice(-1 - after + 1) } : { ...slot, start: after + 1, items: [] };
        resolve(rest.items.length || rest.start < rest.end ? runSlot(rest) : undefined);
      };
      const watchdog = setInterval(() => {
        const now = Number(Atomics.load(shared, 1));
        if (now !== done) {
          counted();
          movedAt = Date.now();
        } else if (Date.now() - movedAt > hangMs) {
          const at = Number(Atomics.load(shared, 0));
          worker.terminate();
          figures.tried++;
          record({ kind: "hang", index: at, name: at < 0 ? slot.items[-1 - at]?.name : undefined, message: `no answer within ${hangMs} ms`, input: inputAt(at, slot.items) });
          next(at);
        }
      }, Math.min(250, hangMs / 4));
      worker.on("message", (m) => {
        if (m.type === "failure") record(m);
        else if (m.type === "digest") figures.digests.push({ index: m.index, name: m.name, digest: m.digest });
        else if (m.type === "recycle") {
          worker.terminate();
          next(m.next - 1);
        } else if (m.type === "done") {
          worker.terminate();
          next(null);
        }
      });
      worker.on("error", (e) => {
        const at = Number(Atomics.load(shared, 0));
        figures.tried++;
        record({ kind: "crash", index: at, message: `the worker died: ${e?.message ?? e}`, input: inputAt(at, slot.items) });
        next(at);
      });
      worker.on("exit", () => next(null));
    });

  const ticker = onProgress && setInterval(() => onProgress(summary(figures, began)), progressMs);
  await Promise.all(slots.map(runSlot));
  figures.digests.sort((a, b) => a.index - b.index);
  if (ticker) clearInterval(ticker);
  return summary(figures, began);
}

function summary(figures, began) {
  const seconds = (Date.now() - began) / 1000;
  return { ...figures, seconds, perSecond: figures.tried / Math.max(seconds, 1e-9) };
}

/** The engine's operations(), from an instance of the package in this thread. */
async function glueOperations(pkg) {
  const glue = await import(`${new URL("queuelab.js", pkg)}?fuzz-pool`);
  glue.initSync({ module: readFileSync(new URL("queuelab_bg.wasm", pkg)) });
  return glue.operations();
}
