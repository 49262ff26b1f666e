// Fetching a text file with one readable error for network and HTTP failures.

/** Fetches text, turning network and HTTP failures into one readable error. */
export async function fetchText(url, what) {
  let res;
  try {
    res = await fetch(url);
  } catch (e) {
    throw new Error(`Could not load ${what} from ${url}: ${e.message}`);
  }
  if (!res.ok) throw new Error(`Could not load ${what} from ${url}: HTTP ${res.status} ${res.statusText}`.trim());
  return res.text();
}
