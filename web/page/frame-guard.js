// Clickjacking defence of the full page. A share link can carry code, and
// the full page has a Run button; another site could put that page in an
// invisible iframe and line up a decoy over Run, so that one click runs
// the code in Queuelab's origin. The server sends `frame-ancestors 'self'`
// where it can (scripts/static-server.mjs), but a CSP in a <meta> tag
// cannot say frame-ancestors and plain static hosts send no headers: so
// the page checks for itself and, framed by another origin, replaces
// itself with a notice and a link that opens it in its own tab.
//
// The embed view (`?embed=1`) is made to be framed: it has no code cell,
// so it never has a Run button for code from a link. main.js skips this
// check for it.

import { h } from "../ui/dom.js";

/** Whether any page that frames `win` (parent, grandparent, …) has another origin than `win`'s. */
export function framedByOtherOrigin(win = window) {
  if (win.parent === win) return false;
  const own = win.location.origin;
  // Chromium and Safari list every ancestor's origin; an opaque one reads "null" and differs too.
  const listed = win.location.ancestorOrigins;
  if (listed) return [...listed].some((o) => o !== own);
  // Elsewhere: a cross-origin ancestor's location cannot be read at all.
  try {
    for (let w = win.parent; ; w = w.parent) {
      if (w.location.origin !== own) return true;
      if (w.parent === w) return false;
    }
  } catch {
    return true;
  }
}

/** Replaces the page with a short notice and a link that opens `href` in its own tab. */
export function refuseFrame(doc, href) {
  doc.title = "Queuelab — open it in its own tab";
  doc.body.dataset.view = "framed";
  doc.body.replaceChildren(
    h(
      "main",
      { id: "frame-notice", class: "frame-notice" },
      h("h1", { text: "Queuelab opens in its own tab" }),
      h("p", { text: "This page is shown inside another site. So that nobody can hide it and trick you into pressing its buttons, the full Queuelab page only runs in a tab of its own." }),
      h("p", {}, h("a", { id: "frame-open", href, target: "_blank", rel: "noopener noreferrer", text: "Open Queuelab in a new tab ↗" })),
      h("p", { class: "muted", text: "Course authors: to show a run inside your page, use Embed… and its iframe or <queue-lab> snippet." }),
    ),
  );
}
