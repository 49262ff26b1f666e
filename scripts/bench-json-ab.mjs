// Compares the JSON path of two or more wasm packages (built with
// `./scripts/build-wasm.sh <dir> -- --features bench`, or any package
// directory) in one Node process: the send -> receive -> delete cycle of
// scripts/bench-wasm.mjs, through `dispatch` and through `dispatchSync`,
// run in short turns that alternate between the packages, so a shared
// machine's slow and fast moments fall on all of them alike. Prints each
// package's median rate over the turns and its ratio to the first.
//
// Usage: node scripts/bench-json-ab.mjs <pkg-dir> <pkg-dir> [...] [--turns 40] [--cycles 3000]
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { performance } from "node:perf_hooks";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const [, value] = args.splice(at, 2);
  return Number(value);
};
const turns = option("--turns", 40);
const cycles = option("--cycles", 3000);
if (args.length < 2) {
  console.error("usage: node scripts/bench-json-ab.mjs <pkg-dir> <pkg-dir> [...] [--turns 40] [--cycles 3000]");
  process.exit(2);
}

/** One package's playground with a queue, and its two cycles. */
async function contender(dir) {
  const { initSync, Playground } = await import(`${resolve(dir)}/queuelab.js`);
  initSync({ module: readFileSync(`${resolve(dir)}/queuelab_bg.wasm`) });
  const pg = new Playground({ eventCapacity: 1000 });
  const { QueueUrl } = JSON.parse((await pg.dispatch("AmazonSQS.CreateQueue", '{"QueueName":"bench"}')).body);
  const send = JSON.stringify({ QueueUrl, MessageBody: "order A-1001: 2 x coffee beans" });
  const receive = JSON.stringify({ QueueUrl });
  const deleting = (got) => JSON.stringify({ QueueUrl, ReceiptHandle: JSON.parse(got.body).Messages[0].ReceiptHandle });
  return {
    dir,
    rates: { dispatch: [], dispatchSync: [] },
    async dispatch(n) {
      for (let i = 0; i < n; i++) {
        await pg.dispatch("AmazonSQS.SendMessage", send);
        await pg.dispatch("AmazonSQS.DeleteMessage", deleting(await pg.dispatch("AmazonSQS.ReceiveMessage", receive)));
      }
    },
    // Packages from before dispatchSync existed are compared on dispatch alone.
    dispatchSync: pg.dispatchSync && (async (n) => {
      for (let i = 0; i < n; i++) {
        pg.dispatchSync("AmazonSQS.SendMessage", send);
        pg.dispatchSync("AmazonSQS.DeleteMessage", deleting(pg.dispatchSync("AmazonSQS.ReceiveMessage", receive)));
      }
    }),
  };
}

const packages = [];
for (const dir of args) packages.push(await contender(dir));
const ways = ["dispatch", "dispatchSync"].filter((way) => packages.every((p) => typeof p[way] === "function"));
for (const p of packages) for (const way of ways) await p[way](cycles); // warm-up

for (let turn = 0; turn < turns; turn++) {
  // Each turn in a different order, so no package always runs first.
  const order = turn % 2 ? [...packages].reverse() : packages;
  for (const way of ways) {
    for (const p of order) {
      const start = performance.now();
      await p[way](cycles);
      p.rates[way].push(cycles / ((performance.now() - start) / 1000));
    }
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const way of ways) {
  const first = median(packages[0].rates[way]);
  for (const p of packages) {
    const m = median(p.rates[way]);
    console.log(`${way.padEnd(12)} ${p.dir.padEnd(32)} ${m.toFixed(0).padStart(8)} cycles/s (median of ${turns})  ${(m / first).toFixed(2)}x`);
  }
}
