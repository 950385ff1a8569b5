//! LCA networks: topology (T-LCAN, CB-LCAN, Π files), paths, routing algorithms R1/R2,
//! global-knowledge references, and cycle-level models.
pub mod cycle;
