//! Bytes to text for the `.lw` reader: line-ending style, the text encoding heuristic
//! (UTF-8, else Mac Roman or Latin-1), the Mac Roman table, and a forward-only span tracker.
//! Nothing here knows about records; `lw.rs` tokenizes the bytes and decodes tokens here.

use crate::diag::Span;
use serde::Serialize;

/// How the file's text bytes were turned into characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Encoding {
    /// Only bytes below 0x80 (decodes the same in every encoding below).
    Ascii,
    /// Valid UTF-8 with at least one multi-byte character.
    Utf8,
    /// Not UTF-8; decoded with the classic Mac OS Roman table (the default for LabanWriter,
    /// a Macintosh program).
    MacRoman,
    /// Not UTF-8 and CRLF line endings (a file that went through Windows): ISO 8859-1.
    Latin1,
}

impl Encoding {
    /// Human-readable name.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Ascii => "ASCII",
            Encoding::Utf8 => "UTF-8",
            Encoding::MacRoman => "Mac Roman",
            Encoding::Latin1 => "Latin-1",
        }
    }
}

/// The line-ending style of a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum LineEndings {
    /// No line break at all.
    None,
    /// LF only (Unix, Mac OS X).
    Lf,
    /// CR LF only (Windows).
    CrLf,
    /// CR only (classic Mac OS).
    Cr,
    /// More than one of the above.
    Mixed,
}

impl LineEndings {
    /// Short name: `none`, `LF`, `CRLF`, `CR`, `mixed`.
    pub fn name(self) -> &'static str {
        match self {
            LineEndings::None => "none",
            LineEndings::Lf => "LF",
            LineEndings::CrLf => "CRLF",
            LineEndings::Cr => "CR",
            LineEndings::Mixed => "mixed",
        }
    }
}

/// Counts the three kinds of line break and names the style.
pub fn detect_line_endings(bytes: &[u8]) -> LineEndings {
    let (mut lf, mut crlf, mut cr) = (0usize, 0usize, 0usize);
    let mut i = 0usize;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => {
                crlf += 1;
                i += 1;
            }
            b'\r' => cr += 1,
            b'\n' => lf += 1,
            _ => {}
        }
        i += 1;
    }
    match (lf > 0, crlf > 0, cr > 0) {
        (false, false, false) => LineEndings::None,
        (true, false, false) => LineEndings::Lf,
        (false, true, false) => LineEndings::CrLf,
        (false, false, true) => LineEndings::Cr,
        _ => LineEndings::Mixed,
    }
}

/// The encoding heuristic: UTF-8 when the bytes are valid UTF-8 (ASCII when all bytes are
/// below 0x80); otherwise Latin-1 when the line endings are CRLF (the file passed through
/// Windows), and Mac Roman in every other case (LabanWriter is a Macintosh program: its help
/// text says "cmd-R" [S2]; both classic CR and Mac OS X LF files default to Mac Roman).
pub fn choose_encoding(bytes: &[u8], line_endings: LineEndings) -> Encoding {
    if bytes.is_ascii() {
        Encoding::Ascii
    } else if std::str::from_utf8(bytes).is_ok() {
        Encoding::Utf8
    } else if line_endings == LineEndings::CrLf {
        Encoding::Latin1
    } else {
        Encoding::MacRoman
    }
}

/// Decodes `bytes` with `encoding`. UTF-8 is decoded leniently (U+FFFD for bad sequences).
pub fn decode(bytes: &[u8], encoding: Encoding) -> String {
    match encoding {
        Encoding::Ascii | Encoding::Utf8 => String::from_utf8_lossy(bytes).into_owned(),
        Encoding::MacRoman => bytes.iter().map(|&b| mac_roman_char(b)).collect(),
        Encoding::Latin1 => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

/// The character of one Mac OS Roman byte.
pub fn mac_roman_char(byte: u8) -> char {
    match byte.checked_sub(0x80) {
        None => char::from(byte),
        Some(high) => MAC_ROMAN_HIGH.get(usize::from(high)).copied().unwrap_or('\u{FFFD}'),
    }
}

/// Mac OS Roman bytes 0x80..=0xFF (Apple's ROMAN.TXT, with the euro sign at 0xDB and the Apple
/// logo at 0xF0 mapped to the private-use U+F8FF, as Apple does).
#[rustfmt::skip]
pub const MAC_ROMAN_HIGH: [char; 128] = [
    '\u{00C4}', '\u{00C5}', '\u{00C7}', '\u{00C9}', '\u{00D1}', '\u{00D6}', '\u{00DC}', '\u{00E1}', // 0x80 ÄÅÇÉÑÖÜá
    '\u{00E0}', '\u{00E2}', '\u{00E4}', '\u{00E3}', '\u{00E5}', '\u{00E7}', '\u{00E9}', '\u{00E8}', // 0x88 àâäãåçéè
    '\u{00EA}', '\u{00EB}', '\u{00ED}', '\u{00EC}', '\u{00EE}', '\u{00EF}', '\u{00F1}', '\u{00F3}', // 0x90 êëíìîïñó
    '\u{00F2}', '\u{00F4}', '\u{00F6}', '\u{00F5}', '\u{00FA}', '\u{00F9}', '\u{00FB}', '\u{00FC}', // 0x98 òôöõúùûü
    '\u{2020}', '\u{00B0}', '\u{00A2}', '\u{00A3}', '\u{00A7}', '\u{2022}', '\u{00B6}', '\u{00DF}', // 0xA0 †°¢£§•¶ß
    '\u{00AE}', '\u{00A9}', '\u{2122}', '\u{00B4}', '\u{00A8}', '\u{2260}', '\u{00C6}', '\u{00D8}', // 0xA8 ®©™´¨≠ÆØ
    '\u{221E}', '\u{00B1}', '\u{2264}', '\u{2265}', '\u{00A5}', '\u{00B5}', '\u{2202}', '\u{2211}', // 0xB0 ∞±≤≥¥µ∂∑
    '\u{220F}', '\u{03C0}', '\u{222B}', '\u{00AA}', '\u{00BA}', '\u{03A9}', '\u{00E6}', '\u{00F8}', // 0xB8 ∏π∫ªºΩæø
    '\u{00BF}', '\u{00A1}', '\u{00AC}', '\u{221A}', '\u{0192}', '\u{2248}', '\u{2206}', '\u{00AB}', // 0xC0 ¿¡¬√ƒ≈∆«
    '\u{00BB}', '\u{2026}', '\u{00A0}', '\u{00C0}', '\u{00C3}', '\u{00D5}', '\u{0152}', '\u{0153}', // 0xC8 »… ÀÃÕŒœ
    '\u{2013}', '\u{2014}', '\u{201C}', '\u{201D}', '\u{2018}', '\u{2019}', '\u{00F7}', '\u{25CA}', // 0xD0 –—“”‘’÷◊
    '\u{00FF}', '\u{0178}', '\u{2044}', '\u{20AC}', '\u{2039}', '\u{203A}', '\u{FB01}', '\u{FB02}', // 0xD8 ÿŸ⁄€‹›ﬁﬂ
    '\u{2021}', '\u{00B7}', '\u{201A}', '\u{201E}', '\u{2030}', '\u{00C2}', '\u{00CA}', '\u{00C1}', // 0xE0 ‡·‚„‰ÂÊÁ
    '\u{00CB}', '\u{00C8}', '\u{00CD}', '\u{00CE}', '\u{00CF}', '\u{00CC}', '\u{00D3}', '\u{00D4}', // 0xE8 ËÈÍÎÏÌÓÔ
    '\u{F8FF}', '\u{00D2}', '\u{00DA}', '\u{00DB}', '\u{00D9}', '\u{0131}', '\u{02C6}', '\u{02DC}', // 0xF0  ÒÚÛÙıˆ˜
    '\u{00AF}', '\u{02D8}', '\u{02D9}', '\u{02DA}', '\u{00B8}', '\u{02DD}', '\u{02DB}', '\u{02C7}', // 0xF8 ¯˘˙˚¸˝˛ˇ
];

/// Turns increasing byte offsets into [`Span`]s in one pass over the input, giving the same
/// answer as [`Span::of_offset`] for every offset that is 0, a line start, or preceded by an
/// ASCII byte (token starts always are), without rescanning from the start of the file.
pub(crate) struct SpanTracker<'a> {
    input: &'a [u8],
    /// Offset up to which `line` and `col` are known.
    pos: usize,
    line: u32,
    /// Characters (as `String::from_utf8_lossy` counts them) from the line start to `pos`.
    chars_in_line: u32,
}

impl<'a> SpanTracker<'a> {
    /// A tracker at the start of `input`.
    pub(crate) fn new(input: &'a [u8]) -> Self {
        Self { input, pos: 0, line: 1, chars_in_line: 0 }
    }

    /// The span of `offset`. Offsets before the last one asked fall back to a full rescan.
    pub(crate) fn span_at(&mut self, offset: usize) -> Span {
        let end = offset.min(self.input.len());
        if end < self.pos {
            return Span::of_offset(self.input, offset);
        }
        let mut segment_start = self.pos;
        let mut i = self.pos;
        while i < end {
            let Some(&b) = self.input.get(i) else { break };
            let is_break = b == b'\n' || (b == b'\r' && self.input.get(i + 1) != Some(&b'\n'));
            if is_break {
                self.line = self.line.saturating_add(1);
                self.chars_in_line = 0;
                segment_start = i + 1;
            }
            i += 1;
        }
        let segment = self.input.get(segment_start..end).unwrap_or_default();
        self.chars_in_line = self.chars_in_line.saturating_add(lossy_char_count(segment));
        self.pos = end;
        Span { line: self.line, col: self.chars_in_line.saturating_add(1), offset }
    }
}

/// `String::from_utf8_lossy(bytes).chars().count()` without allocating.
fn lossy_char_count(bytes: &[u8]) -> u32 {
    let count: usize =
        bytes.utf8_chunks().map(|chunk| chunk.valid().chars().count() + usize::from(!chunk.invalid().is_empty())).sum();
    u32::try_from(count).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_endings_are_classified() {
        assert_eq!(detect_line_endings(b"a;b;"), LineEndings::None);
        assert_eq!(detect_line_endings(b"a\nb\n"), LineEndings::Lf);
        assert_eq!(detect_line_endings(b"a\r\nb\r\n"), LineEndings::CrLf);
        assert_eq!(detect_line_endings(b"a\rb\r"), LineEndings::Cr);
        assert_eq!(detect_line_endings(b"a\rb\n"), LineEndings::Mixed);
    }

    #[test]
    fn encoding_heuristic_follows_the_documented_rule() {
        assert_eq!(choose_encoding(b"abc", LineEndings::Cr), Encoding::Ascii);
        assert_eq!(choose_encoding("é".as_bytes(), LineEndings::Lf), Encoding::Utf8);
        assert_eq!(choose_encoding(b"\x8e", LineEndings::Cr), Encoding::MacRoman);
        assert_eq!(choose_encoding(b"\x8e", LineEndings::Lf), Encoding::MacRoman);
        assert_eq!(choose_encoding(b"\xe9", LineEndings::CrLf), Encoding::Latin1);
    }

    #[test]
    fn mac_roman_table_has_known_anchors() {
        assert_eq!(mac_roman_char(b'A'), 'A');
        assert_eq!(mac_roman_char(0x80), 'Ä');
        assert_eq!(mac_roman_char(0x8E), 'é');
        assert_eq!(mac_roman_char(0xA5), '•');
        assert_eq!(mac_roman_char(0xCA), '\u{00A0}');
        assert_eq!(mac_roman_char(0xDB), '€');
        assert_eq!(mac_roman_char(0xFF), 'ˇ');
        // A single-byte encoding must map distinct bytes to distinct characters.
        let mut seen: Vec<char> = MAC_ROMAN_HIGH.to_vec();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 128);
        assert!(MAC_ROMAN_HIGH.iter().all(|c| u32::from(*c) >= 0xA0));
    }

    #[test]
    fn decode_by_encoding() {
        assert_eq!(decode(b"caf\x8e", Encoding::MacRoman), "café");
        assert_eq!(decode(b"caf\xe9", Encoding::Latin1), "café");
        assert_eq!(decode("café".as_bytes(), Encoding::Utf8), "café");
    }

    #[test]
    fn tracker_matches_of_offset_at_token_starts() {
        let input = b"ab \x8e\x80 c\r\nd;e\rf\n\xe9g h";
        let starts: Vec<usize> =
            (0..=input.len()).filter(|&i| i == 0 || input.get(i - 1).is_some_and(|b| b.is_ascii())).collect();
        let mut tracker = SpanTracker::new(input);
        for &i in &starts {
            assert_eq!(tracker.span_at(i), Span::of_offset(input, i), "offset {i}");
        }
    }
}
