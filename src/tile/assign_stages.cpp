// assign_stages: splits one tile's work into the three pipelined stages and places the queue operations. Copy-in
// allocates each input queue tensor, fills it by DMA and enqueues it; compute dequeues the inputs, allocates the
// output queue tensors before their first writer, frees each input after its last reader and enqueues the outputs;
// copy-out dequeues, writes to GM and frees. With depth-2 queues the DMA of tile i+1 overlaps the compute of tile i.
#include "tile/passes.h"

namespace kgen::tile {
void assign_stages(Kernel& k) {
  k.queue_ops.clear();
  const int nb = static_cast<int>(k.buffers.size());
  const int n = static_cast<int>(k.body.size());
  // Last reader of each input queue, first writer of each output queue (body instruction index).
  std::vector<int> last_read(nb, -1), first_write(nb, n);
  for (int i = 0; i < n; ++i) {
    const Instr& in = k.body[i];
    for (int s : in.srcs) {
      if (s < 0) continue;
      const Value& v = k.values[s];
      int b = v.alias_of >= 0 ? v.alias_of : v.buffer;
      if (b >= 0 && k.buffers[b].kind == BufKind::InQueue) last_read[b] = std::max(last_read[b], i);
    }
    if (in.op == Op::Load) {   // a conversion reads the queue at the load
      const Value& v = k.values[in.dst];
      int b = v.alias_of >= 0 ? v.alias_of : v.buffer;
      if (b >= 0) last_read[b] = std::max(last_read[b], i);
    }
    if (in.dst >= 0) {
      const Value& v = k.values[in.dst];
      int b = v.buffer >= 0 && k.buffers[v.buffer].kind == BufKind::OutQueue ? v.buffer : v.alias_of;
      if (b >= 0 && k.buffers[b].kind == BufKind::OutQueue) first_write[b] = std::min(first_write[b], i);
    }
    if (in.op == Op::Store) {
      for (int b = 0; b < nb; ++b)
        if (k.buffers[b].kind == BufKind::OutQueue && k.buffers[b].tensor == in.tensor)
          first_write[b] = std::min(first_write[b], i);
    }
  }
  for (int b = 0; b < nb; ++b)
    if (k.buffers[b].kind == BufKind::InQueue) {
      k.queue_ops.push_back({QueueOp::AllocIn, b, -1});
      k.queue_ops.push_back({QueueOp::EnQueIn, b, -1});
      k.queue_ops.push_back({QueueOp::DeQueIn, b, -1});
      k.queue_ops.push_back({QueueOp::FreeIn, b, last_read[b]});
    }
  for (int b = 0; b < nb; ++b)
    if (k.buffers[b].kind == BufKind::OutQueue) {
      k.queue_ops.push_back({QueueOp::AllocOut, b, first_write[b] - 1});
      k.queue_ops.push_back({QueueOp::EnQueOut, b, n - 1});
      k.queue_ops.push_back({QueueOp::DeQueOut, b, -1});
      k.queue_ops.push_back({QueueOp::FreeOut, b, -1});
    }
}
}  // namespace kgen::tile
