// The page's own bounds on what a share link (or a run file, which opens
// as one) may bring in, and on how much of a link's replay one slice of
// work may do. The engine's bounds live in the engine (limits()); these
// are the page's alone: the engine never sees a link's fragment, and
// replays are the page's way of rebuilding a moment. The README's
// "Limits and budgets" table lists every one.

const MiB = 1024 * 1024;

/** The longest run a link carries; a bigger run is saved as a file ("Download run") instead. */
export const MAX_LINK_RUN = 64 * 1024;

/**
 * The longest packed run (the fragment's `run=`, in characters) the page
 * decodes: Chromium's longest address (2 MiB), so no link a browser
 * carries is refused by it, and a longer text is refused before decoding.
 */
export const MAX_PACKED_CHARS = 2 * MiB;

/**
 * The most bytes a link's run may inflate to. Links the page makes are at
 * most MAX_LINK_RUN packed (about 1 MiB unpacked at JSON's usual 15:1),
 * so 4 MiB leaves room for run files opened as links; past it inflating
 * stops at once, however much more the data would give (a 543 KB link of
 * 400 MB crashed the tab).
 */
export const MAX_UNPACKED_BYTES = 4 * MiB;

/**
 * The most recorded actions a link replays; the first this many are
 * made, and the page says from when the run differs. A replay makes them
 * in slices (ACTIONS_PER_CHUNK), and each counts ACTION_WORK units in the
 * work estimate. About as many as the largest link the page makes holds
 * (MAX_LINK_RUN: 40,002 SendMessage actions pack to 149 KiB); 20,000
 * replayed in about 5 s in headless Chromium, 25 s at 4x throttling.
 */
export const MAX_LINK_ACTIONS = 20_000;

/** The most characters of code a link puts in the code cell; longer code is not shown. */
export const MAX_LINK_CODE_CHARS = 64 * 1024;

/**
 * The most recorded actions one chunk of a replay makes: actions due at
 * one moment (a link's 40,002 at t = 0) are made over many chunks, and a
 * slice (slicer.js) ends after the chunk that passes its budget, so the
 * browser gets its turn between them. Measured in headless Chromium at 4x
 * CPU throttling: 25 SendMessage actions took 4 ms a chunk (median; 8 ms
 * at the 90th percentile), so 32 keep a chunk near the slicer's aim of an
 * eighth of a slice (about 6 ms).
 */
export const ACTIONS_PER_CHUNK = 32;

/**
 * Units of work (those of Playground.workEstimate: one engine call, one
 * timer firing, one producer or worker action) one recorded action counts
 * for in the estimate the page asks before running by: its engine call and
 * the page's reading of what it did. Measured through a Run in Node: a
 * SendMessage action cost 21 to 31 times a unit of a consumer polling
 * every millisecond.
 */
export const ACTION_WORK = 30;

/**
 * The most events a run holds for its next draw while a replay runs in
 * slices (the views draw the moment once, at its end): the newest this
 * many, and every checkpoint event (few: a scenario's own). The event log
 * shows at most 400 lines, from at most 800 events; a link of 18 million
 * polls would otherwise hold all of theirs until its end.
 */
export const REPLAY_EVENTS_KEPT = 1_000;

/** `bytes` in words: "4 MiB", "64 KiB". */
export const sizeText = (bytes) => (bytes >= MiB ? `${+(bytes / MiB).toFixed(1)} MiB` : `${+(bytes / 1024).toFixed(1)} KiB`);
