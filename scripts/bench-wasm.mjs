// The wasm half of the benchmark, in Node: the typed send -> receive ->
// delete cycle inside wasm (same workload as native), and the same cycle
// driven from JavaScript through Playground.dispatch (what a page pays).
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

const [pkgDir, countArg] = process.argv.slice(2);
const n = Number(countArg ?? 1_000_000);
const { initSync, Playground, benchCycles } = await import(`${pkgDir}/queuelab.js`);
initSync({ module: readFileSync(`${pkgDir}/queuelab_bg.wasm`) });

benchCycles(n / 10); // warm-up
let start = performance.now();
benchCycles(n);
const typed = n / ((performance.now() - start) / 1000);
console.log(`send->receive->delete, typed API in wasm : ${typed.toFixed(0).padStart(12)} cycles/s`);

const pg = new Playground({ eventCapacity: 1000 });
const { QueueUrl } = JSON.parse((await pg.dispatch("AmazonSQS.CreateQueue", '{"QueueName":"bench"}')).body);
const send = JSON.stringify({ QueueUrl, MessageBody: "order A-1001: 2 x coffee beans" });
const receive = JSON.stringify({ QueueUrl });
const m = Math.max(1, Math.floor(n / 10));
start = performance.now();
for (let i = 0; i < m; i++) {
  await pg.dispatch("AmazonSQS.SendMessage", send);
  const got = JSON.parse((await pg.dispatch("AmazonSQS.ReceiveMessage", receive)).body);
  const ReceiptHandle = got.Messages[0].ReceiptHandle;
  await pg.dispatch("AmazonSQS.DeleteMessage", JSON.stringify({ QueueUrl, ReceiptHandle }));
}
const viaJs = m / ((performance.now() - start) / 1000);
console.log(`send->receive->delete, JS dispatch (JSON): ${viaJs.toFixed(0).padStart(12)} cycles/s`);

// The same cycle without a Promise per call (none of these calls waits).
start = performance.now();
for (let i = 0; i < m; i++) {
  pg.dispatchSync("AmazonSQS.SendMessage", send);
  const got = JSON.parse(pg.dispatchSync("AmazonSQS.ReceiveMessage", receive).body);
  const ReceiptHandle = got.Messages[0].ReceiptHandle;
  pg.dispatchSync("AmazonSQS.DeleteMessage", JSON.stringify({ QueueUrl, ReceiptHandle }));
}
const viaSync = m / ((performance.now() - start) / 1000);
console.log(`send->receive->delete, JS dispatchSync   : ${viaSync.toFixed(0).padStart(12)} cycles/s`);

// A scenario's replay from time 0 (what a scrub of the page costs): the
// simulation, the story and the engine together, without the page. The
// busy hour of scripts/bench-page.mjs; median of 5.
const hour = JSON.stringify({
  title: "one hour", seed: 3, durationMs: 3_600_000,
  queues: [{ name: "work", visibilityTimeoutSeconds: 5 }],
  producers: [{ name: "steady", queue: "work", rate: { everyMs: 2000, count: 1800, body: "job {n}" } }],
  consumers: ["w1", "w2", "w3"].map((name) => ({ name, queue: "work", waitTimeSeconds: 20, processing: { uniformMs: { min: 500, max: 6500 } } })),
});
const replays = [];
for (let i = 0; i < 5; i++) {
  start = performance.now();
  const run = Playground.fromScenario(hour);
  run.advance(3_600_000);
  run.free();
  replays.push(performance.now() - start);
}
replays.sort((a, b) => a - b);
console.log(`replay of a 1-hour scenario to its end  : ${replays[2].toFixed(1).padStart(12)} ms (median of 5)`);
