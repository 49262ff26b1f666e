// Small DOM helpers. Text from the engine (message bodies, names) only ever
// reaches the page as text nodes: never through innerHTML. The words'
// formatting (seconds, spans, ids) is in text/format.js, which has no DOM.

/** Creates an element; `attrs.text` sets textContent, `on*` adds listeners. */
export function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const k in attrs) {
      const v = attrs[k];
      if (v == null || v === false) continue;
      if (k === "class") el.className = v;
      else if (k === "text") el.textContent = v;
      else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? "" : String(v));
    }
  }
  for (const kid of kids) if (kid != null && kid !== false) el.append(kid);
  return el;
}

/** Sets text only when it changed (cheap to call every frame). */
export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

/** Whether focus is somewhere typing happens (Space and letters belong to it). */
export function isTyping(el) {
  if (!el) return false;
  if (el.isContentEditable || el.tagName === "TEXTAREA" || el.tagName === "SELECT") return true;
  if (el.tagName !== "INPUT") return false;
  return !["button", "checkbox", "radio", "range", "submit", "reset", "color", "file"].includes(el.type);
}

const SVG = "http://www.w3.org/2000/svg";
/** A padlock, closed or open (a FIFO group's lock). */
export function lockIcon(closed) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("class", "lock");
  svg.setAttribute("aria-hidden", "true");
  const shackle = document.createElementNS(SVG, "path");
  shackle.setAttribute("d", closed ? "M4.5 7V5a3.5 3.5 0 0 1 7 0v2" : "M4.5 7V5a3.5 3.5 0 0 1 6.6-1.6");
  shackle.setAttribute("fill", "none");
  shackle.setAttribute("stroke", "currentColor");
  shackle.setAttribute("stroke-width", "1.8");
  const body = document.createElementNS(SVG, "rect");
  for (const [k, v] of Object.entries({ x: 2.5, y: 7, width: 11, height: 8, rx: 1.5, fill: "currentColor" })) body.setAttribute(k, v);
  svg.append(shackle, body);
  return svg;
}
