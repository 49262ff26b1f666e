// The fuzz target of the test command: random requests, random valid
// sessions and random (mutated) scenarios through the wasm contract, with
// the invariants of tests/fuzz/run.mjs checked after every step. A fixed
// seed and a fixed count (about a minute on the project's 2-core machine, a worker per core);
// the checked-in corpus of past failures (tests/fuzz/corpus/*.json) runs
// first. scripts/fuzz.sh runs the same fuzzing for as long as asked.
//
// A failure prints its input as a corpus file's text: save it as
// tests/fuzz/corpus/<what-it-is>.json, and it is replayed from then on.
import { test } from "node:test";
import { availableParallelism } from "node:os";
import assert from "node:assert/strict";
import { fuzz, readCorpus } from "../fuzz/pool.mjs";
import { checkGolden } from "./golden.mjs";

const SEED = 20261201;
const COUNT = 5000;
// The watchdog's threshold: a tool setting (an input that takes longer is
// reported, with its input, as a hang), about a hundred times an input's
// usual cost; QUEUELAB_TEST_TIMEOUT_SCALE stretches it on a slow machine.
const HANG_MS = 10_000 * (Number(process.env.QUEUELAB_TEST_TIMEOUT_SCALE) || 1);
const SHOWN = 5;

/** The failures in words, each with its input as a corpus entry. */
function report(failures) {
  const lines = failures.slice(0, SHOWN).map((f) => {
    const entry = JSON.stringify({ note: `${f.kind}: ${f.message}`.slice(0, 500), input: f.input });
    return `- ${f.name ?? `input #${f.index}`}: ${f.kind}: ${f.message}\n  corpus entry (${entry.length} characters): ${entry.length > 20_000 ? `${entry.slice(0, 20_000)}…` : entry}`;
  });
  if (failures.length > SHOWN) lines.push(`… and ${failures.length - SHOWN} more: ${failures.slice(SHOWN).map((f) => `${f.name ?? `#${f.index}`} (${f.kind}: ${f.message.slice(0, 120)})`).join("; ")}`);
  return `${failures.length} failures:\n${lines.join("\n")}`;
}

test("every input of the corpus of past failures now runs without a trap, a hang or a broken invariant", async () => {
  const corpus = readCorpus();
  assert.ok(corpus.length >= 8, "the corpus holds the failures issue 10 found");
  const figures = await fuzz({ items: corpus, count: 0, hangMs: HANG_MS, sampleEvery: 1 });
  assert.equal(figures.tried, corpus.length);
  assert.equal(figures.failures.length, 0, report(figures.failures));
});

// Every 25th input runs twice in its worker (the same bytes in one process)
// and its digest is held to tests/fixtures/determinism/fuzz-digests.txt
// (the same bytes in every process and build). QUEUELAB_BLESS=1 node --test
// tests/node/fuzz.test.mjs rewrites that file (and fails).
test(`${COUNT} random requests, sessions and scenarios (seed ${SEED}): no trap, no hang, every invariant holds, and replays give the bytes of their golden file`, async () => {
  // A worker per core (two at most): each takes its own range of input numbers.
  const workers = Math.max(1, Math.min(2, availableParallelism()));
  const figures = await fuzz({ seed: SEED, count: COUNT, workers, hangMs: HANG_MS, sampleEvery: 25, keepDigests: true });
  assert.equal(figures.tried, COUNT);
  assert.equal(figures.failures.length, 0, report(figures.failures));
  assert.equal(figures.digests.length, COUNT / 25);
  const lines = [...figures.digests].sort((a, b) => a.index - b.index).map((d) => `${d.index} ${d.digest}\n`).join("");
  checkGolden(new URL("../fixtures/determinism/fuzz-digests.txt", import.meta.url), `# seed ${SEED}: input number, SHA-256 of all it answered (tests/fuzz/run.mjs)\n${lines}`);
});
