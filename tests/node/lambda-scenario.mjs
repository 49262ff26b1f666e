// A scenario with three Lambda functions, for the tests of the stage's
// Lambda view (tests/node/derive.test.mjs, tests/browser/lambdas.test.mjs):
// one whose batches run, one of them partly failing (a poison order, with
// ReportBatchItemFailures); one Lambda refuses to connect (its timeout is
// above its queue's visibility timeout); one throttled at every hand-over
// (reserved concurrency 0).
const orders = Array.from({ length: 14 }, (_, i) => ({
  atMs: 200 + i * 150,
  body: i === 3 ? `order A-${1001 + i}: {malformed json` : `order A-${1001 + i}: charge $${10 + i}`,
}));

export const LAMBDA_SCENARIO = {
  title: "Lambda on the stage",
  seed: 7,
  durationMs: 12000,
  queues: [
    { name: "orders", visibilityTimeoutSeconds: 6 },
    { name: "emails", visibilityTimeoutSeconds: 10 },
    { name: "reports", visibilityTimeoutSeconds: 30 },
  ],
  producers: [
    { name: "shop", queue: "orders", sends: orders },
    { name: "reporter", queue: "reports", sends: [{ atMs: 500, body: "report R-1" }] },
  ],
  lambdas: [
    { name: "process-orders", queue: "orders", batchSize: 4, maximumBatchingWindowInSeconds: 1, functionResponseTypes: ["ReportBatchItemFailures"], maximumConcurrency: 2, timeoutSeconds: 5,
      handler: { processing: { fixedMs: 600 }, failsOn: ["malformed"] } },
    { name: "send-emails", queue: "emails", timeoutSeconds: 20, handler: { processing: { fixedMs: 100 } } },
    { name: "build-reports", queue: "reports", reservedConcurrency: 0, timeoutSeconds: 3, handler: { processing: { fixedMs: 100 } } },
  ],
};
