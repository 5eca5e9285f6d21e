//! Contacts between body parts (joined hands, a hand on a partner's shoulder): once every dancer is
//! posed at a time, each arm whose hand is in a contact reaches by IK for the other end, and stays
//! there while the contact lasts. Plain functions over explicit inputs: poses in, poses out.
//!
//! Two hands meet halfway (drawn towards the shoulders until both reach); a hand goes to the
//! partner's shoulder or elbow, its front or back. A contact is reached by the end of the arm
//! gestures written with its bow, held until its release, then let go over half a beat.
//! `Animation::sample` (player, render) and `export` apply it. Contacts out of reach and contacts
//! without a hand are reported with their place. Dancers whose staves are joined by a contact in
//! the starting position stand 0.5 m apart (1.5 m otherwise); the first staff stands on the
//! dancers' left (the reader faces where they face). Before the poses, `together` moves the plans
//! of dancers joined by a contact so they walk towards each other before it is reached and travel
//! together while it holds.

pub mod solve;
pub mod timing;
pub mod together;

pub use solve::{ContactReport, apply_contacts};
pub use timing::{ContactPart, ContactPoint, TimedContact, timed_contacts};
