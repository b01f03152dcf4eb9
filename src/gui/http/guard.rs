//! What the server lets in: requests that name this machine, changes sent
//! as JSON from this server's own page, and bodies no larger than
//! [`BODY_LIMIT`]. Every request passes here before its handler.

use super::reply::{bad, refused};
use crate::rules::clip;
use axum::extract::Request;
use axum::http::{header, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;

/// The largest request body taken; a larger one gets 413 and one line.
/// A saved game is a few kilobytes.
pub const BODY_LIMIT: usize = 2 * 1024 * 1024;

/// Keeps other web sites out of the game: a page elsewhere could send
/// simple cross-site POSTs to 127.0.0.1, or reach it through a rebound
/// name. So requests must name this machine as their host, changes must
/// come as JSON (which a browser sends across sites only after a
/// preflight this server never grants) and, when the browser names the
/// page they come from (`Origin`), from this server's own page, as
/// Jupyter checks. A body over [`BODY_LIMIT`] gets 413 and one line.
pub(super) async fn guard(request: Request, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let name = host.rsplit_once(':').map_or(host, |(name, _)| name);
    if !matches!(name, "127.0.0.1" | "localhost" | "[::1]") {
        return refused(format!("host '{}' is not this machine", clip(host)));
    }
    if request.method() == Method::POST {
        let json = request
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|h| h.to_str().ok())
            .is_some_and(|t| t.starts_with("application/json"));
        if !json {
            return refused("changes must be sent as application/json".into());
        }
        if let Some(origin) = request.headers().get(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or("");
            if origin.strip_prefix("http://") != Some(host) {
                return bad(
                    StatusCode::FORBIDDEN,
                    format!("origin '{}' is not this page", clip(origin)),
                );
            }
        }
    }
    let too_large = || {
        bad(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request body is larger than {BODY_LIMIT} bytes"),
        )
    };
    let length = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| h.parse::<u64>().ok());
    if length.is_some_and(|n| n > BODY_LIMIT as u64) {
        return too_large();
    }
    // A chunked body has no length to check first: axum stops reading it
    // at the limit and answers 413 in its own words, replaced here.
    let response = next.run(request).await;
    if response.status() == StatusCode::PAYLOAD_TOO_LARGE {
        return too_large();
    }
    response
}
