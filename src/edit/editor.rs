//! The editor's state without a window: the page document being edited, its grid, the
//! selection, the clipboard and the edit history (undo/redo as snapshots of the symbols), and
//! whether there are edits not yet saved. Every change recomposes the score, which it returns
//! for the caller to compile.

use super::grid::PageGrid;
use super::ops::{Copied, Edit, EditError, apply, copy};
use crate::diag::Span;
use crate::read::{Document, Format, PageSymbol};
use crate::score::Score;
use crate::score::compose::PageOptions;
use crate::score::staves::ColumnConvention;

/// Undo steps kept.
pub const HISTORY_DEPTH: usize = 1000;

/// The symbols and the selection before or after an edit.
#[derive(Clone, Debug, PartialEq)]
struct Snapshot {
    symbols: Vec<PageSymbol>,
    selection: Vec<usize>,
}

/// Where a symbol stands on the staff: what the editor selects and the staff panel scrolls to
/// (its start on the cursor line) when a warning about it is clicked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SymbolPlace {
    /// Index of the symbol in the document.
    pub index: usize,
    /// Staff index.
    pub staff: usize,
    /// Signed column.
    pub column: i32,
    /// Its start, beats (the staff's scroll position: the cursor line's time).
    pub start_beats: f64,
}

/// A page score being edited.
#[derive(Clone, Debug, PartialEq)]
pub struct Editor {
    doc: Document,
    grid: PageGrid,
    convention: ColumnConvention,
    selection: Vec<usize>,
    clipboard: Vec<Copied>,
    undo: Vec<Snapshot>,
    redo: Vec<Snapshot>,
    saved: Vec<PageSymbol>,
    dirty: bool,
    next_line: u32,
}

/// Why a document cannot be edited.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum NotEditable {
    /// Keyframe documents have no page.
    #[error("a {0} keyframe score has no staff page to edit; convert it to .lbn first")]
    Keyframes(&'static str),
}

impl Editor {
    /// Starts editing `doc` (a page document: `.lbn` or `.lw`); returns the editor and the
    /// composed score.
    pub fn new(doc: Document) -> Result<(Editor, Score), NotEditable> {
        if doc.format == Format::Json {
            return Err(NotEditable::Keyframes(doc.format.name()));
        }
        let score = Score::from_document(&doc);
        let next_line = doc.symbols.iter().map(|s| s.span.line).max().unwrap_or(0).saturating_add(1);
        let editor = Editor {
            grid: PageGrid::of_score(&score),
            convention: PageOptions::for_format(doc.format).convention,
            saved: doc.symbols.clone(),
            dirty: false,
            doc,
            selection: Vec::new(),
            clipboard: Vec::new(),
            undo: Vec::new(),
            redo: Vec::new(),
            next_line,
        };
        Ok((editor, score))
    }

    /// The document as edited.
    pub fn document(&self) -> &Document {
        &self.doc
    }

    /// The page grid of the last composed score.
    pub fn grid(&self) -> &PageGrid {
        &self.grid
    }

    /// The column convention of the document's format.
    pub fn convention(&self) -> ColumnConvention {
        self.convention
    }

    /// Selected symbol indices.
    pub fn selection(&self) -> &[usize] {
        &self.selection
    }

    /// Selects these symbols (unknown indices are dropped).
    pub fn select(&mut self, indices: Vec<usize>) {
        let count = self.doc.symbols.len();
        self.selection = indices.into_iter().filter(|&i| i < count).collect();
        self.selection.sort_unstable();
        self.selection.dedup();
    }

    /// True when there are edits since the document was opened or last saved.
    pub fn is_dirty(&self) -> bool {
        self.dirty
    }

    /// Records that the document as it is now has been saved.
    pub fn mark_saved(&mut self) {
        self.saved = self.doc.symbols.clone();
        self.dirty = false;
    }

    /// Undo steps available.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Redo steps available.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Applies `edit`, selecting what it leaves selected; returns the recomposed score. On an
    /// error nothing changes.
    pub fn apply(&mut self, edit: &Edit) -> Result<Score, EditError> {
        let before = self.snapshot();
        let selection = match apply(&mut self.doc, &self.grid, edit) {
            Ok(selection) => selection,
            Err(error) => {
                self.restore(before);
                return Err(error);
            }
        };
        self.number_new_symbols();
        self.keep_to_file_units();
        self.undo.push(before);
        if self.undo.len() > HISTORY_DEPTH {
            self.undo.remove(0);
        }
        self.redo.clear();
        self.selection = selection;
        Ok(self.recompose())
    }

    /// Takes back the last edit; `None` when there is none.
    pub fn undo(&mut self) -> Option<Score> {
        let previous = self.undo.pop()?;
        let now = self.snapshot();
        self.redo.push(now);
        self.restore(previous);
        Some(self.recompose())
    }

    /// Makes the last undone edit again; `None` when there is none.
    pub fn redo(&mut self) -> Option<Score> {
        let next = self.redo.pop()?;
        let now = self.snapshot();
        self.undo.push(now);
        self.restore(next);
        Some(self.recompose())
    }

    /// Copies the selection; returns how many symbols were copied.
    pub fn copy_selection(&mut self) -> usize {
        let copied = copy(&self.doc, &self.grid, &self.selection);
        if !copied.is_empty() {
            self.clipboard = copied;
        }
        self.clipboard.len()
    }

    /// Pastes the clipboard on `staff` from `start_beats`.
    pub fn paste(&mut self, staff: usize, start_beats: f64) -> Result<Score, EditError> {
        let edit = Edit::Paste { copied: self.clipboard.clone(), staff, start_beats };
        self.apply(&edit)
    }

    /// The symbol a composed entry came from (by its source position).
    pub fn symbol_of_span(&self, span: &Span) -> Option<usize> {
        self.doc.symbols.iter().position(|s| s.span == *span)
    }

    /// Where the symbol read at `span` stands (a warning's source position): `None` when no
    /// symbol of the document was read or written there, or it stands off the staves.
    pub fn place_of_span(&self, span: &Span) -> Option<SymbolPlace> {
        let index = self.symbol_of_span(span)?;
        let symbol = self.doc.symbols.get(index)?;
        let staff = self.grid.staff_at_x(symbol.x_mid())?;
        let column = self.grid.column_at_x(staff, symbol.x_mid())?;
        let start_beats = self.grid.beats_of_y(symbol.y).max(0.0);
        start_beats.is_finite().then_some(SymbolPlace { index, staff, column, start_beats })
    }

    /// The symbol at `index` in words.
    pub fn describe(&self, index: usize) -> Option<String> {
        self.doc.symbols.get(index).map(|s| super::describe::describe(s, &self.grid, self.convention))
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot { symbols: self.doc.symbols.clone(), selection: self.selection.clone() }
    }

    fn restore(&mut self, snapshot: Snapshot) {
        self.doc.symbols = snapshot.symbols;
        self.selection = snapshot.selection;
    }

    /// Gives each symbol an edit wrote its own source position past the file's lines, so that
    /// composed entries lead back to it.
    fn number_new_symbols(&mut self) {
        for symbol in &mut self.doc.symbols {
            if symbol.span == Span::default() {
                symbol.span = Span::at(self.next_line, 1);
                self.next_line = self.next_line.saturating_add(1);
            }
        }
    }

    /// An `.lbn` page holds whole units: a symbol an edit placed between them (a column's
    /// centre, a sign's width) is put on the nearest, as the file will hold it, so the score
    /// shown is the one saved.
    fn keep_to_file_units(&mut self) {
        if self.doc.format != Format::Lbn {
            return;
        }
        for symbol in &mut self.doc.symbols {
            for v in [&mut symbol.x, &mut symbol.y, &mut symbol.w, &mut symbol.h] {
                *v = v.round();
            }
        }
    }

    fn recompose(&mut self) -> Score {
        self.dirty = self.doc.symbols != self.saved;
        let score = Score::from_document(&self.doc);
        self.grid = PageGrid::of_score(&score);
        score
    }
}
