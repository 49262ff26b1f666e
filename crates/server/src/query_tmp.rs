// TEMPORARY until the query codec lands.
use queuelab_protocol::Response;
pub struct QueryRequest {
    pub action: String,
    pub target: String,
    pub body: String,
}
pub struct QueryError;
pub fn read_request(_f: &str, _p: Option<&str>) -> Result<QueryRequest, QueryError> {
    Err(QueryError)
}
pub fn answer(_a: &str, r: &Response) -> Response {
    r.clone()
}
pub fn error_response(_e: &QueryError, _id: &str) -> Response {
    Response {
        status: 400,
        headers: vec![],
        body: "query later".into(),
    }
}
