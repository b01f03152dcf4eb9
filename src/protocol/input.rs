//! Reading the protocol's lines off the input: one line at a time, with a
//! cap on its length, so that a client cannot make the engine hold an
//! endless line in memory.

use std::io::BufRead;

/// Lines longer than this are refused unread: no command needs so much.
pub const MAX_LINE: usize = 1 << 20;

/// Why a line could not be read.
#[derive(Debug)]
pub(super) enum ReadError {
    /// Longer than [`MAX_LINE`]; the rest of it was skipped.
    TooLong,
    /// The input failed.
    Io,
}

/// Reads one line into `line`, without its end; refuses a line longer
/// than [`MAX_LINE`] (reading on to its end). `Ok(0)` at the end of input.
pub(super) fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> Result<usize, ReadError> {
    let mut total = 0;
    let mut too_long = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return Err(ReadError::Io),
        };
        if buf.is_empty() {
            break;
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..=i], true),
            None => (buf, false),
        };
        total += chunk.len();
        if line.len() + chunk.len() > MAX_LINE {
            too_long = true;
            line.clear();
        } else {
            line.extend_from_slice(chunk);
        }
        let used = chunk.len();
        input.consume(used);
        if done {
            break;
        }
    }
    if too_long {
        return Err(ReadError::TooLong);
    }
    while matches!(line.last(), Some(b'\n' | b'\r')) {
        line.pop();
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_reading_caps_length() {
        let long = vec![b'a'; MAX_LINE + 10];
        let mut input: Vec<u8> = long.clone();
        input.extend_from_slice(b"\nisready\r\n");
        let mut reader = std::io::Cursor::new(input);
        let mut line = Vec::new();
        assert!(matches!(
            read_line(&mut reader, &mut line),
            Err(ReadError::TooLong)
        ));
        line.clear();
        assert!(read_line(&mut reader, &mut line).unwrap() > 0);
        assert_eq!(line, b"isready");
        line.clear();
        assert_eq!(read_line(&mut reader, &mut line).unwrap(), 0);
    }
}
