// Share links and embed snippets. A link names the scenario, seed, speed
// and moment in plain query parameters; what cannot be said that briefly
// (a scenario changed in Settings or the JSON editor, your own actions,
// the code cell's text) travels compressed in the fragment (#…), which no
// server ever sees, so no server's URL limit applies:
//   #actions=3&sum=1a2b3c4d&run=<base64url(deflate-raw(JSON))>
// `sum` (FNV-1a of the run text) comes before the run, and `actions`
// before both, so a link cut short still says what it lost. The engine is
// deterministic, so a link replays to exactly the same state. Links from
// before the fragment (`?run=` without a sum) still open.

import { HOST_SNIPPET } from "./frame-height.js";
import { isLab, shortName } from "../engine/stems.js";
import { MAX_LINK_ACTIONS, MAX_LINK_CODE_CHARS, MAX_LINK_RUN, MAX_PACKED_CHARS, MAX_UNPACKED_BYTES, sizeText } from "../run/page-limits.js";

export { MAX_LINK_RUN };

const PACKED = "run";

/** FNV-1a (32 bits) of `text`, as 8 hex digits: enough to tell a link cut short or changed. */
export function checksum(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

/** base64url(deflate-raw(JSON)) of `value`. */
export async function pack(value) {
  const stream = new Blob([JSON.stringify(value)]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Why a link's run could not be read, in the damaged-link message's words (`why`). */
export class DamagedRun extends Error {
  constructor(why) {
    super(`This link's run could not be read: ${why}.`);
    this.name = "DamagedRun";
    this.why = why;
  }
}

/** The usual damage: a link cut short or changed on the way. */
const CUT = "it was cut short or changed on the way";

/** The compressed bytes fed to the inflater at a time: deflate gives at most about 1,032 bytes a byte, so one feed inflates to about 1 MiB at most. */
const FEED_BYTES = 1024;

/**
 * The inverse of pack, within the page's bounds: a packed text longer than
 * MAX_PACKED_CHARS is refused before decoding, and inflating stops as soon
 * as it passes MAX_UNPACKED_BYTES. Throws a DamagedRun saying why.
 */
export async function unpack(text) {
  if (text.length > MAX_PACKED_CHARS) throw new DamagedRun(`its run is longer than ${sizeText(MAX_PACKED_CHARS)} of text before unpacking, more than a browser's address holds`);
  let bytes;
  try {
    const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  } catch {
    throw new DamagedRun(CUT);
  }
  const json = await inflate(bytes, MAX_UNPACKED_BYTES);
  try {
    return JSON.parse(json);
  } catch {
    throw new DamagedRun(CUT);
  }
}

/**
 * deflate-raw `bytes` inflated to text, counting bytes as they come and
 * stopping past `cap`. The input goes in FEED_BYTES at a time, so no one
 * step of the inflater can make much more than the cap (a stream given
 * all 543 KB at once may inflate all 400 MB before the first read).
 */
async function inflate(bytes, cap) {
  const ds = new DecompressionStream("deflate-raw");
  const writer = ds.writable.getWriter();
  const reader = ds.readable.getReader();
  const feeding = (async () => {
    for (let at = 0; at < bytes.length; at += FEED_BYTES) await writer.write(bytes.subarray(at, at + FEED_BYTES));
    await writer.close();
  })();
  feeding.catch(() => {}); // its failure (damaged data, or the cancel below) is the reader's too
  const decoder = new TextDecoder();
  const parts = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > cap) {
        reader.cancel().catch(() => {});
        throw new DamagedRun(`its run is larger than ${sizeText(cap)} once unpacked, more than Queuelab opens`);
      }
      parts.push(decoder.decode(value, { stream: true }));
    }
    await feeding;
  } catch (e) {
    throw e instanceof DamagedRun ? e : new DamagedRun(CUT);
  }
  parts.push(decoder.decode());
  return parts.join("");
}

/**
 * What a link's unpacked run (`extra`) brings in, within the page's
 * bounds: { scenario, actions, code, notes }. At most MAX_LINK_ACTIONS
 * actions (the first ones, then put in time order) and code of at most MAX_LINK_CODE_CHARS;
 * `notes` says in sentences what was left out and why.
 */
export function boundedRun(extra) {
  const notes = [];
  const listed = Array.isArray(extra?.actions) ? extra.actions : [];
  let actions = listed.filter(isAction);
  if (actions.length < listed.length) {
    const bad = listed.length - actions.length;
    notes.push(`${count(bad, "of this link's recorded actions is", "of this link's recorded actions are")} not an action (each needs a moment t in ms and an operation op), so the run goes on without ${bad === 1 ? "it" : "them"}.`);
  }
  if (actions.length > MAX_LINK_ACTIONS) {
    const from = actions.slice(MAX_LINK_ACTIONS).reduce((m, a) => Math.min(m, a.t), Infinity);
    notes.push(`This link carries ${count(actions.length, "recorded action")}, more than a link replays (${MAX_LINK_ACTIONS.toLocaleString("en")}): the run makes the first ${MAX_LINK_ACTIONS.toLocaleString("en")}, so from t = ${(from / 1000).toFixed(1)} s it may differ from the run that was shared.`);
    actions = actions.slice(0, MAX_LINK_ACTIONS);
  }
  let code = extra?.code == null ? null : String(extra.code);
  if (code != null && code.length > MAX_LINK_CODE_CHARS) {
    notes.push(`This link's code is ${count(code.length, "character")}, more than the code cell takes from a link (${MAX_LINK_CODE_CHARS.toLocaleString("en")}), so the cell shows its own code instead.`);
    code = null;
  }
  // In time order, as a run's journal is (a link the page made already is; the sort is stable).
  actions.sort((a, b) => a.t - b.t);
  return { scenario: extra?.scenario ?? null, actions, code, notes };
}

/** A recorded action as Run's journal holds it: a moment and an operation (a bad body is the engine's to answer). */
const isAction = (a) => a != null && typeof a === "object" && Number.isFinite(a.t) && a.t >= 0 && typeof a.op === "string";

/** "3 recorded actions", "1 recorded action"; `plural` for words that change more than by an s. */
const count = (n, one, plural = `${one}s`) => `${n.toLocaleString("en")} ${n === 1 ? one : plural}`;

/**
 * What a link asks for: { scenario, seed, speed, t, autoplay, embed,
 * checkpoints, packed, damaged, actions } where packed is the run still
 * compressed (read it with unpack), damaged says the fragment's run does
 * not match its checksum (a link cut short or changed), actions is how
 * many actions of yours the link says it carries (null if it does not
 * say), and checkpoints is false for `checkpoints=off` (the run plays
 * without asking). Absent parameters are null.
 */
export function readLink(search, hash = "") {
  const p = new URLSearchParams(search);
  const f = new URLSearchParams(hash.replace(/^#/, ""));
  const num = (k) => (p.get(k) == null || p.get(k).trim() === "" ? null : Number(p.get(k)));
  const inFragment = f.has(PACKED) || f.has("sum");
  const packed = inFragment ? f.get(PACKED) ?? "" : p.get(PACKED);
  const actions = f.get("actions");
  return {
    scenario: p.get("scenario"),
    lab: p.get("lab"),
    seed: p.get("seed"),
    speed: p.get("speed"),
    t: num("t"),
    autoplay: p.get("autoplay") === "1",
    embed: p.get("embed") === "1",
    checkpoints: p.get("checkpoints") !== "off",
    packed,
    damaged: inFragment && checksum(packed) !== f.get("sum"),
    actions: actions != null && /^\d+$/.test(actions) ? Number(actions) : null,
  };
}

/**
 * What a damaged link lost, in words: "this link is damaged (why): the
 * scenario opened without your 3 actions". `why` is a DamagedRun's.
 */
export function damagedMessage(actions, why = CUT) {
  const lost = actions == null ? "the run's changes, actions and code" : actions === 0 ? "the run's changes and code" : `your ${actions} action${actions === 1 ? "" : "s"} (and any changed settings or code)`;
  const ask = why === CUT ? "Ask for the link again, or for its run file." : "Ask for a shorter run.";
  return `This link is damaged (${why}): the scenario opened without ${lost}. ${ask}`;
}

/**
 * A link to this run at this moment. `state` is the lab's state(); `stem`
 * the shipped scenario it started from; `code` the code cell's text when
 * the learner changed it.
 */
export async function makeLink(base, { stem, state, code, embed = false }) {
  const url = new URL(base);
  url.search = "";
  url.hash = "";
  if (stem) url.searchParams.set(isLab(stem) ? "lab" : "scenario", isLab(stem) ? shortName(stem) : stem);
  url.searchParams.set("seed", String(state.scenario?.seed ?? 0));
  url.searchParams.set("t", String(state.now));
  url.searchParams.set("speed", state.speed);
  if (embed) url.searchParams.set("embed", "1");
  if (state.checkpoints === false) url.searchParams.set("checkpoints", "off");
  const extra = runExtras({ state, code });
  if (Object.keys(extra).length) {
    const run = await pack(extra);
    if (run.length > MAX_LINK_RUN) return { href: null, tooBig: run.length };
    url.hash = runFragment(run, state.journal.length);
  }
  return { href: url.href, tooBig: 0 };
}

/** The fragment carrying a packed run: its action count and checksum first, so a link cut short still says what it lost. */
function runFragment(run, actions) {
  return new URLSearchParams({ actions: String(actions), sum: checksum(run), [PACKED]: run }).toString();
}

/** What only the run itself can say: a changed scenario, your actions, changed code. */
function runExtras({ state, code }) {
  const extra = {};
  if (withoutSeed(state.text) !== withoutSeed(state.fileText)) extra.scenario = JSON.parse(state.text);
  if (state.journal.length) extra.actions = state.journal;
  if (code) extra.code = code;
  return extra;
}

/** A run as a file, for runs too big for a link: the link's plain parameters and its run, uncompressed. */
export function runFile({ stem, state, code }) {
  return JSON.stringify({ queuelabRun: 1, stem, seed: state.scenario?.seed ?? 0, t: state.now, speed: state.speed, checkpoints: state.checkpoints !== false, ...runExtras({ state, code }) });
}

/** A run file's text back as a link to open (with the run in its fragment); throws in words on a file that is not one. */
export async function linkFromRunFile(base, text) {
  // It opens as a link, and a link's run unpacks to at most this much (read before parsing any of it).
  if (text.length > MAX_UNPACKED_BYTES) throw new Error(`This run is larger than ${sizeText(MAX_UNPACKED_BYTES)}, more than Queuelab opens.`);
  let file;
  try {
    file = JSON.parse(text);
  } catch {
    throw new Error("This file is not a Queuelab run: it is not JSON.");
  }
  if (file?.queuelabRun !== 1) throw new Error("This file is not a Queuelab run (it has no \"queuelabRun\": 1); save one with Download run.");
  const url = new URL(base);
  url.search = "";
  url.hash = "";
  if (typeof file.stem === "string") url.searchParams.set("scenario", file.stem);
  for (const k of ["seed", "t", "speed"]) if (file[k] != null) url.searchParams.set(k, String(file[k]));
  if (file.checkpoints === false) url.searchParams.set("checkpoints", "off");
  const extra = {};
  for (const k of ["scenario", "actions", "code"]) if (file[k] != null) extra[k] = file[k];
  if (Object.keys(extra).length) {
    const run = await pack(extra);
    url.hash = runFragment(run, Array.isArray(extra.actions) ? extra.actions.length : 0);
  }
  return url.href;
}

/** Scenario text compared without its seed (the seed has its own parameter). */
function withoutSeed(text) {
  try {
    const { seed, ...rest } = JSON.parse(text);
    return JSON.stringify(rest);
  } catch {
    return text;
  }
}

/**
 * JSON to put inside HTML (a <script type="application/json">): every
 * "<", ">" and "&" is written as a \u escape, which JSON.parse reads back
 * as the same character. A raw "<" could close the script ("</script>")
 * or open an HTML comment ("<!--<script") that swallows the rest of the
 * page the snippet is pasted into.
 */
export function jsonForHtml(value) {
  return JSON.stringify(value, null, 2).replace(/[<>&]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

const attr = (s) => String(s).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/**
 * The <queue-lab> snippet for this run. A changed scenario goes inline as
 * a JSON child; your actions and the moment cannot (an element starts
 * from time 0), which the snippet says in a comment.
 */
export function elementSnippet(scriptUrl, { stem, state }) {
  // A lab embeds as the lab (its broken settings are the exercise), never with a learner's changes.
  const lab = stem && isLab(stem);
  const edited = withoutSeed(state.text) !== withoutSeed(state.fileText);
  const changed = !lab && edited;
  const attrs = [
    lab ? `lab="${attr(shortName(stem))}"` : null,
    !lab && !changed && stem ? `scenario="${attr(stem)}"` : null,
    `seed="${state.scenario?.seed ?? 0}"`,
    state.speed !== "1" ? `speed="${attr(state.speed)}"` : null,
    state.checkpoints === false ? `checkpoints="off"` : null,
    `controls="play step restart speed timeline"`,
  ].filter(Boolean);
  // dist/queuelab.js, a classic script: it loads from any origin without CORS headers (a module script would need them).
  const lines = [`<script src="${attr(scriptUrl)}"></script>`];
  if (state.journal.length) lines.push(`<!-- Your ${state.journal.length} action(s) and the moment on the timeline are in the link and iframe versions only. -->`);
  if (lab && edited) lines.push("<!-- The lab starts from its own settings, for the reader to fix: your changed settings are in the link only. -->");
  if (changed) {
    const json = jsonForHtml(JSON.parse(state.text));
    lines.push(`<queue-lab ${attrs.join(" ")}>\n<script type="application/json">\n${json}\n</script>\n</queue-lab>`);
  } else lines.push(`<queue-lab ${attrs.join(" ")}></queue-lab>`);
  return lines.join("\n");
}

/**
 * The iframe snippet: the share link in the page's compact embed view,
 * `height` CSS pixels tall (the Embed… dialog measures this run's whole
 * stage), and the host page's optional line that sizes it to its content.
 */
export function iframeSnippet(embedLink, title, height) {
  return `<iframe src="${attr(embedLink)}" title="${attr(`Queuelab: ${title}`)}" width="100%" height="${Math.ceil(height)}" style="border:0;max-width:100%" loading="lazy"></iframe>
<!-- Optional, once per page: fits Queuelab iframes to their content as it grows. -->
${HOST_SNIPPET}`;
}
