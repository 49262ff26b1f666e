// Says key moments through a polite live region, at most one message
// every GAP ms; what piles up in between is cut to the latest few.

const GAP = 2000;
const KEEP = 2;

export class Announcer {
  constructor(region) {
    this.region = region;
    this.pending = [];
    this.timer = 0;
    this.last = -Infinity;
  }

  say(text) {
    this.pending.push(text);
    if (this.pending.length > KEEP) this.pending.splice(0, this.pending.length - KEEP);
    if (this.timer) return;
    const wait = Math.max(0, this.last + GAP - performance.now());
    this.timer = setTimeout(() => this.flush(), wait);
  }

  flush() {
    this.timer = 0;
    if (!this.pending.length) return;
    this.last = performance.now();
    this.region.textContent = this.pending.join(" ");
    this.pending = [];
  }

  clear() {
    clearTimeout(this.timer);
    this.timer = 0;
    this.pending = [];
  }
}
