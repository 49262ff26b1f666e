// What the charts share: an SVG element made with its attributes, and a
// round axis top above a value.

const NS = "http://www.w3.org/2000/svg";

/** An SVG element `tag` with `attrs`. */
export function svg(tag, attrs = {}) {
  const el = document.createElementNS(NS, tag);
  for (const k in attrs) el.setAttribute(k, String(attrs[k]));
  return el;
}

/** The smallest of 1, 2, 2.5, 5 times a power of ten at or above `v` (1 at least): an axis's top. */
export function niceTop(v) {
  if (v <= 1) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (v <= m * p) return m * p;
  return 10 * p;
}

/** A text label at (x, y), anchored at `anchor`, appended to `parent`. */
export function svgText(parent, x, y, words, anchor) {
  const t = svg("text", { x, y, "text-anchor": anchor });
  t.textContent = words;
  parent.append(t);
}

/**
 * One line: each datapoint holds for its step or period (`span`), a step
 * line broken where a datapoint is missing. `data-points` counts the
 * datapoints drawn.
 */
export function stepLine(points, span, x, y, cls) {
  let path = "";
  let drawn = 0;
  let end = null;
  for (const [t, v] of points) {
    if (v == null) continue;
    const [x0, x1, yv] = [x(t - span).toFixed(1), x(t).toFixed(1), y(v).toFixed(1)];
    path += `${end === t - span ? "L" : "M"}${x0},${yv} L${x1},${yv} `;
    end = t;
    drawn++;
  }
  return svg("path", { class: cls, fill: "none", d: path.trim(), "data-points": String(drawn) });
}
