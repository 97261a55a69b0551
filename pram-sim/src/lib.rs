//! (empty until its issue lands)
