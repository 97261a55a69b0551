//! Translation phases 2 and 3: line continuations (`\` newline) are spliced, comments become
//! one space, and the text is cut into logical lines. Every byte of a logical line remembers
//! its offset in the original file, so later phases can point back into it.

/// One logical line: what the directive parser and the macro expander see.
#[derive(Debug)]
pub(super) struct LogicalLine {
    pub text: String,
    /// Original byte offset of each byte of `text`, plus one entry for the line's end (the
    /// offset of its newline, or the file length on the last line).
    pub offsets: Vec<u32>,
    /// Physical newlines swallowed inside the line (continuations, multi-line comments); the
    /// output repeats them after the line so that line numbers stay put.
    pub hidden_newlines: usize,
}

impl LogicalLine {
    /// A line whose first token is `#`.
    pub fn is_directive(&self) -> bool {
        self.text
            .trim_start_matches(|c: char| c.is_ascii_whitespace())
            .starts_with('#')
    }

    pub fn end_offset(&self) -> u32 {
        self.offsets[self.text.len()]
    }
}

/// The logical lines of `src`, and the offset of a `/*` that is never closed, if any.
pub(super) fn logical_lines(src: &str) -> (Vec<LogicalLine>, Option<usize>) {
    let bytes = src.as_bytes();
    let mut lines = Vec::new();
    let mut unterminated_comment = None;
    let mut text: Vec<u8> = Vec::new();
    let mut offsets: Vec<u32> = Vec::new();
    let mut hidden = 0;
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if let Some(len) = continuation_at(bytes, i) {
            i += len;
            hidden += 1;
            continue;
        }
        if b == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
            i += 1;
            continue;
        }
        if b == b'\n' {
            offsets.push(i as u32);
            lines.push(finish_line(&mut text, &mut offsets, &mut hidden));
            quote = None;
            i += 1;
            continue;
        }
        match quote {
            Some(q) => {
                text.push(b);
                offsets.push(i as u32);
                if b == q {
                    quote = None;
                } else if b == b'\\'
                    && i + 1 < bytes.len()
                    && bytes[i + 1] != b'\n'
                    && continuation_at(bytes, i + 1).is_none()
                {
                    // An escaped character, quote included, stays in the literal.
                    text.push(bytes[i + 1]);
                    offsets.push(i as u32 + 1);
                    i += 1;
                }
                i += 1;
            }
            None if b == b'/' && bytes.get(i + 1) == Some(&b'*') => {
                text.push(b' ');
                offsets.push(i as u32);
                match src[i + 2..].find("*/") {
                    Some(end) => {
                        let body = &src[i + 2..i + 2 + end];
                        hidden += body.bytes().filter(|&c| c == b'\n').count();
                        i += end + 4;
                    }
                    None => {
                        unterminated_comment = Some(i);
                        hidden += src[i..].bytes().filter(|&c| c == b'\n').count();
                        i = bytes.len();
                    }
                }
            }
            None if b == b'/' && bytes.get(i + 1) == Some(&b'/') => {
                text.push(b' ');
                offsets.push(i as u32);
                // A line comment ends at the first newline that is not a continuation.
                while i < bytes.len() && bytes[i] != b'\n' {
                    match continuation_at(bytes, i) {
                        Some(len) => {
                            hidden += 1;
                            i += len;
                        }
                        None => i += 1,
                    }
                }
            }
            None => {
                if b == b'"' || b == b'\'' {
                    quote = Some(b);
                }
                text.push(b);
                offsets.push(i as u32);
                i += 1;
            }
        }
    }
    if !text.is_empty() || hidden > 0 {
        offsets.push(bytes.len() as u32);
        lines.push(finish_line(&mut text, &mut offsets, &mut hidden));
    }
    (lines, unterminated_comment)
}

/// Length of a `\` newline (or `\` CR LF) at `i`.
fn continuation_at(bytes: &[u8], i: usize) -> Option<usize> {
    match (bytes.get(i), bytes.get(i + 1), bytes.get(i + 2)) {
        (Some(b'\\'), Some(b'\n'), _) => Some(2),
        (Some(b'\\'), Some(b'\r'), Some(b'\n')) => Some(3),
        _ => None,
    }
}

fn finish_line(text: &mut Vec<u8>, offsets: &mut Vec<u32>, hidden: &mut usize) -> LogicalLine {
    // Splicing removes only ASCII bytes and comments whole, so the text stays UTF-8.
    let line = LogicalLine {
        text: String::from_utf8_lossy(text).into_owned(),
        offsets: std::mem::take(offsets),
        hidden_newlines: std::mem::take(hidden),
    };
    text.clear();
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(src: &str) -> Vec<(String, usize)> {
        let (lines, _) = logical_lines(src);
        lines
            .into_iter()
            .map(|l| (l.text, l.hidden_newlines))
            .collect()
    }

    #[test]
    fn splices_continuations_and_blanks_comments() {
        assert_eq!(
            texts("a \\\nb // c\nd /* x\ny */ e\n\"/* s */\" '\\''\n"),
            vec![
                ("a b  ".to_string(), 1),
                ("d   e".to_string(), 1),
                ("\"/* s */\" '\\''".to_string(), 0),
            ]
        );
    }

    #[test]
    fn offsets_point_into_the_original() {
        let (lines, unterminated) = logical_lines("ab\\\ncd\n/* open");
        assert_eq!(lines[0].offsets, vec![0, 1, 4, 5, 6]);
        assert_eq!(lines[1].text, " ");
        assert_eq!(unterminated, Some(7));
    }
}
