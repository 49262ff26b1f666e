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
