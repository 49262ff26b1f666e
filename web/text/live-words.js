// The words of the live view (page/live.js): a page watching a running
// `queuelab serve` by making its journal's calls again in its own engine.
// Each sentence says what is true of the run on screen: which server, how
// far it got, whether the page follows it, and where it stops being exact.

import { secs } from "./format.js";

/** The run's title when the server runs no scenario (the banner names the server). */
export const liveTitle = () => "The server's run";

/** The banner's first line: which server, and that the view is live. */
export const liveHeadline = (source) => `Watching the SQS endpoint at ${source} (live)`;

/** Why the page's own requests are off in the live view. */
export function liveRefusal(source) {
  return `This view shows the run of the SQS endpoint at ${source} by making its calls again, so the page sends none of its own: send requests to ${source} (boto3, the AWS CLI with --endpoint-url ${source}, any SDK) and they appear here.`;
}

/**
 * The banner's state: `{ name, text }`, `name` for the page's styles and
 * tests (connecting, following, paused, scrubbed, lost, stopped), `text`
 * the sentence. `view` is the lab's live state ({ now, until, following });
 * `feed` the connection's ({ state, paused, retryInMs, calls, error }).
 */
export function liveState(view, feed) {
  const at = (t) => `t = ${secs(t)} s`;
  if (feed.state === "connecting" && !view) return { name: "connecting", text: "Connecting…" };
  if (feed.state === "refused") return { name: "stopped", text: feed.error };
  const calls = `${feed.calls} call${feed.calls === 1 ? "" : "s"}`;
  if (feed.state === "lost") {
    const shown = view ? ` This view keeps the run up to ${at(view.until)}.` : "";
    const retry = feed.retryInMs > 0 ? `retrying in ${Math.ceil(feed.retryInMs / 1000)} s` : "retrying now";
    return { name: "lost", text: `Connection lost — ${retry}.${shown}` };
  }
  if (!view) return { name: "connecting", text: "Reading the server's journal…" };
  if (!view.following) {
    const here = view.now < view.until ? `Scrubbed back: showing ${at(view.now)}` : `Paused here at ${at(view.now)}`;
    return { name: "scrubbed", text: `${here}; the server goes on (at ${at(view.until)}, ${calls}).` };
  }
  if (feed.paused) return { name: "paused", text: `Paused on the server at ${at(view.until)} (${calls}): its virtual time stands still until it resumes.` };
  // The time is the timeline's to say: the banner is drawn less often than it.
  return { name: "following", text: `Following the server's clock (${calls} so far).` };
}

/**
 * What the view leaves out: a server journal past its cap records no
 * more calls, so the run made again here is the server's only up to the
 * first call it did not record. Null while every call is recorded.
 */
export function inexactNote({ unrecorded, unrecordedFrom }) {
  if (!unrecorded) return null;
  const n = `${unrecorded} call${unrecorded === 1 ? "" : "s"}`;
  return `The server's journal is full: it did not record ${n} from t = ${secs(unrecordedFrom)} s on, so this view shows its run exactly up to t = ${secs(unrecordedFrom)} s and stops there.`;
}

/** What the page says about its own controls that would change the run. */
export const liveControlsNote = (source) => `The page sends no requests of its own here (settings, Act yourself and the code cell are off): it makes the server's calls again. Send yours to ${source} with boto3, the AWS CLI (--endpoint-url) or any SDK, and they appear here.`;

/** The "Watch this server" button's title on a page a queuelab server serves. */
export const watchTitle = (origin) => `Open the live view of this server's run (${origin}): the queues, messages and calls as boto3, the AWS CLI or an SDK make them`;
