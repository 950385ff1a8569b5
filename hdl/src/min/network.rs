//! Whole networks as RTL (docs/min.md §6): a baseline, omega or indirect binary n-cube
//! network, or the reverse of one, of [`switch`](super::switch())es with one ATAPE [`unit`](super::unit()) per
//! PE and a [`controller`](super::controller()), in one top module
//! `<network>_atape_m<m>_b<B>`.
//!
//! Instances: `ctrl`, `pe<j>` (ATAPE unit of PE `j`), `st<s>_sw<k>` (switch `k` of
//! stage `s`). Nets: `pe_tx[n]` (bit `j`: PE `j`'s wire into the network), `st<s>_out[n]`
//! (bit `a`: output position `a` of stage `s`, switch `k` driving `[2k +: 2]`), the
//! controller's strobes `ctrl_<port>`. The interstage wiring (004 eqs. (2)–(4)) is read
//! off these vectors by indexed parts: switch `k` of stage `s + 1` takes
//! `.in({st<s>_out[a1], st<s>_out[a0]})` where `link(s, a_p) = 2k + p`; the PE outputs
//! are `st<m-1>_out` itself, or for the reverse omega its unshuffle (a concatenation of
//! its bits). The wiring comes from [`Min::entry`] and [`Min::link`] (the topology of
//! `lcanet_sim::min`, never its routing results).

use super::{controller, controller_name, switch, unit, unit_name, POS_BITS};
use crate::netlist::{cat, names, Design, ModuleBuilder, NetlistError, V};
use lcanet_sim::min::frame::FrameFormat;
use lcanet_sim::min::hw::TagShifter;
use lcanet_sim::min::{Min, MinError, Network};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Why a network could not be generated.
#[derive(Debug, thiserror::Error)]
pub enum MinRtlError {
    /// The parameters are invalid.
    #[error(transparent)]
    Params(#[from] MinError),
    /// The netlist was rejected (a bug in the assembly).
    #[error("internal error assembling the MIN netlist: {0}")]
    Netlist(#[from] NetlistError),
    /// The generator failed (a bug: a width mismatch or an impossible parameter).
    #[error("internal error generating the MIN: {0}")]
    Internal(String),
}

/// One generated network.
#[derive(Debug, Clone)]
pub struct MinRtl {
    /// The design, validated, ready for `emit()`.
    pub design: Design,
    /// The top module: `<network>_atape_m<m>_b<B>`.
    pub top: String,
}

/// The top module's name for `min` and `B` payload bits: `omega_atape_m3_b8`,
/// `reverse_omega_atape_m3_b8`.
pub fn top_name(min: &Min, message_bits: u32) -> String {
    format!(
        "{}_atape_m{}_b{}",
        min.network().ident(),
        min.m(),
        message_bits
    )
}

/// The switch instance name: `st2_sw3`.
pub fn switch_instance(stage: u32, switch: usize) -> String {
    format!("st{stage}_sw{switch}")
}

/// The net of stage `s`'s output positions: `st2_out`.
pub fn stage_net(stage: u32) -> String {
    format!("st{stage}_out")
}

/// Builds the design of `min` with frames of `m + message_bits` bit-times and validates
/// it. Invalid parameters are [`MinRtlError::Params`]; anything else is a generator bug,
/// reported as an internal error (a panic of the builder included), never a crash.
pub fn build(min: &Min, message_bits: u32) -> Result<MinRtl, MinRtlError> {
    let format = FrameFormat::new(min, message_bits)?;
    let shifter = TagShifter::for_min(min).ok_or_else(|| {
        MinRtlError::Internal(format!("the tag bits of {min} are not a rotation"))
    })?;
    let design =
        catch_unwind(AssertUnwindSafe(|| assemble(min, format, shifter))).map_err(|panic| {
            MinRtlError::Internal(
                panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "(no message)".to_owned()),
            )
        })??;
    design.validate().map_err(NetlistError::from)?;
    Ok(MinRtl {
        top: design.top().to_string(),
        design,
    })
}

/// Two bits of `src` as a switch input: `{src[a1], src[a0]}` (or `src[a0 +: 2]`).
fn pair(src: &V, a0: usize, a1: usize) -> V {
    if a1 == a0 + 1 {
        src.part(a0, 2)
    } else {
        cat([src.bit(a1), src.bit(a0)])
    }
}

/// The comment above stage `s`: where its input positions come from (004 eqs. (2)-(4),
/// and their inverses in reverse order for the reverse networks).
fn link_comment(min: &Min, s: u32) -> String {
    let m = min.m();
    let (p, q) = (s.saturating_sub(1), m.saturating_sub(1 + s));
    match (min.network(), s) {
        (Network::Omega, 0) => {
            "Stage 0: PE j enters at position shuffle(j) (rotate left), from pe_tx".into()
        }
        (_, 0) => "Stage 0: PE j enters at position j, from pe_tx".into(),
        (Network::Baseline, s) => format!(
            "Stage {s}: link pi_{p} from st{p}_out (rotate the low {} bits of the position right)",
            m - s + 1
        ),
        (Network::Omega, _) => {
            format!("Stage {s}: perfect shuffle from st{p}_out (rotate the position left)")
        }
        (Network::Cube, s) => format!(
            "Stage {s}: link tau_{p} from st{p}_out (swap bits 0 and {s} of the position)"
        ),
        (Network::ReverseBaseline, s) => format!(
            "Stage {s}: link pi_{q}^-1 from st{p}_out (rotate the low {} bits of the position left)",
            s + 1
        ),
        (Network::ReverseOmega, _) => {
            format!("Stage {s}: unshuffle from st{p}_out (rotate the position right)")
        }
        (Network::ReverseCube, s) => format!(
            "Stage {s}: link tau_{q} from st{p}_out (swap bits 0 and {} of the position)",
            q + 1
        ),
    }
}

fn assemble(min: &Min, format: FrameFormat, shifter: TagShifter) -> Result<Design, MinRtlError> {
    let (n, m, half) = (min.n(), min.m(), min.switches_per_stage());
    let w = m as usize;
    let top = top_name(min, format.message_bits);
    let mut design = Design::new(&top);
    design
        .param("network", min.network())
        .param("m", m)
        .param("n", n)
        .param("message_bits", format.message_bits)
        .param("frame_bits", format.len());
    // A bug in the fixed rust-hdl block, not in the parameters.
    let sw = switch().map_err(|e| MinRtlError::Internal(e.to_string()))?;
    let pe = unit(m, shifter);
    let ctrl = controller(m, format.len());
    debug_assert_eq!(
        (pe.name.as_str(), ctrl.name.as_str()),
        (
            unit_name(m, shifter).as_str(),
            controller_name(m, format.len()).as_str()
        )
    );
    for module in [&sw, &pe, &ctrl] {
        design.add_module(module.clone())?;
    }

    let mut b = ModuleBuilder::new(&top);
    let clock = b.clock();
    let reset = b.input("reset", 1);
    let start = b.input("start", 1);
    let single = b.input("single", 1);
    let first = b.input("first", n * w);
    let din = b.input("din", n);
    let dout = b.output("dout", n);
    let dst = b.output("dst", n * w);
    let busy = b.output("busy", 1);
    let sending = b.output("sending", 1);
    let frame = b.output("frame", w);
    let pos = b.output("pos", POS_BITS);
    let conflict = b.output("conflict", w);
    let sw_crossed = b.output("sw_crossed", w * half);
    let sw_conflict = b.output("sw_conflict", w * half);

    b.comment("Controller");
    let strobe = |b: &mut ModuleBuilder, port: &str, width: usize| {
        b.wire(names::output_net("ctrl", port), width)
    };
    let load = strobe(&mut b, "load", 1);
    let next = strobe(&mut b, "next", 1);
    let flip = strobe(&mut b, "flip", w);
    let hdr = strobe(&mut b, "hdr", 1);
    let pay = strobe(&mut b, "pay", 1);
    let dec = strobe(&mut b, "dec", w);
    b.instance("ctrl", &ctrl)
        .pin("clock", &clock)
        .pin("reset", &reset)
        .pin("start", &start)
        .pin("single", &single)
        .pin("busy", &busy)
        .pin("sending", &sending)
        .pin("frame", &frame)
        .pin("pos", &pos)
        .pin("load", &load)
        .pin("next", &next)
        .pin("flip", &flip)
        .pin("hdr", &hdr)
        .pin("pay", &pay)
        .pin("dec", &dec);

    b.comment("ATAPE units: PE j sends on pe_tx[j]");
    let pe_tx = b.wire("pe_tx", n);
    for j in 0..n {
        b.instance(format!("pe{j}"), &pe)
            .pin("clock", &clock)
            .pin("reset", &reset)
            .pin("load", &load)
            .pin("next", &next)
            .pin("hdr", &hdr)
            .pin("pay", &pay)
            .pin("flip", &flip)
            .pin("first", first.row(j, w))
            .pin("din", din.bit(j))
            .pin("tx", pe_tx.bit(j))
            .pin("dst", dst.row(j, w));
    }

    // src[b] = the bit of the previous vector feeding input position b of this stage.
    let mut src: Vec<usize> = vec![0; n];
    for j in 0..n {
        src[min.entry(j)] = j;
    }
    let mut prev = pe_tx;
    for s in 0..m {
        b.comment(link_comment(min, s));
        let out = b.wire(stage_net(s), n);
        for k in 0..half {
            let i = s as usize * half + k;
            b.instance(switch_instance(s, k), &sw)
                .pin("clock", &clock)
                .pin("reset", &reset)
                .pin("dec", dec.bit(s as usize))
                .pin("din", pair(&prev, src[2 * k], src[2 * k + 1]))
                .pin("dout", out.part(2 * k, 2))
                .pin("crossed", sw_crossed.bit(i))
                .pin("conflict", sw_conflict.bit(i));
        }
        for a in 0..n {
            src[min.link(s, a)] = a;
        }
        prev = out;
    }

    // src[q] = the output position of the last stage that is PE q.
    if (0..n).all(|q| src[q] == q) {
        b.comment("PE outputs (after the last stage, output position a is PE a)");
        b.assign(&dout, &prev);
    } else {
        b.comment(format!(
            "PE outputs: the {} after the last stage (dout[q] is the output position it takes to PE q)",
            match min.network() {
                Network::ReverseOmega => "unshuffle",
                _ => "exit link",
            }
        ));
        b.assign(&dout, cat((0..n).rev().map(|q| prev.bit(src[q]))));
    }
    b.comment("conflict[s]: some switch of stage s flags a conflict");
    b.assign(
        &conflict,
        cat((0..w).rev().map(|s| sw_conflict.row(s, half).any())),
    );
    design.add_module(b.build())?;
    Ok(design)
}
