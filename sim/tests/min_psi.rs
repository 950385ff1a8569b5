//! 004 §4.1 against §4.2 on all six networks: Latin squares built from the set Ψ
//! (Theorem 1, any order of Ψ, i.e. any first column) are Latin, every row is admissible
//! and realized with uniform stage settings on the network, and as sets of row
//! permutations they equal Table 2's square (Theorem 3, `Ψ' = Ψ`), for m = 1..8.

use lcanet_sim::min::{
    first_row, latin_square, psi_order, psi_square, LatinSquare, Min, Network, PsiOrder,
};
use lcanet_sim::perm::Permutation;
use lcanet_sim::rng::{derive, seeded};
use rand::seq::SliceRandom;
use std::collections::BTreeSet;

fn row_set(sq: &LatinSquare) -> BTreeSet<Vec<usize>> {
    sq.rows.iter().cloned().collect()
}

/// Latin, and every row admissible with one setting per stage (004 §5's form).
fn check_rows_on(min: &Min, sq: &LatinSquare, what: &str) {
    sq.check_latin()
        .unwrap_or_else(|e| panic!("{min} {what}: {e}"));
    for i in 0..sq.n() {
        let row = sq.row(i);
        assert!(min.check(&row).is_admissible(), "{min} {what}: row {i}");
        let t = min.transit(&row);
        assert!(t.conflicts.is_empty(), "{min} {what}: row {i}");
        assert!(
            t.settings.as_uniform().is_some(),
            "{min} {what}: row {i} needs non-uniform settings"
        );
    }
}

#[test]
fn psi_squares_equal_table2_as_row_sets_for_every_network_up_to_m8() {
    for net in Network::ALL {
        for m in 1..=8u32 {
            let min = Min::new(net, m).unwrap();
            let first = first_row(&min);
            let a0 = first.dst(0);
            let table2 = latin_square(&min);
            let want = row_set(&table2);
            let mut orders = vec![
                PsiOrder::Eq8,
                PsiOrder::Random(derive(17, &format!("{net} {m}"))),
            ];
            // A first column chosen at random: any permutation of 0..n starting with a0.
            let mut col: Vec<usize> = (0..min.n()).filter(|&x| x != a0).collect();
            col.shuffle(&mut seeded(u64::from(m) * 31 + net as u64));
            col.insert(0, a0);
            orders.push(PsiOrder::FirstColumn(col.clone()));
            for order in &orders {
                let elements = psi_order(m, a0, order).unwrap();
                let sq = psi_square(&first, &elements).unwrap();
                assert_eq!(sq.rows[0], first.as_slice(), "{min} {order:?}: row 0");
                assert_eq!(row_set(&sq), want, "{min} {order:?}");
                if let PsiOrder::FirstColumn(c) = order {
                    assert_eq!(&sq.column(0), c, "{min}: the first column asked for");
                }
                // Admissibility of every row: m ≤ 6 for every order (at m = 7, 8 the
                // rows are the same set as Table 2's, checked once below).
                if m <= 6 {
                    check_rows_on(&min, &sq, &format!("{order:?}"));
                }
            }
            if m > 6 {
                check_rows_on(&min, &table2, "Table 2");
            }
            // In Table 2's order the Ψ square is Table 2's square, row for row.
            let same = psi_square(&first, &psi_order(m, a0, &PsiOrder::Table2).unwrap()).unwrap();
            assert_eq!(same, table2, "{min}");
        }
    }
}

#[test]
fn theorem1_holds_for_any_first_row() {
    // Theorem 1 needs no network: any list a and any order of Ψ give a Latin square.
    for m in 1..=7u32 {
        for s in 0..4u64 {
            let first = Permutation::random(1 << m, &mut seeded(derive(s, "psi-first")));
            let elements = psi_order(m, first.dst(0), &PsiOrder::Random(s)).unwrap();
            psi_square(&first, &elements)
                .unwrap()
                .check_latin()
                .unwrap_or_else(|e| panic!("m = {m}, seed {s}: {e}"));
        }
    }
}
