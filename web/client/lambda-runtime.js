// Your JavaScript as a scenario's Lambda function: the code cell's
// `lambda.attach("invoice-mailer", handler)`. The page plays the
// function's runtime: it asks the engine for the invocations waiting for
// an answer (Playground.pendingInvocations: each with the SQS event JSON
// Lambda builds), calls the handler with the event, awaits it (a handler
// may be async and call SQS itself), and sends the answer back as a
// request (`Lambda.InvocationResponse` or `Lambda.InvocationError`).
//
// Why answers are requests: the run records them like any of your
// requests, at the virtual moment they came, so a replay, a scrub back or
// a share link gives the same answers again without running anyone's code
// (a link's code never runs without a click). For the same reason an
// invocation whose answer is already recorded is never handed to the
// handler again. What an answer means (a partial batch response read, an
// invalid one failing the whole batch, a response past 6 MB, the moment
// the invocation ends, its timeout) is the engine's: this module only
// calls the function and carries its answer.
//
// Plain ES module, no dependencies.

/**
 * The most bytes of a response's JSON this carries into the engine: a
 * request's 4 MiB (limits().maxRequestBytes) less room for the other
 * members. A larger response is sent as its size alone, and the engine
 * decides what it means.
 */
export const MAX_CARRIED_RESPONSE_BYTES = 4 * 1024 * 1024 - 1024;

/** An error answer of the functions' runtime (its name is Lambda's code). */
export class LambdaError extends Error {
  constructor(code, message, status) {
    super(message);
    this.name = code;
    this.Code = code;
    this.status = status;
  }
}

export class LambdaRuntime {
  /**
   * @param {{ dispatch(target: string, body: string, options?: object): Promise<{ status: number, body: string }> }} target
   *   where requests go (the lab's dispatch, which records them)
   * @param {{ pending: () => Array<{ function: string, invocation: number, startedAt: number, deadline: number, event: string }>,
   *   now?: () => number, answered?: (fn: string, invocation: number) => boolean,
   *   onAnswer?: (info: { function: string, invocation: number, error?: unknown, refused?: string }) => void, caller?: string }} hooks
   *   `pending`: the invocations waiting (Playground.pendingInvocations);
   *   `caller`: who the event log names for its requests;
   *   `answered`: whether the run already holds a recorded answer for one
   *   (a replay gives it); `onAnswer`: told of each answer given.
   */
  constructor(target, { pending, now = () => 0, answered = () => false, onAnswer = () => {}, caller = "your code" }) {
    this.target = target;
    this.caller = caller;
    this.hooks = { pending, now, answered, onAnswer };
    /** @type {Map<string, Function>} function name → handler */
    this.handlers = new Map();
    /** Invocations handed to a handler and not yet answered, by "function#n". */
    this.running = new Set();
  }

  /**
   * Makes `handler` the code of the function `name`: its invocations that
   * start from now on wait for it. Rejects with the engine's words for a
   * name the scenario has no function of (naming the ones it has).
   */
  async attach(name, handler) {
    if (typeof name !== "string") throw new TypeError(`lambda.attach(name, handler): name must be a function's name (a string), got ${typeof name}`);
    if (typeof handler !== "function") throw new TypeError(`lambda.attach(${JSON.stringify(name)}, handler): handler must be a function (event, context) => response, got ${handler === null ? "null" : typeof handler}`);
    await this.call("AttachHandler", { FunctionName: name });
    this.handlers.set(name, handler);
  }

  /** The scenario's described handler answers `name`'s invocations again. */
  async detach(name) {
    await this.call("DetachHandler", { FunctionName: name });
    this.handlers.delete(name);
  }

  /** Detaches every function attached here (Stop). */
  async detachAll() {
    for (const name of [...this.handlers.keys()]) await this.detach(name).catch(() => this.handlers.delete(name));
  }

  get attached() {
    return this.handlers.size > 0;
  }

  /**
   * Hands every waiting invocation of an attached function to its
   * handler, once. Called by its host at each frame while functions are
   * attached; cheap when none wait (one read of the engine).
   */
  poll() {
    if (this.handlers.size === 0) return;
    let waiting;
    try {
      waiting = this.hooks.pending();
    } catch {
      return; // the engine is being replaced (a replay, a trap): the next frame asks again
    }
    for (const inv of waiting) {
      const key = `${inv.function}#${inv.invocation}`;
      const handler = this.handlers.get(inv.function);
      if (!handler || this.running.has(key) || this.hooks.answered(inv.function, inv.invocation)) continue;
      this.running.add(key);
      this.invoke(handler, inv).finally(() => this.running.delete(key));
    }
  }

  /** One invocation: the handler called with the event, its answer sent. */
  async invoke(handler, inv) {
    const { now, onAnswer } = this.hooks;
    const context = {
      functionName: inv.function,
      awsRequestId: `invocation-${inv.invocation}`,
      getRemainingTimeInMillis: () => Math.max(0, inv.deadline - now()),
    };
    const id = { FunctionName: inv.function, Invocation: inv.invocation };
    let op = "InvocationResponse";
    let body;
    let error;
    try {
      const value = await handler(JSON.parse(inv.event), context);
      // The Node.js runtime answers `undefined` as null.
      const text = JSON.stringify(value === undefined ? null : value) ?? "null";
      const bytes = new TextEncoder().encode(text).length;
      // The response goes in as the JSON it is; one too large to carry, as its size.
      body = bytes > MAX_CARRIED_RESPONSE_BYTES ? JSON.stringify({ ...id, ResponseBytes: bytes }) : `${JSON.stringify(id).slice(0, -1)},"Response":${text}}`;
    } catch (e) {
      error = e;
      op = "InvocationError";
      body = JSON.stringify({ ...id, ErrorType: errorType(e), ErrorMessage: errorMessage(e) });
    }
    try {
      await this.send(op, body);
      onAnswer({ function: inv.function, invocation: inv.invocation, error });
    } catch (e) {
      onAnswer({ function: inv.function, invocation: inv.invocation, error, refused: e?.message ?? String(e) });
    }
  }

  async call(op, members) {
    return this.send(op, JSON.stringify(members));
  }

  async send(op, body) {
    const res = await this.target.dispatch(`Lambda.${op}`, body, { caller: this.caller });
    if (res.status < 400) return;
    let data = {};
    try {
      data = JSON.parse(res.body);
    } catch {
      // an answer with no JSON: its status says it
    }
    const code = String(data.__type ?? "").split("#").pop() || `HTTP ${res.status}`;
    throw new LambdaError(code, data.message ?? `${op} failed (${res.status})`, res.status);
  }
}

/** A thrown value's type, as the Node.js runtime reports it (`errorType`). */
function errorType(e) {
  if (e instanceof Error) return e.name || "Error";
  return typeof e === "string" ? "string" : "Error";
}

/** A thrown value's message (`errorMessage`). */
function errorMessage(e) {
  if (e instanceof Error) return e.message;
  try {
    return typeof e === "string" ? e : (JSON.stringify(e) ?? String(e));
  } catch {
    return String(e);
  }
}
