//! Values of any width as little-endian 32-bit words, and their hexadecimal text (used in
//! mismatch reports and in `$readmemh` files).

/// Writes `value` into `out` as words (least significant first), zeroing the rest of `out`.
pub fn u64_to_words(value: u64, out: &mut [u32]) {
    for (i, w) in out.iter_mut().enumerate() {
        *w = match i {
            0 => value as u32,
            1 => (value >> 32) as u32,
            _ => 0,
        };
    }
}

/// Hex digits (no prefix) of the low `width` bits of `words`: exactly `ceil(width/4)` digits,
/// zero-padded, most significant first, like Verilog's `%h`.
pub fn words_to_hex(words: &[u32], width: u32) -> String {
    let digits = (width.max(1) as usize).div_ceil(4);
    let mut s = String::with_capacity(digits);
    for d in (0..digits).rev() {
        let bit = d * 4;
        let word = words.get(bit / 32).copied().unwrap_or(0);
        let mut nibble = (word >> (bit % 32)) & 0xf;
        let remaining = width as usize - bit.min(width as usize);
        if remaining < 4 {
            nibble &= (1u32 << remaining) - 1;
        }
        s.push(char::from_digit(nibble, 16).unwrap_or('?'));
    }
    s
}

/// Like [`words_to_hex`] but keeps bits at and above `width` too (used for the expected value
/// of a report, where stray high bits are themselves the bug), prefixed with `0x`.
pub fn words_to_hex_report(words: &[u32], width: u32) -> String {
    let highest = words
        .iter()
        .enumerate()
        .rev()
        .find(|(_, &w)| w != 0)
        .map_or(0, |(i, &w)| i as u32 * 32 + (32 - w.leading_zeros()));
    format!("0x{}", words_to_hex(words, width.max(highest)))
}

/// ORs the low `width` bits of `value` into `dst` at bit offset `offset`.
pub fn insert_bits(dst: &mut [u32], offset: u32, width: u32, value: &[u32]) {
    for b in 0..width {
        let v = value.get((b / 32) as usize).copied().unwrap_or(0) >> (b % 32) & 1;
        if v != 0 {
            let at = offset + b;
            if let Some(w) = dst.get_mut((at / 32) as usize) {
                *w |= 1 << (at % 32);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_has_verilog_width() {
        assert_eq!(words_to_hex(&[0x2a], 8), "2a");
        assert_eq!(words_to_hex(&[0x5], 3), "5");
        assert_eq!(
            words_to_hex(&[0x1, 0, 0, 0, 0x3], 130),
            format!("3{}1", "0".repeat(31))
        );
        assert_eq!(words_to_hex(&[0xffff_ffff, 0x1], 33), "1ffffffff");
        assert_eq!(words_to_hex_report(&[0x100], 8), "0x100");
    }

    #[test]
    fn bits_are_inserted_at_offsets() {
        let mut d = [0u32; 3];
        insert_bits(&mut d, 30, 4, &[0xf]);
        insert_bits(&mut d, 64, 2, &[0x2]);
        assert_eq!(d, [0xc000_0000, 0x3, 0x2]);
        let mut w = [9u32; 3];
        u64_to_words(0x1_0000_0002, &mut w);
        assert_eq!(w, [2, 1, 0]);
    }
}
