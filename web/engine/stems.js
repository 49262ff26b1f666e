// The names of shipped scenarios and labs: a stem is a file's path under
// web/scenarios/ without ".json" ("02-slow-consumer-duplicate",
// "labs/01-duplicate-orders"). No imports: links and Node tests use it.

/** A stem's readable name: "02-slow-consumer-duplicate" -> "slow-consumer-duplicate", "labs/01-duplicate-orders" -> "duplicate-orders". */
export const shortName = (stem) => stem.replace(/^labs\//, "").replace(/^\d+-/, "");

/** Whether a stem is a lab's. */
export const isLab = (stem) => stem.startsWith("labs/");
