# Session 45, device run B: as run A, with s45d: a runner warp whose block's team runs a grid
# region waits on the team's count of grid regions in shared memory, napping 256 ns between
# looks (fk_runner_idle), instead of passing over its processors' states; against s45a
# (polling every 64 ns) and s45c (passes 4096 ns apart) again.
BINS="s45a s45c s45d" bash docs/results/h200-2026-12-02-s45/runA.sh
