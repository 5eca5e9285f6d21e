//! A survey of an `.lw` file for reverse-engineering its record layouts: how often each record
//! head occurs, with which token counts, and how many the table decodes, plus the version,
//! encoding and line-ending style. Shown by `labanplay check --survey FILE.lw`.

use super::lw::{self, RawRecord};
use super::lw_table;
use super::lw_text::{Encoding, LineEndings};
use crate::diag::Diagnostics;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;

/// Figures for one record head (first token, as written).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct HeadStats {
    /// Records with this head.
    pub records: usize,
    /// Of those, decoded by the table.
    pub decoded: usize,
    /// The head has a row in `lw_table::TABLE`.
    pub in_table: bool,
    /// Token count (head included) → number of records.
    pub token_counts: BTreeMap<usize, usize>,
}

/// What an `.lw` file holds, in outline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Survey {
    /// The header's version number.
    pub version: i64,
    /// How the text was decoded.
    pub encoding: Encoding,
    /// Line-ending style.
    pub line_endings: LineEndings,
    /// Body records (header excluded).
    pub records: usize,
    /// Comment lines.
    pub comment_lines: usize,
    /// Records cut off by the end of the file (no `;`).
    pub unterminated: usize,
    /// Per record head, sorted by head.
    pub heads: BTreeMap<String, HeadStats>,
}

fn is_decoded(record: &RawRecord) -> bool {
    record.terminated && lw_table::decode(record).is_ok()
}

/// Surveys an `.lw` file. Fails only where [`lw::read`] fails (not text, bad header).
pub fn survey(bytes: &[u8]) -> Result<Survey, Diagnostics> {
    let container = lw::parse_container(bytes)?;
    let mut heads: BTreeMap<String, HeadStats> = BTreeMap::new();
    for record in &container.records {
        let stats = heads.entry(record.head().to_string()).or_default();
        stats.records += 1;
        stats.decoded += usize::from(is_decoded(record));
        stats.in_table = lw_table::row_for(record.head()).is_some();
        *stats.token_counts.entry(record.tokens.len()).or_default() += 1;
    }
    Ok(Survey {
        version: container.version,
        encoding: container.encoding,
        line_endings: container.line_endings,
        records: container.records.len(),
        comment_lines: container.comments.len(),
        unterminated: container.records.iter().filter(|r| !r.terminated).count(),
        heads,
    })
}

impl fmt::Display for Survey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "LabanWriter version {}, encoding {}, line endings {}",
            self.version,
            self.encoding.name(),
            self.line_endings.name()
        )?;
        let decoded: usize = self.heads.values().map(|s| s.decoded).sum();
        writeln!(
            f,
            "{} records ({} decoded), {} comment lines, {} unterminated",
            self.records, decoded, self.comment_lines, self.unterminated
        )?;
        let head_width = self.heads.keys().map(|h| h.chars().count()).max().unwrap_or(0).max(4);
        writeln!(f, "{:<head_width$}  {:>7}  {:>7}  token counts (tokens×records)", "head", "records", "decoded")?;
        for (head, stats) in &self.heads {
            let counts: Vec<String> = stats.token_counts.iter().map(|(n, c)| format!("{n}×{c}")).collect();
            let note = if stats.in_table { "" } else { "  (no table entry)" };
            writeln!(f, "{head:<head_width$}  {:>7}  {:>7}  {}{note}", stats.records, stats.decoded, counts.join(" "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn counts_heads_and_token_counts() {
        let input = b"LabanWriter; 4000;\n# c\nStaff 0 0 36 200;\nFoo 1 2;\nFoo 1 2 3;\nFoo 9 9;\nStaff 1 2";
        let s = survey(input).unwrap();
        assert_eq!(s.records, 5);
        assert_eq!(s.comment_lines, 1);
        assert_eq!(s.encoding, Encoding::Ascii);
        assert_eq!(s.line_endings, LineEndings::Lf);
        assert_eq!(s.unterminated, 1);
        let foo = &s.heads["Foo"];
        assert_eq!((foo.records, foo.decoded, foo.in_table), (3, 0, false));
        assert_eq!(foo.token_counts, BTreeMap::from([(3, 2), (4, 1)]));
        let staff = &s.heads["Staff"];
        assert_eq!((staff.records, staff.decoded, staff.in_table), (2, 1, true));
        let total: usize = s.heads.values().map(|h| h.token_counts.values().sum::<usize>()).sum();
        assert_eq!(total, s.records);
        let shown = s.to_string();
        assert!(shown.contains("Foo") && shown.contains("3×2") && shown.contains("(no table entry)"), "{shown}");
    }
}
