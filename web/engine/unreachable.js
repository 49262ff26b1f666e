// The end of every switch over the run's event kinds. The events are typed
// by the engine's contract (QueuelabEvent in web/pkg/queuelab.d.ts, made
// from the Rust types), and the type check (tests/types/web.tsconfig.json)
// narrows a switch's `default:` to `never` only while every kind has its
// case: a kind the engine adds fails the check until each switch says what
// to do with it, instead of the page showing it wrongly.

/**
 * Ends a switch that handles every event kind. It cannot run: the page and
 * its wasm are built together from one contract, so an event of a kind no
 * case names is a bug, and fails loudly.
 * @param {never} e
 * @returns {never}
 */
export function unreachable(e) {
  throw new TypeError(`no case for the event kind ${JSON.stringify(/** @type {{ type?: unknown }} */ (e)?.type)}`);
}
