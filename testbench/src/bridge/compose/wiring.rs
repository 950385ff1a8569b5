//! The wiring tables of a composed model, computed from the top module's netlist: every
//! bit that some instance or the test bench drives gets a *slot* (top input bits first, then
//! each instance's output bits), and every bit that is read (instance input pins, top
//! outputs, named top-level nets) is resolved through the top's assigns to a slot or a
//! constant. Assigns in a structural top are pure wiring, so they vanish here.

use std::collections::{BTreeMap, HashMap};

use lcanet_hdl::netlist::{Body, Direction as NetDir, Expr, Module};

use crate::bridge::error::BridgeError;
use crate::bridge::ports::{Direction, PortSpec};

/// Where a bit's value comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Src {
    /// A slot of the model's bit array.
    Slot(u32),
    /// A constant bit (undriven bits read as 0, as in Verilator).
    Const(bool),
}

/// One port of a block module as the wiring sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockPort {
    /// Port name.
    pub name: String,
    /// Direction.
    pub dir: Direction,
    /// Width in bits (at most 64).
    pub width: u32,
}

/// One pin of an instance: the block port index and its bits, least significant first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PinBits<T> {
    /// Index into the block module's port list.
    pub port: u32,
    /// One entry per bit.
    pub bits: Vec<T>,
}

/// One instance of a block module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstanceWiring {
    /// Instance name in the top module.
    pub name: String,
    /// Index into [`Wiring::blocks`].
    pub block: usize,
    /// Input pins: what each bit reads.
    pub inputs: Vec<PinBits<Src>>,
    /// Output pins: the slot each bit drives.
    pub outputs: Vec<PinBits<u32>>,
}

/// Everything the glue needs, in plain tables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wiring {
    /// Top module name.
    pub top: String,
    /// Top ports, in declaration order.
    pub ports: Vec<PortSpec>,
    /// Per top port: inputs, its slots; outputs, what each bit reads.
    pub port_bits: Vec<Vec<Src>>,
    /// The distinct block modules, in order of first instantiation, with their ports.
    pub blocks: Vec<(String, Vec<BlockPort>)>,
    /// Every instance, in the top's order.
    pub instances: Vec<InstanceWiring>,
    /// Top-level nets readable by name (`lcanet_signal_find`), with their bits.
    pub nets: Vec<(String, Vec<Src>)>,
    /// Number of slots.
    pub slots: u32,
}

/// A driver of one bit of a top-level signal.
#[derive(Debug, Clone)]
enum Driver {
    Src(Src),
    Alias(BitRef),
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum BitRef {
    Sig(String, usize),
    Const(bool),
}

fn err(msg: String) -> BridgeError {
    BridgeError::Design(format!("composed build: {msg}"))
}

/// The bits of `e`, least significant first.
fn expr_bits(e: &Expr, widths: &HashMap<&str, usize>) -> Result<Vec<BitRef>, BridgeError> {
    Ok(match e {
        Expr::Signal(s) => {
            let w = *widths
                .get(s.as_str())
                .ok_or_else(|| err(format!("unknown signal `{s}`")))?;
            (0..w).map(|i| BitRef::Sig(s.clone(), i)).collect()
        }
        Expr::Slice { signal, msb, lsb } => (*lsb..=*msb)
            .map(|i| BitRef::Sig(signal.clone(), i))
            .collect(),
        Expr::Const { width, words } => (0..*width)
            .map(|i| BitRef::Const(words.get(i / 64).is_some_and(|w| (w >> (i % 64)) & 1 == 1)))
            .collect(),
        Expr::Concat(parts) => {
            let mut out = Vec::new();
            for p in parts.iter().rev() {
                out.extend(expr_bits(p, widths)?);
            }
            out
        }
    })
}

/// The wiring of `top`, whose instances are of the modules `modules` (looked up by name).
pub fn wiring(
    top: &Module,
    modules: &dyn Fn(&str) -> Option<Module>,
) -> Result<Wiring, BridgeError> {
    let Body::Structural(body) = &top.body else {
        return Err(err(format!("top module `{}` is not structural", top.name)));
    };
    let mut widths: HashMap<&str, usize> = HashMap::new();
    let mut ports = Vec::new();
    for p in &top.ports {
        if p.width > 64 {
            return Err(err(format!(
                "top port `{}` is {} bits wide; at most 64 are supported",
                p.name, p.width
            )));
        }
        widths.insert(&p.name, p.width);
        let dir = match p.direction {
            NetDir::Input => Direction::Input,
            NetDir::Output => Direction::Output,
        };
        ports.push(PortSpec::new(p.name.clone(), dir, p.width as u32));
    }
    for n in &body.nets {
        widths.insert(&n.name, n.width);
    }

    let mut drivers: HashMap<BitRef, Driver> = HashMap::new();
    let mut slots = 0u32;
    let mut port_bits: Vec<Vec<Src>> = vec![Vec::new(); ports.len()];
    for (k, p) in top.ports.iter().enumerate() {
        if p.direction == NetDir::Input {
            for b in 0..p.width {
                drivers.insert(
                    BitRef::Sig(p.name.clone(), b),
                    Driver::Src(Src::Slot(slots)),
                );
                port_bits[k].push(Src::Slot(slots));
                slots += 1;
            }
        }
    }

    let mut blocks: Vec<(String, Vec<BlockPort>)> = Vec::new();
    let mut block_index: BTreeMap<String, usize> = BTreeMap::new();
    let mut instances = Vec::new();
    // Input pins are resolved once every driver is known.
    let mut pending: Vec<Vec<(u32, Vec<BitRef>)>> = Vec::new();
    for inst in &body.instances {
        let b = match block_index.get(&inst.module) {
            Some(&b) => b,
            None => {
                let m = modules(&inst.module)
                    .ok_or_else(|| err(format!("no module `{}`", inst.module)))?;
                let mut bp = Vec::new();
                for p in &m.ports {
                    if p.width > 64 {
                        return Err(err(format!(
                            "port `{}` of `{}` is {} bits wide; at most 64 are supported",
                            p.name, m.name, p.width
                        )));
                    }
                    bp.push(BlockPort {
                        name: p.name.clone(),
                        dir: match p.direction {
                            NetDir::Input => Direction::Input,
                            NetDir::Output => Direction::Output,
                        },
                        width: p.width as u32,
                    });
                }
                blocks.push((inst.module.clone(), bp));
                block_index.insert(inst.module.clone(), blocks.len() - 1);
                blocks.len() - 1
            }
        };
        let bports = &blocks[b].1;
        let mut outputs = Vec::new();
        let mut ins = Vec::new();
        for pin in &inst.pins {
            let k = bports
                .iter()
                .position(|p| p.name == pin.port)
                .ok_or_else(|| err(format!("`{}` has no port `{}`", inst.module, pin.port)))?;
            let bp = &bports[k];
            let bits = match &pin.expr {
                Some(e) => expr_bits(e, &widths)?,
                None => Vec::new(),
            };
            match bp.dir {
                Direction::Output => {
                    let mut out = Vec::new();
                    for i in 0..bp.width as usize {
                        let s = slots;
                        slots += 1;
                        if let Some(BitRef::Sig(name, bit)) = bits.get(i) {
                            let key = BitRef::Sig(name.clone(), *bit);
                            if drivers.insert(key, Driver::Src(Src::Slot(s))).is_some() {
                                return Err(err(format!(
                                    "bit {bit} of `{name}` has more than one driver"
                                )));
                            }
                        }
                        out.push(s);
                    }
                    outputs.push(PinBits {
                        port: k as u32,
                        bits: out,
                    });
                }
                Direction::Input => ins.push((k as u32, bits)),
            }
        }
        pending.push(ins);
        instances.push(InstanceWiring {
            name: inst.name.clone(),
            block: b,
            inputs: Vec::new(),
            outputs,
        });
    }
    for a in &body.assigns {
        let lhs = expr_bits(&a.lhs, &widths)?;
        let rhs = expr_bits(&a.rhs, &widths)?;
        for (l, r) in lhs.into_iter().zip(rhs) {
            if let BitRef::Sig(name, bit) = &l {
                if drivers.insert(l.clone(), Driver::Alias(r)).is_some() {
                    return Err(err(format!(
                        "bit {bit} of `{name}` has more than one driver"
                    )));
                }
            }
        }
    }

    let resolve = |b: &BitRef| -> Result<Src, BridgeError> {
        let mut cur = b.clone();
        for _ in 0..=drivers.len() {
            match &cur {
                BitRef::Const(v) => return Ok(Src::Const(*v)),
                BitRef::Sig(..) => match drivers.get(&cur) {
                    None => return Ok(Src::Const(false)),
                    Some(Driver::Src(s)) => return Ok(*s),
                    Some(Driver::Alias(next)) => cur = next.clone(),
                },
            }
        }
        Err(err(format!("assigns form a loop at {b:?}")))
    };

    for (inst, ins) in instances.iter_mut().zip(pending) {
        let bports = &blocks[inst.block].1;
        for (k, bits) in ins {
            let w = bports[k as usize].width as usize;
            let mut v = Vec::with_capacity(w);
            for i in 0..w {
                v.push(match bits.get(i) {
                    Some(b) => resolve(b)?,
                    None => Src::Const(false),
                });
            }
            inst.inputs.push(PinBits { port: k, bits: v });
        }
    }
    for (k, p) in top.ports.iter().enumerate() {
        if p.direction == NetDir::Output {
            for b in 0..p.width {
                port_bits[k].push(resolve(&BitRef::Sig(p.name.clone(), b))?);
            }
        }
    }
    let mut nets = Vec::new();
    for n in &body.nets {
        let bits = (0..n.width)
            .map(|b| resolve(&BitRef::Sig(n.name.clone(), b)))
            .collect::<Result<Vec<_>, _>>()?;
        nets.push((n.name.clone(), bits));
    }
    Ok(Wiring {
        top: top.name.clone(),
        ports,
        port_bits,
        blocks,
        instances,
        nets,
        slots,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use lcanet_hdl::netlist::ModuleBuilder;

    fn leaf() -> Module {
        let mut b = ModuleBuilder::new("inv");
        b.input("a", 2).output("y", 2);
        b.build()
    }

    #[test]
    fn assigns_are_resolved_to_slots_and_constants() {
        let inv = leaf();
        let mut t = ModuleBuilder::new("top");
        t.input("x", 1).output("z", 2);
        t.instance_of("u0", &inv)
            .pin("a", Expr::concat([Expr::constant(1, 1), Expr::sig("x")]));
        t.assign(Expr::sig("z"), Expr::sig("u0_y"));
        let top = t.build();
        let w = wiring(&top, &|n| (n == "inv").then(|| inv.clone())).unwrap();
        // x -> slot 0; u0.y -> slots 1, 2.
        assert_eq!(w.slots, 3);
        assert_eq!(
            w.instances[0].inputs[0].bits,
            [Src::Slot(0), Src::Const(true)]
        );
        assert_eq!(w.instances[0].outputs[0].bits, [1, 2]);
        assert_eq!(w.port_bits[1], [Src::Slot(1), Src::Slot(2)]);
    }
}
