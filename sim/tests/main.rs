//! The golden models' integration tests. One test binary (`cargo test -p lcanet-sim --test
//! integration <file>::`), each file a module (`docs/decisions/test-build.md`).

mod hypercube_formulas;
mod min_paper;
mod min_props;
mod min_psi;
