//! Small text builders shared by the formal harnesses: slices and rows of vectors, "at most
//! one", OR and priority choices written out as SystemVerilog expressions, and the
//! [`Text`] accumulator whose [`Text::check`] states an assertion as a named wire (so a
//! counterexample trace shows which one fails).

use crate::netlist::{Direction, Module};

/// `sig[lsb +: width]` as a static slice.
pub(crate) fn sl(sig: &str, lsb: usize, width: usize) -> String {
    if width == 1 {
        format!("{sig}[{lsb}]")
    } else {
        format!("{sig}[{}:{lsb}]", lsb + width - 1)
    }
}

/// Row `i` of a vector of `len`-bit rows.
pub(crate) fn row(sig: &str, i: usize, len: usize) -> String {
    sl(sig, i * len, len)
}

/// "At most one of `bits` is 1", pairwise.
pub(crate) fn at_most_one(bits: &[String]) -> String {
    let mut pairs = Vec::new();
    for i in 0..bits.len() {
        for j in i + 1..bits.len() {
            pairs.push(format!("({} & {})", bits[i], bits[j]));
        }
    }
    if pairs.is_empty() {
        "1'b1".into()
    } else {
        format!("!({})", pairs.join(" | "))
    }
}

/// The OR of `terms` (`width` bits), zero if there are none.
pub(crate) fn or_of(terms: &[String], width: usize) -> String {
    if terms.is_empty() {
        format!("{width}'d0")
    } else {
        format!("({})", terms.join(" | "))
    }
}

/// The AND of 1-bit `terms`, true if there are none.
pub(crate) fn and_of(terms: &[String]) -> String {
    if terms.is_empty() {
        "1'b1".into()
    } else {
        format!("({})", terms.join(" && "))
    }
}

/// A priority choice: the value of the first true condition, zero if none.
pub(crate) fn first_of(cases: &[(String, String)], width: usize) -> String {
    let mut s = format!("{width}'d0");
    for (cond, val) in cases.iter().rev() {
        s = format!("({cond} ? {val} : {s})");
    }
    s
}

/// `v` (`width` bits) at bit `lsb` of a `total`-bit value, zeros elsewhere.
pub(crate) fn place(v: &str, width: usize, lsb: usize, total: usize) -> String {
    let mut parts = Vec::new();
    let above = total - lsb - width;
    if above > 0 {
        parts.push(format!("{above}'d0"));
    }
    parts.push(v.to_string());
    if lsb > 0 {
        parts.push(format!("{lsb}'d0"));
    }
    format!("{{{}}}", parts.join(", "))
}

/// Concatenation of rows `n-1 … 0`.
pub(crate) fn rows(n: usize, f: impl Fn(usize) -> String) -> String {
    let parts: Vec<String> = (0..n).rev().map(f).collect();
    format!("{{{}}}", parts.join(", "))
}

/// The number of 1 bits among `bits`, as a `width`-bit sum.
pub(crate) fn count_ones(bits: &[String], width: usize) -> String {
    if bits.is_empty() {
        return format!("{width}'d0");
    }
    let terms: Vec<String> = bits
        .iter()
        .map(|b| format!("{{{}'d0, {b}}}", width - 1))
        .collect();
    format!("({})", terms.join(" + "))
}

/// A `width`-bit literal of the bits `value(i)`, `i = 0..width` (any width).
pub(crate) fn literal(width: usize, value: impl Fn(usize) -> bool) -> String {
    let bits: String = (0..width)
        .rev()
        .map(|i| if value(i) { '1' } else { '0' })
        .collect();
    format!("{width}'b{bits}")
}

/// A harness under construction; `.1` numbers the assertion wires.
pub(crate) struct Text(pub String, pub usize);

impl Text {
    /// An empty text.
    pub(crate) fn new() -> Self {
        Text(String::new(), 0)
    }
    /// Appends a line.
    pub(crate) fn line(&mut self, s: impl AsRef<str>) {
        self.0.push_str(s.as_ref());
        self.0.push('\n');
    }
    /// An assertion, as a named wire `chk_<n>_<name>` (1 while it holds; a counterexample
    /// trace shows which one fails) and the `assert` of that wire.
    pub(crate) fn check(&mut self, name: &str, guard: Option<String>, expr: String) {
        let slug: String = name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let wire = format!("chk_{}_{slug}", self.1);
        self.1 += 1;
        let value = match guard {
            Some(g) => format!("!({g}) || ({expr})"),
            None => expr,
        };
        self.line(format!("    wire {wire} = {value}; // {name}"));
        self.line(format!("    always @* assert({wire});"));
    }

    /// Declares the `outputs` (`(net, width)`) and `exposed` wires of a block instance
    /// and instantiates `module` as `inst`: the inputs `inputs` connected to the
    /// harness's nets of the same names, then `pins` (`.port(net)` pairs), then every
    /// exposed signal to its wire of the same name.
    /// An instance `inst` of `module` with every port on the net of its name, its
    /// outputs declared as wires.
    pub(crate) fn instance_all(&mut self, module: &Module, inst: &str) {
        let ports = |dir: Direction| {
            module
                .ports
                .iter()
                .filter(move |q| q.direction == dir)
                .map(|q| (q.name.as_str(), q.width))
        };
        let inputs: Vec<&str> = ports(Direction::Input).map(|(n, _)| n).collect();
        let outputs: Vec<(&str, usize)> = ports(Direction::Output).collect();
        let pins: Vec<(&str, &str)> = outputs.iter().map(|(n, _)| (*n, *n)).collect();
        self.instance(&module.name, inst, &inputs, &outputs, &pins, &[]);
    }

    pub(crate) fn instance(
        &mut self,
        module: &str,
        inst: &str,
        inputs: &[&str],
        outputs: &[(&str, usize)],
        pins: &[(&str, &str)],
        exposed: &[(String, usize)],
    ) {
        for (n, w) in outputs
            .iter()
            .map(|(n, w)| (*n, *w))
            .chain(exposed.iter().map(|(n, w)| (n.as_str(), *w)))
        {
            self.line(format!("    wire [{}:0] {n};", w - 1));
        }
        let mut all: Vec<String> = inputs.iter().map(|p| format!(".{p}({p})")).collect();
        all.extend(pins.iter().map(|(p, n)| format!(".{p}({n})")));
        all.extend(exposed.iter().map(|(n, _)| format!(".{n}({n})")));
        self.line(format!("    {module} {inst} ("));
        self.line(format!("        {}", all.join(",\n        ")));
        self.line("    );");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_most_one_is_pairwise() {
        assert_eq!(at_most_one(&["a".into()]), "1'b1");
        assert_eq!(
            at_most_one(&["a".into(), "b".into(), "c".into()]),
            "!((a & b) | (a & c) | (b & c))"
        );
    }

    #[test]
    fn counts_and_literals() {
        assert_eq!(
            count_ones(&["a".into(), "b".into()], 3),
            "({2'd0, a} + {2'd0, b})"
        );
        assert_eq!(literal(4, |i| i == 1 || i == 3), "4'b1010");
    }
}
