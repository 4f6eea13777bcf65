//! IPv6 addresses (`[IP]`): full, compressed, with a zone or an embedded IPv4 address. IPv4
//! addresses are read with the digit groups (see `numeric`).

use super::Sink;
use crate::Category;

fn is_v6_char(b: u8) -> bool {
    b.is_ascii_hexdigit() || b == b':' || b == b'.'
}

/// Reports every IPv6 address in the view `s`.
pub(super) fn scan_v6(v: &[u8], sink: &mut Sink) {
    let mut i = 0;
    while let Some(k) = memchr::memchr(b':', &v[i..]) {
        let colon = i + k;
        let mut start = colon;
        while start > 0 && is_v6_char(v[start - 1]) {
            start -= 1;
        }
        let mut end = colon;
        while end < v.len() && is_v6_char(v[end]) {
            end += 1;
        }
        i = end.max(colon + 1);
        // A colon that ends a label (`from:`, `接続元：`) is not the address's.
        if v[start] == b':' && !v[start..].starts_with(b"::") || v[start..].starts_with(b":::") {
            start += 1;
        }
        if start > 0 && (v[start - 1].is_ascii_alphanumeric() || v[start - 1] == b'_') {
            continue;
        }
        // Sentence punctuation after the address is not part of it.
        while end > start && matches!(v[end - 1], b'.' | b':') && !v[start..end].ends_with(b"::") {
            end -= 1;
        }
        if v.get(end)
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
        {
            continue;
        }
        let mut stop = end;
        // A zone index: `%eth0`, `%25en0` in a URL.
        if v.get(end) == Some(&b'%') {
            stop = end + 1;
            while stop < v.len() && (v[stop].is_ascii_alphanumeric() || v[stop] == b'_') {
                stop += 1;
            }
        }
        if is_ipv6(&v[start..end]) {
            sink.unit(start, stop);
            sink.push(start, stop, Category::Ip, true);
        }
    }
}

/// True when `t` is an IPv6 address that is not loopback or unspecified.
fn is_ipv6(t: &[u8]) -> bool {
    if t.len() < 3 || !t.contains(&b':') {
        return false;
    }
    let double = t.windows(2).filter(|w| w == b"::").count();
    if double > 1 || t.windows(3).any(|w| w == b":::") {
        return false;
    }
    // An embedded IPv4 address ends the address.
    let (hex_part, v4) = match t.iter().rposition(|&b| b == b':') {
        Some(k) if t[k + 1..].contains(&b'.') => (&t[..=k], Some(&t[k + 1..])),
        _ => (t, None),
    };
    if let Some(v4) = v4 {
        let parts: Vec<&[u8]> = v4.split(|&b| b == b'.').collect();
        let ok = parts.len() == 4
            && parts.iter().all(|p| {
                (1..=3).contains(&p.len())
                    && p.iter().all(u8::is_ascii_digit)
                    && p.iter().fold(0u32, |a, &d| a * 10 + u32::from(d - b'0')) <= 255
            });
        if !ok {
            return false;
        }
    } else if t.contains(&b'.') {
        return false;
    }
    let hex_part = if v4.is_some() {
        // `::ffff:192.0.2.1` keeps its `::`; a single trailing `:` only separates the IPv4 part.
        if hex_part.ends_with(b"::") {
            hex_part
        } else {
            &hex_part[..hex_part.len() - 1]
        }
    } else {
        hex_part
    };
    let groups: Vec<&[u8]> = hex_part
        .split(|&b| b == b':')
        .filter(|g| !g.is_empty())
        .collect();
    if !groups
        .iter()
        .all(|g| g.len() <= 4 && g.iter().all(u8::is_ascii_hexdigit))
    {
        return false;
    }
    let count = groups.len() + if v4.is_some() { 2 } else { 0 };
    let shape = if double == 1 { count <= 7 } else { count == 8 };
    if !shape {
        return false;
    }
    // Empty groups only around a `::`.
    let inner_empty = hex_part
        .split(|&b| b == b':')
        .enumerate()
        .filter(|(_, g)| g.is_empty())
        .count();
    if double == 0 && inner_empty > 0 {
        return false;
    }
    let digit = t.iter().any(u8::is_ascii_digit);
    if !digit || groups.is_empty() && v4.is_none() {
        return false;
    }
    let value: Vec<u16> = groups
        .iter()
        .map(|g| {
            g.iter()
                .fold(0u16, |a, &d| a.wrapping_mul(16) + hex_value(d))
        })
        .collect();
    // `::1`, `0:0:0:0:0:0:0:1` and `::` are loopback and unspecified.
    let zero_then_one = v4.is_none()
        && value.iter().rev().skip(1).all(|&x| x == 0)
        && value.last().is_some_and(|&x| x <= 1);
    !zero_then_one && (double == 1 || groups.len() >= 3 || v4.is_some())
}

fn hex_value(d: u8) -> u16 {
    match d {
        b'0'..=b'9' => u16::from(d - b'0'),
        b'a'..=b'f' => u16::from(d - b'a' + 10),
        _ => u16::from(d - b'A' + 10),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses() {
        for a in [
            "2001:db8:85a3:0:0:8a2e:370:7334",
            "2001:0db8:85a3:0000:0000:8a2e:0370:7334",
            "2001:db8::1",
            "fe80::1",
            "::ffff:192.0.2.1",
            "64:ff9b::192.0.2.33",
        ] {
            assert!(is_ipv6(a.as_bytes()), "{a}");
        }
        for n in [
            "::1",
            "::",
            "12:30:45",
            "00:1A:2B:3C:4D:5E",
            "a::b::c",
            "0:0:0:0:0:0:0:1",
            "dead::beef",
        ] {
            assert!(!is_ipv6(n.as_bytes()), "{n}");
        }
    }
}
