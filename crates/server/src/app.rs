//! What every handler shares: the run's handle and how to name this server.

use std::net::SocketAddr;
use std::path::PathBuf;

use crate::owner::Run;

/// What every handler shares.
#[derive(Clone)]
pub struct App {
    pub run: Run,
    /// The address the server listens on (for a request without `Host`).
    pub bound: SocketAddr,
    /// How the engine's queue URLs begin (`https://sqs.<region>.amazonaws.com/`).
    pub aws_prefix: String,
    /// The folder holding `index.html` and `web/`, when the page is served.
    pub web: Option<PathBuf>,
}
