// The scenarios that ship with Queuelab (web/scenarios/), read through
// files.js so any host page can use them without configuration.

import { fetchText, scenarioFile } from "./files.js";
import { isLab, shortName } from "./stems.js";

export { fetchText, isLab, shortName };

const listings = new Map(); // folder ("" or "labs/") -> Promise of its stems

/** The stems listed in a folder's index.json, fetched once ("labs/01-duplicate-orders" for a lab). */
function listFolder(folder) {
  if (!listings.has(folder)) {
    const listing = scenarioFile(`${folder}index.json`).then((text) => JSON.parse(text).map((f) => `${folder}${f.replace(/\.json$/, "")}`));
    listing.catch(() => listings.delete(folder)); // a later call may retry (a network blip)
    listings.set(folder, listing);
  }
  return listings.get(folder);
}

/** The shipped scenarios' stems ("02-slow-consumer-duplicate", ...), fetched once. */
export const listScenarios = () => listFolder("");

/** The shipped labs' stems ("labs/01-duplicate-orders", ...), fetched once. */
export const listLabs = () => listFolder("labs/");

/** The stem among `stems` that `name` means: the stem, its short name, or the start of one short name. */
function find(stems, name, kind, other) {
  const want = String(name).trim().toLowerCase();
  const exact = stems.find((s) => s === want || shortName(s) === want);
  if (exact) return exact;
  const starts = stems.filter((s) => want && shortName(s).startsWith(want));
  if (starts.length === 1) return starts[0];
  const choices = stems.map(shortName).join(", ");
  if (starts.length > 1) throw new Error(`${kind}="${name}" matches several ${kind}s (${starts.map(shortName).join(", ")}); give more of the name.`);
  throw new Error(`${kind}="${name}" is not a Queuelab ${kind}. The ${kind}s are: ${choices}.${other}`);
}

/**
 * Finds a shipped scenario by name: its stem ("02-slow-consumer-duplicate"),
 * its name without the number ("slow-consumer-duplicate"), or the start of
 * that name when only one scenario matches ("slow-consumer"). A lab's stem
 * ("labs/01-duplicate-orders", as links write it) finds the lab. Throws
 * with the choices when the name matches none or several.
 */
export async function resolveScenario(name) {
  if (isLab(String(name).trim().toLowerCase())) return resolveLab(name);
  return find(await listScenarios(), name, "scenario", ' For your own, use src="my-scenario.json" or an inline <script type="application/json">.');
}

/** Finds a shipped lab by name ("duplicate-orders", "duplicate", "labs/01-duplicate-orders"), like resolveScenario. */
export async function resolveLab(name) {
  const stems = await listLabs();
  const want = String(name).trim().toLowerCase();
  return stems.find((s) => s === want) ?? find(stems, want.replace(/^labs\//, ""), "lab", "");
}

/** A shipped scenario's JSON text. */
export const fetchScenario = (stem) => scenarioFile(`${stem}.json`);
