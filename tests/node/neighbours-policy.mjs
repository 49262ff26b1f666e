// A queue policy that lets the account's SNS topics and S3 buckets send to
// a queue, for tests whose point is what the neighbours send, not whether a
// queue lets them: without such a statement SQS refuses a service
// principal (tests/node/accounts.test.mjs and the protocol's
// queue_policies.rs test the refusals themselves).
export const NEIGHBOURS_MAY_SEND = {
  Version: "2012-10-17",
  Statement: [{
    Sid: "AccountNeighbours",
    Effect: "Allow",
    Principal: { Service: ["sns.amazonaws.com", "s3.amazonaws.com"] },
    Action: "sqs:SendMessage",
    Resource: "*",
    Condition: { StringEquals: { "aws:SourceAccount": "000000000000" } },
  }],
};

/** A scenario queue `name` whose policy lets the account's topics and buckets send. */
export const neighbourQueue = (name, fields = {}) => ({ name, policy: NEIGHBOURS_MAY_SEND, ...fields });
