// The live view: `index.html?server=http://127.0.0.1:9324` watches a
// running `queuelab serve`. The page shows exactly the server's run by
// making its journal's calls again in its own engine (the engine is
// deterministic): the run starts from the journal's scenario (or from its
// options alone), takes the calls the stream brings (live-feed.js) and
// plays to the server's virtual `now` (lab/context.js's `live`). The
// lanes, log, chart and peek draw it as any run. A banner says which
// server, and whether the view follows it, the server is paused, the view
// was scrubbed back ("Back to live") or the connection is lost. The
// page's own requests are off (they would make another run than the
// server's), and so are the settings and the code cell, saying why.
// A page that a queuelab server serves offers "Watch this server".

import { h, setText } from "../ui/dom.js";
import { LiveFeed, reachOf } from "./live-feed.js";
import { inexactNote, liveControlsNote, liveHeadline, liveState, liveTitle, watchTitle } from "../text/live-words.js";

/** How often the banner reads the view's and the connection's state (wall ms). */
const BANNER_MS = 250;

/** The server a `?server=` value names, as a base URL ending in "/"; throws in words when it names none. */
export function serverBase(value) {
  let url;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`?server=${value} is not a URL: give the address queuelab serve printed, for example ?server=http://127.0.0.1:9324`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`?server=${value}: the server's address starts with http:// or https://.`);
  url.search = "";
  url.hash = "";
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  return url;
}

/** The parts of the full page that would change the run or send calls of the page's own: hidden in the live view. */
const OFF = [".tinker", ".code-panel", "#share-link", "#share-embed", "#open-run-button"];

/**
 * Opens the live view of the server at `value` in `lab` (the full page's):
 * the banner, the feed, and the page's own actions off. Returns stop().
 * @param {any} lab @param {string} value
 */
export function openLive(lab, value) {
  const base = serverBase(value);
  const source = base.href.replace(/\/$/, "");
  document.body.dataset.live = "true";
  for (const el of document.querySelectorAll(OFF.join(","))) /** @type {HTMLElement} */ (el).hidden = true;
  const banner = liveBanner(source, () => lab.live.back());
  document.querySelector("#lab .intro")?.before(banner.el);
  let exact = null; // the note of a journal past its cap, once it comes
  const feed = new LiveFeed(base, {
    begin: (head) => lab.live.begin({ text: head.scenario, options: head.options, seed: head.seed, title: liveTitle() }, source),
    take: (page) => {
      if (!lab.live.append(page.calls, page.from)) return false;
      lab.live.reach(reachOf(page));
      exact = inexactNote(page);
      return true;
    },
    changed: () => banner.draw(lab.live.state, feed.state(), exact),
  });
  const timer = setInterval(() => banner.draw(lab.live.state, feed.state(), exact), BANNER_MS);
  feed.connect();
  return () => {
    clearInterval(timer);
    feed.stop();
  };
}

/** The banner: the server, its state, "Back to live", and what the view leaves out. */
function liveBanner(source, back) {
  const state = h("span", { class: "live-state", id: "live-state" });
  const button = h("button", { type: "button", id: "back-to-live", class: "primary", text: "Back to live", hidden: true, onclick: back });
  const note = h("p", { class: "live-note", id: "live-exact", hidden: true });
  const el = h("section", { class: "live-banner", id: "live-banner", "data-state": "connecting", "aria-label": "Live view of an SQS endpoint" },
    h("p", { class: "live-head" }, h("strong", { text: liveHeadline(source) }), " ", state, " ", button),
    note,
    h("p", { class: "live-off muted", text: liveControlsNote(source) }));
  let last = "";
  return {
    el,
    draw(view, feed, exact) {
      const s = liveState(view, feed);
      const key = `${s.name}|${s.text}|${exact}`;
      if (key === last) return;
      last = key;
      el.dataset.state = s.name;
      setText(state, s.text);
      button.hidden = s.name !== "scrubbed";
      note.hidden = !exact;
      setText(note, exact ?? "");
    },
  };
}

/**
 * On a page a queuelab server serves (its control API answers on the same
 * origin), a "Watch this server" button in `place` that opens the live
 * view of this very server.
 * @param {Element | null} place
 */
export async function offerWatch(place) {
  if (!place || !/^https?:$/.test(location.protocol)) return;
  try {
    const res = await fetch(new URL("/_queuelab/status", location.origin), { cache: "no-store" });
    const status = res.ok ? await res.json() : null;
    if (!Number.isFinite(status?.now)) return;
  } catch {
    return; // no server here: a checkout's or a site's page
  }
  const url = new URL(location.pathname, location.origin);
  url.searchParams.set("server", location.origin);
  place.append(h("button", { type: "button", class: "watch-server", id: "watch-server", title: watchTitle(location.origin), text: "Watch this server", onclick: () => location.assign(url.href) }));
}
