//! The testbench crate's integration tests: the Verilator bridge and the co-simulation of
//! every block and network. One test binary (`cargo test -p lcanet-testbench --test
//! integration <file>::`), each file a module: one link instead of one per file, and the
//! tests of every file share the cores (`docs/decisions/test-build.md`). `harness_alloc`
//! and `min_alloc` (a counting global allocator) and `missing_tool` (it changes the process
//! environment) stay binaries of their own.

mod bridge;
mod common;
mod harness;
mod hypercube_cosim;
mod hypercube_quad;
mod hypercube_tools;
mod lca_export;
mod lca_fast_cosim;
mod lca_net_cosim;
mod lca_net_perlevel_cosim;
mod lca_net_pi_cosim;
mod lca_net_pi_tools;
mod lca_net_r3_cosim;
mod lca_net_tools;
mod lca_r3_switch_cosim;
mod lca_switch_cosim;
mod lca_switch_golden;
mod lca_switch_tools;
mod min_cosim;
mod min_golden;
mod min_tools;
mod tools;
