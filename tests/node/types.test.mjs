// The package's TypeScript declarations, checked by the compiler:
// tests/types/usage.ts uses the element, the SDK adapter (with the real
// @aws-sdk/client-sqs types), the client and the wasm package as their
// users would, and marks misuse that must not compile.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));

test("the TypeScript declarations compile with strict settings and reject misuse", () => {
  const tsc = spawnSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tests/types/tsconfig.json"], { cwd: root, encoding: "utf8" });
  assert.equal(tsc.status, 0, `tsc reported:\n${tsc.stdout}${tsc.stderr}`);
});
