//! Where two texts differ: the hunks of a shortest edit script (Myers'
//! O((N+M)D) algorithm), for tests that check that output differs from its
//! input only in small, local places.

use std::ops::Range;

/// The ranges of `a` that a shortest edit script from `a` to `b` changes
/// (a range is empty where it only inserts), merged where they touch, in
/// order; `None` if more than `max_edits` single-byte edits are needed.
pub fn changed_ranges(a: &[u8], b: &[u8], max_edits: usize) -> Option<Vec<Range<usize>>> {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let a = &a[prefix..a.len() - suffix];
    let b = &b[prefix..b.len() - suffix];
    let edits = shortest_edits(a, b, max_edits)?;
    let mut ranges: Vec<Range<usize>> = Vec::new();
    for edit in edits {
        let edit = edit.start + prefix..edit.end + prefix;
        match ranges.last_mut() {
            Some(last) if edit.start <= last.end => last.end = last.end.max(edit.end),
            _ => ranges.push(edit),
        }
    }
    Some(ranges)
}

/// Each edit of a shortest script as a range of `a`: `x..x + 1` for a
/// deletion of `a[x]`, `x..x` for an insertion before `a[x]`; in order.
fn shortest_edits(a: &[u8], b: &[u8], max_edits: usize) -> Option<Vec<Range<usize>>> {
    let (n, m) = (a.len() as isize, b.len() as isize);
    if n == 0 && m == 0 {
        return Some(Vec::new());
    }
    let max = max_edits as isize;
    let offset = max + 1;
    let at = |k: isize| (offset + k) as usize;
    let mut v = vec![0isize; 2 * max_edits + 3];
    // The furthest x on each diagonal k in -d..=d, before step d.
    let mut trace: Vec<Vec<isize>> = Vec::new();
    for d in 0..=max {
        trace.push(v[at(-d)..=at(d)].to_vec());
        for k in (-d..=d).step_by(2) {
            let down = k == -d || (k != d && v[at(k - 1)] < v[at(k + 1)]);
            let mut x = if down { v[at(k + 1)] } else { v[at(k - 1)] + 1 };
            let mut y = x - k;
            while x < n && y < m && a[x as usize] == b[y as usize] {
                x += 1;
                y += 1;
            }
            v[at(k)] = x;
            if x >= n && y >= m {
                return Some(backtrack(&trace, d, k, n));
            }
        }
    }
    None
}

fn backtrack(trace: &[Vec<isize>], d: isize, k: isize, n: isize) -> Vec<Range<usize>> {
    let mut edits = Vec::new();
    let (mut x, mut k) = (n, k);
    for d in (1..=d).rev() {
        let previous = &trace[d as usize];
        let get = |k: isize| previous[(k + d) as usize];
        let down = k == -d || (k != d && get(k - 1) < get(k + 1));
        let prev_k = if down { k + 1 } else { k - 1 };
        let prev_x = get(prev_k);
        if down {
            edits.push(prev_x as usize..prev_x as usize);
        } else {
            edits.push(prev_x as usize..prev_x as usize + 1);
        }
        x = prev_x;
        k = prev_k;
    }
    let _ = x;
    edits.reverse();
    edits
}
