//! A node router of the quadratic cube (`hc_quad_node_k{K}_l{L}`, `docs/hypercube.md`
//! §14.2): the `k` loop units `u0 … u{k-1}` chained by their hand-off (unit 0 takes the
//! PE's message when a batch is taken, unit `j` unit `j − 1`'s A and `va`), and the output
//! register (`rv`, `rp`) that latches the last unit's result once its cross is over.
//!
//! Ports, one per quantity: the cross strobes as `k`-bit vectors and the loop strobes
//! as `(k−1)`-bit vectors (bit `j` for unit `j`), the loop vectors `sel`, `sclr`, `ewin`
//! (unit `j`'s `f_j` bits at [`loop_offset`]), the node's wires `dim_in`/`dim_out`
//! (`k(k+1)/2` bits: unit `j`'s at [`wire_offset`], its cross wire first), `rx_bit[k]`
//! (unit `j`'s delivery register; bit `k−1` is 0: the last unit has no pipeline).

use super::control::{loop_names, CROSS, VECTORS};
use super::unit::unit;
use super::{f_of, loop_bits, loop_offset, wire_offset, wires_per_node};
use crate::hypercube::Router;
use crate::netlist::{cat, names, or_all, zero, Module, ModuleBuilder, V};
use lcanet_sim::hypercube::CubeParams;

/// The node router of the quadratic `k`-cube, and its unit modules (one per `j`).
pub fn node(p: CubeParams) -> (Module, Vec<Module>) {
    let (k, l, msg) = (p.k(), p.payload_bits(), p.message_bits());
    let units: Vec<Module> = (0..k).map(|j| unit(p, j)).collect();
    let mut m = ModuleBuilder::new(Router::Quadratic.node_name(p));
    let clock = m.clock();
    let load = m.input("load", 1);
    let clear = m.input("clear", 1);
    let take = m.input("take", 1);
    let latch = m.input("latch", 1);
    let cross: Vec<(&str, V)> = CROSS.iter().map(|&n| (n, m.input(n, k))).collect();
    let loops: Vec<(&str, V)> = if k > 1 {
        loop_names()
            .into_iter()
            .map(|n| (n, m.input(n, k - 1)))
            .collect()
    } else {
        Vec::new()
    };
    let vectors: Vec<(&str, V)> = if k > 1 {
        VECTORS
            .iter()
            .map(|&n| (n, m.input(n, loop_bits(p))))
            .collect()
    } else {
        Vec::new()
    };
    let my_addr = m.input("my_addr", k);
    let send = m.input("send", 1);
    let dest = m.input("dest", k);
    let payload = m.input("payload", l);
    let dim_in = m.input("dim_in", wires_per_node(p));
    let dim_out = m.output("dim_out", wires_per_node(p));
    let rx_bit = m.output("rx_bit", k);
    let rx_valid = m.output("rx_valid", 1);
    let rx_payload = m.output("rx_payload", l);
    let collision = m.output("collision", 1);

    m.comment("Output register: the last unit's result, latched after its cross");
    let rv = m.reg("rv", 1);
    let rp = m.reg("rp", l);

    m.comment("The loop units, unit j handing its A and va to unit j + 1");
    let out =
        |j: usize, port: &str, w: usize| V::signal(names::output_net(&format!("u{j}"), port), w);
    let mut delivered = Vec::new();
    let mut collisions = Vec::new();
    let mut outs = Vec::new();
    for (j, um) in units.iter().enumerate() {
        let f = f_of(p, j);
        let (a_prev, va_prev) = if j == 0 {
            (cat([payload.clone(), dest.clone()]), &send & &take)
        } else {
            (out(j - 1, "a_out", msg), out(j - 1, "va_out", 1))
        };
        let (inst, _) = m.instance_of(format!("u{j}"), um);
        let mut inst = inst
            .pin("clock", &clock)
            .pin("load", &load)
            .pin("my_addr", my_addr.bits(k - 1, j))
            .pin("a_prev", a_prev)
            .pin("va_prev", va_prev)
            .pin("dim_in", dim_in.part(wire_offset(p, j), f + 1));
        for (n, v) in &cross {
            inst = inst.pin(*n, v.bit(j));
        }
        if f > 0 {
            inst = inst.pin("clear", &clear);
            for (n, v) in &loops {
                inst = inst.pin(*n, v.bit(j));
            }
            for (n, v) in &vectors {
                inst = inst.pin(*n, v.part(loop_offset(p, j), f));
            }
            delivered.push(out(j, "rx_bit", 1));
            collisions.push(out(j, "collision", 1));
        }
        outs.push(out(j, "dim_out", f + 1));
    }
    m.assign(&dim_out, cat(outs.into_iter().rev()));
    let last_payload = out(k - 1, "result", l);
    let last_va = out(k - 1, "va_out", 1);
    m.assign(
        &rx_bit,
        cat(std::iter::once(zero(1)).chain(delivered.into_iter().rev())),
    );
    m.assign(&rx_valid, &rv);
    m.assign(&rx_payload, &rp);
    m.assign(&collision, or_all(1, collisions));
    m.always(|pr| {
        pr.if_(&clear, |pr| {
            pr.load(&rv, zero(1));
            pr.load(&rp, zero(l));
        })
        .elif(&latch, |pr| {
            pr.load(&rv, &last_va);
            pr.load(&rp, &last_payload & last_va.repeat(l));
        });
    });
    (m.build(), units)
}
