//! A recorded run: per bit-time, the values driven on the top inputs and the expected values
//! of the top outputs (or "don't care"). The test bench writer turns it into Verilog.

use crate::bridge::{Direction, Model, PortSpec};
use crate::hex::u64_to_words;

use super::TbError;

/// Inputs and expected outputs of a run, bit-time by bit-time.
///
/// Semantics (the same as [`Model::tick`]): in bit-time `n` the inputs are applied with the
/// clock low, the clock rises, and the outputs are compared after the edge. Without a clock
/// the outputs are compared after the inputs settle.
#[derive(Debug, Clone)]
pub struct Recording {
    pub(crate) top: String,
    pub(crate) clock: Option<String>,
    pub(crate) inputs: Vec<PortSpec>,
    pub(crate) outputs: Vec<PortSpec>,
    in_words: Vec<usize>,
    out_words: Vec<usize>,
    /// Per bit-time, every input's words back to back.
    pub(crate) stim: Vec<u32>,
    /// Per bit-time, every output's words back to back.
    pub(crate) expect: Vec<u32>,
    /// Per bit-time and output: compare (true) or don't care.
    pub(crate) care: Vec<bool>,
    pub(crate) bit_times: usize,
}

impl Recording {
    /// A recording for `top` with the given non-clock `inputs` and compared `outputs`.
    pub fn new(
        top: &str,
        clock: Option<&str>,
        inputs: Vec<PortSpec>,
        outputs: Vec<PortSpec>,
    ) -> Result<Self, TbError> {
        if outputs.is_empty() {
            return Err(TbError::Recording(
                "a recording needs at least one output".into(),
            ));
        }
        if let Some(c) = clock {
            if inputs.iter().any(|p| p.name == c) {
                return Err(TbError::Recording(format!(
                    "clock `{c}` must not also be listed as a recorded input"
                )));
            }
        }
        for p in inputs.iter().chain(&outputs) {
            if p.width == 0 {
                return Err(TbError::Recording(format!("port `{}` has width 0", p.name)));
            }
            if p.name.starts_with("lcanet_") {
                return Err(TbError::Recording(format!(
                    "port `{}` collides with the test bench's `lcanet_` names",
                    p.name
                )));
            }
        }
        Ok(Recording {
            top: top.to_string(),
            clock: clock.map(str::to_string),
            in_words: inputs.iter().map(PortSpec::words).collect(),
            out_words: outputs.iter().map(PortSpec::words).collect(),
            inputs,
            outputs,
            stim: Vec::new(),
            expect: Vec::new(),
            care: Vec::new(),
            bit_times: 0,
        })
    }

    /// A recording of every top port of `model`: all inputs but `clock`, all outputs.
    pub fn for_model(model: &Model, clock: Option<&str>) -> Result<Self, TbError> {
        let (inputs, outputs): (Vec<PortSpec>, Vec<PortSpec>) = model
            .ports()
            .iter()
            .filter(|p| Some(p.name.as_str()) != clock)
            .cloned()
            .partition(|p| p.dir == Direction::Input);
        Recording::new(model.top(), clock, inputs, outputs)
    }

    /// The recorded inputs, in order.
    pub fn inputs(&self) -> &[PortSpec] {
        &self.inputs
    }

    /// The recorded outputs, in order.
    pub fn outputs(&self) -> &[PortSpec] {
        &self.outputs
    }

    /// Number of recorded bit-times.
    pub fn bit_times(&self) -> usize {
        self.bit_times
    }

    /// Records one bit-time with values of at most 64 bits (wider ports are zero-extended);
    /// `None` as an expected value means "don't care".
    pub fn push(&mut self, inputs: &[u64], expected: &[Option<u64>]) -> Result<(), TbError> {
        self.check_counts(inputs.len(), expected.len())?;
        for (v, &n) in inputs.iter().zip(&self.in_words) {
            let start = self.stim.len();
            self.stim.resize(start + n, 0);
            u64_to_words(*v, &mut self.stim[start..]);
        }
        for (v, &n) in expected.iter().zip(&self.out_words) {
            let start = self.expect.len();
            self.expect.resize(start + n, 0);
            u64_to_words(v.unwrap_or(0), &mut self.expect[start..]);
            self.care.push(v.is_some());
        }
        self.bit_times += 1;
        Ok(())
    }

    /// Records one bit-time with values of any width as 32-bit words, least significant
    /// first (missing words are zeros).
    pub fn push_words(
        &mut self,
        inputs: &[&[u32]],
        expected: &[Option<&[u32]>],
    ) -> Result<(), TbError> {
        self.check_counts(inputs.len(), expected.len())?;
        for (i, (v, &n)) in inputs.iter().zip(&self.in_words).enumerate() {
            if v.len() > n {
                return Err(too_long(&self.inputs[i], v.len()));
            }
            self.stim
                .extend((0..n).map(|k| v.get(k).copied().unwrap_or(0)));
        }
        for (i, (v, &n)) in expected.iter().zip(&self.out_words).enumerate() {
            let v = v.unwrap_or(&[]);
            if v.len() > n {
                return Err(too_long(&self.outputs[i], v.len()));
            }
            self.expect
                .extend((0..n).map(|k| v.get(k).copied().unwrap_or(0)));
            self.care.push(expected[i].is_some());
        }
        self.bit_times += 1;
        Ok(())
    }

    /// Overwrites the expected value of output `output` at `bit_time` (e.g. to inject an
    /// error in a test of the checker itself).
    pub fn set_expected(
        &mut self,
        bit_time: usize,
        output: usize,
        value: &[u32],
    ) -> Result<(), TbError> {
        if bit_time >= self.bit_times || output >= self.outputs.len() {
            return Err(TbError::Recording(format!(
                "no output {output} at bit-time {bit_time} ({} outputs, {} bit-times)",
                self.outputs.len(),
                self.bit_times
            )));
        }
        let per: usize = self.out_words.iter().sum();
        let off: usize = self.out_words[..output].iter().sum();
        let n = self.out_words[output];
        let base = bit_time * per + off;
        for k in 0..n {
            self.expect[base + k] = value.get(k).copied().unwrap_or(0);
        }
        self.care[bit_time * self.outputs.len() + output] = true;
        Ok(())
    }

    /// The expected words of output `output` at `bit_time`, and whether it is compared
    /// (`(&[], false)` when out of range).
    pub fn expected_value(&self, bit_time: usize, output: usize) -> (&[u32], bool) {
        if bit_time >= self.bit_times || output >= self.outputs.len() {
            return (&[], false);
        }
        self.expected_words(bit_time, output)
    }

    /// Words of input `i` at bit-time `t`.
    pub(crate) fn input_words(&self, t: usize, i: usize) -> &[u32] {
        let per: usize = self.in_words.iter().sum();
        let off: usize = self.in_words[..i].iter().sum();
        &self.stim[t * per + off..t * per + off + self.in_words[i]]
    }

    /// Words of expected output `o` at bit-time `t`, and whether it is compared.
    pub(crate) fn expected_words(&self, t: usize, o: usize) -> (&[u32], bool) {
        let per: usize = self.out_words.iter().sum();
        let off: usize = self.out_words[..o].iter().sum();
        let w = &self.expect[t * per + off..t * per + off + self.out_words[o]];
        (w, self.care[t * self.outputs.len() + o])
    }

    fn check_counts(&self, inputs: usize, outputs: usize) -> Result<(), TbError> {
        if inputs != self.inputs.len() || outputs != self.outputs.len() {
            return Err(TbError::Recording(format!(
                "bit-time {}: got {inputs} input and {outputs} output value(s), the recording has {} and {}",
                self.bit_times,
                self.inputs.len(),
                self.outputs.len()
            )));
        }
        Ok(())
    }
}

fn too_long(p: &PortSpec, got: usize) -> TbError {
    TbError::Recording(format!(
        "value for `{}` has {got} words, the port is {} bits ({} words)",
        p.name,
        p.width,
        p.words()
    ))
}
