//! The transform: a checked program (`fork_frontend::hir`) becomes a `plan::Plan` — kernels,
//! the host control graph of each host function, and the storage layout
//! (docs/transformation-rules.md, ARCHITECTURE.md).
//!
//! `effects` says what code does (shared reads/writes, output, group dependence), `rules`
//! applies the splitting rules, `sequence` lowers a synchronous statement step by step
//! between its sequence points where the rules cannot keep lockstep inside it, `storage`
//! lays out memory, `regions` marks what one thread block can run without the host,
//! `host_program` lowers the host control graph once into the flat form every executor
//! walks, `valid` checks the finished Plan, `print` renders it as text.

pub mod effects;
pub mod emit_cuda;
pub mod host_program;
pub mod lifetimes;
mod phases;
pub mod plan;
pub mod points_to;
pub mod print;
pub mod regions;
pub mod rules;
mod sequence;
pub mod storage;
pub mod valid;

use effects::Summaries;
use fork_frontend::diag::{Code, Diagnostic};
use fork_frontend::hir::{FnKind, Mode, Program, Type};
use plan::{HostFnId, HostFunction, Plan};
use std::collections::HashMap;

/// The transform's diagnostic codes (E05xx).
pub const CODES: &[&Code] = &[&rules::E0501, &valid::E0590, &emit_cuda::E0591];

/// Splits a checked program into a Plan. Errors name the construct the transform cannot
/// handle, with its location.
pub fn transform(program: &Program) -> Result<Plan, Vec<Diagnostic>> {
    let source = program;
    let (program, cyclic_loops) =
        rules::uniform_conditions_shared(&rules::recurring_starts_outlined(
            &rules::farms_in_async_code_as_blocks(&rules::return_zero_at_end(program)),
        ));
    let program = &program;
    let summaries = Summaries::new(program);
    // `main` first, then every other function that runs on the host.
    let mut host_funcs = vec![program.main];
    host_funcs.extend(
        (0..program.funcs.len())
            .map(|i| fork_frontend::hir::FuncId(i as u32))
            .filter(|f| {
                // A function whose every call is compiled in place needs no host function.
                *f != program.main
                    && (summaries.is_host_fn(*f) || summaries.straight_needs_lockstep(program, *f))
                    && !rules::only_inlined(program, &summaries, *f)
            }),
    );
    let ids: HashMap<_, _> = host_funcs
        .iter()
        .enumerate()
        .map(|(i, f)| (*f, HostFnId(i as u32)))
        .collect();
    let mut builder = rules::Builder::new(program.clone(), &summaries, cyclic_loops, ids);
    let mut functions = Vec::new();
    for func in host_funcs {
        let f = program.func(func);
        // A `straight` function runs in its caller's mode: on the host it is called by a
        // synchronous group (asynchronous callers run it as a device function, or in place
        // where it synchronises).
        let mode = if f.kind == FnKind::Async {
            Mode::Async
        } else {
            Mode::Sync
        };
        let (body, shared_frame) = builder.function(func, mode);
        let ret = (f.ret != Type::Void).then(|| builder.temp(f.ret.clone(), "ret", f.span));
        functions.push(HostFunction {
            func,
            name: f.name.clone(),
            mode,
            body,
            ret,
            shared_frame,
            frame_bytes: 0,
        });
    }
    if !builder.diagnostics.is_empty() {
        return Err(builder.diagnostics);
    }
    // An asynchronous host function is a region of the simulator's trace, named by its first
    // statement in the source.
    for (i, f) in functions.iter().enumerate() {
        if f.mode == Mode::Async {
            let func = source.func(f.func);
            builder.async_regions.push(plan::AsyncRegion {
                within: plan::AsyncWithin::Function(HostFnId(i as u32)),
                span: func.body.stmts.first().map_or(func.span, |s| s.span),
                call: None,
            });
        }
    }
    let storage = storage::layout(
        &builder.program,
        &builder.kernels,
        &mut functions,
        &builder.shared_homes,
        builder.shared_frames,
    );
    let mut plan = Plan {
        program: builder.program,
        kernels: builder.kernels,
        functions,
        main: HostFnId(0),
        storage,
        host: Default::default(),
        async_regions: builder.async_regions,
        phase_barriers: builder.phase_barriers,
    };
    regions::mark_block_regions(&mut plan);
    plan.host = host_program::lower(&plan);
    if let Err(valid::Invalid(what)) = valid::validate(&plan) {
        let span = plan.program.func(plan.program.main).span;
        return Err(vec![Diagnostic::error(&valid::E0590, span, what)]);
    }
    Ok(plan)
}
