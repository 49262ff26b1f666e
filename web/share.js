// Share links and embed snippets. A link names the scenario, seed, speed
// and moment in plain query parameters; what cannot be said that briefly
// (a scenario changed in Settings or the JSON editor, your own actions,
// the code cell's text) travels in one compressed `run` parameter. The
// engine is deterministic, so a link replays to exactly the same state.

const PACKED = "run";

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
 * checkpoints, packed } where packed is the `run` parameter still
 * compressed (read it with unpack) and checkpoints is false for
 * `checkpoints=off` (the run plays without asking). Absent parameters are null.
 */
export function readLink(search) {
  const p = new URLSearchParams(search);
  const num = (k) => (p.get(k) == null || p.get(k).trim() === "" ? null : Number(p.get(k)));
  return {
    scenario: p.get("scenario"),
    seed: p.get("seed"),
    speed: p.get("speed"),
    t: num("t"),
    autoplay: p.get("autoplay") === "1",
    embed: p.get("embed") === "1",
    checkpoints: p.get("checkpoints") !== "off",
    packed: p.get(PACKED),
  };
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
  if (stem) url.searchParams.set("scenario", stem);
  url.searchParams.set("seed", String(state.scenario?.seed ?? 0));
  url.searchParams.set("t", String(state.now));
  url.searchParams.set("speed", state.speed);
  if (embed) url.searchParams.set("embed", "1");
  if (state.checkpoints === false) url.searchParams.set("checkpoints", "off");
  const extra = {};
  if (withoutSeed(state.text) !== withoutSeed(state.fileText)) extra.scenario = JSON.parse(state.text);
  if (state.journal.length) extra.actions = state.journal;
  if (code) extra.code = code;
  if (Object.keys(extra).length) url.searchParams.set(PACKED, await pack(extra));
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
  const changed = withoutSeed(state.text) !== withoutSeed(state.fileText);
  const attrs = [
    !changed && stem ? `scenario="${attr(stem)}"` : null,
    `seed="${state.scenario?.seed ?? 0}"`,
    state.speed !== "1" ? `speed="${attr(state.speed)}"` : null,
    state.checkpoints === false ? `checkpoints="off"` : null,
    `controls="play step restart speed timeline"`,
  ].filter(Boolean);
  const lines = [`<script type="module" src="${attr(scriptUrl)}"></script>`];
  if (state.journal.length) lines.push(`<!-- Your ${state.journal.length} action(s) and the moment on the timeline are in the link and iframe versions only. -->`);
  if (changed) {
    const json = jsonForHtml(JSON.parse(state.text));
    lines.push(`<queue-lab ${attrs.join(" ")}>\n<script type="application/json">\n${json}\n</script>\n</queue-lab>`);
  } else lines.push(`<queue-lab ${attrs.join(" ")}></queue-lab>`);
  return lines.join("\n");
}

/** The iframe snippet: the share link in the page's compact embed view. */
export function iframeSnippet(embedLink, title) {
  return `<iframe src="${attr(embedLink)}" title="${attr(`Queuelab: ${title}`)}" width="100%" height="640" style="border:0;max-width:100%" loading="lazy"></iframe>`;
}
