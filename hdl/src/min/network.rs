//! Whole networks as RTL: a baseline, omega or indirect binary n-cube network of
//! [`MinSwitch`]es with one [`AtapeUnit`] per PE and an [`AtapeController`], assembled
//! with the netlist (docs/min.md §6 lists the top-level interface).
//!
//! Instances: `ctrl`, `pe<j>` (ATAPE unit of PE `j`), `st<s>_sw<k>` (switch `k` of
//! stage `s`), `st<s>_any` (the stage's conflict OR). Nets are the instances' outputs,
//! `<instance>_<port>` (`st2_sw3_out1`, `pe5_tx`), so GTKWave shows the structure.
//! The wiring comes from [`Min::entry`] and [`Min::link`] (the topology of
//! `lcanet_sim::min`, never its routing results).

use super::{AnyOf, AtapeController, AtapeUnit, MinSwitch};
use crate::netlist::{names, Design, Expr, ModuleBuilder, NetlistError};
use crate::rusthdl::{add_block, ImportError};
use lcanet_sim::min::frame::FrameFormat;
use lcanet_sim::min::hw::TagShifter;
use lcanet_sim::min::{Min, MinError};

/// Why a network could not be generated.
#[derive(Debug, thiserror::Error)]
pub enum MinRtlError {
    /// The parameters are invalid.
    #[error(transparent)]
    Params(#[from] MinError),
    /// A rust-hdl block could not be imported (a bug in the blocks).
    #[error("internal error importing a MIN block: {0}")]
    Import(#[from] ImportError),
    /// The netlist was rejected (a bug in the assembly).
    #[error("internal error assembling the MIN netlist: {0}")]
    Netlist(#[from] NetlistError),
}

/// One generated network.
#[derive(Debug, Clone)]
pub struct MinRtl {
    /// The design, ready for `emit()`.
    pub design: Design,
    /// The top module: `<network>_atape_m<m>_b<B>`.
    pub top: String,
}

/// The top module's name for `min` and `B` payload bits.
pub fn top_name(min: &Min, message_bits: u32) -> String {
    format!("{}_atape_m{}_b{}", min.network(), min.m(), message_bits)
}

/// The switch instance name: `st2_sw3`.
pub fn switch_instance(stage: u32, switch: usize) -> String {
    format!("st{stage}_sw{switch}")
}

/// Runs `$body` with the const generic `$M` equal to the runtime `$m` (1..=12).
macro_rules! with_m {
    ($m:expr, $M:ident => $body:expr) => {
        match $m {
            1 => {
                const $M: usize = 1;
                $body
            }
            2 => {
                const $M: usize = 2;
                $body
            }
            3 => {
                const $M: usize = 3;
                $body
            }
            4 => {
                const $M: usize = 4;
                $body
            }
            5 => {
                const $M: usize = 5;
                $body
            }
            6 => {
                const $M: usize = 6;
                $body
            }
            7 => {
                const $M: usize = 7;
                $body
            }
            8 => {
                const $M: usize = 8;
                $body
            }
            9 => {
                const $M: usize = 9;
                $body
            }
            10 => {
                const $M: usize = 10;
                $body
            }
            11 => {
                const $M: usize = 11;
                $body
            }
            12 => {
                const $M: usize = 12;
                $body
            }
            m => unreachable!("m = {m} passed Min validation"),
        }
    };
}

/// Builds the design of `min` with frames of `m + message_bits` bit-times.
pub fn build(min: &Min, message_bits: u32) -> Result<MinRtl, MinRtlError> {
    let format = FrameFormat::new(min, message_bits)?;
    let (n, m, half) = (min.n(), min.m() as usize, min.switches_per_stage());
    let shifter = TagShifter::for_min(min).expect("the three networks' tags rotate");
    let top = top_name(min, message_bits);
    let mut design = Design::new(&top);
    design
        .param("network", min.network())
        .param("m", m)
        .param("n", n)
        .param("message_bits", message_bits)
        .param("frame_bits", format.len());

    // Leaf blocks, in a fixed order (shared DFF modules are named after the first).
    let switch = add_block(&mut design, "min_switch_2x2", &mut MinSwitch::default())?;
    let any = add_block(
        &mut design,
        &format!("min_any_of_{half}"),
        &mut AnyOf::new(half),
    )?;
    let unit_name = format!("atape_unit_m{m}_tap{}_rot{}", shifter.tap, shifter.rot);
    let ctrl_name = format!("atape_ctrl_m{m}_f{}", format.len());
    with_m!(m, M => {
        add_block(&mut design, &unit_name, &mut AtapeUnit::<M>::new(shifter.tap, shifter.rot))?;
        add_block(&mut design, &ctrl_name, &mut AtapeController::<M>::new(format.len()))?;
    });
    let module = |name: &str| design.module(name).expect("just added").clone();
    let (switch, any, unit, ctrl) = (
        module(&switch),
        module(&any),
        module(&unit_name),
        module(&ctrl_name),
    );

    let mut b = ModuleBuilder::new(&top);
    b.input("clock", 1)
        .input("reset", 1)
        .input("start", 1)
        .input("single", 1)
        .input("first", n * m)
        .input("din", n)
        .output("dout", n)
        .output("dst", n * m)
        .output("busy", 1)
        .output("sending", 1)
        .output("frame", m)
        .output("pos", 16)
        .output("conflict", m)
        .output("sw_crossed", m * half)
        .output("sw_conflict", m * half);

    b.instance_of("ctrl", &ctrl)
        .pin("clock", "clock")
        .pin("reset", "reset")
        .pin("start", "start")
        .pin("single", "single");
    let c = |port: &str| Expr::sig(names::output_net("ctrl", port));
    for j in 0..n {
        b.instance_of(format!("pe{j}"), &unit)
            .pin("clock", "clock")
            .pin("reset", "reset")
            .pin("load", c("load"))
            .pin("next", c("next"))
            .pin("hdr", c("hdr"))
            .pin("pay", c("pay"))
            .pin("flip", c("flip"))
            .pin("first", Expr::slice("first", j * m + m - 1, j * m))
            .pin("din", Expr::bit("din", j));
    }

    // x[a] = the net carrying input position a of the current stage.
    let mut x = vec![String::new(); n];
    for j in 0..n {
        x[min.entry(j)] = names::output_net(&format!("pe{j}"), "tx");
    }
    for s in 0..m {
        let mut y = vec![String::new(); n];
        let mut any_inst = b.instance_of(format!("st{s}_any"), &any);
        for k in 0..half {
            let sw = switch_instance(s as u32, k);
            any_inst = any_inst.pin(format!("x_{k}"), names::output_net(&sw, "conflict"));
        }
        for k in 0..half {
            let sw = switch_instance(s as u32, k);
            b.instance_of(&sw, &switch)
                .pin("clock", "clock")
                .pin("reset", "reset")
                .pin("dec", c(&format!("dec_{s}")))
                .pin("in0", Expr::sig(&x[2 * k]))
                .pin("in1", Expr::sig(&x[2 * k + 1]));
            y[min.link(s as u32, 2 * k)] = names::output_net(&sw, "out0");
            y[min.link(s as u32, 2 * k + 1)] = names::output_net(&sw, "out1");
        }
        x = y;
    }

    // Top-level outputs (concatenations are most significant first).
    b.assign("dout", Expr::concat(x.iter().rev().map(Expr::sig)));
    b.assign(
        "dst",
        Expr::concat(
            (0..n)
                .rev()
                .map(|j| Expr::sig(names::output_net(&format!("pe{j}"), "dst"))),
        ),
    );
    b.assign(
        "conflict",
        Expr::concat(
            (0..m)
                .rev()
                .map(|s| Expr::sig(names::output_net(&format!("st{s}_any"), "y"))),
        ),
    );
    // Switch k of stage s is bit s·n/2 + k of the observation buses.
    for (port, out) in [("sw_crossed", "crossed"), ("sw_conflict", "conflict")] {
        let bits = (0..m).rev().flat_map(|s| {
            (0..half)
                .rev()
                .map(move |k| Expr::sig(names::output_net(&switch_instance(s as u32, k), out)))
        });
        b.assign(port, Expr::concat(bits));
    }
    for port in ["busy", "sending", "frame", "pos"] {
        b.assign(port, c(port));
    }
    design.add_module(b.build())?;
    design.validate().map_err(NetlistError::from)?;
    Ok(MinRtl { design, top })
}
