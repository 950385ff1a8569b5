//! Top-level ports of a Verilated model.
//!
//! The port list is taken from Verilator itself: after `verilator --cc`, the generated
//! `V<top>.h` declares every top port with a `VL_IN8(&name,msb,lsb)`-style macro, so widths
//! are already elaborated (parameters, expressions) and names carry Verilator's C++ encoding,
//! which [`decode_name`] reverses. A caller may pass the port list it expects (the emitter
//! knows it); the build then checks it against Verilator's.

use serde::{Deserialize, Serialize};

/// Direction of a top port.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Direction {
    /// Driven by the testbench.
    Input,
    /// Driven by the design.
    Output,
}

/// A top-level port: Verilog name, direction and width in bits.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PortSpec {
    /// The Verilog name.
    pub name: String,
    /// Input or output.
    pub dir: Direction,
    /// Width in bits (>= 1).
    pub width: u32,
}

impl PortSpec {
    /// A port named `name`.
    pub fn new(name: impl Into<String>, dir: Direction, width: u32) -> Self {
        PortSpec {
            name: name.into(),
            dir,
            width,
        }
    }

    /// Number of 32-bit words holding a value of this port.
    pub fn words(&self) -> usize {
        words_for(self.width)
    }
}

/// Number of 32-bit words for `width` bits (at least one).
pub fn words_for(width: u32) -> usize {
    (width.max(1) as usize).div_ceil(32)
}

/// How Verilator stores a port in the model class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Storage {
    /// `CData` (up to 8 bits).
    C8,
    /// `SData` (up to 16 bits).
    S16,
    /// `IData` (up to 32 bits).
    I32,
    /// `QData` (up to 64 bits).
    Q64,
    /// `VlWide<words>` of 32-bit words.
    Wide,
}

/// A port as declared in `V<top>.h`: its spec plus the C++ member name and storage.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeaderPort {
    /// Name, direction, width.
    pub spec: PortSpec,
    /// The C++ member name (Verilator-encoded).
    pub member: String,
    /// The member's storage type.
    pub storage: Storage,
}

/// Parses the `VL_IN*`/`VL_OUT*` port declarations of a Verilator-generated `V<top>.h`.
/// `VL_INOUT*` ports are rejected: bidirectional top ports are not supported by the bridge.
pub fn parse_verilated_header(text: &str) -> Result<Vec<HeaderPort>, String> {
    let mut ports = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if !line.starts_with("VL_IN") && !line.starts_with("VL_OUT") {
            continue;
        }
        let open = line
            .find('(')
            .ok_or_else(|| format!("no '(' in {line:?}"))?;
        let close = line
            .rfind(')')
            .ok_or_else(|| format!("no ')' in {line:?}"))?;
        let macro_name = &line[..open];
        let args: Vec<&str> = line[open + 1..close].split(',').map(str::trim).collect();
        let (dir, kind) = if let Some(k) = macro_name.strip_prefix("VL_INOUT") {
            return Err(format!(
                "inout port in {line:?} ({k}): the bridge supports input and output top ports only"
            ));
        } else if let Some(k) = macro_name.strip_prefix("VL_IN") {
            (Direction::Input, k)
        } else if let Some(k) = macro_name.strip_prefix("VL_OUT") {
            (Direction::Output, k)
        } else {
            continue;
        };
        let storage = match kind {
            "8" => Storage::C8,
            "16" => Storage::S16,
            "" => Storage::I32,
            "64" => Storage::Q64,
            "W" => Storage::Wide,
            other => return Err(format!("unknown port macro VL_*{other} in {line:?}")),
        };
        if args.len() < 3 {
            return Err(format!("expected (&name,msb,lsb) in {line:?}"));
        }
        let member = args[0].trim_start_matches('&').to_string();
        let msb: i64 = args[1]
            .parse()
            .map_err(|_| format!("bad msb in {line:?}"))?;
        let lsb: i64 = args[2]
            .parse()
            .map_err(|_| format!("bad lsb in {line:?}"))?;
        let width =
            u32::try_from((msb - lsb).abs() + 1).map_err(|_| format!("bad width in {line:?}"))?;
        ports.push(HeaderPort {
            spec: PortSpec::new(decode_name(&member), dir, width),
            member,
            storage,
        });
    }
    if ports.is_empty() {
        return Err("no VL_IN*/VL_OUT* port declarations found".to_string());
    }
    Ok(ports)
}

/// Reverses Verilator's identifier encoding: `__0XX` (two hex digits) is the byte `XX`
/// (`a___05Fb` is `a__b`, `x__024y` is `x$y`).
pub fn decode_name(encoded: &str) -> String {
    let b = encoded.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"__0") && i + 5 <= b.len() {
            let hex = &b[i + 3..i + 5];
            if hex.iter().all(u8::is_ascii_hexdigit) {
                let text = std::str::from_utf8(hex).unwrap_or("00");
                out.push(u8::from_str_radix(text, 16).unwrap_or(0));
                i += 5;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Compares the caller's expected ports with Verilator's, describing every difference.
pub fn check_expected(expected: &[PortSpec], actual: &[PortSpec]) -> Result<(), String> {
    let mut problems = Vec::new();
    for e in expected {
        match actual.iter().find(|a| a.name == e.name) {
            None => problems.push(format!("port `{}` is not a top port", e.name)),
            Some(a) if a != e => problems.push(format!(
                "port `{}`: expected {:?} {} bit(s), Verilator has {:?} {} bit(s)",
                e.name, e.dir, e.width, a.dir, a.width
            )),
            Some(_) => {}
        }
    }
    for a in actual {
        if !expected.iter().any(|e| e.name == a.name) {
            problems.push(format!(
                "top port `{}` is missing from the expected list",
                a.name
            ));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_verilator_names() {
        assert_eq!(decode_name("a___05Fb"), "a__b");
        assert_eq!(decode_name("x__024y"), "x$y");
        assert_eq!(decode_name("plain_name"), "plain_name");
        assert_eq!(decode_name("end__0"), "end__0");
    }

    #[test]
    fn parses_header_macros() {
        let h = "    VL_IN8(&clk,0,0);\n    VL_OUT16(&q,9,0);\n    VL_IN(&a,31,0);\n    \
                 VL_OUT64(&b,63,0);\n    VL_INW(&w,129,0,5);\n    VL_IN8(&a___05Fb,0,0);\n";
        let p = parse_verilated_header(h).unwrap();
        let got: Vec<(&str, Direction, u32, Storage)> = p
            .iter()
            .map(|p| (p.spec.name.as_str(), p.spec.dir, p.spec.width, p.storage))
            .collect();
        assert_eq!(
            got,
            vec![
                ("clk", Direction::Input, 1, Storage::C8),
                ("q", Direction::Output, 10, Storage::S16),
                ("a", Direction::Input, 32, Storage::I32),
                ("b", Direction::Output, 64, Storage::Q64),
                ("w", Direction::Input, 130, Storage::Wide),
                ("a__b", Direction::Input, 1, Storage::C8),
            ]
        );
        assert_eq!(p[5].member, "a___05Fb");
        assert!(parse_verilated_header("VL_INOUT8(&x,0,0);").is_err());
        assert!(parse_verilated_header("nothing here").is_err());
    }

    #[test]
    fn expected_ports_are_checked() {
        let a = vec![PortSpec::new("x", Direction::Input, 3)];
        assert!(check_expected(&a, &a).is_ok());
        let e = vec![PortSpec::new("x", Direction::Input, 4)];
        assert!(check_expected(&e, &a)
            .unwrap_err()
            .contains("expected Input 4"));
    }
}
