//! Contacts between body parts (joined hands, a hand on a partner's shoulder): once every dancer
//! is posed at a time, each arm whose hand is in a contact reaches by IK for the other end, and
//! stays there while the contact lasts. Plain functions over explicit inputs: poses in, poses out.

pub mod solve;
pub mod timing;

pub use solve::{ContactReport, apply_contacts};
pub use timing::{ContactPart, ContactPoint, TimedContact, timed_contacts};
