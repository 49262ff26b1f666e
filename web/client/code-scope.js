// What the code cell's JavaScript sees: the names in scope (the clients
// in the AWS SDK v3's shapes, every command class, the camelCase clients,
// `console`, `sleep`, a `Date` that tells virtual time, `lambda`) and the
// AsyncFunction made from the learner's text. The page's code cell
// (views/panels/code-cell.js) and the Node tests of the course's code
// (tests/node/patterns-code.test.mjs) build it here, so what a test runs
// is what the page runs; each host gives what is its own: the target
// requests go to, how output is shown, how `sleep` and `Date.now()` meet
// its clock, and `lambda`. Plain ES module, no DOM.

import { SqsClient, commands } from "./sqs-client.js";
import { SnsClient, commands as snsCommands } from "./sns-client.js";
import { S3Client, commands as s3Commands } from "./s3-client.js";
import { CloudWatchClient, commands as cloudwatchCommands } from "./cloudwatch-client.js";
import { accountOfAccessKey } from "./sdk.js";

const AsyncFunction = /** @type {new (...argsAndBody: string[]) => (...args: unknown[]) => Promise<unknown>} */ ((async () => {}).constructor);
// The lines a learner copies from an AWS example; the names they import
// are already in scope here, so the line becomes a comment (keeping line
// numbers in error messages).
const SDK_IMPORT = /^[ \t]*import\s[^;]*?from\s*["']@aws-sdk\/client-(sqs|sns|s3|cloudwatch)["'];?/gm;

/**
 * The names the code runs with, in the order `compileCode` takes them.
 * @param {{ target: object, caller: string, console: object, sleep: (ms: number) => Promise<void>,
 *           now: () => number, lambda: object }} host `target` carries every request
 *   (`dispatch(target, body, options)`); `now()` is the virtual moment in epoch
 *   milliseconds (what `Date.now()` and `new Date()` answer); `lambda` is
 *   `{ attach, detach }`.
 */
export function codeScope({ target, caller, console, sleep, now, lambda }) {
  // The SDK's client classes, as the cell has them. Of the SDK's config
  // only the credentials mean something here: an access key naming an
  // account acts as that account (sdk.js's convention), as does a
  // `principal`; region and endpoint do not.
  const sdkStyle = (Base) =>
    class extends Base {
      constructor(config) {
        super(target, codeCaller(config, caller));
      }
      destroy() {}
    };
  const allCommands = [commands, snsCommands, s3Commands, cloudwatchCommands].flatMap((c) => Object.entries(c));
  return {
    SQSClient: sdkStyle(SqsClient),
    SNSClient: sdkStyle(SnsClient),
    S3Client: sdkStyle(S3Client),
    CloudWatchClient: sdkStyle(CloudWatchClient),
    ...Object.fromEntries(allCommands.map(([op, C]) => [`${op}Command`, C])),
    sqs: new SqsClient(target, { caller }),
    sns: new SnsClient(target, { caller }),
    s3: new S3Client(target, { caller }),
    cloudwatch: new CloudWatchClient(target, { caller }),
    console,
    sleep,
    Date: virtualDate(now),
    lambda,
  };
}

/** The learner's text as an async function of the scope's names; throws the SyntaxError of text that does not parse. */
export function compileCode(code, scope) {
  return new AsyncFunction(...Object.keys(scope), code.replace(SDK_IMPORT, (line) => `// ${line}`));
}

/**
 * `Date` in virtual time: `Date.now()` and `new Date()` are the run's
 * moment, so a deadline the code computes (`Date.now() + 20_000`) passes
 * when 20 s of virtual time have, at any speed. Every other use is the
 * real Date's, and a Date a client made is still `instanceof Date`.
 */
function virtualDate(now) {
  const RealDate = Date;
  return class extends RealDate {
    /** @param {any[]} args as the real Date takes them (its overloads, passed on as given) */
    constructor(...args) {
      super(.../** @type {[any]} */ (args.length === 0 ? [now()] : args));
    }
    /** @override */
    static now() {
      return now();
    }
    /** @override */
    static [Symbol.hasInstance](value) {
      return value instanceof RealDate;
    }
  };
}

/**
 * Who an `SQSClient` of the cell calls as, from its config: `principal`
 * (with `sourceArn`, `sourceAccount`), else the account its access key
 * names; named by it in the log. Otherwise the queues' own account, under
 * the cell's name.
 */
function codeCaller(config, caller) {
  const principal = config?.principal ?? accountOfAccessKey(config?.credentials?.accessKeyId);
  if (principal == null) return { caller };
  return { principal, sourceArn: config?.sourceArn, sourceAccount: config?.sourceAccount };
}

/** An error as the learner needs it: the SQS error's name and message, or the JS error. */
export function describeError(e) {
  if (e == null || typeof e !== "object") return `Thrown: ${showValue(e)}`;
  const code = e.Code && e.Code !== e.name ? ` (${e.Code})` : "";
  // Some answers carry no text (an unknown operation): the name says it all.
  return e.message ? `${e.name ?? "Error"}${code}: ${e.message}` : `${e.name ?? "Error"}${code}`;
}

/** A console argument as text: strings as they are, everything else as JSON. */
export function showValue(v) {
  if (typeof v === "string") return v;
  if (v instanceof Error) return describeError(v);
  try {
    const json = JSON.stringify(v, (k, x) => (k === "$metadata" ? undefined : typeof x === "bigint" ? String(x) : x), 2);
    return json ?? String(v);
  } catch {
    return String(v);
  }
}
