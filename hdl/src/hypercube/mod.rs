//! Kuszmaul's pipelined bit-serial hypercube router (seed 001) as rust-hdl blocks:
//! the pipeline [`stage::Stage`], the [`node::Node`] router and the
//! [`controller::Controller`] of `docs/hypercube.md`.

pub mod adder;
pub mod controller;
pub mod node;
pub mod stage;

#[cfg(test)]
mod rhdl_sim;
