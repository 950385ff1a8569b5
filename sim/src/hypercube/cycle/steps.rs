//! The steps every schedule of Algorithm 2 replays, at the level of registers: the cross
//! of step 1, the frames of a routing phase as the senders build them and as the
//! pipeline delivers them (with their bit times), and the receivers' decoding. The
//! sequential and overlapped schedules (and the quadratic cube's loop units) differ only
//! in *when* these happen and in how many dimensions a frame's pipeline walks.

use super::{Delivery, NodeState};
use crate::hypercube::semi::{route_frames, Collision, DimOrder, Frame};
use crate::hypercube::timing::collision_visible;

/// Step 1: every message whose destination differs from its node in bit `i` crosses
/// dimension `i`; a node keeping its own message stores an arriving one in B, otherwise
/// in A; a leaving A with nothing arriving shifts in zeros. Returns `(from, to)` of every
/// crossing message.
pub(crate) fn cross(st: &mut [NodeState], i: usize) -> Vec<(usize, usize)> {
    let n = st.len();
    let m = st.first().map_or(0, |s| s.a.len());
    let go: Vec<bool> = (0..n)
        .map(|x| st[x].va && st[x].a[i] != (x >> i & 1 == 1))
        .collect();
    let old = st.to_vec();
    let mut moves = Vec::new();
    for x in 0..n {
        let y = x ^ (1 << i);
        let keep = old[x].va && !go[x];
        let (va, vb) = (keep || go[y], keep && go[y]);
        if go[y] {
            moves.push((y, x));
            if keep {
                st[x].b = old[y].a.clone();
            } else {
                st[x].a = old[y].a.clone();
            }
        } else if go[x] {
            st[x].a = vec![false; m];
        }
        (st[x].va, st[x].vb) = (va, vb);
    }
    moves.sort_unstable();
    moves
}

/// What a routing phase did, placed in time.
#[derive(Debug, Clone, Default)]
pub(crate) struct Routed {
    /// The frame (body and sources) at each node's delivery register, if any.
    pub(crate) arrivals: Vec<Option<Frame>>,
    /// Every collision with the bit time from which the node's flag reads 1.
    pub(crate) collisions: Vec<(u64, Collision)>,
    /// Every frame arriving, with the receiving node.
    pub(crate) deliveries: Vec<(usize, Delivery)>,
    /// `(from, to)` of every frame, sorted.
    pub(crate) moves: Vec<(usize, usize)>,
}

/// Routes `frames` (one optional frame per node, `k` address bits in consumption order,
/// the bits of bypassed dimensions 0) through the pipeline in `order`. Phase cycle 0 is
/// bit time `t0`; the pipeline has `f` active stages, and the first `skipped` steps of
/// `order` are bypassed (their dimensions are not walked, so they cost no bit time).
pub(crate) fn route_phase(
    k: usize,
    order: DimOrder,
    frames: Vec<Option<Frame>>,
    t0: u64,
    f: usize,
    skipped: usize,
) -> Routed {
    let out = route_frames(k, order, frames);
    let collisions = out
        .collisions
        .into_iter()
        .map(|c| (t0 + collision_visible(c.step - skipped), c))
        .collect();
    let mut deliveries = Vec::new();
    let mut moves = Vec::new();
    for (y, fr) in out.arrivals.iter().enumerate() {
        if let Some(fr) = fr {
            moves.extend(fr.sources.iter().map(|&s| (s, y)));
            let start = t0 + (2 * f + 1) as u64;
            deliveries.push((y, Delivery::frame(start, &fr.body, fr.sources.clone())));
        }
    }
    moves.sort_unstable();
    Routed {
        arrivals: out.arrivals,
        collisions,
        deliveries,
        moves,
    }
}

/// A frame from `x` with address bits `addr` (consumption order) and `body`.
pub(crate) fn frame(x: usize, addr: Vec<bool>, body: Vec<bool>) -> Frame {
    Frame {
        addr,
        body,
        sources: vec![x],
    }
}

/// Bit `d` of `x`.
pub(crate) fn xb(x: usize, d: usize) -> bool {
    x >> d & 1 == 1
}

/// Algorithm 1 (`semi`, all `k` dimensions ascending) on `st`, phase cycle 0 at `t0`:
/// every node holding a message sends its payload to the destination in A's
/// destination field; receivers take the payload into A's payload field and `va` says
/// whether one arrived.
pub(crate) fn semi(st: &mut [NodeState], k: usize, t0: u64) -> Routed {
    let frames = st
        .iter()
        .enumerate()
        .map(|(x, s)| {
            let addr = (0..k).map(|d| s.a[d] ^ xb(x, d)).collect();
            s.va.then(|| frame(x, addr, s.a[k..].to_vec()))
        })
        .collect();
    let out = route_phase(k, DimOrder::Ascending, frames, t0, k, 0);
    for (s, f) in st.iter_mut().zip(&out.arrivals) {
        let l = s.a.len() - k;
        s.a.truncate(k);
        match f {
            Some(f) => s.a.extend_from_slice(&f.body),
            None => s.a.extend(std::iter::repeat_n(false, l)),
        }
        s.va = f.is_some();
    }
    out
}
