//! Where in a JSON text a decoding error is: serde_json names a missing or
//! unknown field, but for a value of the wrong type or out of range it
//! gives only the line and column. `path_at` turns that position into the
//! path of the value there ("producers[0].sends[0].atMs"), so a scenario
//! error always names its field.
//!
//! Why not `serde_path_to_error`, which does the same while decoding: it
//! wraps every generated deserializer, and made the wasm 33 KB (5%) larger,
//! measured, for an error path that runs once per bad file. This scan runs
//! only after a failure and costs nothing otherwise.

enum Frame {
    /// Inside an object: the key whose value comes (or came) last.
    Object(Option<String>),
    /// Inside an array: the index of the current item.
    Array(usize),
}

/// The path of the value at 1-based `line` and `column` of `text`: the
/// keys and indices of the objects and arrays open there.
pub(crate) fn path_at(text: &str, line: usize, column: usize) -> String {
    path_before(text, offset_of(text, line, column))
}

/// Where the value of `path` begins (1-based line and column), the reverse
/// of `path_at`: for an error found after decoding (a field out of range),
/// so the editor can point at its line. None when not found. One pass over
/// the text: a hostile file of 10,000 lines must not cost 10,000 passes.
pub(crate) fn position_of(text: &str, path: &str) -> Option<(usize, usize)> {
    let mut frames = Frames::default();
    let mut chars = text.char_indices();
    let mut after_colon = false;
    while let Some((at, c)) = chars.next() {
        // An object's value begins at the first character after its colon.
        let value_starts = after_colon && !c.is_whitespace();
        if !c.is_whitespace() {
            after_colon = c == ':';
        }
        frames.read(c, &mut chars.by_ref().map(|(_, c)| c));
        if value_starts && frames.path() == path {
            let line_start = text[..at].rfind('\n').map_or(0, |n| n + 1);
            return Some((text[..at].matches('\n').count() + 1, at - line_start + 1));
        }
    }
    None
}

/// The path of the value that the text before `offset` is inside of.
fn path_before(text: &str, offset: usize) -> String {
    let mut frames = Frames::default();
    let mut chars = text[..offset.min(text.len())].chars();
    while let Some(c) = chars.next() {
        frames.read(c, &mut chars);
    }
    frames.path()
}

/// The objects and arrays open so far, reading a JSON text left to right.
#[derive(Default)]
struct Frames(Vec<Frame>);

impl Frames {
    /// Takes in character `c`; a string's opening quote reads the rest of
    /// the string from `rest`.
    fn read(&mut self, c: char, rest: &mut dyn Iterator<Item = char>) {
        let frames = &mut self.0;
        match c {
            '"' => {
                let string = read_string(rest);
                // A string read where a key is due is the next key.
                if let Some(Frame::Object(key @ None)) = frames.last_mut() {
                    *key = Some(string);
                }
            }
            '{' => frames.push(Frame::Object(None)),
            '[' => frames.push(Frame::Array(0)),
            '}' | ']' => {
                frames.pop();
            }
            ',' => match frames.last_mut() {
                Some(Frame::Object(key)) => *key = None,
                Some(Frame::Array(index)) => *index += 1,
                None => {}
            },
            _ => {}
        }
    }

    /// "producers[0].sends[0].atMs": the keys and indices open now.
    fn path(&self) -> String {
        let mut path = String::new();
        for frame in &self.0 {
            match frame {
                Frame::Object(Some(key)) if path.is_empty() => path.push_str(key),
                Frame::Object(Some(key)) => {
                    path.push('.');
                    path.push_str(key);
                }
                Frame::Object(None) => break,
                Frame::Array(index) => path.push_str(&format!("[{index}]")),
            }
        }
        path
    }
}

/// Reads the rest of a string whose opening quote was read.
fn read_string(chars: &mut dyn Iterator<Item = char>) -> String {
    let mut out = String::new();
    while let Some(c) = chars.next() {
        match c {
            '"' => break,
            '\\' => {
                if let Some(escaped) = chars.next() {
                    out.push(escaped);
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// The byte offset of 1-based `line` and `column` (serde_json counts the
/// column in bytes), clamped to the text and to a character boundary.
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let line_start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let mut offset = (line_start + column).min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}
