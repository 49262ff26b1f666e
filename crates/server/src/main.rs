//! `queuelab serve`: Queuelab's SQS engine as a local endpoint.
//!
//! boto3, the AWS CLI and every AWS SDK talk to it unchanged but for the
//! endpoint, over SQS's JSON or query protocol; virtual time follows the
//! wall clock (or runs `--speed` times faster); the page watches it live.
//! docs/server.md is the user's guide.

mod app;
mod clock;
mod control;
mod owner;
mod routes;
mod sqs;
mod start;
mod store;
mod urls;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "queuelab",
    version,
    about = "Amazon SQS, simulated: a local SQS endpoint for boto3, the AWS CLI and every SDK",
    long_about = None
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve SQS's JSON and query protocols (and the page) over HTTP.
    Serve(start::ServeArgs),
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Serve(args) => start::serve(args),
    }
}
