//! The CLI's tests: the `lcanet` binary run as a user runs it. One test binary
//! (`cargo test -p lcanet --test integration <file>::`), each file a module: one link
//! instead of one per file, and the tests of every file share the cores
//! (`docs/decisions/test-build.md`).

mod cli_bench_all_to_all;
mod cli_bench_routing;
mod cli_fastarb;
mod cli_hostile;
mod cli_hypercube;
mod cli_min;
mod cli_network;
mod cli_perlevel;
mod cli_prove;
mod cli_r3hw;
mod cli_schedule_r3;
mod cli_selftest;
mod cli_sweep;
mod cli_switch;
mod common;
mod fpga_flow;
mod hypercube_cli;
