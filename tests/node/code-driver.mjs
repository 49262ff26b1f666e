// The code cell's JavaScript run in Node as the page runs it: the same
// scope (web/client/code-scope.js) over a Playground, and a driver that
// plays the clock's part. On the page, play moves virtual time frame by
// frame and holds at the moment a `sleep` ends (lab/clock.js, hold);
// here, whenever the code is waiting (its promises have all settled as
// far as they can), the driver moves the engine to the next moment
// anything happens: the earliest `sleep` ending or the engine's own next
// event (a long poll's answer or timeout, a delay or visibility timeout
// ending). The code goes on at that moment, as it would on the page.
// Nothing of SQS is imitated: every request goes to the engine.

import { codeScope, compileCode, showValue } from "../../web/client/code-scope.js";

/** What a run may reach before the driver calls it stuck (the page's bound is the scenario's length). */
const DEFAULT_LIMIT_MS = 2 * 24 * 3_600_000;
/** Moves of the clock a run may take (each is one moment something happens). */
const MAX_STEPS = 200_000;

/** Lets every promise the code has chained settle: one macrotask, after which the microtask queue is empty. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Runs `code` against `pg` until it finishes or fails. Resolves with
 * `{ error, value, lines, endedAt }`: `error` what the code threw (or
 * null), `lines` its console output as `{ t (virtual ms), kind, text, args }`.
 * Rejects when the code waits for nothing that will ever happen, or
 * runs past `limitMs` of virtual time: a driver's failure, not the code's.
 * @param {any} pg a Playground
 * @param {string} code
 * @param {{ caller?: string, epochMs?: number, limitMs?: number }} [options] `epochMs`:
 *   the epoch ms that virtual time 0 stands for (the Playground's `startEpochMs`).
 */
export async function runCode(pg, code, { caller = "your code", epochMs = 0, limitMs = DEFAULT_LIMIT_MS } = {}) {
  const sleepers = [];
  const lines = [];
  const say = (kind) => (...args) => lines.push({ t: pg.now(), kind, text: args.map(showValue).join(" "), args });
  const scope = codeScope({
    target: pg,
    caller,
    console: { log: say("log"), info: say("log"), debug: say("log"), warn: say("warn"), error: say("error"), table: say("log"), dir: say("log") },
    sleep: (ms) => new Promise((wake) => sleepers.push({ t: pg.now() + Math.max(0, Number(ms) || 0), wake })),
    now: () => epochMs + pg.now(),
    lambda: { attach: () => Promise.reject(new Error("lambda.attach is not driven in Node")), detach: () => {} },
  });
  const fn = compileCode(code, scope);
  const outcome = { done: false, error: null, value: undefined };
  fn(...Object.values(scope)).then(
    (value) => Object.assign(outcome, { done: true, value }),
    (error) => Object.assign(outcome, { done: true, error }),
  );
  for (let steps = 0; ; steps++) {
    await settle();
    if (outcome.done) break;
    if (steps >= MAX_STEPS) throw new Error(`the code still runs after ${MAX_STEPS} moves of the clock (at ${pg.now()} ms)`);
    const now = pg.now();
    const due = sleepers.filter((s) => s.t <= now);
    if (due.length > 0) {
      for (const s of due) sleepers.splice(sleepers.indexOf(s), 1);
      for (const s of due) s.wake();
      continue;
    }
    const next = Math.min(...sleepers.map((s) => s.t), pg.nextEventTime() ?? Infinity);
    if (next === Infinity) throw new Error(`the code waits at ${now} ms for something that never comes (no sleep, no poll, nothing due)`);
    if (next > limitMs) throw new Error(`the code still waits at ${now} ms; its next moment, ${next} ms, is past the run's ${limitMs} ms`);
    pg.advance(Math.max(0, next - now));
  }
  return { error: outcome.error, value: outcome.value, lines, endedAt: pg.now() };
}

/**
 * The code with one of its settings changed: the line `const NAME = …;`
 * (which must appear exactly once) gets `value`, as JSON. What a learner
 * does by editing a number, so a test can try other numbers.
 */
export function withSetting(code, name, value) {
  const line = new RegExp(`^const ${name} = .*;$`, "m");
  const count = code.split("\n").filter((l) => line.test(l)).length;
  if (count !== 1) throw new Error(`the code has ${count} lines "const ${name} = …;", not one`);
  return code.replace(line, `const ${name} = ${JSON.stringify(value)};`);
}
