//! The control API under `/_queuelab/`, for tests, lessons and the page
//! (docs/server.md lists it):
//!
//! - `GET status`: virtual now, paused, speed, region, account, calls;
//! - `POST advance?ms=N`: jump virtual time N ms ahead (a test skips a
//!   visibility timeout instead of sleeping through it);
//! - `POST pause`, `POST resume`: stop and restart virtual time;
//! - `GET snapshot[?messagesPerQueue=N]`: every queue and message;
//! - `GET journal[?from=N]`: the run's scenario, options and calls;
//! - `GET journal/live[?from=N]` and `GET events[?since=N]`: the same
//!   journal and the run's events as Server-Sent Events, as they happen.
//!
//! Each answer is JSON; a refusal is `{ "error": "<words>" }` with 400.

use std::collections::HashMap;
use std::convert::Infallible;
use std::time::Duration;

use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use futures_util::Stream;
use serde_json::{json, Value};

use crate::app::App;
use crate::clock::wall_ms;
use crate::owner::Owner;

/// How often a live stream looks for what is new.
const TICK: Duration = Duration::from_millis(200);

/// The most calls or events one answer or one streamed message holds:
/// a reader asks again from where it got to.
const PAGE: usize = 1000;

pub fn routes() -> Router<App> {
    Router::new()
        .route("/status", get(status))
        .route("/advance", post(advance))
        .route("/pause", post(pause))
        .route("/resume", post(resume))
        .route("/snapshot", get(snapshot))
        .route("/journal", get(journal))
        .route("/journal/live", get(journal_live))
        .route("/events", get(events))
}

type Params = Query<HashMap<String, String>>;

/// A whole-number parameter, absent → `default`; `Err` says what is wrong.
fn number(
    params: &HashMap<String, String>,
    name: &str,
    default: Option<u64>,
) -> Result<u64, String> {
    match params.get(name) {
        Some(text) => text.parse().map_err(|_| {
            format!("{name} must be a whole number of milliseconds or items, got \"{text}\"")
        }),
        None => default.ok_or_else(|| format!("{name} is missing (for example ?{name}=30000)")),
    }
}

fn refuse(words: &str) -> Response {
    (
        StatusCode::BAD_REQUEST,
        axum::Json(json!({ "error": words })),
    )
        .into_response()
}

fn gone() -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        axum::Json(json!({ "error": "the server is stopping" })),
    )
        .into_response()
}

/// The run's clock and size, as `status` answers.
fn status_of(owner: &Owner) -> Value {
    let sim = owner.host.simulation();
    json!({
        "now": sim.now(),
        "paused": owner.clock.paused(),
        "speed": owner.clock.speed(),
        "calls": owner.host.journal().calls.len() as u64 + owner.host.journal().unrecorded,
        "waitingPolls": sim.engine().waiting_polls(),
        "region": sim.engine().config().region,
        "account": sim.engine().config().account_id,
        "startEpochMs": sim.engine().config().start_epoch_ms,
    })
}

async fn ask_json(
    app: &App,
    f: impl FnOnce(&mut Owner) -> Result<Value, String> + Send + 'static,
) -> Response {
    match app.run.ask(f).await {
        Ok(Ok(value)) => axum::Json(value).into_response(),
        Ok(Err(words)) => refuse(&words),
        Err(_) => gone(),
    }
}

async fn status(State(app): State<App>) -> Response {
    ask_json(&app, |owner| Ok(status_of(owner))).await
}

async fn advance(State(app): State<App>, Query(params): Params) -> Response {
    let ms = match number(&params, "ms", None) {
        Ok(ms) => ms,
        Err(words) => return refuse(&words),
    };
    ask_json(&app, move |owner| {
        owner.host.advance(ms)?;
        owner
            .clock
            .catch_up(owner.host.simulation().now(), wall_ms());
        owner.clock_changed();
        Ok(status_of(owner))
    })
    .await
}

async fn pause(State(app): State<App>) -> Response {
    set_paused(app, true).await
}

async fn resume(State(app): State<App>) -> Response {
    set_paused(app, false).await
}

/// Stops or restarts virtual time; the run stands where the clock stopped.
async fn set_paused(app: App, paused: bool) -> Response {
    ask_json(&app, move |owner| {
        match paused {
            true => owner.clock.pause(wall_ms()),
            false => owner.clock.resume(wall_ms()),
        }
        owner.catch_up();
        owner.clock_changed();
        Ok(status_of(owner))
    })
    .await
}

async fn snapshot(State(app): State<App>, Query(params): Params) -> Response {
    let window = match params.contains_key("messagesPerQueue") {
        true => match number(&params, "messagesPerQueue", None) {
            Ok(n) => Some(n as usize),
            Err(words) => return refuse(&words),
        },
        false => None,
    };
    let answer = app
        .run
        .ask(move |owner| owner.host.snapshot_json(window, 0))
        .await;
    match answer {
        Ok(Ok(json)) => ([("content-type", "application/json")], json).into_response(),
        Ok(Err(too_big)) => refuse(&too_big),
        Err(_) => gone(),
    }
}

/// The journal from its `from`-th call (at most `PAGE` calls), with the
/// run's `now` and whether it is paused.
fn journal_from(owner: &Owner, from: usize) -> Value {
    let journal = owner.host.journal();
    let mut since = journal.since(from);
    since.calls = &since.calls[..since.calls.len().min(PAGE)];
    let mut value = serde_json::to_value(&since).unwrap_or(Value::Null);
    value["now"] = json!(owner.host.simulation().now());
    value["paused"] = json!(owner.clock.paused());
    value
}

async fn journal(State(app): State<App>, Query(params): Params) -> Response {
    let from = match number(&params, "from", Some(0)) {
        Ok(from) => usize::try_from(from).unwrap_or(usize::MAX),
        Err(words) => return refuse(&words),
    };
    ask_json(&app, move |owner| Ok(journal_from(owner, from))).await
}

/// The journal as it grows: one message per tick while anything changed
/// (new calls or time moving), each listing the calls since the last.
async fn journal_live(State(app): State<App>, Query(params): Params) -> Response {
    let from = match number(&params, "from", Some(0)) {
        Ok(from) => usize::try_from(from).unwrap_or(usize::MAX),
        Err(words) => return refuse(&words),
    };
    stream(app, from as u64, |owner, from| {
        let value = journal_from(owner, from as usize);
        let next = value["from"].as_u64().unwrap_or(0)
            + value["calls"].as_array().map_or(0, Vec::len) as u64;
        (value, next)
    })
}

/// The run's events as they happen, from the one numbered after `since`.
async fn events(State(app): State<App>, Query(params): Params) -> Response {
    let since = match number(&params, "since", Some(0)) {
        Ok(since) => since,
        Err(words) => return refuse(&words),
    };
    stream(app, since, |owner, since| {
        let events: Vec<_> = owner.host.simulation().events(since).take(PAGE).collect();
        let next = events.last().map_or(since, |e| e.seq);
        (serde_json::to_value(&events).unwrap_or(Value::Null), next)
    })
}

/// A Server-Sent Events stream: every tick, `read(owner, cursor)` gives
/// a message and the next cursor; a message is sent when it differs from
/// the last one sent.
fn stream(app: App, cursor: u64, read: fn(&Owner, u64) -> (Value, u64)) -> Response {
    let state = (app, cursor, Value::Null);
    let events = futures_util::stream::unfold(state, move |(app, cursor, last)| async move {
        loop {
            tokio::time::sleep(TICK).await;
            let (value, next) = app.run.ask(move |owner| read(owner, cursor)).await.ok()?;
            if value != last && value != json!([]) {
                let event = Event::default().data(value.to_string());
                return Some((Ok::<_, Infallible>(event), (app, next, value)));
            }
        }
    });
    sse(events)
}

fn sse(events: impl Stream<Item = Result<Event, Infallible>> + Send + 'static) -> Response {
    Sse::new(events)
        .keep_alive(KeepAlive::default())
        .into_response()
}
