// Your requests: SQS calls sent into the lab's engine from a host
// (createLab's dispatch: the code cell, the SDK adapter) or the page's
// forms (Act yourself, the peek panel), under a caller name. The run
// records them (Run.dispatch), so a replay makes them again at the same
// moments. The caller name is the lab's: the Act yourself field sets it
// and the peek's actions use it, without either view knowing the other.

import { secs } from "../text/format.js";
import { reducedMotion } from "./clock.js";
import { liveRefusal } from "../text/live-words.js";

export class Actions {
  /** @param {any} lab the Lab (lab.js) whose run records them */
  constructor(lab) {
    this.lab = lab;
    this.caller = "you"; // who the page's forms act as
  }

  /**
   * Sends a request into the engine as `opts.caller`; the run records it
   * (see Run.dispatch). Draws what it changed at once, and the replay
   * note once it is recorded.
   */
  dispatch(target, bodyText, opts) {
    const { run, replay, frames } = this.lab;
    // A live run is its host's calls made again: a call of yours would make another run than the host's.
    if (run.live) return Promise.reject(new Error(liveRefusal(this.lab.liveSource)));
    if (replay.job) return Promise.reject(new Error(`The run is still replaying to t = ${secs(replay.job.target)} s; wait for it or press Cancel, then send again.`));
    // Making them first here would be one long task; Step makes them in slices.
    if (run.pending > 0) return Promise.reject(new Error(`The replay was cancelled with ${run.pending} recorded actions of this moment still to make; press Step to make them, then send again.`));
    const answer = run.dispatch(target, bodyText, opts);
    if (!run.pg) return answer;
    run.collect();
    frames.draw({ animate: !reducedMotion.matches, silent: false });
    return answer.then((res) => {
      frames.draw({ animate: !reducedMotion.matches, silent: false });
      return res;
    });
  }

  /** A manual SQS call from the page's forms: errors shown in the lab's box. */
  async act(op, body, caller = this.caller) {
    const lab = this.lab;
    let res;
    try {
      res = await this.dispatch(`AmazonSQS.${op}`, JSON.stringify(body), { caller });
    } catch (e) {
      lab.showError(`${op} could not be sent: ${e.message}`);
      return { status: 0, body: { message: e.message } };
    }
    const parsed = JSON.parse(res.body);
    if (res.status >= 400) lab.showError(`${op} failed (${res.status}): ${parsed.message ?? res.body}`);
    else lab.clearError();
    lab.run.collect();
    lab.frames.draw({ animate: !reducedMotion.matches, silent: false });
    return { status: res.status, body: parsed };
  }
}
