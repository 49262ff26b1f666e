// A small static file server bound to 127.0.0.1, shared by the serve
// command and the browser tests. Serves .wasm as application/wasm so
// streaming instantiation works, and never serves outside its root.
// HTML pages refuse to be framed by other origins (clickjacking), except
// the embed view (`?embed=1`), which exists to be put in other sites'
// iframes and never has a Run button for code from a link.
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, resolve, sep } from "node:path";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".ts": "text/plain; charset=utf-8",
};

/** Headers that keep a page out of other origins' frames (old browsers read X-Frame-Options, new ones the CSP). */
export const NO_FOREIGN_FRAMES = { "content-security-policy": "frame-ancestors 'self'", "x-frame-options": "SAMEORIGIN" };

/** Starts serving `root`; resolves to { server, url } once listening (port 0 = any free port). */
export function startServer(root, port = 0) {
  const base = resolve(root);
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://x");
    const path = decodeURIComponent(url.pathname);
    let file = normalize(join(base, path));
    if (file !== base && !file.startsWith(base + sep)) {
      res.writeHead(403).end("forbidden");
      return;
    }
    try {
      if ((await stat(file)).isDirectory()) file = join(file, "index.html");
      const body = await readFile(file);
      const type = TYPES[extname(file)] ?? "application/octet-stream";
      const framing = type.startsWith("text/html") && url.searchParams.get("embed") !== "1" ? NO_FOREIGN_FRAMES : {};
      res.writeHead(200, { "content-type": type, "cache-control": "no-store", ...framing });
      res.end(body);
    } catch {
      res.writeHead(404, { "content-type": "text/plain" }).end(`not found: ${path}`);
    }
  });
  return new Promise((done, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", () => done({ server, url: `http://127.0.0.1:${server.address().port}/` }));
  });
}
