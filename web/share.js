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
import { isLab, shortName } from "./stems.js";

const PACKED = "run";

/** The longest run a link carries; a bigger run is saved as a file ("Download run") instead. */
export const MAX_LINK_RUN = 64 * 1024;

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

/** The inverse of pack; throws a readable error on a damaged value. */
export async function unpack(text) {
  try {
    const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    return JSON.parse(await new Response(stream).text());
  } catch {
    throw new Error("This link's run data is damaged (the part after “run=” was cut or changed); showing the scenario without it.");
  }
}

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

/** What a damaged link lost, in words: "this link is damaged: the scenario opened without your 3 actions". */
export function damagedMessage(actions) {
  const lost = actions == null ? "the run's changes, actions and code" : actions === 0 ? "the run's changes and code" : `your ${actions} action${actions === 1 ? "" : "s"} (and any changed settings or code)`;
  return `This link is damaged (it was cut short or changed on the way): the scenario opened without ${lost}. Ask for the link again, or for its run file.`;
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
