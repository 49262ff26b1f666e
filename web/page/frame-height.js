// The iframe embed's height. The embed view tells the page around it how
// tall it is (a message { type: "queuelab:height", height }), and the host
// page's one-line script, HOST_SNIPPET, sets the iframe to that height.
// Without that script the snippet's own height must show the whole stage,
// so the Embed… dialog measures this run's embed view, at its start and
// at its end, in a hidden frame of a course column's width.

export const HEIGHT_MESSAGE = "queuelab:height";

/**
 * The tallest an iframe the host line sizes may become, in CSS pixels:
 * many screens taller than an embed view,
 * far below what would bury the course page (a hostile frame set 1e9 px).
 */
export const MAX_EMBED_HEIGHT = 20_000;

/**
 * The host page's line that resizes every Queuelab iframe to its content.
 * It hears only frames of `origin` (the Queuelab page's own, which makes
 * the snippet): any other child of the course page (an ad, a video, a
 * frame navigated elsewhere) may post the same message. The height must
 * be a finite number >= 0 and is clamped to MAX_EMBED_HEIGHT.
 */
export function hostSnippet(origin) {
  // An opaque origin ("null": file://, a sandbox) names no one: nothing is heard (e.origin is a string).
  const heard = origin && origin !== "null" ? JSON.stringify(origin).replace(/</g, "\\u003c") : "null";
  return `<script>addEventListener("message",(e)=>{const h=e.data?.height;if(e.origin===${heard}&&e.data?.type==="${HEIGHT_MESSAGE}"&&Number.isFinite(h)&&h>=0)for(const f of document.querySelectorAll("iframe"))if(f.contentWindow===e.source)f.style.height=Math.min(h,${MAX_EMBED_HEIGHT})+"px"})</script>`;
}

/** The host line for this page's origin (the Embed… dialog's). */
export const HOST_SNIPPET = hostSnippet(globalThis.location?.origin);

/** In the embed view: posts the page's height to the parent whenever it changes. A height is all it says, so any parent may hear it. */
export function postHeight(doc = document) {
  const win = doc.defaultView;
  if (win.parent === win) return;
  let last = 0;
  const post = () => {
    const height = Math.ceil(doc.documentElement.getBoundingClientRect().height);
    if (height !== last) win.parent.postMessage({ type: HEIGHT_MESSAGE, height: (last = height) }, "*");
  };
  new ResizeObserver(post).observe(doc.documentElement);
}

/** The column an embed usually gets in a course page, in CSS pixels. */
export const COURSE_COLUMN = 760;

/**
 * How tall the embed view of `links` (the run at its start and at its end)
 * is at most in a course column: each opens in a hidden same-origin frame,
 * and its height is read once it is ready. Resolves to null if a frame
 * does not get ready within `timeoutMs`.
 */
export async function measureEmbed(links, { timeoutMs = 15_000 } = {}) {
  const heights = await Promise.all(links.map((href) => measureOne(href, timeoutMs)));
  return heights.includes(null) ? null : Math.max(...heights);
}

/** The embed view of `href` at its link's moment t, measured once it is ready and its clock has got there (a replay may take a few frames). */
function measureOne(href, timeoutMs) {
  const t = Number(new URL(href).searchParams.get("t") ?? 0);
  return new Promise((resolve) => {
    const frame = document.createElement("iframe");
    frame.setAttribute("aria-hidden", "true");
    frame.tabIndex = -1;
    frame.style.cssText = `position:absolute;left:-10000px;top:0;width:${COURSE_COLUMN}px;height:400px;border:0;visibility:hidden`;
    const done = (height) => {
      clearInterval(poll);
      frame.remove();
      resolve(height);
    };
    const began = performance.now();
    const poll = setInterval(() => {
      const doc = frame.contentDocument;
      const at = Number(doc?.querySelector("[data-time-ms]")?.dataset.timeMs ?? -1);
      if (doc?.body?.dataset.ready === "true" && at >= t) done(Math.ceil(doc.documentElement.getBoundingClientRect().height));
      else if (performance.now() - began > timeoutMs) done(null);
    }, 100);
    frame.src = href;
    document.body.append(frame);
  });
}
