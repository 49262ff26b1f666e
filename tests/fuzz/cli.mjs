// scripts/fuzz.sh: the test's fuzzing (pool.mjs) for as long as asked.
//
//   node tests/fuzz/cli.mjs [COUNT] [--minutes N] [--seed S] [--workers W]
//                           [--hang-ms MS] [--corpus DIR] [--pkg DIR] [--no-replay]
//
// Replays the corpus first (unless --no-replay), then runs COUNT inputs
// (default 100000) or for N minutes. Each new kind of failure (its kind and
// message, numbers aside) is written once into the corpus directory as
// <kind>-s<seed>-<input>.json, ready to be checked in. Prints the figures
// every 30 s and at the end; exits 1 if anything failed.
import { mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { pathToFileURL } from "node:url";
import { CORPUS_DIR, fuzz, readCorpus } from "./pool.mjs";

const USAGE = "usage: scripts/fuzz.sh [COUNT] [--minutes N] [--seed S] [--workers W] [--hang-ms MS] [--corpus DIR] [--pkg DIR] [--no-replay]";

function parse(argv) {
  const o = { count: null, minutes: null, seed: Date.now() % 2 ** 31, workers: Math.max(1, availableParallelism() - 1), hangMs: 10_000, corpus: CORPUS_DIR, pkg: undefined, replay: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const num = (name) => {
      const n = Number(argv[++i]);
      if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} needs a positive number. ${USAGE}`);
      return n;
    };
    if (a === "--minutes") o.minutes = num(a);
    else if (a === "--seed") o.seed = Math.floor(num(a));
    else if (a === "--workers") o.workers = Math.floor(num(a));
    else if (a === "--hang-ms") o.hangMs = num(a);
    else if (a === "--corpus") o.corpus = pathToFileURL(`${argv[++i].replace(/\/?$/, "/")}`);
    else if (a === "--pkg") o.pkg = pathToFileURL(`${argv[++i].replace(/\/?$/, "/")}`); // another wasm build, e.g. a merge's
    else if (a === "--no-replay") o.replay = false;
    else if (/^\d+$/.test(a)) o.count = Number(a);
    else throw new Error(`unknown argument ${a}. ${USAGE}`);
  }
  if (o.count == null && o.minutes == null) o.count = 100_000;
  return o;
}

const line = (f) =>
  `${f.tried} inputs (${f.calls} calls) in ${f.seconds.toFixed(0)} s (${f.perSecond.toFixed(0)} inputs/s): ${f.traps} traps, ${f.hangs} hangs, ${f.invariant} broken invariants, ${f.crashes} crashed workers`;

const o = parse(process.argv.slice(2));
mkdirSync(o.corpus, { recursive: true });
const seen = new Set();
const written = [];
const signature = (f) => `${f.kind}: ${f.message.replace(/\(.*?\)/g, "()").replace(/-?\d+(\.\d+)?/g, "#")}`.slice(0, 200);

console.log(`fuzzing: seed ${o.seed}, ${o.count != null ? `${o.count} inputs` : `${o.minutes} minutes`}, ${o.workers} worker(s), hang threshold ${o.hangMs} ms`);
const figures = await fuzz({
  seed: o.seed,
  count: o.count ?? Infinity,
  minutes: o.minutes,
  workers: o.workers,
  hangMs: o.hangMs,
  pkg: o.pkg,
  items: o.replay ? readCorpus(o.corpus) : [],
  onProgress: (f) => console.log(line(f)),
  progressMs: 30_000,
  onFailure(f) {
    const sig = signature(f);
    if (seen.has(sig) || f.name) {
      if (f.name && !seen.has(sig)) console.log(`corpus ${f.name} still fails: ${f.kind}: ${f.message.slice(0, 300)}`);
      seen.add(sig);
      return;
    }
    seen.add(sig);
    const file = new URL(`${f.kind}-s${o.seed}-${f.index}.json`, o.corpus);
    writeFileSync(file, `${JSON.stringify({ note: `${f.kind}: ${f.message}`.slice(0, 500), input: f.input }, null, 1)}\n`);
    written.push(file.pathname);
    console.log(`new failure (${f.kind}) at input ${f.index}: ${f.message.slice(0, 300)}\n  written to ${file.pathname}`);
  },
});
console.log(`\nfigures: ${line(figures)}`);
console.log(`distinct failures: ${seen.size}; new corpus files: ${written.length}`);
process.exit(figures.failures.length ? 1 : 0);
