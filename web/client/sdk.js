// A request handler that lets the real AWS SDK for JavaScript v3
// (@aws-sdk/client-sqs, @aws-sdk/client-sns) talk to a Queuelab engine
// instead of the network:
//
//   new SQSClient({ region: "us-east-1", credentials: { accessKeyId: "x", secretAccessKey: "x" },
//                   requestHandler: queuelabHandler(playground) })
//   new SNSClient({ ...the same })
//
// The SDK builds, signs and parses the requests as it would for AWS (SQS:
// JSON 1.0, X-Amz-Target header; SNS: the query protocol, a form body and
// XML answers); this handler only moves bytes, so what the
// SDK makes of the answers (exception classes, MD5 checks, response shapes) is
// exactly what it would make of AWS's. Deliberately no imports: a page loads
// this file as it is, with no bundler.

/**
 * @param {object | (() => object)} target a Playground, any object with
 *   `dispatch(target, body, { caller })`, or a function returning one (called
 *   on every request, so a page can swap engines under a live client).
 * @param {{ caller?: string, principal?: string }} [options] `caller`: who
 *   the event log names as acting. `principal`: who every call is made as
 *   (an account id, an IAM ARN or a service principal); without it, the
 *   account the request's access key names (accountOfAccessKey), else the
 *   queues' own account.
 */
export function queuelabHandler(target, { caller, principal } = {}) {
  const endpoint = endpointOf(target);
  let config = {};
  const who = (headers) => {
    const as = principal ?? accountOfAccessKey(accessKeyOf(headers));
    return as == null ? { caller } : { caller, principal: as };
  };

  return {
    // Read by the SDK's host-header middleware, which only acts on "h2".
    metadata: { handlerProtocol: "queuelab" },

    /** @param {{ headers: Record<string, string>, body?: unknown }} request @param {{ abortSignal?: AbortSignal }} [options] */
    async handle(request, { abortSignal } = {}) {
      // Checked before dispatch so an aborted request never reaches the engine.
      if (abortSignal?.aborted) throw abortError(abortSignal);
      const answer = endpoint().dispatch(targetOf(request), bodyText(request.body), who(request.headers));
      const res = await (abortSignal ? raceAbort(answer, abortSignal) : answer);
      return {
        response: {
          statusCode: res.status,
          // Lower-case names, as Node's HTTP stack gives them: the SDK reads
          // `x-amzn-query-error` by its lower-case name when mapping errors.
          headers: Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k.toLowerCase(), v])),
          // A Uint8Array is what the SDK's collectBody takes as already collected.
          body: new TextEncoder().encode(res.body),
        },
      };
    },

    // The SDK passes its settings (logger, timeouts) to the handler; there is
    // no connection to configure, so they are only kept for httpHandlerConfigs.
    // A requestTimeout is not applied: requests wait in virtual time only.
    updateHttpClientConfig(key, value) {
      config = { ...config, [key]: value };
    },
    httpHandlerConfigs() {
      return config;
    },
    destroy() {},
  };
}

/**
 * The AWS account an access key id stands for, by Queuelab's convention:
 * twelve digits at its start, or right after `AKIA` / `ASIA`, are the
 * account id ("111111111111", "AKIA111111111111", "AKIA222222222222EXAMPLE").
 * Any other key ("x", "test") is the queues' own account: null. (AWS keeps
 * the key-to-account map to itself; a key here carries its account in
 * plain sight, so two clients with two keys are two accounts.)
 * @param {unknown} accessKeyId
 * @returns {string | null}
 */
export function accountOfAccessKey(accessKeyId) {
  const digits = typeof accessKeyId === "string" ? /^(?:AKIA|ASIA)?(\d{12})(?!\d)/.exec(accessKeyId) : null;
  return digits ? digits[1] : null;
}

// SQS's JSON requests name their operation in X-Amz-Target; SNS's query
// requests (form bodies, XML answers) name theirs in the body, and are told
// apart by the endpoint they are addressed to (sns.<region>.amazonaws.com).
function targetOf(request) {
  const target = header(request.headers, "x-amz-target");
  if (target != null) return target;
  return /^sns\./.test(request.hostname ?? "") ? "AmazonSNS" : "";
}

// The access key id in a SigV4 Authorization header: "AWS4-HMAC-SHA256 Credential=<key>/<date>/<region>/sqs/aws4_request, …".
function accessKeyOf(headers) {
  return /Credential=([^/,\s]+)\//.exec(header(headers, "authorization") ?? "")?.[1];
}

function endpointOf(target) {
  if (typeof target === "function") {
    return () => {
      const endpoint = target();
      if (typeof endpoint?.dispatch !== "function") {
        throw new TypeError("queuelabHandler: the target function must return a Playground (an object with dispatch)");
      }
      return endpoint;
    };
  }
  if (typeof target?.dispatch !== "function") {
    throw new TypeError("queuelabHandler needs a Playground, an object with dispatch(target, body, options), or a function returning one");
  }
  return () => target;
}

// HTTP header names are case-insensitive, and SDK middleware may add any case.
function header(headers, name) {
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (key.toLowerCase() === name) return value;
  }
  return undefined;
}

function bodyText(body) {
  if (body == null) return "";
  if (typeof body === "string") return body;
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return new TextDecoder().decode(body);
  throw new TypeError(`queuelabHandler: cannot read a request body of type ${body?.constructor?.name ?? typeof body}`);
}

// The engine has no way to withdraw a request, so an abort while a long poll
// waits only stops this caller waiting: the engine still answers the poll
// when virtual time reaches a message, and that message goes in flight for
// its visibility timeout, much as AWS can when a client drops a long-poll
// connection. (Playground has no call to cancel a waiting poll.)
function raceAbort(promise, signal) {
  let stop = () => {};
  const aborted = new Promise((_, reject) => {
    const onAbort = () => reject(abortError(signal));
    if (typeof signal.addEventListener === "function") {
      signal.addEventListener("abort", onAbort, { once: true });
      stop = () => signal.removeEventListener("abort", onAbort);
    } else {
      // The SDK's own AbortSignal type (@smithy/types) only promises `onabort`.
      signal.onabort = onAbort;
      stop = () => {
        if (signal.onabort === onAbort) signal.onabort = null;
      };
    }
  });
  return Promise.race([promise, aborted]).finally(stop);
}

// Shaped like the errors of @smithy's fetch and node handlers, which the SDK's
// retry logic recognises by name and does not retry.
function abortError(signal) {
  const reason = signal?.reason;
  const error = new Error(reason && !(reason instanceof Error) ? String(reason) : "Request aborted");
  error.name = "AbortError";
  if (reason instanceof Error) error.cause = reason;
  return error;
}
