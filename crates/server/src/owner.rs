//! The one thread that owns the run.
//!
//! A `Host` is not `Send` (its actors are boxed trait objects), and SQS
//! calls must be made one after another anyway, so one thread owns it and
//! everything else talks to it through a bounded channel: the HTTP
//! handlers send `Command`s and await a oneshot answer. The thread keeps
//! virtual time following the clock (`clock.rs`), waking at the next
//! moment anything happens by itself (a delay ending, a long poll's wait
//! running out, a producer's send), so a waiting long poll costs a map
//! entry, not a thread.
//!
//! Calls that arrive together are made together, then written to the
//! database in one transaction, and only then answered (and the long
//! polls they woke): an answered call is a stored call.

use std::collections::HashMap;
use std::time::Duration;

use queuelab_engine::PollId;
use queuelab_host::{DispatchOptions, Host};
use queuelab_protocol::{Dispatched, Response};
use tokio::sync::{mpsc, oneshot};

use crate::clock::{wall_ms, Clock};
use crate::store::{SavedClock, Store, StoredCall};

/// At most this many commands are waiting for the owner at once: past
/// it, handlers wait their turn (backpressure, not memory).
pub const QUEUE_DEPTH: usize = 1024;

/// The owner sleeps at most this long, so the clock is read again.
const MAX_SLEEP: Duration = Duration::from_secs(1);

/// An external call's answer: the response, or the server closing while
/// the call was a long poll still waiting.
#[derive(Debug)]
pub enum Answer {
    Now(Response),
    Closing,
}

/// A job run on the owner's thread with the run in hand.
pub type Job = Box<dyn FnOnce(&mut Owner) + Send>;

pub enum Command {
    /// An external call: `body` is `None` for a request too large to read.
    Call {
        target: String,
        body: Option<String>,
        by: DispatchOptions,
        reply: oneshot::Sender<Answer>,
    },
    Job(Job),
}

/// The run and what is owed to callers.
pub struct Owner {
    pub host: Host,
    pub clock: Clock,
    store: Option<Store>,
    /// Calls made and not yet written to the database.
    unsaved: Vec<StoredCall>,
    /// The clock changed (a pause, resume or jump) and is not yet saved.
    clock_changed: bool,
    /// Answers to send once the batch is saved.
    replies: Vec<(oneshot::Sender<Answer>, Response)>,
    waiting: HashMap<PollId, oneshot::Sender<Answer>>,
    /// The server is stopping: a long poll is answered `Closing` at once.
    closing: bool,
}

impl Owner {
    pub fn new(host: Host, clock: Clock, store: Option<Store>) -> Owner {
        Owner {
            host,
            clock,
            store,
            unsaved: Vec::new(),
            clock_changed: false,
            replies: Vec::new(),
            waiting: HashMap::new(),
            closing: false,
        }
    }

    /// Runs on its own thread until every sender is gone; then answers
    /// every waiting long poll with `Answer::Closing`.
    pub fn run(mut self, mut commands: mpsc::Receiver<Command>) {
        let runtime = match tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
        {
            Ok(runtime) => runtime,
            Err(e) => return tracing::error!("the run's thread has no timer: {e}"),
        };
        runtime.block_on(async {
            let mut batch = Vec::new();
            loop {
                let sleep = tokio::time::sleep(self.until_next_moment());
                tokio::select! {
                    n = commands.recv_many(&mut batch, QUEUE_DEPTH) => if n == 0 { break },
                    () = sleep => {}
                }
                self.catch_up();
                for command in batch.drain(..) {
                    self.obey(command);
                }
                self.settle();
            }
        });
        self.close();
        tracing::info!(
            "the run stopped at virtual {} ms",
            self.host.simulation().now()
        );
    }

    /// Answers every waiting long poll `Closing`, and every later one.
    pub fn close(&mut self) {
        self.closing = true;
        for (_, waiter) in self.waiting.drain() {
            let _ = waiter.send(Answer::Closing);
        }
    }

    /// Marks the clock as changed, so the batch saves it.
    pub fn clock_changed(&mut self) {
        self.clock_changed = true;
    }

    /// Moves the run to the clock's moment now.
    pub fn catch_up(&mut self) {
        let wall = wall_ms();
        let target = self.clock.virtual_at(wall);
        let now = self.host.simulation().now();
        if target > now {
            if let Err(limit) = self.host.advance(target - now) {
                tracing::error!("virtual time stopped: {limit}");
                self.clock.pause(wall);
            }
        }
        // A run that could not reach the clock's moment holds the clock there.
        self.clock.catch_up(self.host.simulation().now(), wall);
    }

    fn obey(&mut self, command: Command) {
        match command {
            Command::Job(job) => job(self),
            Command::Call {
                target,
                body,
                by,
                reply,
            } => self.call(target, body, by, reply),
        }
    }

    fn call(
        &mut self,
        target: String,
        body: Option<String>,
        by: DispatchOptions,
        reply: oneshot::Sender<Answer>,
    ) {
        // The HTTP layer hands over only callers it has checked.
        let principal = match by.principal() {
            Ok(principal) => principal,
            Err(why) => return tracing::error!("a call with an unusable caller: {why}"),
        };
        let t = self.host.simulation().now();
        let dispatched = match &body {
            Some(body) => self.host.dispatch(&target, body, &principal),
            None => Dispatched::Done(self.host.oversized(&principal)),
        };
        self.unsaved.push(StoredCall {
            t,
            target,
            body,
            by,
        });
        match dispatched {
            Dispatched::Done(response) => self.replies.push((reply, response)),
            Dispatched::Waiting(_) if self.closing => {
                let _ = reply.send(Answer::Closing);
            }
            Dispatched::Waiting(poll) => {
                self.waiting.insert(poll, reply);
            }
        }
    }

    /// Saves what the batch did, then answers its calls and the long
    /// polls that were answered meanwhile.
    fn settle(&mut self) {
        for (poll, response) in self.host.take_answers() {
            // A poll made again by a replay at start has no caller.
            if let Some(waiter) = self.waiting.remove(&poll) {
                self.replies.push((waiter, response));
            }
        }
        if let Some(store) = &mut self.store {
            if !self.unsaved.is_empty() || self.clock_changed {
                let clock = SavedClock {
                    virtual_ms: self.host.simulation().now(),
                    wall_ms: wall_ms(),
                    paused: self.clock.paused(),
                };
                if let Err(e) = store.save(&self.unsaved, clock) {
                    // Not saved: not answered. The callers see the server fail.
                    tracing::error!("the database refused a write, so the server stops: {e}");
                    std::process::exit(1);
                }
            }
        }
        self.unsaved.clear();
        self.clock_changed = false;
        for (reply, response) in self.replies.drain(..) {
            // A caller that went away (a closed connection) is not waited for.
            let _ = reply.send(Answer::Now(response));
        }
    }

    /// How long until the run's next moment on the wall clock.
    fn until_next_moment(&self) -> Duration {
        let next = self.host.simulation().next_event_time();
        let Some(wall) = next.and_then(|t| self.clock.wall_at(t)) else {
            return MAX_SLEEP;
        };
        Duration::from_millis(wall.saturating_sub(wall_ms())).min(MAX_SLEEP)
    }
}

/// The handle the HTTP side holds.
#[derive(Clone)]
pub struct Run {
    commands: mpsc::Sender<Command>,
}

/// The run's thread is gone (the server is stopping).
#[derive(Debug)]
pub struct Gone;

impl Run {
    /// Starts the owner's thread, where `make` makes the run (a run is
    /// not `Send`, so it is made where it lives). Err: why it could not be made.
    pub async fn start(
        make: impl FnOnce() -> Result<Owner, String> + Send + 'static,
    ) -> Result<(Run, std::thread::JoinHandle<()>), String> {
        let (commands, receiver) = mpsc::channel(QUEUE_DEPTH);
        let (made, ready) = oneshot::channel();
        let thread = std::thread::Builder::new()
            .name("queuelab-run".into())
            .spawn(move || match make() {
                Ok(owner) => {
                    let _ = made.send(Ok(()));
                    owner.run(receiver);
                }
                Err(words) => {
                    let _ = made.send(Err(words));
                }
            })
            .map_err(|e| format!("cannot start the run's thread: {e}"))?;
        match ready.await {
            Ok(Ok(())) => Ok((Run { commands }, thread)),
            Ok(Err(words)) => Err(words),
            Err(_) => Err("the run's thread stopped while starting".into()),
        }
    }

    /// Makes an external call and waits for its answer (a long poll
    /// until it is answered).
    pub async fn call(
        &self,
        target: String,
        body: Option<String>,
        by: DispatchOptions,
    ) -> Result<Answer, Gone> {
        let (reply, answer) = oneshot::channel();
        let command = Command::Call {
            target,
            body,
            by,
            reply,
        };
        self.commands.send(command).await.map_err(|_| Gone)?;
        answer.await.map_err(|_| Gone)
    }

    /// Runs `f` on the run's thread and hands back what it returns.
    pub async fn ask<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Owner) -> T + Send + 'static,
    ) -> Result<T, Gone> {
        let (reply, answer) = oneshot::channel();
        let job: Job = Box::new(move |owner| {
            let _ = reply.send(f(owner));
        });
        self.commands
            .send(Command::Job(job))
            .await
            .map_err(|_| Gone)?;
        answer.await.map_err(|_| Gone)
    }
}
