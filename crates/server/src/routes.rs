//! The HTTP server's routes: the control API under `/_queuelab/`, the
//! page (its files from the web folder, `index.html` at `/`), and SQS's
//! wires for every other request.

use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use tower_http::cors::CorsLayer;
use tower_http::services::ServeDir;

use crate::app::App;
use crate::{control, sqs};

pub fn router(app: App) -> Router {
    // A page from anywhere (a course's, a checkout's) may watch the run.
    let control = control::routes().layer(CorsLayer::permissive());
    let mut router = Router::new().nest("/_queuelab", control);
    if let Some(root) = &app.web {
        router = router.nest_service("/web", ServeDir::new(root.join("web")));
    }
    router
        .route("/", get(front_or_sqs).post(sqs::handle))
        .fallback(sqs::handle)
        .with_state(app)
}

/// `GET /`: the page, unless the URL carries a query-protocol `Action`
/// (`GET /?Action=ListQueues`, as some clients and tutorials send).
async fn front_or_sqs(state: State<App>, uri: Uri, headers: HeaderMap, body: Body) -> Response {
    let query = uri.query().unwrap_or("");
    if query.split('&').any(|pair| pair.starts_with("Action=")) {
        return sqs::handle(state, uri, headers, body).await;
    }
    front(&state.0).await
}

/// The page, or what to do without it.
async fn front(app: &App) -> Response {
    if let Some(root) = &app.web {
        if let Ok(html) = tokio::fs::read_to_string(root.join("index.html")).await {
            return Html(html).into_response();
        }
    }
    let words = format!(
        "Queuelab's SQS endpoint is running here: point an SDK or the AWS CLI at \
         http://{}/ (for example --endpoint-url). The page is not served: \
         start with --web pointing at a built Queuelab checkout (scripts/build-wasm.sh).\n",
        app.bound
    );
    (StatusCode::OK, words).into_response()
}
