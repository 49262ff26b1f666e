//! Starting and stopping the server: the flags, the run (new, from a
//! scenario, or again from `--data`), the listener, and a graceful stop
//! (Ctrl-C or SIGTERM: waiting long polls are answered empty first).

use std::io::IsTerminal;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use queuelab_host::{Host, PlaygroundOptions, Refusal};

use crate::app::App;
use crate::clock::{wall_ms, Clock};
use crate::owner::{Owner, Run};
use crate::routes::router;
use crate::store::{SavedClock, Store};

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The address to listen on (0.0.0.0 to accept other machines).
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// The port to listen on: 9324 is ElasticMQ's, so its settings work; 0 picks a free one.
    #[arg(long, default_value_t = 9324)]
    port: u16,
    /// The region in queue ARNs.
    #[arg(long, default_value = "us-east-1")]
    region: String,
    /// The 12-digit account id in queue URLs and ARNs.
    #[arg(long, default_value = "000000000000")]
    account: String,
    /// How many times faster than the wall clock virtual time runs (0.01 to 10000).
    #[arg(long, default_value_t = 1.0, value_parser = speed)]
    speed: f64,
    /// A Queuelab scenario file whose queues (and producers and workers) exist from the start.
    #[arg(long, value_name = "FILE")]
    scenario: Option<PathBuf>,
    /// The seed of the run's random numbers (message ids, receipt handles, sampling): the same seed and calls give the same answers.
    #[arg(long)]
    seed: Option<u64>,
    /// Keep queues and messages in DIR across restarts (a call answered is a call kept).
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
    /// The folder of a built Queuelab page (index.html and web/) to serve at /; found beside the program or in its checkout when absent.
    #[arg(long, value_name = "DIR")]
    web: Option<PathBuf>,
}

fn speed(text: &str) -> Result<f64, String> {
    let speed: f64 = text
        .parse()
        .map_err(|_| format!("\"{text}\" is not a number"))?;
    match (0.01..=10_000.0).contains(&speed) {
        true => Ok(speed),
        false => Err(format!("{speed} is outside 0.01 to 10000")),
    }
}

/// Runs the server until it is stopped; the exit code says how it ended.
pub fn serve(args: ServeArgs) -> ExitCode {
    // RUST_LOG names the level (error, warn, info, debug, trace); info by default.
    let level = std::env::var("RUST_LOG")
        .ok()
        .and_then(|level| level.parse().ok())
        .unwrap_or(tracing_subscriber::filter::LevelFilter::INFO);
    tracing_subscriber::fmt()
        .with_max_level(level)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr)
        .init();
    match start(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(words) => {
            eprintln!("queuelab: {words}");
            ExitCode::from(2)
        }
    }
}

fn start(args: ServeArgs) -> Result<(), String> {
    let aws_prefix = format!("https://sqs.{}.amazonaws.com/", args.region);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start: {e}"))?;
    runtime.block_on(async move {
        let address = format!("{}:{}", args.host, args.port);
        let listener = tokio::net::TcpListener::bind(&address)
            .await
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::AddrInUse => format!(
                    "{address} is in use (another queuelab, or ElasticMQ?): choose another port with --port"
                ),
                _ => format!("cannot listen on {address}: {e}"),
            })?;
        let bound = listener.local_addr().map_err(|e| e.to_string())?;
        let args = std::sync::Arc::new(args);
        let (run, thread) = Run::start({
            let args = args.clone();
            move || make_run(&args)
        })
        .await?;
        let web = args.web.clone().or_else(find_web);
        announce(bound, &args, web.as_deref());
        let app = App { run: run.clone(), bound, aws_prefix, web };
        axum::serve(listener, router(app))
            .with_graceful_shutdown(stop(run))
            .await
            .map_err(|e| format!("the server failed: {e}"))?;
        let _ = thread.join();
        Ok(())
    })
}

/// The line a user (and a test) reads to find the server.
fn announce(bound: SocketAddr, args: &ServeArgs, web: Option<&Path>) {
    println!("Queuelab SQS endpoint: http://{bound}/");
    tracing::info!(
        region = %args.region,
        account = %args.account,
        speed = args.speed,
        data = ?args.data,
        page = ?web,
        "listening on http://{bound}/"
    );
}

/// Waits for Ctrl-C or SIGTERM, then answers waiting long polls empty.
async fn stop(run: Run) {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
    tracing::info!("stopping: waiting long polls are answered empty");
    let _ = run.ask(Owner::close).await;
}

/// The run: again from `--data` if it holds one, else new.
fn make_run(args: &ServeArgs) -> Result<Owner, String> {
    let scenario = match &args.scenario {
        Some(path) => Some(
            std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read the scenario {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let mut store = args.data.as_deref().map(Store::open).transpose()?;
    if let Some(db) = store.take() {
        match db.saved()? {
            Some(saved) if args.scenario.is_some() && saved.scenario != scenario => {
                return Err(format!(
                    "{} holds a run started from another scenario: start without --scenario to go on with it, or give another --data",
                    args.data.as_deref().unwrap_or(Path::new("")).display()
                ));
            }
            Some(saved) => return again(saved, db, args.speed),
            None => store = Some(db),
        }
    }
    let options = PlaygroundOptions {
        seed: args.seed,
        region: Some(args.region.clone()),
        account_id: Some(args.account.clone()),
        // Timestamps (SentTimestamp, …) are the wall clock's.
        start_epoch_ms: Some(wall_ms() as f64),
        ..PlaygroundOptions::default()
    };
    let host = host(scenario.as_deref(), options.clone())?;
    let clock = Clock::new(args.speed, 0, wall_ms());
    if let Some(store) = &mut store {
        let at = SavedClock {
            virtual_ms: 0,
            wall_ms: wall_ms(),
            paused: false,
        };
        store.begin(scenario.as_deref(), &options, at)?;
    }
    Ok(Owner::new(host, clock, store))
}

/// The run a database holds, its calls made again; virtual time goes on
/// from the saved clock, as if the server had kept running.
fn again(saved: crate::store::Saved, store: Store, speed: f64) -> Result<Owner, String> {
    let mut host = host(saved.scenario.as_deref(), saved.options)?;
    store.each_call(|call| {
        let by = call.by.principal()?;
        host.make_again(call.t, &call.target, call.body.as_deref(), &by)
    })?;
    let mut clock = Clock::new(speed, saved.clock.virtual_ms, saved.clock.wall_ms);
    if saved.clock.paused {
        clock.pause(saved.clock.wall_ms);
    }
    tracing::info!(calls = saved.calls, "the run goes on from its database");
    let mut owner = Owner::new(host, clock, Some(store));
    owner.catch_up();
    Ok(owner)
}

fn host(scenario: Option<&str>, options: PlaygroundOptions) -> Result<Host, String> {
    let mut host = match scenario {
        Some(text) => Host::from_scenario(text, options).map_err(|refusal| match refusal {
            Refusal::Scenario(placed) => format!("the scenario cannot run: {}", placed.message),
            Refusal::Message(words) => words,
        })?,
        None => Host::new(options)?,
    };
    // Nobody answers a checkpoint's question or a code cell's invocation here.
    host.pause_at_checkpoints(false);
    host.pause_at_invocations(false);
    Ok(host)
}

/// The page beside the program (a wheel puts it in `share/queuelab/web`)
/// or in the checkout it was built from, when built.
fn find_web() -> Option<PathBuf> {
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.join("share/queuelab/web")));
    let checkout = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    [beside, Some(checkout)].into_iter().flatten().find(|root| {
        root.join("index.html").is_file() && root.join("web/pkg/queuelab_bg.wasm").is_file()
    })
}
