"""Functions that newer reference tasks call but Debian's PyTorch (1.13) lacks, added to torch only when missing, so
that the reference Model runs as on MultiKernelBench's PyTorch 2.x. Each follows the formula in PyTorch's docs."""
import math


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                                 enable_gqa=False):
    """torch.nn.functional.scaled_dot_product_attention (PyTorch 2.0+), the documented math path:
    softmax(Q K^T * scale + bias) V, bias = -inf where a bool mask (or the causal lower triangle) excludes, or the
    float mask added."""
    import torch
    L, S = query.size(-2), key.size(-2)
    scale_factor = 1.0 / math.sqrt(query.size(-1)) if scale is None else scale
    bias = torch.zeros(L, S, dtype=query.dtype, device=query.device)
    if is_causal:
        keep = torch.ones(L, S, dtype=torch.bool, device=query.device).tril(diagonal=0)
        bias = bias.masked_fill(keep.logical_not(), float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            bias = bias.masked_fill(attn_mask.logical_not(), float("-inf"))
        else:
            bias = attn_mask + bias
    if enable_gqa:
        key = key.repeat_interleave(query.size(-3) // key.size(-3), -3)
        value = value.repeat_interleave(query.size(-3) // value.size(-3), -3)
    w = query @ key.transpose(-2, -1) * scale_factor
    w = torch.softmax(w + bias, dim=-1)
    if dropout_p > 0.0:
        w = torch.dropout(w, dropout_p, train=True)
    return w @ value


def install():
    import torch.nn.functional as F
    if not hasattr(F, "scaled_dot_product_attention"):
        F.scaled_dot_product_attention = scaled_dot_product_attention
