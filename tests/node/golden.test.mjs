// The Node tests' golden files (golden.mjs): a blessing run writes and
// fails, a checking run writes nothing and fails at the first difference.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkGolden } from "./golden.mjs";

function inTempDir(body) {
  const dir = mkdtempSync(join(tmpdir(), "queuelab-golden-"));
  try {
    body(dir);
  } finally {
    rmSync(dir, { recursive: true });
  }
}

test("a blessing run writes the golden file and then fails, naming it", () => {
  inTempDir((dir) => {
    const file = join(dir, "sub", "run.txt");
    assert.throws(() => checkGolden(file, "fresh\n", { blessing: true }), /QUEUELAB_BLESS is set, so this test wrote .*run\.txt \(rewritten\)/);
    assert.equal(readFileSync(file, "utf8"), "fresh\n");
    assert.throws(() => checkGolden(file, "fresh\n", { blessing: true }), /already up to date/);
  });
});

test("a checking run passes on the same bytes, and otherwise fails at the first line that differs, writing nothing", () => {
  inTempDir((dir) => {
    const file = join(dir, "run.txt");
    writeFileSync(file, "one\ntwo\n");
    checkGolden(file, "one\ntwo\n", { blessing: false });
    assert.throws(() => checkGolden(file, "one\n2\n", { blessing: false }), /differs from line 2:\n {2}expected: two\n {2}actual: {3}2/);
    assert.equal(readFileSync(file, "utf8"), "one\ntwo\n");
    assert.throws(() => checkGolden(join(dir, "none.txt"), "x", { blessing: false }), /missing: run with QUEUELAB_BLESS=1/);
  });
});
