//! Composite score (being written).
