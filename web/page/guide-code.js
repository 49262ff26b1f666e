// The course's patterns guide as code the code cell runs: each pattern's
// code as the guide writes it and fixed (web/examples/patterns/), offered
// in the cell's picker. Each is loaded with the scenario of its pattern,
// whose run is long enough for it (the code's virtual time: about a
// minute for request-response and large payloads, an hour for the
// scheduler, ten minutes for the extender), so Run plays it to its end.

import * as requestResponse from "../examples/patterns/request-response.js";
import * as largePayloads from "../examples/patterns/large-payloads.js";
import * as scheduling from "../examples/patterns/scheduling.js";
import * as extender from "../examples/patterns/visibility-extender.js";

/** Each pattern: its words in the picker, its scenario, and its two versions. */
const PATTERNS = [
  { id: "request-response", label: "Request-response", scenario: "26-request-response", code: requestResponse },
  { id: "large-payloads", label: "Large payloads through S3", scenario: "28-large-payload", code: largePayloads },
  { id: "scheduling", label: "Scheduling past 15 minutes", scenario: "29-scheduled-delivery", code: scheduling },
  { id: "visibility-extender", label: "Visibility extender", scenario: "30-visibility-extender", code: extender },
];

/** The picker's choices, `<pattern>:asWritten` and `<pattern>:fixed`, each with its words, scenario and code. */
export const GUIDE_CODE = PATTERNS.flatMap((p) => [
  { value: `${p.id}:asWritten`, label: `${p.label}, as the guide writes it`, scenario: p.scenario, code: p.code.asWritten },
  { value: `${p.id}:fixed`, label: `${p.label}, fixed`, scenario: p.scenario, code: p.code.fixed },
]);
