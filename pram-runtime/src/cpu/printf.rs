//! C `printf` formatting for the conversions Fork accepts (docs/language.md §2):
//! `%d %i %u %ld %x %c %s %f %e %g %%` with flags `- + space 0 #`, width and precision.

/// One argument, already converted by the checker to what its conversion expects.
#[derive(Debug, Clone, Copy)]
pub enum Arg {
    /// Integers (and pointers): the value sign- or zero-extended from its C type.
    Int(i64),
    Float(f64),
}

#[derive(Default)]
struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    zero: bool,
    alt: bool,
    width: usize,
    precision: Option<usize>,
    long: bool,
}

/// Formats `fmt` with `args`; `string_at` reads the C string a `%s` pointer points to.
pub fn format(
    fmt: &[u8],
    args: &[Arg],
    string_at: &dyn Fn(u64) -> Result<Vec<u8>, String>,
) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut args = args.iter();
    let mut i = 0;
    while i < fmt.len() {
        if fmt[i] != b'%' {
            out.push(fmt[i]);
            i += 1;
            continue;
        }
        i += 1;
        let mut spec = Spec::default();
        while let Some(&c) = fmt.get(i) {
            match c {
                b'-' => spec.left = true,
                b'+' => spec.plus = true,
                b' ' => spec.space = true,
                b'0' => spec.zero = true,
                b'#' => spec.alt = true,
                _ => break,
            }
            i += 1;
        }
        while let Some(d) = fmt.get(i).filter(|c| c.is_ascii_digit()) {
            spec.width = spec.width * 10 + (d - b'0') as usize;
            i += 1;
        }
        if fmt.get(i) == Some(&b'.') {
            i += 1;
            let mut p = 0;
            while let Some(d) = fmt.get(i).filter(|c| c.is_ascii_digit()) {
                p = p * 10 + (d - b'0') as usize;
                i += 1;
            }
            spec.precision = Some(p);
        }
        while matches!(fmt.get(i), Some(b'l') | Some(b'h')) {
            spec.long |= fmt[i] == b'l';
            i += 1;
        }
        let Some(&conv) = fmt.get(i) else {
            return Err("the format ends inside a conversion".into());
        };
        i += 1;
        if conv == b'%' {
            out.push(b'%');
            continue;
        }
        let arg = *args
            .next()
            .ok_or_else(|| format!("no argument for `%{}`", conv as char))?;
        let (sign, body, numeric) = match (conv, arg) {
            (b'd' | b'i', Arg::Int(v)) => {
                let v = if spec.long { v } else { v as i32 as i64 };
                let digits = with_precision(v.unsigned_abs().to_string(), spec.precision);
                (sign_of(v < 0, &spec), digits, true)
            }
            (b'u' | b'x' | b'X' | b'o', Arg::Int(v)) => {
                let v = if spec.long { v as u64 } else { v as u32 as u64 };
                let digits = match conv {
                    b'u' => v.to_string(),
                    b'x' => format!("{v:x}"),
                    b'X' => format!("{v:X}"),
                    _ => format!("{v:o}"),
                };
                let prefix = if spec.alt && v != 0 && conv != b'u' {
                    match conv {
                        b'x' => "0x",
                        b'X' => "0X",
                        _ => "0",
                    }
                } else {
                    ""
                };
                (
                    prefix.to_string(),
                    with_precision(digits, spec.precision),
                    true,
                )
            }
            (b'c', Arg::Int(v)) => {
                out_pad(&mut out, &spec, "", &[v as u8], false);
                continue;
            }
            (b's', Arg::Int(p)) => {
                let mut s = string_at(p as u64)?;
                if let Some(n) = spec.precision {
                    s.truncate(n);
                }
                out_pad(&mut out, &spec, "", &s, false);
                continue;
            }
            (b'f' | b'F' | b'e' | b'E' | b'g' | b'G', Arg::Float(v)) => {
                let p = spec.precision.unwrap_or(6);
                let body = if v.is_nan() {
                    "nan".to_string()
                } else if v.is_infinite() {
                    "inf".to_string()
                } else {
                    match conv {
                        b'f' | b'F' => format!("{:.*}", p, v.abs()),
                        b'e' | b'E' => exp_form(v.abs(), p),
                        _ => general(v.abs(), p, spec.alt),
                    }
                };
                let body = if conv.is_ascii_uppercase() {
                    body.to_uppercase()
                } else {
                    body
                };
                let numeric = v.is_finite();
                (
                    sign_of(v.is_sign_negative() && !v.is_nan(), &spec),
                    body,
                    numeric,
                )
            }
            (c, _) => return Err(format!("`%{}` does not match its argument", c as char)),
        };
        let zero_ok = numeric
            && !(spec.precision.is_some()
                && matches!(conv, b'd' | b'i' | b'u' | b'x' | b'X' | b'o'));
        out_pad(&mut out, &spec, &sign, body.as_bytes(), zero_ok);
    }
    Ok(out)
}

fn sign_of(negative: bool, spec: &Spec) -> String {
    if negative {
        "-".into()
    } else if spec.plus {
        "+".into()
    } else if spec.space {
        " ".into()
    } else {
        String::new()
    }
}

/// Integer precision: at least `p` digits; precision 0 prints 0 as nothing.
fn with_precision(digits: String, p: Option<usize>) -> String {
    match p {
        Some(0) if digits == "0" => String::new(),
        Some(p) if digits.len() < p => format!("{}{digits}", "0".repeat(p - digits.len())),
        _ => digits,
    }
}

fn out_pad(out: &mut Vec<u8>, spec: &Spec, sign: &str, body: &[u8], zero_ok: bool) {
    let len = sign.len() + body.len();
    let pad = spec.width.saturating_sub(len);
    if spec.left {
        out.extend_from_slice(sign.as_bytes());
        out.extend_from_slice(body);
        out.resize(out.len() + pad, b' ');
    } else if spec.zero && zero_ok {
        out.extend_from_slice(sign.as_bytes());
        out.resize(out.len() + pad, b'0');
        out.extend_from_slice(body);
    } else {
        out.resize(out.len() + pad, b' ');
        out.extend_from_slice(sign.as_bytes());
        out.extend_from_slice(body);
    }
}

/// `%e` of a non-negative finite value: `d.ddddde+XX`.
fn exp_form(v: f64, p: usize) -> String {
    let s = format!("{:.*e}", p, v);
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exp.abs())
}

/// `%g`: `%e` or `%f` by the exponent, trailing zeros removed unless `#`.
fn general(v: f64, p: usize, alt: bool) -> String {
    let p = p.max(1);
    let exp = if v == 0.0 {
        0
    } else {
        // The exponent after rounding to p significant digits.
        let e = format!("{:.*e}", p - 1, v);
        e.split_once('e')
            .and_then(|(_, x)| x.parse::<i32>().ok())
            .unwrap_or(0)
    };
    let s = if exp < -4 || exp >= p as i32 {
        exp_form(v, p - 1)
    } else {
        format!("{:.*}", (p as i32 - 1 - exp) as usize, v)
    };
    if alt {
        return s;
    }
    let (num, tail) = match s.find('e') {
        Some(i) => (&s[..i], &s[i..]),
        None => (&s[..], ""),
    };
    let num = if num.contains('.') {
        num.trim_end_matches('0').trim_end_matches('.')
    } else {
        num
    };
    format!("{num}{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(fmt: &str, args: &[Arg]) -> String {
        let no_strings = |_: u64| Err("no strings".to_string());
        String::from_utf8(format(fmt.as_bytes(), args, &no_strings).unwrap()).unwrap()
    }

    #[test]
    fn integers() {
        assert_eq!(
            f(
                "%d|%5d|%-5d|%05d|%+d",
                &[
                    Arg::Int(-42),
                    Arg::Int(42),
                    Arg::Int(42),
                    Arg::Int(-42),
                    Arg::Int(7)
                ]
            ),
            "-42|   42|42   |-0042|+7"
        );
        assert_eq!(
            f(
                "%u %x %ld",
                &[Arg::Int(-1), Arg::Int(255), Arg::Int(1 << 40)]
            ),
            "4294967295 ff 1099511627776"
        );
        assert_eq!(f("%c%%", &[Arg::Int(65)]), "A%");
    }

    #[test]
    fn floats() {
        assert_eq!(
            f(
                "%f %.2f %8.3f",
                &[Arg::Float(1.5), Arg::Float(-2.345), Arg::Float(1.23456)]
            ),
            "1.500000 -2.35    1.235"
        );
        assert_eq!(
            f("%e %.2e", &[Arg::Float(12345.678), Arg::Float(0.000123)]),
            "1.234568e+04 1.23e-04"
        );
        assert_eq!(
            f(
                "%g %g %g %g",
                &[
                    Arg::Float(100000.0),
                    Arg::Float(1000000.0),
                    Arg::Float(0.0001),
                    Arg::Float(2.5)
                ]
            ),
            "100000 1e+06 0.0001 2.5"
        );
    }
}
