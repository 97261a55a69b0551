// forkcc device-resident schedule, host side of the standalone .cu (`--schedule device`): one
// cooperative launch of the persistent kernel runs the whole program (fk_schedule.cuh); the
// host then orders the printf records by their order keys.

#include <vector>

// Threads of each block of the persistent kernel that run processors: the processors spread
// over every block that can be resident (a warp at least, half the block at most,
// FK_DEVICE_RUNNERS_GRID in a program with a grid region, whose teams then run its group of
// every processor), so that P = 4096 runs on 128 SMs rather than 16. The driver's
// `device_runners` is the same. -DFK_DEVICE_RUNNERS=N sets it (a multiple of 32, at most
// FK_DEVICE_THREADS / 2).
inline int fk_device_runners(fk_u64 procs, fk_u64 resident_blocks, bool grid_regions) {
#ifdef FK_DEVICE_RUNNERS
    (void)procs, (void)resident_blocks, (void)grid_regions;
    return FK_DEVICE_RUNNERS;
#else
    fk_u64 per_block = (procs + resident_blocks - 1) / resident_blocks;
    fk_u64 most = grid_regions ? FK_DEVICE_RUNNERS_GRID : FK_DEVICE_THREADS / 2;
    return (int)std::min<fk_u64>((per_block + 31) / 32 * 32, most);
#endif
}

// `fk_schedule_depth(P)`, the slot stack size and whether the program has a grid region are
// generated with the program (the GPU driver uses the same rules:
// transform::emit_cuda::schedule).
inline void fk_device_schedule(int entry, fk_u64 slot_stack_bytes, bool slot_wide,
                               bool grid_regions) {
    FkHost &h = fk_h;
    fk_u64 P = (fk_u64)h.procs;
    FkDevice d;
    memset(&d, 0, sizeof d);
    d.depth = fk_schedule_depth(P);
    d.entry = entry;
    fk_alloc_array(d.procs, P, "processor program points");
    fk_alloc_array(d.results, P, "collective results");
    fk_alloc_array(d.frames, P * d.depth, "processor frames");
    fk_alloc_array(d.sync, P * (d.depth + 1), "group barriers");
    fk_alloc_array(d.scratch, 2 * P, "collective scratch");
    d.frame_heap_bytes = FK_FRAME_HEAP_BYTES;
    fk_alloc_array(d.frame_heap, d.frame_heap_bytes, "shared frames");
    fk_alloc_array(d.frame_heap_top, 1, "shared frames");
    fk_alloc_array(d.error, 1, "the schedule's error word");
    fk_alloc_array(d.fault_key, 1, "the fault's order key");
    fk_alloc_array(d.tasks, P, "region task lists");
    fk_alloc_array(d.task_posts, 1, "region task posts");
    fk_alloc_array(d.idle, P / 32 + 1, "idle blocks");
    fk_alloc_array(d.runners_done, 1, "ended runner warps");
    fk_u64 stride = slot_stack_bytes;
    d.slot_stack_bytes = stride;
    h.device_frames = d.depth;
    h.device_slot_bytes = stride;
    FkSlotStacks stacks;
    stacks.stride = stride;
    fk_alloc_array(stacks.base, P * stride * (slot_wide ? 2 : 1), "processor slot stacks");
    fk_cuda(cudaMemcpyToSymbol(fk_d, &d, sizeof d), "the schedule's descriptor");
    if (h.common.writes) {
        // Group instances' shared frames live in the frame heap here.
        h.common.frames = fk_range(d.frame_heap, d.frame_heap_bytes);
        fk_cuda(cudaMemcpyToSymbol(fk_common, &h.common, sizeof h.common), "the write logs");
    }
    fk_cuda(cudaMemcpyToSymbol(fk_slot_stacks, &stacks, sizeof stacks), "the slot stacks");
#ifdef FK_TIMESTAMPS
    // Built with -DFK_TIMESTAMPS=N: the first N group instances' timestamps (FkTraceRec),
    // printed to stderr after the run as `fk-timestamps FORMED HEX` (the bytes, which
    // pram_runtime::gpu::timeline::decode_device reads).
    FkTrace trace;
    trace.cap = FK_TIMESTAMPS;
    trace.regions = 1;
    fk_alloc_array(trace.recs, trace.cap, "timestamps");
    fk_alloc_array(trace.count, 1, "timestamps");
    fk_cuda(cudaMemcpyToSymbol(fk_t, &trace, sizeof trace), "the timestamps");
#endif
    fk_device_init<<<FK_BLOCKS(h.procs)>>>();
    fk_after_launch("fk_device_init");
#ifdef FK_EMU
    // No more blocks than processors, as the GPU's launch below (at most ceil(P / runners)): each
    // block's task list is fk_d.tasks[blockIdx.x], of P entries, which fk_device_init sets to
    // empty. At P = 1 a second block read the word past the list (0: "processor 0's task")
    // and ran processor 0's region again.
    fk_device_run<<<(unsigned)std::min<fk_u64>(FK_EMU_BLOCKS, P), FK_EMU_DEVICE_THREADS>>>(32);
#else
    int per_sm = 0, sms = 0;
    fk_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fk_device_run, FK_DEVICE_THREADS, 0),
            "the persistent kernel's occupancy");
    fk_cuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "the GPU's SM count");
    int runners = fk_device_runners(P, (fk_u64)per_sm * sms, grid_regions);
    fk_u64 blocks = std::min<fk_u64>((fk_u64)per_sm * sms, (P + runners - 1) / runners);
    void *args[1] = {&runners};
    fk_cuda(cudaLaunchCooperativeKernel((void *)fk_device_run, (unsigned)blocks, FK_DEVICE_THREADS, args, 0, 0),
            "launching the persistent kernel");
#endif
    fk_cuda(cudaDeviceSynchronize(), "running the program");
#ifdef FK_TIMESTAMPS
    {
        unsigned formed = 0;
        fk_read(&formed, trace.count, 1);
        fk_u64 kept = std::min<fk_u64>(formed, trace.cap);
        std::vector<unsigned char> bytes(kept * sizeof(FkTraceRec));
        fk_cuda(cudaMemcpy(bytes.data(), trace.recs, bytes.size(), cudaMemcpyDeviceToHost),
                "reading the timestamps");
        fprintf(stderr, "fk-timestamps %u ", formed);
        for (unsigned char b : bytes) fprintf(stderr, "%02x", b);
        fprintf(stderr, "\n");
    }
#endif
    FkError error;
    fk_cuda(cudaMemcpy(&error, d.error, sizeof error, cudaMemcpyDeviceToHost), "reading the schedule's error");
    char m[256];
    switch (error.code) {
    case 0:
        break;
    case FK_ERR_FRAMES:
        snprintf(m, sizeof m, "the device schedule: processor %d nested groups deeper than %d frames (recursion too deep?)", error.proc, d.depth);
        fk_fatal(m);
    default:
        snprintf(m, sizeof m, "the device schedule: the %llu-byte heap of shared frames is full (processor %d)", d.frame_heap_bytes, error.proc);
        fk_fatal(m);
    }
    fk_h.fault_key = d.fault_key;
}

// The faulting step's order key (fk_fault_key): the output's cut.
inline std::vector<unsigned> fk_fault_cut() {
    FkFaultKey key;
    fk_cuda(cudaMemcpy(&key, fk_h.fault_key, sizeof key, cudaMemcpyDeviceToHost), "reading the fault's order key");
    return fk_key_words(key.key, key.pairs);
}
