//! Pinned behaviour of the arbiter (docs/routing.md §2), computed by hand.

use super::*;

fn req(r: usize, allowed: u64) -> Request {
    Request {
        requester: r,
        tier: 0,
        key: 0,
        needs: vec![Need { class: 0, allowed }],
        eligible: true,
    }
}

#[test]
fn lfsr_sequence_from_one() {
    // By hand: shift right; when the bit shifted out is 1, XOR 0xB400.
    // 0x0001 -(1)-> 0xB400 -> 0x5A00 -> 0x2D00 -> 0x1680 -> 0x0B40 -> 0x05A0 -> 0x02D0
    // -> 0x0168 -> 0x00B4 -> 0x005A -> 0x002D -(1)-> 0x0016^0xB400 = 0xB416 -> 0x5A0B
    // -(1)-> 0x2D05^0xB400 = 0x9905 -(1)-> 0x4C82^0xB400 = 0xF882
    let expect = [
        0xB400, 0x5A00, 0x2D00, 0x1680, 0x0B40, 0x05A0, 0x02D0, 0x0168, 0x00B4, 0x005A, 0x002D,
        0xB416, 0x5A0B, 0x9905, 0xF882,
    ];
    let mut l = 1u16;
    for e in expect {
        l = lfsr_step(l);
        assert_eq!(l, e);
    }
}

#[test]
fn lfsr_has_maximal_period() {
    let mut l = 1u16;
    let mut period = 0u32;
    loop {
        l = lfsr_step(l);
        period += 1;
        assert_ne!(l, 0);
        if l == 1 {
            break;
        }
    }
    assert_eq!(period, 65535);
}

#[test]
fn lfsr_init_salts_and_never_zero() {
    // splitmix64(0) = 0xE220A8397B1DCDAF (the first SplitMix64 output for state 0).
    assert_eq!(lfsr_init(0, 0, Role::Up), 0xCDAF);
    assert_eq!(lfsr_init(0xCDAF, 0, Role::Up), 1, "zero is replaced by 1");
    assert_eq!(
        lfsr_init(0x1234, 3, Role::Down),
        0x1234 ^ (crate::rng::splitmix64(7) as u16)
    );
}

#[test]
fn random_pointers_from_lfsr() {
    // R = 6, W = 4. With L = 0xF882: p = (0x82·6) >> 8 = 780 >> 8 = 3,
    // q = (0xF8·4) >> 8 = 992 >> 8 = 3.
    let mut a = Arbiter::new(Policy::Random, Role::Down, 6, 4, 0, 0);
    a.lfsr = 0xF882;
    assert_eq!(a.pointers(), (3, 3));
    // One arbitration advances the LFSR once, granted or not.
    let mut free = [0u64, 0];
    a.arbitrate(&[req(0, 0b1)], &mut free, usize::MAX);
    assert_eq!(a.lfsr(), lfsr_step(0xF882));
    // An empty list is no arbitration.
    a.arbitrate(&[], &mut free, usize::MAX);
    assert_eq!(a.lfsr(), lfsr_step(0xF882));
}

#[test]
fn round_robin_pointer_updates() {
    // UP arbiter of a d = 4, u = 2 switch.
    let mut a = Arbiter::new(Policy::RoundRobin, Role::Up, 4, 2, 0, 0);
    let mut free = [0b11u64];
    // p = 0, q = 0: order r = 1, 2, 3; r1 takes upper 0, r2 upper 1, r3 rejected.
    let g = a.arbitrate(
        &[req(3, 0b11), req(1, 0b11), req(2, 0b11)],
        &mut free,
        usize::MAX,
    );
    assert_eq!(g, vec![None, Some(vec![0]), Some(vec![1])]);
    // Last grant r = 2: p = 3; q = 1.
    assert_eq!(a.pointers(), (3, 1));
    let mut free = [0b11u64];
    // Order by (r - 3) mod 4: r3, r0, r2. r3 takes the first free from q = 1: upper 1;
    // r0 takes upper 0; r2 rejected. p = 0 + 1 = 1, q = 0.
    let g = a.arbitrate(
        &[req(0, 0b11), req(2, 0b11), req(3, 0b11)],
        &mut free,
        usize::MAX,
    );
    assert_eq!(g, vec![Some(vec![0]), None, Some(vec![1])]);
    assert_eq!(a.pointers(), (1, 0));
    // No grant: no update.
    let mut free = [0u64];
    a.arbitrate(&[req(0, 0b11)], &mut free, usize::MAX);
    assert_eq!(a.pointers(), (1, 0));
}

#[test]
fn fixed_order_tiers_keys_and_rollback() {
    let mut a = Arbiter::new(Policy::Fixed, Role::Down, 6, 4, 0, 0);
    // Two classes; the tier-1 request needs both; the tier-0 request with the larger
    // key still goes before it.
    let both = Request {
        requester: 2,
        tier: 1,
        key: 0,
        needs: vec![
            Need {
                class: 1,
                allowed: 0b0100,
            },
            Need {
                class: 0,
                allowed: 0b1000,
            },
        ],
        eligible: true,
    };
    let mut k5 = req(5, 0b1000);
    k5.key = 5;
    let mut k1 = req(4, 0b1100);
    k1.key = 1;
    let mut free = [0b1111u64, 0b1111];
    let g = a.arbitrate(&[both.clone(), k5, k1], &mut free, usize::MAX);
    // key 1 first: class 0 wire 2; key 5: wire 3; the tier-1 request finds class-1
    // wire 2 but no class-0 wire 3: rejected, and its class-1 wire is given back.
    assert_eq!(g, vec![None, Some(vec![3]), Some(vec![2])]);
    assert_eq!(free, [0b0011, 0b1111]);
    assert_eq!(a.pointers(), (0, 0));
    // max_grants and eligibility.
    let mut free = [0b1111u64, 0b1111];
    let mut ineligible = req(0, 0b1111);
    ineligible.eligible = false;
    let g = a.arbitrate(&[ineligible, req(1, 0b1111), req(2, 0b1111)], &mut free, 1);
    assert_eq!(g, vec![None, Some(vec![0]), None]);
}
