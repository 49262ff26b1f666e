// Golden files for the Node tests, as crates/golden is for the Rust ones:
// a test compares what it produced with a file under tests/fixtures/, or,
// with QUEUELAB_BLESS set, rewrites the file and FAILS, naming it, so a
// stray variable never passes for a checking run. Review the diff, then run
// the test again without it.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const BLESS_VAR = "QUEUELAB_BLESS";
const root = fileURLToPath(new URL("../../", import.meta.url));

/** Where two texts first differ, in words (null when equal). */
export function firstDifference(expected, actual) {
  if (expected === actual) return null;
  const e = expected.split("\n");
  const a = actual.split("\n");
  let line = 0;
  while (line < e.length && line < a.length && e[line] === a[line]) line++;
  return `differs from line ${line + 1}:\n  expected: ${e[line] ?? "<end of file>"}\n  actual:   ${a[line] ?? "<end of file>"}\n(${e.length} lines expected, ${a.length} actual)`;
}

/**
 * Checks `actual` against the text of the file at `path` (a path or a file
 * URL) byte for byte; when blessing (QUEUELAB_BLESS set, or `blessing`),
 * writes it instead and throws.
 */
export function checkGolden(path, actual, { blessing = process.env[BLESS_VAR] !== undefined } = {}) {
  const file = path instanceof URL ? fileURLToPath(path) : path;
  const shown = relative(root, file);
  if (blessing) {
    const before = existsSync(file) ? readFileSync(file, "utf8") : null;
    if (before !== actual) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, actual);
    }
    assert.fail(
      `${BLESS_VAR} is set, so this test wrote ${shown} (${before === actual ? "already up to date" : "rewritten"}) ` +
        `instead of checking it, and fails on purpose: review the diff (git diff tests/fixtures), then run again without ${BLESS_VAR}.`,
    );
  }
  if (!existsSync(file)) assert.fail(`${shown} is missing: run with ${BLESS_VAR}=1 to write it, then review it`);
  const difference = firstDifference(readFileSync(file, "utf8"), actual);
  if (difference) assert.fail(`${shown} ${difference}\n(${BLESS_VAR}=1 rewrites it after an intended change)`);
}
