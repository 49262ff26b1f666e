// Queuelab's full page: the scenario picker, the lab in its full view with
// a code cell, and sharing. The page's state lives in its URL (scenario,
// seed, speed, moment, and packed edits, actions and code), so a link
// opens the same run at the same moment. `embed=1` gives the compact view
// an iframe snippet uses.

import { ready } from "../engine/engine.js";
import { createLab } from "../lab/lab.js";
import { labMarkup, parseControls } from "../lab/markup.js";
import { fetchScenario, isLab, listLabs, listScenarios, resolveScenario, shortName } from "../engine/scenarios.js";
import { solvedLabs } from "../lab/progress.js";
import { boundedRun, damagedMessage, elementSnippet, iframeSnippet, linkFromRunFile, makeLink, MAX_LINK_RUN, readLink, runFile, unpack } from "./share.js";
import { CodeCell } from "../views/panels/code-cell.js";
import { GUIDE_CODE } from "./guide-code.js";
import { framedByOtherOrigin, refuseFrame } from "./frame-guard.js";
import { askBeforeRunning, linkWork } from "./link-check.js";
import { h } from "../ui/dom.js";
import { cut, span } from "../text/format.js";
import { setUpTour } from "./tour.js";
import { setUpSequence } from "./sequence.js";
import { followPlay, stageAboveDrawer } from "./follow-play.js";
import { measureEmbed, postHeight } from "./frame-height.js";
import { offerWatch, openLive } from "./live.js";

const link = readLink(location.search, location.hash);
const embed = link.embed;
// `?server=`: the live view of a running queuelab serve (live.js), not a scenario.
const server = embed ? null : new URLSearchParams(location.search).get("server");
let lab = null;
let stem = "";
let cell = null;
let seq = null; // "Scenario N of M" and "Next scenario →" (full page only)

if (!embed && framedByOtherOrigin()) refuseFrame(document, location.href);
else {
  mountPage();
  start()
    .catch((e) => {
      console.error(e);
      lab.showError(`Queuelab could not start: ${e.message ?? e}`);
    })
    .finally(() => (document.body.dataset.ready = "true"));
}

/** The lab in its full or embed view, the code cell, and the page-wide error reporting. */
function mountPage() {
  document.body.dataset.view = embed ? "embed" : "page";
  const main = document.getElementById("lab");
  main.innerHTML = labMarkup({
    // Live, the server's clock sets the speed, and its run the seed.
    controls: parseControls(embed ? "play step restart speed timeline" : server != null ? "play step timeline" : null),
    view: embed ? "compact" : "full",
    editor: !embed,
  });
  if (embed) {
    // In someone else's iframe: a way out to the whole page, same run.
    const full = new URL(location.href);
    full.searchParams.delete("embed");
    document.getElementById("title").before(h("a", { class: "open-full", href: full.href, target: "_blank", rel: "noopener", text: "Open in Queuelab ↗" }));
    postHeight(document); // the host page's line in the iframe snippet sizes the iframe to this
  }
  const root = document;
  lab = createLab(root, {
    host: document.body,
    keys: document,
    checkpoints: server == null && link.checkpoints,
    onRun: () => {
      cell?.suggestFor(lab.scenario);
      seq?.started();
    },
    onEnd: () => seq?.ended(),
  });
  if (!embed) followPlay(document, lab);
  // Act yourself, open, takes a side of the page (styles.css). A class, not
  // body:has(): a :has() on <body> is re-checked at every change under it,
  // which while playing is every frame.
  const manualPanel = /** @type {HTMLDetailsElement | null} */ (root.getElementById("manual-panel"));
  manualPanel?.addEventListener("toggle", () => document.body.classList.toggle("manual-open", manualPanel.open));
  // `toggle` comes a task after the panel opens, a frame too late: a click
  // on its summary (the mouse, Enter or Space) makes room at once.
  manualPanel?.querySelector("summary")?.addEventListener("click", () => {
    document.body.classList.toggle("manual-open", !manualPanel.open);
    if (!manualPanel.open) stageAboveDrawer(document);
  });
  // The patterns guide's code, each with its pattern's scenario (long enough for it): not in a live run, whose scenario is the server's.
  const examples = server == null ? { choices: GUIDE_CODE, load: loadGuideCode } : null;
  if (root.getElementById("code-cell")) cell = new CodeCell(root.getElementById("code-cell"), { lab, examples });
  // The engine running now, as on a <queue-lab> (`el.playground`): page
  // scripts and tests compare what is drawn with its snapshot and events.
  Object.defineProperty(main, "playground", { get: () => lab.playground });
  // And the scenario it runs, as a <queue-lab>'s `controls.scenario`.
  Object.defineProperty(main, "scenario", { get: () => lab.scenario });
  // A lab's goal, knobs and Check my fix, as on a <queue-lab> (`el.lab`): null for a scenario without a goal.
  Object.defineProperty(main, "lab", { get: () => (lab.goal?.active ? lab.goal : null) });

  // An engine trap is the lab's to explain (engine.js, lab.js): it already said what happened and what to do.
  const handled = (e) => e?.name === "EngineTrap" || e?.name === "EngineRestarting";
  addEventListener("error", (e) => handled(e.error) || lab.showError(`Something went wrong in the page: ${e.message}`));
  addEventListener("unhandledrejection", (e) => handled(e.reason) || lab.showError(`Something went wrong in the page: ${e.reason?.message ?? e.reason}`));
}

// ---- scenarios ----------------------------------------------------------------

/** Readies the guide's code `value` (GUIDE_CODE): its scenario loaded at time 0, then its text. */
async function loadGuideCode(value) {
  const choice = GUIDE_CODE.find((c) => c.value === value);
  if (!choice) return null;
  if (stem !== choice.scenario && !(await loadStem(choice.scenario))) return null;
  if (lab.playground.now() > 0) lab.restart();
  return choice.code;
}

async function loadStem(name) {
  try {
    stem = await resolveScenario(name);
  } catch (e) {
    lab.showError(e.message);
    return false;
  }
  let text;
  try {
    const early = prefetched?.stem === stem ? prefetched.text : null;
    prefetched = null;
    text = await (early ?? fetchScenario(stem));
  } catch (e) {
    lab.showError(e.message);
    return false;
  }
  const sel = /** @type {HTMLSelectElement} */ (document.getElementById("scenario"));
  if (![...sel.options].some((o) => o.value === stem)) sel.append(h("option", { value: stem, text: stem }));
  sel.value = stem;
  seq?.update();
  const kind = isLab(stem) ? "lab" : "scenario";
  return lab.load(text, { label: `The ${kind} file “${stem}.json”`, id: isLab(stem) ? shortName(stem) : null });
}

/** The first scenario's file, fetched while the engine compiles: { stem, text: Promise }. */
let prefetched = null;

/** Starts fetching the file `name` means, if it names one; loadStem takes it from there. */
function prefetch(name) {
  resolveScenario(name)
    .then((found) => {
      prefetched = { stem: found, text: fetchScenario(found) };
      prefetched.text.catch(() => (prefetched = null)); // loadStem fetches again, and says why it failed
    })
    .catch(() => null); // a bad name: known() says so
}

/** A picker option's words: its number and title, and ✓ for a lab solved in this browser. */
function optionText(stem, n, title) {
  const solved = isLab(stem) && solvedLabs()[shortName(stem)] ? " ✓" : "";
  // In the Labs group a lab's "Lab: " goes without saying.
  const words = title?.replace(/^Lab: (.)/, (_, first) => first.toUpperCase()) ?? shortName(stem).replace(/-/g, " ");
  return `${n}. ${words}${solved}`;
}

/**
 * The picker: the scenarios, then the labs, each group numbered from 1.
 * Their titles are fetched once `started` settles: eighteen fetches begun
 * earlier queued in front of the first scenario's own file (a school
 * laptop's first frame waited for all of them).
 */
async function fillPicker(started) {
  const sel = /** @type {HTMLSelectElement} */ (document.getElementById("scenario"));
  const listed = async (list) => {
    try {
      return await list();
    } catch (e) {
      lab.showError(e.message);
      return [];
    }
  };
  const [stems, labStems] = await Promise.all([listed(listScenarios), listed(listLabs)]);
  const titles = new Map();
  const group = (label, list) => h("optgroup", { label, "data-word": label.replace(/s$/, "") }, ...list.map((s, i) => h("option", { value: s, text: optionText(s, i + 1, titles.get(s)) })));
  const fill = () => {
    const picked = sel.value;
    sel.querySelectorAll("optgroup").forEach((g) => g.remove());
    sel.append(group("Scenarios", stems), ...(labStems.length ? [group("Labs", labStems)] : []));
    sel.value = picked;
    seq?.update();
  };
  sel.replaceChildren(); // index.html's "Loading…"
  fill();
  // Titles for the picker, after the first scenario; a solved lab gets its ✓ at once.
  started
    .finally(() => Promise.all([...stems, ...labStems].map((s) => fetchScenario(s).then((t) => titles.set(s, JSON.parse(t).title)).catch(() => null))))
    .then(fill, fill);
  addEventListener("queuelab-progress", fill);
  sel.addEventListener("change", async () => {
    lab.pause();
    sel.querySelector("option[value='']")?.remove(); // the "Pick a scenario…" a bad link put first
    const url = new URL(location.href);
    url.search = "";
    url.searchParams.set(isLab(sel.value) ? "lab" : "scenario", isLab(sel.value) ? shortName(sel.value) : sel.value);
    // Leaving the live view: a page of its own, so nothing of the server's run goes on in it.
    if (server != null) return location.assign(url.href);
    history.replaceState(null, "", url);
    await loadStem(sel.value);
  });
  return stems;
}

// ---- sharing ------------------------------------------------------------------

/** { href, tooBig }: a link to this run at this moment, or (href null) the size of a run too big for one. */
async function currentLink({ embed: asEmbed = false } = {}) {
  return makeLink(location.href, { stem, state: lab.state(), code: cell?.edited ? cell.code : null, embed: asEmbed });
}

/** The iframe's height when this run's embed view could not be measured (it did not get ready in time). */
const FALLBACK_EMBED_HEIGHT = 1600;

/** The words for a run too big for a link. */
const tooBigText = (size) => `This run is ${Math.ceil(size / 1024)} KiB compressed, more than a link carries (${MAX_LINK_RUN / 1024} KiB): use Download run, and Open run file to open it.`;

/** Copies `text`; where the clipboard is refused, the field stays selected for Ctrl+C. */
async function copy(text, field, status) {
  field.value = text;
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = "Copied.";
  } catch {
    field.focus();
    field.select();
    status.textContent = "Selected: press Ctrl+C (⌘C) to copy.";
  }
}

function wireShare() {
  const panel = document.getElementById("share-panel");
  /** The panel's fields and buttons by id (a text area's and a button's value, disabled and placeholder are an input's). @param {string} id */
  const $ = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
  $("share-link").addEventListener("click", async () => {
    const { href, tooBig } = await currentLink();
    panel.hidden = false;
    if (!href) {
      $("share-url").value = "";
      $("share-status").textContent = tooBigText(tooBig);
      $("download-run").focus();
      return;
    }
    history.replaceState(null, "", href);
    $("share-url").value = href;
    await copy(href, $("share-url"), $("share-status"));
  });
  $("share-embed").addEventListener("click", async () => {
    panel.hidden = false;
    const scriptUrl = new URL("dist/queuelab.js", location.href).href;
    const [page, framed] = [await currentLink(), await currentLink({ embed: true })];
    $("share-url").value = page.href ?? "";
    $("share-element").value = elementSnippet(scriptUrl, { stem, state: lab.state() });
    $("share-status").textContent = page.href ? "Pick a snippet and copy it." : tooBigText(page.tooBig);
    $("share-element").focus();
    $("share-iframe").value = "";
    if (!framed.href) return;
    // The iframe's height: this run's embed view, at its start and at its end, in a course column.
    $("copy-iframe").disabled = true;
    $("share-iframe").placeholder = "Measuring how tall this run's stage gets…";
    const at = (t) => {
      const u = new URL(framed.href);
      u.searchParams.set("t", String(t));
      u.searchParams.delete("autoplay");
      return u.href;
    };
    const height = (await measureEmbed([at(0), at(lab.scenario?.durationMs ?? 0)])) ?? FALLBACK_EMBED_HEIGHT;
    $("share-iframe").value = iframeSnippet(framed.href, lab.scenario?.title ?? "SQS", height);
    $("copy-iframe").disabled = false;
  });
  $("download-run").addEventListener("click", () => {
    const text = runFile({ stem, state: lab.state(), code: cell?.edited ? cell.code : null });
    const a = h("a", { href: URL.createObjectURL(new Blob([text], { type: "application/json" })), download: `queuelab-run-${stem || "scenario"}.json` });
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 0);
    $("share-status").textContent = "Saved: open it here with Open run file.";
  });
  $("open-run-button").addEventListener("click", () => $("open-run").click());
  $("open-run").addEventListener("change", async () => {
    const file = $("open-run").files[0];
    if (!file) return;
    try {
      // The run goes into this page's own address (its fragment, never sent to a server), then the page opens it as a link.
      history.replaceState(null, "", await linkFromRunFile(location.href, await file.text()));
      location.reload();
    } catch (e) {
      $("share-status").textContent = `${file.name}: ${e.message}`;
    }
  });
  for (const [btn, field] of [["copy-url", "share-url"], ["copy-element", "share-element"], ["copy-iframe", "share-iframe"]]) {
    $(btn).addEventListener("click", () => copy($(field).value, $(field), $("share-status")));
  }
  $("share-close").addEventListener("click", () => (panel.hidden = true));
}

// ---- start --------------------------------------------------------------------

async function start() {
  /** @type {(value?: unknown) => void} */
  let started;
  const picker = fillPicker(new Promise((resolve) => (started = resolve)));
  try {
    await openLink(picker);
  } finally {
    started();
  }
}

/** Opens what the link asks for, once the picker (`picker`, its stems) and the engine are ready. */
async function openLink(picker) {
  if (!embed) wireShare();
  // The scenario list needs no engine: it loads while the engine compiles,
  // and so does the file the link asks for.
  const engine = ready();
  const stems = await picker;
  if (server != null) return watchServer(engine);
  if (!embed) offerWatch(document.querySelector(".picker"));
  if (!embed) seq = setUpSequence({ select: document.getElementById("scenario"), placeHost: document.querySelector(".picker"), after: document.querySelector("#lab .transport") });
  const name = link.lab != null ? `labs/${link.lab}` : (link.scenario ?? stems[0]);
  if (!name) return;
  prefetch(name);
  await engine;
  let extra = {};
  // null: the run is whole; undefined: cut short (its checksum says so); else a DamagedRun's words for why.
  let damaged = link.damaged ? undefined : null;
  if (link.packed && damaged === null) {
    try {
      extra = await unpack(link.packed);
    } catch (e) {
      damaged = e.why;
    }
  }
  // Within the page's bounds (page-limits.js): what was left out is said below.
  const run = boundedRun(extra);
  if (!(await known(name, stems))) return;
  const loaded = await loadStem(name);
  // The tour is the full page's, never an embed's or a course page's <queue-lab>; it points at what the first scenario drew.
  if (!embed) setUpTour(document, document.querySelector(".picker"));
  if (!loaded) return;
  if (run.scenario && !lab.apply(run.scenario)) return;
  if (link.seed != null && !lab.setSeed(link.seed)) return;
  // After loading, which clears the error box, so a bad speed's message stays.
  if (link.speed != null) lab.setSpeed(link.speed);
  if (run.code != null) cell?.show(run.code, { fromLink: true }); // shown, never run
  openMoment(run.actions);
  // Never silently: what a link lost is said after loading, which clears the error box.
  const lost = [...run.notes, damaged !== null ? damagedMessage(link.actions, damaged) : null].filter(Boolean);
  if (lost.length) lab.showError(lost.join(" "));
}

/** The live view of the server `?server=` names, once the engine is ready; its address refused in words. */
async function watchServer(engine) {
  const sel = /** @type {HTMLSelectElement} */ (document.getElementById("scenario"));
  sel.prepend(h("option", { value: "", text: "Live: the server's run", disabled: true }));
  sel.value = "";
  await engine;
  try {
    openLive(lab, server);
  } catch (e) {
    lab.showError(e.message);
  }
}

/**
 * Whether a link's scenario name finds a shipped scenario. When it does not
 * (a typo, a scenario renamed since), the page says so and offers every
 * scenario in the picker, focused: never a page with nothing loaded and no
 * way on. The element's words (src=, inline JSON) are not the page's, so
 * the page says its own.
 */
async function known(name, stems) {
  try {
    await resolveScenario(name);
    return true;
  } catch {
    const sel = /** @type {HTMLSelectElement} */ (document.getElementById("scenario"));
    sel.prepend(h("option", { value: "", text: "Pick a scenario…", disabled: true }));
    sel.value = "";
    document.getElementById("title").textContent = "Pick a scenario";
    const kind = isLab(name) ? "lab" : "scenario";
    const list = isLab(name) ? await listLabs().catch(() => []) : stems;
    const choices = list.map((s, i) => `${i + 1}. ${shortName(s).replace(/-/g, " ")}`).join("; ");
    lab.showError(`This link asks for the ${kind} “${cut(shortName(name), 80)}”, and Queuelab has no ${kind} by that name. Pick one in the Scenario list: ${choices}.`);
    sel.focus();
    return false;
  }
}

/**
 * Takes the run to the link's moment and plays it if asked. A moment the
 * run cannot reach is clamped, saying so. A link that needs more work than
 * the engine's documented limit (limits(), link-check.js) opens paused at
 * the start and asks first.
 */
function openMoment(journal) {
  const duration = lab.scenario?.durationMs ?? 0;
  let t = link.t ?? 0;
  if (!(t >= 0 && t <= duration)) {
    const to = Number.isNaN(t) || t < 0 ? 0 : duration;
    lab.showError(`This link asks for the moment t=${new URLSearchParams(location.search).get("t")} ms, outside this run (0 to ${duration} ms, ${span(duration)}), so it stands for ${to === 0 ? "the run's start" : "the run's end"} instead.`);
    t = to;
  }
  const go = () => {
    if (t > 0 || journal.length) lab.restore({ journal, t });
    if (link.autoplay) lab.play();
  };
  // Playing at the fastest speed runs to the end as fast as it can; other speeds keep pace with the wall clock.
  const atFullSpeed = link.autoplay && lab.speed === "max";
  const work = linkWork(lab, { until: Math.max(t, atFullSpeed ? duration : 0), replays: t > 0 || journal.length > 0, journal });
  if (work.heavy) askBeforeRunning(document.querySelector("#lab .transport"), work, { run: go, stay: () => lab.pause() });
  else go();
}
