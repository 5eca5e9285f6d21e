//! Editing a page score (`.lbn`, `.lw`) as plain data: [`Edit`] operations on the document's
//! symbols (insert, delete, move in time and column, stretch, change a sign, paste, join two
//! dancers' hands with a bow, insert and delete measures), snapped to the staff's quarter-beat
//! grid ([`grid`]), with undo and redo ([`Editor`]), a new empty score ([`blank_score`]) and a
//! symbol's meaning in words ([`describe`](describe::describe)). No window here: the player's
//! editor and the tests drive the same operations.

pub mod blank;
pub mod describe;
pub mod editor;
pub mod grid;
mod measures;
pub mod ops;
pub mod signs;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_signs;

pub use blank::blank_score;
pub use editor::{Editor, NotEditable, SymbolPlace};
pub use grid::{GRID_BEATS, PageGrid, snap_beats, step_column};
pub use ops::{Copied, Edit, EditError};
pub use signs::{PreSign, Sign};
