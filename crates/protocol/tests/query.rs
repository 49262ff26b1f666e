//! SQS's query protocol (form in, XML out) around the JSON protocol: each
//! form is read by `query::read_request`, dispatched to a real engine as
//! the JSON request it becomes, and its answer written by `query::answer`,
//! as a server does. The forms are what botocore's query serializer writes
//! for SQS's 2012-11-05 query model.

use queuelab_engine::{Config, Engine};
use queuelab_protocol::query::{answer, error_response, read_request, QueryError};
use queuelab_protocol::{dispatch, Dispatched, Response};
use serde_json::{json, Value};

const NS: &str = "http://queue.amazonaws.com/doc/2012-11-05/";
const URL: &str = "https://sqs.us-east-1.amazonaws.com/000000000000";
/// The queue URL botocore's captures name (any host resolves).
const Q: &str = "http://127.0.0.1:9324/000000000000/q";

/// A form as botocore writes one: each key and value percent-encoded.
fn form(pairs: &[(&str, &str)]) -> String {
    let encode = |text: &str| {
        text.bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                    (b as char).to_string()
                }
                _ => format!("%{b:02X}"),
            })
            .collect::<String>()
    };
    let mut out = vec!["Version=2012-11-05".to_string()];
    out.extend(
        pairs
            .iter()
            .map(|(k, v)| format!("{}={}", encode(k), encode(v))),
    );
    out.join("&")
}

/// One query request through the codec and the engine, as a server makes it.
fn call_at(engine: &mut Engine, form: &str, path_queue_url: Option<&str>) -> Response {
    match read_request(form, path_queue_url) {
        Err(e) => error_response(&e, "host-request-1"),
        Ok(request) => match dispatch(engine, &request.target, &request.body, None) {
            Dispatched::Done(json) => answer(&request.action, &json),
            Dispatched::Waiting(poll) => panic!("{} is waiting (poll {poll})", request.action),
        },
    }
}

/// A JSON-protocol call, for the same request on the other wire.
fn json_call(engine: &mut Engine, op: &str, body: Value) -> Value {
    match dispatch(engine, &format!("AmazonSQS.{op}"), &body.to_string(), None) {
        Dispatched::Done(json) => json.json(),
        Dispatched::Waiting(_) => panic!("{op} is waiting"),
    }
}

fn md5_hex(bytes: &[u8]) -> String {
    use md5::{Digest, Md5};
    Md5::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn call(engine: &mut Engine, pairs: &[(&str, &str)]) -> Response {
    call_at(engine, &form(pairs), None)
}

/// The XML with the text of the elements that change from run to run
/// (ids, handles, timestamps) as `*`.
fn masked(xml: &str) -> String {
    let mut out = xml.to_string();
    for tag in [
        "RequestId",
        "MessageId",
        "ReceiptHandle",
        "TaskHandle",
        "SequenceNumber",
        "StartedTimestamp",
    ] {
        out = mask_after(&out, &format!("<{tag}>"), "<");
    }
    for name in ["Timestamp</Name><Value>", "SenderId</Name><Value>"] {
        out = mask_after(&out, name, "<");
    }
    out
}

/// Each text after `open` up to `close` replaced by `*`.
fn mask_after(text: &str, open: &str, close: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(open) {
        out.push_str(&rest[..at + open.len()]);
        rest = &rest[at + open.len()..];
        let end = rest.find(close).unwrap_or(rest.len());
        out.push('*');
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// A success as SQS writes it: `<{op}Result>` holding `result`, or none.
fn ok(op: &str, result: Option<&str>) -> String {
    let result = match result {
        None => String::new(),
        Some("") => format!("<{op}Result/>"),
        Some(r) => format!("<{op}Result>{r}</{op}Result>"),
    };
    format!(
        "<{op}Response xmlns=\"{NS}\">{result}<ResponseMetadata><RequestId>*</RequestId>\
         </ResponseMetadata></{op}Response>"
    )
}

fn error(code: &str, message: &str) -> String {
    format!(
        "<ErrorResponse xmlns=\"{NS}\"><Error><Type>Sender</Type><Code>{code}</Code>\
         <Message>{message}</Message><Detail/></Error><RequestId>*</RequestId></ErrorResponse>"
    )
}

#[track_caller]
fn assert_xml(response: &Response, status: u16, expected: &str) {
    assert_eq!(
        masked(&response.body),
        expected,
        "status {}",
        response.status
    );
    assert_eq!(response.status, status);
    assert_eq!(response.header("content-type"), Some("text/xml"));
    assert!(response.header("x-amzn-query-error").is_none());
}

/// The text of the first `<tag>` of an answer.
fn text_of(response: &Response, tag: &str) -> String {
    let open = format!("<{tag}>");
    let start = response.body.find(&open).expect(tag) + open.len();
    let end = start + response.body[start..].find('<').unwrap();
    response.body[start..end].to_string()
}

fn engine() -> Engine {
    Engine::new(Config::default())
}

/// An engine with the standard queue `q`.
fn with_q() -> Engine {
    let mut engine = engine();
    call(
        &mut engine,
        &[("Action", "CreateQueue"), ("QueueName", "q")],
    );
    engine
}

fn send(engine: &mut Engine, body: &str) {
    let r = call(
        engine,
        &[
            ("Action", "SendMessage"),
            ("QueueUrl", Q),
            ("MessageBody", body),
        ],
    );
    assert_eq!(r.status, 200, "{}", r.body);
}

/// Receives up to ten messages of `q`: their receipt handles.
fn receive_handles(engine: &mut Engine) -> Vec<String> {
    let r = call(
        engine,
        &[
            ("Action", "ReceiveMessage"),
            ("QueueUrl", Q),
            ("MaxNumberOfMessages", "10"),
        ],
    );
    r.body
        .split("<ReceiptHandle>")
        .skip(1)
        .map(|s| s[..s.find('<').unwrap()].to_string())
        .collect()
}

// ---------------------------------------------------------------------------
// Queues
// ---------------------------------------------------------------------------

#[test]
fn a_create_queue_form_with_attributes_and_tags_answers_the_queue_url() {
    let mut engine = engine();
    let r = call(
        &mut engine,
        &[
            ("Action", "CreateQueue"),
            ("QueueName", "q.fifo"),
            ("Attribute.1.Name", "FifoQueue"),
            ("Attribute.1.Value", "true"),
            ("Attribute.2.Name", "VisibilityTimeout"),
            ("Attribute.2.Value", "2"),
            ("Tag.1.Key", "team"),
            ("Tag.1.Value", "a"),
        ],
    );
    let result = format!("<QueueUrl>{URL}/q.fifo</QueueUrl>");
    assert_xml(&r, 200, &ok("CreateQueue", Some(&result)));
    let url = format!("{URL}/q.fifo");
    let tags = call(
        &mut engine,
        &[("Action", "ListQueueTags"), ("QueueUrl", &url)],
    );
    let result = "<Tag><Key>team</Key><Value>a</Value></Tag>";
    assert_xml(&tags, 200, &ok("ListQueueTags", Some(result)));
    let attributes = call(
        &mut engine,
        &[
            ("Action", "GetQueueAttributes"),
            ("QueueUrl", &url),
            ("AttributeName.1", "VisibilityTimeout"),
            ("AttributeName.2", "FifoQueue"),
        ],
    );
    let result = "<Attribute><Name>FifoQueue</Name><Value>true</Value></Attribute>\
                  <Attribute><Name>VisibilityTimeout</Name><Value>2</Value></Attribute>";
    assert_xml(&attributes, 200, &ok("GetQueueAttributes", Some(result)));
}

#[test]
fn a_get_queue_url_form_answers_the_queue_url() {
    let mut engine = with_q();
    let r = call(
        &mut engine,
        &[
            ("Action", "GetQueueUrl"),
            ("QueueName", "q"),
            ("QueueOwnerAWSAccountId", "000000000000"),
        ],
    );
    let result = format!("<QueueUrl>{URL}/q</QueueUrl>");
    assert_xml(&r, 200, &ok("GetQueueUrl", Some(&result)));
}

#[test]
fn a_list_queues_form_answers_queue_urls_and_a_next_token() {
    let mut engine = engine();
    for name in ["o1", "o2", "p"] {
        call(
            &mut engine,
            &[("Action", "CreateQueue"), ("QueueName", name)],
        );
    }
    let page = [
        ("Action", "ListQueues"),
        ("QueueNamePrefix", "o"),
        ("MaxResults", "1"),
    ];
    let r = call(&mut engine, &page);
    let token = text_of(&r, "NextToken");
    let result = format!("<NextToken>{token}</NextToken><QueueUrl>{URL}/o1</QueueUrl>");
    assert_xml(&r, 200, &ok("ListQueues", Some(&result)));
    let r = call(
        &mut engine,
        &[page[0], page[1], page[2], ("NextToken", &token)],
    );
    let result = format!("<QueueUrl>{URL}/o2</QueueUrl>");
    assert_xml(&r, 200, &ok("ListQueues", Some(&result)));
    let none = call(
        &mut engine,
        &[("Action", "ListQueues"), ("QueueNamePrefix", "z")],
    );
    assert_xml(&none, 200, &ok("ListQueues", Some("")));
}

#[test]
fn a_get_queue_attributes_form_answers_each_attribute_as_name_and_value() {
    let mut engine = with_q();
    let r = call(
        &mut engine,
        &[
            ("Action", "GetQueueAttributes"),
            ("QueueUrl", Q),
            ("AttributeName.1", "All"),
            ("AttributeName.2", "QueueArn"),
        ],
    );
    let attribute = |name: &str, value: &str| {
        format!("<Attribute><Name>{name}</Name><Value>{value}</Value></Attribute>")
    };
    let result: String = [
        ("ApproximateNumberOfMessages", "0"),
        ("ApproximateNumberOfMessagesDelayed", "0"),
        ("ApproximateNumberOfMessagesNotVisible", "0"),
        ("CreatedTimestamp", "*"),
        ("DelaySeconds", "0"),
        ("LastModifiedTimestamp", "*"),
        ("MaximumMessageSize", "1048576"),
        ("MessageRetentionPeriod", "345600"),
        ("QueueArn", "arn:aws:sqs:us-east-1:000000000000:q"),
        ("ReceiveMessageWaitTimeSeconds", "0"),
        ("SqsManagedSseEnabled", "true"),
        ("VisibilityTimeout", "30"),
    ]
    .iter()
    .map(|(n, v)| attribute(n, v))
    .collect();
    assert_xml(&r, 200, &ok("GetQueueAttributes", Some(&result)));
}

#[test]
fn a_set_queue_attributes_form_answers_without_a_result() {
    let mut engine = with_q();
    call(
        &mut engine,
        &[("Action", "CreateQueue"), ("QueueName", "dlq")],
    );
    let policy =
        r#"{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:dlq","maxReceiveCount":"3"}"#;
    let r = call(
        &mut engine,
        &[
            ("Action", "SetQueueAttributes"),
            ("QueueUrl", Q),
            ("Attribute.1.Name", "RedrivePolicy"),
            ("Attribute.1.Value", policy),
        ],
    );
    assert_xml(&r, 200, &ok("SetQueueAttributes", None));
    let sources = call(
        &mut engine,
        &[
            ("Action", "ListDeadLetterSourceQueues"),
            ("QueueUrl", &format!("{URL}/dlq")),
            ("MaxResults", "10"),
        ],
    );
    let result = format!("<QueueUrl>{URL}/q</QueueUrl>");
    assert_xml(
        &sources,
        200,
        &ok("ListDeadLetterSourceQueues", Some(&result)),
    );
}

#[test]
fn a_list_dead_letter_source_queues_form_with_no_sources_answers_an_empty_result() {
    let mut engine = with_q();
    let r = call(
        &mut engine,
        &[("Action", "ListDeadLetterSourceQueues"), ("QueueUrl", Q)],
    );
    assert_xml(&r, 200, &ok("ListDeadLetterSourceQueues", Some("")));
}

#[test]
fn delete_queue_and_purge_queue_forms_answer_without_a_result() {
    let mut engine = with_q();
    send(&mut engine, "x");
    let r = call(&mut engine, &[("Action", "PurgeQueue"), ("QueueUrl", Q)]);
    assert_xml(&r, 200, &ok("PurgeQueue", None));
    let r = call(&mut engine, &[("Action", "DeleteQueue"), ("QueueUrl", Q)]);
    assert_xml(&r, 200, &ok("DeleteQueue", None));
}

#[test]
fn tag_queue_and_untag_queue_forms_change_the_tags_list_queue_tags_answers() {
    let mut engine = with_q();
    let tag = [
        ("Action", "TagQueue"),
        ("QueueUrl", Q),
        ("Tag.1.Key", "a"),
        ("Tag.1.Value", "1"),
        ("Tag.2.Key", "b"),
        ("Tag.2.Value", "2"),
        ("Tag.3.Key", "c"),
        ("Tag.3.Value", "3"),
    ];
    assert_xml(&call(&mut engine, &tag), 200, &ok("TagQueue", None));
    let untag = [
        ("Action", "UntagQueue"),
        ("QueueUrl", Q),
        ("TagKey.1", "a"),
        ("TagKey.2", "b"),
    ];
    assert_xml(&call(&mut engine, &untag), 200, &ok("UntagQueue", None));
    let r = call(&mut engine, &[("Action", "ListQueueTags"), ("QueueUrl", Q)]);
    let result = "<Tag><Key>c</Key><Value>3</Value></Tag>";
    assert_xml(&r, 200, &ok("ListQueueTags", Some(result)));
}

#[test]
fn an_empty_list_sent_as_the_bare_member_name_is_an_empty_list() {
    // botocore writes `TagKeys=[]` as `TagKeys=`: the engine sees a given,
    // empty list (an absent one would be a missing parameter).
    let empty = read_request("Action=UntagQueue&QueueUrl=q&TagKeys=", None).unwrap();
    assert_eq!(empty.body, r#"{"QueueUrl":"q","TagKeys":[]}"#);
    let absent = read_request("Action=UntagQueue&QueueUrl=q", None).unwrap();
    assert_eq!(absent.body, r#"{"QueueUrl":"q"}"#);
}

#[test]
fn add_permission_and_remove_permission_forms_answer_without_a_result() {
    let mut engine = with_q();
    let add = [
        ("Action", "AddPermission"),
        ("QueueUrl", Q),
        ("Label", "l"),
        ("AWSAccountId.1", "111111111111"),
        ("ActionName.1", "SendMessage"),
        ("ActionName.2", "ReceiveMessage"),
    ];
    assert_xml(&call(&mut engine, &add), 200, &ok("AddPermission", None));
    let policy = call(
        &mut engine,
        &[
            ("Action", "GetQueueAttributes"),
            ("QueueUrl", Q),
            ("AttributeName.1", "Policy"),
        ],
    );
    assert!(policy.body.contains("SQS:SendMessage"), "{}", policy.body);
    let remove = [
        ("Action", "RemovePermission"),
        ("QueueUrl", Q),
        ("Label", "l"),
    ];
    assert_xml(
        &call(&mut engine, &remove),
        200,
        &ok("RemovePermission", None),
    );
}

// ---------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------

#[test]
fn a_send_message_form_answers_the_documented_xml() {
    let mut engine = with_q();
    let r = call(
        &mut engine,
        &[
            ("Action", "SendMessage"),
            ("QueueUrl", Q),
            ("MessageBody", "hi there"),
            ("DelaySeconds", "1"),
            ("MessageAttribute.1.Name", "kind"),
            ("MessageAttribute.1.Value.DataType", "String"),
            ("MessageAttribute.1.Value.StringValue", "x"),
            ("MessageAttribute.2.Name", "bin"),
            ("MessageAttribute.2.Value.DataType", "Binary"),
            ("MessageAttribute.2.Value.BinaryValue", "AQI="),
            ("MessageAttribute.3.Name", "n"),
            ("MessageAttribute.3.Value.DataType", "Number"),
            ("MessageAttribute.3.Value.StringValue", "42"),
            ("MessageSystemAttribute.1.Name", "AWSTraceHeader"),
            ("MessageSystemAttribute.1.Value.DataType", "String"),
            ("MessageSystemAttribute.1.Value.StringValue", "Root=1"),
        ],
    );
    // The JSON wire's answer to the same message, from an engine with the
    // same history: the digests the SDKs check must be the same.
    let mut twin = with_q();
    let json = json_call(
        &mut twin,
        "SendMessage",
        json!({ "QueueUrl": Q, "MessageBody": "hi there", "DelaySeconds": 1,
                "MessageAttributes": {
                    "kind": { "DataType": "String", "StringValue": "x" },
                    "bin": { "DataType": "Binary", "BinaryValue": "AQI=" },
                    "n": { "DataType": "Number", "StringValue": "42" } },
                "MessageSystemAttributes": {
                    "AWSTraceHeader": { "DataType": "String", "StringValue": "Root=1" } } }),
    );
    let result = format!(
        "<MD5OfMessageAttributes>{}</MD5OfMessageAttributes>\
         <MD5OfMessageBody>{}</MD5OfMessageBody>\
         <MD5OfMessageSystemAttributes>{}</MD5OfMessageSystemAttributes><MessageId>*</MessageId>",
        json["MD5OfMessageAttributes"].as_str().unwrap(),
        md5_hex(b"hi there"),
        json["MD5OfMessageSystemAttributes"].as_str().unwrap(),
    );
    assert_xml(&r, 200, &ok("SendMessage", Some(&result)));
    assert_eq!(
        text_of(&r, "MessageId"),
        json["MessageId"].as_str().unwrap()
    );
}

#[test]
fn a_fifo_send_message_form_carries_its_group_and_deduplication_ids() {
    let mut engine = engine();
    call(
        &mut engine,
        &[
            ("Action", "CreateQueue"),
            ("QueueName", "f.fifo"),
            ("Attribute.1.Name", "FifoQueue"),
            ("Attribute.1.Value", "true"),
        ],
    );
    let url = format!("{URL}/f.fifo");
    let send = [
        ("Action", "SendMessage"),
        ("QueueUrl", url.as_str()),
        ("MessageBody", "order A-1001"),
        ("MessageGroupId", "g"),
        ("MessageDeduplicationId", "d"),
    ];
    let first = call(&mut engine, &send);
    let result = format!(
        "<MD5OfMessageBody>{}</MD5OfMessageBody><MessageId>*</MessageId>\
         <SequenceNumber>*</SequenceNumber>",
        md5_hex(b"order A-1001")
    );
    assert_xml(&first, 200, &ok("SendMessage", Some(&result)));
    // The same deduplication id within five minutes: the same message.
    let again = call(&mut engine, &send);
    assert_eq!(text_of(&again, "MessageId"), text_of(&first, "MessageId"));
    let r = call(
        &mut engine,
        &[
            ("Action", "ReceiveMessage"),
            ("QueueUrl", &url),
            ("AttributeName.1", "MessageGroupId"),
            ("AttributeName.2", "MessageDeduplicationId"),
            ("MaxNumberOfMessages", "10"),
        ],
    );
    let message = format!(
        "<Message><Attribute><Name>MessageDeduplicationId</Name><Value>d</Value></Attribute>\
         <Attribute><Name>MessageGroupId</Name><Value>g</Value></Attribute>\
         <Body>order A-1001</Body><MD5OfBody>{}</MD5OfBody><MessageId>*</MessageId>\
         <ReceiptHandle>*</ReceiptHandle></Message>",
        md5_hex(b"order A-1001")
    );
    assert_xml(&r, 200, &ok("ReceiveMessage", Some(&message)));
}

#[test]
fn a_fifo_send_without_a_group_id_answers_missing_parameter() {
    let mut engine = engine();
    let create = [
        ("Action", "CreateQueue"),
        ("QueueName", "f.fifo"),
        ("Attribute.1.Name", "FifoQueue"),
        ("Attribute.1.Value", "true"),
    ];
    call(&mut engine, &create);
    let url = format!("{URL}/f.fifo");
    let r = call(
        &mut engine,
        &[
            ("Action", "SendMessage"),
            ("QueueUrl", &url),
            ("MessageBody", "x"),
        ],
    );
    let text = "The request must contain the parameter MessageGroupId.";
    assert_xml(&r, 400, &error("MissingParameter", text));
}

#[test]
fn a_receive_message_form_answers_messages_with_attributes_and_message_attributes() {
    let mut engine = with_q();
    call(
        &mut engine,
        &[
            ("Action", "SendMessage"),
            ("QueueUrl", Q),
            ("MessageBody", "A-1001 & co\r\n<ok>"),
            ("MessageAttribute.1.Name", "kind"),
            ("MessageAttribute.1.Value.DataType", "String"),
            ("MessageAttribute.1.Value.StringValue", "x"),
            ("MessageAttribute.2.Name", "bin"),
            ("MessageAttribute.2.Value.DataType", "Binary"),
            ("MessageAttribute.2.Value.BinaryValue", "AQI="),
        ],
    );
    let r = call(
        &mut engine,
        &[
            ("Action", "ReceiveMessage"),
            ("QueueUrl", Q),
            ("AttributeName.1", "All"),
            ("MessageAttributeName.1", "All"),
            ("MaxNumberOfMessages", "10"),
            ("VisibilityTimeout", "2"),
            ("WaitTimeSeconds", "20"),
            ("ReceiveRequestAttemptId", "r"),
        ],
    );
    let message = format!(
        "<Message><Attribute><Name>ApproximateFirstReceiveTimestamp</Name><Value>*</Value></Attribute>\
         <Attribute><Name>ApproximateReceiveCount</Name><Value>1</Value></Attribute>\
         <Attribute><Name>SenderId</Name><Value>*</Value></Attribute>\
         <Attribute><Name>SentTimestamp</Name><Value>*</Value></Attribute>\
         <Body>A-1001 &amp; co&#13;\n&lt;ok&gt;</Body><MD5OfBody>{}</MD5OfBody>\
         <MD5OfMessageAttributes>{}</MD5OfMessageAttributes>\
         <MessageAttribute><Name>bin</Name><Value><BinaryValue>AQI=</BinaryValue><DataType>Binary</DataType></Value></MessageAttribute>\
         <MessageAttribute><Name>kind</Name><Value><DataType>String</DataType><StringValue>x</StringValue></Value></MessageAttribute>\
         <MessageId>*</MessageId><ReceiptHandle>*</ReceiptHandle></Message>",
        md5_hex(b"A-1001 & co\r\n<ok>"),
        text_of(&r, "MD5OfMessageAttributes"),
    );
    assert_xml(&r, 200, &ok("ReceiveMessage", Some(&message)));
}

#[test]
fn a_receive_that_finds_nothing_answers_an_empty_result() {
    let mut engine = with_q();
    let r = call(
        &mut engine,
        &[("Action", "ReceiveMessage"), ("QueueUrl", Q)],
    );
    assert_xml(&r, 200, &ok("ReceiveMessage", Some("")));
    assert!(r.body.contains("<ReceiveMessageResult/>"));
}

#[test]
fn a_bare_attribute_name_as_old_clients_send_it_is_a_list_of_one() {
    let request = read_request("Action=ReceiveMessage&QueueUrl=q&AttributeName=All", None);
    let body: Value = serde_json::from_str(&request.unwrap().body).unwrap();
    assert_eq!(body["AttributeNames"], json!(["All"]));
}

#[test]
fn message_system_attribute_names_are_read_under_both_spellings() {
    let form = "Action=ReceiveMessage&QueueUrl=q&MessageSystemAttributeName.1=SenderId\
                &MessageSystemAttributeNames.1=SentTimestamp";
    let body: Value = serde_json::from_str(&read_request(form, None).unwrap().body).unwrap();
    assert_eq!(
        body["MessageSystemAttributeNames"],
        json!(["SenderId", "SentTimestamp"])
    );
}

#[test]
fn delete_message_and_change_message_visibility_forms_answer_without_a_result() {
    let mut engine = with_q();
    send(&mut engine, "a");
    send(&mut engine, "b");
    let handles = receive_handles(&mut engine);
    assert_eq!(handles.len(), 2);
    let change = [
        ("Action", "ChangeMessageVisibility"),
        ("QueueUrl", Q),
        ("ReceiptHandle", handles[0].as_str()),
        ("VisibilityTimeout", "0"),
    ];
    assert_xml(
        &call(&mut engine, &change),
        200,
        &ok("ChangeMessageVisibility", None),
    );
    let delete = [
        ("Action", "DeleteMessage"),
        ("QueueUrl", Q),
        ("ReceiptHandle", handles[1].as_str()),
    ];
    assert_xml(&call(&mut engine, &delete), 200, &ok("DeleteMessage", None));
    // The one made visible again is all that is left.
    assert_eq!(receive_handles(&mut engine).len(), 1);
}

#[test]
fn a_send_message_batch_form_answers_result_entries_and_a_failed_entry() {
    let mut engine = with_q();
    let r = call(
        &mut engine,
        &[
            ("Action", "SendMessageBatch"),
            ("QueueUrl", Q),
            ("SendMessageBatchRequestEntry.1.Id", "a"),
            ("SendMessageBatchRequestEntry.1.MessageBody", "b"),
            (
                "SendMessageBatchRequestEntry.1.MessageAttribute.1.Name",
                "k",
            ),
            (
                "SendMessageBatchRequestEntry.1.MessageAttribute.1.Value.DataType",
                "Number",
            ),
            (
                "SendMessageBatchRequestEntry.1.MessageAttribute.1.Value.StringValue",
                "1",
            ),
            ("SendMessageBatchRequestEntry.2.Id", "b"),
            ("SendMessageBatchRequestEntry.2.MessageBody", "c"),
            ("SendMessageBatchRequestEntry.2.DelaySeconds", "2"),
            ("SendMessageBatchRequestEntry.3.Id", "c"),
            ("SendMessageBatchRequestEntry.3.MessageBody", "\u{1}"),
        ],
    );
    let result = format!(
        "<BatchResultErrorEntry><Code>InvalidMessageContents</Code><Id>c</Id>\
         <Message>{}</Message><SenderFault>true</SenderFault></BatchResultErrorEntry>\
         <SendMessageBatchResultEntry><Id>a</Id><MD5OfMessageAttributes>{}</MD5OfMessageAttributes>\
         <MD5OfMessageBody>{}</MD5OfMessageBody><MessageId>*</MessageId></SendMessageBatchResultEntry>\
         <SendMessageBatchResultEntry><Id>b</Id><MD5OfMessageBody>{}</MD5OfMessageBody>\
         <MessageId>*</MessageId></SendMessageBatchResultEntry>",
        text_of(&r, "Message"),
        text_of(&r, "MD5OfMessageAttributes"),
        md5_hex(b"b"),
        md5_hex(b"c"),
    );
    assert_xml(&r, 200, &ok("SendMessageBatch", Some(&result)));
}

#[test]
fn delete_and_change_visibility_batch_forms_answer_their_result_entries() {
    let mut engine = with_q();
    send(&mut engine, "a");
    send(&mut engine, "b");
    let handles = receive_handles(&mut engine);
    let change = [
        ("Action", "ChangeMessageVisibilityBatch"),
        ("QueueUrl", Q),
        ("ChangeMessageVisibilityBatchRequestEntry.1.Id", "a"),
        (
            "ChangeMessageVisibilityBatchRequestEntry.1.ReceiptHandle",
            handles[0].as_str(),
        ),
        (
            "ChangeMessageVisibilityBatchRequestEntry.1.VisibilityTimeout",
            "5",
        ),
    ];
    let result = "<ChangeMessageVisibilityBatchResultEntry><Id>a</Id></ChangeMessageVisibilityBatchResultEntry>";
    assert_xml(
        &call(&mut engine, &change),
        200,
        &ok("ChangeMessageVisibilityBatch", Some(result)),
    );
    let delete = [
        ("Action", "DeleteMessageBatch"),
        ("QueueUrl", Q),
        ("DeleteMessageBatchRequestEntry.1.Id", "a"),
        (
            "DeleteMessageBatchRequestEntry.1.ReceiptHandle",
            handles[0].as_str(),
        ),
        ("DeleteMessageBatchRequestEntry.2.Id", "b"),
        (
            "DeleteMessageBatchRequestEntry.2.ReceiptHandle",
            handles[1].as_str(),
        ),
    ];
    let result = "<DeleteMessageBatchResultEntry><Id>a</Id></DeleteMessageBatchResultEntry>\
                  <DeleteMessageBatchResultEntry><Id>b</Id></DeleteMessageBatchResultEntry>";
    assert_xml(
        &call(&mut engine, &delete),
        200,
        &ok("DeleteMessageBatch", Some(result)),
    );
}

#[test]
fn an_empty_batch_sent_as_the_bare_member_name_answers_empty_batch_request() {
    let mut engine = with_q();
    let r = call_at(
        &mut engine,
        &format!("Action=DeleteMessageBatch&QueueUrl={Q}&Entries="),
        None,
    );
    assert_eq!(r.status, 400);
    assert!(
        r.body
            .contains("<Code>AWS.SimpleQueueService.EmptyBatchRequest</Code>"),
        "{}",
        r.body
    );
}

// ---------------------------------------------------------------------------
// Message move tasks
// ---------------------------------------------------------------------------

#[test]
fn message_move_task_forms_answer_the_task_handle_the_tasks_and_the_count_moved() {
    let mut engine = with_q();
    call(
        &mut engine,
        &[("Action", "CreateQueue"), ("QueueName", "dlq")],
    );
    let policy =
        r#"{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:dlq","maxReceiveCount":"1"}"#;
    call(
        &mut engine,
        &[
            ("Action", "SetQueueAttributes"),
            ("QueueUrl", Q),
            ("Attribute.1.Name", "RedrivePolicy"),
            ("Attribute.1.Value", policy),
        ],
    );
    let start = [
        ("Action", "StartMessageMoveTask"),
        ("SourceArn", "arn:aws:sqs:us-east-1:000000000000:dlq"),
        ("DestinationArn", "arn:aws:sqs:us-east-1:000000000000:q"),
        ("MaxNumberOfMessagesPerSecond", "10"),
    ];
    let r = call(&mut engine, &start);
    assert_xml(
        &r,
        200,
        &ok("StartMessageMoveTask", Some("<TaskHandle>*</TaskHandle>")),
    );
    let handle = text_of(&r, "TaskHandle");
    let list = [
        ("Action", "ListMessageMoveTasks"),
        ("SourceArn", "arn:aws:sqs:us-east-1:000000000000:dlq"),
        ("MaxResults", "10"),
    ];
    let r = call(&mut engine, &list);
    let result = "<ListMessageMoveTasksResultEntry><ApproximateNumberOfMessagesMoved>0</ApproximateNumberOfMessagesMoved>\
                  <ApproximateNumberOfMessagesToMove>0</ApproximateNumberOfMessagesToMove>\
                  <DestinationArn>arn:aws:sqs:us-east-1:000000000000:q</DestinationArn>\
                  <MaxNumberOfMessagesPerSecond>10</MaxNumberOfMessagesPerSecond>\
                  <SourceArn>arn:aws:sqs:us-east-1:000000000000:dlq</SourceArn>\
                  <StartedTimestamp>*</StartedTimestamp><Status>RUNNING</Status>\
                  <TaskHandle>*</TaskHandle></ListMessageMoveTasksResultEntry>";
    assert_xml(&r, 200, &ok("ListMessageMoveTasks", Some(result)));
    let r = call(
        &mut engine,
        &[("Action", "CancelMessageMoveTask"), ("TaskHandle", &handle)],
    );
    let result = "<ApproximateNumberOfMessagesMoved>0</ApproximateNumberOfMessagesMoved>";
    assert_xml(&r, 200, &ok("CancelMessageMoveTask", Some(result)));
}

// ---------------------------------------------------------------------------
// The queue URL from the path
// ---------------------------------------------------------------------------

#[test]
fn a_form_posted_to_a_queue_path_without_a_queue_url_calls_that_queue() {
    let mut engine = with_q();
    let form = "Action=SendMessage&Version=2012-11-05&MessageBody=hi";
    let r = call_at(&mut engine, form, Some(Q));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(receive_handles(&mut engine).len(), 1);
}

#[test]
fn a_queue_url_in_the_form_wins_over_the_path() {
    let request = read_request("Action=DeleteQueue&QueueUrl=a", Some("b")).unwrap();
    assert_eq!(request.body, r#"{"QueueUrl":"a"}"#);
}

#[test]
fn the_path_queue_url_is_not_given_to_an_operation_without_one() {
    let request = read_request("Action=ListQueues", Some(Q)).unwrap();
    assert_eq!(request.body, "{}");
    assert_eq!(request.target, "AmazonSQS.ListQueues");
    assert_eq!(request.action, "ListQueues");
}

#[test]
fn keys_no_operation_has_are_not_read() {
    // The signature's parameters (signature version 2) and `Version`.
    let form = "Action=DeleteQueue&QueueUrl=q&AWSAccessKeyId=AKID&Signature=abc%3D\
                &SignatureMethod=HmacSHA256&SignatureVersion=2&Timestamp=2024-01-01T00%3A00%3A00Z";
    assert_eq!(
        read_request(form, None).unwrap().body,
        r#"{"QueueUrl":"q"}"#
    );
}

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

#[test]
fn a_missing_queue_answers_non_existent_queue_in_the_query_wires_words() {
    let mut engine = engine();
    let r = call(
        &mut engine,
        &[("Action", "GetQueueUrl"), ("QueueName", "nope")],
    );
    let text = "The specified queue does not exist for this wsdl version.";
    assert_xml(
        &r,
        400,
        &error("AWS.SimpleQueueService.NonExistentQueue", text),
    );
    assert!(r
        .header("x-amzn-requestid")
        .is_some_and(|id| !id.is_empty()));
}

#[test]
fn an_engine_error_keeps_its_status_code_and_text() {
    let mut engine = with_q();
    call(&mut engine, &[("Action", "PurgeQueue"), ("QueueUrl", Q)]);
    let r = call(&mut engine, &[("Action", "PurgeQueue"), ("QueueUrl", Q)]);
    assert_eq!(r.status, 403);
    assert!(
        r.body
            .contains("<Code>AWS.SimpleQueueService.PurgeQueueInProgress</Code>"),
        "{}",
        r.body
    );
}

#[test]
fn an_unknown_action_answers_invalid_action() {
    let mut engine = engine();
    let r = call(&mut engine, &[("Action", "SendMessages")]);
    let text = "The action SendMessages is not valid for this endpoint.";
    assert_xml(&r, 400, &error("InvalidAction", text));
}

#[test]
fn an_unknown_operation_from_the_json_wire_is_written_as_invalid_action() {
    let mut engine = engine();
    let Dispatched::Done(json) = dispatch(&mut engine, "AmazonSQS.Nope", "{}", None) else {
        panic!("waiting")
    };
    let r = answer("Nope", &json);
    assert_xml(
        &r,
        400,
        &error(
            "InvalidAction",
            "The action Nope is not valid for this endpoint.",
        ),
    );
}

#[test]
fn a_form_without_an_action_answers_missing_action() {
    let mut engine = engine();
    let r = call(&mut engine, &[("QueueUrl", Q)]);
    assert_xml(&r, 400, &error("MissingAction", "Missing Action"));
    assert_eq!(r.header("x-amzn-requestid"), Some("host-request-1"));
    let empty = call_at(&mut engine, "Action=", None);
    assert_xml(&empty, 400, &error("MissingAction", "Missing Action"));
}

#[test]
fn a_number_member_that_is_not_a_whole_number_answers_invalid_parameter_value() {
    let mut engine = with_q();
    let r = call(
        &mut engine,
        &[
            ("Action", "ReceiveMessage"),
            ("QueueUrl", Q),
            ("MaxNumberOfMessages", "abc"),
        ],
    );
    let text = "Value abc for parameter MaxNumberOfMessages is invalid. Reason: Must be a whole \
                number within range.";
    assert_xml(&r, 400, &error("InvalidParameterValue", text));
    let entry = read_request(
        "Action=SendMessageBatch&QueueUrl=q&SendMessageBatchRequestEntry.1.DelaySeconds=1.5",
        None,
    );
    assert!(entry.unwrap_err().message.starts_with(
        "Value 1.5 for parameter SendMessageBatchRequestEntry.1.DelaySeconds is invalid."
    ));
}

#[test]
fn a_number_out_of_range_reaches_the_engine_which_says_its_range() {
    let mut engine = with_q();
    let r = call(
        &mut engine,
        &[
            ("Action", "ReceiveMessage"),
            ("QueueUrl", Q),
            ("WaitTimeSeconds", "21"),
        ],
    );
    assert_eq!(r.status, 400);
    assert!(
        r.body.contains("<Code>InvalidParameterValue</Code>"),
        "{}",
        r.body
    );
    assert!(
        r.body
            .contains("Must be &gt;= 0 and &lt;= 20, if provided."),
        "{}",
        r.body
    );
}

#[test]
fn bad_percent_encoding_answers_malformed_query_string() {
    let mut engine = engine();
    let r = call_at(&mut engine, "Action=SendMessage&MessageBody=100%zz", None);
    let text = "The query string contains a syntax error: &quot;100%zz&quot; has a % not \
                followed by two hex digits.";
    assert_xml(&r, 404, &error("MalformedQueryString", text));
    let not_utf8 = read_request("Action=SendMessage&MessageBody=%FF", None).unwrap_err();
    assert_eq!(not_utf8.code, "MalformedQueryString");
}

#[test]
fn a_key_given_twice_answers_invalid_query_parameter() {
    let e = read_request("Action=DeleteQueue&QueueUrl=a&QueueUrl=b", None).unwrap_err();
    assert_eq!(
        e,
        QueryError {
            code: "InvalidQueryParameter",
            status: 400,
            message: "The query string does not follow AWS's rules: \"QueueUrl\" is given twice."
                .into()
        }
    );
}

#[test]
fn a_list_index_that_is_not_a_whole_number_from_1_to_1000_is_refused() {
    for index in ["0", "x", "01", "1001", "-1", "99999999999999999999999"] {
        let form = format!("Action=UntagQueue&QueueUrl=q&TagKey.{index}=a");
        let e = read_request(&form, None).unwrap_err();
        assert_eq!(e.code, "InvalidQueryParameter", "{index}");
        assert!(
            e.message.contains("from 1 to 1000 (MAX_INDEX)"),
            "{}",
            e.message
        );
    }
    let last = read_request("Action=UntagQueue&QueueUrl=q&TagKey.1000=a", None).unwrap();
    assert_eq!(last.body, r#"{"QueueUrl":"q","TagKeys":["a"]}"#);
}

#[test]
fn list_items_are_read_in_their_indexes_order_not_the_forms() {
    let form = "Action=UntagQueue&QueueUrl=q&TagKey.10=c&TagKey.2=b&TagKey.1=a";
    let body: Value = serde_json::from_str(&read_request(form, None).unwrap().body).unwrap();
    assert_eq!(body["TagKeys"], json!(["a", "b", "c"]));
}

#[test]
fn a_key_deeper_than_eight_parts_is_refused_naming_the_bound() {
    let deep = format!("Action=SendMessage&{}=1", ["MessageAttribute"; 9].join("."));
    let e = read_request(&deep, None).unwrap_err();
    assert_eq!(e.code, "InvalidQueryParameter");
    assert!(
        e.message.contains("more than 8 dot-separated parts"),
        "{}",
        e.message
    );
}

#[test]
fn a_value_where_a_list_is_expected_and_a_list_where_a_value_is_are_refused() {
    let list_as_value = read_request("Action=SendMessageBatch&QueueUrl=q&Entries=x", None);
    assert_eq!(list_as_value.unwrap_err().code, "InvalidQueryParameter");
    let value_as_list = read_request("Action=DeleteQueue&QueueUrl.1=q", None).unwrap_err();
    assert_eq!(value_as_list.code, "InvalidQueryParameter");
    let entries_as_value = read_request(
        "Action=SendMessageBatch&QueueUrl=q&SendMessageBatchRequestEntry=x",
        None,
    )
    .unwrap_err();
    assert_eq!(entries_as_value.code, "InvalidQueryParameter");
}

#[test]
fn a_map_entry_without_its_name_or_value_answers_missing_parameter() {
    let no_name = read_request("Action=TagQueue&QueueUrl=q&Tag.1.Value=v", None).unwrap_err();
    assert_eq!(no_name.code, "MissingParameter");
    assert_eq!(
        no_name.message,
        "The request must contain the parameter Tag.1.Key."
    );
    let no_value = read_request(
        "Action=SetQueueAttributes&QueueUrl=q&Attribute.1.Name=Policy",
        None,
    )
    .unwrap_err();
    assert_eq!(
        no_value.message,
        "The request must contain the parameter Attribute.1.Value."
    );
}

#[test]
fn a_map_key_given_in_two_entries_is_refused() {
    let form = "Action=TagQueue&QueueUrl=q&Tag.1.Key=a&Tag.1.Value=1&Tag.2.Key=a&Tag.2.Value=2";
    let e = read_request(form, None).unwrap_err();
    assert_eq!(e.code, "InvalidParameterValue");
    assert_eq!(
        e.message,
        "Value a for parameter Tag.2.Key is invalid. Reason: Tag.1.Key names it already."
    );
}

#[test]
fn a_form_past_four_mib_is_refused_before_it_is_read() {
    let form = format!("Action=SendMessage&MessageBody={}", "x".repeat(4 << 20));
    let e = read_request(&form, None).unwrap_err();
    assert_eq!((e.code, e.status), ("RequestEntityTooLarge", 413));
}

#[test]
fn create_queue_tags_are_the_json_wires_lower_case_tags() {
    let form = "Action=CreateQueue&QueueName=q&Tag.1.Key=team&Tag.1.Value=a\
                &Attribute.1.Name=DelaySeconds&Attribute.1.Value=5";
    let body = read_request(form, None).unwrap().body;
    assert_eq!(
        body,
        r#"{"Attributes":{"DelaySeconds":"5"},"QueueName":"q","tags":{"team":"a"}}"#
    );
}
