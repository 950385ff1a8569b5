//! The hdl crate's integration tests: golden Verilog, lint, Icarus and Yosys on emitted
//! designs. One test binary (`cargo test -p lcanet-hdl --test integration <file>::`), each
//! file a module: one link instead of one per file, and the tests of every file share the
//! cores (`docs/decisions/test-build.md`).

mod common;
mod golden;
mod hypercube_golden;
mod lca_net_golden;
mod lca_net_r3_golden;
mod properties;
mod rows;
mod tools;
mod validation;
