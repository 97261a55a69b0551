//! Snapshot tests of the splitting rules: each `tests/rules/NAME.fork` and its Plan text side
//! by side. The CPU Plan executor and the differential test in the workspace's `tests/` run
//! the same programs against the simulator.

use fork_frontend::{check_source, diag, Options};

fn plan_or_errors(name: &str) -> String {
    let path = format!("{}/tests/rules/{name}.fork", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(&path).expect("the rule corpus file exists");
    let checked = match check_source(&format!("{name}.fork"), &source, &Options::default()) {
        Ok(checked) => checked,
        Err(failed) => panic!(
            "{name}.fork does not check:\n{}",
            diag::render(&failed.sources, &failed.diagnostics, false)
        ),
    };
    let result = match transform::transform(&checked.program) {
        Ok(plan) => transform::print::print_plan(&plan),
        Err(errors) => diag::render(&checked.sources, &errors, false),
    };
    format!("{source}\n==================== plan ====================\n{result}")
}

macro_rules! rule {
    ($($name:ident),* $(,)?) => {$(
        #[test]
        fn $name() {
            insta::assert_snapshot!(stringify!($name), plan_or_errors(stringify!($name)));
        }
    )*};
}

rule!(
    fig3_write_then_read,
    fig4_if_on_processor_id,
    fig5_loop_with_shared_write,
    rule1_read_before_write,
    rule1_private_code_one_kernel,
    rule2_sync_call,
    rule3_fork,
    rule3_conditions,
    rule4_loop_in_kernel,
    rule4_loop_condition_uses_group,
    rule4_private_loop_with_cut,
    rule4_order_free_loop,
    rule4_cyclic_loop,
    rule4_strided_cyclic_loop,
    rule4_cyclic_loop_row_cells,
    grid_region,
    rule5_leave_under_private_condition,
    rule6_seq_farm_async,
    rule6_async_function_with_barrier,
    multiprefix_sync,
    multiprefix_distinct_stores,
    switch_in_kernel,
    rule3_switch_with_cuts,
    rule3_switch_conditional_break,
    rule3_uniform_condition,
    rule3_predicated_arms,
    sequence_conditional_host_op,
    sequence_nested_shared_write,
    rule6_async_barrier_under_private_condition,
    rule6_async_private_switch_with_barrier,
    rule6_async_call_under_private_condition,
    rule6_async_call_in_expression,
    rule6_farm_in_async_code,
    rule6_start_under_private_condition,
    rule6_recursive_async_call_under_private_condition,
    rule6_recursive_async_call_with_array_under_private_condition,
    rule6_recursive_async_call_with_pointer_into_frame,
    rule6_recursive_async_call_in_start_under_private_condition,
    rule6_recursive_async_call_in_seq_of_start_under_private_condition,
    rule6_recursive_async_call_in_farm_of_start_under_private_condition,
    rule6_recursive_async_call_in_seq_of_async_code_under_private_condition,
    rule6_recursive_call_through_straight_function_under_private_condition,
    rule6_straight_call_that_synchronises_under_private_condition,
    rule6_recursive_call_through_straight_function_in_seq_of_start,
    rule6_group_construct_call_under_private_condition,
);
