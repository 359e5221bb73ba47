//! The string and number parts of XPath 1.0 (§3.5, §4.2–§4.4), answering
//! exactly as libxml2 2.14 does (checked through lxml; the expected values
//! in the tests come from `tools/xpath_functions_oracle.py`).
//!
//! Where libxml2 departs from the XPath 1.0 text, we follow libxml2:
//!
//! - `string(number)` shows at most 15 significant digits (16 for numbers in
//!   [1, 10)), switches to C-style scientific notation (`1e+15`, `1e-06`)
//!   above 1e9 and below 1e-5, and prints only integers strictly between
//!   -2^31 and 2^31 - 1 without an exponent ([`number_to_string`]).
//! - `number(string)` also accepts an exponent (`1e3`, `1E-3`, even a bare
//!   `1e`), and is not correctly rounded: it adds digits up in doubles, keeps
//!   at most 20 fraction digits and scales by `pow(10, exponent)`, so
//!   `number("8.5e-1")` is 0.8500000000000001 and `number("0e400")` is NaN
//!   ([`string_to_number`]). Number tokens in expressions behave the same.
//! - `lang()` ignores case in ASCII letters only ([`lang_matches`]).
//! - `id()` keeps leading whitespace in its first token ([`id_tokens`]).

use std::collections::HashMap;
use std::fmt::Write as _;

use crate::chars::{is_xml_space, is_xml_space_byte};

/// `10^exp` as glibc's `pow(10.0, exp)` gives it, which libxml2 uses to
/// scale digits. That is the correctly rounded power except for 10^23 (an
/// exact tie, which glibc rounds up rather than to even) and 10^210, where
/// glibc is one unit in the last place above.
fn pow10(exp: i64) -> f64 {
    if exp > 400 {
        return f64::INFINITY;
    }
    if exp < -400 {
        return 0.0;
    }
    if (0..=22).contains(&exp) {
        // Every step is exact up to 10^22.
        return (0..exp).fold(1.0, |power, _| power * 10.0);
    }
    // "1e-400" at most: format into a stack buffer and let the standard
    // library's correctly rounded parser do the work.
    let mut buf = [0u8; 8];
    let mut len = 0;
    let mut push = |b: u8| {
        if let Some(slot) = buf.get_mut(len) {
            *slot = b;
            len += 1;
        }
    };
    push(b'1');
    push(b'e');
    if exp < 0 {
        push(b'-');
    }
    let magnitude = exp.unsigned_abs();
    let mut started = false;
    for divisor in [100, 10, 1] {
        let digit = (magnitude / divisor) % 10;
        if digit != 0 || started || divisor == 1 {
            started = true;
            // `digit` is below 10.
            push(b'0' + digit as u8);
        }
    }
    let correct = buf
        .get(..len)
        .and_then(|bytes| std::str::from_utf8(bytes).ok())
        .and_then(|text| text.parse::<f64>().ok())
        .unwrap_or(f64::NAN);
    if exp == 23 || exp == 210 {
        f64::from_bits(correct.to_bits().wrapping_add(1))
    } else {
        correct
    }
}

/// Reads an unsigned XPath number at the start of `b` the way libxml2 does,
/// returning its value and how many bytes it took, or `None` if `b` does not
/// start with a digit or with `.` and a digit.
///
/// The grammar is `Digits ('.' Digits?)? | '.' Digits` (XPath 1.0 [30]),
/// followed by libxml2's extension `([eE] [+-]? Digits?)?`. The value is
/// computed as libxml2 computes it, not correctly rounded: the integer
/// digits are accumulated in a double (`v = v * 10 + d`); the fraction's
/// leading zeros are counted, then at most 20 more digits are accumulated
/// (the rest are skipped) and divided by `pow(10, digits counted)`; finally
/// the sum is multiplied by `pow(10, exponent)`.
fn scan_number(b: &[u8]) -> Option<(f64, usize)> {
    let digit = |i: usize| b.get(i).filter(|c| c.is_ascii_digit()).map(|c| c - b'0');
    let mut i = 0;
    let mut value = 0.0_f64;
    while let Some(d) = digit(i) {
        value = value * 10.0 + f64::from(d);
        i += 1;
    }
    let starts_with_point_digit = b.first() == Some(&b'.') && digit(1).is_some();
    if i == 0 && !starts_with_point_digit {
        return None;
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        let mut places: i64 = 0;
        while b.get(i) == Some(&b'0') {
            places += 1;
            i += 1;
        }
        let budget = places + 20;
        let mut fraction = 0.0_f64;
        while let Some(d) = digit(i) {
            if places < budget {
                fraction = fraction * 10.0 + f64::from(d);
                places += 1;
            }
            i += 1;
        }
        value += fraction / pow10(places);
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        let mut negative = false;
        match b.get(i) {
            Some(b'-') => {
                negative = true;
                i += 1;
            }
            Some(b'+') => i += 1,
            _ => {}
        }
        // Any exponent past 400 already gives 0 or Infinity, so saturate.
        let mut exponent: i64 = 0;
        while let Some(d) = digit(i) {
            exponent = (exponent * 10 + i64::from(d)).min(1_000_000);
            i += 1;
        }
        // 0 * pow(10, 400) is 0 * Infinity: NaN, as in libxml2.
        value *= pow10(if negative { -exponent } else { exponent });
    }
    Some((value, i))
}

/// XPath number -> string as libxml2 formats it (xmlXPathCastNumberToString
/// behaviour): NaN, Infinity, -Infinity, "0" for ±0, integers without a
/// fraction, otherwise up to 15 significant digits with trailing zeros
/// removed, scientific notation like "1e+21" / "1.23456789012346e+29" /
/// "1e-07" outside some range.
///
/// XPath 1.0 §4.2 asks for no exponent and as many digits as are needed to
/// tell the number apart from every other double. libxml2 instead:
///
/// - prints integers strictly between -2^31 and 2^31 - 1 as integers
///   (2147483646 stays, 2147483647 becomes `2.147483647e+09`);
/// - prints other numbers whose magnitude is above 1e9 or below 1e-5 like
///   C's `%.14e` (15 significant digits, at least two exponent digits) with
///   the mantissa's trailing zeros dropped: `1e+15`, `1.5e-07`;
/// - prints the rest like C's `%.*f` with `15 - k` decimals, where
///   `k = trunc(log10(|n|))` (`14 - k` if `k > 0`), dropping trailing zeros.
///   So numbers in [1, 10) get 16 significant digits (4 div 3 is
///   `1.333333333333333`), all others 15. And since glibc's `log10` rounds
///   to the integer for doubles very close to a power of ten, a few numbers
///   just below 10^k (k > 0) get one digit fewer (999.9999999999994 is
///   `1000`) and a few just above 10^-k one more (1.0000000000000006e-5 is
///   `0.00001000000000000001`).
pub(crate) fn number_to_string(n: f64) -> String {
    if n.is_nan() {
        return "NaN".to_owned();
    }
    if n.is_infinite() {
        return if n > 0.0 { "Infinity" } else { "-Infinity" }.to_owned();
    }
    if n == 0.0 {
        return "0".to_owned();
    }
    if n > -2_147_483_648.0 && n < 2_147_483_647.0 && n == n.trunc() {
        // In range and integral, so the conversion is exact.
        return (n as i32).to_string();
    }
    let magnitude = n.abs();
    if !(1e-5..=1e9).contains(&magnitude) {
        let text = format!("{n:.14e}");
        let Some((mantissa, exponent)) = text.split_once('e') else {
            return text;
        };
        let Ok(exponent) = exponent.parse::<i32>() else {
            return text;
        };
        let mut out = trim_fraction_zeros(mantissa).to_owned();
        let sign = if exponent < 0 { '-' } else { '+' };
        let _ = write!(out, "e{sign}{:02}", exponent.unsigned_abs());
        return out;
    }
    let k = truncated_log10(magnitude);
    let decimals = if k > 0 { 14 - k } else { 15 - k };
    let decimals = usize::try_from(decimals).unwrap_or(0);
    let text = format!("{n:.decimals$}");
    trim_fraction_zeros(&text).to_owned()
}

/// `trunc(log10(x))` as glibc computes it, for `1e-5 <= x <= 1e9`. glibc's
/// `log10` rounds to an integer for a few doubles just beside a power of
/// ten; these are the smallest doubles at which the truncated value steps
/// up, found by scanning the 200,000 doubles on each side of each power
/// (one step each, and every double from 1e-5 to 1e9 agrees with glibc).
fn truncated_log10(x: f64) -> i32 {
    const STEPS: [f64; 14] = [
        1.000_000_000_000_001_1e-5,
        0.000_100_000_000_000_000_06,
        0.001_000_000_000_000_000_7,
        0.010_000_000_000_000_004,
        0.100_000_000_000_000_02,
        10.0,
        99.999_999_999_999_99,
        999.999_999_999_999_4,
        9_999.999_999_999_996,
        99_999.999_999_999_91,
        999_999.999_999_999,
        9_999_999.999_999_99,
        99_999_999.999_999_91,
        999_999_999.999_997_9,
    ];
    let mut k = -5;
    for step in STEPS {
        if x >= step {
            k += 1;
        }
    }
    k
}

/// Drops trailing zeros after a decimal point, and the point if nothing is
/// left after it.
fn trim_fraction_zeros(text: &str) -> &str {
    if !text.contains('.') {
        return text;
    }
    let trimmed = text.trim_end_matches('0');
    trimmed.strip_suffix('.').unwrap_or(trimmed)
}

/// string -> number as libxml2's number() does (whitespace around, optional
/// '-', digits/'.', whether it accepts exponents, '+', 'Infinity', etc.).
///
/// XPath 1.0 §4.4 takes optional XML whitespace, an optional `-`, a
/// `Number` and optional whitespace; anything else is NaN. So `+12`,
/// `- 12`, `Infinity`, `NaN`, `0x10`, `1,000` and non-ASCII digits are all
/// NaN, as in libxml2. libxml2 differs in that it also accepts an exponent
/// (`1e3`, `1E+3`, `1e-3`, and `1e`, `1e+` meaning no exponent), and in
/// how it computes the value (see [`scan_number`]): `8.5e-1` gives
/// 0.8500000000000001, `1e23` gives 1.0000000000000001e23, `5e-324` gives
/// 0, and `0e400` gives NaN (0 times an infinite scale).
pub(crate) fn string_to_number(s: &str) -> f64 {
    let b = s.as_bytes();
    let start = b.iter().take_while(|&&c| is_xml_space_byte(c)).count();
    let Some(rest) = b.get(start..) else {
        return f64::NAN;
    };
    let (negative, rest) = match rest.split_first() {
        Some((b'-', after)) => (true, after),
        _ => (false, rest),
    };
    let Some((value, used)) = scan_number(rest) else {
        return f64::NAN;
    };
    let tail = rest.get(used..).unwrap_or_default();
    if !tail.iter().all(|&c| is_xml_space_byte(c)) {
        return f64::NAN;
    }
    if negative {
        -value
    } else {
        value
    }
}

/// Parse a Number token of an XPath expression ("12", "1.5", ".5", "5.",
/// and the exponent forms libxml2's expression parser accepts, e.g. "1e3");
/// the caller has already delimited the lexeme. Returns None if it is not a
/// number token libxml2 would accept.
///
/// libxml2 reads number tokens with the same grammar and arithmetic as
/// [`string_to_number`] (so the literal `0.49999999999999994` is 0.5, and
/// `1e` is 1). A sign or whitespace is not part of the token.
pub(crate) fn parse_number_literal(lexeme: &str) -> Option<f64> {
    match scan_number(lexeme.as_bytes()) {
        Some((value, used)) if used == lexeme.len() => Some(value),
        _ => None,
    }
}

/// The longest prefix of `s` that libxml2's XPath lexer would read as one
/// Number token (so the lexer can delimit it): returns its byte length, 0 if
/// none.
///
/// The lexer reads `Digits ('.' Digits?)? | '.' Digits`, then takes an
/// `e`/`E` with an optional sign and any digits, even none: `1ediv 2` is
/// `1e div 2`, 0.5. It does not check what follows (`12abc` is `12`, then a
/// name, which the parser rejects).
pub(crate) fn number_literal_len(s: &str) -> usize {
    scan_number(s.as_bytes()).map_or(0, |(_, used)| used)
}

/// round() (XPath 1.0 §4.4): the closest integer, halves towards positive
/// infinity; NaN and infinities unchanged; -0 for -0 and for [-0.5, 0).
/// libxml2 follows the text exactly (no `floor(x + 0.5)` error for
/// 0.49999999999999994 or 2^52 + 1).
pub(crate) fn round(n: f64) -> f64 {
    if !n.is_finite() {
        return n;
    }
    if (-0.5..0.0).contains(&n) {
        return -0.0;
    }
    let down = n.floor();
    // `n - down` is exact for every double.
    if n - down >= 0.5 {
        down + 1.0
    } else {
        down
    }
}

/// floor() (XPath 1.0 §4.4), IEEE style: floor(-0) is -0.
pub(crate) fn floor(n: f64) -> f64 {
    n.floor()
}

/// ceiling() (XPath 1.0 §4.4), IEEE style: ceiling(-0.5) and ceiling(-0)
/// are -0.
pub(crate) fn ceiling(n: f64) -> f64 {
    n.ceil()
}

/// substring() (XPath 1.0 §4.2): the characters at positions `p` (from 1)
/// with `round(start) <= p < round(start) + round(length)`, computed in
/// doubles, so NaN selects nothing and `-Infinity + Infinity` is NaN.
/// Positions count Unicode scalar values; libxml2 counts UTF-8 sequences,
/// which is the same (U+1F600 is one character, not two UTF-16 units).
pub(crate) fn substring(s: &str, start: f64, length: Option<f64>) -> &str {
    let first = round(start);
    let end = match length {
        Some(length) => first + round(length),
        None => f64::INFINITY,
    };
    let mut from = None;
    let mut to = s.len();
    let mut position = 0.0_f64;
    for (index, _) in s.char_indices() {
        position += 1.0;
        let inside = position >= first && position < end;
        match (inside, from) {
            (true, None) => from = Some(index),
            (false, Some(_)) => {
                to = index;
                break;
            }
            _ => {}
        }
    }
    from.and_then(|from| s.get(from..to)).unwrap_or_default()
}

/// substring-before() (XPath 1.0 §4.2): empty if `t` does not occur; an
/// empty `t` occurs at the start.
pub(crate) fn substring_before<'s>(s: &'s str, t: &str) -> &'s str {
    s.split_once(t).map_or("", |(before, _)| before)
}

/// substring-after() (XPath 1.0 §4.2): empty if `t` does not occur; an
/// empty `t` gives the whole string.
pub(crate) fn substring_after<'s>(s: &'s str, t: &str) -> &'s str {
    s.split_once(t).map_or("", |(_, after)| after)
}

/// string-length() (XPath 1.0 §4.2) in Unicode scalar values, as libxml2
/// counts them.
pub(crate) fn string_length(s: &str) -> f64 {
    // A str of more than 2^53 characters cannot exist, so this is exact.
    s.chars().count() as f64
}

/// normalize-space() (XPath 1.0 §4.2): strips XML's four whitespace
/// characters (space, tab, CR, LF) at both ends and collapses runs of them
/// to one space. Other spaces (U+00A0, U+3000) are ordinary characters.
pub(crate) fn normalize_space(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split(is_xml_space).filter(|word| !word.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// translate() (XPath 1.0 §4.2): each character of `s` found in `from` is
/// replaced by the character at the same position in `to`, or removed if
/// `to` is shorter; a character repeated in `from` uses its first position.
pub(crate) fn translate(s: &str, from: &str, to: &str) -> String {
    let from: Vec<char> = from.chars().collect();
    let to: Vec<char> = to.chars().collect();
    // What each character of `from` becomes (`None`: removed), the first
    // occurrence counting; past a few characters, in a map, so that a long
    // `from` does not cost its length per character of `s`.
    let mut map: HashMap<char, Option<char>> = HashMap::new();
    if from.len() > 16 {
        for (index, &f) in from.iter().enumerate() {
            map.entry(f).or_insert_with(|| to.get(index).copied());
        }
    }
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let replaced = if map.is_empty() {
            from.iter()
                .position(|&f| f == c)
                .map(|index| to.get(index).copied())
        } else {
            map.get(&c).copied()
        };
        match replaced {
            Some(Some(replacement)) => out.push(replacement),
            Some(None) => {}
            None => out.push(c),
        }
    }
    out
}

/// lang(): does an xml:lang value match the argument (case-insensitive,
/// subtags after '-')?
///
/// True if `xml_lang` equals `wanted` or starts with it followed by `-`
/// (XPath 1.0 §4.3). libxml2 ignores case in ASCII letters only (`é` does
/// not match `É`), compares the values as they are (no trimming), and an
/// empty `wanted` matches an empty value or one starting with `-`.
pub(crate) fn lang_matches(xml_lang: &str, wanted: &str) -> bool {
    let value = xml_lang.as_bytes();
    let wanted = wanted.as_bytes();
    match value.get(..wanted.len()) {
        Some(head) if head.eq_ignore_ascii_case(wanted) => {
            matches!(value.get(wanted.len()), None | Some(b'-'))
        }
        _ => false,
    }
}

/// The tokens of an id() argument string (split on XML whitespace).
///
/// libxml2 departs from XPath 1.0 §4.1 here: whitespace before the first
/// token stays part of it, so `id(" a")` looks for the ID `" a"` and finds
/// nothing, while `id("\ta")` finds an element whose ID is a tab and `a`
/// (which a DTD-declared ID can be, through `&#9;a`). Only XML's four
/// whitespace characters separate tokens; an all-whitespace string has none.
pub(crate) fn id_tokens(s: &str) -> impl Iterator<Item = &str> {
    let lead = s.len() - s.trim_start_matches(is_xml_space).len();
    let first_end = s
        .get(lead..)
        .and_then(|rest| rest.find(is_xml_space))
        .map_or(s.len(), |offset| lead + offset);
    let first = s.get(..first_end).filter(|_| lead < s.len());
    let rest = s.get(first_end..).unwrap_or_default();
    first
        .into_iter()
        .chain(rest.split(is_xml_space).filter(|token| !token.is_empty()))
}

/// number -> boolean (XPath 1.0 §4.3): false for ±0 and NaN.
pub(crate) fn number_to_boolean(n: f64) -> bool {
    n != 0.0 && !n.is_nan()
}

/// string -> boolean (XPath 1.0 §4.3): true if not empty (`" "` and `"0"`
/// are true).
pub(crate) fn string_to_boolean(s: &str) -> bool {
    !s.is_empty()
}

/// `=` on two numbers (XPath 1.0 §3.4, IEEE 754): NaN equals nothing, not
/// even NaN; 0 equals -0. `!=` is its negation, so NaN != NaN is true.
pub(crate) fn numbers_equal(a: f64, b: f64) -> bool {
    a == b
}

/// x mod y as libxml2 computes it: C's `fmod`, the remainder of truncating
/// division, exact, with the sign of `a` (XPath 1.0 §3.5): `-5 mod 2` is
/// -1, `-2 mod 2` is -0, anything mod 0 and Infinity mod anything are NaN,
/// and finite `a` mod ±Infinity is `a`.
pub(crate) fn modulo(a: f64, b: f64) -> f64 {
    a % b
}

#[cfg(test)]
mod tests {
    //! Every expected value below was observed from libxml2 2.14.6 through
    //! lxml; `tools/xpath_functions_oracle.py` prints them again.

    use super::*;

    /// The same double: bit for bit (so -0 is not 0), or both NaN.
    #[track_caller]
    fn same(actual: f64, expected: f64) {
        assert!(
            actual.to_bits() == expected.to_bits() || (actual.is_nan() && expected.is_nan()),
            "got {actual:?}, expected {expected:?}"
        );
    }

    #[track_caller]
    fn same_opt(actual: Option<f64>, expected: Option<f64>) {
        match (actual, expected) {
            (Some(actual), Some(expected)) => same(actual, expected),
            _ => assert_eq!(actual.is_some(), expected.is_some(), "got {actual:?}"),
        }
    }

    #[test]
    fn number_to_string_matches_libxml2() {
        assert_eq!(number_to_string(0.0), "0");
        assert_eq!(number_to_string(-0.0), "0");
        assert_eq!(number_to_string(1.0), "1");
        assert_eq!(number_to_string(-1.0), "-1");
        assert_eq!(number_to_string(0.5), "0.5");
        assert_eq!(number_to_string(0.3333333333333333), "0.333333333333333");
        assert_eq!(number_to_string(0.6666666666666666), "0.666666666666667");
        assert_eq!(number_to_string(0.30000000000000004), "0.3");
        assert_eq!(number_to_string(100.0), "100");
        assert_eq!(number_to_string(1000000000.0), "1000000000");
        assert_eq!(number_to_string(1000000000.5), "1.0000000005e+09");
        assert_eq!(number_to_string(2147483647.0), "2.147483647e+09");
        assert_eq!(number_to_string(2147483648.0), "2.147483648e+09");
        assert_eq!(number_to_string(4294967296.5), "4.2949672965e+09");
        assert_eq!(number_to_string(1000000000000000.0), "1e+15");
        assert_eq!(number_to_string(1e+16), "1e+16");
        assert_eq!(number_to_string(1e+21), "1e+21");
        assert_eq!(number_to_string(1e-05), "0.00001");
        assert_eq!(number_to_string(1e-06), "1e-06");
        assert_eq!(number_to_string(1.5e-07), "1.5e-07");
        assert_eq!(
            number_to_string(1.2345678901234568e+17),
            "1.23456789012346e+17"
        );
        assert_eq!(number_to_string(-1.5), "-1.5");
        assert_eq!(number_to_string(1e+300), "1e+300");
        assert_eq!(number_to_string(5e-324), "4.94065645841247e-324");
        assert_eq!(number_to_string(f64::NAN), "NaN");
        assert_eq!(number_to_string(f64::INFINITY), "Infinity");
        assert_eq!(number_to_string(f64::NEG_INFINITY), "-Infinity");
        assert_eq!(number_to_string(12345.678901234567), "12345.6789012346");
        assert_eq!(number_to_string(0.000123), "0.000123");
        assert_eq!(number_to_string(2147483646.0), "2147483646");
        assert_eq!(number_to_string(-2147483647.0), "-2147483647");
        assert_eq!(number_to_string(-2147483648.0), "-2.147483648e+09");
        assert_eq!(number_to_string(1000000001.0), "1000000001");
        assert_eq!(number_to_string(4294967296.0), "4.294967296e+09");
        assert_eq!(number_to_string(1.3333333333333333), "1.333333333333333");
        assert_eq!(number_to_string(1.4285714285714286), "1.428571428571429");
        assert_eq!(number_to_string(14.285714285714286), "14.2857142857143");
        assert_eq!(number_to_string(0.14285714285714285), "0.142857142857143");
        assert_eq!(number_to_string(0.1), "0.1");
        assert_eq!(number_to_string(123.456), "123.456");
        assert_eq!(number_to_string(-0.25), "-0.25");
        assert_eq!(number_to_string(999999999.5), "999999999.5");
        assert_eq!(number_to_string(-1000000000.5), "-1.0000000005e+09");
        assert_eq!(number_to_string(9.999e-06), "9.999e-06");
        assert_eq!(number_to_string(-1e-06), "-1e-06");
        assert_eq!(
            number_to_string(1.7976931348623157e+308),
            "1.79769313486232e+308"
        );
        assert_eq!(number_to_string(1e+100), "1e+100");
        assert_eq!(number_to_string(1234567890123465.0), "1.23456789012346e+15");
        assert_eq!(number_to_string(1.0000152587890625), "1.000015258789062");
        assert_eq!(number_to_string(999.9999999999994), "1000");
        assert_eq!(number_to_string(999.9999999999993), "999.999999999999");
        assert_eq!(
            number_to_string(1.0000000000000006e-05),
            "0.00001000000000000001"
        );
        assert_eq!(number_to_string(0.9999999999999999), "1");
        assert_eq!(number_to_string(9.999999999999998), "9.999999999999998");
    }

    #[test]
    fn string_to_number_matches_libxml2() {
        same(string_to_number("12"), 12.0);
        same(string_to_number(" 12 "), 12.0);
        same(string_to_number("\t\n12\r "), 12.0);
        same(string_to_number("-12"), -12.0);
        same(string_to_number("- 12"), f64::NAN);
        same(string_to_number("+12"), f64::NAN);
        same(string_to_number("12."), 12.0);
        same(string_to_number(".5"), 0.5);
        same(string_to_number("."), f64::NAN);
        same(string_to_number(""), f64::NAN);
        same(string_to_number("abc"), f64::NAN);
        same(string_to_number("1e3"), 1000.0);
        same(string_to_number("1E3"), 1000.0);
        same(string_to_number("Infinity"), f64::NAN);
        same(string_to_number("-Infinity"), f64::NAN);
        same(string_to_number("NaN"), f64::NAN);
        same(string_to_number("0x10"), f64::NAN);
        same(string_to_number("1,000"), f64::NAN);
        same(string_to_number("\u{661}\u{662}"), f64::NAN);
        same(string_to_number("12abc"), f64::NAN);
        same(string_to_number("--1"), f64::NAN);
        same(string_to_number("-.5"), -0.5);
        same(string_to_number("-"), f64::NAN);
        same(string_to_number(" -12 "), -12.0);
        same(string_to_number("-0"), -0.0);
        same(string_to_number("00012"), 12.0);
        same(string_to_number("1e-3"), 0.001);
        same(string_to_number("1e+3"), 1000.0);
        same(string_to_number("1.5e3"), 1500.0);
        same(string_to_number("1e"), 1.0);
        same(string_to_number("1e+"), 1.0);
        same(string_to_number("1e-"), 1.0);
        same(string_to_number("1 e3"), f64::NAN);
        same(string_to_number("1e 3"), f64::NAN);
        same(string_to_number("1e3.5"), f64::NAN);
        same(string_to_number("e3"), f64::NAN);
        same(string_to_number("12 3"), f64::NAN);
        same(string_to_number("\u{a0}12"), f64::NAN);
        same(string_to_number("12\u{a0}"), f64::NAN);
        same(string_to_number("\u{3000}12"), f64::NAN);
        same(string_to_number("1..2"), f64::NAN);
        same(string_to_number(" . "), f64::NAN);
        same(string_to_number("-e3"), f64::NAN);
        same(string_to_number("8.5e-1"), 0.8500000000000001);
        same(string_to_number("1e23"), 1.0000000000000001e+23);
        same(string_to_number("0.1"), 0.1);
        same(string_to_number("0.30000000000000004"), 0.30000000000000004);
        same(string_to_number("9007199254740993"), 9007199254740992.0);
        same(
            string_to_number("123456789012345678901234567890"),
            1.2345678901234566e+29,
        );
        same(
            string_to_number("0.000143361436450306067203619019335"),
            0.00014336143645030604,
        );
        same(string_to_number("5e-324"), 0.0);
        same(string_to_number("1e-324"), 0.0);
        same(string_to_number("1e309"), f64::INFINITY);
        same(
            string_to_number("1.7976931348623159e308"),
            1.7976931348623157e+308,
        );
        same(string_to_number("0e400"), f64::NAN);
        same(string_to_number("-0e400"), f64::NAN);
        same(string_to_number("0.49999999999999994"), 0.5);
    }

    #[test]
    fn number_literals_match_libxml2() {
        same_opt(parse_number_literal("12"), Some(12.0));
        same_opt(parse_number_literal("1.5"), Some(1.5));
        same_opt(parse_number_literal(".5"), Some(0.5));
        same_opt(parse_number_literal("5."), Some(5.0));
        same_opt(parse_number_literal("1e3"), Some(1000.0));
        same_opt(parse_number_literal("1E3"), Some(1000.0));
        same_opt(parse_number_literal("1e+3"), Some(1000.0));
        same_opt(parse_number_literal("1e-3"), Some(0.001));
        same_opt(parse_number_literal("1e"), Some(1.0));
        same_opt(parse_number_literal("1e+"), Some(1.0));
        same_opt(parse_number_literal("1.e3"), Some(1000.0));
        same_opt(parse_number_literal(".5e1"), Some(5.0));
        same_opt(parse_number_literal("01"), Some(1.0));
        same_opt(parse_number_literal("8.5e-1"), Some(0.8500000000000001));
        same_opt(parse_number_literal("1e23"), Some(1.0000000000000001e+23));
        same_opt(parse_number_literal("0.49999999999999994"), Some(0.5));
        same_opt(parse_number_literal("0e400"), Some(f64::NAN));
        same_opt(parse_number_literal("1e400"), Some(f64::INFINITY));
        // Not a whole Number token: libxml2 rejects ".e3" and "1.2.3"; a sign
        // or whitespace is a separate token.
        same_opt(parse_number_literal(".e3"), None);
        same_opt(parse_number_literal("1.2.3"), None);
        same_opt(parse_number_literal("1e3e4"), None);
        same_opt(parse_number_literal("-1"), None);
        same_opt(parse_number_literal(" 1"), None);
        same_opt(parse_number_literal("."), None);
        same_opt(parse_number_literal(""), None);
    }

    #[test]
    fn number_literal_len_matches_libxml2s_lexer() {
        // "1ediv 2" is 0.5, "1e-div 2" is 0.5 and "1emod 3" is 1: the lexer
        // takes the "e" (and a sign) even without exponent digits.
        assert_eq!(number_literal_len("1ediv 2"), 2);
        assert_eq!(number_literal_len("1e-div 2"), 3);
        assert_eq!(number_literal_len("1emod 3"), 2);
        // "1.5e3+1" is 1501, "1.+1" is 2, ".5+1" is 1.5, "1div 2" is 0.5.
        assert_eq!(number_literal_len("1.5e3+1"), 5);
        assert_eq!(number_literal_len("1.+1"), 2);
        assert_eq!(number_literal_len(".5+1"), 2);
        assert_eq!(number_literal_len("1div 2"), 1);
        // ".e3", "1e3e4", "1.2.3", "12abc" and "1ex" are all errors: the
        // token ends, and what follows cannot come after a number.
        assert_eq!(number_literal_len(".e3"), 0);
        assert_eq!(number_literal_len("1e3e4"), 3);
        assert_eq!(number_literal_len("1.2.3"), 3);
        assert_eq!(number_literal_len("12abc"), 2);
        assert_eq!(number_literal_len("1ex"), 2);
        // "." and ".." are steps, not numbers; non-ASCII digits are not digits.
        assert_eq!(number_literal_len("."), 0);
        assert_eq!(number_literal_len(".."), 0);
        assert_eq!(number_literal_len("\u{661}"), 0);
        assert_eq!(number_literal_len(""), 0);
    }

    #[test]
    fn rounding_matches_libxml2() {
        same(round(0.0), 0.0);
        same(round(-0.0), -0.0);
        same(round(0.5), 1.0);
        same(round(-0.5), -0.0);
        same(round(1.5), 2.0);
        same(round(2.5), 3.0);
        same(round(-2.5), -2.0);
        same(round(-1.5), -1.0);
        same(round(-0.4), -0.0);
        same(round(0.4), 0.0);
        same(round(-0.6), -1.0);
        same(round(3.7), 4.0);
        same(round(-3.7), -4.0);
        same(round(0.49999999999999994), 0.0);
        same(round(-0.49999999999999994), -0.0);
        same(round(4503599627370497.0), 4503599627370497.0);
        same(round(-4503599627370495.5), -4503599627370495.0);
        same(round(1e+300), 1e+300);
        same(round(-1e+300), -1e+300);
        same(round(f64::NAN), f64::NAN);
        same(round(f64::INFINITY), f64::INFINITY);
        same(round(f64::NEG_INFINITY), f64::NEG_INFINITY);
        same(round(-1e-07), -0.0);
        same(floor(0.0), 0.0);
        same(floor(-0.0), -0.0);
        same(floor(0.5), 0.0);
        same(floor(-0.5), -1.0);
        same(floor(1.5), 1.0);
        same(floor(2.5), 2.0);
        same(floor(-2.5), -3.0);
        same(floor(-1.5), -2.0);
        same(floor(-0.4), -1.0);
        same(floor(0.4), 0.0);
        same(floor(-0.6), -1.0);
        same(floor(3.7), 3.0);
        same(floor(-3.7), -4.0);
        same(floor(0.49999999999999994), 0.0);
        same(floor(-0.49999999999999994), -1.0);
        same(floor(4503599627370497.0), 4503599627370497.0);
        same(floor(-4503599627370495.5), -4503599627370496.0);
        same(floor(1e+300), 1e+300);
        same(floor(-1e+300), -1e+300);
        same(floor(f64::NAN), f64::NAN);
        same(floor(f64::INFINITY), f64::INFINITY);
        same(floor(f64::NEG_INFINITY), f64::NEG_INFINITY);
        same(floor(-1e-07), -1.0);
        same(ceiling(0.0), 0.0);
        same(ceiling(-0.0), -0.0);
        same(ceiling(0.5), 1.0);
        same(ceiling(-0.5), -0.0);
        same(ceiling(1.5), 2.0);
        same(ceiling(2.5), 3.0);
        same(ceiling(-2.5), -2.0);
        same(ceiling(-1.5), -1.0);
        same(ceiling(-0.4), -0.0);
        same(ceiling(0.4), 1.0);
        same(ceiling(-0.6), -0.0);
        same(ceiling(3.7), 4.0);
        same(ceiling(-3.7), -3.0);
        same(ceiling(0.49999999999999994), 1.0);
        same(ceiling(-0.49999999999999994), -0.0);
        same(ceiling(4503599627370497.0), 4503599627370497.0);
        same(ceiling(-4503599627370495.5), -4503599627370495.0);
        same(ceiling(1e+300), 1e+300);
        same(ceiling(-1e+300), -1e+300);
        same(ceiling(f64::NAN), f64::NAN);
        same(ceiling(f64::INFINITY), f64::INFINITY);
        same(ceiling(f64::NEG_INFINITY), f64::NEG_INFINITY);
        same(ceiling(-1e-07), -0.0);
    }

    #[test]
    fn substring_matches_libxml2() {
        assert_eq!(substring("12345", 2.0, Some(3.0)), "234");
        assert_eq!(substring("12345", 2.0, None), "2345");
        assert_eq!(substring("12345", 1.5, Some(2.6)), "234");
        assert_eq!(substring("12345", 0.0, Some(3.0)), "12");
        assert_eq!(substring("12345", f64::NAN, Some(3.0)), "");
        assert_eq!(substring("12345", 1.0, Some(f64::NAN)), "");
        assert_eq!(substring("12345", -42.0, Some(f64::INFINITY)), "12345");
        assert_eq!(
            substring("12345", f64::NEG_INFINITY, Some(f64::INFINITY)),
            ""
        );
        assert_eq!(substring("12345", -1.0, Some(3.0)), "1");
        assert_eq!(substring("12345", 5.0, Some(1.0)), "5");
        assert_eq!(substring("12345", 6.0, None), "");
        assert_eq!(substring("12345", f64::INFINITY, None), "");
        assert_eq!(substring("12345", f64::NEG_INFINITY, None), "12345");
        assert_eq!(substring("12345", 2.0, Some(-1.0)), "");
        assert_eq!(substring("12345", 2.5, None), "345");
        assert_eq!(substring("12345", 2.49999, None), "2345");
        assert_eq!(substring("12345", 0.5, None), "12345");
        assert_eq!(substring("12345", -0.5, Some(2.0)), "1");
        assert_eq!(substring("12345", 1.5, Some(1.5)), "23");
        assert_eq!(substring("12345", 3.0, Some(0.5)), "3");
        assert_eq!(substring("12345", 3.0, Some(0.49999)), "");
        assert_eq!(substring("12345", 3.0, Some(f64::NEG_INFINITY)), "");
        assert_eq!(substring("12345", -1e+300, Some(1e+300)), "");
        assert_eq!(substring("12345", -1e+300, Some(2e+300)), "12345");
        assert_eq!(substring("12345", -4294967295.0, Some(4294967298.0)), "12");
        assert_eq!(substring("", 1.0, Some(2.0)), "");
        assert_eq!(substring("a\u{1f600}b", 2.0, Some(1.0)), "\u{1f600}");
        assert_eq!(substring("a\u{1f600}b", 3.0, None), "b");
        assert_eq!(substring("a\u{e9}bc", 2.0, Some(2.0)), "\u{e9}b");
    }

    #[test]
    fn substring_before_and_after_match_libxml2() {
        assert_eq!(substring_before("1999/04/01", "/"), "1999");
        assert_eq!(substring_after("1999/04/01", "/"), "04/01");
        assert_eq!(substring_before("1999/04/01", "19"), "");
        assert_eq!(substring_after("1999/04/01", "19"), "99/04/01");
        assert_eq!(substring_before("abc", ""), "");
        assert_eq!(substring_after("abc", ""), "abc");
        assert_eq!(substring_before("abc", "x"), "");
        assert_eq!(substring_after("abc", "x"), "");
        assert_eq!(substring_before("", ""), "");
        assert_eq!(substring_after("", ""), "");
        assert_eq!(substring_before("abcabc", "b"), "a");
        assert_eq!(substring_after("abcabc", "b"), "cabc");
        assert_eq!(substring_before("abcabc", "c"), "ab");
        assert_eq!(substring_after("abcabc", "c"), "abc");
        assert_eq!(substring_before("abc", "abc"), "");
        assert_eq!(substring_after("abc", "abc"), "");
        assert_eq!(substring_before("a\u{1f600}b", "\u{1f600}"), "a");
        assert_eq!(substring_after("a\u{1f600}b", "\u{1f600}"), "b");
    }

    #[test]
    fn string_length_matches_libxml2() {
        same(string_length(""), 0.0);
        same(string_length("abc"), 3.0);
        same(string_length("\u{e9}"), 1.0);
        same(string_length("a\u{1f600}b"), 3.0);
        same(string_length("\u{661}\u{662}"), 2.0);
    }

    #[test]
    fn normalize_space_matches_libxml2() {
        assert_eq!(normalize_space("  a  b  "), "a b");
        assert_eq!(normalize_space("\ta\nb\r"), "a b");
        assert_eq!(normalize_space(""), "");
        assert_eq!(normalize_space("   "), "");
        assert_eq!(normalize_space("\u{a0}a\u{a0}"), "\u{a0}a\u{a0}");
        assert_eq!(normalize_space("a\u{a0}\u{a0}b"), "a\u{a0}\u{a0}b");
        assert_eq!(normalize_space("a\u{3000}b"), "a\u{3000}b");
        assert_eq!(normalize_space(" \r\n\t x \t\r\n y \t"), "x y");
    }

    #[test]
    fn translate_matches_libxml2() {
        assert_eq!(translate("bar", "abc", "ABC"), "BAr");
        assert_eq!(translate("--aaa--", "abc-", "ABC"), "AAA");
        assert_eq!(translate("abc", "aa", "xy"), "xbc");
        assert_eq!(translate("abcabc", "abcabc", "xyz"), "xyzxyz");
        assert_eq!(translate("abc", "", "xyz"), "abc");
        assert_eq!(translate("abc", "b", ""), "ac");
        assert_eq!(translate("a\u{1f600}b", "\u{1f600}", "x"), "axb");
        assert_eq!(translate("axb", "x", "\u{1f600}"), "a\u{1f600}b");
        assert_eq!(translate("aaa", "a", "bc"), "bbb");
        assert_eq!(translate("a", "ba", "x"), "");
    }

    #[test]
    fn lang_matches_libxml2() {
        assert!(lang_matches("en", "en"));
        assert!(lang_matches("en-US", "en"));
        assert!(lang_matches("EN", "en"));
        assert!(lang_matches("en", "EN"));
        assert!(lang_matches("en-us", "EN-US"));
        assert!(!lang_matches("en", "en-US"));
        assert!(!lang_matches("english", "en"));
        assert!(!lang_matches("en_US", "en"));
        assert!(lang_matches("en-", "en"));
        assert!(!lang_matches("en-US", "en-"));
        assert!(lang_matches("", ""));
        assert!(!lang_matches("en", ""));
        assert!(!lang_matches("", "en"));
        assert!(lang_matches("en-US-x", "en-US"));
        assert!(!lang_matches("en-USA", "en-US"));
        assert!(!lang_matches(" en", "en"));
        assert!(!lang_matches("en ", "en"));
        assert!(!lang_matches("\u{e9}", "\u{c9}"));
        assert!(lang_matches("-x", ""));
        assert!(lang_matches("a-b-c", "a-b"));
        // id(): IDs found (the tokens are derived from these)
        // id("a b") finds "a", "b"
        // id("  a\tb\nc\r d  ") finds "b", "c", "d"
        // id("") finds nothing
        // id("   ") finds nothing
        // id("a\u{a0}b") finds "a\u{a0}b"
        // id("\ta") finds "\ta"
        // id("\ta b") finds "\ta", "b"
        // id("b \ta") finds "a", "b"
        // id("a\tb\nc\r d") finds "a", "b", "c", "d"
    }

    fn tokens(s: &str) -> Vec<&str> {
        id_tokens(s).collect()
    }

    #[test]
    fn id_tokens_match_libxml2() {
        // In a document with the IDs "\ta" (a tab written as a character
        // reference), "a", "b", "c", "d" and "a\u{a0}b":
        // id("a b") finds "a", "b";
        assert_eq!(tokens("a b"), ["a", "b"]);
        // id("  a\tb\nc\r d  ") finds "b", "c", "d", not "a";
        assert_eq!(tokens("  a\tb\nc\r d  "), ["  a", "b", "c", "d"]);
        // id("a\tb\nc\r d") finds all four;
        assert_eq!(tokens("a\tb\nc\r d"), ["a", "b", "c", "d"]);
        // id("") and id("   ") find nothing;
        assert_eq!(tokens(""), [""; 0]);
        assert_eq!(tokens("   "), [""; 0]);
        // id("a\u{a0}b") finds "a\u{a0}b": U+00A0 does not separate;
        assert_eq!(tokens("a\u{a0}b"), ["a\u{a0}b"]);
        // id("\ta") and id("\ta b") find "\ta", id("b \ta") finds "a".
        assert_eq!(tokens("\ta"), ["\ta"]);
        assert_eq!(tokens("\ta b"), ["\ta", "b"]);
        assert_eq!(tokens("b \ta"), ["b", "a"]);
    }

    #[test]
    fn booleans_match_libxml2() {
        assert!(!number_to_boolean(0.0));
        assert!(!number_to_boolean(-0.0));
        assert!(!number_to_boolean(f64::NAN));
        assert!(number_to_boolean(1.0));
        assert!(number_to_boolean(f64::NEG_INFINITY));
        assert!(number_to_boolean(5e-324));
        assert!(!string_to_boolean(""));
        assert!(string_to_boolean("0"));
        assert!(string_to_boolean(" "));
        assert!(string_to_boolean("false"));
        assert!(!numbers_equal(f64::NAN, f64::NAN));
        assert!(!numbers_equal(f64::NAN, 0.0));
        assert!(numbers_equal(0.0, -0.0));
        assert!(numbers_equal(f64::INFINITY, f64::INFINITY));
        assert!(numbers_equal(1.0, 1.0));
        assert!(!numbers_equal(0.30000000000000004, 0.3));
    }

    #[test]
    fn modulo_matches_libxml2() {
        same(modulo(5.0, 2.0), 1.0);
        same(modulo(5.0, -2.0), 1.0);
        same(modulo(-5.0, 2.0), -1.0);
        same(modulo(-5.0, -2.0), -1.0);
        same(modulo(5.0, 0.0), f64::NAN);
        same(modulo(0.0, 0.0), f64::NAN);
        same(modulo(5.0, f64::INFINITY), 5.0);
        same(modulo(-5.0, f64::INFINITY), -5.0);
        same(modulo(f64::INFINITY, 2.0), f64::NAN);
        same(modulo(0.0, 5.0), 0.0);
        same(modulo(-0.0, 5.0), -0.0);
        same(modulo(-2.0, 2.0), -0.0);
        same(modulo(5.5, 2.0), 1.5);
        same(modulo(-5.5, 2.0), -1.5);
        same(modulo(5.0, 0.3), 0.20000000000000018);
        same(modulo(1e+300, 7.0), 1.0);
        same(modulo(1.0, -0.0), f64::NAN);
        same(modulo(f64::NAN, 1.0), f64::NAN);
    }
}
