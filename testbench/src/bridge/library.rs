//! Loading a model library (`libloading`) and resolving the shim's `extern "C"` entry points
//! once into plain function pointers.

use std::collections::HashMap;
use std::ffi::{c_char, c_void, CStr};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::build::BuildInfo;
use super::error::BridgeError;
use super::ports::{Direction, PortSpec};
use super::shim::SHIM_VERSION;

pub(crate) type CreateFn = unsafe extern "C" fn(*const c_char, *mut c_char, usize) -> *mut c_void;
pub(crate) type VoidFn = unsafe extern "C" fn(*mut c_void);
pub(crate) type DumpFn = unsafe extern "C" fn(*mut c_void, u64);
pub(crate) type TickFn = unsafe extern "C" fn(*mut c_void, u32, u64, u64);
pub(crate) type SetU64Fn = unsafe extern "C" fn(*mut c_void, u32, u64);
pub(crate) type GetU64Fn = unsafe extern "C" fn(*mut c_void, u32) -> u64;
pub(crate) type SetWordsFn = unsafe extern "C" fn(*mut c_void, u32, *const u32);
pub(crate) type GetWordsFn = unsafe extern "C" fn(*mut c_void, u32, *mut u32);
pub(crate) type FindFn =
    unsafe extern "C" fn(*mut c_void, *const c_char, *mut u32, *mut c_char, usize) -> i32;

/// The shim's entry points, resolved once (valid while the library is loaded).
#[derive(Clone, Copy)]
pub(crate) struct Api {
    pub create: CreateFn,
    pub free: VoidFn,
    pub eval: VoidFn,
    pub dump: DumpFn,
    pub flush: VoidFn,
    pub tick: TickFn,
    pub set_u64: SetU64Fn,
    pub get_u64: GetU64Fn,
    pub set_words: SetWordsFn,
    pub get_words: GetWordsFn,
    pub signal_find: FindFn,
    pub signal_get_u64: GetU64Fn,
    pub signal_get_words: GetWordsFn,
}

/// A loaded model library: entry points and the port table it describes.
pub struct ModelLibrary {
    // Keeps the code behind `api` mapped.
    _lib: libloading::Library,
    pub(crate) api: Api,
    pub(crate) path: PathBuf,
    pub(crate) top: String,
    pub(crate) ports: Vec<PortSpec>,
    pub(crate) by_name: HashMap<String, u32>,
    pub(crate) has_trace: bool,
}

impl std::fmt::Debug for ModelLibrary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ModelLibrary")
            .field("path", &self.path)
            .field("top", &self.top)
            .field("ports", &self.ports)
            .finish()
    }
}

impl ModelLibrary {
    /// Loads the library of a build.
    pub fn load(info: &BuildInfo) -> Result<Arc<Self>, BridgeError> {
        Self::load_path(&info.library, &info.manifest.top)
    }

    /// Loads a model library file built for top module `top`.
    pub fn load_path(path: &Path, top: &str) -> Result<Arc<Self>, BridgeError> {
        let load_err = |message: String| BridgeError::Load {
            path: path.to_path_buf(),
            message,
        };
        // SAFETY: the library is one we built from our shim; its initializers are Verilator's.
        let lib = unsafe { libloading::Library::new(path) }.map_err(|e| load_err(e.to_string()))?;
        macro_rules! sym {
            ($name:literal, $ty:ty) => {{
                // SAFETY: the shim defines this symbol with exactly this C signature.
                let s: libloading::Symbol<$ty> = unsafe { lib.get($name) }
                    .map_err(|e| load_err(format!("{}: {e}", String::from_utf8_lossy($name))))?;
                *s
            }};
        }
        let version = sym!(b"lcanet_shim_version", unsafe extern "C" fn() -> u32);
        // SAFETY: plain function without arguments.
        let found = unsafe { version() };
        if found != SHIM_VERSION {
            return Err(load_err(format!(
                "shim version {found}, this lcanet-testbench expects {SHIM_VERSION}"
            )));
        }
        let count = sym!(b"lcanet_port_count", unsafe extern "C" fn() -> u32);
        let name = sym!(
            b"lcanet_port_name",
            unsafe extern "C" fn(u32) -> *const c_char
        );
        let dir = sym!(b"lcanet_port_dir", unsafe extern "C" fn(u32) -> u32);
        let width = sym!(b"lcanet_port_width", unsafe extern "C" fn(u32) -> u32);
        let has_trace = sym!(b"lcanet_has_trace", unsafe extern "C" fn() -> u32);
        let mut ports = Vec::new();
        let mut by_name = HashMap::new();
        // SAFETY: the port table functions read a static array, bounds-checked by the shim.
        unsafe {
            for i in 0..count() {
                let n = name(i);
                if n.is_null() {
                    return Err(load_err(format!("port {i} has no name")));
                }
                let n = CStr::from_ptr(n).to_string_lossy().into_owned();
                let d = if dir(i) == 1 {
                    Direction::Output
                } else {
                    Direction::Input
                };
                by_name.insert(n.clone(), i);
                ports.push(PortSpec::new(n, d, width(i)));
            }
        }
        let api = Api {
            create: sym!(b"lcanet_create", CreateFn),
            free: sym!(b"lcanet_free", VoidFn),
            eval: sym!(b"lcanet_eval", VoidFn),
            dump: sym!(b"lcanet_dump", DumpFn),
            flush: sym!(b"lcanet_flush", VoidFn),
            tick: sym!(b"lcanet_tick", TickFn),
            set_u64: sym!(b"lcanet_set_u64", SetU64Fn),
            get_u64: sym!(b"lcanet_get_u64", GetU64Fn),
            set_words: sym!(b"lcanet_set_words", SetWordsFn),
            get_words: sym!(b"lcanet_get_words", GetWordsFn),
            signal_find: sym!(b"lcanet_signal_find", FindFn),
            signal_get_u64: sym!(b"lcanet_signal_get_u64", GetU64Fn),
            signal_get_words: sym!(b"lcanet_signal_get_words", GetWordsFn),
        };
        // SAFETY: plain function without arguments.
        let has_trace = unsafe { has_trace() } != 0;
        Ok(Arc::new(ModelLibrary {
            _lib: lib,
            api,
            path: path.to_path_buf(),
            top: top.to_string(),
            ports,
            by_name,
            has_trace,
        }))
    }

    /// The top ports, in the library's index order.
    pub fn ports(&self) -> &[PortSpec] {
        &self.ports
    }

    /// The top module name.
    pub fn top(&self) -> &str {
        &self.top
    }

    /// Whether the library was built with tracing (a model can write a VCD).
    pub fn has_trace(&self) -> bool {
        self.has_trace
    }
}
