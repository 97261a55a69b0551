//! Rasterises an SVG (e.g. a `--trace out.svg` picture) to PNG with resvg, to look at it
//! without a browser: `cargo run -p pram-trace --example svg_to_png -- in.svg out.png [scale]`.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (input, output) = match args.as_slice() {
        [i, o] | [i, o, _] => (i, o),
        _ => {
            eprintln!("usage: svg_to_png IN.svg OUT.png [SCALE]");
            return ExitCode::FAILURE;
        }
    };
    let scale: f32 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1.0);
    match render(input, output, scale) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::FAILURE
        }
    }
}

fn render(input: &str, output: &str, scale: f32) -> Result<(), String> {
    let text = std::fs::read_to_string(input).map_err(|e| format!("cannot read `{input}`: {e}"))?;
    let mut options = resvg::usvg::Options::default();
    options.fontdb_mut().load_system_fonts();
    let tree = resvg::usvg::Tree::from_str(&text, &options).map_err(|e| e.to_string())?;
    let size = tree
        .size()
        .to_int_size()
        .scale_by(scale)
        .ok_or("bad scale")?;
    let mut pixmap =
        resvg::tiny_skia::Pixmap::new(size.width(), size.height()).ok_or("empty picture")?;
    let transform = resvg::tiny_skia::Transform::from_scale(scale, scale);
    resvg::render(&tree, transform, &mut pixmap.as_mut());
    pixmap.save_png(output).map_err(|e| e.to_string())
}
