//! Kuszmaul's pipelined bit-serial hypercube routing (seed 001): Algorithm 1,
//! enumeration by the butterfly prefix, and Algorithm 2.
