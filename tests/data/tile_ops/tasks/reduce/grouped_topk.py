"""Grouped top-k routing of a mixture of experts (DeepSeek-V3's scheme at a small size): 32 experts in 4 groups of 8;
each group is scored by the sum of its two largest scores, the 2 best groups are kept, the 4 best experts of those
are chosen, and their weights are their scores normalised to sum 1. Returns (weights, expert indices)."""
import torch
import torch.nn as nn

LEVEL = 2
GROUPS, KEEP_GROUPS, TOP_K = 4, 2, 4


def sidon(n):
    # the first n terms of the Mian-Chowla sequence: every sum of two terms is distinct
    seq, sums = [], set()
    c = 1
    while len(seq) < n:
        new = {c + s for s in seq} | {2 * c}
        if not new & sums:
            sums |= new
            seq.append(c)
        c += 1
    return torch.tensor(seq, dtype=torch.float32)


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, scores: torch.Tensor):
        s = scores.float()
        t, e = s.shape
        group_scores = s.view(t, GROUPS, e // GROUPS).topk(2, dim=-1).values.sum(-1)
        groups = group_scores.topk(KEEP_GROUPS, dim=-1).indices
        keep = torch.zeros(t, GROUPS).scatter_(1, groups, 1.0)
        keep = keep.unsqueeze(-1).expand(t, GROUPS, e // GROUPS).reshape(t, e)
        values, indices = s.masked_fill(keep == 0, float("-inf")).topk(TOP_K, dim=-1)
        return (values / values.sum(-1, keepdim=True)).to(scores.dtype), indices


tokens = 300
experts = 32
dtype = torch.float32


def get_inputs():
    # each token's scores: a shuffle of 32 values whose pairwise sums all differ, exact in float16, so no two groups
    # or experts tie and the indices are unambiguous
    values = sidon(experts) / 2048
    order = torch.argsort(torch.rand(tokens, experts), dim=-1)
    return [values[order].to(dtype)]


def get_init_inputs():
    return []


CASES = [dict(dtype=torch.float16), dict(tokens=7), dict(tokens=2000, dtype=torch.float16)]
