//! Rule 6: `start`, `farm` and `seq` change the mode (asynchronous code is compiled by
//! `Builder::async_region`, `phases`).

use super::*;

impl Builder<'_> {
    /// `start S`: a barrier of all processors, the root group runs S synchronously.
    pub(crate) fn start_region(&mut self, body: &Stmt, ops: &mut Vec<HostOp>) {
        self.close(ops, CutReason::HostConstruct);
        let (body, shared_frame) = self.scoped_block(body, Mode::Sync, "start");
        ops.push(HostOp::Start { body, shared_frame });
    }

    /// `farm S`: asynchronous kernels (cut only at `barrier`), a group barrier at the end.
    pub(crate) fn farm_region(&mut self, body: &Stmt, ops: &mut Vec<HostOp>) {
        self.close(ops, CutReason::HostConstruct);
        self.async_region(block_stmts(body), ops);
        self.close(ops, CutReason::Barrier);
    }

    /// `seq S`: one processor (`$$ == 0`) runs S; one processor needs no cut, so S is
    /// compiled as asynchronous code.
    pub(crate) fn seq_region(&mut self, body: &Stmt, ops: &mut Vec<HostOp>) {
        self.close(ops, CutReason::HostConstruct);
        let mut seq_ops = Vec::new();
        self.async_region(block_stmts(body), &mut seq_ops);
        self.close(&mut seq_ops, CutReason::BlockEnd);
        ops.push(HostOp::Seq(seq_ops));
    }
}

/// The statements of a block, or the one statement.
pub(crate) fn block_stmts(s: &Stmt) -> &[Stmt] {
    match &s.kind {
        StmtKind::Block(b) => &b.stmts,
        _ => std::slice::from_ref(s),
    }
}
