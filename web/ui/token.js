// One message token on the stage: a button that shows a message's state,
// receive count, group, holders, side effects and countdown. Elements are
// made once per message id and reused; each setter touches the DOM only
// when its value changed, so painting every token every frame is cheap.

import { h, setText } from "./dom.js";
import { secs, shortId } from "../text/format.js";

const STATE_WORD = { delayed: "delayed", visible: "visible", "in-flight": "in flight", dlq: "in DLQ", deleted: "deleted", expired: "expired" };
const STATE_ICON = { delayed: "◔", visible: "●", "in-flight": "◷", dlq: "☠", deleted: "✓", expired: "◌" };

export function makeToken(id, label) {
  const p = {
    ic: h("span", { class: "tk-ic", "aria-hidden": "true" }),
    st: h("span", { class: "tk-st" }),
    id: h("span", { class: "tk-id", text: shortId(id) }),
    grp: h("span", { class: "tk-grp" }),
    rc: h("span", { class: "tk-rc", "data-term": "receive-count" }),
    label: h("span", { class: "tk-label", text: label ?? "" }),
    link: h("span", { class: "tk-link" }),
    meta: h("span", { class: "tk-meta" }),
    dup: h("span", { class: "tk-dup" }),
    fx: h("span", { class: "tk-fx" }),
    bar: h("span", { class: "tk-bar", "aria-hidden": "true" }),
  };
  const el = h(
    "button",
    { type: "button", class: "token", "data-message-id": id, "data-side-effect-count": "0" },
    h("span", { class: "tk-top" }, p.ic, p.st, p.id, p.grp, p.rc),
    p.label, p.link, p.meta, p.dup, p.fx, p.bar,
  );
  // Cached values: the DOM is only touched when one changes.
  return el.tok = { id, el, p, where: "", state: "", rc: -1, fxc: -1, dupText: null, linkText: "", metaText: "", bar: -1, timed: false, anim: null, label: label ?? "" };
}

function setState(t, state) {
  if (t.state === state) return;
  t.state = state;
  t.el.dataset.state = state;
  t.p.ic.textContent = STATE_ICON[state];
  t.p.st.textContent = STATE_WORD[state];
  t.p.st.dataset.term = state; // glossary.js explains it on hover
}

function setRc(t, rc) {
  if (t.rc === rc) return;
  t.rc = rc;
  t.el.dataset.receiveCount = String(rc);
  t.p.rc.textContent = rc ? `recv ${rc}` : "";
}

function setFx(t, fx) {
  const c = fx ? fx.count : 0;
  if (t.fxc === c) return;
  t.fxc = c;
  t.el.dataset.sideEffectCount = String(c);
  t.p.fx.textContent = c ? `${c > 1 ? "⚠ " : ""}${fx.effect} ×${c}` : "";
  if (c > 1) t.el.dataset.fxDup = "true";
  else delete t.el.dataset.fxDup;
}

function setDup(t, text) {
  if (t.dupText === text) return;
  t.dupText = text;
  t.p.dup.textContent = text ?? "";
  if (text) t.el.dataset.duplicate = "true";
  else delete t.el.dataset.duplicate;
}

/** How many colours the marks of a request and its reply take turns in (styles.css). */
const LINK_HUES = 6;

/**
 * A request's or a reply's mark (history.js's `links`): "⇄ request c" or
 * "⇄ reply to c", and the colour (0 to 5) the two share, so the pair is
 * seen together on the stage; null for any other message.
 * @param {{ correlationId: string, role: "request" | "reply" } | undefined} link
 */
export function linkMark(link) {
  if (!link) return null;
  let hash = 0;
  for (const c of link.correlationId) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
  return { text: `⇄ ${link.role === "request" ? "request" : "reply to"} ${link.correlationId}`, hue: String(hash % LINK_HUES) };
}

/** Paints `mark` (linkMark's) on a card: its words in `span`, its colour on `el`. */
export function paintLink(el, span, mark) {
  span.textContent = mark?.text ?? "";
  if (mark) el.dataset.linkHue = mark.hue;
  else delete el.dataset.linkHue;
}

/** @param {{ correlationId: string, role: "request" | "reply" } | undefined} link */
function setLink(t, link) {
  const mark = linkMark(link);
  const text = mark?.text ?? "";
  if (t.linkText === text) return;
  t.linkText = text;
  paintLink(t.el, t.p.link, mark);
}

function setMeta(t, text) {
  if (t.metaText !== text) setText(t.p.meta, (t.metaText = text));
}

function clearBar(t) {
  if (t.bar !== -1) {
    t.bar = -1;
    t.p.bar.style.transform = "scaleX(0)";
  }
}

/** A token in a queue (`t.m` its message, `t.nextState` its drawn state): state, receive count, group, holders, side effects. */
export function paintStored(t, d) {
  const m = t.m;
  if (t.lost) {
    t.lost = false;
    t.state = "";
    delete t.el.dataset.lost;
  }
  setState(t, t.nextState);
  setRc(t, m.receiveCount);
  const grp = m.group ? `group ${m.group}` : "";
  if (t.grp !== grp) setText(t.p.grp, (t.grp = grp));
  setFx(t, d.fx.get(m.messageId));
  setLink(t, d.facts.links.get(m.messageId));
  const others = d.othersHolding(m.messageId, m.holder);
  setDup(t, m.state === "in-flight" && others.length > 0 ? `⚠ duplicate: ${others.join(", ")} still holds it too` : null);
  t.holder = m.holder ?? "";
  t.visibleAt = m.visibleAt;
  t.from = m.state === "in-flight" ? d.inFlightSince(m.messageId) ?? m.sentAt : m.sentAt;
  t.timed = m.state !== "visible";
  if (!t.timed) {
    setMeta(t, t.nextState === "dlq" ? "waiting in the dead-letter queue" : t.groupLocked ? "waits: its group is locked" : "waiting to be received");
    clearBar(t);
  }
}

/** A token in the tray: how and when it left. */
export function paintLeft(t, d) {
  const facts = d.facts;
  const left = facts.left.get(t.id);
  setState(t, left?.state ?? "deleted");
  if (!!left?.lost !== !!t.lost) {
    t.lost = !!left?.lost;
    t.p.st.textContent = t.lost ? "lost" : STATE_WORD[t.state];
    t.p.st.dataset.term = t.lost ? "lost" : t.state;
    t.p.ic.textContent = t.lost ? "✗" : STATE_ICON[t.state];
    if (t.lost) t.el.dataset.lost = "true";
    else delete t.el.dataset.lost;
  }
  setRc(t, facts.receives.get(t.id) ?? (t.rc < 0 ? 0 : t.rc));
  setFx(t, d.fx.get(t.id));
  setLink(t, facts.links.get(t.id));
  setDup(t, facts.dup.has(t.id) ? `⚠ was delivered to ${[...facts.dup.get(t.id)].join(" and ")} at once` : null);
  setMeta(t, left ? `${left.why} at t=${secs(left.at)} s` : "gone");
  clearBar(t);
}

/** Time moved: a delayed or in-flight token's countdown and its bar. */
export function tickToken(t, now) {
  if (!t.timed || t.visibleAt == null) return;
  const left = Math.max(0, t.visibleAt - now);
  const s = (left / 1000).toFixed(1);
  setMeta(t, t.state === "delayed" ? `visible in ${s} s` : `${s} s left${t.holder ? ` · ${t.holder}` : ""}`);
  const total = t.visibleAt - t.from;
  const f = total > 0 ? Math.round((left / total) * 100) / 100 : 0;
  if (t.bar !== f) {
    t.bar = f;
    t.p.bar.style.transform = `scaleX(${f})`;
  }
}
