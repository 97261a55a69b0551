//! C `printf` formatting (docs/language.md §2): `%d %i %u %ld %x %X %o %c %s %f %e %g %p %%`
//! with flags `- + space 0 #`, width and precision (also `*`), length modifiers `h hh l ll z`.

use crate::memory::MemError;
use crate::value::{f, Scalar};

/// The widest field (width or precision) printed; a wider one is an error, not a huge string.
pub const MAX_FIELD: usize = 1 << 20;

#[derive(Debug)]
pub enum FormatError {
    /// The `%s` argument with this index could not be read.
    String(usize, MemError),
    FieldTooWide(usize),
}

/// One argument: its word and how it is held.
pub type Arg = (u64, Scalar);

#[derive(Default)]
struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    zero: bool,
    alt: bool,
    width: usize,
    precision: Option<usize>,
    /// Bytes of the integer argument per the length modifier (4 without one).
    int_bytes: u32,
}

/// Formats `fmt` with `args`; `string_at` reads a `%s` argument.
pub fn printf(
    fmt: &[u8],
    args: &[Arg],
    string_at: &dyn Fn(u64) -> Result<Vec<u8>, MemError>,
) -> Result<Vec<u8>, FormatError> {
    let mut out = Vec::new();
    let mut next = 0usize;
    let mut take = || {
        let a = args
            .get(next)
            .copied()
            .unwrap_or((0, Scalar::Int(fork_frontend::hir::IntKind::I32)));
        next += 1;
        (next - 1, a)
    };
    let mut i = 0;
    while i < fmt.len() {
        let c = fmt[i];
        i += 1;
        if c != b'%' {
            out.push(c);
            continue;
        }
        let mut spec = Spec {
            int_bytes: 4,
            ..Spec::default()
        };
        while let Some(&flag) = fmt.get(i) {
            match flag {
                b'-' => spec.left = true,
                b'+' => spec.plus = true,
                b' ' => spec.space = true,
                b'0' => spec.zero = true,
                b'#' => spec.alt = true,
                _ => break,
            }
            i += 1;
        }
        if fmt.get(i) == Some(&b'*') {
            i += 1;
            let w = take().1 .0 as i32;
            spec.left |= w < 0;
            spec.width = w.unsigned_abs() as usize;
        } else {
            spec.width = number(fmt, &mut i);
        }
        if fmt.get(i) == Some(&b'.') {
            i += 1;
            spec.precision = Some(if fmt.get(i) == Some(&b'*') {
                i += 1;
                (take().1 .0 as i32).max(0) as usize
            } else {
                number(fmt, &mut i)
            });
        }
        while let Some(&m) = fmt.get(i) {
            match m {
                b'h' => spec.int_bytes = if spec.int_bytes == 2 { 1 } else { 2 },
                b'l' | b'z' | b'j' | b't' | b'L' => spec.int_bytes = 8,
                _ => break,
            }
            i += 1;
        }
        let widest = spec.width.max(spec.precision.unwrap_or(0));
        if widest > MAX_FIELD {
            return Err(FormatError::FieldTooWide(widest));
        }
        let Some(&conv) = fmt.get(i) else {
            out.push(b'%');
            break;
        };
        i += 1;
        let text: Vec<u8> = match conv {
            b'%' => {
                out.push(b'%');
                continue;
            }
            b'd' | b'i' => {
                let v = signed(take().1 .0, spec.int_bytes);
                let sign = sign_prefix(v < 0, &spec);
                pad_number(
                    &spec,
                    sign,
                    &int_digits(v.unsigned_abs().to_string(), &spec),
                )
            }
            b'u' | b'x' | b'X' | b'o' => {
                let v = unsigned(take().1 .0, spec.int_bytes);
                let digits = match conv {
                    b'u' => v.to_string(),
                    b'x' => format!("{v:x}"),
                    b'X' => format!("{v:X}"),
                    _ => format!("{v:o}"),
                };
                let prefix = match conv {
                    b'x' if spec.alt && v != 0 => "0x",
                    b'X' if spec.alt && v != 0 => "0X",
                    b'o' if spec.alt => "0",
                    _ => "",
                };
                pad_number(&spec, prefix, &int_digits(digits, &spec))
            }
            b'p' => {
                let v = take().1 .0;
                pad_number(&spec, "0x", &format!("{v:x}"))
            }
            b'c' => pad(&spec, vec![take().1 .0 as u8]),
            b's' => {
                let (index, (p, _)) = take();
                let mut s = string_at(p).map_err(|e| FormatError::String(index, e))?;
                if let Some(prec) = spec.precision {
                    s.truncate(prec);
                }
                pad(&spec, s)
            }
            b'f' | b'F' | b'e' | b'E' | b'g' | b'G' => {
                let (_, (word, s)) = take();
                let x = match s {
                    Scalar::F32 | Scalar::F64 => f(word),
                    Scalar::Int(k) if k.signed() => word as i64 as f64,
                    _ => word as f64,
                };
                let sign = sign_prefix(x.is_sign_negative() && !x.is_nan(), &spec);
                let body = float_body(x.abs(), conv, &spec);
                let body = if conv.is_ascii_uppercase() {
                    body.to_uppercase()
                } else {
                    body
                };
                if x.is_finite() {
                    pad_number(&spec, sign, &body)
                } else {
                    pad(&spec, format!("{sign}{body}").into_bytes())
                }
            }
            other => vec![b'%', other],
        };
        out.extend(text);
    }
    Ok(out)
}

fn number(fmt: &[u8], i: &mut usize) -> usize {
    let mut n = 0usize;
    while let Some(d) = fmt.get(*i).filter(|d| d.is_ascii_digit()) {
        n = n.saturating_mul(10).saturating_add((d - b'0') as usize);
        *i += 1;
    }
    n
}

fn signed(word: u64, bytes: u32) -> i64 {
    match bytes {
        1 => word as i8 as i64,
        2 => word as i16 as i64,
        4 => word as i32 as i64,
        _ => word as i64,
    }
}

fn unsigned(word: u64, bytes: u32) -> u64 {
    match bytes {
        1 => word as u8 as u64,
        2 => word as u16 as u64,
        4 => word as u32 as u64,
        _ => word,
    }
}

fn sign_prefix(negative: bool, spec: &Spec) -> &'static str {
    if negative {
        "-"
    } else if spec.plus {
        "+"
    } else if spec.space {
        " "
    } else {
        ""
    }
}

/// Integer digits with the precision's minimum digit count (`%.0d` of 0 prints nothing).
fn int_digits(digits: String, spec: &Spec) -> String {
    match spec.precision {
        Some(0) if digits == "0" => String::new(),
        Some(p) if digits.len() < p => format!("{}{digits}", "0".repeat(p - digits.len())),
        _ => digits,
    }
}

/// Pads a number: zeros go between the sign/prefix and the digits.
fn pad_number(spec: &Spec, prefix: &str, digits: &str) -> Vec<u8> {
    let len = prefix.len() + digits.len();
    if spec.zero && !spec.left && spec.width > len {
        format!("{prefix}{}{digits}", "0".repeat(spec.width - len)).into_bytes()
    } else {
        pad(spec, format!("{prefix}{digits}").into_bytes())
    }
}

fn pad(spec: &Spec, text: Vec<u8>) -> Vec<u8> {
    if text.len() >= spec.width {
        return text;
    }
    let fill = vec![b' '; spec.width - text.len()];
    if spec.left {
        [text, fill].concat()
    } else {
        [fill, text].concat()
    }
}

/// The digits of a non-negative float (lowercase).
fn float_body(x: f64, conv: u8, spec: &Spec) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return "inf".into();
    }
    let prec = spec.precision.unwrap_or(6);
    match conv.to_ascii_lowercase() {
        b'f' => {
            let s = format!("{x:.prec$}");
            if spec.alt && prec == 0 {
                s + "."
            } else {
                s
            }
        }
        b'e' => exp_form(x, prec, spec.alt),
        _ => {
            let p = prec.max(1);
            let exp = exponent_after_rounding(x, p - 1);
            let s = if exp < -4 || exp >= p as i32 {
                exp_form(x, p - 1, spec.alt)
            } else {
                format!("{x:.*}", (p as i32 - 1 - exp).max(0) as usize)
            };
            if spec.alt {
                s
            } else {
                strip_zeros(&s)
            }
        }
    }
}

/// `d.ddde±XX` with at least two exponent digits, as C prints it.
fn exp_form(x: f64, prec: usize, alt: bool) -> String {
    let s = format!("{x:.prec$e}");
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let dot = if alt && prec == 0 { "." } else { "" };
    format!(
        "{mantissa}{dot}e{}{:02}",
        if exp < 0 { '-' } else { '+' },
        exp.abs()
    )
}

fn exponent_after_rounding(x: f64, prec: usize) -> i32 {
    if x == 0.0 {
        return 0;
    }
    let s = format!("{x:.prec$e}");
    s.split_once('e')
        .and_then(|(_, e)| e.parse().ok())
        .unwrap_or(0)
}

/// `%g` drops trailing zeros of the fraction (and a bare point).
fn strip_zeros(s: &str) -> String {
    let (mantissa, exp) = match s.find('e') {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, ""),
    };
    let mantissa = if mantissa.contains('.') {
        mantissa.trim_end_matches('0').trim_end_matches('.')
    } else {
        mantissa
    };
    format!("{mantissa}{exp}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::fw;
    use fork_frontend::hir::IntKind;

    fn fmt(f: &str, args: &[Arg]) -> String {
        let out = printf(f.as_bytes(), args, &|_| Ok(b"str".to_vec())).unwrap();
        String::from_utf8(out).unwrap()
    }

    const INT: Scalar = Scalar::Int(IntKind::I32);

    #[test]
    fn integers_with_flags_width_precision() {
        assert_eq!(
            fmt(
                "%d|%5d|%-5d|%05d",
                &[
                    (-3i64 as u64, INT),
                    (42, INT),
                    (42, INT),
                    (-42i64 as u64, INT)
                ]
            ),
            "-3|   42|42   |-0042"
        );
        assert_eq!(
            fmt(
                "%u %x %X %#x %o",
                &[
                    (u32::MAX as u64, INT),
                    (255, INT),
                    (255, INT),
                    (255, INT),
                    (8, INT)
                ]
            ),
            "4294967295 ff FF 0xff 10"
        );
        assert_eq!(
            fmt(
                "%ld %.3d %+d %%",
                &[(1 << 40, Scalar::Int(IntKind::I64)), (7, INT), (5, INT)]
            ),
            "1099511627776 007 +5 %"
        );
        assert_eq!(
            fmt(
                "%*d|%c|%.2s",
                &[(4, INT), (9, INT), (b'A' as u64, INT), (0, Scalar::Ptr)]
            ),
            "   9|A|st"
        );
    }

    #[test]
    fn floats_as_c_prints_them() {
        let d = |x: f64| (fw(x), Scalar::F64);
        assert_eq!(
            fmt("%f %.2f %8.3f", &[d(3.5), d(-0.005), d(2.0)]),
            "3.500000 -0.01    2.000"
        );
        assert_eq!(
            fmt("%e %.1E", &[d(12345.678), d(0.00012)]),
            "1.234568e+04 1.2E-04"
        );
        assert_eq!(
            fmt("%g %g %g %g", &[d(100000.0), d(1e6), d(0.0001), d(1.5e-5)]),
            "100000 1e+06 0.0001 1.5e-05"
        );
        assert_eq!(fmt("%g %.3g", &[d(0.0), d(1.23456)]), "0 1.23");
    }
}
