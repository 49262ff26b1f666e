//! SQS's query protocol (form in, XML out) around the JSON protocol: each
//! form is read by `query::read_request`, dispatched to a real engine as
//! the JSON request it becomes, and its answer written by `query::answer`,
//! as a server does. The forms are written as botocore's query serializer
//! writes them for SQS's 2012-11-05 query model (percent-encoded, `+` for
//! a space, lists and maps flattened).

use queuelab_engine::{Config, Engine};
use queuelab_protocol::query::{answer, error_response, read_request, QueryError};
use queuelab_protocol::{dispatch, Dispatched, Response};
use serde_json::{json, Value};

const NS: &str = "http://queue.amazonaws.com/doc/2012-11-05/";
/// The queue URLs the engine answers with.
const URL: &str = "https://sqs.us-east-1.amazonaws.com/000000000000";
/// The queue `q` as botocore's captures name it (any host resolves).
const Q: &str = "http://127.0.0.1:9324/000000000000/q";
/// `QueueUrl` of `q`, percent-encoded.
const QU: &str = "QueueUrl=http%3A%2F%2F127.0.0.1%3A9324%2F000000000000%2Fq";
const ARN: &str = "arn%3Aaws%3Asqs%3Aus-east-1%3A000000000000%3A";

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

fn call(engine: &mut Engine, form: &str) -> Response {
    call_at(engine, &format!("Version=2012-11-05&{form}"), None)
}

/// Calls `form` and asserts it answers 200 with `<{Action}Result>` holding
/// `result` (none for `None`), ids and timestamps masked as `*`.
#[track_caller]
fn answers(engine: &mut Engine, form: &str, result: Option<&str>) -> Response {
    let action = form
        .split('&')
        .find_map(|p| p.strip_prefix("Action="))
        .unwrap();
    let r = call(engine, form);
    assert_xml(&r, 200, &ok(action, result));
    r
}

/// Calls `form` and asserts it answers SQS's `<ErrorResponse>`.
#[track_caller]
fn refuses(engine: &mut Engine, form: &str, status: u16, code: &str, message: &str) -> Response {
    let r = call(engine, form);
    assert_xml(&r, status, &error(code, message));
    r
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

/// The XML with the text of the elements that change from run to run
/// (ids, handles, timestamps) as `*`.
fn masked(xml: &str) -> String {
    let volatile = [
        "<RequestId>",
        "<MessageId>",
        "<ReceiptHandle>",
        "<TaskHandle>",
        "<SequenceNumber>",
        "<StartedTimestamp>",
        "Timestamp</Name><Value>",
        "SenderId</Name><Value>",
    ];
    let mut out = xml.to_string();
    for open in volatile {
        let mut masked = String::new();
        let mut rest = out.as_str();
        while let Some(at) = rest.find(open) {
            masked.push_str(&rest[..at + open.len()]);
            rest = &rest[at + open.len()..];
            masked.push('*');
            rest = &rest[rest.find('<').unwrap_or(rest.len())..];
        }
        masked.push_str(rest);
        out = masked;
    }
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

/// The refusal of a form that cannot be read: its code, and text holding `part`.
#[track_caller]
fn unreadable(form: &str, code: &str, part: &str) -> QueryError {
    let e = read_request(form, None).unwrap_err();
    assert_eq!(e.code, code, "{form}: {}", e.message);
    assert!(e.message.contains(part), "{form}: {}", e.message);
    e
}

/// A request's JSON body, as the JSON protocol will read it.
fn json_of(form: &str) -> Value {
    serde_json::from_str(&read_request(form, None).unwrap().body).unwrap()
}

/// An engine with the standard queue `q` holding a message for each of `bodies`.
fn with_q(bodies: &[&str]) -> Engine {
    let mut engine = Engine::new(Config::default());
    call(&mut engine, "Action=CreateQueue&QueueName=q");
    for body in bodies {
        let r = call(
            &mut engine,
            &format!("Action=SendMessage&{QU}&MessageBody={body}"),
        );
        assert_eq!(r.status, 200, "{}", r.body);
    }
    engine
}

/// Receives up to ten messages of `q`: their receipt handles, percent-encoded.
fn receive_handles(engine: &mut Engine) -> Vec<String> {
    let r = call(
        engine,
        &format!("Action=ReceiveMessage&{QU}&MaxNumberOfMessages=10"),
    );
    let handles = r.body.split("<ReceiptHandle>").skip(1);
    let encode = |h: &str| {
        h.replace('+', "%2B")
            .replace('/', "%2F")
            .replace('=', "%3D")
    };
    handles
        .map(|s| encode(&s[..s.find('<').unwrap()]))
        .collect()
}

fn attribute(name: &str, value: &str) -> String {
    format!("<Attribute><Name>{name}</Name><Value>{value}</Value></Attribute>")
}

// ---------------------------------------------------------------------------
// Queues
// ---------------------------------------------------------------------------

#[test]
fn a_create_queue_form_with_attributes_and_tags_answers_the_queue_url() {
    let mut engine = Engine::new(Config::default());
    let create = "Action=CreateQueue&QueueName=q.fifo&Attribute.1.Name=FifoQueue\
                  &Attribute.1.Value=true&Attribute.2.Name=VisibilityTimeout&Attribute.2.Value=2\
                  &Tag.1.Key=team&Tag.1.Value=a";
    let url = format!("<QueueUrl>{URL}/q.fifo</QueueUrl>");
    answers(&mut engine, create, Some(&url));
    let fifo = "QueueUrl=q.fifo";
    let tags = "<Tag><Key>team</Key><Value>a</Value></Tag>";
    answers(
        &mut engine,
        &format!("Action=ListQueueTags&{fifo}"),
        Some(tags),
    );
    let get = format!(
        "Action=GetQueueAttributes&{fifo}&AttributeName.1=VisibilityTimeout&AttributeName.2=FifoQueue"
    );
    let values = attribute("FifoQueue", "true") + &attribute("VisibilityTimeout", "2");
    answers(&mut engine, &get, Some(&values));
}

#[test]
fn create_queue_tags_are_the_json_wires_lower_case_tags() {
    let form = "Action=CreateQueue&QueueName=q&Tag.1.Key=team&Tag.1.Value=a\
                &Attribute.1.Name=DelaySeconds&Attribute.1.Value=5";
    let body = read_request(form, None).unwrap().body;
    let expected = r#"{"Attributes":{"DelaySeconds":"5"},"QueueName":"q","tags":{"team":"a"}}"#;
    assert_eq!(body, expected);
}

#[test]
fn a_get_queue_url_form_answers_the_queue_url() {
    let mut engine = with_q(&[]);
    let form = "Action=GetQueueUrl&QueueName=q&QueueOwnerAWSAccountId=000000000000";
    answers(
        &mut engine,
        form,
        Some(&format!("<QueueUrl>{URL}/q</QueueUrl>")),
    );
}

#[test]
fn a_list_queues_form_answers_queue_urls_and_a_next_token() {
    let mut engine = Engine::new(Config::default());
    for name in ["o1", "o2", "p"] {
        call(&mut engine, &format!("Action=CreateQueue&QueueName={name}"));
    }
    let page = "Action=ListQueues&QueueNamePrefix=o&MaxResults=1";
    let token = text_of(&call(&mut engine, page), "NextToken");
    let first = format!("<NextToken>{token}</NextToken><QueueUrl>{URL}/o1</QueueUrl>");
    answers(&mut engine, page, Some(&first));
    let second = format!("<QueueUrl>{URL}/o2</QueueUrl>");
    answers(
        &mut engine,
        &format!("{page}&NextToken={token}"),
        Some(&second),
    );
    answers(&mut engine, "Action=ListQueues&QueueNamePrefix=z", Some(""));
}

#[test]
fn a_get_queue_attributes_form_answers_each_attribute_as_name_and_value() {
    let mut engine = with_q(&[]);
    let form =
        format!("Action=GetQueueAttributes&{QU}&AttributeName.1=All&AttributeName.2=QueueArn");
    let values: String = [
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
    answers(&mut engine, &form, Some(&values));
}

/// `q` sends its messages to `dlq` after `count` receives.
fn redrive_q_to_dlq(engine: &mut Engine, count: u32) {
    call(engine, "Action=CreateQueue&QueueName=dlq");
    let policy = format!(
        "%7B%22deadLetterTargetArn%22%3A%22{ARN}dlq%22%2C%22maxReceiveCount%22%3A%22{count}%22%7D"
    );
    let set = format!(
        "Action=SetQueueAttributes&{QU}&Attribute.1.Name=RedrivePolicy&Attribute.1.Value={policy}"
    );
    answers(engine, &set, None);
}

#[test]
fn a_set_queue_attributes_form_answers_without_a_result_and_sets_them() {
    let mut engine = with_q(&[]);
    redrive_q_to_dlq(&mut engine, 3);
    let form = format!("Action=ListDeadLetterSourceQueues&QueueUrl={URL}/dlq&MaxResults=10");
    answers(
        &mut engine,
        &form,
        Some(&format!("<QueueUrl>{URL}/q</QueueUrl>")),
    );
}

#[test]
fn a_list_dead_letter_source_queues_form_with_no_sources_answers_an_empty_result() {
    let mut engine = with_q(&[]);
    answers(
        &mut engine,
        &format!("Action=ListDeadLetterSourceQueues&{QU}"),
        Some(""),
    );
}

#[test]
fn delete_queue_and_purge_queue_forms_answer_without_a_result() {
    let mut engine = with_q(&["x"]);
    answers(&mut engine, &format!("Action=PurgeQueue&{QU}"), None);
    answers(&mut engine, &format!("Action=DeleteQueue&{QU}"), None);
}

#[test]
fn tag_queue_and_untag_queue_forms_change_the_tags_list_queue_tags_answers() {
    let mut engine = with_q(&[]);
    let tag = format!(
        "Action=TagQueue&{QU}&Tag.1.Key=a&Tag.1.Value=1&Tag.2.Key=b&Tag.2.Value=2\
         &Tag.3.Key=c&Tag.3.Value=3"
    );
    answers(&mut engine, &tag, None);
    answers(
        &mut engine,
        &format!("Action=UntagQueue&{QU}&TagKey.1=a&TagKey.2=b"),
        None,
    );
    let left = "<Tag><Key>c</Key><Value>3</Value></Tag>";
    answers(
        &mut engine,
        &format!("Action=ListQueueTags&{QU}"),
        Some(left),
    );
}

#[test]
fn an_empty_list_sent_as_the_bare_member_name_is_an_empty_list() {
    // botocore writes `TagKeys=[]` as `TagKeys=`: the engine sees a given,
    // empty list (an absent one would be a missing parameter).
    assert_eq!(
        json_of("Action=UntagQueue&QueueUrl=q&TagKeys="),
        json!({ "QueueUrl": "q", "TagKeys": [] })
    );
    assert_eq!(
        json_of("Action=UntagQueue&QueueUrl=q"),
        json!({ "QueueUrl": "q" })
    );
}

#[test]
fn add_permission_and_remove_permission_forms_answer_without_a_result() {
    let mut engine = with_q(&[]);
    let add = format!(
        "Action=AddPermission&{QU}&Label=l&AWSAccountId.1=111111111111\
         &ActionName.1=SendMessage&ActionName.2=ReceiveMessage"
    );
    answers(&mut engine, &add, None);
    let policy = call(
        &mut engine,
        &format!("Action=GetQueueAttributes&{QU}&AttributeName.1=Policy"),
    );
    assert!(policy.body.contains("SQS:SendMessage"), "{}", policy.body);
    answers(
        &mut engine,
        &format!("Action=RemovePermission&{QU}&Label=l"),
        None,
    );
}

// ---------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------

#[test]
fn a_send_message_form_answers_the_documented_xml() {
    let mut engine = with_q(&[]);
    let form = format!(
        "Action=SendMessage&{QU}&MessageBody=hi+there&DelaySeconds=1\
         &MessageAttribute.1.Name=kind&MessageAttribute.1.Value.DataType=String\
         &MessageAttribute.1.Value.StringValue=x\
         &MessageAttribute.2.Name=bin&MessageAttribute.2.Value.DataType=Binary\
         &MessageAttribute.2.Value.BinaryValue=AQI%3D\
         &MessageAttribute.3.Name=n&MessageAttribute.3.Value.DataType=Number\
         &MessageAttribute.3.Value.StringValue=42\
         &MessageSystemAttribute.1.Name=AWSTraceHeader\
         &MessageSystemAttribute.1.Value.DataType=String\
         &MessageSystemAttribute.1.Value.StringValue=Root%3D1"
    );
    // The JSON wire's answer to the same message, from an engine with the
    // same history: the digests the SDKs check, and the id, are the same.
    let mut twin = with_q(&[]);
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
    let r = answers(&mut engine, &form, Some(&result));
    assert_eq!(
        text_of(&r, "MessageId"),
        json["MessageId"].as_str().unwrap()
    );
}

#[test]
fn a_fifo_send_message_form_carries_its_group_and_deduplication_ids() {
    let mut engine = Engine::new(Config::default());
    call(
        &mut engine,
        "Action=CreateQueue&QueueName=f.fifo&Attribute.1.Name=FifoQueue&Attribute.1.Value=true",
    );
    let send = "Action=SendMessage&QueueUrl=f.fifo&MessageBody=order+A-1001\
                &MessageGroupId=g&MessageDeduplicationId=d";
    let md5 = md5_hex(b"order A-1001");
    let sent = format!(
        "<MD5OfMessageBody>{md5}</MD5OfMessageBody><MessageId>*</MessageId>\
         <SequenceNumber>*</SequenceNumber>"
    );
    let first = answers(&mut engine, send, Some(&sent));
    // The same deduplication id within five minutes: the same message.
    let again = call(&mut engine, send);
    assert_eq!(text_of(&again, "MessageId"), text_of(&first, "MessageId"));
    let receive = "Action=ReceiveMessage&QueueUrl=f.fifo&AttributeName.1=MessageGroupId\
                   &AttributeName.2=MessageDeduplicationId&MaxNumberOfMessages=10";
    let message = format!(
        "<Message>{}{}<Body>order A-1001</Body><MD5OfBody>{md5}</MD5OfBody>\
         <MessageId>*</MessageId><ReceiptHandle>*</ReceiptHandle></Message>",
        attribute("MessageDeduplicationId", "d"),
        attribute("MessageGroupId", "g"),
    );
    answers(&mut engine, receive, Some(&message));
}

#[test]
fn a_fifo_send_without_a_group_id_answers_missing_parameter() {
    let mut engine = Engine::new(Config::default());
    call(
        &mut engine,
        "Action=CreateQueue&QueueName=f.fifo&Attribute.1.Name=FifoQueue&Attribute.1.Value=true",
    );
    let form = "Action=SendMessage&QueueUrl=f.fifo&MessageBody=x";
    let text = "The request must contain the parameter MessageGroupId.";
    refuses(&mut engine, form, 400, "MissingParameter", text);
}

#[test]
fn a_receive_message_form_answers_messages_with_attributes_and_message_attributes() {
    let mut engine = with_q(&[]);
    let send = format!(
        "Action=SendMessage&{QU}&MessageBody=A-1001+%26+co%0D%0A%3Cok%3E\
         &MessageAttribute.1.Name=kind&MessageAttribute.1.Value.DataType=String\
         &MessageAttribute.1.Value.StringValue=x\
         &MessageAttribute.2.Name=bin&MessageAttribute.2.Value.DataType=Binary\
         &MessageAttribute.2.Value.BinaryValue=AQI%3D"
    );
    let md5_attributes = text_of(&call(&mut engine, &send), "MD5OfMessageAttributes");
    let receive = format!(
        "Action=ReceiveMessage&{QU}&AttributeName.1=All&MessageAttributeName.1=All\
         &MaxNumberOfMessages=10&VisibilityTimeout=2&WaitTimeSeconds=20&ReceiveRequestAttemptId=r"
    );
    let message = format!(
        "<Message>{}{}{}{}\
         <Body>A-1001 &amp; co&#13;\n&lt;ok&gt;</Body><MD5OfBody>{}</MD5OfBody>\
         <MD5OfMessageAttributes>{md5_attributes}</MD5OfMessageAttributes>\
         <MessageAttribute><Name>bin</Name><Value><BinaryValue>AQI=</BinaryValue>\
         <DataType>Binary</DataType></Value></MessageAttribute>\
         <MessageAttribute><Name>kind</Name><Value><DataType>String</DataType>\
         <StringValue>x</StringValue></Value></MessageAttribute>\
         <MessageId>*</MessageId><ReceiptHandle>*</ReceiptHandle></Message>",
        attribute("ApproximateFirstReceiveTimestamp", "*"),
        attribute("ApproximateReceiveCount", "1"),
        attribute("SenderId", "*"),
        attribute("SentTimestamp", "*"),
        md5_hex(b"A-1001 & co\r\n<ok>"),
    );
    answers(&mut engine, &receive, Some(&message));
}

#[test]
fn a_receive_that_finds_nothing_answers_an_empty_result() {
    let mut engine = with_q(&[]);
    let form = format!("Action=ReceiveMessage&{QU}");
    let r = answers(&mut engine, &form, Some(""));
    assert!(r.body.contains("<ReceiveMessageResult/>"));
}

#[test]
fn a_bare_attribute_name_as_old_clients_send_it_is_a_list_of_one() {
    let body = json_of("Action=ReceiveMessage&QueueUrl=q&AttributeName=All");
    assert_eq!(body["AttributeNames"], json!(["All"]));
}

#[test]
fn message_system_attribute_names_are_read_under_both_spellings() {
    let form = "Action=ReceiveMessage&QueueUrl=q&MessageSystemAttributeName.1=SenderId\
                &MessageSystemAttributeNames.1=SentTimestamp";
    let names = json!(["SenderId", "SentTimestamp"]);
    assert_eq!(json_of(form)["MessageSystemAttributeNames"], names);
}

#[test]
fn delete_message_and_change_message_visibility_forms_answer_without_a_result() {
    let mut engine = with_q(&["a", "b"]);
    let handles = receive_handles(&mut engine);
    assert_eq!(handles.len(), 2);
    let change = format!(
        "Action=ChangeMessageVisibility&{QU}&ReceiptHandle={}&VisibilityTimeout=0",
        handles[0]
    );
    answers(&mut engine, &change, None);
    let delete = format!("Action=DeleteMessage&{QU}&ReceiptHandle={}", handles[1]);
    answers(&mut engine, &delete, None);
    // The one made visible again is all that is left.
    assert_eq!(receive_handles(&mut engine).len(), 1);
}

#[test]
fn a_send_message_batch_form_answers_result_entries_and_a_failed_entry() {
    let mut engine = with_q(&[]);
    let form = format!(
        "Action=SendMessageBatch&{QU}\
         &SendMessageBatchRequestEntry.1.Id=a&SendMessageBatchRequestEntry.1.MessageBody=b\
         &SendMessageBatchRequestEntry.1.MessageAttribute.1.Name=k\
         &SendMessageBatchRequestEntry.1.MessageAttribute.1.Value.DataType=Number\
         &SendMessageBatchRequestEntry.1.MessageAttribute.1.Value.StringValue=1\
         &SendMessageBatchRequestEntry.2.Id=b&SendMessageBatchRequestEntry.2.MessageBody=c\
         &SendMessageBatchRequestEntry.2.DelaySeconds=2\
         &SendMessageBatchRequestEntry.3.Id=c&SendMessageBatchRequestEntry.3.MessageBody=%01"
    );
    let r = call(&mut engine, &form);
    let result = format!(
        "<BatchResultErrorEntry><Code>InvalidMessageContents</Code><Id>c</Id>\
         <Message>{}</Message><SenderFault>true</SenderFault></BatchResultErrorEntry>\
         <SendMessageBatchResultEntry><Id>a</Id>\
         <MD5OfMessageAttributes>{}</MD5OfMessageAttributes>\
         <MD5OfMessageBody>{}</MD5OfMessageBody><MessageId>*</MessageId>\
         </SendMessageBatchResultEntry>\
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
    let mut engine = with_q(&["a", "b"]);
    let handles = receive_handles(&mut engine);
    let change = format!(
        "Action=ChangeMessageVisibilityBatch&{QU}\
         &ChangeMessageVisibilityBatchRequestEntry.1.Id=a\
         &ChangeMessageVisibilityBatchRequestEntry.1.ReceiptHandle={}\
         &ChangeMessageVisibilityBatchRequestEntry.1.VisibilityTimeout=5",
        handles[0]
    );
    let entry = "<ChangeMessageVisibilityBatchResultEntry><Id>a</Id>\
                 </ChangeMessageVisibilityBatchResultEntry>";
    answers(&mut engine, &change, Some(entry));
    let delete = format!(
        "Action=DeleteMessageBatch&{QU}\
         &DeleteMessageBatchRequestEntry.1.Id=a&DeleteMessageBatchRequestEntry.1.ReceiptHandle={}\
         &DeleteMessageBatchRequestEntry.2.Id=b&DeleteMessageBatchRequestEntry.2.ReceiptHandle={}",
        handles[0], handles[1]
    );
    let entries = "<DeleteMessageBatchResultEntry><Id>a</Id></DeleteMessageBatchResultEntry>\
                   <DeleteMessageBatchResultEntry><Id>b</Id></DeleteMessageBatchResultEntry>";
    answers(&mut engine, &delete, Some(entries));
}

#[test]
fn an_empty_batch_sent_as_the_bare_member_name_answers_empty_batch_request() {
    let mut engine = with_q(&[]);
    let form = format!("Action=DeleteMessageBatch&{QU}&Entries=");
    let r = call(&mut engine, &form);
    assert_eq!(r.status, 400);
    let code = "<Code>AWS.SimpleQueueService.EmptyBatchRequest</Code>";
    assert!(r.body.contains(code), "{}", r.body);
}

// ---------------------------------------------------------------------------
// Message move tasks
// ---------------------------------------------------------------------------

#[test]
fn message_move_task_forms_answer_the_task_handle_the_tasks_and_the_count_moved() {
    let mut engine = with_q(&[]);
    redrive_q_to_dlq(&mut engine, 1);
    let start = format!(
        "Action=StartMessageMoveTask&SourceArn={ARN}dlq&DestinationArn={ARN}q\
         &MaxNumberOfMessagesPerSecond=10"
    );
    let r = answers(&mut engine, &start, Some("<TaskHandle>*</TaskHandle>"));
    let handle = text_of(&r, "TaskHandle");
    let list = format!("Action=ListMessageMoveTasks&SourceArn={ARN}dlq&MaxResults=10");
    let task = "<ListMessageMoveTasksResultEntry>\
                <ApproximateNumberOfMessagesMoved>0</ApproximateNumberOfMessagesMoved>\
                <ApproximateNumberOfMessagesToMove>0</ApproximateNumberOfMessagesToMove>\
                <DestinationArn>arn:aws:sqs:us-east-1:000000000000:q</DestinationArn>\
                <MaxNumberOfMessagesPerSecond>10</MaxNumberOfMessagesPerSecond>\
                <SourceArn>arn:aws:sqs:us-east-1:000000000000:dlq</SourceArn>\
                <StartedTimestamp>*</StartedTimestamp><Status>RUNNING</Status>\
                <TaskHandle>*</TaskHandle></ListMessageMoveTasksResultEntry>";
    answers(&mut engine, &list, Some(task));
    let cancel = format!("Action=CancelMessageMoveTask&TaskHandle={handle}");
    let moved = "<ApproximateNumberOfMessagesMoved>0</ApproximateNumberOfMessagesMoved>";
    answers(&mut engine, &cancel, Some(moved));
}

// ---------------------------------------------------------------------------
// Where the queue URL comes from, and what is not read
// ---------------------------------------------------------------------------

#[test]
fn a_form_posted_to_a_queue_path_without_a_queue_url_calls_that_queue() {
    let mut engine = with_q(&[]);
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
    assert_eq!(json_of(form), json!({ "QueueUrl": "q" }));
}

#[test]
fn list_items_are_read_in_their_indexes_order_not_the_forms() {
    let form = "Action=UntagQueue&QueueUrl=q&TagKey.10=c&TagKey.2=b&TagKey.1=a";
    assert_eq!(json_of(form)["TagKeys"], json!(["a", "b", "c"]));
}

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

#[test]
fn a_missing_queue_answers_non_existent_queue_in_the_query_wires_words() {
    let mut engine = Engine::new(Config::default());
    let text = "The specified queue does not exist for this wsdl version.";
    let code = "AWS.SimpleQueueService.NonExistentQueue";
    let r = refuses(
        &mut engine,
        "Action=GetQueueUrl&QueueName=nope",
        400,
        code,
        text,
    );
    assert!(r
        .header("x-amzn-requestid")
        .is_some_and(|id| !id.is_empty()));
}

#[test]
fn an_engine_error_keeps_its_status_code_and_text() {
    let mut engine = with_q(&[]);
    call(&mut engine, &format!("Action=PurgeQueue&{QU}"));
    let r = call(&mut engine, &format!("Action=PurgeQueue&{QU}"));
    assert_eq!(r.status, 403);
    let code = "<Code>AWS.SimpleQueueService.PurgeQueueInProgress</Code>";
    assert!(r.body.contains(code), "{}", r.body);
}

#[test]
fn an_unknown_action_answers_invalid_action() {
    let mut engine = Engine::new(Config::default());
    let text = "The action SendMessages is not valid for this endpoint.";
    refuses(
        &mut engine,
        "Action=SendMessages",
        400,
        "InvalidAction",
        text,
    );
}

#[test]
fn an_unknown_operation_from_the_json_wire_is_written_as_invalid_action() {
    let mut engine = Engine::new(Config::default());
    let Dispatched::Done(json) = dispatch(&mut engine, "AmazonSQS.Nope", "{}", None) else {
        panic!("waiting")
    };
    let text = "The action Nope is not valid for this endpoint.";
    assert_xml(&answer("Nope", &json), 400, &error("InvalidAction", text));
}

#[test]
fn a_form_without_an_action_answers_missing_action() {
    let mut engine = Engine::new(Config::default());
    let r = refuses(&mut engine, QU, 400, "MissingAction", "Missing Action");
    assert_eq!(r.header("x-amzn-requestid"), Some("host-request-1"));
    refuses(
        &mut engine,
        "Action=",
        400,
        "MissingAction",
        "Missing Action",
    );
}

#[test]
fn a_number_member_that_is_not_a_whole_number_answers_invalid_parameter_value() {
    let mut engine = with_q(&[]);
    let form = format!("Action=ReceiveMessage&{QU}&MaxNumberOfMessages=abc");
    let text = "Value abc for parameter MaxNumberOfMessages is invalid. Reason: Must be a whole \
                number within range.";
    refuses(&mut engine, &form, 400, "InvalidParameterValue", text);
    let entry =
        "Action=SendMessageBatch&QueueUrl=q&SendMessageBatchRequestEntry.1.DelaySeconds=1.5";
    let why = "Value 1.5 for parameter SendMessageBatchRequestEntry.1.DelaySeconds is invalid.";
    unreadable(entry, "InvalidParameterValue", why);
}

#[test]
fn a_number_out_of_range_reaches_the_engine_which_says_its_range() {
    let mut engine = with_q(&[]);
    let form = format!("Action=ReceiveMessage&{QU}&WaitTimeSeconds=21");
    let text = "Value 21 for parameter WaitTimeSeconds is invalid. Reason: Must be &gt;= 0 and \
                &lt;= 20, if provided.";
    refuses(&mut engine, &form, 400, "InvalidParameterValue", text);
}

#[test]
fn bad_percent_encoding_answers_malformed_query_string() {
    let mut engine = Engine::new(Config::default());
    let text = "The query string contains a syntax error: &quot;100%zz&quot; has a % not \
                followed by two hex digits.";
    let form = "Action=SendMessage&MessageBody=100%zz";
    refuses(&mut engine, form, 404, "MalformedQueryString", text);
    let form = "Action=SendMessage&MessageBody=%FF";
    unreadable(form, "MalformedQueryString", "is not UTF-8 once decoded");
}

#[test]
fn a_key_given_twice_answers_invalid_query_parameter() {
    let e = read_request("Action=DeleteQueue&QueueUrl=a&QueueUrl=b", None).unwrap_err();
    let message = "The query string does not follow AWS's rules: \"QueueUrl\" is given twice.";
    let expected = QueryError {
        code: "InvalidQueryParameter",
        status: 400,
        message: message.into(),
    };
    assert_eq!(e, expected);
}

#[test]
fn a_list_index_that_is_not_a_whole_number_from_1_to_1000_is_refused() {
    for index in ["0", "x", "01", "1001", "-1", "99999999999999999999999"] {
        let form = format!("Action=UntagQueue&QueueUrl=q&TagKey.{index}=a");
        unreadable(&form, "InvalidQueryParameter", "from 1 to 1000 (MAX_INDEX)");
    }
    let last = json_of("Action=UntagQueue&QueueUrl=q&TagKey.1000=a");
    assert_eq!(last, json!({ "QueueUrl": "q", "TagKeys": ["a"] }));
}

#[test]
fn a_key_deeper_than_eight_parts_is_refused_naming_the_bound() {
    let deep = format!("Action=SendMessage&{}=1", ["MessageAttribute"; 9].join("."));
    unreadable(
        &deep,
        "InvalidQueryParameter",
        "more than 8 dot-separated parts",
    );
}

#[test]
fn a_value_where_a_list_is_expected_and_a_list_where_a_value_is_are_refused() {
    let list = "is a list or structure, written as";
    unreadable(
        "Action=SendMessageBatch&QueueUrl=q&Entries=x",
        "InvalidQueryParameter",
        list,
    );
    let entries = "Action=SendMessageBatch&QueueUrl=q&SendMessageBatchRequestEntry=x";
    unreadable(entries, "InvalidQueryParameter", list);
    let value = "is a value, not a list or structure";
    unreadable(
        "Action=DeleteQueue&QueueUrl.1=q",
        "InvalidQueryParameter",
        value,
    );
}

#[test]
fn a_map_entry_without_its_name_or_value_answers_missing_parameter() {
    let no_name = "Action=TagQueue&QueueUrl=q&Tag.1.Value=v";
    let text = "The request must contain the parameter Tag.1.Key.";
    unreadable(no_name, "MissingParameter", text);
    let no_value = "Action=SetQueueAttributes&QueueUrl=q&Attribute.1.Name=Policy";
    let text = "The request must contain the parameter Attribute.1.Value.";
    unreadable(no_value, "MissingParameter", text);
}

#[test]
fn a_map_key_given_in_two_entries_is_refused() {
    let form = "Action=TagQueue&QueueUrl=q&Tag.1.Key=a&Tag.1.Value=1&Tag.2.Key=a&Tag.2.Value=2";
    let why = "Value a for parameter Tag.2.Key is invalid. Reason: Tag.1.Key names it already.";
    unreadable(form, "InvalidParameterValue", why);
}

#[test]
fn a_form_past_four_mib_is_refused_before_it_is_read() {
    let form = format!("Action=SendMessage&MessageBody={}", "x".repeat(4 << 20));
    let e = unreadable(&form, "RequestEntityTooLarge", "larger than 4194304 bytes");
    assert_eq!(e.status, 413);
}
