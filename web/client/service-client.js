// What Queuelab's small AWS clients share (SqsClient, SnsClient): a client
// with the AWS SDK v3's `send(new XCommand(input))` and camelCase methods
// that carries each command to an engine's `dispatch` as JSON
// (`<prefix><Operation>`) and reads the answer or the error. It holds no
// rule of any service: the engine answers with the service's own codes.
// Plain ES module, no dependencies.

/** Base of every client's command classes; `input` is kept as given, as the SDK does. */
export class Command {
  constructor(input = {}) {
    this.input = input;
  }
}

/** An AWS error answer, with the fields SDK v3 exceptions carry. */
export class AwsError extends Error {
  /**
   * @param {{ name: string, message: string, Code: string, $fault: "client" | "server",
   *           $metadata: { httpStatusCode: number, requestId?: string } }} fields
   */
  constructor({ name, message, Code, $fault, $metadata }) {
    super(message);
    this.name = name;
    this.Code = Code;
    this.$fault = $fault;
    this.$metadata = $metadata;
  }

  /**
   * The fields of an error response (body {"__type": "ns#Shape", "message"},
   * header "<Code>;<Sender|Receiver>"); `nameOf(shape, code)` gives the
   * error's name as the service's SDK names it.
   */
  static fields({ status, headers }, data, $metadata, nameOf) {
    const shape = String(data.__type ?? "").split("#").pop();
    const [code, type] = (header(headers, "x-amzn-query-error") ?? "").split(";");
    const name = nameOf(shape, code) || code || shape || "UnknownError";
    const $fault = /** @type {"client" | "server"} */ (type === "Sender" || status < 500 ? "client" : "server");
    return { name, message: data.message ?? data.Message ?? "", Code: code || name, $fault, $metadata };
  }
}

/**
 * A client of one service. `service` says which: `{ name: "SqsClient",
 * module: "sqs-client.js", sdk: "@aws-sdk/client-sqs", sdkClient: "SQSClient",
 * prefix: "AmazonSQS.",
 * commands, error(res, data, $metadata), replacer?, reviver? }`.
 */
export class ServiceClient {
  #endpoint;
  #who;
  #service;

  /**
   * @param {object | (() => object)} target a Playground, any object with
   *   `dispatch(target, body, options)`, or a function returning one
   *   (called on every request, so a page can swap engines underneath).
   * @param {{ caller?: string, principal?: string, sourceArn?: string, sourceAccount?: string }} options
   * @param {object} service
   */
  constructor(target, { caller, principal, sourceArn, sourceAccount } = {}, service) {
    if (typeof target !== "function" && typeof target?.dispatch !== "function") {
      throw new TypeError(`${service.name} needs a Playground, an object with dispatch(target, body, options), or a function returning one`);
    }
    this.#endpoint = typeof target === "function" ? target : () => target;
    this.#service = service;
    // Only the options given, so an endpoint that knows only `caller` sees what it always saw.
    this.#who = { caller };
    for (const [k, v] of Object.entries({ principal, sourceArn, sourceAccount })) if (v != null) this.#who[k] = v;
  }

  /** SDK style: `await client.send(new XCommand(input))`. */
  async send(command) {
    const service = this.#service;
    const operation = command?.constructor?.operation;
    if (!Object.hasOwn(service.commands, operation) || !(command instanceof service.commands[operation])) {
      // The SDK's commands carry a middleware stack; say where those belong.
      const origin = command?.middlewareStack ? ` from ${service.sdk} (send those with the SDK's ${service.sdkClient})` : "";
      throw new TypeError(`${service.name}.send takes a command from ${service.module}, such as ${service.example}; got ${describe(command)}${origin}`);
    }
    const endpoint = this.#endpoint();
    if (typeof endpoint?.dispatch !== "function") {
      throw new TypeError(`${service.name}: the target function returned ${describe(endpoint)}, not a Playground`);
    }
    const res = await endpoint.dispatch(`${service.prefix}${operation}`, JSON.stringify(command.input, service.replacer), { ...this.#who });
    const data = res.body ? JSON.parse(res.body, service.reviver) : {};
    const $metadata = { httpStatusCode: res.status, requestId: header(res.headers, "x-amzn-requestid") };
    if (res.status >= 300) throw service.error(res, data, $metadata);
    return { ...data, $metadata };
  }
}

/** One camelCase method per operation, as the SDK's aggregated classes have: client.sendMessage(input) is client.send(new SendMessageCommand(input)). */
export function addMethods(Client, commands) {
  for (const [operation, CommandClass] of Object.entries(commands)) {
    const method = operation[0].toLowerCase() + operation.slice(1);
    Object.defineProperty(Client.prototype, method, {
      value: { [method](input) { return this.send(new CommandClass(input)); } }[method],
      writable: true,
      configurable: true,
    });
  }
}

export function header(headers, name) {
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (key.toLowerCase() === name) return value;
  }
  return undefined;
}

function describe(value) {
  if (value === null || value === undefined) return String(value);
  if (typeof value === "object") return value.constructor?.name ? `a ${value.constructor.name}` : "an object";
  return `a ${typeof value}`;
}
