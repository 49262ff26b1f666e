// Loads the wasm build in Node the way a test suite outside the browser
// would: initSync with the module bytes.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defaults, initSync, operations, Playground } from "../../web/pkg/queuelab.js";

const wasm = fileURLToPath(new URL("../../web/pkg/queuelab_bg.wasm", import.meta.url));
initSync({ module: readFileSync(wasm) });

export { defaults, operations, Playground };

/** Calls an operation and returns { status, body (parsed), headers }. */
export async function call(pg, operation, body, options) {
  const res = await pg.dispatch(`AmazonSQS.${operation}`, JSON.stringify(body), options);
  return { status: res.status, headers: res.headers, body: JSON.parse(res.body) };
}
