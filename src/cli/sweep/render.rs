//! The sweep report as text (stdout) and as Markdown (`report.md`): the verdict, the
//! table by topology, algorithm and policy, the cost, the slowest configurations, the
//! mismatches with the commands that reproduce them, the shards and the networks out of
//! scope.

use super::configs::ranges;
use super::records::Named;
use super::report::{Cost, Mismatch, OutOfScope, Report, Shards};
use super::Args;

/// Hours or minutes, whichever reads better.
fn duration(s: f64) -> String {
    if s < 3600.0 {
        format!("{:.1} min", s / 60.0)
    } else {
        format!("{:.2} h", s / 3600.0)
    }
}

/// The report on stdout.
pub(super) fn print_text(r: &Report, a: &Args) {
    let list = |v: &[Named]| {
        const SHOWN: usize = 10;
        let mut s: Vec<String> = v.iter().take(SHOWN).map(|n| n.to_string()).collect();
        if v.len() > SHOWN {
            s.push(format!(
                "… {} more (--json lists them all)",
                v.len() - SHOWN
            ));
        }
        s.join(", ")
    };
    println!(
        "sweep report: {} records in {} files{} (seed {}, {} permutations each, --max-n {})",
        r.records,
        r.files.len(),
        if r.duplicates > 0 {
            format!(", {} of them repeats", r.duplicates)
        } else {
            String::new()
        },
        r.seed.map_or("-".to_string(), |s| s.to_string()),
        r.perms,
        a.max_n
    );
    println!(
        "covered: {}/{} configurations{}; matched {}, mismatched {}",
        r.covered,
        r.configurations,
        if r.complete {
            " (complete)"
        } else {
            " (INCOMPLETE)"
        },
        r.matched,
        r.mismatched.len()
    );
    println!(
        "co-simulated {} permutations; wall-clock time {} building, {} simulating",
        r.permutations,
        duration(r.build_seconds),
        duration(r.run_seconds)
    );
    if r.cpu.records > 0 {
        println!(
            "CPU time of the {} records that carry it: {} building, {} simulating",
            r.cpu.records,
            duration(r.cpu.build_seconds),
            duration(r.cpu.run_seconds)
        );
    }
    println!("cost: {}", cost_line(&r.cost));
    if let Some(s) = r.slowest.first() {
        println!(
            "slowest: {} ({} switches): {:.0} s building, {:.0} s simulating",
            s.config, s.switches, s.build_seconds, s.run_seconds
        );
    }
    for m in &r.mismatched {
        println!("MISMATCHED {}: {}", m.config, mismatch_text(m));
        println!("  reproduce alone: {}", m.reproduce);
    }
    if !r.stale.is_empty() {
        println!(
            "stale (their Verilog is not what today's generator writes; not counted): {}",
            list(&r.stale)
        );
    }
    if !r.missing.is_empty() {
        println!("missing: {}", list(&r.missing));
    }
    if let Some(s) = &r.shards {
        println!("{}", shards_line(s));
    }
    if !r.out_of_scope.networks.is_empty() {
        println!("{}", out_of_scope_line(&r.out_of_scope));
    }
}

fn out_of_scope_line(o: &OutOfScope) -> String {
    let sw: Vec<usize> = o.networks.iter().map(|n| n.switches).collect();
    format!(
        "out of scope: {} networks ({} configurations) above --max-switches {}, {} to {} switches: {}",
        o.networks.len(),
        o.configurations,
        o.max_switches,
        sw.iter().min().copied().unwrap_or(0),
        sw.iter().max().copied().unwrap_or(0),
        o.why
    )
}

fn cost_line(c: &Cost) -> String {
    let basis = match (c.cpu_records, c.wall_records) {
        (_, 0) => String::new(),
        (0, _) => " (wall-clock hours: the records carry no CPU seconds)".to_string(),
        (k, w) => format!(
            " (CPU seconds of {k} records, wall-clock seconds of {w} older ones that carry none)"
        ),
    };
    format!(
        "{:.2} CPU-hours{basis}, {:.0} % of it building",
        c.hours,
        100.0 * c.build_share
    )
}

fn mismatch_text(m: &Mismatch) -> String {
    let mut s = match (m.perm, m.perm_seed) {
        (Some(p), Some(seed)) => format!("permutation {p} (seed {seed})"),
        _ => "no failure recorded".to_string(),
    };
    if let Some(w) = &m.what {
        s.push_str(": ");
        s.push_str(w.lines().next().unwrap_or_default());
    }
    if let Some(f) = &m.fault {
        s.push_str(&format!(" [injected fault: {f}]"));
    }
    s
}

fn shards_line(s: &Shards) -> String {
    if s.incomplete.is_empty() {
        format!("shards: all {} complete", s.count)
    } else {
        format!(
            "shards: {} of {} complete; incomplete: {} ({} configurations missing, {} stale)",
            s.complete,
            s.count,
            ranges(&s.incomplete.iter().map(|x| x.shard).collect::<Vec<_>>()),
            s.incomplete.iter().map(|x| x.missing).sum::<usize>(),
            s.incomplete.iter().map(|x| x.stale).sum::<usize>()
        )
    }
}

/// The report as Markdown: the verdict, the table by topology, algorithm and policy,
/// the cost, the slowest configurations, the mismatches with their commands, the shards.
pub(super) fn markdown(r: &Report) -> String {
    let mut m = String::from("# lcanet sweep report\n\n");
    let verdict = if !r.mismatched.is_empty() {
        "MISMATCH"
    } else if r.complete {
        "COMPLETE, all matched"
    } else {
        "INCOMPLETE"
    };
    m.push_str(&format!(
        "`lcanet sweep {} --perms {}`, seed {}: {} records in {} files.\n\n**{verdict}**: {} of {} configurations covered; {} matched, {} mismatched, {} stale, {} missing.\n\n",
        r.list_flags.join(" "),
        r.perms,
        r.seed.map_or("-".to_string(), |s| s.to_string()),
        r.records,
        r.files.len(),
        r.covered,
        r.configurations,
        r.matched,
        r.mismatched.len(),
        r.stale.len(),
        r.missing.len()
    ));
    m.push_str("| topology | algorithm | arbiter | configurations | matched | mismatched | stale | missing | hours |\n|---|---|---|---:|---:|---:|---:|---:|---:|\n");
    for g in &r.groups {
        m.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {:.2} |\n",
            g.topology,
            g.algorithm,
            g.arbiter,
            g.configurations,
            g.matched,
            g.mismatched,
            g.stale,
            g.missing,
            g.hours
        ));
    }
    m.push_str(&format!(
        "| **all** | | | {} | {} | {} | {} | {} | {:.2} |\n\n",
        r.configurations,
        r.matched,
        r.mismatched.len(),
        r.stale.len(),
        r.missing.len(),
        r.cost.hours
    ));
    m.push_str(&format!(
        "## Cost\n\n{}; {} permutations. Wall clock: {} building, {} simulating.\n\n",
        cost_line(&r.cost),
        r.permutations,
        duration(r.build_seconds),
        duration(r.run_seconds)
    ));
    if !r.slowest.is_empty() {
        m.push_str("## Slowest configurations\n\n| # | network | switches | algorithm | arbiter | build s | run s | seconds of |\n|---:|---|---:|---|---|---:|---:|---|\n");
        for s in &r.slowest {
            m.push_str(&format!(
                "| {} | {} | {} | {} | {} | {:.1} | {:.1} | {} |\n",
                s.config.index,
                s.config.network,
                s.switches,
                s.config.algorithm,
                s.config.arbiter,
                s.build_seconds,
                s.run_seconds,
                if s.cpu { "CPU" } else { "wall clock" }
            ));
        }
        m.push('\n');
    }
    if !r.mismatched.is_empty() {
        m.push_str("## Mismatches\n\n");
        for x in &r.mismatched {
            m.push_str(&format!(
                "- `{}`: {}. Alone: `{}`\n",
                x.config,
                mismatch_text(x),
                x.reproduce
            ));
        }
        m.push('\n');
    }
    if let Some(s) = &r.shards {
        m.push_str(&format!("## Shards\n\n{}.\n\n", shards_line(s)));
    }
    if !r.out_of_scope.networks.is_empty() {
        m.push_str(&format!(
            "## Out of scope\n\n{}.\n\n| network | switches |\n|---|---:|\n",
            out_of_scope_line(&r.out_of_scope)
        ));
        for n in &r.out_of_scope.networks {
            m.push_str(&format!("| {} | {} |\n", n.network, n.switches));
        }
        m.push('\n');
    }
    if !r.stale.is_empty() || !r.missing.is_empty() {
        const SHOWN: usize = 50;
        for (what, v) in [("Stale", &r.stale), ("Missing", &r.missing)] {
            if v.is_empty() {
                continue;
            }
            let mut names: Vec<String> = v.iter().take(SHOWN).map(|n| n.to_string()).collect();
            if v.len() > SHOWN {
                names.push(format!(
                    "… {} more (report.json lists them all)",
                    v.len() - SHOWN
                ));
            }
            m.push_str(&format!(
                "## {what} ({})\n\n{}\n\n",
                v.len(),
                names.join(", ")
            ));
        }
    }
    m
}
