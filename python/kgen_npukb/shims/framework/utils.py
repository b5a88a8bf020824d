"""framework.utils.check_precision of NPUKernelBench (framework/utils.py of the repository), with the same rule:
outputs are compared pairwise (bool as int); an element fails when its absolute error exceeds max_abs_error and its
relative error |ref - new| / (|ref| + 1e-7) exceeds max_rel_error, or anything is not finite. Returns
(1 or 0, all absolute errors, all relative errors)."""
import torch


def check_precision(outputs, outputs_new, max_abs_error, max_rel_error):
    outputs = [outputs] if not isinstance(outputs, list) else outputs
    outputs_new = [outputs_new] if not isinstance(outputs_new, list) else outputs_new
    abs_all, rel_all = [], []
    ok = True
    for ref, new in zip(outputs, outputs_new):
        if new.dtype == torch.bool:
            ref, new = ref.to(torch.int), new.to(torch.int)
        d = torch.abs(ref - new)
        rel = d / (torch.abs(ref) + 1e-7)
        abs_all.append(d.reshape(-1))
        rel_all.append(rel.reshape(-1))
        finite = torch.isfinite(ref).all() and torch.isfinite(new).all() and torch.isfinite(d).all() and \
            torch.isfinite(rel).all()
        if not finite or ((d > max_abs_error) & (rel > max_rel_error)).any():
            ok = False
    return (1 if ok else 0), torch.cat(abs_all), torch.cat(rel_all)
