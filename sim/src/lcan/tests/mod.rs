//! Tests of the LCA-network models: topology, routing, validator, references.

mod brute;
mod topology_tests;
