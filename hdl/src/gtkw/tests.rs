//! Unit tests of the save-file writer, the filters, scopes and the check against a design.

use super::*;
use crate::netlist::ModuleBuilder;

fn files() -> GtkwFiles {
    GtkwFiles {
        view: None,
        top: "top_m".into(),
        groups: vec![
            Group::new(
                "control",
                vec![
                    Trace::new("clock", 1),
                    Trace::new("phase", 3).named(1),
                    Trace::new("count", 10),
                ],
            ),
            Group::new("state", vec![Trace::new("u0.xp", 16).binary()]),
        ],
        filters: vec![filter("phase.txt", &["IDLE", "RUN"])],
    }
}

#[test]
fn save_text_groups_vectors_and_references_filters() {
    let text = files().save_text(Path::new("/f"), "run", Some(Path::new("/w/run.vcd")));
    let want = "\
[*] GTKWave save file written by lcanet (one bit-time = 10 time units)
[dumpfile] \"/w/run.vcd\"
[savefile] \"/f/run.gtkw\"
[timestart] 0
[size] 1400 800
[pos] -1 -1
[sst_width] 220
[sst_expanded] 1
[signals_width] 300
@800200
-control
@28
TOP.top_m.clock
^1 /f/phase.txt
@2024
TOP.top_m.phase[2:0]
@22
TOP.top_m.count[9:0]
@1000200
-control
@800200
-state
@28
TOP.top_m.u0.xp[15:0]
@1000200
-state
";
    assert_eq!(text, want);
    let no_dump = files().save_text(Path::new("/f"), "run", None);
    assert!(!no_dump.contains("[dumpfile]"), "{no_dump}");
}

/// The zoom line GTKWave reads: `*<zoom> <primary marker> <named markers A..Z>`, a frame
/// of 200 pixels spanning `2^-zoom` time units.
fn zoom_line(text: &str) -> Vec<f64> {
    let line = text
        .lines()
        .find(|l| l.starts_with('*'))
        .expect("a zoom line");
    line[1..].split(' ').map(|x| x.parse().unwrap()).collect()
}

#[test]
fn a_save_file_opens_on_the_whole_run_or_its_first_pass_with_the_mismatch_marked() {
    let shown = |v: View| {
        let text = files().viewing(v).save_text(Path::new("/f"), "run", None);
        let z = zoom_line(&text);
        assert_eq!(z.len(), 28, "{text}");
        // Time units across the 760-pixel wave pane.
        (2f64.powf(-z[0]) * 760.0 / 200.0, z[1], z[2], text)
    };
    // 260 bit-times (2,600 time units) fill the pane; no marker.
    let (units, marker, a, text) = shown(View::run(260, Some(100)));
    assert!((units - 2600.0).abs() < 1.0, "{units}");
    assert_eq!((marker, a), (-1.0, -1.0));
    assert!(!text.contains("[markername]"));
    // A long run opens on its first pass, or on its first LONG_RUN bit-times.
    assert_eq!(View::run(5_000, Some(700)).end, 700);
    assert_eq!(View::run(5_000, None).end, LONG_RUN);
    assert_eq!(View::run(LONG_RUN, Some(10)).end, LONG_RUN);
    // A mismatch after the first pass widens the view and is marked.
    let v = View::run(5_000, Some(700)).with_mismatch(1_234);
    assert_eq!(v.end, 1_235);
    let (units, marker, a, text) = shown(v);
    assert!((units - 12_350.0).abs() < 1.0, "{units}");
    assert_eq!((marker, a), (12_340.0, 12_340.0));
    assert!(text.contains("[markername] Afirst mismatch\n"), "{text}");
    // No view: no zoom line (GTKWave's default).
    assert!(!files()
        .save_text(Path::new("/f"), "run", None)
        .contains("\n*"));
}

#[test]
fn filters_list_codes_and_names() {
    assert_eq!(
        filter("m.txt", &["IDLE", "UP"]).text,
        "# GTKWave translate filter written by lcanet\n0 IDLE\n1 UP\n"
    );
    let f = filter_codes("p.txt", [(7, "rdv"), (2, "cross")]);
    assert!(f.text.ends_with("7 rdv\n2 cross\n"), "{}", f.text);
    assert_eq!(f.file, "p.txt");
}

#[test]
fn write_beside_puts_save_file_and_filters_next_to_the_vcd() {
    let dir = std::env::temp_dir().join(format!("lcanet-gtkw-unit-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let vcd = dir.join("run.vcd");
    let path = files().write_beside(&vcd).unwrap();
    let abs = std::fs::canonicalize(&dir).unwrap();
    assert_eq!(path, abs.join("run.gtkw"));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(&format!("[dumpfile] \"{}\"", vcd.display())));
    assert!(text.contains(&format!("^1 {}", abs.join("phase.txt").display())));
    assert!(text.contains(&format!("[savefile] \"{}\"", path.display())));
    assert!(std::fs::read_to_string(abs.join("phase.txt"))
        .unwrap()
        .contains("1 RUN"));
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "no temporary file is left: {names:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn write_to_an_unwritable_place_fails_and_writes_nothing() {
    let dir = std::env::temp_dir().join(format!("lcanet-gtkw-bad-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // A directory where the save file should go: its rename fails.
    std::fs::create_dir_all(dir.join("x.gtkw").join("inner")).unwrap();
    assert!(files().write_to(&dir, "x", None).is_err());
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    // The filter was renamed before the failure (complete); no temporary file is left.
    assert_eq!(names, ["phase.txt", "x.gtkw"], "{names:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

fn block() -> Module {
    let mut b = ModuleBuilder::new("blk");
    b.clock();
    let a = b.input("a", 4);
    let r = b.reg("state", 6);
    let w = b.def("sum", a.zext(6) ^ &r);
    let o = b.output("o", 6);
    b.assign(&o, &w);
    b.always(|p| p.load(&r, &w));
    b.build()
}

#[test]
fn scopes_take_widths_from_the_module() {
    let m = block();
    let top = Scope::new(&m, "");
    let inst = Scope::new(&m, "u3");
    assert_eq!(top.trace("a").unwrap(), Trace::new("a", 4));
    assert_eq!(inst.trace("state").unwrap(), Trace::new("u3.state", 6));
    assert_eq!(
        inst.binary(&["sum"]).unwrap(),
        [Trace::new("u3.sum", 6).binary()]
    );
    assert_eq!(top.present(&["o", "nope"]), [Trace::new("o", 6)]);
    assert!(top.has("clock") && !top.has("nope"));
    let e = top.traces(&["a", "nope"]).unwrap_err();
    assert_eq!(e.signal, "nope");
    assert!(e.to_string().contains("module `blk` does not have"), "{e}");
}

#[test]
fn mismatches_name_missing_instances_signals_widths_and_filters() {
    let blk = block();
    let mut t = ModuleBuilder::new("top_m");
    let clock = t.clock();
    let a = t.input("a", 4);
    let o = t.output("o", 6);
    t.instance("u0", &blk)
        .pin("clock", &clock)
        .pin("a", &a)
        .pin("o", &o);
    let mut design = Design::new("top_m");
    design.add_module(blk).unwrap();
    design.add_module(t.build()).unwrap();
    let mut f = GtkwFiles {
        view: None,
        top: "top_m".into(),
        groups: vec![Group::new(
            "g",
            vec![
                Trace::new("a", 4),
                Trace::new("u0.state", 6),
                Trace::new("u0.sum", 6).named(1),
            ],
        )],
        filters: vec![filter("f.txt", &["ZERO"])],
    };
    assert_eq!(f.mismatches(&design), Vec::<String>::new());
    f.groups[0].traces.extend([
        Trace::new("u1.state", 6),
        Trace::new("u0.nope", 1),
        Trace::new("u0.state", 5),
        Trace::new("o", 6).named(2),
    ]);
    assert_eq!(
        f.mismatches(&design),
        [
            "u1.state: no instance `u1`",
            "u0.nope: no signal `nope` in `blk`",
            "u0.state: 5 bits, the RTL has 6",
            "o: filter 2 does not exist",
        ]
    );
    f.top = "other".into();
    assert_eq!(f.mismatches(&design), ["the design has no module `other`"]);
    let top = Scope::top(&design).unwrap();
    let u0 = top.within(&design, "u0").unwrap();
    assert_eq!(u0.trace("state").unwrap(), Trace::new("u0.state", 6));
    assert_eq!(top.within(&design, "u9").unwrap_err().signal, "u9");
}
