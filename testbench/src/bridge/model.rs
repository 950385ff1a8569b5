//! [`Model`]: one instance of a Verilated design, driven from Rust.
//!
//! Names are resolved once ([`Model::port`], [`Model::input`], [`Model::signal`]) into small
//! integer ids; the per-bit-time calls (`set`, `get`, `tick`, `read_signal`, ...) are direct
//! calls through function pointers with no string lookup and no allocation.
//!
//! Time: one bit-time is one clock period of [`PERIOD`] time units; [`Model::tick`] drives the
//! clock low at `t` and high at `t + PERIOD/2`, evaluating and dumping the VCD at each.

use std::ffi::{c_char, CString};
use std::path::{Path, PathBuf};
use std::ptr::NonNull;
use std::sync::Arc;

use super::error::BridgeError;
use super::library::{Api, ModelLibrary};
use super::ports::{words_for, Direction, PortSpec};

/// VCD time units per bit-time (clock period).
pub const PERIOD: u64 = 10;

/// A top port (input or output), resolved by [`Model::port`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PortId(pub(crate) u32);

/// A top input port, resolved by [`Model::input`]; only inputs can be driven.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct InputId(pub(crate) u32);

impl From<InputId> for PortId {
    fn from(i: InputId) -> PortId {
        PortId(i.0)
    }
}

/// An internal signal, resolved by hierarchical name with [`Model::signal`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SignalId(pub(crate) u32);

struct SignalInfo {
    name: String,
    width: u32,
}

/// One instance of a Verilated model. Dropping it finishes the model and closes its VCD.
pub struct Model {
    api: Api,
    ptr: NonNull<std::ffi::c_void>,
    lib: Arc<ModelLibrary>,
    port_words: Vec<usize>,
    signals: Vec<SignalInfo>,
    time: u64,
    vcd: Option<PathBuf>,
}

// SAFETY: a Verilated model may be used from any thread, one thread at a time; `Model` is
// not `Sync` and all access goes through `&mut self` or `&self` on the owning thread.
unsafe impl Send for Model {}

impl std::fmt::Debug for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Model")
            .field("top", &self.lib.top)
            .field("time", &self.time)
            .field("vcd", &self.vcd)
            .finish()
    }
}

impl Model {
    /// Instantiates the model; with `vcd`, every dump goes to that file (the library must have
    /// been built with `trace`).
    pub fn new(lib: &Arc<ModelLibrary>, vcd: Option<&Path>) -> Result<Self, BridgeError> {
        let top = lib.top.clone();
        let vcd_c = match vcd {
            Some(p) => Some(CString::new(p.as_os_str().as_encoded_bytes()).map_err(|_| {
                BridgeError::Create {
                    top: top.clone(),
                    message: format!("VCD path {} contains a NUL byte", p.display()),
                }
            })?),
            None => None,
        };
        let mut err = [0 as c_char; 1024];
        // SAFETY: valid C string or null, and an error buffer of the stated length.
        let raw = unsafe {
            (lib.api.create)(
                vcd_c.as_ref().map_or(std::ptr::null(), |c| c.as_ptr()),
                err.as_mut_ptr(),
                err.len(),
            )
        };
        let ptr = NonNull::new(raw).ok_or_else(|| BridgeError::Create {
            top,
            message: c_message(&err),
        })?;
        Ok(Model {
            api: lib.api,
            ptr,
            port_words: lib.ports.iter().map(PortSpec::words).collect(),
            lib: Arc::clone(lib),
            signals: Vec::new(),
            time: 0,
            vcd: vcd.map(Path::to_path_buf),
        })
    }

    /// The top module name.
    pub fn top(&self) -> &str {
        &self.lib.top
    }

    /// The top ports.
    pub fn ports(&self) -> &[PortSpec] {
        &self.lib.ports
    }

    /// The VCD file, if this model writes one.
    pub fn vcd_path(&self) -> Option<&Path> {
        self.vcd.as_deref()
    }

    /// Current time (VCD time units; [`PERIOD`] per bit-time).
    pub fn time(&self) -> u64 {
        self.time
    }

    /// Resolves a top port by its Verilog name.
    pub fn port(&self, name: &str) -> Result<PortId, BridgeError> {
        self.lib
            .by_name
            .get(name)
            .map(|&i| PortId(i))
            .ok_or_else(|| BridgeError::NoSuchPort {
                top: self.lib.top.clone(),
                name: name.to_string(),
                known: self
                    .lib
                    .ports
                    .iter()
                    .map(|p| p.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }

    /// Resolves a top input port (an error for outputs).
    pub fn input(&self, name: &str) -> Result<InputId, BridgeError> {
        let PortId(i) = self.port(name)?;
        if self.lib.ports[i as usize].dir != Direction::Input {
            return Err(BridgeError::NotAnInput {
                top: self.lib.top.clone(),
                name: name.to_string(),
            });
        }
        Ok(InputId(i))
    }

    /// The spec (name, direction, width) of a port.
    pub fn port_spec(&self, id: impl Into<PortId>) -> Option<&PortSpec> {
        self.lib.ports.get(id.into().0 as usize)
    }

    /// Drives an input with the low 64 bits of `value` (bits above the width are dropped;
    /// wider ports get zeros above bit 63).
    #[inline]
    pub fn set(&mut self, id: InputId, value: u64) {
        // SAFETY: live model; the shim ignores unknown indices.
        unsafe { (self.api.set_u64)(self.ptr.as_ptr(), id.0, value) }
    }

    /// Drives an input from 32-bit words, least significant first (at least one word per 32
    /// bits of width; bits above the width are dropped).
    #[inline]
    pub fn set_words(&mut self, id: InputId, words: &[u32]) -> Result<(), BridgeError> {
        self.check_buffer(id.0, words.len())?;
        // SAFETY: `words` holds at least the port's word count.
        unsafe { (self.api.set_words)(self.ptr.as_ptr(), id.0, words.as_ptr()) };
        Ok(())
    }

    /// Reads a port's low 64 bits.
    #[inline]
    pub fn get(&self, id: impl Into<PortId>) -> u64 {
        // SAFETY: live model; the shim returns 0 for unknown indices.
        unsafe { (self.api.get_u64)(self.ptr.as_ptr(), id.into().0) }
    }

    /// Reads a port into 32-bit words, least significant first.
    #[inline]
    pub fn get_words(&self, id: impl Into<PortId>, out: &mut [u32]) -> Result<(), BridgeError> {
        let i = id.into().0;
        self.check_buffer(i, out.len())?;
        // SAFETY: `out` holds at least the port's word count.
        unsafe { (self.api.get_words)(self.ptr.as_ptr(), i, out.as_mut_ptr()) };
        Ok(())
    }

    fn check_buffer(&self, port: u32, got: usize) -> Result<(), BridgeError> {
        match self.port_words.get(port as usize) {
            Some(&need) if got >= need => Ok(()),
            Some(&need) => {
                let spec = &self.lib.ports[port as usize];
                Err(BridgeError::BufferTooSmall {
                    name: spec.name.clone(),
                    width: spec.width,
                    need,
                    got,
                })
            }
            None => Err(BridgeError::Internal(format!(
                "port id {port} does not belong to model `{}`",
                self.lib.top
            ))),
        }
    }

    /// Resolves an internal signal (or a port seen from inside) by hierarchical name, e.g.
    /// `top.lvl2_sw13.xp_sel_0`, or `top.mem[3]` for an element of an unpacked array. Needs a
    /// build that made it public (`ModelOptions::public`).
    pub fn signal(&mut self, name: &str) -> Result<SignalId, BridgeError> {
        let sig_err = |message: String| BridgeError::Signal {
            top: self.lib.top.clone(),
            name: name.to_string(),
            message,
        };
        let c = CString::new(name).map_err(|_| sig_err("name contains a NUL byte".into()))?;
        let mut width = 0u32;
        let mut err = [0 as c_char; 4096];
        // SAFETY: live model, valid C string, out-pointer and error buffer.
        let h = unsafe {
            (self.api.signal_find)(
                self.ptr.as_ptr(),
                c.as_ptr(),
                &mut width,
                err.as_mut_ptr(),
                err.len(),
            )
        };
        if h < 0 {
            return Err(sig_err(c_message(&err)));
        }
        let id = u32::try_from(h).map_err(|_| sig_err("bad handle".into()))?;
        if id as usize != self.signals.len() {
            return Err(BridgeError::Internal(format!(
                "shim returned signal handle {id}, expected {}",
                self.signals.len()
            )));
        }
        self.signals.push(SignalInfo {
            name: name.to_string(),
            width,
        });
        Ok(SignalId(id))
    }

    /// Width in bits of a resolved signal.
    pub fn signal_width(&self, id: SignalId) -> Option<u32> {
        self.signals.get(id.0 as usize).map(|s| s.width)
    }

    /// Reads a signal's low 64 bits.
    #[inline]
    pub fn read_signal(&self, id: SignalId) -> u64 {
        if id.0 as usize >= self.signals.len() {
            return 0;
        }
        // SAFETY: live model, handle checked above.
        unsafe { (self.api.signal_get_u64)(self.ptr.as_ptr(), id.0) }
    }

    /// Reads a signal into 32-bit words, least significant first.
    #[inline]
    pub fn read_signal_words(&self, id: SignalId, out: &mut [u32]) -> Result<(), BridgeError> {
        let info = self.signals.get(id.0 as usize).ok_or_else(|| {
            BridgeError::Internal(format!("signal id {} does not belong to this model", id.0))
        })?;
        let need = words_for(info.width);
        if out.len() < need {
            return Err(BridgeError::BufferTooSmall {
                name: info.name.clone(),
                width: info.width,
                need,
                got: out.len(),
            });
        }
        // SAFETY: live model, handle checked, buffer long enough.
        unsafe { (self.api.signal_get_words)(self.ptr.as_ptr(), id.0, out.as_mut_ptr()) };
        Ok(())
    }

    /// Evaluates the model (settles combinational logic and any edges since the last eval).
    #[inline]
    pub fn eval(&mut self) {
        // SAFETY: live model.
        unsafe { (self.api.eval)(self.ptr.as_ptr()) }
    }

    /// Writes a VCD sample at time `t` (no-op without a VCD) and sets the model's time.
    #[inline]
    pub fn dump(&mut self, t: u64) {
        // SAFETY: live model.
        unsafe { (self.api.dump)(self.ptr.as_ptr(), t) }
    }

    /// One bit-time of a clocked design: `clock` low, eval, dump at `t`; high, eval, dump at
    /// `t + PERIOD/2`; then time advances by [`PERIOD`]. Inputs set before the call are
    /// sampled by the rising edge; outputs read after it show the state after that edge.
    #[inline]
    pub fn tick(&mut self, clock: InputId) {
        let t = self.time;
        // SAFETY: live model.
        unsafe { (self.api.tick)(self.ptr.as_ptr(), clock.0, t, t + PERIOD / 2) };
        self.time = t + PERIOD;
    }

    /// One bit-time of a combinational design: eval, dump at the current time, advance.
    #[inline]
    pub fn step(&mut self) {
        self.eval();
        let t = self.time;
        self.dump(t);
        self.time = t + PERIOD;
    }

    /// Flushes the VCD file to disk (no-op without a VCD).
    pub fn vcd_flush(&mut self) {
        // SAFETY: live model.
        unsafe { (self.api.flush)(self.ptr.as_ptr()) }
    }
}

impl Drop for Model {
    fn drop(&mut self) {
        // SAFETY: the pointer came from `create` and is freed exactly once.
        unsafe { (self.api.free)(self.ptr.as_ptr()) }
    }
}

fn c_message(buf: &[c_char]) -> String {
    let bytes: Vec<u8> = buf
        .iter()
        .take_while(|&&c| c != 0)
        .map(|&c| c as u8)
        .collect();
    let s = String::from_utf8_lossy(&bytes).into_owned();
    if s.is_empty() {
        "no message from the shim".to_string()
    } else {
        s
    }
}
