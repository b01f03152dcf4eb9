//! The shapes of the server's answers that are not a view of the game:
//! a built-in file of the page, and the one-line `error:` text every
//! refused request gets, so that the guard, the routes and the handlers
//! refuse alike.

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

/// A file of the page, built into the binary, with its content type.
pub(super) fn page(body: &'static str, kind: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

/// `value` if `range` holds it, or the one line that refuses it:
/// "`what` `value``unit` is out of range `start`..=`end``unit`", the same
/// words for every setting the page may ask for (`unit` is "" or " ms").
pub(super) fn in_range<T: PartialOrd + std::fmt::Display>(
    what: &str,
    value: T,
    range: &std::ops::RangeInclusive<T>,
    unit: &str,
) -> Result<T, String> {
    if range.contains(&value) {
        Ok(value)
    } else {
        Err(format!(
            "{what} {value}{unit} is out of range {}..={}{unit}",
            range.start(),
            range.end()
        ))
    }
}

/// A refused request: the status and one line saying why.
pub(super) fn bad(status: StatusCode, why: String) -> Response {
    let line = why.lines().next().unwrap_or("").to_string();
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        format!("error: {line}\n"),
    )
        .into_response()
}

/// A request refused as malformed or not allowed now: 400 and one line.
pub(super) fn refused(why: String) -> Response {
    bad(StatusCode::BAD_REQUEST, why)
}
