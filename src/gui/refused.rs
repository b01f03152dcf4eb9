//! Why a request is refused: one line for the person, the game left as
//! it was. The game, the clock and the routes all refuse with it, and the
//! HTTP layer answers it as `400` and `error: <line>`.

/// A request the server refuses, in words; the game is unchanged.
pub type Refused = String;

/// `value` if `range` holds it, or the one line that refuses it:
/// "`what` `value``unit` is out of range `start`..=`end``unit`", the same
/// words for every setting the page may ask for (`unit` is "" or " ms").
pub fn in_range<T: PartialOrd + std::fmt::Display>(
    what: &str,
    value: T,
    range: &std::ops::RangeInclusive<T>,
    unit: &str,
) -> Result<T, Refused> {
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
