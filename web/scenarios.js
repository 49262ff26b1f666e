// The scenarios that ship with Queuelab (web/scenarios/), read through
// files.js so any host page can use them without configuration.

import { fetchText, scenarioFile } from "./files.js";

export { fetchText };

let listing = null;

/** The shipped scenarios' stems ("02-slow-consumer-duplicate", ...), fetched once. */
export function listScenarios() {
  listing ??= scenarioFile("index.json")
    .then((text) => JSON.parse(text).map((f) => f.replace(/\.json$/, "")))
    .catch((e) => {
      listing = null;
      throw e;
    });
  return listing;
}

/** A stem's readable name: "02-slow-consumer-duplicate" -> "slow consumer duplicate". */
export const shortName = (stem) => stem.replace(/^\d+-/, "");

/**
 * Finds a shipped scenario by name: its stem ("02-slow-consumer-duplicate"),
 * its name without the number ("slow-consumer-duplicate"), or the start of
 * that name when only one scenario matches ("slow-consumer"). Throws with
 * the choices when the name matches none or several.
 */
export async function resolveScenario(name) {
  const stems = await listScenarios();
  const want = String(name).trim().toLowerCase();
  const exact = stems.find((s) => s === want || shortName(s) === want);
  if (exact) return exact;
  const starts = stems.filter((s) => want && shortName(s).startsWith(want));
  if (starts.length === 1) return starts[0];
  const choices = stems.map(shortName).join(", ");
  if (starts.length > 1) throw new Error(`scenario="${name}" matches several scenarios (${starts.map(shortName).join(", ")}); give more of the name.`);
  throw new Error(`scenario="${name}" is not a Queuelab scenario. The scenarios are: ${choices}. For your own, use src="my-scenario.json" or an inline <script type="application/json">.`);
}

/** A shipped scenario's JSON text. */
export const fetchScenario = (stem) => scenarioFile(`${stem}.json`);
